//! Text as a person sees it: what the secret rules read. A key written
//! with colour codes in it (`grep --color`), a soft hyphen or a zero-width
//! space, an HTML entity (`&#65;KIA…`), a markdown escape (`sk\_live\_…`)
//! shows whole on a screen and in a page; here it is whole too, and each
//! piece knows where it came from, so a hit is cut out of what is written.
//! So is a key with markdown's emphasis or code marks inside it
//! (`ghp_abc**def**`, `` sk_live_`abc` ``, `~~`): a page, a screen or a
//! markdown viewer that renders it shows the word whole. So is a key
//! written with the escapes of JSON or code (`\u0067hp_…`, `\x67hp_…`,
//! `https:\/\/`, `{\\\"password\\\":…}` of JSON in a JSON string, a run
//! of backslashes for each level): the next reader of it (a pretty
//! printer, `jq`, a shell's `printf`) decodes it to the key. So is a
//! key percent-encoded in a URL (`%67hp_…`, `sk%5Flive…`): a browser, a
//! URL's parser decodes it. Only what a URL leaves as it is (letters,
//! digits, `-._~+=`) is decoded: a `/`, `:` or `@` written `%2F`, `%3A`,
//! `%40` stays, as a URL's parser splits the URL before it decodes, and
//! a password written `p%40ss` in `scheme://user:p%40ss@host` is read
//! whole by the rule that knows the URL's shape.
//! (The Read tool's line numbers, `    15→JWT_SECRET=…`, stay: the rules
//! that look for a line's start take them as its start.)

use std::borrow::Cow;

/// `text` as shown, and how its pieces map onto the written text (empty
/// when nothing changed: most text).
pub struct Shown<'a> {
    pub text: Cow<'a, str>,
    pieces: Vec<Piece>,
}

/// A stretch of the shown text: copied from the written text (`shown_len
/// == written_len`, byte for byte) or standing for something else there
/// (an entity decoded, a sequence dropped: `shown_len` 0).
#[derive(Debug, Clone, Copy)]
struct Piece {
    shown: usize,
    written: usize,
    shown_len: usize,
    written_len: usize,
    copied: bool,
}

/// Whether `written` holds a character beyond ASCII that shows otherwise
/// than written (a C1 control starting a sequence, an invisible one).
pub fn high_changes(written: &str) -> bool {
    let b = written.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr3(0xc2, 0xe2, 0xef, &b[i..]) {
        if change_at(written, i + k).is_some() {
            return true;
        }
        i += k + 1;
    }
    false
}

/// Whether `written` has markdown's emphasis, strike or code marks
/// inside a word (see [`markup_at`]): rare (a code span or an emphasis
/// starts after a space), and a text without them is not read again.
pub fn intraword_markup(written: &str) -> bool {
    let b = written.as_bytes();
    memchr::memchr3_iter(b'*', b'`', b'~', b).any(|i| markup_at(b, i) > 0)
}

/// The length of the run of one of markdown's marks (`*` to `***`, one
/// to three backticks, `~~`) at `i` when it stands between two letters or
/// digits (a word goes on through it), else 0.
fn markup_at(b: &[u8], i: usize) -> usize {
    let c = b[i];
    // (a mark after a mark is inside a run: `word_byte` says no)
    if i == 0 || !word_byte(b[i - 1]) {
        return 0;
    }
    let run = b[i..].iter().take_while(|&&x| x == c).count();
    // (one `~` is a key's own: Azure's client secrets hold one)
    let strike = c != b'~' || run == 2;
    if run > 3 || !strike || !b.get(i + run).is_some_and(|&n| word_byte(n)) {
        return 0;
    }
    run
}

fn word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl<'a> Shown<'a> {
    pub fn of(written: &'a str) -> Shown<'a> {
        let ascii = written.is_ascii();
        let marks = intraword_markup(written);
        let mut starts = Starts::new(ascii, marks);
        let Some(first) = next_change(written, 0, &mut starts) else {
            return Shown {
                text: Cow::Borrowed(written),
                pieces: Vec::new(),
            };
        };
        let mut b = Builder {
            out: String::with_capacity(written.len()),
            pieces: Vec::new(),
            copied_to: 0,
        };
        let mut change = Some(first);
        while let Some(c) = change {
            b.copy_to(written, c.at);
            b.replace(c);
            change = next_change(written, c.at + c.len, &mut starts);
        }
        b.copy_to(written, written.len());
        Shown {
            text: Cow::Owned(b.out),
            pieces: b.pieces,
        }
    }

    /// The written range behind the shown range `a..b`, widened to whole
    /// characters of the written text.
    pub fn written_range(&self, written: &str, a: usize, b: usize) -> (usize, usize) {
        let (mut s, mut e) = if self.pieces.is_empty() {
            (a, b)
        } else {
            let s = match self.containing(a) {
                Some(p) if p.copied => p.written + (a - p.shown),
                Some(p) => p.written,
                None => written.len(),
            };
            let e = match b.checked_sub(1).and_then(|l| self.containing(l)) {
                Some(p) if p.copied => p.written + (b - p.shown),
                Some(p) => p.written + p.written_len,
                None => s,
            };
            (s, e.max(s))
        };
        s = s.min(written.len());
        e = e.min(written.len());
        while s > 0 && !written.is_char_boundary(s) {
            s -= 1;
        }
        while e < written.len() && !written.is_char_boundary(e) {
            e += 1;
        }
        (s, e)
    }

    /// Where the run of what shows as nothing (a sequence, an invisible
    /// character, a mark) that ends at written byte `a` starts; `a` when
    /// none ends there.
    pub fn dropped_before(&self, mut a: usize) -> usize {
        let mut i = self
            .pieces
            .partition_point(|p| p.written + p.written_len < a);
        while let Some(p) = self.pieces.get(i) {
            if p.copied || p.shown_len > 0 || p.written + p.written_len != a || p.written_len == 0 {
                break;
            }
            a = p.written;
            match i.checked_sub(1) {
                Some(j) => i = j,
                None => break,
            }
        }
        a
    }

    /// The piece that shown byte `y` is in.
    fn containing(&self, y: usize) -> Option<&Piece> {
        let i = self.pieces.partition_point(|p| p.shown + p.shown_len <= y);
        self.pieces.get(i).filter(|p| p.shown <= y)
    }
}

struct Builder {
    out: String,
    pieces: Vec<Piece>,
    /// The written text is copied up to here.
    copied_to: usize,
}

impl Builder {
    fn copy_to(&mut self, w: &str, to: usize) {
        if to > self.copied_to {
            self.pieces.push(Piece {
                shown: self.out.len(),
                written: self.copied_to,
                shown_len: to - self.copied_to,
                written_len: to - self.copied_to,
                copied: true,
            });
            self.out.push_str(&w[self.copied_to..to]);
        }
        self.copied_to = self.copied_to.max(to);
    }

    fn replace(&mut self, c: Change) {
        let mut buf = [0u8; 4];
        let s = c.shown.map_or("", |ch| ch.encode_utf8(&mut buf));
        self.pieces.push(Piece {
            shown: self.out.len(),
            written: c.at,
            shown_len: s.len(),
            written_len: c.len,
            copied: false,
        });
        self.out.push_str(s);
        self.copied_to = c.at + c.len;
    }
}

/// Something the screen shows otherwise than it is written: `len` bytes
/// at `at` that show as `shown` (or nothing).
#[derive(Debug, Clone, Copy)]
struct Change {
    at: usize,
    len: usize,
    shown: Option<char>,
}

/// Where the next byte of each kind that can start a change is, at or
/// after where the last search began: kept between searches, so that a
/// text of many changes is not searched again to its end for a kind it
/// does not hold after each one.
struct Starts {
    ascii: bool,
    marks: bool,
    /// ESC, `&`, `\\`; the first bytes of C1 controls and invisible
    /// characters; markdown's marks; `%`.
    at: [usize; 4],
}

const SETS: [(u8, u8, u8); 4] = [
    (0x1b, b'&', b'\\'),
    (0xc2, 0xe2, 0xef),
    (b'*', b'`', b'~'),
    (b'%', b'%', b'%'),
];

impl Starts {
    fn new(ascii: bool, marks: bool) -> Starts {
        Starts {
            ascii,
            marks,
            at: [0; 4],
        }
    }

    /// The next byte of set `k` at or after `i` (the text's length: none).
    fn find(&mut self, b: &[u8], k: usize, i: usize) -> usize {
        if self.at[k] < i || (i == 0 && self.at[k] == 0) {
            let off = (k == 1 && self.ascii) || (k == 2 && !self.marks);
            let (x, y, z) = SETS[k];
            self.at[k] = match off || i >= b.len() {
                true => b.len(),
                false => memchr::memchr3(x, y, z, &b[i..]).map_or(b.len(), |n| i + n),
            };
        }
        self.at[k]
    }
}

/// The next change at or after `from`. Most text has none: it is
/// searched at memchr speed for the bytes that can start one (`marks`:
/// markdown's marks inside a word too, see [`intraword_markup`]).
fn next_change(w: &str, from: usize, starts: &mut Starts) -> Option<Change> {
    let b = w.as_bytes();
    let mut next = [0; 4];
    for (k, n) in next.iter_mut().enumerate() {
        *n = starts.find(b, k, from);
    }
    loop {
        let (k, at) = next
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(_, at)| at)
            .unwrap_or((0, b.len()));
        if at >= b.len() {
            return None;
        }
        if k == 2 {
            match markup_at(b, at) {
                0 => {
                    // (past the whole run: its second mark starts nothing)
                    let run = b[at..].iter().take_while(|&&x| x == b[at]).count();
                    next[2] = starts.find(b, 2, at + run);
                    continue;
                }
                len => {
                    return Some(Change {
                        at,
                        len,
                        shown: None,
                    });
                }
            }
        }
        if let Some(c) = change_at(w, at) {
            return Some(c);
        }
        // `\\` is one escaped backslash: the next one starts nothing
        let skip = match b[at] == b'\\' && b.get(at + 1) == Some(&b'\\') {
            true => 2,
            false => 1,
        };
        next[k] = starts.find(b, k, (at + skip).min(b.len()));
    }
}

fn change_at(w: &str, at: usize) -> Option<Change> {
    let b = w.as_bytes();
    let drop = |len| {
        Some(Change {
            at,
            len,
            shown: None,
        })
    };
    match b[at] {
        0x1b => match escape_len(&b[at..]) {
            0 => None,
            n => drop(n),
        },
        0xc2 => match b.get(at + 1) {
            Some(0x9b | 0x9d | 0x90) => match escape_len(&b[at..]) {
                0 => None,
                n => drop(n),
            },
            Some(0xad) => drop(2),
            _ => None,
        },
        0xef if b.get(at + 1..at + 3) == Some(&[0xbb, 0xbf]) => drop(3),
        0xe2 => {
            let (b1, b2) = (*b.get(at + 1)?, *b.get(at + 2)?);
            let invisible = matches!((b1, b2), (0x80, 0x8b..=0x8f | 0xaa..=0xae) | (0x81, 0xa0..=0xa4 | 0xa6..=0xa9));
            if invisible {
                return drop(3);
            }
            None
        }
        b'%' => {
            let c = char::from_u32(hex(b.get(at + 1..at + 3)?)?)?;
            (c.is_ascii_alphanumeric() || "-._~+=".contains(c)).then_some(Change {
                at,
                len: 3,
                shown: Some(c),
            })
        }
        b'&' => entity(&w[at..]).map(|(ch, len)| Change {
            at,
            len,
            shown: (!invisible(ch)).then_some(ch),
        }),
        b'\\' => {
            // (a run of backslashes: JSON in JSON, `\\u0067`, is read
            // through too; a run is short, or no escape's)
            let run = b[at..].iter().take(9).take_while(|&&c| c == b'\\').count();
            // (read from the run's head: a loop that meets its middle
            // passes on)
            let run = match at > 0 && b[at - 1] == b'\\' {
                true if run > 1 => 9,
                _ => run,
            };
            match b.get(at + run) {
                // `sk\_live`: the backslash is markdown's, not the text's
                // (the escapes markdown puts in a word; `\.` and `\"` are
                // code's)
                Some(&n) if run == 1 && b"_*~".contains(&n) => Some(Change {
                    at,
                    len: 2,
                    shown: Some(n as char),
                }),
                // `https:\/\/`: JSON's
                Some(b'/') if run < 9 => Some(Change {
                    at,
                    len: run + 1,
                    shown: Some('/'),
                }),
                // `{\\\"password\\\":…}`: JSON written in JSON's strings,
                // read as one level of it (its rules know `\"`)
                Some(b'"') if run >= 3 && run % 2 == 1 && run < 9 => Some(Change {
                    at,
                    len: run - 1,
                    shown: None,
                }),
                // `\u0067hp_…`, `\x67hp_…`: JSON or code written out, which
                // the next reader (a pretty printer, a shell, a JSON tool)
                // decodes to the key
                Some(b'u') if run < 9 => {
                    unicode_escape(&b[at..], run).map(|(c, len)| decoded(b, at, c, len))
                }
                Some(b'x') if run < 9 => {
                    hex_escape(&b[at + run - 1..]).map(|(c, len)| decoded(b, at, c, len + run - 1))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// What an escape at `at`, `len` bytes that stand for `c`, shows as: an
/// invisible character nothing, an escape character (`\u001b`) the
/// sequence it starts nothing.
fn decoded(b: &[u8], at: usize, c: char, len: usize) -> Change {
    let shown = if invisible(c) {
        None
    } else if matches!(c, '\u{1b}' | '\u{90}' | '\u{9b}' | '\u{9d}') {
        // the sequence it starts, read where it is written
        let rest = &b[(at + len).min(b.len())..];
        let body = match (c, rest.first()) {
            ('\u{1b}', Some(b'[')) => 1 + body_len(&rest[1..], true),
            ('\u{1b}', Some(b']' | b'P' | b'X' | b'^' | b'_')) => 1 + body_len(&rest[1..], false),
            ('\u{1b}', Some(c)) if (0x20..0x7f).contains(c) => 1,
            ('\u{1b}', _) => 0,
            ('\u{9b}', _) => body_len(rest, true),
            _ => body_len(rest, false),
        };
        return Change {
            at,
            len: len + body,
            shown: None,
        };
    } else {
        Some(c)
    };
    Change { at, len, shown }
}

/// A JSON `\uXXXX` at the start of `b` after `run` backslashes (a
/// surrogate pair as one character): the character and the length
/// written. A lone surrogate stands for none.
fn unicode_escape(b: &[u8], run: usize) -> Option<(char, usize)> {
    let len = run + 5;
    let unit = |i: usize| -> Option<u32> {
        let w = b.get(i..i + len)?;
        if !w[..run].iter().all(|&c| c == b'\\') || w[run] != b'u' {
            return None;
        }
        hex(&w[run + 1..])
    };
    let hi = unit(0)?;
    if (0xd800..0xdc00).contains(&hi) {
        let lo = unit(len).filter(|lo| (0xdc00..0xe000).contains(lo))?;
        let c = char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))?;
        return Some((c, 2 * len));
    }
    Some((char::from_u32(hi)?, len))
}

/// A `\xHH` at the start of `b` that stands for an ASCII character (one
/// of more bytes is a piece of a character, not one).
fn hex_escape(b: &[u8]) -> Option<(char, usize)> {
    let n = hex(b.get(2..4)?).filter(|&n| n < 0x80)?;
    Some((char::from_u32(n)?, 4))
}

/// Hex digits as a number (no sign: `from_str_radix` takes one).
fn hex(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0u32, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
}

/// Characters that take no room on a screen: a word with them in it reads
/// as a word without.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// The length of an escape sequence at the start of `b` (CSI, OSC, a
/// string sequence, or ESC and one byte), 0 when there is none to drop.
fn escape_len(b: &[u8]) -> usize {
    let (intro, csi) = match (b.first(), b.get(1)) {
        (Some(0x1b), Some(b'[')) | (Some(0xc2), Some(0x9b)) => (2, true),
        (Some(0x1b), Some(b']' | b'P' | b'X' | b'^' | b'_')) | (Some(0xc2), Some(0x9d | 0x90)) => {
            (2, false)
        }
        (Some(0x1b), Some(c)) if (0x20..0x7f).contains(c) => return 2,
        (Some(0x1b), _) => return 1,
        _ => return 0,
    };
    intro + body_len(&b[intro..], csi)
}

/// The length of a sequence's body after its introducer: a CSI's
/// parameters and final byte, a string's text and terminator (0 when it
/// is not terminated: only the introducer goes, as on a screen).
fn body_len(b: &[u8], csi: bool) -> usize {
    let mut j = 0;
    if csi {
        while j < b.len() && (0x20..0x40).contains(&b[j]) && j < 64 {
            j += 1;
        }
        return if j < b.len() && (0x40..0x7f).contains(&b[j]) {
            j + 1
        } else {
            j
        };
    }
    while j < b.len() && j < 4096 && b[j] != b'\n' {
        match b[j] {
            0x07 => return j + 1,
            0x1b if b.get(j + 1) == Some(&b'\\') => return j + 2,
            _ => j += 1,
        }
    }
    0
}

/// An HTML entity at the start of `s`: the character and the length.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s.as_bytes().iter().take(16).position(|&c| c == b';')?;
    let body = s.get(1..end)?;
    let ch = if let Some(num) = body.strip_prefix('#') {
        let n = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        char::from_u32(n)?
    } else {
        match body {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => ' ',
            "lowbar" | "UnderBar" => '_',
            "hyphen" | "dash" => '-',
            "period" => '.',
            "sol" => '/',
            "colon" => ':',
            "equals" => '=',
            "shy" => '\u{00ad}',
            "ZeroWidthSpace" => '\u{200b}',
            _ => return None,
        }
    };
    Some((ch, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(s: &str) -> String {
        Shown::of(s).text.into_owned()
    }

    #[test]
    fn what_a_screen_shows() {
        assert_eq!(shown("AKIA\u{1b}[1;31mIOSF\u{1b}[0mODNN"), "AKIAIOSFODNN");
        assert_eq!(shown("sk\u{00ad}_li\u{200b}ve"), "sk_live");
        assert_eq!(shown("&#65;KIA &#x41; &amp;"), "AKIA A &");
        assert_eq!(shown("sk\\_live\\_x"), "sk_live_x");
        assert_eq!(shown("plain text"), "plain text");
        assert_eq!(shown("a\\\\_b"), "a\\\\_b");
        assert_eq!(shown("x → y"), "x → y");
        assert_eq!(shown("&shy;a&nbsp;"), "a ");
        assert_eq!(shown("ghp_ab**cd**ef"), "ghp_abcdef");
        assert_eq!(shown("sk_live_`ab`cd"), "sk_live_abcd");
        assert_eq!(shown("abc8Q~xyz"), "abc8Q~xyz");
        assert_eq!(
            shown("a~~b~~c **bold** `code` x*y"),
            "abc **bold** `code` xy"
        );
        assert_eq!(
            shown("2 * 3 and **x** and a****b"),
            "2 * 3 and **x** and a****b"
        );
        // JSON and code written out: read as the next reader decodes them
        assert_eq!(shown("\\u0067hp_x \\u0041"), "ghp_x A");
        assert_eq!(shown("\\\\u0067hp \\\\\\\\u0067"), "ghp g");
        assert_eq!(shown("a\\ud83d\\ude00b \\ud83db"), "a\u{1f600}b \\ud83db");
        assert_eq!(shown("AK\\u001b[31mIA\\u001b[m \\u200bx"), "AKIA x");
        assert_eq!(shown("https:\\/\\/h\\\\/p"), "https://h/p");
        assert_eq!(shown("\\x67hp \\xff \\x+1 \\x1b[1mB"), "ghp \\xff \\x+1 B");
        assert_eq!(shown("\\u+123 \\u12"), "\\u+123 \\u12");
        // a URL's percent-encoding, but for what splits a URL
        assert_eq!(shown("%67hp_%5F%2d%7e %41"), "ghp__-~ A");
        assert_eq!(
            shown("u:p%40s%2Fs%3A@h 100% 5%2 %zz %"),
            "u:p%40s%2Fs%3A@h 100% 5%2 %zz %"
        );
        assert_eq!(shown("%20%0a%C3%A9"), "%20%0a%C3%A9");
        assert_eq!(shown(r#"{\\\"k\\\":\\"v\"}"#), r#"{\"k\":\\"v\"}"#);
        // a run too long to be an escape's is none, and is read once
        let run = "\\".repeat(100_000) + "u0067";
        assert_eq!(shown(&run), run);
    }

    #[test]
    fn a_shown_range_maps_to_what_is_written() {
        let w = "key AKIA\u{1b}[31mIOSF\u{1b}[0m end";
        let s = Shown::of(w);
        let at = s.text.find("AKIAIOSF").expect("found");
        let (a, b) = s.written_range(w, at, at + 8);
        assert_eq!(&w[a..b], "AKIA\u{1b}[31mIOSF");
        let w = "x &#65;B y";
        let s = Shown::of(w);
        let (a, b) = s.written_range(w, 2, 4);
        assert_eq!(&w[a..b], "&#65;B");
    }
}
