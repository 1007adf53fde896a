//! The reader of progress lines (`source::claude::progress`: an agent's
//! copied lines, a hook's or a command's progress) against serde: a line
//! it reads is one serde reads, into the same fields, on every progress
//! line of the corpus and on lines cut and bent at random; and the keys
//! it passes over at the top are keys serde does not know.

use crate::common::readers::{self, fields};
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

fn agrees(line: &str) -> bool {
    readers::agrees(progress::read_into, all_fields, line)
}

fn progress_line(v: &serde_json::Value) -> bool {
    v["type"] == "progress"
}

#[test]
fn progress_keys_passed_over_are_keys_serde_does_not_know() {
    readers::others_unknown_to_serde(progress::OTHER_TOP);
}

#[test]
fn every_progress_line_of_the_corpus_is_read_as_serde_reads_it() {
    readers::corpus_agrees(progress_line, 0.9, agrees);
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn progress_lines_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let written = [
        r#"{"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.0.9","gitBranch":"main","type":"progress","data":{"message":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a \"b\" \u00e9"}],"usage":{"input_tokens":3}},"uuid":"x"},"normalizedMessages":[],"type":"agent_progress","prompt":"Find \n it","agentId":"a1"},"toolUseID":"agent_msg_1","parentToolUseID":"toolu_1","uuid":"u","timestamp":"2025-11-14T19:17:14.324Z"}"#,
        r#"{"type":"progress","data":{"type":"hook_progress","hookEvent":"PreToolUse","hookName":"PreToolUse:Bash","command":"x.sh","hookEvent":"again"},"parentToolUseID":null,"toolUseID":"t","slug":null}"#,
        r#"{"type":"progress","data":{"type":"bash_progress","output":"a\u001b[31m","fullOutput":"b","elapsedTimeSeconds":3.5,"totalLines":-1,"message":null},"isSidechain":true,"agentId":"a"}"#,
    ];
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
    readers::cut_and_bent(progress_line, &written, more, 0x5eed_9e06, agrees);
}
