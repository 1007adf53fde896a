//! Places: `''` goes back to where the last jump started, `#` reads the
//! session again without losing the reader's place, and the help names a
//! line's keys in the order it names its actions.

use crate::common;
use ccv::app::{Action, State, perform_action};
use ccv::rows::RowKind;
use std::io::Write;

fn goto_mark(s: &mut State, c: char) {
    perform_action(s, Action::Pending(ccv::app::action::Pending::GotoMark));
    perform_action(s, Action::PendingKey(c));
}

fn session_file() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    let mut lines = Vec::new();
    for i in 1..=40 {
        lines.push(common::user_line(
            &format!("u{i}"),
            serde_json::json!(format!("prompt number {i}")),
        ));
        lines.push(common::assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            serde_json::json!([
                {"type":"tool_use","id":format!("t{i}"),"name":"Bash","input":{"command":format!("echo {i}")}}
            ]),
        ));
        lines.push(serde_json::json!({"type":"user","uuid":format!("r{i}"),"parentUuid":format!("a{i}"),"sessionId":"s","timestamp":"2025-01-01T10:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":format!("t{i}"),"content":format!("out {i}")}]}}));
    }
    for l in lines {
        writeln!(f, "{l}").expect("write");
    }
    f
}

fn selected_text(s: &State) -> String {
    let r = s.rows[s.selected];
    let it = &s.session.transcript(r.agent).items[r.index as usize];
    it.text.or_marker().to_owned()
}

#[test]
fn two_quotes_go_back_before_the_last_jump() {
    let f = session_file();
    let session = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
    let mut s = common::utc_state(session);
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(4));
    let start = s.selected;
    perform_action(&mut s, Action::Bottom);
    assert_ne!(s.selected, start);
    let bottom = s.selected;
    goto_mark(&mut s, '\'');
    assert_eq!(s.selected, start, "'' back from G");
    goto_mark(&mut s, '\'');
    assert_eq!(
        s.selected, bottom,
        "'' again goes back to where '' came from"
    );
    // a search is a jump
    perform_action(&mut s, Action::Top);
    let top = s.selected;
    perform_action(&mut s, Action::SearchStart);
    for c in "prompt number 30".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    while s.search_step(std::time::Duration::from_millis(50)) {}
    assert_eq!(selected_text(&s), "prompt number 30");
    goto_mark(&mut s, '\'');
    assert_eq!(s.selected, top, "'' back from a search");
    // moving by lines is no jump
    perform_action(&mut s, Action::Down(3));
    let here = s.selected;
    goto_mark(&mut s, '\'');
    assert_ne!(s.selected, here);
}

/// `#` twice reads the session again (the screen redacted, then not):
/// the selected row and the open rows stay.
#[test]
fn redaction_off_again_keeps_the_place_and_the_folds() {
    let f = session_file();
    let session = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
    let mut s = common::utc_state(session);
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(10));
    let group = s
        .rows
        .iter()
        .skip(s.selected)
        .position(|r| matches!(r.kind, RowKind::Group { .. } | RowKind::Call { .. }))
        .expect("a call row")
        + s.selected;
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(group));
    assert_eq!(s.selected, group);
    perform_action(&mut s, Action::Toggle);
    let rows = s.rows.len();
    let chosen = selected_text(&s);
    let keep = s.keep();
    // what the loop does for `#`: the session read again, the place kept
    let again = ccv::source::claude::loader::load_with_subagents(f.path()).expect("loads");
    let mut t = common::utc_state(again);
    t.come_back(keep);
    assert_eq!(t.rows.len(), rows, "the same rows open");
    assert_eq!(selected_text(&t), chosen, "the same row selected");
    assert!(!t.follow, "not sent to the end");
}

#[test]
fn the_help_names_keys_in_the_order_of_their_actions() {
    let (c, problems) = ccv::config::parse("[keys]\nset_mark = \"b\"\ntoggle_meta = \"m\"\n", "t");
    assert!(problems.is_empty(), "{problems:?}");
    let help = c.keymap().help();
    let marks = help
        .iter()
        .find(|(_, d)| d.contains("go to a mark"))
        .expect("the marks line");
    assert_eq!(marks.0, "b '", "{help:?}");
}
