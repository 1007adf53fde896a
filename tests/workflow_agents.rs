//! The agents of a Workflow run (Claude Code writes each run's transcripts
//! to `<session>/subagents/workflows/<run>/agent-<id>.jsonl`, beside a
//! `journal.jsonl` of its steps): read with their session wherever its
//! subagents are, in the export, the listing's counts and cost, `stats`,
//! and search. Through the built binary, in a temp dir.

use crate::common;
use crate::common::entry;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

const HAIKU: &str = "claude-haiku-4-5-20251001";

fn write(path: &Path, lines: &[Value]) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(path, text).expect("write");
}

/// A run's agent: its prompt, and an answer of `input` tokens (Haiku 4.5,
/// $1 a million) saying `text`.
fn agent(id: &str, text: &str, input: u64) -> Vec<Value> {
    let side = |e: entry::Entry| {
        e.session("s1")
            .with(json!({"isSidechain": true, "agentId": id}))
            .at("2025-03-01T10:01:00.000Z")
            .json()
    };
    vec![
        side(entry::user(&format!("{id}-u"), "Sweep the docs").root()),
        side(
            entry::text_answer(&format!("{id}-a"), &format!("m-{id}"), text)
                .parent(&format!("{id}-u"))
                .model(HAIKU)
                .usage(json!({"input_tokens": input, "output_tokens": 0})),
        ),
    ]
}

/// The session `s1` of project `/srv/app`: a prompt, a Workflow call
/// (Opus 4.5: 1,000 tokens in at $5 a million, $0.005) and its result
/// naming run `wf_1`, whose folder holds one agent (10,000 tokens in,
/// $0.01), its meta file and its journal. The session file's path.
fn tree(root: &Path) -> PathBuf {
    let main = root.join("-srv-app/s1.jsonl");
    let opus = "claude-opus-4-5-20251101";
    write(
        &main,
        &[
            entry::user("u1", "Run the docs sweep")
                .session("s1")
                .cwd("/srv/app")
                .at("2025-03-01T10:00:00.000Z")
                .json(),
            entry::call(
                "a1",
                "m1",
                "t1",
                "Workflow",
                json!({"scriptPath": "/srv/sweep.workflow.js"}),
            )
            .session("s1")
            .parent("u1")
            .model(opus)
            .usage(json!({"input_tokens": 1000, "output_tokens": 0}))
            .at("2025-03-01T10:00:05.000Z")
            .json(),
            entry::result("r1", "t1", "Workflow launched in background.")
                .session("s1")
                .parent("a1")
                .with(json!({"toolUseResult": {"status": "async_launched", "runId": "wf_1"}}))
                .at("2025-03-01T10:00:06.000Z")
                .json(),
        ],
    );
    let run = root.join("-srv-app/s1/subagents/workflows/wf_1");
    write(
        &run.join("agent-w1.jsonl"),
        &agent("w1", "Swept the docs tree", 10_000),
    );
    write(
        &run.join("journal.jsonl"),
        &[
            json!({"type": "started", "key": "k", "agentId": "w1"}),
            json!({"type": "result", "key": "k", "agentId": "w1", "result": "Journal words"}),
        ],
    );
    fs::write(run.join("agent-w1.meta.json"), r#"{"agentType":"worker"}"#).expect("meta");
    main
}

fn ccv(home: &Path) -> Command {
    common::ccv_at(home)
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64()
        .is_some_and(|x| (x - want).abs() < want * 0.01 + 1e-9)
}

#[test]
fn a_runs_agents_are_exported_with_their_session() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let main = tree(&tmp.path().join("projects"));
    let text = stdout(ccv(tmp.path()).arg("export").arg(&main));
    assert!(text.contains("Swept the docs tree"), "{text}");
    assert!(
        !text.contains("Journal words"),
        "the journal is no transcript: {text}"
    );
    let check = stdout(ccv(tmp.path()).arg("check").arg(&main));
    assert!(!check.contains("nreadable"), "{check}");
}

#[test]
fn a_runs_agents_count_in_the_listing_and_in_stats() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    tree(&root);
    let rows = common::json_lines_of(ccv(tmp.path()).args(["list", "--json"]).arg(&root));
    let s1 = rows
        .iter()
        .find(|r| r["session_id"] == "s1")
        .expect("listed");
    assert!(close(&s1["cost_usd"], 0.015), "{s1}");
    assert_eq!(s1["agent_tokens"]["input"], 10_000, "{s1}");
    assert_eq!(s1["subagents"], 1, "{s1}");
    let stats = common::json_lines_of(ccv(tmp.path()).args(["stats", "--json"]).arg(&root));
    assert!(close(&stats[0]["cost_usd"], 0.015), "{stats:?}");
    // the session file gone: its run's agent is still counted
    fs::remove_file(root.join("-srv-app/s1.jsonl")).expect("rm");
    let stats = common::json_lines_of(ccv(tmp.path()).args(["stats", "--json"]).arg(&root));
    assert!(close(&stats[0]["cost_usd"], 0.01), "{stats:?}");
}

/// Sets the mtime of `path` (a file or a folder) to 2020.
fn age(path: &Path) {
    let then = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    fs::File::open(path)
        .and_then(|f| f.set_modified(then))
        .expect("set mtime");
}

/// [`tree`], every file and folder of it dated 2020 (old enough for what
/// is kept of them to be believed): its `subagents/` folder and its run's.
fn aged_tree(root: &Path) -> (PathBuf, PathBuf) {
    let main = tree(root);
    let sub = root.join("-srv-app/s1/subagents");
    let run = sub.join("workflows/wf_1");
    for p in [
        &main,
        &run.join("agent-w1.jsonl"),
        &run,
        &sub.join("workflows"),
        &sub,
    ] {
        age(p);
    }
    (sub, run)
}

/// A transcript added to a run's folder changes that folder's mtime, not
/// the `subagents/` folder's: the cached listing sees it all the same.
#[test]
fn an_agent_added_to_a_run_is_seen_by_the_cached_listing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("projects");
    let (sub, run) = aged_tree(&root);
    let list = || {
        let rows = common::json_lines_of(ccv(tmp.path()).args(["list", "--json"]).arg(&root));
        rows.into_iter()
            .find(|r| r["session_id"] == "s1")
            .expect("listed")
    };
    assert!(close(&list()["cost_usd"], 0.015));
    assert!(close(&list()["cost_usd"], 0.015), "from the cache");
    write(&run.join("agent-w2.jsonl"), &agent("w2", "More", 20_000));
    let s1 = list();
    assert!(close(&s1["cost_usd"], 0.035), "{s1}");
    assert_eq!(s1["subagents"], 2, "{s1}");
    // a second run, in a folder of its own
    write(
        &sub.join("workflows/wf_2/agent-w3.jsonl"),
        &agent("w3", "Later", 30_000),
    );
    let s1 = list();
    assert!(close(&s1["cost_usd"], 0.065), "{s1}");
    assert_eq!(s1["subagents"], 3, "{s1}");
}

#[test]
fn a_runs_agents_are_searched_before_and_after_an_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("claude/projects");
    tree(&root);
    let agent = "workflows/wf_1/agent-w1.jsonl";
    let found = stdout(ccv(tmp.path()).args(["search", "swept"]));
    assert!(found.contains(agent), "{found}");
    // (no hit: exit 1)
    let journal = ccv(tmp.path())
        .args(["search", "journal"])
        .output()
        .expect("runs");
    let journal = String::from_utf8_lossy(&journal.stdout);
    assert!(!journal.contains("journal.jsonl"), "{journal}");
    stdout(ccv(tmp.path()).arg("index"));
    let found = stdout(ccv(tmp.path()).args(["search", "swept"]));
    assert!(found.contains(agent), "{found}");
}

/// The folders a search found are kept for the next (when their mtimes
/// are old enough to be believed): a session's `subagents/` folder kept
/// says it holds Workflow runs, and a run's folder that changed is read
/// again.
#[test]
fn a_search_keeps_the_runs_folders_it_found() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("claude/projects");
    let (_, run) = aged_tree(&root);
    // (an indexed search keeps them: a first one reads every file anyway)
    stdout(ccv(tmp.path()).arg("index"));
    for _ in 0..2 {
        let found = stdout(ccv(tmp.path()).args(["search", "swept"]));
        assert!(found.contains("wf_1/agent-w1.jsonl"), "{found}");
    }
    assert!(tmp.path().join("cache/ccv/folders-v1.bin").is_file());
    write(
        &run.join("agent-w2.jsonl"),
        &agent("w2", "Mopped the floor", 1),
    );
    let found = stdout(ccv(tmp.path()).args(["search", "mopped"]));
    assert!(found.contains("wf_1/agent-w2.jsonl"), "{found}");
}

/// A subagent whose first prompt is not its call's (no result names it
/// yet: it still runs), with the meta file Claude Code writes beside its
/// transcript: linked to the call the meta file names, typed by it; a
/// run's agent, which no call started, is labelled by its description.
#[test]
fn meta_files_link_and_label_subagents() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let main = tree(&tmp.path().join("projects"));
    let sub = main.with_extension("").join("subagents");
    let mut lines = vec![
        entry::user("u2", "Review it")
            .session("s1")
            .parent("r1")
            .at("2025-03-01T10:02:00.000Z")
            .json(),
        entry::call(
            "a2",
            "m2",
            "t2",
            "Agent",
            json!({"prompt": "Review the diff"}),
        )
        .session("s1")
        .parent("u2")
        .at("2025-03-01T10:02:01.000Z")
        .json(),
    ];
    let text: String = lines.drain(..).map(|l| format!("{l}\n")).collect();
    let mut old = fs::read_to_string(&main).expect("read");
    old.push_str(&text);
    fs::write(&main, old).expect("write");
    write(&sub.join("agent-r1.jsonl"), &agent("r1", "Looking", 5));
    fs::write(
        sub.join("agent-r1.meta.json"),
        r#"{"agentType":"code-reviewer","description":"Review\nthe diff","toolUseId":"t2","spawnDepth":1}"#,
    )
    .expect("meta");
    fs::write(
        sub.join("workflows/wf_1/agent-w1.meta.json"),
        r#"{"agentType":"worker","description":"Sweep batch a","toolUseId":"t1"}"#,
    )
    .expect("meta");
    let s = ccv::source::load_with_subagents(&main).expect("loads");
    let r1 = s.agent_by_id("r1").expect("r1");
    let a = &s.agents[r1 as usize];
    let call = a.call.expect("linked by its meta file");
    let t = s.transcript(call.holder);
    let idx = t.tool_call_index("t2").expect("t2");
    assert_eq!(t.items[idx].id, call.item);
    assert_eq!(a.agent_type.as_deref(), Some("code-reviewer"));
    let w1 = s.agent_by_id("w1").expect("w1");
    // the Workflow call started the run, not one agent: none is its own
    assert!(s.agents[w1 as usize].call.is_none());
    let label = s.agents[w1 as usize].label(&s);
    assert!(label.contains("worker · Sweep batch a"), "{label}");
    let label = a.label(&s);
    assert!(
        !label.contains("Review"),
        "a linked agent's call says it: {label}"
    );
}

/// A meta file that is no JSON object, names a call that is nowhere, has
/// fields of other types, or is no file: nothing is taken from it.
#[test]
fn odd_meta_files_are_passed_over() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let main = tree(&tmp.path().join("projects"));
    let sub = main.with_extension("").join("subagents");
    let metas: [&[u8]; 5] = [
        b"not json",
        br#"{"toolUseId":"nowhere","agentType":7}"#,
        br#"["toolUseId","t1"]"#,
        b"{\"description\":\"\xff\xfe\"}",
        br#"{"description":"   "}"#,
    ];
    for (i, m) in metas.iter().enumerate() {
        let id = format!("o{i}");
        write(
            &sub.join(format!("agent-{id}.jsonl")),
            &agent(&id, "Odd", 1),
        );
        fs::write(sub.join(format!("agent-{id}.meta.json")), m).expect("meta");
    }
    write(&sub.join("agent-d.jsonl"), &agent("d", "Dir", 1));
    fs::create_dir_all(sub.join("agent-d.meta.json")).expect("mkdir");
    let s = ccv::source::load_with_subagents(&main).expect("loads");
    for id in ["o0", "o1", "o2", "o3", "o4", "d"] {
        let a = &s.agents[s.agent_by_id(id).expect("agent") as usize];
        assert!(a.call.is_none(), "{id}");
        assert_eq!((&a.agent_type, &a.description), (&None, &None), "{id}");
    }
}
