//! A prompt being typed, drawn on one line: its sign, the text made safe,
//! a block cursor where the next key goes, scrolled so the cursor shows.

use super::theme;
use crate::model::text::sanitize;
use crate::prompt::LineEdit;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// `sign` then the line, in `width` columns, the cursor on screen.
pub fn prompt_line(sign: &str, edit: &LineEdit, width: usize) -> Line<'static> {
    let th = theme::current();
    let (before, after) = edit.split();
    let before = sanitize(before).into_owned();
    let after = sanitize(after).into_owned();
    let mut rest = after.chars();
    let under = rest.next();
    let after: String = rest.collect();
    let w = |s: &str| s.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>();
    let under_w = under.map_or(1, |c| c.width().unwrap_or(1).max(1));
    let room = width.saturating_sub(w(sign) + under_w);
    // the text before the cursor keeps its end when it is too long
    let shown_before = if w(&before) > room {
        let mut keep = String::new();
        let mut used = 1;
        for c in before.chars().rev() {
            let cw = c.width().unwrap_or(0);
            if used + cw > room {
                break;
            }
            used += cw;
            keep.insert(0, c);
        }
        format!("…{keep}")
    } else {
        before
    };
    let mut left = room.saturating_sub(w(&shown_before));
    let mut shown_after = String::new();
    for c in after.chars() {
        let cw = c.width().unwrap_or(0);
        if cw > left {
            break;
        }
        left -= cw;
        shown_after.push(c);
    }
    let cursor = Style::default().add_modifier(Modifier::REVERSED);
    Line::from(vec![
        Span::raw(sign.to_owned()),
        Span::raw(shown_before),
        Span::styled(under.map_or(" ".to_owned(), String::from), cursor),
        Span::raw(shown_after),
    ])
    .style(th.status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::EditOp;

    fn text(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn the_cursor_shows_where_the_next_key_goes() {
        let mut e = LineEdit::new("hello world");
        e.apply(EditOp::WordLeft, &[]);
        let l = prompt_line(" /", &e, 40);
        assert_eq!(text(&l), " /hello world");
        assert_eq!(l.spans[2].content, "w");
        assert!(l.spans[2].style.add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn a_long_line_scrolls_to_keep_the_cursor() {
        let e = LineEdit::new(&"abcdefghij".repeat(10));
        let l = prompt_line(" /", &e, 20);
        let t = text(&l);
        assert!(t.starts_with(" /…") && t.ends_with("hij "), "{t}");
        assert!(t.chars().count() <= 20, "{t}");
        // control characters are shown, not sent
        let e = LineEdit::new("a\u{1b}]0;x\u{7}");
        assert!(!text(&prompt_line(" /", &e, 40)).contains('\u{1b}'));
    }
}
