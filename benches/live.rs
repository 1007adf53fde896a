//! Live follow figures (run with `cargo bench --bench live`):
//!
//! 1. write-to-drawn latency: lines of a generated session appended at
//!    `gen-session --live`'s pace (20 lines/s, 10% split in two writes),
//!    latency = when a frame holding the line was drawn (the viewer's
//!    state, 200x60 `TestBackend`) - when its last byte was written; in
//!    event and in polling mode. Then a `gen-session --live`
//!    run followed, compared with a one-shot load;
//! 2. the cost of an append to a 100 MB session vs a 1 MB one (it must
//!    follow the appended bytes, not the file);
//! 3. the follower's CPU time while nothing changes.
//!
//! Needs `../shared/bench/gen-session` (python3); skips what it cannot run.
//! Files go to /tmp/ccv-bench. `CCV_BENCH_LIVE_SECS` sets the live run's
//! length (default 10); `CCV_BENCH_ONLY=latency|append|idle` runs one part.

use ccv::app::State;
use ccv::live::{self, FollowSpec, LiveEvent};
use ccv::model::Session;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

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
    // CCV_BENCH_ONLY=latency|append|idle runs one part
    let only = std::env::var("CCV_BENCH_ONLY").unwrap_or_default();
    let run = |part: &str| only.is_empty() || only == part;
    if run("latency") {
        latency(&gen_path, &dir);
    }
    if run("append") {
        append_cost(&gen_path, &dir);
    }
    if run("idle") {
        idle_cpu(&dir);
    }
}

fn pct(v: &[i64], p: f64) -> i64 {
    if v.is_empty() {
        return -1;
    }
    let i = ((v.len() - 1) as f64 * p).round() as usize;
    v[i.min(v.len() - 1)]
}

/// Replays the lines of `src` into `file` like `gen-session --live`: about
/// `rate` lines/s (exponential gaps), 10% of lines in two writes 2-25 ms
/// apart cut at any byte. Returns, per line, when its last byte was written.
fn replay(
    src: Vec<Vec<u8>>,
    file: PathBuf,
    rate: f64,
    secs: u64,
) -> std::thread::JoinHandle<Vec<Instant>> {
    std::thread::spawn(move || {
        let mut rng = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&file)
            .expect("open");
        let start = Instant::now();
        let mut at = start;
        let mut done = Vec::new();
        for line in src {
            if start.elapsed() > Duration::from_secs(secs) {
                break;
            }
            at += Duration::from_secs_f64(-(1.0 - next()).ln() / rate);
            if let Some(d) = at.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            if line.len() > 8 && next() < 0.1 {
                let cut = 1 + (next() * (line.len() - 2) as f64) as usize;
                let _ = f.write_all(&line[..cut]);
                std::thread::sleep(Duration::from_secs_f64(0.002 + next() * 0.023));
                let _ = f.write_all(&line[cut..]);
            } else {
                let _ = f.write_all(&line);
            }
            done.push(Instant::now());
        }
        done
    })
}

fn latency(gen_path: &Path, dir: &Path) {
    let secs: u64 = std::env::var("CCV_BENCH_LIVE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    // gen-session --live writes a turn's timestamps when it makes the turn,
    // then paces its lines out: those timestamps are not write times. So
    // the lines of a generated session are replayed here with the same
    // pacing, and each line's write time is kept.
    let src = dir.join("s1M-seed3.jsonl");
    if !generate(gen_path, "1M", "3", &src) {
        return;
    }
    let Ok(bytes) = std::fs::read(&src) else {
        return;
    };
    let lines: Vec<Vec<u8>> = bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    for poll in [false, true] {
        let file = dir.join(format!("live-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::File::create(&file);
        let (tx, rx) = channel::<LiveEvent>();
        let spec = FollowSpec::new(file.clone()).force_poll(poll);
        let follower = live::spawn(spec, move |ev| tx.send(ev).is_ok()).expect("spawn follower");
        let writer = replay(lines.clone(), file.clone(), 20.0, secs);
        // the viewer as the event loop drives it: apply every pending
        // event, absorb the changes once, draw a 200x60 frame
        let mut state = State::new(Session::new(Some(file.clone())));
        state.live.attached = true;
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
        // when each line was on screen (source 0 line count grew past it)
        let mut applied_at: Vec<Instant> = Vec::new();
        let mut apply_us = Vec::new();
        let mut draw_us = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(secs + 5);
        while Instant::now() < deadline {
            let Ok(ev) = rx.recv_timeout(Duration::from_millis(100)) else {
                continue;
            };
            let t0 = Instant::now();
            state.on_live(&ev);
            while let Ok(ev) = rx.try_recv() {
                state.on_live(&ev);
            }
            state.absorb();
            let t1 = Instant::now();
            let _ = term.draw(|f| ccv::view::draw(f, &mut state));
            let now = Instant::now();
            apply_us.push(t1.duration_since(t0).as_micros() as i64);
            draw_us.push(now.duration_since(t1).as_micros() as i64);
            let n = state.session.sources[0].lines() as usize;
            while applied_at.len() < n {
                applied_at.push(now);
            }
        }
        let written = writer.join().unwrap_or_default();
        drop(follower);
        let mut lat: Vec<i64> = written
            .iter()
            .zip(&applied_at)
            .map(|(w, a)| a.saturating_duration_since(*w).as_micros() as i64)
            .collect();
        lat.sort_unstable();
        apply_us.sort_unstable();
        draw_us.sort_unstable();
        println!(
            "write->drawn ({}): {} of {} lines, p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; apply+absorb p50 {} us, p95 {} us; draw 200x60 p50 {} us, p95 {} us",
            if poll { "polling" } else { "events" },
            lat.len(),
            written.len(),
            pct(&lat, 0.5) as f64 / 1000.0,
            pct(&lat, 0.95) as f64 / 1000.0,
            lat.last().copied().unwrap_or(-1) as f64 / 1000.0,
            pct(&apply_us, 0.5),
            pct(&apply_us, 0.95),
            pct(&draw_us, 0.5),
            pct(&draw_us, 0.95),
        );
        let _ = std::fs::remove_file(&file);
    }
    // and the real generator, as a check that it reads cleanly
    gen_live_check(gen_path, dir, secs);
}

fn gen_live_check(gen_path: &Path, dir: &Path, secs: u64) {
    let file = dir.join(format!("gen-live-{}.jsonl", std::process::id()));
    let _ = std::fs::File::create(&file);
    let (tx, rx) = channel::<LiveEvent>();
    let follower =
        live::spawn(FollowSpec::new(file.clone()), move |ev| tx.send(ev).is_ok()).expect("spawn");
    let status = Command::new("python3")
        .arg(gen_path)
        .args([
            "--live",
            &file.to_string_lossy(),
            "--rate",
            "20",
            "--duration",
            &secs.to_string(),
            "--quiet",
        ])
        .status();
    let mut session = Session::new(Some(file.clone()));
    let len = std::fs::metadata(&file).map_or(0, |m| m.len());
    while session.sources[0].bytes_read() < len {
        let Ok(ev) = rx.recv_timeout(Duration::from_secs(5)) else {
            break;
        };
        live::apply(&mut session, &ev);
    }
    drop(follower);
    let once = ccv::model::loader::load_with_subagents(&file).ok();
    println!(
        "gen-session --live ({}): followed {} items, {} unreadable; one-shot load {} items",
        status.map_or_else(|e| e.to_string(), |s| s.to_string()),
        session.main.items.len(),
        session.stats.unreadable,
        once.map_or(0, |s| s.main.items.len()),
    );
    let _ = std::fs::remove_file(&file);
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

        // the viewer side: the same appends through the state, and a frame
        let mut state = State::new(session);
        state.live.attached = true;
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
        let _ = term.draw(|f| ccv::view::draw(f, &mut state));
        let mut view_us = Vec::new();
        for a in &appends {
            let ev = LiveEvent::Appended {
                source: 0,
                bytes: a.clone(),
            };
            let t = Instant::now();
            state.on_live(&ev);
            state.absorb();
            let _ = term.draw(|f| ccv::view::draw(f, &mut state));
            view_us.push(t.elapsed().as_micros() as i64);
        }
        view_us.sort_unstable();
        drop(state);

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
             apply+absorb+draw p50 {} us, max {} us; write->applied via follower p50 {} us, max {} us",
            size as f64 / 1e6,
            load.as_secs_f64(),
            session.main.items.len(),
            pct(&us, 0.5),
            us.last().copied().unwrap_or(-1),
            pct(&view_us, 0.5),
            view_us.last().copied().unwrap_or(-1),
            pct(&e2e, 0.5),
            e2e.last().copied().unwrap_or(-1),
        );
    }
}

/// CPU time of the follower threads over 5 s of a file that does not change
/// (Linux: /proc/self/task/*/stat).
fn idle_cpu(dir: &Path) {
    fn follower_ticks() -> Option<u64> {
        let mut total = 0;
        for t in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            if comm.trim() != "ccv-follow" {
                continue;
            }
            let stat = std::fs::read_to_string(t.path().join("stat")).ok()?;
            let rest = stat.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            // utime and stime: fields 14 and 15 of stat, 12 and 13 after ')'
            total += f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        }
        Some(total)
    }
    let file = dir.join(format!("idle-{}.jsonl", std::process::id()));
    let _ = std::fs::write(&file, b"{}\n");
    for poll in [false, true] {
        let (tx, rx) = channel::<LiveEvent>();
        let f = live::spawn(FollowSpec::new(file.clone()).force_poll(poll), move |ev| {
            tx.send(ev).is_ok()
        })
        .expect("spawn");
        let _ = rx.recv_timeout(Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(200));
        let Some(before) = follower_ticks() else {
            eprintln!("skipping idle CPU: no /proc/self/task");
            return;
        };
        std::thread::sleep(Duration::from_secs(5));
        let after = follower_ticks().unwrap_or(before);
        println!(
            "idle follower ({}): {} clock ticks (1/100 s) of CPU in 5 s",
            if poll { "polling" } else { "events" },
            after.saturating_sub(before)
        );
        drop(f);
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_file(&file);
}
