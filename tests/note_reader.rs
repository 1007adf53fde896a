//! The reader of Claude Code's own lines (`source::claude::notes`: system
//! lines, file-history snapshots) against serde: a line it reads is one
//! serde reads, into the same fields, on every such line of the corpus
//! and on lines cut and bent at random; and the keys it passes over are
//! keys serde does not know.

use crate::common;
use crate::result_reader::fields;
use ccv::source::claude::decode::decode_clean_without_copies;
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

/// `line` read by the reader is read by serde into the same fields;
/// whether the reader answered.
fn agrees(line: &str) -> bool {
    let Some(fast) = notes::read(line) else {
        return false;
    };
    let serde: Result<RawEntry<'_>, _> = serde_json::from_str(line.trim_ascii());
    let serde = serde.unwrap_or_else(|e| panic!("read, but serde refuses it ({e}): {line}"));
    assert_eq!(all_fields(&fast), all_fields(&serde), "{line}");
    // and the decoder of lines, which tries the reader, keeps it whole
    let mut entries = Vec::new();
    assert!(
        decode_clean_without_copies(line.as_bytes(), &mut entries),
        "{line}"
    );
    assert_eq!(entries.len(), 1, "{line}");
    assert_eq!(all_fields(&entries[0].0), all_fields(&serde), "{line}");
    true
}

#[test]
fn note_keys_passed_over_are_keys_serde_does_not_know() {
    // a field serde knows refuses a second one (or a number); a key it
    // does not know is passed over both times
    for k in notes::OTHER_TOP {
        let line = format!(r#"{{"{0}":0,"{0}":0}}"#, k);
        assert!(serde_json::from_str::<RawEntry<'_>>(&line).is_ok(), "{k}");
    }
}

fn note_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        serde_json::from_str::<serde_json::Value>(l)
            .is_ok_and(|v| v["type"] == "system" || v["type"] == "file-history-snapshot")
    })
}

#[test]
fn every_note_of_the_corpus_is_read_as_serde_reads_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut lines, mut read, mut others) = (0, 0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in note_lines(&text) {
            lines += 1;
            read += usize::from(agrees(l));
        }
        // any other line the reader takes is read as serde reads it too
        others += text.lines().filter(|l| agrees(l)).count();
    }
    // the common shape is most of them (the rest go to serde)
    assert!(read * 10 > lines * 9, "{read} of {lines}");
    assert_eq!(others, read);
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn notes_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let mut samples: Vec<String> = note_lines(&String::from_utf8_lossy(common::fixtures()))
        .take(40)
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = common::generated(&["--size", "400K", "--seed", "5"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(note_lines(&text).take(20).map(str::to_owned));
    }
    let written = [
        r#"{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.1.9","gitBranch":"main","type":"system","subtype":"turn_duration","durationMs":16187.5,"isMeta":false,"timestamp":"2025-11-14T19:17:14.324Z","uuid":"u","level":"info"}"#.to_owned(),
        r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted \u00e9\n","logicalParentUuid":"l","compactMetadata":{"trigger":"auto","preTokens":155000},"microcompactMetadata":{"x":[1]},"isMeta":null}"#.to_owned(),
        r#"{"type":"system","subtype":"api_error","error":{"status":529,"error":{"type":"overloaded_error"}},"retryInMs":1234.5,"retryAttempt":2,"maxRetries":10,"level":"error"}"#.to_owned(),
        r#"{"type":"system","subtype":"stop_hook_summary","hookCount":2,"hookInfos":[{"command":"a \"b\""},{"command":null}],"hookErrors":["x",{"y":1}],"preventedContinuation":false,"stopReason":"","hasOutput":true,"toolUseID":"t","parentToolUseID":"c"}"#.to_owned(),
        r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{"a.rs":{"backupFileName":null,"version":1,"backupTime":"2025-09-09T02:11:50.415Z"}},"timestamp":"2025-09-09T02:16:44.050Z"},"isSnapshotUpdate":true}"#.to_owned(),
    ];
    // each of these is the common shape: read
    for w in &written {
        assert!(agrees(w), "{w}");
    }
    samples.extend(written);
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
    let (whole, read) = common::cut_and_bent(&samples, more, 0x5eed_4073, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}
