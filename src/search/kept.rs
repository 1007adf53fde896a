//! What the picker keeps from one query to the next: the files to
//! search and the index as opened. A query of 10,000 sessions looked at
//! 20,000 files (a stat each) to learn of appends, and read the index's
//! list of them (4 MB) again: most of what it cost.
//!
//! The files are kept while the kernel says nothing under the root moved:
//! a file written is looked at again, alone; a file made, deleted or
//! moved, a folder made or gone, or events lost make the next query walk
//! the tree again. Without the kernel's events (another system, no
//! watches left, a watcher that stopped, a tree holding a link to a session
//! file, whose writes are made elsewhere) every query walks, as `ccv
//! search` does. The index is kept while its files (`meta.json`, written
//! at each commit, and its list of files) are the ones it was opened from.

use super::index::{Digest, SearchIndex};
use crate::catalog::files::{self, SearchFile};
use rustc_hash::{FxHashMap, FxHashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Written files told between two queries beyond which the tree is
/// walked again (a restore or a sync touching everything).
const MOST_WRITTEN: usize = 256;

/// What is kept between the queries of one root.
pub struct Kept {
    /// The folders watched: a list of other folders is never kept (an
    /// agent's folder made since the picker opened is not watched).
    scope: Vec<PathBuf>,
    told: Arc<Mutex<Told>>,
    files: Mutex<Files>,
    index: Mutex<Option<OpenIndex>>,
}

/// What the watcher told since the last query.
#[derive(Default)]
struct Told {
    /// Every folder is watched: a list walked from now on can be kept.
    ready: bool,
    /// The watcher stopped, or the tree holds a link to a file (whose
    /// writes it does not see): nothing is kept any more.
    stopped: bool,
    /// Something other than a write happened.
    moved: bool,
    /// Each file written, once (a session appends many times a second).
    written: FxHashSet<PathBuf>,
}

#[derive(Default)]
struct Files {
    list: Option<Arc<Vec<SearchFile>>>,
    /// Where each file of the list is, by [`files::path_hash`].
    at: FxHashMap<u64, usize>,
}

/// An index as opened, with what it holds in the root's scope.
struct OpenIndex {
    dir: PathBuf,
    /// The folders `known` is of.
    scope: Vec<PathBuf>,
    stamp: Stamp,
    index: Arc<SearchIndex>,
    known: Digest,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}

impl Kept {
    /// Starts watching `root`'s scope (a thread of its own, which ends at
    /// the first change after this is dropped).
    pub fn start(root: &Path) -> Kept {
        let (kept, teller) = Kept::told_by_another(root);
        spawn_watcher(kept.scope.clone(), teller);
        kept
    }

    /// What `root`'s scope keeps, told by a watcher of the same scope
    /// started elsewhere (the picker's section of sessions written lately
    /// watches the tree already: one set of the kernel's watches, and
    /// ready by the time a search opens).
    pub fn told_by_another(root: &Path) -> (Kept, Teller) {
        let told = Arc::new(Mutex::new(Told::default()));
        let teller = Teller(Arc::downgrade(&told));
        (Kept::with(files::scope(root), told), teller)
    }

    /// Waits until every folder is watched, at most `wait` and while
    /// `wanted`; whether it is.
    pub fn ready_within(&self, wait: std::time::Duration, wanted: impl Fn() -> bool) -> bool {
        let start = std::time::Instant::now();
        loop {
            let told = self.told.lock().unwrap_or_else(PoisonError::into_inner);
            if told.ready || told.stopped || start.elapsed() >= wait || !wanted() {
                return told.ready && !told.stopped;
            }
            drop(told);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    fn with(scope: Vec<PathBuf>, told: Arc<Mutex<Told>>) -> Kept {
        Kept {
            scope,
            told,
            files: Mutex::default(),
            index: Mutex::default(),
        }
    }

    /// The files of `scope`: those kept, each written one looked at
    /// again; else those `walk` finds (kept when the watcher was ready
    /// before it began: a change during the walk is told after it, for
    /// the next).
    pub fn files(
        &self,
        scope: &[PathBuf],
        walk: impl FnOnce() -> Vec<SearchFile>,
    ) -> Arc<Vec<SearchFile>> {
        let mut kept = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        let (ready, written) = {
            let mut told = self.told.lock().unwrap_or_else(PoisonError::into_inner);
            let ready = told.ready && !told.stopped && scope == self.scope.as_slice();
            let fresh = ready && !told.moved && told.written.len() <= MOST_WRITTEN;
            let written = std::mem::take(&mut told.written);
            told.moved = false;
            (ready, fresh.then_some(written))
        };
        if let (Some(written), Some(list)) = (written, kept.list.clone())
            && let Some(list) = kept.brought_up_to_date(list, &written)
        {
            return list;
        }
        let all = Arc::new(walk());
        *kept = Files::default();
        if ready {
            kept.at = all
                .iter()
                .enumerate()
                .map(|(i, f)| (f.path_hash, i))
                .collect();
            kept.list = Some(all.clone());
        }
        all
    }

    /// The index in `dir` and the digest of what it holds in `scope`: as
    /// kept when its files did not change since, else as `open` opens it
    /// (`None`: no index).
    pub fn index(
        &self,
        dir: &Path,
        scope: &[PathBuf],
        open: impl FnOnce() -> io::Result<Option<SearchIndex>>,
    ) -> io::Result<Option<(Arc<SearchIndex>, Digest)>> {
        let mut kept = self.index.lock().unwrap_or_else(PoisonError::into_inner);
        // looked at before it is opened: a change meanwhile is seen next time
        let stamp = Stamp::of(dir);
        if let Some(k) = kept.as_ref()
            && k.dir == dir
            && k.scope == scope
            && stamp.is_some_and(|s| s == k.stamp)
        {
            return Ok(Some((k.index.clone(), k.known)));
        }
        *kept = None;
        let Some(index) = open()? else {
            return Ok(None);
        };
        let index = Arc::new(index);
        let known = index.known_in(scope);
        if let Some(stamp) = stamp {
            *kept = Some(OpenIndex {
                dir: dir.to_owned(),
                scope: scope.to_vec(),
                stamp,
                index: index.clone(),
                known,
            });
        }
        Ok(Some((index, known)))
    }
}

/// Which `meta.json` and list of files an index has: each is written
/// whole and moved into place, so a change is a new file (or a new size
/// or time, where the file system has no inode numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp([(u64, u64, u64, i64); 2]);

impl Stamp {
    fn of(dir: &Path) -> Option<Stamp> {
        let one = |name: &str| {
            let m = std::fs::metadata(dir.join(name)).ok()?;
            #[cfg(unix)]
            let (dev, ino) = {
                use std::os::unix::fs::MetadataExt;
                (m.dev(), m.ino())
            };
            #[cfg(not(unix))]
            let (dev, ino) = (0, 0);
            Some((dev, ino, m.len(), crate::catalog::list::mtime_ns(&m)))
        };
        Some(Stamp([one("meta.json")?, one(super::state::STATE)?]))
    }
}

impl Files {
    /// `list` with each of `written` looked at again; `None` when one is
    /// not a regular file any more, or a session file not kept (new).
    fn brought_up_to_date(
        &mut self,
        mut list: Arc<Vec<SearchFile>>,
        written: &FxHashSet<PathBuf>,
    ) -> Option<Arc<Vec<SearchFile>>> {
        for p in written {
            let at = self
                .at
                .get(&files::path_hash(p))
                .copied()
                .filter(|&i| list.get(i).is_some_and(|f| f.path == *p));
            let Some(i) = at else {
                // a file of another kind (not a session's) changes nothing
                if p.extension().is_some_and(|e| e == "jsonl") {
                    return None;
                }
                continue;
            };
            let (size, mtime_ns) = files::stat(p)?;
            let f = &list[i];
            if (f.size, f.mtime_ns) != (size, mtime_ns) {
                // a copy only when the last query's list is still held
                let f = &mut Arc::make_mut(&mut list)[i];
                f.size = size;
                f.mtime_ns = mtime_ns;
            }
        }
        self.list = Some(list.clone());
        Some(list)
    }
}

/// How a watcher of the tree tells a [`Kept`] what changed: `false` once
/// the `Kept` is gone (nothing is asked any more).
pub struct Teller(std::sync::Weak<Mutex<Told>>);

impl Teller {
    fn with(&self, f: impl FnOnce(&mut Told)) -> bool {
        let Some(told) = self.0.upgrade() else {
            return false;
        };
        f(&mut told.lock().unwrap_or_else(PoisonError::into_inner));
        true
    }

    /// Every folder is watched.
    pub fn ready(&self) -> bool {
        self.with(|t| t.ready = true)
    }

    /// A file written, made or moved in.
    pub fn written(&self, path: &Path) -> bool {
        self.with(|t| {
            // beyond the most, the tree is walked again: no more kept
            if t.written.len() <= MOST_WRITTEN {
                t.written.insert(path.to_owned());
            }
        })
    }

    /// Anything else (see [`crate::catalog::inotify::Change::Tree`]).
    pub fn moved(&self) -> bool {
        self.with(|t| t.moved = true)
    }

    /// The watcher stopped, or never started: every query walks.
    pub fn stopped(&self) {
        self.with(|t| t.stopped = true);
    }

    /// Tells `c`.
    #[cfg(target_os = "linux")]
    pub fn tell(&self, c: &crate::catalog::inotify::Change) -> bool {
        use crate::catalog::inotify::Change;
        match c {
            Change::Ready => self.ready(),
            Change::Tree => self.moved(),
            // a file whose writes are not told: the list cannot be kept
            Change::Linked => self.with(|t| t.stopped = true),
            Change::Written(p) => self.written(p),
        }
    }
}

#[cfg(target_os = "linux")]
fn spawn_watcher(scope: Vec<PathBuf>, teller: Teller) {
    let spawned = std::thread::Builder::new()
        .name("ccv-watch-files".into())
        .spawn(move || {
            if crate::catalog::inotify::watch(&scope, |c| teller.tell(&c)).is_err() {
                teller.stopped();
            }
        });
    // no thread: never ready, every query walks
    drop(spawned);
}

#[cfg(not(target_os = "linux"))]
fn spawn_watcher(_scope: Vec<PathBuf>, teller: Teller) {
    teller.stopped();
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::time::{Duration, Instant};

    fn ready(w: &Kept) {
        let t = Instant::now();
        while !w.told.lock().expect("lock").ready {
            assert!(t.elapsed() < Duration::from_secs(10), "never ready");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits until the watcher has told something, and a little more.
    fn settle(w: &Kept) {
        let t = Instant::now();
        loop {
            let told = w.told.lock().expect("lock");
            if told.moved || !told.written.is_empty() || t.elapsed() > Duration::from_secs(5) {
                break;
            }
            drop(told);
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(50));
    }

    /// A projects root in a temporary folder with one session of `text`:
    /// (the folder, the root, the session's path).
    fn tree(text: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("projects");
        std::fs::create_dir_all(root.join("-app")).expect("mkdir");
        let s1 = root.join("-app/s1.jsonl");
        std::fs::write(&s1, text).expect("write");
        (dir, root, s1)
    }

    fn sizes(files: &[SearchFile]) -> Vec<(String, u64)> {
        let mut v: Vec<_> = files
            .iter()
            .map(|f| (f.path.to_string_lossy().into_owned(), f.size))
            .collect();
        v.sort();
        v
    }

    /// The list is walked once; an append is seen without a walk; a file
    /// made, a file deleted, a subagent's folder made make the next query
    /// walk; each answer is what a walk finds.
    #[test]
    fn a_kept_list_follows_appends_and_is_walked_again_when_the_tree_moves() {
        let (_dir, root, s1) = tree("{}\n");
        let w = Kept::start(&root);
        ready(&w);
        let walks = Cell::new(0);
        let files = || {
            w.files(&files::scope(&root), || {
                walks.set(walks.get() + 1);
                files::under(&root)
            })
        };
        let check = |n: usize| {
            let got = files();
            assert_eq!(sizes(&got), sizes(&files::under(&root)));
            assert_eq!(walks.get(), n);
        };
        check(1);
        check(1);
        std::fs::write(&s1, "{}\n{\"more\":1}\n").expect("append");
        settle(&w);
        check(1);
        let s2 = root.join("-app/s2.jsonl");
        std::fs::write(&s2, "{}\n").expect("write");
        settle(&w);
        check(2);
        check(2);
        std::fs::create_dir_all(root.join("-app/s2/subagents")).expect("mkdir");
        settle(&w);
        check(3);
        let agent = root.join("-app/s2/subagents/agent-a.jsonl");
        std::fs::write(&agent, "{}\n").expect("write");
        settle(&w);
        check(4);
        std::fs::write(&agent, "{}\n{}\n").expect("append");
        settle(&w);
        check(4);
        std::fs::remove_file(&s1).expect("rm");
        settle(&w);
        check(5);
        // a file of another kind made and written beside the sessions
        std::fs::write(root.join("-app/notes.txt"), "x").expect("write");
        settle(&w);
        check(5);
        std::fs::write(root.join("-app/notes.txt"), "xy").expect("write");
        settle(&w);
        check(5);
    }

    fn prompt(i: usize, text: &str) -> String {
        format!(
            "{{\"type\":\"user\",\"uuid\":\"u{i}\",\"timestamp\":\"2025-01-01T00:00:{i:02}Z\",\"message\":{{\"role\":\"user\",\"content\":\"{text}\"}}}}\n"
        )
    }

    /// A search with the files kept finds what was appended since the
    /// last query, with an index and without, as a walk would.
    #[test]
    fn a_search_with_the_files_kept_finds_what_was_appended() {
        use crate::model::query::Query;
        use crate::search::{Filter, Options, search};
        let (dir, root, s1) = tree(prompt(1, "an apple"));
        for index in [None, Some(dir.path().join("index"))] {
            let w = Arc::new(Kept::start(&root));
            ready(&w);
            let opts = Options {
                index: index.clone(),
                threads: 1,
                kept: Some(w.clone()),
                ..Options::standard()
            };
            if let Some(ix) = &index {
                crate::search::update_index(&root, ix, 1).expect("index");
            }
            let found = |word: &str| {
                let q = Query::words(word, false).expect("query");
                search(&root, &q, &Filter::default(), &opts)
                    .expect("search")
                    .hits
                    .len()
            };
            assert_eq!(found("apple"), 1);
            let before = std::fs::read_to_string(&s1).expect("read");
            let more = (2..4).map(|i| prompt(i, "a banana")).collect::<String>();
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&s1)
                .expect("open");
            std::io::Write::write_all(&mut f, more.as_bytes()).expect("append");
            drop(f);
            settle(&w);
            assert_eq!(found("banana"), 2, "index {index:?}");
            assert_eq!(found("apple"), 1);
            std::fs::write(&s1, before).expect("write");
        }
    }

    /// The search's opening readies the files for its first query (which
    /// then walks nothing), unless a query was typed meanwhile.
    #[test]
    fn the_opening_of_a_search_readies_its_files_unless_a_query_came() {
        use crate::search::{Options, Superseded, prepare};
        use std::sync::atomic::AtomicU64;
        let (_dir, root, _) = tree(prompt(1, "an apple"));
        for typed in [false, true] {
            let kept = Arc::new(Kept::start(&root));
            let opts = Options {
                index: None,
                kept: Some(kept.clone()),
                superseded: Some(Superseded {
                    sent: Arc::new(AtomicU64::new(if typed { 2 } else { 1 })),
                    this: 1,
                }),
                ..Options::standard()
            };
            prepare(&root, &opts);
            ready(&kept);
            let walks = Cell::new(0);
            let got = kept.files(&files::scope(&root), || {
                walks.set(walks.get() + 1);
                files::under(&root)
            });
            assert_eq!(got.len(), 1);
            assert_eq!(walks.get(), usize::from(typed), "typed {typed}");
        }
    }

    /// The index is opened once while its files stay the same, and again
    /// once they were replaced (an update) or the folders asked of differ.
    #[test]
    fn the_index_is_kept_until_it_changes() {
        use crate::search::index::SearchIndex;
        let (dir, root, s1) = tree(prompt(1, "an apple"));
        let ix = dir.path().join("index");
        crate::search::update_index(&root, &ix, 1).expect("index");
        let kept = Kept::with(files::scope(&root), Arc::new(Mutex::new(Told::default())));
        let scope = files::scope(&root);
        let opens = Cell::new(0);
        let open = || {
            opens.set(opens.get() + 1);
            SearchIndex::open_existing(&ix)
        };
        let first = kept
            .index(&ix, &scope, open)
            .expect("open")
            .expect("an index");
        let again = kept
            .index(&ix, &scope, open)
            .expect("open")
            .expect("an index");
        assert!(Arc::ptr_eq(&first.0, &again.0));
        assert_eq!(opens.get(), 1);
        let other = vec![root.clone(), dir.path().join("codex")];
        kept.index(&ix, &other, open)
            .expect("open")
            .expect("an index");
        assert_eq!(opens.get(), 2);
        std::fs::write(&s1, prompt(1, "an apple") + &prompt(2, "a pear")).expect("write");
        crate::search::update_index(&root, &ix, 1).expect("index");
        let updated = kept
            .index(&ix, &scope, open)
            .expect("open")
            .expect("an index");
        assert_eq!(opens.get(), 3);
        assert!(!Arc::ptr_eq(&first.0, &updated.0));
        assert_ne!(first.1, updated.1, "what it holds changed");
    }

    /// A session that is a link to a file elsewhere (whose appends the
    /// watcher does not see) makes every query walk.
    #[test]
    fn a_tree_with_a_linked_session_is_walked_every_time() {
        let (dir, root, _) = tree("{}\n");
        let away = dir.path().join("away.jsonl");
        std::fs::write(&away, "{}\n").expect("write");
        std::os::unix::fs::symlink(&away, root.join("-app/s2.jsonl")).expect("link");
        let w = Kept::start(&root);
        assert!(!w.ready_within(std::time::Duration::from_secs(2), || true));
        let walks = Cell::new(0);
        let scope = files::scope(&root);
        for _ in 0..2 {
            w.files(&scope, || {
                walks.set(walks.get() + 1);
                files::under(&root)
            });
        }
        assert_eq!(walks.get(), 2);
        std::fs::write(&away, "{}\n{}\n").expect("append");
        let got = w.files(&scope, || files::under(&root));
        assert!(got.iter().any(|f| f.size == 6), "the append is seen");
    }

    /// Before the watcher is ready, and once it stopped, every query walks.
    #[test]
    fn without_a_watcher_every_query_walks() {
        let (dir, root, _) = tree("{}\n");
        let w = Kept::with(files::scope(&root), Arc::new(Mutex::new(Told::default())));
        let walks = Cell::new(0);
        let walk = || {
            walks.set(walks.get() + 1);
            files::under(&root)
        };
        let scope = files::scope(&root);
        w.files(&scope, walk);
        w.files(&scope, walk);
        assert_eq!(walks.get(), 2);
        w.told.lock().expect("lock").ready = true;
        w.files(&scope, walk);
        w.files(&scope, walk);
        assert_eq!(walks.get(), 3);
        // another scope than the one watched (an agent's folder made since)
        let more = vec![root.clone(), dir.path().join("codex")];
        w.files(&more, walk);
        w.files(&more, walk);
        assert_eq!(walks.get(), 5);
        w.files(&scope, walk);
        assert_eq!(walks.get(), 6);
        w.told.lock().expect("lock").stopped = true;
        w.files(&scope, walk);
        w.files(&scope, walk);
        assert_eq!(walks.get(), 8);
    }
}
