//! The floor of a pass that reads every line of a tree's sessions as
//! JSON: each line parsed by serde alone (into `IgnoredAny`: nothing
//! kept), its files spread over N threads as ccv's listing spreads them.
//! `benches/list_tree.sh` prints it beside `cat` of the same files, so a
//! listing's ratio can be read against what any reader of every line
//! costs before it finds a title or a price.
//!
//! `cargo run --release --example parse_floor -- THREADS DIR`; prints the
//! lines that parsed and those that did not.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

fn sessions(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => sessions(&p, out),
            Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "jsonl") => out.push(p),
            _ => {}
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(2);
    let Some(dir) = args.next() else {
        eprintln!("usage: parse_floor THREADS DIR");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    sessions(Path::new(&dir), &mut files);
    let (next, parsed, failed) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                while let Some(p) = files.get(next.fetch_add(1, Relaxed)) {
                    let Ok(bytes) = std::fs::read(p) else {
                        continue;
                    };
                    let (mut ok, mut bad, mut start) = (0, 0, 0);
                    // (line ends found as ccv finds them, by memchr)
                    let ends = memchr::memchr_iter(b'\n', &bytes).chain([bytes.len()]);
                    for end in ends {
                        let line = &bytes[start..end];
                        start = end + 1;
                        if line.is_empty() {
                            continue;
                        }
                        match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
                            Ok(_) => ok += 1,
                            Err(_) => bad += 1,
                        }
                    }
                    parsed.fetch_add(ok, Relaxed);
                    failed.fetch_add(bad, Relaxed);
                }
            });
        }
    });
    println!(
        "{} lines parsed, {} not",
        parsed.into_inner(),
        failed.into_inner()
    );
}
