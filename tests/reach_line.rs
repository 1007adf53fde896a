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
    let session = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
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
    // a line past the file's end, or line 0, says so, and opens at the
    // nearest row
    assert!(st.jump_to(f.path(), 999, ""));
    let screen = common::screen_text(&mut st, 120, 20);
    assert!(
        screen.contains("line 999: the file has 60 lines: nearest is line 60"),
        "{screen}"
    );
    assert!(st.jump_to(f.path(), 0, ""));
    let screen = common::screen_text(&mut st, 120, 20);
    assert!(
        screen.contains("line 0: lines start at 1: nearest is line 1"),
        "{screen}"
    );
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

/// A line that is no row (a progress entry, a hook's, one `ccv check`
/// reports) opens at the row nearest to it, and says so.
#[test]
fn a_hidden_line_opens_at_the_nearest_row() {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    let lines = [
        common::user_line("u1", json!("the prompt")),
        json!({"type":"progress","uuid":"p1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T10:00:00.500Z","data":{"type":"hook_progress"}}),
        json!({"type":"progress","uuid":"p2","parentUuid":"p1","sessionId":"s","timestamp":"2025-01-01T10:00:00.600Z","data":{"type":"hook_progress"}}),
        json!({"type":"progress","uuid":"p3","parentUuid":"p2","sessionId":"s","timestamp":"2025-01-01T10:00:00.700Z","data":{"type":"hook_progress"}}),
        common::assistant_line("a1", "m1", json!([{"type":"text","text":"the answer"}])),
    ];
    for l in lines {
        writeln!(f, "{l}").expect("write");
    }
    let session = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
    let mut st = common::utc_state(session);
    for (line, row_line) in [(2, 1), (3, 1), (4, 5)] {
        assert!(st.jump_to(f.path(), line, ""), "line {line}");
        let screen = common::screen_text(&mut st, 120, 12);
        let row = st.rows.get(st.selected).expect("a row is selected");
        let t = st.session.transcript(row.agent);
        assert_eq!(t.items[row.index as usize].line, row_line, "line {line}");
        assert!(
            screen.contains(&format!("line {line}: not a row (hidden or unreadable)")),
            "{screen}"
        );
        assert!(
            screen.contains(&format!("nearest is line {row_line}")),
            "{screen}"
        );
    }
}
