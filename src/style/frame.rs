//! The last pass over every frame before the terminal gets it: its cells
//! made to mean to the terminal what they mean to ratatui.

use ratatui::buffer::Buffer;

/// Every screen's frame, once drawn: colours fitted to the terminal
/// ([`super::color::fit_buffer`]) and loose joiners taken off
/// ([`drop_loose_joiners`]).
pub fn finish(buf: &mut Buffer) {
    super::color::fit_buffer(buf);
    drop_loose_joiners(buf);
}

const JOINER: char = '\u{200d}';

/// Takes the zero-width joiners (U+200D) off the end of every cell (see
/// [`crate::model::text::drop_loose_joiners`]). A cell is one grapheme
/// cluster, so a joiner at its end joins nothing in it: ratatui sends the
/// cell and moves on, and the terminal joins the next character it is
/// sent to that cell, wherever ratatui meant it to go. In tmux 3.3 the `❯`
/// of the next row landed beside the joiner, and every cell after it on
/// the screen was one off. Joiners inside a cell (`👨‍👩‍👧`, a conjunct)
/// stay. One pass over the cells, a look at each one's last byte.
pub fn drop_loose_joiners(buf: &mut Buffer) {
    for cell in buf.content.iter_mut() {
        if cell.symbol().ends_with(JOINER) {
            let kept = crate::model::text::drop_loose_joiners(cell.symbol()).into_owned();
            cell.set_symbol(if kept.is_empty() { " " } else { &kept });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn a_joiner_that_ends_a_cell_is_taken_off_and_one_inside_is_kept() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(
            0,
            0,
            "a\u{200d}b \u{1f468}\u{200d}\u{1f469} c\u{200d}",
            ratatui::style::Style::default(),
        );
        let before: Vec<String> = buf.content.iter().map(|c| c.symbol().to_owned()).collect();
        drop_loose_joiners(&mut buf);
        let after: Vec<&str> = buf.content.iter().map(|c| c.symbol()).collect();
        // the same cells, each as wide as before
        assert_eq!(before.len(), after.len());
        assert_eq!(after[0], "a", "{before:?}");
        assert_eq!(after[1], "b");
        assert_eq!(
            after[3], "\u{1f468}\u{200d}\u{1f469}",
            "an emoji sequence stays"
        );
        assert_eq!(after[6], "c");
        assert!(after.iter().all(|s| !s.ends_with(JOINER)), "{after:?}");
    }
}
