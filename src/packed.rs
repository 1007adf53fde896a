//! Fields packed in bytes, for the files ccv reads back at every run (the
//! listing cache's rows, the search index's list of files): numbers as 8
//! or 4 little-endian bytes, text as its length and its bytes, in a fixed
//! order. Read back as JSON they were a third of a warm listing; these
//! are copied.
//!
//! The reader believes nothing: a length past what is left, a flag that
//! is neither 0 nor 1 or text that is not UTF-8 reads as nothing (`None`),
//! never a crash, and no count asks for memory before the bytes it needs
//! are there.

use std::path::PathBuf;

pub fn u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

pub fn u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

pub fn i64(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(&n.to_le_bytes());
}

pub fn f64(out: &mut Vec<u8>, n: f64) {
    out.extend_from_slice(&n.to_le_bytes());
}

pub fn flag(out: &mut Vec<u8>, b: bool) {
    out.push(u8::from(b));
}

/// A count (of things written after it); past 4 billion, not ccv's.
pub fn count(out: &mut Vec<u8>, n: usize) {
    u32(out, u32::try_from(n).unwrap_or(u32::MAX));
}

pub fn bytes(out: &mut Vec<u8>, b: &[u8]) {
    count(out, b.len());
    out.extend_from_slice(b);
}

pub fn opt_text(out: &mut Vec<u8>, s: Option<&str>) {
    flag(out, s.is_some());
    if let Some(s) = s {
        bytes(out, s.as_bytes());
    }
}

/// A path as its bytes (read back by [`Bytes::path`]).
pub fn path(out: &mut Vec<u8>, p: &std::path::Path) {
    bytes(out, p.as_os_str().as_encoded_bytes());
}

/// A check of `bytes`, written after them: what a flipped bit or a torn
/// write changes, so that a number damaged into another that could be
/// true is not believed (JSON mostly failed to parse instead). Ours, a
/// word at a time: the same on every machine and every version of any
/// crate, and 10 MB checked in a few milliseconds.
pub fn check(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(23) ^ u64::from(b)).wrapping_mul(K);
    }
    // the last word's bits spread over all of them
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

/// JSON that ccv reads back (a fetched price table, an archive's
/// manifest) sealed with a check of its bytes: `{"check": "<hex>",
/// "body": …}`. A number damaged into another still reads as JSON (a
/// rate's `3.0` as `7.0`, a cost's `0.58` as `9.58`), and was believed.
pub fn sealed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("{{\"check\": \"{:016x}\",\n\"body\": ", check(body)).into_bytes();
    out.extend_from_slice(body);
    out.extend_from_slice(b"}\n");
    out
}

/// The body [`sealed`] wrote in `bytes`, when its check holds.
pub fn unsealed(bytes: &[u8]) -> Option<&str> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Sealed<'a> {
        check: &'a str,
        #[serde(borrow)]
        body: &'a serde_json::value::RawValue,
    }
    let s: Sealed<'_> = serde_json::from_slice(bytes).ok()?;
    let body = s.body.get();
    (s.check == format!("{:016x}", check(body.as_bytes()))).then_some(body)
}

/// The bytes of the regular file at `path` (no link followed), when it
/// is no longer than `max`: a file ccv reads back whole, then parses.
pub fn read_file(path: &std::path::Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let f = crate::model::session::open_regular(path).ok()?;
    let len = f.metadata().ok()?.len();
    if len > max {
        return None;
    }
    // read whole, then parsed: no reader a byte at a time
    let mut bytes = Vec::with_capacity(len as usize + 1);
    f.take(max).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// What is left to read.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }

    pub fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }

    pub fn i64(&mut self) -> Option<i64> {
        self.take().map(i64::from_le_bytes)
    }

    pub fn f64(&mut self) -> Option<f64> {
        self.take().map(f64::from_le_bytes)
    }

    pub fn flag(&mut self) -> Option<bool> {
        match self.take::<1>()? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }

    /// A count of things of at least `least` bytes each, believed only
    /// when that many bytes are left (a damaged count asks for no memory).
    pub fn count(&mut self, least: usize) -> Option<usize> {
        let n = usize::try_from(self.u32()?).ok()?;
        (n.checked_mul(least)? <= self.0.len()).then_some(n)
    }

    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.count(1)?;
        let (b, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(b)
    }

    pub fn text(&mut self) -> Option<String> {
        std::str::from_utf8(self.bytes()?).ok().map(str::to_owned)
    }

    pub fn opt_text(&mut self) -> Option<Option<String>> {
        if self.flag()? {
            self.text().map(Some)
        } else {
            Some(None)
        }
    }

    pub fn path(&mut self) -> Option<PathBuf> {
        path_from(self.bytes()?)
    }
}

#[cfg(unix)]
fn path_from(b: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(b)))
}

/// Elsewhere a path that is not UTF-8 is not believed (its file is read
/// again).
#[cfg(not(unix))]
fn path_from(b: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(b).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is written reads back; anything cut short, a flag of 2, text
    /// that is not UTF-8 or a count past the bytes left reads as nothing.
    #[test]
    fn fields_read_back_and_nothing_else_does() {
        let mut out = Vec::new();
        u32(&mut out, 7);
        u64(&mut out, u64::MAX);
        i64(&mut out, -3);
        f64(&mut out, 0.1);
        flag(&mut out, true);
        opt_text(&mut out, Some("日本"));
        opt_text(&mut out, None);
        path(&mut out, std::path::Path::new("/a b/c.jsonl"));
        let mut r = Bytes(&out);
        assert_eq!(r.u32(), Some(7));
        assert_eq!(r.u64(), Some(u64::MAX));
        assert_eq!(r.i64(), Some(-3));
        assert_eq!(r.f64(), Some(0.1));
        assert_eq!(r.flag(), Some(true));
        assert_eq!(r.opt_text(), Some(Some("日本".to_owned())));
        assert_eq!(r.opt_text(), Some(None));
        assert_eq!(r.path(), Some(PathBuf::from("/a b/c.jsonl")));
        assert!(r.is_empty());
        assert_eq!(r.u32(), None);
        assert_eq!(Bytes(&[2]).flag(), None);
        assert_eq!(Bytes(&[2, 0, 0, 0, 0xff, 0xfe]).text(), None);
        assert_eq!(Bytes(&[3, 0, 0, 0, b'a', b'b']).bytes(), None);
        assert_eq!(Bytes(&[0xff; 4]).count(1), None);
        assert_eq!(Bytes(&[1, 0, 0]).u32(), None);
    }

    /// Any one bit flipped, a byte dropped or added changes the check.
    #[test]
    fn a_check_sees_any_bit_flipped() {
        let text: Vec<u8> = (0..300u32).map(|i| (i * 7 % 251) as u8).collect();
        let c = check(&text);
        for at in 0..text.len() {
            for bit in 0..8 {
                let mut t = text.clone();
                t[at] ^= 1 << bit;
                assert_ne!(check(&t), c, "byte {at} bit {bit}");
            }
            let mut shorter = text.clone();
            shorter.remove(at);
            assert_ne!(check(&shorter), c);
        }
        assert_ne!(check(&[0; 8]), check(&[0; 9]));
    }
}
