//! The whole screen: header, transcript, status bar, help overlay.

use super::list;
use super::row::tokens;
use super::theme;
use crate::app::keymap::HELP;
use crate::app::state::State;
use crate::model::text::sanitize;
use crate::model::time::human_duration;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub fn draw(f: &mut Frame<'_>, s: &mut State) {
    let area = f.area();
    s.screen.width = area.width;
    s.screen.height = area.height;
    let [head, rule, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let th = theme::current();
    f.render_widget(Paragraph::new(header(s)).style(th.header), head);
    f.render_widget(
        Paragraph::new(Line::styled("─".repeat(rule.width as usize), th.dim)),
        rule,
    );
    list::draw(f, body, s);
    f.render_widget(
        Paragraph::new(status_line(s, status.width)).style(th.status),
        status,
    );
    if s.help {
        help(f, area);
    }
}

fn header(s: &State) -> Line<'static> {
    let th = theme::current();
    let m = &s.session.meta;
    let clean = |x: &str| sanitize(x).replace('\n', " ");
    let mut parts: Vec<String> = Vec::new();
    parts.push(
        s.session
            .title()
            .map(|t| crate::model::text::first_line(&clean(t), 60))
            .unwrap_or_else(|| "(untitled)".into()),
    );
    if let Some(cwd) = &m.cwd {
        let cwd = clean(cwd);
        let home = std::env::var("HOME").unwrap_or_default();
        let cwd = match cwd.strip_prefix(&home) {
            Some(rest) if !home.is_empty() => format!("~{rest}"),
            _ => cwd,
        };
        match m.git_branch.as_deref().filter(|b| !b.is_empty()) {
            Some(b) => parts.push(format!("{cwd} ({})", clean(b))),
            None => parts.push(cwd),
        }
    }
    if let Some(model) = &m.model {
        parts.push(clean(model.strip_prefix("claude-").unwrap_or(model)));
    }
    if let Some(v) = &m.version {
        parts.push(format!("v{}", clean(v)));
    }
    let (prompts, tools) = (s.session.main.turns.len(), s.session.main.tool_calls());
    if prompts > 0 {
        parts.push(format!(
            "{prompts} prompt{}",
            if prompts == 1 { "" } else { "s" }
        ));
    }
    if tools > 0 {
        parts.push(format!("{tools} tool{}", if tools == 1 { "" } else { "s" }));
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
        parts.push(t);
    }
    let u = &s.session.main.totals;
    let total = u.input_tokens
        + u.output_tokens
        + u.cache_creation_input_tokens
        + u.cache_read_input_tokens;
    if total > 0 {
        parts.push(format!("{} tok", tokens(total)));
    }
    if let Some(c) = s.session.main.context_tokens() {
        // how close the session is to compaction (the usual window is 200k;
        // `[1m]` models have 1M)
        let window: u64 = match &m.model {
            Some(model) if model.contains("[1m]") => 1_000_000,
            _ => 200_000,
        };
        parts.push(format!(
            "ctx {} ({}%)",
            tokens(c),
            c.saturating_mul(100) / window
        ));
    }
    let mut spans = vec![Span::styled(format!(" {}", parts.join(" · ")), th.header)];
    if s.partial {
        spans.push(Span::styled("  loading…", th.dim));
    }
    Line::from(spans)
}

fn status_line(s: &State, width: u16) -> Line<'static> {
    let th = theme::current();
    if let Some(q) = &s.search.editing {
        return Line::from(vec![
            Span::raw(format!(" /{q}")),
            Span::styled("▏", th.status),
        ]);
    }
    let mut left = Vec::new();
    left.push(match s.visual {
        Some(v) => format!(
            " VISUAL {} rows (y copy · Esc cancel)",
            v.abs_diff(s.selected) + 1
        ),
        None if s.follow => " FOLLOW".to_owned(),
        None => " SCROLL".to_owned(),
    });
    if s.live.attached {
        left.push(if s.live.ended { "ended" } else { "● live" }.to_owned());
    }
    if s.live.newer.is_some() {
        left.push("newer session: >".into());
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
    if !s.search.query.is_empty() {
        left.push(format!(
            "/{} ({})",
            sanitize(&s.search.query),
            s.search.hits.len()
        ));
    }
    if let Some(m) = &s.message {
        left.push(m.clone());
    } else if let Some(id) = s.rows.get(s.selected).and_then(|r| s.item_id(r)) {
        // what `ccv check` says of the selected row
        if let Some(m) = s.session.marks().of(id).first() {
            left.push(format!("⚠ {}", m.explain()));
        }
    }
    let left = left.join(" · ");
    let used = unicode_width::UnicodeWidthStr::width(left.as_str());
    // the most key hints that fit beside what the status says
    let right = [
        "? help  / search  Enter open  y copy  t T m filters  q quit ",
        "? help  / search  q quit ",
        "? help ",
    ]
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

fn help(f: &mut Frame<'_>, area: Rect) {
    let th = theme::current();
    // two columns when one does not fit the height (a 24-line terminal)
    let cols: usize = if HELP.len() + 2 > area.height as usize && area.width >= 120 {
        2
    } else {
        1
    };
    let rows_per_col = HELP.len().div_ceil(cols);
    let col_w = 60usize;
    let w = ((col_w * cols + 2) as u16).min(area.width);
    let h = (rows_per_col as u16 + 2).min(area.height);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let entry = |(k, d): &(&str, &str)| {
        let key = format!(" {k:<24}");
        let desc = format!("{d:<w$}", w = col_w - 25);
        vec![Span::styled(key, th.heading), Span::raw(desc)]
    };
    let lines: Vec<Line<'static>> = (0..rows_per_col)
        .map(|i| {
            let mut spans = Vec::new();
            for c in 0..cols {
                if let Some(e) = HELP.get(c * rows_per_col + i) {
                    spans.extend(entry(e));
                }
            }
            Line::from(spans)
        })
        .collect();
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" keys ")
                .style(Style::default()),
        ),
        r,
    );
}
