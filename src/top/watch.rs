//! Finding the sessions to show: one scan of the projects root, then its
//! file-system events (a rescan every few seconds where there are none).
//! Only paths and times go to the overview; the followers read the bytes.

use super::TopEvent;
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// A session file: `*.jsonl`, not a subagent's.
pub fn is_session_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "jsonl")
        && !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("agent-"))
}

/// The project a session file is in, until its lines say (`cwd`).
pub fn project_of(p: &Path) -> String {
    p.parent()
        .and_then(|d| d.file_name())
        .map(|n| crate::model::text::term_line(&n.to_string_lossy()))
        .unwrap_or_default()
}

/// When a session file was last written; `None` for anything that is not
/// a regular file (a FIFO, socket or directory named `*.jsonl` is not a
/// session, and reading a FIFO would block).
fn mtime_ms(p: &Path) -> Option<i64> {
    let m = std::fs::metadata(p)
        .ok()
        .filter(|m| m.is_file())?
        .modified()
        .ok()?;
    Some(m.duration_since(UNIX_EPOCH).ok()?.as_millis() as i64)
}

/// The session file a changed path belongs to: itself, or the session of a
/// subagent file (`<project>/<session>/subagents/agent-x.jsonl`).
fn session_of(root: &Path, p: &Path) -> Option<PathBuf> {
    let rel = p.strip_prefix(root).ok()?;
    let parts: Vec<_> = rel.components().collect();
    match parts.len() {
        2 if is_session_file(p) => Some(p.to_owned()),
        4 if parts[2].as_os_str() == "subagents" => {
            let dir = root.join(parts[0].as_os_str());
            Some(dir.join(format!("{}.jsonl", parts[1].as_os_str().to_string_lossy())))
        }
        _ => None,
    }
}

pub(crate) fn scan(root: &Path, send: &dyn Fn(TopEvent) -> bool) -> bool {
    let Ok(projects) = std::fs::read_dir(root) else {
        return true;
    };
    for d in projects.flatten() {
        let Ok(files) = std::fs::read_dir(d.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if !is_session_file(&p) {
                continue;
            }
            if let Some(mtime_ms) = mtime_ms(&p)
                && !send(TopEvent::Candidate { path: p, mtime_ms })
            {
                return false;
            }
        }
    }
    true
}

/// Scans `root`, then reports the session files written under it, until
/// `send` says the overview is gone. Without file-system events, `poll`
/// rescans every 2 s (the overview); else it stops there (the picker's
/// section: not worth a wake-up every 2 s while the list is read).
pub fn spawn(root: PathBuf, poll: bool, send: impl Fn(TopEvent) -> bool + Send + 'static) {
    std::thread::spawn(move || {
        if !scan(&root, &send) || !send(TopEvent::Scanned) {
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let watcher = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
            let _ = tx.send(r);
        })
        .and_then(|mut w| w.watch(&root, RecursiveMode::Recursive).map(|_| w));
        let Ok(_watcher) = watcher else {
            // no events (a network file system, no inotify left): rescan
            if !poll {
                return;
            }
            loop {
                std::thread::sleep(Duration::from_secs(2));
                if !scan(&root, &send) {
                    return;
                }
            }
        };
        while let Ok(r) = rx.recv() {
            let Ok(ev) = r else { continue };
            if matches!(ev.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for p in ev.paths {
                let Some(session) = session_of(&root, &p) else {
                    continue;
                };
                let (Some(mtime_ms), Some(_)) = (mtime_ms(&p), mtime_ms(&session)) else {
                    continue;
                };
                if !send(TopEvent::Candidate {
                    path: session,
                    mtime_ms,
                }) {
                    return;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subagent_files_count_under_their_session() {
        let root = Path::new("/r");
        assert_eq!(
            session_of(root, Path::new("/r/-src-app/s1.jsonl")),
            Some(PathBuf::from("/r/-src-app/s1.jsonl"))
        );
        assert_eq!(
            session_of(root, Path::new("/r/-src-app/s1/subagents/agent-a.jsonl")),
            Some(PathBuf::from("/r/-src-app/s1.jsonl"))
        );
        assert_eq!(
            session_of(root, Path::new("/r/-src-app/agent-a.jsonl")),
            None
        );
        assert_eq!(session_of(root, Path::new("/r/x.jsonl")), None);
    }
}
