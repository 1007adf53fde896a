//! The files a search reads: every session file under a projects root and
//! its subagents' files, in all three layouts (`<session>/subagents/`,
//! project-level `agent-*.jsonl`, inline sidechains in the session file
//! itself), each with the session it belongs to.

use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct SearchFile {
    pub path: PathBuf,
    /// The main session file this one belongs to (itself for a session).
    pub session: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
}

fn stat(path: &Path) -> Option<(u64, i64)> {
    // regular files only: a FIFO would block the search for ever
    let m = fs::metadata(path).ok().filter(|m| m.is_file())?;
    Some((m.len(), crate::catalog::list::mtime_ns(&m)))
}

/// Every agent's folder of sessions that exists on this machine, Claude
/// Code's projects root first: what ccv reads when given no folder.
pub fn default_roots() -> Vec<PathBuf> {
    crate::paths::projects_root()
        .into_iter()
        .chain(crate::source::other_roots())
        .filter(|d| d.is_dir())
        .collect()
}

/// The folders a listing of `root` covers: `root`, and when it is the
/// first of the [`default_roots`] (what `ccv` opens by itself), the other
/// agents' folders too, so that one list holds every agent's sessions.
pub fn scope(root: &Path) -> Vec<PathBuf> {
    let defaults = default_roots();
    if defaults.first().is_some_and(|d| d == root) {
        return defaults;
    }
    vec![root.to_owned()]
}

/// Whether `path` lies in one of the folders of `scope`.
pub fn in_scope(scope: &[PathBuf], path: &Path) -> bool {
    scope.iter().any(|r| under_root(path, r))
}

/// `path.starts_with(root)`, told from the bytes when they say it (a
/// search asks it of every file of the tree; components are slow to
/// compare).
fn under_root(path: &Path, root: &Path) -> bool {
    let (p, r) = (
        path.as_os_str().as_encoded_bytes(),
        root.as_os_str().as_encoded_bytes(),
    );
    // no empty or `.` component, no trailing slash: bytes and components
    // agree (looked for at each slash: a searcher made per call for each
    // of 20,000 paths was most of the check)
    let plain = |b: &[u8]| {
        memchr::memchr_iter(b'/', b).all(|i| {
            !matches!(
                b.get(i + 1..),
                Some([]) | Some([b'/', ..]) | Some([b'.']) | Some([b'.', b'/', ..])
            )
        })
    };
    if plain(r) && p.starts_with(r) && p.get(r.len()) == Some(&b'/') && plain(p) {
        return true;
    }
    path.starts_with(root)
}

/// Every searchable file in the [`scope`] of `root`, newest first.
pub fn under(root: &Path) -> Vec<SearchFile> {
    let mut out = Vec::new();
    for r in scope(root) {
        under_one(&r, &mut out);
    }
    out.sort_by(|a, b| {
        b.mtime_ns
            .cmp(&a.mtime_ns)
            .then_with(|| a.path.cmp(&b.path))
    });
    out
}

fn under_one(root: &Path, out: &mut Vec<SearchFile>) {
    // another agent's tree (Codex's): its session files, no subagents
    if let Some(files) = crate::source::sessions_under(root) {
        out.extend(files.into_iter().filter_map(|path| {
            let (size, mtime_ns) = stat(&path)?;
            Some(SearchFile {
                session: path.clone(),
                path,
                size,
                mtime_ns,
            })
        }));
        return;
    }
    let Ok(projects) = fs::read_dir(root) else {
        return;
    };
    let dirs: Vec<PathBuf> = projects
        .flatten()
        .filter(|p| p.file_type().is_ok_and(|t| t.is_dir()))
        .map(|p| p.path())
        .collect();
    // a stat per file (20,000 of them in a big history): on every core
    let threads = super::threads().clamp(1, dirs.len().max(1));
    let chunk = dirs.len().div_ceil(threads).max(1);
    let parts: Vec<Vec<SearchFile>> = std::thread::scope(|s| {
        let handles: Vec<_> = dirs
            .chunks(chunk)
            .map(|ds| s.spawn(move || ds.iter().flat_map(|d| project_files(d)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    out.extend(parts.into_iter().flatten());
}

/// The searchable files of one project folder.
fn project_files(dir: &Path) -> Vec<SearchFile> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            // <session>/subagents/*.jsonl
            let session = dir.join(format!("{name}.jsonl"));
            for (p, m) in crate::source::subagent_files_stat(&session) {
                // regular files only: a FIFO would block the search for ever
                if m.is_file() {
                    out.push(SearchFile {
                        path: p,
                        session: session.clone(),
                        size: m.len(),
                        mtime_ns: crate::catalog::list::mtime_ns(&m),
                    });
                }
            }
            continue;
        }
        let Some(stem) = name.strip_suffix(".jsonl") else {
            continue;
        };
        // looked up in its folder, not by its whole path (a link: what it
        // names)
        let meta = match e.file_type() {
            Ok(t) if !t.is_symlink() => e.metadata().ok(),
            _ => fs::metadata(&path).ok(),
        };
        let Some((size, mtime_ns)) = meta
            .filter(fs::Metadata::is_file)
            .map(|m| (m.len(), crate::catalog::list::mtime_ns(&m)))
        else {
            continue;
        };
        let session = if stem.starts_with("agent-") {
            crate::source::parent_session_id(&path)
                .map_or_else(|| path.clone(), |id| dir.join(format!("{id}.jsonl")))
        } else {
            path.clone()
        };
        out.push(SearchFile {
            path,
            session,
            size,
            mtime_ns,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::under_root;
    use std::path::Path;

    /// Told from the bytes or from the components, the answer is
    /// `Path::starts_with`'s.
    #[test]
    fn under_root_answers_as_starts_with() {
        let cases = [
            ("/a/b/c.jsonl", "/a/b"),
            ("/a/bc/d.jsonl", "/a/b"),
            ("/a/b", "/a/b"),
            ("/a//b/c", "/a/b"),
            ("/a/./b/c", "/a/b"),
            ("/a/b/c", "/a/b/"),
            ("/a/b/c", "/a/./b"),
            ("/x/.claude/projects/p/s.jsonl", "/x/.claude/projects"),
            ("/x/.claude/projectsX/s.jsonl", "/x/.claude/projects"),
            ("relative/p", "relative"),
            ("/a", "/a/b"),
            ("/a/b/.hidden/c", "/a/b"),
            ("/a/b/./", "/a/b"),
            ("/a/b/c/.", "/a/b"),
            ("/a/b/..", "/a/b"),
            ("/a/b.", "/a/b"),
        ];
        for (p, r) in cases {
            assert_eq!(
                under_root(Path::new(p), Path::new(r)),
                Path::new(p).starts_with(r),
                "{p} under {r}"
            );
        }
    }
}
