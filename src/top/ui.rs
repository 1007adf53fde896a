//! The overview's screen and keys: draws from [`TopState`], no I/O.

use super::TopState;
use crate::model::activity::Activity;
use crate::model::text::{fit_end, term_line};
use crate::view::theme;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

/// What the loop should do after a key.
#[derive(Debug, PartialEq, Eq)]
pub enum TopOutcome {
    None,
    /// Open this session, following its end.
    Open(std::path::PathBuf),
    Quit,
}

pub fn handle_key(s: &mut TopState, k: KeyEvent) -> TopOutcome {
    if k.kind == KeyEventKind::Release {
        return TopOutcome::None;
    }
    s.message = None;
    let n = s.rows.len();
    match k.code {
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
            return TopOutcome::Quit;
        }
        KeyCode::Char('q') | KeyCode::Esc => return TopOutcome::Quit,
        KeyCode::Down | KeyCode::Char('j') => {
            s.selected = (s.selected + 1).min(n.saturating_sub(1))
        }
        KeyCode::Up | KeyCode::Char('k') => s.selected = s.selected.saturating_sub(1),
        KeyCode::Home | KeyCode::Char('g') => s.selected = 0,
        KeyCode::End | KeyCode::Char('G') => s.selected = n.saturating_sub(1),
        KeyCode::Enter => {
            if let Some(p) = s.selected_path() {
                return TopOutcome::Open(p);
            }
        }
        _ => {}
    }
    TopOutcome::None
}

fn style_of(a: &Activity) -> (&'static str, Style) {
    let th = theme::current();
    match a {
        Activity::Running { .. } => ("▶", th.tool_call),
        Activity::Thinking => ("…", th.assistant),
        Activity::Waiting => ("●", th.user),
        Activity::Stalled { .. } => ("‖", th.warning),
        Activity::Interrupted => ("■", th.dim),
        Activity::Failed { .. } => ("✗", th.tool_error),
        Activity::Idle => ("·", th.dim),
    }
}

fn elapsed(ms: i64) -> String {
    let s = (ms / 1000).max(0);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// `s` in a column `w` wide, a space before the next one.
fn pad(s: &str, w: usize) -> String {
    let cut = fit_end(s, w.saturating_sub(1));
    let fill = w.saturating_sub(cut.width());
    format!("{cut}{}", " ".repeat(fill))
}

/// The picker's head: the sessions written lately that are not idle, one
/// line each (at most 5), most in need first. Returns the lines it used.
pub fn draw_section(f: &mut Frame<'_>, area: Rect, s: &TopState) -> u16 {
    let th = theme::current();
    let active: Vec<_> = s
        .rows
        .iter()
        .filter(|r| r.activity != Activity::Idle)
        .take(5)
        .collect();
    if active.is_empty() || area.height < 12 || area.width < 40 {
        return 0;
    }
    let w = area.width as usize;
    let mut lines = vec![Line::styled(
        pad(" active now (ccv top for all of them)", w),
        th.header,
    )];
    let tw = w.saturating_sub(18 + 8) * 45 / 100;
    let dw = w.saturating_sub(18 + 8 + tw + 1);
    for r in &active {
        let (glyph, style) = style_of(&r.activity);
        let title = r.session.title().map(term_line).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::raw(" "),
            Span::styled(pad(&format!("{glyph} {}", r.activity.name()), 18), style),
            Span::raw(pad(&elapsed(s.now_ms - r.since_ms), 8)),
            Span::raw(pad(&title, tw)),
            Span::styled(pad(&term_line(&r.activity.doing()), dw), th.dim),
        ]));
    }
    let h = (lines.len() as u16).min(area.height);
    f.render_widget(Paragraph::new(lines), Rect { height: h, ..area });
    h
}

pub fn draw(f: &mut Frame<'_>, area: Rect, s: &TopState) {
    let th = theme::current();
    if area.height < 3 || area.width < 20 {
        return;
    }
    let w = area.width as usize;
    let count = |pred: fn(&Activity) -> bool| s.rows.iter().filter(|r| pred(&r.activity)).count();
    let waiting = count(|a| *a == Activity::Waiting);
    let running = count(|a| matches!(a, Activity::Running { .. } | Activity::Thinking));
    let stalled = count(|a| matches!(a, Activity::Stalled { .. }));
    let mut title = format!(
        " ccv top — {} session{} written in the last {} min · {waiting} waiting · {running} working",
        s.rows.len(),
        if s.rows.len() == 1 { "" } else { "s" },
        s.window_ms / 60_000
    );
    if stalled > 0 {
        title.push_str(&format!(" · {stalled} stalled"));
    }
    if s.scanning {
        title.push_str(" · scanning…");
    }
    let mut lines = vec![
        Line::styled(pad(&title, w), th.header),
        Line::styled("─".repeat(w), th.dim),
    ];
    // state, elapsed, turns, cost fixed; the rest shared by title, project, doing
    let fixed = 18 + 8 + 6 + 9;
    let rest = w.saturating_sub(fixed);
    let (tw, pw) = (rest * 30 / 100, rest * 22 / 100);
    let dw = rest.saturating_sub(tw + pw);
    let head = format!(
        " {}{}{}{}{}{}{}",
        pad("STATE", 18),
        pad("FOR", 8),
        pad("TITLE", tw),
        pad("PROJECT", pw),
        pad("DOING", dw),
        pad("TURNS", 6),
        "COST"
    );
    lines.push(Line::styled(fit_end(&head, w), th.dim));
    let list_h = (area.height as usize).saturating_sub(5);
    let top = s.selected.saturating_sub(list_h.saturating_sub(1));
    for (i, r) in s.rows.iter().enumerate().skip(top).take(list_h) {
        let (glyph, style) = style_of(&r.activity);
        let title = r
            .session
            .title()
            .map(term_line)
            .unwrap_or_else(|| "(loading…)".into());
        // the priced part, and `+?` when some model has no price
        let cost = r.cost().label().unwrap_or_default();
        let spans = vec![
            Span::raw(" "),
            Span::styled(pad(&format!("{glyph} {}", r.activity.name()), 18), style),
            Span::raw(pad(&elapsed(s.now_ms - r.since_ms), 8)),
            Span::raw(pad(&title, tw)),
            Span::styled(pad(&r.project, pw), th.dim),
            Span::raw(pad(&term_line(&r.activity.doing()), dw)),
            Span::raw(pad(&r.turns().to_string(), 6)),
            Span::raw(cost),
        ];
        let mut line = Line::from(spans);
        if i == s.selected {
            line = line.style(th.selected);
        }
        lines.push(line);
    }
    if s.rows.is_empty() {
        let msg = if s.scanning {
            "looking for sessions…"
        } else {
            "no session was written in this window"
        };
        lines.push(Line::styled(format!("   {msg}"), th.dim));
    }
    while lines.len() < area.height as usize - 1 {
        lines.push(Line::raw(""));
    }
    let status = match &s.message {
        Some(m) => format!(" {}", term_line(m)),
        None => " ↑↓ select  Enter open (following its end; q comes back)  q quit".into(),
    };
    lines.push(Line::styled(pad(&status, w), th.status));
    f.render_widget(Paragraph::new(lines), area);
}
