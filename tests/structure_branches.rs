//! Branches: which rows lie on a branch the user left (rewind, edited
//! prompt, retry), from generated JSONL.

use crate::common::entry;
use ccv::model::{Kind, Session};

fn user(uuid: &str, parent: Option<&str>, text: &str) -> String {
    entry::user(uuid, text)
        .parent_or_root(parent)
        .session("s1")
        .at("2025-01-01T00:00:00Z")
        .line()
}

fn assistant(uuid: &str, parent: &str, msg: &str, text: &str) -> String {
    entry::text_answer(uuid, msg, text)
        .model("m")
        .parent(parent)
        .session("s1")
        .at("2025-01-01T00:00:01Z")
        .line()
}

fn tool_use(uuid: &str, parent: &str, msg: &str, id: &str) -> String {
    entry::call(
        uuid,
        msg,
        id,
        "Read",
        serde_json::json!({"file_path": "/x"}),
    )
    .model("m")
    .parent(parent)
    .session("s1")
    .line()
}

fn result(uuid: &str, parent: &str, id: &str) -> String {
    entry::result(uuid, id, "ok")
        .parent(parent)
        .session("s1")
        .line()
}

fn progress(uuid: &str, parent: &str) -> String {
    format!(
        r#"{{"type":"progress","uuid":"{uuid}","parentUuid":"{parent}","sessionId":"s1","data":{{"type":"hook_progress"}},"toolUseID":"t","parentToolUseID":"t"}}"#
    )
}

fn load(lines: &[String]) -> Session {
    let mut s = Session::new(None);
    let text = lines.join("\n") + "\n";
    s.feed(0, text.as_bytes());
    s.finish(0);
    s
}

/// (text of the row, off_branch) for text rows.
fn rows(s: &Session) -> Vec<(String, bool)> {
    s.main
        .items
        .iter()
        .filter(|i| matches!(i.kind, Kind::User | Kind::Assistant))
        .map(|i| (i.text.or_marker().to_owned(), i.off_branch))
        .collect()
}

fn off_texts(s: &Session) -> Vec<String> {
    rows(s).into_iter().filter(|r| r.1).map(|r| r.0).collect()
}

#[test]
fn edited_prompt_leaves_the_older_branch_off() {
    let s = load(&[
        user("u1", None, "first"),
        assistant("a1", "u1", "m1", "reply one"),
        user("u2", Some("a1"), "old prompt"),
        assistant("a2", "u2", "m2", "old reply"),
        user("u3", Some("a1"), "edited prompt"),
        assistant("a3", "u3", "m3", "new reply"),
    ]);
    assert_eq!(off_texts(&s), ["old prompt", "old reply"]);
    assert_eq!(s.main.off_branch_count(), 2);
}

#[test]
fn retried_reply_is_off_branch() {
    let s = load(&[
        user("u1", None, "hi"),
        assistant("a1", "u1", "m1", "first try"),
        assistant("a2", "u1", "m2", "second try"),
    ]);
    assert_eq!(off_texts(&s), ["first try"]);
}

#[test]
fn parallel_results_and_progress_forks_are_not_branches() {
    let s = load(&[
        user("u1", None, "read two files"),
        tool_use("a1", "u1", "m1", "t1"),
        tool_use("a2", "a1", "m1", "t2"),
        progress("p1", "a1"),
        result("r1", "a1", "t1"),
        result("r2", "a2", "t2"),
        assistant("a3", "r2", "m2", "both read"),
        progress("p2", "a3"),
        user("u2", Some("a3"), "thanks"),
    ]);
    assert!(s.main.items.iter().all(|i| !i.off_branch), "{:?}", rows(&s));
    let calls = s
        .main
        .items
        .iter()
        .filter(|i| i.kind == Kind::ToolCall)
        .count();
    assert_eq!(calls, 2);
}

#[test]
fn message_lines_that_fork_stay_together() {
    // Streaming tool execution: a result written between lines of one
    // message, and a second line of the message hanging off the first.
    let s = load(&[
        user("u1", None, "go"),
        tool_use("a1", "u1", "m1", "t1"),
        result("r1", "a1", "t1"),
        tool_use("a2", "a1", "m1", "t2"),
        result("r2", "a2", "t2"),
        assistant("a3", "r2", "m2", "done"),
    ]);
    assert_eq!(s.main.off_branch_count(), 0);
}

#[test]
fn history_before_a_compaction_stays_on_branch() {
    let boundary = r#"{"type":"system","subtype":"compact_boundary","uuid":"b1","parentUuid":null,"logicalParentUuid":"a1","sessionId":"s1","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":1000}}"#;
    let summary = r#"{"type":"user","uuid":"c1","parentUuid":"b1","sessionId":"s1","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"message":{"role":"user","content":"This session is being continued from a previous conversation"}}"#;
    let s = load(&[
        user("u1", None, "before"),
        assistant("a1", "u1", "m1", "old answer"),
        boundary.to_owned(),
        summary.to_owned(),
        user("u2", Some("c1"), "after"),
        assistant("a2", "u2", "m2", "new answer"),
    ]);
    assert_eq!(s.main.off_branch_count(), 0);
    assert!(s.main.items.iter().any(|i| i.kind == Kind::Compaction));
}

#[test]
fn a_cleared_conversation_keeps_its_own_chain() {
    // `/clear` starts a second root: the first conversation is not a branch
    // the user left; its own rewinds still are.
    let s = load(&[
        user("u1", None, "one"),
        assistant("a1", "u1", "m1", "r1"),
        user("u2", Some("a1"), "abandoned"),
        user("u3", Some("a1"), "kept"),
        user("v1", None, "after clear"),
        assistant("b1", "v1", "m9", "r9"),
    ]);
    assert_eq!(off_texts(&s), ["abandoned"]);
}

#[test]
fn leaf_uuid_of_last_prompt_picks_the_branch() {
    // Back on an older branch (a resume that picked its leaf): the later
    // branch in file order is the one left.
    let last_prompt =
        r#"{"type":"last-prompt","lastPrompt":"old","leafUuid":"a2","sessionId":"s1"}"#;
    let s = load(&[
        user("u1", None, "first"),
        assistant("a1", "u1", "m1", "kept"),
        user("u2", Some("a1"), "old"),
        assistant("a2", "u2", "m2", "old reply"),
        user("u3", Some("a1"), "newer"),
        assistant("a3", "u3", "m3", "newer reply"),
        last_prompt.to_owned(),
    ]);
    assert_eq!(off_texts(&s), ["newer", "newer reply"]);
    // A leafUuid behind the newest line of its own chain changes nothing
    // (it may lag a line), and a prompt written after it wins.
    let lagging = r#"{"type":"last-prompt","lastPrompt":"first","leafUuid":"u1","sessionId":"s1"}"#;
    let s = load(&[
        user("u1", None, "first"),
        assistant("a1", "u1", "m1", "kept"),
        lagging.to_owned(),
        user("u2", Some("a1"), "next"),
    ]);
    assert_eq!(s.main.off_branch_count(), 0);
}

#[test]
fn appends_without_a_fork_do_not_rebuild() {
    let mut s = Session::new(None);
    let lines = [
        user("u1", None, "hi"),
        assistant("a1", "u1", "m1", "hello"),
        progress("p1", "a1"),
        user("u2", Some("a1"), "more"),
        assistant("a2", "u2", "m2", "sure"),
    ];
    for l in &lines {
        s.feed(0, format!("{l}\n").as_bytes());
        assert!(!s.take_changes().rebuilt, "rebuilt after {l}");
    }
    // An edited prompt: the old branch folds, views must re-derive.
    s.feed(
        0,
        format!("{}\n", user("u3", Some("a1"), "edited")).as_bytes(),
    );
    let c = s.take_changes();
    assert!(c.rebuilt);
    assert_eq!(off_texts(&s), ["more", "sure"]);
    // Going on from the edited prompt changes nothing earlier.
    s.feed(
        0,
        format!("{}\n", assistant("a3", "u3", "m3", "ok")).as_bytes(),
    );
    assert!(!s.take_changes().rebuilt);
    assert_eq!(off_texts(&s), ["more", "sure"]);
}

#[test]
fn same_result_fed_byte_by_byte_or_at_once() {
    let lines = [
        user("u1", None, "a"),
        assistant("a1", "u1", "m1", "b"),
        user("u2", Some("a1"), "c"),
        user("u3", Some("a1"), "d"),
        assistant("a3", "u3", "m3", "e"),
    ];
    let whole = load(&lines);
    let mut s = Session::new(None);
    let text = lines.join("\n") + "\n";
    for b in text.as_bytes() {
        s.feed(0, std::slice::from_ref(b));
    }
    assert_eq!(rows(&s), rows(&whole));
}

#[test]
fn a_real_rewind_in_the_corpus_is_folded() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    let name = "kfischer-okarin__scripts-and-tools__src__claude-history__test__fixtures__claude-projects__-Users-user-project__b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl";
    let path = std::path::Path::new(dir).join(name);
    if !path.exists() {
        eprintln!("skipped: {} is absent", path.display());
        return;
    }
    let s = Session::load(&path).expect("corpus file loads");
    // Two checkpoint rewinds: lines 28-33 and 35-41 were left.
    let off: Vec<u32> = s
        .main
        .items
        .iter()
        .filter(|i| i.off_branch)
        .map(|i| i.line)
        .collect();
    assert!(!off.is_empty());
    assert!(off.iter().all(|l| (28..=41).contains(l)), "{off:?}");
    assert!(
        s.main
            .items
            .iter()
            .filter(|i| i.line >= 43)
            .all(|i| !i.off_branch)
    );
}

/// A subagent's own file read with its session: the fork in it is folded
/// when the read's batch ends (each agent's threads join the batch when
/// a line first reaches them), in every one of many agents.
#[test]
fn a_fork_in_a_subagents_file_is_folded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let main = dir.path().join("s1.jsonl");
    let sub = dir.path().join("s1").join("subagents");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let agents = 40;
    let mut lines = vec![user("u0", None, "spawn")];
    for n in 0..agents {
        lines.push(format!(
            r#"{{"type":"assistant","uuid":"c{n}","parentUuid":"u0","sessionId":"s1","message":{{"id":"mc{n}","role":"assistant","model":"m","content":[{{"type":"tool_use","id":"t{n}","name":"Task","input":{{"prompt":"job {n}"}}}}]}}}}"#
        ));
        let side = |uuid: &str, parent: Option<&str>, role: &str, text: &str| {
            let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
            let message = if role == "user" {
                format!(r#"{{"role":"user","content":"{text}"}}"#)
            } else {
                format!(
                    r#"{{"id":"m{uuid}","role":"assistant","model":"m","content":[{{"type":"text","text":"{text}"}}]}}"#
                )
            };
            format!(
                r#"{{"type":"{role}","uuid":"{uuid}","parentUuid":{parent},"isSidechain":true,"agentId":"a{n}","sessionId":"s1","message":{message}}}"#
            )
        };
        // (line, its parent, role, text): the prompt at 3 edited at 5
        let job = format!("job {n}");
        let steps = [
            (1, None, "user", job.as_str()),
            (2, Some(1), "assistant", "reply one"),
            (3, Some(2), "user", "old prompt"),
            (4, Some(3), "assistant", "old reply"),
            (5, Some(2), "user", "edited prompt"),
            (6, Some(5), "assistant", "new reply"),
        ];
        let file: Vec<String> = steps
            .iter()
            .map(|(k, parent, role, text)| {
                let parent = parent.map(|p| format!("x{n}-{p}"));
                side(&format!("x{n}-{k}"), parent.as_deref(), role, text)
            })
            .collect();
        std::fs::write(
            sub.join(format!("agent-a{n}.jsonl")),
            file.join("\n") + "\n",
        )
        .expect("write");
    }
    std::fs::write(&main, lines.join("\n") + "\n").expect("write");
    let s = ccv::source::claude::loader::load_with_subagents(&main).expect("loads");
    assert_eq!(s.agents.len(), agents);
    for a in &s.agents {
        let off: Vec<&str> = a
            .transcript
            .items
            .iter()
            .filter(|i| i.off_branch)
            .map(|i| i.text.or_marker())
            .collect();
        assert_eq!(off, ["old prompt", "old reply"]);
    }
}

/// A line of a kind ccv does not know yet (Claude Code adds some every
/// month), or of one it hides, that carries a uuid is a link of the
/// chain: the lines under it are neither a new conversation nor a parent
/// missing, and a rewind past it leaves what came after it off the branch.
#[test]
fn a_line_of_an_unknown_kind_is_a_link_of_the_chain() {
    let novel = |uuid: &str, parent: &str| {
        format!(
            r#"{{"type":"teammate-note","uuid":"{uuid}","parentUuid":"{parent}","sessionId":"s1","timestamp":"2025-01-01T00:00:02Z","note":{{"text":"from a teammate"}}}}"#
        )
    };
    // and a kind ccv knows and hides (the harness's bookkeeping)
    let kept = r#"{"type":"cost-state","uuid":"k1","parentUuid":"u2","sessionId":"s1","totalCostUsd":0.5}"#;
    let s = load(&[
        user("u1", None, "first"),
        assistant("a1", "u1", "m1", "reply one"),
        novel("x1", "a1"),
        user("u2", Some("x1"), "second"),
        kept.to_owned(),
        assistant("a2", "k1", "m2", "reply two"),
    ]);
    assert!(off_texts(&s).is_empty(), "{:?}", rows(&s));
    let findings: Vec<_> = s.findings(false).into_iter().map(|f| f.message).collect();
    assert!(findings.is_empty(), "{findings:?}");
    assert!(
        s.main.items.iter().any(|i| i.kind == Kind::Unknown),
        "the line is still shown"
    );
    let s = load(&[
        user("u1", None, "first"),
        assistant("a1", "u1", "m1", "reply one"),
        novel("x1", "a1"),
        user("u2", Some("x1"), "old prompt"),
        assistant("a2", "u2", "m2", "old reply"),
        user("u3", Some("a1"), "edited prompt"),
        assistant("a3", "u3", "m3", "new reply"),
    ]);
    assert_eq!(off_texts(&s), ["old prompt", "old reply"]);
}

/// In an inline sidechain (a subagent's lines in the main file, as
/// Claude Code 1.0 wrote them), a line of an unknown kind is a row of the
/// subagent's transcript, and the chain goes on through it there.
#[test]
fn an_unknown_line_of_an_inline_sidechain_is_its_agents() {
    let side = |kind: &str, uuid: &str, parent: &str, body: &str| {
        format!(
            r#"{{"type":"{kind}","uuid":"{uuid}","parentUuid":{parent},"isSidechain":true,"sessionId":"s1","timestamp":"2025-01-01T00:00:03Z"{body}}}"#
        )
    };
    let s = load(&[
        user("u1", None, "look into it"),
        side(
            "user",
            "s1",
            "null",
            r#","message":{"role":"user","content":"find the bug"}"#,
        ),
        side(
            "teammate-note",
            "s2",
            r#""s1""#,
            r#","note":"from the lead""#,
        ),
        side(
            "assistant",
            "s3",
            r#""s2""#,
            r#","message":{"id":"ms","role":"assistant","model":"m","content":[{"type":"text","text":"it is in lexer.rs"}]}"#,
        ),
        assistant("a1", "u1", "m1", "done"),
    ]);
    assert!(
        s.main.items.iter().all(|i| i.kind != Kind::Unknown),
        "not in the main transcript: {:?}",
        rows(&s)
    );
    let agent: Vec<Kind> = s
        .agents
        .iter()
        .flat_map(|a| a.transcript.items.iter().map(|i| i.kind))
        .collect();
    assert_eq!(agent, [Kind::User, Kind::Unknown, Kind::Assistant]);
    let findings: Vec<_> = s.findings(false).into_iter().map(|f| f.message).collect();
    assert!(findings.is_empty(), "{findings:?}");
}
