//! What a walk of the tree found in each session's `subagents/` folder,
//! kept for the next walk: a folder whose mtime has not moved holds the
//! same names (creating, removing or renaming a file moves its folder's
//! mtime; appending to one does not, so each file is still looked at).
//! Reading the folder again was an open, a stat, two reads and a close
//! where a stat of it says as much: at 10,000 sessions, a third of the
//! system calls of an indexed search.
//!
//! Only a folder whose mtime was already two seconds old when it was read
//! is kept (a change in the same tick as the read would leave the mtime
//! as it was). The file (`folders-v1.bin`, beside the search index) is a
//! cache: anything it holds that is not believed (a name with a slash,
//! a bad check, a byte more) makes it empty, and the folders are read.

use super::files::path_hash;
use crate::packed::{self, Bytes};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The file's name, beside the search index's folder.
pub const FILE: &str = "folders-v1.bin";
// (2: a folder's names hold its `workflows/` folder, when it has one)
const MAGIC: &[u8] = b"ccv subagent folders 2\n";
/// A file past this size was not written by ccv.
const MAX_FILE: u64 = 64 << 20;

/// One folder as a walk found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    pub dir: PathBuf,
    pub mtime_ns: i64,
    /// The names of its subagents' files, when they were read now
    /// (`None`: told by the folders known before).
    pub names: Option<Vec<OsString>>,
}

/// The folders known, by the hash of their paths (see
/// [`super::files::path_hash`]: `Path`'s own walks every component).
#[derive(Debug, Default)]
pub struct Folders(rustc_hash::FxHashMap<u64, Known>);

#[derive(Debug, PartialEq, Eq)]
struct Known {
    dir: PathBuf,
    mtime_ns: i64,
    names: Vec<OsString>,
}

impl Folders {
    /// The folders in `file`, or none when it is missing or not believed.
    pub fn read(file: &Path) -> Folders {
        packed::read_file(file, MAX_FILE)
            .and_then(|b| from_bytes(&b))
            .unwrap_or_default()
    }

    /// The names in `dir` when it was read at this mtime.
    pub fn names(&self, dir: &Path, mtime_ns: i64) -> Option<&[OsString]> {
        match self.0.get(&path_hash(dir)) {
            Some(k) if k.mtime_ns == mtime_ns && mtime_ns != 0 && k.dir == dir => Some(&k.names),
            _ => None,
        }
    }

    /// Takes in what a walk of `scope` found (`seen`): its folders that
    /// can be kept replace what was known of `scope`, the rest is kept.
    /// Whether anything changed (the file is written only then).
    pub fn learn(&mut self, scope: &[PathBuf], seen: Vec<Folder>) -> bool {
        let mut changed = false;
        let mut kept: rustc_hash::FxHashSet<u64> = Default::default();
        for f in seen {
            if !super::list::settled(f.mtime_ns) {
                continue;
            }
            let key = path_hash(&f.dir);
            kept.insert(key);
            // a folder told by what was known is known as it was
            let Some(names) = f.names else { continue };
            let known = Known {
                dir: f.dir,
                mtime_ns: f.mtime_ns,
                names,
            };
            if self.0.get(&key) != Some(&known) {
                changed = true;
                self.0.insert(key, known);
            }
        }
        // folders of the scope that are gone, or changed too lately
        let len = self.0.len();
        self.0
            .retain(|h, k| kept.contains(h) || !super::files::in_scope(scope, &k.dir));
        changed || self.0.len() != len
    }

    /// Writes the folders known to `file` (a new file put in place).
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        let bytes = self.to_bytes();
        if let Some(dir) = file.parent() {
            crate::writes::private_dir(dir)?;
        }
        crate::writes::write_file(file, true, |w| std::io::Write::write_all(w, &bytes))?;
        Ok(())
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        packed::count(&mut body, self.0.len());
        for k in self.0.values() {
            packed::path(&mut body, &k.dir);
            packed::i64(&mut body, k.mtime_ns);
            packed::count(&mut body, k.names.len());
            for n in &k.names {
                packed::bytes(&mut body, n.as_encoded_bytes());
            }
        }
        let mut out = MAGIC.to_vec();
        packed::u64(&mut out, packed::check(&body));
        out.extend_from_slice(&body);
        out
    }
}

fn from_bytes(b: &[u8]) -> Option<Folders> {
    let mut r = Bytes(b.strip_prefix(MAGIC)?);
    let sum = r.u64()?;
    if packed::check(r.0) != sum {
        return None;
    }
    // a path, an mtime and a count: at least 16 bytes a folder
    let n = r.count(16)?;
    let mut map = rustc_hash::FxHashMap::default();
    for _ in 0..n {
        let dir = r.path()?;
        let mtime = r.i64()?;
        let m = r.count(4)?;
        let mut names = Vec::with_capacity(m);
        for _ in 0..m {
            let name = r.path()?.into_os_string();
            // a subagent's file name only, or the folder of its Workflow
            // runs, as a walk keeps: nothing that leads out of its
            // folder, nothing a walk would not search
            let plain = Path::new(&name).file_name() == Some(name.as_os_str());
            let kept = name == crate::source::WORKFLOWS
                || crate::source::agent_id_of(Path::new(&name)).is_some();
            (plain && kept).then_some(())?;
            names.push(name);
        }
        map.insert(
            path_hash(&dir),
            Known {
                dir,
                mtime_ns: mtime,
                names,
            },
        );
    }
    r.is_empty().then_some(Folders(map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::files::under_known;
    use std::time::{Duration, SystemTime};

    fn set_mtime(dir: &Path, t: SystemTime) {
        std::fs::File::open(dir)
            .and_then(|f| f.set_modified(t))
            .expect("set the folder's mtime");
    }

    fn names(files: &[crate::catalog::files::SearchFile]) -> Vec<String> {
        let mut v: Vec<String> = files
            .iter()
            .filter_map(|f| Some(f.path.file_name()?.to_string_lossy().into_owned()))
            .collect();
        v.sort();
        v
    }

    /// A folder's names are read again when its mtime moved, told by what
    /// was known when it did not; a folder changed too lately is not kept;
    /// a file gone from a folder known is left out, not a crash.
    #[test]
    fn a_folder_is_read_again_only_when_its_mtime_moved() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("projects");
        let sub = root.join("-p").join("s").join("subagents");
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(root.join("-p").join("s.jsonl"), "{}\n").expect("write");
        std::fs::write(sub.join("agent-a.jsonl"), "{}\n").expect("write");
        let scope = vec![root.clone()];
        let mut known = Folders::default();
        // changed just now: read, and not kept
        let (files, seen) = under_known(&root, &known);
        assert_eq!(names(&files), ["agent-a.jsonl", "s.jsonl"]);
        assert!(seen.iter().all(|f| f.names.is_some()));
        assert!(!known.learn(&scope, seen));
        // settled: kept, then told without a read
        let old = SystemTime::now() - Duration::from_secs(60);
        set_mtime(&sub, old);
        let (_, seen) = under_known(&root, &known);
        assert!(known.learn(&scope, seen));
        let (files, seen) = under_known(&root, &known);
        assert_eq!(names(&files), ["agent-a.jsonl", "s.jsonl"]);
        assert!(seen.iter().all(|f| f.names.is_none()));
        assert!(!known.learn(&scope, seen));
        // a file added moves the mtime: read again
        std::fs::write(sub.join("agent-b.jsonl"), "{}\n").expect("write");
        let (files, seen) = under_known(&root, &known);
        assert_eq!(names(&files), ["agent-a.jsonl", "agent-b.jsonl", "s.jsonl"]);
        assert!(seen.iter().all(|f| f.names.is_some()));
        // the same mtime is believed (what a folder's mtime says), and a
        // file named that is gone is left out
        set_mtime(&sub, old);
        std::fs::remove_file(sub.join("agent-a.jsonl")).expect("rm");
        set_mtime(&sub, old);
        let (files, _) = under_known(&root, &known);
        assert_eq!(names(&files), ["s.jsonl"]);
        // what is kept reads back; the file damaged anywhere reads as
        // nothing known, or as what was written, never a crash
        let file = tmp.path().join(FILE);
        known.save(&file).expect("save");
        let back = Folders::read(&file);
        assert!(
            back.names(
                &sub,
                crate::catalog::list::mtime_ns(&std::fs::metadata(&sub).expect("stat"))
            )
            .is_some()
        );
        let bytes = std::fs::read(&file).expect("read");
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x41;
            assert!(from_bytes(&bad).is_none_or(|f| f.0.len() == 1), "byte {at}");
            assert!(from_bytes(&bytes[..at]).is_none(), "cut at {at}");
        }
    }

    /// A name that would lead out of its folder, or that is no
    /// subagent's file, is not believed.
    #[test]
    fn names_no_walk_would_keep_are_not_believed() {
        for name in [
            "../agent-x.jsonl",
            "a/agent-b.jsonl",
            "..",
            "/agent-abs.jsonl",
            "notes.txt",
            "x.jsonl",
        ] {
            let mut f = Folders::default();
            f.0.insert(
                1,
                Known {
                    dir: PathBuf::from("/p/s/subagents"),
                    mtime_ns: 5,
                    names: vec![OsString::from(name)],
                },
            );
            assert!(from_bytes(&f.to_bytes()).is_none(), "{name}");
        }
    }
}
