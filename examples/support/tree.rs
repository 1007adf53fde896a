//! What the floor examples share: a tree's session files, read on N
//! threads as ccv spreads them (the biggest first, one buffer a thread).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The `.jsonl` files below `dir`, the biggest first.
pub fn sessions(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<(u64, PathBuf)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => walk(&p, out),
                Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "jsonl") => {
                    out.push((e.metadata().map_or(0, |m| m.len()), p));
                }
                _ => {}
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files.into_iter().map(|(_, p)| p).collect()
}

/// `THREADS DIR` from the arguments left, or the usage and exit 2.
pub fn threads_and_dir(mut args: impl Iterator<Item = String>, usage: &str) -> (usize, PathBuf) {
    let threads = args.next().and_then(|t| t.parse().ok()).unwrap_or(2);
    let Some(dir) = args.next() else {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    };
    (threads, PathBuf::from(dir))
}

/// Calls `f` with the bytes of each of `files` on `threads` threads; the
/// sums of what it returns.
pub fn on_threads<const N: usize>(
    files: &[PathBuf],
    threads: usize,
    f: impl Fn(&[u8]) -> [usize; N] + Sync,
) -> [usize; N] {
    let next = AtomicUsize::new(0);
    let totals: [AtomicUsize; N] = std::array::from_fn(|_| AtomicUsize::new(0));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut bytes = Vec::new();
                while let Some(p) = files.get(next.fetch_add(1, Relaxed)) {
                    bytes.clear();
                    let read = std::fs::File::open(p)
                        .and_then(|mut file| std::io::Read::read_to_end(&mut file, &mut bytes));
                    if read.is_err() {
                        continue;
                    }
                    for (t, n) in totals.iter().zip(f(&bytes)) {
                        t.fetch_add(n, Relaxed);
                    }
                }
            });
        }
    });
    totals.map(AtomicUsize::into_inner)
}
