//! Codex sessions beside Claude Code's: one listing of both by default,
//! which agent wrote each, `--agent`, `ccv top`, sub-agents read with the
//! session that spawned them, and the layout ccv does not read counted
//! as such.

use crate::codex::{ID, codex_tree};
use crate::common;
use crate::common::jsonl::{assistant, line, text, user};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A Claude Code session in `home`'s projects root.
fn claude_tree(home: &Path) -> PathBuf {
    let dir = home.join("claude/projects/-srv-blog");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let f = dir.join("c1.jsonl");
    let lines = [
        line("user", "u1", "", 0, user("Write the release notes")),
        line("assistant", "a1", "u1", 1, assistant("m1", text("Done."))),
    ];
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    f
}

fn agents_of(rows: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = rows
        .iter()
        .map(|r| r["agent"].as_str().unwrap_or("?").to_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn the_default_listing_holds_every_agents_sessions() {
    let home = tempfile::tempdir().expect("tempdir");
    claude_tree(home.path());
    codex_tree(home.path());
    // no root: Claude Code's projects root and $CODEX_HOME/sessions
    let rows = common::json_lines_of(common::ccv_at(home.path()).args(["list", "--json"]));
    assert_eq!(agents_of(&rows), ["claude", "codex"], "{rows:?}");
    let only = |agent: &str| {
        common::json_lines_of(
            common::ccv_at(home.path()).args(["list", "--json", "--agent", agent]),
        )
    };
    let codex = only("codex");
    assert_eq!(codex.len(), 1);
    assert_eq!(codex[0]["session_id"], ID);
    assert_eq!(agents_of(&only("claude")), ["claude"]);
    common::ccv_at(home.path())
        .args(["list", "--agent", "gemini"])
        .assert()
        .code(2);
    // the table for scripts says which agent, in its last column
    let out = common::ccv_at(home.path())
        .arg("list")
        .output()
        .expect("list");
    let tsv = String::from_utf8_lossy(&out.stdout);
    let mut lines = tsv.lines();
    assert!(
        lines.next().is_some_and(|h| h.ends_with("\tagent")),
        "{tsv}"
    );
    let mut last: Vec<&str> = lines.filter_map(|l| l.rsplit('\t').next()).collect();
    last.sort();
    assert_eq!(last, ["claude", "codex"], "{tsv}");
    // a search of every session finds a word of the Codex one
    let out = common::ccv_at(home.path())
        .args(["search", "--json", "quantize"])
        .output()
        .expect("search");
    assert!(String::from_utf8_lossy(&out.stdout).contains(ID));
    // stats count both
    let out = common::ccv_at(home.path())
        .args(["stats", "--json"])
        .output()
        .expect("stats");
    let stats: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(stats["sessions"], 2, "{stats}");
    assert_eq!(stats["tokens"]["input"], 1800, "{stats}");
    // a root given is that root alone
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(home.path().join("codex/sessions")),
    );
    assert_eq!(agents_of(&rows), ["codex"]);
}

#[test]
fn ccv_top_watches_codex_sessions_too() {
    let home = tempfile::tempdir().expect("tempdir");
    claude_tree(home.path());
    let file = codex_tree(home.path());
    // both files were written just now: both are in the window
    common::as_if_written_now(&home.path().join("claude/projects/-srv-blog/c1.jsonl"));
    common::as_if_written_now(&file);
    let out = common::ccv_at(home.path())
        .arg("top")
        .output()
        .expect("top");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&*file.to_string_lossy()), "{said}");
    assert!(said.contains("c1.jsonl"), "{said}");
    // its project is the session's directory, not its date folder
    let row = said
        .lines()
        .find(|l| l.contains(ID))
        .expect("the Codex row");
    assert!(row.contains("/srv/shop"), "{row}");
}

const PARENT: &str = "019a0000-aaaa-7222-8333-444455556666";

/// A session that spawned a sub-agent (`spawn_agent`, whose output names
/// the thread), and the sub-agent's own rollout, as Codex 0.118 writes
/// them.
fn spawned_tree(home: &Path, with_parent: bool) -> (PathBuf, PathBuf) {
    let day = home.join("codex/sessions/2026/04/10");
    std::fs::create_dir_all(&day).expect("mkdir");
    let env = |t: &str, ty: &str, p: Value| {
        json!({"timestamp": format!("2026-04-10T15:{t}.000Z"), "type": ty, "payload": p})
            .to_string()
    };
    let usage = |i: u64, o: u64| json!({"input_tokens": i, "cached_input_tokens": 0, "output_tokens": o, "reasoning_output_tokens": 0, "total_tokens": i + o});
    let count = |t: &str, i: u64, o: u64| {
        env(
            t,
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": usage(i, o), "last_token_usage": usage(i, o)}}),
        )
    };
    let parent = [
        env(
            "50:00",
            "session_meta",
            json!({"id": PARENT, "cwd": "/srv/vault", "cli_version": "0.118.0", "source": "cli"}),
        ),
        env(
            "50:01",
            "turn_context",
            json!({"cwd": "/srv/vault", "model": "gpt-5.4"}),
        ),
        env(
            "50:02",
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Find the stray files"}]}),
        ),
        env(
            "50:03",
            "response_item",
            json!({"type": "function_call", "name": "spawn_agent", "arguments": json!({"message": "List files named desktop.ini", "agent_type": "explorer"}).to_string(), "call_id": "call_s"}),
        ),
        env(
            "50:04",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_s", "output": json!({"agent_id": ID, "nickname": "Epicurus"}).to_string()}),
        ),
        count("50:05", 1000, 100),
        env(
            "52:00",
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Two stray files."}]}),
        ),
    ];
    let child = [
        env(
            "50:04",
            "session_meta",
            json!({"id": ID, "cwd": "/srv/vault", "cli_version": "0.118.0", "source": {"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1, "agent_nickname": "Epicurus", "agent_role": "explorer"}}}}),
        ),
        env(
            "50:05",
            "turn_context",
            json!({"cwd": "/srv/vault", "model": "gpt-5.4"}),
        ),
        env(
            "50:05",
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "List files named desktop.ini"}]}),
        ),
        count("50:30", 500, 50),
        env(
            "51:00",
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Found a/desktop.ini and b/desktop.ini"}]}),
        ),
    ];
    let p = day.join(format!("rollout-2026-04-10T15-50-00-{PARENT}.jsonl"));
    let c = day.join(format!("rollout-2026-04-10T15-50-04-{ID}.jsonl"));
    if with_parent {
        std::fs::write(&p, parent.join("\n") + "\n").expect("write");
    }
    std::fs::write(&c, child.join("\n") + "\n").expect("write");
    (p, c)
}

#[test]
fn a_sub_agents_rollout_is_read_with_the_session_that_spawned_it() {
    let home = tempfile::tempdir().expect("tempdir");
    let (parent, _) = spawned_tree(home.path(), true);
    let rows = common::json_lines_of(common::ccv_at(home.path()).args(["list", "--json"]));
    // one row: the sub-agent is counted under its session, its tokens too
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = &rows[0];
    assert_eq!(r["session_id"], PARENT);
    assert_eq!(r["subagents"], 1);
    assert_eq!(r["tokens"]["input"], 1500, "{r}");
    assert_eq!(r["agent_tokens"]["input"], 500, "{r}");
    // the export shows the sub-agent's work after the call that started it
    let out = common::ccv_at(home.path())
        .arg("export")
        .arg(&parent)
        .output()
        .expect("export");
    let text = String::from_utf8_lossy(&out.stdout);
    let call = text.find("[Tool Call] Agent").expect(&text);
    let found = text.find("Found a/desktop.ini").expect(&text);
    let answer = text.find("Two stray files.").expect(&text);
    assert!(call < found && found < answer, "{text}");
    // with its session gone, the sub-agent is a row of its own
    let home = tempfile::tempdir().expect("tempdir");
    spawned_tree(home.path(), false);
    let rows = common::json_lines_of(common::ccv_at(home.path()).args(["list", "--json"]));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["session_id"], ID);
}

#[test]
fn a_single_json_rollout_is_counted_as_unsupported_not_read() {
    let home = tempfile::tempdir().expect("tempdir");
    codex_tree(home.path());
    let f = home
        .path()
        .join("codex/sessions/rollout-2025-08-23-0418f71e-beb0-474c-a03d-1719a72e64cc.json");
    let doc = json!({"session": {"timestamp": "2025-08-23T11:03:20.415Z", "id": "0418f71e-beb0-474c-a03d-1719a72e64cc", "instructions": ""},
                     "items": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
    std::fs::write(&f, serde_json::to_string_pretty(&doc).expect("json")).expect("write");
    let out = common::ccv_at(home.path())
        .args(["list", "--json"])
        .output()
        .expect("list");
    assert!(out.status.success());
    let rows = String::from_utf8_lossy(&out.stdout);
    assert_eq!(rows.lines().count(), 1, "{rows}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsupported Codex format"), "{err}");
    let out = common::ccv_at(home.path())
        .arg("export")
        .arg(&f)
        .output()
        .expect("export");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsupported Codex format"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_review_thread_is_read_under_the_review_that_started_it() {
    let home = tempfile::tempdir().expect("tempdir");
    let env = |t: &str, ty: &str, p: Value| {
        json!({"timestamp": format!("2025-12-25T16:{t}.000Z"), "type": ty, "payload": p})
            .to_string()
    };
    let parent = [
        env(
            "40:00",
            "session_meta",
            json!({"id": PARENT, "timestamp": "2025-12-25T16:40:00.000Z", "cwd": "/srv/voice", "cli_version": "0.77.0", "source": "cli"}),
        ),
        env(
            "40:02",
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Add the speech endpoint"}]}),
        ),
        env(
            "48:30",
            "event_msg",
            json!({"type": "entered_review_mode", "target": {"type": "baseBranch", "branch": "main"}, "user_facing_hint": "changes against 'main'"}),
        ),
        env(
            "52:00",
            "event_msg",
            json!({"type": "exited_review_mode", "review_output": {"findings": [{"title": "[P1] Missing timeout", "body": "The request can hang."}], "overall_correctness": "patch is incorrect", "overall_explanation": "One blocking issue."}}),
        ),
    ];
    // the review's rollout, named in the machine's time (UTC+9), a second
    // after the review began; another review elsewhere, and one before
    let review = |id: &str, at: &str, cwd: &str| {
        [
            env(
                "48:31",
                "session_meta",
                json!({"id": id, "timestamp": format!("2025-12-25T16:{at}.000Z"), "cwd": cwd, "cli_version": "0.77.0", "source": {"subagent": "review"}}),
            ),
            env(
                "48:32",
                "response_item",
                json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Review the code changes against the base branch 'main'."}]}),
            ),
            env(
                "51:00",
                "response_item",
                json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": format!("Reviewed in {cwd}")}]}),
            ),
        ]
        .join("\n")
            + "\n"
    };
    let day = home.path().join("codex/sessions/2025/12/26");
    std::fs::create_dir_all(&day).expect("mkdir");
    let other = "019b0000-0000-7000-8000-000000000001";
    let early = "019b0000-0000-7000-8000-000000000002";
    let p = day.join(format!("rollout-2025-12-26T01-40-00-{PARENT}.jsonl"));
    std::fs::write(&p, parent.join("\n") + "\n").expect("write");
    std::fs::write(
        day.join(format!("rollout-2025-12-26T01-48-31-{ID}.jsonl")),
        review(ID, "48:31", "/srv/voice"),
    )
    .expect("write");
    std::fs::write(
        day.join(format!("rollout-2025-12-26T01-48-31-{other}.jsonl")),
        review(other, "48:31", "/srv/elsewhere"),
    )
    .expect("write");
    std::fs::write(
        day.join(format!("rollout-2025-12-26T01-20-00-{early}.jsonl")),
        review(early, "20:00", "/srv/voice"),
    )
    .expect("write");
    let out = common::ccv_at(home.path())
        .arg("export")
        .arg(&p)
        .output()
        .expect("export");
    let text = String::from_utf8_lossy(&out.stdout);
    let call = text.find("[Tool Call] Agent").expect(&text);
    let thread = text.find("Reviewed in /srv/voice").expect(&text);
    // the call's result is the review's verdict; its thread follows it
    let verdict = text.find("[P1] Missing timeout").expect(&text);
    assert!(call < verdict && verdict < thread, "{text}");
    assert!(!text.contains("Reviewed in /srv/elsewhere"), "{text}");
    // listed: the session with its review; the two reviews it did not start
    let rows = common::json_lines_of(common::ccv_at(home.path()).args(["list", "--json"]));
    let mut ids: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["session_id"].as_str())
        .collect();
    ids.sort();
    let mut want = vec![PARENT, other, early];
    want.sort();
    assert_eq!(ids, want);
    let r = rows
        .iter()
        .find(|r| r["session_id"] == PARENT)
        .expect("row");
    assert_eq!(r["subagents"], 1);
}

#[test]
fn a_sub_agent_spawned_while_followed_is_read_as_it_appears() {
    for poll in [false, true] {
        let home = tempfile::tempdir().expect("tempdir");
        let (parent, child) = spawned_tree(home.path(), true);
        // the sub-agent's rollout is not there yet when the session is opened
        let lines = std::fs::read_to_string(&child).expect("read");
        std::fs::remove_file(&child).expect("rm");
        let session = ccv::source::claude::loader::load_to_follow(&parent).expect("load");
        let spec = ccv::live::FollowSpec::new(parent.clone()).force_poll(poll);
        let (tx, rx) = std::sync::mpsc::channel();
        let _follower = ccv::live::spawn(spec, move |ev| tx.send(ev).is_ok()).expect("spawn");
        let mut session = session;
        // let the follower settle on what is there, then the child appears
        std::thread::sleep(std::time::Duration::from_millis(300));
        std::fs::write(&child, lines).expect("write");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let linked = |s: &ccv::model::Session| {
            s.agent_by_id(ID).is_some_and(|a| {
                s.agents[a as usize].call.is_some() && !s.transcript(Some(a)).items.is_empty()
            })
        };
        while !linked(&session) {
            assert!(
                std::time::Instant::now() < deadline,
                "the sub-agent was not read (poll: {poll})"
            );
            if let Ok(ev) = rx.recv_timeout(std::time::Duration::from_millis(100)) {
                ccv::live::apply(&mut session, &ev);
                session.take_changes();
            }
        }
    }
}
