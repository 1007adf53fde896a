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
    let out = common::ccv_at(home.path())
        .args(["export", "--format", "json"])
        .arg(&file)
        .output()
        .expect("run ccv");
    assert!(out.status.success());
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
