//! Search across every session under a projects root: `ccv search` and
//! the picker's full-text mode. An index (see [`index`]) answers once it
//! exists; before, a raw scan (see [`scan`]) does. Either way each hit is
//! checked against the entry's text as the model reads it, with the rules
//! of [`Query`], so both ways find the same rows.

mod checked;
mod copies;
pub mod extract;
mod first;
mod hits;
pub mod index;
pub mod index_dir;
mod indexed;
pub mod kept;
pub mod output;
pub mod scan;
mod state;
mod word_blocks;
pub mod words;

use crate::catalog::files::{self, SearchFile};
use crate::model::Kind;
use crate::model::query::Query;
use first::scan_all;
pub use hits::snippet;
use indexed::check_candidates;
use std::collections::HashSet;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::indexed::newest_batch;

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
    use super::first::*;
    use super::hits::*;
    use super::indexed::*;
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
    use super::hits::*;
    use super::indexed::*;
    use super::*;
    use std::sync::Arc;
    use std::sync::Mutex;
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
