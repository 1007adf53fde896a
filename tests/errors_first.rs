//! Errors first: `x` / `X` go to the next / previous error row (a failed
//! call, even folded in a tool group; an API error), opening what hides it.

use crate::common;

use ccv::app::{Action, perform_action};
use common::jsonl::{assistant, call, line, user};
use serde_json::json;

fn failed_result(id: &str, text: &str) -> serde_json::Value {
    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text, "is_error": true}]})
}

#[test]
fn x_and_shift_x_step_through_the_errors() {
    let lines = [
        line("user", "u1", "", 0, user("go")),
        line(
            "assistant",
            "a1",
            "u1",
            1,
            assistant("m1", call("t1", "Bash", json!({"command": "ls"}))),
        ),
        line("user", "r1", "a1", 1, common::jsonl::result("t1", "fine")),
        line(
            "assistant",
            "a2",
            "r1",
            2,
            assistant("m2", call("t2", "Bash", json!({"command": "make"}))),
        ),
        line(
            "user",
            "r2",
            "a2",
            2,
            failed_result("t2", "make: *** no rule"),
        ),
        line(
            "assistant",
            "a3",
            "r2",
            3,
            assistant("m3", call("t3", "Read", json!({"file_path": "/x"}))),
        ),
        line("user", "r3", "a3", 3, common::jsonl::result("t3", "ok")),
        line("user", "u2", "r3", 4, user("again")),
        line(
            "assistant",
            "a4",
            "u2",
            5,
            json!({"id": "m4", "role": "assistant", "model": "<synthetic>",
            "content": [{"type": "text", "text": "API Error: 529 overloaded"}]}),
        ),
        line("user", "u3", "a4", 6, user("last")),
    ];
    let s = common::session_of(
        &lines
            .iter()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect::<Vec<_>>(),
    );
    let mut st = common::utc_state(s);
    let screen = common::screen_text(&mut st, 120, 30);
    assert!(
        !screen.contains("make: *** no rule"),
        "folded at first: {screen}"
    );
    perform_action(&mut st, Action::Top);
    perform_action(&mut st, Action::NextError);
    let screen = common::screen_text(&mut st, 120, 30);
    assert!(screen.contains("error 1/2"), "{screen}");
    assert!(
        screen.contains("make"),
        "the failed call is shown: {screen}"
    );
    let sel = st.rows.get(st.selected).expect("selected");
    let item = &st.session.transcript(sel.agent).items[sel.index as usize];
    assert!(ccv::model::label::is_error(item), "{:?}", item.kind);
    perform_action(&mut st, Action::NextError);
    let screen = common::screen_text(&mut st, 120, 30);
    assert!(screen.contains("error 2/2"), "{screen}");
    perform_action(&mut st, Action::PrevError);
    let screen = common::screen_text(&mut st, 120, 30);
    assert!(screen.contains("error 1/2"), "{screen}");
    // and round again
    perform_action(&mut st, Action::PrevError);
    assert!(common::screen_text(&mut st, 120, 30).contains("error 2/2"));
}
