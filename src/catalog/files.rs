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
    /// [`path_hash`] of `path`, made where the file is found (on every
    /// core, the path at hand): a search looks each file up by it.
    pub path_hash: u64,
}

impl SearchFile {
    pub fn new(path: PathBuf, session: PathBuf, size: u64, mtime_ns: i64) -> SearchFile {
        SearchFile {
            path_hash: path_hash(&path),
            path,
            session,
            size,
            mtime_ns,
        }
    }
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
    if plain(r) && p.starts_with(r) && p.get(r.len()) == Some(&b'/') && plain(p) {
        return true;
    }
    path.starts_with(root)
}

/// No empty or `.` component, no trailing slash: a path's bytes and its
/// components agree. One plain pass over the bytes (a searcher made per
/// call for each of 20,000 paths was most of a check; an iterator of the
/// slashes, started again at each, a twentieth of an indexed search).
fn plain(b: &[u8]) -> bool {
    // what follows each slash: not the end, another slash, or `.` then
    // the end or a slash
    for (i, &c) in b.iter().enumerate() {
        if c == b'/' {
            match (b.get(i + 1), b.get(i + 2)) {
                (None | Some(b'/'), _) => return false,
                (Some(b'.'), None | Some(b'/')) => return false,
                _ => {}
            }
        }
    }
    true
}

/// A hash of a path by its components (two paths `==` has the same hash:
/// `a//b/` is `a/b`), from its bytes when they say the same: std's hash
/// of a path walks it a byte at a time, a tenth of an indexed search of
/// 20,000 files.
pub fn path_hash(path: &Path) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    let b = path.as_os_str().as_encoded_bytes();
    if cfg!(unix) && plain(b) {
        h.write(b);
    } else {
        let mut n: Vec<u8> = Vec::with_capacity(b.len());
        for c in path.components() {
            if !n.is_empty() && n.last() != Some(&b'/') {
                n.push(b'/');
            }
            match c {
                std::path::Component::RootDir => n.push(b'/'),
                c => n.extend_from_slice(c.as_os_str().as_encoded_bytes()),
            }
        }
        h.write(&n);
    }
    h.finish()
}

/// Every searchable file in the [`scope`] of `root`, newest first.
pub fn under(root: &Path) -> Vec<SearchFile> {
    let mut out = Vec::new();
    for r in scope(root) {
        under_one(&r, &mut out);
    }
    // ties by the paths' bytes, not `Path`'s order (a walk of their
    // components; files written in one second are many)
    out.sort_by(|a, b| {
        b.mtime_ns.cmp(&a.mtime_ns).then_with(|| {
            a.path
                .as_os_str()
                .as_encoded_bytes()
                .cmp(b.path.as_os_str().as_encoded_bytes())
        })
    });
    out
}

fn under_one(root: &Path, out: &mut Vec<SearchFile>) {
    // another agent's tree (Codex's): its session files, no subagents
    if let Some(files) = crate::source::sessions_under(root) {
        out.extend(files.into_iter().filter_map(|path| {
            let (size, mtime_ns) = stat(&path)?;
            Some(SearchFile::new(path.clone(), path, size, mtime_ns))
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
                    out.push(SearchFile::new(
                        p,
                        session.clone(),
                        m.len(),
                        crate::catalog::list::mtime_ns(&m),
                    ));
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
        out.push(SearchFile::new(path, session, size, mtime_ns));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{path_hash, under_root};
    use std::path::Path;

    /// Paths that are `==` have one hash, however they are written.
    #[test]
    fn equal_paths_hash_alike() {
        let alike = [
            &[
                "/a/b/c.jsonl",
                "/a//b/c.jsonl",
                "/a/./b/c.jsonl",
                "/a/b/c.jsonl/",
                "/a/b/c.jsonl/.",
            ][..],
            &["a/b", "a//b", "a/./b", "a/b/", "a/b/."],
            &["./a", "./a/", ".//a"],
            &["/", "//", "/."],
            &["/x/.claude/projects", "/x/.claude//projects/"],
        ];
        for set in alike {
            for p in set {
                assert_eq!(Path::new(p), Path::new(set[0]), "{p}");
                assert_eq!(path_hash(Path::new(p)), path_hash(Path::new(set[0])), "{p}");
            }
        }
        assert_ne!(path_hash(Path::new("/a/b")), path_hash(Path::new("/a/c")));
        assert_ne!(path_hash(Path::new("/a/b")), path_hash(Path::new("/ab")));
    }

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
