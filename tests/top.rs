//! `ccv top` without a terminal: the overview's state from events (a
//! session found, bytes appended, time passing), and its screen drawn
//! into a TestBackend. The states themselves: `model::activity`'s tests.

use ccv::live::LiveEvent;
use ccv::top::{Follow, TopEvent, TopState};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use std::path::PathBuf;

const NOW: i64 = 1_767_261_600_000; // 2026-01-01T10:00:00Z

fn iso(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .expect("time")
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

fn append(t: &mut TopState, path: &std::path::Path, v: serde_json::Value) {
    let event = LiveEvent::Appended {
        source: 0,
        bytes: format!("{v}\n").into_bytes(),
    };
    t.apply(TopEvent::Live {
        path: path.to_owned(),
        event,
    });
}

fn screen(t: &TopState) -> String {
    let mut term = Terminal::new(TestBackend::new(150, 12)).expect("terminal");
    term.draw(|f| ccv::top::draw(f, f.area(), t)).expect("draw");
    format!("{:?}", term.backend())
}

#[test]
fn sessions_come_change_state_and_leave() {
    let mut t = TopState::new(PathBuf::from("/r"), 30 * 60_000, NOW);
    let a = PathBuf::from("/r/-src-app/a.jsonl");
    let old = PathBuf::from("/r/-src-app/old.jsonl");
    assert_eq!(
        t.apply(TopEvent::Candidate {
            path: a.clone(),
            mtime_ms: NOW - 1000
        }),
        vec![Follow::Start(a.clone())]
    );
    assert_eq!(
        t.apply(TopEvent::Candidate {
            path: old,
            mtime_ms: NOW - 2 * 3_600_000
        }),
        vec![],
        "written two hours ago: not in a 30-minute window"
    );
    assert_eq!(
        t.apply(TopEvent::Candidate {
            path: PathBuf::from("/r/-src-app/agent-x.jsonl"),
            mtime_ms: NOW
        }),
        vec![],
        "a subagent's file counts under its session"
    );
    assert_eq!(
        t.apply(TopEvent::Candidate {
            path: PathBuf::from("/r/-src-app/touched.jsonl"),
            mtime_ms: NOW + 30 * 86_400_000
        }),
        vec![],
        "a time a month ahead of the clock is no write of lately"
    );
    // a prompt, then a tool call: running
    append(
        &mut t,
        &a,
        json!({"type":"user","uuid":"u1","sessionId":"s","cwd":"/src/app","timestamp":iso(NOW - 5000),"message":{"role":"user","content":"run the tests"}}),
    );
    append(
        &mut t,
        &a,
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":iso(NOW - 3000),"message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}]}}),
    );
    let s = screen(&t);
    assert!(
        s.contains("▶ running") && s.contains("Bash cargo test"),
        "{s}"
    );
    assert!(s.contains("/src/app") && s.contains("run the tests"), "{s}");
    assert!(s.contains("3s"), "elapsed since the call:\n{s}");
    // the result and the turn's end: waiting, and said once
    append(
        &mut t,
        &a,
        json!({"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":iso(NOW - 2000),"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}),
    );
    append(
        &mut t,
        &a,
        json!({"type":"system","subtype":"turn_duration","durationMs":3000,"uuid":"s1","parentUuid":"u2","sessionId":"s","timestamp":iso(NOW - 1000)}),
    );
    assert!(screen(&t).contains("● waiting for you"));
    assert_eq!(t.newly_waiting, vec![a.clone()]);
    t.apply(TopEvent::Scanned);
    // 31 minutes later it has left the window
    let gone = t.tick(NOW + 31 * 60_000);
    assert_eq!(gone, vec![Follow::Stop(a)]);
    assert!(t.rows.is_empty());
    assert!(screen(&t).contains("no session was written in this window"));
}

use crate::common;

#[test]
fn piped_it_prints_one_snapshot() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    std::fs::create_dir_all(root.join("-src-app")).expect("mkdir");
    let now = jiff::Timestamp::now().as_millisecond();
    let lines = [
        json!({"type":"user","uuid":"u1","sessionId":"s","cwd":"/src/app","timestamp":iso(now - 9000),"message":{"role":"user","content":"ship it"}}),
        json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":iso(now - 8000),"message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make deploy"}}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(root.join("-src-app/s1.jsonl"), text).expect("write");
    let out = common::ccv_at(home.path())
        .arg("top")
        .arg(&root)
        .output()
        .expect("run ccv");
    assert!(out.status.success());
    let table = String::from_utf8_lossy(&out.stdout);
    let mut rows = table.lines();
    assert!(
        rows.next()
            .is_some_and(|h| h.starts_with("STATE\tFOR\tTITLE"))
    );
    let row: Vec<&str> = rows.next().expect("a row").split('\t').collect();
    assert_eq!(row[0], "running", "{table}");
    assert_eq!(row[2], "ship it");
    assert!(row[4].contains("make deploy"), "{table}");
}

/// Codex sessions in `ccv top`, piped: a turn that failed (Codex's
/// `error`, its turn then closed) is failed with Codex's words, not
/// working nor idle; a turn at work names Codex, not Claude; a retry's
/// notice (`stream_error`) fails nothing.
#[test]
fn a_codex_turn_that_failed_is_failed_and_codex_is_named() {
    let home = tempfile::tempdir().expect("tempdir");
    let day = home.path().join("codex/sessions/2026/12/04");
    std::fs::create_dir_all(&day).expect("mkdir");
    let now = jiff::Timestamp::now().as_millisecond();
    let env = |ago: i64, ty: &str, p: serde_json::Value| {
        json!({"timestamp": iso(now - ago), "type": ty, "payload": p}).to_string()
    };
    let session = |n: u32, last: Vec<String>| {
        let id = format!("019a0000-0000-7000-8000-00000000000{n}");
        let mut lines = vec![
            env(
                9000,
                "session_meta",
                json!({"id": id, "cwd": "/srv/p", "originator": "codex_cli_rs", "cli_version": "0.139.0"}),
            ),
            env(
                9000,
                "turn_context",
                json!({"cwd": "/srv/p", "model": "gpt-5.3-codex"}),
            ),
            env(
                8000,
                "event_msg",
                json!({"type": "task_started", "turn_id": "t1"}),
            ),
            env(
                8000,
                "response_item",
                json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": format!("case {n}")}]}),
            ),
        ];
        lines.extend(last);
        std::fs::write(
            day.join(format!("rollout-2026-12-04T00-00-0{n}-{id}.jsonl")),
            lines.join("\n") + "\n",
        )
        .expect("write");
    };
    session(
        1,
        vec![
            env(
                3000,
                "event_msg",
                json!({"type": "error", "message": "exceeded retry limit, last status: 429 Too Many Requests"}),
            ),
            env(
                3000,
                "event_msg",
                json!({"type": "task_complete", "turn_id": "t1", "last_agent_message": null}),
            ),
        ],
    );
    session(
        2,
        vec![env(
            1000,
            "event_msg",
            json!({"type": "stream_error", "message": "Reconnecting... 1/5"}),
        )],
    );
    let out = common::ccv_at(home.path())
        .arg("top")
        .arg(home.path().join("codex/sessions"))
        .output()
        .expect("run ccv");
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8_lossy(&out.stdout);
    let row = |title: &str| -> Vec<String> {
        table
            .lines()
            .map(|l| l.split('\t').map(str::to_owned).collect::<Vec<_>>())
            .find(|r| r.get(2).is_some_and(|t| t == title))
            .unwrap_or_else(|| panic!("no {title}: {table}"))
    };
    let failed = row("case 1");
    assert_eq!(failed[0], "failed", "{table}");
    assert!(failed[4].contains("429 Too Many Requests"), "{table}");
    let working = row("case 2");
    assert_eq!(working[0], "thinking", "{table}");
    assert_eq!(working[4], "Codex is working", "{table}");
}

#[test]
fn a_root_touched_all_at_once_starts_a_few_readers_not_thousands() {
    let mut t = TopState::new(PathBuf::from("/r"), 30 * 60_000, NOW);
    let mut started = 0;
    let mut stopped = 0;
    for i in 0..100 {
        for f in t.apply(TopEvent::Candidate {
            path: PathBuf::from(format!("/r/p/{i:03}.jsonl")),
            mtime_ms: NOW - 100_000 + i * 1000,
        }) {
            match f {
                Follow::Start(_) => started += 1,
                Follow::Stop(_) => stopped += 1,
            }
        }
    }
    // followed, not shown before a line of conversation is read
    assert!(t.rows.is_empty());
    assert_eq!(t.quiet.len(), ccv::top::MAX_WATCHED);
    assert_eq!(started - stopped, ccv::top::MAX_WATCHED);
    // the most recently written stay
    assert!(
        t.quiet
            .iter()
            .all(|w| w.last_write_ms >= NOW - 100_000 + 76 * 1000)
    );
    // an older one than all of them is not started
    assert!(
        t.apply(TopEvent::Candidate {
            path: PathBuf::from("/r/p/old.jsonl"),
            mtime_ms: NOW - 200_000
        })
        .is_empty()
    );
}

/// A file of `summary` lines only is no session: followed, never shown as
/// "thinking · (loading…)". A retried API error is "retrying"; the time in
/// a state and idle time come from the file, not from when top started.
#[test]
fn summaries_are_no_session_retries_are_retrying_and_times_come_from_the_file() {
    let mut t = TopState::new(PathBuf::from("/r"), 3 * 3_600_000, NOW);
    let sum = PathBuf::from("/r/p/summary.jsonl");
    t.apply(TopEvent::Candidate {
        path: sum.clone(),
        mtime_ms: NOW - 1000,
    });
    append(
        &mut t,
        &sum,
        json!({"type":"summary","summary":"An old chat","leafUuid":"x"}),
    );
    t.tick(NOW);
    assert!(t.rows.is_empty(), "not a session");
    let s = screen(&t);
    assert!(!s.contains("loading") && !s.contains("thinking"), "{s}");
    // an API error being retried
    let r = PathBuf::from("/r/p/retry.jsonl");
    t.apply(TopEvent::Candidate {
        path: r.clone(),
        mtime_ms: NOW - 1000,
    });
    append(
        &mut t,
        &r,
        json!({"type":"user","uuid":"u1","sessionId":"r","cwd":"/src/app","timestamp":iso(NOW - 40_000),"message":{"role":"user","content":"go"}}),
    );
    append(
        &mut t,
        &r,
        json!({"type":"system","subtype":"api_error","level":"error","error":{},"retryInMs":610.3,"retryAttempt":4,"maxRetries":10,"uuid":"e1","parentUuid":"u1","sessionId":"r","timestamp":iso(NOW - 20_000)}),
    );
    t.tick(NOW);
    let row = t.rows.iter().find(|w| w.path == r).expect("shown");
    assert_eq!(row.activity.name(), "retrying", "{:?}", row.activity);
    assert!(screen(&t).contains("retry 4/10"), "{}", screen(&t));
    // in its state since the entry's time, though top just read it
    assert_eq!(row.since_ms, NOW - 20_000);
    // a session idle for two hours says so
    let idle = PathBuf::from("/r/p/idle.jsonl");
    t.apply(TopEvent::Candidate {
        path: idle.clone(),
        mtime_ms: NOW - 2 * 3_600_000 + 1000,
    });
    append(
        &mut t,
        &idle,
        json!({"type":"user","uuid":"u1","sessionId":"i","cwd":"/src/web","timestamp":iso(NOW - 2 * 3_600_000),"message":{"role":"user","content":"hello"}}),
    );
    t.tick(NOW);
    let row = t.rows.iter().find(|w| w.path == idle).expect("shown");
    assert_eq!(row.activity.name(), "idle");
    assert_eq!(row.since_ms, NOW - 2 * 3_600_000);
    assert!(screen(&t).contains("2h00m"), "{}", screen(&t));
}

#[test]
fn tops_keys_come_from_its_table_and_the_config() {
    use ccv::top::TopOutcome;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let (config, problems) = ccv::config::parse("[top.keys]\nquit = \"x\"\ndown = \"n\"\n", "test");
    assert!(problems.is_empty(), "{problems:?}");
    let mut t = TopState::new(PathBuf::from("/r"), 30 * 60_000, NOW);
    t.keys = std::rc::Rc::new(config.top_keys());
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(ccv::top::handle_key(&mut t, key('q')), TopOutcome::None);
    assert_eq!(ccv::top::handle_key(&mut t, key('x')), TopOutcome::Quit);
    // Ctrl-C leaves whatever the table says
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(ccv::top::handle_key(&mut t, ctrl_c), TopOutcome::Quit);
    let s = screen(&t);
    assert!(s.contains("x quit"), "{s}");
    assert!(s.contains("↑/n select"), "{s}");
}

/// A file written lately whose newest entry is old (a copy made today of
/// last year's session, a summary Claude Code appended to it) is no
/// session running: not shown, in the screen or piped. A new entry
/// brings it back.
#[test]
fn a_copy_of_an_old_session_made_today_is_not_active() {
    let mut t = TopState::new(PathBuf::from("/r"), 30 * 60_000, NOW);
    let copy = PathBuf::from("/r/-src-app/copy.jsonl");
    t.apply(TopEvent::Candidate {
        path: copy.clone(),
        mtime_ms: NOW - 1000,
    });
    let year = 365 * 86_400_000;
    append(
        &mut t,
        &copy,
        json!({"type":"user","uuid":"u1","sessionId":"s","cwd":"/src/app","timestamp":iso(NOW - year),"message":{"role":"user","content":"stop that"}}),
    );
    append(
        &mut t,
        &copy,
        json!({"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":iso(NOW - year + 1000),"message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}),
    );
    t.apply(TopEvent::Scanned);
    let _ = t.tick(NOW);
    assert!(t.rows.is_empty(), "{}", screen(&t));
    assert!(!screen(&t).contains("stop that"));
    // the session goes on today: shown
    append(
        &mut t,
        &copy,
        json!({"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s","timestamp":iso(NOW - 500),"message":{"role":"user","content":"go on"}}),
    );
    assert_eq!(t.rows.len(), 1, "{}", screen(&t));
}
