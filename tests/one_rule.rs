//! Rules decided in one place: what is copied is labelled as what is seen,
//! and a call is running by one test everywhere.

use crate::common;

use ccv::app::{Action, Request, State, perform_action};
use common::{assistant_line, screen_text, session_of, user_line};
use serde_json::json;

fn failed_call_session() -> ccv::model::Session {
    session_of(&[
        user_line("u1", json!("run the tests")),
        assistant_line(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}]),
        ),
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T10:00:02.000Z",
            "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"error: 2 tests failed","is_error":true}]}}),
    ])
}

#[test]
fn a_failed_result_reads_the_same_on_screen_and_in_a_copy() {
    let mut s = State::new(failed_call_session());
    s.copy_format = ccv::export::Format::Text;
    // select the call and open it
    let call = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, ccv::rows::RowKind::Call { .. }))
        .expect("call row");
    perform_action(&mut s, Action::Top);
    for _ in 0..call {
        perform_action(&mut s, Action::Down(1));
    }
    perform_action(&mut s, Action::Toggle);
    let screen = screen_text(&mut s, 100, 20);
    assert!(screen.contains("─ tool error"), "{screen}");
    perform_action(&mut s, Action::Copy);
    let copied = s
        .requests
        .iter()
        .find_map(|r| match r {
            Request::Copy(c) => Some(c.text.clone()),
            _ => None,
        })
        .expect("a copy");
    assert!(copied.contains("[Tool Error]"), "{copied}");
}

#[test]
fn labels_of_screen_and_export_come_from_one_rule() {
    use ccv::export::Row;
    let s = failed_call_session();
    for item in &s.main.items {
        let l = ccv::model::label::of_item(item);
        assert_eq!(Row::Item(item).label(), l.name);
    }
}

#[test]
fn a_call_the_conversation_left_behind_does_not_tick() {
    // a call without a result, then the conversation goes on: it is not
    // running, even in a session being written
    let s = session_of(&[
        user_line("u1", json!("look around")),
        assistant_line(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]),
        ),
        assistant_line("a2", "m2", json!([{"type":"text","text":"never mind"}])),
    ]);
    let mut st = State::new(s);
    st.live.attached = true;
    st.live.last_write_ms = Some(ccv::model::time::now_ms());
    st.live.now_ms = ccv::model::time::parse_timestamp("2025-01-01T10:00:05.000Z").unwrap_or(0);
    perform_action(&mut st, Action::ExpandAll);
    let screen = screen_text(&mut st, 100, 20);
    assert!(screen.contains("no result"), "{screen}");
    assert!(!st.running_on_screen(), "nothing on screen is running");
}

/// A group's heading is one summary: a call the user declined is not an
/// error, on screen and in the HTML page alike.
#[test]
fn a_declined_call_is_no_error_on_screen_nor_in_the_page() {
    let s = session_of(&[
        user_line("u1", json!("edit and test")),
        assistant_line(
            "a1",
            "m1",
            json!([
                {"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/a.rs","old_string":"a","new_string":"b"}},
                {"type":"tool_use","id":"t2","name":"Bash","input":{"command":"cargo test"}}
            ]),
        ),
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T10:00:02.000Z",
        "message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":"t1","content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.","is_error":true},
            {"type":"tool_result","tool_use_id":"t2","content":"error: 1 failed","is_error":true}
        ]}}),
    ]);
    let mut page = Vec::new();
    ccv::html::write(
        &s,
        &ccv::export::Options::default(),
        ccv::walk::Filters::all(),
        &mut page,
    )
    .expect("page");
    let page = String::from_utf8(page).expect("utf-8");
    let mut st = State::new(s);
    let screen = screen_text(&mut st, 120, 20);
    for (what, text) in [("screen", screen.as_str()), ("page", page.as_str())] {
        assert!(text.contains("1 error"), "{what}: {text}");
        assert!(text.contains("1 declined"), "{what}: {text}");
        assert!(!text.contains("2 errors"), "{what}");
    }
}
