//! `list_sessions` over a generated tree (5 projects, 100 sessions, scale
//! 0.2), without a cache (every file's head and tail read) and with a warm
//! cache (stat only). Skipped when the generator is absent. For the big
//! figure (2,000 sessions, 1 GB) use `ccv list --json` with hyperfine; see
//! the picker notes.

use ccv::catalog::list::{ScanOptions, list_sessions};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

fn fixture() -> Option<&'static Fixture> {
    static F: OnceLock<Option<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let generator = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/gen-session");
        if !Path::new(generator).exists() {
            eprintln!("skipping list benches: {generator} not found");
            return None;
        }
        let dir = tempfile::tempdir().ok()?;
        let root = dir.path().join("tree");
        let ok = std::process::Command::new(generator)
            .args([
                "--tree",
                &root.to_string_lossy(),
                "--projects",
                "5",
                "--sessions",
                "100",
                "--scale",
                "0.2",
            ])
            .args(["--seed", "1"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("skipping list benches: gen-session failed");
            return None;
        }
        let cache = dir.path().join("cache.jsonl");
        Some(Fixture {
            _dir: dir,
            root,
            cache,
        })
    })
    .as_ref()
}

/// A listing without the cache; `figures`: every session also read whole
/// for its tokens and cost.
fn cold(figures: bool) -> usize {
    let Some(f) = fixture() else { return 0 };
    let opts = ScanOptions {
        cache: None,
        threads: 0,
        figures,
    };
    list_sessions(&f.root, &opts).len()
}

#[divan::bench]
fn cold_no_cache() -> usize {
    cold(false)
}

#[divan::bench]
fn cold_with_figures() -> usize {
    cold(true)
}

#[divan::bench]
fn warm_cache() -> usize {
    let Some(f) = fixture() else { return 0 };
    let opts = ScanOptions {
        cache: Some(f.cache.clone()),
        threads: 0,
        figures: true,
    };
    list_sessions(&f.root, &opts).len()
}
