//! Where Codex keeps its sessions: `$CODEX_HOME` (else `~/.codex`), its
//! `sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/`.

use std::path::{Path, PathBuf};

/// `$CODEX_HOME`, else `~/.codex`.
pub fn home() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("CODEX_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".codex"))
}

/// The folders that hold Codex sessions, those that exist.
pub fn roots() -> Vec<PathBuf> {
    let Some(h) = home() else {
        return Vec::new();
    };
    ["sessions", "archived_sessions"]
        .iter()
        .map(|d| h.join(d))
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

/// The rollout of a review that began at `began` (UTC, RFC 3339) in a
/// session in `cwd`: a thread whose meta says `subagent: review`, in the
/// same directory, started within minutes after. Its name's local time
/// is within a day of it; its first line says the rest.
pub fn review_file(session: &Path, began: &str, cwd: Option<&str>) -> Option<PathBuf> {
    let at = crate::model::time::parse_timestamp(began)?;
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
    use std::io::Read;
    let (Some(own), Some(dir)) = (id_of(session), session.parent()) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    rollouts(dir, 0, &mut files);
    let needle = format!("\"parent_thread_id\":\"{own}\"");
    let mut out = Vec::new();
    for p in files {
        let Some(id) = id_of(&p).filter(|id| *id != own) else {
            continue;
        };
        let mut head = Vec::with_capacity(4096);
        let read = crate::model::session::open_regular(&p)
            .and_then(|f| f.take(4096).read_to_end(&mut head));
        if read.is_ok() && memchr::memmem::find(&head, needle.as_bytes()).is_some() {
            out.push((p, id));
        }
    }
    out.sort();
    out
}
