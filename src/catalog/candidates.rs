//! Finding the session files of a listing: every folder of its scope
//! (Claude Code's projects, another agent's date folders), each file's
//! size and mtime, and its subagents counted; the project folders on
//! every core.

use super::list::{Skipped, mtime_ns, parallel};
use super::open_dir::{Kind, OpenDir};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A session file found on disk, before it is read.
pub(super) struct Candidate {
    pub path: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    pub fallback_project: String,
    /// Project-level agent files (2.0.7x).
    pub subagents: u32,
    /// `<session>/subagents/` when `<session>/` is a folder, and its
    /// mark (its mtime in ns, or its Workflow runs' folders' when later,
    /// see `source::agents_mark`; 0 when it cannot be read): its files are counted only
    /// when it changed since the listing before (see
    /// [`super::scan::SessionInfo::subagent_files`]).
    pub agents_dir: Option<(PathBuf, i64)>,
}

/// The session files of every folder in `scope` (see
/// [`super::files::scope`]).
pub(super) fn find_candidates(scope: &[PathBuf]) -> (Vec<Candidate>, Skipped) {
    let mut out = Vec::new();
    let mut skipped = Skipped::default();
    for root in scope {
        candidates_in(root, &mut out, &mut skipped);
    }
    (out, skipped)
}

/// Every `<root>/<project>/<id>.jsonl`; `agent-*.jsonl` and anything
/// deeper are subagent transcripts, counted but not listed.
fn candidates_in(root: &Path, out: &mut Vec<Candidate>, skipped: &mut Skipped) {
    // another agent's tree (Codex's `sessions/YYYY/MM/DD/`): its files
    if let Some(files) = crate::source::sessions_under(root) {
        for path in files {
            match fs::metadata(&path) {
                Ok(m) if m.is_file() => out.push(Candidate {
                    path,
                    size: m.len(),
                    mtime_ns: mtime_ns(&m),
                    fallback_project: String::new(),
                    subagents: 0,
                    agents_dir: None,
                }),
                Ok(m) => skipped.add(crate::model::session::file_kind(&m)),
                Err(_) => skipped.add("broken link or unreadable file"),
            }
        }
        for (_, why) in crate::source::unsupported_under(root) {
            skipped.add(why);
        }
        return;
    }
    let Some(dirs) = super::files::project_folders(root) else {
        skipped.add("unreadable directory");
        return;
    };
    // a stat per session: 10,000 of them are worth both cores
    let found = Mutex::new(Vec::with_capacity(dirs.len()));
    let sink = |r: (usize, Vec<Candidate>, Skipped)| {
        if let Ok(mut v) = found.lock() {
            v.push(r);
        }
    };
    let jobs: Vec<usize> = (0..dirs.len()).collect();
    let threads = super::threads().clamp(1, dirs.len().max(1));
    parallel(
        &jobs,
        threads,
        |&i| {
            let (c, s) = project_candidates(&dirs[i]);
            Some((i, c, s))
        },
        &sink,
    );
    // in the directory's order, as one thread would have found them
    let mut found = found.into_inner().unwrap_or_default();
    found.sort_by_key(|(i, ..)| *i);
    for (_, c, s) in found {
        out.extend(c);
        for (why, n) in s.0 {
            *skipped.0.entry(why).or_default() += n;
        }
    }
}

/// The sessions of one project folder, with their subagents counted:
/// each looked up by its name in the folder opened once.
fn project_candidates(dir: &Path) -> (Vec<Candidate>, Skipped) {
    let mut out = Vec::new();
    let mut skipped = Skipped::default();
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let fallback = crate::source::project_of_dir(&name);
    let Some(mut open) = OpenDir::open(dir) else {
        skipped.add("unreadable directory");
        return (out, skipped);
    };
    let mut session_dirs = std::collections::HashSet::new();
    let mut agent_files = Vec::new();
    for (name, kind) in open.names() {
        let lossy = name.to_string_lossy();
        if kind == Kind::Dir {
            session_dirs.insert(lossy.into_owned());
            continue;
        }
        let Some(stem) = lossy.strip_suffix(".jsonl") else {
            continue;
        };
        let path = super::files::child(dir, &name);
        if stem.starts_with("agent-") {
            agent_files.push(path);
            continue;
        }
        // only regular files (a symlink counts as what it names): a
        // FIFO would block the scan for ever, a device never ends
        match open.stat(Path::new(&name)) {
            Some(st) if st.is_file => out.push(Candidate {
                path,
                size: st.size,
                mtime_ns: st.mtime_ns,
                fallback_project: fallback.clone(),
                subagents: 0,
                agents_dir: None,
            }),
            Some(_) => skipped.add(
                fs::metadata(&path).map_or("broken link or unreadable file", |m| {
                    crate::model::session::file_kind(&m)
                }),
            ),
            None => skipped.add("broken link or unreadable file"),
        }
    }
    let agents_by_session = project_agents(&agent_files);
    for c in &mut out {
        let stem = c
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if session_dirs.contains(&stem) {
            // a stat, where a count was an open, a stat, two reads and a
            // close; by its name in the project's folder
            let rel = Path::new(&stem).join("subagents");
            c.agents_dir = open.stat(&rel).filter(|s| s.is_dir).map(|s| {
                let path = dir.join(&rel);
                let mark = crate::source::agents_mark(&path, s.mtime_ns);
                (path, mark)
            });
        }
        c.subagents += agents_by_session.get(&stem).copied().unwrap_or(0);
    }
    (out, skipped)
}

/// The candidate of one session file, as a listing of its folder finds
/// it (its subagents counted); none for a file its folder's listing
/// would not list.
pub(super) fn candidate_of(path: &Path) -> Option<Candidate> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name()?;
    project_candidates(dir)
        .0
        .into_iter()
        .find(|c| c.path.file_name() == Some(name))
}

/// The transcripts in `<session>/subagents/`: as the listing before
/// counted them (`known`) when the folder has not changed since, else
/// counted now, with what to keep for the next listing.
pub(super) fn agents_in(
    dir: &Path,
    mtime_ns: i64,
    known: Option<(i64, u32)>,
) -> (u32, Option<(i64, u32)>) {
    match known {
        Some((was, n)) if was == mtime_ns && mtime_ns != 0 => (n, known),
        _ => {
            let n = count_jsonl(dir);
            (n, super::list::settled(mtime_ns).then_some((mtime_ns, n)))
        }
    }
}

/// The transcripts of a subagents folder: its `.jsonl` files, and the
/// `agent-*.jsonl` of its Workflow runs' folders.
fn count_jsonl(dir: &Path) -> u32 {
    let mut n = fs::read_dir(dir).map_or(0, |rd| {
        rd.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".jsonl"))
            .count()
    });
    for run in crate::source::run_folders(dir) {
        n += fs::read_dir(run).map_or(0, |rd| {
            rd.flatten()
                .filter(|e| crate::source::agent_id_of(&e.path()).is_some())
                .count()
        });
    }
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Project-level `agent-*.jsonl` (2.0.7x), counted under their session.
fn project_agents(files: &[PathBuf]) -> HashMap<String, u32> {
    let mut map = HashMap::new();
    for id in files
        .iter()
        .filter_map(|f| crate::source::parent_session_id(f))
    {
        *map.entry(id).or_insert(0) += 1;
    }
    map
}
