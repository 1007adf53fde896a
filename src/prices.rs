//! `ccv prices`: the price table in force, where each rate comes from,
//! and which models of the user's sessions have no price; `--update`
//! fetches a public machine-readable table (LiteLLM's, as ccusage and
//! others read it) into the cache, the one network request ccv makes and
//! only when asked. The bundled table stays the fallback: a fetch that
//! fails changes nothing.

use crate::model::price::{LongContext, MAX_RATE, ModelPrice, Origin, PriceTable, Rates};
use crate::model::text::{term_line, term_path};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Where `--update` reads by default.
pub const DEFAULT_URL: &str =
    "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json";

/// The fetched table, `$XDG_CACHE_HOME/ccv/prices-fetched.json`.
pub fn fetched_file() -> Option<PathBuf> {
    Some(crate::paths::cache_dir()?.join("prices-fetched.json"))
}

/// What `--update` left in the cache.
pub enum Fetched {
    /// None fetched.
    None,
    /// A table that reads whole, as ccv wrote it, with only sane rates.
    Table(PriceTable),
    /// A file that is not that (damaged, written by another hand or by a
    /// ccv before its tables were checked): not used.
    Untrusted,
}

/// The fetched table, when there is one that ccv can trust; anything else
/// is ignored (the bundled table stands, and `ccv prices` says so).
pub fn load_fetched() -> Option<PriceTable> {
    match fetched_table() {
        Fetched::Table(t) => Some(t),
        Fetched::None | Fetched::Untrusted => None,
    }
}

/// What the cache holds of a fetched table.
pub fn fetched_table() -> Fetched {
    let Some(file) = fetched_file() else {
        return Fetched::None;
    };
    if std::fs::symlink_metadata(&file).is_err() {
        return Fetched::None;
    }
    let trusted = || {
        // sealed with a check of its bytes (`crate::packed::sealed`): a
        // rate damaged into another rate (`3.0` read as `7.0`) was
        // believed, every cost of that model wrong, said nowhere
        let bytes = crate::packed::read_file(&file, 16 << 20)?;
        let table = crate::packed::unsealed(&bytes)?;
        let t: PriceTable = serde_json::from_str(table).ok()?;
        let t = t.prepared(Origin::Fetched);
        t.models.iter().all(sane).then_some(t)
    };
    trusted().map_or(Fetched::Untrusted, Fetched::Table)
}

fn sane(m: &ModelPrice) -> bool {
    let ok = |r: &Rates| {
        [
            r.input,
            r.output,
            r.cache_write_5m,
            r.cache_write_1h,
            r.cache_read,
        ]
        .iter()
        .all(|v| (0.0..=MAX_RATE).contains(v))
    };
    !m.family.is_empty()
        && m.family.len() <= 200
        && ok(&m.rates)
        && m.long_context.as_ref().is_none_or(|l| ok(&l.rates))
}

/// LiteLLM's table (`model_prices_and_context_window.json`: USD per token
/// by model id) as ours: its Anthropic chat models, by family (a dated id
/// is its family's unless the family has its own entry).
pub fn from_litellm(json: &[u8], source: &str, date: &str) -> Result<PriceTable, String> {
    let v: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| format!("not a price table: {e}"))?;
    let obj = v.as_object().ok_or("not a price table: not an object")?;
    let per_m = |e: &serde_json::Value, k: &str| e.get(k).and_then(|x| x.as_f64()).map(|x| x * 1e6);
    let mut models: Vec<ModelPrice> = Vec::new();
    let mut keys: Vec<&String> = obj.keys().collect();
    // undated ids first: a family's own entry wins over a dated one
    keys.sort_by_key(|k| (undated(k) != k.as_str(), (*k).clone()));
    for key in keys {
        let e = &obj[key];
        let provider = e.get("litellm_provider").and_then(|p| p.as_str());
        let chat = e.get("mode").and_then(|m| m.as_str()) == Some("chat");
        if provider != Some("anthropic") || !chat || !key.starts_with("claude") {
            continue;
        }
        let family = undated(key).to_owned();
        if models.iter().any(|m| m.family == family) {
            continue;
        }
        let (Some(input), Some(output)) = (
            per_m(e, "input_cost_per_token"),
            per_m(e, "output_cost_per_token"),
        ) else {
            continue;
        };
        let rates = Rates {
            input,
            output,
            cache_write_5m: per_m(e, "cache_creation_input_token_cost").unwrap_or(input * 1.25),
            cache_write_1h: per_m(e, "cache_creation_input_token_cost_above_1hr")
                .unwrap_or(input * 2.0),
            cache_read: per_m(e, "cache_read_input_token_cost").unwrap_or(input * 0.1),
        };
        let long_context = match (
            per_m(e, "input_cost_per_token_above_200k_tokens"),
            per_m(e, "output_cost_per_token_above_200k_tokens"),
        ) {
            (Some(li), Some(lo)) => Some(LongContext {
                above: 200_000,
                rates: Rates {
                    input: li,
                    output: lo,
                    cache_write_5m: per_m(e, "cache_creation_input_token_cost_above_200k_tokens")
                        .unwrap_or(li * 1.25),
                    cache_write_1h: li * 2.0,
                    cache_read: per_m(e, "cache_read_input_token_cost_above_200k_tokens")
                        .unwrap_or(li * 0.1),
                },
            }),
            _ => None,
        };
        let m = ModelPrice {
            family,
            rates,
            long_context,
            fast: None,
            before: Vec::new(),
        };
        if sane(&m) {
            models.push(m);
        }
    }
    if models.is_empty() {
        return Err("no Anthropic chat model in it".into());
    }
    Ok(PriceTable {
        date: date.to_owned(),
        source: source.to_owned(),
        models,
        origins: Vec::new(),
    }
    .prepared(Origin::Fetched))
}

/// `claude-opus-4-5-20251101` -> `claude-opus-4-5`.
fn undated(id: &str) -> &str {
    match id.rsplit_once('-') {
        Some((fam, d)) if d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()) => fam,
        _ => id,
    }
}

/// Fetches `url` (http or https; 30 s at most; 16 MB at most).
fn fetch(url: &str) -> Result<Vec<u8>, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(30)))
        .user_agent(concat!("ccv/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut resp = agent.get(url).call().map_err(|e| e.to_string())?;
    resp.body_mut()
        .with_config()
        .limit(16 << 20)
        .read_to_vec()
        .map_err(|e| e.to_string())
}

/// `ccv prices --update`: fetch, convert, check, keep. Exit 0, or 1 with
/// the table in force unchanged.
pub fn update(url: &str) -> i32 {
    let Some(file) = fetched_file() else {
        crate::say_err!("ccv: prices: no cache directory (set XDG_CACHE_HOME)");
        return 1;
    };
    let today = crate::model::time::local_now()
        .strftime("%Y-%m-%d")
        .to_string();
    let table = fetch(url).and_then(|b| from_litellm(&b, url, &today));
    let table = match table {
        Ok(t) => t,
        Err(e) => {
            crate::say_err!(
                "ccv: prices: could not update from {}: {}; the table in force is unchanged",
                term_line(url),
                term_line(&e)
            );
            return 1;
        }
    };
    let bytes = match serde_json::to_vec_pretty(&serialized(&table)) {
        Ok(b) => crate::packed::sealed(&b),
        Err(e) => {
            crate::say_err!("ccv: prices: {}", term_line(&e.to_string()));
            return 1;
        }
    };
    let written = file
        .parent()
        .map_or(Ok(()), crate::writes::private_dir)
        .and_then(|_| crate::writes::write_file(&file, true, |w| w.write_all(&bytes)));
    if let Err(e) = written {
        crate::say_err!(
            "ccv: prices: {}: {}",
            term_path(&file),
            term_line(&e.to_string())
        );
        return 1;
    }
    let bundled = PriceTable::bundled();
    let new: Vec<&str> = table
        .models
        .iter()
        .filter(|m| bundled.find(&m.family).is_none())
        .map(|m| m.family.as_str())
        .collect();
    let mut said = crate::say!(
        "fetched {} Anthropic models from {} into {}",
        table.models.len(),
        term_line(url),
        term_path(&file)
    );
    if !new.is_empty() && said.is_ok() {
        said = crate::say!("not in the bundled table: {}", term_line(&new.join(", ")));
    }
    crate::say::printed(said)
}

/// The table as the JSON `assets/prices.json` holds.
fn serialized(t: &PriceTable) -> serde_json::Value {
    let rates = |r: &Rates| {
        serde_json::json!({"input": r.input, "output": r.output, "cache_write_5m": r.cache_write_5m,
            "cache_write_1h": r.cache_write_1h, "cache_read": r.cache_read})
    };
    let models: Vec<serde_json::Value> = t
        .models
        .iter()
        .map(|m| {
            let mut o = rates(&m.rates);
            o["family"] = m.family.clone().into();
            if let Some(l) = &m.long_context {
                let mut lo = rates(&l.rates);
                lo["above"] = l.above.into();
                o["long_context"] = lo;
            }
            o
        })
        .collect();
    serde_json::json!({"date": t.date, "source": t.source, "models": models})
}

/// `ccv prices`: the table in force, and the models of the sessions
/// under `root` that have no price.
pub fn show(root: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
    let t = PriceTable::active();
    let b = PriceTable::bundled();
    writeln!(
        out,
        "Prices in force, USD per million tokens: the bundled table of {} ({})",
        b.date,
        term_line(&b.source)
    )?;
    let fetched = (0..t.models.len())
        .filter(|&i| t.origin(i) == Origin::Fetched)
        .count();
    let config = (0..t.models.len())
        .filter(|&i| t.origin(i) == Origin::Config)
        .count();
    if fetched > 0 {
        writeln!(
            out,
            "  over it: {fetched} families fetched by `ccv prices --update`"
        )?;
    }
    if config > 0 {
        writeln!(
            out,
            "  over it: {config} families from [prices] in the config"
        )?;
    }
    if let (Fetched::Untrusted, Some(file)) = (fetched_table(), fetched_file()) {
        writeln!(
            out,
            "  not used: the fetched table {} is not as ccv wrote it (damaged, or from an older ccv); `ccv prices --update` fetches it again",
            term_path(&file)
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<22} {:>7} {:>7} {:>8} {:>8} {:>7}  {:<5} {:<22} FROM",
        "MODEL", "INPUT", "OUTPUT", "5M WRITE", "1H WRITE", "READ", "FAST", "LONG PROMPT"
    )?;
    let num = |v: f64| {
        if v >= 1.0 || v == 0.0 {
            format!("{v:.2}")
        } else {
            format!("{v:.3}")
        }
    };
    let mut order: Vec<usize> = (0..t.models.len()).collect();
    order.sort_by(|&a, &b| t.models[a].family.cmp(&t.models[b].family));
    for i in order {
        let m = &t.models[i];
        let r = &m.rates;
        let fast = m.fast.as_ref().map_or("-".to_owned(), |f| {
            let x = f.rates.input / r.input.max(1e-12);
            if (x - x.round()).abs() < 1e-9 {
                format!("{x:.0}x")
            } else {
                format!("{x:.1}x")
            }
        });
        let long = m.long_context.as_ref().map_or("-".to_owned(), |l| {
            format!(
                "> {}k: {}/{}",
                l.above / 1000,
                num(l.rates.input),
                num(l.rates.output)
            )
        });
        writeln!(
            out,
            "{:<22} {:>7} {:>7} {:>8} {:>8} {:>7}  {:<5} {:<22} {}",
            term_line(&m.family),
            num(r.input),
            num(r.output),
            num(r.cache_write_5m),
            num(r.cache_write_1h),
            num(r.cache_read),
            fast,
            long,
            t.origin(i).as_str()
        )?;
        for d in &m.before {
            writeln!(
                out,
                "{:<22} {:>7} {:>7} {:>8} {:>8} {:>7}  until {}",
                "",
                num(d.rates.input),
                num(d.rates.output),
                num(d.rates.cache_write_5m),
                num(d.rates.cache_write_1h),
                num(d.rates.cache_read),
                d.until
            )?;
        }
    }
    match root.filter(|r| r.is_dir()) {
        Some(root) => unpriced_in(root, out),
        None => Ok(()),
    }
}

/// What the sessions under `root` hold that has no price: by model, and
/// apart, what no price would cover.
fn unpriced_in(root: &Path, out: &mut dyn Write) -> io::Result<()> {
    let sessions = crate::catalog::list_sessions(root, &crate::catalog::ScanOptions::standard());
    let mut missing: std::collections::BTreeMap<String, (u64, usize)> = Default::default();
    for s in &sessions {
        let Some(f) = &s.figures else { continue };
        for (m, n) in f.unpriced_models() {
            let e = missing.entry(m).or_default();
            e.0 += u64::from(n);
            e.1 += 1;
        }
    }
    // what is unpriced for another reason than its model: no price would
    // change it, and it is said apart, with where to look
    let other: Vec<_> = crate::model::price::NOT_A_MODEL
        .iter()
        .filter_map(|&(key, what, look)| Some((missing.remove(key)?, what, look)))
        .collect();
    writeln!(out)?;
    if missing.is_empty() {
        writeln!(
            out,
            "Every model in the {} under {} has a price.",
            crate::model::text::counted(sessions.len() as u64, "session"),
            term_path(root)
        )?;
    } else {
        writeln!(
            out,
            "Models in your sessions with no price (their tokens are counted, their cost is not):"
        )?;
        for (m, (n, k)) in &missing {
            writeln!(
                out,
                "  {}: {n} message{} in {k} session{}",
                term_line(m),
                if *n == 1 { "" } else { "s" },
                if *k == 1 { "" } else { "s" }
            )?;
        }
        writeln!(
            out,
            "Price one in the config ([prices.MODEL] input = …, output = …), or fetch a newer table: ccv prices --update"
        )?;
    }
    for ((n, k), what, look) in other {
        writeln!(
            out,
            "Not priced, whatever the table: {}, in {k} session{} ({look}).",
            crate::model::text::counted(n, what),
            if k == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}
