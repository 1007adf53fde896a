//! The reader of prompts' lines (`source::claude::prompts`) against
//! serde: a line it reads is one serde reads, into the same fields, on
//! every user line of the corpus whose message is a string and on lines
//! cut and bent at random; and the keys it passes over are keys serde
//! does not know.

use crate::common;
use crate::result_reader::fields;
use ccv::source::claude::decode::decode_clean_without_copies;
use ccv::source::claude::prompts;
use ccv::source::claude::raw::RawEntry;

/// [`fields`] and the ones only a prompt's line fills.
fn all_fields(e: &RawEntry<'_>) -> String {
    format!("{} | {:?}", fields(e), e.permission_mode)
}

/// `line` read by the reader is read by serde into the same fields;
/// whether the reader answered.
fn agrees(line: &str) -> bool {
    let Some(fast) = prompts::read(line) else {
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
fn prompt_keys_passed_over_are_keys_serde_does_not_know() {
    // a field serde knows refuses a second one (or a number); a key it
    // does not know is passed over both times
    for k in prompts::OTHER_TOP {
        let line = format!(r#"{{"{0}":0,"{0}":0}}"#, k);
        assert!(serde_json::from_str::<RawEntry<'_>>(&line).is_ok(), "{k}");
    }
}

/// User lines whose message's content is a string (as written: the
/// reader is tried on every line, and must leave the others).
fn prompt_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        serde_json::from_str::<serde_json::Value>(l)
            .is_ok_and(|v| v["type"] == "user" && v["message"]["content"].is_string())
    })
}

#[test]
fn every_prompt_of_the_corpus_is_read_as_serde_reads_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut lines, mut read, mut others) = (0, 0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in prompt_lines(&text) {
            lines += 1;
            read += usize::from(agrees(l));
        }
        // any other line the reader takes is read as serde reads it too
        others += text.lines().filter(|l| agrees(l)).count();
    }
    // the common shape is most of them (the rest go to serde)
    assert!(read * 10 > lines * 8, "{read} of {lines}");
    assert_eq!(others, read);
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn prompts_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let mut samples: Vec<String> = prompt_lines(&String::from_utf8_lossy(common::fixtures()))
        .take(40)
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = common::generated(&["--size", "400K", "--seed", "5"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(prompt_lines(&text).take(20).map(str::to_owned));
    }
    let written = [
        r#"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.1.9","gitBranch":"main","type":"user","message":{"role":"user","content":"a \"b\" \u00e9\n é\\ <command-name>/x</command-name>"},"uuid":"u","timestamp":"2025-11-14T18:31:00.308Z","thinkingMetadata":{"level":"high","disabled":false,"triggers":[]},"todos":[],"permissionMode":"default"}"#.to_owned(),
        r#"{"type":"user","message":{"role":"user","content":"This session is being continued"},"isCompactSummary":true,"isVisibleInTranscriptOnly":true,"isMeta":null,"agentId":"a","isSidechain":true,"slug":null,"planContent":"Plan: x"}"#.to_owned(),
        r#"{"type":"user","message":{"role":null,"content":null},"parentUuid":"p","isMeta":true,"permissionMode":null}"#.to_owned(),
    ];
    // each of these is the common shape: read
    for w in &written {
        assert!(agrees(w), "{w}");
    }
    samples.extend(written);
    let more: &[&[u8]] = &[
        b"\"content\":",
        b"\"role\":",
        b"\"permissionMode\":",
        b"\"isCompactSummary\":",
        b"\"message\":",
        b"[{\"type\":\"text\",\"text\":\"a\"}]",
        b"\\ud83d",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    let (whole, read) = common::cut_and_bent(&samples, more, 0x5eed_9a0f, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}
