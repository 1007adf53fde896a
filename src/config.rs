//! The user's settings: `$XDG_CONFIG_HOME/ccv/config.toml` (else
//! `~/.config/ccv/config.toml`, or `--config PATH`). A config that cannot
//! be read or parsed never stops ccv: what is wrong is ignored, the rest
//! applies, and each problem is reported with where it is.

use crate::model::price::{LongContext, ModelPrice, PriceTable, Rates};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// What the config file set (every part optional).
#[derive(Debug, Default)]
pub struct Config {
    /// Price overrides by model family (`claude-opus-4-5`).
    pub prices: Vec<ModelPrice>,
    /// Where it came from, when a file was read.
    pub path: Option<PathBuf>,
}

/// One `[prices.<family>]` table: USD per million tokens.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceEntry {
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
    if all.iter().all(|v| v.is_finite() && *v >= 0.0) {
        Ok(r)
    } else {
        Err("rates must be numbers ≥ 0".into())
    }
}

/// The default place of the config file.
pub fn default_path() -> Option<PathBuf> {
    Some(crate::paths::config_dir()?.join("config.toml"))
}

/// Reads `explicit` (which must exist) or the default file (which may
/// not). Returns the config and what was ignored, one message each.
pub fn load(explicit: Option<&Path>) -> (Config, Vec<String>) {
    let path = match explicit {
        Some(p) => p.to_owned(),
        None => match default_path() {
            Some(p) if p.is_file() => p,
            _ => return (Config::default(), Vec::new()),
        },
    };
    let shown = crate::model::text::term_path(&path);
    // a config is a few KB; a device or a huge file is not one
    let text = match crate::model::session::open_regular(&path).and_then(|f| {
        use std::io::Read;
        let mut s = String::new();
        f.take(1 << 20).read_to_string(&mut s).map(|_| s)
    }) {
        Ok(t) => t,
        Err(e) => {
            return (
                Config::default(),
                vec![format!("{shown}: {e}; using defaults")],
            );
        }
    };
    let (mut config, problems) = parse(&text, &shown);
    config.path = Some(path);
    (config, problems)
}

/// Parses a config's text; `name` prefixes the messages.
pub fn parse(text: &str, name: &str) -> (Config, Vec<String>) {
    let mut problems = Vec::new();
    let mut config = Config::default();
    let table: toml::Table = match text.parse() {
        Ok(t) => t,
        Err(e) => {
            let at = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            problems.push(format!(
                "{name}:{at}: {}; using defaults",
                one_line(e.message())
            ));
            return (config, problems);
        }
    };
    for (key, value) in table {
        let at = line_of_key(text, &key);
        match key.as_str() {
            "prices" => match value {
                toml::Value::Table(map) => {
                    for (family, v) in map {
                        let line = line_of_key(text, &family);
                        match v
                            .try_into::<PriceEntry>()
                            .map_err(|e| one_line(e.message()))
                            .and_then(|e| price_of(&family, e))
                        {
                            Ok(p) => config.prices.push(p),
                            Err(why) => problems
                                .push(format!("{name}:{line}: prices.{family}: {why}; ignored")),
                        }
                    }
                }
                _ => problems.push(format!("{name}:{at}: prices: not a table; ignored")),
            },
            other => problems.push(format!("{name}:{at}: unknown setting `{other}`; ignored")),
        }
    }
    (config, problems)
}

fn price_of(family: &str, e: PriceEntry) -> Result<ModelPrice, String> {
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

impl Config {
    /// Makes the config's prices the ones every cost uses.
    pub fn apply(&self) {
        if !self.prices.is_empty() {
            PriceTable::install(PriceTable::bundled().with_overrides(self.prices.iter().cloned()));
        }
    }
}

fn line_of(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(0, |t| t.matches('\n').count() + 1)
}

/// The line that names `key` (a table header or an assignment), for
/// messages; 1 when it cannot be found.
fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with('[') && l.contains(key) || l.starts_with(key)
        })
        .map_or(1, |i| i + 1)
}

fn one_line(s: &str) -> String {
    crate::model::text::term_line(s.trim()).replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_override_and_defaults_fill_in() {
        let (c, problems) = parse(
            "[prices.claude-opus-4-5]\ninput = 4.0\noutput = 20.0\n\n[prices.my-model]\ninput = 1.0\noutput = 2.0\n",
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(c.prices.len(), 2);
        let t = PriceTable::bundled().with_overrides(c.prices);
        let opus = t.find("claude-opus-4-5-20251101").expect("opus");
        assert_eq!(opus.rates.input, 4.0);
        assert_eq!(opus.rates.cache_read, 0.4);
        assert!(t.find("my-model").is_some());
        assert_ne!(t.fingerprint(), PriceTable::bundled().fingerprint());
    }

    #[test]
    fn what_is_wrong_is_ignored_and_said_with_its_line() {
        let (c, problems) = parse(
            "colour = 3\n[prices.a]\ninput = 1.0\n[prices.b]\ninput = \"x\"\noutput = 1.0\n",
            "c.toml",
        );
        assert!(
            c.prices.is_empty(),
            "prices.a lacks output, b is not a number"
        );
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("c.toml:1: unknown setting `colour`"),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("prices")),
            "{problems:?}"
        );
        let (_, broken) = parse("[prices\n", "c.toml");
        assert!(broken[0].starts_with("c.toml:1:"), "{broken:?}");
        assert!(broken[0].ends_with("using defaults"), "{broken:?}");
        let (_, negative) = parse("[prices.a]\ninput = -1.0\noutput = 1.0\n", "c.toml");
        assert!(negative[0].contains("prices.a"), "{negative:?}");
    }
}
