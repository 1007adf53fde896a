//! A folder opened once, its files looked up by their names in it: a
//! `stat` by a whole path walks each of its components again (seven for a
//! subagent's file under `~/.claude/projects`), by name in its project's
//! folder one to three. Linux and the other Unixes through rustix's
//! `fstatat`; elsewhere by whole paths.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What a name in a folder is, as the folder tells it (no stat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    File,
    Dir,
    Link,
    /// A FIFO, a socket, a device, or not told.
    Other,
}

/// A file's stat: what it is (a link followed), its size and mtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub is_file: bool,
    pub is_dir: bool,
    pub size: u64,
    pub mtime_ns: i64,
}

impl Stat {
    /// std's stat as one of these (where there is no `fstatat`, and for
    /// the tests' comparison).
    #[cfg(any(test, not(unix)))]
    fn of(m: &std::fs::Metadata) -> Stat {
        Stat {
            is_file: m.is_file(),
            is_dir: m.is_dir(),
            size: m.len(),
            mtime_ns: super::list::mtime_ns(m),
        }
    }
}

/// An open folder.
pub struct OpenDir {
    #[cfg(unix)]
    dir: rustix::fs::Dir,
    path: PathBuf,
}

impl OpenDir {
    /// `path` opened as a folder (a link to one followed).
    pub fn open(path: &Path) -> Option<OpenDir> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let fd = rustix::fs::open(
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok()?;
            Some(OpenDir {
                dir: rustix::fs::Dir::new(fd).ok()?,
                path: path.to_owned(),
            })
        }
        #[cfg(not(unix))]
        {
            path.is_dir().then(|| OpenDir {
                path: path.to_owned(),
            })
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder's names (not `.` and `..`), each with what it is (a
    /// link not followed). An entry that cannot be read ends the list.
    pub fn names(&mut self) -> Vec<(OsString, Kind)> {
        let mut out = Vec::new();
        #[cfg(unix)]
        {
            use rustix::fs::FileType;
            use std::os::unix::ffi::OsStrExt;
            let kind_of = |t: FileType| match t {
                FileType::RegularFile => Some(Kind::File),
                FileType::Directory => Some(Kind::Dir),
                FileType::Symlink => Some(Kind::Link),
                FileType::Unknown => None,
                _ => Some(Kind::Other),
            };
            let mut untold = Vec::new();
            while let Some(Ok(e)) = self.dir.read() {
                let name = e.file_name().to_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                let kind = kind_of(e.file_type());
                if kind.is_none() {
                    untold.push(out.len());
                }
                let name = std::ffi::OsStr::from_bytes(name).to_owned();
                out.push((name, kind.unwrap_or(Kind::Other)));
            }
            // a file system that does not say (some network ones): asked
            for i in untold {
                let Ok(fd) = self.dir.fd() else { break };
                let st = rustix::fs::statat(fd, &out[i].0, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
                if let Ok(st) = st {
                    let t = FileType::from_raw_mode(st.st_mode as _);
                    out[i].1 = kind_of(t).unwrap_or(Kind::Other);
                }
            }
        }
        #[cfg(not(unix))]
        for e in std::fs::read_dir(&self.path)
            .into_iter()
            .flatten()
            .flatten()
        {
            let kind = match e.file_type() {
                Ok(t) if t.is_file() => Kind::File,
                Ok(t) if t.is_dir() => Kind::Dir,
                Ok(t) if t.is_symlink() => Kind::Link,
                _ => Kind::Other,
            };
            out.push((e.file_name(), kind));
        }
        out
    }

    /// The stat of `rel` (a name, or names joined by `/`) in this folder,
    /// a link followed.
    pub fn stat(&self, rel: &Path) -> Option<Stat> {
        #[cfg(unix)]
        {
            use rustix::fs::{AtFlags, FileType};
            let fd = self.dir.fd().ok()?;
            let st = rustix::fs::statat(fd, rel, AtFlags::empty()).ok()?;
            let kind = FileType::from_raw_mode(st.st_mode as _);
            // before 1970: 0, as std's `duration_since` gives
            let ns = i128::from(st.st_mtime) * 1_000_000_000 + i128::from(st.st_mtime_nsec);
            Some(Stat {
                is_file: kind == FileType::RegularFile,
                is_dir: kind == FileType::Directory,
                size: u64::try_from(st.st_size).unwrap_or(0),
                mtime_ns: ns.clamp(0, i128::from(i64::MAX)) as i64,
            })
        }
        #[cfg(not(unix))]
        {
            std::fs::metadata(self.path.join(rel))
                .ok()
                .map(|m| Stat::of(&m))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names and their kinds as the folder tells them; a stat of a name,
    /// of a deeper path, and through a link agrees with std's of the
    /// whole path.
    #[test]
    fn names_and_stats_agree_with_whole_paths() {
        let d = tempfile::tempdir().expect("tmp");
        std::fs::write(d.path().join("a.jsonl"), b"12345").expect("write");
        std::fs::create_dir_all(d.path().join("s/subagents")).expect("mkdir");
        std::fs::write(d.path().join("s/subagents/agent-1.jsonl"), b"x").expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink("a.jsonl", d.path().join("l.jsonl")).expect("link");
        let mut dir = OpenDir::open(d.path()).expect("open");
        let mut names = dir.names();
        names.sort();
        let want: Vec<(OsString, Kind)> = vec![
            ("a.jsonl".into(), Kind::File),
            #[cfg(unix)]
            ("l.jsonl".into(), Kind::Link),
            ("s".into(), Kind::Dir),
        ];
        assert_eq!(names, want);
        for rel in ["a.jsonl", "s", "s/subagents/agent-1.jsonl", "l.jsonl"] {
            let whole = std::fs::metadata(d.path().join(rel)).ok();
            let whole = whole.map(|m| Stat::of(&m));
            assert_eq!(dir.stat(Path::new(rel)), whole, "{rel}");
        }
        assert_eq!(dir.stat(Path::new("missing")), None);
        assert!(OpenDir::open(&d.path().join("a.jsonl")).is_none());
    }
}
