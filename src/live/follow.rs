//! The follower thread: reads what is appended to a session file and its
//! subagent files, from the byte offset it reached, and notices rewrites,
//! replacements, deletions, new subagents and (in project mode) newer
//! sessions.
//!
//! File-system events (notify) wake it. When they do not come (network
//! file systems, WSL, some containers) it polls every 500 ms instead; with
//! working events it only checks now and then, backing off to once every
//! 30 s, to find out whether they stopped working.

use super::project::Project;
use super::tail::{Outcome, Tracked, read_sig};
use super::{LiveEvent, is_session_file};
use crate::model::Session;
use crate::source::subagent_files;
use notify::{EventKind, RecursiveMode, Watcher};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, SystemTime};

const POLL: Duration = Duration::from_millis(500);
/// In event mode, the longest time between checks that events still come.
const SAFETY_MAX: Duration = Duration::from_secs(30);
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
    scans: Arc<AtomicU64>,
}

impl Follower {
    /// How many times the thread has looked at the files so far. Idle, this
    /// stays put: tests use it to catch a watcher that wakes itself.
    pub fn scans(&self) -> u64 {
        self.scans.load(Ordering::Relaxed)
    }
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
    let scans = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&scans);
    std::thread::Builder::new()
        .name("ccv-follow".into())
        .spawn(move || {
            let mut st = State::new(spec, Box::new(sink), counter);
            st.run(fs_tx, rx);
        })?;
    Ok(Follower { tx, scans })
}

struct State {
    spec: FollowSpec,
    sink: Box<dyn FnMut(LiveEvent) -> bool + Send>,
    alive: bool,
    tracked: Vec<Tracked>,
    next_source: u16,
    agents_seen: HashSet<PathBuf>,
    /// Project mode: newer sessions of the directory.
    project: Option<Project>,
    watched: HashSet<PathBuf>,
    scans: Arc<AtomicU64>,
}

impl State {
    fn new(
        mut spec: FollowSpec,
        sink: Box<dyn FnMut(LiveEvent) -> bool + Send>,
        scans: Arc<AtomicU64>,
    ) -> Self {
        // event paths are absolute: compare like with like
        spec.path = absolute(&spec.path);
        for k in &mut spec.known {
            k.1 = absolute(&k.1);
        }
        let mut st = State {
            spec,
            sink,
            alive: true,
            tracked: Vec::new(),
            next_source: 1,
            agents_seen: HashSet::new(),
            project: None,
            watched: HashSet::new(),
            scans,
        };
        st.start_tracking(false);
        if st.spec.project {
            st.project = Some(Project::new(&st.spec.path));
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
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
                // an open or a read is no change (ccv's own reads of the
                // file raise them): dropped here, not woken for
                if !matches!(&res, Ok(e) if matches!(e.kind, EventKind::Access(_))) {
                    let _ = fs_tx.send(Msg::Fs(res));
                }
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
                    let mut sessions = Vec::new();
                    let mut wake = Wake::default();
                    wake.add(self.event_touches_dirs(&first, &mut sessions));
                    let mut stop = false;
                    while let Ok(m) = rx.try_recv() {
                        match m {
                            Msg::Stop => stop = true,
                            Msg::Fs(r) => wake.add(self.event_touches_dirs(&r, &mut sessions)),
                        }
                    }
                    if stop {
                        break;
                    }
                    // Opening a file or listing a directory raises an access
                    // event on it; reacting to those would wake us forever.
                    let Some(dirs) = wake.dirs else { continue };
                    if dirs {
                        self.update_watches(&mut watcher, &mut poll_mode);
                    }
                    self.scan(dirs);
                    if !dirs && !sessions.is_empty() {
                        // another session was written: look at it alone
                        sessions.sort();
                        sessions.dedup();
                        let stats = sessions.into_iter().filter_map(|p| {
                            let m = std::fs::metadata(&p).ok()?.modified().ok()?;
                            Some((p, m))
                        });
                        self.report_newer_sessions(stats.collect());
                    }
                    safety = POLL;
                    misses = 0;
                }
                Err(RecvTimeoutError::Timeout) => {
                    ticks = ticks.wrapping_add(1);
                    let dirs = !poll_mode || ticks.is_multiple_of(DIR_EVERY);
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

    /// An event about a directory or a new subagent file needs the
    /// directories listed again; one about another session of the
    /// project goes to `sessions` (project mode) or is of no interest.
    /// `None`: an event that cannot mean a change (an open or a read,
    /// including our own).
    fn event_touches_dirs(
        &self,
        ev: &notify::Result<notify::Event>,
        sessions: &mut Vec<PathBuf>,
    ) -> Option<bool> {
        let e = match ev {
            Err(_) => return Some(true),
            Ok(e) if e.need_rescan() => return Some(true),
            Ok(e) if matches!(e.kind, EventKind::Access(_)) => return None,
            Ok(e) => e,
        };
        let mut dirs = false;
        for p in &e.paths {
            if self.tracked.iter().any(|t| &t.path == p) {
                continue;
            }
            // a session beside this one (a file filed by date may be a
            // sub-agent it spawned: the folder is looked at again)
            if is_session_file(p)
                && p.parent() == self.spec.path.parent()
                && crate::source::filed_by_project(p)
            {
                if self.spec.project {
                    sessions.push(p.clone());
                }
                continue;
            }
            dirs = true;
        }
        Some(dirs)
    }

    /// Watches the session's directory, `<session>/`, its `subagents/` and
    /// the folders of its Workflow runs (non-recursively: a project
    /// directory can hold thousands of files).
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
            // and its Workflow runs' folders, as they come
            dirs.extend(crate::source::agent_folders(&own.join("subagents")));
            dirs.push(own);
        }
        for d in dirs {
            if self.watched.contains(&d) || !d.is_dir() {
                continue;
            }
            // a directory that cannot be watched (watch limit reached...)
            // is not tried again: polling covers it
            if let Err(e) = w.watch(&d, RecursiveMode::NonRecursive)
                && !*poll_mode
            {
                *poll_mode = true;
                let msg = format!("watching {}: {e}; polling instead", d.display());
                self.send(LiveEvent::Error(msg));
            }
            self.watched.insert(d);
        }
    }

    /// Checks every followed file (and, with `dirs`, the directories).
    /// True if anything changed.
    fn scan(&mut self, dirs: bool) -> bool {
        self.scans.fetch_add(1, Ordering::Relaxed);
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
                let all = self
                    .project
                    .as_ref()
                    .map(Project::listing)
                    .unwrap_or_default();
                changed |= self.report_newer_sessions(all);
            }
        }
        changed
    }

    /// Checks one followed file, sending what it finds.
    fn check(&mut self, i: usize) -> Outcome {
        let Some(t) = self.tracked.get_mut(i) else {
            return Outcome::Same;
        };
        let (sink, alive) = (&mut self.sink, &mut self.alive);
        t.check(&mut |ev| {
            if *alive && !sink(ev) {
                *alive = false;
            }
            *alive
        })
    }

    fn report_newer_sessions(&mut self, candidates: Vec<(PathBuf, SystemTime)>) -> bool {
        let Some(project) = self.project.as_mut() else {
            return false;
        };
        let newer = project.newer(&self.spec.path, candidates);
        let found = !newer.is_empty();
        for path in newer {
            self.send(LiveEvent::NewSession { path });
        }
        found
    }

    /// Registers subagent files not seen yet and reads them.
    fn find_subagents(&mut self) -> bool {
        let mut found = false;
        for (path, agent_id) in subagent_files(&self.spec.path) {
            if self.agents_seen.contains(&path) {
                continue;
            }
            self.agents_seen.insert(path.clone());
            let source = self.next_source;
            self.next_source = self.next_source.saturating_add(1);
            self.send(LiveEvent::NewSubagent {
                source,
                meta: crate::source::agent_meta(&path),
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
}

/// What a burst of file-system events asks for: nothing (`dirs: None`), a
/// look at the followed files, or that and the directories.
#[derive(Default)]
struct Wake {
    dirs: Option<bool>,
}

impl Wake {
    fn add(&mut self, ev: Option<bool>) {
        if let Some(d) = ev {
            self.dirs = Some(self.dirs.unwrap_or(false) | d);
        }
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
