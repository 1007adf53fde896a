//! The reader of tool results (`source::claude::results`) against serde:
//! a line it reads is one serde reads, into the same fields, on every
//! line of results of the corpus and on lines cut and bent at random; and
//! the keys it passes over are keys serde does not know.

use crate::common;
use crate::common::readers::{self, fields};
use ccv::source::claude::results;

fn agrees(line: &str) -> bool {
    readers::agrees(results::read_into, fields, line)
}

#[test]
fn result_keys_passed_over_are_keys_serde_does_not_know() {
    readers::others_unknown_to_serde(results::OTHER_TOP);
}

fn result_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| l.contains(r#""tool_result""#))
}

#[test]
fn every_result_of_the_corpus_is_read_as_serde_reads_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut lines, mut read) = (0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in result_lines(&text) {
            lines += 1;
            read += usize::from(agrees(l));
        }
    }
    // the common shape is most of them (the rest go to serde)
    assert!(read * 10 > lines * 7, "{read} of {lines}");
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn results_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let mut samples: Vec<String> = result_lines(&String::from_utf8_lossy(common::fixtures()))
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = common::generated(&["--size", "400K", "--seed", "5"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(result_lines(&text).take(60).map(str::to_owned));
    }
    samples.extend([
        r#"{"type":"user","uuid":"u","cwd":"C:\\Users\\a","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"a \"b\" \u00e9\n é\\","is_error":true}]},"toolUseResult":{"stdout":"x","structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-a","+b"]}],"file":{"numLines":3}},"slug":null}"#.to_owned(),
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}]},"toolUseResult":"Error: x"}"#.to_owned(),
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":null},{"type":"tool_result","content":7}]},"toolUseResult":[1,{"a":[]}],"isMeta":false,"agentId":"a","isSidechain":true}"#.to_owned(),
    ]);
    let more: &[&[u8]] = &[
        b"\"content\":",
        b"\"is_error\":",
        b"\"toolUseResult\":",
        b"\"structuredPatch\":",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    let (whole, read) = common::cut_and_bent(&samples, more, 0x5eed_a116, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}
