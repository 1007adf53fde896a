//! The first frame of a big session comes from its last bytes only.

use crate::common;

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
    let full = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
    assert!(p.main.items.len() < full.main.items.len());
    assert!(p.stats.unreadable == 0, "starts at a line boundary");
    // the preview leaves long texts in the file, from where its bytes start
    let last = |s: &ccv::model::Session| s.main.items.last().map(|i| s.item_text(i).into_owned());
    assert!(p.main.items.last().is_some_and(|i| i.text.missing()));
    assert_eq!(last(&p), last(&full));
}

#[test]
fn small_files_load_whole() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(ccv::app::demo::DEMO).expect("write");
    assert!(preview(f.path()).is_none());
}

/// While the whole file loads, the header shows how far the load got and
/// none of the counts of the preview (they would be those of its end).
#[test]
fn the_header_says_the_load_is_partial() {
    let f = big_session();
    let p = preview(f.path()).expect("preview");
    let mut st = common::utc_state(p);
    st.partial = true;
    st.load_progress = Some((41, 100));
    let screen = common::screen_text(&mut st, 160, 6);
    let header = screen.lines().next().unwrap_or("");
    assert!(
        header.contains("loading 41% of 100 B ▰▰▰▰▱▱▱▱▱▱"),
        "{header}"
    );
    assert!(
        !header.contains("prompts"),
        "counts of the end only: {header}"
    );
    st.partial = false;
    st.load_progress = None;
    let screen = common::screen_text(&mut st, 160, 6);
    let header = screen.lines().next().unwrap_or("");
    assert!(
        header.contains("prompts") && !header.contains("loading"),
        "{header}"
    );
}
