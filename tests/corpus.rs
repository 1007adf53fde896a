//! Every real session file of ../shared/corpus: loaded and exported with no
//! panic, and every entry accounted for (shown, hidden and counted, or
//! reported unreadable). Skips with a reason when ../shared is absent.

use ccv::export::{self, Format, Options};

use crate::common;
use common::corpus_files;

#[test]
fn every_corpus_file_is_accounted_for() {
    let Some(files) = corpus_files() else { return };
    assert!(!files.is_empty());
    for path in files {
        let data = std::fs::read(&path).expect("read corpus file");
        let physical_lines = data
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count() as u64;
        let s = ccv::model::Session::load(&path).expect("load");
        let st = &s.stats;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        assert_eq!(st.shown + st.hidden + st.unreadable, st.entries, "{name}");
        assert_eq!(s.lines(), physical_lines, "{name}");
        assert!(st.entries >= s.lines(), "{name}: fewer entries than lines");
        assert_eq!(st.unreadable, 0, "{name}: {:?}", s.problems);
        for format in [Format::Text, Format::Markdown, Format::Json] {
            let mut out = Vec::new();
            export::export(
                &s,
                &Options {
                    format,
                    ..Default::default()
                },
                &mut out,
            )
            .expect("export");
            if format != Format::Json {
                let text = String::from_utf8(out).expect("utf8 export");
                assert!(
                    !text.chars().any(ccv::model::text::is_unsafe_char),
                    "{name}: raw control character in {format:?} export"
                );
            }
        }
    }
}

#[test]
fn joined_objects_on_one_line_are_both_read() {
    let Some(files) = corpus_files() else { return };
    // format notes, section 3: line 128 holds an assistant line and a summary
    let Some(path) = files.iter().find(|p| {
        p.to_string_lossy()
            .contains("entireio__cli__37__995ebed6e4__2")
    }) else {
        eprintln!("skipping: fixture not in corpus");
        return;
    };
    let s = ccv::model::Session::load(path).expect("load");
    assert!(s.stats.entries > s.lines());
    assert!(!s.meta.titles.summaries.is_empty());
}

/// Every tool call's input of the corpus, re-indented without a `Value`
/// where it can be (most), is what serde writes from a `Value`.
#[test]
fn call_inputs_are_reindented_as_serde_does() {
    use serde_json::value::RawValue;
    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        message: Option<Message<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        content: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Block<'a> {
        #[serde(borrow)]
        input: Option<&'a RawValue>,
    }
    let Some(files) = corpus_files() else { return };
    let (mut inputs, mut reindented) = (0, 0);
    for path in files {
        let data = std::fs::read_to_string(&path).unwrap_or_default();
        for line in data.lines() {
            let Ok(Line { message: Some(m) }) = serde_json::from_str::<Line<'_>>(line) else {
                continue;
            };
            let blocks: Vec<Block<'_>> = m
                .content
                .and_then(|c| serde_json::from_str(c.get()).ok())
                .unwrap_or_default();
            for input in blocks.iter().filter_map(|b| b.input) {
                inputs += 1;
                if let Some(p) = ccv::json_pretty::pretty(input.get()) {
                    let v: serde_json::Value = serde_json::from_str(input.get()).expect("json");
                    assert_eq!(p, serde_json::to_string_pretty(&v).expect("pretty"));
                    reindented += 1;
                }
            }
        }
    }
    assert!(inputs > 1_000, "{inputs}");
    assert!(reindented * 10 > inputs * 9, "{reindented} of {inputs}");
}
