//! The reader of progress lines (`source::claude::progress`: an agent's
//! copied lines, a hook's or a command's progress) against serde: a line
//! it reads is one serde reads, into the same fields, on every progress
//! line of the corpus and on lines cut and bent at random; and the keys
//! it passes over at the top are keys serde does not know.

use crate::common;
use crate::result_reader::fields;
use ccv::source::claude::decode::decode_clean_without_copies;
use ccv::source::claude::progress;
use ccv::source::claude::raw::RawEntry;

/// [`fields`] and the ones only a progress line fills.
fn all_fields(e: &RawEntry<'_>) -> String {
    let data = e.data.as_ref().map(|d| {
        (
            d.kind.clone(),
            d.agent_id.clone(),
            d.message.map(|m| m.get()),
        )
    });
    format!("{} | {data:?} {:?}", fields(e), e.parent_tool_use_id_camel)
}

/// `line` read by the reader is read by serde into the same fields;
/// whether the reader answered.
fn agrees(line: &str) -> bool {
    let Some(fast) = progress::read(line) else {
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
fn progress_keys_passed_over_are_keys_serde_does_not_know() {
    // a field serde knows refuses a second one (or a number); a key it
    // does not know is passed over both times
    for k in progress::OTHER_TOP {
        let line = format!(r#"{{"{0}":0,"{0}":0}}"#, k);
        assert!(serde_json::from_str::<RawEntry<'_>>(&line).is_ok(), "{k}");
    }
}

fn progress_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v["type"] == "progress")
    })
}

#[test]
fn every_progress_line_of_the_corpus_is_read_as_serde_reads_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut lines, mut read, mut others) = (0, 0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in progress_lines(&text) {
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
fn progress_lines_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let mut samples: Vec<String> = progress_lines(&String::from_utf8_lossy(common::fixtures()))
        .take(40)
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = common::generated(&["--size", "400K", "--seed", "5"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(progress_lines(&text).take(20).map(str::to_owned));
    }
    let written = [
        r#"{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.0.9","gitBranch":"main","type":"progress","data":{"message":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a \"b\" \u00e9"}],"usage":{"input_tokens":3}},"uuid":"x"},"normalizedMessages":[],"type":"agent_progress","prompt":"Find \n it","agentId":"a1"},"toolUseID":"agent_msg_1","parentToolUseID":"toolu_1","uuid":"u","timestamp":"2025-11-14T19:17:14.324Z"}"#,
        r#"{"type":"progress","data":{"type":"hook_progress","hookEvent":"PreToolUse","hookName":"PreToolUse:Bash","command":"x.sh","hookEvent":"again"},"parentToolUseID":null,"toolUseID":"t","slug":null}"#,
        r#"{"type":"progress","data":{"type":"bash_progress","output":"a\u001b[31m","fullOutput":"b","elapsedTimeSeconds":3.5,"totalLines":-1,"message":null},"isSidechain":true,"agentId":"a"}"#,
    ];
    // each of these is the common shape: read
    for w in &written {
        assert!(agrees(w), "{w}");
    }
    samples.extend(written.map(str::to_owned));
    let more: &[&[u8]] = &[
        b"\"message\":",
        b"\"data\":",
        b"\"agentId\":",
        b"\"type\":",
        b"{\"a\":[1,{\"b\":null}]}",
        b"\\ud83d",
        b"\\u0000",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    let (whole, read) = common::cut_and_bent(&samples, more, 0x5eed_9e06, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}
