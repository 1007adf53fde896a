//! JSON for terminals: what `--json` and `--format json` print.
//!
//! serde_json escapes only the C0 controls. DEL and a C1 control
//! (U+0080-U+009F) are acted on by some terminals, and a bidi override
//! reorders what a person reads; they are written as `\uXXXX` escapes
//! here, which any JSON reader turns back into the same string.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// Writes `value` as one line of JSON with unsafe characters escaped.
pub fn to_writer<W: Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, SafeFormatter);
    // `From` keeps an I/O error's kind (a closed pipe is not a failure)
    value.serialize(&mut ser).map_err(io::Error::from)
}

struct SafeFormatter;

fn needs_escape(c: char) -> bool {
    let u = c as u32;
    (0x7f..0xa0).contains(&u)
        || matches!(u, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x061c)
        || matches!(u, 0x2028 | 0x2029 | 0xfeff)
}

impl Formatter for SafeFormatter {
    fn write_string_fragment<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_escaping(w, fragment)
    }

    /// Raw JSON copied from a session (a tool call's `input`) holds the
    /// same characters as any string of it: a C1 control or a bidi
    /// override may be written unescaped there. Outside strings valid
    /// JSON is ASCII, so escaping them keeps the document's meaning.
    fn write_raw_fragment<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_escaping(w, fragment)
    }
}

fn write_escaping<W: Write + ?Sized>(w: &mut W, fragment: &str) -> io::Result<()> {
    // what is escaped is DEL or not ASCII; most fragments are plain ASCII,
    // and these tests read them a word at a time
    if fragment.is_ascii() && memchr::memchr(0x7f, fragment.as_bytes()).is_none() {
        return w.write_all(fragment.as_bytes());
    }
    let mut start = 0;
    for (i, c) in fragment.char_indices() {
        if needs_escape(c) {
            w.write_all(&fragment.as_bytes()[start..i])?;
            write!(w, "\\u{:04x}", c as u32)?;
            start = i + c.len_utf8();
        }
    }
    w.write_all(&fragment.as_bytes()[start..])
}

/// Appends `s` as a JSON string (quotes included): the bytes
/// [`to_writer`] writes for it, found in one pass over it. serde_json
/// looks up every byte, then [`SafeFormatter`] reads each piece again;
/// this goes sixteen bytes at a time straight to the next byte that may
/// need an escape ([`flagged`]), and copies what lies between as it is.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let b = s.as_bytes();
    // `start`: the first byte not copied yet
    let (mut start, mut i) = (0, 0);
    while let Some(Ok(block)) = b.get(i..i + 16).map(<&[u8; 16]>::try_from) {
        let base = i;
        let mut mask = flagged(block);
        i += 16;
        while mask != 0 {
            let next = escape_at(out, s, &mut start, base + mask.trailing_zeros() as usize);
            if next >= i {
                i = next;
                break;
            }
            mask &= u32::MAX << (next - base);
        }
    }
    while let Some(&c) = b.get(i) {
        i = match c {
            0..=0x1f | b'"' | b'\\' | 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef => {
                escape_at(out, s, &mut start, i)
            }
            _ => i + 1,
        };
    }
    out.extend_from_slice(b.get(start..).unwrap_or_default());
    out.push(b'"');
}

/// For [`push_str`]: the byte of `s` at `i`, one [`flagged`] flags (so a
/// character's first byte), escaped when it must be, after the bytes from
/// `start` up to it; where what follows starts.
fn escape_at(out: &mut Vec<u8>, s: &str, start: &mut usize, i: usize) -> usize {
    let b = s.as_bytes();
    let Some(&c) = b.get(i) else { return i + 1 };
    let short: &[u8] = match c {
        b'"' => b"\\\"",
        b'\\' => b"\\\\",
        b'\n' => b"\\n",
        b'\r' => b"\\r",
        b'\t' => b"\\t",
        0x08 => b"\\b",
        0x0c => b"\\f",
        0..=0x1f | 0x7f => b"",
        0x80.. => {
            let ch = s.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
            if !needs_escape(ch) {
                return i + ch.len_utf8().max(1);
            }
            b""
        }
        _ => return i + 1,
    };
    out.extend_from_slice(b.get(*start..i).unwrap_or_default());
    let next = if short.is_empty() {
        // C0 controls as serde_json writes them, the rest as SafeFormatter
        let ch = s.get(i..).and_then(|r| r.chars().next()).unwrap_or('\0');
        let _ = write!(out, "\\u{:04x}", ch as u32);
        i + ch.len_utf8()
    } else {
        out.extend_from_slice(short);
        i + 1
    };
    *start = next;
    next
}

/// Bit k set when byte k of `block` may need an escape: a quote, a
/// backslash, a control (below 0x20, or DEL), or the lead byte of a
/// character that does ([`needs_escape`]: U+0080..U+009F, U+061C, U+200E..,
/// U+2028.., U+FEFF start with 0xc2, 0xd8, 0xe2 or 0xef). Any other byte of
/// valid UTF-8 is copied as it is. Sixteen bytes compared at once: eight at
/// a time in a word, with every byte from 0x80 up flagged, checking the
/// texts of a 100 MB export took twice as long.
#[cfg(target_arch = "x86_64")]
pub(crate) fn flagged(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_xor_si128,
    };
    // SAFETY: SSE2 is part of every x86_64 target; the load reads the 16
    // bytes of `block`, and needs no alignment
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast());
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        // unsigned `c < 0x20` as a signed compare, both sides flipped by 0x80
        let flip = _mm_set1_epi8(i8::MIN);
        let control = _mm_cmplt_epi8(_mm_xor_si128(v, flip), _mm_set1_epi8((0x20 ^ 0x80) as i8));
        let ascii = _mm_or_si128(
            _mm_or_si128(control, eq(0x7f)),
            _mm_or_si128(eq(b'"'), eq(b'\\')),
        );
        let leads = _mm_or_si128(
            _mm_or_si128(eq(0xc2), eq(0xd8)),
            _mm_or_si128(eq(0xe2), eq(0xef)),
        );
        _mm_movemask_epi8(_mm_or_si128(ascii, leads)) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn flagged(block: &[u8; 16]) -> u32 {
    flagged_bytewise(block)
}

/// [`flagged`] a byte at a time: its definition.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn flagged_bytewise(block: &[u8; 16]) -> u32 {
    let mut mask = 0;
    for (k, &c) in block.iter().enumerate() {
        if matches!(
            c,
            0..=0x1f | b'"' | b'\\' | 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef
        ) {
            mask |= 1 << k;
        }
    }
    mask
}

/// The length of the UTF-8 character a lead byte starts (1 for a byte
/// that is not one, so a scan always moves on).
pub(crate) fn utf8_len(lead: u8) -> usize {
    match lead {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Appends raw JSON copied from a session as [`to_writer`] writes it.
pub fn push_raw(out: &mut Vec<u8>, raw: &str) {
    let _ = SafeFormatter.write_raw_fragment(out, raw);
}

#[cfg(test)]
mod tests {
    /// Every byte value in every place of a block, among other bytes of
    /// every kind: flagged as the definition flags it.
    #[test]
    fn blocks_are_flagged_as_bytes_are() {
        let fill = [b'a', b'"', 0x00, 0x7f, 0x80, 0xc2, 0xff, b' '];
        for f in fill {
            for at in 0..16 {
                for c in 0..=255u8 {
                    let mut block = [f; 16];
                    block[at] = c;
                    block[(at + 7) % 16] = c.wrapping_add(1);
                    assert_eq!(
                        super::flagged(&block),
                        super::flagged_bytewise(&block),
                        "{block:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn c1_and_bidi_are_escaped_and_read_back() {
        let s = "a\u{9b}31m\u{202e}txt\u{2066}b\u{0085}é";
        let mut out = Vec::new();
        super::to_writer(&mut out, &serde_json::json!({ "t": s })).expect("write");
        let text = String::from_utf8(out).expect("utf8");
        assert_eq!(text, r#"{"t":"a\u009b31m\u202etxt\u2066b\u0085é"}"#);
        let back: serde_json::Value = serde_json::from_str(&text).expect("parse");
        assert_eq!(back["t"], s);
    }

    /// Strings with every kind of character that is escaped, in runs long
    /// and short (the fast path reads eight bytes at a time).
    fn awkward_strings() -> Vec<String> {
        let pieces = [
            "plain ascii text",
            "\"",
            "\\",
            "\n",
            "\r\n",
            "\t",
            "\u{8}",
            "\u{c}",
            "\u{0}",
            "\u{1b}[31m",
            "\u{1f}",
            "\u{7f}",
            "é",
            "\u{85}",
            "\u{9b}",
            "\u{a0}",
            "\u{61c}",
            "\u{200e}",
            "\u{200f}",
            "\u{2028}",
            "\u{2029}",
            "\u{202e}",
            "\u{2066}",
            "\u{2069}",
            "\u{2070}",
            "\u{feff}",
            "\u{fefe}",
            "👇",
            "日本語",
            "/",
            "12345678",
        ];
        let mut out = vec![String::new()];
        let mut seed = 7u64;
        for n in 0..2000 {
            let mut s = String::new();
            for _ in 0..(n % 23) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            out.push(s);
        }
        out.extend(pieces.iter().map(|p| p.to_string()));
        out
    }

    #[test]
    fn push_str_writes_what_serde_json_writes() {
        for s in awkward_strings() {
            let mut fast = Vec::new();
            super::push_str(&mut fast, &s);
            let mut slow = Vec::new();
            super::to_writer(&mut slow, &s).expect("write");
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&slow),
                "{s:?}"
            );
        }
    }

    #[test]
    fn raw_json_copied_from_a_session_is_escaped_too() {
        // a tool call's input is written as raw JSON: its strings may hold
        // an unescaped C1 CSI or bidi override
        let raw = serde_json::value::RawValue::from_string(
            "{\"command\":\"echo \u{9b}31m \u{202e}x é\"}".to_owned(),
        )
        .expect("raw");
        #[derive(serde::Serialize)]
        struct Row<'a> {
            input: &'a serde_json::value::RawValue,
        }
        let mut out = Vec::new();
        super::to_writer(&mut out, &Row { input: &raw }).expect("write");
        let text = String::from_utf8(out).expect("utf8");
        assert_eq!(text, r#"{"input":{"command":"echo \u009b31m \u202ex é"}}"#);
        let back: serde_json::Value = serde_json::from_str(&text).expect("parse");
        assert_eq!(back["input"]["command"], "echo \u{9b}31m \u{202e}x é");
    }
}

/// A path as JSON: a string when it is UTF-8 (every path on most
/// machines); else its bytes, so that any file name survives a round trip
/// (`#[serde(with = "crate::json_out::os_path")]`).
pub mod os_path {
    use serde::{Deserializer, Serialize, Serializer};
    use std::path::{Path, PathBuf};

    /// A path that is not UTF-8: `{"bytes": [...]}`.
    #[derive(Serialize)]
    struct Bytes {
        bytes: Vec<u8>,
    }

    pub fn serialize<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
        match p.to_str() {
            Some(t) => s.serialize_str(t),
            None => Bytes { bytes: bytes_of(p) }.serialize(s),
        }
    }

    /// A string, or `{"bytes": [...]}`: read by a visitor of both (an
    /// untagged enum holds every value in a buffer before it tries its
    /// shapes: 30,000 paths at each indexed search).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        use serde::de::{Error, MapAccess, Visitor};
        struct PathVisitor;
        impl<'de> Visitor<'de> for PathVisitor {
            type Value = PathBuf;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a path: a string or {\"bytes\": [...]}")
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<PathBuf, E> {
                Ok(PathBuf::from(v))
            }
            fn visit_string<E: Error>(self, v: String) -> Result<PathBuf, E> {
                Ok(PathBuf::from(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PathBuf, A::Error> {
                let mut bytes: Option<Vec<u8>> = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match (&*key, &bytes) {
                        ("bytes", None) => bytes = Some(map.next_value()?),
                        ("bytes", Some(_)) => return Err(A::Error::duplicate_field("bytes")),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                bytes
                    .map(from_bytes)
                    .ok_or_else(|| A::Error::missing_field("bytes"))
            }
        }
        d.deserialize_any(PathVisitor)
    }

    #[cfg(unix)]
    fn bytes_of(p: &Path) -> Vec<u8> {
        use std::os::unix::ffi::OsStrExt;
        p.as_os_str().as_bytes().to_vec()
    }

    #[cfg(not(unix))]
    fn bytes_of(p: &Path) -> Vec<u8> {
        p.to_string_lossy().into_owned().into_bytes()
    }

    #[cfg(unix)]
    fn from_bytes(b: Vec<u8>) -> PathBuf {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(std::ffi::OsString::from_vec(b))
    }

    #[cfg(not(unix))]
    fn from_bytes(b: Vec<u8>) -> PathBuf {
        PathBuf::from(String::from_utf8_lossy(&b).into_owned())
    }
}

/// The fields naming `p` in a JSON object: `key` as text (U+FFFD where a
/// name is not UTF-8), and when that lost bytes, `key_bytes` with them
/// (an array of numbers): every path survives, none panics.
pub fn path_fields(
    obj: &mut serde_json::Map<String, serde_json::Value>,
    key: &str,
    p: &std::path::Path,
) {
    obj.insert(key.to_owned(), p.to_string_lossy().into_owned().into());
    if p.to_str().is_none() {
        #[cfg(unix)]
        let bytes: Vec<u8> = {
            use std::os::unix::ffi::OsStrExt;
            p.as_os_str().as_bytes().to_vec()
        };
        #[cfg(not(unix))]
        let bytes: Vec<u8> = p.to_string_lossy().into_owned().into_bytes();
        obj.insert(format!("{key}_bytes"), bytes.into());
    }
}

#[cfg(all(test, unix))]
mod path_tests {
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Row {
        #[serde(with = "super::os_path")]
        path: PathBuf,
    }

    /// A path goes to JSON and back as it was, UTF-8 or not; a damaged
    /// one is an error, never a panic.
    #[test]
    fn paths_come_back_as_they_were_written() {
        let odd = Path::new(std::ffi::OsStr::from_bytes(b"/t/caf\xe9/\"q\"\\.jsonl"));
        for p in [Path::new("/t/plain.jsonl"), Path::new("/t/é \"x\"\n"), odd] {
            let row = Row { path: p.to_owned() };
            let text = serde_json::to_string(&row).expect("write");
            let back: Row = serde_json::from_str(&text).expect("read");
            assert_eq!(back, row, "{text}");
        }
        let read = |t: &str| serde_json::from_str::<Row>(t).map(|r| r.path);
        assert_eq!(
            read(r#"{"path":{"bytes":[47,120],"other":1}}"#).ok(),
            Some(PathBuf::from("/x"))
        );
        for bad in [
            r#"{"path":1}"#,
            r#"{"path":{"other":1}}"#,
            r#"{"path":{"bytes":[47],"bytes":[47]}}"#,
            r#"{"path":{"bytes":[300]}}"#,
            r#"{"path":[47]}"#,
            r#"{"path":null}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
