//! The background threads of the viewer: input, signals, loading, the
//! picker's scan, the one-second tick. Each only sends [`AppEvent`]s.

use super::event::{AppEvent, LoadEvent};
use crate::model::Session;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

/// How much of the end of a big file the first frame is built from.
pub const PREVIEW_BYTES: u64 = 1 << 20;

pub fn spawn_input(tx: Sender<AppEvent>) {
    super::input::HANDOFF.reader_started();
    std::thread::spawn(move || {
        let mut term = super::input::Terminal;
        while let Some(events) = super::input::next(&mut term) {
            for ev in events {
                if tx.send(AppEvent::Term(ev)).is_err() {
                    return;
                }
            }
        }
    });
}

/// Every signal whose default is to end the process ends the viewer (the
/// terminal put back first: `kill -USR1` or an alarm left it in raw mode
/// on the alternate screen); SIGTSTP suspends it (the loop puts the
/// terminal back first, then stops the process).
#[cfg(unix)]
pub fn spawn_signals(tx: Sender<AppEvent>) {
    use signal_hook::consts::{
        SIGALRM, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2, SIGVTALRM,
        SIGXCPU, SIGXFSZ,
    };
    super::restore::guard_abort();
    let Ok(mut signals) = signal_hook::iterator::Signals::new([
        SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
        SIGXFSZ, SIGTSTP,
    ]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if tx.send(AppEvent::Signal(sig)).is_err() {
                break;
            }
        }
    });
}

/// Windows has no such signals: Ctrl-C arrives as a key in raw mode.
#[cfg(not(unix))]
pub fn spawn_signals(_tx: Sender<AppEvent>) {}

/// Whether a signal asks to suspend (SIGTSTP).
pub fn is_suspend(sig: i32) -> bool {
    #[cfg(unix)]
    {
        sig == signal_hook::consts::SIGTSTP
    }
    #[cfg(not(unix))]
    {
        let _ = sig;
        false
    }
}

pub fn spawn_scan(root: PathBuf, tx: Sender<AppEvent>) {
    let rx = crate::catalog::spawn_scan(root, crate::catalog::ScanOptions::standard());
    std::thread::spawn(move || {
        while let Ok(e) = rx.recv() {
            if tx.send(AppEvent::Scan(e)).is_err() {
                break;
            }
        }
    });
}

/// The picker's full-text search: queries in, results out as
/// `AppEvent::Found`. Queries typed while one runs are skipped for the
/// newest, and the one running stops (see `search::Superseded`). The
/// first search without an index builds one on the side, yielding the
/// cores to what the user waits for.
pub fn spawn_searcher(
    root: PathBuf,
    tx: Sender<AppEvent>,
    kept: Option<std::sync::Arc<crate::search::kept::Kept>>,
) -> Searcher {
    use crate::search::{self, Filter, Found, Superseded, Via};
    let (qtx, qrx) = std::sync::mpsc::channel::<String>();
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let searcher = Searcher {
        tx: qtx,
        sent: sent.clone(),
    };
    std::thread::spawn(move || {
        let mut opts = search::Options {
            kept,
            ..search::Options::standard()
        };
        let mut indexing = false;
        // the builder this started is still at work
        let building = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // what sessions appended is read at most every 2 s, not per key
        let mut updated: Option<std::time::Instant> = None;
        let mut taken = 0;
        while let Ok(mut q) = qrx.recv() {
            taken += 1;
            while let Ok(newer) = qrx.try_recv() {
                q = newer;
                taken += 1;
            }
            let superseded = Superseded {
                sent: sent.clone(),
                this: taken,
            };
            opts.superseded = Some(superseded.clone());
            opts.update = updated.is_none_or(|t| t.elapsed() >= Duration::from_secs(2));
            let started = std::time::Instant::now();
            let mut asked = false;
            // the files are watched (by the picker's section of sessions
            // written lately, else from the search's opening on): each
            // query looks again only at what was written
            if opts.kept.is_none() {
                opts.kept = Some(std::sync::Arc::new(search::kept::Kept::start(&root)));
            }
            let mut result = match crate::model::query::Query::words(&q, false) {
                Ok(query) if query.is_empty() => {
                    // nothing to find yet: the files and the index are
                    // readied while the first word is typed
                    search::prepare(&root, &opts);
                    Ok(Found::none())
                }
                Ok(query) => {
                    asked = true;
                    search::search(&root, &query, &Filter::default(), &opts)
                        .map_err(|e| e.to_string())
                }
                Err(e) => Err(e),
            };
            // a newer query waits: this answer is partial, and not wanted
            // (nor was the index surely brought up to date: the next is)
            if superseded.now() {
                continue;
            }
            // only a search brings the index up to date: the empty query
            // the search opens with took the first query's turn, which then
            // missed the sessions made since the index was last updated
            if opts.update && asked {
                updated = Some(started);
            }
            // after a search that read the files (not when the search
            // opens, before a word is typed: the first would wait on it)
            if asked
                && matches!(&result, Ok(f) if f.via == Via::Scan)
                && !indexing
                && std::env::var_os("CCV_NO_BACKGROUND_INDEX").is_none()
            {
                indexing = true;
                let root = root.clone();
                let building = building.clone();
                building.store(true, std::sync::atomic::Ordering::Relaxed);
                std::thread::spawn(move || {
                    // at its end, or its panic (reported as any other
                    // background task's)
                    let _done = Done(building);
                    // its threads (started from this one) yield too
                    crate::priority::background();
                    if let Some(dir) = search::index::default_dir() {
                        let _ = search::update_index(&root, &dir, 1);
                    }
                });
            }
            // said only while the builder started is at work (none is
            // when CCV_NO_BACKGROUND_INDEX is set; one that ended, or
            // failed, makes no index for next time)
            if building.load(std::sync::atomic::Ordering::Relaxed)
                && let Ok(f) = &mut result
                && f.via == Via::Scan
                && f.note.is_none()
            {
                f.note = Some("indexing for next time".to_owned());
            }
            if tx.send(AppEvent::Found(q, result)).is_err() {
                break;
            }
        }
    });
    searcher
}

/// Clears its flag when dropped: a background task's "at work".
struct Done(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Where the picker sends its full-text queries (see [`spawn_searcher`]).
pub struct Searcher {
    tx: Sender<String>,
    /// Queries sent so far: the worker's search of an older one stops.
    sent: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Searcher {
    pub fn send(&self, q: String) -> Result<(), std::sync::mpsc::SendError<String>> {
        // counted first: the worker that takes it must not think it stale
        self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.tx.send(q)
    }
}

/// Loads a session: first the end of a big file (fast first frame), then
/// all of it with its subagents. A panic while reading becomes a failed
/// load, not a frozen "loading…".
pub fn spawn_loader(path: PathBuf, generation: u64, tx: Sender<AppEvent>) {
    let send = move |event| tx.send(AppEvent::Load { generation, event }).is_ok();
    std::thread::spawn(move || {
        if let Some(s) = preview(&path)
            && !send(LoadEvent::Preview(Box::new(s)))
        {
            return;
        }
        // the header says how far the load got, ten times a second at most
        let mut last = std::time::Instant::now();
        let mut progress = |read: u64, size: u64| {
            if last.elapsed() >= Duration::from_millis(100) {
                last = std::time::Instant::now();
                send(LoadEvent::Progress(read, size));
            }
        };
        let load = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::source::load_to_view(&path, &mut progress)
        }));
        let ev = match load {
            Ok(Ok(s)) => LoadEvent::Loaded(Box::new(s)),
            Ok(Err(e)) => LoadEvent::Failed(format!("{}: {e}", path.display())),
            Err(_) => {
                LoadEvent::Failed(format!("{}: internal error while reading", path.display()))
            }
        };
        send(ev);
    });
}

/// The end of a big file, from the first line that starts in its last
/// [`PREVIEW_BYTES`]. `None` for small files (they load fast anyway).
pub fn preview(path: &Path) -> Option<Session> {
    if path == Path::new("-") {
        return None;
    }
    let mut f = crate::model::session::open_regular(path).ok()?;
    let len = f.metadata().ok()?.len();
    if len <= 2 * PREVIEW_BYTES {
        return None;
    }
    f.seek(SeekFrom::Start(len - PREVIEW_BYTES)).ok()?;
    let mut buf = Vec::with_capacity(PREVIEW_BYTES as usize);
    f.take(PREVIEW_BYTES).read_to_end(&mut buf).ok()?;
    let nl = memchr::memchr(b'\n', &buf)?;
    let mut s = Session::new(Some(path.to_owned()));
    s.view_file_from(0, len - PREVIEW_BYTES + nl as u64 + 1);
    s.feed(0, buf.get(nl + 1..)?);
    s.finish(0);
    let _ = s.take_changes();
    Some(s)
}

/// Sends [`AppEvent::Tick`] once a second while wanted (a running tool
/// call is on screen), and sleeps otherwise: no wake-ups when idle.
pub struct Ticker {
    wanted: Arc<AtomicBool>,
    thread: Option<std::thread::Thread>,
}

impl Ticker {
    pub fn spawn(tx: Sender<AppEvent>) -> Ticker {
        let wanted = Arc::new(AtomicBool::new(false));
        let w = wanted.clone();
        let handle = std::thread::Builder::new()
            .name("ccv-tick".into())
            .spawn(move || {
                loop {
                    if w.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_secs(1));
                        if w.load(Ordering::SeqCst) && tx.send(AppEvent::Tick).is_err() {
                            return;
                        }
                    } else {
                        std::thread::park();
                    }
                }
            });
        Ticker {
            wanted,
            thread: handle.ok().map(|h| h.thread().clone()),
        }
    }

    pub fn want(&self, on: bool) {
        let was = self.wanted.swap(on, Ordering::SeqCst);
        if on
            && !was
            && let Some(t) = &self.thread
        {
            t.unpark();
        }
    }
}
