//! Word-wrapping styled text to a column width.
//!
//! Widths are measured per grapheme cluster, the way ratatui's buffer
//! places them, so a wrapped line never overflows on screen: CJK counts 2,
//! an emoji ZWJ sequence or a flag counts as one (usually 2-wide) cluster,
//! combining marks and format characters ride on their base for free.
//! This is also the last line of defence: any control character that
//! reaches here is shown as `^X` / `<U+XXXX>`, tabs become spaces.

use crate::model::text::{is_unsafe_char, visible_escape};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Tab stops every this many columns.
pub const TAB: usize = 4;

/// Columns one grapheme cluster takes on screen.
pub fn grapheme_width(g: &str) -> usize {
    if g.len() == 1 {
        // ASCII: printable is 1; controls never reach the screen.
        return usize::from(!g.as_bytes()[0].is_ascii_control());
    }
    // Halfwidth (han)dakuten are Grapheme_Extend but terminals draw them
    // in their own cell, and ratatui counts them so.
    g.width()
        + g.chars()
            .filter(|c| matches!(c, '\u{ff9e}' | '\u{ff9f}'))
            .count()
}

/// Columns `s` takes on screen (no tabs or controls expected).
pub fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.bytes().filter(|b| !b.is_ascii_control()).count();
    }
    s.graphemes(true).map(grapheme_width).sum()
}

/// Width of a sequence of spans.
pub fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| display_width(&s.content)).sum()
}

/// Wraps one line to `width` columns (no prefix).
pub fn wrap(line: &Line<'_>, width: u16) -> Vec<Line<'static>> {
    wrap_spans(&line.spans, usize::from(width), &[], &[])
}

/// Wraps one logical line so that its continuation lines start under its
/// text, past its indentation and a list marker (`- `, `1. `, `☐ `), as an
/// editor wraps an indented line: a wrapped item of an indented list in a
/// prompt or a log otherwise ran back to the left edge. An indent deeper
/// than half the width is not kept (the text would be left a sliver).
pub fn wrap_hanging(content: &[Span<'_>], width: usize) -> Vec<Line<'static>> {
    let indent = hanging_indent(content);
    if indent == 0 || indent * 2 > width {
        return wrap_spans(content, width, &[], &[]);
    }
    const SPACES: &str = "                                                                ";
    let rest = match SPACES.get(..indent) {
        Some(s) => Span::raw(s),
        None => Span::raw(" ".repeat(indent)),
    };
    wrap_spans(content, width, &[], &[rest])
}

/// Columns before the text of a line: its indentation, then a list marker
/// and the spaces after it.
fn hanging_indent(content: &[Span<'_>]) -> usize {
    let mut chars = content.iter().flat_map(|s| s.content.chars()).peekable();
    let mut col = 0;
    while let Some(c) = chars.next_if(|&c| c == ' ' || c == '\t') {
        col += if c == ' ' { 1 } else { TAB - col % TAB };
    }
    // a marker: a bullet, or up to three digits or one letter and `.`/`)`
    let mut marker = ['\0'; 4];
    let mut n = 0;
    while n < marker.len() {
        match chars.next_if(|&c| c != ' ' && c != '\t') {
            Some(c) => marker[n] = c,
            None => break,
        }
        n += 1;
    }
    let marker = &marker[..n];
    let is_marker = match marker {
        [b] => "-*+•◦‣▪–☐☑☒◐✓✔✗✘".contains(*b),
        [body @ .., '.' | ')'] => match body {
            [l] => l.is_ascii_alphanumeric(),
            _ => (1..=3).contains(&body.len()) && body.iter().all(char::is_ascii_digit),
        },
        _ => false,
    };
    let mut after = 0;
    while chars.next_if(|&c| c == ' ').is_some() {
        after += 1;
    }
    if is_marker && after > 0 && chars.peek().is_some() {
        let marker_width: usize = marker
            .iter()
            .map(|&c| grapheme_width(c.encode_utf8(&mut [0; 4])))
            .sum();
        col + marker_width + after
    } else {
        col
    }
}

/// Makes a string safe and tab-free; `col` is the column the text starts
/// at (for tab stops) and is advanced.
fn clean_into(s: &str, col: &mut usize, out: &mut String) {
    for g in s.graphemes(true) {
        if g == "\t" {
            let n = TAB - *col % TAB;
            out.extend(std::iter::repeat_n(' ', n));
            *col += n;
        } else if g == "\n" || g == "\r\n" {
            out.push('\n');
            *col = 0;
        } else if g.chars().any(|c| is_unsafe_char(c) || c.is_control()) {
            for c in g.chars() {
                if is_unsafe_char(c) || c.is_control() {
                    let start = out.len();
                    visible_escape(c, out);
                    *col += out.len() - start;
                } else {
                    out.push(c);
                    *col += grapheme_width(c.encode_utf8(&mut [0; 4]));
                }
            }
        } else {
            out.push_str(g);
            *col += grapheme_width(g);
        }
    }
}

/// Spans made safe (see [`clean_into`]), tabs expanded from column 0.
fn clean(spans: &[Span<'_>]) -> Vec<(Style, String)> {
    let mut col = 0;
    spans
        .iter()
        .map(|s| {
            let mut out = String::with_capacity(s.content.len());
            clean_into(&s.content, &mut col, &mut out);
            (s.style, out)
        })
        .collect()
}

/// One grapheme of the content, by position in the cleaned spans.
#[derive(Clone, Copy)]
struct Cell {
    span: usize,
    start: usize,
    end: usize,
    width: usize,
    kind: CellKind,
    /// Where a line may break beside it within a word (see [`Cjk`]).
    cjk: Cjk,
}

/// How a grapheme lets a line break beside it inside a run of non-space
/// text. Chinese and Japanese are written without spaces and break
/// between any two characters (a sentence was one word: the line before
/// it was left half empty, or it was cut where it ran out of room), but
/// not before closing punctuation or small kana, nor after an opening
/// bracket (kinsoku). Text with no such character wraps as before.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Cjk {
    /// An ideograph, kana or full-width sign: a break may come on either
    /// side.
    breaks: bool,
    /// Never starts a line (`。`, `」`, `ー`, `ッ`, `)`...).
    no_start: bool,
    /// Never ends a line (`「`, `（`, `(`...).
    no_end: bool,
}

impl Cjk {
    const NO_START: Cjk = Cjk {
        breaks: false,
        no_start: true,
        no_end: false,
    };
    const NO_END: Cjk = Cjk {
        breaks: false,
        no_start: false,
        no_end: true,
    };

    fn of(g: &str) -> Cjk {
        let Some(c) = g.chars().next() else {
            return Cjk::default();
        };
        Cjk {
            breaks: cjk_breaks(c),
            no_start: "、。，．・：；？！ー」』）］｝〕〉》】〙〗｠〜゠ヽヾゝゞ々〻ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
                .contains(c),
            no_end: "「『（［｛〔〈《【〘〖｟".contains(c),
        }
    }
}

/// Whether `c` is Chinese or Japanese (an ideograph, kana or full-width
/// sign), which is written without spaces between words: a line may
/// break on either side of it.
pub(super) fn cjk_breaks(c: char) -> bool {
    matches!(c,
            '\u{2e80}'..='\u{2fdf}'      // radicals
            | '\u{3000}'..='\u{303f}'    // CJK signs and punctuation
            | '\u{3040}'..='\u{30ff}'    // hiragana, katakana
            | '\u{31c0}'..='\u{31ff}'    // strokes, katakana extensions
            | '\u{3400}'..='\u{4dbf}'    // ideographs, extension A
            | '\u{4e00}'..='\u{9fff}'    // ideographs
            | '\u{f900}'..='\u{faff}'    // compatibility ideographs
            | '\u{fe30}'..='\u{fe4f}'    // compatibility forms
            | '\u{ff00}'..='\u{ffef}'    // full-width and half-width forms
            | '\u{20000}'..='\u{3134f}'  // ideographs, extensions B to G
    )
}

/// Whether a line may break between the graphemes `a` and `b` of one run
/// of non-space text.
fn breaks_between(a: &Cell, b: &Cell) -> bool {
    (a.cjk.breaks || b.cjk.breaks) && !b.cjk.no_start && !a.cjk.no_end
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CellKind {
    Space,
    Word,
    Break,
}

struct Builder<'a> {
    src: &'a [(Style, String)],
    first: &'a [Span<'a>],
    rest: &'a [Span<'a>],
    out: Vec<Line<'static>>,
    cur: Vec<Span<'static>>,
    cur_width: usize,
}

impl Builder<'_> {
    fn push(&mut self, c: Cell) {
        let (style, text) = &self.src[c.span];
        let piece = &text[c.start..c.end];
        match self.cur.last_mut() {
            Some(last) if last.style == *style => last.content.to_mut().push_str(piece),
            _ => self.cur.push(Span::styled(piece.to_string(), *style)),
        }
        self.cur_width += c.width;
    }

    fn emit(&mut self) {
        let prefix = if self.out.is_empty() {
            self.first
        } else {
            self.rest
        };
        let mut spans: Vec<Span<'static>> = prefix
            .iter()
            .map(|s| Span::styled(s.content.to_string(), s.style))
            .collect();
        spans.append(&mut self.cur);
        self.out.push(Line::from(spans));
        self.cur_width = 0;
    }
}

/// Word-wraps `content` to `width` columns. The first output line starts
/// with `first`, every following one with `rest` (a hanging indent).
/// Words longer than a line are broken between graphemes; spaces at a
/// break are dropped; leading indentation is kept. `\n` in the content
/// forces a break. Always returns at least one line.
pub fn wrap_spans(
    content: &[Span<'_>],
    width: usize,
    first: &[Span<'_>],
    rest: &[Span<'_>],
) -> Vec<Line<'static>> {
    let src = clean(content);
    let first_avail = width.saturating_sub(spans_width(first)).max(1);
    let rest_avail = width.saturating_sub(spans_width(rest)).max(1);
    let mut b = Builder {
        src: &src,
        first,
        rest,
        out: Vec::new(),
        cur: Vec::new(),
        cur_width: 0,
    };
    let avail = |b: &Builder<'_>| {
        if b.out.is_empty() {
            first_avail
        } else {
            rest_avail
        }
    };

    // the cells are read as they come, looked ahead of only as far as a
    // break decides (a list of them all, 40 bytes a grapheme, made a 3 MB
    // answer on one line take 190 MB to draw); a run wider than this
    // decides as its whole width would
    let limit = first_avail.max(rest_avail) + 1;
    let mut cells = Ahead {
        it: cells(&src),
        buf: Vec::new(),
        head: 0,
    };
    // Whether the current output line holds content of this logical line
    // (so leading spaces there are indentation, not a break point).
    let mut line_start = true;
    let mut last_break = false;
    while let Some(first_cell) = cells.at(0) {
        last_break = false;
        match first_cell.kind {
            CellKind::Break => {
                cells.next_if(CellKind::Break);
                b.emit();
                line_start = true;
                last_break = true;
            }
            CellKind::Space if line_start => {
                // indentation: keep what fits
                while let Some(c) = cells.next_if(CellKind::Space) {
                    if b.cur_width + c.width <= avail(&b) {
                        b.push(c);
                    }
                }
            }
            CellKind::Space => {
                let (space_w, n) = cells.run(0, CellKind::Space, limit);
                if space_w > limit {
                    // wider than a line: dropped whatever follows, a
                    // break before the word after them
                    while cells.next_if(CellKind::Space).is_some() {}
                    if cells.at(0).is_some_and(|c| c.kind == CellKind::Word) {
                        b.emit();
                    }
                    continue;
                }
                let next_word = cells.at(n).is_some_and(|c| c.kind == CellKind::Word);
                let word_w = if next_word { cells.word(n, limit) } else { 0 };
                let push = if next_word && b.cur_width + space_w + word_w > avail(&b) {
                    // else a long word starts here and is broken below
                    !(word_w <= rest_avail || b.cur_width + space_w >= avail(&b))
                } else {
                    // trailing spaces of a logical line are dropped
                    next_word
                };
                while let Some(c) = cells.next_if(CellKind::Space) {
                    if push {
                        b.push(c);
                    }
                }
                if next_word && !push {
                    b.emit();
                }
            }
            CellKind::Word => {
                let mut before: Option<Cell> = None;
                while let Some(c) = cells.next_if(CellKind::Word) {
                    // a place to break inside the run: the line ends here
                    // when the word from here does not fit on it (and fits
                    // on a line: else it is broken hard below)
                    if let Some(p) = before
                        && breaks_between(&p, &c)
                        && b.cur_width > 0
                    {
                        let word_w = c.width + cells.word_from(0, c, limit);
                        if b.cur_width + word_w > avail(&b) && word_w <= rest_avail {
                            b.emit();
                        }
                    }
                    if b.cur_width + c.width > avail(&b) && b.cur_width > 0 {
                        b.emit();
                    }
                    b.push(c);
                    before = Some(c);
                }
                line_start = false;
            }
        }
    }
    if !b.cur.is_empty() || b.out.is_empty() || last_break {
        b.emit();
    }
    b.out
}

/// The cells of a text as they are read, with the ones looked ahead at
/// held until they are taken.
struct Ahead<I> {
    it: I,
    /// Cells read, from `head` on not yet taken.
    buf: Vec<Cell>,
    head: usize,
}

impl<I: Iterator<Item = Cell>> Ahead<I> {
    /// The cell `n` places ahead.
    #[inline]
    fn at(&mut self, n: usize) -> Option<Cell> {
        if self.buf.len() <= self.head + n {
            self.read(n);
        }
        self.buf.get(self.head + n).copied()
    }

    /// Reads on until the cell `n` places ahead is held (or the text
    /// ends), a few hundred at a time.
    #[cold]
    fn read(&mut self, n: usize) {
        // what was taken goes first (never more than a line or two is
        // held at once)
        if self.head == self.buf.len() {
            self.buf.clear();
        } else {
            self.buf.drain(..self.head);
        }
        self.head = 0;
        let want = (n + 1).saturating_sub(self.buf.len()).max(256);
        self.buf.extend(self.it.by_ref().take(want));
    }

    /// The next cell, taken when it is of `kind`.
    #[inline]
    fn next_if(&mut self, kind: CellKind) -> Option<Cell> {
        let c = self.at(0).filter(|c| c.kind == kind)?;
        self.head += 1;
        Some(c)
    }

    /// The columns of the word from `n` places ahead: the run of non-space
    /// text up to where a line may break in it ([`breaks_between`]),
    /// counted up to the first past `limit`.
    fn word(&mut self, n: usize, limit: usize) -> usize {
        match self.at(n).filter(|c| c.kind == CellKind::Word) {
            Some(c) => c.width + self.word_from(n + 1, c, limit - c.width.min(limit)),
            None => 0,
        }
    }

    /// The columns of the word's cells from `n` places ahead, the cell
    /// before them being `last`.
    fn word_from(&mut self, mut n: usize, mut last: Cell, limit: usize) -> usize {
        let mut width = 0;
        while width <= limit
            && let Some(c) = self.at(n).filter(|c| c.kind == CellKind::Word)
            && !breaks_between(&last, &c)
        {
            width += c.width;
            last = c;
            n += 1;
        }
        width
    }

    /// The columns of the run of `kind` from `n` places ahead, counted up
    /// to the first past `limit`, and the place after what was counted.
    fn run(&mut self, mut n: usize, kind: CellKind, limit: usize) -> (usize, usize) {
        let mut width = 0;
        while width <= limit
            && let Some(c) = self.at(n).filter(|c| c.kind == kind)
        {
            width += c.width;
            n += 1;
        }
        (width, n)
    }
}

/// Like [`wrap_spans`], for code: continuation lines are indented to the
/// line's own leading whitespace, as editors do, so a wrapped statement
/// stays inside its block. The hanging indent is capped at half the room.
pub fn wrap_code(
    content: &[Span<'_>],
    width: usize,
    first: &[Span<'_>],
    rest: &[Span<'_>],
) -> Vec<Line<'static>> {
    let room = width.saturating_sub(spans_width(rest));
    let indent = leading_width(content).min(room / 2);
    if indent == 0 {
        return wrap_spans(content, width, first, rest);
    }
    let style = content.first().map_or(Style::default(), |s| s.style);
    let mut hanging: Vec<Span<'_>> = rest.to_vec();
    hanging.push(Span::styled(" ".repeat(indent), style));
    wrap_spans(content, width, first, &hanging)
}

/// Columns of leading spaces and tabs (tabs to their stops, from column 0).
fn leading_width(content: &[Span<'_>]) -> usize {
    let mut col = 0;
    for c in content.iter().flat_map(|s| s.content.chars()) {
        match c {
            ' ' => col += 1,
            '\t' => col += TAB - col % TAB,
            _ => break,
        }
    }
    col
}

/// The graphemes of `src`, in order, as they are read.
fn cells(src: &[(Style, String)]) -> impl Iterator<Item = Cell> + '_ {
    src.iter().enumerate().flat_map(|(span, (_, text))| {
        text.grapheme_indices(true).map(move |(start, g)| {
            let kind = match g {
                "\n" => CellKind::Break,
                " " => CellKind::Space,
                _ => CellKind::Word,
            };
            let width = if kind == CellKind::Break {
                0
            } else {
                grapheme_width(g)
            };
            // (most of a text: ASCII, of which only brackets and stops
            // take part)
            let cjk = match g.as_bytes() {
                [b'(' | b'[' | b'{'] => Cjk::NO_END,
                [b')' | b']' | b'}' | b',' | b'.' | b':' | b';' | b'!' | b'?' | b'%'] => {
                    Cjk::NO_START
                }
                [_] => Cjk::default(),
                _ => Cjk::of(g),
            };
            Cell {
                span,
                start,
                end: start + g.len(),
                width,
                kind,
                cjk,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of one line and megabytes (an answer without a break) is
    /// read as it comes: every line full, none lost.
    #[test]
    fn a_line_of_megabytes_wraps_whole() {
        let word = "x".repeat(3_000_000);
        let lines = wrap(&Line::from(word.as_str()), 80);
        assert_eq!(lines.len(), 37_500);
        assert!(lines.iter().all(|l| l.width() == 80));
        let words = "lorem ipsum ".repeat(100_000);
        let lines = wrap(&Line::from(words.as_str()), 80);
        assert_eq!(texts(&lines).join(" "), words.trim_end());
        assert!(lines.iter().all(|l| l.width() <= 80));
    }

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    fn w(s: &str, width: usize) -> Vec<String> {
        texts(&wrap_spans(&[Span::raw(s.to_string())], width, &[], &[]))
    }

    fn hanging(s: &str, width: usize) -> Vec<String> {
        texts(&wrap_hanging(&[Span::raw(s.to_string())], width))
    }

    /// An indented line or a list item wraps under its text.
    #[test]
    fn an_indented_line_wraps_under_its_text() {
        assert_eq!(
            hanging("  - wait for the user before going on", 16),
            ["  - wait for the", "    user before", "    going on"]
        );
        assert_eq!(
            hanging("12. run it from the root", 12),
            ["12. run it", "    from the", "    root"]
        );
        assert_eq!(
            hanging("\tb) one two three", 16),
            ["    b) one two", "       three"]
        );
        assert_eq!(
            hanging("    plain words here", 12),
            ["    plain", "    words", "    here"]
        );
        assert_eq!(hanging("1. one two", 7), ["1. one", "   two"]);
        // a to-do's box
        assert_eq!(
            hanging("☑ check the mismatch", 12),
            ["☑ check the", "  mismatch"]
        );
        // no marker: a word, a dash with no space, a number without a dot
        assert_eq!(
            hanging("-x wraps at the edge", 10),
            ["-x wraps", "at the", "edge"]
        );
        assert_eq!(hanging("2024 was a year", 9), ["2024 was", "a year"]);
        // an indent past half the width is not kept
        assert_eq!(
            hanging("      - deep item here", 11),
            ["      -", "deep item", "here"]
        );
        assert_eq!(hanging("   ", 10), ["   "]);
    }

    #[test]
    fn widths_of_wide_and_zero_width_text() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("日本語"), 6);
        assert_eq!(display_width("e\u{301}"), 1); // combining acute
        assert_eq!(display_width("👨‍👩‍👧"), 2); // ZWJ family
        assert_eq!(display_width("🇫🇷"), 2); // flag
        assert_eq!(display_width("a\u{200b}b"), 2); // zero width space
        assert_eq!(display_width("❤\u{fe0f}"), 2); // emoji presentation
    }

    #[test]
    fn words_wrap_at_spaces() {
        assert_eq!(w("the quick brown fox", 10), ["the quick", "brown fox"]);
        assert_eq!(w("", 10), [""]);
        assert_eq!(w("a  b", 10), ["a  b"]);
    }

    #[test]
    fn long_words_break_hard() {
        assert_eq!(w("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(w("ab cdefghijkl", 5), ["ab cd", "efghi", "jkl"]);
    }

    #[test]
    fn cjk_never_overflows() {
        let out = w("日本語のテキストです", 5);
        assert_eq!(out, ["日本", "語の", "テキ", "スト", "です"]);
        for l in &out {
            assert!(display_width(l) <= 5);
        }
    }

    /// Chinese and Japanese break between characters, as they are written
    /// without spaces: a line is filled, not left half empty before a
    /// sentence; never before `。` or small kana, never after `「`; a Latin
    /// word among them stays whole.
    #[test]
    fn cjk_text_breaks_between_characters() {
        let text =
            "README だけだと手動操縦の出し元が抜けています。付属 PDF に手順がある可能性が高いので";
        let out = w(text, 40);
        assert_eq!(out.concat().replace(' ', ""), text.replace(' ', ""));
        assert!(out.iter().all(|l| display_width(l) <= 40), "{out:?}");
        // every line but the last full to a character
        for l in &out[..out.len() - 1] {
            assert!(display_width(l) >= 38, "{out:?}");
        }
        assert_eq!(
            w("あいうえお。かきくけこ", 10),
            ["あいうえ", "お。かきく", "けこ"]
        );
        assert_eq!(w("あいう「えお」", 8), ["あいう", "「えお」"]);
        assert_eq!(w("あいうッえお", 6), ["あい", "うッえ", "お"]);
        assert_eq!(w("これはtestです", 9), ["これは", "testです"]);
        assert_eq!(
            w("漢字漢字abcdefghij漢字", 8),
            ["漢字漢字", "abcdefgh", "ij漢字"]
        );
        // no such character: as before
        assert_eq!(w("the quick brown fox", 10), ["the quick", "brown fox"]);
        assert_eq!(w("a (b) c.d", 4), ["a", "(b)", "c.d"]);
    }

    #[test]
    fn emoji_clusters_stay_whole() {
        let out = w("👨‍👩‍👧👨‍👩‍👧🇫🇷e\u{301}e\u{301}", 3);
        assert_eq!(out, ["👨‍👩‍👧", "👨‍👩‍👧", "🇫🇷e\u{301}", "e\u{301}"]);
    }

    #[test]
    fn tabs_expand_to_stops_and_indent_is_kept() {
        assert_eq!(w("\tx", 20), ["    x"]);
        assert_eq!(w("ab\tc", 20), ["ab  c"]);
        assert_eq!(
            w("    indented words here", 12),
            ["    indented", "words here"]
        );
    }

    #[test]
    fn hanging_indent_prefixes() {
        let first = [Span::raw("• ")];
        let rest = [Span::raw("  ")];
        let out = texts(&wrap_spans(&[Span::raw("one two three")], 9, &first, &rest));
        assert_eq!(out, ["• one two", "  three"]);
    }

    #[test]
    fn code_continuations_keep_their_indentation() {
        let code = |s: &str, width| {
            let rest = [Span::raw("| ")];
            texts(&wrap_code(&[Span::raw(s.to_string())], width, &rest, &rest))
        };
        assert_eq!(
            code("    let x = foo(bar, baz);", 18),
            ["|     let x =", "|     foo(bar,", "|     baz);"]
        );
        assert_eq!(code("\tcall(a, b)", 14), ["|     call(a,", "|     b)"]);
        // at most half the room hangs
        assert_eq!(
            code("        deep words", 14),
            ["|         deep", "|       words"]
        );
        assert_eq!(
            code("no indent at all", 10),
            ["| no", "| indent", "| at all"]
        );
    }

    #[test]
    fn controls_become_visible() {
        let out = w("a\x1bb\u{202e}c\0", 40);
        assert_eq!(out, ["a^[b<U+202E>c^@"]);
    }

    #[test]
    fn newline_forces_break_and_styles_merge() {
        let spans = [Span::raw("ab"), Span::raw("c\nd")];
        let out = wrap_spans(&spans, 10, &[], &[]);
        assert_eq!(texts(&out), ["abc", "d"]);
        assert_eq!(out[0].spans.len(), 1);
    }

    #[test]
    fn tiny_widths_make_progress() {
        assert_eq!(w("日本", 1), ["日", "本"]);
        assert_eq!(w("ab", 0), ["a", "b"]);
    }
}
