//! A session read for its figures only (the lines that cannot change them
//! passed over undecoded) gives the figures of a whole load, on every real
//! file there is and on generated and damaged ones.

use crate::common;
use ccv::model::figures::Figures;
use std::path::Path;

fn same_figures(path: &Path) {
    let whole = ccv::source::load_with_subagents(path).expect("load");
    let fast = ccv::source::load_for_figures(path).expect("load for figures");
    let (a, b) = (Figures::of(&whole, 0), Figures::of(&fast, 0));
    assert_eq!(a, b, "{}", path.display());
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_every_corpus_file() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in &files {
        same_figures(f);
    }
    let codex = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus-codex"
    ));
    for e in std::fs::read_dir(codex).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "jsonl") {
            same_figures(&e.path());
        }
    }
}

#[test]
fn figures_of_a_fast_read_are_a_whole_loads_on_fixtures_and_generated_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("fixtures.jsonl");
    std::fs::write(&f, common::fixtures()).expect("write");
    same_figures(&f);
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
    ] {
        let Some((_dir, file, _)) = common::generated(args) else {
            return;
        };
        same_figures(&file);
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
            if rng.below(4) == 0 && !text.is_empty() {
                // a byte changed or the line cut, anywhere
                let at = rng.below(text.len());
                let mut b = text.into_bytes();
                if rng.below(2) == 0 {
                    b.truncate(at);
                } else {
                    b[at] = b"{}[]\",:x\\"[rng.below(9)];
                }
                text = String::from_utf8_lossy(&b).into_owned();
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
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&f, text).expect("write");
    same_figures(&f);
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
