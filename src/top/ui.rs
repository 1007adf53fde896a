//! The overview's screen and keys: draws from [`TopState`], no I/O.

use super::TopState;
use crate::model::activity::Activity;
use crate::model::text::{fit_end, term_line};
use crate::style::theme;
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
    use super::keys::TopAction;
    if k.kind == KeyEventKind::Release {
        return TopOutcome::None;
    }
    s.message = None;
    let n = s.rows.len();
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match s.keys.action(k.code, ctrl) {
        Some(TopAction::Quit) => return TopOutcome::Quit,
        Some(TopAction::Down) => s.selected = (s.selected + 1).min(n.saturating_sub(1)),
        Some(TopAction::Up) => s.selected = s.selected.saturating_sub(1),
        Some(TopAction::First) => s.selected = 0,
        Some(TopAction::Last) => s.selected = n.saturating_sub(1),
        Some(TopAction::Open) => {
            if let Some(p) = s.selected_path() {
                return TopOutcome::Open(p);
            }
        }
        // Ctrl-C always leaves, whatever a config did with it
        None if ctrl && k.code == KeyCode::Char('c') => return TopOutcome::Quit,
        None => {}
    }
    TopOutcome::None
}

/// The overview's key hints, from its table.
fn hints(s: &TopState) -> String {
    use super::keys::TopAction as A;
    let parts = [
        (s.keys.hint(&[&A::Up, &A::Down]), "select"),
        (s.keys.hint(&[&A::Open]), "open (following its end)"),
        (s.keys.hint(&[&A::Quit]), "quit"),
    ];
    let mut line = String::new();
    for (keys, what) in parts {
        if let Some(keys) = keys {
            line.push_str(&format!(" {keys} {what} "));
        }
    }
    line
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
        Activity::Retrying { .. } => ("↻", th.warning),
        Activity::Idle => ("·", th.dim),
    }
}

fn elapsed(ms: i64) -> String {
    let s = (ms / 1000).max(0);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        3600..=172_799 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
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
            Span::styled(pad(&term_line(&r.doing()), dw), th.dim),
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
    let running = count(|a| {
        matches!(
            a,
            Activity::Running { .. } | Activity::Thinking | Activity::Retrying { .. }
        )
    });
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
    use crate::columns::{Column, Cut, cell, widths};
    let cols = [
        Column::fixed("STATE", false),
        Column::fixed("FOR", false),
        Column::flex("TITLE", 20, 80, Cut::End),
        Column::flex("PROJECT", 14, 50, Cut::Middle).dropped_at(2),
        Column::flex("DOING", 12, 80, Cut::End).dropped_at(1),
        Column::fixed("TURNS", true).dropped_at(3),
        Column::fixed("COST", true),
    ];
    let list_h = (area.height as usize).saturating_sub(5);
    let top = s.selected.saturating_sub(list_h.saturating_sub(1));
    let shown: Vec<(usize, &super::Watched)> =
        s.rows.iter().enumerate().skip(top).take(list_h).collect();
    let cells: Vec<Vec<String>> = shown
        .iter()
        .map(|(_, r)| {
            let (glyph, _) = style_of(&r.activity);
            vec![
                format!("{glyph} {}", r.activity.name()),
                elapsed(s.now_ms - r.since_ms),
                r.session
                    .title()
                    .map(term_line)
                    .unwrap_or_else(|| "(loading…)".into()),
                crate::paths::tilde(&r.project),
                term_line(&r.doing()),
                r.turns().to_string(),
                // the priced part, and `+?` when some model has no price
                r.cost().label().unwrap_or_default(),
            ]
        })
        .collect();
    // a space at the start, one between two columns
    let cw = widths(&cols, &cells, w.saturating_sub(1), 1);
    let line_of = |values: &[String], styles: &[Style]| -> Line<'static> {
        let mut spans = vec![Span::raw(" ")];
        for (i, c) in cols.iter().enumerate() {
            if cw[i] == 0 {
                continue;
            }
            if spans.len() > 1 {
                spans.push(Span::raw(" "));
            }
            let v = values.get(i).map_or("", String::as_str);
            spans.push(Span::styled(
                cell(v, cw[i], c),
                styles.get(i).copied().unwrap_or_default(),
            ));
        }
        Line::from(spans)
    };
    let heads: Vec<String> = cols.iter().map(|c| c.head.to_owned()).collect();
    lines.push(line_of(&heads, &[th.dim; 7]));
    for ((i, r), values) in shown.iter().zip(&cells) {
        let (_, style) = style_of(&r.activity);
        let plain = Style::default();
        let mut line = line_of(values, &[style, plain, plain, th.dim, plain, plain, plain]);
        if *i == s.selected {
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
        None => hints(s),
    };
    lines.push(Line::styled(pad(&status, w), th.status));
    f.render_widget(Paragraph::new(lines), area);
}
