//! JSON for terminals: what `--json` and `--format json` print.
//!
//! serde_json escapes only the C0 controls. A C1 control (U+0080-U+009F)
//! is acted on by some terminals, and a bidi override reorders what a
//! person reads; both are written as `\uXXXX` escapes here, which any JSON
//! reader turns back into the same string.

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
    (0x80..0xa0).contains(&u)
        || matches!(u, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x061c)
        || matches!(u, 0x2028 | 0x2029 | 0xfeff)
}

impl Formatter for SafeFormatter {
    fn write_string_fragment<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // what is escaped is never ASCII; most fragments are all ASCII, and
        // this test reads them a word at a time
        if fragment.is_ascii() {
            return w.write_all(fragment.as_bytes());
        }
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
        if fragment.is_ascii() {
            return w.write_all(fragment.as_bytes());
        }
        write_escaping(w, fragment)
    }
}

fn write_escaping<W: Write + ?Sized>(w: &mut W, fragment: &str) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
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
