//! One display row -> styled lines: a time column, an indent, a glyph and
//! a label (which alone tell kinds apart without colour), then the text,
//! wrapped under itself.

use super::call;
use super::content;
use crate::model::item::display_name;
use crate::model::item::{CallState, SystemInfo};
use crate::model::text::{first_line, human_tokens, sanitize};
use crate::model::time::human_duration;
use crate::model::transcript::TurnFigures;
use crate::model::{Detail, Item, Kind, Session, Transcript};
use crate::rows::{Row, RowKind, SessionExt, Tree};
use crate::style::theme::{self, Theme};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

pub const TIME_W: usize = 6;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
pub const LABEL_W: usize = 10;
/// The widest a tool name's label grows.
const LABEL_MAX: usize = 24;
/// The mark of a row `ccv check` has a finding about (one column wide).
pub const WARNING: &str = "⚠";

/// Below this many columns a row's text goes under its label, not beside
/// it, when it does not fit there: half a screen of 120 (a tmux split)
/// left the text 40 columns of 59, one of 30 left it 11.
pub const NARROW: u16 = 60;

/// Columns before the text column of a row at `depth` on a screen
/// `width` wide.
pub fn lead_width(depth: u8, width: u16) -> usize {
    let label = if width < NARROW { 0 } else { LABEL_W + 1 };
    TIME_W + 2 * depth as usize + 2 + label
}

/// Columns left beside a head whose label is `label` columns wide: where
/// a one-line text (a call's, a group's) goes.
fn beside(width: u16, depth: u8, label: usize) -> usize {
    let label = if width < NARROW {
        label
    } else {
        label.max(LABEL_W)
    };
    (width as usize).saturating_sub(TIME_W + 2 * depth as usize + 2 + label + 1)
}

pub struct Ctx<'a> {
    pub session: &'a Session,
    pub width: u16,
    pub tz: &'a jiff::tz::TimeZone,
    /// The time now (ms) while the session is followed: a call without its
    /// result is running, and shows for how long.
    pub now: Option<i64>,
    /// Long output is shown whole, not folded (`z`).
    pub full: bool,
    /// The time of the row drawn above (see [`time_of`]).
    pub above: Option<i64>,
}

pub fn render(cx: &Ctx<'_>, row: &Row, expanded: bool) -> Vec<Line<'static>> {
    let mut lines = render_row(cx, row, expanded);
    if let Some(day) = new_day(cx, row) {
        lines.insert(0, day);
    }
    lines
}

/// `── Fri 23 Jan 2026 ──` above the first row of another day than the
/// row drawn above it (a session resumed the next morning, a tool that
/// ran overnight): the time column says only the hour. The row above, not
/// the entry before: that may be one the filters hide (a resumed session
/// opens its day with context lines), and its date with it.
fn new_day(cx: &Ctx<'_>, row: &Row) -> Option<Line<'static>> {
    let t = cx.session.transcript_checked(row.agent)?;
    let this = t.items.get(row.index as usize)?.timestamp?;
    let before = cx.above?;
    let day = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .ok()
            .map(|t| t.to_zoned(cx.tz.clone()).date())
    };
    let date = day(this)?;
    if Some(date) == day(before) {
        return None;
    }
    let label = format!("{:5} ── {} ──", "", date.strftime("%a %-d %b %Y"));
    Some(Line::styled(label, theme::current().dim))
}

/// The time a row shows up to: its entry's (or the last one before it
/// that has one), a group's last entry's. Asked of the row above every
/// row drawn, in every frame: a group is not walked (one of 50,000 calls
/// would be, each frame).
pub fn time_of(session: &Session, row: &Row) -> Option<i64> {
    let t = session.transcript_checked(row.agent)?;
    let at = match row.kind {
        RowKind::Group { group } => t.groups.get(group as usize)?.last,
        _ => row.index as usize,
    };
    t.items.get(..=at)?.iter().rev().find_map(|i| i.timestamp)
}

fn render_row(cx: &Ctx<'_>, row: &Row, expanded: bool) -> Vec<Line<'static>> {
    let Some(t) = cx.session.transcript_checked(row.agent) else {
        return vec![Line::raw("?")];
    };
    let Some(item) = t.items.get(row.index as usize) else {
        return vec![Line::raw("?")];
    };
    let th = theme::current();
    // what is left of the screen, however little: a text wrapped wider
    // than it lost a character at each line's end (a pane under 31
    // columns, a row nested deep)
    let tw = (cx.width as usize)
        .saturating_sub(lead_width(row.depth, cx.width))
        .max(1) as u16;
    let time = clock(item.timestamp, cx.tz);
    let (mark, notes) = findings(cx.session, t, row, item, expanded);
    let head = |glyph: &str, label: &str, style: Style| Head {
        time: time.clone(),
        depth: row.depth,
        tree: tree_of(row),
        glyph: glyph.to_owned(),
        label: label.to_owned(),
        style,
        mark,
        notes: notes.clone(),
        width: cx.width,
    };
    let fold_glyph = if expanded { "▾" } else { "▸" };
    match row.kind {
        RowKind::Group { group } => {
            let (text, error) = group_heading(cx.session, t, group, cx.now);
            let style = if error { th.tool_error } else { th.tool_call };
            head(fold_glyph, "Tools", style).lines(heading(&text, style, tw), vec![])
        }
        RowKind::Branch { count } => {
            let text = format!(
                "{count} message{} on an earlier branch",
                plural(count as usize)
            );
            head(fold_glyph, "Branch", th.dim).lines(heading(&text, th.dim, tw), vec![])
        }
        RowKind::Subagent { agent } => {
            // the one summary of a subagent, as the exports say it, but
            // for its first word: the row's label says it
            let text = cx
                .session
                .agents
                .get(agent as usize)
                .map_or_else(String::new, |a| {
                    let label = sanitize(&a.label(cx.session)).replace('\n', " ");
                    let rest = label.strip_prefix("subagent").unwrap_or(&label);
                    rest.trim_start_matches([' ', '·']).to_owned()
                });
            head(fold_glyph, "Subagent", th.tool_call)
                .lines(heading(&text, th.tool_call, tw), vec![])
        }
        RowKind::Call { .. } => {
            let Detail::Call(c) = &item.detail else {
                return item_row(cx, th, item, head, tw, expanded);
            };
            let state = cx
                .session
                .call_state(item, cx.now)
                .unwrap_or(CallState::NoResult);
            let (glyph, style) = match state {
                // turns with each second's redraw while followed
                CallState::Running => (
                    SPINNER[(cx.now.unwrap_or(0) / 1000).rem_euclid(10) as usize],
                    th.tool_call,
                ),
                CallState::NoResult => ("?", th.tool_error),
                CallState::Rejected => ("⊘", th.dim),
                CallState::Failed => ("✗", th.tool_error),
                CallState::Done => ("✓", th.tool_call),
            };
            let lost = state == CallState::NoResult;
            // the label grows to fit the name (up to a cap): `take_scre…`
            // told nothing apart
            let name = clip(&sanitize(display_name(&c.name)), LABEL_MAX);
            let line = |width| call::line(cx.session, item, c, state, cx.now, width);
            let room = beside(cx.width, row.depth, name.width());
            let mut text = line(room);
            // too narrow beside its name: under it, as wide as the text
            if cx.width < NARROW && text.width() > room {
                text = line(tw as usize);
            }
            let body = if expanded {
                call::body(c, tw.saturating_sub(2), lost, cx.full)
            } else {
                vec![]
            };
            head(glyph, &name, style).lines(vec![Line::styled(text, style)], body)
        }
        RowKind::Item if item.kind == Kind::User => {
            let mut lines = item_row(cx, th, item, head, tw, expanded);
            if let Some(f) = t.turn_figures(row.index as usize) {
                let lead = lead_width(row.depth, cx.width);
                add_turn_figures(&mut lines, f, cx.width as usize, lead, th);
            }
            lines
        }
        RowKind::Item | RowKind::Member { .. } => item_row(cx, th, item, head, tw, expanded),
    }
}

/// `· 2m31s · ↓ 1.2k tok` after a prompt: how long its turn took and what
/// the model wrote in it. On the prompt's last line when it fits.
fn add_turn_figures(
    lines: &mut Vec<Line<'static>>,
    f: TurnFigures,
    width: usize,
    lead: usize,
    th: &Theme,
) {
    let mut parts = Vec::new();
    if let Some(ms) = f.duration_ms {
        parts.push(human_duration(ms));
    }
    if f.output_tokens > 0 {
        parts.push(format!("↓ {} tok", human_tokens(f.output_tokens)));
    }
    if let Some(c) = f.cost.label() {
        parts.push(c);
    }
    if parts.is_empty() {
        return;
    }
    let text = format!("  · {}", parts.join(" · "));
    let w = UnicodeWidthStr::width(text.as_str());
    match lines.last_mut() {
        Some(last) if last.width() + w <= width => last.spans.push(Span::styled(text, th.dim)),
        _ => lines.push(Line::from(vec![
            Span::raw(" ".repeat(lead)),
            Span::styled(text.trim_start().to_owned(), th.dim),
        ])),
    }
}

fn item_row(
    cx: &Ctx<'_>,
    th: &Theme,
    item: &Item,
    head: impl Fn(&str, &str, Style) -> Head,
    tw: u16,
    expanded: bool,
) -> Vec<Line<'static>> {
    let l = crate::model::label::of_item(item);
    let h = head(l.glyph, l.name, th.tone(l.tone));
    let folded_note = |s: String| heading(&s, th.dim, tw);
    // a message's text, its head when it is long (`z`: more of it)
    let plain = |t: &str| call::drawn(t, usize::MAX, cx.full, |t| content::plain(t, tw));
    let markdown = |t: &str| call::drawn(t, usize::MAX, cx.full, |t| content::markdown(t, tw));
    match item.kind {
        Kind::User if item.flags.queued => {
            // typed while Claude worked; it read it at its next step
            let mut lines = plain(item.text.shown());
            if let Some(first) = lines.first_mut() {
                first.spans.insert(0, Span::styled("queued · ", th.dim));
            }
            h.lines(lines, vec![])
        }
        Kind::User if item.flags.from_lead => {
            let mut lines = plain(item.text.shown());
            if let Some(first) = lines.first_mut() {
                first
                    .spans
                    .insert(0, Span::styled("from the team lead · ", th.dim));
            }
            h.lines(lines, vec![])
        }
        Kind::User => h.lines(plain(item.text.shown()), vec![]),
        Kind::Assistant if item.flags.synthetic => h.lines(plain(item.text.shown()), vec![]),
        Kind::Assistant => h.lines(markdown(item.text.shown()), vec![]),
        Kind::Thinking => {
            if item.flags.redacted {
                h.lines(folded_note("redacted thinking".into()), vec![])
            } else if item.flags.thinking_hidden {
                h.lines(folded_note("thinking not recorded".into()), vec![])
            } else if expanded {
                h.lines(styled(markdown(item.text.shown()), th.thinking), vec![])
            } else {
                let words = item.text.shown().split_whitespace().count();
                h.lines(
                    folded_note(format!("{words} word{}", plural(words))),
                    vec![],
                )
            }
        }
        Kind::Compaction => {
            if expanded {
                h.lines(markdown(item.text.shown()), vec![])
            } else {
                let words = item.text.shown().split_whitespace().count();
                h.lines(
                    folded_note(format!(
                        "summary of the earlier conversation · {words} words"
                    )),
                    vec![],
                )
            }
        }
        Kind::System => {
            if let Detail::System(info) = &item.detail
                && let SystemInfo::CompactBoundary {
                    trigger,
                    pre_tokens,
                    micro,
                } = &**info
            {
                let fill = (cx.width as usize).saturating_sub(TIME_W + 2 * h.depth as usize);
                return vec![divider(
                    &h.time,
                    *micro,
                    trigger.as_deref(),
                    *pre_tokens,
                    fill,
                    th,
                )];
            }
            h.lines(
                short_or_full(item.text.shown(), tw, (expanded, cx.full), th),
                vec![],
            )
        }
        Kind::ToolResult => {
            let text = match &item.detail {
                Detail::OrphanResult(r) => r.message(),
                _ => item.text.shown(),
            };
            let saved = crate::model::saved::saved_output(text);
            let lines = match (expanded, saved) {
                // saved apart: what Claude read, as a call's result shows it
                (true, Some(s)) => call::saved_lines(&s, "", tw, cx.full),
                (true, None) => {
                    call::drawn(text, call::FOLD, cx.full, |t| content::ansi(t, tw, cx.full))
                }
                (false, _) => one_line(saved.map_or(text, |s| s.preview), tw),
            };
            h.lines(lines, vec![])
        }
        Kind::ToolCall => h.lines(one_line(item.text.shown(), tw), vec![]),
        Kind::Unknown | Kind::Unreadable => {
            let at = format!("line {}", item.line);
            let mut lines = vec![Line::styled(at.clone(), th.dim)];
            if expanded || item.kind == Kind::Unreadable {
                lines.extend(styled(
                    call::drawn(item.text.shown(), call::FOLD, cx.full, |t| {
                        content::plain(t, tw)
                    }),
                    th.dim,
                ));
            } else {
                lines[0].spans.push(Span::styled(
                    format!(
                        ": {}",
                        first_line(
                            &sanitize(content::clip(item.text.shown(), false).text),
                            (tw as usize).saturating_sub(at.len() + 2)
                        )
                    ),
                    th.dim,
                ));
            }
            h.lines(lines, vec![])
        }
        // a command's output, bookkeeping, and any kind the model adds:
        // its text, folded to its first line until opened
        _ => h.lines(
            short_or_full(item.text.shown(), tw, (expanded, cx.full), th),
            vec![],
        ),
    }
}

/// Whether `ccv check` names this row (or, for a folded row, something
/// inside it), and the reasons to show under its first line: when it is
/// expanded, or always when it cannot be.
fn findings(
    session: &Session,
    t: &Transcript,
    row: &Row,
    item: &Item,
    expanded: bool,
) -> (bool, Vec<String>) {
    let marks = session.marks();
    if marks.is_empty() {
        return (false, vec![]);
    }
    let inside = |from: usize, to: usize| {
        t.items
            .get(from..to.min(t.items.len()))
            .unwrap_or(&[])
            .iter()
            .any(|i| !marks.of(i.id).is_empty())
    };
    match row.kind {
        RowKind::Group { group } => {
            let g = t.groups.get(group as usize);
            (g.is_some_and(|g| inside(g.first, g.last + 1)), vec![])
        }
        RowKind::Branch { count } => {
            let i = row.index as usize;
            (inside(i, i + count as usize), vec![])
        }
        RowKind::Subagent { agent } => (marks.agent(agent), vec![]),
        RowKind::Item | RowKind::Member { .. } | RowKind::Call { .. } => {
            let m = marks.of(item.id);
            let show = expanded || row.fold(session).is_none();
            let notes = if show {
                m.iter().map(|m| m.explain()).collect()
            } else {
                vec![]
            };
            (!m.is_empty(), notes)
        }
    }
}

/// `expanded`: the text whole, else its first line and how many more
/// (`full`: opened whole, see [`call::drawn`]).
fn short_or_full(
    text: &str,
    tw: u16,
    (expanded, full): (bool, bool),
    th: &Theme,
) -> Vec<Line<'static>> {
    let plain = |t: &str| content::plain(t, tw);
    if expanded {
        return call::drawn(text.trim(), usize::MAX, full, plain);
    }
    let head = content::clip(text.trim(), false);
    let mut lines = plain(head.text);
    if lines.len() > 1 {
        let more = lines.len() - 1;
        lines.truncate(1);
        let left = match head.left {
            0 => String::new(),
            n => format!(" and {} more", crate::model::item::human_bytes(n as u64)),
        };
        lines.push(Line::styled(
            format!("… {more} more line{}{left}", plural(more)),
            th.dim,
        ));
    }
    lines
}

/// A folded row's heading (a group's, a subagent's), wrapped: cut at the
/// screen's edge, it lost its time and cost first.
fn heading(text: &str, style: Style, tw: u16) -> Vec<Line<'static>> {
    styled(content::plain(text, tw), style)
}

fn one_line(text: &str, tw: u16) -> Vec<Line<'static>> {
    let head = content::clip(text, false).text;
    vec![Line::raw(first_line(&sanitize(head), tw as usize))]
}

fn styled(lines: Vec<Line<'static>>, style: Style) -> Vec<Line<'static>> {
    lines.into_iter().map(|l| l.patch_style(style)).collect()
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn divider(
    time: &str,
    micro: bool,
    trigger: Option<&str>,
    pre: Option<u64>,
    total: usize,
    th: &Theme,
) -> Line<'static> {
    let mut what = vec![];
    if let Some(t) = trigger {
        what.push(sanitize(t).into_owned());
    }
    if let Some(p) = pre {
        what.push(format!("{} tokens", human_tokens(p)));
    }
    let name = if micro {
        "context microcompacted"
    } else {
        "conversation compacted"
    };
    let mut text = format!("── {name}");
    if !what.is_empty() {
        text.push_str(&format!(" ({})", what.join(", ")));
    }
    text.push(' ');
    // a narrow pane: the words end in `…` rather than at the edge
    let mut text = crate::model::text::fit_end(&text, total);
    let fill = total.saturating_sub(text.width());
    text.push_str(&"─".repeat(fill));
    Line::from(vec![
        Span::styled(format!("{time} "), th.dim),
        Span::styled(text, th.system),
    ])
}

fn clock(ms: Option<i64>, tz: &jiff::tz::TimeZone) -> String {
    ms.and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
        .map(|t| t.to_zoned(tz.clone()).strftime("%H:%M").to_string())
        .unwrap_or_else(|| "     ".into())
}

fn clip(s: &str, max: usize) -> String {
    crate::model::text::fit_end(s.split('\n').next().unwrap_or(""), max)
}

fn tree_of(row: &Row) -> Tree {
    match row.kind {
        RowKind::Call { tree } | RowKind::Member { tree } => tree,
        _ => Tree::None,
    }
}

pub struct Head {
    time: String,
    depth: u8,
    tree: Tree,
    glyph: String,
    label: String,
    style: Style,
    /// A finding names this row: `⚠` in the gutter after the time.
    mark: bool,
    /// Reasons, shown under the first line.
    notes: Vec<String>,
    /// The screen's width: under [`NARROW`], the text goes under the head.
    width: u16,
}

impl Head {
    /// The first text line after the lead, the rest under the text column,
    /// then `body` behind a gutter.
    fn lines(self, text: Vec<Line<'static>>, body: Vec<Line<'static>>) -> Vec<Line<'static>> {
        let th = theme::current();
        let indent = 2 * self.depth as usize;
        let (first_indent, cont_indent) = match self.tree {
            Tree::None => (" ".repeat(indent), " ".repeat(indent)),
            Tree::Mid => (
                format!("{}├ ", " ".repeat(indent - 2.min(indent))),
                format!("{}│ ", " ".repeat(indent - 2.min(indent))),
            ),
            Tree::Last => (
                format!("{}└ ", " ".repeat(indent - 2.min(indent))),
                " ".repeat(indent),
            ),
        };
        let narrow = self.width < NARROW;
        let label = if narrow {
            self.label.clone()
        } else {
            format!("{:<w$}", self.label, w = LABEL_W)
        };
        let mut out = Vec::with_capacity(text.len() + body.len() + 1);
        let blank = " ".repeat(lead_width(0, self.width) - TIME_W);
        // on a narrow screen the head has a line of its own unless its
        // text is one line that fits beside it
        let alone = narrow
            && (text.len() != 1
                || text.first().is_some_and(|l| {
                    l.width() > beside(self.width, self.depth, self.label.width())
                }));
        let mut text = text.into_iter();
        let notes = self
            .notes
            .iter()
            .map(|n| Line::styled(format!("{WARNING} {n}"), th.warning));
        let first = if alone { None } else { text.next() };
        for (n, l) in std::iter::once(first.unwrap_or_default())
            .chain(notes)
            .chain(text)
            .chain(body.iter().cloned().map(|l| gutter(l, th)))
            .enumerate()
        {
            let mut spans = if n == 0 {
                vec![
                    Span::styled(self.time.clone(), th.dim),
                    if self.mark {
                        Span::styled(WARNING, th.warning)
                    } else {
                        Span::raw(" ")
                    },
                    Span::styled(first_indent.clone(), th.dim),
                    Span::styled(
                        format!(
                            "{} ",
                            if self.glyph.is_empty() {
                                " "
                            } else {
                                &self.glyph
                            }
                        ),
                        self.style,
                    ),
                    Span::styled(format!("{label} "), self.style),
                ]
            } else {
                vec![
                    Span::raw(" ".repeat(TIME_W)),
                    Span::styled(cont_indent.clone(), th.dim),
                    Span::raw(blank.clone()),
                ]
            };
            spans.extend(l.spans);
            out.push(Line::from(spans).style(l.style));
        }
        out
    }
}

fn gutter(l: Line<'static>, th: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("│ ", th.dim)];
    spans.extend(l.spans);
    Line::from(spans).style(l.style)
}

/// The group's heading: [`Session::group_summary`] in words; true when
/// a call failed.
fn group_heading(
    session: &Session,
    t: &Transcript,
    group: u32,
    now: Option<i64>,
) -> (String, bool) {
    let g = session.group_summary(t, group as usize, now);
    let mut parts = vec![format!("{} tool call{}", g.calls, plural(g.calls))];
    for (name, n) in &g.tools {
        let name = clip(&sanitize(name), 24);
        parts.push(if *n > 1 {
            format!("{name} ×{n}")
        } else {
            name
        });
    }
    if g.failed > 0 {
        parts.push(format!("{} error{}", g.failed, plural(g.failed)));
    }
    if g.declined > 0 {
        parts.push(format!("{} declined", g.declined));
    }
    if g.running > 0 {
        parts.push(format!("{} running", g.running));
    }
    if g.no_result > 0 {
        parts.push(format!("{} without result", g.no_result));
    }
    if let Some(ms) = g.duration_ms {
        parts.push(human_duration(ms));
    }
    (parts.join(" · "), g.failed > 0)
}
