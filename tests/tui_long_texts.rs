//! A text of megabytes in one row (a pasted log, an answer, a tool's
//! output, a file written whole) is drawn as its head and a line that
//! says how much was left out: its lines were made whole before the screen
//! showed a part of them (a 50 MB answer held 1.3 GB; a bigger one could
//! exhaust memory). `z` draws more of it.

use crate::common;

use ccv::app::{Action, State, perform_action};
use ccv::model::Session;
use ccv::rows::RowKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

fn state(lines: &[Value]) -> State {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut session = Session::new(None);
    session.feed(0, text.as_bytes());
    session.finish(0);
    common::utc_state(session)
}

fn screen(s: &mut State) -> String {
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    t.draw(|f| common::draw(f, s)).expect("draw");
    format!("{:?}", t.backend())
}

/// The rendered lines of row `r` (as the view holds them).
fn row_lines(s: &State, r: usize) -> Vec<String> {
    let mut v = ccv::view::ListView::default();
    ccv::view::list::row_lines(s, &mut v, r, 100)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

fn prompt(text: &str) -> Value {
    json!({"type":"user","uuid":"u1","timestamp":"2025-03-01T10:00:00Z","message":{"role":"user","content":text}})
}

fn answer(uuid: &str, parent: &str, text: &str) -> Value {
    json!({"type":"assistant","uuid":uuid,"parentUuid":parent,"timestamp":"2025-03-01T10:00:01Z","message":{"id":format!("m-{uuid}"),"role":"assistant","content":[{"type":"text","text":text}]}})
}

fn row_of(s: &State, kind: ccv::model::Kind) -> usize {
    s.rows
        .iter()
        .position(|r| {
            matches!(r.kind, RowKind::Item)
                && s.session.main.items.get(r.index as usize).map(|i| i.kind) == Some(kind)
        })
        .expect("the row")
}

#[test]
fn a_prompt_of_megabytes_on_one_line_is_drawn_as_its_head_until_z() {
    // 3 MB without a line break: a row of 30,000 screen lines when whole
    let big = "pasted ".repeat(450_000);
    let mut s = state(&[prompt(&big), answer("a1", "u1", "done")]);
    let r = row_of(&s, ccv::model::Kind::User);
    let head = row_lines(&s, r);
    let last = head.last().expect("lines").clone();
    assert!(
        last.contains("MB more (z shows more)"),
        "the row says what it left out: {last}"
    );
    // about a megabyte of 80 columns: a fraction of the whole
    assert!(head.len() < 15_000, "{} lines", head.len());
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(r));
    perform_action(&mut s, Action::ShowAll);
    let whole = row_lines(&s, r);
    assert!(whole.len() > 2 * head.len(), "{} lines", whole.len());
    assert!(
        !whole.iter().any(|l| l.contains(" more (")),
        "all of 3 MB is drawn once asked"
    );
    perform_action(&mut s, Action::ShowAll);
    assert_eq!(row_lines(&s, r).len(), head.len(), "z again: its head");
    let shown = screen(&mut s);
    assert!(shown.contains("pasted"), "{shown}");
}

#[test]
fn an_answer_of_many_lines_is_drawn_as_its_first_lines() {
    let big: String = (0..60_000).map(|i| format!("- item {i}\n")).collect();
    let mut s = state(&[prompt("list them"), answer("a1", "u1", &big)]);
    let r = row_of(&s, ccv::model::Kind::Assistant);
    let head = row_lines(&s, r);
    assert!(head.len() <= 20_100, "{} lines", head.len());
    assert!(head.iter().any(|l| l.contains("item 19998")));
    assert!(!head.iter().any(|l| l.contains("item 20001")));
    let last = head.last().expect("lines");
    assert!(last.contains("KB more (z shows more)"), "{last}");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(r));
    perform_action(&mut s, Action::ShowAll);
    let whole = row_lines(&s, r);
    assert!(whole.iter().any(|l| l.contains("item 59999")));
}

#[test]
fn a_tool_output_of_megabytes_folds_and_counts_what_it_left() {
    let out = "y".repeat(5 << 20);
    let mut s = state(&[
        prompt("run it"),
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","timestamp":"2025-03-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"yes | head"}}]}}),
        json!({"type":"user","uuid":"r1","parentUuid":"a1","timestamp":"2025-03-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":out}]}}),
    ]);
    let call = common::select_first_tool_row(&mut s);
    perform_action(&mut s, Action::ShowAll);
    let whole = row_lines(&s, call);
    assert!(
        !whole.iter().any(|l| l.contains(" more")),
        "5 MB drawn whole"
    );
    perform_action(&mut s, Action::ShowAll);
    let folded = row_lines(&s, call);
    let note = folded
        .iter()
        .find(|l| l.contains("more lines"))
        .expect("a note");
    assert!(
        note.contains("more lines and 4.0 MB more (z shows more)"),
        "{note}"
    );
    assert!(folded.len() < 40, "{} lines", folded.len());
}
