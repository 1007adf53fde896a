//! Live follow: watching session files (or stdin) in a background thread and
//! feeding what was appended to the model.
//!
//! The reading side runs in its own thread and only *sends* [`LiveEvent`]s
//! through a sink the caller chooses (usually a channel sender, wrapped so
//! the UI loop wakes up). The UI thread applies them with [`apply`], which
//! never does file I/O and costs time proportional to the appended bytes.
//!
//! Wiring (one loop, one channel of app events, e.g. `AppEvent::Live(ev)`
//! next to key events from a crossterm reader thread):
//! - a session file: `load_with_subagents(path)` then
//!   `spawn(FollowSpec::from_session(&session), sink)`, or start from
//!   `Session::new(Some(path))` with `FollowSpec::new(path)` and let the
//!   events load it (in 4 MB chunks, drawn as they come);
//! - a project directory: [`newest_session`], then the same with
//!   `.project(true)`; on `Applied::NewSession(p)` offer to switch (drop the
//!   follower, load `p`, follow it; going back is the same);
//! - `-`: [`spawn_stdin`] into `Session::new(None)`; keys then come from
//!   the terminal, which crossterm opens as `/dev/tty` when stdin is not one.
//!
//! Apply every pending event before drawing (`try_recv` until empty), then
//! `session.take_changes()` once.
//!
//! ```no_run
//! use ccv::live::{self, FollowSpec, LiveEvent};
//! use ccv::model::Session;
//! let (tx, rx) = std::sync::mpsc::channel::<LiveEvent>();
//! let path = std::path::PathBuf::from("s.jsonl");
//! let mut session = Session::new(Some(path.clone()));
//! let _follower = live::spawn(FollowSpec::new(path), move |ev| tx.send(ev).is_ok());
//! while let Ok(ev) = rx.recv() {
//!     let applied = live::apply(&mut session, &ev);
//!     let changes = session.take_changes();
//!     // ...update the view from `changes` / `applied`, draw
//! #   let _ = (applied, changes);
//! }
//! ```

mod anchor;
mod follow;
mod project;
mod stdin;
mod tail;

pub use anchor::{Anchor, Resolve};
pub use follow::{FollowSpec, Follower, spawn};
pub use stdin::{spawn_reader, spawn_stdin};

use crate::model::Session;
use std::path::{Path, PathBuf};

/// What the follower saw. `source` is an index into `Session::sources`,
/// as the session that applies the events numbers them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveEvent {
    /// Bytes appended to a source (any split: mid-line, mid-UTF-8).
    Appended { source: u16, bytes: Vec<u8> },
    /// A source shrank or was rewritten in place. The follower starts over:
    /// the events that follow re-read the session from its first byte.
    Truncated { source: u16 },
    /// A source's path now names another file (renamed over, or deleted and
    /// created again). The follower starts over, as for `Truncated`.
    Replaced { source: u16 },
    /// A source was deleted. What was read stays; if the path comes back,
    /// `Replaced` follows.
    Deleted { source: u16 },
    /// Project mode: another session file in the directory was written after
    /// the follower started and is newer than the followed one.
    NewSession { path: PathBuf },
    /// A subagent file appeared; it becomes `source` (its bytes follow as
    /// `Appended`).
    NewSubagent {
        source: u16,
        path: PathBuf,
        agent_id: String,
        /// What Claude Code wrote of it beside its file, when it had.
        meta: Option<crate::model::agents::AgentMeta>,
    },
    /// After `Truncated`/`Replaced`: everything there is was read again.
    Reloaded,
    /// Standard input (or the reader) reached its end.
    StdinEof,
    /// A problem worth a status line (unreadable file, watcher failure).
    Error(String),
}

/// What [`apply`] did. Whatever it returns, `Session::take_changes` says
/// which rows changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Nothing beyond what `take_changes` reports.
    Changed,
    /// The session was emptied because its file was rewritten or replaced;
    /// the events that follow fill it again. Views must drop what they keep
    /// (as for `Changes::rebuilt`); `anchor` finds the place the reader was
    /// at (the last item, or use [`Anchor::of_item`] on the selection
    /// before applying the event) at `Applied::Reloaded`.
    Reset {
        anchor: Option<Anchor>,
        status: String,
    },
    /// The reload that followed a `Reset` is complete: restore the place
    /// with [`Anchor::find`].
    Reloaded,
    /// A message for the status line.
    Status(String),
    /// Project mode: a newer session appeared. Offer to switch.
    NewSession(PathBuf),
    /// The input ended (stdin): the last line was read as it is.
    Ended,
}

/// Applies one event to the session. Cost is proportional to the event's
/// bytes; no file I/O.
pub fn apply(session: &mut Session, ev: &LiveEvent) -> Applied {
    match ev {
        LiveEvent::Appended { source, bytes } => {
            if usize::from(*source) < session.sources.len() {
                session.feed(*source, bytes);
                session.flush_tail(*source);
            }
            Applied::Changed
        }
        LiveEvent::Truncated { source } | LiveEvent::Replaced { source } => {
            let anchor = Anchor::last(session);
            let what = if matches!(ev, LiveEvent::Truncated { .. }) {
                "was rewritten"
            } else {
                "was replaced"
            };
            let status = format!("{} {what}: reloading", source_name(session, *source));
            let path = session.sources.first().and_then(|s| s.path.clone());
            *session = Session::new(path);
            Applied::Reset { anchor, status }
        }
        LiveEvent::Deleted { source } => Applied::Status(format!(
            "{} was deleted; showing what was read",
            source_name(session, *source)
        )),
        LiveEvent::Reloaded => Applied::Reloaded,
        LiveEvent::NewSession { path } => Applied::NewSession(path.clone()),
        LiveEvent::NewSubagent {
            source,
            path,
            agent_id,
            meta,
        } => {
            if usize::from(*source) != session.sources.len() {
                return Applied::Status(format!(
                    "subagent {agent_id}: out of step with the follower (source {source}); reload to see it"
                ));
            }
            let src = session.add_agent_source(path.clone(), agent_id);
            let agent = session.sources.get(usize::from(src)).and_then(|x| x.agent);
            if let (Some(a), Some(meta)) = (agent, meta) {
                session.apply_agent_meta(a, meta.clone());
            }
            Applied::Changed
        }
        LiveEvent::StdinEof => {
            if !session.sources.is_empty() {
                session.finish(crate::model::session::MAIN);
            }
            Applied::Ended
        }
        LiveEvent::Error(e) => Applied::Status(e.clone()),
    }
}

fn source_name(session: &Session, source: u16) -> String {
    session
        .sources
        .get(usize::from(source))
        .and_then(|s| s.path.as_deref())
        .and_then(|p| p.file_name())
        .map_or_else(|| "input".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// The newest session of a project directory: the most recently modified
/// `*.jsonl` directly in `dir`, leaving out subagent files (`agent-*.jsonl`).
pub fn newest_session(dir: &Path) -> Option<PathBuf> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if !is_session_file(&p) {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let m = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
        if best.as_ref().is_none_or(|(bm, bp)| (m, &p) > (*bm, bp)) {
            best = Some((m, p));
        }
    }
    best.map(|(_, p)| p)
}

/// `<uuid>.jsonl`, not `agent-<id>.jsonl`.
pub(crate) fn is_session_file(p: &Path) -> bool {
    let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.ends_with(".jsonl") && !name.starts_with("agent-") && name.len() > ".jsonl".len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"type":"user","uuid":"u1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}"#;

    #[test]
    fn appended_bytes_reach_the_model() {
        let mut s = Session::new(None);
        let bytes = format!("{LINE}\n").into_bytes();
        assert_eq!(
            apply(&mut s, &LiveEvent::Appended { source: 0, bytes }),
            Applied::Changed
        );
        assert_eq!(s.main.items.len(), 1);
        assert!(s.take_changes().appended_from == Some(0));
    }

    #[test]
    fn unknown_source_is_ignored() {
        let mut s = Session::new(None);
        let ev = LiveEvent::Appended {
            source: 7,
            bytes: b"{}\n".to_vec(),
        };
        assert_eq!(apply(&mut s, &ev), Applied::Changed);
        assert!(s.main.items.is_empty());
    }

    #[test]
    fn truncation_resets_and_keeps_an_anchor() {
        let mut s = Session::new(Some("x.jsonl".into()));
        apply(
            &mut s,
            &LiveEvent::Appended {
                source: 0,
                bytes: format!("{LINE}\n").into_bytes(),
            },
        );
        let Applied::Reset {
            anchor: Some(a), ..
        } = apply(&mut s, &LiveEvent::Truncated { source: 0 })
        else {
            panic!("expected a reset with an anchor")
        };
        assert!(s.main.items.is_empty());
        assert_eq!(s.sources.len(), 1);
        assert_eq!(a.resolve(&s), Resolve::Pending);
        apply(
            &mut s,
            &LiveEvent::Appended {
                source: 0,
                bytes: format!("{LINE}\n").into_bytes(),
            },
        );
        let Resolve::Found(None, id) = a.resolve(&s) else {
            panic!("anchor not found")
        };
        assert_eq!(s.main.items.first().map(|i| i.id), Some(id));
    }

    #[test]
    fn stdin_eof_reads_an_unfinished_line() {
        let mut s = Session::new(None);
        apply(
            &mut s,
            &LiveEvent::Appended {
                source: 0,
                bytes: b"{\"type\":\"user\",\"mess".to_vec(),
            },
        );
        assert!(s.main.items.is_empty());
        assert_eq!(apply(&mut s, &LiveEvent::StdinEof), Applied::Ended);
        assert_eq!(s.main.items.len(), 1, "the broken line shows as unreadable");
    }

    #[test]
    fn subagent_out_of_step_is_reported() {
        let mut s = Session::new(None);
        let ev = LiveEvent::NewSubagent {
            source: 3,
            path: "a".into(),
            agent_id: "x".into(),
            meta: None,
        };
        assert!(matches!(apply(&mut s, &ev), Applied::Status(_)));
        let ev = LiveEvent::NewSubagent {
            source: 1,
            path: "a".into(),
            agent_id: "x".into(),
            meta: None,
        };
        assert_eq!(apply(&mut s, &ev), Applied::Changed);
        assert_eq!(s.sources.len(), 2);
    }

    #[test]
    fn session_files_exclude_agents() {
        assert!(is_session_file(Path::new("/d/abc.jsonl")));
        assert!(!is_session_file(Path::new("/d/agent-abc.jsonl")));
        assert!(!is_session_file(Path::new("/d/abc.json")));
        assert!(!is_session_file(Path::new("/d/.jsonl")));
    }
}
