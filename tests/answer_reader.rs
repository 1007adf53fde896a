//! The answer reader of a cold listing (`source::claude::answer`) against
//! serde: a line it reads is one serde reads, into the same fields, on
//! every line of the corpus and on lines cut and bent at random; and the
//! keys it passes over are keys serde does not know.

use crate::common;
use ccv::source::claude::answer;
use ccv::source::claude::raw::{Content, JsonStr, RawEntry};

fn token<'a>(t: &'a Option<JsonStr<'_>>) -> Option<&'a str> {
    match t {
        Some(JsonStr::Token(t)) => Some(t),
        Some(JsonStr::Text(t)) => Some(t.as_ref()),
        None => None,
    }
}

/// What `Session::ingest_lean` reads of an entry, comparable.
fn fields(e: &RawEntry<'_>) -> String {
    let mut out = common::readers::envelope(e);
    out += &format!("{:?} | ", e.is_api_error_message);
    // and what the reader never fills: none of it may be there
    out += &format!(
        "{:?} {:?} {:?} {} {} {} {} | ",
        e.subtype,
        e.session_id_snake,
        e.parent_tool_use_id,
        e.content.is_some(),
        e.tool_use_result.is_some(),
        e.error.is_some(),
        e.usage.is_some()
    );
    if let Some(m) = &e.message {
        out += &common::readers::message_head(m);
        match &m.content {
            Some(Content::Blocks(bs)) => {
                for b in bs {
                    out += &format!(
                        "[{:?} {:?} {:?} {:?} {:?} {:?} {} {}]",
                        b.kind,
                        b.id,
                        b.name,
                        token(&b.text),
                        token(&b.thinking),
                        b.tool_use_id,
                        b.content.is_some(),
                        b.source.is_some()
                    );
                }
            }
            Some(Content::Text(_)) => out += "text",
            Some(Content::Other) => out += "other",
            None => out += "none",
        }
    }
    out
}

/// `line` read by the reader is read by serde into the same fields;
/// whether the reader answered.
fn agrees(line: &str) -> bool {
    let Some(fast) = answer::read(line) else {
        return false;
    };
    // serde's own reading (the decode of a line now reads an answer as
    // this reader does)
    let Ok(serde) = serde_json::from_str::<RawEntry<'_>>(line) else {
        panic!("read, but serde refuses it: {line}");
    };
    let entries = [(serde, line)];
    assert_eq!(fields(&fast), fields(&entries[0].0), "{line}");
    // read whole, as a viewer's or a search's decode reads it: every
    // call's input as well, as written
    let mut whole = RawEntry::default();
    assert!(answer::read_whole_into(line, &mut whole), "{line}");
    assert_eq!(fields(&whole), fields(&entries[0].0), "{line}");
    assert_eq!(inputs(&whole), inputs(&entries[0].0), "{line}");
    true
}

/// Each block's input as written (`None`: no input).
fn inputs(e: &RawEntry<'_>) -> Vec<Option<String>> {
    match e.message.as_ref().and_then(|m| m.content.as_ref()) {
        Some(Content::Blocks(bs)) => bs
            .iter()
            .map(|b| b.input.map(|r| r.get().to_owned()))
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn keys_passed_over_are_keys_serde_does_not_know() {
    use ccv::source::claude::raw::{Block, RawMessage};
    // a field serde knows refuses a second one (or a number); a key it
    // does not know is passed over both times
    macro_rules! unknown {
        ($t:ty, $key:expr) => {{
            let line = format!(r#"{{"{0}":0,"{0}":0}}"#, $key);
            serde_json::from_str::<$t>(&line).is_ok()
        }};
    }
    for k in answer::OTHER_TOP {
        assert!(unknown!(RawEntry<'_>, k), "{k}");
    }
    for k in answer::OTHER_MESSAGE {
        assert!(unknown!(RawMessage<'_>, k), "{k}");
    }
    for k in answer::OTHER_BLOCK {
        assert!(unknown!(Block<'_>, k), "{k}");
    }
    // the probe tells a known field, whatever its type
    for k in ["uuid", "error", "content", "toolUseResult", "isSidechain"] {
        assert!(!unknown!(RawEntry<'_>, k), "{k}");
    }
    assert!(!unknown!(Block<'_>, "input"));
}

fn answer_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| l.contains(r#""assistant""#))
}

#[test]
fn every_answer_of_the_corpus_is_read_as_serde_reads_it() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut lines, mut read) = (0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in answer_lines(&text) {
            lines += 1;
            read += usize::from(agrees(l));
        }
    }
    // the common shape is most of them (the rest go to serde)
    assert!(read * 10 > lines * 9, "{read} of {lines}");
}

/// Lines of the fixtures and of generated sessions, cut at every byte
/// and bent at random: the reader answers only where serde reads, and
/// as serde reads. `CCV_ANSWER_ROUNDS` bends each line more times
/// (300), from `CCV_ANSWER_SEED`.
#[test]
fn answers_cut_and_bent_are_read_as_serde_reads_them_or_left_to_it() {
    let mut samples: Vec<String> = answer_lines(&String::from_utf8_lossy(common::fixtures()))
        .map(str::to_owned)
        .collect();
    if let Some((_dir, file, _)) = common::generated(&["--size", "400K", "--seed", "4"]) {
        let text = std::fs::read_to_string(file).expect("read");
        samples.extend(answer_lines(&text).take(60).map(str::to_owned));
    }
    samples.push(
        r#"{"type":"assistant","uuid":"u","cwd":"C:\\Users\\a","message":{"id":"m","content":[{"type":"text","text":"a \"b\" \u00e9\n é"}],"usage":{"input_tokens":1,"output_tokens":2}},"slug":null}"#.to_owned(),
    );
    let (whole, read) = common::cut_and_bent(&samples, &[], 0x5eed_a115, agrees);
    assert!(whole * 2 > samples.len(), "{whole} of {}", samples.len());
    assert!(read > 0);
}

/// An agent's progress copies one of the agent's lines (`data.message`),
/// which the model reads as it reads a line of its own
/// (`Session::agent_progress`): each answer copied in the corpus is read
/// by the reader as serde reads it.
#[test]
fn every_answer_an_agents_progress_copies_is_read_as_serde_reads_it() {
    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        data: Option<Data<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Data<'a> {
        #[serde(borrow)]
        message: Option<&'a serde_json::value::RawValue>,
    }
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut copies, mut read) = (0, 0);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("read")).into_owned();
        for l in text.lines().filter(|l| l.contains(r#""agent_progress""#)) {
            let Ok(Line {
                data: Some(Data { message: Some(m) }),
            }) = serde_json::from_str::<Line<'_>>(l)
            else {
                continue;
            };
            if m.get().contains(r#""assistant""#) {
                copies += 1;
                read += usize::from(agrees(m.get()));
            }
        }
    }
    // (the corpus holds a few hundred)
    assert!(copies > 0 && read * 10 >= copies * 9, "{read} of {copies}");
}
