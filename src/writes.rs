//! Every file ccv writes goes through here, so that one set of rules
//! holds for all of them (exports, copies, caches, the index's state,
//! traces) and a new feature inherits them:
//!
//! - a file is written to a temporary file in the target's own directory
//!   (random name, `O_EXCL`, mode 0600) and renamed into place, so a
//!   planted symlink is never followed and a reader never sees half a file;
//! - a new file never replaces one that exists (`create_new`), and a
//!   replaced one is replaced by rename: the old inode (a hard link's other
//!   names) is never written;
//! - nothing is written inside a sessions root (`~/.claude/projects`) or
//!   over a session file ccv has open or listed, followed through links
//!   and compared by device and inode;
//! - a directory ccv makes for itself is 0700.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file's identity: its device, its inode and when it was made (where
/// the file system says: else 0). An inode is used again once its file is
/// deleted: a file made later under it is another file, not the session
/// listed before (a session moved or linked keeps its time).
type Identity = (u64, u64, i128);

/// The [`Identity`] of every session file ccv has opened or listed.
static SESSION_FILES: Mutex<Option<HashSet<Identity>>> = Mutex::new(None);
/// The sessions roots: the default ones (registered at start, see
/// `cli`) and any ccv was pointed at.
static ROOTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

#[cfg(unix)]
fn identity(m: &std::fs::Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let made = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128);
    Some((m.dev(), m.ino(), made))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<Identity> {
    None
}

/// Remembers `path` (followed through links) as a session file: no write
/// of ccv's may land on it.
pub fn protect(path: &Path) {
    protect_all(std::iter::once(path));
}

/// [`protect`] for many files at once (a listing).
pub fn protect_all<'a>(paths: impl IntoIterator<Item = &'a Path>) {
    let ids: Vec<Identity> = paths
        .into_iter()
        .filter_map(|p| identity(&std::fs::metadata(p).ok()?))
        .collect();
    if ids.is_empty() {
        return;
    }
    let mut set = SESSION_FILES.lock().unwrap_or_else(|p| p.into_inner());
    set.get_or_insert_with(HashSet::new).extend(ids);
}

/// Remembers `root` as a folder of sessions: nothing is written inside it.
pub fn protect_root(root: &Path) {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_owned());
    let mut roots = ROOTS.lock().unwrap_or_else(|p| p.into_inner());
    if !roots.contains(&root) {
        roots.push(root);
    }
}

fn roots() -> Vec<PathBuf> {
    ROOTS.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

#[cfg(unix)]
fn links(m: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    m.nlink()
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// Whether a file under a sessions root is the file `id` names (a hard
/// link elsewhere to a session): looked for only when a file with other
/// names is about to be replaced, a few levels deep (Claude Code's and
/// Codex's layouts).
fn in_roots(id: Identity) -> bool {
    fn walk(dir: &Path, depth: u32, id: Identity) -> bool {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return false;
        };
        rd.flatten().any(|e| {
            let Ok(t) = e.file_type() else { return false };
            if t.is_dir() {
                depth > 0 && walk(&e.path(), depth - 1, id)
            } else {
                t.is_file() && e.metadata().ok().and_then(|m| identity(&m)) == Some(id)
            }
        })
    }
    roots().iter().any(|r| walk(r, 4, id))
}

fn refused(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, what)
}

/// Where `path` would be written (its directory resolved, its own name
/// kept), or why ccv must not write there.
pub fn check(path: &Path) -> io::Result<PathBuf> {
    let name = match path.file_name() {
        Some(n) if n != ".." && n != "." => n,
        _ => return Err(io::Error::other("not a file name")),
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .canonicalize()?;
    let target = dir.join(name);
    let shown = crate::model::text::term_path(&target);
    for root in roots() {
        if dir.starts_with(&root) {
            return Err(refused(format!(
                "{shown} is inside the sessions folder {}: ccv never writes there",
                crate::model::text::term_path(&root)
            )));
        }
    }
    // what the name stands for now, links followed: a session file under
    // another name (a symlink, a hard link) is still that session
    if let Ok(m) = std::fs::metadata(&target) {
        let id = identity(&m);
        let set = SESSION_FILES.lock().unwrap_or_else(|p| p.into_inner());
        let listed = id.is_some_and(|id| set.as_ref().is_some_and(|s| s.contains(&id)));
        drop(set);
        if listed || (links(&m) > 1 && id.is_some_and(in_roots)) {
            return Err(refused(format!(
                "{shown} is a session file (or a link to one): ccv never writes over a session"
            )));
        }
        if let Ok(real) = target.canonicalize()
            && let Some(root) = roots().into_iter().find(|r| real.starts_with(r))
        {
            return Err(refused(format!(
                "{shown} leads into the sessions folder {}: ccv never writes there",
                crate::model::text::term_path(&root)
            )));
        }
    }
    Ok(target)
}

/// A file being written: a temporary file beside its target, which
/// [`Pending::commit`] renames into place.
pub struct Pending {
    file: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Pending {
    pub fn file(&mut self) -> &mut File {
        self.file.as_file_mut()
    }

    /// Puts the file in place: over what is there when `replace`, else
    /// only if nothing is (`AlreadyExists`). The target is checked again
    /// first: it may have changed while the file was written.
    pub fn commit(self, replace: bool) -> io::Result<(File, PathBuf)> {
        let target = check(&self.target)?;
        let r = if replace {
            self.file.persist(&target)
        } else {
            self.file.persist_noclobber(&target)
        };
        Ok((r.map_err(|e| e.error)?, target))
    }
}

/// Starts writing `path`: a new temporary file (0600, a random name, made
/// with `O_EXCL`) in its directory, after [`check`].
pub fn begin(path: &Path) -> io::Result<Pending> {
    let target = check(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let file = tempfile::Builder::new()
        .prefix(".ccv-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    Ok(Pending { file, target })
}

/// Writes `path` whole with what `fill` writes: a new file (`replace`
/// false: `AlreadyExists` if one is there) or in place of the one there.
/// A failure leaves nothing behind.
pub fn write_file(
    path: &Path,
    replace: bool,
    fill: impl FnOnce(&mut io::BufWriter<&mut File>) -> io::Result<()>,
) -> io::Result<PathBuf> {
    let mut p = begin(path)?;
    {
        let mut w = io::BufWriter::with_capacity(1 << 16, p.file());
        fill(&mut w)?;
        w.flush()?;
    }
    Ok(p.commit(replace)?.1)
}

/// A file that is written to over time (a trace): in place at once, then
/// written through the handle.
pub fn create_streaming(path: &Path, replace: bool) -> io::Result<File> {
    Ok(begin(path)?.commit(replace)?.0)
}

/// `dir/stem.ext`, or `dir/stem-2.ext`... when taken: a new file, never
/// one that exists.
pub fn write_unique(dir: &Path, stem: &str, ext: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let mut p = begin(&dir.join(format!("{stem}.{ext}")))?;
    p.file().write_all(bytes)?;
    p.file().flush()?;
    let Pending { file, .. } = p;
    let mut file = Some(file);
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        let target = check(&dir.join(name))?;
        let Some(f) = file.take() else { break };
        match f.persist_noclobber(&target) {
            Ok(_) => return Ok(target),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => file = Some(e.file),
            Err(e) => return Err(e.error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "too many {stem}.* files in {}",
            crate::model::text::term_path(dir)
        ),
    ))
}

/// Makes `dir` (and its parents) for ccv's own files: a new directory is
/// 0700; one that is there must be a directory (a symlink to one is
/// followed only above the last component ccv names).
pub fn private_dir(dir: &Path) -> io::Result<()> {
    check_not_in_roots(dir)?;
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// [`private_dir`] for a folder ccv names itself below one the user
/// named (an archive's project folder): one that is there as a link is
/// refused, as a file there would be. Whatever it leads to is not ccv's
/// (a planted `project -> ~/.ssh` had pages written, and replaced, there).
pub fn own_dir(dir: &Path) -> io::Result<()> {
    private_dir(dir)?;
    if is_link(dir) {
        return Err(refused(format!(
            "{} is a link: ccv does not write through links",
            crate::model::text::term_path(dir)
        )));
    }
    Ok(())
}

/// Whether `path` itself (not what it leads to) is a symbolic link.
pub fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn check_not_in_roots(dir: &Path) -> io::Result<()> {
    // the nearest part of the path that exists says where it leads
    let mut at = Some(dir);
    while let Some(d) = at {
        if let Ok(real) = d.canonicalize() {
            if let Some(root) = roots().into_iter().find(|r| real.starts_with(r)) {
                return Err(refused(format!(
                    "{} is inside the sessions folder {}: ccv never writes there",
                    crate::model::text::term_path(dir),
                    crate::model::text::term_path(&root)
                )));
            }
            return Ok(());
        }
        at = d.parent();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn new_files_are_private_and_never_replace() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path().join("a.md");
        write_file(&p, false, |w| w.write_all(b"one")).expect("write");
        let mode = std::fs::metadata(&p).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = write_file(&p, false, |w| w.write_all(b"two"));
        assert_eq!(
            again.expect_err("exists").kind(),
            io::ErrorKind::AlreadyExists
        );
        write_file(&p, true, |w| w.write_all(b"three")).expect("replace");
        assert_eq!(std::fs::read(&p).expect("read"), b"three");
        // nothing left beside it
        assert_eq!(std::fs::read_dir(d.path()).expect("dir").count(), 1);
    }

    /// A session file listed, then deleted: a file made later under its
    /// inode (file systems hand freed inodes out again) is another file,
    /// which ccv may write over; the session moved to another name is not.
    #[cfg(unix)]
    #[test]
    fn a_deleted_sessions_inode_is_not_its_session() {
        use std::os::unix::fs::MetadataExt;
        let d = tempfile::tempdir().expect("tempdir");
        let session = d.path().join("s.jsonl");
        std::fs::write(&session, "{}\n").expect("write");
        protect(&session);
        let moved = d.path().join("moved.jsonl");
        std::fs::rename(&session, &moved).expect("rename");
        check(&moved).expect_err("the session under another name");
        let ino = std::fs::metadata(&moved).expect("meta").ino();
        std::fs::remove_file(&moved).expect("rm");
        for i in 0..200 {
            let other = d.path().join(format!("other-{i}.md"));
            std::fs::write(&other, "x").expect("write");
            if std::fs::metadata(&other).expect("meta").ino() == ino {
                check(&other).expect("another file");
                return;
            }
        }
        eprintln!("skipped: the file system handed out no freed inode again");
    }

    #[cfg(unix)]
    #[test]
    fn a_failed_write_leaves_nothing() {
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path().join("a.md");
        let r = write_file(&p, false, |_| Err(io::Error::other("disk full")));
        assert!(r.is_err());
        assert_eq!(std::fs::read_dir(d.path()).expect("dir").count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn unique_names_count_up() {
        let d = tempfile::tempdir().expect("tempdir");
        let a = write_unique(d.path(), "x", "md", b"1").expect("a");
        let b = write_unique(d.path(), "x", "md", b"2").expect("b");
        assert_eq!(a.file_name().expect("name"), "x.md");
        assert_eq!(b.file_name().expect("name"), "x-2.md");
        assert_eq!(std::fs::read(&b).expect("read"), b"2");
    }
}
