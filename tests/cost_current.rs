//! Issue 37: the models people use now are priced (fast mode, prompt
//! tiers, per-model cache ratios); a model without a price is said, never
//! a silent blank; copies of a resumed session's messages and orphaned
//! subagents are counted right across sessions; `ccv prices --update`.

use crate::common;
use common::{screen_text, session_of};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn answer(uuid: &str, id: &str, model: &str, ts: &str, usage: Value) -> Value {
    json!({"type":"assistant","uuid":uuid,"sessionId":"s","timestamp":ts,
        "message":{"id":id,"role":"assistant","model":model,"content":[{"type":"text","text":"ok"}],"usage":usage}})
}

fn prompt(uuid: &str, ts: &str) -> Value {
    json!({"type":"user","uuid":uuid,"sessionId":"s","cwd":"/srv/app","timestamp":ts,
        "message":{"role":"user","content":"go"}})
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// `ccv export --format html` of `file`.
fn page_of(home: &Path, file: &Path) -> String {
    let out = common::ccv_at(home)
        .args(["export", "--format", "html"])
        .arg(file)
        .output()
        .expect("runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(path: &Path, lines: &[Value]) {
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).expect("write");
}

/// `ccv list --json ROOT`'s rows, with `home` for everything else.
fn listed(home: &Path, root: &Path) -> Vec<Value> {
    common::json_lines_of(common::ccv_at(home).args(["list", "--json"]).arg(root))
}

/// What `ccv COMMAND ROOT` prints.
fn printed(home: &Path, command: &str, root: &Path) -> String {
    let out = common::ccv_at(home)
        .arg(command)
        .arg(root)
        .output()
        .expect("runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A session resumed from `a` into a new file: its lines copied, then
/// a prompt and an answer (`msg_B1`, `usage`, Opus 5) of its own.
fn resumed(a: &[Value], usage: &Value) -> Vec<Value> {
    let mut b = a.to_vec();
    b.push(prompt("u2", "2026-11-21T10:00:00Z"));
    b.push(answer(
        "b1",
        "msg_B1",
        "claude-opus-5",
        "2026-11-21T10:00:01Z",
        usage.clone(),
    ));
    b
}

/// The listed row of the file whose path ends with `name`.
fn row_of(rows: &[Value], name: &str) -> Value {
    rows.iter()
        .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with(name)))
        .cloned()
        .expect("listed")
}

/// Dates `file` a day back: the older of two sessions holds the
/// originals of the messages a resumed copy repeats.
fn make_older(file: &Path) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(file)
        .expect("open")
        .set_modified(past)
        .expect("mtime");
}

/// `ccv stats ROOT` as a terminal shows it (a table, then its notes).
fn stats_table(root: &Path) -> String {
    let st = ccv::stats::gather_with(
        root,
        (None, None, &jiff::tz::TimeZone::UTC),
        &common::no_cache(),
    );
    let mut out = Vec::new();
    ccv::stats::write_table(&mut out, &st, None, 120).expect("table");
    String::from_utf8(out).expect("utf-8")
}

/// `ccv stats --json ROOT`.
fn stats_json(home: &Path, root: &Path) -> Value {
    let out = common::ccv_at(home)
        .args(["stats", "--json"])
        .arg(root)
        .output()
        .expect("runs");
    serde_json::from_slice(&out.stdout).expect("json")
}

/// Opus 5 ($5 / $25) and a model no table knows, in one session.
fn mixed() -> Vec<Value> {
    vec![
        prompt("u1", "2026-11-20T10:00:00Z"),
        answer(
            "a1",
            "msg_1",
            "claude-opus-5",
            "2026-11-20T10:00:01Z",
            json!({"input_tokens": 100_000, "output_tokens": 20_000}),
        ),
        prompt("u2", "2026-11-20T10:05:00Z"),
        answer(
            "a2",
            "msg_2",
            "claude-zeta-9",
            "2026-11-20T10:05:01Z",
            json!({"input_tokens": 500, "output_tokens": 500}),
        ),
        answer(
            "a3",
            "msg_3",
            "claude-zeta-9",
            "2026-11-20T10:05:02Z",
            json!({"input_tokens": 500, "output_tokens": 500}),
        ),
    ]
}

// 100,000 × $5 + 20,000 × $25 = 0.5 + 0.5 = $1.00
const PRICED: f64 = 1.0;

#[test]
fn a_mixed_session_shows_both_parts_everywhere() {
    // the viewer's header
    let s = session_of(&mixed());
    let mut st = common::utc_state(s);
    let screen = screen_text(&mut st, 200, 8);
    assert!(
        screen.contains("$1.00 + 2 unpriced (claude-zeta-9)"),
        "{screen}"
    );
    // ccv list --json, the picker, ccv stats, the page
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let file = root.join("-srv-app/s.jsonl");
    write(&file, &mixed());
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    assert!(close(&rows[0]["cost_usd"], PRICED), "{}", rows[0]);
    assert_eq!(rows[0]["unpriced_messages"], 2);
    assert_eq!(rows[0]["unpriced_models"], json!({"claude-zeta-9": 2}));
    let info: ccv::catalog::SessionInfo = {
        let mut v = ccv::catalog::list_sessions(&root, &common::no_cache());
        v.remove(0)
    };
    let picker = ccv::picker::PickerState::with_sessions(vec![info], 1_764_000_000_000);
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(160, 8)).expect("t");
    term.draw(|f| ccv::picker::draw(f, f.area(), &picker))
        .expect("draw");
    let drawn: String = (0..8)
        .map(|y| {
            (0..160)
                .map(|x| term.backend().buffer()[(x, y)].symbol().to_owned())
                .collect::<String>()
                + "\n"
        })
        .collect();
    assert!(drawn.contains("$1.00+?"), "the cost column: {drawn}");
    assert!(
        drawn.contains("$1.00 + 2 unpriced (claude-zeta-9)"),
        "the selected session's cost whole: {drawn}"
    );
    let out = common::ccv_at(home.path())
        .args(["stats", "--json", "--by", "model"])
        .arg(&root)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(close(&v["cost_usd"], PRICED), "{v}");
    assert_eq!(v["unpriced_messages"], 2);
    let zeta = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["key"] == "claude-zeta-9")
        .expect("a row for the model");
    assert_eq!(zeta["cost_usd"], Value::Null, "nothing of it priced");
    assert_eq!(zeta["unpriced_messages"], 2);
    let page = page_of(home.path(), &file);
    assert!(
        page.contains("$1.00 + 2 unpriced (claude-zeta-9)"),
        "the page"
    );
}

#[test]
fn fast_mode_is_priced_at_the_fast_rate_and_sub_cent_costs_show() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let file = root.join("-srv-app/s.jsonl");
    write(
        &file,
        &[
            prompt("u1", "2026-11-20T10:00:00Z"),
            // Opus 4.7 fast: 6x. 1,000 × $30 + 1,000 × $150 = $0.18
            answer(
                "a1",
                "msg_f",
                "claude-opus-4-7",
                "2026-11-20T10:00:01Z",
                json!({"input_tokens": 1000, "output_tokens": 1000, "speed": "fast"}),
            ),
            // Haiku 5.5: 1,000 × $0.10 + 1,000 × $0.50 = $0.0006
            answer(
                "a2",
                "msg_h",
                "claude-haiku-5-5",
                "2026-11-20T10:00:02Z",
                json!({"input_tokens": 1000, "output_tokens": 1000, "speed": "standard"}),
            ),
        ],
    );
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    assert!(close(&rows[0]["cost_usd"], 0.1806), "{}", rows[0]);
    // rounded to a millionth in JSON
    let raw = String::from_utf8(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root)
            .output()
            .expect("runs")
            .stdout,
    )
    .expect("utf8");
    assert!(raw.contains("\"cost_usd\":0.1806,"), "{raw}");
    // a page of the Haiku part alone says $0.0006, not $0.00
    let tiny = root.join("-srv-app/t.jsonl");
    write(
        &tiny,
        &[
            prompt("u1", "2026-11-20T10:00:00Z"),
            answer(
                "a2",
                "msg_h",
                "claude-haiku-5-5",
                "2026-11-20T10:00:02Z",
                json!({"input_tokens": 1000, "output_tokens": 1000}),
            ),
        ],
    );
    let page = page_of(home.path(), &tiny);
    assert!(page.contains("$0.0006"), "sub-cent on the page");
    assert!(page.contains("1,000 in"), "token counts with separators");
}

/// A usage that cannot be read whole (a count that is no count, a usage
/// that is no object) is not priced from what was left: the message is
/// counted unpriced, under "(usage unreadable)", wherever costs show.
#[test]
fn a_usage_read_in_part_is_said_not_priced_low() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let file = root.join("-srv-app/s.jsonl");
    let bad = |uuid: &str, id: &str, usage: Value| {
        answer(uuid, id, "claude-opus-4-7", "2026-11-20T10:00:02Z", usage)
    };
    write(
        &file,
        &[
            prompt("u1", "2026-11-20T10:00:00Z"),
            // $5 / $25: 1,000 in and 1,000 out, $0.03
            answer(
                "a1",
                "msg_1",
                "claude-opus-4-7",
                "2026-11-20T10:00:01Z",
                json!({"input_tokens": 1000, "output_tokens": 1000}),
            ),
            bad(
                "a2",
                "msg_2",
                json!({"input_tokens": "9000", "output_tokens": 1000}),
            ),
            bad(
                "a3",
                "msg_3",
                json!({"input_tokens": -5, "output_tokens": 1000}),
            ),
            bad(
                "a4",
                "msg_4",
                json!({"input_tokens": 1e30, "output_tokens": 1000}),
            ),
            bad("a5", "msg_5", json!("lots")),
            bad(
                "a6",
                "msg_6",
                json!({"input_tokens": 1, "cache_creation": {"ephemeral_1h_input_tokens": 2.5}}),
            ),
            // a trillion cache reads: no request holds them
            bad(
                "a7",
                "msg_7",
                json!({"input_tokens": 1, "cache_read_input_tokens": 999_999_999_999u64}),
            ),
        ],
    );
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    assert!(close(&rows[0]["cost_usd"], 0.03), "{}", rows[0]);
    assert_eq!(rows[0]["unpriced_messages"], 6, "{}", rows[0]);
    assert_eq!(
        rows[0]["unpriced_models"],
        json!({"(usage unreadable)": 6}),
        "{}",
        rows[0]
    );
    let stats = common::ccv_at(home.path())
        .args(["stats", "--by", "model"])
        .arg(&root)
        .output()
        .expect("runs");
    let stats = String::from_utf8_lossy(&stats.stdout);
    assert!(
        stats
            .lines()
            .any(|l| l.starts_with("(usage unreadable)\t1\t")),
        "{stats}"
    );
    // the table's note says why, apart from models a price would cover
    let table = stats_table(&root);
    assert!(
        table.contains("+? 6 messages whose usage could not be read whole are not in the cost"),
        "{table}"
    );
    assert!(!table.contains("without a price"), "{table}");
    let page = page_of(home.path(), &file);
    assert!(
        page.contains("6 unpriced (usage unreadable)"),
        "on the page"
    );
    assert!(!page.contains("((usage"), "one pair of parentheses");
}

#[test]
fn a_resumed_session_s_copies_count_once_across_sessions() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let usage = json!({"input_tokens": 100_000, "output_tokens": 10_000});
    // A: the original. $0.50 + $0.25 = $0.75 (Opus 5)
    let a = vec![
        prompt("u1", "2026-11-20T10:00:00Z"),
        answer(
            "a1",
            "msg_A1",
            "claude-opus-5",
            "2026-11-20T10:00:01Z",
            usage.clone(),
        ),
    ];
    write(&root.join("-srv-app/a.jsonl"), &a);
    // B: resumed into a new file: A's history copied, then its own
    write(&root.join("-srv-app/b.jsonl"), &resumed(&a, &usage));
    // make A the older
    make_older(&root.join("-srv-app/a.jsonl"));
    let rows = listed(home.path(), &root);
    let cost = |name: &str| row_of(&rows, name)["cost_usd"].clone();
    // each session's own figure keeps what its file shows
    assert!(close(&cost("a.jsonl"), 0.75), "{rows:?}");
    assert!(close(&cost("b.jsonl"), 1.5), "{rows:?}");
    let v = stats_json(home.path(), &root);
    // the copy of msg_A1 once: $0.75 × 2, not × 3
    assert!(close(&v["cost_usd"], 1.5), "{v}");
    assert_eq!(v["tokens"]["input"], 200_000);
}

/// A session resumed into a new file copies the original's call of a
/// subagent and its result; the subagent's transcript is in the
/// original's folder. The copy's own row says it is not in its folder;
/// across sessions it is counted, once, and nothing is said missing.
#[test]
fn a_resumed_copy_of_a_subagent_s_call_is_not_said_missing_across_sessions() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let usage = json!({"input_tokens": 100_000, "output_tokens": 10_000});
    let call = json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"a","timestamp":"2026-11-20T10:00:01Z",
        "message":{"id":"msg_A1","role":"assistant","model":"claude-opus-5","content":[
            {"type":"tool_use","id":"t1","name":"Task","input":{"description":"look","prompt":"look around"}}],
            "usage": usage.clone()}});
    let result = json!({"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"a","timestamp":"2026-11-20T10:01:00Z",
        "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"found it"}]}]},
        "toolUseResult":{"status":"completed","agentId":"a5e1","totalTokens":5000,"totalToolUseCount":3}});
    let a = vec![prompt("u1", "2026-11-20T10:00:00Z"), call, result];
    write(&root.join("-srv-app/a.jsonl"), &a);
    write(
        &root.join("-srv-app/a/subagents/agent-a5e1.jsonl"),
        &[
            json!({"type":"assistant","uuid":"x1","sessionId":"a","agentId":"a5e1","isSidechain":true,
            "timestamp":"2026-11-20T10:00:30Z",
            "message":{"id":"msg_x","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"found it"}],
                "usage": usage.clone()}}),
        ],
    );
    write(&root.join("-srv-app/b.jsonl"), &resumed(&a, &usage));
    make_older(&root.join("-srv-app/a.jsonl"));
    let rows = listed(home.path(), &root);
    let row = |name: &str| row_of(&rows, name);
    assert!(close(&row("a.jsonl")["cost_usd"], 1.5), "{rows:?}");
    assert_eq!(row("a.jsonl")["unpriced_messages"], 0, "{rows:?}");
    // the copy, on its own: its folder has no transcript of the agent
    assert!(close(&row("b.jsonl")["cost_usd"], 1.5), "{rows:?}");
    assert_eq!(row("b.jsonl")["unpriced_messages"], 1, "{rows:?}");
    let v = stats_json(home.path(), &root);
    // msg_A1 and the agent's msg_x once, msg_B1: $0.75 × 3
    assert!(close(&v["cost_usd"], 2.25), "{v}");
    assert_eq!(v["unpriced_messages"], 0, "{v}");
    let table = printed(home.path(), "stats", &root);
    assert!(!table.contains("not found"), "{table}");
}

/// An answer written without its message id (a tool that rewrote the
/// file left it out) still cost what its usage says: each message once,
/// its lines told apart by the usage each repeats.
#[test]
fn answers_without_an_id_are_counted_once_each() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let no_id = |uuid: &str, ts: &str, block: Value, usage: &Value| {
        json!({"type":"assistant","uuid":uuid,"sessionId":"s","timestamp":ts,
            "message":{"role":"assistant","model":"claude-opus-5","content":[block],"usage":usage}})
    };
    let first = json!({"input_tokens": 100_000, "output_tokens": 10_000});
    let second = json!({"input_tokens": 200_000, "output_tokens": 20_000});
    let lines = vec![
        prompt("u1", "2026-11-20T10:00:00Z"),
        // one message over two lines, as Claude Code writes a text and a call
        no_id(
            "a1",
            "2026-11-20T10:00:01Z",
            json!({"type":"text","text":"looking"}),
            &first,
        ),
        no_id(
            "a2",
            "2026-11-20T10:00:02Z",
            json!({"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}),
            &first,
        ),
        prompt("u2", "2026-11-20T10:05:00Z"),
        no_id(
            "a3",
            "2026-11-20T10:05:01Z",
            json!({"type":"text","text":"done"}),
            &second,
        ),
    ];
    let file = root.join("-srv-app/s.jsonl");
    write(&file, &lines);
    // Opus 5: $5 / $25 a million: 0.5 + 0.25, then 1.0 + 0.5
    let want = 2.25;
    let rows = listed(home.path(), &root);
    assert!(close(&rows[0]["cost_usd"], want), "{rows:?}");
    assert_eq!(rows[0]["tokens"]["input"], 300_000, "{rows:?}");
    assert_eq!(rows[0]["tokens"]["output"], 30_000, "{rows:?}");
    let v = stats_json(home.path(), &root);
    assert!(close(&v["cost_usd"], want), "{v}");
    // the viewer's whole load says the same, and shows every block
    let s = session_of(&lines);
    let (cost, unpriced) = s.cost();
    assert!((cost.usd - want).abs() < 1e-9, "{cost:?}");
    assert!(unpriced.is_empty(), "{unpriced:?}");
    let shown: Vec<_> = s.main.items.iter().map(|i| i.text.to_string()).collect();
    let at = |t: &str| shown.iter().position(|x| x.contains(t));
    assert!(at("looking") < at("done"), "{shown:?}");
}

/// A subagent a Task's result names, whose transcript is not here (a
/// session copied without its `subagents/` folder): what it cost is not
/// known, and the session's cost says so, where it was a figure that
/// looked whole. With its file beside the session, it is counted.
#[test]
fn a_subagent_whose_transcript_is_not_here_is_said_not_counted() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let call = json!({"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2026-11-20T10:00:01Z",
        "message":{"id":"msg_1","role":"assistant","model":"claude-opus-5","content":[
            {"type":"tool_use","id":"t1","name":"Task","input":{"description":"look","prompt":"look around","subagent_type":"Explore"}}],
            "usage":{"input_tokens": 100_000, "output_tokens": 10_000}}});
    let result = json!({"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s","timestamp":"2026-11-20T10:01:00Z",
        "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"found it"}]}]},
        "toolUseResult":{"status":"completed","agentId":"a5e1","totalTokens":5000,"totalToolUseCount":3,
            "usage":{"input_tokens":10,"output_tokens":90}}});
    let lines = vec![prompt("u1", "2026-11-20T10:00:00Z"), call, result];
    let file = root.join("-srv-app/s.jsonl");
    write(&file, &lines);
    let row = listed(home.path(), &root).remove(0);
    assert!(close(&row["cost_usd"], 0.75), "{row}");
    assert_eq!(row["unpriced_messages"], 1, "{row}");
    assert_eq!(
        row["unpriced_models"]["(subagent transcript not found)"], 1,
        "{row}"
    );
    // the viewer's load says the same, and the call's row says why
    let (cost, unpriced) = session_of(&lines).cost();
    assert_eq!(cost.unpriced, 1);
    assert_eq!(unpriced.get("(subagent transcript not found)"), Some(&1));
    let mut st = common::utc_state(session_of(&lines));
    let screen = screen_text(&mut st, 160, 8);
    assert!(
        screen.contains("3 tool calls · transcript not found"),
        "{screen}"
    );
    let table = printed(home.path(), "list", &root);
    assert!(table.contains("0.75+?"), "{table}");
    // `ccv stats` says it apart from models a price would cover
    let text = stats_table(&root);
    assert!(
        text.contains("+? 1 subagent whose transcript is not here is not in the cost"),
        "{text}"
    );
    assert!(!text.contains("without a price"), "{text}");
    // `ccv prices` says it apart from models a price would cover
    let text = printed(home.path(), "prices", &root);
    assert!(text.contains("has a price"), "{text}");
    assert!(
        text.contains(
            "Not priced, whatever the table: 1 subagent whose transcript is not here, in 1 session"
        ),
        "{text}"
    );
    // its file found, the session file as it was (the listing's cache
    // holds its row): counted, nothing unpriced
    write(
        &root.join("-srv-app/s/subagents/agent-a5e1.jsonl"),
        &[
            json!({"type":"assistant","uuid":"x1","sessionId":"s","agentId":"a5e1","isSidechain":true,
            "timestamp":"2026-11-20T10:00:30Z",
            "message":{"id":"msg_x","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"found it"}],
                "usage":{"input_tokens": 100_000, "output_tokens": 10_000}}}),
        ],
    );
    let row = listed(home.path(), &root).remove(0);
    assert!(close(&row["cost_usd"], 1.5), "{row}");
    assert_eq!(row["unpriced_messages"], 0, "{row}");
}

#[test]
fn subagents_of_a_deleted_session_are_counted() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    // a session with its own subagent folder, and one whose session is gone
    write(
        &root.join("-srv-app/live.jsonl"),
        &[
            prompt("u1", "2026-11-20T10:00:00Z"),
            answer(
                "a1",
                "msg_L",
                "claude-opus-5",
                "2026-11-20T10:00:01Z",
                json!({"input_tokens": 100_000, "output_tokens": 0}),
            ),
        ],
    );
    let agent = |id: &str| {
        vec![
            json!({"type":"user","uuid":"x1","sessionId":"gone","isSidechain":true,"agentId":id,
                "cwd":"/srv/app","timestamp":"2026-11-20T09:00:00Z","message":{"role":"user","content":"task"}}),
            json!({"type":"assistant","uuid":"x2","parentUuid":"x1","sessionId":"gone","isSidechain":true,
                "agentId":id,"timestamp":"2026-11-20T09:00:01Z","message":{"id":format!("msg_{id}"),
                "role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"done"}],
                "usage":{"input_tokens":1_000_000,"output_tokens":0}}}),
        ]
    };
    write(
        &root.join("-srv-app/gone/subagents/agent-abc.jsonl"),
        &agent("abc"),
    );
    let out = common::ccv_at(home.path())
        .args(["stats", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    // $0.50 (Opus 5) + $1.00 (the orphaned Haiku 4.5 agent)
    assert!(close(&v["cost_usd"], 1.5), "{v}");
    assert_eq!(v["sessions"], 2);
}

/// A one-request HTTP server on 127.0.0.1 that answers `body`.
fn serve(body: String) -> (String, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://{}/prices.json",
        listener.local_addr().expect("addr")
    );
    let h = std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, h)
}

#[test]
fn prices_update_reads_a_table_from_a_server_and_keeps_the_bundled_one_on_failure() {
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    write(
        &root.join("-srv-app/s.jsonl"),
        &[
            prompt("u1", "2026-11-20T10:00:00Z"),
            answer(
                "a1",
                "msg_1",
                "claude-zeta-9",
                "2026-11-20T10:00:01Z",
                json!({"input_tokens": 1_000_000, "output_tokens": 0}),
            ),
        ],
    );
    // before: unpriced, and `ccv prices` says so
    let text = printed(home.path(), "prices", &root);
    assert!(text.contains("claude-opus-5-5"), "{text}");
    assert!(
        text.contains("claude-zeta-9: 1 message in 1 session"),
        "{text}"
    );
    // a refused connection: a clear error, nothing written
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let dead = format!("http://{}/x.json", closed.local_addr().expect("addr"));
    drop(closed);
    let out = common::ccv_at(home.path())
        .args(["prices", "--update", "--url", &dead])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("could not update") && err.contains("unchanged"),
        "{err}"
    );
    assert!(!home.path().join("cache/ccv/prices-fetched.json").exists());
    // a served table (LiteLLM's shape): the new model is priced from it
    let table = json!({
        "claude-zeta-9": {"litellm_provider": "anthropic", "mode": "chat",
            "input_cost_per_token": 2e-6, "output_cost_per_token": 1e-5,
            "cache_read_input_token_cost": 2e-7, "cache_creation_input_token_cost": 2.5e-6},
        "claude-zeta-9-20261101": {"litellm_provider": "anthropic", "mode": "chat",
            "input_cost_per_token": 9e-6, "output_cost_per_token": 9e-5},
        "gpt-4o": {"litellm_provider": "openai", "mode": "chat",
            "input_cost_per_token": 2.5e-6, "output_cost_per_token": 1e-5},
        "sample_spec": {"max_tokens": "set to max_output_tokens"}
    });
    let (url, server) = serve(table.to_string());
    let out = common::ccv_at(home.path())
        .args(["prices", "--update", "--url", &url])
        .output()
        .expect("runs");
    server.join().expect("server");
    assert!(out.status.success(), "{out:?}");
    let fetched = home.path().join("cache/ccv/prices-fetched.json");
    assert!(fetched.is_file());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&fetched)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    // 1M × $2 from the fetched table
    assert!(close(&rows[0]["cost_usd"], 2.0), "{}", rows[0]);
    let shown = common::ccv_at(home.path())
        .arg("prices")
        .arg(&root)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&shown.stdout);
    let zeta = text
        .lines()
        .find(|l| l.starts_with("claude-zeta-9"))
        .unwrap_or_default();
    assert!(zeta.ends_with("fetched"), "{text}");
    assert!(text.contains("has a price"), "{text}");
    // a damaged fetched table is ignored: the bundled one stands, and
    // `ccv prices` says so; a rate damaged into another rate too (`2.0`
    // read as `3.0` was believed)
    let good = std::fs::read_to_string(&fetched).expect("read");
    assert!(good.contains("2.0"), "{good}");
    for damaged in [good.replacen("2.0", "3.0", 1), "{not json".to_owned()] {
        std::fs::write(&fetched, &damaged).expect("write");
        let rows = common::json_lines_of(
            common::ccv_at(home.path())
                .args(["list", "--json"])
                .arg(&root),
        );
        assert_eq!(rows[0]["cost_usd"], Value::Null, "{damaged}");
        let shown = common::ccv_at(home.path())
            .arg("prices")
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&shown.stdout);
        assert!(
            text.contains("not used") && text.contains("--update"),
            "{text}"
        );
    }
    std::fs::write(&fetched, &good).expect("write");
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    assert!(close(&rows[0]["cost_usd"], 2.0), "{}", rows[0]);
}

/// On every corpus file: the listing's cost, the viewer's header and the
/// page agree; and `ccv stats` over all of them is their sum but for the
/// copies of a resumed session.
#[test]
fn list_header_and_stats_agree_on_the_corpus() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    let mut copies: Vec<PathBuf> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let dir = root.join(format!("-p{}", i % 7));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let to = dir.join(f.file_name().expect("name"));
        std::fs::copy(f, &to).expect("copy");
        copies.push(to);
    }
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    let mut sum = 0.0;
    for r in &rows {
        let path = PathBuf::from(r["path"].as_str().expect("path"));
        let s = ccv::source::claude::loader::load_with_subagents(&path).expect("loads");
        let (cost, unpriced) = s.cost();
        let listed = r["cost_usd"].as_f64().unwrap_or(0.0);
        assert!(
            (listed - cost.usd).abs() < 2e-6,
            "{}: list {listed} vs header {}",
            path.display(),
            cost.usd
        );
        assert_eq!(r["unpriced_messages"], cost.unpriced, "{}", path.display());
        assert_eq!(
            r["unpriced_models"],
            serde_json::to_value(&unpriced).expect("json"),
            "{}",
            path.display()
        );
        sum += listed;
    }
    let out = common::ccv_at(home.path())
        .args(["stats", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let total = v["priced_usd"].as_f64().expect("total");
    assert!(
        total <= sum + 1e-6,
        "stats {total} vs the listing's sum {sum}"
    );
    eprintln!("corpus: listing sum ${sum:.4}, stats ${total:.4} (copies counted once)");
}
