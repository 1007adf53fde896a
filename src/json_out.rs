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
}
