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
    let Some(dir) = session.parent() else {
        return Vec::new();
    };
    // sessions/YYYY/MM/DD/rollout-…: three folders up; archived: flat
    let dated = dir.ancestors().take(3).all(|d| {
        d.file_name().is_some_and(|n| {
            n.len() <= 4 && n.to_string_lossy().bytes().all(|b| b.is_ascii_digit())
        })
    });
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
    let mut out = Vec::new();
    for id in ids {
        if let Some(p) = all
            .iter()
            .find(|p| id_of(p).as_deref() == Some(id.as_str()))
        {
            out.push((p.clone(), id.clone()));
        }
    }
    out
}
