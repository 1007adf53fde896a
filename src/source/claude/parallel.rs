//! Reading a big file on every core. Decoding JSON is most of a load and
//! each line decodes on its own, while ingesting (pairing, threading,
//! figures) must follow the file's order. So worker threads each read a
//! chunk of the file at its offset and decode the lines that lie wholly
//! inside it, and the calling thread ingests the chunks in order, feeding
//! their bytes through the same splitter as any read
//! ([`Session::feed_decoded`]); rather than wait for a chunk, it decodes
//! one no worker has taken yet. A line decoded ahead is only a head start:
//! the splitter still decides what the lines are, and a line it hands out
//! otherwise (one that does not read cleanly, or in the viewer one that
//! spans two chunks) is decoded in place. A file in another format
//! (Codex's) has its lines parsed ahead as that format's instead; their
//! translation, which follows the file's order, stays with the ingest.

use super::decode::{decode_clean, decode_clean_text};
use super::raw::RawEntry;
use super::spanning::{Carry, Spanning, spanning_line};
use crate::model::session::{ReadAhead, Session};
use crate::model::stored::{fill_at, read_at};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// What one worker reads at a time: a chunk costs ~1 ms to decode (thread
/// hand-offs are noise), and the rows of a chunk are linked in one batch.
/// Half a MB: a chunk and its decoded lines then fit in a core's 1 MB
/// cache, and the chunks in flight hold half as much fresh memory (on
/// this VM a fresh page costs ~4 us to fault in and zero). With 1 MB
/// chunks, a 100 MB export took ~5% more CPU time (16 runs in turns:
/// 307 -> 293 ms median), a 1 GB one ~3% (3,301 -> 3,192 ms); with
/// 256 KB, the batches' passes cost more at 1 GB.
const CHUNK: usize = 1 << 19;

/// The viewer's chunks: the chunks in flight, with their decoded lines (a
/// `RawEntry` is 1.7 KB), are most of what a load holds beyond the session
/// itself, and the viewer keeps no more than it must. Its 100 MB session
/// peaked at 58 MB with 1 MB chunks, 50 MB with these; an export took 10%
/// longer with them (more batches), so the commands keep [`CHUNK`].
const VIEW_CHUNK: usize = 1 << 17;

/// How a file is read.
#[derive(Clone, Copy)]
struct Plan {
    /// The file's size when its load began: what the workers read.
    size: u64,
    chunk_len: usize,
    /// Whether a worker reads on to the end of the line its chunk ends
    /// inside of ([`spanning_line`]). The viewer does not: holding those
    /// lines as well, its load of a 100 MB session peaked 4 MB higher, for
    /// no time saved. (Reading on only the lines of a MB or more, which the
    /// splitter copies as they grow, spared 15 MB of a 50 MB line's load
    /// but cost 7 MB and a tenth of the time on 256 MB of lines of 1.5 to
    /// 9 MB, each then looked through twice; one of 16 MB or more, 3.5 MB.)
    read_on: bool,
    /// Whether the load holds its texts (else it leaves them in the file):
    /// the workers then decode the strings the ingest would otherwise
    /// decode on its one thread (see `model::json_str`).
    hold: bool,
    /// Whether calls are summarized (see `Session::keep_no_call_summaries`).
    summaries: bool,
    /// How many chunks per worker may be read ahead of the ingest. The
    /// viewer's two keep its memory small. With two, a command's ingest
    /// waited a tenth of its load: a worker finished the chunks after the
    /// one the ingest needed and had none to take while the other was
    /// still on it (1 GB export, 12 runs in turns: 1,946 -> 1,820 ms).
    ahead: u64,
    /// A file in another format: its lines are read ahead so (see
    /// [`crate::model::session::Translate::read_ahead`]), not decoded as
    /// Claude Code's, which its lines are not.
    read_ahead: Option<ReadAhead>,
}

/// How `source` is read, at `size` bytes.
fn plan_for(s: &Session, source: u16, size: u64, read_ahead: Option<ReadAhead>) -> Plan {
    let in_file = s
        .sources
        .get(source as usize)
        .is_some_and(|src| src.text_in_file);
    let lean = s.lean && in_file;
    Plan {
        size,
        chunk_len: if lean { VIEW_CHUNK } else { CHUNK },
        read_on: !lean,
        hold: !in_file || s.redacting,
        summaries: !s.no_call_summaries,
        ahead: if lean { 2 } else { 4 },
        read_ahead,
    }
}

/// How the lines of `f`, fed to `source` from its start, are read ahead
/// when it is in another format: as its first line says, read here when
/// the source has not seen it yet (the first line that is not blank, as
/// the source takes it: `Session::translated`). A line too long to say
/// leaves the lines to be read in place.
fn read_ahead_of(s: &Session, source: u16, f: &File) -> Option<ReadAhead> {
    let src = s.sources.get(source as usize)?;
    if src.sniffed {
        return src.translator.as_ref()?.read_ahead();
    }
    let mut head = vec![0u8; 256 << 10];
    let n = fill_at(f, &mut head, 0).ok()?;
    let head = head.get(..n)?;
    let mut at = 0;
    loop {
        let end = at + memchr::memchr(b'\n', head.get(at..)?)?;
        let line = head.get(at..end)?;
        if !line.trim_ascii().is_empty() {
            return crate::source::translator_for(line)?.read_ahead();
        }
        at = end + 1;
    }
}

/// Files up to this size are read on one thread: starting workers costs
/// more than they save.
const SMALL: u64 = 4 << 20;

/// The most objects a chunk decodes ahead. A decoded object is a 1.7 KB
/// entry, and a chunk of tiny lines (half a MB of `{}` lines is 175,000)
/// held 300 MB of them: with the chunks in flight, a load of a 10 MB file
/// of such lines peaked at 2.3 GB. A chunk of real lines (a few hundred
/// bytes to MBs each) has a few hundred; the lines past this are decoded
/// in place, as a line that does not read cleanly is.
const MOST_AHEAD: usize = 2048;

/// A line decoded ahead: where it starts in the stream, how long it is
/// (without its `\n` and a `\r` before it) and where its objects are in
/// its chunk's list ([`Decodes::entries`]). Only lines that read without a
/// problem are decoded ahead.
pub struct Ahead {
    pub offset: u64,
    pub len: usize,
    /// The address of the bytes decoded: where the entries' strings are
    /// (see `model::stored`).
    pub addr: usize,
    pub entries: std::ops::Range<usize>,
}

/// The lines of a chunk decoded ahead, and their objects in one list: a
/// list per line was an allocation of 1.6 KB per line, which the
/// allocator served from fresh memory as often as not (its page faults and
/// its own work were a tenth of the decoding threads' time). The list is
/// used again for a later chunk (see [`recycle`]).
///
/// A file in another format has its lines read ahead instead, in
/// [`Self::read`] (the two are not mixed in one list of lines).
#[derive(Default)]
pub struct Decodes<'a> {
    pub lines: Vec<Ahead>,
    pub entries: Vec<(RawEntry<'a>, &'a str)>,
    pub read: Vec<serde_json::Value>,
}

impl<'a> Decodes<'a> {
    /// The objects of line `k` of [`Self::lines`] (`None`: it was read
    /// ahead as another format's).
    pub fn entries_of(&mut self, k: usize) -> Option<&mut [(RawEntry<'a>, &'a str)]> {
        let range = self.lines.get(k)?.entries.clone();
        self.entries.get_mut(range)
    }

    /// Line `k` of [`Self::lines`] as read ahead in another format,
    /// taken (`None`: it was decoded as Claude Code's).
    pub fn take_read(&mut self, k: usize) -> Option<serde_json::Value> {
        let range = self.lines.get(k)?.entries.clone();
        self.read.get_mut(range)?.first_mut().map(std::mem::take)
    }
}

/// An emptied list of objects, kept for the objects of another chunk.
type Spare = Vec<(RawEntry<'static>, &'static str)>;

/// `entries` emptied, as a list that borrows nothing: its allocation is
/// kept (std collects into the same allocation when the element types have
/// one layout, as here; if it did not, the next chunk would allocate).
fn recycle(mut entries: Vec<(RawEntry<'_>, &str)>) -> Spare {
    entries.clear();
    // a map from no element to none, for the type: it borrows nothing
    #[allow(clippy::unnecessary_filter_map)]
    entries.into_iter().filter_map(|_| None).collect()
}

/// Bytes of the file as read, from `offset`.
pub(super) struct Chunk {
    pub(super) offset: u64,
    pub(super) bytes: Vec<u8>,
    /// [`Plan::hold`].
    pub(super) hold: bool,
    /// [`Plan::summaries`].
    pub(super) summaries: bool,
    /// [`Plan::read_ahead`].
    pub(super) read_ahead: Option<ReadAhead>,
}

type Lines<'a> = Decodes<'a>;

self_cell::self_cell!(
    /// A chunk and its lines decoded, which borrow from it.
    struct Decoded {
        owner: Chunk,
        #[covariant]
        dependent: Lines,
    }
);

/// What a worker hands back: a chunk, and the line it ends inside of.
struct Done {
    chunk: Decoded,
    spanning: Option<Spanning>,
}

/// A line to decode: its bytes, or its text when they are known to be UTF-8.
#[derive(Clone, Copy)]
pub(super) enum Line<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
}

/// A line's objects appended to `out`, if it reads without a problem, with
/// what the ingest would compute from them taken here; where they are in
/// `out`. The texts are decoded here too when the load holds them (see
/// [`Plan::hold`]).
fn decode_ahead<'a>(
    line: Line<'a>,
    c: &Chunk,
    out: &mut Vec<(RawEntry<'a>, &'a str)>,
) -> Option<std::ops::Range<usize>> {
    let start = out.len();
    let decoded = match line {
        Line::Bytes(b) => decode_clean(b, out),
        Line::Text(t) => decode_clean_text(t, out),
    };
    if !decoded {
        return None;
    }
    for (e, _) in out.get_mut(start..).unwrap_or_default() {
        // from the strings as written, as a line decoded in place
        super::ingest::digest(e, c.summaries);
        if c.hold {
            e.decode_texts();
        }
    }
    Some(start..out.len())
}

/// [`decode_ahead`], or the line read ahead in another format (its place
/// in `out.read`).
pub(super) fn ahead_of<'a>(
    line: Line<'a>,
    c: &Chunk,
    out: &mut Decodes<'a>,
) -> Option<std::ops::Range<usize>> {
    let Some(read) = c.read_ahead else {
        return decode_ahead(line, c, &mut out.entries);
    };
    let bytes = match line {
        Line::Bytes(b) => b,
        Line::Text(t) => t.as_bytes(),
    };
    out.read.push(read(bytes));
    Some(out.read.len() - 1..out.read.len())
}

fn decode(chunk: Chunk, spare: (Vec<Ahead>, Spare)) -> Decoded {
    // a panic here would leave the reading thread waiting for this chunk:
    // its lines are then decoded in place instead (and panic there, where
    // the load's caller catches it)
    Decoded::new(chunk, |c| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lines(c, spare)))
            .unwrap_or_default()
    })
}

/// The lines that start and end inside the chunk: not the piece before
/// its first newline (unless the chunk starts the file) nor the one after
/// its last.
fn lines(c: &Chunk, (mut aheads, spare): (Vec<Ahead>, Spare)) -> Lines<'_> {
    aheads.clear();
    let mut out = Decodes {
        lines: aheads,
        entries: spare,
        read: Vec::new(),
    };
    let Some(last) = memchr::memrchr(b'\n', &c.bytes) else {
        return out;
    };
    let mut at = 0;
    if c.offset > 0 {
        match memchr::memchr(b'\n', &c.bytes) {
            Some(first) => at = first + 1,
            None => return out,
        }
    }
    // one newline only: no line lies wholly inside
    let Some(inside) = c.bytes.get(at..last) else {
        return out;
    };
    // room for a list of the chunk's lines at once: growing it a step at a
    // time touched twice the memory (a list of a fresh chunk is ~1 MB).
    // The newlines are looked for once: where they are is kept for the
    // lines (counting them, then splitting, went over the chunk twice).
    let ends: Vec<usize> = memchr::memchr_iter(b'\n', inside)
        .chain(std::iter::once(inside.len()))
        .collect();
    let room = ends.len().min(MOST_AHEAD);
    match c.read_ahead {
        Some(_) => out.read.reserve_exact(room),
        None => room_for(&mut out.entries, room),
    }
    room_for(&mut out.lines, room);
    // UTF-8 checked for the chunk at once (a line at a time, the check was
    // a twentieth of decoding); a chunk that is not is checked by line (a
    // line read ahead in another format is checked by its parse)
    let text = c
        .read_ahead
        .is_none()
        .then(|| simdutf8::basic::from_utf8(inside).ok())
        .flatten();
    let base = at;
    let mut start = 0;
    for &end in &ends {
        if out.entries.len() + out.read.len() >= MOST_AHEAD {
            break;
        }
        let piece = inside.get(start..end).unwrap_or_default();
        start = end + 1;
        let line = piece.strip_suffix(b"\r").unwrap_or(piece);
        // a line starts and ends at a newline (or the chunk's end), both
        // boundaries of characters
        let line = match text.and_then(|t| t.get(at - base..at - base + line.len())) {
            Some(t) => Line::Text(t),
            None => Line::Bytes(line),
        };
        if let Some(entries) = ahead_of(line, c, &mut out) {
            let line = match line {
                Line::Bytes(b) => b,
                Line::Text(t) => t.as_bytes(),
            };
            out.lines.push(Ahead {
                offset: c.offset + at as u64,
                len: line.len(),
                addr: line.as_ptr() as usize,
                entries,
            });
        }
        at += piece.len() + 1;
    }
    out
}

/// Room for `n` elements in `v`, emptied for reuse. One too small is
/// dropped and made anew, with a quarter to spare: growing it would copy
/// its whole old allocation (the allocator does not know it is empty),
/// and a list of decoded lines is ~0.5 MB. A 100 MB export spent 1% of
/// its time growing them.
fn room_for<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        *v = Vec::new(); // freed first: the new one may take its place
        v.reserve_exact(n + n / 4);
    }
}

/// Feeds the whole of `f` (from its start) into `source`, as
/// [`Session::feed`] would, telling `progress` (bytes fed, size) after each
/// chunk. Big files are decoded on every core. An unfinished last line is
/// fed as it is: the caller flushes or finishes it.
pub fn read_file(
    s: &mut Session,
    source: u16,
    f: &File,
    progress: &mut dyn FnMut(u64, u64),
) -> std::io::Result<()> {
    let size = f.metadata().map_or(0, |m| m.len());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut fed = 0;
    s.in_batch(|s| {
        if cores > 1 && size > SMALL {
            let plan = plan_for(s, source, size, read_ahead_of(s, source, f));
            s.expect_lines(source, size);
            fed = read_parallel(s, source, f, cores.min(4), plan, progress)?;
        }
        // what is left: a small file, or what was appended while reading
        let mut rest = PositionalReader { f, at: fed };
        read_sequential(s, source, &mut rest, &mut |n| progress(fed + n, size))
    })
}

/// Reads `f` from a given offset (without moving its cursor, which the
/// workers share).
struct PositionalReader<'a> {
    f: &'a File,
    at: u64,
}

impl Read for PositionalReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = read_at(self.f, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// The chunks up to `size`, read and decoded by `workers` threads and
/// ingested here in order. Returns how many bytes were fed; less than
/// `size` when the file shrank meanwhile.
fn read_parallel(
    s: &mut Session,
    source: u16,
    f: &File,
    workers: usize,
    plan: Plan,
    progress: &mut dyn FnMut(u64, u64),
) -> std::io::Result<u64> {
    let Plan {
        size, chunk_len, ..
    } = plan;
    let chunks = size.div_ceil(chunk_len as u64);
    std::thread::scope(|scope| {
        let (work_tx, work_rx) = channel::<u64>();
        let work_rx = Arc::new(Mutex::new(work_rx));
        let (done_tx, done_rx) = channel();
        let pool = Arc::new(Mutex::new(Vec::new()));
        let mut spawned = 0;
        for _ in 0..workers {
            let rx = Arc::clone(&work_rx);
            let tx = done_tx.clone();
            let pool = Arc::clone(&pool);
            let worker = std::thread::Builder::new()
                .name("ccv-decode".into())
                .spawn_scoped(scope, move || work(f, plan, &rx, &tx, &pool));
            if worker.is_err() {
                break; // out of threads: those there are do the work
            }
            spawned += 1;
        }
        drop(done_tx);
        if spawned == 0 {
            return Ok(0); // the caller reads it all in order
        }
        let mut ingest = InOrder {
            pool: Arc::clone(&pool),
            rx: done_rx,
            carry: None,
            jobs: Arc::clone(&work_rx),
            f,
            plan,
            early: BTreeMap::new(),
            next: 0,
        };
        // a few chunks ahead of the ingest at most, so memory stays small
        let ahead = plan.ahead * workers as u64;
        let mut sent = 0;
        let mut fed = 0;
        while ingest.next < chunks {
            while sent < chunks && sent < ingest.next + ahead {
                let _ = work_tx.send(sent);
                sent += 1;
            }
            let chunk = match ingest.next_blocking(s, source) {
                Ok(n) => n,
                Err(e) => {
                    ingest.release(s, source);
                    return Err(e);
                }
            };
            fed += chunk as u64;
            progress(fed, size);
            if chunk < chunk_len && ingest.next < chunks {
                break; // the file shrank: the rest is read in order
            }
        }
        drop(work_tx);
        // what is read on in order starts where the chunks ended
        ingest.release(s, source);
        Ok(fed)
    })
}

/// A worker: reads the chunks it is given and decodes them.
fn work(
    f: &File,
    plan: Plan,
    rx: &Mutex<Receiver<u64>>,
    tx: &Sender<std::io::Result<Done>>,
    pool: &Mutex<Vec<Decoded>>,
) {
    // on two cores, two workers and the ingest contend for them, and the
    // ingest, which everything waits for in the end, spent a quarter of a
    // 100 MB load waiting for a core (its load: 215 ms, 190 ms with this);
    // when the workers get no core at all (a busy machine), the ingest
    // decodes chunks itself (see [`InOrder::next_blocking`])
    crate::priority::helper();
    loop {
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(k) = job else { return };
        // every job taken is answered: the ingest waits for each in turn
        if tx.send(job_done(f, plan, k, pool)).is_err() {
            return;
        }
    }
}

/// Reads and decodes chunk `k`.
fn job_done(f: &File, plan: Plan, k: u64, pool: &Mutex<Vec<Decoded>>) -> std::io::Result<Done> {
    let offset = k * plan.chunk_len as u64;
    let want = (plan.size - offset).min(plan.chunk_len as u64) as usize;
    // a chunk the ingest is done with, dropped here rather than on the
    // ingesting thread; its buffer is read into again (fresh ones cost
    // page faults)
    let used = pool.lock().ok().and_then(|mut p| p.pop());
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (mut bytes, spare) = match used {
            Some(mut d) => {
                let spare = d.with_dependent_mut(|_, d| {
                    (
                        std::mem::take(&mut d.lines),
                        recycle(std::mem::take(&mut d.entries)),
                    )
                });
                (d.into_owner().bytes, spare)
            }
            None => Default::default(),
        };
        bytes.resize(want, 0);
        fill_at(f, &mut bytes, offset).map(|n| {
            bytes.truncate(n);
            let chunk = Chunk {
                offset,
                bytes,
                hold: plan.hold,
                summaries: plan.summaries,
                read_ahead: plan.read_ahead,
            };
            let spanning = plan
                .read_on
                .then(|| spanning_line(f, plan.size, &chunk))
                .flatten();
            Done {
                chunk: decode(chunk, spare),
                spanning,
            }
        })
    }))
    .unwrap_or_else(|_| Err(std::io::Error::other("internal error while reading")))
}

/// Decoded chunks arrive in any order; they are ingested in file order.
struct InOrder<'f> {
    pool: Arc<Mutex<Vec<Decoded>>>,
    rx: Receiver<std::io::Result<Done>>,
    /// The line the chunks fed last end inside of, decoded ahead.
    carry: Option<Carry>,
    /// The workers' queue: the ingest takes a job from it rather than wait.
    jobs: Arc<Mutex<Receiver<u64>>>,
    f: &'f File,
    plan: Plan,
    early: BTreeMap<u64, Done>,
    next: u64,
}

impl InOrder<'_> {
    /// Feeds the bytes of a line held from the chunks (the load stops).
    fn release(&mut self, s: &mut Session, source: u16) {
        if let Some(c) = &mut self.carry {
            c.release(s, source);
        }
    }

    /// Ingests the next chunk, waiting for it; its length.
    fn next_blocking(&mut self, s: &mut Session, source: u16) -> std::io::Result<usize> {
        while !self.early.contains_key(&self.next) {
            // rather than wait, decode a chunk no worker has taken yet: the
            // workers may be slow to get a core (a busy machine), and this
            // thread would only sit idle
            let job = match self.rx.try_recv() {
                Ok(d) => Some(d),
                Err(_) => self
                    .jobs
                    .try_lock()
                    .ok()
                    .and_then(|q| q.try_recv().ok())
                    .map(|k| job_done(self.f, self.plan, k, &self.pool)),
            };
            let d = match job {
                Some(d) => d,
                None => self
                    .rx
                    .recv()
                    .map_err(|_| std::io::Error::other("a reading thread stopped"))?,
            }?;
            self.early.insert(
                d.chunk.borrow_owner().offset / self.plan.chunk_len as u64,
                d,
            );
        }
        let Some(Done {
            chunk: mut d,
            spanning,
        }) = self.early.remove(&self.next)
        else {
            return Ok(0);
        };
        let (offset, len) = (d.borrow_owner().offset, d.borrow_owner().bytes.len());
        // the bytes of a line held from an earlier chunk (see `Carry`)
        let mut from = 0;
        if let Some(c) = self.carry.as_mut().filter(|c| c.holding()) {
            from = c.take(s, source, &d.borrow_owner().bytes);
        }
        let holding = self.carry.as_ref().is_some_and(Carry::holding);
        // the line this chunk ends inside of is held from its start
        let start = spanning
            .as_ref()
            .filter(|_| !holding)
            .and_then(|l| Carry::start_in(l, offset, &d.borrow_owner().bytes))
            .filter(|&start| start >= from);
        if !holding {
            let to = start.unwrap_or(len);
            match &mut self.carry {
                Some(c) => c.with_line(|line, span| {
                    d.with_dependent_mut(|chunk, lines| {
                        let bytes = chunk.bytes.get(from..to).unwrap_or_default();
                        s.feed_decoded(source, bytes, Some((line, span)), lines)
                    })
                }),
                None => d.with_dependent_mut(|chunk, lines| {
                    let bytes = chunk.bytes.get(from..to).unwrap_or_default();
                    s.feed_decoded(source, bytes, None, lines)
                }),
            }
        }
        // a line may span several chunks: it is kept until they are fed
        let end = offset + len as u64;
        if !holding {
            if let Some(line) = spanning {
                self.carry = Some(Carry::new(line, start.map_or(0, |st| len - st)));
            } else if self.carry.as_ref().is_some_and(|c| c.ends_by(end)) {
                self.carry = None;
            }
        }
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(d);
        }
        self.next += 1;
        Ok(len)
    }
}

/// Reads and feeds a chunk at a time, on this thread only; tells `fed`
/// how many bytes were fed so far.
pub fn read_sequential(
    s: &mut Session,
    source: u16,
    r: &mut dyn Read,
    fed: &mut dyn FnMut(u64),
) -> std::io::Result<()> {
    let chunk = plan_for(s, source, 0, None).chunk_len;
    let mut buf = Vec::with_capacity(chunk);
    let mut total = 0;
    loop {
        buf.clear();
        // `read_to_end` reads on until the limit or the end, and retries
        // interrupted reads
        (&mut *r).take(chunk as u64).read_to_end(&mut buf)?;
        s.feed(source, &buf);
        total += buf.len() as u64;
        fed(total);
        if buf.len() < chunk {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_emptied_list_keeps_its_allocation() {
        let line = br#"{"type":"user","uuid":"u1"}"#;
        let mut entries = Vec::new();
        assert!(super::decode_clean(line, &mut entries));
        entries.reserve(100);
        let (at, room) = (entries.as_ptr() as usize, entries.capacity());
        let spare = super::recycle(entries);
        assert!(spare.is_empty());
        assert_eq!((spare.as_ptr() as usize, spare.capacity()), (at, room));
    }

    /// A chunk of tiny lines, or of lines of many joined objects, holds a
    /// bounded number of decoded entries (the rest is decoded in place):
    /// unbounded, half a MB of `{}` lines held 300 MB.
    #[test]
    fn a_chunk_decodes_a_bounded_number_of_entries_ahead() {
        let most = super::MOST_AHEAD + 64;
        for line in [&b"{}"[..], &b"{}".repeat(50), &b"{}".repeat(500)] {
            let mut bytes = Vec::new();
            while bytes.len() < super::CHUNK {
                bytes.extend_from_slice(line);
                bytes.push(b'\n');
            }
            let chunk = super::Chunk {
                offset: 0,
                bytes,
                hold: false,
                summaries: false,
                read_ahead: None,
            };
            let d = super::lines(&chunk, Default::default());
            // (a line of more objects than a list takes is left whole)
            assert_eq!(d.lines.is_empty(), line.len() > 2 * 64);
            assert!(d.entries.len() <= most, "{}", d.entries.len());
            assert!(d.entries.capacity() <= 2 * most, "{}", d.entries.capacity());
        }
    }

    /// A file in another format has its lines read ahead as its format
    /// reads them, none decoded as Claude Code's, as many at most.
    #[test]
    fn a_chunk_of_another_format_is_read_ahead_in_it() {
        let line = br#"{"timestamp":"t","type":"event_msg","payload":{"type":"x"}}"#;
        let mut bytes = Vec::new();
        while bytes.len() < super::CHUNK {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        let read = crate::source::translator_for(line).and_then(|t| t.read_ahead());
        assert!(read.is_some());
        let chunk = super::Chunk {
            offset: 0,
            bytes,
            hold: false,
            summaries: false,
            read_ahead: read,
        };
        let mut d = super::lines(&chunk, Default::default());
        assert!(d.entries.is_empty());
        assert_eq!(d.read.len(), d.lines.len());
        assert_eq!(d.lines.len(), super::MOST_AHEAD);
        assert!(d.entries_of(0).is_none());
        let first = d.take_read(0).expect("read ahead");
        assert_eq!(first["payload"]["type"], "x");
    }
}
