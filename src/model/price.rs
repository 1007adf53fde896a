//! What tokens cost: the bundled price table (`assets/prices.json`, with
//! its date and source) and the price of one message's usage. A model the
//! table does not know has no price: its tokens are counted, its cost is
//! unknown, never guessed.

use super::usage::Usage;
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
    /// Other rates for every token of a request whose prompt is over
    /// `above` tokens (Sonnet 4.5 past 200k, Haiku 5.5 past 100k).
    pub long_context: Option<LongContext>,
    /// The rates of fast mode (`usage.speed: "fast"`), where the model has
    /// it; without, a fast request is billed at the standard rates.
    pub fast: Option<Fast>,
    /// Rates in force until a date: a message before it is priced so.
    #[serde(default)]
    pub before: Vec<Dated>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LongContext {
    pub above: u64,
    #[serde(flatten)]
    pub rates: Rates,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Fast {
    #[serde(flatten)]
    pub rates: Rates,
    pub long_context: Option<LongContext>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Dated {
    /// `2026-10-07`: the first day of the next rates (UTC).
    pub until: String,
    #[serde(flatten)]
    pub rates: Rates,
    /// `until` in ms since the epoch (set when the table is made).
    #[serde(skip)]
    pub until_ms: i64,
}

/// Where a model's rates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// `assets/prices.json`.
    #[default]
    Bundled,
    /// `ccv prices --update`: a table fetched into the cache.
    Fetched,
    /// `[prices.<family>]` in the config.
    Config,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Bundled => "bundled",
            Origin::Fetched => "fetched",
            Origin::Config => "config",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct PriceTable {
    pub date: String,
    pub source: String,
    pub models: Vec<ModelPrice>,
    /// Where each family's rates come from (by index into `models`).
    #[serde(skip)]
    pub origins: Vec<Origin>,
}

impl PriceTable {
    /// The table bundled with ccv.
    pub fn bundled() -> &'static PriceTable {
        static TABLE: OnceLock<PriceTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let t = serde_json::from_str(include_str!("../../assets/prices.json")).unwrap_or(
                PriceTable {
                    date: String::new(),
                    source: String::new(),
                    models: Vec::new(),
                    origins: Vec::new(),
                },
            );
            t.prepared(Origin::Bundled)
        })
    }

    /// The table with its dates read and every family marked `origin`.
    pub fn prepared(mut self, origin: Origin) -> PriceTable {
        for m in &mut self.models {
            for d in &mut m.before {
                d.until_ms = day_ms(&d.until).unwrap_or(i64::MIN);
            }
        }
        self.origins = vec![origin; self.models.len()];
        self
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

    /// Where the rates of `models[i]` come from.
    pub fn origin(&self, i: usize) -> Origin {
        self.origins.get(i).copied().unwrap_or_default()
    }

    /// This table with `overrides` replacing or adding families (from the
    /// config).
    pub fn with_overrides(&self, overrides: impl IntoIterator<Item = ModelPrice>) -> PriceTable {
        self.merged(overrides, Origin::Config, false)
    }

    /// This table with the families of `other` (a fetched table): their
    /// standard and long-context rates replace ours, what ours knows that
    /// the other does not (fast mode, dated rates) stays.
    pub fn with_fetched(&self, other: &PriceTable) -> PriceTable {
        self.merged(other.models.iter().cloned(), Origin::Fetched, true)
    }

    fn merged(
        &self,
        others: impl IntoIterator<Item = ModelPrice>,
        origin: Origin,
        keep_extras: bool,
    ) -> PriceTable {
        let mut t = self.clone();
        if t.origins.len() != t.models.len() {
            t.origins = vec![Origin::Bundled; t.models.len()];
        }
        for mut o in others {
            if let Some(i) = t.models.iter().position(|m| m.family == o.family) {
                let old = t.models.remove(i);
                t.origins.remove(i);
                if keep_extras {
                    o.fast = o.fast.or(old.fast);
                    if o.before.is_empty() {
                        o.before = old.before;
                    }
                    if o.long_context.is_none() {
                        o.long_context = old.long_context;
                    }
                }
            }
            for d in &mut o.before {
                d.until_ms = day_ms(&d.until).unwrap_or(i64::MIN);
            }
            t.models.push(o);
            t.origins.push(origin);
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
        let rates = |h: &mut rustc_hash::FxHasher, r: &Rates| {
            for v in [
                r.input,
                r.output,
                r.cache_write_5m,
                r.cache_write_1h,
                r.cache_read,
            ] {
                v.to_bits().hash(h);
            }
        };
        let long = |h: &mut rustc_hash::FxHasher, l: &Option<LongContext>| {
            if let Some(l) = l {
                l.above.hash(h);
                rates(h, &l.rates);
            }
        };
        for m in models {
            m.family.hash(&mut h);
            rates(&mut h, &m.rates);
            long(&mut h, &m.long_context);
            if let Some(f) = &m.fast {
                "fast".hash(&mut h);
                rates(&mut h, &f.rates);
                long(&mut h, &f.long_context);
            }
            for d in &m.before {
                d.until.hash(&mut h);
                rates(&mut h, &d.rates);
            }
        }
        format!("{:016x}", h.finish())
    }

    /// The prices of `model`: its family matched whole, or followed by a
    /// date (`claude-sonnet-4-5-20250929`); a `[1m]` suffix and a path
    /// before the name (`anthropic/`) are ignored. A cloud's own id
    /// (Bedrock's `us.anthropic.…-v1:0`, Vertex's `…@20250929`) is not
    /// matched: a regional endpoint bills more than the pricing page's
    /// rates, so such a model is unpriced (and said so) unless the config
    /// prices it.
    pub fn find(&self, model: &str) -> Option<&ModelPrice> {
        self.find_index(model).and_then(|i| self.models.get(i))
    }

    /// [`find`](Self::find), as an index into `models`.
    pub fn find_index(&self, model: &str) -> Option<usize> {
        let id = model.trim();
        let id = id.strip_suffix("[1m]").unwrap_or(id);
        let id = id.rsplit('/').next().unwrap_or(id);
        self.models
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                id == p.family
                    || id.strip_prefix(p.family.as_str()).is_some_and(|rest| {
                        rest.strip_prefix('-')
                            .is_some_and(|d| d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()))
                    })
            })
            .max_by_key(|(_, p)| p.family.len())
            .map(|(i, _)| i)
    }

    /// What one message's usage cost, in USD: `None` for a model the table
    /// does not know. Claude Code's `<synthetic>` messages cost nothing.
    /// `at` (ms since the epoch, when known) picks rates that changed.
    pub fn cost(&self, model: Option<&str>, u: &Usage, at: Option<i64>) -> Option<f64> {
        let model = model.filter(|_| !u.unreadable)?;
        if model == "<synthetic>" {
            return Some(0.0);
        }
        self.cost_of(self.find_index(model)?, u, at)
    }

    /// [`cost`](Self::cost) of the model at `i` of the table (from
    /// [`find_index`](Self::find_index)), not `<synthetic>`.
    pub fn cost_of(&self, i: usize, u: &Usage, at: Option<i64>) -> Option<f64> {
        let p = self.models.get(i).filter(|_| !u.unreadable)?;
        let prompt = u
            .input_tokens
            .saturating_add(u.cache_creation_input_tokens)
            .saturating_add(u.cache_read_input_tokens);
        let (base, long) = match (&p.fast, u.fast) {
            (Some(f), true) => (f.rates, f.long_context.as_ref()),
            _ => {
                let dated = at.and_then(|at| {
                    p.before
                        .iter()
                        .filter(|d| at < d.until_ms)
                        .min_by_key(|d| d.until_ms)
                });
                (dated.map_or(p.rates, |d| d.rates), p.long_context.as_ref())
            }
        };
        let r = match long {
            Some(l) if prompt > l.above => l.rates,
            _ => base,
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

/// The most a rate may be, USD per million tokens (a hundred times the
/// dearest model's): a table or a config past it is no price (a rate of
/// 1e300 made every sum infinite, a cost no JSON can hold).
pub const MAX_RATE: f64 = 10_000.0;

/// `2026-10-07` as ms since the epoch (UTC midnight).
fn day_ms(day: &str) -> Option<i64> {
    let d: jiff::civil::Date = day.parse().ok()?;
    Some(
        d.to_zoned(jiff::tz::TimeZone::UTC)
            .ok()?
            .timestamp()
            .as_millisecond(),
    )
}

/// A figure in USD for JSON: rounded to a millionth of a dollar (no
/// `4.565600000000001`).
pub fn round_usd(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
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

    /// What the priced messages cost, rounded to a millionth of a dollar;
    /// `None` only when nothing at all was priced (every message of a
    /// model the table does not know).
    pub fn priced_usd(&self) -> Option<f64> {
        (!(self.usd == 0.0 && self.unpriced > 0)).then(|| round_usd(self.usd))
    }

    /// The cost for a person, never a silent blank: `$12.40`, `$12.40 +
    /// 37 unpriced (claude-zeta-9)`, `37 unpriced (claude-zeta-9)`; `None`
    /// when there is nothing to price. `models`: the unpriced ones, by
    /// messages.
    pub fn describe(&self, models: &std::collections::BTreeMap<String, u32>) -> Option<String> {
        if self.usd == 0.0 && self.unpriced == 0 {
            return None;
        }
        if self.unpriced == 0 {
            return Some(usd(self.usd));
        }
        let mut names: Vec<(&String, &u32)> = models.iter().collect();
        names.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        let shown: Vec<String> = names
            .iter()
            .take(2)
            // `(no model)` is shown as `1 unpriced (no model)`
            .map(|(m, _)| {
                let bare = m.strip_prefix('(').and_then(|b| b.strip_suffix(')'));
                crate::model::text::term_line(bare.unwrap_or(m))
            })
            .collect();
        let more = if names.len() > 2 {
            format!(", +{}", names.len() - 2)
        } else {
            String::new()
        };
        let unpriced = if shown.is_empty() {
            format!("{} unpriced", self.unpriced)
        } else {
            format!("{} unpriced ({}{more})", self.unpriced, shown.join(", "))
        };
        Some(if self.usd == 0.0 {
            unpriced
        } else {
            format!("{} + {unpriced}", usd(self.usd))
        })
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

/// What counts as unpriced for another reason than its model, which no
/// price changes: its key among the unpriced models, what one is (a
/// noun first, see [`crate::model::text::counted`]), and where to look. `ccv prices` and the
/// note under `ccv stats` say these apart from the models to price.
pub const NOT_A_MODEL: [(&str, &str, &str); 2] = [
    (
        super::usage::UNREADABLE,
        "message whose usage could not be read whole",
        "`ccv export` says which field, on which line",
    ),
    (
        super::session::AGENT_NOT_FOUND,
        "subagent whose transcript is not here",
        "`ccv check` says on which line each is named",
    ),
];

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
    use crate::model::usage::CacheCreation;

    #[test]
    fn a_model_looked_up_once_costs_what_a_lookup_each_time_does() {
        let t = PriceTable::bundled();
        let u = usage(1200, 300, 500, 100, 9000);
        let mut met = ModelsMet::default();
        let mut names: Vec<String> = [
            "claude-sonnet-4-5-20250929",
            "claude-opus-4-1",
            "<synthetic>",
            "mystery-model",
            "us.anthropic.claude-haiku-4-5-20251001-v1:0",
            "claude-sonnet-4-5-20250929[1m]",
            "",
        ]
        .map(str::to_owned)
        .to_vec();
        // more models than are kept, each asked twice (as new strings)
        names.extend((0..40).map(|i| format!("model-{i}")));
        for round in 0..2 {
            for n in &names {
                let arc: std::sync::Arc<str> = n.as_str().into();
                for at in [None, Some(0), Some(i64::MAX)] {
                    assert_eq!(
                        met.cost(t, Some(&arc), &u, at),
                        t.cost(Some(n), &u, at),
                        "{n} (round {round})"
                    );
                }
            }
        }
        assert_eq!(met.cost(t, None, &u, None), t.cost(None, &u, None));
    }

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
            fast: false,
            unreadable: false,
        }
    }

    fn fast(mut u: Usage) -> Usage {
        u.fast = true;
        u
    }

    fn close(a: Option<f64>, b: f64) {
        let a = a.unwrap_or(f64::NAN);
        assert!((a - b).abs() <= 1e-9 + b.abs() * 1e-9, "{a} vs {b}");
    }

    fn cost(model: &str, u: Usage) -> Option<f64> {
        PriceTable::bundled().cost(Some(model), &u, None)
    }

    /// One message of every kind of token: 1M input, 1M output, 1M 5m
    /// writes, 1M 1h writes, 1M cache reads: the sum of the five rates.
    fn all_five() -> Usage {
        usage(1_000_000, 1_000_000, 2_000_000, 1_000_000, 1_000_000)
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
        assert_eq!(fam("claude-opus-5"), Some("claude-opus-5"));
        assert_eq!(fam("claude-opus-5-5"), Some("claude-opus-5-5"));
        assert_eq!(fam("claude-opus-5-5[1m]"), Some("claude-opus-5-5"));
        assert_eq!(fam("claude-fable-5-1"), Some("claude-fable-5-1"));
        assert_eq!(fam("claude-haiku-4-5-20251001"), Some("claude-haiku-4-5"));
        assert_eq!(fam("claude-opus-6"), None, "a newer model is not guessed");
        assert_eq!(fam("claude-opus-4-5-preview"), None);
        assert_eq!(fam("gpt-4"), None);
    }

    // Every model Claude Code writes, at the five rates of the pricing
    // page (USD per million tokens: input + output + 5m write + 1h write
    // + cache read for one million of each).
    #[test]
    fn every_model_at_the_page_s_rates() {
        for (model, sum) in [
            ("claude-fable-5-2", 8.0 + 40.0 + 10.0 + 16.0 + 0.2),
            ("claude-fable-5-1", 10.0 + 50.0 + 12.5 + 20.0 + 0.25),
            ("claude-mythos-5-1", 10.0 + 50.0 + 12.5 + 20.0 + 0.25),
            ("claude-fable-5", 10.0 + 50.0 + 12.5 + 20.0 + 1.0),
            ("claude-mythos-5", 10.0 + 50.0 + 12.5 + 20.0 + 1.0),
            ("claude-opus-5-5", 4.0 + 20.0 + 5.0 + 8.0 + 0.2),
            ("claude-opus-5", 5.0 + 25.0 + 6.25 + 10.0 + 0.5),
            ("claude-opus-4-8", 5.0 + 25.0 + 6.25 + 10.0 + 0.5),
            ("claude-opus-4-7", 5.0 + 25.0 + 6.25 + 10.0 + 0.5),
            ("claude-opus-4-6", 5.0 + 25.0 + 6.25 + 10.0 + 0.5),
            ("claude-opus-4-5-20251101", 5.0 + 25.0 + 6.25 + 10.0 + 0.5),
            ("claude-opus-4-1-20250805", 15.0 + 75.0 + 18.75 + 30.0 + 1.5),
            ("claude-opus-4-20250514", 15.0 + 75.0 + 18.75 + 30.0 + 1.5),
            ("claude-sonnet-5-5", 2.0 + 10.0 + 2.5 + 4.0 + 0.1),
            ("claude-sonnet-5", 2.0 + 10.0 + 2.5 + 4.0 + 0.2),
            ("claude-sonnet-4-6", 3.0 + 15.0 + 3.75 + 6.0 + 0.3),
            ("claude-haiku-4-5-20251001", 1.0 + 5.0 + 1.25 + 2.0 + 0.1),
            ("claude-3-5-haiku-20241022", 0.8 + 4.0 + 1.0 + 1.6 + 0.08),
        ] {
            // a prompt of 4M tokens: a surcharged model would pay more
            let u = all_five();
            match model {
                "claude-sonnet-4-5" | "claude-sonnet-4" => {}
                _ => close(cost(model, u), sum),
            }
        }
    }

    #[test]
    fn cache_reads_at_each_model_s_own_ratio() {
        let reads = usage(0, 0, 0, 0, 1_000_000);
        close(cost("claude-fable-5-1", reads), 0.25); // 0.025x of $10
        close(cost("claude-fable-5-2", reads), 0.2); // 0.025x of $8
        close(cost("claude-opus-5-5", reads), 0.2); // 0.05x of $4
        close(cost("claude-sonnet-5-5", reads), 0.1); // 0.05x of $2
        close(cost("claude-opus-5", reads), 0.5); // 0.1x of $5
    }

    #[test]
    fn a_long_prompt_at_its_tier() {
        // Sonnet 4.5 past 200k: 1,000 in × $6 + 1,000 out × $22.50
        // + 250,000 reads × $0.60 = 0.006 + 0.0225 + 0.15 = $0.1785
        close(
            cost(
                "claude-sonnet-4-5-20250929[1m]",
                usage(1_000, 1_000, 0, 0, 250_000),
            ),
            0.1785,
        );
        // under it: 3,000 × $3 + 500 × $15 + 50,000 × $0.30 = $0.0315
        close(
            cost(
                "claude-sonnet-4-5-20250929",
                usage(3_000, 500, 0, 0, 50_000),
            ),
            0.0315,
        );
        // Sonnet 4.6 and later: no surcharge past 200k (ccv charged 2x)
        // 1,000 × $3 + 1,000 × $15 + 250,000 × $0.30 = $0.093
        close(
            cost("claude-sonnet-4-6[1m]", usage(1_000, 1_000, 0, 0, 250_000)),
            0.093,
        );
        close(cost("claude-opus-4-6[1m]", usage(300_000, 0, 0, 0, 0)), 1.5);
        // Haiku 5.5 by prompt length: up to 100k, 50,000 in × $0.10 +
        // 10,000 out × $0.50 = 0.005 + 0.005 = $0.01
        close(
            cost("claude-haiku-5-5", usage(50_000, 10_000, 0, 0, 0)),
            0.01,
        );
        // over 100k (cache reads count): 20,000 in × $0.50 + 10,000 out ×
        // $2.50 + 100,000 reads × $0.05 + 8,000 1h writes × $1.00
        // = 0.01 + 0.025 + 0.005 + 0.008 = $0.048
        close(
            cost(
                "claude-haiku-5-5",
                usage(20_000, 10_000, 8_000, 8_000, 100_000),
            ),
            0.048,
        );
    }

    #[test]
    fn fast_mode_at_each_model_s_fast_rates() {
        // Opus 4.6 and 4.7: 6x. 10,000 in × $30 + 2,000 out × $150
        // + 100,000 reads × $3 + 4,000 5m writes × $37.50 = 0.3 + 0.3 + 0.3 + 0.15
        let u = usage(10_000, 2_000, 4_000, 0, 100_000);
        close(cost("claude-opus-4-6", fast(u)), 1.05);
        close(cost("claude-opus-4-7", fast(u)), 1.05);
        // Opus 4.8 and 5: 2x. 0.1 + 0.1 + 0.1 + 0.05
        close(cost("claude-opus-4-8", fast(u)), 0.35);
        close(cost("claude-opus-5", fast(u)), 0.35);
        // Opus 5.5: 2x of its own. 10,000 × $8 + 2,000 × $40 + 100,000 ×
        // $0.40 + 4,000 × $10 = 0.08 + 0.08 + 0.04 + 0.04
        close(cost("claude-opus-5-5", fast(u)), 0.24);
        // Fable 5.2: 2x on every token type. 0.16 + 0.16 + 0.04 + 0.08
        close(cost("claude-fable-5-2", fast(u)), 0.44);
        // Opus 4.6 fast past 200k: $60 in, $225 out
        close(
            cost("claude-opus-4-6", fast(usage(250_000, 1_000, 0, 0, 0))),
            15.0 + 0.225,
        );
        // a model without fast mode is billed at its standard rates
        close(
            cost("claude-sonnet-5-5", fast(usage(1_000_000, 0, 0, 0, 0))),
            2.0,
        );
        close(cost("claude-opus-4-6", u), 0.05 + 0.05 + 0.05 + 0.025);
    }

    #[test]
    fn rates_that_changed_on_a_date() {
        // Sonnet 5.5 read its cache at $0.20 before 2026-10-07, $0.10 since
        let t = PriceTable::bundled();
        let reads = usage(0, 0, 0, 0, 1_000_000);
        let day = |d: &str| day_ms(d);
        close(
            t.cost(Some("claude-sonnet-5-5"), &reads, day("2026-10-06")),
            0.2,
        );
        close(
            t.cost(Some("claude-sonnet-5-5"), &reads, day("2026-10-07")),
            0.1,
        );
        close(t.cost(Some("claude-sonnet-5-5"), &reads, None), 0.1);
    }

    #[test]
    fn opus_4_5_with_both_cache_writes() {
        // 1,000 in × $5 + 2,000 out × $25 + 10,000 5m writes × $6.25
        // + 4,000 1h writes × $10 + 100,000 reads × $0.50
        // = 0.005 + 0.05 + 0.0625 + 0.04 + 0.05 = $0.2075
        close(
            cost(
                "claude-opus-4-5-20251101",
                usage(1_000, 2_000, 14_000, 4_000, 100_000),
            ),
            0.2075,
        );
    }

    #[test]
    fn unknown_models_have_no_price_and_synthetic_ones_are_free() {
        let t = PriceTable::bundled();
        let u = usage(1, 1, 0, 0, 0);
        assert_eq!(t.cost(Some("claude-mystery-9"), &u, None), None);
        assert_eq!(t.cost(None, &u, None), None);
        assert_eq!(t.cost(Some("<synthetic>"), &u, None), Some(0.0));
        let mut c = Cost::default();
        c.add(Some(1.5));
        c.add(None);
        assert_eq!(c.label().as_deref(), Some("$1.50+?"));
        let models = std::collections::BTreeMap::from([("claude-zeta-9".to_owned(), 1)]);
        assert_eq!(
            c.describe(&models).as_deref(),
            Some("$1.50 + 1 unpriced (claude-zeta-9)")
        );
        assert_eq!(c.priced_usd(), Some(1.5));
        let only = Cost {
            usd: 0.0,
            unpriced: 37,
        };
        assert_eq!(only.priced_usd(), None, "null only when nothing is priced");
        assert_eq!(
            Cost {
                usd: 4.565600000000001,
                unpriced: 0
            }
            .priced_usd(),
            Some(4.5656)
        );
        assert_eq!(usd(0.0012), "$0.0012");
    }
}

/// The table's entry of each model named, looked up once: a lookup
/// compares the name with every family of the table (a twentieth of a
/// cold listing, which prices every message twice: as it is read, and
/// for the figures).
#[derive(Debug, Default)]
pub struct ModelsMet(Vec<(std::sync::Arc<str>, Option<usize>)>);

impl ModelsMet {
    /// Kept for this many models (a session names a few); past them each
    /// is looked up.
    const MOST: usize = 16;

    /// [`PriceTable::cost`], the model's entry looked up once.
    pub fn cost(
        &mut self,
        prices: &PriceTable,
        model: Option<&std::sync::Arc<str>>,
        u: &Usage,
        at: Option<i64>,
    ) -> Option<f64> {
        let m = model?;
        if &**m == "<synthetic>" {
            return prices.cost(Some(m), u, at);
        }
        let found = self
            .0
            .iter()
            .find(|(k, _)| std::sync::Arc::ptr_eq(k, m) || k == m)
            .map(|(_, i)| *i);
        let i = match found {
            Some(i) => i,
            None => {
                let i = prices.find_index(m);
                if self.0.len() < Self::MOST {
                    self.0.push((m.clone(), i));
                }
                i
            }
        };
        prices.cost_of(i?, u, at)
    }
}
