//! Where Codex keeps its sessions: `$CODEX_HOME` (else `~/.codex`), its
//! `sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/`.

use std::path::{Path, PathBuf};

/// The folders that hold Codex sessions, those that exist (see
/// [`crate::paths::codex_sessions_roots`]).
pub fn roots() -> Vec<PathBuf> {
    crate::paths::codex_sessions_roots()
        .into_iter()
        .filter(|d| d.is_dir())
        .collect()
}

/// A Codex rollout file by its name (`rollout-<time>-<uuid>.jsonl`).
pub fn is_rollout(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
}

/// A rollout in the single-JSON layout of 2025-08 (`rollout-<date>-<id>.json`).
pub fn is_single_json(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".json"))
}

/// Every rollout under `dir` (its date folders), at most `depth` down;
/// links are not followed.
pub fn rollouts(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let Ok(t) = e.file_type() else { continue };
        let p = e.path();
        if t.is_dir() && depth > 0 {
            rollouts(&p, depth - 1, out);
        } else if t.is_file() && (is_rollout(&p) || is_single_json(&p)) {
            out.push(p);
        }
    }
}

/// The session id in a rollout's name: the uuid at its end.
pub fn id_of(p: &Path) -> Option<String> {
    let stem = p.file_stem()?.to_str()?.strip_prefix("rollout-")?;
    // rollout-2025-12-26T01-48-36-<uuid: 8-4-4-4-12>
    let parts: Vec<&str> = stem.split('-').collect();
    let n = parts.len();
    (n >= 5)
        .then(|| parts[n - 5..].join("-"))
        .filter(|id| id.len() == 36)
}

/// A folder of Codex sessions: rollouts in it, or date folders
/// (`2025/`) holding them.
pub fn is_root(dir: &Path) -> bool {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return false;
    };
    rd.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let year = name.len() == 4 && name.bytes().all(|b| b.is_ascii_digit());
        (year && e.file_type().is_ok_and(|t| t.is_dir()))
            || is_rollout(&e.path())
            || is_single_json(&e.path())
    })
}

/// The rollouts of threads `ids` (sub-agents a session spawned), looked
/// for in the Codex folders around `session` (its `sessions/` tree and
/// `archived_sessions/`), with each one's id.
pub fn thread_files(session: &Path, ids: &[String]) -> Vec<(PathBuf, String)> {
    if ids.is_empty() {
        return Vec::new();
    }
    // spawned while the session ran: mostly in its own folder; the whole
    // tree is walked only for the ones not there
    let mut here = Vec::new();
    if let Some(dir) = session.parent() {
        rollouts(dir, 0, &mut here);
    }
    let find = |all: &[PathBuf], id: &str| {
        all.iter()
            .find(|p| id_of(p).as_deref() == Some(id))
            .cloned()
    };
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for id in ids {
        match find(&here, id) {
            Some(p) => out.push((p, id.clone())),
            None => missing.push(id),
        }
    }
    if !missing.is_empty() {
        let all = rollouts_around(session);
        for id in missing {
            if let Some(p) = find(&all, id) {
                out.push((p, id.clone()));
            }
        }
    }
    out
}

/// Every rollout of the Codex folders `session` is in: its `sessions/`
/// tree (three date folders up) or `archived_sessions/`, and the other.
fn rollouts_around(session: &Path) -> Vec<PathBuf> {
    let Some(dir) = session.parent() else {
        return Vec::new();
    };
    let digits = |d: &Path| {
        d.file_name().is_some_and(|n| {
            n.len() <= 4 && n.to_string_lossy().bytes().all(|b| b.is_ascii_digit())
        })
    };
    let dated = dir.ancestors().take(3).all(digits);
    let root = if dated {
        dir.ancestors().nth(3)
    } else {
        Some(dir)
    };
    let Some(root) = root else {
        return Vec::new();
    };
    let mut folders = vec![root.to_owned()];
    if let Some(home) = root.parent() {
        for f in ["sessions", "archived_sessions"] {
            let d = home.join(f);
            if !folders.contains(&d) && d.is_dir() {
                folders.push(d);
            }
        }
    }
    let mut all = Vec::new();
    for f in &folders {
        rollouts(f, 3, &mut all);
    }
    all
}

/// The time in a rollout's name (`rollout-2025-12-26T01-48-36-…`, the
/// machine's local time) read as if it were UTC, in ms.
fn named_time(p: &Path) -> Option<i64> {
    let stem = p.file_name()?.to_str()?.strip_prefix("rollout-")?;
    let t = stem.get(..19)?;
    let iso = format!("{}:{}:{}Z", &t[..13], &t[14..16], &t[17..19]);
    crate::model::time::parse_timestamp(&iso)
}

/// The rollout of a review that began at `began` (ms since the epoch) in a
/// session in `cwd`: a thread whose meta says `subagent: review`, in the
/// same directory, started within minutes after. Its name's local time
/// is within a day of it; its first line says the rest.
pub fn review_file(session: &Path, at: i64, cwd: Option<&str>) -> Option<PathBuf> {
    // the session's own folder first; the whole tree when it is not there
    let mut here = Vec::new();
    if let Some(dir) = session.parent() {
        rollouts(dir, 0, &mut here);
    }
    review_among(here, session, at, cwd)
        .or_else(|| review_among(rollouts_around(session), session, at, cwd))
}

/// [`review_file`] among `files`.
fn review_among(
    files: Vec<PathBuf>,
    session: &Path,
    at: i64,
    cwd: Option<&str>,
) -> Option<PathBuf> {
    const ZONES: i64 = 15 * 3_600_000;
    let near = files
        .into_iter()
        .filter(|p| p != session)
        .filter(|p| named_time(p).is_some_and(|t| (t - at).abs() <= ZONES));
    let mut best: Option<(i64, PathBuf)> = None;
    for p in near {
        let Some(meta) = first_meta(&p) else { continue };
        let str_at = |k: &str| meta.pointer(k).and_then(serde_json::Value::as_str);
        let review = str_at("/source/subagent") == Some("review");
        let same_dir = cwd.is_none_or(|c| str_at("/cwd") == Some(c));
        let Some(started) = str_at("/timestamp").and_then(crate::model::time::parse_timestamp)
        else {
            continue;
        };
        let after = started - at;
        let closer = best.as_ref().is_none_or(|b| after.abs() < b.0);
        if review && same_dir && (-5_000..=600_000).contains(&after) && closer {
            best = Some((after.abs(), p));
        }
    }
    best.map(|b| b.1)
}

/// The `session_meta` payload of a rollout's first line.
pub fn first_meta(p: &Path) -> Option<serde_json::Value> {
    use std::io::BufRead;
    let f = crate::model::session::open_regular(p).ok()?;
    let mut first = Vec::new();
    std::io::Read::take(std::io::BufReader::new(f), 256 << 10)
        .read_until(b'\n', &mut first)
        .ok()?;
    let mut v: serde_json::Value = serde_json::from_slice(&first).ok()?;
    if v.get("type")?.as_str()? != "session_meta" {
        return None;
    }
    Some(v.get_mut("payload")?.take())
}

/// The sub-agents' rollouts beside `session` (in its folder) that name it
/// as their parent, with their ids: what a running session spawned since
/// it was read. Only the head of each is read: a rollout's meta names its
/// parent before its instructions.
pub fn children_beside(session: &Path) -> Vec<(PathBuf, String)> {
    let (Some(own), Some(dir)) = (id_of(session), session.parent()) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    rollouts(dir, 0, &mut files);
    let mut out: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|p| {
            let id = id_of(&p).filter(|id| *id != own)?;
            (parent_of(&p)?.as_deref() == Some(own.as_str())).then_some((p, id))
        })
        .collect();
    out.sort();
    out
}

/// The parent a rollout's first line names (`Some(None)`: none), read
/// once per file and kept: a follower asks again at every change in the
/// folder, and a first line does not change once whole. `None` while the
/// first line is not written yet (asked again later).
fn parent_of(p: &Path) -> Option<Option<String>> {
    use std::collections::HashMap;
    use std::io::Read;
    use std::sync::{LazyLock, Mutex};
    static KNOWN: LazyLock<Mutex<HashMap<PathBuf, Option<String>>>> =
        LazyLock::new(Default::default);
    if let Some(known) = KNOWN.lock().ok()?.get(p) {
        return Some(known.clone());
    }
    const HEAD: u64 = 4096;
    let mut head = Vec::with_capacity(HEAD as usize);
    crate::model::session::open_regular(p)
        .and_then(|f| f.take(HEAD).read_to_end(&mut head))
        .ok()?;
    const KEY: &[u8] = b"\"parent_thread_id\":\"";
    let parent = memchr::memmem::find(&head, KEY).and_then(|at| {
        let rest = &head[at + KEY.len()..];
        let end = memchr::memchr(b'"', rest)?;
        std::str::from_utf8(&rest[..end]).ok().map(str::to_owned)
    });
    // the meta names its parent before its instructions: a head without
    // one is final once its line ends or the head is full
    let whole = memchr::memchr(b'\n', &head).is_some() || head.len() as u64 == HEAD;
    if parent.is_none() && !whole {
        return None;
    }
    if let Ok(mut k) = KNOWN.lock() {
        k.insert(p.to_owned(), parent.clone());
    }
    Some(parent)
}
