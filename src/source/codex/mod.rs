//! OpenAI Codex CLI's transcript format: `$CODEX_HOME/sessions/YYYY/MM/DD/
//! rollout-<time>-<uuid>.jsonl` (and `archived_sessions/`), lines of
//! `{timestamp, type, payload}`, plus the older layout of bare response
//! items after a `{id, timestamp, instructions}` header.
//!
//! A Codex file is read by turning each of its lines into the entries
//! ccv's session reads ([`translate`]): prompts, answers, reasoning, tool
//! calls paired with their outputs by `call_id`, usage per request,
//! compaction and aborts. What Codex writes twice (every prompt, answer
//! and reasoning summary has a UI copy as an `event_msg`) is read once.
//! The rest of this folder lists a Codex session ([`scan`]), finds its
//! files ([`files`]) and resumes it.

pub mod files;
mod parse;
pub mod scan;
mod shell_line;
mod tools;
pub mod translate;

use serde_json::Value;

/// Whether a file's first line is Codex's: an enveloped line
/// (`session_meta`, ...) or the older layout's header.
pub fn sniff(first_line: &[u8]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    // most lines asked are Claude Code's, some of them megabytes: parsed
    // only when one of Codex's top-level keys is in them (the searchers
    // made once: made for each file, they were most of the sniff)
    static KEYS: LazyLock<[Finder<'static>; 3]> = LazyLock::new(|| {
        [
            b"\"payload\"" as &[u8],
            b"\"instructions\"",
            b"\"record_type\"",
        ]
        .map(Finder::new)
    });
    if !KEYS.iter().any(|k| k.find(first_line).is_some()) {
        return false;
    }
    let Ok(v) = serde_json::from_slice::<Value>(first_line) else {
        return false;
    };
    let Some(o) = v.as_object() else {
        return false;
    };
    let enveloped = o.contains_key("payload")
        && matches!(
            o.get("type").and_then(Value::as_str),
            Some("session_meta" | "response_item" | "event_msg" | "turn_context" | "compacted")
        );
    let legacy = o.contains_key("instructions")
        && o.contains_key("id")
        && !o.contains_key("type")
        && !o.contains_key("uuid");
    enveloped || legacy || o.contains_key("record_type")
}

/// What of a Codex file's first line the lines read apart from it need
/// (see `Translate::apart_after`): its kind, and an older header's time,
/// in a line of a few dozen bytes. The first line holds the session's
/// instructions, kilobytes that were parsed again for every line a
/// search read apart (a third of a search of the Codex corpus). `None`:
/// not a Codex file's first line.
pub fn header_for_apart(first_line: &[u8]) -> Option<Vec<u8>> {
    if !sniff(first_line) {
        return None;
    }
    let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(first_line) else {
        return None;
    };
    // only what `sniff` and `apart_after` read, each value bounded (an
    // id or a kind of any size is not carried along)
    let short = if o.contains_key("payload") {
        serde_json::json!({"type": o.get("type").and_then(Value::as_str), "payload": {}})
    } else if o.contains_key("instructions") {
        let time = o.get("timestamp").and_then(Value::as_str);
        serde_json::json!({"id": "", "timestamp": time, "instructions": ""})
    } else {
        serde_json::json!({"record_type": ""})
    };
    let out = short.to_string().into_bytes();
    // still told for Codex's
    sniff(&out).then_some(out)
}

/// Why ccv does not read a file that Codex wrote in a layout it does not
/// follow: the single JSON document of 2025-08 (`{"session": {…},
/// "items": [Chat Completions messages]}`, `rollout-<date>-<id>.json`,
/// seen only in a fork), whose lines are no entries.
pub const UNSUPPORTED_JSON: &str =
    "unsupported Codex format (a single-JSON rollout, 2025-08): ccv reads Codex's JSONL rollouts";

/// Whether `head` (a file's first bytes) opens that single JSON document.
pub fn is_single_json(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let t = text.trim_start();
    t.strip_prefix('{')
        .map(str::trim_start)
        .is_some_and(|r| r.starts_with("\"session\"") && text.contains("\"id\""))
}

/// The program that resumes a Codex session, and how.
pub const PROGRAM: &str = "codex";

/// How a review's thread is named until its rollout is found: this and
/// the time the review began, in ms.
pub const REVIEW: &str = "review@";

/// The name ccv gives the format and its agent (`--agent codex`).
pub const FORMAT: &str = "codex";

pub fn resume_args(id: &str) -> Vec<String> {
    vec!["resume".to_owned(), id.to_owned()]
}

#[cfg(test)]
mod tests {
    use super::{header_for_apart, sniff};

    /// A first line cut for the lines read apart keeps what they need:
    /// Codex's, an older header's time, nothing of the instructions.
    #[test]
    fn a_header_for_lines_read_apart_is_short_and_still_codexs() {
        let long = "x".repeat(20_000);
        let legacy = format!(
            r#"{{"id":"84b6","timestamp":"2025-08-23T16:52:59.705Z","instructions":"{long}","git":{{"branch":"main"}}}}"#
        );
        let meta = format!(
            r#"{{"timestamp":"2026-01-30T10:00:00Z","type":"session_meta","payload":{{"id":"a","base_instructions":{{"text":"{long}"}}}}}}"#
        );
        for (line, has) in [
            (legacy.as_str(), "2025-08-23T16:52:59.705Z"),
            (meta.as_str(), "session_meta"),
            (r#"{"record_type":"state"}"#, "record_type"),
        ] {
            let short = header_for_apart(line.as_bytes()).expect("codex");
            assert!(
                short.len() < 120 && sniff(&short),
                "{}",
                String::from_utf8_lossy(&short)
            );
            assert!(String::from_utf8_lossy(&short).contains(has));
        }
        let claude =
            r#"{"type":"user","uuid":"u","message":{"role":"user","content":"instructions"}}"#;
        assert_eq!(header_for_apart(claude.as_bytes()), None);
    }
}
