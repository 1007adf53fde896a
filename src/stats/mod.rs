//! `ccv stats`: what every session cost and did, summed over the listing
//! (whose cache holds each session's figures, so a second run reads no
//! session), in total or by day, project or model.

mod across;

use crate::catalog::SessionInfo;
use crate::model::figures::{Slice, Tokens};
use crate::model::price::{Cost, usd};
use crate::model::text::human_tokens;
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
    let mut tools: BTreeMap<String, u64> = BTreeMap::new();
    for (i, info) in sessions.iter().enumerate() {
        let Some(f) = &info.figures else { continue };
        let mut counted = false;
        let detail = f.detail.get();
        for s in &detail.slices {
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
            for (name, n) in &detail.tools {
                match tools.get_mut(name) {
                    Some(t) => *t += u64::from(*n),
                    None => {
                        tools.insert(name.clone(), u64::from(*n));
                    }
                }
            }
        }
    }
    if since_ms.is_none() {
        // every session is counted, one without a dated line too: the
        // sessions `ccv list` lists
        for (i, info) in sessions.iter().enumerate() {
            if info.figures.is_some() && st.total.seen.insert(i) {
                st.total.sessions += 1;
            }
        }
        // the sessions' own costs summed, as `ccv list` gives each: the
        // slices hold the same messages, added in another order, and
        // prices per token make costs that fall on half a millionth, which
        // the order then rounded either way (one session's stats said
        // $3.970661 where its row said $3.970660)
        st.total.priced_usd = sessions
            .iter()
            .filter_map(|info| info.figures.as_ref())
            .map(|f| f.cost.usd)
            .sum();
        st.total.cost_usd = st.total.cost().priced_usd();
    }
    st.top_tools = tools.into_iter().collect();
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

pub use crate::model::time::parse_since;

/// The table a person reads, fitted to `width` columns.
pub fn write_table(
    out: &mut dyn Write,
    st: &Stats,
    by: Option<By>,
    width: usize,
) -> io::Result<()> {
    let span = match (st.first_ms, st.last_ms) {
        (Some(a), Some(b)) => format!(
            " · {} → {}",
            day(a, &crate::model::time::local_tz()),
            day(b, &crate::model::time::local_tz())
        ),
        _ => String::new(),
    };
    let n = |n: u64, what: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{} {what}{s}", crate::model::text::thousands(n))
    };
    let head = format!(
        "{} · {} · {}{span}",
        n(st.total.sessions as u64, "session"),
        n(st.total.prompts, "prompt"),
        n(st.total.tool_calls, "tool call")
    );
    writeln!(out, "{}", crate::columns::wrap_at(&head, " · ", width))?;
    writeln!(out)?;
    let first = match by {
        Some(By::Day) => "DAY",
        Some(By::Project) => "PROJECT",
        Some(By::Model) => "MODEL",
        None => "",
    };
    use crate::columns::{Column, Cut, render};
    let cols = [
        Column::flex(
            first,
            10,
            80,
            if by == Some(By::Project) {
                Cut::Middle
            } else {
                Cut::End
            },
        ),
        Column::fixed("SESSIONS", true),
        Column::fixed("PROMPTS", true).dropped_at(3),
        Column::fixed("CALLS", true).dropped_at(2),
        Column::fixed("INPUT", true).dropped_at(5),
        Column::fixed("OUTPUT", true),
        Column::fixed("C.WRITE", true).dropped_at(4),
        Column::fixed("C.READ", true).dropped_at(1),
        Column::fixed("COST", true),
    ];
    let row = |name: &str, s: &Sums| {
        vec![
            name.to_owned(),
            s.sessions.to_string(),
            s.prompts.to_string(),
            s.tool_calls.to_string(),
            human_tokens(s.tokens.input),
            human_tokens(s.tokens.output),
            human_tokens(s.tokens.cache_creation),
            human_tokens(s.tokens.cache_read),
            s.cost().label().unwrap_or_else(|| usd(0.0)),
        ]
    };
    let mut rows: Vec<Vec<String>> = st.groups.iter().map(|(k, s)| row(k, s)).collect();
    rows.push(row("total", &st.total));
    for line in render(&cols, &rows, width) {
        writeln!(out, "{line}")?;
    }
    if st.total.unpriced_messages > 0 {
        unpriced_footnote(&st.total.unpriced_models, out)?;
    }
    if !st.top_tools.is_empty() {
        let top: Vec<String> = st
            .top_tools
            .iter()
            .take(8)
            .map(|(k, v)| format!("{} {v}", crate::model::text::sanitize(k)))
            .collect();
        let line = format!("top tools: {}", top.join(" · "));
        writeln!(out, "\n{}", crate::columns::wrap_at(&line, " · ", width))?;
    }
    Ok(())
}

/// What the `+?` of the total leaves out: messages of models a price in
/// the config would cover, said apart from what no price changes (a
/// usage unreadable, a subagent whose transcript is not here), each with
/// where to look.
fn unpriced_footnote(unpriced: &BTreeMap<String, u64>, out: &mut dyn Write) -> io::Result<()> {
    use crate::model::price::NOT_A_MODEL;
    use crate::model::text::counted;
    let other = |m: &str| NOT_A_MODEL.iter().any(|&(key, ..)| key == m);
    let (mut n, mut models) = (0u64, Vec::new());
    for (m, k) in unpriced.iter().filter(|(m, _)| !other(m)) {
        n += k;
        models.push(format!("{} ({k})", crate::model::text::term_line(m)));
    }
    let is = |n: u64| if n == 1 { "is" } else { "are" };
    if n > 0 {
        writeln!(
            out,
            "\n+? {} from a model without a price {} not in the cost: {} (`ccv prices` lists them; `[prices.MODEL]` in the config prices them)",
            counted(n, "message"),
            is(n),
            models.join(", ")
        )?;
    }
    for (key, what, look) in NOT_A_MODEL {
        if let Some(&k) = unpriced.get(key) {
            writeln!(
                out,
                "\n+? {} {} not in the cost ({look})",
                counted(k, what),
                is(k)
            )?;
        }
    }
    Ok(())
}

/// `ccv stats | …`: a line per group and one for the total, whole values
/// tab-separated (exact token counts, the cost in dollars).
pub fn write_tsv(out: &mut dyn Write, st: &Stats, by: Option<By>) -> io::Result<()> {
    let first = match by {
        Some(By::Day) => "day",
        Some(By::Project) => "project",
        Some(By::Model) => "model",
        None => "group",
    };
    writeln!(
        out,
        "{first}\tsessions\tprompts\ttool_calls\tinput\toutput\tcache_write\tcache_read\tcost_usd\tunpriced_messages"
    )?;
    let groups = st.groups.iter().map(|(k, s)| (k.as_str(), s));
    for (k, s) in groups.chain(std::iter::once(("total", &st.total))) {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            crate::columns::tsv_field(k),
            s.sessions,
            s.prompts,
            s.tool_calls,
            s.tokens.input,
            s.tokens.output,
            s.tokens.cache_creation,
            s.tokens.cache_read,
            crate::model::price::round_usd(s.priced_usd),
            s.unpriced_messages
        )?;
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

/// The figures of the sessions under `root` (those `ccv list` lists, a
/// resumed session's copies once, and deleted sessions whose subagents
/// remain), saying on stderr what is left out or added.
pub fn gather(
    root: &std::path::Path,
    by: Option<By>,
    since_ms: Option<i64>,
    tz: &TimeZone,
) -> Stats {
    gather_with(
        root,
        (by, since_ms, tz),
        &crate::catalog::ScanOptions::standard(),
    )
}

/// [`gather`] with the listing's options (a test's: no cache).
pub fn gather_with(
    root: &std::path::Path,
    (by, since_ms, tz): (Option<By>, Option<i64>, &TimeZone),
    opts: &crate::catalog::ScanOptions,
) -> Stats {
    let (mut sessions, skipped) = crate::catalog::list::list_sessions_counting(root, opts);
    // a resumed session's copies counted once; orphaned subagents counted
    across::count_copies_once(&mut sessions);
    let orphans = across::orphan_agents(root);
    // the sessions counted are those `ccv list` lists, and say what else
    if skipped.total() > 0 {
        crate::say_err!("ccv: not counted: {} (as in ccv list)", skipped.describe());
    }
    if !orphans.is_empty() {
        crate::say_err!(
            "ccv: counted {} deleted session{} whose subagents' files remain (not in ccv list)",
            orphans.len(),
            if orphans.len() == 1 { "" } else { "s" }
        );
    }
    sessions.extend(orphans);
    let mut st = compute(&sessions, by, since_ms, tz);
    st.since = since_ms.map(crate::model::time::format_iso);
    st
}

/// The figures of one session file and its subagents (`ccv stats FILE`):
/// what its row of `ccv list` counts, by day, project or model as asked.
pub fn gather_file(
    path: &std::path::Path,
    (by, since_ms, tz): (Option<By>, Option<i64>, &TimeZone),
) -> Result<Stats, String> {
    let row = crate::catalog::list::row_with_figures(path)?;
    let mut st = compute(std::slice::from_ref(&row), by, since_ms, tz);
    st.since = since_ms.map(crate::model::time::format_iso);
    Ok(st)
}

impl Stats {
    /// Replaces the secrets of what the figures name from sessions (a
    /// project's path, a model's or a tool's name) by `[REDACTED:kind]`.
    pub fn redact(&mut self) {
        let r = crate::redact::active();
        let clean = |t: &mut String| {
            if let std::borrow::Cow::Owned(red) = r.redact(t) {
                *t = red;
            }
        };
        for (key, sums) in &mut self.groups {
            clean(key);
            sums.redact();
        }
        self.total.redact();
        for (name, _) in &mut self.top_tools {
            clean(name);
        }
    }
}

impl Sums {
    fn redact(&mut self) {
        let r = crate::redact::active();
        if self
            .unpriced_models
            .keys()
            .any(|m| matches!(r.redact(m), std::borrow::Cow::Owned(_)))
        {
            let models = std::mem::take(&mut self.unpriced_models);
            for (m, n) in models {
                *self
                    .unpriced_models
                    .entry(r.redact(&m).into_owned())
                    .or_insert(0) += n;
            }
        }
    }
}

/// `ccv stats`: exit 0, 1 on a bad `--since`, 2 without a root; `json`
/// prints one object, `redact` replaces secrets.
pub fn run(
    root: &std::path::Path,
    by: Option<By>,
    since: Option<&str>,
    (json, redact): (bool, bool),
) -> i32 {
    use crate::model::text::{term_line, term_path};
    let tz = crate::model::time::local_tz();
    let since_ms = match since.map(|s| parse_since(s, crate::model::time::now_ms(), &tz)) {
        None => None,
        Some(Ok(ms)) => Some(ms),
        Some(Err(e)) => {
            crate::say_err!("ccv: --since: {}", term_line(&e));
            return 1;
        }
    };
    let st = if std::fs::metadata(root).is_ok_and(|m| m.is_file()) {
        match gather_file(root, (by, since_ms, &tz)) {
            Ok(st) => st,
            Err(why) => {
                crate::say_err!("ccv: {}: {}", term_path(root), term_line(&why));
                return 1;
            }
        }
    } else if let Some(why) = crate::paths::not_a_root(root) {
        let why = if root.exists() {
            "neither a folder of sessions nor a session file".to_owned()
        } else {
            why
        };
        crate::say_err!("ccv: {}: {why}", term_path(root));
        return 1;
    } else {
        gather(root, by, since_ms, &tz)
    };
    if st.total.sessions == 0 && since_ms.is_none() && root.is_dir() {
        crate::say_err!(
            "ccv: no sessions in {} (CLAUDE_CONFIG_DIR or a ROOT argument looks elsewhere)",
            term_path(root)
        );
    }
    let mut st = st;
    if redact {
        st.redact();
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let r = match (json, crate::columns::terminal_width()) {
        (true, _) => write_json(&mut out, &st),
        (false, Some(width)) => write_table(&mut out, &st, by, width),
        (false, None) => write_tsv(&mut out, &st, by),
    };
    crate::say::printed(r.and_then(|_| out.flush()))
}
