//! Rows that `ccv check` has a finding about carry a `⚠` in the gutter,
//! and say why when expanded (or always, when they cannot be expanded).

use crate::common;

use ccv::app::{Action, State, perform_action};
use ccv::model::{Kind, Session};
use ccv::rows::RowKind;
use common::jsonl::{assistant, call, line, text, user};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

/// A dangling parentUuid, a result without its call, a call whose result
/// never came (the conversation went on), and a call still running.
fn session() -> Session {
    let mut s = Session::new(None);
    s.feed(0, common::jsonl::findings().as_bytes());
    s.finish(0);
    s
}

fn state() -> State {
    common::utc_state(session())
}

fn draw(s: &mut State) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(90, 20)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, s)).expect("draw");
    let buf = t.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

fn screen_line<'a>(screen: &'a [String], has: &str) -> &'a str {
    // past the header and its rule
    screen
        .iter()
        .skip(2)
        .find(|l| l.contains(has))
        .unwrap_or_else(|| panic!("no line with {has:?} in\n{}", screen.join("\n")))
}

#[test]
fn marks_follow_the_findings() {
    let s = session();
    let m = s.marks();
    let id = |pred: &dyn Fn(&ccv::model::Item) -> bool| {
        s.main.items.iter().find(|i| pred(i)).expect("item").id
    };
    let user = id(&|i| i.kind == Kind::User);
    let orphan = id(&|i| i.kind == Kind::ToolResult);
    let lost = id(&|i| {
        i.text.or_marker().contains("make")
            || matches!(&i.detail, ccv::model::Detail::Call(c) if c.name == "Bash")
    });
    let pending = id(&|i| matches!(&i.detail, ccv::model::Detail::Call(c) if c.name == "Read"));
    assert_eq!(m.of(user).len(), 1);
    assert!(m.of(user)[0].explain().contains("parent uuid not found"));
    assert!(m.of(orphan)[0].explain().contains("no tool call"));
    assert!(
        m.of(lost)[0]
            .explain()
            .contains("no result for this tool call")
    );
    assert!(
        m.of(pending).is_empty(),
        "a call at the end may still be running"
    );
}

#[test]
fn marked_rows_show_a_warning_in_the_gutter() {
    let mut s = state();
    let screen = draw(&mut s);
    let marked = |has: &str| screen_line(&screen, has).chars().take(8).any(|c| c == '⚠');
    assert!(
        marked("hello there"),
        "dangling parent\n{}",
        screen.join("\n")
    );
    assert!(marked("orphan output"), "result without call");
    assert!(marked("make"), "lost call");
    assert!(!marked("/x.rs"), "pending call");
    assert!(!marked("moving on"));
    // a row that cannot be expanded says why at once
    assert!(screen_line(&screen, "parent uuid not found").contains("line 1"));
    // a call says why when it is opened
    assert!(
        !screen
            .iter()
            .any(|l| l.contains("no result for this tool call"))
    );
    let call = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Call { .. }))
        .expect("the lost call's row");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(call));
    // selected, the status bar says why
    let screen = draw(&mut s);
    let status = screen.last().cloned().unwrap_or_default();
    assert!(
        status.contains("⚠ line 4: no result for this tool call"),
        "{status}"
    );
    perform_action(&mut s, Action::Toggle);
    let screen = draw(&mut s);
    assert!(screen_line(&screen, "no result for this tool call").contains("line 4"));
    insta::assert_snapshot!(screen.join("\n"));
}

#[test]
fn a_call_is_marked_once_the_conversation_goes_on_without_its_result() {
    let mut s = common::utc_state(Session::new(None));
    // followed and being written: a call without a result is running
    s.live.attached = true;
    let feed = |s: &mut State, l: String| {
        s.session.feed(0, format!("{l}\n").as_bytes());
        let c = s.session.take_changes();
        s.apply_changes(c);
    };
    feed(&mut s, line("user", "u1", "", 0, user("go")));
    feed(
        &mut s,
        line(
            "assistant",
            "a1",
            "u1",
            1,
            assistant("m1", call("toolu_1", "Bash", json!({"command": "make"}))),
        ),
    );
    let screen = draw(&mut s);
    assert!(screen_line(&screen, "make").contains("running"));
    feed(
        &mut s,
        line("assistant", "a2", "a1", 2, assistant("m2", text("next"))),
    );
    let screen = draw(&mut s);
    let row = screen_line(&screen, "make");
    assert!(row.contains("no result"), "{row}");
    assert!(row.chars().take(8).any(|c| c == '⚠'), "{row}");
}
