//! Lines of newer Claude Code versions, shaped like real ones: attachments
//! that carry content, new bookkeeping entry kinds, `continued-in`,
//! `document` blocks, a subagent's file opened on its own and
//! `agent_progress` copies that are the only record of a subagent.

use crate::common;

use ccv::app::{Action, Request, State, perform_action};
use ccv::export::Format;
use ccv::model::{Kind, Session};
use common::{assistant_line, exported, screen_text, session_of, user_line};
use serde_json::{Value, json};

fn attachment(uuid: &str, a: Value) -> Value {
    json!({"type":"attachment","uuid":uuid,"parentUuid":"u1","isSidechain":false,"sessionId":"s",
        "timestamp":"2026-10-01T10:00:03.000Z","attachment":a})
}

fn accounted(s: &Session) {
    let st = &s.stats;
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries, "{st:?}");
}

fn texts(s: &Session, kind: Kind) -> Vec<String> {
    s.main
        .items
        .iter()
        .filter(|i| i.kind == kind)
        .map(|i| i.text.or_marker().to_owned())
        .collect()
}

#[test]
fn attachments_with_content_are_meta_rows_and_bookkeeping_is_counted() {
    let s = session_of(&[
        user_line("u1", json!("fix the build")),
        attachment(
            "a1",
            json!({"type":"hook_success","hookName":"PostToolUse:Edit","hookEvent":"PostToolUse",
            "stdout":"formatted 2 files","stderr":"","exitCode":0,"command":"fmt.sh","durationMs":40}),
        ),
        attachment(
            "a2",
            json!({"type":"hook_success","hookName":"Stop","hookEvent":"Stop","stdout":"","stderr":"","exitCode":0}),
        ),
        attachment(
            "a3",
            json!({"type":"skill_listing","content":"- a skill\n- another","skillCount":2}),
        ),
        attachment(
            "a4",
            json!({"type":"hook_system_message","hookName":"Stop","hookEvent":"Stop","content":"remember to push","toolUseID":"x"}),
        ),
        attachment(
            "a5",
            json!({"type":"diagnostics","files":[{"uri":"file:///r/a.go","diagnostics":[{"message":"unused x","severity":"Warning","range":{"start":{"line":3,"character":1}}}]}],"isNew":true}),
        ),
        attachment(
            "a6",
            json!({"type":"edited_text_file","filename":"/r/notes.md","snippet":"1→new line"}),
        ),
        attachment(
            "a7",
            json!({"type":"plan_mode_exit","planFilePath":"/h/.claude/plans/p.md","planExists":true}),
        ),
        attachment(
            "a8",
            json!({"type":"task_status","taskId":"b1","status":"completed","description":"run tests"}),
        ),
        attachment(
            "a9",
            json!({"type":"a_kind_from_next_month","note":"something to read"}),
        ),
        attachment(
            "a10",
            json!({"type":"hook_blocking_error","hookName":"Stop","hookEvent":"Stop",
            "blockingError":{"blockingError":"tests must pass first","command":"check.sh"}}),
        ),
    ]);
    accounted(&s);
    let meta = texts(&s, Kind::Meta);
    let has = |needle: &str| meta.iter().any(|t| t.contains(needle));
    assert!(has("formatted 2 files") && has("$ fmt.sh"), "{meta:#?}");
    assert!(has("remember to push"), "{meta:#?}");
    assert!(has("/r/a.go:4 Warning unused x"), "{meta:#?}");
    assert!(has("File changed outside Claude: /r/notes.md"), "{meta:#?}");
    assert!(has("Plan accepted"), "{meta:#?}");
    assert!(has("Task b1 · completed · run tests"), "{meta:#?}");
    assert!(has("something to read"), "{meta:#?}");
    assert_eq!(meta.len(), 7, "{meta:#?}");
    // a failing hook is an error row, shown whatever the filter
    let errors: Vec<_> = s.main.items.iter().filter(|i| i.flags.error).collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].text.or_marker().contains("tests must pass first"));
    // the silent hook and the listing: hidden, and counted
    assert_eq!(
        s.stats.hidden_by_reason.get("hook without output"),
        Some(&1)
    );
    assert_eq!(s.stats.hidden_by_reason.get("attachment"), Some(&1));
    assert!(texts(&s, Kind::Unknown).is_empty());
}

#[test]
fn meta_rows_follow_the_meta_filter() {
    let s = session_of(&[
        user_line("u1", json!("hi")),
        attachment(
            "a1",
            json!({"type":"hook_success","hookName":"SessionStart","hookEvent":"SessionStart","stdout":"loaded notes","exitCode":0}),
        ),
    ]);
    let mut st = State::new(s);
    assert!(!screen_text(&mut st, 100, 12).contains("Hook SessionStart"));
    perform_action(&mut st, Action::ToggleMeta);
    let screen = screen_text(&mut st, 100, 12);
    assert!(screen.contains("Hook SessionStart"), "{screen}");
}

#[test]
fn newer_entry_kinds_are_not_unknown_rows() {
    let s = session_of(&[
        json!({"type":"atis-latch","atis":"","sessionId":"s"}),
        json!({"type":"bridge-session","sessionId":"s","bridgeSessionId":"cse_01","lastSequenceNum":0}),
        json!({"type":"file-history-delta","sessionId":"s"}),
        user_line("u1", json!("hi")),
        json!({"type":"cost-state","sessionId":"s","totalCostUSD":0.5,"modelUsage":{}}),
        json!({"type":"cost-state","sessionId":"s","totalCostUSD":1.25,"totalLinesAdded":3,"modelUsage":{}}),
        json!({"type":"frame-link","sessionId":"s","path":"/tmp/hero.html","frameUrl":"https://claude.ai/code/artifact/1","title":"Hero"}),
    ]);
    accounted(&s);
    assert!(
        texts(&s, Kind::Unknown).is_empty(),
        "{:?}",
        texts(&s, Kind::Unknown)
    );
    assert_eq!(s.meta.cost_usd, Some(1.25));
    let meta = texts(&s, Kind::Meta);
    assert_eq!(
        meta,
        vec!["Artifact published: Hero · https://claude.ai/code/artifact/1 · /tmp/hero.html"]
    );
    assert_eq!(s.stats.hidden_by_reason.get("bookkeeping"), Some(&3));
}

/// The record kinds of Claude Code 2.1.2xx's session state (its table
/// of them, as other readers transcribe it) are none of them unknown rows;
/// a context collapse is a system row of its summary.
#[test]
fn the_session_state_records_of_2_1_2xx_are_known() {
    let mut lines = vec![user_line("u1", json!("hi"))];
    let bookkeeping = [
        "marble-origami-snapshot",
        "marble-origami-reset",
        "content-replacement",
        "fork-context-ref",
        "attribution-snapshot",
        "isolation-latch",
        "observer-ref",
        "relocated",
        "speculation-accept",
    ];
    let metadata = ["agent-color", "ended-by-model", "task-summary"];
    for k in bookkeeping.iter().chain(&metadata) {
        lines.push(json!({"type": k, "sessionId": "s", "replacements": [{"a": 1}]}));
    }
    lines.push(
        json!({"type":"marble-origami-commit","sessionId":"s","collapseId":"c1",
        "summaryUuid":"x","summary":"Set up the repo","summaryContent":"Cloned it; the tests pass.",
        "firstArchivedUuid":"u1","lastArchivedUuid":"u1"}),
    );
    lines.push(json!({"type":"marble-origami-commit","sessionId":"s","summary":7}));
    let s = session_of(&lines);
    accounted(&s);
    assert!(
        texts(&s, Kind::Unknown).is_empty(),
        "{:?}",
        texts(&s, Kind::Unknown)
    );
    assert_eq!(
        s.stats.hidden_by_reason.get("bookkeeping"),
        Some(&(bookkeeping.len() as u64))
    );
    assert_eq!(
        s.stats.hidden_by_reason.get("metadata"),
        Some(&(metadata.len() as u64))
    );
    assert_eq!(
        texts(&s, Kind::System),
        vec![
            "Context collapsed: Set up the repo\n\nCloned it; the tests pass.",
            "Context collapsed"
        ]
    );
}

#[test]
fn continued_in_is_shown_and_offered_by_the_newer_key() {
    let dir = tempfile::tempdir().expect("tmp");
    let old = dir.path().join("old-session.jsonl");
    let next = dir.path().join("next-session.jsonl");
    let lines = [
        user_line("u1", json!("hi")),
        json!({"type":"continued-in","sessionId":"old-session","continuedInSessionId":"next-session"}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&old, body).expect("write");
    std::fs::write(&next, format!("{}\n", user_line("v1", json!("more")))).expect("write");
    let s = ccv::source::claude::loader::load_with_subagents(&old).expect("load");
    assert_eq!(s.meta.continued_in.as_deref(), Some("next-session"));
    let rows = texts(&s, Kind::System);
    assert_eq!(rows, vec!["Continued in session next-session"]);
    let mut st = State::new(s);
    // shown without the meta filter, and the status bar offers `>`
    let screen = screen_text(&mut st, 120, 12);
    assert!(
        screen.contains("Continued in session next-session"),
        "{screen}"
    );
    assert!(screen.contains("continued: >"), "{screen}");
    perform_action(&mut st, Action::OpenNewer);
    assert!(
        matches!(st.requests.last(), Some(Request::Open(p)) if *p == next),
        "{:?}",
        st.requests.len()
    );
}

#[test]
fn a_continued_in_id_cannot_name_a_path() {
    let s = session_of(&[
        user_line("u1", json!("hi")),
        json!({"type":"continued-in","sessionId":"s","continuedInSessionId":"../../etc/passwd"}),
    ]);
    assert_eq!(s.meta.continued_in, None);
    accounted(&s);
}

#[test]
fn document_blocks_show_title_type_and_size() {
    let data = "A".repeat(4000);
    let s = session_of(&[
        user_line(
            "u1",
            json!([{"type":"document","title":"report.pdf","source":{"type":"base64","media_type":"application/pdf","data":data}},
                   {"type":"text","text":"summarise this"}]),
        ),
        assistant_line(
            "a1",
            "m1",
            json!([{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/r/notes.txt"}}]),
        ),
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":"t1","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"hello"}}]}]}}),
    ]);
    let user = texts(&s, Kind::User);
    assert_eq!(
        user,
        vec!["[document \"report.pdf\" · application/pdf · 3 KB]\nsummarise this"]
    );
    let out = exported(&s, Format::Text);
    assert!(out.contains("[document text/plain · 5 B]"), "{out}");
    assert!(!out.contains("document block"), "{out}");
}

fn agent_line(kind: &str, uuid: &str, parent: Option<&str>, content: Value) -> Value {
    let mut v = json!({"type":kind,"uuid":uuid,"parentUuid":parent,"isSidechain":true,"agentId":"a7f3",
        "sessionId":"main-1","cwd":"/home/bob/app","version":"2.1.30","timestamp":"2026-10-01T10:00:00.000Z",
        "message":{"role":kind,"content":content}});
    if kind == "assistant" {
        v["message"]["id"] = json!(format!("msg_{uuid}"));
        v["message"]["model"] = json!("claude-haiku-4-5");
        v["message"]["usage"] = json!({"input_tokens":10,"output_tokens":20});
    }
    v
}

fn write_lines(path: &std::path::Path, lines: &[Value]) {
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, body).expect("write");
}

/// A subagent's own file: its prompt and its answer.
fn write_lone_agent(file: &std::path::Path) {
    write_lines(
        file,
        &[
            agent_line("user", "s1", None, json!("Find where the config is read")),
            agent_line(
                "assistant",
                "s2",
                Some("s1"),
                json!([{"type":"text","text":"In src/config.rs"}]),
            ),
        ],
    );
}

#[test]
fn a_subagent_file_opened_alone_is_the_main_transcript() {
    let dir = tempfile::tempdir().expect("tmp");
    let sub = dir.path().join("main-1").join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let file = sub.join("agent-a7f3.jsonl");
    write_lone_agent(&file);
    // without the meta file: its prompt names it
    let s = ccv::source::claude::loader::load_with_subagents(&file).expect("load");
    assert_eq!(texts(&s, Kind::User), vec!["Find where the config is read"]);
    assert_eq!(texts(&s, Kind::Assistant), vec!["In src/config.rs"]);
    assert_eq!(s.title(), Some("Find where the config is read"));
    assert_eq!(s.meta.model.as_deref(), Some("claude-haiku-4-5"));
    assert_eq!(s.meta.cwd.as_deref(), Some("/home/bob/app"));
    assert_eq!(s.meta.agent_id.as_deref(), Some("a7f3"));
    assert!(s.main.totals.output_tokens > 0);
    // with it: the description of the call that started it
    std::fs::write(
        sub.join("agent-a7f3.meta.json"),
        r#"{"agentType":"Explore","description":"Locate config loading"}"#,
    )
    .expect("write");
    let s = ccv::source::claude::loader::load_with_subagents(&file).expect("load");
    assert_eq!(s.title(), Some("Locate config loading"));
    // the same lines under another name (a copy) read the same way
    let copy = dir.path().join("copied.jsonl");
    std::fs::copy(&file, &copy).expect("copy");
    let s = ccv::source::claude::loader::load_with_subagents(&copy).expect("load");
    assert_eq!(texts(&s, Kind::Assistant), vec!["In src/config.rs"]);
}

fn main_with_progress() -> Vec<Value> {
    let progress = |uuid: &str, msg: Value| {
        json!({"type":"progress","uuid":uuid,"parentUuid":"a1","isSidechain":false,"sessionId":"main-1",
            "timestamp":"2026-10-01T10:00:02.000Z","toolUseID":format!("agent_msg_{uuid}"),"parentToolUseID":"toolu_task",
            "data":{"type":"agent_progress","agentId":"a7f3","prompt":"Find where the config is read","normalizedMessages":[],"message":msg}})
    };
    vec![
        json!({"type":"user","uuid":"u1","parentUuid":null,"sessionId":"main-1","timestamp":"2026-10-01T10:00:00.000Z",
            "message":{"role":"user","content":"where is the config read?"}}),
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"main-1","timestamp":"2026-10-01T10:00:01.000Z",
            "message":{"id":"msg_main","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_task","name":"Task",
            "input":{"description":"Locate config loading","prompt":"Find where the config is read","subagent_type":"Explore"}}]}}),
        progress(
            "p1",
            json!({"type":"user","uuid":"s1","timestamp":"2026-10-01T10:00:02.000Z","message":{"role":"user","content":[{"type":"text","text":"Find where the config is read"}]}}),
        ),
        progress(
            "p2",
            json!({"type":"assistant","uuid":"s2","timestamp":"2026-10-01T10:00:03.000Z","message":{"id":"msg_s2","role":"assistant","model":"claude-haiku-4-5",
                "content":[{"type":"tool_use","id":"toolu_grep","name":"Grep","input":{"pattern":"config"}}],"usage":{"input_tokens":5,"output_tokens":7}}}),
        ),
        progress(
            "p3",
            json!({"type":"user","uuid":"s3","timestamp":"2026-10-01T10:00:04.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_grep","content":"src/config.rs:3"}]}}),
        ),
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"main-1","timestamp":"2026-10-01T10:00:05.000Z",
            "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task","content":"In src/config.rs"}]},
            "toolUseResult":{"status":"completed","agentId":"a7f3","content":[{"type":"text","text":"In src/config.rs"}]}}),
    ]
}

#[test]
fn agent_progress_is_the_record_when_nothing_else_is() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("main-1.jsonl");
    write_lines(&file, &main_with_progress());
    let s = ccv::source::claude::loader::load_with_subagents(&file).expect("load");
    accounted(&s);
    let a = s.agent_by_id("a7f3").expect("agent");
    let agent = &s.agents[a as usize];
    assert!(agent.mirrored);
    assert!(agent.call.is_some(), "linked to its Task call");
    let kinds: Vec<Kind> = agent.transcript.items.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, vec![Kind::User, Kind::ToolCall]);
    let call = common::first_call(&agent.transcript);
    assert_eq!(
        call.result.as_ref().and_then(|r| r.text.get()),
        Some("src/config.rs:3")
    );
    // the header counts its tokens apart from the session's own
    let mut st = State::new(s);
    let screen = screen_text(&mut st, 160, 10);
    assert!(screen.contains("in agents"), "{screen}");
}

#[test]
fn agent_progress_is_hidden_when_the_subagent_has_its_file() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("main-1.jsonl");
    write_lines(&file, &main_with_progress());
    let sub = dir.path().join("main-1").join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    write_lines(
        &sub.join("agent-a7f3.jsonl"),
        &[
            agent_line("user", "s1", None, json!("Find where the config is read")),
            agent_line(
                "assistant",
                "s2",
                Some("s1"),
                json!([{"type":"tool_use","id":"toolu_grep","name":"Grep","input":{"pattern":"config"}}]),
            ),
        ],
    );
    let s = ccv::source::claude::loader::load_with_subagents(&file).expect("load");
    accounted(&s);
    let a = s.agent_by_id("a7f3").expect("agent");
    let agent = &s.agents[a as usize];
    assert!(!agent.mirrored);
    let calls = agent
        .transcript
        .items
        .iter()
        .filter(|i| i.kind == Kind::ToolCall)
        .count();
    assert_eq!(calls, 1, "once, from its own file");
    assert_eq!(s.stats.hidden_by_reason.get("agent_progress"), Some(&3));
}

#[test]
fn the_header_says_a_lone_file_is_a_subagent() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("agent-a7f3.jsonl");
    write_lone_agent(&file);
    let s = ccv::source::claude::loader::load_with_subagents(&file).expect("load");
    let mut st = State::new(s);
    let screen = screen_text(&mut st, 160, 8);
    assert!(screen.contains("subagent a7f3"), "{screen}");
    assert!(screen.contains("1 prompt"), "{screen}");
}

/// A session whose Bash call's output Claude Code saved apart, in a file
/// `s.jsonl` of `dir`; `id` is the call's.
fn saved_apart_session(dir: &std::path::Path, id: &str) -> Session {
    let wrapper = format!(
        "<persisted-output>\nOutput too large (57.9KB). Full output saved to: /Users/a/.claude/projects/-x/s/tool-results/{id}.txt\n\nPreview (first 2KB):\nfirst line of it\n\u{1b}]0;retitled\u{7}second line\n...\n</persisted-output>"
    );
    let lines = [
        user_line("u1", json!("list the comments")),
        assistant_line(
            "a1",
            "msg_1",
            json!([{"type":"tool_use","id":id,"name":"Bash","input":{"command":"gh api comments"}}]),
        ),
        user_line(
            "u2",
            json!([{"type":"tool_result","tool_use_id":id,"content":wrapper}]),
        ),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let path = dir.join("s.jsonl");
    std::fs::write(&path, body).expect("write");
    ccv::source::claude::loader::load_with_subagents(&path).expect("load")
}

#[test]
fn an_output_saved_apart_shows_what_claude_read_and_f_opens_the_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = saved_apart_session(dir.path(), "toolu_01Ld");
    let (mut st, screen) = common::last_call_opened(s, 120, 20);
    assert!(screen.contains("57.9KB saved apart"), "{screen}");
    assert!(
        screen.contains("output saved apart by Claude Code (57.9KB): Claude read the part below"),
        "{screen}"
    );
    assert!(screen.contains("first line of it"), "{screen}");
    assert!(!screen.contains("persisted-output"), "{screen}");
    assert!(!screen.contains("Preview (first 2KB)"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
    let want = dir.path().join("s/tool-results/toolu_01Ld.txt");
    perform_action(&mut st, Action::EditFile);
    match st.requests.last() {
        Some(Request::EditSaved { file, recorded }) => {
            assert_eq!(file.as_deref(), Some(want.as_path()));
            assert!(recorded.ends_with("tool-results/toolu_01Ld.txt"));
        }
        other => panic!("{other:?}"),
    }
    // `c o`: the shell copies the whole from the same file
    perform_action(
        &mut st,
        Action::Pending(ccv::app::action::Pending::CopyPart),
    );
    perform_action(&mut st, Action::PendingKey('o'));
    match st.requests.last() {
        Some(Request::CopySaved { file, read }) => {
            assert_eq!(file.as_deref(), Some(want.as_path()));
            assert!(read.starts_with("<persisted-output>"), "{read}");
        }
        other => panic!("{other:?}"),
    }
    // the export keeps the text as Claude read it; the page heads the
    // part Claude read as the viewer does
    let s = saved_apart_session(dir.path(), "toolu_01Ld");
    assert!(exported(&s, Format::Text).contains("<persisted-output>"));
    // search reads what the row shows: the part Claude read
    let r = common::first_call(&s.main).result.as_ref().expect("result");
    let searched = r.search_text();
    assert!(searched.contains("first line of it"), "{searched}");
    assert!(!searched.contains("persisted") && !searched.contains("too large"));
    let mut page = Vec::new();
    let opts = ccv::export::Options {
        format: Format::Html,
        ..ccv::export::Options::default()
    };
    ccv::html::write(&s, &opts, ccv::walk::Filters::all(), &mut page).expect("page");
    let page = String::from_utf8(page).expect("utf-8");
    assert!(
        page.contains("<div class=\"note\">output saved apart by Claude Code (57.9KB): Claude read the part below</div>"),
        "{page}"
    );
    assert!(page.contains("first line of it"), "{page}");
    assert!(!page.contains("persisted-output"), "{page}");
    assert!(!page.contains('\u{1b}'));
}

/// `/` finds a word of the whole output, which the row's preview does
/// not show (`n` goes to the call, where `F` opens the whole), never
/// through a link, and a preview's word as before.
#[test]
fn the_viewers_search_looks_in_the_whole_of_an_output_saved_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = saved_apart_session(dir.path(), "toolu_01Ld");
    assert!(ccv::app::search::find_all(&s, "zebrawhole").is_empty());
    let saved = dir.path().join("s/tool-results");
    std::fs::create_dir_all(&saved).expect("mkdir");
    let whole = format!(
        "first line of it\n{}the zebrawhole at its end\n",
        "more output\n".repeat(5000)
    );
    std::fs::write(saved.join("toolu_01Ld.txt"), &whole).expect("write");
    let s = saved_apart_session(dir.path(), "toolu_01Ld");
    let hits = ccv::app::search::find_all(&s, "zebrawhole");
    assert_eq!(hits.len(), 1, "{hits:?}");
    // with a word of the session's own: both found in one row
    assert_eq!(
        ccv::app::search::find_all(&s, "zebrawhole comments").len(),
        1
    );
    assert_eq!(ccv::app::search::find_all(&s, "first line").len(), 1);
    // a link in its place is not followed
    let elsewhere = dir.path().join("elsewhere.txt");
    std::fs::rename(saved.join("toolu_01Ld.txt"), &elsewhere).expect("move");
    std::os::unix::fs::symlink(&elsewhere, saved.join("toolu_01Ld.txt")).expect("link");
    let s = saved_apart_session(dir.path(), "toolu_01Ld");
    assert!(ccv::app::search::find_all(&s, "zebrawhole").is_empty());
}

#[test]
fn a_saved_output_of_a_call_id_that_could_leave_the_folder_opens_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = saved_apart_session(dir.path(), "../../../etc/passwd");
    let (mut st, _) = common::last_call_opened(s, 120, 20);
    perform_action(&mut st, Action::EditFile);
    assert!(
        matches!(
            st.requests.last(),
            Some(Request::EditSaved { file: None, .. })
        ),
        "{:?}",
        st.requests.len()
    );
}

#[test]
fn a_saved_output_whose_call_is_not_in_the_file_shows_what_claude_read() {
    let wrapper = "<persisted-output>\nOutput too large (31KB). Full output saved to: /x/tool-results/t9.txt\n\nPreview (first 2KB):\nthe part Claude read\n...\n</persisted-output>";
    let s = session_of(&[
        user_line("u1", json!("go on")),
        user_line(
            "u2",
            json!([{"type":"tool_result","tool_use_id":"t9","content":wrapper}]),
        ),
    ]);
    let mut st = State::new(s);
    // folded: the first line Claude read
    let screen = screen_text(&mut st, 120, 12);
    assert!(
        screen.contains("Tool Result the part Claude read"),
        "{screen}"
    );
    perform_action(&mut st, Action::Top);
    perform_action(&mut st, Action::Down(1));
    perform_action(&mut st, Action::Toggle);
    let screen = screen_text(&mut st, 120, 12);
    assert!(
        screen.contains("output saved apart by Claude Code (31KB): Claude read the part below"),
        "{screen}"
    );
    assert!(screen.contains("the part Claude read"), "{screen}");
    assert!(!screen.contains("persisted-output"), "{screen}");
    // cut where Claude Code cut it, as a call's result says
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.contains("the part Claude read"))
        .expect("the preview");
    assert_eq!(lines.get(at + 1).map(|l| l.trim()), Some("…"), "{screen}");
}
