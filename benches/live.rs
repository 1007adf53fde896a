//! Live follow figures (run with `cargo bench --bench live`):
//!
//! 1. write-to-applied latency while `gen-session --live` writes a session
//!    (latency = when a line's first item is in the model - the wall-clock
//!    `timestamp` the generator wrote into it);
//! 2. the cost of an append to a 100 MB session vs a 1 MB one (it must
//!    follow the appended bytes, not the file).
//!
//! Needs `../shared/bench/gen-session` (python3); skips what it cannot run.
//! Files go to /tmp/ccv-bench. `CCV_BENCH_LIVE_SECS` sets the live run's
//! length (default 10).

use ccv::live::{self, FollowSpec, LiveEvent};
use ccv::model::Session;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn main() {
    let gen_path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/bench/gen-session"
    ));
    if !gen_path.exists() {
        eprintln!("skipping: {} is absent", gen_path.display());
        return;
    }
    let dir = PathBuf::from("/tmp/ccv-bench");
    let _ = std::fs::create_dir_all(&dir);
    latency(&gen_path, &dir);
    append_cost(&gen_path, &dir);
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn pct(v: &[i64], p: f64) -> i64 {
    if v.is_empty() {
        return -1;
    }
    let i = ((v.len() - 1) as f64 * p).round() as usize;
    v[i.min(v.len() - 1)]
}

fn latency(gen_path: &Path, dir: &Path) {
    let secs: u32 = std::env::var("CCV_BENCH_LIVE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    for poll in [false, true] {
        let file = dir.join(format!("live-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::File::create(&file);
        let (tx, rx) = channel::<LiveEvent>();
        let spec = FollowSpec::new(file.clone()).force_poll(poll);
        let follower = live::spawn(spec, move |ev| tx.send(ev).is_ok()).expect("spawn follower");
        let mut child = match Command::new("python3")
            .arg(gen_path)
            .args([
                "--live",
                &file.to_string_lossy(),
                "--rate",
                "20",
                "--duration",
                &secs.to_string(),
            ])
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("skipping latency: {e}");
                return;
            }
        };
        let mut session = Session::new(Some(file.clone()));
        let mut seen: HashSet<Box<str>> = HashSet::new();
        let mut lat = Vec::new();
        let mut apply_us = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(u64::from(secs) + 30);
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                // drain what is left
                while let Ok(ev) = rx.recv_timeout(Duration::from_millis(700)) {
                    live::apply(&mut session, &ev);
                }
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                break;
            }
            let Ok(ev) = rx.recv_timeout(Duration::from_millis(100)) else {
                continue;
            };
            let t0 = Instant::now();
            live::apply(&mut session, &ev);
            let changes = session.take_changes();
            apply_us.push(t0.elapsed().as_micros() as i64);
            let now = now_ms();
            if let Some(from) = changes.appended_from {
                for it in session.main.items.iter().skip(from) {
                    if let (Some(u), Some(ts)) = (&it.uuid, it.timestamp) {
                        if seen.insert(u.clone()) {
                            lat.push(now - ts);
                        }
                    }
                }
            }
        }
        let _ = child.wait();
        drop(follower);
        lat.sort_unstable();
        apply_us.sort_unstable();
        println!(
            "live latency ({}): {} lines, p50 {} ms, p95 {} ms, max {} ms; apply per event p50 {} us, p95 {} us",
            if poll { "polling" } else { "events" },
            lat.len(),
            pct(&lat, 0.5),
            pct(&lat, 0.95),
            lat.last().copied().unwrap_or(-1),
            pct(&apply_us, 0.5),
            pct(&apply_us, 0.95),
        );
        let _ = std::fs::remove_file(&file);
    }
}

fn generate(gen_path: &Path, size: &str, seed: &str, out: &Path) -> bool {
    if out.exists() {
        return true;
    }
    let ok = Command::new("python3")
        .arg(gen_path)
        .args(["--size", size, "--seed", seed, "-o", &out.to_string_lossy()])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipping: could not generate {}", out.display());
    }
    ok
}

/// Line-aligned slices of about `size` bytes.
fn slices(bytes: &[u8], size: usize, n: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    while out.len() < n && start < bytes.len() {
        let mut end = (start + size).min(bytes.len());
        while end < bytes.len() && bytes[end - 1] != b'\n' {
            end += 1;
        }
        out.push(bytes[start..end].to_vec());
        start = end;
    }
    out
}

fn append_cost(gen_path: &Path, dir: &Path) {
    let big = dir.join("s100M.jsonl");
    let small = dir.join("s1M.jsonl");
    let extra = dir.join("s1M-seed7.jsonl");
    if !(generate(gen_path, "100M", "1", &big)
        && generate(gen_path, "1M", "1", &small)
        && generate(gen_path, "1M", "7", &extra))
    {
        return;
    }
    let Ok(extra_bytes) = std::fs::read(&extra) else {
        return;
    };
    // skip the head of the other session (its summary/snapshot lines)
    let appends = slices(
        extra_bytes.get(100_000..).unwrap_or(&extra_bytes),
        10_000,
        20,
    );
    for base in [&small, &big] {
        let t0 = Instant::now();
        let Ok(mut session) = ccv::model::loader::load_with_subagents(base) else {
            continue;
        };
        let load = t0.elapsed();
        let size = std::fs::metadata(base).map_or(0, |m| m.len());

        // the model side: apply() of a 10 KB Appended event
        let mut us = Vec::new();
        for a in &appends {
            let ev = LiveEvent::Appended {
                source: 0,
                bytes: a.clone(),
            };
            let t = Instant::now();
            live::apply(&mut session, &ev);
            session.take_changes();
            us.push(t.elapsed().as_micros() as i64);
        }
        us.sort_unstable();

        // end to end: a copy of the file followed from its end, 10 KB
        // appended, until the last appended line is in the model
        let copy = dir.join(format!("append-{}.jsonl", std::process::id()));
        if std::fs::copy(base, &copy).is_err() {
            continue;
        }
        let Ok(mut session) = ccv::model::loader::load_with_subagents(&copy) else {
            continue;
        };
        let (tx, rx) = channel();
        let follower = live::spawn(FollowSpec::from_session(&session), move |ev| {
            tx.send(ev).is_ok()
        })
        .expect("spawn");
        let mut e2e = Vec::new();
        for a in &appends {
            let want = session.sources[0].bytes_read() + a.len() as u64;
            let t = Instant::now();
            if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&copy) {
                let _ = f.write_all(a);
            }
            while session.sources[0].bytes_read() < want {
                match rx.recv_timeout(Duration::from_secs(10)) {
                    Ok(ev) => {
                        live::apply(&mut session, &ev);
                    }
                    Err(_) => break,
                }
            }
            session.take_changes();
            e2e.push(t.elapsed().as_micros() as i64);
        }
        e2e.sort_unstable();
        drop(follower);
        let _ = std::fs::remove_file(&copy);
        println!(
            "append 10 KB to a {:.1} MB session (loaded in {:.2} s, {} items): apply p50 {} us, max {} us; \
             write->applied via follower p50 {} us, max {} us",
            size as f64 / 1e6,
            load.as_secs_f64(),
            session.main.items.len(),
            pct(&us, 0.5),
            us.last().copied().unwrap_or(-1),
            pct(&e2e, 0.5),
            e2e.last().copied().unwrap_or(-1),
        );
    }
}
