//! How much of a long text a row draws (the view draws it; a search
//! opens a row whole when a match lies past it). A row's lines are made whole
//! (wrapped, highlighted) before the screen shows a part of them, so a
//! text of 50 MB (one answer, one tool's output, one pasted log) cost
//! seconds and 1.3 GB to open, and a bigger one could exhaust memory. A
//! row draws the head of such a text and says how much it left out.

/// A text's head, as much as a row draws of it.
#[derive(Debug, Clone, Copy)]
pub struct Clip<'a> {
    pub text: &'a str,
    /// Bytes left out after it.
    pub left: usize,
}

/// What a row draws of a text: more when it is shown whole (`z`).
#[derive(Debug, Clone, Copy)]
struct Budget {
    bytes: usize,
    lines: usize,
}

/// Folded or not opened whole: more than any fold shows, so the count of
/// the lines a fold hides stays exact for all but outputs of megabytes.
const DRAWN: Budget = Budget {
    bytes: 1 << 20,
    lines: 20_000,
};

/// Shown whole: a few hundred thousand screen lines at most (each held as
/// its styled spans, about 200 bytes).
const WHOLE: Budget = Budget {
    bytes: 16 << 20,
    lines: 200_000,
};

/// The most (lines, bytes) a row draws of a text (`whole`: opened whole).
pub fn budget(whole: bool) -> (usize, usize) {
    let b = if whole { WHOLE } else { DRAWN };
    (b.lines, b.bytes)
}

/// The head of `text` a row draws (`whole`: opened whole), cut at a
/// line's end when the budget's lines run out first, else inside a
/// character's bounds.
pub fn clip(text: &str, whole: bool) -> Clip<'_> {
    let b = if whole { WHOLE } else { DRAWN };
    if text.len() <= b.bytes && text.len() < b.lines {
        // (too short to hold that many lines: none counted)
        return Clip { text, left: 0 };
    }
    let mut end = text.len().min(b.bytes);
    let head = text.as_bytes().get(..end).unwrap_or_default();
    if let Some(nl) = memchr::memchr_iter(b'\n', head).nth(b.lines.saturating_sub(1)) {
        end = nl;
    }
    // (the MSRV's `str` has no `floor_char_boundary`)
    let end = (0..=end)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    Clip {
        text: text.get(..end).unwrap_or_default(),
        left: text.len() - end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_drawn_whole() {
        let c = clip("one\ntwo\n", false);
        assert_eq!((c.text, c.left), ("one\ntwo\n", 0));
    }

    #[test]
    fn a_long_line_is_cut_inside_a_character_bounds() {
        let text = "é".repeat(DRAWN.bytes);
        let c = clip(&text, false);
        assert!(c.text.len() <= DRAWN.bytes && c.text.len() > DRAWN.bytes - 4);
        assert_eq!(c.text.len() + c.left, text.len());
        let whole = clip(&text, true);
        assert_eq!(whole.left, 0);
    }

    #[test]
    fn many_short_lines_are_cut_at_a_line_end() {
        let text = "x\n".repeat(DRAWN.lines + 10);
        let c = clip(&text, false);
        assert_eq!(c.text.lines().count(), DRAWN.lines);
        assert!(!c.text.ends_with('\n'));
        assert_eq!(c.left, text.len() - c.text.len());
        assert_eq!(clip(&text, true).left, 0);
    }
}
