//! A search the index answers: its spans read newest first, each line
//! that holds every term decoded and checked as a search of the files
//! checks it, until no span left can hold one of the newest hits.

use super::hits::{Headers, OpenFiles, check_decoded, check_line, newest_first};
use super::{Filter, Found, Hit, Via, copies, extract, index, scan};
use crate::catalog::files::SearchFile;
use crate::model::query::Query;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

/// The index's spans, newest first, read and checked against their text
/// until no span left can hold a hit newer than the `limit` found. They
/// are taken in batches of the newest (a batch ends after the last span
/// of its time), each batch put in order: the order of all of them
/// sorted at once, without sorting them all.
pub(super) fn check_candidates(
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
pub(super) struct Gathered {
    pub(super) hits: Vec<Hit>,
    copies: copies::Copies,
    edge: Edge,
    pub(super) more: bool,
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
pub(super) fn spans_read(
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
    // `saved`: the line holds a result saved apart, whose whole output
    // may show a term the line does not
    let mut check = |line: &[u8], n: u32, saved: bool| {
        if line.is_empty() || crate::source::makes_no_entry(line) {
            return;
        }
        let line = extract::Unshown::new(line);
        if !saved && raw.is_some_and(|r| r.shown_nowhere(&line, claude)) {
            return;
        }
        found.extend(check_decoded((&line, header), n, sf, query, filter));
    };
    match raw {
        Some(r) => r.lines_in((piece, &sf.path), claude, &mut |l| {
            check(l.bytes, l.line, l.saved);
        }),
        None => {
            for (i, line) in piece.bytes.split(|&b| b == b'\n').enumerate() {
                check(line, piece.line.saturating_add(i as u32), false);
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
            if bytes.is_empty()
                || raw.is_some_and(|r| !r.holds(bytes) && !r.holds_saved(bytes, &sf.path))
            {
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
pub(super) fn newest_batch(rest: &mut [index::Match], want: usize) -> usize {
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

/// The `len` bytes of a span at `offset` (fewer if the file is shorter).
pub(super) fn read_span(f: &mut std::fs::File, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    f.seek(SeekFrom::Start(offset))?;
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0).min(64 << 20));
    f.take(len).read_to_end(&mut out)?;
    Ok(out)
}
