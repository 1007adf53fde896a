//! The first frame of a big session comes from its last bytes only.

use ccv::app::run::{PREVIEW_BYTES, preview};
use std::io::Write;

fn big_session() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    let filler = "x".repeat(1000);
    let mut n = 0u64;
    let mut written = 0u64;
    while written < 3 * PREVIEW_BYTES {
        let line = format!(
            "{{\"type\":\"user\",\"uuid\":\"u{n}\",\"timestamp\":\"2026-02-11T10:00:00.000Z\",\"message\":{{\"role\":\"user\",\"content\":\"prompt {n} {filler}\"}}}}\n"
        );
        f.write_all(line.as_bytes()).expect("write");
        written += line.len() as u64;
        n += 1;
    }
    f.flush().expect("flush");
    f
}

#[test]
fn preview_holds_the_end_of_the_session() {
    let f = big_session();
    let p = preview(f.path()).expect("a big file gets a preview");
    let full = ccv::model::loader::load_with_subagents(f.path()).expect("loads");
    assert!(p.main.items.len() < full.main.items.len());
    assert!(p.stats.unreadable == 0, "starts at a line boundary");
    let last = |s: &ccv::model::Session| s.main.items.last().map(|i| i.text.clone());
    assert_eq!(last(&p), last(&full));
}

#[test]
fn small_files_load_whole() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(ccv::app::demo::DEMO).expect("write");
    assert!(preview(f.path()).is_none());
}
