//! `[prices.<family>]`: a model family's prices, over the bundled table.

use crate::model::price::{LongContext, MAX_RATE, ModelPrice, Rates};
use serde::Deserialize;

/// One `[prices.<family>]` table: USD per million tokens.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PriceEntry {
    input: f64,
    output: f64,
    /// Default 1.25 × input, as Anthropic prices 5-minute cache writes.
    cache_write_5m: Option<f64>,
    /// Default 2 × input.
    cache_write_1h: Option<f64>,
    /// Default 0.1 × input.
    cache_read: Option<f64>,
    long_context: Option<LongEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LongEntry {
    above: u64,
    input: f64,
    output: f64,
    cache_write_5m: Option<f64>,
    cache_write_1h: Option<f64>,
    cache_read: Option<f64>,
}

fn rates(
    input: f64,
    output: f64,
    w5: Option<f64>,
    w1: Option<f64>,
    read: Option<f64>,
) -> Result<Rates, String> {
    let r = Rates {
        input,
        output,
        cache_write_5m: w5.unwrap_or(input * 1.25),
        cache_write_1h: w1.unwrap_or(input * 2.0),
        cache_read: read.unwrap_or(input * 0.1),
    };
    let all = [
        r.input,
        r.output,
        r.cache_write_5m,
        r.cache_write_1h,
        r.cache_read,
    ];
    if all.iter().all(|v| (0.0..=MAX_RATE).contains(v)) {
        Ok(r)
    } else {
        Err(format!("rates must be numbers from 0 to {MAX_RATE}"))
    }
}

pub(super) fn price_of(family: &str, e: PriceEntry) -> Result<ModelPrice, String> {
    if family.trim().is_empty() {
        return Err("a family's name is empty".into());
    }
    let long_context = match e.long_context {
        Some(l) => Some(LongContext {
            above: l.above,
            rates: rates(
                l.input,
                l.output,
                l.cache_write_5m,
                l.cache_write_1h,
                l.cache_read,
            )?,
        }),
        None => None,
    };
    Ok(ModelPrice {
        fast: None,
        before: Vec::new(),
        family: family.to_owned(),
        rates: rates(
            e.input,
            e.output,
            e.cache_write_5m,
            e.cache_write_1h,
            e.cache_read,
        )?,
        long_context,
    })
}
