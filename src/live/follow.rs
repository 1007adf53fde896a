//! The follower thread: reads what is appended to a session file and its
//! subagent files, from the byte offset it reached, and notices rewrites,
//! replacements, deletions, new subagents and (in project mode) newer
//! sessions.
//!
//! File-system events (notify) wake it. When they do not come (network
//! file systems, WSL, some containers) it polls every 500 ms instead; with
//! working events it only checks now and then, backing off to once every
//! 30 s, to find out whether they stopped working.

use super::{LiveEvent, is_session_file};
use crate::model::Session;
use crate::model::loader::{agent_id_of, subagent_files};
use notify::{RecursiveMode, Watcher};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, SystemTime};

const POLL: Duration = Duration::from_millis(500);
/// In event mode, the longest time between checks that events still come.
const SAFETY_MAX: Duration = Duration::from_secs(30);
/// The most bytes one `Appended` carries (a 100 MB catch-up is 25 events).
const CHUNK: usize = 4 << 20;
/// Bytes before the offset compared again on growth, to notice a file
/// rewritten in place to a larger size.
const SIG: usize = 64;
/// In poll mode, directories (new subagents, new sessions) are listed every
/// this many polls.
const DIR_EVERY: u32 = 4;

/// What to follow and from where.
#[derive(Debug, Clone)]
pub struct FollowSpec {
    /// The session file.
    pub path: PathBuf,
    /// Sources already read: (source index, path, offset). Empty: read
    /// the session from its first byte.
    pub known: Vec<(u16, PathBuf, u64)>,
    /// Sources the session already has (subagent files are numbered after).
    pub sources: u16,
    /// Project mode: report newer sessions in the file's directory.
    pub project: bool,
    /// Poll only, no file-system events (also with `CCV_POLL=1`).
    pub force_poll: bool,
}

impl FollowSpec {
    /// Follows `path` from its first byte, into `Session::new(Some(path))`.
    pub fn new(path: PathBuf) -> Self {
        FollowSpec {
            path,
            known: Vec::new(),
            sources: 1,
            project: false,
            force_poll: poll_forced(),
        }
    }

    /// Continues a session already loaded (e.g. by
    /// `model::loader::load_with_subagents`) from where each of its files
    /// ended.
    pub fn from_session(session: &Session) -> Self {
        let path = session
            .sources
            .first()
            .and_then(|s| s.path.clone())
            .unwrap_or_default();
        let known = (0u16..)
            .zip(&session.sources)
            .filter_map(|(i, s)| Some((i, s.path.clone()?, s.bytes_read())))
            .collect();
        let sources = u16::try_from(session.sources.len()).unwrap_or(u16::MAX);
        FollowSpec {
            path,
            known,
            sources,
            project: false,
            force_poll: poll_forced(),
        }
    }

    /// Project mode: also report (once each) session files of the same
    /// directory written later than the followed one.
    pub fn project(mut self, on: bool) -> Self {
        self.project = on;
        self
    }

    pub fn force_poll(mut self, on: bool) -> Self {
        self.force_poll = on;
        self
    }
}

fn poll_forced() -> bool {
    std::env::var_os("CCV_POLL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The follower's handle. Dropping it stops the thread (it exits at its
/// next wake-up, which the drop triggers).
#[derive(Debug)]
pub struct Follower {
    tx: Sender<Msg>,
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.tx.send(Msg::Stop);
    }
}

#[derive(Debug)]
enum Msg {
    Fs(notify::Result<notify::Event>),
    Stop,
}

/// Starts following. `sink` gets every event; when it returns false (the
/// receiver is gone) the thread ends.
pub fn spawn(
    spec: FollowSpec,
    sink: impl FnMut(LiveEvent) -> bool + Send + 'static,
) -> std::io::Result<Follower> {
    let (tx, rx) = mpsc::channel();
    let fs_tx = tx.clone();
    std::thread::Builder::new()
        .name("ccv-follow".into())
        .spawn(move || {
            let mut st = State::new(spec, Box::new(sink));
            st.run(fs_tx, rx);
        })?;
    Ok(Follower { tx })
}

/// A file identity: a rename over the path changes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId(u64, u64);

fn file_id(m: &std::fs::Metadata) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(FileId(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        None
    }
}

struct Tracked {
    source: u16,
    path: PathBuf,
    file: Option<File>,
    id: Option<FileId>,
    offset: u64,
    /// The last bytes read (up to `SIG`).
    sig: Vec<u8>,
    deleted: bool,
}

impl Tracked {
    fn new(source: u16, path: PathBuf, offset: u64) -> Self {
        Tracked {
            source,
            path,
            file: None,
            id: None,
            offset,
            sig: Vec::new(),
            deleted: false,
        }
    }
}

enum Outcome {
    Same,
    Grew,
    /// The session must be read again from the start.
    Restart,
}

struct State {
    spec: FollowSpec,
    sink: Box<dyn FnMut(LiveEvent) -> bool + Send>,
    alive: bool,
    tracked: Vec<Tracked>,
    next_source: u16,
    agents_seen: HashSet<PathBuf>,
    sessions_seen: HashSet<PathBuf>,
    /// Project mode: the sessions there at start, with their mtimes.
    baseline: HashMap<PathBuf, SystemTime>,
    watched: HashSet<PathBuf>,
}

impl State {
    fn new(spec: FollowSpec, sink: Box<dyn FnMut(LiveEvent) -> bool + Send>) -> Self {
        let mut st = State {
            spec,
            sink,
            alive: true,
            tracked: Vec::new(),
            next_source: 1,
            agents_seen: HashSet::new(),
            sessions_seen: HashSet::new(),
            baseline: HashMap::new(),
            watched: HashSet::new(),
        };
        st.start_tracking(false);
        if st.spec.project {
            st.baseline = st.sessions_in_dir().collect();
        }
        st
    }

    /// (Re)builds the tracked files: from the known offsets at start, or
    /// everything from zero after a restart.
    fn start_tracking(&mut self, restart: bool) {
        self.tracked.clear();
        self.agents_seen.clear();
        if restart || self.spec.known.is_empty() {
            self.tracked
                .push(Tracked::new(0, self.spec.path.clone(), 0));
            self.next_source = 1;
            return;
        }
        for (src, path, off) in &self.spec.known {
            if *src != 0 {
                self.agents_seen.insert(path.clone());
            }
            let mut t = Tracked::new(*src, path.clone(), *off);
            t.sig = read_sig(path, *off);
            self.tracked.push(t);
        }
        if !self.tracked.iter().any(|t| t.source == 0) {
            self.tracked
                .insert(0, Tracked::new(0, self.spec.path.clone(), 0));
        }
        self.next_source = self.spec.sources.max(1);
    }

    fn send(&mut self, ev: LiveEvent) {
        if self.alive && !(self.sink)(ev) {
            self.alive = false;
        }
    }

    fn run(&mut self, fs_tx: Sender<Msg>, rx: mpsc::Receiver<Msg>) {
        let mut watcher = if self.spec.force_poll {
            None
        } else {
            notify::recommended_watcher(move |res| {
                let _ = fs_tx.send(Msg::Fs(res));
            })
            .ok()
        };
        let mut poll_mode = watcher.is_none();
        self.update_watches(&mut watcher, &mut poll_mode);
        self.scan(true);
        let mut safety = POLL;
        let mut misses = 0u32;
        let mut ticks = 0u32;
        while self.alive {
            let timeout = if poll_mode { POLL } else { safety };
            match rx.recv_timeout(timeout) {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(Msg::Fs(first)) => {
                    // coalesce a burst of events into one scan
                    let mut dirs = self.event_touches_dirs(&first);
                    let mut stop = false;
                    while let Ok(m) = rx.try_recv() {
                        match m {
                            Msg::Stop => stop = true,
                            Msg::Fs(r) => dirs |= self.event_touches_dirs(&r),
                        }
                    }
                    if stop {
                        break;
                    }
                    if dirs {
                        self.update_watches(&mut watcher, &mut poll_mode);
                    }
                    self.scan(dirs);
                    safety = POLL;
                    misses = 0;
                }
                Err(RecvTimeoutError::Timeout) => {
                    ticks = ticks.wrapping_add(1);
                    let dirs = !poll_mode || ticks % DIR_EVERY == 0;
                    if dirs {
                        self.update_watches(&mut watcher, &mut poll_mode);
                    }
                    let changed = self.scan(dirs);
                    if !poll_mode {
                        if changed {
                            // a change no event announced; twice running
                            // means events do not come here
                            misses += 1;
                            if misses >= 2 {
                                poll_mode = true;
                            }
                        } else {
                            misses = 0;
                            safety = (safety * 2).min(SAFETY_MAX);
                        }
                    }
                }
            }
        }
    }

    /// An event about anything but a followed file (a directory, another
    /// session, a new subagent file) needs the directories listed again.
    fn event_touches_dirs(&self, ev: &notify::Result<notify::Event>) -> bool {
        match ev {
            Err(_) => true,
            Ok(e) if e.need_rescan() => true,
            Ok(e) => e
                .paths
                .iter()
                .any(|p| !self.tracked.iter().any(|t| &t.path == p)),
        }
    }

    /// Watches the session's directory, `<session>/` and its `subagents/`
    /// (non-recursively: a project directory can hold thousands of files).
    fn update_watches(
        &mut self,
        watcher: &mut Option<notify::RecommendedWatcher>,
        poll_mode: &mut bool,
    ) {
        let Some(w) = watcher.as_mut() else { return };
        let parent = self
            .spec
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let parent = if parent.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            parent
        };
        let mut dirs = vec![parent.clone()];
        if let Some(stem) = self.spec.path.file_stem() {
            let own = parent.join(stem);
            dirs.push(own.join("subagents"));
            dirs.push(own);
        }
        for d in dirs {
            if self.watched.contains(&d) || !d.is_dir() {
                continue;
            }
            match w.watch(&d, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(d);
                }
                Err(e) if d == parent => {
                    *poll_mode = true;
                    let msg = format!("watching {}: {e}; polling instead", d.display());
                    self.send(LiveEvent::Error(msg));
                }
                Err(_) => {}
            }
        }
    }

    /// Checks every followed file (and, with `dirs`, the directories).
    /// True if anything changed.
    fn scan(&mut self, dirs: bool) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < self.tracked.len() && self.alive {
            match self.check(i) {
                Outcome::Same => {}
                Outcome::Grew => changed = true,
                Outcome::Restart => {
                    self.start_tracking(true);
                    self.check(0);
                    self.find_subagents();
                    self.send(LiveEvent::Reloaded);
                    return true;
                }
            }
            i += 1;
        }
        if dirs {
            changed |= self.find_subagents();
            if self.spec.project {
                changed |= self.find_newer_sessions();
            }
        }
        changed
    }

    fn check(&mut self, i: usize) -> Outcome {
        let Some(t) = self.tracked.get_mut(i) else {
            return Outcome::Same;
        };
        let source = t.source;
        let meta = match std::fs::metadata(&t.path) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if !t.deleted && (t.id.is_some() || t.offset > 0) {
                    t.deleted = true;
                    t.file = None;
                    self.send(LiveEvent::Deleted { source });
                    return Outcome::Grew;
                }
                return Outcome::Same;
            }
            Err(_) => return Outcome::Same,
        };
        let id = file_id(&meta);
        let read_before = t.offset > 0 || t.id.is_some();
        if t.deleted && read_before || (t.id.is_some() && id != t.id) {
            self.send(LiveEvent::Replaced { source });
            return Outcome::Restart;
        }
        t.deleted = false;
        if meta.len() < t.offset {
            self.send(LiveEvent::Truncated { source });
            return Outcome::Restart;
        }
        if meta.len() == t.offset && t.id.is_some() {
            return Outcome::Same;
        }
        if t.file.is_none() {
            match File::open(&t.path) {
                Ok(f) => {
                    // the identity of what we opened, not of the path
                    t.id = f.metadata().ok().as_ref().and_then(file_id).or(id);
                    t.file = Some(f);
                }
                Err(e) => {
                    let msg = format!("{}: {e}", t.path.display());
                    t.deleted = true;
                    self.send(LiveEvent::Error(msg));
                    return Outcome::Same;
                }
            }
        }
        self.read_new(i)
    }

    /// Reads from the offset to EOF, in chunks, after checking that the
    /// bytes before the offset are still the ones read.
    fn read_new(&mut self, i: usize) -> Outcome {
        let Some(t) = self.tracked.get_mut(i) else {
            return Outcome::Same;
        };
        let Some(f) = t.file.as_mut() else {
            return Outcome::Same;
        };
        let source = t.source;
        let back = t
            .sig
            .len()
            .min(usize::try_from(t.offset).unwrap_or(usize::MAX));
        if f.seek(SeekFrom::Start(t.offset - back as u64)).is_err() {
            return Outcome::Same;
        }
        let mut grew = false;
        let mut first = true;
        loop {
            let (mut chunk, more) = read_chunk(f);
            if first {
                first = false;
                if chunk.get(..back) != t.sig.get(t.sig.len() - back..) {
                    if chunk.len() < back {
                        // shrank after the stat: the next check sees it
                        return Outcome::Same;
                    }
                    // rewritten in place (same file, other bytes)
                    self.send(LiveEvent::Truncated { source });
                    return Outcome::Restart;
                }
                chunk.drain(..back);
            }
            if chunk.is_empty() {
                break;
            }
            t.offset += chunk.len() as u64;
            let keep = chunk.len().min(SIG);
            let excess = (t.sig.len() + keep).saturating_sub(SIG);
            t.sig.drain(..excess);
            t.sig.extend_from_slice(&chunk[chunk.len() - keep..]);
            grew = true;
            if !(self.sink)(LiveEvent::Appended {
                source,
                bytes: chunk,
            }) {
                self.alive = false;
                break;
            }
            if !more {
                break;
            }
        }
        if grew { Outcome::Grew } else { Outcome::Same }
    }

    /// Registers subagent files not seen yet and reads them.
    fn find_subagents(&mut self) -> bool {
        let mut found = false;
        for (path, agent_id) in subagent_files(&self.spec.path) {
            if self.agents_seen.contains(&path) || agent_id_of(&path).is_none() {
                continue;
            }
            self.agents_seen.insert(path.clone());
            let source = self.next_source;
            self.next_source = self.next_source.saturating_add(1);
            self.send(LiveEvent::NewSubagent {
                source,
                path: path.clone(),
                agent_id,
            });
            self.tracked.push(Tracked::new(source, path, 0));
            let i = self.tracked.len() - 1;
            self.check(i);
            found = true;
        }
        found
    }

    /// Project mode: sessions of the directory written since we started
    /// (new, or their mtime moved) and not older than the followed one,
    /// each reported once. Comparing with a listing taken at start, not
    /// with the clock: file times are coarse.
    fn find_newer_sessions(&mut self) -> bool {
        let ours = std::fs::metadata(&self.spec.path)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        let mut newer: Vec<(SystemTime, PathBuf)> = self
            .sessions_in_dir()
            .filter(|(p, m)| {
                *p != self.spec.path
                    && !self.sessions_seen.contains(p)
                    && *m >= ours
                    && self.baseline.get(p) != Some(m)
            })
            .map(|(p, m)| (m, p))
            .collect();
        newer.sort();
        let found = !newer.is_empty();
        for (_, p) in newer {
            self.sessions_seen.insert(p.clone());
            self.send(LiveEvent::NewSession { path: p });
        }
        found
    }

    fn sessions_in_dir(&self) -> impl Iterator<Item = (PathBuf, SystemTime)> + use<> {
        let dir = match self.spec.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let p = e.path();
                if !is_session_file(&p) {
                    return None;
                }
                let m = e.metadata().ok().filter(|m| m.is_file())?.modified().ok()?;
                Some((p, m))
            })
    }
}

/// Up to `CHUNK` bytes from the file position; true if there may be more.
fn read_chunk(f: &mut File) -> (Vec<u8>, bool) {
    let mut chunk = Vec::new();
    let mut buf = [0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => return (chunk, false),
            Ok(n) => {
                chunk.extend_from_slice(&buf[..n]);
                if chunk.len() >= CHUNK {
                    return (chunk, true);
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return (chunk, false),
        }
    }
}

/// The bytes just before `offset`, to check later that they did not change.
fn read_sig(path: &Path, offset: u64) -> Vec<u8> {
    let back = (SIG as u64).min(offset);
    let mut out = vec![0u8; back as usize];
    let ok = File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(offset - back))?;
            f.read_exact(&mut out)
        })
        .is_ok();
    if ok { out } else { Vec::new() }
}
