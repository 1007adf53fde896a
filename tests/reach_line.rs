//! Reaching a line: `ccv FILE:LINE` and `ccv +LINE FILE` open on the row
//! of that source line (the same jump a search hit makes), and `ccv FILE`
//! into a pipe prints the text instead of drawing.

use crate::common;

use serde_json::json;
use std::io::Write;

fn session_file() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    let mut lines = Vec::new();
    for i in 1..=60 {
        lines.push(common::user_line(
            &format!("u{i}"),
            json!(format!("prompt number {i}")),
        ));
    }
    for l in lines {
        writeln!(f, "{l}").expect("write");
    }
    f
}

#[test]
fn a_line_opens_on_its_row() {
    let f = session_file();
    let session = ccv::model::loader::load_with_subagents(f.path()).expect("loads");
    let mut st = common::utc_state(session);
    let screen = common::screen_text(&mut st, 100, 20);
    assert!(screen.contains("prompt number 60"), "follows the end first");
    assert!(st.jump_to(f.path(), 7, ""));
    let screen = common::screen_text(&mut st, 100, 20);
    let row = st.rows.get(st.selected).expect("a row is selected");
    let t = st.session.transcript(row.agent);
    assert_eq!(t.items[row.index as usize].line, 7);
    assert!(screen.contains("prompt number 7"), "{screen}");
    assert!(screen.contains("line 7"), "the status says where: {screen}");
    // a line that is no row of the session says so
    assert!(!st.jump_to(f.path(), 999, ""));
    let screen = common::screen_text(&mut st, 100, 20);
    assert!(screen.contains("line 999 is not a row"), "{screen}");
}

#[test]
fn into_a_pipe_ccv_prints_the_text() {
    let f = session_file();
    let home = tempfile::tempdir().expect("tempdir");
    for arg in [
        f.path().display().to_string(),
        format!("{}:7", f.path().display()),
    ] {
        let out = common::ccv_at(home.path())
            .arg(&arg)
            .output()
            .expect("runs");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with("[User]\nprompt number 1\n"),
            "{arg}: {text}"
        );
        assert!(!text.contains('\u{1b}'), "no screen drawn into a pipe");
    }
    let out = common::ccv_at(home.path())
        .arg("--demo")
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("[User]"));
}
