//! The viewer while a session grows: follow mode, `↓ N new`, running tool
//! calls, reloads after a rewrite, a newer session in the project, and the
//! copy keys. Driven without a terminal (state + TestBackend).

use crate::common;
use crate::common::entry;

use ccv::app::{Action, Request, State, perform_action};
use ccv::live::LiveEvent;
use ccv::model::Session;
use ccv::rows::{Fold, RowKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

const T0: &str = "2025-03-01T10:00:00Z";
const T0_MS: i64 = 1_740_823_200_000;

fn line(v: serde_json::Value) -> String {
    format!("{v}\n")
}

fn user(uuid: &str, text: &str) -> String {
    entry::user(uuid, text).at(T0).session("s").line_nl()
}

fn say(uuid: &str, text: &str) -> String {
    entry::text_answer(uuid, &format!("m-{uuid}"), text)
        .at(T0)
        .session("s")
        .line_nl()
}

fn call(uuid: &str, id: &str, cmd: &str) -> String {
    entry::call(
        uuid,
        &format!("m-{uuid}"),
        id,
        "Bash",
        json!({"command": cmd}),
    )
    .at(T0)
    .session("s")
    .line_nl()
}

fn result(uuid: &str, id: &str, out: &str) -> String {
    entry::result(uuid, id, out)
        .at("2025-03-01T10:00:02Z")
        .session("s")
        .line_nl()
}

fn conversation(n: usize) -> String {
    (0..n)
        .map(|i| {
            user(&format!("u{i}"), &format!("prompt {i}"))
                + &say(&format!("a{i}"), &format!("answer {i}"))
        })
        .collect()
}

/// A followed session holding `text`, as the viewer has it after loading.
fn viewer(text: &str) -> State {
    let mut session = Session::new(Some("/tmp/s.jsonl".into()));
    session.feed(0, text.as_bytes());
    let _ = session.take_changes();
    let mut s = common::utc_state(session);
    s.live.attached = true;
    s.live.now_ms = T0_MS + 5_000;
    s
}

fn append(s: &mut State, text: &str) {
    s.on_live(&LiveEvent::Appended {
        source: 0,
        bytes: text.as_bytes().to_vec(),
    });
    s.absorb();
}

fn screen(s: &mut State, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, s)).expect("draw");
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn at_the_bottom_the_view_follows_new_rows() {
    let mut s = viewer(&conversation(3));
    assert!(s.follow);
    append(&mut s, &user("u9", "one more"));
    assert_eq!(s.selected + 1, s.rows.len(), "the new last row is selected");
    assert!(screen(&mut s, 80, 20).contains("one more"));
}

#[test]
fn scrolled_up_the_view_stays_and_counts_new_rows() {
    let mut s = viewer(&conversation(10));
    perform_action(&mut s, Action::Up(5));
    let before = s.selected;
    assert!(!s.follow);
    append(
        &mut s,
        &(user("u20", "new prompt") + &say("a20", "new answer")),
    );
    assert_eq!(s.selected, before, "the selection did not move");
    assert_eq!(s.unseen, 2);
    assert!(screen(&mut s, 100, 20).contains("↓ 2 new"));
    perform_action(&mut s, Action::Follow);
    assert!(s.follow);
    assert_eq!(s.selected + 1, s.rows.len());
    assert!(!screen(&mut s, 100, 20).contains("new ·"));
}

#[test]
fn a_running_call_shows_elapsed_time_then_its_result() {
    let mut s = viewer(&conversation(1));
    append(&mut s, &call("c1", "t1", "sleep 5"));
    let shot = screen(&mut s, 100, 20);
    assert!(shot.contains("running… 5s"), "{shot}");
    assert!(s.running_on_screen());
    s.tick(T0_MS + 9_000);
    let shot = screen(&mut s, 100, 20);
    assert!(shot.contains("running… 9s"), "the tick redraws it: {shot}");
    append(&mut s, &result("r1", "t1", "done"));
    let shot = screen(&mut s, 100, 20);
    assert!(!shot.contains("running"), "{shot}");
    assert!(!s.running_on_screen());
}

#[test]
fn an_expanded_group_stays_expanded_as_rows_arrive() {
    let mut s = viewer(&(conversation(1) + &call("c1", "t1", "ls") + &result("r1", "t1", "a\nb")));
    common::select_first_tool_row(&mut s);
    perform_action(&mut s, Action::Toggle);
    let open = s.expanded.clone();
    assert!(!open.is_empty());
    append(&mut s, &(user("u5", "next") + &call("c2", "t2", "pwd")));
    assert_eq!(s.expanded, open);
    append(&mut s, &result("r2", "t2", "/"));
    assert_eq!(s.expanded, open);
}

#[test]
fn a_rewritten_file_is_reloaded_keeping_the_place_and_folds() {
    let text =
        conversation(8) + &call("c1", "t1", "ls") + &result("r1", "t1", "x") + &conversation(1);
    let mut s = viewer(&text);
    // select the prompt "prompt 3" and open the tool row
    let tool = s
        .rows
        .iter()
        .position(|r| {
            r.fold(&s.session)
                .is_some_and(|f| !matches!(f, Fold::Agent(_)))
        })
        .expect("a foldable row");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(tool));
    perform_action(&mut s, Action::Toggle);
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(6));
    let chosen = s.session.main.items[s.rows[s.selected].index as usize]
        .uuid
        .clone();
    assert!(!s.follow);

    s.on_live(&LiveEvent::Truncated { source: 0 });
    s.absorb();
    assert!(s.session.main.items.is_empty());
    assert!(s.message.as_deref().unwrap_or("").contains("reloading"));
    // the follower re-reads everything, in pieces
    let (a, b) = text.split_at(text.len() / 2);
    append(&mut s, a);
    append(&mut s, b);
    s.on_live(&LiveEvent::Reloaded);
    s.absorb();
    let now = s.session.main.items[s.rows[s.selected].index as usize]
        .uuid
        .clone();
    assert_eq!(now, chosen, "the same entry is selected again");
    assert_eq!(s.expanded.len(), 1, "the open fold is open again");
    assert!(!s.rows.is_empty());
}

#[test]
fn a_deleted_file_keeps_what_was_read() {
    let mut s = viewer(&conversation(2));
    let rows = s.rows.len();
    s.on_live(&LiveEvent::Deleted { source: 0 });
    s.absorb();
    assert_eq!(s.rows.len(), rows);
    assert!(s.live.ended);
    let shot = screen(&mut s, 120, 20);
    assert!(shot.contains("was deleted"), "{shot}");
}

#[test]
fn a_newer_session_is_offered_and_opened_with_a_key() {
    let mut s = viewer(&conversation(1));
    s.on_live(&LiveEvent::NewSession {
        path: "/p/new-session.jsonl".into(),
    });
    s.absorb();
    let shot = screen(&mut s, 120, 20);
    assert!(shot.contains("newer session"), "{shot}");
    perform_action(&mut s, Action::OpenNewer);
    assert_eq!(
        s.requests,
        vec![Request::Open("/p/new-session.jsonl".into())]
    );
    s.requests.clear();
    perform_action(&mut s, Action::GoBack);
    assert!(s.requests.is_empty(), "nothing to go back to yet");
}

#[test]
fn stdin_end_is_reported() {
    let mut s = State::new(Session::new(None));
    s.live.attached = true;
    s.on_live(&LiveEvent::Appended {
        source: 0,
        bytes: user("u1", "from a pipe").into_bytes(),
    });
    s.on_live(&LiveEvent::StdinEof);
    s.absorb();
    assert!(s.live.ended);
    assert_eq!(s.rows.len(), 1);
    assert!(screen(&mut s, 100, 10).contains("from a pipe"));
}

#[test]
fn search_hits_grow_with_appends() {
    let mut s = viewer(&conversation(2));
    perform_action(&mut s, Action::SearchStart);
    for c in "needle".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    assert!(s.search.hits.is_empty());
    append(&mut s, &say("a7", "a needle here"));
    assert_eq!(s.search.hits.len(), 1);
}

fn copied(s: &mut State) -> String {
    match s.requests.pop() {
        Some(Request::Copy(t)) => t.text,
        other => panic!("expected a copy request, got {other:?}"),
    }
}

#[test]
fn y_copies_the_selected_row_and_a_group_copies_all_its_calls() {
    let text = conversation(1)
        + &call("c1", "t1", "ls")
        + &result("r1", "t1", "file-a")
        + &call("c2", "t2", "pwd")
        + &result("r2", "t2", "/home")
        + &say("a9", "done");
    let mut s = viewer(&text);
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Copy);
    let t = copied(&mut s);
    assert!(t.starts_with("[User]\nprompt 0"), "{t}");
    assert!(!t.contains("[Assistant]"));

    let g = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. }))
        .expect("a group row");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(g));
    perform_action(&mut s, Action::Copy);
    let t = copied(&mut s);
    for want in [
        "[Tool Call] Bash",
        "ls",
        "file-a",
        "pwd",
        "/home",
        "[Tool Result]",
    ] {
        assert!(t.contains(want), "{want:?} missing from {t}");
    }
    assert!(!t.contains("[User]") && !t.contains("done"), "{t}");
}

#[test]
fn v_selects_a_range_and_y_copies_it() {
    let mut s = viewer(&conversation(4));
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(2));
    perform_action(&mut s, Action::Visual);
    assert!(screen(&mut s, 100, 20).contains("VISUAL 1 row "));
    perform_action(&mut s, Action::Down(2));
    assert!(screen(&mut s, 100, 20).contains("VISUAL 3 rows"));
    perform_action(&mut s, Action::Copy);
    let t = copied(&mut s);
    assert_eq!(s.mode, ccv::app::Mode::Normal, "copying ends the selection");
    assert!(
        t.contains("prompt 1") && t.contains("answer 1") && t.contains("prompt 2"),
        "{t}"
    );
    assert!(!t.contains("prompt 0") && !t.contains("answer 2"), "{t}");
    // Esc leaves visual mode without quitting
    perform_action(&mut s, Action::Visual);
    perform_action(&mut s, Action::Back);
    assert_eq!(s.mode, ccv::app::Mode::Normal);
    assert!(!s.quit);
}

#[test]
fn shift_y_copies_the_transcript_as_filtered_and_e_asks_for_a_file() {
    let text = conversation(1) + &call("c1", "t1", "ls") + &result("r1", "t1", "file-a");
    let mut s = viewer(&text);
    perform_action(&mut s, Action::CopyAll);
    let t = copied(&mut s);
    assert!(
        t.contains("[User]") && t.contains("[Tool Call] Bash"),
        "{t}"
    );
    perform_action(&mut s, Action::ToggleTools);
    perform_action(&mut s, Action::CopyAll);
    let t = copied(&mut s);
    assert!(t.contains("[User]") && !t.contains("[Tool Call]"), "{t}");
    perform_action(&mut s, Action::ExportMarkdown);
    assert_eq!(s.requests, vec![Request::ExportMarkdown]);
}

#[test]
fn copy_format_markdown_is_an_option() {
    let mut s = viewer(&conversation(1));
    s.copy_format = ccv::export::Format::Markdown;
    perform_action(&mut s, Action::CopyAll);
    let t = copied(&mut s);
    assert!(!t.contains("[User]"), "{t}");
    assert!(t.contains("prompt 0"));
}

#[test]
fn a_subagent_file_appearing_while_following_hangs_under_its_call() {
    let task = line(
        json!({"type":"assistant","uuid":"c1","timestamp":T0,"sessionId":"s",
        "message":{"id":"m-c1","role":"assistant","content":[
            {"type":"tool_use","id":"t1","name":"Task","input":{"description":"review","prompt":"review it","subagent_type":"general-purpose"}}]}}),
    );
    let mut s = viewer(&(conversation(1) + &task));
    subagent_found_saying(&mut s, "review it");
    let sub = line(
        json!({"type":"assistant","uuid":"s2","parentUuid":"s1","timestamp":T0,"sessionId":"s","isSidechain":true,"agentId":"abc",
        "message":{"id":"m-s2","role":"assistant","content":[{"type":"text","text":"looks fine"}]}}),
    );
    s.on_live(&LiveEvent::Appended {
        source: 1,
        bytes: sub.into_bytes(),
    });
    s.absorb();
    let result = line(
        json!({"type":"user","uuid":"r1","timestamp":"2025-03-01T10:00:09Z","sessionId":"s",
        "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"looks fine"}]},
        "toolUseResult":{"agentId":"abc","status":"completed","content":[{"type":"text","text":"looks fine"}],"totalToolUseCount":0}}),
    );
    append(&mut s, &result);
    let subagent_rows: Vec<_> = s
        .rows
        .iter()
        .filter(|r| matches!(r.kind, RowKind::Subagent { .. }))
        .collect();
    assert_eq!(subagent_rows.len(), 1, "one subagent row: {:?}", s.rows);
    assert!(subagent_rows[0].depth > 0, "it hangs under the call");
    // the same rows as a fresh view of the same session
    let mut fresh = State::new(std::mem::replace(&mut s.session, Session::new(None)));
    fresh.follow = true;
    assert_eq!(fresh.rows, s.rows);
}

#[test]
fn r_asks_to_resume_the_session_in_its_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path().to_string_lossy().into_owned();
    let first = line(
        json!({"type":"user","uuid":"u1","timestamp":T0,"sessionId":"0b1c2d3e-aaaa-bbbb-cccc-1234567890ab",
        "cwd":cwd,"message":{"role":"user","content":"hi"}}),
    );
    let mut s = viewer(&first);
    perform_action(&mut s, Action::Resume);
    assert_eq!(
        s.requests,
        vec![Request::Resume {
            id: "0b1c2d3e-aaaa-bbbb-cccc-1234567890ab".into(),
            cwd: Some(cwd),
            format: None,
        }]
    );
    // an id that is not one (it would go to a shell) is refused
    let odd = line(
        json!({"type":"user","uuid":"u1","timestamp":T0,"sessionId":"x; rm -rf ~",
        "message":{"role":"user","content":"hi"}}),
    );
    let mut s = State::new(Session::new(None));
    s.session.feed(0, odd.as_bytes());
    perform_action(&mut s, Action::Resume);
    assert!(s.requests.is_empty());
}

#[test]
fn a_call_without_result_for_hours_is_not_running_and_needs_no_tick() {
    let mut s = viewer(&(conversation(1) + &call("c1", "t1", "sleep 99999")));
    let _ = screen(&mut s, 100, 20);
    assert!(s.running_on_screen());
    s.tick(T0_MS + 7 * 3600 * 1000);
    let shot = screen(&mut s, 100, 20);
    assert!(!s.running_on_screen(), "no 1 Hz redraw for a dead call");
    assert!(shot.contains("no result"), "{shot}");
}

#[test]
fn a_prompt_shows_what_its_turn_took_as_the_turn_goes_on() {
    let mut s = viewer(&user("u1", "make it faster"));
    let answer = line(
        json!({"type":"assistant","uuid":"a1","timestamp":T0,"sessionId":"s",
        "message":{"id":"m-a1","role":"assistant","content":[{"type":"text","text":"done"}],
        "usage":{"input_tokens":10,"output_tokens":1500}}}),
    );
    append(&mut s, &answer);
    let shot = screen(&mut s, 100, 10);
    assert!(shot.contains("make it faster  · ↓ 1.5k tok"), "{shot}");
    let took = line(
        json!({"type":"system","subtype":"turn_duration","durationMs":151000,
        "uuid":"d1","timestamp":T0,"sessionId":"s"}),
    );
    append(&mut s, &took);
    let shot = screen(&mut s, 100, 10);
    assert!(shot.contains("· 2m31s · ↓ 1.5k tok"), "{shot}");
}

#[test]
fn appending_after_a_group_that_starts_on_an_abandoned_branch_keeps_rows_right() {
    // a3, a5 and a6 were left by a retry (a4 forks from u1 again), yet
    // a5, a6 and a4 make one run of tool calls; then the session goes on
    // from a4
    let tool = |uuid: &str, parent: &str, id: &str| {
        line(
            json!({"type":"assistant","uuid":uuid,"parentUuid":parent,"timestamp":T0,"sessionId":"s",
            "message":{"id":format!("m-{uuid}"),"role":"assistant","content":[
                {"type":"tool_use","id":id,"name":"Bash","input":{"command":"ls"}}]}}),
        )
    };
    let think = line(
        json!({"type":"assistant","uuid":"a6","parentUuid":"a5","timestamp":T0,"sessionId":"s",
        "message":{"id":"m-a6","role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"x"}]}}),
    );
    let first = line(
        json!({"type":"user","uuid":"u1","timestamp":T0,"sessionId":"s",
        "message":{"role":"user","content":"go"}}),
    );
    let said = line(
        json!({"type":"assistant","uuid":"a3","parentUuid":"u1","timestamp":T0,"sessionId":"s",
        "message":{"id":"m-a3","role":"assistant","content":[{"type":"text","text":"first try"}]}}),
    );
    let text = first + &said + &tool("a5", "a3", "t5") + &think + &tool("a4", "u1", "t4");
    let mut s = viewer(&text);
    let next = line(
        json!({"type":"user","uuid":"u2","parentUuid":"a4","timestamp":T0,"sessionId":"s",
        "message":{"role":"user","content":"and now?"}}),
    );
    append(&mut s, &next);
    let kept = s.rows.clone();
    s.rebuild();
    assert_eq!(
        kept, s.rows,
        "rows kept piecemeal equal rows derived afresh"
    );
}

#[test]
fn a_group_that_starts_on_an_abandoned_branch_opens_and_closes() {
    let tool = |uuid: &str, parent: &str, id: &str| {
        line(
            json!({"type":"assistant","uuid":uuid,"parentUuid":parent,"timestamp":T0,"sessionId":"s",
            "message":{"id":format!("m-{uuid}"),"role":"assistant","content":[
                {"type":"tool_use","id":id,"name":"Bash","input":{"command":format!("run {uuid}")}}]}}),
        )
    };
    let first = line(
        json!({"type":"user","uuid":"u1","timestamp":T0,"sessionId":"s",
        "message":{"role":"user","content":"go"}}),
    );
    // a5 was left (a4 forks from u1 again); a5, a4 and a7 are one run of calls
    let text = first + &tool("a5", "u1", "t5") + &tool("a4", "u1", "t4") + &tool("a7", "a4", "t7");
    let mut s = viewer(&text);
    let header = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. }))
        .expect("the group's header on the main line");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(header));
    perform_action(&mut s, Action::Toggle);
    let shot = screen(&mut s, 100, 20);
    assert!(
        shot.contains("run a4") && shot.contains("run a7"),
        "open:\n{shot}"
    );
    let kept = s.rows.clone();
    s.rebuild();
    assert_eq!(kept, s.rows);
    perform_action(&mut s, Action::Toggle);
    let shot = screen(&mut s, 100, 20);
    assert!(!shot.contains("run a7"), "closed again:\n{shot}");
    let kept = s.rows.clone();
    s.rebuild();
    assert_eq!(kept, s.rows);
}

/// A change that builds the rows again (here a call written after its
/// result, which it then takes in) makes a search held be made again:
/// between frames, without moving the selection to a match, and with the
/// matches a search from the start finds.
#[test]
fn a_search_held_is_made_again_when_the_rows_are_built_again() {
    let text = conversation(3) + &say("n1", "a needle here") + &conversation(2);
    let mut s = viewer(&text);
    perform_action(&mut s, Action::SearchStart);
    for c in "needle".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    assert_eq!(s.search.hits.len(), 1);
    perform_action(&mut s, Action::Top);
    let at = |s: &State| {
        let r = &s.rows[s.selected];
        (r.agent, r.index, std::mem::discriminant(&r.kind))
    };
    let before = at(&s);
    s.message = None;
    append(&mut s, &result("r9", "t9", "needle in its output"));
    append(&mut s, &call("c9", "t9", "grep needle"));
    while s.search_step(std::time::Duration::from_millis(50)) {}
    assert_eq!(at(&s), before, "the selection stayed: {:?}", s.message);
    assert!(
        !s.message.as_deref().unwrap_or("").starts_with("searching"),
        "{:?}",
        s.message
    );
    let all = ccv::app::search::find_all(&s.session, "needle");
    assert_eq!(s.search.hits, all);
    assert_eq!(all.len(), 2, "the answer and the call taking its result");
    // n goes on from the selection
    perform_action(&mut s, Action::NextMatch);
    assert_eq!(s.search.current, Some(0));
}

/// The file of subagent `abc` found while following, its prompt `prompt`
/// written to it.
fn subagent_found_saying(s: &mut State, prompt: &str) {
    s.on_live(&LiveEvent::NewSubagent {
        source: 1,
        path: "/tmp/s/subagents/agent-abc.jsonl".into(),
        agent_id: "abc".into(),
        meta: None,
    });
    let sub = line(
        json!({"type":"user","uuid":"s1","timestamp":T0,"sessionId":"s","isSidechain":true,"agentId":"abc",
        "message":{"role":"user","content":prompt}}),
    );
    s.on_live(&LiveEvent::Appended {
        source: 1,
        bytes: sub.into_bytes(),
    });
    s.absorb();
}

/// A search held finds what arrives in rows already shown: a call's result
/// written after the call (the usual order), and a subagent's steps under
/// its call. Before, only new rows were searched: a match in an output
/// that came after its call was found by no `n` until the search was made
/// again.
#[test]
fn a_search_held_finds_what_arrives_in_rows_already_shown() {
    let task = line(
        json!({"type":"assistant","uuid":"c2","parentUuid":"c1","timestamp":T0,"sessionId":"s",
        "message":{"id":"m-c2","role":"assistant","content":[
            {"type":"tool_use","id":"t2","name":"Task","input":{"description":"review","prompt":"review it","subagent_type":"general-purpose"}}]}}),
    );
    let mut s = viewer(&(conversation(2) + &call("c1", "t1", "cargo test") + &task));
    perform_action(&mut s, Action::SearchStart);
    for c in "needle".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    assert!(s.search.hits.is_empty());
    append(&mut s, &result("r1", "t1", "test needle ... FAILED"));
    assert_eq!(s.search.hits.len(), 1, "the call's output");
    // the subagent its Task call started, its file found while following
    subagent_found_saying(&mut s, "review it");
    let result_line = line(
        json!({"type":"user","uuid":"r2","parentUuid":"c2","timestamp":"2025-03-01T10:00:09Z","sessionId":"s",
        "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"done"}]},
        "toolUseResult":{"agentId":"abc","status":"completed","content":[{"type":"text","text":"done"}],"totalToolUseCount":0}}),
    );
    append(&mut s, &result_line);
    while s.search_step(std::time::Duration::from_millis(50)) {}
    let step = line(
        json!({"type":"assistant","uuid":"s2","parentUuid":"s1","timestamp":T0,"sessionId":"s","isSidechain":true,"agentId":"abc",
        "message":{"id":"m-s2","role":"assistant","content":[{"type":"text","text":"found a needle in it"}]}}),
    );
    s.on_live(&LiveEvent::Appended {
        source: 1,
        bytes: step.into_bytes(),
    });
    s.absorb();
    while s.search_step(std::time::Duration::from_millis(50)) {}
    assert_eq!(
        s.search.hits,
        ccv::app::search::find_all(&s.session, "needle")
    );
    assert_eq!(s.search.hits.len(), 2, "and the subagent's answer");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::NextMatch);
    perform_action(&mut s, Action::NextMatch);
    assert_eq!(s.search.current, Some(1));
    let r = &s.rows[s.selected];
    assert!(r.agent.is_some(), "n went into the subagent: {r:?}");
}

/// A search of a session whose only rows are a subagent's that no call
/// links to (its main file still empty) finds them: the search went
/// through the main rows a slice at a time, and with none it ended before
/// the slice that takes in such subagents.
#[test]
fn a_search_finds_a_subagent_when_the_main_file_is_empty() {
    let mut s = viewer("");
    subagent_found_saying(&mut s, "look for the needle");
    assert!(s.begin_search("needle".into()));
    while s.search_step(std::time::Duration::from_millis(50)) {}
    assert_eq!(s.search.hits.len(), 1, "{:?}", s.message);
    assert_eq!(
        s.search.hits,
        ccv::app::search::find_all(&s.session, "needle")
    );
}

/// The screen drawn from the lines kept frame to frame, checked against
/// the screen drawn afresh.
fn same_as_fresh(s: &mut State) -> String {
    perform_action(s, Action::ExpandAll);
    let kept = screen(s, 100, 16);
    crate::common::forget_lines();
    let fresh = screen(s, 100, 16);
    assert_eq!(kept, fresh, "the lines kept drifted from the session");
    fresh
}

/// What a row shows may change with no line of its own: the session's
/// folder moved (its calls' paths are shown from it), a line's missing
/// parent came (its mark goes), the file was deleted while a call ran (it
/// runs no more). Each row is drawn again; before, the lines kept from
/// an earlier frame stayed on screen.
#[test]
fn rows_are_drawn_again_when_what_they_show_changes_elsewhere() {
    let read = |uuid: &str, parent: &str, cwd: &str| {
        entry::call(
            uuid,
            &format!("m-{uuid}"),
            &format!("t-{uuid}"),
            "Read",
            json!({"file_path": "/srv/app/src/lib.rs"}),
        )
        .parent(parent)
        .cwd(cwd)
        .at(T0)
        .session("s")
        .line_nl()
    };
    let first = entry::user("u1", "look")
        .at(T0)
        .session("s")
        .cwd("/srv/app")
        .line_nl();
    let mut s = viewer(&(first + &read("c1", "u1", "/srv/app")));
    s.follow = true;
    assert!(same_as_fresh(&mut s).contains("src/lib.rs · running"));
    // the folder moves: the path is shown whole
    append(&mut s, &result("r1", "t-c1", "fn main() {}"));
    let shot = same_as_fresh(&mut s);
    assert!(shot.contains(" src/lib.rs"), "{shot}");
    append(&mut s, &read("c2", "r1", "/tmp"));
    let shot = same_as_fresh(&mut s);
    assert!(shot.contains("/srv/app/src/lib.rs"), "{shot}");
    // a line whose parent is not there yet is marked, then no longer
    let late = entry::user("u3", "and then")
        .parent("x9")
        .at(T0)
        .session("s")
        .line_nl();
    append(&mut s, &late);
    assert!(same_as_fresh(&mut s).contains("⚠"));
    let parent = entry::user("x9", "first")
        .parent("c2")
        .at(T0)
        .session("s")
        .line_nl();
    append(&mut s, &parent);
    assert!(!same_as_fresh(&mut s).contains("⚠"));
    // the file is deleted while a call runs: it runs no more
    append(&mut s, &read("c4", "u3", "/tmp"));
    assert!(same_as_fresh(&mut s).contains("running"));
    s.on_live(&LiveEvent::Deleted { source: 0 });
    s.absorb();
    assert!(!same_as_fresh(&mut s).contains("running"));
}

/// A chain written backwards marks each line (its parent is not there
/// yet) and unmarks it (the parent came): more rows than are worth telling
/// one by one, so the change says to draw every row, holding no list of
/// them all.
#[test]
fn marks_changed_on_many_rows_at_once_draw_every_row() {
    let mut session = Session::new(Some("/tmp/s.jsonl".into()));
    let text: String = (0..5000)
        .rev()
        .map(|i| {
            let parent = (i > 0).then(|| format!("u{}", i - 1));
            entry::user(&format!("u{i}"), "x")
                .parent_or_root(parent.as_deref())
                .at(T0)
                .session("s")
                .line_nl()
        })
        .collect();
    session.feed(0, text.as_bytes());
    let c = session.take_changes();
    assert!(c.restyled);
    assert!(c.updated.len() < 4096, "{}", c.updated.len());
    assert_eq!(session.marks(), &session.marks_from_scratch());
    // and the next change is told row by row again
    session.feed(0, user("late", "one more").as_bytes());
    let c = session.take_changes();
    assert!(!c.restyled);
}

/// A tool group that begins on the main line holds its members left on an
/// earlier branch (the walk shows them in the group): a line appended
/// after such a member keeps the rows the walk from the top gives. The
/// member's own run was taken for the unit, a branch row put where the
/// group goes on.
#[test]
fn an_append_after_a_groups_member_on_a_left_branch_keeps_the_rows() {
    let call = |uuid: &str, parent: &str, msg: &str, id: &str| {
        entry::call(uuid, msg, id, "Read", json!({"file_path": "/x"}))
            .model("m")
            .parent(parent)
            .session("s1")
            .line()
    };
    let text = [
        entry::user("u1", "go")
            .parent_or_root(None)
            .session("s1")
            .line(),
        call("c1", "u1", "m1", "t1"),
        // a call answered from the first, then the conversation went on
        // from the first call (a line with nothing to show is its leaf)
        call("c2", "c1", "m2", "t2"),
    ]
    .join("\n")
        + "\n"
        + &line(
            json!({"type":"assistant","uuid":"x1","parentUuid":"c1","sessionId":"s1","message":{"id":"m3","role":"assistant","model":"m","content":[]}}),
        );
    let mut s = viewer(&text);
    s.rebuild();
    let off: Vec<bool> = s.session.main.items.iter().map(|i| i.off_branch).collect();
    assert_eq!(off, [false, false, true], "{:?}", s.session.main.items);
    append(
        &mut s,
        &line(
            json!({"type":"system","subtype":"informational","uuid":"y1","parentUuid":"x1","sessionId":"s1","content":"Compacting soon","level":"info"}),
        ),
    );
    let kept = s.rows.clone();
    s.rebuild();
    assert_eq!(kept, s.rows);
}
