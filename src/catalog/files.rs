//! The files a search reads: every session file under a projects root and
//! its subagents' files, in all three layouts (`<session>/subagents/`,
//! project-level `agent-*.jsonl`, inline sidechains in the session file
//! itself), each with the session it belongs to.

use super::folders::{Folder, Folders};
use super::open_dir::{Kind, OpenDir, Stat};
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

pub(crate) fn stat(path: &Path) -> Option<(u64, i64)> {
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

/// The project folders of `root`: its folders, and `root` itself first
/// when it holds sessions of its own (`ccv list
/// ~/.claude/projects/-home-me-app`: a project, whose `<session>/` folders
/// hold no session but their subagents', read with their session; a
/// stray file in a projects root costs no project). `None` when it cannot
/// be read.
pub fn project_folders(root: &Path) -> Option<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    let mut own = false;
    for e in fs::read_dir(root).ok()?.flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            dirs.push(e.path());
        } else {
            own |= e.file_name().as_encoded_bytes().ends_with(b".jsonl");
        }
    }
    if own {
        dirs.insert(0, root.to_owned());
    }
    Some(dirs)
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

/// The folders of a scope, each looked at once for the test of many
/// paths ([`in_scope`] looks at its folder again for each).
pub struct ScopeTest<'a>(Vec<(&'a Path, bool)>);

impl<'a> ScopeTest<'a> {
    pub fn new(scope: &'a [PathBuf]) -> Self {
        ScopeTest(
            scope
                .iter()
                .map(|r| (r.as_path(), plain(r.as_os_str().as_encoded_bytes())))
                .collect(),
        )
    }

    /// [`path_hash`] of `path` when it lies in the scope: the path's
    /// bytes looked at once for both.
    pub fn hash_within(&self, path: &Path) -> Option<u64> {
        let b = path.as_os_str().as_encoded_bytes();
        let bytes_say = cfg!(unix) && plain(b);
        let within = self.0.iter().any(|&(root, root_plain)| {
            let r = root.as_os_str().as_encoded_bytes();
            if bytes_say && root_plain {
                // no `.` or empty component on either side: the bytes
                // say what the components would
                b == r || (b.starts_with(r) && b.get(r.len()) == Some(&b'/'))
            } else {
                path.starts_with(root)
            }
        });
        within.then(|| {
            if bytes_say {
                fx_hash(b)
            } else {
                path_hash(path)
            }
        })
    }
}

/// No empty or `.` component, no trailing slash: a path's bytes and its
/// components agree. Asked of every path of the tree at every search: the
/// pairs and triples of bytes are compared all along, with no stop at the
/// first slash (which the compiler turns into vector compares; a loop
/// that stopped at each slash was a tenth of an indexed search).
fn plain(b: &[u8]) -> bool {
    if b.ends_with(b"/") || b.ends_with(b"/.") {
        return false;
    }
    let n = b.len();
    if n < 3 {
        // `//` ends in a slash
        return true;
    }
    let pairs = b[..n - 1]
        .iter()
        .zip(&b[1..])
        .fold(false, |bad, (&x, &y)| bad | ((x == b'/') & (y == b'/')));
    let triples = b[..n - 2]
        .iter()
        .zip(&b[1..n - 1])
        .zip(&b[2..])
        .fold(false, |bad, ((&x, &y), &z)| {
            bad | ((x == b'/') & (y == b'.') & (z == b'/'))
        });
    !(pairs | triples)
}

/// A hash of a path by its components (two paths `==` has the same hash:
/// `a//b/` is `a/b`), from its bytes when they say the same: std's hash
/// of a path walks it a byte at a time, a tenth of an indexed search of
/// 20,000 files.
pub fn path_hash(path: &Path) -> u64 {
    let b = path.as_os_str().as_encoded_bytes();
    if cfg!(unix) && plain(b) {
        fx_hash(b)
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
        fx_hash(&n)
    }
}

/// The hash of a plain path's bytes (see [`path_hash`]).
fn fx_hash(b: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(b);
    h.finish()
}

/// Every searchable file in the [`scope`] of `root`, newest first.
pub fn under(root: &Path) -> Vec<SearchFile> {
    newest_first(under_known(root, &Folders::default()).0)
}

/// Every searchable file in the [`scope`] of `root`, in no order (an
/// index that holds them all wants none), each subagents' folder whose
/// mtime has not moved since it was read told by `known`; with every such
/// folder found (to be known the next time, see [`Folders::learn`]).
pub fn under_known(root: &Path, known: &Folders) -> (Vec<SearchFile>, Vec<Folder>) {
    let mut out = Vec::new();
    let mut folders = Vec::new();
    for r in scope(root) {
        under_one(&r, known, &mut out, &mut folders);
    }
    (out, folders)
}

/// `files` newest first, ties by the paths' bytes (not `Path`'s order, a
/// walk of their components: files written in one second are many), then
/// as found. Their places are sorted, not the files (moved about by a
/// sort, 20,000 of them were a tenth of an indexed search).
pub fn newest_first(files: Vec<SearchFile>) -> Vec<SearchFile> {
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_unstable_by(|&i, &j| {
        let (a, b) = (&files[i], &files[j]);
        b.mtime_ns
            .cmp(&a.mtime_ns)
            .then_with(|| {
                a.path
                    .as_os_str()
                    .as_encoded_bytes()
                    .cmp(b.path.as_os_str().as_encoded_bytes())
            })
            .then(i.cmp(&j))
    });
    let mut files: Vec<Option<SearchFile>> = files.into_iter().map(Some).collect();
    order.iter().filter_map(|&i| files[i].take()).collect()
}

fn under_one(root: &Path, known: &Folders, out: &mut Vec<SearchFile>, folders: &mut Vec<Folder>) {
    // another agent's tree (Codex's): its session files, no subagents
    if let Some(files) = crate::source::sessions_under(root) {
        out.extend(files.into_iter().filter_map(|path| {
            let (size, mtime_ns) = stat(&path)?;
            Some(SearchFile::new(path.clone(), path, size, mtime_ns))
        }));
        return;
    }
    let Some(dirs) = project_folders(root) else {
        return;
    };
    // a stat per file (20,000 of them in a big history): on every core,
    // each taking the next folder (folders are of any size), this one too
    let threads = super::threads().clamp(1, dirs.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        // room for a big history's share, taken only as it is written
        let mut found = Found {
            files: Vec::with_capacity(1 << 14),
            folders: Vec::new(),
        };
        while let Some(d) = dirs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
            project_files(d, known, &mut found);
        }
        found
    };
    let parts: Vec<Found> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut parts = vec![work()];
        parts.extend(handles.into_iter().map(|h| h.join().unwrap_or_default()));
        parts
    });
    // one list of the right size, where growing it copied it each time
    out.reserve(parts.iter().map(|p| p.files.len()).sum());
    for p in parts {
        out.extend(p.files);
        folders.extend(p.folders);
    }
}

/// What a walk found: files, and subagents' folders.
#[derive(Default)]
struct Found {
    files: Vec<SearchFile>,
    folders: Vec<Folder>,
}

/// The searchable files of one project folder, each looked up by its
/// name in the folder opened once.
fn project_files(dir: &Path, known: &Folders, found: &mut Found) {
    let Some(mut open) = OpenDir::open(dir) else {
        return;
    };
    for (name, kind) in open.names() {
        if kind == Kind::Dir {
            // <session>/subagents/*.jsonl
            if let Some(stem) = name.to_str() {
                subagent_files(&open, stem, known, found);
            }
            continue;
        }
        let lossy = name.to_string_lossy();
        let Some(stem) = lossy.strip_suffix(".jsonl") else {
            continue;
        };
        // regular files only (a link counts as what it names): a FIFO
        // would block the search for ever
        let Some(st) = open.stat(Path::new(&name)).filter(|s| s.is_file) else {
            continue;
        };
        let path = child(dir, &name);
        let session = if stem.starts_with("agent-") {
            crate::source::parent_session_id(&path)
                .map_or_else(|| path.clone(), |id| dir.join(format!("{id}.jsonl")))
        } else {
            path.clone()
        };
        found
            .files
            .push(SearchFile::new(path, session, st.size, st.mtime_ns));
    }
}

/// `dir/name`, made at its length (a `join` grows the path it makes).
pub(super) fn child(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut p = PathBuf::with_capacity(dir.as_os_str().len() + name.len() + 1);
    p.push(dir);
    p.push(name);
    p
}

/// The files of the subagents of the session `<stem>.jsonl` of the
/// project folder `project` (`<stem>/subagents/`, and the folders of its
/// Workflow runs), by name.
fn subagent_files(project: &OpenDir, stem: &str, known: &Folders, found: &mut Found) {
    let Some(dir) = crate::source::subagents_folder_in(project.path(), stem) else {
        return;
    };
    // looked up from the project's folder: three components, not seven
    let rel = Path::new(stem).join("subagents");
    let Some(mtime_ns) = project.stat(&rel).filter(|s| s.is_dir).map(|s| s.mtime_ns) else {
        return;
    };
    let mut session = PathBuf::with_capacity(project.path().as_os_str().len() + stem.len() + 7);
    session.push(project.path());
    session.push(stem);
    session.as_mut_os_string().push(".jsonl");
    let ran = agent_folder_files(project, &rel, &session, mtime_ns, known, found);
    if !ran {
        return;
    }
    // each Workflow run's folder (`workflows/<run>/`), by its own mtime
    for run in crate::source::run_folders(&dir) {
        let Some(name) = run.file_name() else {
            continue;
        };
        let sub = rel.join(crate::source::WORKFLOWS).join(name);
        let Some(st) = project.stat(&sub).filter(|s| s.is_dir) else {
            continue;
        };
        agent_folder_files(project, &sub, &session, st.mtime_ns, known, found);
    }
}

/// The transcripts of one folder of subagents (`rel` in the project
/// folder `project`) of the session file `session`: the names `known`
/// holds for the folder at its mtime, else those read from it. Regular
/// files only (a link counts as what it names: a FIFO would block the
/// search for ever). Whether it holds a folder of Workflow runs (its
/// name is kept with the others: no look for one in every session's
/// folder at every search).
fn agent_folder_files(
    project: &OpenDir,
    rel: &Path,
    session: &Path,
    mtime_ns: i64,
    known: &Folders,
    found: &mut Found,
) -> bool {
    let dir = project.path().join(rel);
    let mut files: Vec<(PathBuf, Stat)> = Vec::new();
    let mut ran = false;
    let names = match known.names(&dir, mtime_ns) {
        Some(names) => {
            files.extend(names.iter().filter_map(|n| {
                if n == crate::source::WORKFLOWS {
                    ran = true;
                    return None;
                }
                let st = project.stat(&rel.join(n))?;
                Some((child(&dir, n), st))
            }));
            None
        }
        None => {
            let mut names = Vec::new();
            if let Some(mut open) = OpenDir::open(&dir) {
                for (name, kind) in open.names() {
                    let p = child(&dir, &name);
                    if kind == Kind::Dir && name == crate::source::WORKFLOWS {
                        ran = true;
                        names.push(name);
                        continue;
                    }
                    if crate::source::agent_id_of(&p).is_none() {
                        continue;
                    }
                    if let Some(st) = open.stat(Path::new(&name)) {
                        files.push((p, st));
                    }
                    names.push(name);
                }
            }
            names.sort();
            Some(names)
        }
    };
    // one folder's files: by name, told by their bytes (`Path`'s order,
    // a walk of every component, was a twentieth of an indexed search of
    // 10,000 sessions)
    files.sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    for (p, st) in files {
        if st.is_file {
            found.files.push(SearchFile::new(
                p,
                session.to_path_buf(),
                st.size,
                st.mtime_ns,
            ));
        }
    }
    found.folders.push(Folder {
        dir,
        mtime_ns,
        names,
    });
    ran
}

#[cfg(test)]
mod tests {
    use super::{path_hash, under_root};
    use std::path::Path;

    /// What follows each slash: not the end, another slash, or `.` then
    /// the end or a slash (the rule, a byte at a time).
    fn plain_by_bytes(b: &[u8]) -> bool {
        b.iter().enumerate().all(|(i, &c)| {
            c != b'/'
                || !matches!(
                    (b.get(i + 1), b.get(i + 2)),
                    (None | Some(b'/'), _) | (Some(b'.'), None | Some(b'/'))
                )
        })
    }

    /// Every string of slashes, dots and letters up to 9 bytes long is
    /// told plain as the rule says.
    #[test]
    fn plain_paths_are_told_as_byte_by_byte() {
        let alphabet = [b'/', b'.', b'a'];
        for len in 0..=9u32 {
            for mut n in 0..3usize.pow(len) {
                let mut b = Vec::new();
                for _ in 0..len {
                    b.push(alphabet[n % 3]);
                    n /= 3;
                }
                assert_eq!(
                    super::plain(&b),
                    plain_by_bytes(&b),
                    "{:?}",
                    String::from_utf8_lossy(&b)
                );
            }
        }
    }

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
