//! Codex CLI sessions. On `../shared/corpus-codex` (skipped with a reason
//! when absent): every call, output, typed prompt and answer of every
//! file exported exactly once, counted here from the raw lines with no
//! code of ccv's; token totals equal to the file's own running total.
//! On fixtures of real shapes: list, search, stats, export and a live
//! follow.

use crate::common;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub fn codex_corpus() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus-codex"
    ));
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: {} is absent", dir.display());
        return None;
    };
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    v.sort();
    Some(v)
}

const INJECTED: &[&str] = &[
    "<environment_context",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<permissions instructions>",
    "<collaboration_mode>",
    "<skills_instructions>",
    "<apps_instructions>",
    "<plugins_instructions>",
    "<model_switch>",
    "<turn_aborted>",
    "<user_shell_command>",
];

/// (prompts, answers, calls, outputs) as the raw file holds them: user
/// messages with typed text or an image, assistant messages with text plus the
/// UI's answers no message followed before the turn ended, calls (a web
/// search included) and their outputs (a web search's status is its).
fn raw_counts(path: &Path) -> [usize; 4] {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let (mut prompts, mut answers, mut calls, mut outputs) = (0, 0, 0, 0);
    let mut told = 0usize;
    for line in text.lines() {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let (kind, p) = match o.get("payload") {
            Some(p) => (o["type"].as_str().unwrap_or(""), p.clone()),
            None => ("response_item", Value::Object(o.clone())),
        };
        let t = p["type"].as_str().unwrap_or("");
        match (kind, t) {
            ("response_item", "message") => {
                let parts: Vec<String> = p["content"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|c| c["text"].as_str().map(str::to_owned))
                            .collect()
                    })
                    .or_else(|| p["content"].as_str().map(|s| vec![s.to_owned()]))
                    .unwrap_or_default();
                match p["role"].as_str() {
                    Some("assistant") if !parts.concat().trim().is_empty() => {
                        answers += 1;
                        told = told.saturating_sub(1);
                    }
                    Some("user") => {
                        let typed = parts
                            .iter()
                            .filter(|t| !t.trim().is_empty())
                            .filter(|t| !INJECTED.iter().any(|i| t.trim_start().starts_with(i)))
                            .count();
                        let image = p["content"]
                            .as_array()
                            .is_some_and(|a| a.iter().any(|c| c["type"] == "input_image"));
                        if typed > 0 || image {
                            answers += told;
                            told = 0;
                            prompts += 1;
                        }
                    }
                    _ => {}
                }
            }
            ("response_item", "function_call" | "custom_tool_call" | "local_shell_call") => {
                calls += 1
            }
            (
                "response_item",
                "function_call_output" | "custom_tool_call_output" | "local_shell_call_output",
            ) => outputs += 1,
            ("response_item", "web_search_call") => {
                calls += 1;
                outputs += 1;
            }
            ("event_msg", "agent_message")
                if p["message"].as_str().is_some_and(|m| !m.trim().is_empty()) =>
            {
                told += 1
            }
            ("event_msg", "turn_aborted" | "task_complete" | "task_started") | ("compacted", _) => {
                answers += told;
                told = 0;
            }
            _ => {}
        }
    }
    [prompts, answers + told, calls, outputs]
}

fn exported(home: &Path, path: &Path) -> BTreeMap<String, usize> {
    let rows = common::json_lines_of(
        common::ccv_at(home)
            .args(["export", "--format", "json"])
            .arg(path),
    );
    let mut by_kind = BTreeMap::new();
    for r in rows {
        *by_kind
            .entry(r["kind"].as_str().unwrap_or("?").to_owned())
            .or_insert(0) += 1;
    }
    by_kind
}

#[test]
fn every_corpus_file_exports_each_prompt_answer_call_and_output_once() {
    let Some(files) = codex_corpus() else { return };
    let home = tempfile::tempdir().expect("tempdir");
    let mut checked = 0;
    for f in &files {
        let [prompts, answers, calls, outputs] = raw_counts(f);
        let got = exported(home.path(), f);
        let n = |k: &str| got.get(k).copied().unwrap_or(0);
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
        assert_eq!(n("tool_call"), calls, "calls of {name:?}: {got:?}");
        assert_eq!(n("tool_result"), outputs, "outputs of {name:?}: {got:?}");
        assert_eq!(n("assistant"), answers, "answers of {name:?}: {got:?}");
        assert_eq!(n("user"), prompts, "prompts of {name:?}: {got:?}");
        assert_eq!(n("unreadable"), 0, "{name:?}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

/// (final input, final output) of a file whose running total always grew
/// by its last request; `None` for one that restarts or skips.
fn consistent_total(path: &Path) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut total: Option<[u64; 2]> = None;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["payload"]["type"] != "token_count" || v["payload"]["info"].is_null() {
            continue;
        }
        let info = &v["payload"]["info"];
        let n = |u: &Value, k: &str| u[k].as_u64().unwrap_or(0);
        let now = [
            n(&info["total_token_usage"], "input_tokens"),
            n(&info["total_token_usage"], "output_tokens"),
        ];
        let last = [
            n(&info["last_token_usage"], "input_tokens"),
            n(&info["last_token_usage"], "output_tokens"),
        ];
        match total {
            Some(t) if t == now => continue,
            Some(t) if [t[0] + last[0], t[1] + last[1]] != now => return None,
            None if now != last => return None,
            _ => total = Some(now),
        }
    }
    total.map(|t| (t[0], t[1]))
}

#[test]
fn a_sessions_tokens_are_its_files_running_total() {
    let Some(files) = codex_corpus() else { return };
    let home = tempfile::tempdir().expect("tempdir");
    let day = home.path().join("codex/sessions/2026/01/30");
    std::fs::create_dir_all(&day).expect("mkdir");
    let mut want = BTreeMap::new();
    for f in &files {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let Some(rollout) = name
            .rsplit("__")
            .next()
            .filter(|n| n.starts_with("rollout-"))
        else {
            continue;
        };
        std::fs::copy(f, day.join(rollout)).expect("copy");
        if let Some(t) = consistent_total(f) {
            want.insert(rollout.to_owned(), t);
        }
    }
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(home.path().join("codex/sessions")),
    );
    let mut checked = 0;
    for r in &rows {
        let path = r["path"].as_str().unwrap_or("");
        let Some((input, output)) = want.get(path.rsplit('/').next().unwrap_or("")) else {
            continue;
        };
        let t = &r["tokens"];
        let n = |k: &str| t[k].as_u64().unwrap_or(0);
        assert_eq!(n("input") + n("cache_read"), *input, "{path}");
        assert_eq!(n("output"), *output, "{path}");
        assert_eq!(n("cache_creation"), 0, "{path}");
        checked += 1;
    }
    assert!(checked >= 20, "{checked} of {}", want.len());
    // every GPT-5 model Codex used is priced
    for r in &rows {
        if r["model"].as_str().is_some_and(|m| m.starts_with("gpt-5")) {
            assert!(r["cost_usd"].as_f64().is_some(), "{r}");
            assert_eq!(r["unpriced_messages"], 0, "{r}");
        }
    }
}

/// A Codex line: its time, its type and its payload.
fn env(t: &str, ty: &str, p: Value) -> String {
    json!({"timestamp": t, "type": ty, "payload": p}).to_string()
}

pub const ID: &str = "019a0000-1111-7222-8333-444455556666";

/// A Codex session of real shapes (0.98-0.139): meta, context, injected
/// text, a prompt and its UI copy, reasoning, a shell call and its output,
/// a patch, repeated token counts and the answer with its UI copy first.
pub fn rollout_lines() -> Vec<String> {
    let usage = |i: u64, c: u64, o: u64| json!({"input_tokens": i, "cached_input_tokens": c, "output_tokens": o, "reasoning_output_tokens": 0, "total_tokens": i + o});
    vec![
        env(
            "2026-01-30T10:00:00.000Z",
            "session_meta",
            json!({"id": ID, "timestamp": "2026-01-30T10:00:00.000Z", "cwd": "/srv/shop", "originator": "codex_cli_rs", "cli_version": "0.139.0", "git": {"branch": "main"}}),
        ),
        env(
            "2026-01-30T10:00:01.000Z",
            "turn_context",
            json!({"cwd": "/srv/shop", "model": "gpt-5.3-codex", "approval_policy": "on-request"}),
        ),
        env(
            "2026-01-30T10:00:01.000Z",
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>\n  <cwd>/srv/shop</cwd>\n</environment_context>"}]}),
        ),
        env(
            "2026-01-30T10:00:02.000Z",
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the checkout rounding bug"}]}),
        ),
        env(
            "2026-01-30T10:00:02.000Z",
            "event_msg",
            json!({"type": "user_message", "message": "Fix the checkout rounding bug", "images": []}),
        ),
        env(
            "2026-01-30T10:00:05.000Z",
            "event_msg",
            json!({"type": "agent_reasoning", "text": "**Looking at totals**"}),
        ),
        env(
            "2026-01-30T10:00:05.000Z",
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Looking at totals**"}], "content": null, "encrypted_content": "gAAAA"}),
        ),
        env(
            "2026-01-30T10:00:06.000Z",
            "response_item",
            json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"grep -rn quantize src\"}", "call_id": "call_1"}),
        ),
        env(
            "2026-01-30T10:00:07.000Z",
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": usage(1000, 200, 50), "last_token_usage": usage(1000, 200, 50), "model_context_window": 272000}}),
        ),
        env(
            "2026-01-30T10:00:07.000Z",
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": usage(1000, 200, 50), "last_token_usage": usage(1000, 200, 50), "model_context_window": 272000}}),
        ),
        env(
            "2026-01-30T10:00:08.000Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_1", "output": "Command: grep -rn quantize src\nProcess exited with code 0\nOutput:\nsrc/cart.rs:12: fn quantize(x: f64)"}),
        ),
        env(
            "2026-01-30T10:00:09.000Z",
            "response_item",
            json!({"type": "custom_tool_call", "name": "apply_patch", "status": "completed", "call_id": "call_2", "input": "*** Begin Patch\n*** Update File: src/cart.rs\n@@\n-    (x * 100.0).floor() / 100.0\n+    (x * 100.0).round() / 100.0\n*** End Patch\n"}),
        ),
        env(
            "2026-01-30T10:00:10.000Z",
            "response_item",
            json!({"type": "custom_tool_call_output", "call_id": "call_2", "output": "{\"output\":\"Success. Updated the following files:\\nM src/cart.rs\\n\",\"metadata\":{\"exit_code\":0}}"}),
        ),
        env(
            "2026-01-30T10:00:11.000Z",
            "event_msg",
            json!({"type": "agent_message", "message": "Rounding now uses round(), not floor()."}),
        ),
        env(
            "2026-01-30T10:00:12.000Z",
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": usage(3000, 1200, 150), "last_token_usage": usage(2000, 1000, 100), "model_context_window": 272000}}),
        ),
        env(
            "2026-01-30T10:00:12.000Z",
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Rounding now uses round(), not floor()."}], "phase": "final_answer"}),
        ),
        env(
            "2026-01-30T10:00:13.000Z",
            "event_msg",
            json!({"type": "task_complete", "last_agent_message": "Rounding now uses round(), not floor()."}),
        ),
    ]
}

pub fn codex_tree(home: &Path) -> PathBuf {
    let day = home.join("codex/sessions/2026/01/30");
    std::fs::create_dir_all(&day).expect("mkdir");
    let f = day.join(format!("rollout-2026-01-30T10-00-00-{ID}.jsonl"));
    std::fs::write(&f, rollout_lines().join("\n") + "\n").expect("write");
    f
}

#[test]
fn a_codex_session_is_listed_searched_counted_and_exported() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = codex_tree(home.path());
    let root = home.path().join("codex/sessions");
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(&root),
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = &rows[0];
    assert_eq!(r["session_id"], ID);
    assert_eq!(r["project"], "/srv/shop");
    assert_eq!(r["title"], "Fix the checkout rounding bug");
    assert_eq!(r["model"], "gpt-5.3-codex");
    assert_eq!(r["git_branch"], "main");
    // two requests (the repeated count is one): 3,000 in of which 1,200
    // cached, 150 out; at gpt-5.3-codex's $1.75 / $0.175 / $14
    assert_eq!(
        r["tokens"],
        json!({"input": 1800, "cache_read": 1200, "output": 150, "cache_creation": 0})
    );
    let usd = (1800.0 * 1.75 + 1200.0 * 0.175 + 150.0 * 14.0) / 1e6;
    assert!(
        (r["cost_usd"].as_f64().expect("cost") - usd).abs() < 1e-9,
        "{r}"
    );
    assert_eq!(r["tool_calls"], 2);
    // search finds it by a word of a tool's output
    let out = common::ccv_at(home.path())
        .args(["search", "quantize"])
        .arg(&root)
        .output()
        .expect("search");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("Fix the checkout rounding bug") || said.contains(ID),
        "{said}"
    );
    // stats counts its tokens
    let out = common::ccv_at(home.path())
        .arg("stats")
        .arg(&root)
        .output()
        .expect("stats");
    let stats = String::from_utf8_lossy(&out.stdout);
    assert!(stats.contains("1800") || stats.contains("1,800"), "{stats}");
    // the export: each thing once, the shell call as Bash, the patch as an edit
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["export", "--format", "json"])
            .arg(&file),
    );
    let kinds: Vec<&str> = rows.iter().filter_map(|r| r["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        [
            "meta",
            "user",
            "thinking",
            "tool_call",
            "tool_result",
            "tool_call",
            "tool_result",
            "assistant"
        ],
        "{rows:?}"
    );
    assert_eq!(rows[3]["tool_name"], "Bash");
    assert_eq!(rows[3]["input"]["command"], "grep -rn quantize src");
    assert_eq!(rows[5]["tool_name"], "Edit");
    assert_eq!(rows[5]["input"]["file_path"], "src/cart.rs");
}

/// A request's figure that is no count (Codex never writes one, a damaged
/// or hand-edited file can) makes that request unpriced, said as
/// `(usage unreadable)`: priced from the figures left, the session cost
/// too little and said nothing.
/// An older Codex sent a custom prompt as its file, front matter first:
/// the session is named by the prompt's description, in the list and in
/// the viewer's header, not by its `---` fence.
#[test]
fn a_prompt_file_sent_whole_names_the_session_by_its_description() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = codex_tree(home.path());
    let prompt = "---\ndescription: Create or update the feature specification.\n---\n\nUser input: $ARGUMENTS";
    let lines: Vec<String> = rollout_lines()
        .into_iter()
        .map(|l| {
            l.replace(
                "Fix the checkout rounding bug",
                &prompt.replace('\n', "\\n"),
            )
        })
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let rows = common::json_lines_of(
        common::ccv_at(home.path())
            .args(["list", "--json"])
            .arg(home.path().join("codex/sessions")),
    );
    assert_eq!(
        rows[0]["title"], "Create or update the feature specification.",
        "{rows:?}"
    );
    let mut s = ccv::model::Session::new(None);
    for l in &lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    assert_eq!(
        s.title(),
        Some("Create or update the feature specification.")
    );
}

#[test]
fn a_codex_usage_read_in_part_is_said_not_priced_low() {
    let first_only = (800.0 * 1.75 + 200.0 * 0.175 + 50.0 * 14.0) / 1e6;
    for (key, bad) in [
        ("input_tokens", json!("2000")),
        ("input_tokens", json!(-5)),
        ("cached_input_tokens", json!(1.5)),
        ("cached_input_tokens", Value::Null),
        ("output_tokens", json!(1e30)),
        ("output_tokens", json!({"n": 100})),
    ] {
        for per_request in [true, false] {
            let home = tempfile::tempdir().expect("tempdir");
            let root = home.path().join("codex/sessions");
            let day = root.join("2026/01/30");
            std::fs::create_dir_all(&day).expect("mkdir");
            let mut lines = rollout_lines();
            let second = lines
                .iter()
                .position(|l| l.contains("\"input_tokens\":3000"))
                .expect("the second request's count");
            let mut v: Value = serde_json::from_str(&lines[second]).expect("json");
            let info = &mut v["payload"]["info"];
            if per_request {
                info["last_token_usage"][key] = bad.clone();
            } else {
                // no per-request figures: the request is what the total grew by
                info.as_object_mut()
                    .expect("info")
                    .remove("last_token_usage");
                info["total_token_usage"][key] = bad.clone();
            }
            lines[second] = v.to_string();
            std::fs::write(
                day.join(format!("rollout-2026-01-30T10-00-00-{ID}.jsonl")),
                lines.join("\n") + "\n",
            )
            .expect("write");
            let rows = common::json_lines_of(
                common::ccv_at(home.path())
                    .args(["list", "--json"])
                    .arg(&root),
            );
            let case = format!("{key} = {bad} (per request: {per_request})");
            let r = &rows[0];
            assert_eq!(r["unpriced_messages"], 1, "{case}: {r}");
            assert_eq!(
                r["unpriced_models"],
                json!({"(usage unreadable)": 1}),
                "{case}"
            );
            let usd = r["cost_usd"].as_f64().expect("cost");
            assert!((usd - first_only).abs() < 1e-9, "{case}: {r}");
        }
    }
}

#[test]
fn a_running_codex_session_is_followed_line_by_line() {
    let lines = rollout_lines();
    let mut s = ccv::model::Session::new(None);
    let mut seen = Vec::new();
    for l in &lines {
        // a line arrives in two writes
        let (a, b) = l.split_at(l.len() / 2);
        s.feed(0, a.as_bytes());
        s.feed(0, format!("{b}\n").as_bytes());
        seen.push(s.main.items.len());
    }
    assert_eq!(s.format(), Some("codex"));
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    // the prompt shows as soon as its line is whole, the answer at its item
    assert_eq!(seen[3], 2, "{seen:?}");
    assert_eq!(seen.last().copied(), Some(6), "{seen:?}");
}

/// A Codex line read at the end of a read, before its newline came (a
/// follower that read between the two, a file whose last line has none),
/// is read once: the newline after it hands nothing on. It was translated
/// again when its newline came, and its row shown twice.
#[test]
fn a_codex_line_read_before_its_newline_is_read_once() {
    let text = rollout_lines().join("\n") + "\n";
    let mut whole = ccv::model::Session::new(None);
    whole.feed(0, text.as_bytes());
    whole.finish(0);
    let mut parts = ccv::model::Session::new(None);
    for line in rollout_lines() {
        parts.feed(0, line.as_bytes());
        parts.flush_tail(0);
        parts.feed(0, b"\n");
        parts.flush_tail(0);
    }
    parts.finish(0);
    let rows = |s: &ccv::model::Session| {
        s.main
            .items
            .iter()
            .map(|i| (i.kind, i.line, i.text.or_marker().to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&whole), rows(&parts));
    assert_eq!(whole.stats.entries, parts.stats.entries);
}

/// The hits of `words` in `root` as (file, line, kind, time), with the
/// index and without.
fn hits_both_ways(home: &Path, root: &Path, words: &[&str]) -> [Vec<Vec<Value>>; 2] {
    let search = |w: &str| -> Vec<Value> {
        let out = common::ccv_at(home)
            .env("CCV_NO_BACKGROUND_INDEX", "1")
            .args(["search", "--json", "--limit", "100000", w])
            .arg(root)
            .output()
            .expect("search");
        let mut v: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|h| json!([h["path"], h["line"], h["kind"], h["timestamp"]]))
            .collect();
        v.sort_by_key(|h| h.to_string());
        v
    };
    let before: Vec<Vec<Value>> = words.iter().map(|w| search(w)).collect();
    common::ccv_at(home)
        .arg("index")
        .arg(root)
        .assert()
        .success();
    let after: Vec<Vec<Value>> = words.iter().map(|w| search(w)).collect();
    [before, after]
}

/// A search reads the lines that hold its words apart from their file: a
/// line of a Codex file is read after the file's first line, which the
/// older layout's bare items need (read alone they were rows of an
/// unknown kind, with no time), so the rows found are those the viewer
/// shows, the same with the index and without.
#[test]
fn a_codex_line_read_apart_is_read_as_its_file_says() {
    let home = tempfile::tempdir().expect("tempdir");
    let day = home.path().join("codex/sessions/2025/08/23");
    std::fs::create_dir_all(&day).expect("mkdir");
    let lines = [
        json!({"id": "84b6da18-7357-4ad0-89d6-64f637ddde0d", "timestamp": "2025-08-23T16:52:59.705Z", "instructions": "be brief", "git": {"branch": "main"}}),
        json!({"record_type": "state"}),
        json!({"type": "message", "id": null, "role": "user", "content": [{"type": "input_text", "text": "find the narwhal module"}]}),
        json!({"record_type": "state"}),
        json!({"type": "function_call", "id": null, "name": "shell", "arguments": "{\"command\":[\"bash\",\"-lc\",\"grep -rn narwhal src\"]}", "call_id": "call_1"}),
        json!({"type": "function_call_output", "call_id": "call_1", "output": "{\"output\":\"src/narwhal.rs:1: mod narwhal\",\"metadata\":{\"exit_code\":0}}"}),
        json!({"type": "message", "id": null, "role": "assistant", "content": [{"type": "output_text", "text": "The narwhal module is in src/narwhal.rs."}]}),
        json!({"record_type": "state"}),
        // the same prompt again: a row of its own (the uuids a Codex file
        // is given as it is read are no copies' marks)
        json!({"type": "message", "id": null, "role": "user", "content": [{"type": "input_text", "text": "find the narwhal module"}]}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(
        day.join("rollout-2025-08-23T16-52-59-84b6da18-7357-4ad0-89d6-64f637ddde0d.jsonl"),
        text,
    )
    .expect("write");
    let root = home.path().join("codex/sessions");
    let [before, after] = hits_both_ways(home.path(), &root, &["narwhal"]);
    assert_eq!(before, after);
    let kinds: Vec<&str> = before[0].iter().filter_map(|h| h[2].as_str()).collect();
    assert!(!kinds.contains(&"unknown"), "{before:?}");
    for want in ["user", "tool_call", "tool_result", "assistant"] {
        assert!(kinds.contains(&want), "{want}: {before:?}");
    }
    assert_eq!(
        kinds.iter().filter(|k| **k == "user").count(),
        2,
        "{before:?}"
    );
    // each dated by the header, as the viewer dates them
    assert!(
        before[0].iter().all(|h| h[3]
            .as_str()
            .is_some_and(|t| t.starts_with("2025-08-23T16:52:59"))),
        "{before:?}"
    );
}

/// On every file of the Codex corpus, a search finds the same rows with
/// the index as without (each line read apart, after its file's first).
#[test]
fn a_search_of_codex_files_is_the_same_with_the_index_and_without() {
    let Some(files) = codex_corpus() else { return };
    let home = tempfile::tempdir().expect("tempdir");
    let day = home.path().join("codex/sessions/2026/01/30");
    std::fs::create_dir_all(&day).expect("mkdir");
    for f in &files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(at) = name.find("rollout-") else {
            continue;
        };
        std::fs::copy(f, day.join(&name[at..])).expect("copy");
    }
    let root = home.path().join("codex/sessions");
    let words = ["error", "the", "shell", "json", "function_call", "1"];
    let [before, after] = hits_both_ways(home.path(), &root, &words);
    for (i, w) in words.iter().enumerate() {
        assert_eq!(before[i].len(), after[i].len(), "{w}");
        assert_eq!(before[i], after[i], "{w}");
        assert!(
            before[i].iter().all(|h| h[2] != "unknown"),
            "{w}: {:?}",
            before[i]
                .iter()
                .filter(|h| h[2] == "unknown")
                .collect::<Vec<_>>()
        );
    }
}

/// A command Codex ran that failed says its exit code on its row, as
/// Claude Code's do (`exit 1`), not the first line of its output (Codex
/// heads it with `Chunk ID: …`); one that succeeded says nothing of it.
/// A command line that only starts a shell on a script is shown as that
/// script.
#[test]
fn a_failed_codex_command_says_its_exit_code() {
    let mut lines = rollout_lines();
    let at = lines.len() - 1;
    lines.insert(
        at,
        env(
            "2026-01-30T10:00:12.500Z",
            "response_item",
            json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"rospack find teleop\"}", "call_id": "call_9"}),
        ),
    );
    lines.insert(
        at + 1,
        env(
            "2026-01-30T10:00:12.600Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_9", "output": "Chunk ID: 5c4364\nWall time: 0.3357 seconds\nProcess exited with code 2\nOriginal token count: 15\nOutput:\n[rospack] Error: package 'teleop' not found\n"}),
        ),
    );
    // a command line that only runs a shell on a script shows the script
    lines.insert(
        at + 2,
        env(
            "2026-01-30T10:00:13.000Z",
            "response_item",
            json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"bash --noprofile --norc -lc 'set -e; make -j2 all'\"}", "call_id": "call_10"}),
        ),
    );
    lines.insert(
        at + 3,
        env(
            "2026-01-30T10:00:13.100Z",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_10", "output": "Process exited with code 0\nOutput:\nok\n"}),
        ),
    );
    let screen = expanded_screen(&lines, 30);
    assert!(screen.contains("rospack find teleop · exit 2"), "{screen}");
    assert!(!screen.contains("Chunk ID"), "{screen}");
    assert!(!screen.contains("exit 0"), "{screen}");
    assert!(
        screen.contains("Bash       set -e; make -j2 all"),
        "{screen}"
    );
    assert!(!screen.contains("--noprofile"), "{screen}");
}

/// Codex's `exec_command` that yields while its process runs says
/// `still running`, and a `write_stdin` that types nothing (a wait for
/// more output) reads as Claude Code's wait for a background command:
/// `BashOutput`, naming the command it waits on, then how it ended; one
/// that types Ctrl-C as its stop (`KillShell`); one that types an answer
/// says what it typed, into which command. A patch that only adds a
/// file is a write of it.
#[test]
fn a_codex_wait_names_its_command_and_a_new_file_is_a_write() {
    let mut lines = rollout_lines();
    let at = lines.len() - 1;
    let call = |id: &str, name: &str, args: Value| json!({"type": "function_call", "name": name, "arguments": args.to_string(), "call_id": id});
    let out =
        |id: &str, o: &str| json!({"type": "function_call_output", "call_id": id, "output": o});
    let running = "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 60387\nOriginal token count: 0\nOutput:\n";
    for (n, p) in [
        call("c1", "exec_command", json!({"cmd": "catkin_make --pkg slam", "yield_time_ms": 1000})),
        out("c1", running),
        call("c2", "write_stdin", json!({"session_id": 60387, "chars": "", "yield_time_ms": 5000})),
        out("c2", running),
        call("c3", "write_stdin", json!({"session_id": 60387, "chars": ""})),
        out("c3", "Chunk ID: 2\nWall time: 2.0 seconds\nProcess exited with code 1\nOutput:\nmake: *** [all] Error 2\n"),
        call("c4", "write_stdin", json!({"session_id": 60387, "chars": "y\n"})),
        out("c4", "Chunk ID: 3\nOutput:\n"),
        call("c6", "write_stdin", json!({"session_id": 60387, "chars": "\u{3}"})),
        out("c6", "Chunk ID: 4\nProcess exited with code 130\nOutput:\n"),
        json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": "c5", "input": "*** Begin Patch\n*** Add File: src/wander.py\n+import rospy\n+print(1)\n*** End Patch\n"}),
        json!({"type": "custom_tool_call_output", "call_id": "c5", "output": "Success. Updated the following files:\nA src/wander.py\n"}),
    ]
    .into_iter()
    .enumerate()
    {
        lines.insert(at + n, env(&format!("2026-01-30T10:00:{:02}.000Z", 20 + n), "response_item", p));
    }
    let screen = expanded_screen(&lines, 60);
    for row in [
        "Bash       catkin_make --pkg slam · still running",
        "BashOutput 60387 (catkin_make --pkg slam) · still running",
        "BashOutput 60387 (catkin_make --pkg slam) · exit 1",
        "write_stdin \"y⏎\" → 60387 (catkin_make --pkg slam)",
        "KillShell  60387 (catkin_make --pkg slam) · exit 130",
        "Write      src/wander.py",
    ] {
        assert!(screen.contains(row), "{row}:\n{screen}");
    }
    assert!(!screen.contains("in background"), "{screen}");
}

/// The rows of a rollout's lines, every group open, at 120 columns.
fn expanded_screen(lines: &[String], height: u16) -> String {
    let mut s = ccv::model::Session::new(None);
    for l in lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    let mut st = common::utc_state(s);
    ccv::app::perform_action(&mut st, ccv::app::Action::ExpandAll);
    let mut t =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, height)).expect("term");
    t.draw(|f| common::draw(f, &mut st)).expect("draw");
    format!("{:?}", t.backend())
}

/// Reasoning Codex kept encrypted, which nobody can read, has no row (a
/// row saying `redacted thinking` came before nearly every answer and call
/// of some sessions): it is counted among the hidden lines, under its own
/// reason. A reasoning with a summary shows the summary.
#[test]
fn encrypted_reasoning_is_hidden_and_counted_a_summary_shown() {
    let mut lines = rollout_lines();
    let at = lines.len() - 1;
    for (k, reasoning) in [
        json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": "gAAAAB"}),
        json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": null}),
    ]
    .into_iter()
    .enumerate()
    {
        lines.insert(
            at + k,
            env("2026-01-30T10:00:12.500Z", "response_item", reasoning),
        );
    }
    let screen = expanded_screen(&lines, 30);
    assert!(screen.contains("Thinking   3 words"), "{screen}");
    assert!(!screen.contains("redacted"), "{screen}");
    let mut s = ccv::model::Session::new(None);
    for l in &lines {
        s.feed(0, format!("{l}\n").as_bytes());
    }
    s.finish(0);
    let hidden = &s.stats.hidden_by_reason;
    assert_eq!(
        hidden.get("codex: reasoning kept encrypted"),
        Some(&1),
        "{hidden:?}"
    );
    assert_eq!(hidden.get("codex: empty reasoning"), Some(&1), "{hidden:?}");
    let thinking = common::exported(&s, ccv::export::Format::Json)
        .lines()
        .filter(|l| l.contains(r#""kind":"thinking""#))
        .count();
    assert_eq!(thinking, 1);
}
