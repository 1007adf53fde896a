//! The whole screen: header, transcript, status bar, help and info
//! overlays.

use super::ListView;
use super::list;
use crate::model::text::human_tokens as tokens;
use crate::model::text::sanitize;
use crate::model::time::human_duration;
use crate::style::theme;
use crate::viewer::{Mode, State};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// A frame of the viewer: the core's changes taken into the list's render
/// state `v`, the screen drawn from `s`, what it showed reported back.
pub fn draw(f: &mut Frame<'_>, s: &mut State, v: &mut ListView) {
    v.sync(s);
    render(f, s, v);
    v.report(s);
}

/// One frame from `s`, updating the list's render state `v`.
pub fn render(f: &mut Frame<'_>, s: &State, v: &mut ListView) {
    v.misses.clear();
    let area = f.area();
    v.screen.width = area.width;
    v.screen.height = area.height;
    let [head, rule, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let th = theme::current();
    f.render_widget(Paragraph::new(header(s, head.width)).style(th.header), head);
    f.render_widget(
        Paragraph::new(Line::styled("─".repeat(rule.width as usize), th.dim)),
        rule,
    );
    list::draw(f, body, s, v);
    f.render_widget(
        Paragraph::new(status_line(s, status.width)).style(th.status),
        status,
    );
    match s.mode {
        Mode::Help => help(f, area, &s.help_lines(), &mut v.help_scroll),
        Mode::Info => super::info::draw(f, area, &s.info.facts, &mut v.help_scroll),
        _ => {}
    }
}

/// The session line: its fields in reading order, and when they do not
/// fit, the least telling dropped first (never cut mid-word).
fn header(s: &State, width: u16) -> Line<'static> {
    let th = theme::current();
    let m = &s.session.meta;
    let clean = |x: &str| sanitize(x).replace('\n', " ");
    // (priority: lower is kept longer, text)
    let mut parts: Vec<(u8, String)> = Vec::new();
    let title = s
        .session
        .title()
        .map(|t| cut_at_word(&clean(t), 60))
        .unwrap_or_else(|| "(untitled)".into());
    parts.push((0, title));
    if let Some(id) = &m.agent_id {
        // a subagent's own file, opened on its own
        parts.push((1, format!("subagent {}", clean(id))));
    }
    if let Some(cwd) = &m.cwd {
        let cwd = crate::paths::tilde(&clean(cwd));
        match m.git_branch.as_deref().filter(|b| !b.is_empty()) {
            Some(b) => parts.push((2, format!("{cwd} ({})", clean(b)))),
            None => parts.push((2, cwd)),
        }
    }
    if let Some(model) = &m.model {
        parts.push((3, clean(model.strip_prefix("claude-").unwrap_or(model))));
    }
    if let Some(v) = &m.version {
        parts.push((8, format!("v{}", clean(v))));
    }
    // while the whole file loads, counts would be those of its end only:
    // they wait for the load, and the header says how far it got
    if !s.partial {
        session_figures(s, &mut parts);
    }
    if let Some(c) = s.session.main.context_tokens() {
        // how close the session is to compaction (the usual window is 200k;
        // `[1m]` models have 1M)
        let window: u64 = match &m.model {
            Some(model) if model.contains("[1m]") => 1_000_000,
            _ => 200_000,
        };
        parts.push((
            1,
            format!("ctx {} ({}%)", tokens(c), c.saturating_mul(100) / window),
        ));
    }
    let loading = match (s.partial, s.load_progress) {
        (false, _) => String::new(),
        (true, Some((read, size))) if size > 0 => {
            let pct = (read.saturating_mul(100) / size).min(100);
            let filled = (pct / 10) as usize;
            format!(
                "  loading {pct}% of {} {}{}",
                crate::model::item::human_bytes(size),
                "▰".repeat(filled),
                "▱".repeat(10 - filled)
            )
        }
        (true, _) => "  loading…".to_owned(),
    };
    let loading = loading.as_str();
    let w = |p: &[(u8, String)]| {
        use unicode_width::UnicodeWidthStr as W;
        1 + p.iter().map(|(_, t)| t.width()).sum::<usize>()
            + 3 * p.len().saturating_sub(1)
            + loading.width()
    };
    let avail = width as usize;
    while w(&parts) > avail && parts.len() > 1 {
        let Some((i, _)) = parts.iter().enumerate().max_by_key(|(_, (p, _))| *p) else {
            break;
        };
        if i == 0 {
            break;
        }
        parts.remove(i);
    }
    if w(&parts) > avail {
        // only the title is left: cut it at a word, with an ellipsis
        let room = avail.saturating_sub(w(&parts) - w(&parts[..1]) + 1 + loading.len());
        if let Some((_, t)) = parts.first_mut() {
            *t = cut_at_word(t, room.max(8));
        }
    }
    let text: Vec<String> = parts.into_iter().map(|(_, t)| t).collect();
    let mut spans = vec![Span::styled(format!(" {}", text.join(" · ")), th.header)];
    if s.partial {
        spans.push(Span::styled(loading.to_owned(), th.dim));
    }
    Line::from(spans)
}

/// The session's counts for the header: prompts, tools, when and how long,
/// tokens, cost.
fn session_figures(s: &State, parts: &mut Vec<(u8, String)>) {
    let m = &s.session.meta;
    let (prompts, tools) = (s.session.main.turns.len(), s.session.main.tool_calls());
    if prompts > 0 {
        parts.push((
            6,
            format!("{prompts} prompt{}", if prompts == 1 { "" } else { "s" }),
        ));
    }
    if tools > 0 {
        parts.push((
            7,
            format!("{tools} tool{}", if tools == 1 { "" } else { "s" }),
        ));
    }
    if let Some(start) = m
        .started
        .and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
    {
        let mut t = start
            .to_zoned(s.tz.clone())
            .strftime("%Y-%m-%d %H:%M")
            .to_string();
        if let Some(end) = m.last_activity.filter(|e| *e > start.as_millisecond()) {
            t.push_str(&format!(
                " · {}",
                human_duration((end - start.as_millisecond()) as u64)
            ));
        }
        parts.push((5, t));
    }
    let total = s.session.main.totals.total();
    // subagents' tokens are the session's too, but not its context: apart
    let agents: u64 = s
        .session
        .agents
        .iter()
        .map(|a| a.transcript.totals.total())
        .sum();
    match (total, agents) {
        (0, 0) => {}
        (t, 0) => parts.push((4, format!("{} tok", tokens(t)))),
        (t, a) => parts.push((4, format!("{} tok + {} in agents", tokens(t), tokens(a)))),
    }
    // the session's cost, its subagents' included; what has no price is
    // said, never left out
    let (cost, unpriced) = s.session.cost();
    if let Some(label) = cost.describe(&unpriced) {
        parts.push((3, label));
    }
}

/// `s` in at most `width` columns, cut after a whole word when it can be.
fn cut_at_word(s: &str, width: usize) -> String {
    let cut = crate::model::text::fit_end(s, width);
    match cut.strip_suffix('…') {
        Some(body) => match body.rfind(' ') {
            Some(p) if p > body.len() / 2 => format!("{}…", body[..p].trim_end()),
            _ => cut,
        },
        None => cut,
    }
}

/// The status line while a key waits for the next one (`m`, `'`, `c`...).
fn pending_line(s: &State, p: crate::viewer::action::Pending) -> String {
    use crate::viewer::action::Pending;
    match p {
        Pending::SetMark => " mark this row as: a-z (Esc: none)".to_owned(),
        Pending::GotoMark => {
            let mut marks: Vec<char> = s.marks.keys().copied().filter(|&c| c != '\'').collect();
            marks.sort_unstable();
            let marks: String = marks.into_iter().collect();
            let back = if s.marks.contains_key(&'\'') {
                " · ' back to before the last jump"
            } else {
                ""
            };
            if marks.is_empty() {
                format!(" go to mark: none set yet (m a sets a){back}")
            } else {
                format!(" go to mark: {marks}{back}")
            }
        }
        Pending::CopyPart => format!(" copy: {}", crate::viewer::keymap::copy_parts_line()),
        Pending::ConfirmResume => format!(
            " the session's directory {} is gone: resume here, in the current directory? y/n",
            s.session
                .meta
                .cwd
                .as_deref()
                .map(crate::model::text::term_line)
                .unwrap_or_default()
        ),
    }
}

fn status_line(s: &State, width: u16) -> Line<'static> {
    let th = theme::current();
    match &s.mode {
        Mode::Search(q) | Mode::Command(q) => {
            let sign = if matches!(s.mode, Mode::Search(_)) {
                '/'
            } else {
                ':'
            };
            return crate::style::prompt_line::prompt_line(&format!(" {sign}"), q, width as usize);
        }
        Mode::Pending(p) => return Line::from(Span::raw(pending_line(s, *p))),
        _ => {}
    }
    let mut left = Vec::new();
    // what goes first when the line does not fit the screen (a pane of 50
    // columns cut off the position and the filters): how long ago the
    // file was written, then the default filter's name
    let mut spare: [Option<usize>; 2] = [None, None];
    left.push(match s.mode {
        Mode::Visual { anchor } => format!(
            " VISUAL {} (y copy · Esc cancel)",
            crate::model::text::counted(anchor.abs_diff(s.selected) as u64 + 1, "row")
        ),
        _ if s.follow => " FOLLOW".to_owned(),
        _ => " SCROLL".to_owned(),
    });
    if s.live.attached {
        left.push(if s.live.ended {
            "ended".to_owned()
        } else if s.live.is_live() {
            "● live".to_owned()
        } else {
            // watched, but written long ago: say how long
            let last = s.live.last_write_ms.or(s.session.meta.last_activity);
            match last.filter(|&t| t > 0) {
                Some(t) => {
                    spare[0] = Some(left.len());
                    format!(
                        "last written {}",
                        crate::catalog::format::relative_time(s.live.now_ms, t)
                    )
                }
                None => "watching".to_owned(),
            }
        });
    }
    if let Some((source, line)) = s.session.unfinished_line().filter(|_| s.live.quiet()) {
        // (counted nowhere else until its end comes, or forever when the
        // file was cut short)
        left.push(if source == 0 {
            format!("⚠ line {line} unfinished")
        } else {
            format!("⚠ an agent's line {line} unfinished")
        });
    }
    if s.live.newer.is_some() {
        left.push("newer session: >".into());
    } else if s.session.meta.continued_in.is_some() {
        left.push("continued: >".into());
    }
    if s.live.back.is_some() {
        left.push("< back".into());
    }
    left.push(format!(
        "{}/{}",
        (s.selected + 1).min(s.rows.len()),
        s.rows.len()
    ));
    if !s.follow && s.unseen > 0 {
        left.push(format!("↓ {} new", s.unseen));
    }
    let f = &s.filters;
    if f.tools {
        spare[1] = Some(left.len());
    }
    left.push(if f.tools {
        "tools grouped".into()
    } else {
        "tools hidden".into()
    });
    if !f.thinking {
        left.push("thinking hidden".into());
    }
    if f.meta {
        left.push("meta shown".into());
    }
    if f.errors {
        left.push("errors only (!)".into());
    }
    if !s.settings.mouse {
        left.push("mouse off (M)".into());
    }
    match s.settings.redact {
        crate::viewer::state::Redaction::Off => {}
        crate::viewer::state::Redaction::Copies => left.push("redacting copies (#)".into()),
        crate::viewer::state::Redaction::Screen => left.push("REDACTED screen (#)".into()),
    }
    if !s.search.query.is_empty() {
        left.push(format!(
            "/{} ({})",
            sanitize(&s.search.query),
            s.search.hits.len()
        ));
    }
    if let Some(m) = &s.message {
        // a message names paths: when it does not fit, its middle goes
        // (the start says what happened, the end names the file)
        // while it shows, the message takes the place of the filters
        left.truncate(1);
        spare = [None, None];
        left.push(format!(
            "{}/{}",
            (s.selected + 1).min(s.rows.len()),
            s.rows.len()
        ));
        let used: usize = left
            .iter()
            .map(|p| unicode_width::UnicodeWidthStr::width(p.as_str()) + 3)
            .sum();
        let room = (width as usize).saturating_sub(used + 1).max(24);
        left.push(crate::model::text::fit_middle(
            &sanitize(m).replace('\n', " "),
            room,
        ));
    } else if let Some(id) = s.rows.get(s.selected).and_then(|r| s.item_id(r)) {
        // what `ccv check` says of the selected row
        if let Some(m) = s.session.marks().of(id).first() {
            left.push(format!("⚠ {}", m.explain()));
        }
    }
    let wide = |l: &[String]| {
        l.iter()
            .filter(|p| !p.is_empty())
            .map(|p| unicode_width::UnicodeWidthStr::width(p.as_str()) + 3)
            .sum::<usize>()
            .saturating_sub(3)
    };
    for i in spare.into_iter().flatten() {
        if wide(&left) <= width as usize {
            break;
        }
        if let Some(p) = left.get_mut(i) {
            p.clear();
        }
    }
    left.retain(|p| !p.is_empty());
    let left = left.join(" · ");
    let used = unicode_width::UnicodeWidthStr::width(left.as_str());
    // the most key hints that fit beside what the status says
    let right = s
        .key_hints()
        .into_iter()
        .find(|r| used + 1 + r.chars().count() <= width as usize);
    let mut spans = vec![Span::styled(left, th.status)];
    if let Some(right) = right {
        let pad = (width as usize).saturating_sub(used + right.chars().count());
        spans.push(Span::raw(" ".repeat(pad)));
        spans.push(Span::styled(right, th.status));
    }
    Line::from(spans)
}

fn help(f: &mut Frame<'_>, area: Rect, entries: &[(String, &str)], scroll: &mut usize) {
    use unicode_width::UnicodeWidthStr as W;
    let th = theme::current();
    let key_w = entries.iter().map(|(k, _)| k.width()).max().unwrap_or(0) + 2;
    let desc_w = entries.iter().map(|(_, d)| d.width()).max().unwrap_or(0) + 1;
    let col_w = key_w + desc_w;
    // two columns when one does not fit the height and two fit the width;
    // what still does not fit scrolls (j/k)
    let inner_h = area.height.saturating_sub(2) as usize;
    let cols: usize = if entries.len() > inner_h && area.width as usize >= 2 * col_w + 2 {
        2
    } else {
        1
    };
    let key = |k: &str| Span::styled(format!(" {k:<w$}", w = key_w - 1), th.heading);
    // one column: a description wider than the screen leaves wraps under
    // itself (in a pane of 50 columns the edge cut most of them)
    let room = (area.width as usize).saturating_sub(2 + key_w).max(8);
    let all: Vec<Line<'static>> = if cols == 2 {
        let rows_per_col = entries.len().div_ceil(cols);
        (0..rows_per_col)
            .map(|i| {
                let mut spans = Vec::new();
                for c in 0..cols {
                    if let Some((k, d)) = entries.get(c * rows_per_col + i) {
                        spans.push(key(k));
                        spans.push(Span::raw(format!("{d:<desc_w$}")));
                    }
                }
                Line::from(spans)
            })
            .collect()
    } else {
        entries
            .iter()
            .flat_map(|(k, d)| {
                let blank = " ".repeat(key_w);
                super::content::plain(d, room as u16)
                    .into_iter()
                    .enumerate()
                    .map(move |(n, l)| {
                        let mut spans = vec![if n == 0 {
                            key(k)
                        } else {
                            Span::raw(blank.clone())
                        }];
                        spans.extend(l.spans);
                        Line::from(spans)
                    })
            })
            .collect()
    };
    let total = all.len();
    let high = u16::try_from(total).unwrap_or(u16::MAX).saturating_add(2);
    let r = centered(area, (col_w * cols + 2) as u16, high);
    let shown = (r.height as usize).saturating_sub(2);
    *scroll = (*scroll).min(total.saturating_sub(shown));
    let lines: Vec<Line<'static>> = all.into_iter().skip(*scroll).take(shown).collect();
    let title = overlay_title(" keys ", "keys", *scroll, *scroll + shown < total);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title)
                .style(Style::default()),
        ),
        r,
    );
}

/// An overlay's box: `w` by `h` (at most `area`'s) in the middle of `area`.
pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// An overlay's title: `still` when all of it shows, else its `name` and
/// the keys that scroll it the way there is more.
pub(super) fn overlay_title(still: &str, name: &str, scroll: usize, more_below: bool) -> String {
    match (scroll > 0, more_below) {
        (false, false) => still.to_owned(),
        (true, false) => format!(" {name} · ↑ k "),
        (false, true) => format!(" {name} · ↓ j "),
        (true, true) => format!(" {name} · ↑↓ j k "),
    }
}
