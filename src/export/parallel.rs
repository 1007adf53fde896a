//! An export written on every core: the rows are rendered a window at a
//! time by worker threads, into buffers this thread writes out in order,
//! so the bytes are those one thread writes. The windows are handed out as
//! the session is walked: rendering starts with the first window of rows,
//! not once every row is known (walking a 1 GB session took 27 ms with one
//! core idle).

use super::{
    Fitted, Format, Options, Row, push_json, push_json_redacted, visit_session, write_row,
    write_row_redacted,
};
use crate::model::session::Session;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Mutex, PoisonError};

/// Rows in a window: ~1 MB of output, enough work per job, and the few in
/// flight hold little.
const WINDOW: usize = 1024;

/// The largest buffer kept to render into again.
const SPARE_MOST: usize = 8 << 20;

type Rows<'s> = Vec<(Row<'s>, Option<&'s str>)>;

/// A window to render: its number, its rows and the buffer to render into.
type Job<'s> = (usize, Rows<'s>, Vec<u8>);

/// A window rendered (or why not), with its rows and buffer to use again.
type Done<'s> = (usize, Rows<'s>, io::Result<Vec<u8>>);

/// Writes every row of `session` (as [`visit_session`] walks them) in
/// `opts.format` with `threads` threads rendering.
pub(super) fn write_session(
    session: &Session,
    opts: &Options,
    threads: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let format = opts.format;
    // what each thread replaced, gathered for this thread's counts
    let redacted = Mutex::new((crate::redact::Counts::new(), Vec::new()));
    let render = |k: usize, rows: &Rows<'_>, buf: &mut Vec<u8>| -> io::Result<()> {
        buf.clear();
        if opts.redact {
            if format == Format::Json {
                let mut reader = session.take_reader();
                for (row, agent) in rows {
                    crate::redact::set_row(Some(row.place()));
                    push_json_redacted(session, &mut reader, *row, *agent, buf);
                }
                session.put_reader(reader);
            } else {
                for (i, (row, agent)) in rows.iter().enumerate() {
                    let first = k * WINDOW + i == 0;
                    let out = &mut Fitted(buf);
                    write_row_redacted(session, *row, *agent, format, first, true, out)?;
                }
            }
            let (counts, log) = (crate::redact::take_counts(), crate::redact::take_log());
            let mut r = redacted.lock().unwrap_or_else(PoisonError::into_inner);
            for (kind, n) in counts {
                *r.0.entry(kind).or_default() += n;
            }
            r.1.extend(log);
            return Ok(());
        }
        if format == Format::Json {
            let mut reader = session.take_reader();
            for (row, agent) in rows {
                // straight into the window, not a row's buffer copied there
                push_json(session, &mut reader, *row, *agent, buf);
            }
            session.put_reader(reader);
            return Ok(());
        }
        for (i, (row, agent)) in rows.iter().enumerate() {
            let first = k * WINDOW + i == 0;
            write_row(session, *row, *agent, format, first, &mut Fitted(buf))?;
        }
        Ok(())
    };
    // made out here: the threads borrow them, and this scope's closure
    // returns (dropping `job_tx`, which stops them) before they are joined
    let (job_tx, job_rx) = channel::<Job<'_>>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = channel::<Done<'_>>();
    std::thread::scope(|scope| {
        let job_tx = job_tx;
        for _ in 0..threads {
            let (job_rx, done_tx, render) = (&job_rx, done_tx.clone(), &render);
            scope.spawn(move || {
                loop {
                    let job = job_rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok((k, rows, mut buf)) = job else { return };
                    // every job taken is answered: the writer waits for each
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        render(k, &rows, &mut buf)
                    }))
                    .unwrap_or_else(|_| Err(io::Error::other("internal error while writing rows")));
                    if done_tx.send((k, rows, r.map(|()| buf))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut w = InOrder {
            jobs: &job_tx,
            done: &done_rx,
            out,
            ahead: 2 * threads,
            sent: 0,
            next: 0,
            early: BTreeMap::new(),
            spare_rows: Vec::new(),
            spare_bufs: Vec::new(),
            err: Ok(()),
        };
        let mut window: Rows<'_> = Vec::with_capacity(WINDOW);
        visit_session(session, opts, &mut |row, agent| {
            window.push((row, agent));
            if window.len() == WINDOW {
                let next = w
                    .spare_rows
                    .pop()
                    .unwrap_or_else(|| Vec::with_capacity(WINDOW));
                w.send(std::mem::replace(&mut window, next));
            }
        });
        if !window.is_empty() {
            w.send(window);
        }
        while w.err.is_ok() && w.next < w.sent {
            w.write_next();
        }
        w.err
    })?;
    let (counts, log) = redacted
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    crate::redact::add(counts, log);
    Ok(())
}

/// The windows in flight, written out in order as they come back.
struct InOrder<'a, 's> {
    jobs: &'a Sender<Job<'s>>,
    done: &'a Receiver<Done<'s>>,
    out: &'a mut dyn Write,
    /// Windows in flight at most.
    ahead: usize,
    sent: usize,
    /// The window to write out next.
    next: usize,
    early: BTreeMap<usize, (Rows<'s>, io::Result<Vec<u8>>)>,
    spare_rows: Vec<Rows<'s>>,
    /// Buffers written out, to render into again (fresh ones cost page
    /// faults, and copies as they grow).
    spare_bufs: Vec<Vec<u8>>,
    /// The first error: nothing is sent or written after it.
    err: io::Result<()>,
}

impl<'s> InOrder<'_, 's> {
    /// Hands out the next window, once fewer than [`Self::ahead`] are in
    /// flight (the oldest are written out meanwhile).
    fn send(&mut self, rows: Rows<'s>) {
        while self.err.is_ok() && self.sent >= self.next + self.ahead {
            self.write_next();
        }
        if self.err.is_err() {
            return;
        }
        // room for a window at once: grown a step at a time, a buffer
        // copied what it held at each step
        let buf = self
            .spare_bufs
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(2 << 20));
        match self.jobs.send((self.sent, rows, buf)) {
            Ok(()) => self.sent += 1,
            Err(_) => self.err = Err(io::Error::other("a writing thread stopped")),
        }
    }

    /// Waits for window [`Self::next`] and writes it out.
    fn write_next(&mut self) {
        while !self.early.contains_key(&self.next) {
            match self.done.recv() {
                Ok((k, rows, r)) => {
                    self.early.insert(k, (rows, r));
                }
                Err(_) => {
                    self.err = Err(io::Error::other("a writing thread stopped"));
                    return;
                }
            }
        }
        let Some((mut rows, rendered)) = self.early.remove(&self.next) else {
            return;
        };
        rows.clear();
        self.spare_rows.push(rows);
        self.next += 1;
        match rendered {
            Ok(buf) => {
                if let Err(e) = self.out.write_all(&buf) {
                    self.err = Err(e);
                }
                // not one a row of megabytes grew: it would be held to the end
                if buf.capacity() <= SPARE_MOST {
                    self.spare_bufs.push(buf);
                }
            }
            Err(e) => self.err = Err(e),
        }
    }
}
