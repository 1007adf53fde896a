//! A text of megabytes read back from its file in parts, each decoded as
//! it comes: read whole, its bytes and its decoded text were held at once
//! (an answer of 50 MB peaked the viewer at 134 MB to draw its head).
//! What it gives is what [`super::stored::text_of`] gives for the whole
//! bytes: the same decoding (`unescape_part`) and the same check.

use super::json_str::unescape_part;
use super::stored::{Stored, fill_at};
use std::fs::File;
use std::hash::Hasher;

/// Texts at least this long (as written) are read in parts.
pub const IN_PARTS: usize = 4 << 20;

/// Bytes read at once.
const PART: usize = 1 << 20;

/// The text `stored` describes, read from `f` in parts, if its bytes are
/// still what was read there (`None`: changed or cut short).
pub fn text_of_file(f: &File, stored: &Stored) -> Option<String> {
    text_in_parts(f, stored, PART)
}

fn text_in_parts(f: &File, stored: &Stored, part_len: usize) -> Option<String> {
    let total = stored.len as usize;
    // a string's quotes are not its text, nor checked
    let (from, to) = if stored.value {
        (0, total)
    } else {
        (1, total.checked_sub(1)?)
    };
    if to < from {
        return None;
    }
    let mut sum = Sampled::new(to - from);
    // decoded, a text is no longer than it is written; a reservation the
    // escapes leave unused is never touched, so never resident
    let mut out = Vec::with_capacity(to - from);
    // an escape cut at a part's end waits at the buffer's start (12 bytes
    // at most)
    let mut buf = vec![0u8; part_len + 16];
    let mut pending = 0;
    let mut at = 0;
    while at < total {
        let want = (total - at).min(part_len);
        let n = fill_at(f, &mut buf[pending..pending + want], stored.at + at as u64).ok()?;
        if n < want {
            return None;
        }
        let part = &buf[pending..pending + n];
        if at == 0 && !stored.value && part.first() != Some(&b'"') {
            return None;
        }
        let end = at + n;
        if end == total && !stored.value && part.last() != Some(&b'"') {
            return None;
        }
        // the part's bytes of the text itself
        let (lo, hi) = (at.max(from) - at, end.min(to).max(at) - at);
        let hi = hi.max(lo);
        let text = part.get(lo..hi).unwrap_or_default();
        sum.feed(text);
        if stored.value {
            out.extend_from_slice(text);
        } else {
            // what was left of the last part waits before this one's
            // bytes (a part after the first holds no quote before them)
            if pending > 0 && lo > 0 {
                return None;
            }
            let (start, stop) = (if pending > 0 { 0 } else { lo }, pending + hi);
            let todo = &buf[start..stop];
            let took = unescape_part(todo, &mut out, end >= to, false).ok()?;
            buf.copy_within(start + took..stop, 0);
            pending = stop - start - took;
        }
        at = end;
    }
    if sum.finish() != stored.check {
        return None;
    }
    // bytes that are no UTF-8 were not there when the file was read (its
    // strings were), as `text_of` finds them
    simdutf8::basic::from_utf8(&out).ok()?;
    // SAFETY: the bytes were just found to be UTF-8
    Some(unsafe { String::from_utf8_unchecked(out) })
}

/// [`super::stored::check`] of a text fed in parts: the same writes to the
/// same hasher (a write's bytes are hashed as one, so the samples are
/// gathered whole before each is written).
struct Sampled {
    hasher: rustc_hash::FxHasher,
    len: usize,
    /// How many of the text's bytes were fed.
    seen: usize,
    /// The sample being gathered: its place, and its bytes so far.
    next: Option<(usize, usize)>,
    sample: Vec<u8>,
    /// Texts this short are written whole.
    whole: bool,
}

const ENDS: usize = 512;

impl Sampled {
    fn new(len: usize) -> Self {
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write_usize(len);
        let whole = len <= 4 * ENDS;
        Sampled {
            hasher,
            len,
            seen: 0,
            next: Some(if whole { (0, len) } else { (0, ENDS) }),
            sample: Vec::new(),
            whole,
        }
    }

    /// The sample after the one at `start`: the first 32 bytes of each KB
    /// between the ends, then the last 512.
    fn after(&self, start: usize) -> Option<(usize, usize)> {
        if self.whole {
            return None;
        }
        // (not whole: longer than both ends)
        let tail = self.len - ENDS;
        if start >= tail {
            return None;
        }
        let next = if start == 0 { ENDS } else { start + 1024 };
        if next >= tail {
            return Some((tail, self.len));
        }
        Some((next, next + (tail - next).min(32)))
    }

    fn feed(&mut self, mut bytes: &[u8]) {
        while let Some((start, end)) = self.next {
            let here = self.seen;
            let upto = here + bytes.len();
            if upto <= start {
                break;
            }
            let from = start.max(here) - here;
            let to = end.min(upto) - here;
            self.sample.extend_from_slice(&bytes[from..to]);
            if end > upto {
                break;
            }
            // (`check` writes an empty text's bytes too)
            self.hasher.write(&self.sample);
            self.sample.clear();
            self.next = self.after(start);
            bytes = &bytes[to..];
            self.seen = here + to;
        }
        self.seen += bytes.len();
    }

    fn finish(mut self) -> u64 {
        if let Some((start, end)) = self.next
            && self.whole
            && start == 0
            && end == 0
        {
            self.hasher.write(&[]);
        }
        self.hasher.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stored::{check, text_of};
    use std::io::Write;

    /// A file holding `token` after a few bytes, and where it is.
    fn file_with(token: &[u8], value: bool) -> (tempfile::NamedTempFile, Stored) {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        f.write_all(b"{\"x\":").expect("write");
        f.write_all(token).expect("write");
        f.write_all(b"}\n").expect("write");
        let inner = if value {
            token
        } else {
            &token[1..token.len() - 1]
        };
        let stored = Stored {
            at: 5,
            len: token.len() as u32,
            value,
            check: check(inner),
        };
        (f, stored)
    }

    /// Texts of escapes of every kind, cut at every place by parts of
    /// every size, decode as the whole bytes do.
    #[test]
    fn a_text_read_in_parts_is_the_text_read_whole() {
        let mut rng = crate::model::test_rng::Rng::new(7);
        let pieces: &[&str] = &[
            "a",
            "é",
            "→",
            "😀",
            "\\n",
            "\\\\",
            "\\\"",
            "\\/",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\ud83d",
            "\\ude00",
            "\\u001b",
            "\\t",
            " ",
            "xyz0123456789",
        ];
        for round in 0..60 {
            let count = if round < 50 {
                1 + rng.below(400)
            } else {
                900 + rng.below(2000)
            };
            let mut token = String::from("\"");
            for _ in 0..count {
                token.push_str(pieces[rng.below(pieces.len())]);
            }
            token.push('"');
            let (f, stored) = file_with(token.as_bytes(), false);
            let whole = text_of(token.as_bytes(), &stored).expect("whole");
            for part in [1, 2, 3, 5, 7, 11, 12, 13, 64, 1000, 4096] {
                let got = text_in_parts(f.as_file(), &stored, part);
                assert_eq!(
                    got.as_deref(),
                    Some(whole.as_str()),
                    "round {round}, parts of {part}"
                );
            }
            // a call's input, kept as written
            let (f, stored) = file_with(token.as_bytes(), true);
            let got = text_in_parts(f.as_file(), &stored, 7);
            assert_eq!(got.as_deref(), Some(token.as_str()));
        }
    }

    #[test]
    fn the_check_in_parts_is_the_check_whole() {
        let bytes: Vec<u8> = (0..9000u32).map(|i| (i * 31 % 251) as u8).collect();
        for len in [
            0, 1, 511, 512, 2047, 2048, 2049, 2560, 3072, 3073, 4000, 9000,
        ] {
            for part in [1, 3, 32, 33, 1024, 5000] {
                let mut s = Sampled::new(len);
                for p in bytes[..len].chunks(part) {
                    s.feed(p);
                }
                assert_eq!(
                    s.finish(),
                    check(&bytes[..len]),
                    "len {len}, parts of {part}"
                );
            }
        }
    }

    /// A text whose file changed (its bytes, its quotes, its length) is
    /// no text.
    #[test]
    fn a_changed_text_is_none() {
        let token = format!("\"{}\"", "ab\\ncd".repeat(1000));
        let (f, stored) = file_with(token.as_bytes(), false);
        assert!(text_in_parts(f.as_file(), &stored, 100).is_some());
        let moved = Stored { at: 4, ..stored };
        assert_eq!(text_in_parts(f.as_file(), &moved, 100), None);
        let longer = Stored {
            len: stored.len + 5,
            ..stored
        };
        assert_eq!(text_in_parts(f.as_file(), &longer, 100), None);
        let other = Stored {
            check: stored.check ^ 1,
            ..stored
        };
        assert_eq!(text_in_parts(f.as_file(), &other, 100), None);
        // bytes that are no UTF-8, as the whole read finds them
        let mut broken = token.clone().into_bytes();
        broken[3000] = 0xff;
        let (f, stored) = file_with(&broken, false);
        assert_eq!(text_of(&broken, &stored), None);
        assert_eq!(text_in_parts(f.as_file(), &stored, 100), None);
    }
}
