//! `gen-session --corrupt`: every bad line reported with its line number,
//! unknown types shown as rows, nothing else lost. Skips with a reason when
//! the generator (../shared/bench) is absent.

use crate::common;

use std::collections::BTreeMap;

#[test]
fn every_corrupt_line_is_reported() {
    let Some((_dir, file, stats)) =
        common::generated(&["--size", "16M", "--seed", "3", "--corrupt", "--stats"])
    else {
        return;
    };
    let mut bad: BTreeMap<String, u64> = BTreeMap::new();
    for line in stats.lines() {
        let mut parts = line.split_whitespace();
        if let (Some(k), Some(n)) = (parts.next(), parts.next())
            && let (Some(kind), Ok(n)) = (k.strip_prefix("corrupt/"), n.parse())
        {
            bad.insert(kind.to_owned(), n);
        }
    }
    let count = |k: &str| bad.get(k).copied().unwrap_or(0);
    let unreadable = count("truncated") + count("empty") + count("non-json") + count("array");
    let repaired = count("lone-surrogate") + count("invalid-utf8");
    assert!(
        unreadable + repaired > 0,
        "generator wrote no corrupt lines: {stats}"
    );

    let s = ccv::model::Session::load(&file).expect("load");
    assert_eq!(s.stats.unreadable, unreadable);
    assert_eq!(s.stats.recovered, repaired);
    assert_eq!(
        s.stats.shown + s.stats.hidden + s.stats.unreadable,
        s.stats.entries
    );
    let unknown_rows = s
        .main
        .items
        .iter()
        .filter(|i| i.text.or_marker().contains("x-future-kind"))
        .count() as u64
        + s.agents
            .iter()
            .flat_map(|a| &a.transcript.items)
            .filter(|i| i.text.or_marker().contains("x-future-kind"))
            .count() as u64;
    assert_eq!(unknown_rows, count("unknown-type"));

    let home = tempfile::tempdir().expect("tempdir");
    let out = exported_json(home.path(), &file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reported: Vec<&str> = stderr.lines().filter(|l| l.starts_with("ccv: ")).collect();
    assert_eq!(reported.len() as u64, unreadable + repaired, "{stderr}");
    for r in reported {
        // ccv: PATH:LINE: reason
        let rest = r
            .trim_start_matches("ccv: ")
            .trim_start_matches(file.to_str().expect("utf8 path"));
        let line: u64 = rest
            .trim_start_matches(':')
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("line number");
        assert!(line > 0);
    }
}

/// A file of junk: the first hundred bad lines are named on stderr, the
/// rest counted in one line that says where they all are (each line once
/// was a line there: hundreds of thousands for a file of junk), and the
/// transcript still holds every one of them.
#[test]
fn a_flood_of_bad_lines_is_named_up_to_a_hundred_then_counted() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = home.path().join("junk.jsonl");
    let mut text = String::new();
    for n in 0..250 {
        text.push_str(if n % 2 == 0 { "[1,2]\n" } else { "not json\n" });
    }
    std::fs::write(&file, text).expect("write");
    let out = exported_json(home.path(), &file);
    let said = String::from_utf8_lossy(&out.stderr);
    let named: Vec<&str> = said
        .lines()
        .filter(|l| {
            l.split_once("junk.jsonl:")
                .is_some_and(|(_, n)| n.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect();
    assert_eq!(named.len(), 100, "{said}");
    assert!(named[99].contains("junk.jsonl:100:"), "{said}");
    let last = said.lines().last().unwrap_or_default();
    assert!(
        last.contains("150 more unreadable or repaired line(s)") && last.contains("ccv check"),
        "{said}"
    );
    let rows = String::from_utf8_lossy(&out.stdout).lines().count();
    assert_eq!(rows, 250, "every bad line is a row of the transcript");
    // a name that starts like an option is said as a path `ccv check` takes
    let dashed = home.path().join("-junk.jsonl");
    std::fs::rename(&file, &dashed).expect("rename");
    let out = common::ccv_at(home.path())
        .current_dir(home.path())
        .args(["export", "--", "-junk.jsonl"])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("`ccv check ./-junk.jsonl`"), "{said}");
}

/// Half an emoji cut off (JavaScript's `JSON.stringify` writes the lone
/// half as an escape, `\ud83c`) inside a block: a tool's output, an
/// answer's text, a prompt's text block, a thinking. Each is read with
/// U+FFFD in its place and said, not shown as an unknown row (the tool
/// result was lost, its call "still running", the answer's text gone);
/// a whole pair beside it stays, and a line with another damage too is
/// read as well.
#[test]
fn half_an_emoji_in_a_block_is_replaced_not_lost() {
    let home = tempfile::tempdir().expect("tempdir");
    let file = home.path().join("s.jsonl");
    let lines = [
        r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"prompt \ud83c cut"}]}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"thinking","thinking":"think \udf89","signature":"x"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat e.txt"}}],"usage":{"input_tokens":10,"output_tokens":5}}}"#,
        r#"{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"party \ud83c\udf89 then \ud83c"}]}}"#,
        r#"{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s","timestamp":"2025-01-01T00:00:03.000Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"done \ud83c\udf89 \udf89 alone"}],"usage":{"input_tokens":10,"output_tokens":5}},"isSidechain":"no"}"#,
    ];
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let out = exported_json(home.path(), &file);
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let kinds: Vec<&str> = rows.iter().filter_map(|r| r["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        ["user", "thinking", "tool_call", "tool_result", "assistant"],
        "{rows:?}"
    );
    let texts: Vec<&str> = rows.iter().filter_map(|r| r["text"].as_str()).collect();
    assert_eq!(texts[0], "prompt \u{fffd} cut");
    assert_eq!(texts[1], "think \u{fffd}");
    assert_eq!(texts[3], "party 🎉 then \u{fffd}");
    assert_eq!(texts[4], "done 🎉 \u{fffd} alone");
    let said = String::from_utf8_lossy(&out.stderr);
    for line in 1..=4 {
        assert!(
            said.contains(&format!("s.jsonl:{line}: lone surrogate")),
            "line {line}: {said}"
        );
    }
    let check = common::ccv_at(home.path())
        .arg("check")
        .arg(&file)
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(!said.contains("still running"), "{said}");
}

/// `ccv export --format json FILE` in the sandbox `home`, which succeeds.
fn exported_json(home: &std::path::Path, file: &std::path::Path) -> std::process::Output {
    let out = common::ccv_at(home)
        .args(["export", "--format", "json"])
        .arg(file)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    out
}
