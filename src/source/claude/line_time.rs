//! When a line was written, read off its bytes without decoding it: what
//! a search without an index orders the lines that hold a word by, so as
//! to decode only the newest of them.

use super::cursor::Cursor;

/// For a user or assistant line: its own `"timestamp"` (`Some(None)`
/// when it has none). Every entry the model makes of such a line read
/// alone is dated by it, so no entry of the line is newer; the search
/// checks that of each line it decodes, and reads every line again the
/// slow way if one is not. `None` for any other line (a progress line
/// carries its agent's lines, dated by themselves), or on any doubt: a
/// time written with escapes, a value of another kind, a line that does
/// not read as JSON as far as the two keys.
pub fn own_time(line: &[u8]) -> Option<Option<i64>> {
    time_of_kinds(line, &[b"user", b"assistant"])
}

/// [`own_time`] for a line of Codex's later layout (`{"timestamp": …,
/// "type": "response_item", "payload": …}`): a line read apart is
/// translated with the time it carries, which dates all it makes. `None`
/// for an older layout's bare item (dated by its file's header) and on
/// any doubt.
pub fn own_time_enveloped(line: &[u8]) -> Option<Option<i64>> {
    time_of_kinds(
        line,
        &[
            b"response_item",
            b"event_msg",
            b"turn_context",
            b"compacted",
            b"session_meta",
        ],
    )
}

fn time_of_kinds(line: &[u8], kinds: &[&[u8]]) -> Option<Option<i64>> {
    let mut c = Cursor::new(line);
    let (mut plain, mut time) = (false, None);
    let mut seen_time = false;
    let read = c.object(&mut |c, key| {
        match key {
            b"type" => {
                // another kind of line: no need to read on
                let kind = c.string()?;
                if !kinds.contains(&kind) {
                    return None;
                }
                plain = true;
            }
            b"timestamp" => {
                let t = c.string()?;
                if t.contains(&b'\\') {
                    return None;
                }
                time = crate::model::time::parse_timestamp(std::str::from_utf8(t).ok()?);
                // a time the model cannot read is no time to it either
                seen_time = true;
            }
            _ => c.skip()?,
        }
        // both known: a key after them cannot change either (the model
        // refuses a line that has one twice: it then makes no entry)
        if plain && seen_time { None } else { Some(()) }
    });
    // another entry joined to this one may be newer
    (plain && (seen_time || read.is_some()) && !super::cursor::joined(line, c.i)).then_some(time)
}

#[cfg(test)]
mod tests {
    use super::{own_time, own_time_enveloped};

    #[test]
    fn a_lines_own_time_or_doubt() {
        let t = 1_767_225_600_000; // 2026-01-01T00:00:00Z
        let ok = |s: &str| own_time(s.as_bytes());
        assert_eq!(
            ok(
                r#"{"type":"user","message":{"content":"a \"b\" }"},"timestamp":"2026-01-01T00:00:00Z"}"#
            ),
            Some(Some(t))
        );
        assert_eq!(
            ok(r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"assistant","message":{}}"#),
            Some(Some(t))
        );
        // no time at all: the model dates its entries by none either
        assert_eq!(
            ok(r#"{"type":"user","message":{"content":"x"}}"#),
            Some(None)
        );
        assert_eq!(
            ok(r#"{"type":"user","timestamp":"not a time"}"#),
            Some(None)
        );
        // other lines, escapes, other kinds of value, broken lines: doubt
        for doubt in [
            r#"{"type":"progress","timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"type":"user","timestamp":"2026-01-01T00:00:00\u005a"}"#,
            r#"{"type":"user","timestamp":1767225600000}"#,
            r#"{"type":"user","message":{"content":"x"}"#,
            r#"{"timestamp":"2026-01-01T00:00:00Z","timestamp":"2027-01-01T00:00:00Z","type":"user"}"#,
            r#"["type","user"]"#,
            r#"{"type":"user","timestamp":"2026-01-01T00:00:00Z"}{"type":"user","timestamp":"2027-01-01T00:00:00Z"}"#,
            r#"{"type":"user","timestamp":"2026-01-01T00:00:00Z"} {"x":1}"#,
            "",
        ] {
            assert_eq!(ok(doubt), None, "{doubt}");
        }
    }

    /// A Codex line of the later layout carries the time its entries get;
    /// an older bare item, a Claude Code line or doubt: none.
    #[test]
    fn a_codex_lines_own_time() {
        let t = 1_767_225_600_000; // 2026-01-01T00:00:00Z
        let of = |s: &str| own_time_enveloped(s.as_bytes());
        assert_eq!(
            of(
                r#"{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message"}}"#
            ),
            Some(Some(t))
        );
        assert_eq!(
            of(
                r#"{"type":"event_msg","payload":{"type":"agent_message","message":"a }"},"timestamp":"2026-01-01T00:00:00.000Z"}"#
            ),
            Some(Some(t))
        );
        for doubt in [
            r#"{"type":"function_call","id":null,"name":"shell","arguments":"{}"}"#,
            r#"{"type":"user","timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"timestamp":"2026-01-01T00:00:00Z" "type":"response_item","payload":{}}"#,
            r#"{"timestamp":"2026-01-01T00:00:00\u005a","type":"response_item","payload":{}}"#,
        ] {
            assert_eq!(of(doubt), None, "{doubt}");
        }
    }
}
