//! The picker drawn from its state: the title bar, the list grouped by
//! project, the key hints, and the full-text mode's hits. Reads
//! [`PickerState`] only (no I/O).

use super::*;
use crate::picker::format::{fit, human_size, message_count, relative_time, short_model};

/// A session's text as the screen shows it: redacted while the screen is
/// (`#` twice, or `ccv --redact`), as the viewer then reads sessions. A
/// title, a project or a hit holds what the session holds: the list went
/// on showing a key the viewer hid.
pub(crate) fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if crate::redact::screen() {
        // (no row: a draw notes nothing in a report's log)
        crate::redact::set_row(None);
        crate::redact::active().redact(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Draws the picker into `area`: title bar, list, key help.
pub fn draw(frame: &mut Frame<'_>, area: Rect, state: &PickerState) {
    let th = theme::current();
    if area.height < 3 || area.width < 10 {
        return;
    }
    let width = area.width as usize;
    let list_h = area.height.saturating_sub(4) as usize;
    state.page.set(list_h.max(1));
    if let Some(ft) = &state.full_text {
        draw_full_text(frame, area, state, ft);
        return;
    }
    let mut lines: Vec<Line<'_>> = Vec::with_capacity(area.height as usize);

    let projects = state.project_count;
    let all = state.sessions.len() - state.folded.min(state.sessions.len());
    let counted = |n: usize, what: &str| crate::model::text::counted(n as u64, what);
    let mut title = if state.filter.as_str().trim().is_empty() {
        format!(
            " ccv — {} · {}",
            counted(projects, "project"),
            counted(all, "session")
        )
    } else {
        // what the filter lets through, of how many
        let shown = state.visible_sessions().count();
        format!(
            " ccv — {shown} of {} · {}",
            counted(all, "session"),
            counted(projects, "project")
        )
    };
    if state.loading {
        title.push_str(" · scanning…");
    } else if state.pricing {
        title.push_str(" · pricing…");
    }
    if state.sort != SortBy::Newest {
        title.push_str(&format!(" · by {}", state.sort.name()));
    }
    if let Some(a) = &state.agent {
        title.push_str(&format!(" · {a} only"));
    }
    let filter_w = (state.filter.as_str().chars().count() + 10).min(width / 2);
    let filter = crate::style::prompt_line::prompt_line("filter: ", &state.filter, filter_w);
    let mut spans = vec![Span::styled(
        fit(&title, width.saturating_sub(filter_w)),
        th.header,
    )];
    spans.extend(filter.spans);
    lines.push(Line::from(spans));
    lines.push(Line::styled("─".repeat(width), th.dim));

    // Clamp the scroll so the selection is on screen whatever was drawn before.
    let mut scroll = state.scroll.min(state.rows.len().saturating_sub(1));
    if let Some(sel) = state.selected {
        if sel < scroll {
            scroll = sel;
        } else if sel >= scroll + list_h.max(1) {
            scroll = sel + 1 - list_h.max(1);
        }
    }
    state.drawn_scroll.set(scroll);
    state.drawn_y.set(area.y);
    let cols = Columns::for_width(width, state.agents.len() > 1);
    for (i, row) in state.rows.iter().enumerate().skip(scroll).take(list_h) {
        lines.push(match row {
            Row::Project(p) => Line::styled(
                format!(" {}", fit(&tilde(&shown(p)), width.saturating_sub(1))),
                th.heading,
            ),
            Row::Session(idx) => match state.sessions.get(*idx) {
                Some(s) => session_line(
                    s,
                    &cols,
                    state.now_ms,
                    state.selected == Some(i),
                    state.title_hits.get(idx).map(Vec::as_slice),
                ),
                None => Line::raw(""),
            },
        });
    }
    if state.rows.is_empty() {
        let msg = if state.loading {
            "looking for sessions…".to_owned()
        } else if !state.filter.is_empty() {
            "no session matches the filter (Esc clears it)".to_owned()
        } else {
            let at = state.root.as_deref().map_or_else(
                || "here".to_owned(),
                |r| format!("in {}", crate::model::text::term_path(r)),
            );
            format!(
                "no sessions {at} (CLAUDE_CONFIG_DIR or a PATH argument looks elsewhere; ccv --demo opens a demo session)"
            )
        };
        lines.push(Line::styled(fit(&format!("   {msg}"), width), th.dim));
    }
    while lines.len() < 2 + list_h {
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("─".repeat(width), th.dim));
    // a selected session with messages no price covers says so whole
    let unpriced = state
        .selected
        .and_then(|i| match state.rows.get(i) {
            Some(Row::Session(idx)) => state.sessions.get(*idx)?.figures.as_ref(),
            _ => None,
        })
        .filter(|f| f.cost.unpriced > 0)
        .and_then(|f| f.cost.describe(&f.unpriced_models()));
    let status = match (&state.message, unpriced) {
        (Some(m), _) => format!(" {}", crate::model::text::sanitize(m)),
        (None, Some(cost)) => {
            format!(" cost: {cost} · `ccv prices` says which models have no price")
        }
        (None, None) => hints(state, width),
    };
    lines.push(Line::styled(fit(&status, width), th.status));
    frame.render_widget(Paragraph::new(lines), area);
}

/// The list's key hints, from its table (an action a config unbound is
/// not hinted): those that fit `width` whole, how to move, open and quit
/// first (at 50 columns the edge cut `Ctrl-f s…` and never said how to
/// quit).
fn hints(state: &PickerState, width: usize) -> String {
    let k = &state.keys;
    let agent = state.agent.as_deref().unwrap_or("all");
    let sort = format!("sort: {}", state.sort.name());
    let agent = format!("agent: {agent}");
    // (each with its rank when the line is short: how to move, open and
    // quit first, then the rest in their order)
    let parts = [
        (0, k.hint(&[&Action::Up, &Action::Down]), "select"),
        (1, k.hint(&[&Action::Open]), "open"),
        (3, Some("type".to_owned()), "to filter"),
        (4, k.hint(&[&Action::FullText]), "search all"),
        (5, k.hint(&[&Action::CycleSort]), sort.as_str()),
        (
            6,
            k.hint(&[&Action::CycleAgent])
                .filter(|_| state.agents.len() > 1),
            agent.as_str(),
        ),
        (2, k.hint(&[&Action::Back]), "clear/quit"),
    ];
    let parts: Vec<(u8, String)> = parts
        .into_iter()
        .filter_map(|(rank, keys, what)| Some((rank, format!(" {} {what} ", keys?))))
        .collect();
    let mut ranked: Vec<&(u8, String)> = parts.iter().collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    let mut room = width;
    let mut kept = Vec::new();
    for (rank, p) in ranked {
        let w = unicode_width::UnicodeWidthStr::width(p.as_str());
        if w <= room {
            room -= w;
            kept.push(*rank);
        }
    }
    parts
        .iter()
        .filter(|(rank, _)| kept.contains(rank))
        .map(|(_, p)| p.as_str())
        .collect()
}

/// The full-text mode: the query, hits grouped by session, the keys.
fn draw_full_text(
    frame: &mut Frame<'_>,
    area: Rect,
    state: &PickerState,
    ft: &crate::picker::found::FullText,
) {
    let th = theme::current();
    let width = area.width as usize;
    let list_h = area.height.saturating_sub(4) as usize;
    let mut lines: Vec<Line<'_>> = Vec::with_capacity(area.height as usize);
    let n = ft.hits().len();
    let count = match (&ft.error, ft.busy, n) {
        (Some(e), _, _) => format!("  {e}"),
        (None, true, _) => "  searching…".to_owned(),
        (None, false, 0) if ft.query.as_str().trim().is_empty() => String::new(),
        (None, false, 0) => "  no match".to_owned(),
        (None, false, n) => format!(
            "  {}{n} hit{}{}",
            if ft.more { "newest " } else { "" },
            if n == 1 { "" } else { "s" },
            match &ft.note {
                Some(note) => format!(" · {note}"),
                None => String::new(),
            }
        ),
    };
    // what is typed is seen first: on a narrow screen the label is cut
    // short, then the count gives way (the query showed as `…d` at 50
    // columns beside `10 hits · indexing for…`)
    let wide = |t: &str| unicode_width::UnicodeWidthStr::width(t);
    let typed = wide(ft.query.as_str()) + 1;
    let full = wide(count.as_str());
    let label = if width >= wide(SEARCH_ALL) + typed + full {
        SEARCH_ALL
    } else {
        " search: "
    };
    let count_w = full
        .min(width.saturating_sub(wide(label) + typed))
        .min(width / 2);
    let prompt =
        crate::style::prompt_line::prompt_line(label, &ft.query, width.saturating_sub(count_w));
    let used: usize = prompt.width();
    let mut spans: Vec<Span<'_>> = prompt
        .spans
        .into_iter()
        .map(|s| Span::styled(s.content, th.header.patch(s.style)))
        .collect();
    spans.push(Span::raw(" ".repeat(width.saturating_sub(count_w + used))));
    spans.push(Span::styled(fit(&count, count_w), th.dim));
    lines.push(Line::from(spans));
    lines.push(Line::styled("─".repeat(width), th.dim));
    let sessions: HashMap<&std::path::Path, &SessionInfo> = state
        .sessions
        .iter()
        .map(|s| (s.path.as_path(), s))
        .collect();
    lines.extend(ft.lines(width, list_h, &sessions, state.now_ms));
    if n == 0 && !ft.busy && ft.query.as_str().trim().is_empty() {
        lines.push(Line::styled(
            "   words in any order · \"a phrase\" · a capital letter makes case count",
            th.dim,
        ));
    }
    while lines.len() < 2 + list_h {
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("─".repeat(width), th.dim));
    let status = match &state.message {
        Some(m) => format!(" {}", crate::model::text::sanitize(m)),
        None => " type to search  ↑↓ select  Enter open at the match  Esc back to the list".into(),
    };
    lines.push(Line::styled(fit(&status, width), th.status));
    frame.render_widget(Paragraph::new(lines), area);
}

/// The full-text search's prompt, where there is room for it.
const SEARCH_ALL: &str = " search all sessions: ";

/// Column widths for a given terminal width; narrow screens drop the
/// branch, then the model.
struct Columns {
    title: usize,
    /// The agent's name, when the list holds more than one agent's.
    agent: usize,
    time: usize,
    msgs: usize,
    size: usize,
    cost: usize,
    model: usize,
    branch: usize,
}

impl Columns {
    /// The title keeps at least 30 columns (or half a narrow screen):
    /// branch, model, message count, size and cost go first, in that order.
    fn for_width(w: usize, agents: bool) -> Columns {
        let mut c = Columns {
            title: 0,
            agent: if agents { 7 } else { 0 },
            time: 12,
            msgs: 12,
            size: 9,
            cost: 9,
            model: 12,
            branch: 16,
        };
        let want = 30.min(w / 2);
        let fixed =
            |c: &Columns| 3 + c.agent + c.time + c.msgs + c.size + c.cost + c.model + c.branch;
        for drop in [
            |c: &mut Columns| c.agent = 0,
            |c: &mut Columns| c.branch = 0,
            |c: &mut Columns| c.model = 0,
            |c: &mut Columns| c.msgs = 0,
            |c: &mut Columns| c.size = 0,
            |c: &mut Columns| c.cost = 0,
        ] {
            if w.saturating_sub(fixed(&c)) >= want {
                break;
            }
            drop(&mut c);
        }
        c.title = w.saturating_sub(fixed(&c)).max(8);
        c
    }
}

/// `$1.23`, `$?` (a model without a price), `…` (not read yet), or
/// blank for a session that used no tokens.
fn cost_cell(s: &SessionInfo) -> String {
    match &s.figures {
        None => "…".into(),
        Some(f) => f.cost.label().unwrap_or_default(),
    }
}

/// `text` with the characters at `hits` (char indices) in `hl`.
fn highlighted(text: String, hits: &[u32], base: Style, hl: Style) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut lit = false;
    for (k, c) in text.chars().enumerate() {
        let on = hits.binary_search(&(k as u32)).is_ok();
        if on != lit && !run.is_empty() {
            let style = if lit { base.patch(hl) } else { base };
            spans.push(Span::styled(std::mem::take(&mut run), style));
        }
        lit = on;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(run, if lit { base.patch(hl) } else { base }));
    }
    spans
}

fn session_line<'a>(
    s: &SessionInfo,
    c: &Columns,
    now_ms: i64,
    selected: bool,
    hits: Option<&[u32]>,
) -> Line<'a> {
    let th = theme::current();
    let base = if selected {
        th.selected
    } else {
        Style::default()
    };
    let dim = base.patch(th.dim);
    let marker = if selected { "▸" } else { " " };
    let live = if s.live { "●" } else { " " };
    let mut spans = vec![
        Span::styled(marker.to_owned(), base),
        Span::styled(live.to_owned(), base.patch(th.assistant)),
        Span::styled(" ".to_owned(), base),
    ];
    if c.agent > 0 {
        spans.push(Span::styled(fit(s.agent(), c.agent), dim));
    }
    // the filter's matches in the title stand out (as the viewer's search;
    // not in a title redacted, whose letters moved)
    let own_title = s.shown_title();
    let title = shown(&own_title);
    let hits = match title {
        std::borrow::Cow::Borrowed(_) => hits.unwrap_or(&[]),
        std::borrow::Cow::Owned(_) => &[],
    };
    spans.extend(highlighted(
        fit(&title, c.title),
        hits,
        base,
        th.search_match,
    ));
    spans.push(Span::styled(
        format!(
            "{:>w$}",
            fit(&relative_time(now_ms, s.last_activity_ms), c.time - 1).trim_end(),
            w = c.time
        ),
        dim,
    ));
    if c.msgs > 0 {
        spans.push(Span::styled(
            format!(
                "{:>w$}",
                format!(
                    "{} msg{}",
                    message_count(s),
                    if s.message_count == 1 { "" } else { "s" }
                ),
                w = c.msgs
            ),
            dim,
        ));
    }
    if c.size > 0 {
        spans.push(Span::styled(
            format!("{:>w$}", human_size(s.size), w = c.size),
            dim,
        ));
    }
    if c.cost > 0 {
        spans.push(Span::styled(
            format!("{:>w$}", cost_cell(s), w = c.cost),
            base,
        ));
    }
    if c.model > 0 {
        let model = s.model.as_deref().map(short_model).unwrap_or_default();
        spans.push(Span::styled(
            format!("  {}", fit(&model, c.model - 2)),
            base,
        ));
    }
    if c.branch > 0 {
        spans.push(Span::styled(
            format!(
                " {}",
                fit(&shown(s.git_branch.as_deref().unwrap_or("")), c.branch - 1)
            ),
            dim,
        ));
    }
    Line::from(spans)
}
