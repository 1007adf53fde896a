//! `ccv stats`: what every session cost and did, summed over the listing
//! (whose cache holds each session's figures, so a second run reads no
//! session), in total or by day, project or model.

mod across;

use crate::model::figures::{Slice, Tokens};
use crate::model::price::{Cost, usd};
use crate::model::text::human_tokens;
use crate::picker::SessionInfo;
use jiff::tz::TimeZone;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    Day,
    Project,
    Model,
}

/// Sums over some sessions' slices.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Sums {
    pub sessions: usize,
    pub prompts: u64,
    pub tool_calls: u64,
    pub tokens: Tokens,
    /// What the priced messages cost (rounded to a millionth); `null`
    /// only when nothing at all was priced.
    pub cost_usd: Option<f64>,
    /// What the priced messages cost.
    #[serde(serialize_with = "rounded")]
    pub priced_usd: f64,
    /// Messages of a model without a price, left out of the cost.
    pub unpriced_messages: u64,
    /// Those messages by model.
    pub unpriced_models: BTreeMap<String, u64>,
    #[serde(skip)]
    seen: HashSet<usize>,
}

fn rounded<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(crate::model::price::round_usd(*v))
}

impl Sums {
    fn add(&mut self, session: usize, s: &Slice) {
        if self.seen.insert(session) {
            self.sessions += 1;
        }
        self.prompts += u64::from(s.prompts);
        self.tool_calls += u64::from(s.tool_calls);
        self.tokens.add(&s.tokens);
        self.priced_usd += s.cost.usd;
        self.unpriced_messages += u64::from(s.cost.unpriced);
        if s.cost.unpriced > 0 {
            let name = if s.model.is_empty() {
                "(no model)"
            } else {
                s.model.as_str()
            };
            *self.unpriced_models.entry(name.to_owned()).or_insert(0) += u64::from(s.cost.unpriced);
        }
        self.cost_usd = self.cost().priced_usd();
    }

    fn cost(&self) -> Cost {
        Cost {
            usd: self.priced_usd,
            unpriced: self.unpriced_messages.min(u64::from(u32::MAX)) as u32,
        }
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Stats {
    pub since: Option<String>,
    pub total: Sums,
    /// Calls by tool, most used first, of the sessions counted.
    pub top_tools: Vec<(String, u64)>,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
    /// By day (oldest first), project or model (dearest first).
    pub groups: Vec<(String, Sums)>,
}

/// Sums `sessions` from `since_ms` on, grouped by `by`; days are local
/// days in `tz`.
pub fn compute(
    sessions: &[SessionInfo],
    by: Option<By>,
    since_ms: Option<i64>,
    tz: &TimeZone,
) -> Stats {
    let mut st = Stats::default();
    let mut groups: BTreeMap<String, Sums> = BTreeMap::new();
    let mut tools: BTreeMap<&str, u64> = BTreeMap::new();
    for (i, info) in sessions.iter().enumerate() {
        let Some(f) = &info.figures else { continue };
        let mut counted = false;
        for s in &f.slices {
            if since_ms.is_some_and(|since| s.at_ms + crate::model::figures::SLICE_MS <= since) {
                continue;
            }
            counted = true;
            st.total.add(i, s);
            st.first_ms = Some(st.first_ms.map_or(s.at_ms, |m: i64| m.min(s.at_ms)));
            st.last_ms = Some(st.last_ms.map_or(s.at_ms, |m: i64| m.max(s.at_ms)));
            let key = match by {
                None => continue,
                Some(By::Day) => day(s.at_ms, tz),
                Some(By::Project) => crate::paths::tilde(&info.project),
                Some(By::Model) if s.model.is_empty() => "(no answer)".to_owned(),
                Some(By::Model) => s.model.clone(),
            };
            groups.entry(key).or_default().add(i, s);
        }
        if counted {
            for (name, n) in &f.tools {
                *tools.entry(name).or_default() += u64::from(*n);
            }
        }
    }
    st.top_tools = tools.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    st.top_tools
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    st.groups = groups.into_iter().collect();
    if by != Some(By::Day) {
        st.groups.sort_by(|a, b| {
            b.1.priced_usd
                .total_cmp(&a.1.priced_usd)
                .then_with(|| a.0.cmp(&b.0))
        });
    }
    st
}

/// `2026-11-24`, in `tz`.
fn day(ms: i64, tz: &TimeZone) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.to_zoned(tz.clone()).strftime("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

/// `--since`: a date (`2026-11-01`, local midnight) or a span back from
/// now (`7d`, `2w`, `12h`).
pub fn parse_since(s: &str, now_ms: i64, tz: &TimeZone) -> Result<i64, String> {
    let s = s.trim();
    if let Some((n, unit)) = s
        .find(|c: char| !c.is_ascii_digit())
        .filter(|&p| p > 0)
        .map(|p| s.split_at(p))
        && let Ok(n) = n.parse::<i64>()
    {
        let hour = 3_600_000;
        let ms = match unit {
            "h" => hour,
            "d" => 24 * hour,
            "w" => 7 * 24 * hour,
            _ => 0,
        };
        if ms > 0 {
            return Ok(now_ms.saturating_sub(n.saturating_mul(ms)));
        }
    }
    let date: jiff::civil::Date = s
        .parse()
        .map_err(|_| format!("{s:?} is not a date (YYYY-MM-DD) or a span (7d, 2w, 12h)"))?;
    date.to_zoned(tz.clone())
        .map(|z| z.timestamp().as_millisecond())
        .map_err(|e| e.to_string())
}

/// The table a person reads.
pub fn write_table(out: &mut dyn Write, st: &Stats, by: Option<By>) -> io::Result<()> {
    let span = match (st.first_ms, st.last_ms) {
        (Some(a), Some(b)) => format!(
            " · {} → {}",
            day(a, &TimeZone::system()),
            day(b, &TimeZone::system())
        ),
        _ => String::new(),
    };
    writeln!(
        out,
        "{} sessions · {} prompts · {} tool calls{span}",
        st.total.sessions, st.total.prompts, st.total.tool_calls
    )?;
    writeln!(out)?;
    let first = match by {
        Some(By::Day) => "DAY",
        Some(By::Project) => "PROJECT",
        Some(By::Model) => "MODEL",
        None => "",
    };
    let width = st
        .groups
        .iter()
        .map(|(k, _)| unicode_width::UnicodeWidthStr::width(k.as_str()))
        .max()
        .unwrap_or(0)
        .clamp(5, 40);
    let fit = |s: &str| crate::picker::format::fit(s, width);
    writeln!(
        out,
        "{} {:>8} {:>8} {:>7} {:>8} {:>8} {:>8} {:>8} {:>11}",
        fit(first),
        "SESSIONS",
        "PROMPTS",
        "CALLS",
        "INPUT",
        "OUTPUT",
        "C.WRITE",
        "C.READ",
        "COST"
    )?;
    let row = |out: &mut dyn Write, name: &str, s: &Sums| {
        writeln!(
            out,
            "{} {:>8} {:>8} {:>7} {:>8} {:>8} {:>8} {:>8} {:>11}",
            fit(name),
            s.sessions,
            s.prompts,
            s.tool_calls,
            human_tokens(s.tokens.input),
            human_tokens(s.tokens.output),
            human_tokens(s.tokens.cache_creation),
            human_tokens(s.tokens.cache_read),
            s.cost().label().unwrap_or_else(|| usd(0.0))
        )
    };
    for (k, s) in &st.groups {
        row(out, k, s)?;
    }
    row(out, "total", &st.total)?;
    if st.total.unpriced_messages > 0 {
        let n = st.total.unpriced_messages;
        let models: Vec<String> = st
            .total
            .unpriced_models
            .iter()
            .map(|(m, k)| format!("{} ({k})", crate::model::text::term_line(m)))
            .collect();
        writeln!(
            out,
            "\n+? {n} message{} from a model without a price {} not in the cost: {} (`ccv prices` lists them; `[prices.MODEL]` in the config prices them)",
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" },
            models.join(", ")
        )?;
    }
    if !st.top_tools.is_empty() {
        let top: Vec<String> = st
            .top_tools
            .iter()
            .take(8)
            .map(|(k, v)| format!("{} {v}", crate::model::text::sanitize(k)))
            .collect();
        writeln!(out, "\ntop tools: {}", top.join(" · "))?;
    }
    Ok(())
}

/// One JSON object: the totals, `top_tools` and `groups` (each with its
/// `key`).
pub fn write_json(out: &mut dyn Write, st: &Stats) -> io::Result<()> {
    let sums = |s: &Sums| serde_json::to_value(s).unwrap_or_default();
    let mut obj = sums(&st.total);
    if let Some(o) = obj.as_object_mut() {
        o.insert("since".into(), st.since.clone().into());
        o.insert(
            "first_activity".into(),
            st.first_ms.map(crate::model::time::format_iso).into(),
        );
        o.insert(
            "last_activity".into(),
            st.last_ms.map(crate::model::time::format_iso).into(),
        );
        let tools: Vec<_> = st
            .top_tools
            .iter()
            .map(|(k, v)| serde_json::json!({"name": k, "calls": v}))
            .collect();
        o.insert("top_tools".into(), tools.into());
        let groups: Vec<_> = st
            .groups
            .iter()
            .map(|(k, s)| {
                let mut g = sums(s);
                if let Some(g) = g.as_object_mut() {
                    g.insert("key".into(), k.clone().into());
                }
                g
            })
            .collect();
        o.insert("groups".into(), groups.into());
    }
    crate::json_out::to_writer(&mut *out, &obj)?;
    out.write_all(b"\n")
}

/// `ccv stats`: exit 0, 1 on a bad `--since`, 2 without a root.
pub fn run(root: &std::path::Path, by: Option<By>, since: Option<&str>, json: bool) -> i32 {
    use crate::model::text::{term_line, term_path};
    let tz = TimeZone::system();
    let since_ms = match since.map(|s| parse_since(s, crate::model::time::now_ms(), &tz)) {
        None => None,
        Some(Ok(ms)) => Some(ms),
        Some(Err(e)) => {
            eprintln!("ccv: --since: {}", term_line(&e));
            return 1;
        }
    };
    if !root.is_dir() {
        eprintln!("ccv: {}: not a directory", term_path(root));
        return 1;
    }
    let opts = crate::picker::ScanOptions::standard();
    let (mut sessions, _) = crate::picker::list::list_sessions_counting(root, &opts);
    // a resumed session's copies counted once; orphaned subagents counted
    across::count_copies_once(&mut sessions);
    sessions.extend(across::orphan_agents(root));
    let mut st = compute(&sessions, by, since_ms, &tz);
    st.since = since_ms.map(crate::model::time::format_iso);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let r = if json {
        write_json(&mut out, &st)
    } else {
        write_table(&mut out, &st, by)
    };
    match r.and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ccv: {}", term_line(&e.to_string()));
            1
        }
    }
}
