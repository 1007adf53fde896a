//! A string of a session line, decoded only when it is read.
//!
//! Tool output, answers and thinking are most of a session's bytes. Read
//! as a `RawValue`, such a string is only scanned (as any reader of the
//! line must) and stays where it is in the line; decoding it (unescaping
//! into a new string) waits until someone reads it. A text left in the
//! file (see `model::stored`) is then never decoded while loading, and
//! a JSON export copies it as written ([`JsonStr::token`]).

use serde::Deserialize;
use serde::de::{self, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// A JSON string: as written in its line, or already decoded.
#[derive(Debug, Clone)]
pub enum JsonStr<'a> {
    /// The string's token in the line, quotes and escapes included; known
    /// to be well formed (serde read it), lone surrogates refused.
    Token(&'a str),
    /// The string decoded (serde read it whole: a bare string where an
    /// object was expected, a message's content).
    Text(Cow<'a, str>),
}

impl Default for JsonStr<'_> {
    fn default() -> Self {
        JsonStr::Text(Cow::Borrowed(""))
    }
}

impl<'a> JsonStr<'a> {
    /// The decoded text (borrowed when it holds no escape).
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            JsonStr::Token(t) => unescape_token(t),
            JsonStr::Text(t) => Cow::Borrowed(t),
        }
    }

    pub fn into_text(self) -> Cow<'a, str> {
        match self {
            JsonStr::Token(t) => unescape_token(t),
            JsonStr::Text(t) => t,
        }
    }

    /// Decoded now: what a load that holds its texts does on the thread
    /// that decodes the line.
    pub fn decode(&mut self) {
        if let JsonStr::Token(t) = self {
            *self = JsonStr::Text(unescape_token(t));
        }
    }

    /// The token as written, when this is one.
    pub fn token(&self) -> Option<&'a str> {
        match self {
            JsonStr::Token(t) => Some(t),
            JsonStr::Text(_) => None,
        }
    }

    /// Where the string's token lies in the bytes at `line` (their
    /// address and length): offset and length. A string decoded from
    /// other bytes (a repaired copy of the line) is not in them. A decoded
    /// string borrowed from the line held no escape: its token is it and
    /// its quotes.
    pub fn token_in(&self, (addr, len): (usize, usize)) -> Option<(usize, usize)> {
        let (at, n) = match self {
            JsonStr::Token(t) => (t.as_ptr() as usize, t.len()),
            JsonStr::Text(Cow::Borrowed(t)) => ((t.as_ptr() as usize).checked_sub(1)?, t.len() + 2),
            JsonStr::Text(Cow::Owned(_)) => return None,
        };
        let off = at.checked_sub(addr)?;
        (off + n <= len).then_some((off, n))
    }

    /// Its decoded length in bytes, counted from the escapes.
    pub fn len(&self) -> usize {
        match self {
            JsonStr::Token(t) => decoded_len(t),
            JsonStr::Text(t) => t.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            JsonStr::Token(t) => t.len() <= 2,
            JsonStr::Text(t) => t.is_empty(),
        }
    }

    /// Only whitespace (what `str::trim` removes), decided from the token
    /// without decoding it where it can be.
    pub fn is_blank(&self) -> bool {
        let t = match self {
            JsonStr::Token(t) => *t,
            JsonStr::Text(t) => return t.trim().is_empty(),
        };
        let inner = t
            .as_bytes()
            .get(1..t.len().saturating_sub(1))
            .unwrap_or(&[]);
        let mut i = 0;
        while i < inner.len() {
            match inner[i] {
                b' ' | b'\t' => i += 1,
                b'\\' => match inner.get(i + 1) {
                    Some(b'n' | b'r' | b't' | b'f') => i += 2,
                    // `\u…` may be a space of another kind
                    Some(b'u') => return self.text().trim().is_empty(),
                    _ => return false,
                },
                // a visible ASCII character: the common answer, at once
                0x21..=0x7e => return false,
                // any other character decides for itself, without the rest
                // decoded (a text in another script starts with one)
                c @ 0x80.. => {
                    let n = crate::json_out::utf8_len(c);
                    match inner
                        .get(i..i + n)
                        .and_then(|b| std::str::from_utf8(b).ok())
                    {
                        Some(ch) if ch.chars().all(char::is_whitespace) => i += n,
                        Some(_) => return false,
                        None => return self.text().trim().is_empty(),
                    }
                }
                _ => return self.text().trim().is_empty(),
            }
        }
        true
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for JsonStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        JsonStr::of_raw(<&'de RawValue>::deserialize(d)?)
    }
}

impl<'a> JsonStr<'a> {
    /// The string `raw` holds, as written, serde's scan of it taken as
    /// it is: deserializing it from `raw` again scanned the whole token a
    /// second time (a tool's output, a tenth of a search's decoding).
    pub fn of_raw<E: de::Error>(raw: &'a RawValue) -> Result<JsonStr<'a>, E> {
        let t = raw.get();
        if !t.starts_with('"') {
            let what = match t.as_bytes().first() {
                Some(b'{') => de::Unexpected::Map,
                Some(b'[') => de::Unexpected::Seq,
                Some(b't' | b'f') => de::Unexpected::Other("a boolean"),
                _ => de::Unexpected::Other("a number"),
            };
            return Err(de::Error::invalid_type(what, &"a string"));
        }
        // the scan serde made of it let escapes of lone surrogates pass,
        // which decoding refuses: the line is then repaired as any other
        // (`model::decode`)
        if may_hold_surrogate(t.as_bytes()) {
            unescape(t, true).map_err(de::Error::custom)?;
        }
        Ok(JsonStr::Token(t))
    }
}

/// Whether `t` may hold a `\uD800`-`\uDFFF` escape: a `\u` followed
/// by `d` or `D` (an escaped backslash before `ud` passes too; decoding
/// then tells).
fn may_hold_surrogate(t: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));
    FINDER
        .find_iter(t)
        .any(|i| matches!(t.get(i + 2), Some(b'd' | b'D')))
}

/// The text of a token serde has read (see [`JsonStr::Token`]).
fn unescape_token(t: &str) -> Cow<'_, str> {
    unescape(t, false).unwrap_or(Cow::Borrowed(""))
}

/// Decodes the JSON string token `t`. `strict`: a lone surrogate is an
/// error, else it becomes U+FFFD. Escapes were checked by serde's scan:
/// anything else malformed decodes as far as it goes.
fn unescape(t: &str, strict: bool) -> Result<Cow<'_, str>, &'static str> {
    let inner = t
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or("not a string")?;
    let b = inner.as_bytes();
    let Some(first) = memchr::memchr(b'\\', b) else {
        return Ok(Cow::Borrowed(inner));
    };
    // bytes, not a `String`: the runs between escapes are copied 16 bytes
    // at a time, whatever characters a part ends inside (the run goes on
    // to the next backslash, which ends no character)
    let mut out = Vec::with_capacity(inner.len());
    out.extend_from_slice(&b[..first]);
    unescape_part(&b[first..], &mut out, true, strict)?;
    // (checked by `simdutf8`: `String::from_utf8`'s own check was a
    // third of this function)
    Ok(Cow::Owned(super::text::string_of_bytes(out)))
}

/// Decodes `b`, a part of a string token's inside that starts at an
/// escape or between two, onto `out`; returns how many of its bytes it
/// took. Unless `last`, an escape that may go on past `b`'s end (12 bytes
/// from its backslash: a surrogate pair) is left for the next part, so a
/// text read in parts decodes as it does whole.
pub(crate) fn unescape_part(
    b: &[u8],
    out: &mut Vec<u8>,
    last: bool,
    strict: bool,
) -> Result<usize, &'static str> {
    let mut i = crate::model::plain_run::copy_to_backslash(b, 0, out);
    while i < b.len() {
        if !last && i + 12 > b.len() {
            return Ok(i);
        }
        // (a lone backslash at the end is dropped)
        let Some(&c) = b.get(i + 1) else { break };
        let mut next = i + 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'u' => {
                let (ch, used) = hex_char(b, i, strict)?;
                out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                next = i + used;
            }
            // `"`, `\`, `/`
            0..0x80 => out.push(c),
            // not an escape serde lets pass: the character is not one
            _ => {
                out.extend_from_slice(
                    char::REPLACEMENT_CHARACTER
                        .encode_utf8(&mut [0; 4])
                        .as_bytes(),
                );
                next = i + 1 + crate::json_out::utf8_len(c);
            }
        }
        i = crate::model::plain_run::copy_to_backslash(b, next.min(b.len()), out);
    }
    Ok(b.len())
}

/// The character of the `\u` escape at `b[i]`, and the bytes it took
/// (6, or 12 for a surrogate pair).
fn hex_char(b: &[u8], i: usize, strict: bool) -> Result<(char, usize), &'static str> {
    let hex = |at: usize| -> Option<u32> {
        b.get(at..at + 4)?
            .iter()
            .try_fold(0u32, |n, &d| Some(n << 4 | (d as char).to_digit(16)?))
    };
    let lone = |used| {
        if strict {
            Err("lone surrogate in hex escape")
        } else {
            Ok((char::REPLACEMENT_CHARACTER, used))
        }
    };
    let Some(u) = hex(i + 2) else {
        return Ok((char::REPLACEMENT_CHARACTER, 2));
    };
    match u {
        0xd800..=0xdbff => {
            let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                .then(|| hex(i + 8))
                .flatten()
                .filter(|l| (0xdc00..=0xdfff).contains(l));
            match low {
                Some(l) => {
                    let c = 0x10000 + ((u - 0xd800) << 10) + (l - 0xdc00);
                    Ok((char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 12))
                }
                None => lone(6),
            }
        }
        0xdc00..=0xdfff => lone(6),
        _ => Ok((char::from_u32(u).unwrap_or(char::REPLACEMENT_CHARACTER), 6)),
    }
}

/// The decoded length of token `t`, without decoding it.
fn decoded_len(t: &str) -> usize {
    let b = t.as_bytes();
    let inner = b.get(1..b.len().saturating_sub(1)).unwrap_or(&[]);
    let mut len = inner.len();
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'\\', inner.get(from..).unwrap_or(&[])) {
        let i = from + k;
        match inner.get(i + 1) {
            Some(b'u') => {
                let (c, used) = hex_char(inner, i, false).unwrap_or(('\u{fffd}', 6));
                len = len + c.len_utf8() - used;
                from = i + used;
            }
            Some(_) => {
                len -= 1;
                from = i + 2;
            }
            None => break,
        }
    }
    len
}

/// Whether `token` is what `crate::json_out` writes for its text, so that
/// a JSON export may copy it as it is: every escape one serde writes
/// (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\u00xx` for other
/// control characters) and none other (`\/`, `\u00e9`...), and no
/// character json_out escapes for a terminal's sake (DEL, C1, bidi
/// controls...: those [`super::text::needs_sanitizing`] finds).
pub fn written_as_json_out_writes(token: &str) -> bool {
    let b = token.as_bytes();
    let mut i = 0;
    // sixteen bytes at a time, each flagged byte in turn (see
    // `json_out::flagged`): where the byte after it starts
    while let Some(Ok(block)) = b.get(i..i + 16).map(<&[u8; 16]>::try_from) {
        let base = i;
        let mut mask = crate::json_out::flagged(block);
        i += 16;
        while mask != 0 {
            let at = base + mask.trailing_zeros() as usize;
            let Some(next) = written_as_json_out_writes_at(b, at) else {
                return false;
            };
            if next >= i {
                i = next;
                break;
            }
            mask &= u32::MAX << (next - base);
        }
    }
    while i < b.len() {
        match b[i] {
            b'"' | b'\\' | 0..=0x1f | 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef => {
                let Some(next) = written_as_json_out_writes_at(b, i) else {
                    return false;
                };
                i = next;
            }
            _ => i += 1,
        }
    }
    true
}

/// For [`written_as_json_out_writes`]: whether what starts at `b[i]`, a
/// byte [`crate::json_out::flagged`] flags, is written as json_out writes
/// it; where what follows starts.
fn written_as_json_out_writes_at(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        // the token's own quotes (a quote inside is escaped)
        b'"' => Some(i + 1),
        b'\\' => match b.get(i + 1) {
            Some(b'"' | b'\\' | b'n' | b'r' | b't' | b'b' | b'f') => Some(i + 2),
            Some(b'u') => {
                let control = matches!(b.get(i + 2..i + 6), Some([b'0', b'0', b'0' | b'1', h])
                    if h.is_ascii_digit() || (b'a'..=b'f').contains(h));
                let short = matches!(
                    b.get(i + 4..i + 6),
                    Some(b"08" | b"09" | b"0a" | b"0c" | b"0d")
                );
                (control && !short).then_some(i + 6)
            }
            _ => None,
        },
        &c @ 0x80.. => {
            (!super::text::unsafe_char_at(b, i)).then(|| i + crate::json_out::utf8_len(c))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(s: &str) -> String {
        serde_json::to_string(s).expect("json")
    }

    fn awkward() -> Vec<String> {
        let mut v: Vec<String> = [
            "",
            "plain",
            "q\"b\\s\n\r\t\u{8}\u{c}\u{0}\u{1b}[31m\u{7f}\u{85}\u{9b}\u{202e}é👇 text",
            "   \n\t ",
            "\u{a0}\u{3000}",
            " \u{2028} x",
            "/slash/",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for c in (0u32..0x100).chain([0xd7ff, 0xe000, 0xfffd, 0x1f600, 0x10ffff]) {
            if let Some(c) = char::from_u32(c) {
                v.push(format!("a{c}b{c}"));
            }
        }
        v
    }

    #[test]
    fn decodes_as_serde_does() {
        for s in awkward() {
            let t = token(&s);
            let j: JsonStr<'_> = serde_json::from_str(&t).expect("token");
            assert_eq!(j.text(), s, "{t}");
            assert_eq!(j.len(), s.len(), "{t}");
            assert_eq!(j.is_blank(), s.trim().is_empty(), "{t}");
            // copied as written exactly when json_out writes the same
            let mut out = Vec::new();
            crate::json_out::push_str(&mut out, &s);
            assert_eq!(
                written_as_json_out_writes(j.token().expect("token")),
                out == t.as_bytes(),
                "{t}"
            );
        }
        // escapes serde does not write decode all the same
        for (t, s) in [
            (r#""\/\u00e9\u0041\uD83D\uDE00""#, "/éA😀"),
            (r#""\u0020\u00a0""#, " \u{a0}"),
        ] {
            let j: JsonStr<'_> = serde_json::from_str(t).expect("token");
            assert_eq!(j.text(), s);
            assert_eq!(j.len(), s.len());
            assert!(!written_as_json_out_writes(t), "{t}");
        }
        let j: JsonStr<'_> = serde_json::from_str(r#""\u0020\u00a0""#).expect("token");
        assert!(j.is_blank());
    }

    /// Random strings, written as serde writes them and with escapes
    /// spelled other ways (`\/`, `\u00e9`, upper-case hex, surrogate
    /// pairs): decoded, measured and judged as serde reads them.
    #[test]
    fn random_tokens_decode_as_serde_reads_them() {
        let pool: Vec<char> =
            "ab \"\\/\n\t\r\u{0}\u{1f}\u{7f}\u{85}\u{a0}é漢😀\u{2028}\u{202e}\u{feff}"
                .chars()
                .collect();
        let mut rng = crate::model::test_rng::Rng::new(0x2545_f491_4f6c_dd1d_u64);
        let mut next = |n: usize| rng.below(n);
        for round in 0..3000 {
            // long runs of plain letters too, which are copied 16 bytes at
            // a time between escapes
            let len = next(if round % 4 == 0 { 300 } else { 40 });
            let plain = round % 3 == 0;
            let s: String = (0..len)
                .map(|_| match next(8) {
                    0..6 if plain => 'x',
                    _ => pool[next(pool.len())],
                })
                .collect();
            let mut t = String::from('"');
            for c in s.chars() {
                match next(4) {
                    // an escape serde would not write
                    0 if c == '/' => t.push_str("\\/"),
                    0 if (c as u32) < 0x10000 && !matches!(c, '"' | '\\') => {
                        t.push_str(&format!("\\u{:04X}", c as u32));
                    }
                    0 => {
                        let mut units = [0u16; 2];
                        for u in c.encode_utf16(&mut units) {
                            t.push_str(&format!("\\u{u:04x}"));
                        }
                    }
                    _ => {
                        let j = serde_json::to_string(&c.to_string()).expect("json");
                        t.push_str(&j[1..j.len() - 1]);
                    }
                }
            }
            t.push('"');
            let want: String = serde_json::from_str(&t).expect("serde reads it");
            assert_eq!(want, s, "{t}");
            let j: JsonStr<'_> = serde_json::from_str(&t).expect("token");
            assert_eq!(j.text(), want, "{t}");
            assert_eq!(j.len(), want.len(), "{t}");
            assert_eq!(j.is_blank(), want.trim().is_empty(), "{t}");
            let mut out = Vec::new();
            crate::json_out::push_str(&mut out, &want);
            if written_as_json_out_writes(&t) {
                assert_eq!(out, t.as_bytes(), "copied as written: {t}");
            }
        }
    }

    #[test]
    fn refuses_what_a_string_field_refused() {
        for bad in ["5", "true", "{}", "[]", r#""\ud800""#, r#""x\udc00y""#] {
            assert!(serde_json::from_str::<JsonStr<'_>>(bad).is_err(), "{bad}");
        }
        // an escaped backslash before `ud…` is no surrogate
        let j: JsonStr<'_> = serde_json::from_str(r#""\\ud800""#).expect("token");
        assert_eq!(j.text(), "\\ud800");
    }

    #[test]
    fn a_token_knows_where_it_is_in_its_line() {
        #[derive(Deserialize)]
        struct B<'a> {
            #[serde(borrow)]
            a: JsonStr<'a>,
            #[serde(borrow)]
            b: JsonStr<'a>,
        }
        let line = r#"{"a":"x\ny","b":"plain"}"#;
        let v: B<'_> = serde_json::from_str(line).expect("line");
        let at = (line.as_ptr() as usize, line.len());
        assert_eq!(v.a.token_in(at), Some((5, 6)));
        assert_eq!(&line[5..11], r#""x\ny""#);
        assert_eq!(v.b.token_in(at), Some((16, 7)));
        let other = line.to_owned();
        assert_eq!(v.a.token_in((other.as_ptr() as usize, other.len())), None);
        let borrowed = JsonStr::Text(Cow::Borrowed(&line[17..22]));
        assert_eq!(borrowed.token_in(at), Some((16, 7)));
    }
}
