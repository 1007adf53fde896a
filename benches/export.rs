//! `ccv export --format json` of a 100 MB session against a plain typed
//! serde_json parse of the same file (envelope fields + `message` as
//! RawValue), measured in the same run; plus ccv's peak RSS.
//!
//! Run: `cargo bench --bench export` (set CCV_BENCH_FILE to use another
//! file). Targets (issue 2): time <= 2x the plain parse; peak RSS <= 1.5x
//! the file size.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::typed_parse as plain_parse;

fn ccv_export(path: &Path, home: &Path) -> Duration {
    let t = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_ccv"))
        .envs(support::sandbox(home))
        .args(["export", "--format", "json"])
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run ccv");
    assert!(status.success());
    t.elapsed()
}

fn children_peak_rss_bytes() -> u64 {
    // SAFETY: getrusage only writes into the struct we pass.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru);
        ru.ru_maxrss as u64 * 1024
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench_file() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CCV_BENCH_FILE") {
        return Some(PathBuf::from(p));
    }
    support::generated(Path::new("/tmp/ccv-bench/s100M.jsonl"), "100M", "1")
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let Some(path) = bench_file() else { return };
    let home = tempfile::tempdir().expect("tempdir");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    // warm the page cache so both sides read from memory
    let _ = plain_parse(&path);
    let mut plain = Vec::new();
    let mut ccv = Vec::new();
    let mut lines = 0;
    for _ in 0..5 {
        let (d, n) = plain_parse(&path);
        plain.push(d);
        lines = n;
        ccv.push(ccv_export(&path, home.path()));
    }
    let (p, c) = (median(plain), median(ccv));
    let rss = children_peak_rss_bytes();
    let ratio = c.as_secs_f64() / p.as_secs_f64();
    let rss_ratio = rss as f64 / size as f64;
    println!(
        "file: {} ({:.1} MB, {lines} lines)",
        path.display(),
        size as f64 / 1e6
    );
    println!(
        "plain typed parse (median of 5): {:>8.1} ms",
        p.as_secs_f64() * 1e3
    );
    println!(
        "ccv export --format json:        {:>8.1} ms  ({ratio:.2}x, target <= 2x)",
        c.as_secs_f64() * 1e3
    );
    println!(
        "ccv peak RSS:                    {:>8.1} MB  ({rss_ratio:.2}x file size, target <= 1.5x)",
        rss as f64 / 1e6
    );
}
