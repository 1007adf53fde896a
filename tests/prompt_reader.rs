//! The reader of prompts' lines (`source::claude::prompts`) against
//! serde: a line it reads is one serde reads, into the same fields, on
//! every user line of the corpus whose message is a string and on lines
//! cut and bent at random; and the keys it passes over are keys serde
//! does not know.

use crate::common::readers::{self, fields};
use ccv::source::claude::prompts;
use ccv::source::claude::raw::RawEntry;

/// [`fields`] and the ones only a prompt's line fills.
fn all_fields(e: &RawEntry<'_>) -> String {
    format!("{} | {:?}", fields(e), e.permission_mode)
}

fn agrees(line: &str) -> bool {
    readers::agrees(prompts::read_into, all_fields, line)
}

/// A user line whose message's content is a string or texts and images
/// (the reader is tried on every line, and must leave the others).
fn prompt(v: &serde_json::Value) -> bool {
    let content = &v["message"]["content"];
    let pasted = content.as_array().is_some_and(|blocks| {
        !blocks.is_empty()
            && blocks
                .iter()
                .all(|b| b["type"] == "text" || b["type"] == "image")
    });
    v["type"] == "user" && (content.is_string() || pasted)
}

#[test]
fn prompt_keys_passed_over_are_keys_serde_does_not_know() {
    readers::others_unknown_to_serde(prompts::OTHER_TOP);
}

#[test]
fn every_prompt_of_the_corpus_is_read_as_serde_reads_it() {
    readers::corpus_agrees(prompt, 0.8, agrees);
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn prompts_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let written = [
        r#"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"C:\\Users\\a","sessionId":"s","version":"2.1.9","gitBranch":"main","type":"user","message":{"role":"user","content":"a \"b\" \u00e9\n é\\ <command-name>/x</command-name>"},"uuid":"u","timestamp":"2025-11-14T18:31:00.308Z","thinkingMetadata":{"level":"high","disabled":false,"triggers":[]},"todos":[],"permissionMode":"default"}"#,
        r#"{"type":"user","message":{"role":"user","content":"This session is being continued"},"isCompactSummary":true,"isVisibleInTranscriptOnly":true,"isMeta":null,"agentId":"a","isSidechain":true,"slug":null,"planContent":"Plan: x"}"#,
        r#"{"type":"user","message":{"role":null,"content":null},"parentUuid":"p","isMeta":true,"permissionMode":null}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"what is \"this\"?\n"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAA"}},{"type":"image","source":{"type":"url","url":"https://x.test/a.png","media_type":null,"data":null}},{"type":"text","text":null}]},"uuid":"u"}"#,
        r#"{"type":"user","message":{"role":"user","content":[]},"uuid":"u"}"#,
    ];
    let more: &[&[u8]] = &[
        b"\"content\":",
        b"\"role\":",
        b"\"permissionMode\":",
        b"\"isCompactSummary\":",
        b"\"message\":",
        b"[{\"type\":\"text\",\"text\":\"a\"}]",
        b"\\ud83d",
        b"{\"type\":\"image\",\"source\":{\"data\":\"AAAA\"}},",
        b"\"cache_control\":{},",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    readers::cut_and_bent(prompt, &written, more, 0x5eed_9a0f, agrees);
}
