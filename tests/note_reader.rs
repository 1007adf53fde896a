//! The reader of Claude Code's own lines (`source::claude::notes`: system
//! lines, file-history snapshots) against serde: a line it reads is one
//! serde reads, into the same fields, on every such line of the corpus
//! and on lines cut and bent at random; and the keys it passes over are
//! keys serde does not know.

use crate::common::readers::{self, fields};
use ccv::source::claude::notes;
use ccv::source::claude::raw::{Content, JsonStr, RawEntry};

/// [`fields`] and the ones only these lines fill.
fn all_fields(e: &RawEntry<'_>) -> String {
    let content = match &e.content {
        Some(Content::Text(JsonStr::Text(t))) => format!("text {t:?}"),
        Some(Content::Text(JsonStr::Token(t))) => format!("token {t}"),
        Some(Content::Blocks(b)) => format!("{} blocks", b.len()),
        Some(Content::Other) => "other".to_owned(),
        None => "none".to_owned(),
    };
    format!(
        "{} | {content} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        fields(e),
        e.error.map(|r| r.get()),
        e.duration_ms,
        e.compact_metadata,
        e.retry_in_ms,
        e.retry_attempt,
        e.max_retries,
        e.hook_count,
        e.hook_infos
            .as_ref()
            .map(|h| h.iter().map(|h| h.command.clone()).collect::<Vec<_>>()),
        e.hook_errors.as_ref().map(Vec::len),
        e.parent_tool_use_id_camel,
    )
}

fn agrees(line: &str) -> bool {
    readers::agrees(notes::read_into, all_fields, line)
}

fn note(v: &serde_json::Value) -> bool {
    v["type"] == "system" || v["type"] == "file-history-snapshot"
}

#[test]
fn note_keys_passed_over_are_keys_serde_does_not_know() {
    readers::others_unknown_to_serde(notes::OTHER_TOP);
}

#[test]
fn every_note_of_the_corpus_is_read_as_serde_reads_it() {
    readers::corpus_agrees(note, 0.9, agrees);
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn notes_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let written = [
        r#"{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.1.9","gitBranch":"main","type":"system","subtype":"turn_duration","durationMs":16187.5,"isMeta":false,"timestamp":"2025-11-14T19:17:14.324Z","uuid":"u","level":"info"}"#,
        r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted \u00e9\n","logicalParentUuid":"l","compactMetadata":{"trigger":"auto","preTokens":155000},"microcompactMetadata":{"x":[1]},"isMeta":null}"#,
        r#"{"type":"system","subtype":"api_error","error":{"status":529,"error":{"type":"overloaded_error"}},"retryInMs":1234.5,"retryAttempt":2,"maxRetries":10,"level":"error"}"#,
        r#"{"type":"system","subtype":"stop_hook_summary","hookCount":2,"hookInfos":[{"command":"a \"b\""},{"command":null}],"hookErrors":["x",{"y":1}],"preventedContinuation":false,"stopReason":"","hasOutput":true,"toolUseID":"t","parentToolUseID":"c"}"#,
        r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{"a.rs":{"backupFileName":null,"version":1,"backupTime":"2025-09-09T02:11:50.415Z"}},"timestamp":"2025-09-09T02:16:44.050Z"},"isSnapshotUpdate":true}"#,
    ];
    let more: &[&[u8]] = &[
        b"\"content\":",
        b"\"durationMs\":",
        b"\"error\":",
        b"\"hookInfos\":",
        b"\"subtype\":",
        b"-1",
        b"1e999",
        b"[{\"type\":\"text\",\"text\":\"a\"}]",
        b"\\ud83d",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    readers::cut_and_bent(note, &written, more, 0x5eed_4073, agrees);
}
