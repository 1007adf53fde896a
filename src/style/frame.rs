//! The last pass over every frame before the terminal gets it: its cells
//! made to mean to the terminal what they mean to ratatui.

use crate::model::text::{CLUSTER_BYTES, fit_cluster};
use ratatui::buffer::Buffer;

/// Every screen's frame, once drawn: colours fitted to the terminal
/// ([`super::color::fit_buffer`]), each cell as the terminal draws it in
/// its room ([`fit_cells`]) and its symbols ASCII when asked
/// ([`super::glyphs::fit_buffer`]).
pub fn finish(buf: &mut Buffer) {
    super::color::fit_buffer(buf);
    fit_cells(buf);
    super::glyphs::fit_buffer(buf);
}

/// Every cell (one grapheme cluster) fitted as
/// [`crate::model::text::fit_clusters`] fits a text: a cluster past
/// [`CLUSTER_BYTES`] cut, a zero-width joiner at a cell's end taken off.
/// Such a joiner joins nothing in its cell: ratatui sends the cell and
/// moves on, and the terminal joins the next character it is sent to that
/// cell, wherever ratatui meant it to go. In tmux 3.3 the `❯` of the next
/// row landed beside the joiner, and every cell after it on the screen
/// was one off. One pass over the cells, a look at each one's length and
/// last byte.
pub fn fit_cells(buf: &mut Buffer) {
    for cell in buf.content.iter_mut() {
        let symbol = cell.symbol();
        if symbol.len() > CLUSTER_BYTES || symbol.ends_with('\u{200d}') {
            let kept = fit_cluster(symbol).to_owned();
            cell.set_symbol(if kept.is_empty() { " " } else { &kept });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn a_joiner_that_ends_a_cell_is_taken_off_and_a_long_cluster_cut() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(
            0,
            0,
            "a\u{200d}b \u{1f468}\u{200d}\u{1f469} c\u{200d}",
            ratatui::style::Style::default(),
        );
        let before: Vec<String> = buf.content.iter().map(|c| c.symbol().to_owned()).collect();
        fit_cells(&mut buf);
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
        assert!(after.iter().all(|s| !s.ends_with('\u{200d}')), "{after:?}");
        // a letter under 5,000 marks: its cell within the bound
        let mut buf = Buffer::empty(Rect::new(0, 0, 3, 1));
        let zalgo = format!("e{}x", "\u{301}".repeat(5000));
        buf.set_string(0, 0, &zalgo, ratatui::style::Style::default());
        fit_cells(&mut buf);
        assert!(buf.content[0].symbol().starts_with('e'));
        assert!(buf.content[0].symbol().len() <= CLUSTER_BYTES);
        assert_eq!(buf.content[1].symbol(), "x");
    }
}
