//! Every real session file of ../shared/corpus: loaded and exported with no
//! panic, and every entry accounted for (shown, hidden and counted, or
//! reported unreadable). Skips with a reason when ../shared is absent.

use ccv::export::{self, Format, Options};

mod common;
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
