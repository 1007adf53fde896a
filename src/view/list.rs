//! The transcript list. Scrolling is anchored at a row (`top`, with
//! `top_skip` of its lines scrolled off), so a frame only renders the rows
//! it shows, plus those it walks over to keep the selection in view.

use super::ListView;
use super::cache::Lines;
use super::matches::{highlight, highlight_over};
use super::row;
use crate::rows::Fold;
use crate::style::theme;
use crate::viewer::Pin;
use crate::viewer::state::{Mode, State};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

/// The rendered lines of row `r` at `width` (cached).
pub fn row_lines(s: &State, v: &mut ListView, r: usize, width: u16) -> Lines {
    let State {
        session,
        expanded,
        rows,
        tz,
        live,
        ..
    } = s;
    let now = live.is_live().then_some(live.now_ms);
    let Some(row) = rows.get(r).copied() else {
        return Lines::default();
    };
    let fold = row.fold(session);
    let is_open = fold.is_some_and(|f| expanded.contains(&f));
    let id = match fold {
        Some(Fold::Item(id) | Fold::Group(id) | Fold::Branch(id) | Fold::Full(id)) => id,
        _ => {
            use crate::rows::SessionExt;
            session
                .transcript_checked(row.agent)
                .and_then(|t| t.items.get(row.index as usize))
                .map_or(0, |i| i.id)
        }
    };
    // (a message is never folded, but may be long: see `call::drawn`)
    let full = (is_open || fold.is_none()) && expanded.contains(&Fold::Full(id));
    // (the filters decide which row is above: it is part of the key)
    let above = r
        .checked_sub(1)
        .and_then(|p| rows.get(p))
        .and_then(|p| row::time_of(session, p));
    let render = || {
        let lines = row::render(
            &row::Ctx {
                session,
                width,
                tz,
                now,
                full,
                above,
            },
            &row,
            is_open,
        );
        if lines.is_empty() {
            vec![Line::raw("")]
        } else {
            lines
        }
    };
    if let Some(item) = text_in_file(s, &row, is_open) {
        // drawn with a placeholder, not kept: the next frame has the text
        v.misses.push((row.agent, item));
        return std::rc::Rc::new(render());
    }
    // a prompt shows what its turn took so far
    use crate::rows::SessionExt;
    let stamp = match row.kind {
        crate::rows::RowKind::Item => session.transcript_checked(row.agent).map_or(0, |t| {
            let prompt = t
                .items
                .get(row.index as usize)
                .is_some_and(|i| i.kind == crate::model::Kind::User);
            if prompt { t.turn_stamp() } else { 0 }
        }),
        _ => 0,
    };
    v.cache
        .get_or_render(id, row, width, (is_open, full, stamp, above), render)
}

/// The row's item, when a text the row draws is still in the session
/// file: its own, or (open) its call's output.
fn text_in_file(s: &State, row: &crate::rows::Row, open: bool) -> Option<crate::model::ItemId> {
    use crate::model::Detail;
    use crate::rows::SessionExt;
    let item = s
        .session
        .transcript_checked(row.agent)?
        .items
        .get(row.index as usize)?;
    let output = match (&item.detail, row.kind) {
        (Detail::Call(c), crate::rows::RowKind::Call { .. }) => {
            open && (c.input.missing() || c.result.as_ref().is_some_and(|r| r.text.missing()))
        }
        _ => false,
    };
    (output || item.text.missing()).then_some(item.id)
}

/// A selected row taller than the screen (an output shown whole) is
/// scrolled to its first match, a few lines of context above it.
fn scroll_to_match(
    s: &State,
    v: &mut ListView,
    q: &crate::model::query::Query,
    width: u16,
    height: usize,
) {
    let lines = row_lines(s, v, s.selected, width);
    if lines.len() <= height {
        return;
    }
    let text = |l: &Line<'_>| {
        l.spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect::<String>()
    };
    if let Some(at) = lines.iter().position(|l| q.first_range(&text(l)).is_some()) {
        v.sel_offset = at.saturating_sub(3).min(lines.len() - height);
    }
}

/// Moves the screen by the lines the wheel turned, across rows; a selected
/// row taller than the screen moves inside with it.
fn scroll(s: &State, v: &mut ListView, width: u16) {
    let n = std::mem::take(&mut v.scroll);
    let len = s.rows.len();
    if n == 0 || len == 0 {
        return;
    }
    let mut top = v.top.min(len - 1);
    let mut skip = v.top_skip as isize + n;
    while skip < 0 && top > 0 {
        top -= 1;
        skip += height_of(s, v, top, width) as isize;
    }
    let mut skip = skip.max(0) as usize;
    loop {
        let h = height_of(s, v, top, width);
        if skip < h || top + 1 >= len {
            skip = skip.min(h - 1);
            break;
        }
        skip -= h;
        top += 1;
    }
    v.top = top;
    v.top_skip = skip;
    if top == s.selected {
        v.sel_offset = skip;
    }
}

fn height(s: &State, v: &mut ListView, r: usize, width: u16) -> usize {
    row_lines(s, v, r, width).len().max(1)
}

/// Moves `top`/`top_skip` so that the selected row is on screen and the
/// screen is full when there is enough below.
pub fn layout(s: &State, v: &mut ListView, width: u16, height: usize) {
    let len = s.rows.len();
    if len == 0 || height == 0 {
        v.screen.sel_overflow = 0;
        v.top = 0;
        v.top_skip = 0;
        return;
    }
    let sel = s.selected.min(len - 1);
    // a wheel turn, a match placed near, or a screen already left so:
    // a tall selection may share the screen with the row before or after
    let wheel = v.scroll != 0;
    let loose = wheel || v.pin == Some(Pin::Near) || v.between == Some(sel);
    scroll(s, v, width);
    match v.pin.take() {
        Some(Pin::Top) => {
            v.top = sel;
            v.top_skip = 0;
        }
        Some(Pin::Bottom) => {
            // up from the selection's end until the screen is full; a row
            // taller than the screen is shown by its end
            let mut acc = height_of(s, v, sel, width);
            v.sel_offset = acc.saturating_sub(height);
            let mut r = sel;
            while acc < height && r > 0 {
                r -= 1;
                acc += height_of(s, v, r, width);
            }
            v.top = r;
            v.top_skip = acc
                .saturating_sub(height)
                .min(height_of(s, v, r, width) - 1);
        }
        Some(Pin::Near) => {
            // (the selection is still shown whole: the move up from it
            // below takes lines of context back when it is taller)
            let lead = (height / 4).min(3);
            let mut acc = 0;
            let mut r = sel;
            while acc < lead && r > 0 {
                r -= 1;
                acc += height_of(s, v, r, width);
            }
            v.top = r;
            v.top_skip = acc.saturating_sub(lead);
        }
        None => {}
    }
    if v.top > sel || v.top >= len {
        v.top = sel;
        v.top_skip = 0;
    }
    // the top row may have shrunk since the last frame (its output
    // arrived shorter, a filter changed it): no more of it is scrolled off
    // than it has, or the screen would not be filled below
    let ht = height_of(s, v, v.top, width);
    v.top_skip = v.top_skip.min(ht.saturating_sub(1));
    let hs = height_of(s, v, sel, width);
    v.screen.sel_overflow = hs.saturating_sub(height);
    // a row that shrank (collapsed, filtered) cannot stay scrolled past
    // its end: `k` would then move inside nothing
    v.sel_offset = v.sel_offset.min(v.screen.sel_overflow);
    if v.top == sel {
        v.top_skip = v.top_skip.min(hs.saturating_sub(1));
    }
    v.between = None;
    if hs >= height && loose && between(s, v, sel, width, height) {
        v.between = Some(sel);
    } else if hs >= height {
        v.top = sel;
        // (a turn of the wheel onto the last row, which follows, goes on
        // down it three lines at a time)
        v.top_skip = if s.follow && sel + 1 == len && !wheel {
            hs - height
        } else {
            v.sel_offset.min(hs - height)
        };
    } else {
        // up from the selection: the screen is full before the top row
        // is reached, so the top comes down to it; or the top row is
        // reached, and stays with as much of it scrolled off as still
        // lets the selection show (reaching it with the screen just full
        // is no reason to move: a frame drawn again would differ)
        let mut acc = hs;
        let mut r = sel;
        while r > v.top {
            r -= 1;
            acc += height_of(s, v, r, width);
            if acc >= height && r > v.top {
                v.top = r;
                v.top_skip = acc - height;
                break;
            }
        }
        if r == v.top && acc.saturating_sub(v.top_skip) > height {
            v.top_skip = acc - height;
        }
    }
    // fill the screen when the end is in view
    let mut total = height_of(s, v, v.top, width).saturating_sub(v.top_skip);
    let mut r = v.top + 1;
    while total < height && r < len {
        total += height_of(s, v, r, width);
        r += 1;
    }
    if total < height {
        let take = (height - total).min(v.top_skip);
        v.top_skip -= take;
        total += take;
        while total < height && v.top > 0 {
            v.top -= 1;
            let h = height_of(s, v, v.top, width);
            if total + h > height {
                v.top_skip = total + h - height;
                total = height;
            } else {
                total += h;
                v.top_skip = 0;
            }
        }
    }
}

/// Whether the screen may stay where it is with the selected row `sel`,
/// taller than the screen, only partly on it: its head under the end of
/// the row before it (the wheel turned down onto it, or a match placed
/// near), or its end over the rows after it (the wheel turned up onto
/// it). Filling the screen with it, a turn of three lines jumped by up to
/// a screen. Not once a key has moved inside it.
fn between(s: &State, v: &mut ListView, sel: usize, width: u16, height: usize) -> bool {
    let hs = height_of(s, v, sel, width);
    if v.top == sel {
        return v.top_skip > hs - height && v.sel_offset == hs - height;
    }
    if v.sel_offset != 0 || v.top > sel {
        return false;
    }
    // lines on screen above its head
    let mut above = height_of(s, v, v.top, width).saturating_sub(v.top_skip);
    for r in v.top + 1..sel {
        if above >= height {
            break;
        }
        above += height_of(s, v, r, width);
    }
    above < height
}

/// Why there are no rows: an empty file, one of metadata only (summary
/// and snapshot lines), or filters that hide everything.
fn empty_note(s: &State) -> String {
    let st = &s.session.stats;
    if !s.session.main.items.is_empty() {
        return " (everything is filtered out: t, T and m toggle the filters)".into();
    }
    if st.entries == 0 {
        return if s.live.attached && !s.live.ended {
            " (empty so far: waiting for the session to be written)".into()
        } else {
            " (empty session)".into()
        };
    }
    let what: Vec<String> = st
        .hidden_by_reason
        .iter()
        .map(|(reason, n)| format!("{n} {reason}"))
        .collect();
    format!(
        " (no messages: {} line{} of session metadata only: {})",
        st.hidden,
        if st.hidden == 1 { "" } else { "s" },
        what.join(", ")
    )
}

fn height_of(s: &State, v: &mut ListView, r: usize, width: u16) -> usize {
    height(s, v, r, width)
}

pub fn draw(f: &mut Frame<'_>, area: Rect, s: &State, v: &mut ListView) {
    let th = theme::current();
    v.screen.visible.clear();
    v.screen.list_height = area.height;
    if s.rows.is_empty() {
        let msg = if s.partial {
            " loading…".to_owned()
        } else {
            empty_note(s)
        };
        f.buffer_mut()
            .set_line(area.x, area.y, &Line::styled(msg, th.dim), area.width);
        return;
    }
    let width = area.width;
    let height = area.height as usize;
    if v.highlight
        .as_ref()
        .is_none_or(|(t, _)| *t != s.search.query)
    {
        let q = crate::model::query::Query::parse(&s.search.query, false)
            .ok()
            .filter(|q| !q.is_empty());
        v.highlight = Some((s.search.query.clone(), q));
    }
    let query = v.highlight.as_ref().and_then(|(_, q)| q.clone());
    if v.match_shown != s.search.shown {
        // a row whose text is still being read back waits for it
        let waiting = s.rows.get(s.selected).is_some_and(|row| {
            let open = row
                .fold(&s.session)
                .is_some_and(|f| s.expanded.contains(&f));
            text_in_file(s, row, open).is_some()
        });
        if !waiting {
            v.match_shown = s.search.shown;
            if let Some(q) = &query {
                scroll_to_match(s, v, q, width, height);
            }
        }
    }
    layout(s, v, width, height);
    v.screen.head_skip = v.top_skip;
    let mut y = 0usize;
    let mut r = v.top;
    let mut skip = v.top_skip;
    let visual = match s.mode {
        Mode::Visual { anchor } => Some(anchor.min(s.selected)..=anchor.max(s.selected)),
        _ => None,
    };
    let in_visual = |r: usize| visual.as_ref().is_some_and(|v| v.contains(&r));
    let current = s.search.current.and_then(|c| s.search.hits.get(c).copied());
    while y < height && r < s.rows.len() {
        let marked = r == s.selected || in_visual(r);
        let row_at = &s.rows[r];
        let matched = if current == Some((row_at.agent, row_at.index as usize)) {
            th.current_match
        } else {
            th.search_match
        };
        let lines = row_lines(s, v, r, width);
        let y0 = y;
        for l in lines.iter().skip(skip) {
            if y >= height {
                break;
            }
            let yy = area.y + y as u16;
            let buf = f.buffer_mut();
            let whole = Rect {
                x: area.x,
                y: yy,
                width,
                height: 1,
            };
            match (&query, marked) {
                (None, _) => {
                    buf.set_line(area.x, yy, l, width);
                    if marked {
                        buf.set_style(whole, th.selected);
                    }
                }
                (Some(q), false) => {
                    buf.set_line(area.x, yy, &highlight(l, q, matched), width);
                }
                // the selection under the text, the matches over it
                (Some(q), true) => {
                    buf.set_style(whole, th.selected);
                    let l = highlight_over(l, q, matched, Some(th.selected));
                    buf.set_line(area.x, yy, &l, width);
                }
            };
            y += 1;
        }
        v.screen.visible.push(super::Visible {
            row: r,
            y: area.y + y0 as u16,
            lines: (y - y0) as u16,
            whole: skip == 0 && y - y0 == lines.len(),
        });
        skip = 0;
        r += 1;
    }
}
