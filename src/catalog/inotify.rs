//! The projects tree watched for changes, on Linux. notify watches
//! every folder for opens too, which it cannot be told not to: each file
//! a search or an index build opened (thousands) woke its thread, and
//! took a core from the search (a first search in the picker used twice
//! the CPU of the same search run alone, its time in waking). Here the
//! kernel is asked only for what changes a session or the tree: a write,
//! a file made, moved in or out, closed after writing or deleted, a folder
//! made (then watched in turn) or gone. `ccv top` wants the files written;
//! the picker's search keeps its list of files while nothing else moves
//! (see [`crate::search::kept`]).

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};
use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// How deep below a root folders are watched: a project's session
/// folder's `subagents/` is three down, its Workflow runs' folders
/// (`subagents/workflows/<run>/`) five, Codex's day folders three.
const DEEPEST: usize = 5;

/// What the kernel told of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Every folder of the tree is watched (told once, first).
    Ready,
    /// A file written, made or moved in.
    Written(PathBuf),
    /// Something else: a file deleted or moved out, a folder made (and
    /// watched before this is told) or gone, or events lost (the kernel's
    /// queue overflowed). What was known of the tree's files may be wrong.
    Tree,
    /// A file of the tree is a link (to a file elsewhere, or that could
    /// not be told): writes to it are not told here. Told before `Ready`
    /// for those met at the start, and as each is made.
    Linked,
}

/// Watches `roots`, handing `changed` what changes under them until it
/// says stop (`false`). `Err`: the kernel's watches could not be had, for
/// all the folders (none left: `fs.inotify.max_user_watches`), or its
/// events not read; the caller then polls, as it does without notify's.
pub fn watch(roots: &[PathBuf], mut changed: impl FnMut(Change) -> bool) -> std::io::Result<()> {
    let mut tree = Tree {
        inotify: Inotify::init()?,
        dirs: HashMap::new(),
        linked: false,
    };
    for r in roots {
        // a root not made yet is not watched (as notify would refuse it)
        if r.is_dir() {
            tree.add(r, 0)?;
        }
    }
    if tree.linked && !changed(Change::Linked) {
        return Ok(());
    }
    if !changed(Change::Ready) {
        return Ok(());
    }
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let events = tree.inotify.read_events_blocking(&mut buf)?;
        let mut news: Vec<(PathBuf, usize)> = Vec::new();
        let mut gone: Vec<WatchDescriptor> = Vec::new();
        let mut written: Vec<PathBuf> = Vec::new();
        let mut moved = false;
        for e in events {
            if e.mask.contains(EventMask::Q_OVERFLOW) {
                moved = true;
                continue;
            }
            if e.mask.contains(EventMask::IGNORED) {
                // a watched folder gone (its parent, when watched, says so too)
                moved = true;
                gone.push(e.wd.clone());
                continue;
            }
            let (Some((dir, depth)), Some(name)) = (tree.dirs.get(&e.wd), e.name) else {
                continue;
            };
            let path = dir.join(name);
            if e.mask.contains(EventMask::ISDIR) {
                moved = true;
                if e.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO) {
                    news.push((path, depth + 1));
                }
            } else if e.mask.intersects(EventMask::DELETE | EventMask::MOVED_FROM) {
                moved = true;
            } else {
                if e.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO) && is_link(&path) {
                    tree.linked = true;
                }
                written.push(path);
            }
        }
        if std::mem::take(&mut tree.linked) && !changed(Change::Linked) {
            return Ok(());
        }
        for wd in gone {
            tree.dirs.remove(&wd);
        }
        for (dir, depth) in news {
            // what was written in it before it was watched is found
            // when it is next written (as after a rescan)
            tree.add(&dir, depth)?;
        }
        // told after the new folders are watched: a walk of the tree made
        // after this misses no write in them
        if moved && !changed(Change::Tree) {
            return Ok(());
        }
        for p in written {
            if !changed(Change::Written(p)) {
                return Ok(());
            }
        }
    }
}

struct Tree {
    inotify: Inotify,
    /// Each watched folder and how deep it is below its root.
    dirs: HashMap<WatchDescriptor, (PathBuf, usize)>,
    /// A link to a file was met (see [`Change::Linked`]).
    linked: bool,
}

/// Whether `path` is a link to something other than a folder.
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) && !path.is_dir()
}

impl Tree {
    fn add(&mut self, dir: &Path, depth: usize) -> std::io::Result<()> {
        if depth > DEEPEST {
            return Ok(());
        }
        let mask = WatchMask::MODIFY
            | WatchMask::CLOSE_WRITE
            | WatchMask::CREATE
            | WatchMask::MOVED_TO
            | WatchMask::DELETE
            | WatchMask::MOVED_FROM
            | WatchMask::ONLYDIR;
        let wd = match self.inotify.watches().add(dir, mask) {
            Ok(wd) => wd,
            // a folder gone meanwhile, or not ours to read, holds no session
            // to show; anything else (no watches left) is no watching at all
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::PermissionDenied) => {
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        // a folder met again through a link is the same watch: it keeps
        // the path it was first met by, and its folders are not walked again
        if self.dirs.contains_key(&wd) {
            return Ok(());
        }
        self.dirs.insert(wd, (dir.to_owned(), depth));
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                // the kind the folder tells (no stat of each of its 20,000
                // files: it was most of the time taken to watch a big
                // history); a link to a folder is followed, as notify does
                let dir = match e.file_type() {
                    Ok(t) if t.is_dir() => true,
                    Ok(t) if !t.is_symlink() => false,
                    _ => {
                        let dir = e.path().is_dir();
                        // writes to what it names are not seen here
                        self.linked |= !dir;
                        dir
                    }
                };
                if dir {
                    self.add(&e.path(), depth + 1)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Change;
    use std::io::Write;
    use std::path::PathBuf;
    use std::sync::mpsc;
    use std::time::Duration;

    fn written(c: Change) -> Option<PathBuf> {
        match c {
            Change::Written(p) => Some(p),
            _ => None,
        }
    }

    /// Ready is told first, once the folders are watched; a file deleted
    /// or moved out and a folder made or removed are changes of the tree
    /// (a folder's only after it is watched: a file written in it at once
    /// is told); a file written is not.
    #[test]
    fn what_moves_in_the_tree_is_told_apart_from_writes() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("projects");
        std::fs::create_dir_all(root.join("-app")).expect("mkdir");
        let s1 = root.join("-app/s1.jsonl");
        std::fs::write(&s1, "{}\n").expect("write");
        let (tx, rx) = mpsc::channel::<Change>();
        let roots = vec![root.clone()];
        std::thread::spawn(move || super::watch(&roots, |c| tx.send(c).is_ok()));
        let next = || rx.recv_timeout(Duration::from_secs(5)).expect("an event");
        assert_eq!(next(), Change::Ready);
        std::fs::write(&s1, "{}\n{}\n").expect("write");
        assert_eq!(next(), Change::Written(s1.clone()));
        while rx.recv_timeout(Duration::from_millis(200)).is_ok() {}
        std::fs::rename(&s1, dir.path().join("away.jsonl")).expect("move out");
        assert_eq!(next(), Change::Tree);
        let sub = root.join("-app/s2/subagents");
        std::fs::create_dir_all(&sub).expect("mkdir");
        assert_eq!(next(), Change::Tree);
        // each folder watched before its change is told: written at
        // once, the file is told
        while rx.recv_timeout(Duration::from_millis(300)).is_ok() {}
        let agent = sub.join("agent-a.jsonl");
        std::fs::write(&agent, "{}\n").expect("write");
        assert_eq!(next(), Change::Written(agent));
        while rx.recv_timeout(Duration::from_millis(200)).is_ok() {}
        std::fs::remove_dir_all(root.join("-app/s2")).expect("rm");
        assert_eq!(next(), Change::Tree);
    }

    /// A link to a file in the tree is told (its writes are not seen):
    /// before Ready when met at the start, and when one is made.
    #[test]
    fn links_to_files_are_told() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("projects");
        std::fs::create_dir_all(root.join("-app")).expect("mkdir");
        let away = dir.path().join("away.jsonl");
        std::fs::write(&away, "{}\n").expect("write");
        std::os::unix::fs::symlink(&away, root.join("-app/s1.jsonl")).expect("link");
        let (tx, rx) = mpsc::channel::<Change>();
        let roots = vec![root.clone()];
        std::thread::spawn(move || super::watch(&roots, |c| tx.send(c).is_ok()));
        let next = || rx.recv_timeout(Duration::from_secs(5)).expect("an event");
        assert_eq!(next(), Change::Linked);
        assert_eq!(next(), Change::Ready);
        std::os::unix::fs::symlink(&away, root.join("-app/s2.jsonl")).expect("link");
        let mut seen = Vec::new();
        while let Ok(c) = rx.recv_timeout(Duration::from_millis(500)) {
            seen.push(c);
        }
        assert!(seen.contains(&Change::Linked), "{seen:?}");
    }

    /// Writes anywhere in the tree are told, in folders made after the
    /// watch began too; reads are not.
    #[test]
    fn writes_are_told_and_reads_are_not() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("projects");
        std::fs::create_dir_all(root.join("-app")).expect("mkdir");
        let old = root.join("-app/s1.jsonl");
        std::fs::write(&old, "{}\n").expect("write");
        let (tx, rx) = mpsc::channel::<PathBuf>();
        let roots = vec![root.clone()];
        std::thread::spawn(move || {
            super::watch(&roots, |c| written(c).is_none_or(|p| tx.send(p).is_ok()))
        });
        std::thread::sleep(Duration::from_millis(100));
        // a read is no change
        let _ = std::fs::read(&old).expect("read");
        let next = || rx.recv_timeout(Duration::from_secs(5)).expect("an event");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&old)
            .expect("open");
        f.write_all(b"{}\n").expect("append");
        drop(f);
        assert_eq!(next(), old);
        // a session's new folder, then its agent's file in it
        let sub = root.join("-app/s1/subagents");
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::thread::sleep(Duration::from_millis(200));
        let agent = sub.join("agent-a.jsonl");
        std::fs::write(&agent, "{}\n").expect("write");
        let mut seen = Vec::new();
        while let Ok(p) = rx.recv_timeout(Duration::from_secs(2)) {
            seen.push(p);
        }
        assert!(seen.contains(&agent), "{seen:?}");
        assert!(seen.iter().all(|p| p.is_file()), "{seen:?}");
    }

    /// A projects root that is a link (a dotfiles checkout) is watched
    /// through it; a loop of links ends at the depth watched.
    #[test]
    fn a_linked_root_is_watched_and_a_loop_of_links_ends() {
        let dir = tempfile::tempdir().expect("tmp");
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("-app")).expect("mkdir");
        std::os::unix::fs::symlink(&real, dir.path().join("projects")).expect("link");
        std::os::unix::fs::symlink(&real, real.join("-app/loop")).expect("loop");
        let root = dir.path().join("projects");
        let (tx, rx) = mpsc::channel::<PathBuf>();
        let roots = vec![root.clone()];
        std::thread::spawn(move || {
            super::watch(&roots, |c| written(c).is_none_or(|p| tx.send(p).is_ok()))
        });
        std::thread::sleep(Duration::from_millis(200));
        let s = root.join("-app/s.jsonl");
        std::fs::write(&s, "{}\n").expect("write");
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(5)).expect("an event"),
            s
        );
    }
}
