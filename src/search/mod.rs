//! Search across every session under a projects root: `ccv search` and
//! the picker's full-text mode. An index (see [`index`]) answers once it
//! exists; before, a raw scan (see [`scan`]) does. Either way each hit is
//! checked against the entry's text as the model reads it, with the rules
//! of [`Query`], so both ways find the same rows.

mod checked;
mod copies;
pub mod extract;
pub mod index;
pub mod index_dir;
pub mod kept;
pub mod output;
pub mod scan;
mod state;
mod word_blocks;
pub mod words;

use crate::catalog::files::{self, SearchFile};
use crate::model::Kind;
use crate::model::query::Query;
use extract::{Entry, entries};
use std::collections::{HashMap, HashSet};
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which entries count.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Empty: every kind.
    pub kinds: Vec<Kind>,
    pub since_ms: Option<i64>,
    /// Only files of these sessions (`--project`).
    pub sessions: Option<HashSet<PathBuf>>,
}

impl Filter {
    fn keeps_kind(&self, k: Kind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&k)
    }

    fn keeps_time(&self, ts: Option<i64>) -> bool {
        self.since_ms.is_none_or(|s| ts.is_some_and(|t| t >= s))
    }
}

/// One matching entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The file the entry is in (a subagent's file, or the session's).
    pub file: PathBuf,
    /// The session it belongs to.
    pub session: PathBuf,
    /// 1-based line in `file`.
    pub line: u32,
    pub kind: Kind,
    pub timestamp: Option<i64>,
    /// One line of text around the first match.
    pub snippet: String,
    /// Where the match is in `snippet` (bytes).
    pub mark: Range<usize>,
    /// Every term's occurrences in `snippet` (bytes, sorted, apart), the
    /// first match among them: what a printed hit highlights.
    pub marks: Vec<Range<usize>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Index,
    Scan,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Newest first.
    pub hits: Vec<Hit>,
    pub via: Via,
    /// More entries matched than `limit`.
    pub more: bool,
    /// Why the index was not used, when the user should know (its
    /// directory is not ccv's, or it was damaged and is being rebuilt).
    pub note: Option<String>,
}

impl Found {
    /// No hit, and nothing read (an empty query, an answer not wanted).
    pub fn none() -> Found {
        Found {
            hits: Vec::new(),
            via: Via::Scan,
            more: false,
            note: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    /// The index directory; `None`: always scan.
    pub index: Option<PathBuf>,
    /// Bring the index up to date first (appended bytes only).
    pub update: bool,
    pub limit: usize,
    pub threads: usize,
    /// Says when the answer is no longer wanted (see [`Superseded`]).
    pub superseded: Option<Superseded>,
    /// The files as last found and the index as last opened, kept while
    /// they did not change (the picker's: see [`kept`]); `None`: the tree
    /// is walked and the index opened for each search.
    pub kept: Option<std::sync::Arc<kept::Kept>>,
}

impl Options {
    pub fn standard() -> Options {
        Options {
            index: index::default_dir(),
            update: true,
            limit: 200,
            threads: crate::catalog::threads(),
            superseded: None,
            kept: None,
        }
    }

    fn superseded(&self) -> bool {
        self.superseded.as_ref().is_some_and(Superseded::now)
    }
}

/// A query typed on: the picker asks at every key, and a search of the
/// first letter of a word (most of the files) held up the word's own by
/// its whole length. A search that learns a newer query was sent stops
/// reading and decoding, and its answer (partial) is thrown away.
#[derive(Debug, Clone)]
pub struct Superseded {
    /// How many queries were sent.
    pub sent: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Which of them this search answers (counted from 1).
    pub this: u64,
}

impl Superseded {
    pub fn now(&self) -> bool {
        self.sent.load(std::sync::atomic::Ordering::Relaxed) > self.this
    }
}

/// An index opened: the digest of the files it holds in the scope, the
/// index, and its candidates for the query (`None`: the query has words
/// the index leaves out).
type Opened = (
    index::Digest,
    std::sync::Arc<index::SearchIndex>,
    Option<index::Ranked>,
);

/// Searches every session under `root`: with the index when there is a
/// sound one, else by reading the files. Whatever is wrong with the index
/// (a damaged file, a directory that is not ccv's, a panic in the index
/// library) is never the user's problem: the files answer.
pub fn search(root: &Path, query: &Query, filter: &Filter, opts: &Options) -> io::Result<Found> {
    if opts.superseded() {
        return Ok(Found::none());
    }
    let ix_dir = opts.index.as_deref().filter(|_| !query.is_regex);
    let scope = crate::catalog::files::scope(root);
    // the index is opened, and asked, while the files are listed (the
    // walk is most of a query of 10,000 sessions; one waits on the file
    // system, the other reads the index): its answer stands when the
    // files it holds are the files found
    let (all, opened) = std::thread::scope(|s| {
        let scope = &scope;
        let opening = ix_dir.map(|dir| {
            s.spawn(move || {
                crate::contain::contain(|| -> io::Result<Option<Opened>> {
                    let open = || index::SearchIndex::open_existing(dir);
                    let opened = match &opts.kept {
                        Some(k) => k.index(dir, scope, open)?,
                        None => open()?.map(|ix| {
                            let known = ix.known_in(scope);
                            (std::sync::Arc::new(ix), known)
                        }),
                    };
                    let Some((ix, known)) = opened else {
                        return Ok(None);
                    };
                    if ix.is_empty() {
                        return Ok(None);
                    }
                    let ranked = ix.candidates(query.terms(), &filter.kinds)?;
                    Ok(Some((known, ix, ranked)))
                })
            })
        });
        let all = match &opts.kept {
            Some(w) => w.files(scope, || walk(root, ix_dir)),
            None => std::sync::Arc::new(walk(root, ix_dir)),
        };
        let opened = opening.map(|h| h.join().unwrap_or_else(|_| Err("panic".to_owned())));
        (all, opened)
    });
    // a copy only when some files are left out
    let files: std::borrow::Cow<'_, [SearchFile]> = match &filter.sessions {
        Some(keep) => all
            .iter()
            .filter(|f| keep.contains(&f.session))
            .cloned()
            .collect::<Vec<_>>()
            .into(),
        None => all[..].into(),
    };
    let mut note = None;
    if let (Some(dir), Some(opened)) = (ix_dir, opened) {
        let answer = crate::contain::contain(|| -> io::Result<Option<Found>> {
            // no index yet: the files answer (and a builder in the
            // background makes one), a search never builds it whole
            let Some((known, ix, ranked)) = opened.map_err(io::Error::other)?? else {
                return Ok(None);
            };
            // an index that holds every file as it is answers as asked;
            // else it is brought up to date and asked again
            let (ix, ranked) = if opts.update && !ix.is_current_given(&known, &all) {
                drop((ix, ranked));
                // another ccv updating it: search what is there
                let _ = update_locked(root, dir, &all, opts.threads, false);
                let Some(ix) = index::SearchIndex::open_existing(dir)? else {
                    return Ok(None);
                };
                let ranked = ix.candidates(query.terms(), &filter.kinds)?;
                (std::sync::Arc::new(ix), ranked)
            } else {
                (ix, ranked)
            };
            let found = ranked.map(|c| {
                check_candidates(&ix, c, &files, (query, filter), opts.limit, opts.threads)
            });
            drop_aside(ix);
            Ok(found)
        });
        match answer {
            Ok(Ok(Some(found))) => {
                if let std::borrow::Cow::Owned(v) = files {
                    drop_aside(v);
                }
                drop_aside(all);
                return Ok(found);
            }
            Ok(Ok(None)) => {}
            Ok(Err(e)) if e.kind() == io::ErrorKind::PermissionDenied => {
                note = Some(format!("not using the search index: {e}"));
            }
            // an index that does not open: the files answer meanwhile
            Ok(Err(_)) | Err(_) => note = Some(unopened(dir)),
        }
    }
    // the files read in turn, newest first (an index wants no order)
    let files = match files {
        std::borrow::Cow::Owned(v) => v,
        std::borrow::Cow::Borrowed(_) => {
            drop(files);
            // the picker's list is kept: a first search reads a copy
            std::sync::Arc::try_unwrap(all).unwrap_or_else(|kept| (*kept).clone())
        }
    };
    let in_turn = crate::catalog::files::newest_first(files);
    let mut found = scan_all(&in_turn, query, filter, opts)?;
    found.note = note;
    Ok(found)
}

/// Readies what `opts` keeps between queries (see [`kept`]) for a first
/// query not typed yet: the tree watched (waiting a moment for it), its
/// files found, the index opened. The picker does this when its search
/// opens, while the user types.
pub fn prepare(root: &Path, opts: &Options) {
    let Some(kept) = &opts.kept else {
        return;
    };
    // a list found before the tree is watched is not kept; a query typed
    // meanwhile is not kept waiting
    let ready = kept.ready_within(std::time::Duration::from_millis(300), || !opts.superseded());
    if !ready || opts.superseded() {
        return;
    }
    let ix_dir = opts.index.as_deref();
    let scope = files::scope(root);
    let _ = crate::contain::contain(|| {
        kept.files(&scope, || walk(root, ix_dir));
        if let Some(dir) = ix_dir
            && !opts.superseded()
        {
            let _ = kept.index(dir, &scope, || index::SearchIndex::open_existing(dir));
        }
    });
}

/// Drops `x` on a thread of its own, which nothing waits for (a command
/// ends without it): the lists of 20,000 files of an indexed search, freed
/// away from the threads that made them, were a tenth of it.
fn drop_aside<T: Send + 'static>(x: T) {
    // (a thread not started drops `x` here)
    let _ = std::thread::Builder::new().spawn(move || drop(x));
}

/// Every file of `root`'s scope ([`files::under`]), the subagents'
/// folders known beside the index in `ix_dir` (see
/// [`crate::catalog::folders`]) not read again, and what was learnt of
/// them kept for the next search.
fn walk(root: &Path, ix_dir: Option<&Path>) -> Vec<SearchFile> {
    use crate::catalog::folders::{FILE, Folders};
    let Some(file) = ix_dir.and_then(Path::parent).map(|d| d.join(FILE)) else {
        return files::under(root);
    };
    let mut known = Folders::read(&file);
    let (all, seen) = files::under_known(root, &known);
    if seen.iter().any(|f| f.names.is_some()) && known.learn(&files::scope(root), seen) {
        // a cache: one not written is read again next time
        let _ = known.save(&file);
    }
    all
}

/// What is said of an index in `dir` that does not open. One being
/// written by another ccv (a first build has no list of files until its
/// end, which is how a damaged one looks) is left to it; else it is
/// damaged, and thrown away for the next build to make again.
fn unopened(dir: &Path) -> String {
    match index_dir::lock(dir, false) {
        Ok(None) => "the search index is being built".into(),
        Ok(Some(_lock)) => {
            index_dir::wipe(dir);
            "the search index was damaged: rebuilding it".into()
        }
        Err(e) => format!("not using the search index: {e}"),
    }
}

/// Builds or updates the index of `root` in `dir`, waiting for another
/// ccv doing the same.
pub fn update_index(root: &Path, dir: &Path, threads: usize) -> io::Result<index::Updated> {
    let all = || files::newest_first(walk(root, Some(dir)));
    match crate::contain::contain(|| update_locked(root, dir, &all(), threads, true)) {
        Ok(Ok(Some(u))) => Ok(u),
        Ok(Ok(None)) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "the index is being updated",
        )),
        Ok(Err(e)) => Err(e),
        Err(panic) => {
            if let Ok(Some(_lock)) = index_dir::lock(dir, false) {
                index_dir::wipe(dir);
            }
            Err(io::Error::other(format!(
                "the index was damaged ({panic}): thrown away, the next run builds it again"
            )))
        }
    }
}

/// The update under the directory's lock; `None` when another ccv holds
/// it and `wait` is false. A failed update (a full disk) leaves nothing
/// behind: what was written is thrown away and searches read the files.
fn update_locked(
    root: &Path,
    dir: &Path,
    all: &[SearchFile],
    threads: usize,
    wait: bool,
) -> io::Result<Option<index::Updated>> {
    if let index_dir::Found::Foreign(why) = index_dir::inspect(dir) {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, why));
    }
    index_dir::make(dir)?;
    let Some(lock) = index_dir::lock(dir, wait)? else {
        return Ok(None);
    };
    let mut ix = index::SearchIndex::open_for_update(dir, &lock)?;
    match ix.update(&crate::catalog::files::scope(root), all, threads) {
        Ok(u) => {
            index_dir::empty_older(dir, index::VERSION);
            Ok(Some(u))
        }
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
        Err(e) => {
            drop(ix);
            index_dir::wipe(dir);
            Err(e)
        }
    }
}

fn scan_all(
    files: &[SearchFile],
    query: &Query,
    filter: &Filter,
    opts: &Options,
) -> io::Result<Found> {
    match scan_files(files, query, filter, opts, true)? {
        Some(found) => Ok(found),
        // a line held an entry newer than the line said: every line is
        // read again and decoded as it is found
        None => Ok(scan_files(files, query, filter, opts, false)?.unwrap_or_else(Found::none)),
    }
}

/// A line that holds every term, not yet decoded: the time no entry of
/// it is newer than (see [`crate::source::own_time`]), its file (index),
/// line number, offset and length, and whether its file is Claude Code's.
/// It is read again if it is decoded.
type Waiting = (Option<i64>, usize, u32, u64, usize, bool);

fn waiting_line(time: Option<i64>, raw: &scan::RawLine<'_>) -> Waiting {
    let len = raw.bytes.len();
    (time, raw.file, raw.line, raw.offset, len, raw.claude)
}

/// The first lines of the files of a search in another format than
/// Claude Code's, read once each, for the lines read apart from them
/// (see [`crate::source::header_of`]).
#[derive(Default)]
struct Headers(Mutex<HashMap<u64, Option<std::sync::Arc<[u8]>>>>);

impl Headers {
    /// `f`'s first line when it is in another format; `claude`: the file
    /// is known to be Claude Code's (nothing is read).
    fn of(&self, f: &SearchFile, claude: bool) -> Option<std::sync::Arc<[u8]>> {
        if claude {
            return None;
        }
        if let Ok(m) = self.0.lock()
            && let Some(h) = m.get(&f.path_hash)
        {
            return h.clone();
        }
        let h: Option<std::sync::Arc<[u8]>> = crate::source::header_of(&f.path).map(Into::into);
        if let Ok(mut m) = self.0.lock() {
            m.insert(f.path_hash, h.clone());
        }
        h
    }

    /// `f`'s first line when its name says it may be in another format.
    fn of_named(&self, f: &SearchFile) -> Option<std::sync::Arc<[u8]>> {
        self.of(f, !crate::source::may_be_other_format(&f.path))
    }
}

/// The newest `opts.limit` hits in `files`. With `wait`, the lines of
/// prompts and answers that hold every term are decoded only if they can
/// be among them (a common word is on most lines; decoding each was most
/// of a search); `None` when a line was newer than it said.
fn scan_files(
    files: &[SearchFile],
    query: &Query,
    filter: &Filter,
    opts: &Options,
    wait: bool,
) -> io::Result<Option<Found>> {
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
    let limit = opts.limit.max(1);
    let test = scan::RawTest::new(query).map_err(io::Error::other)?;
    let hits: Mutex<(Vec<Hit>, copies::Copies)> = Mutex::default();
    let waiting: Mutex<Vec<Waiting>> = Mutex::new(Vec::new());
    let headers = Headers::default();
    // once `limit` hits are in, the time of the oldest of them: a line
    // older holds nothing to show, nor does a file last written before
    let cutoff = AtomicI64::new(i64::MIN);
    // hits found in all; lines or files not read for being older
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let (passed_over, broken) = (AtomicBool::new(false), AtomicBool::new(false));
    let add = |f: &SearchFile, found: Vec<(Hit, Option<extract::Copy>)>| {
        if found.is_empty() {
            return;
        }
        if let Ok(mut g) = hits.lock() {
            let (h, copies) = &mut *g;
            let (n, oldest) = gather((h, copies), f, found, limit);
            seen.fetch_add(n, Relaxed);
            if let Some(oldest) = oldest {
                cutoff.store(oldest, Relaxed);
            }
        }
    };
    let older = |t: Option<i64>| {
        let c = cutoff.load(Relaxed);
        c > i64::MIN && t.is_none_or(|t| t < c)
    };
    // the lines of the files read, decoded newest first (of all files) by
    // whichever thread is free, outside any lock, until what is left is
    // older than `limit` hits (the cutoff only grows: a stale one reads
    // more). The newest hits of a common word are often all in one file:
    // its lines are decoded on every core.
    let ready: Mutex<std::collections::BinaryHeap<Waiting>> = Mutex::default();
    let held = limit.saturating_mul(2).max(4096);
    // A line is decoded before the files still being read only when it is
    // newer than any of them (their lines are no newer than their mtime):
    // else their lines may be the newest hits, and decoding it was for
    // nothing. A file read while a newer one was still being read decoded
    // its lines first (300 lines for 200 hits of "error"). No more lines
    // are put off than may wait for their file's end (`held`): past
    // that they are decoded newest first, as before, and the hits found
    // leave the older ones out (a big newest file read on one thread
    // while the other read every other file put off all their lines).
    let unread = Unread::new(files);
    // `anyway`: decode what is left whatever its age (no file to read)
    let decode = |anyway: bool| {
        let mut open = OpenFiles::default();
        loop {
            // everything is read again anyway, or the answer is not wanted
            if broken.load(Relaxed) || opts.superseded() {
                return;
            }
            let next = ready.lock().ok().and_then(|mut r| {
                let w = r.peek()?;
                if older(w.0) {
                    // the newest left is older: so is every other
                    passed_over.store(true, Relaxed);
                    r.clear();
                    return None;
                }
                if !anyway
                    && r.len() < held
                    && unread
                        .newest_ms()
                        .is_some_and(|m| w.0.is_none_or(|t| t < m))
                {
                    return None;
                }
                r.pop()
            });
            let Some((time, file, line, offset, len, claude)) = next else {
                return;
            };
            let Some(f) = files.get(file) else { continue };
            let Some(handle) = open.get(file as u64, &f.path) else {
                continue;
            };
            let header = headers.of(f, claude);
            let at = (offset, len, line);
            let Some(found) = check_waiting(handle, at, (f, header.as_deref()), query, filter)
            else {
                // the file changed under the search: read it all again
                broken.store(true, Relaxed);
                continue;
            };
            if found.iter().any(|(h, _)| h.timestamp > time) {
                broken.store(true, Relaxed);
            }
            add(f, found);
        }
    };
    let settle = |batch: Vec<Waiting>, anyway: bool| {
        if let Ok(mut r) = ready.lock() {
            r.extend(batch);
        }
        decode(anyway);
    };
    let sink = |raw: scan::RawLine<'_>| {
        let Some(f) = files.get(raw.file) else { return };
        // a command's output as it ran holds words but shows none
        if crate::source::makes_no_entry(raw.bytes) {
            return;
        }
        // a line waits for the end of its file (or of a batch), which
        // decodes the newest first: a file's newest hits are its last
        // lines, and decoding lines as they came (its first ones first)
        // decoded every line newer than the hits found before it
        let own_time = if raw.claude {
            crate::source::own_time
        } else {
            crate::source::own_time_enveloped
        };
        let Some(time) = wait.then(|| own_time(raw.bytes)).flatten() else {
            let bytes = extract::Unshown::new(raw.bytes);
            if !test.shown_nowhere(&bytes, raw.claude) {
                let header = headers.of(f, raw.claude);
                let found = check_decoded((&bytes, header.as_deref()), raw.line, f, query, filter);
                add(f, found);
            }
            return;
        };
        if older(time) {
            passed_over.store(true, Relaxed);
            return;
        }
        // asked while the line is at hand: a line that holds no hit is
        // not read again
        if test.shown_nowhere(&extract::Unshown::new(raw.bytes), raw.claude) {
            return;
        }
        let full = waiting.lock().ok().and_then(|mut w| {
            w.push(waiting_line(time, &raw));
            // what is held waiting is bounded (by what it was when only
            // lines newer than `limit` hits waited, for a large `limit`)
            (w.len() >= held).then(|| std::mem::take(&mut *w))
        });
        if let Some(batch) = full {
            settle(batch, false);
        }
    };
    // a file read: its lines are settled while it is in the page cache,
    // and their hits set the cutoff the next files are read by
    let done = |file: usize| {
        let batch: Vec<Waiting> = waiting
            .lock()
            .map(|mut w| w.extract_if(.., |l| l.1 == file).collect())
            .unwrap_or_default();
        unread.read(file);
        settle(batch, false);
    };
    let enough = |f: &SearchFile| {
        if opts.superseded() {
            return true;
        }
        let done = f.mtime_ns / 1_000_000 < cutoff.load(Relaxed);
        if done {
            passed_over.store(true, Relaxed);
        }
        done
    };
    scan::scan(files, &test, opts.threads, &sink, &enough, &done, &|| {
        decode(true)
    });
    settle(waiting.into_inner().unwrap_or_default(), true);
    if broken.load(Relaxed) {
        return Ok(None);
    }
    let (mut hits, _) = hits.into_inner().unwrap_or_default();
    newest_first(&mut hits);
    let more = seen.load(Relaxed) > opts.limit || passed_over.load(Relaxed);
    hits.truncate(opts.limit);
    Ok(Some(Found {
        hits,
        via: Via::Scan,
        more,
        note: None,
    }))
}

/// Adds the hits of a line of `f` to `h` (copies left out): how many
/// that added, and, when `h` was cut to the newest `limit`, the time of
/// the oldest kept (no older line holds a hit to show).
fn gather(
    (h, copies): (&mut Vec<Hit>, &mut copies::Copies),
    f: &SearchFile,
    found: Vec<(Hit, Option<extract::Copy>)>,
    limit: usize,
) -> (usize, Option<i64>) {
    let before = h.len();
    let n = found.len();
    let gone = copies.add_to(h, f.path_hash, found);
    // sorted when `limit` are first in, then every half `limit` more: the
    // cutoff follows without a sort per hit
    let step = (limit / 2).max(1);
    let mut oldest = None;
    if h.len() >= limit && (before < limit || h.len() >= limit + step) {
        newest_first(h);
        h.truncate(limit);
        oldest = Some(h[limit - 1].timestamp.unwrap_or(i64::MIN));
    }
    (n.saturating_sub(gone), oldest)
}

/// The files of a search not yet read whole (newest first): their lines
/// are no newer than their mtime.
struct Unread<'f> {
    files: &'f [SearchFile],
    read: Vec<std::sync::atomic::AtomicBool>,
    /// No file before it is left to read.
    first: std::sync::atomic::AtomicUsize,
}

impl<'f> Unread<'f> {
    fn new(files: &'f [SearchFile]) -> Self {
        Unread {
            files,
            read: files.iter().map(|_| Default::default()).collect(),
            first: Default::default(),
        }
    }

    fn read(&self, file: usize) {
        if let Some(r) = self.read.get(file) {
            r.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The mtime (ms) of the newest file not read whole.
    fn newest_ms(&self) -> Option<i64> {
        use std::sync::atomic::Ordering::Relaxed;
        let mut i = self.first.load(Relaxed);
        while self.read.get(i).is_some_and(|r| r.load(Relaxed)) {
            i += 1;
        }
        self.first.fetch_max(i, Relaxed);
        self.files.get(i).map(|f| f.mtime_ns / 1_000_000)
    }
}

fn newest_first(hits: &mut [Hit]) {
    hits.sort_by(|a, b| {
        b.timestamp
            .cmp(&a.timestamp)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
    });
}

/// The index's spans, newest first, read and checked against their text
/// until no span left can hold a hit newer than the `limit` found. They
/// are taken in batches of the newest (a batch ends after the last span
/// of its time), each batch put in order: the order of all of them
/// sorted at once, without sorting them all.
fn check_candidates(
    ix: &index::SearchIndex,
    mut ranked: index::Ranked,
    files: &[SearchFile],
    (query, filter): (&Query, &Filter),
    limit: usize,
    threads: usize,
) -> Found {
    let by_id = ix.files_by_id();
    // 20,000 paths at each query: by a hash of each made from its bytes
    // (std's walks a path a byte at a time); two files of one hash (64
    // bits: never seen) are told apart by a look at every file
    let mut wanted: rustc_hash::FxHashMap<u64, &SearchFile> = Default::default();
    wanted.reserve(files.len());
    for f in files {
        wanted.entry(f.path_hash).or_insert(f);
    }
    let wanted_file = |p: &Path| match wanted.get(&crate::catalog::files::path_hash(p)) {
        Some(f) if f.path == p => Some(*f),
        Some(_) => files.iter().find(|f| f.path == p),
        None => None,
    };
    // a span whose newest entry is older than `--since` holds none newer
    ranked.spans.retain(|&(ts, _)| filter.keeps_time(ts));
    let found = Mutex::new(Gathered::default());
    let headers = Headers::default();
    let raw = scan::RawTest::of(query);
    let (mut at, mut batch) = (0, 64);
    'batches: while at < ranked.spans.len() {
        let end = at + newest_batch(&mut ranked.spans[at..], batch);
        let mut spans: Vec<index::Span> = ranked.spans[at..end]
            .iter()
            .filter_map(|m| ranked.span(m))
            .collect();
        spans.sort_by(|a, b| {
            b.timestamp
                .cmp(&a.timestamp)
                .then_with(|| a.file.cmp(&b.file))
                .then_with(|| a.offset.cmp(&b.offset))
        });
        (at, batch) = (end, batch.saturating_mul(2));
        // the batch's spans read in groups on every core, each group's
        // hits taken in the spans' order; no group whose newest span is
        // older than the `limit` hits found (a word of parts, whose
        // every part is common, reads most spans: one core read them all)
        let mut rest = &spans[..];
        let mut group = threads.max(1) * 4;
        while let Some(first) = rest.first() {
            // every hit of this span and all after it is older than the
            // `limit` newest found
            if found
                .lock()
                .is_ok_and(|mut g| g.older(first.timestamp, limit))
            {
                break 'batches;
            }
            let (now, later) = rest.split_at(group.min(rest.len()));
            (rest, group) = (later, (group * 2).min(1024));
            let jobs: Vec<(&index::Span, &SearchFile)> = now
                .iter()
                .filter_map(|s| Some((s, by_id.get(&s.file).and_then(|(p, _)| wanted_file(p))?)))
                .collect();
            let to = (&found, limit);
            spans_read(&jobs, threads, &headers, (query, filter), raw.as_ref(), to);
        }
    }
    let Gathered {
        mut hits,
        mut copies,
        mut more,
        ..
    } = found.into_inner().unwrap_or_default();
    // a file's last line without its newline is not in the index (a line
    // being written is indexed when it ends; a file can end so for good):
    // read where it is, as a search of the files would
    for (path, st) in by_id.values() {
        if st.bytes >= st.size {
            continue;
        }
        if let Some(sf) = wanted_file(path).filter(|sf| sf.size > st.bytes) {
            let header = headers.of_named(sf);
            let found = unindexed_tail((sf, header.as_deref()), st, query, filter, raw.as_ref());
            copies.add_to(&mut hits, sf.path_hash, found);
        }
    }
    newest_first(&mut hits);
    more |= hits.len() > limit;
    hits.truncate(limit);
    Found {
        hits,
        via: Via::Index,
        more,
        note: None,
    }
}

/// The hits an indexed search found so far (copies left out), and
/// whether some were left out for their age.
#[derive(Default)]
struct Gathered {
    hits: Vec<Hit>,
    copies: copies::Copies,
    edge: Edge,
    more: bool,
}

impl Gathered {
    /// Whether a span whose newest entry is of `time` holds no hit among
    /// the `limit` newest: every one of its hits is older than the
    /// `limit` found (noted: there are more).
    fn older(&mut self, time: Option<i64>, limit: usize) -> bool {
        let older = self.edge.of(&self.hits, limit).is_some_and(|e| time < e);
        self.more |= older;
        older
    }

    fn add(&mut self, sf: &SearchFile, found: Vec<(Hit, Option<extract::Copy>)>) {
        if !found.is_empty() {
            self.copies.add_to(&mut self.hits, sf.path_hash, found);
            self.edge.changed();
        }
    }
}

/// The spans of `jobs` (newest first) read on `threads` threads, their
/// hits added to `found` as each is read; a span older than the `limit`
/// hits found by then is passed over (a group of spans was read whole:
/// a common word's newest hits, in its first spans, read as many again
/// for nothing, more on more cores, whose groups are bigger).
fn spans_read(
    jobs: &[(&index::Span, &SearchFile)],
    threads: usize,
    headers: &Headers,
    (query, filter): (&Query, &Filter),
    raw: Option<&scan::RawTest>,
    (found, limit): (&Mutex<Gathered>, usize),
) {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut open = OpenFiles::default();
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(&(span, sf)) = jobs.get(i) else {
                break;
            };
            if found
                .lock()
                .is_ok_and(|mut g| g.older(span.timestamp, limit))
            {
                // (the spans are newest first: so is every one after it)
                break;
            }
            let Some(file) = open.get(span.file, &sf.path) else {
                continue;
            };
            // (no more than the file holds: a damaged index's length
            // reserves nothing)
            let len = span.len.min(sf.size.saturating_sub(span.offset));
            let Ok(bytes) = read_span(file, span.offset, len) else {
                continue;
            };
            let header = headers.of_named(sf);
            let piece = crate::catalog::pieces::Piece {
                bytes: &bytes,
                offset: span.offset,
                line: span.line,
            };
            let hits = span_hits(&piece, (sf, header.as_deref()), query, filter, raw);
            if !hits.is_empty()
                && let Ok(mut g) = found.lock()
            {
                g.add(sf, hits);
            }
        }
    };
    let threads = threads.clamp(1, jobs.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    // a span ccv fails to read costs its hits, not the search
                    let _ = crate::contain::contain(work);
                });
            }
        });
    }
}

/// The hits of a span's lines: those that hold every term (`raw`, when
/// the query has words) are decoded and checked, as a search without
/// the index reads them.
fn span_hits(
    piece: &crate::catalog::pieces::Piece<'_>,
    (sf, header): (&SearchFile, Option<&[u8]>),
    query: &Query,
    filter: &Filter,
    raw: Option<&scan::RawTest>,
) -> Vec<(Hit, Option<extract::Copy>)> {
    // (a file in another format has its first line at hand)
    let claude = header.is_none();
    let mut found = Vec::new();
    let mut check = |line: &[u8], n: u32| {
        if line.is_empty() || crate::source::makes_no_entry(line) {
            return;
        }
        let line = extract::Unshown::new(line);
        if raw.is_some_and(|r| r.shown_nowhere(&line, claude)) {
            return;
        }
        found.extend(check_decoded((&line, header), n, sf, query, filter));
    };
    match raw {
        Some(r) => r.lines_in(piece, claude, &mut |l| check(l.bytes, l.line)),
        None => {
            for (i, line) in piece.bytes.split(|&b| b == b'\n').enumerate() {
                check(line, piece.line.saturating_add(i as u32));
            }
        }
    }
    found
}

/// The time of the `limit`-th newest hit found, once `limit` are: what a
/// span must reach to hold one of the newest. Found again only when hits
/// were added.
#[derive(Default)]
struct Edge {
    known: Option<Option<i64>>,
    times: Vec<Option<i64>>,
}

impl Edge {
    fn changed(&mut self) {
        self.known = None;
    }

    fn of(&mut self, hits: &[Hit], limit: usize) -> Option<Option<i64>> {
        if hits.len() < limit || limit == 0 {
            return None;
        }
        if self.known.is_none() {
            self.times.clear();
            self.times.extend(hits.iter().map(|h| h.timestamp));
            let (_, nth, _) = self
                .times
                .select_nth_unstable_by_key(limit - 1, |t| std::cmp::Reverse(*t));
            self.known = Some(*nth);
        }
        self.known
    }
}

/// The hits in what follows the indexed part of `sf` (`st.bytes` on):
/// its last line, not ended by a newline.
fn unindexed_tail(
    (sf, header): (&SearchFile, Option<&[u8]>),
    st: &index::FileState,
    query: &Query,
    filter: &Filter,
    raw: Option<&scan::RawTest>,
) -> Vec<(Hit, Option<extract::Copy>)> {
    let mut hits = Vec::new();
    let len = sf.size.saturating_sub(st.bytes);
    let Ok(mut pieces) =
        crate::catalog::pieces::Pieces::open(&sf.path, st.bytes, st.lines + 1, len, 8 << 20, true)
    else {
        return hits;
    };
    while let Ok(Some(p)) = pieces.next_piece() {
        for (i, bytes) in p.bytes.split(|&b| b == b'\n').enumerate() {
            if bytes.is_empty() || raw.is_some_and(|r| !r.holds(bytes)) {
                continue;
            }
            hits.extend(check_line(
                (bytes, header),
                p.line + i as u32,
                sf,
                query,
                filter,
            ));
        }
    }
    hits
}

/// Puts the newest `want` entries of `rest` first (and every other entry
/// of the oldest time among them), and says how many: a batch of a
/// search, found without sorting every match (a common word matches
/// most of the index).
fn newest_batch(rest: &mut [index::Match], want: usize) -> usize {
    let key = |e: &index::Match| std::cmp::Reverse(e.0);
    let want = want.max(1);
    if rest.len() <= want {
        return rest.len();
    }
    rest.select_nth_unstable_by_key(want - 1, key);
    let Some(edge) = rest[..want].iter().map(key).max() else {
        return want;
    };
    let mut end = want;
    for i in want..rest.len() {
        if key(&rest[i]) == edge {
            rest.swap(i, end);
            end += 1;
        }
    }
    end
}

/// The line at `offset`, without its newline (at most `LINE_CAP`).
/// Files opened to read lines back from, by id, a few at a time: a
/// search with a big `--limit` reaches thousands of files, more than a
/// process may hold open (with all of them kept, an indexed search of
/// 5,000 hits under `ulimit -n 128` found 945).
#[derive(Default)]
struct OpenFiles {
    open: HashMap<u64, std::fs::File>,
}

impl OpenFiles {
    const MOST: usize = 64;

    /// The file `id` at `path`, opened if need be (only a regular file: one
    /// swapped for a FIFO since it was listed must not block).
    fn get(&mut self, id: u64, path: &Path) -> Option<&mut std::fs::File> {
        if !self.open.contains_key(&id) {
            if self.open.len() >= Self::MOST {
                self.open.clear();
            }
            let f = crate::model::session::open_regular(path).ok()?;
            self.open.insert(id, f);
        }
        self.open.get_mut(&id)
    }
}

thread_local! {
    /// The line a decoding thread reads, in the same pages each time: a
    /// buffer of its own for each line touched fresh pages for each (a
    /// page fault costs 4-5 µs here; these were an eighth of a first
    /// search's faults).
    static LINE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What a thread's [`LINE`] keeps between lines (a longer one's pages go
/// back).
const KEPT_LINE: usize = 1 << 20;

/// The hits of the waiting line of `len` bytes at `offset` of `handle`
/// (line number `line` of `f`), read into this thread's [`LINE`]; `None`:
/// the file no longer has that line there.
fn check_waiting(
    handle: &mut std::fs::File,
    (offset, len, line): (u64, usize, u32),
    (f, header): (&SearchFile, Option<&[u8]>),
    query: &Query,
    filter: &Filter,
) -> Option<Vec<(Hit, Option<extract::Copy>)>> {
    LINE.with_borrow_mut(|bytes| {
        let read = read_line_into(handle, offset, len, bytes).unwrap_or(false);
        // with its end: the model takes a whole line where it lies, where
        // it copied a last line without one to hold it until the end
        bytes.push(b'\n');
        let found = read.then(|| check_line((bytes, header), line, f, query, filter));
        if bytes.capacity() > KEPT_LINE {
            *bytes = Vec::new();
        }
        found
    })
}

/// Reads the line of `len` bytes at `offset` into `out`, at once (`false`:
/// the line there is not that long any more).
fn read_line_into(
    f: &mut std::fs::File,
    offset: u64,
    len: usize,
    out: &mut Vec<u8>,
) -> io::Result<bool> {
    f.seek(SeekFrom::Start(offset))?;
    // the line and what ends it
    out.clear();
    out.reserve(len.saturating_add(1));
    let got = f.take(len as u64 + 1).read_to_end(out)?;
    let ends = got == len || (got == len + 1 && out.get(len) == Some(&b'\n'));
    if !ends || memchr::memchr(b'\n', out.get(..len.min(got)).unwrap_or_default()).is_some() {
        return Ok(false);
    }
    out.truncate(len);
    Ok(true)
}

/// The `len` bytes of a span at `offset` (fewer if the file is shorter).
fn read_span(f: &mut std::fs::File, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    f.seek(SeekFrom::Start(offset))?;
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0).min(64 << 20));
    f.take(len).read_to_end(&mut out)?;
    Ok(out)
}

/// The entries of one line that match, each with its line's copy key.
fn check_line(
    (bytes, header): (&[u8], Option<&[u8]>),
    line: u32,
    f: &SearchFile,
    query: &Query,
    filter: &Filter,
) -> Vec<(Hit, Option<extract::Copy>)> {
    check_decoded(
        (&extract::Unshown::new(bytes), header),
        line,
        f,
        query,
        filter,
    )
}

/// The hits of `line`, decoded without what no entry of it shows.
fn check_decoded(
    (bytes, header): (&extract::Unshown<'_>, Option<&[u8]>),
    line: u32,
    f: &SearchFile,
    query: &Query,
    filter: &Filter,
) -> Vec<(Hit, Option<extract::Copy>)> {
    entries(&bytes.shown(), line, header)
        .into_iter()
        .filter(|e| e.line == line)
        .filter(|e| filter.keeps_kind(e.kind) && filter.keeps_time(e.timestamp))
        .filter(|e| query.matches(&e.text))
        .map(|mut e| (hit(&e, f, query), e.copy.take()))
        .collect()
}

fn hit(e: &Entry, f: &SearchFile, query: &Query) -> Hit {
    let (snippet, mark) = snippet(&e.text, query);
    let marks = all_marks(&snippet, &mark, query);
    Hit {
        file: f.path.clone(),
        session: f.session.clone(),
        line: e.line,
        kind: e.kind,
        timestamp: e.timestamp,
        snippet,
        mark,
        marks,
    }
}

/// The query's ranges in `snippet` with `first` (found in the whole text,
/// before white space was folded) among them.
fn all_marks(snippet: &str, first: &Range<usize>, query: &Query) -> Vec<Range<usize>> {
    let mut marks = query.ranges(snippet);
    if !first.is_empty()
        && !marks
            .iter()
            .any(|m| m.start <= first.start && first.end <= m.end)
    {
        marks.retain(|m| m.end <= first.start || first.end <= m.start);
        let at = marks.partition_point(|m| m.start < first.start);
        marks.insert(at, first.clone());
    }
    marks
}

/// One line of safe text around the first match: some words before, more
/// after, white space folded.
pub fn snippet(text: &str, query: &Query) -> (String, Range<usize>) {
    let Some(first) = query.first_range(text) else {
        return (one_line(&crate::model::text::fit_end(text, 100)), 0..0);
    };
    let before = &text[..first.start];
    let cut = before.char_indices().rev().nth(40).map_or(0, |(i, _)| i);
    let after_end = text[first.end..]
        .char_indices()
        .nth(80)
        .map_or(text.len(), |(i, _)| first.end + i);
    let lead = if cut > 0 { "…" } else { "" };
    let tail = if after_end < text.len() { "…" } else { "" };
    let a = one_line(&text[cut..first.start]);
    let m = one_line(&text[first.start..first.end]);
    let b = one_line(&text[first.end..after_end]);
    let a = format!("{lead}{}", a.trim_start());
    let start = a.len();
    (
        format!("{a}{m}{}{tail}", b.trim_end()),
        start..start + m.len(),
    )
}

fn one_line(s: &str) -> String {
    let safe = crate::model::text::sanitize(s);
    let mut out = String::with_capacity(safe.len());
    let mut space = false;
    for c in safe.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::newest_batch;

    /// Numbers that look random and are the same on every run.
    pub(super) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut rng = crate::model::test_rng::Rng::new(seed);
        move || rng.next_u64()
    }

    /// Batch after batch, the entries come as a full sort by time gives
    /// them, a batch ending after the last entry of its oldest time.
    #[test]
    fn batches_are_the_sorted_spans_in_runs() {
        let mut next = xorshift(7);
        for n in [0usize, 1, 5, 300, 5000] {
            let entries: Vec<super::index::Match> = (0..n)
                .map(|i| {
                    let ts = match next() % 10 {
                        0 => None,
                        _ => Some((next() % 50) as i64),
                    };
                    (ts, tantivy::DocAddress::new(0, i as u32))
                })
                .collect();
            let mut sorted = entries.clone();
            sorted.sort_by_key(|e| std::cmp::Reverse(e.0));
            let mut rest = entries;
            let (mut at, mut want) = (0, 7);
            while at < rest.len() {
                let end = at + newest_batch(&mut rest[at..], want);
                assert!(end > at);
                let mut got: Vec<_> = rest[at..end].to_vec();
                got.sort_by_key(|e| (std::cmp::Reverse(e.0), e.1.doc_id));
                let mut expected: Vec<_> = sorted[at..end].to_vec();
                expected.sort_by_key(|e| (std::cmp::Reverse(e.0), e.1.doc_id));
                assert_eq!(got, expected, "{n} entries, batch at {at}");
                // a batch ends where the time changes
                if end < rest.len() {
                    assert_ne!(sorted[end].0, sorted[end - 1].0);
                    assert!(end - at >= want);
                }
                (at, want) = (end, want * 2);
            }
        }
    }
}

#[cfg(test)]
mod waiting_tests {
    use super::*;

    /// A waiting line is read back whole, or not at all when the file no
    /// longer has a line of that length there.
    #[test]
    fn a_line_is_read_back_only_as_it_was() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("s.jsonl");
        std::fs::write(&p, "abc\ndefg\nxy").expect("write");
        let mut f = std::fs::File::open(&p).expect("open");
        let mut read = |at, len| {
            let mut out = b"left from before".to_vec();
            read_line_into(&mut f, at, len, &mut out)
                .expect("read")
                .then_some(out)
        };
        assert_eq!(read(0, 3).as_deref(), Some(&b"abc"[..]));
        assert_eq!(read(4, 4).as_deref(), Some(&b"defg"[..]));
        // the last line, without its newline
        assert_eq!(read(9, 2).as_deref(), Some(&b"xy"[..]));
        // shorter or longer than the line there, or past the end
        assert_eq!(read(4, 3), None);
        assert_eq!(read(0, 5), None);
        assert_eq!(read(9, 3), None);
        assert_eq!(read(20, 1), None);
        assert_eq!(read(0, 0), None);
    }

    /// Lines are read back from any number of files holding a few open at
    /// a time; a FIFO or a vanished file is no file.
    #[test]
    fn files_read_back_are_held_open_a_few_at_a_time() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut open = OpenFiles::default();
        for round in 0..2 {
            for i in 0..300u64 {
                let p = dir.path().join(format!("f{i}"));
                if round == 0 {
                    std::fs::write(&p, format!("line {i}\n")).expect("write");
                }
                let f = open.get(i, &p).expect("opened");
                assert_eq!(
                    read_span(f, 0, 100).expect("read"),
                    format!("line {i}\n").as_bytes()
                );
                assert!(open.open.len() <= OpenFiles::MOST);
            }
        }
        assert!(open.get(999, &dir.path().join("gone")).is_none());
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
            // SAFETY: mkfifo on a NUL-terminated path
            if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } == 0 {
                assert!(open.get(1000, &fifo).is_none());
            }
        }
    }

    /// Lines of prompts and answers left waiting and decoded only when
    /// they can show give the hits of decoding every line: with any
    /// limit, times out of file order, lines without a time, ties, and
    /// lines that hold the word only where the model does not read it.
    #[test]
    fn waiting_lines_give_the_hits_of_decoding_every_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut next = super::tests::xorshift(11);
        let mut files = Vec::new();
        for n in 0..12 {
            let path = dir.path().join(format!("s{n}.jsonl"));
            let mut text = String::new();
            for i in 0..40 {
                let time = match next() % 9 {
                    0 => String::new(),
                    k => format!(r#","timestamp":"2026-01-0{}T10:{:02}:00Z""#, k, next() % 3),
                };
                let word = if next().is_multiple_of(3) {
                    "apple"
                } else {
                    "pear"
                };
                text += &match next() % 5 {
                    0 => format!(
                        r#"{{"type":"user","uuid":"u{n}-{i}","message":{{"role":"user","content":"an {word} here"}}{time}}}"#
                    ),
                    1 => format!(
                        r#"{{"type":"assistant","uuid":"a{n}-{i}","message":{{"id":"m{n}-{i}","role":"assistant","model":"claude","content":[{{"type":"text","text":"the {word}"}}]}}{time}}}"#
                    ),
                    // the word only in what no entry shows
                    2 => format!(
                        r#"{{"type":"user","uuid":"k{n}-{i}","{word}":1,"message":{{"role":"user","content":"nothing"}}{time}}}"#
                    ),
                    3 => format!(
                        r#"{{"type":"system","uuid":"y{n}-{i}","content":"an {word} in a note","level":"info"{time}}}"#
                    ),
                    // an older entry joined to a newer one (`}{`)
                    _ => format!(
                        r#"{{"type":"user","uuid":"j{n}-{i}","message":{{"role":"user","content":"nothing"}},"timestamp":"2026-01-01T09:00:00Z"}}{{"type":"user","uuid":"w{n}-{i}","message":{{"role":"user","content":"an {word} joined"}}{time}}}"#
                    ),
                };
                text.push('\n');
            }
            std::fs::write(&path, text).expect("write");
            // one time for all, after every line (as a file's last write
            // is): no file is passed over for its age
            files.push(SearchFile::new(
                path.clone(),
                path,
                0,
                2_000_000_000_000_000_000,
            ));
        }
        for f in &mut files {
            f.size = std::fs::metadata(&f.path).expect("stat").len();
        }
        for limit in [1, 3, 10, 50, 400] {
            for threads in [1, 2] {
                let opts = Options {
                    index: None,
                    update: false,
                    limit,
                    threads,
                    superseded: None,
                    kept: None,
                };
                let query = Query::parse("apple", false).expect("query");
                let filter = Filter::default();
                let waited = scan_files(&files, &query, &filter, &opts, true)
                    .expect("scan")
                    .expect("no line newer than it says");
                let every = scan_files(&files, &query, &filter, &opts, false)
                    .expect("scan")
                    .expect("found");
                assert_eq!(waited.hits, every.hits, "limit {limit}, {threads} threads");
                assert!(!waited.hits.is_empty());
                if every.more {
                    assert!(waited.more, "limit {limit}");
                }
            }
        }
    }
}

#[cfg(test)]
mod superseded_tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

    /// A file of `lines` prompts that each hold `word`, dated in order.
    fn session(dir: &Path, name: &str, lines: usize, word: &str) -> SearchFile {
        let path = dir.join(name);
        let text: String = (0..lines)
            .map(|i| {
                format!(
                    "{{\"type\":\"user\",\"uuid\":\"u{i}\",\"timestamp\":\"2025-01-01T00:{:02}:{:02}Z\",\"message\":{{\"role\":\"user\",\"content\":\"a {word} {}\"}}}}\n",
                    i / 60 % 60,
                    i % 60,
                    "x".repeat(2000)
                )
            })
            .collect();
        std::fs::write(&path, text).expect("write");
        let size = std::fs::metadata(&path).expect("stat").len();
        SearchFile::new(path.clone(), path, size, i64::MAX)
    }

    /// An indexed search's spans, newest first, are passed over once the
    /// `limit` hits found are newer than a span's newest entry (and the
    /// search says there are more); until then, and for a span as new as
    /// the oldest of them, every span is read.
    #[test]
    fn spans_older_than_the_hits_found_are_passed_over() {
        let dir = tempfile::tempdir().expect("tmp");
        // 60 lines a second apart: the lines of second 0 to 59
        let sf = session(dir.path(), "s.jsonl", 60, "common");
        let text = std::fs::read(&sf.path).expect("read");
        let starts: Vec<u64> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &text).map(|p| p as u64 + 1))
            .collect();
        let second = 1000;
        let base = crate::model::time::parse_timestamp("2025-01-01T00:00:00Z").expect("time");
        // spans of 10 lines, the newest (its last line's time) first
        let spans: Vec<index::Span> = (0..6u64)
            .rev()
            .map(|k| index::Span {
                file: 1,
                line: (k * 10 + 1) as u32,
                offset: starts[(k * 10) as usize],
                len: starts[(k * 10 + 10) as usize] - starts[(k * 10) as usize],
                timestamp: Some(base + (k as i64 * 10 + 9) * second),
            })
            .collect();
        let jobs: Vec<(&index::Span, &SearchFile)> = spans.iter().map(|s| (s, &sf)).collect();
        let query = Query::words("common", false).expect("query");
        let raw = scan::RawTest::of(&query);
        let read = |limit: usize, threads: usize| {
            let found = Mutex::new(Gathered::default());
            let how = (&query, &Filter::default());
            spans_read(
                &jobs,
                threads,
                &Headers::default(),
                how,
                raw.as_ref(),
                (&found, limit),
            );
            let g = found.into_inner().expect("lock");
            (g.hits.len(), g.more)
        };
        // one thread: the first span's 10 hits are enough for 7, and for 10
        assert_eq!(read(7, 1), (10, true));
        assert_eq!(read(10, 1), (10, true));
        // 11 want the next span; 60, every span
        assert_eq!(read(11, 1), (20, true));
        assert_eq!(read(60, 1), (60, false));
        assert_eq!(read(500, 1), (60, false));
        // more threads may read a span or two more, never fewer hits
        for limit in [7, 11, 60] {
            let (hits, _) = read(limit, 3);
            assert!(hits >= limit.min(60) && hits <= 60, "{limit}: {hits}");
        }
    }

    /// A search whose query was followed by another reads nothing more
    /// and says nothing: its answer is not wanted.
    #[test]
    fn a_superseded_search_stops_at_once() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("projects");
        std::fs::create_dir_all(root.join("-p")).expect("mkdir");
        session(&root.join("-p"), "s.jsonl", 10, "apple");
        let query = Query::parse("apple", false).expect("query");
        let sent = Arc::new(AtomicU64::new(1));
        let mut opts = Options {
            index: None,
            update: false,
            limit: 200,
            threads: 1,
            superseded: Some(Superseded {
                sent: sent.clone(),
                this: 1,
            }),
            kept: None,
        };
        let found = search(&root, &query, &Filter::default(), &opts).expect("search");
        assert_eq!(found.hits.len(), 10);
        sent.store(2, Ordering::Relaxed);
        let found = search(&root, &query, &Filter::default(), &opts).expect("search");
        assert!(found.hits.is_empty());
        opts.superseded = None;
        assert_eq!(
            search(&root, &query, &Filter::default(), &opts)
                .expect("search")
                .hits
                .len(),
            10
        );
    }

    /// `enough` is asked after every piece of a file, not only before it:
    /// a file of many pieces is left as soon as it says so.
    #[test]
    fn a_file_is_left_after_the_piece_that_made_it_enough() {
        let dir = tempfile::tempdir().expect("tmp");
        // about 2 KB a line: 3,000 lines are six pieces
        let f = session(dir.path(), "big.jsonl", 3000, "apple");
        let query = Query::parse("apple", false).expect("query");
        let found = AtomicUsize::new(0);
        let asked = AtomicUsize::new(0);
        scan::scan(
            std::slice::from_ref(&f),
            &scan::RawTest::new(&query).expect("patterns"),
            1,
            &|_| {
                found.fetch_add(1, Ordering::Relaxed);
            },
            &|_| asked.fetch_add(1, Ordering::Relaxed) >= 1,
            &|_| {},
            &|| {},
        );
        let found = found.into_inner();
        assert!(found > 0 && found < 3000, "{found} lines found");
        assert_eq!(asked.into_inner(), 2);
    }
}
