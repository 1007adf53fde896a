//! A search before any index: every file's lines looked at raw, newest
//! file first, and only the lines that hold every term and can be among
//! the newest `--limit` hits decoded.

use super::hits::{Headers, OpenFiles, check_decoded, check_line, newest_first};
use super::{Filter, Found, Hit, Options, Via, copies, extract, scan};
use crate::catalog::files::SearchFile;
use crate::model::query::Query;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Mutex;

pub(super) fn scan_all(
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
pub(super) type Waiting = (Option<i64>, usize, u32, u64, usize, bool);

fn waiting_line(time: Option<i64>, raw: &scan::RawLine<'_>) -> Waiting {
    let len = raw.bytes.len();
    (time, raw.file, raw.line, raw.offset, len, raw.claude)
}

/// The newest `opts.limit` hits in `files`. With `wait`, the lines of
/// prompts and answers that hold every term are decoded only if they can
/// be among them (a common word is on most lines; decoding each was most
/// of a search); `None` when a line was newer than it said.
pub(super) fn scan_files(
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
            if raw.saved || !test.shown_nowhere(&bytes, raw.claude) {
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
        if !raw.saved && test.shown_nowhere(&extract::Unshown::new(raw.bytes), raw.claude) {
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
pub(super) fn gather(
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
pub(super) fn read_line_into(
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
