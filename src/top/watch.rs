//! Finding the sessions to show: one scan of the projects root, then its
//! file-system events (a rescan every few seconds where there are none).
//! Only paths and times go to the overview; the followers read the bytes.

use super::TopEvent;
use crate::search::kept::Teller;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// A session file: `*.jsonl`, not a subagent's (a Codex sub-agent writes
/// a rollout of its own, listed as a session).
pub fn is_session_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "jsonl")
        && !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("agent-"))
}

/// The project a session file is in, until its lines say (`cwd`): its
/// folder's name, when the folder is its project's (a file filed by date
/// has no project until read).
pub fn project_of(p: &Path) -> String {
    if !crate::source::filed_by_project(p) {
        return String::new();
    }
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
/// subagent file (`<project>/<session>/subagents/agent-x.jsonl`, or
/// `…/subagents/workflows/<run>/agent-x.jsonl`); a file filed by date
/// (Codex's) is a session wherever it lies.
fn session_of(root: &Path, p: &Path) -> Option<PathBuf> {
    let rel = p.strip_prefix(root).ok()?;
    if !crate::source::filed_by_project(p) {
        return Some(p.to_owned());
    }
    let parts: Vec<_> = rel.components().collect();
    match parts.len() {
        2 if is_session_file(p) => Some(p.to_owned()),
        4 | 6
            if parts[2].as_os_str() == "subagents"
                && (parts.len() == 4 || parts[3].as_os_str() == crate::source::WORKFLOWS) =>
        {
            let dir = root.join(parts[0].as_os_str());
            Some(dir.join(format!("{}.jsonl", parts[1].as_os_str().to_string_lossy())))
        }
        _ => None,
    }
}

/// Reports every session file in the folders of `scope`.
pub(crate) fn scan(scope: &[PathBuf], send: &dyn Fn(TopEvent) -> bool) -> bool {
    scope.iter().all(|root| scan_one(root, send))
}

fn scan_one(root: &Path, send: &dyn Fn(TopEvent) -> bool) -> bool {
    if let Some(files) = crate::source::sessions_under(root) {
        return files.into_iter().all(|p| match mtime_ms(&p) {
            Some(mtime_ms) => send(TopEvent::Candidate { path: p, mtime_ms }),
            None => true,
        });
    }
    let Some(projects) = crate::catalog::files::project_folders(root) else {
        return true;
    };
    for d in projects {
        let Ok(files) = std::fs::read_dir(d) else {
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

/// Scans `root` (with the other agents' folders when it is the default
/// one: [`crate::catalog::files::scope`]), then reports the session files
/// written under them, until
/// `send` says the overview is gone. Without file-system events, `poll`
/// rescans every 2 s (the overview); else it stops there (the picker's
/// section: not worth a wake-up every 2 s while the list is read).
/// `teller`, when given, is told every change too (the picker's search
/// keeps its files by it: see [`crate::search::kept`]).
pub fn spawn(
    root: PathBuf,
    poll: bool,
    teller: Option<Teller>,
    send: impl Fn(TopEvent) -> bool + Send + 'static,
) {
    std::thread::spawn(move || {
        let scope = crate::catalog::files::scope(&root);
        if !scan(&scope, &send) || !send(TopEvent::Scanned) {
            if let Some(t) = &teller {
                t.stopped();
            }
            return;
        }
        // a file written: its session, as a candidate (`false`: the
        // overview is gone)
        let report = |p: PathBuf| {
            let Some(session) = scope.iter().find_map(|r| session_of(r, &p)) else {
                return true;
            };
            let (Some(mtime_ms), Some(_)) = (mtime_ms(&p), mtime_ms(&session)) else {
                return true;
            };
            send(TopEvent::Candidate {
                path: session,
                mtime_ms,
            })
        };
        let watched = watch_writes(&scope, report, teller.as_ref()).is_ok();
        // (the search walks from now on, whichever way the watch ended)
        if let Some(t) = &teller {
            t.stopped();
        }
        if watched {
            return;
        }
        // no events (a network file system, no inotify left): rescan
        if !poll {
            return;
        }
        loop {
            std::thread::sleep(Duration::from_secs(2));
            if !scan(&scope, &send) {
                return;
            }
        }
    });
}

/// Hands `report` each file written under `scope` until it says stop
/// (`Ok`); `Err` when there are no file-system events to be had.
#[cfg(target_os = "linux")]
fn watch_writes(
    scope: &[PathBuf],
    mut report: impl FnMut(PathBuf) -> bool,
    teller: Option<&Teller>,
) -> std::io::Result<()> {
    use crate::catalog::inotify::{Change, watch};
    watch(scope, |c| {
        // (a search gone leaves the overview watching)
        if let Some(t) = teller {
            t.tell(&c);
        }
        // the overview shows what is written; nothing else is news to it
        match c {
            Change::Written(p) => report(p),
            Change::Ready | Change::Tree | Change::Linked => true,
        }
    })
}

#[cfg(not(target_os = "linux"))]
fn watch_writes(
    scope: &[PathBuf],
    mut report: impl FnMut(PathBuf) -> bool,
    teller: Option<&Teller>,
) -> std::io::Result<()> {
    // notify's events are not told apart here: the search walks
    if let Some(t) = teller {
        t.stopped();
    }
    use notify::{RecursiveMode, Watcher};
    let (tx, rx) = std::sync::mpsc::channel();
    let mut w = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
        // an open is no write: dropped on the watcher's thread
        if !matches!(&r, Ok(e) if matches!(e.kind, notify::EventKind::Access(_))) {
            let _ = tx.send(r);
        }
    })
    .map_err(std::io::Error::other)?;
    for r in scope {
        w.watch(r, RecursiveMode::Recursive)
            .map_err(std::io::Error::other)?;
    }
    while let Ok(r) = rx.recv() {
        let Ok(ev) = r else { continue };
        for p in ev.paths {
            if !report(p) {
                return Ok(());
            }
        }
    }
    Ok(())
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
            session_of(
                root,
                Path::new("/r/-src-app/s1/subagents/workflows/wf_1/agent-b.jsonl")
            ),
            Some(PathBuf::from("/r/-src-app/s1.jsonl"))
        );
        assert_eq!(
            session_of(
                root,
                Path::new("/r/-src-app/s1/subagents/x/y/agent-b.jsonl")
            ),
            None
        );
        assert_eq!(
            session_of(root, Path::new("/r/-src-app/agent-a.jsonl")),
            None
        );
        assert_eq!(session_of(root, Path::new("/r/x.jsonl")), None);
    }
}
