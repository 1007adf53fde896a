//! Cost and usage across sessions: `ccv list --json` gives each session
//! `cost_usd` and `tokens`; `ccv stats` sums them in total and by day,
//! project and model, from the listing cache on a second run. Through the
//! built binary, with every directory a temp dir (never the real ~/.claude).

use crate::common;
use crate::common::entry;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::fs;
use std::path::Path;

fn user(uuid: &str, ts: &str, cwd: &str) -> Value {
    entry::user(uuid, "go").cwd(cwd).at(ts).json()
}

fn answer(uuid: &str, id: &str, model: &str, ts: &str, usage: Value) -> Value {
    entry::call(
        uuid,
        id,
        &format!("t-{uuid}"),
        "Bash",
        json!({"command": "ls"}),
    )
    .model(model)
    .usage(usage)
    .at(ts)
    .json()
}

fn write(path: &Path, lines: &[Value]) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(path, text).expect("write");
}

/// Three sessions in two projects, priced by hand (per million tokens):
/// - a: Opus 4.5, 1,000 in × $5 + 2,000 out × $25 = $0.055, split over two
///   lines (counted once); its subagent (Haiku 4.5) 10,000 in × $1 = $0.01.
/// - b: Sonnet 4.5 on the next day, 150,000 cache reads × $0.30 = $0.045.
/// - c: a model without a price: tokens counted, cost null.
fn tree(root: &Path) {
    let opus = "claude-opus-4-5-20251101";
    let u1 = json!({"input_tokens":1000,"output_tokens":2000});
    write(
        &root.join("-srv-app/a.jsonl"),
        &[
            user("u1", "2025-03-01T10:00:00.000Z", "/srv/app"),
            answer("a1", "m1", opus, "2025-03-01T10:00:05.000Z", u1.clone()),
            answer("a2", "m1", opus, "2025-03-01T10:00:06.000Z", u1),
        ],
    );
    let mut agent = answer(
        "x1",
        "mx",
        "claude-haiku-4-5-20251001",
        "2025-03-01T10:00:07.000Z",
        json!({"input_tokens":10000,"output_tokens":0}),
    );
    agent["isSidechain"] = json!(true);
    agent["agentId"] = json!("ag1");
    write(&root.join("-srv-app/a/subagents/agent-ag1.jsonl"), &[agent]);
    write(
        &root.join("-srv-app/b.jsonl"),
        &[
            user("u1", "2025-03-02T09:00:00.000Z", "/srv/app"),
            answer(
                "b1",
                "m1",
                "claude-sonnet-4-5-20250929",
                "2025-03-02T09:00:05.000Z",
                json!({"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":150_000}),
            ),
        ],
    );
    write(
        &root.join("-srv-web/c.jsonl"),
        &[
            user("u1", "2025-03-02T11:00:00.000Z", "/srv/web"),
            answer(
                "c1",
                "m1",
                "claude-future-9",
                "2025-03-02T11:00:05.000Z",
                json!({"input_tokens":7,"output_tokens":3}),
            ),
        ],
    );
}

fn ccv(home: &Path) -> Command {
    common::ccv_at(home)
}

fn run_json(cmd: &mut Command) -> Vec<Value> {
    common::json_lines_of(cmd)
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64()
        .is_some_and(|x| (x - want).abs() < want * 0.01 + 1e-9)
}

#[test]
fn list_json_prices_each_session_with_its_subagents() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let rows = run_json(ccv(tmp.path()).arg("list").arg("--json").arg(&root));
    let by_id = |id: &str| {
        rows.iter()
            .find(|r| r["session_id"] == id)
            .unwrap_or_else(|| panic!("{id} listed: {rows:?}"))
    };
    let a = by_id("a");
    assert!(close(&a["cost_usd"], 0.065), "{a}");
    assert_eq!(
        a["tokens"],
        json!({"input":11000,"output":2000,"cache_creation":0,"cache_read":0})
    );
    assert_eq!(
        a["agent_tokens"]["input"], 10000,
        "the subagent's share, apart"
    );
    assert_eq!(
        (a["prompts"].as_u64(), a["tool_calls"].as_u64()),
        (Some(1), Some(3))
    );
    assert!(close(&by_id("b")["cost_usd"], 0.045));
    let c = by_id("c");
    assert_eq!(c["cost_usd"], Value::Null, "unknown model: no guess");
    assert_eq!(c["tokens"]["input"], 7);
}

#[test]
fn stats_sums_in_total_and_by_day_project_and_model() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let total = &run_json(ccv(tmp.path()).arg("stats").arg("--json").arg(&root))[0];
    assert_eq!(total["sessions"], 3);
    assert_eq!(total["prompts"], 3);
    assert_eq!(
        total["tool_calls"], 5,
        "a's two lines hold two calls, b, c, a's agent"
    );
    // c has no price: the priced part, and what is left out, said
    assert!(close(&total["cost_usd"], 0.11), "{total}");
    assert!(close(&total["priced_usd"], 0.11), "{total}");
    assert_eq!(total["unpriced_messages"], 1);
    assert_eq!(total["unpriced_models"], json!({"claude-future-9": 1}));
    assert_eq!(total["top_tools"][0], json!({"name":"Bash","calls":5}));

    let days = &run_json(
        ccv(tmp.path())
            .args(["stats", "--json", "--by", "day"])
            .arg(&root),
    )[0];
    let keys: Vec<&str> = days["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["key"].as_str())
        .collect();
    assert_eq!(keys, ["2025-03-01", "2025-03-02"]);
    assert!(close(&days["groups"][0]["cost_usd"], 0.065));
    assert_eq!(days["groups"][1]["sessions"], 2);
    let day_keys = |tz: &str| -> Vec<String> {
        let out = ccv(tmp.path())
            .env("TZ", tz)
            .timeout(std::time::Duration::from_secs(60))
            .args(["stats", "--json", "--by", "day"])
            .arg(&root)
            .output()
            .expect("runs");
        assert!(out.status.success(), "TZ={tz}: {out:?}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        v["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .filter_map(|g| g["key"].as_str().map(str::to_owned))
            .collect()
    };
    // the days are the user's: fourteen hours east, each a day later
    assert_eq!(day_keys("<+14>-14"), ["2025-03-02", "2025-03-03"]);
    // a TZ naming what is no zone file (jiff reads it to its end) is UTC
    #[cfg(unix)]
    for tz in ["/dev/zero", ":/dev/zero", "/dev"] {
        assert_eq!(day_keys(tz), keys, "TZ={tz}");
    }

    let projects = &run_json(
        ccv(tmp.path())
            .args(["stats", "--json", "--by", "project"])
            .arg(&root),
    )[0];
    assert_eq!(projects["groups"][0]["key"], "/srv/app", "dearest first");
    assert_eq!(projects["groups"][0]["sessions"], 2);

    let models = &run_json(
        ccv(tmp.path())
            .args(["stats", "--json", "--by", "model"])
            .arg(&root),
    )[0];
    let haiku = models["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["key"] == "claude-haiku-4-5-20251001")
        .expect("the subagent's model");
    assert!(close(&haiku["cost_usd"], 0.01));

    let since = &run_json(
        ccv(tmp.path())
            .args(["stats", "--json", "--since", "2025-03-02"])
            .arg(&root),
    )[0];
    assert_eq!(since["sessions"], 2);

    let bad = ccv(tmp.path())
        .args(["stats", "--since", "yesterday-ish"])
        .arg(&root)
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a date"));
}

/// `ccv stats FILE`: one session with its subagents, as its row of `ccv
/// list` counts it; the sessions' figures add up to the root's. What is no
/// session file is refused with a reason, and a FIFO is never read.
#[test]
fn stats_of_one_session_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let one = |path: &Path, by: Option<&str>| -> Value {
        let mut cmd = ccv(tmp.path());
        cmd.args(["stats", "--json"]);
        if let Some(by) = by {
            cmd.args(["--by", by]);
        }
        run_json(cmd.arg(path)).remove(0)
    };
    let a = one(&root.join("-srv-app/a.jsonl"), None);
    assert_eq!(a["sessions"], 1);
    assert!(close(&a["cost_usd"], 0.065), "its subagent's cost in: {a}");
    assert_eq!(a["tokens"]["input"], 11000);
    assert_eq!(a["top_tools"][0], json!({"name":"Bash","calls":3}));
    let models = one(&root.join("-srv-app/a.jsonl"), Some("model"));
    let keys: Vec<&str> = models["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["key"].as_str())
        .collect();
    assert_eq!(
        keys.len(),
        2,
        "the session's model and its subagent's: {models}"
    );
    let c = one(&root.join("-srv-web/c.jsonl"), None);
    assert_eq!(c["unpriced_models"], json!({"claude-future-9": 1}));
    let all = &run_json(ccv(tmp.path()).arg("stats").arg("--json").arg(&root))[0];
    let sum: f64 = ["-srv-app/a.jsonl", "-srv-app/b.jsonl", "-srv-web/c.jsonl"]
        .iter()
        .map(|f| one(&root.join(f), None)["cost_usd"].as_f64().unwrap_or(0.0))
        .sum();
    assert!(close(&all["cost_usd"], sum), "{sum} against {all}");

    // the table a terminal gets names one session as one
    let st = ccv::stats::gather_file(
        &root.join("-srv-app/a.jsonl"),
        (None, None, &jiff::tz::TimeZone::UTC),
    )
    .expect("a session");
    let mut out = Vec::new();
    ccv::stats::write_table(&mut out, &st, None, 100).expect("table");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.starts_with("1 session · 1 prompt · 3 tool calls"),
        "{text}"
    );

    let refused = |path: &Path, why: &str| {
        let out = ccv(tmp.path())
            .timeout(std::time::Duration::from_secs(20))
            .arg("stats")
            .arg(path)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1), "{path:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{path:?}: {err}");
        assert!(out.stdout.is_empty(), "{path:?}");
    };
    let empty = tmp.path().join("empty.jsonl");
    fs::write(&empty, "").expect("write");
    refused(&empty, "an empty file");
    let summary = tmp.path().join("summary.jsonl");
    fs::write(
        &summary,
        "{\"type\":\"summary\",\"summary\":\"x\",\"leafUuid\":\"u\"}\n",
    )
    .expect("write");
    refused(&summary, "no conversation");
    refused(&tmp.path().join("gone.jsonl"), "No such file");
    #[cfg(unix)]
    {
        let fifo = tmp.path().join("fifo.jsonl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            refused(&fifo, "neither a folder of sessions nor a session file");
        }
    }
}

#[test]
fn a_second_run_reads_figures_from_the_cache() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let first = &run_json(ccv(tmp.path()).arg("stats").arg("--json").arg(&root))[0];
    // same size and mtime, other bytes: only a cache hit keeps the figures
    let b = root.join("-srv-app/b.jsonl");
    let meta = fs::metadata(&b).expect("meta");
    let text = fs::read_to_string(&b)
        .expect("read")
        .replace("150000", "180000");
    fs::write(&b, text).expect("write");
    fs::File::options()
        .write(true)
        .open(&b)
        .expect("open")
        .set_modified(meta.modified().expect("mtime"))
        .expect("set mtime");
    let second = &run_json(ccv(tmp.path()).arg("stats").arg("--json").arg(&root))[0];
    assert_eq!(first["priced_usd"], second["priced_usd"]);
    // a change the cache sees (the size) is read again
    fs::write(&b, fs::read_to_string(&b).expect("read") + "\n").expect("append");
    let third = &run_json(ccv(tmp.path()).arg("stats").arg("--json").arg(&root))[0];
    // 180,000 × $0.30
    assert!(close(&third["priced_usd"], 0.119), "{third}");
}

#[test]
fn the_table_reads_as_a_table() {
    // in a child whose home, cache and config are a sandbox's: the listing
    // cache is written
    if alone!(&[]) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    // the table a terminal gets (`ccv stats` draws it at the terminal's
    // width; here at 100 columns), made from what the command gathers
    let st = ccv::stats::gather_with(
        &root,
        (
            Some(ccv::stats::By::Project),
            None,
            &jiff::tz::TimeZone::UTC,
        ),
        &common::no_cache(),
    );
    let mut out = Vec::new();
    ccv::stats::write_table(&mut out, &st, Some(ccv::stats::By::Project), 100).expect("table");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.starts_with("3 sessions · 3 prompts · 5 tool calls"),
        "{text}"
    );
    assert!(text.contains("PROJECT"), "{text}");
    let app = text
        .lines()
        .find(|l| l.starts_with("/srv/app"))
        .expect("row");
    assert!(app.trim_end().ends_with("$0.11"), "{app}");
    let web = text
        .lines()
        .find(|l| l.starts_with("/srv/web"))
        .expect("row");
    assert!(web.trim_end().ends_with("$?"), "{web}");
    assert!(text.contains("top tools: Bash 5"), "{text}");
    assert!(
        text.contains(
            "+? 1 message from a model without a price is not in the cost: claude-future-9 (1)"
        ),
        "{text}"
    );
}

#[test]
fn prices_from_the_config_replace_the_bundled_ones_and_reprice_the_cache() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let a = |cmd: &mut Command| {
        let rows = run_json(cmd);
        rows.into_iter()
            .find(|r| r["session_id"] == "a")
            .expect("a listed")
    };
    assert!(close(
        &a(ccv(tmp.path()).args(["list", "--json"]).arg(&root))["cost_usd"],
        0.065
    ));
    // Opus 4.5 at $10 / $50, and a price for the unknown model
    let config = tmp.path().join("config/ccv/config.toml");
    fs::create_dir_all(config.parent().expect("dir")).expect("mkdir");
    fs::write(
        &config,
        "[prices.claude-opus-4-5]\ninput = 10.0\noutput = 50.0\n\n[prices.claude-future-9]\ninput = 1000.0\noutput = 0.0\n",
    )
    .expect("write");
    let priced = a(ccv(tmp.path())
        .env("XDG_CONFIG_HOME", tmp.path().join("config"))
        .args(["list", "--json"])
        .arg(&root));
    // 1,000 × $10 + 2,000 × $50 = $0.11, + the agent's Haiku $0.01
    assert!(close(&priced["cost_usd"], 0.12), "{priced}");
    let total = &run_json(
        ccv(tmp.path())
            .env("XDG_CONFIG_HOME", tmp.path().join("config"))
            .args(["stats", "--json"])
            .arg(&root),
    )[0];
    // c: 7 × $1000/M = $0.007
    assert!(close(&total["cost_usd"], 0.12 + 0.045 + 0.007), "{total}");
    // --config names another file; a broken one is reported, defaults used
    fs::write(&config, "[prices.claude-opus-4-5\ninput = 1\n").expect("write");
    let out = ccv(tmp.path())
        .arg("--config")
        .arg(&config)
        .args(["list", "--json"])
        .arg(&root)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml:1:") && err.contains("using defaults"),
        "{err}"
    );
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let a = rows.iter().find(|r| r["session_id"] == "a").expect("a");
    assert!(close(&a["cost_usd"], 0.065), "bundled prices again: {a}");
}

#[test]
fn piped_stats_are_whole_values_tab_separated() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let out = ccv(tmp.path())
        .args(["stats", "--by", "project"])
        .arg(&root)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0][..3], ["project", "sessions", "prompts"], "{text}");
    assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{text}");
    let app = rows
        .iter()
        .find(|r| r[0] == "/srv/app")
        .expect("a whole path");
    assert_eq!(app[8], "0.11", "{app:?}");
    let total = rows.last().expect("total");
    assert_eq!(total[0], "total");
    assert_eq!(total[1], "3");
}

/// Every corpus session: `ccv stats FILE` gives the figures of its row of
/// `ccv list`, to the millionth (costs that fall on half a millionth were
/// rounded either way when the two summed in different orders).
#[test]
fn stats_of_each_corpus_file_are_its_listed_figures() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let Some(dir) = files.first().and_then(|f| f.parent()) else {
        return;
    };
    let rows = run_json(ccv(tmp.path()).arg("list").arg("--json").arg(dir));
    assert!(!rows.is_empty());
    for row in &rows {
        let path = row["path"].as_str().expect("path");
        let st = &run_json(ccv(tmp.path()).args(["stats", "--json", path]))[0];
        assert_eq!(st["cost_usd"], row["cost_usd"], "{path}");
        assert_eq!(st["tokens"], row["tokens"], "{path}");
        assert_eq!(
            (&st["prompts"], &st["tool_calls"]),
            (&row["prompts"], &row["tool_calls"]),
            "{path}"
        );
    }
}

/// Figures to share: `ccv stats --redact` replaces the secrets of what
/// they name from sessions (a project's path, a model's or a tool's
/// name), as a table, tab-separated and as JSON, of a root and of a file.
#[test]
fn stats_redacted_show_no_secret() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    // a key made here: none sits in the repository
    let body: String = (0..93)
        .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
        .collect();
    let key = format!("sk-ant-api03-{body}AA");
    let seen = &body[..24];
    let file = root.join("-p/s.jsonl");
    write(
        &file,
        &[
            user("u1", "2025-03-01T10:00:00.000Z", &format!("/srv/{key}")),
            entry::call("a1", "m1", "t1", &format!("mcp-{key}"), json!({}))
                .model(&format!("claude-{key}"))
                .usage(json!({"input_tokens":1,"output_tokens":1}))
                .at("2025-03-01T10:00:01.000Z")
                .json(),
        ],
    );
    let run = |args: &[&str], path: &Path| {
        let out = ccv(tmp.path())
            .arg("stats")
            .args(args)
            .arg(path)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        run(&["--by", "project"], &root).contains(seen),
        "without --redact, as written"
    );
    for path in [&root, &file] {
        for args in [
            &["--redact", "--by", "project"][..],
            &["--redact", "--by", "model"],
            &["--redact", "--json", "--by", "model"],
            &["--redact", "--json", "--by", "project"],
        ] {
            let text = run(args, path);
            assert!(!text.contains(seen), "{args:?}: {text}");
            assert!(
                text.contains("[REDACTED:anthropic-api-key]"),
                "{args:?}: {text}"
            );
        }
    }
    // the table a terminal gets
    let mut st = ccv::stats::gather_file(
        &file,
        (Some(ccv::stats::By::Model), None, &jiff::tz::TimeZone::UTC),
    )
    .expect("a session");
    st.redact();
    let mut out = Vec::new();
    ccv::stats::write_table(&mut out, &st, Some(ccv::stats::By::Model), 200).expect("table");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(!text.contains(seen), "{text}");
}
