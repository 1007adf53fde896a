//! Finding and loading a session's files: the session itself and its
//! subagents (`<session>/subagents/agent-*.jsonl`, or `agent-*.jsonl` next
//! to the session for 2.0.74-2.0.76).

use super::session::Session;
use std::path::{Path, PathBuf};

/// Subagent files of a session file, with their agent ids.
pub fn subagent_files(session_path: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let Some(stem) = session_path.file_stem().and_then(|s| s.to_str()) else {
        return out;
    };
    let Some(dir) = session_path.parent() else {
        return out;
    };
    let sub = dir.join(stem).join("subagents");
    if let Ok(rd) = std::fs::read_dir(&sub) {
        for e in rd.flatten() {
            let p = e.path();
            if let Some(id) = agent_id_of(&p) {
                out.push((p, id));
            }
        }
    }
    out.sort();
    out
}

/// `agent-<id>.jsonl` -> `<id>`.
pub fn agent_id_of(p: &Path) -> Option<String> {
    let name = p.file_name()?.to_str()?;
    let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
    (!id.is_empty()).then(|| id.to_owned())
}

/// Loads a session file and every subagent file that belongs to it.
pub fn load_with_subagents(path: &Path) -> std::io::Result<Session> {
    let mut s = Session::load(path)?;
    if path != Path::new("-") {
        for (p, id) in subagent_files(path) {
            let src = s.add_agent_source(p.clone(), &id);
            match std::fs::File::open(&p) {
                Ok(mut f) => s.read_all(src, &mut f)?,
                Err(_) => continue,
            }
        }
    }
    Ok(s)
}
