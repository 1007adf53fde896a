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
pub mod scan;
mod tools;
pub mod translate;

use serde_json::Value;

/// Whether a file's first line is Codex's: an enveloped line
/// (`session_meta`, ...) or the older layout's header.
pub fn sniff(first_line: &[u8]) -> bool {
    // most lines asked are Claude Code's, some of them megabytes: parsed
    // only when one of Codex's top-level keys is in them
    let has = |k: &[u8]| memchr::memmem::find(first_line, k).is_some();
    if !has(b"\"payload\"") && !has(b"\"instructions\"") && !has(b"\"record_type\"") {
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

/// The program that resumes a Codex session, and how.
pub const PROGRAM: &str = "codex";

pub fn resume_args(id: &str) -> Vec<String> {
    vec!["resume".to_owned(), id.to_owned()]
}
