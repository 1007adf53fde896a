//! A JSON text redacted where it is written: each string (keys too) as
//! written, and the value of a key that names a secret taken out, with
//! no tree read and written again. What is not redacted stays byte for
//! byte as it was, so a redacted call's input differs from the plain one
//! only at its markers.

use super::{MARK, Redactor, check, count};
use std::borrow::Cow;

impl Redactor {
    /// `json` redacted in place, or `None` when it is not JSON as far as
    /// its strings go (a string left open).
    pub(super) fn redact_json_written<'a>(&self, json: &'a str) -> Option<Cow<'a, str>> {
        let b = json.as_bytes();
        let mut out = String::new();
        // bytes before `at` are in `out` (or, while nothing changed, as written)
        let mut at = 0;
        let mut changed = false;
        let mut i = 0;
        while let Some(q) = memchr::memchr(b'"', &b[i..]) {
            let s = i + q;
            let e = string_end(b, s)?;
            let literal = &json[s..=e];
            i = e + 1;
            // a key: the value after its colon may be a secret the key names
            let colon = skip_space(b, i);
            let taken = if b.get(colon) == Some(&b':') {
                let v = skip_space(b, colon + 1);
                self.secret_value_of(literal, b, v)?.map(|end| (v, end))
            } else {
                None
            };
            let redacted = self.string_redacted(literal)?;
            if let (Cow::Borrowed(_), None) = (&redacted, taken) {
                continue;
            }
            if !changed {
                out.reserve(json.len() + 64);
                changed = true;
            }
            out.push_str(&json[at..s]);
            out.push_str(&redacted);
            at = i;
            if let Some((v, end)) = taken {
                out.push_str(&json[i..v]);
                out.push('"');
                out.push_str(MARK);
                out.push_str("secret-assignment]\"");
                count("secret-assignment", 1);
                at = end;
                i = end;
            }
        }
        if !changed {
            return Some(Cow::Borrowed(json));
        }
        out.push_str(&json[at..]);
        Some(Cow::Owned(out))
    }

    /// A string as written, redacted: where it is written when it can be,
    /// else decoded, redacted as text and written again.
    fn string_redacted<'a>(&self, literal: &'a str) -> Option<Cow<'a, str>> {
        if let Some(r) = self.redact_json_string(literal) {
            return Some(r);
        }
        let text: String = serde_json::from_str(literal).ok()?;
        match self.redact(&text) {
            Cow::Borrowed(_) => Some(Cow::Borrowed(literal)),
            Cow::Owned(o) => serde_json::to_string(&o).ok().map(Cow::Owned),
        }
    }

    /// When key `literal` names a secret and the value at `v` (a string or
    /// a number) is one: where that value ends. `None` when the JSON is
    /// not whole.
    fn secret_value_of(&self, literal: &str, b: &[u8], v: usize) -> Option<Option<usize>> {
        let key: Cow<'_, str> = if literal.contains('\\') {
            Cow::Owned(serde_json::from_str(literal).ok()?)
        } else {
            Cow::Borrowed(&literal[1..literal.len() - 1])
        };
        if !check::names_a_secret(key.as_bytes()) {
            return Some(None);
        }
        match b.get(v) {
            Some(b'"') => {
                let e = string_end(b, v)?;
                let raw = std::str::from_utf8(&b[v..=e]).ok()?;
                let value: Cow<'_, str> = if raw.contains('\\') {
                    Cow::Owned(serde_json::from_str(raw).ok()?)
                } else {
                    Cow::Borrowed(&raw[1..raw.len() - 1])
                };
                let secret = !value.starts_with(MARK)
                    && check::is_assigned_secret(key.as_bytes(), value.as_bytes(), true, None);
                Some(secret.then_some(e + 1))
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let end = v + b[v..]
                    .iter()
                    .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .unwrap_or(b.len() - v);
                let secret = check::is_assigned_secret(key.as_bytes(), &b[v..end], true, None);
                Some(secret.then_some(end))
            }
            _ => Some(None),
        }
    }
}

/// The closing quote of the string opening at `s`.
fn string_end(b: &[u8], s: usize) -> Option<usize> {
    let mut j = s + 1;
    loop {
        let k = j + memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[k] == b'"' {
            return Some(k);
        }
        j = k + 2;
    }
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}
