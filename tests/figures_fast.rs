//! A session read for its figures only (the lines that cannot change them
//! passed over undecoded) gives the figures of a whole load, on every real
//! file there is and on generated and damaged ones.

use crate::common;
use ccv::model::figures::Figures;
use std::path::Path;

/// The figures of a read for them are a whole load's, and the headline
/// read with them (a small file's answers taken from that read, a big
/// one's middle seen by it) is the headline's own.
fn same_figures(path: &Path) {
    let whole = ccv::source::load_with_subagents(path).expect("load");
    let fast = ccv::source::load_for_figures(path).expect("load for figures");
    let (a, b) = (Figures::of(&whole, 0), Figures::of(&fast, 0));
    assert_eq!(a, b, "{}", path.display());
    let size = std::fs::metadata(path).expect("size").len();
    let alone = ccv::source::headline(path, size).expect("headline");
    let (with, _) = ccv::source::headline_and_figures(path, size).expect("headline and figures");
    assert_eq!(
        format!("{with:?}"),
        format!("{alone:?}"),
        "{}",
        path.display()
    );
}

/// The figures of a session read in parts (64 KB, where a session over
/// 128 MB is read in parts of 8 MB) are a whole load's, by model and
/// quarter hour too: what one part learnt (a subagent's call, whether the
/// file is an agent's own, the subagents with files of their own, another
/// format's running counts and model) is known to the next.
fn same_figures_in_parts(path: &Path) {
    let whole = Figures::of(&ccv::source::load_with_subagents(path).expect("load"), 0);
    let parts = ccv::catalog::list::figures_in_parts(path, 0, 64 << 10).expect("in parts");
    common::same_figures_as_whole(&parts, &whole, &format!("{} in parts", path.display()));
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_every_corpus_file() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in &files {
        same_figures(f);
        same_figures_in_parts(f);
    }
    let codex = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus-codex"
    ));
    for e in std::fs::read_dir(codex).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "jsonl") {
            same_figures(&e.path());
            same_figures_in_parts(&e.path());
        }
    }
}

/// `CCV_FIGURES_DIR=DIR`: every `.jsonl` under DIR (a tree of damaged
/// or unusual sessions made for the occasion) held to the same figures
/// and headline, read fast and whole.
#[test]
fn figures_of_a_fast_read_are_a_whole_loads_under_ccv_figures_dir() {
    let Ok(dir) = std::env::var("CCV_FIGURES_DIR") else {
        eprintln!("skipped: CCV_FIGURES_DIR is not set");
        return;
    };
    let mut files = 0;
    for p in common::jsonl_under(std::path::Path::new(&dir)) {
        same_figures(&p);
        files += 1;
    }
    eprintln!("{files} files held to their whole loads' figures");
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_fixtures_and_generated_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    same_figures(&f);
    same_figures_in_parts(&f);
    for args in [
        &["--size", "3M", "--seed", "7"][..],
        &["--size", "2M", "--seed", "3", "--corrupt"][..],
        &[
            "--size",
            "2M",
            "--seed",
            "5",
            "--subagent-files",
            "--cc-version",
            "2.1.42",
        ][..],
        &["--size", "1M", "--seed", "9", "--cc-version", "2.0.14"][..],
        &[
            "--size",
            "2M",
            "--seed",
            "11",
            "--subagent-files",
            "--corrupt",
        ][..],
    ] {
        let Some((_dir, file, _)) = common::generated(args) else {
            return;
        };
        same_figures(&file);
        same_figures_in_parts(&file);
    }
}

#[test]
fn a_warm_listing_says_what_the_cold_one_said() {
    // costs read back from the cache are the costs computed (a float that
    // did not read back exactly once moved a cost by a millionth)
    let Some(files) = common::corpus_files() else {
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("claude/projects");
    for (i, f) in files.iter().enumerate() {
        let dir = root.join(format!("-p{}", i % 7));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::copy(f, dir.join(f.file_name().expect("name"))).expect("copy");
    }
    let list = || {
        let out = common::ccv_at(home.path())
            .args(["list", "--json"])
            .output()
            .expect("list");
        assert!(out.status.success());
        out.stdout
    };
    let cold = list();
    let warm = list();
    assert!(!cold.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&cold),
        String::from_utf8_lossy(&warm)
    );
}

/// `text` with a byte changed or cut, anywhere.
fn damaged(rng: &mut common::Rng, text: String) -> String {
    if text.is_empty() {
        return text;
    }
    let at = rng.below(text.len());
    let mut b = text.into_bytes();
    if rng.below(2) == 0 {
        b.truncate(at);
    } else {
        b[at] = b"{}[]\",:x\\"[rng.below(9)];
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Tool-result lines bent into the shapes a fast read must not mistake:
/// a prompt beside the results, another entry type, the keys reordered
/// or doubled, a compaction summary, a cut line, bytes flipped anywhere.
#[test]
fn bent_tool_result_lines_do_not_fool_the_fast_read() {
    use serde_json::{Value, json};
    let result =
        |id: &str| json!({"type": "tool_result", "tool_use_id": id, "content": "x \"y\" ]} {"});
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let dir = tempfile::tempdir().expect("tempdir");
    for round in 0..60 {
        let mut lines: Vec<String> = Vec::new();
        for n in 0..12 {
            let id = format!("t{round}-{n}");
            let call = json!({"type": "assistant", "uuid": format!("a{n}"), "parentUuid": format!("u{n}"),
                "timestamp": "2025-06-01T10:00:00Z", "sessionId": "s",
                "message": {"id": format!("m{n}"), "role": "assistant", "model": "claude-sonnet-4-5",
                    "usage": {"input_tokens": 10 + n, "output_tokens": 5},
                    "content": [{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "ls"}}]}});
            lines.push(call.to_string());
            let mut user: Value = json!({"type": "user", "uuid": format!("u{}", n + 1), "parentUuid": format!("a{n}"),
                "timestamp": "2025-06-01T10:00:01Z", "sessionId": "s",
                "message": {"role": "user", "content": [result(&id)]}});
            let mut text = match rng.below(8) {
                0 => {
                    user["message"]["content"]
                        .as_array_mut()
                        .expect("blocks")
                        .push(json!({"type": "text", "text": "and then do this"}));
                    user.to_string()
                }
                1 => {
                    user["type"] = json!("assistant");
                    user.to_string()
                }
                2 => {
                    user["isCompactSummary"] = json!(true);
                    user.to_string()
                }
                3 => user.to_string().replacen("{\"type\":\"user\",", "{", 1) + "",
                4 => {
                    // the key twice: the model's reader refuses the line
                    let s = user.to_string();
                    s.replacen(
                        "{\"type\":\"user\",",
                        "{\"type\":\"user\",\"type\":\"user\",",
                        1,
                    )
                }
                _ => user.to_string(),
            };
            if rng.below(4) == 0 {
                text = damaged(&mut rng, text);
            }
            lines.push(text);
            lines.push(
                json!({"type": "user", "uuid": format!("p{n}"), "sessionId": "s", "timestamp": "2025-06-01T10:00:02Z",
                       "message": {"role": "user", "content": format!("prompt {n}")}})
                .to_string(),
            );
        }
        let f = dir.path().join(format!("bent-{round}.jsonl"));
        std::fs::write(&f, lines.join("\n") + "\n").expect("write");
        same_figures(&f);
    }
}

/// A subagent's lines mirrored into the main file as `agent_progress`,
/// its lines of tool results bent into the shapes a fast read must not
/// mistake (a prompt beside the results, an answer, a compaction summary,
/// a sidechain's, another kind of progress, a key twice, no agent, cut or
/// flipped bytes), some before the agent's first prompt, with the agent's
/// own file in the session's folder and without (its copies of answers
/// are then the only record of them): the figures of a whole load.
#[test]
fn bent_agent_result_lines_do_not_fool_the_fast_read() {
    use serde_json::{Value, json};
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let dir = tempfile::tempdir().expect("tempdir");
    let progress = |n: usize, agent: &str, inner: Value| {
        json!({"parentUuid": format!("m{n}"), "isSidechain": false, "type": "progress",
            "data": {"message": inner, "normalizedMessages": [], "type": "agent_progress",
                "prompt": "look", "agentId": agent},
            "toolUseID": "agent_msg_1", "parentToolUseID": "task-1",
            "uuid": format!("m{}", n + 1), "timestamp": "2025-06-01T10:00:05Z"})
    };
    for round in 0..60 {
        let mut lines: Vec<String> = vec![
            json!({"type": "user", "uuid": "m0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
                "message": {"role": "user", "content": "review this"}})
            .to_string(),
            json!({"type": "assistant", "uuid": "m1", "parentUuid": "m0", "sessionId": "s",
                "timestamp": "2025-06-01T10:00:01Z",
                "message": {"id": "main-1", "role": "assistant", "model": "claude-opus-4-5",
                    "usage": {"input_tokens": 7, "output_tokens": 3},
                    "content": [{"type": "tool_use", "id": "task-1", "name": "Task",
                        "input": {"prompt": "look", "description": "look"}}]}})
            .to_string(),
        ];
        let agent = format!("a{round}");
        let results = |id: &str| {
            json!({"type": "user", "uuid": format!("r-{id}"), "isSidechain": true,
                "timestamp": "2025-06-01T10:00:04Z",
                "message": {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": id, "content": "x \"y\" ]} {"}]}})
        };
        // lines of results before the agent's own first line, at times
        let early = rng.below(3) == 0;
        if early {
            lines.push(progress(2, &agent, results("early")).to_string());
        }
        // the agent's own lines (written to its own file in odd rounds)
        let mut own = vec![
            json!({"type": "user", "uuid": format!("p-{round}"), "isSidechain": true,
                "message": {"role": "user", "content": [{"type": "text", "text": "look"}]},
                "timestamp": "2025-06-01T10:00:02Z"}),
        ];
        lines.push(progress(3, &agent, own[0].clone()).to_string());
        for n in 0..10 {
            let id = format!("c{round}-{n}");
            let answer = json!({"type": "assistant", "uuid": format!("q-{id}"), "isSidechain": true,
                "timestamp": "2025-06-01T10:00:03Z",
                "message": {"id": format!("msg-{id}"), "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "usage": {"input_tokens": 10 + n, "output_tokens": 5},
                    "content": [{"type": "tool_use", "id": id, "name": "Read",
                        "input": {"file_path": "/x"}}]}});
            own.push(answer.clone());
            let mut copy = progress(4 + 2 * n, &agent, answer);
            // a copy bent as results are (see below), at times
            match rng.below(8) {
                0 => copy["isSidechain"] = json!(true),
                1 => {
                    copy["data"]
                        .as_object_mut()
                        .expect("data")
                        .remove("agentId");
                }
                2 => copy["data"]["agentId"] = json!("somebody-else"),
                _ => {}
            }
            lines.push(copy.to_string());
            let mut line = progress(5 + 2 * n, &agent, results(&id));
            let mut text = match rng.below(10) {
                0 => {
                    line["data"]["message"]["message"]["content"]
                        .as_array_mut()
                        .expect("blocks")
                        .push(json!({"type": "text", "text": "and then do this"}));
                    line.to_string()
                }
                1 => {
                    line["data"]["message"]["type"] = json!("assistant");
                    line.to_string()
                }
                2 => {
                    line["data"]["message"]["isCompactSummary"] = json!(true);
                    line.to_string()
                }
                3 => {
                    line["isSidechain"] = json!(true);
                    line.to_string()
                }
                4 => {
                    line["data"]["type"] = json!("bash_progress");
                    line.to_string()
                }
                5 => {
                    let s = line.to_string();
                    s.replacen(
                        "\"type\":\"progress\"",
                        "\"type\":\"progress\",\"type\":\"user\"",
                        1,
                    )
                }
                6 => {
                    line["data"]
                        .as_object_mut()
                        .expect("data")
                        .remove("agentId");
                    line.to_string()
                }
                _ => line.to_string(),
            };
            if rng.below(5) == 0 {
                text = damaged(&mut rng, text);
            }
            lines.push(text);
        }
        let f = dir.path().join(format!("agent-{round}.jsonl"));
        std::fs::write(&f, lines.join("\n") + "\n").expect("write");
        if round % 2 == 1 {
            let folder = dir.path().join(format!("agent-{round}/subagents"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            let text: String = own.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(folder.join(format!("agent-{agent}.jsonl")), text).expect("write");
        }
        same_figures(&f);
        // read in parts too: its agent's own file is read before the
        // main file's copies of its lines, which are then left out
        same_figures_in_parts(&f);
    }
}

#[test]
fn a_line_too_long_to_hold_is_passed_on_not_held() {
    use serde_json::json;
    // a result of 17 MB (past what the fast read holds of one line), then
    // a prompt and an answer: the figures as a whole load's
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("long.jsonl");
    let big = "y".repeat(17 << 20);
    let lines = [
        json!({"type": "assistant", "uuid": "a0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
               "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
               "content": [{"type": "tool_use", "id": "t0", "name": "Read", "input": {"file_path": "/x"}}]}}),
        json!({"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:01Z",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t0", "content": big}]}}),
        json!({"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": "2025-06-01T10:00:02Z",
               "message": {"role": "user", "content": "and now?"}}),
        json!({"type": "assistant", "uuid": "a1", "sessionId": "s", "timestamp": "2025-06-01T10:00:03Z",
               "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 11, "output_tokens": 5},
               "content": [{"type": "text", "text": "done"}]}}),
    ];
    same_figures_of_lines(&f, &lines);
    let fast = ccv::source::load_for_figures(&f).expect("load");
    assert_eq!(Figures::of(&fast, 0).prompts, 1);
}

/// A cold listing reads each new file once for its row and its figures
/// (a small file's bytes shared, a big file's middle seen by the figures'
/// read): every row's figures are its session's own, and its row is the
/// one a listing without figures gives.
#[test]
fn a_cold_listings_rows_and_figures_are_each_sessions_own() {
    use ccv::catalog::list::{ScanOptions, list_sessions};
    let Some(files) = common::corpus_files() else {
        return;
    };
    let home = tempfile::tempdir().expect("tempdir");
    let root = home.path().join("projects");
    for (i, f) in files.iter().enumerate() {
        let dir = root.join(format!("-p{}", i % 5));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::copy(f, dir.join(f.file_name().expect("name"))).expect("copy");
    }
    let list = |figures| {
        let opts = ScanOptions {
            figures,
            ..ScanOptions::default()
        };
        let mut rows = list_sessions(&root, &opts);
        rows.sort_by(|a, b| a.path.cmp(&b.path));
        rows
    };
    let (priced, plain) = (list(true), list(false));
    assert_eq!(priced.len(), plain.len());
    let mut big = 0;
    for (p, q) in priced.iter().zip(&plain) {
        let whole = ccv::source::load_with_subagents(&p.path).expect("load");
        let own = Figures::of(&whole, p.last_activity_ms);
        assert_eq!(p.figures.as_deref(), Some(&own), "{}", p.path.display());
        let row = |r: &ccv::picker::SessionInfo| {
            let mut r = r.clone();
            r.figures = None;
            format!("{r:?}")
        };
        assert_eq!(row(p), row(q), "{}", p.path.display());
        big += usize::from(p.size > 128 * 1024);
    }
    assert!(big > 0, "big files among the corpus's");
}

/// Answers taken in lean (see `source::claude::lean`) against a whole
/// load, on sessions bent at random: lines written twice (a torn write
/// and its repeat), moved, dropped, or an answer changed into each shape
/// the lean read must hand to the model (a sidechain, an agent's call, a
/// result the API ran, an error, a uuid another line has, no timestamp,
/// another usage or message id, an agent's own file). A round may do
/// several; `CCV_LEAN_ROUNDS` runs more.
#[test]
fn answers_taken_lean_give_a_whole_loads_figures_however_bent() {
    let rounds: usize = std::env::var("CCV_LEAN_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut bases: Vec<Vec<String>> = vec![synthetic_session()];
    if let Some(files) = common::corpus_files() {
        let mut small: Vec<_> = files
            .into_iter()
            .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() < 400_000))
            .collect();
        small.truncate(12);
        for f in small {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            bases.push(text.lines().map(str::to_owned).collect());
        }
    }
    let seed = std::env::var("CCV_LEAN_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let mut rng = common::Rng(seed);
    let dir = tempfile::tempdir().expect("tempdir");
    for round in 0..rounds {
        let mut lines = bases[round % bases.len()].clone();
        if lines.is_empty() {
            continue;
        }
        for _ in 0..1 + rng.below(4) {
            bend(&mut lines, &mut rng);
        }
        let f = dir.path().join(format!("bent-{round}.jsonl"));
        std::fs::write(&f, lines.join("\n") + "\n").expect("write");
        if round % 3 == 0 {
            // an agent's own file in the session's folder, bent too
            let mut agent = bases[(round / 3) % bases.len()].clone();
            for _ in 0..rng.below(3) {
                bend(&mut agent, &mut rng);
            }
            let folder = dir.path().join(format!("bent-{round}/subagents"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            let text = agent
                .join("\n")
                .replace("\"isSidechain\":false", "\"isSidechain\":true");
            std::fs::write(folder.join("agent-a1b2c3.jsonl"), text + "\n").expect("write");
        }
        same_figures(&f);
    }
}

/// A call's line under a uuid a result's line already has, written twice
/// (a torn write and its repeat): one row, one call, in a whole load as in
/// a read for figures, which passes over the result's line and so never
/// meets the uuid's first use. A whole load counted two calls
/// (`CCV_LEAN_SEED=94`, round 13,274).
#[test]
fn a_line_under_a_reused_uuid_written_twice_counts_once() {
    use serde_json::json;
    let at = |s: u32| format!("2025-06-01T10:00:{s:02}Z");
    let call = |uuid: &str, id: &str, parent: &str, s: u32| {
        json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "timestamp": at(s),
            "sessionId": "s", "isSidechain": false,
            "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                "usage": {"input_tokens": 10, "output_tokens": 5},
                "content": [{"type": "tool_use", "id": id, "name": "Glob", "input": {"pattern": "*"}}]}})
        .to_string()
    };
    let result = |uuid: &str, id: &str, parent: &str, s: u32| {
        json!({"type": "user", "uuid": uuid, "parentUuid": parent, "timestamp": at(s),
            "sessionId": "s", "isSidechain": false,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "found"}]}})
        .to_string()
    };
    let lines = [
        json!({"type": "user", "uuid": "p1", "parentUuid": null, "timestamp": at(0), "sessionId": "s",
            "isSidechain": false, "message": {"role": "user", "content": "find them"}})
        .to_string(),
        call("a1", "toolu_1", "p1", 1),
        result("r1", "toolu_1", "a1", 2),
        // the result's uuid again, on a call, written twice
        call("r1", "toolu_2", "r1", 3),
        call("r1", "toolu_2", "r1", 3),
        result("r2", "toolu_2", "r1", 4),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("s.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    same_figures(&f);
    let whole = ccv::source::load_with_subagents(&f).expect("load");
    assert_eq!(whole.main.tool_calls(), 2);
    assert_eq!(Figures::of(&whole, 0).tool_calls, 2);
    assert_eq!(
        whole.stats.hidden_by_reason.get("repeated uuid"),
        Some(&1),
        "{:?}",
        whole.stats.hidden_by_reason
    );
}

/// One random bend of a session's lines (see
/// `answers_taken_lean_give_a_whole_loads_figures_however_bent`).
fn bend(lines: &mut Vec<String>, rng: &mut common::Rng) {
    use serde_json::{Value, json};
    let n = lines.len();
    let i = rng.below(n);
    let answers: Vec<usize> = (0..n)
        .filter(|&k| lines[k].contains("\"assistant\""))
        .collect();
    let a = if answers.is_empty() {
        i
    } else {
        answers[rng.below(answers.len())]
    };
    let other = rng.below(n);
    let users: Vec<usize> = (0..n).filter(|&k| lines[k].contains("\"user\"")).collect();
    if !users.is_empty() && rng.below(4) == 0 {
        // a user line bent: results made a sidechain's, given a prompt
        // beside them, a prompt made meta or a compaction summary
        let u = users[rng.below(users.len())];
        let Ok(mut v) = serde_json::from_str::<Value>(&lines[u]) else {
            return;
        };
        match rng.below(4) {
            0 => v["isSidechain"] = json!(true),
            1 => {
                if let Some(c) = v["message"]["content"].as_array_mut() {
                    c.push(json!({"type": "text", "text": "and then this"}));
                }
            }
            2 => v["isMeta"] = json!(true),
            _ => v["isCompactSummary"] = json!(true),
        }
        lines[u] = v.to_string();
        return;
    }
    match rng.below(20) {
        0 => {
            // written twice, later
            let l = lines[a].clone();
            lines.insert((a + 1 + rng.below(n - a)).min(n), l);
        }
        1 => {
            // a torn write: the line, cut, then whole again
            let l = lines[a].clone();
            let mut end = rng.below(l.len()).max(1);
            while !l.is_char_boundary(end) {
                end -= 1;
            }
            let cut = l[..end].to_owned();
            lines[a] = format!("{cut}{l}");
            lines.insert(a + 1, l);
        }
        2 => {
            let l = lines.remove(i);
            lines.insert(other.min(lines.len()), l);
        }
        3 if n > 2 => {
            lines.remove(i);
        }
        4 => {
            // an answer first in the file
            let l = lines.remove(a);
            lines.insert(0, l);
        }
        17 | 18 => note_after(lines, a, rng),
        19 => {
            // any line without its time
            if let Ok(mut v) = serde_json::from_str::<Value>(&lines[i])
                && let Some(o) = v.as_object_mut()
            {
                o.remove("timestamp");
                lines[i] = v.to_string();
            }
        }
        k => {
            let Ok(mut v) = serde_json::from_str::<Value>(&lines[a]) else {
                return;
            };
            let other_uuid = serde_json::from_str::<Value>(&lines[other])
                .ok()
                .and_then(|o| o.get("uuid").cloned())
                .unwrap_or(json!("u-none"));
            let m = &mut v["message"];
            match k {
                5 => v["isSidechain"] = json!(true),
                6 => {
                    v["isSidechain"] = json!(true);
                    v["agentId"] = json!("a1b2c3");
                }
                7 => v["uuid"] = other_uuid,
                8 => {
                    if let Some(o) = v.as_object_mut() {
                        o.remove(if rng.below(2) == 0 {
                            "uuid"
                        } else {
                            "timestamp"
                        });
                    }
                }
                9 => m["usage"]["output_tokens"] = json!(rng.below(5000)),
                10 => m["id"] = json!(format!("msg_{}", rng.below(4))),
                11 => m["model"] = json!("<synthetic>"),
                12 => v["isApiErrorMessage"] = json!(true),
                13 => v["parent_tool_use_id"] = json!("toolu_x"),
                14 => {
                    let block = match rng.below(5) {
                        0 => {
                            json!({"type": "tool_use", "id": "toolu_t", "name": "Task", "input": {"prompt": "p"}})
                        }
                        1 => {
                            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []})
                        }
                        2 => json!({"type": "text", "text": " \n "}),
                        3 => {
                            json!({"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "get_issue", "server_name": "linear", "input": {}})
                        }
                        _ => json!({"type": "novel_block"}),
                    };
                    if let Some(c) = m["content"].as_array_mut() {
                        c.insert(rng.below(c.len() + 1), block);
                    }
                }
                15 => {
                    // a deep folder, first: the answer's "assistant" past
                    // the head the lean read looks in
                    let deep = json!(format!("/srv/{}", "deep/".repeat(300)));
                    if let Some(o) = v.as_object_mut() {
                        o.remove("cwd");
                        let mut first = serde_json::Map::from_iter([("cwd".to_owned(), deep)]);
                        first.append(o);
                        *o = first;
                    }
                }
                _ => {
                    m["content"] = json!(if rng.below(2) == 0 {
                        "as a string"
                    } else {
                        "  "
                    })
                }
            }
            lines[a] = v.to_string();
        }
    }
}

/// A hook's note after the answer's line `a`, before the next line of its
/// message (which the model puts before the note), with a time or none;
/// or a line of a kind nobody knows yet, a link of the answer's chain
/// (its own or its agent's), which the next line hangs from.
fn note_after(lines: &mut Vec<String>, a: usize, rng: &mut common::Rng) {
    use serde_json::{Value, json};
    let Ok(v) = serde_json::from_str::<Value>(&lines[a]) else {
        return;
    };
    let mut note = json!({"type": "system", "subtype": "informational",
        "content": "PostToolUse:Bash hook ran", "level": "info",
        "isSidechain": false, "uuid": format!("note-{}", rng.below(1 << 30)),
        "parentUuid": v.get("uuid").cloned().unwrap_or(json!(null))});
    if k_has_time(rng) {
        note["timestamp"] = v.get("timestamp").cloned().unwrap_or(json!(null));
    }
    if rng.below(3) == 0 {
        note["type"] = json!("teammate-note");
        note["isSidechain"] = v.get("isSidechain").cloned().unwrap_or(json!(false));
        if let Some(next) = lines.get_mut(a + 1)
            && let Ok(mut w) = serde_json::from_str::<Value>(next)
            && w.get("parentUuid") == v.get("uuid")
        {
            w["parentUuid"] = note["uuid"].clone();
            *next = w.to_string();
        }
    }
    lines.insert(a + 1, note.to_string());
}

fn k_has_time(rng: &mut common::Rng) -> bool {
    rng.below(2) == 0
}

/// Prompts, answers of several lines (thinking, text, calls), results,
/// an agent's call and its sidechain, in the order Claude Code writes them.
fn synthetic_session() -> Vec<String> {
    use serde_json::json;
    let mut lines = Vec::new();
    let mut parent = json!(null);
    let mut line = |v: serde_json::Value, parent: &mut serde_json::Value| {
        *parent = v["uuid"].clone();
        lines.push(v.to_string());
    };
    for t in 0..6 {
        let at = |s: u32| format!("2025-06-01T1{}:{:02}:{:02}Z", t % 3, t * 7 % 60, s);
        let p = format!("p{t}");
        line(
            json!({"type": "user", "uuid": p, "parentUuid": parent, "timestamp": at(0), "sessionId": "s", "isSidechain": false,
                   "message": {"role": "user", "content": format!("do step {t}")}}),
            &mut parent,
        );
        let id = format!("msg_{t}");
        let usage = |out: u32| json!({"input_tokens": 10 + t, "output_tokens": out, "cache_read_input_tokens": 100 * t});
        let model = if t % 2 == 0 {
            "claude-sonnet-4-5-20250929"
        } else {
            "claude-opus-4-1-20250805"
        };
        let blocks = [
            json!({"type": "thinking", "thinking": "hmm", "signature": "c2ln"}),
            json!({"type": "text", "text": "\n\n"}),
            json!({"type": "text", "text": "Let me look."}),
            json!({"type": "tool_use", "id": format!("toolu_{t}a"), "name": "Bash", "input": {"command": "ls"}}),
            json!({"type": "tool_use", "id": format!("toolu_{t}b"), "name": if t == 3 { "Task" } else { "Read" }, "input": {"prompt": "look", "file_path": "/x"}}),
        ];
        for (k, b) in blocks.iter().enumerate() {
            line(
                json!({"type": "assistant", "uuid": format!("a{t}-{k}"), "parentUuid": parent, "timestamp": at(1 + k as u32), "sessionId": "s",
                       "isSidechain": false, "requestId": format!("req_{t}"),
                       "message": {"id": id, "type": "message", "role": "assistant", "model": model, "content": [b], "usage": usage(if k == 4 { 300 } else { 3 })}}),
                &mut parent,
            );
        }
        for c in ["a", "b"] {
            line(
                json!({"type": "user", "uuid": format!("r{t}{c}"), "parentUuid": parent, "timestamp": at(8), "sessionId": "s",
                       "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_{t}{c}"), "content": "ok"}]}}),
                &mut parent,
            );
        }
        if t == 3 {
            let mut side = json!(null);
            line(
                json!({"type": "user", "uuid": "s0", "parentUuid": null, "timestamp": at(9), "sessionId": "s", "isSidechain": true,
                       "message": {"role": "user", "content": "look"}}),
                &mut side,
            );
            line(
                json!({"type": "assistant", "uuid": "s1", "parentUuid": "s0", "timestamp": at(10), "sessionId": "s", "isSidechain": true,
                       "message": {"id": "msg_side", "role": "assistant", "model": model, "content": [{"type": "text", "text": "found it"}],
                                   "usage": {"input_tokens": 5, "output_tokens": 50}}}),
                &mut side,
            );
        }
    }
    lines
}

/// A small file's headline takes its answers from the figures' read
/// (see `scan::WholeSeen`): an answer's branch, model, time, directory
/// and session's id count as the headline's own read counts them.
#[test]
fn a_small_files_answers_name_it_as_its_headline_reads_them() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lines = synthetic_session();
    // a prompt that says nothing of where, then an answer that does
    lines.insert(
        0,
        json!({"type": "user", "uuid": "p-first", "parentUuid": null, "timestamp": "2025-06-01T08:59:00Z",
               "isSidechain": false, "message": {"role": "user", "content": "hello"}})
        .to_string(),
    );
    // an answer naming its place: (uuid, parent, time), (session, cwd,
    // branch), model
    let answer = |(uuid, parent, at): (&str, &str, &str),
                  (session, cwd, branch): (&str, &str, &str),
                  model: &str| {
        json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "timestamp": at,
               "sessionId": session, "cwd": cwd, "isSidechain": false, "gitBranch": branch,
               "message": {"id": format!("msg_{uuid}"), "role": "assistant", "model": model,
                           "content": [{"type": "text", "text": "hi"}],
                           "usage": {"input_tokens": 1, "output_tokens": 1}}})
        .to_string()
    };
    lines.insert(
        1,
        answer(
            ("a-first", "p-first", "2025-06-01T09:00:00Z"),
            ("s-first", "/w/first", "early"),
            "claude-haiku-4-5",
        ),
    );
    lines.push(answer(
        ("a-last", "r5b", "2025-06-02T23:59:59Z"),
        ("s", "/w/last", "feature/late"),
        "claude-opus-4-5",
    ));
    let f = dir.path().join("small.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    same_figures(&f);
    let size = std::fs::metadata(&f).expect("size").len();
    let (h, _) = ccv::source::headline_and_figures(&f, size).expect("headline and figures");
    assert_eq!(h.git_branch.as_deref(), Some("feature/late"));
    assert_eq!(h.model.as_deref(), Some("claude-opus-4-5"));
    assert_eq!(h.cwd.as_deref(), Some("/w/first"));
    assert_eq!(h.session_id.as_deref(), Some("s-first"));
    assert!(h.exact);
}

/// An answer's line written twice (a torn write, then the line again):
/// the whole load shows it once, and so do the figures of a fast read,
/// which reads the session again when a uuid comes back.
#[test]
fn an_answer_written_twice_counts_once() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("twice.jsonl");
    let prompt = json!({"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
        "message": {"role": "user", "content": "list the files"}});
    let call = json!({"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:01Z",
        "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
        "content": [{"type": "tool_use", "id": "t0", "name": "Bash", "input": {"command": "ls"}}]}});
    let later = json!({"type": "assistant", "uuid": "a1", "parentUuid": "a0", "sessionId": "s", "timestamp": "2025-06-01T10:00:02Z",
        "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 90},
        "content": [{"type": "text", "text": "done"}]}});
    let text = format!("{prompt}\n{call}\n{later}\n{call}\n");
    std::fs::write(&f, text).expect("write");
    same_figures(&f);
    let fast = ccv::source::load_for_figures(&f).expect("load");
    let figures = Figures::of(&fast, 0);
    assert_eq!((figures.tool_calls, figures.tokens.output), (1, 90));
}

/// A file whose first conversation line is a tool result decides there
/// whether it is an agent's own file: a fast read that left the result
/// out would decide on the agent's lines after it, and take them for
/// the main conversation.
#[test]
fn the_first_line_decides_whether_a_file_is_an_agents_own() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("first.jsonl");
    let lines = [
        json!({"type": "user", "uuid": "r0", "sessionId": "s", "isSidechain": false, "timestamp": "2025-06-01T10:00:00Z",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t0", "content": "ok"}]}}),
        json!({"type": "user", "uuid": "s0", "parentUuid": null, "sessionId": "s", "isSidechain": true, "agentId": "a1", "timestamp": "2025-06-01T10:00:01Z",
               "message": {"role": "user", "content": "look around"}}),
        json!({"type": "assistant", "uuid": "s1", "parentUuid": "s0", "sessionId": "s", "isSidechain": true, "agentId": "a1", "timestamp": "2025-06-01T10:00:02Z",
               "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
               "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}}),
    ];
    same_figures_of_lines(&f, &lines);
}

/// An old session's subagent lines are inline, each routed to its agent
/// by its parent's uuid: a sidechain's tool result carries its chain on,
/// so a fast read may not leave it out (the agent's next answer, written
/// twice, was counted twice, once under an agent of its own).
#[test]
fn a_sidechains_results_carry_its_chain() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("inline.jsonl");
    let answer = |uuid: &str, parent: &str, id: &str, out: u32, block: serde_json::Value| {
        json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": "s", "isSidechain": true, "timestamp": "2025-06-01T10:00:03Z",
               "message": {"id": id, "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": out}, "content": [block]}})
    };
    let later = answer(
        "s3",
        "s2",
        "m2",
        40,
        json!({"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "a.rs"}}),
    );
    let lines = [
        json!({"type": "user", "uuid": "u0", "sessionId": "s", "isSidechain": false, "timestamp": "2025-06-01T10:00:00Z",
               "message": {"role": "user", "content": "look into it"}}),
        json!({"type": "user", "uuid": "s0", "parentUuid": null, "sessionId": "s", "isSidechain": true, "timestamp": "2025-06-01T10:00:01Z",
               "message": {"role": "user", "content": "search the tree"}}),
        answer(
            "s1",
            "s0",
            "m1",
            3,
            json!({"type": "tool_use", "id": "t1", "name": "Grep", "input": {"pattern": "x"}}),
        ),
        json!({"type": "user", "uuid": "s2", "parentUuid": "s1", "sessionId": "s", "isSidechain": true, "timestamp": "2025-06-01T10:00:02Z",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.rs"}]}}),
        later.clone(),
        later,
    ];
    same_figures_of_lines(&f, &lines);
}

/// An answer written without a time is dated by the conversation before
/// it, not by a tool's output (which a fast read leaves out): the same
/// quarter hour either way.
#[test]
fn an_answer_without_a_time_is_dated_by_the_conversation() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("untimed.jsonl");
    let lines = [
        json!({"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
               "message": {"role": "user", "content": "build it"}}),
        json!({"type": "assistant", "uuid": "a0", "parentUuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:01Z",
               "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
               "content": [{"type": "tool_use", "id": "t0", "name": "Bash", "input": {"command": "make"}}]}}),
        // an hour later, and for a call the file does not hold
        json!({"type": "user", "uuid": "r0", "parentUuid": "a0", "sessionId": "s", "timestamp": "2025-06-01T11:00:00Z",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t9", "content": "done"}]}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "r0", "sessionId": "s",
               "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 9, "output_tokens": 40},
               "content": [{"type": "text", "text": "It builds."}]}}),
    ];
    same_figures_of_lines(&f, &lines);
    let whole = ccv::source::load_with_subagents(&f).expect("load");
    let quarters: Vec<i64> = Figures::of(&whole, 0)
        .detail
        .get()
        .slices
        .iter()
        .map(|s| s.at_ms)
        .collect();
    assert_eq!(quarters.len(), 1, "{quarters:?}");
}

/// A writer that never wrote its newline joins two entries on one line
/// (`}{`), and the model reads both: a line of tool results, a side
/// progress or a mirrored agent's results joined with an answer is not
/// passed over (the answer's usage is counted).
#[test]
fn entries_joined_on_a_line_are_all_counted() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let answer = |n: u32| {
        json!({"type": "assistant", "uuid": format!("a{n}"), "parentUuid": "p0", "sessionId": "s",
            "timestamp": "2025-06-01T10:00:03Z",
            "message": {"id": format!("joined-{n}"), "role": "assistant", "model": "claude-sonnet-4-5",
                "usage": {"input_tokens": 1000 + n, "output_tokens": 50},
                "content": [{"type": "text", "text": "done"}]}})
        .to_string()
    };
    let prompt =
        json!({"type": "user", "uuid": "p0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
        "message": {"role": "user", "content": "go"}})
        .to_string();
    let call = json!({"type": "assistant", "uuid": "c0", "parentUuid": "p0", "sessionId": "s",
        "timestamp": "2025-06-01T10:00:01Z",
        "message": {"id": "call-0", "role": "assistant", "model": "claude-sonnet-4-5",
            "usage": {"input_tokens": 10, "output_tokens": 5},
            "content": [{"type": "tool_use", "id": "t0", "name": "Bash", "input": {"command": "ls"}}]}})
    .to_string();
    let results = json!({"type": "user", "uuid": "r0", "parentUuid": "c0", "sessionId": "s",
        "timestamp": "2025-06-01T10:00:02Z",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t0", "content": "x"}]}})
    .to_string();
    let side = json!({"type": "progress", "uuid": "g0", "parentUuid": "c0", "sessionId": "s",
        "timestamp": "2025-06-01T10:00:02Z", "data": {"type": "bash_progress", "output": "x"}})
    .to_string();
    let agent = json!({"type": "progress", "uuid": "g1", "parentUuid": "c0", "sessionId": "s",
        "timestamp": "2025-06-01T10:00:02Z", "data": {"type": "agent_progress", "agentId": "ab",
            "message": {"type": "user", "uuid": "ar", "message": {"role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t9", "content": "x"}]}}}})
    .to_string();
    for (n, first) in [results, side, agent].into_iter().enumerate() {
        let lines = [
            prompt.clone(),
            call.clone(),
            format!("{first}{}", answer(n as u32)),
        ];
        let f = dir.path().join(format!("joined-{n}.jsonl"));
        std::fs::write(&f, lines.join("\n") + "\n").expect("write");
        same_figures(&f);
        let fast = ccv::source::load_for_figures(&f).expect("load");
        let figures = Figures::of(&fast, 0);
        assert!(figures.tokens.total() > 1000, "{n}: {figures:?}");
    }
}

/// The lines of one answer with a hook's note between them: the model
/// puts the answer's second row before the note, and a call read after
/// them without a time is dated by the note (an hour later). A read that
/// took the answer's rows in lean (or its first only) gives the same
/// figures.
#[test]
fn an_answers_rows_keep_their_place_around_a_hooks_note() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let bash = |id: &str| json!({"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "make"}});
    let note = |at: Option<&str>| {
        let mut v = json!({"type": "system", "subtype": "informational", "content": "hook ran",
            "level": "info", "uuid": "n0", "parentUuid": "a0", "sessionId": "s"});
        if let Some(at) = at {
            v["timestamp"] = json!(at);
        }
        v
    };
    // the second row a call of either kind: a lean read's row, or an
    // agent's call, which the model takes in as an item
    let task = json!({"type": "tool_use", "id": "t0", "name": "Task", "input": {"prompt": "look"}});
    let cases = [Some("2025-06-01T11:00:00Z"), None]
        .into_iter()
        .flat_map(|at| [(at, bash("t0")), (at, task.clone())]);
    for (n, (note_at, second)) in cases.enumerate() {
        let lines = [
            json!({"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
                   "message": {"role": "user", "content": "build it"}}),
            answer(
                "a0",
                "m0",
                Some("2025-06-01T10:00:01Z"),
                json!({"type": "text", "text": "On it."}),
            ),
            note(note_at),
            answer("a1", "m0", Some("2025-06-01T10:00:02Z"), second),
            // no time: dated by the row before it in the model's order
            answer("a2", "m1", None, bash("t1")),
        ];
        let f = dir.path().join(format!("note-{n}.jsonl"));
        same_figures_of_lines(&f, &lines);
    }
}

/// An answer's first line has no time, its next line (after a prompt)
/// has one: the message is dated by its first row with a time, which a
/// lean read's row is.
#[test]
fn a_message_is_dated_by_its_first_row_with_a_time() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("late-time.jsonl");
    let lines = [
        json!({"type": "assistant", "uuid": "a0", "sessionId": "s",
               "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
               "content": [{"type": "tool_use", "id": "t0", "name": "TodoWrite", "input": {}}]}}),
        json!({"type": "user", "uuid": "u0", "parentUuid": "a0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
               "message": {"role": "user", "content": "go on"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:20:00Z",
               "message": {"id": "m0", "role": "assistant", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 7, "output_tokens": 3},
               "content": [{"type": "text", "text": "Done."}]}}),
    ];
    same_figures_of_lines(&f, &lines);
}

/// A line of results the fast read does not pass over (here joined to a
/// hook's note) puts its result on its call, a lean call too (no row of
/// its own), so that a call without a time after them is dated by the
/// note as the model orders the rows.
#[test]
fn a_result_read_for_a_lean_call_gives_the_models_figures() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("paired.jsonl");
    let result = json!({"type": "user", "uuid": "r0", "parentUuid": "a0", "sessionId": "s",
        "timestamp": "2025-06-01T10:00:02Z",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t0", "content": "ok"}]}});
    let note = json!({"type": "system", "subtype": "informational", "content": "hook ran",
        "level": "info", "uuid": "n0", "parentUuid": "r0", "sessionId": "s",
        "timestamp": "2025-06-01T11:00:00Z"});
    let bash =
        json!({"type": "tool_use", "id": "t0", "name": "Bash", "input": {"command": "make"}});
    let read = json!({"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a"}});
    let prompt = json!({"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2025-06-01T10:00:00Z",
        "message": {"role": "user", "content": "build it"}});
    let lines = [
        prompt.to_string(),
        answer("a0", "m0", Some("2025-06-01T10:00:01Z"), bash).to_string(),
        // two entries on one line
        format!("{result}{note}"),
        answer(
            "a1",
            "m0",
            Some("2025-06-01T10:00:03Z"),
            json!({"type": "text", "text": "Built."}),
        )
        .to_string(),
        answer("a2", "m1", None, read).to_string(),
    ];
    same_figures_of_lines(&f, &lines);
}

/// `lines` written to `f`, one a line, held to the same figures read
/// fast and whole.
fn same_figures_of_lines(f: &Path, lines: &[impl std::fmt::Display]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(f, text).expect("write");
    same_figures(f);
}

/// An answer's line (message `id`, one block), at `at` or without a time.
fn answer(uuid: &str, id: &str, at: Option<&str>, block: serde_json::Value) -> serde_json::Value {
    use serde_json::json;
    let mut v = json!({"type": "assistant", "uuid": uuid, "parentUuid": "u0", "sessionId": "s",
        "message": {"id": id, "role": "assistant", "model": "claude-sonnet-4-5",
        "usage": {"input_tokens": 7, "output_tokens": 3}, "content": [block]}});
    if let Some(at) = at {
        v["timestamp"] = json!(at);
    }
    v
}

/// A subagent named by a call's result, with no transcript here, is said
/// missing by a read for figures as by a whole load, also when that read
/// is made again with every line threaded (an answer written twice, as a
/// torn write and its repeat) and the call is in a subagent's own file:
/// there, the call waited among the lines not yet handed to the model
/// while its result was asked whether it could be passed over, and was.
#[test]
fn a_subagent_named_by_a_result_is_said_missing_however_the_file_is_read() {
    use serde_json::json;
    let at = |s: u32| format!("2025-06-01T10:00:{s:02}Z");
    let side = |main: bool| !main;
    let prompt = |uuid: &str, main: bool, text: &str| {
        json!({"type": "user", "uuid": uuid, "parentUuid": null, "timestamp": at(1), "sessionId": "s",
               "isSidechain": side(main), "message": {"role": "user", "content": text}})
        .to_string()
    };
    let answer = |uuid: &str, parent: &str, main: bool, s: u32, content: serde_json::Value| {
        json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "timestamp": at(s), "sessionId": "s",
               "isSidechain": side(main), "requestId": format!("req_{uuid}"),
               "message": {"id": format!("msg_{uuid}"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                           "content": content, "usage": {"input_tokens": 10, "output_tokens": 20}}})
        .to_string()
    };
    let task = |uuid: &str, parent: &str, main: bool, call: &str| {
        answer(
            uuid,
            parent,
            main,
            3,
            json!([{"type": "tool_use", "id": call, "name": "Task",
                                              "input": {"description": "look", "prompt": "look for it"}}]),
        )
    };
    let result = |uuid: &str, parent: &str, main: bool, call: &str, agent: &str| {
        json!({"type": "user", "uuid": uuid, "parentUuid": parent, "timestamp": at(9), "sessionId": "s", "isSidechain": side(main),
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": "found it"}]},
               "toolUseResult": {"status": "completed", "agentId": agent, "content": [{"type": "text", "text": "found it"}]}})
        .to_string()
    };
    let text = answer(
        "a1",
        "u1",
        true,
        2,
        json!([{"type": "text", "text": "Let me ask a helper."}]),
    );
    let main = [
        prompt("u1", true, "find the bug"),
        text.clone(),
        // the same answer again: read once more with every line threaded
        text,
        task("a2", "a1", true, "toolu_main"),
        result("r1", "a2", true, "toolu_main", "a1b2"),
        answer(
            "a3",
            "r1",
            true,
            10,
            json!([{"type": "text", "text": "Done."}]),
        ),
    ];
    // the subagent's own file calls one more, whose transcript is nowhere
    let agent = [
        prompt("s1", false, "look for it"),
        answer("s2", "s1", false, 2, json!([{"type": "tool_use", "id": "toolu_ls", "name": "Bash", "input": {"command": "ls"}}])),
        json!({"type": "user", "uuid": "s3", "parentUuid": "s2", "timestamp": at(2), "sessionId": "s", "isSidechain": true,
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_ls", "content": "src"}]}})
        .to_string(),
        task("s4", "s3", false, "toolu_side"),
        result("s5", "s4", false, "toolu_side", "lost1"),
        answer("s6", "s5", false, 10, json!([{"type": "text", "text": "It is in src."}])),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("s.jsonl");
    std::fs::write(&f, main.join("\n") + "\n").expect("write");
    let folder = dir.path().join("s/subagents");
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(folder.join("agent-a1b2.jsonl"), agent.join("\n") + "\n").expect("write");
    let whole = ccv::source::load_with_subagents(&f).expect("load");
    assert_eq!(whole.agents_not_found().collect::<Vec<_>>(), ["lost1"]);
    same_figures(&f);
    let fast = Figures::of(
        &ccv::source::load_for_figures(&f).expect("load for figures"),
        0,
    );
    assert_eq!(fast.cost.unpriced, 1, "{fast:?}");
}
