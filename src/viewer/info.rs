//! `i`: the session in figures, in one overlay: its files, place and
//! time, what it did and cost (tokens by kind, cost by model, calls by
//! tool), and how each of its lines was accounted for. The header has
//! room for a few of these; the lines hidden, and why, are counted
//! nowhere else on screen.

use super::state::{Mode, State};
use crate::model::figures::{Figures, Tokens};
use crate::model::item::human_bytes;
use crate::model::text::{human_tokens, term_line, thousands};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Lines of a session whose figures are taken at every change (a pass of
/// a few milliseconds at most: 10,000 lines are ~20 MB).
const AT_ONCE: u64 = 10_000;

/// One line of the overlay: what it is about, and what it says.
pub type Fact = (&'static str, String);

/// The overlay's lines, and when they were taken. Taking them is a pass
/// over the whole session (0.14 s at 1 GB): while a session of more than
/// [`AT_ONCE`] lines is written under it, they are taken again at most
/// once per ten times what the last taking cost, the rest at the next
/// tick. A smaller session's are taken at each change: they cost a few
/// milliseconds at most, and a clock read around them would make what shows
/// hang on how the machine was loaded.
#[derive(Debug, Default)]
pub struct Overlay {
    pub facts: Vec<Fact>,
    taken: Option<(Instant, Duration)>,
    stale: bool,
}

impl State {
    /// `i`: shows the overlay, or puts it away.
    pub(crate) fn toggle_info(&mut self) {
        if self.mode == Mode::Info {
            self.mode = Mode::Normal;
            return;
        }
        self.help_scroll = 0;
        self.mode = Mode::Info;
        self.retake_info();
    }

    /// Takes the overlay's figures again now, when it shows (the screen's
    /// redaction turned on or off).
    pub(crate) fn retake_info(&mut self) {
        self.info.taken = None;
        self.refresh_info();
    }

    /// The session changed: the overlay's figures are taken again when
    /// it shows (now, or when that is due).
    pub(crate) fn refresh_info(&mut self) {
        if self.mode == Mode::Info {
            self.info.stale = true;
            self.take_info_if_due();
        }
    }

    /// Takes the figures the session changed since, once that is due.
    pub(crate) fn take_info_if_due(&mut self) {
        if self.mode != Mode::Info || !self.info.stale {
            return;
        }
        if self.session.stats.entries > AT_ONCE
            && let Some((at, cost)) = self.info.taken
            && at.elapsed() < cost.saturating_mul(10)
        {
            return;
        }
        let t = Instant::now();
        self.info.facts = facts(self);
        self.info.taken = Some((t, t.elapsed()));
        self.info.stale = false;
    }
}

/// The overlay's lines for the session as it is now.
pub fn facts(s: &State) -> Vec<Fact> {
    let session = &s.session;
    let m = &session.meta;
    let mut out: Vec<Fact> = Vec::new();
    let title = session
        .title()
        .map(|t| crate::model::text::fit_end(&term_line(t), 160))
        .unwrap_or_default();
    if !title.is_empty() {
        out.push(("title", title));
    }
    match m.session_ids.as_slice() {
        [] => {}
        [one] => out.push(("session", term_line(one))),
        [first, rest @ ..] => out.push((
            "session",
            format!(
                "{} (and {} more ids: resumed)",
                term_line(first),
                rest.len()
            ),
        )),
    }
    if let Some(id) = &m.agent_id {
        out.push(("subagent", term_line(id)));
    }
    if let Some(main) = session.sources.first() {
        let name = main.path.as_deref().map_or_else(
            || "no file (standard input, or the bundled demo)".to_owned(),
            |p| crate::paths::tilde(&term_line(&p.to_string_lossy())),
        );
        // while a big file loads, only its end has been read
        let file = match s.load_progress.filter(|_| s.partial) {
            Some((_, size)) => format!("{name} · {}", human_bytes(size)),
            None => format!(
                "{name} · {} · {} lines",
                human_bytes(main.bytes_read()),
                thousands(u64::from(main.lines()))
            ),
        };
        out.push(("file", file));
    }
    let agent_files = session.sources.iter().skip(1).count();
    if agent_files > 0 || !session.agents.is_empty() {
        let lost = session.agents_not_found().count();
        let mut t = thousands(session.agents.len() as u64);
        if agent_files > 0 {
            t.push_str(&format!(
                " ({} file{} beside the session's)",
                thousands(agent_files as u64),
                plural(agent_files as u64)
            ));
        }
        if lost > 0 {
            t.push_str(&format!(
                " · {lost} named whose transcript is not here (ccv check says where)"
            ));
        }
        out.push(("subagents", t));
    }
    if let Some(cwd) = &m.cwd {
        let cwd = crate::paths::tilde(&term_line(cwd));
        out.push((
            "project",
            match m.git_branch.as_deref().filter(|b| !b.is_empty()) {
                Some(b) => format!("{cwd} (branch {})", term_line(b)),
                None => cwd,
            },
        ));
    }
    let mut made_by = Vec::new();
    if let Some(f) = session.format() {
        made_by.push(f.to_owned());
    }
    if let Some(v) = &m.version {
        made_by.push(format!("v{}", term_line(v)));
    }
    if let Some(mode) = m.permission_mode.as_deref().or(m.mode.as_deref()) {
        made_by.push(format!("{} mode", term_line(mode)));
    }
    if !made_by.is_empty() {
        out.push(("written by", made_by.join(" · ")));
    }
    if let Some(t) = when(s) {
        out.push(("time", t));
    }
    if s.partial {
        let pct = s
            .load_progress
            .filter(|&(_, size)| size > 0)
            .map(|(read, size)| format!(" {}%", (read.saturating_mul(100) / size).min(100)))
            .unwrap_or_default();
        out.push((
            "figures",
            format!("once the whole file is read (loading{pct}: the end is shown first)"),
        ));
    } else {
        figures(s, &mut out);
        lines(s, &mut out);
    }
    for pr in &m.pr_links {
        out.push(("pull request", term_line(pr)));
    }
    if let Some(next) = &m.continued_in {
        out.push(("continued in", format!("{} (> opens it)", term_line(next))));
    }
    if crate::redact::screen() {
        let r = crate::redact::active();
        for (_, v) in &mut out {
            if let std::borrow::Cow::Owned(red) = r.redact(v) {
                *v = red;
            }
        }
    }
    out
}

/// `2026-01-27 06:01 → 07:40 (1h39m)`, in the viewer's time zone.
fn when(s: &State) -> Option<String> {
    let m = &s.session.meta;
    let at = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .ok()
            .map(|t| t.to_zoned(s.tz.clone()))
    };
    let start = at(m.started?)?;
    let mut t = start.strftime("%Y-%m-%d %H:%M").to_string();
    if let Some(end) = m
        .last_activity
        .filter(|&e| e > start.timestamp().as_millisecond())
        .and_then(at)
    {
        let same_day = end.date() == start.date();
        let fmt = if same_day { "%H:%M" } else { "%Y-%m-%d %H:%M" };
        let took = (end.timestamp().as_millisecond() - start.timestamp().as_millisecond()) as u64;
        t.push_str(&format!(
            " → {} ({})",
            end.strftime(fmt),
            crate::model::time::human_duration(took)
        ));
    }
    Some(t)
}

/// Prompts and calls, tokens by kind, cost by model, calls by tool: the
/// figures `ccv list` and `ccv stats` give for the session.
fn figures(s: &State, out: &mut Vec<Fact>) {
    let session = &s.session;
    let fallback = session.meta.last_activity.unwrap_or(0);
    let f = Figures::of(session, fallback);
    let errors = super::search::find_errors(session).len() as u64;
    let mut doing = format!(
        "{} prompt{} · {} tool call{}",
        thousands(f.prompts.into()),
        plural(f.prompts.into()),
        thousands(f.tool_calls.into()),
        plural(f.tool_calls.into())
    );
    if errors > 0 {
        doing.push_str(&format!(
            " · {} error row{} (x)",
            thousands(errors),
            plural(errors)
        ));
    }
    out.push(("turns", doing));
    if f.tokens.total() > 0 {
        out.push(("tokens", tokens(&f.tokens)));
        if f.agent_tokens.total() > 0 {
            out.push(("  in agents", tokens(&f.agent_tokens)));
        }
    }
    let (cost, unpriced) = session.cost();
    if let Some(label) = cost.describe(&unpriced) {
        out.push(("cost", label));
        let detail = f.detail.get();
        let mut by_model: BTreeMap<&str, f64> = BTreeMap::new();
        for sl in detail.slices.iter().filter(|sl| sl.cost.usd > 0.0) {
            *by_model.entry(sl.model.as_str()).or_default() += sl.cost.usd;
        }
        if by_model.len() > 1 || f.agent_cost.usd > 0.0 {
            let mut models: Vec<(&str, f64)> = by_model.into_iter().collect();
            models.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
            let mut parts: Vec<String> = models
                .iter()
                .map(|(model, usd)| {
                    let model = model.strip_prefix("claude-").unwrap_or(model);
                    format!("{} {}", term_line(model), crate::model::price::usd(*usd))
                })
                .collect();
            if f.agent_cost.usd > 0.0 {
                parts.push(format!(
                    "of which agents {}",
                    crate::model::price::usd(f.agent_cost.usd)
                ));
            }
            out.push(("  by model", parts.join(" · ")));
        }
    }
    let detail = f.detail.get();
    if !detail.tools.is_empty() {
        let mut tools: Vec<(&String, &u32)> = detail.tools.iter().collect();
        tools.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        const SHOWN: usize = 12;
        let mut parts: Vec<String> = tools
            .iter()
            .take(SHOWN)
            .map(|(name, n)| format!("{} {}", term_line(name), thousands(u64::from(**n))))
            .collect();
        if tools.len() > SHOWN {
            let rest: u64 = tools[SHOWN..].iter().map(|(_, n)| u64::from(**n)).sum();
            parts.push(format!(
                "{} more tools {}",
                tools.len() - SHOWN,
                thousands(rest)
            ));
        }
        out.push(("tools", parts.join(" · ")));
    }
}

fn tokens(t: &Tokens) -> String {
    format!(
        "{} in · {} out · {} cache write · {} cache read",
        human_tokens(t.input),
        human_tokens(t.output),
        human_tokens(t.cache_creation),
        human_tokens(t.cache_read)
    )
}

/// Every line read, and what became of it: shown, hidden (by why),
/// unreadable, read after a repair.
fn lines(s: &State, out: &mut Vec<Fact>) {
    let st = &s.session.stats;
    let mut t = format!(
        "{} read: {} shown · {} hidden · {} unreadable",
        thousands(st.entries),
        thousands(st.shown),
        thousands(st.hidden),
        thousands(st.unreadable)
    );
    if st.recovered > 0 {
        t.push_str(&format!(" · {} repaired", thousands(st.recovered)));
    }
    if st.unreadable > 0 || st.recovered > 0 {
        t.push_str(" (x goes to each, ccv check lists them)");
    }
    out.push(("entries", t));
    if !st.hidden_by_reason.is_empty() {
        let why: Vec<String> = st
            .hidden_most_first()
            .into_iter()
            .map(|(reason, n)| format!("{} {reason}", thousands(n)))
            .collect();
        out.push(("  hidden", why.join(" · ")));
    }
    if let Some((source, line)) = s.session.unfinished_line() {
        out.push((
            "  unfinished",
            if source == 0 {
                format!("line {line}, being written or cut short")
            } else {
                format!("an agent's line {line}, being written or cut short")
            },
        ));
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
