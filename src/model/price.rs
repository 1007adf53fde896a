//! What tokens cost: the bundled price table (`assets/prices.json`, with
//! its date and source) and the price of one message's usage. A model the
//! table does not know has no price: its tokens are counted, its cost is
//! unknown, never guessed.

use super::raw::Usage;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

static ACTIVE: OnceLock<PriceTable> = OnceLock::new();

/// USD per million tokens.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
pub struct Rates {
    pub input: f64,
    pub output: f64,
    pub cache_write_5m: f64,
    pub cache_write_1h: f64,
    pub cache_read: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModelPrice {
    /// The model id without its date (`claude-sonnet-4-5`).
    pub family: String,
    #[serde(flatten)]
    pub rates: Rates,
    /// Dearer rates for a request whose prompt is over `above` tokens.
    pub long_context: Option<LongContext>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LongContext {
    pub above: u64,
    #[serde(flatten)]
    pub rates: Rates,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PriceTable {
    pub date: String,
    pub source: String,
    pub models: Vec<ModelPrice>,
}

impl PriceTable {
    /// The table bundled with ccv.
    pub fn bundled() -> &'static PriceTable {
        static TABLE: OnceLock<PriceTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            serde_json::from_str(include_str!("../../assets/prices.json")).unwrap_or(PriceTable {
                date: String::new(),
                source: String::new(),
                models: Vec::new(),
            })
        })
    }

    /// The table costs are computed with: the bundled one, or the one the
    /// user's config made with [`install`](Self::install).
    pub fn active() -> &'static PriceTable {
        ACTIVE.get().unwrap_or_else(|| PriceTable::bundled())
    }

    /// Makes `table` the active one. Once per process, before anything is
    /// priced (a later call is ignored and says so).
    pub fn install(table: PriceTable) -> bool {
        ACTIVE.set(table).is_ok()
    }

    /// This table with `overrides` replacing or adding families.
    pub fn with_overrides(&self, overrides: impl IntoIterator<Item = ModelPrice>) -> PriceTable {
        let mut t = self.clone();
        for o in overrides {
            t.models.retain(|m| m.family != o.family);
            t.models.push(o);
        }
        t
    }

    /// Changes whenever any rate does: cached costs made with another
    /// table are recomputed.
    pub fn fingerprint(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        let mut models: Vec<&ModelPrice> = self.models.iter().collect();
        models.sort_by(|a, b| a.family.cmp(&b.family));
        for m in models {
            m.family.hash(&mut h);
            let lc = m.long_context.as_ref();
            for r in [Some(&m.rates), lc.map(|l| &l.rates)].into_iter().flatten() {
                for v in [
                    r.input,
                    r.output,
                    r.cache_write_5m,
                    r.cache_write_1h,
                    r.cache_read,
                ] {
                    v.to_bits().hash(&mut h);
                }
            }
            lc.map(|l| l.above).hash(&mut h);
        }
        format!("{:016x}", h.finish())
    }

    /// The prices of `model`: its family matched whole, or followed by a
    /// date (`claude-sonnet-4-5-20250929`); a `[1m]` suffix is ignored.
    pub fn find(&self, model: &str) -> Option<&ModelPrice> {
        let id = model.trim();
        let id = id.strip_suffix("[1m]").unwrap_or(id);
        let id = id.rsplit('/').next().unwrap_or(id);
        self.models
            .iter()
            .filter(|p| {
                id == p.family
                    || id.strip_prefix(p.family.as_str()).is_some_and(|rest| {
                        rest.strip_prefix('-')
                            .is_some_and(|d| d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()))
                    })
            })
            .max_by_key(|p| p.family.len())
    }

    /// What one message's usage cost, in USD: `None` for a model the table
    /// does not know. Claude Code's `<synthetic>` messages cost nothing.
    pub fn cost(&self, model: Option<&str>, u: &Usage) -> Option<f64> {
        let model = model?;
        if model == "<synthetic>" {
            return Some(0.0);
        }
        let p = self.find(model)?;
        let prompt = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
        let r = match &p.long_context {
            Some(l) if prompt > l.above => l.rates,
            _ => p.rates,
        };
        let hour = u
            .cache_creation
            .ephemeral_1h_input_tokens
            .min(u.cache_creation_input_tokens);
        let five = u.cache_creation_input_tokens - hour;
        let millions = |n: u64| n as f64 / 1_000_000.0;
        Some(
            millions(u.input_tokens) * r.input
                + millions(u.output_tokens) * r.output
                + millions(five) * r.cache_write_5m
                + millions(hour) * r.cache_write_1h
                + millions(u.cache_read_input_tokens) * r.cache_read,
        )
    }
}

/// A running cost: what the priced messages cost, and how many messages
/// had no price (an unknown model).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub usd: f64,
    pub unpriced: u32,
}

impl Cost {
    pub fn add(&mut self, c: Option<f64>) {
        match c {
            Some(usd) => self.usd += usd,
            None => self.unpriced += 1,
        }
    }

    pub fn sub(&mut self, c: Option<f64>) {
        match c {
            Some(usd) => self.usd = (self.usd - usd).max(0.0),
            None => self.unpriced = self.unpriced.saturating_sub(1),
        }
    }

    /// `$1.23`, `$0.0042`, or with `+?` when some messages have no price;
    /// `None` when nothing was priced and nothing is unknown.
    pub fn label(&self) -> Option<String> {
        if self.usd == 0.0 && self.unpriced == 0 {
            return None;
        }
        if self.usd == 0.0 {
            return Some("$?".into());
        }
        let mut s = usd(self.usd);
        if self.unpriced > 0 {
            s.push_str("+?");
        }
        Some(s)
    }
}

/// `$12.30`, `$0.42`, `$0.0031`: cents once it is worth a cent.
pub fn usd(v: f64) -> String {
    if v >= 0.01 || v == 0.0 {
        format!("${v:.2}")
    } else {
        format!("${v:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::raw::CacheCreation;

    fn usage(input: u64, output: u64, write: u64, write_1h: u64, read: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_creation_input_tokens: write,
            cache_read_input_tokens: read,
            cache_creation: CacheCreation {
                ephemeral_5m_input_tokens: write - write_1h,
                ephemeral_1h_input_tokens: write_1h,
            },
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() <= b.abs() * 0.01, "{a} vs {b}");
    }

    #[test]
    fn models_match_by_family_with_a_date() {
        let t = PriceTable::bundled();
        assert!(!t.date.is_empty() && !t.source.is_empty());
        let fam = |m: &str| t.find(m).map(|p| p.family.as_str());
        assert_eq!(fam("claude-sonnet-4-5-20250929"), Some("claude-sonnet-4-5"));
        assert_eq!(fam("claude-opus-4-20250514"), Some("claude-opus-4"));
        assert_eq!(fam("claude-opus-4-1-20250805"), Some("claude-opus-4-1"));
        assert_eq!(fam("claude-opus-4-6"), Some("claude-opus-4-6"));
        assert_eq!(fam("claude-opus-4-6[1m]"), Some("claude-opus-4-6"));
        assert_eq!(fam("claude-haiku-4-5-20251001"), Some("claude-haiku-4-5"));
        assert_eq!(fam("claude-opus-4-7"), None, "a newer model is not guessed");
        assert_eq!(fam("claude-opus-4-5-preview"), None);
        assert_eq!(fam("gpt-4"), None);
    }

    // Hand computations, USD per million tokens from assets/prices.json.
    #[test]
    fn opus_4_5_with_both_cache_writes() {
        // 1,000 in × $5 + 2,000 out × $25 + 10,000 5m writes × $6.25
        // + 4,000 1h writes × $10 + 100,000 reads × $0.50
        // = 0.005 + 0.05 + 0.0625 + 0.04 + 0.05 = $0.2075
        let c = PriceTable::bundled().cost(
            Some("claude-opus-4-5-20251101"),
            &usage(1_000, 2_000, 14_000, 4_000, 100_000),
        );
        close(c.unwrap_or(0.0), 0.2075);
    }

    #[test]
    fn opus_4_at_its_older_rates() {
        // 10,000 in × $15 + 1,000 out × $75 + 20,000 1h writes × $30
        // = 0.15 + 0.075 + 0.6 = $0.825
        let c = PriceTable::bundled().cost(
            Some("claude-opus-4-20250514"),
            &usage(10_000, 1_000, 20_000, 20_000, 0),
        );
        close(c.unwrap_or(0.0), 0.825);
    }

    #[test]
    fn sonnet_4_5_and_its_long_context_rates() {
        // under 200k of prompt: 3,000 in × $3 + 500 out × $15
        // + 50,000 reads × $0.30 = 0.009 + 0.0075 + 0.015 = $0.0315
        let t = PriceTable::bundled();
        let c = t.cost(
            Some("claude-sonnet-4-5-20250929"),
            &usage(3_000, 500, 0, 0, 50_000),
        );
        close(c.unwrap_or(0.0), 0.0315);
        // over: 1,000 in × $6 + 1,000 out × $22.50 + 250,000 reads × $0.60
        // = 0.006 + 0.0225 + 0.15 = $0.1785
        let c = t.cost(
            Some("claude-sonnet-4-5-20250929[1m]"),
            &usage(1_000, 1_000, 0, 0, 250_000),
        );
        close(c.unwrap_or(0.0), 0.1785);
    }

    #[test]
    fn haiku_4_5_with_an_hour_of_cache() {
        // 2,000 in × $1 + 1,000 out × $5 + 8,000 1h writes × $2
        // + 2,000 5m writes × $1.25 = 0.002 + 0.005 + 0.016 + 0.0025
        let c = PriceTable::bundled().cost(
            Some("claude-haiku-4-5-20251001"),
            &usage(2_000, 1_000, 10_000, 8_000, 0),
        );
        close(c.unwrap_or(0.0), 0.0255);
    }

    #[test]
    fn unknown_models_have_no_price_and_synthetic_ones_are_free() {
        let t = PriceTable::bundled();
        let u = usage(1, 1, 0, 0, 0);
        assert_eq!(t.cost(Some("claude-mystery-9"), &u), None);
        assert_eq!(t.cost(None, &u), None);
        assert_eq!(t.cost(Some("<synthetic>"), &u), Some(0.0));
        let mut c = Cost::default();
        c.add(Some(1.5));
        c.add(None);
        assert_eq!(c.label().as_deref(), Some("$1.50+?"));
    }
}
