//! How long the viewer's finding marks take after a live append: loads a
//! big session, then appends 10 KB chunks (lines of the file with fresh
//! uuids and ids) and times `feed` and the first `marks()` after it.
//!
//! `cargo run --release --example marks_append [-- FILE]` (default
//! /tmp/ccv-bench/s100M.jsonl, made by `gen-session --size 100M --seed 1`).

use ccv::model::Session;
use serde_json::Value;
use std::time::{Duration, Instant};

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/ccv-bench/s100M.jsonl".into());
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {path} is absent");
        return;
    };
    let t = Instant::now();
    let mut s = Session::new(None);
    s.feed(0, &bytes);
    s.flush_tail(0);
    let _ = s.marks();
    eprintln!("load + first marks: {:?}", t.elapsed());
    // ~10 KB of complete lines from the middle of the file
    let mid = bytes.len() / 2;
    let text = String::from_utf8_lossy(&bytes[mid..(mid + 200_000).min(bytes.len())]);
    let lines: Vec<Value> = text
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let rounds = 50;
    let (mut feed, mut marks) = (Vec::new(), Vec::new());
    let mut next = 0;
    for r in 0..rounds {
        let mut chunk = String::new();
        while chunk.len() < 10_000 && !lines.is_empty() {
            let mut v = lines[next % lines.len()].clone();
            next += 1;
            rename(&mut v, &format!("-r{r}"));
            chunk.push_str(&v.to_string());
            chunk.push('\n');
        }
        let t = Instant::now();
        s.feed(0, chunk.as_bytes());
        feed.push(t.elapsed());
        let t = Instant::now();
        let n = s.marks().is_empty();
        marks.push(t.elapsed());
        std::hint::black_box(n);
    }
    report("feed 10 KB", &mut feed);
    report("marks() after it", &mut marks);
}

/// Fresh uuids and ids, so that appended lines are new lines.
fn rename(v: &mut Value, suffix: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match (k.as_str(), &mut *x) {
                    ("uuid" | "parentUuid" | "id" | "tool_use_id", Value::String(s)) => {
                        s.push_str(suffix)
                    }
                    _ => rename(x, suffix),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename(x, suffix)),
        _ => {}
    }
}

fn report(what: &str, d: &mut [Duration]) {
    d.sort();
    let med = d[d.len() / 2];
    let max = d[d.len() - 1];
    eprintln!(
        "{what}: median {med:?}, max {max:?} over {} rounds",
        d.len()
    );
}
