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

use super::{Breaks, Hit};

/// A hit shorter than this is no key a tool would wrap.
const KEY: usize = 16;
/// A line shorter than this was not wrapped (`fold`: 80, `base64`: 76,
/// `openssl` and PEM: 64): a whole key at the end of a short line, then
/// a line of noise, is two things.
const WIDTH: usize = 60;
/// A rest shorter than this is left (`AA`: nothing of a key).
const REST: usize = 8;

/// Extends the hits of `b` that end a wrapped line over the rest of their
/// key (see the module's doc); whether one was.
pub(super) fn extend(hits: &mut [Hit], b: &[u8], breaks: Breaks) -> bool {
    let mut changed = false;
    for h in hits.iter_mut() {
        let Some(key) = b.get(h.start..h.end) else {
            continue;
        };
        if key.len() < KEY || !key.iter().all(|&c| key_byte(c)) {
            continue;
        }
        if let Some(last) = rests(b, (h.start, h.end), breaks).last() {
            h.end = last.end;
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
        if at < done_to || red.woken.get(k as usize).is_none_or(Vec::is_empty) {
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
        let rests = rests(b, (start, end), breaks);
        let Some(last) = rests.last() else {
            continue;
        };
        let mut word = b[start..end].to_vec();
        for r in &rests {
            word.extend_from_slice(&b[r.clone()]);
        }
        let Ok(word) = String::from_utf8(word) else {
            continue;
        };
        let mut kw = Vec::new();
        red.keywords.find_all(word.as_bytes(), &mut kw);
        // (a secret of the first line alone was found there already)
        let first = end - start;
        if let Some(h) = red
            .find(&word, &kw, Breaks::Newline)
            .into_iter()
            .find(|h| h.end > first)
        {
            new.push(Hit {
                start,
                end: last.end,
                rule: h.rule,
            });
            done_to = last.end;
        }
    }
    let added = !new.is_empty();
    hits.append(&mut new);
    added
}

/// Where the rest of the key `b[key.0..key.1]` is, on the lines after it,
/// when it ends a wrapped line (see the module's doc): none when it does
/// not.
fn rests(b: &[u8], key: (usize, usize), breaks: Breaks) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    // (whether it ends a line first: finding where a line starts reads
    // back to it, which for each hit of a text of one line was square)
    if breaks.after_line(b, key.1).is_none() {
        return out;
    }
    let width = key.1 - breaks.line_around(b, key.0).0;
    if width < WIDTH {
        return out;
    }
    let mut at = key.1;
    while let Some(next) = breaks.after_line(b, at) {
        let next = next + numbered(&b[next..]);
        let run = b[next..].iter().take_while(|&&c| key_byte(c)).count();
        let end = next + run;
        let rest = &b[next..end];
        if run < REST
            || run > width
            || !breaks.ends_rest(b, end)
            || !random(rest)
            || !marks_of(rest, &b[key.0..key.1])
        {
            break;
        }
        out.push(next..end);
        if run != width {
            break;
        }
        at = end;
    }
    out
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

/// Whether the marks of `rest` (what is not a letter or digit) may be a
/// key's: `-` and `_` (most keys' alphabet, which a first line may not
/// show), base64's `+` and `/` when the key has them, `=` only as base64
/// ends: `AWS_REGION=us-east-1` on the line after a key is the next
/// variable of a listing, not its rest.
fn marks_of(rest: &[u8], key: &[u8]) -> bool {
    let body = rest.len() - rest.iter().rev().take_while(|&&c| c == b'=').count();
    rest.iter().enumerate().all(|(i, &c)| match c {
        b'-' | b'_' => true,
        b'=' => i >= body,
        b'+' | b'/' => key.contains(&c),
        _ => c.is_ascii_alphanumeric(),
    })
}

/// Whether a run of key bytes reads as part of a key: digits and letters
/// mixed, or a long run of both cases (not a word, a name or a number).
fn random(run: &[u8]) -> bool {
    let digit = run.iter().any(u8::is_ascii_digit);
    let letter = run.iter().any(u8::is_ascii_alphabetic);
    let upper = run.iter().any(u8::is_ascii_uppercase);
    let lower = run.iter().any(u8::is_ascii_lowercase);
    (digit && letter) || (run.len() >= KEY && upper && lower)
}

impl Breaks {
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
