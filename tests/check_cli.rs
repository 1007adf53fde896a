//! `ccv check`: findings with line numbers, and exit codes, through the
//! built binary and through `Session::findings`.

use ccv::model::Session;
use ccv::model::check::FindingKind;

const CLEAN: &str = r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/x"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}
"#;

const BROKEN: &str = r#"{"type":"user","uuid":"u1","parentUuid":"gone","sessionId":"s1","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","uuid":"r9","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t404","content":"?"}]}}
not json
{"type":"user","uuid":"u1","parentUuid":"a1","sessionId":"s2","message":{"role":"user","content":"again"}}
{"type":"user","uuid":"c1","parentUuid":"c2","sessionId":"s1","message":{"role":"user","content":"loop"}}
{"type":"user","uuid":"c2","parentUuid":"c1","sessionId":"s1","message":{"role":"user","content":"loop"}}
"#;

fn session(text: &str) -> Session {
    let mut s = Session::new(None);
    s.feed(0, text.as_bytes());
    s.finish(0);
    s
}

use crate::common;

#[test]
fn findings_name_each_problem_and_its_line() {
    let s = session(BROKEN);
    let f = s.findings(false);
    let got: Vec<(u32, FindingKind)> = f.iter().map(|f| (f.line, f.kind)).collect();
    assert!(got.contains(&(1, FindingKind::DanglingParent)), "{got:?}");
    assert!(got.contains(&(2, FindingKind::NoResult)), "{got:?}");
    assert!(
        got.contains(&(3, FindingKind::ResultWithoutCall)),
        "{got:?}"
    );
    assert!(got.contains(&(4, FindingKind::Unreadable)), "{got:?}");
    assert!(got.contains(&(5, FindingKind::RepeatedUuid)), "{got:?}");
    assert!(got.contains(&(5, FindingKind::SeveralSessions)), "{got:?}");
    assert!(got.contains(&(6, FindingKind::Cycle)), "{got:?}");
    // The TUI can mark the rows concerned.
    let call = f
        .iter()
        .find(|f| f.kind == FindingKind::NoResult)
        .and_then(|f| f.item_id);
    assert!(call.is_some_and(|id| s.main.index_of(id).is_some()));
    // A file still being written: the call is running, not broken.
    assert!(
        s.findings(true)
            .iter()
            .any(|f| f.kind == FindingKind::StillRunning && f.line == 2)
    );
    assert!(session(CLEAN).findings(false).is_empty());
}

#[test]
fn exit_codes_through_the_binary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = dir.path().join("clean.jsonl");
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&clean, CLEAN).expect("write");
    std::fs::write(&broken, BROKEN).expect("write");
    let ccv = || common::ccv_at(dir.path());
    let out = ccv().arg("check").arg(&clean).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());

    let out = ccv().arg("check").arg(&broken).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let prefix = format!("{}:2: tool call Bash t1", broken.display());
    assert!(text.lines().any(|l| l.starts_with(&prefix)), "{text}");
    assert!(text.contains(":4: unreadable line"), "{text}");

    let out = ccv()
        .args(["check", "--json"])
        .arg(&broken)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json finding"))
        .collect();
    assert!(rows.iter().any(|r| r["kind"] == "cycle" && r["line"] == 6));
    assert!(rows.iter().all(|r| r["file"].as_str().is_some()));

    let out = ccv()
        .arg("check")
        .arg(dir.path().join("missing.jsonl"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn corpus_files_check_without_crashing() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut clean = 0;
    let mut total = 0;
    for p in files {
        let s = ccv::source::claude::loader::load_with_subagents(&p).expect("loads");
        total += 1;
        clean += usize::from(s.findings(false).is_empty());
    }
    eprintln!("{clean} of {total} corpus files are clean");
    assert!(total == 0 || clean > 0);
}

/// A line shown only after a repair (a byte that is no UTF-8, a count
/// that is no number) is said by the check, which then is not clean: the
/// row shows less than the line holds.
#[test]
fn a_line_read_after_a_repair_is_a_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("repaired.jsonl");
    let mut bytes = CLEAN.as_bytes().to_vec();
    let at = bytes
        .windows(4)
        .position(|w| w == b"\"hi\"")
        .expect("prompt");
    bytes[at + 1] = 0xff;
    bytes.extend_from_slice(
        br#"{"type":"assistant","uuid":"a2","parentUuid":"r1","sessionId":"s1","message":{"id":"m2","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":"many","output_tokens":5}}}"#,
    );
    bytes.push(b'\n');
    // a time that is none (shown without one), with an escape to keep
    bytes.extend_from_slice(
        br#"{"type":"user","uuid":"u5","parentUuid":"a2","sessionId":"s1","timestamp":"yesterday\u001b]0;x","message":{"role":"user","content":"again"}}"#,
    );
    bytes.push(b'\n');
    std::fs::write(&path, &bytes).expect("write");
    let out = common::ccv_at(dir.path())
        .arg("check")
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(":1: line read after a repair: invalid UTF-8"),
        "{text}"
    );
    assert!(
        text.contains(":4: line read after a repair: field message.usage.input_tokens"),
        "{text}"
    );
    assert!(
        text.contains(":5: line read after a repair: timestamp \"yesterday"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "{text}");
    // and no more than that: the lines are shown
    assert_eq!(text.lines().count(), 3, "{text}");
}

/// A Task's result that names a subagent whose transcript is not here is
/// a finding on the result's line (its rows and cost are missing); with
/// the subagent's file beside the session, it is not.
#[test]
fn a_subagent_whose_transcript_is_not_here_is_a_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let text = r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"look"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"description":"look","prompt":"look around"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"found"}]},"toolUseResult":{"status":"completed","agentId":"a5e1"}}
"#;
    std::fs::write(&path, text).expect("write");
    let check = || {
        common::ccv_at(dir.path())
            .args(["check", "--json"])
            .arg(&path)
            .output()
            .expect("runs")
    };
    let out = check();
    assert_eq!(out.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json finding"))
        .collect();
    assert!(
        rows.iter()
            .any(|r| r["kind"] == "agent_not_found" && r["line"] == 3),
        "{rows:?}"
    );
    let agents = dir.path().join("s/subagents");
    std::fs::create_dir_all(&agents).expect("mkdir");
    std::fs::write(
        agents.join("agent-a5e1.jsonl"),
        r#"{"type":"assistant","uuid":"x1","sessionId":"s","agentId":"a5e1","isSidechain":true,"message":{"id":"mx","role":"assistant","content":[{"type":"text","text":"found"}]}}
"#,
    )
    .expect("write");
    let out = check();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("agent_not_found"), "{text}");
}

/// What a person at a terminal reads after the findings (on stderr, a
/// terminal's only): how many, and where every line went.
#[test]
fn the_summary_says_where_every_line_went() {
    let s = session(concat!(
        r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}"#,
        "\n",
        r#"{"type":"progress","uuid":"p1","parentUuid":"u1","data":{"type":"hook_progress"}}"#,
        "\n",
        r#"{"type":"file-history-snapshot","messageId":"x","snapshot":{}}"#,
        "\n",
        r#"{"type":"progress","uuid":"p2","parentUuid":"u1","data":{"type":"hook_progress"}}"#,
        "\n",
        "{broken\n",
    ));
    let findings = s.findings(false);
    assert_eq!(
        ccv::check::summary(&s, findings.len()),
        "1 finding · 5 lines read: 1 shown, 3 hidden (2 progress, 1 file-history-snapshot), 1 unreadable"
    );
    assert!(ccv::check::summary(&s, 0).starts_with("no findings · "));
}
