//! A secret hard-wrapped across lines: `fold`, `base64`, `openssl`, a
//! table's cell or a log's width cut a long key where the line ended, and
//! a rule that matched its first line left the rest of it (half of an
//! `sk-ant-` key) on the lines after. A hit that ends a long line goes on
//! through the lines after it that start with a key's characters, up to a
//! line end or a mark that closes what the key was written in (a quote,
//! `` ` ``, a bracket), as long as each is no longer than the first (a
//! wrap never makes a line longer) and looks random (a word such as
//! `done` on the next line does not); a line as long as the first is a
//! full line of the wrap, and the one after it is looked at too.
//!
//! A key cut before its rule could see it (`ghp_` and a few characters,
//! or `sk-a` with `nt-api03-…` on the next line) is joined from the
//! keyword that starts it over the lines after, and the joined word is
//! searched: what a rule finds there over a cut is a hit on each line.
//! Keywords count where a word starts: a block of base64 holds them by
//! chance, mid-word, on its every few lines.

use super::{Breaks, Hit};

/// A hit shorter than this is no key a tool would wrap.
const KEY: usize = 16;
/// A line shorter than this was not wrapped (`fold`: 80, `base64`: 76,
/// `openssl` and PEM: 64): a whole key at the end of a short line, then
/// a line of noise, is two things.
const WIDTH: usize = 60;
/// A rest shorter than this is left (`AA`: nothing of a key).
const REST: usize = 8;
/// No key goes on over more than this many bytes (a JWT's few KB; a
/// private key's lines have rules of their own): a block of base64 is
/// not walked to its end for each key or keyword found in it.
const LONGEST: usize = 8 << 10;
/// A keyword cut by a wrap is found when no more than this much of it
/// ends the first line.
const ROOM: usize = 24;

/// Extends the hits of `b` that end a wrapped line over the rest of their
/// key (see the module's doc); whether one was.
pub(super) fn extend(hits: &mut [Hit], b: &[u8], breaks: Breaks) -> bool {
    let mut changed = false;
    // a hit inside the rest of one before it is in what that one covers
    // now (and its lines were walked: walking them again for each hit in
    // a block of base64 was square)
    let mut covered = 0;
    for h in hits.iter_mut() {
        let Some(key) = b.get(h.start..h.end) else {
            continue;
        };
        if h.start < covered || key.len() < KEY || !key.iter().all(|&c| key_byte(c)) {
            continue;
        }
        if let Some(last) = rests(b, (h.start, h.end), breaks, Rest::Strict).last() {
            h.end = last.end;
            covered = last.end;
            changed = true;
        }
    }
    changed
}

/// A key cut by a wrap before a rule could see it whole (`ghp_` and 16 of
/// its 36 characters at a line's end): the run of a key's characters a
/// keyword of a rule is in, when it ends a wrapped line, is joined to its
/// rest on the lines after and searched as one word; a secret found over
/// the cut is a hit over the lines. Whether one was added.
pub(super) fn joined(
    red: &super::Redactor,
    b: &[u8],
    found: &[(usize, u32)],
    breaks: Breaks,
    hits: &mut Vec<Hit>,
) -> bool {
    let mut new = Vec::new();
    let mut done_to = 0;
    for &(at, k) in found {
        if at < done_to
            || red.woken.get(k as usize).is_none_or(Vec::is_empty)
            || !token_start(b, at, breaks)
        {
            continue;
        }
        let mut start = at - b[..at].iter().rev().take_while(|&&c| key_byte(c)).count();
        if breaks == Breaks::JsonEscape {
            // (not from an escape's letter: `\nghp_…` starts at `g`)
            start = (start..at)
                .rev()
                .find(|&i| escaped(b, i))
                .map_or(start, |i| i + 1);
        }
        let end = at + b[at..].iter().take_while(|&&c| key_byte(c)).count();
        done_to = end;
        // (the hits are in order, none over another)
        let i = hits.partition_point(|h| h.end <= start);
        if hits.get(i).is_some_and(|h| h.start < end) {
            continue;
        }
        let rests = rests(b, (start, end), breaks, Rest::Checked);
        let Some(last) = rests.last() else {
            continue;
        };
        // every keyword on the lines after is in this word too: the
        // search of it finds what they would (one search per block,
        // where one per keyword in it was square in a block of base64)
        done_to = last.end;
        // the word, and where each of its parts is in `b`
        let parts: Vec<std::ops::Range<usize>> = std::iter::once(start..end).chain(rests).collect();
        let word: Vec<u8> = parts.iter().flat_map(|r| &b[r.clone()]).copied().collect();
        let Ok(word) = String::from_utf8(word) else {
            continue;
        };
        let mut kw = Vec::new();
        red.keywords.find_all(word.as_bytes(), &mut kw);
        for h in red.find(&word, &kw, Breaks::Newline) {
            let (Some((p, a)), Some((q, z))) =
                (place(&parts, h.start, false), place(&parts, h.end, true))
            else {
                continue;
            };
            // over a cut; or on a line after the first that its own line
            // did not show to be one (`DB_PASSWORD=` ending a line, its
            // value the next); a secret of one line was found there
            let i = hits.partition_point(|h| h.end <= a);
            if p != q || (p > 0 && hits.get(i).is_none_or(|h| h.start >= z)) {
                new.push(Hit {
                    start: a,
                    end: z,
                    rule: h.rule,
                });
            }
        }
    }
    let added = !new.is_empty();
    hits.append(&mut new);
    added
}

/// The keywords a wrap cut in two (`sk-a` ending a wrapped line, `nt-`
/// starting the next): neither line holds them, so no rule of theirs
/// woke. Each, as (where it starts on the first line, which keyword), for
/// [`joined`] to join its key over the cut; sorted by where they start.
/// Only lines of a wrap's width that end in a key's characters, and whose
/// next line starts with them, are looked at, over the last and first
/// few bytes (a keyword's length) of each.
pub(super) fn cut_keywords(red: &super::Redactor, b: &[u8], breaks: Breaks) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    // (the longest keywords, a PEM header's, have rules over lines)
    let room = red.keywords.longest().min(ROOM + 1).saturating_sub(1);
    if room == 0 {
        return out;
    }
    let (mut window, mut found) = (Vec::new(), Vec::new());
    let mut line_start = breaks.text_start(b);
    let mut from = 0;
    while let Some((at, text_end)) = breaks.next_end(b, from) {
        let next_line = at + if breaks == Breaks::Newline { 1 } else { 2 };
        let start = std::mem::replace(&mut line_start, next_line);
        from = next_line;
        let width = text_end.saturating_sub(breaks.text_of(b, start));
        if width < WIDTH || !text_end.checked_sub(1).is_some_and(|i| key_byte(b[i])) {
            continue;
        }
        let Some(tail) = tail_word(b, (start, text_end), room, breaks) else {
            continue;
        };
        let head_at = next_line + numbered(&b[next_line..]);
        let head = b[head_at..]
            .iter()
            .take(room)
            .take_while(|&&c| key_byte(c))
            .count();
        if head == 0 {
            continue;
        }
        window.clear();
        window.extend_from_slice(&b[text_end - tail..text_end]);
        window.extend_from_slice(&b[head_at..head_at + head]);
        red.keywords.find_all(&window, &mut found);
        for &(s, k) in &found {
            let at = text_end - tail + s;
            if s < tail && s + red.keywords.len_of(k) > tail && token_start(b, at, breaks) {
                out.push((at, k));
            }
        }
    }
    out
}

/// How many bytes before `line.1` (the end of a line starting at
/// `line.0`) the first word in its last `room` bytes starts (see
/// [`token_start`]), if one does.
fn tail_word(b: &[u8], (start, end): (usize, usize), room: usize, breaks: Breaks) -> Option<usize> {
    let from = end.saturating_sub(room).max(start);
    // (most often none: a line of base64 is all letters, looked at in one
    // pass with no branch per byte)
    let all_word = b[from..end].iter().fold(true, |all, &c| {
        all & (c.is_ascii_alphanumeric() | (c == b'+') | (c == b'/'))
    });
    if all_word
        && !(breaks == Breaks::JsonEscape && escaped(b, from))
        && (from > start || !token_start(b, start, breaks))
    {
        return None;
    }
    let (mut i, mut first) = (end, None);
    while i > from {
        let class = CLASS[b[i - 1] as usize];
        if class & WORD == 0 || (breaks == Breaks::JsonEscape && escaped(b, i - 1)) {
            first = Some(i);
            if class == 0 {
                break;
            }
        }
        i -= 1;
    }
    if i == start && token_start(b, start, breaks) {
        first = Some(start);
    }
    first.filter(|&i| i < end).map(|i| end - i)
}

/// Which of `parts` (ranges of a text, one after another in a word)
/// holds byte `at` of the word, and where that byte is in the text; an
/// `end` is the part's end rather than the next one's start.
fn place(parts: &[std::ops::Range<usize>], at: usize, end: bool) -> Option<(usize, usize)> {
    let mut from = 0;
    for (i, r) in parts.iter().enumerate() {
        let len = r.len();
        if at < from + len || (end && at == from + len) {
            return Some((i, r.start + at - from));
        }
        from += len;
    }
    None
}

/// How much a line after a wrapped one must look like a key's rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rest {
    /// The first after a hit: [`REST`] long at least, and random.
    Strict,
    /// After a rest as wide as the wrap (a key goes on): mixed case or
    /// letters and digits will do (a key's last piece, `vBYzmVAbHNOcRAA`).
    Wrapped,
    /// Joined to a keyword's word, which a rule then checks: any.
    Checked,
}

/// Where the rest of the key `b[key.0..key.1]` is, on the lines after it,
/// when it ends a wrapped line (see the module's doc): none when it does
/// not.
fn rests(b: &[u8], key: (usize, usize), breaks: Breaks, how: Rest) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    // (whether it ends a line first: finding where a line starts reads
    // back to it, which for each hit of a text of one line was square)
    if breaks.after_line(b, key.1).is_none() {
        return out;
    }
    let width = key
        .1
        .saturating_sub(breaks.text_of(b, breaks.line_around(b, key.0).0));
    if width < WIDTH {
        return out;
    }
    let key_has = |c: u8| how == Rest::Checked || b[key.0..key.1].contains(&c);
    let marks = (key_has(b'+'), key_has(b'/'));
    let mut at = key.1;
    let mut how = how;
    while let Some(next) = breaks.after_line(b, at).filter(|_| at - key.0 < LONGEST) {
        let next = next + numbered(&b[next..]);
        let Some(run) = rest_run(&b[next..], width, marks, how) else {
            break;
        };
        let end = next + run;
        // (a word joined to a keyword may end anywhere: the rule reads it)
        if how != Rest::Checked && !breaks.ends_rest(b, end) {
            break;
        }
        out.push(next..end);
        if run != width {
            break;
        }
        if how == Rest::Strict {
            how = Rest::Wrapped;
        }
        at = end;
    }
    out
}

/// Whether a keyword at `at` starts a word of a key's characters: after
/// a line's start, a mark that is no base64 letter (`-`, `_`, `=`, a
/// space, a quote) or an escape (`\nghp_…`). A key's prefix starts one
/// (`ghp_`, `KEY=sk-ant-`, `DB_PASSWORD`); the keywords a block of base64
/// holds by chance (a hundred in 80 KB) do not, and each was a search.
fn token_start(b: &[u8], at: usize, breaks: Breaks) -> bool {
    let Some(i) = at.checked_sub(1) else {
        return true;
    };
    let escape = breaks == Breaks::JsonEscape && escaped(b, i);
    if CLASS[b[i] as usize] & WORD != 0 && !escape {
        return false;
    }
    // at a line's start (maybe behind the Read tool's number): not when
    // the line before runs on into it (a block of base64 holds `sk` at
    // the start of one line in a thousand)
    let line_start = match b[i] {
        b'\n' if breaks == Breaks::Newline => Some(at),
        b'n' if escape => Some(at),
        b'\t' | b't' | 0x92 => {
            // (a number is a few bytes before: no further look back)
            let from = at.saturating_sub(16);
            let s = match breaks {
                Breaks::Newline => memchr::memrchr(b'\n', &b[from..at]).map(|p| from + p + 1),
                Breaks::JsonEscape => super::ESCAPE_N_BACK
                    .rfind(&b[from..at])
                    .map(|p| from + p + 2),
            };
            s.filter(|&s| s + numbered(&b[s..]) == at)
        }
        _ => None,
    };
    line_start.is_none_or(|s| !runs_on_into(b, s, breaks))
}

/// Whether the line before the one starting at `start` may be wrapped
/// into it: as wide as a wrap's and ending in a key's character.
fn runs_on_into(b: &[u8], start: usize, breaks: Breaks) -> bool {
    let ends: &[&[u8]] = match breaks {
        Breaks::Newline => &[b"\r\n", b"\n"],
        Breaks::JsonEscape => &[b"\\r\\n", b"\\n"],
    };
    let Some(end) = ends
        .iter()
        .find(|e| b[..start].ends_with(e))
        .map(|e| start - e.len())
    else {
        return false;
    };
    let line = breaks.line_around(b, end.saturating_sub(1));
    end.checked_sub(1).is_some_and(|i| key_byte(b[i]))
        && end.saturating_sub(breaks.text_of(b, line.0)) >= WIDTH
}

/// Whether byte `i` of a JSON string as written is an escape's letter
/// (an odd run of backslashes before it).
fn escaped(b: &[u8], i: usize) -> bool {
    b[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}

/// The length of the line number the Read tool (`    16→`) or `cat -n`
/// (`    16\t`) puts before a line, if `line` starts with one.
fn numbered(line: &[u8]) -> usize {
    let pad = line.iter().take_while(|&&c| c == b' ').count();
    let digits = line[pad..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let after = &line[pad + digits..];
    match after {
        _ if digits == 0 => 0,
        [0xE2, 0x86, 0x92, ..] => pad + digits + 3,
        [b'\t', ..] => pad + digits + 1,
        // (as a JSON string writes the tab)
        [b'\\', b't', ..] => pad + digits + 2,
        _ => 0,
    }
}

/// A byte of a key as tools print them: letters, digits, and the marks of
/// base64 and of keys' parts.
fn key_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'_' | b'-')
}

/// The length of the run of a key's characters that starts `line`, when
/// it may be the rest of a key `width` wide (no longer than its first
/// line, at least [`REST`]) whose marks are `(+, /)`, in one pass:
/// - its marks (what is not a letter or digit) are a key's: `-` and `_`
///   (most keys' alphabet, which a first line may not show), base64's
///   `+` and `/` when the key has them, `=` only as base64 ends
///   (`AWS_REGION=us-east-1` on the line after a key is the next
///   variable of a listing, not its rest);
/// - it reads as part of a key: digits and letters mixed, or a long run
///   of both cases (not a word, a name or a number).
fn rest_run(line: &[u8], width: usize, (plus, slash): (bool, bool), how: Rest) -> Option<usize> {
    // each byte's class from a table, or'ed, with no branch on it (a
    // branch per class mispredicted on base64's every byte)
    let (mut seen, mut run, mut last_body) = (0u8, 0usize, 0usize);
    for &c in line.iter().take(width + 1) {
        let class = CLASS[c as usize];
        if class == 0 {
            break;
        }
        seen |= class;
        run += 1;
        if class != PAD {
            last_body = run;
        }
    }
    let marks = (plus || seen & PLUS == 0) && (slash || seen & SLASH == 0);
    // `=` only after the last of the rest
    let padded = seen & PAD == 0 || line[..last_body].iter().all(|&c| c != b'=');
    let letter = seen & (UPPER | LOWER) != 0;
    let mixed = seen & UPPER != 0 && seen & LOWER != 0;
    let looks = match how {
        Rest::Strict => run >= REST && ((seen & DIGIT != 0 && letter) || (run >= KEY && mixed)),
        Rest::Wrapped => run >= REST && ((seen & DIGIT != 0 && letter) || mixed),
        Rest::Checked => run > 0,
    };
    (looks && run <= width && marks && padded).then_some(run)
}

const DIGIT: u8 = 1;
const UPPER: u8 = 2;
const LOWER: u8 = 4;
/// `-` and `_`.
const MARK: u8 = 8;
const PAD: u8 = 16;
const PLUS: u8 = 32;
const SLASH: u8 = 64;
/// What a word of a key goes on with (base64's letters): a keyword after
/// one starts no key.
const WORD: u8 = DIGIT | UPPER | LOWER | PLUS | SLASH;

/// The class of each byte of a key ([`key_byte`]); 0 for any other.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b'0'..=b'9' => DIGIT,
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'-' | b'_' => MARK,
            b'=' => PAD,
            b'+' => PLUS,
            b'/' => SLASH,
            _ => 0,
        };
        c += 1;
    }
    t
};

impl Breaks {
    /// Where the first line's text starts: after a JSON string's quote (a
    /// line one byte wider than the rest of its wrap was taken for the
    /// wrap's last, and the key's last piece left).
    fn text_start(self, b: &[u8]) -> usize {
        usize::from(self == Breaks::JsonEscape && b.first() == Some(&b'"'))
    }

    /// Where the text of the line starting at `start` starts: after the
    /// Read tool's or `cat -n`'s number (a wrap's lines are as wide as
    /// each other behind it; with it the first looked wider than the
    /// second, and the third was left) and the first line's quote.
    fn text_of(self, b: &[u8], start: usize) -> usize {
        let start = start.max(self.text_start(b));
        start + numbered(b.get(start..).unwrap_or_default())
    }

    /// The first line end at or after `from`: where it is, and where the
    /// line's text ends (before a `\r`).
    fn next_end(self, b: &[u8], from: usize) -> Option<(usize, usize)> {
        let rest = b.get(from..)?;
        let (at, cr) = match self {
            Breaks::Newline => {
                let at = from + memchr::memchr(b'\n', rest)?;
                (at, at >= 1 && b[at - 1] == b'\r')
            }
            Breaks::JsonEscape => {
                let at = from + super::ESCAPE_N.find(rest)?;
                (at, at >= 2 && &b[at - 2..at] == b"\\r")
            }
        };
        let cr_len = if self == Breaks::Newline { 1 } else { 2 };
        Some((at, if cr { at - cr_len } else { at }))
    }

    /// Where the line after the line end at `at` starts; `None` when no
    /// line ends at `at`.
    fn after_line(self, b: &[u8], at: usize) -> Option<usize> {
        let rest = b.get(at..)?;
        let ends: &[&[u8]] = match self {
            Breaks::Newline => &[b"\n", b"\r\n"],
            Breaks::JsonEscape => &[b"\\n", b"\\r\\n"],
        };
        ends.iter()
            .find(|e| rest.starts_with(e))
            .map(|e| at + e.len())
    }

    /// Whether a key's rest may end at `at`: at a line end, the text's
    /// end, or a mark that closes what it was written in (`` `…` ``,
    /// quotes, brackets, a list's comma), escaped or not; not at a space,
    /// `=`, `.` or `:` (`DB_HOST2=…`, `file2.txt`, `a1b2c3d is the
    /// commit` on the line after a key are no rest of it).
    fn ends_rest(self, b: &[u8], at: usize) -> bool {
        let rest = &b[at.min(b.len())..];
        let closing = |c: &u8| {
            matches!(
                c,
                b'`' | b'"' | b'\'' | b')' | b']' | b'}' | b'>' | b',' | b';'
            )
        };
        match rest {
            [] => true,
            [c, ..] if closing(c) => true,
            [b'\\', c, ..] if self == Breaks::JsonEscape && closing(c) => true,
            _ => self.after_line(b, at).is_some(),
        }
    }
}
