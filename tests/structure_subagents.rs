//! Subagents in their three layouts, linked to the call that started them,
//! from real corpus files arranged under their original names and from
//! `gen-session --tree`.

use crate::common;

use ccv::model::{Category, Detail, Session};
use ccv::source::claude::loader::load_with_subagents;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");

fn corpus() -> Option<PathBuf> {
    let p = Path::new(SHARED).join("corpus");
    if p.join("SOURCES.tsv").exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

/// Copies corpus files whose local name starts with `prefix` into `dir`
/// under their original file names (from SOURCES.tsv).
fn arrange(corpus: &Path, prefix: &str, dir: &Path) -> Vec<PathBuf> {
    let tsv = std::fs::read_to_string(corpus.join("SOURCES.tsv")).unwrap_or_default();
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(local), Some(orig)) = (cols.first(), cols.get(3)) else {
            continue;
        };
        if !local.starts_with(prefix) {
            continue;
        }
        let name = Path::new(orig).file_name().expect("a file name");
        let to = dir.join(name);
        std::fs::copy(corpus.join(local), &to).expect("copy");
        out.push(to);
    }
    out
}

fn subagent_calls(s: &Session) -> Vec<(String, Option<u32>)> {
    s.main
        .items
        .iter()
        .filter_map(|i| match &i.detail {
            Detail::Call(c) if c.category == Category::Subagent => Some((c.id.clone(), c.agent)),
            _ => None,
        })
        .collect()
}

/// The corpus session with project-level `agent-*.jsonl` files (2.0.74-76),
/// arranged in a temp dir as they were: (the dir, the session file).
fn project_level_layout() -> Option<(tempfile::TempDir, PathBuf)> {
    let corpus = corpus()?;
    let dir = tempfile::tempdir().expect("tempdir");
    arrange(
        &corpus,
        "kfischer-okarin__scripts-and-tools__src__claude-history__test__fixtures__claude-projects__-Users-user-project__",
        dir.path(),
    );
    let main = dir
        .path()
        .join("b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl");
    Some((dir, main))
}

#[test]
fn project_level_agent_files_are_loaded_and_linked() {
    let Some((_dir, main)) = project_level_layout() else {
        return;
    };
    let s = load_with_subagents(&main).expect("loads");
    let a = s
        .agent_by_id("a434715")
        .expect("the Task agent file is loaded");
    let agent = &s.agents[a as usize];
    let calls = subagent_calls(&s);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].1, Some(a), "the Task call points at its agent");
    assert!(agent.call.is_some());
    assert_eq!(agent.tool_calls(), 2);
    let label = agent.label(&s);
    assert!(
        label.starts_with("subagent general-purpose · 2 tool calls"),
        "{label}"
    );
    // a0d87c4 belongs to another session; a2b48bc is a Warmup of this one.
    assert!(s.agent_by_id("a0d87c4").is_none());
    if let Some(w) = s.agent_by_id("a2b48bc") {
        assert!(s.agents[w as usize].is_warmup());
        assert!(s.unlinked_agents().all(|u| u != w));
    }
}

#[test]
fn an_agent_file_read_before_its_session_still_links() {
    let Some((dir, main)) = project_level_layout() else {
        return;
    };
    let agent_file = dir.path().join("agent-a434715.jsonl");
    let mut s = Session::new(Some(main.clone()));
    let src = s.add_agent_source(agent_file.clone(), "a434715");
    s.read_all(src, &mut std::fs::File::open(&agent_file).expect("open"))
        .expect("read");
    s.read_all(0, &mut std::fs::File::open(&main).expect("open"))
        .expect("read");
    let a = s.agent_by_id("a434715").expect("agent");
    assert_eq!(
        subagent_calls(&s),
        [(subagent_calls(&s)[0].0.clone(), Some(a))]
    );
    assert_eq!(s.agents.len(), 1, "no second entry for the same agent");
}

#[test]
fn inline_sidechains_link_by_prompt() {
    let Some(corpus) = corpus() else { return };
    for name in [
        "d-kimuson__claude-code-viewer__mock-global-claude-dir__projects__sample-project__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
        "slopus__happy-cli__src__claude__utils____fixtures____task_non_sdk.jsonl",
        "tomjnsn__agentlogs__fixtures__claudecode__subagent.jsonl",
        "slopus__happy-cli__explore-claude-cli__v1-real-sessions-by-kirill-from-handy-cli__example-sessions__400429ba-c1e1-4ef5-a7ec-fe40608df53b.jsonl",
    ] {
        let s = Session::load(&corpus.join(name)).expect("loads");
        assert!(!s.agents.is_empty(), "{name}: sidechains found");
        for (i, a) in s.agents.iter().enumerate() {
            assert!(a.call.is_some(), "{name}: agent {} linked", a.id);
            let linked = subagent_calls(&s)
                .iter()
                .filter(|c| c.1 == Some(i as u32))
                .count();
            assert_eq!(linked, 1, "{name}: one call per agent");
            assert!(a.tool_calls() <= a.transcript.items.len());
        }
    }
}

#[test]
fn agent_progress_is_the_record_without_the_folder() {
    let Some(corpus) = corpus() else { return };
    let name = "entireio__cli__6d__9f76bd01e9__0__full.jsonl";
    let s = Session::load(&corpus.join(name)).expect("loads");
    let st = &s.stats;
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries);
    // This copy has no `subagents/` folder: the mirrored lines are the only
    // record of what the agents did, shown under their calls.
    let mirrored: Vec<_> = s.agents.iter().filter(|a| a.mirrored).collect();
    assert!(!mirrored.is_empty(), "the file has agent_progress lines");
    for a in mirrored {
        assert!(!a.transcript.items.is_empty(), "agent {} has rows", a.id);
        assert!(a.call.is_some(), "agent {} is linked to its call", a.id);
    }
}

/// A `gen-session --tree` session that has a `subagents/` folder.
fn generated_session_with_subagents(dir: &Path) -> Option<PathBuf> {
    // Seed 1 makes no subagent files at this size; seed 4 does.
    let ok = common::gen_session(dir)?
        .args([
            "--tree",
            dir.to_str()?,
            "--projects",
            "2",
            "--sessions",
            "6",
            "--scale",
            "0.3",
            "--seed",
            "4",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("skipped: gen-session did not run");
        return None;
    }
    for project in std::fs::read_dir(dir).ok()?.flatten() {
        for e in std::fs::read_dir(project.path()).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() && p.join("subagents").is_dir() {
                return Some(p.with_extension("jsonl"));
            }
        }
    }
    eprintln!("skipped: no generated session has subagents");
    None
}

#[test]
fn subagents_folder_is_linked_and_exported_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let Some(session) = generated_session_with_subagents(dir.path()) else {
        return;
    };
    let s = load_with_subagents(&session).expect("loads");
    assert!(!s.agents.is_empty());
    for a in &s.agents {
        assert!(a.call.is_some() || a.compact, "agent {} linked", a.id);
        assert!(a.tool_calls() > 0);
    }
    let mut expected: Vec<String> = Vec::new();
    for t in std::iter::once(&s.main).chain(s.agents.iter().map(|a| &a.transcript)) {
        for i in &t.items {
            if let Detail::Call(c) = &i.detail {
                expected.push(c.id.clone());
            }
        }
    }
    let out = common::ccv_at(dir.path())
        .args(["export", "--format", "json"])
        .arg(&session)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut in_agent = 0;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json row");
        if v["kind"] == "tool_call" {
            *seen
                .entry(v["tool_use_id"].as_str().unwrap_or("").to_owned())
                .or_default() += 1;
            in_agent += usize::from(v.get("agent").is_some());
        }
    }
    assert!(in_agent > 0, "subagent calls are exported");
    for id in &expected {
        assert_eq!(
            seen.get(id),
            Some(&1),
            "tool call {id} exported exactly once"
        );
    }
    assert_eq!(seen.len(), expected.len());
}

/// The project-level agent files of a folder are remembered between
/// loads only while the folder is unchanged: one added or removed since
/// is seen by the next load (a listing asks once per session).
#[test]
fn project_level_agent_files_are_looked_for_again_when_the_folder_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sid = "11111111-2222-3333-4444-555555555555";
    let main = dir.path().join(format!("{sid}.jsonl"));
    let line = |kind: &str, uuid: &str, side: bool, agent: &str| {
        let body = if kind == "user" {
            r#"{"role":"user","content":"go"}"#.to_owned()
        } else {
            format!(
                r#"{{"id":"m-{uuid}","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"ok"}}],"usage":{{"input_tokens":5,"output_tokens":1}}}}"#
            )
        };
        format!(
            r#"{{"type":"{kind}","uuid":"{uuid}","parentUuid":null,"sessionId":"{sid}","isSidechain":{side},"agentId":"{agent}","timestamp":"2025-12-01T10:00:00Z","message":{body}}}"#
        ) + "\n"
    };
    std::fs::write(
        &main,
        line("user", "u1", false, "") + &line("assistant", "a1", false, ""),
    )
    .expect("write");
    let agent_file = |id: &str| {
        let p = dir.path().join(format!("agent-{id}.jsonl"));
        let text = line("user", &format!("{id}-u"), true, id)
            + &line("assistant", &format!("{id}-a"), true, id);
        std::fs::write(&p, text).expect("write agent");
        p
    };
    let settle = || {
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::open(dir.path())
            .and_then(|d| d.set_modified(old))
            .expect("folder mtime");
    };
    let agents = || {
        let s = load_with_subagents(&main).expect("loads");
        let mut ids: Vec<&str> = ["aaa", "bbb"]
            .into_iter()
            .filter(|id| s.agent_by_id(id).is_some())
            .collect();
        ids.sort_unstable();
        ids.join(",")
    };
    let a = agent_file("aaa");
    settle();
    assert_eq!(agents(), "aaa");
    assert_eq!(agents(), "aaa", "remembered");
    agent_file("bbb");
    settle();
    assert_eq!(agents(), "aaa,bbb", "one added");
    std::fs::remove_file(a).expect("remove");
    assert_eq!(agents(), "bbb", "one removed");
}
