//! `ccv top`: every session written lately, one row each, with what it is
//! doing now. Each session is read once and then followed (its appended
//! bytes only); a watcher on the projects root brings new ones. The state
//! here changes only through [`TopState::apply`] and [`perform_action`];
//! the loop owns the followers.

pub mod keys;
pub mod print;
pub mod ui;
pub mod watch;

use crate::live::{self, LiveEvent};
use crate::model::Session;
use crate::model::activity::{self, Activity, Thresholds};
use std::path::PathBuf;

pub use ui::{TopOutcome, draw, handle_key};

/// Sessions followed at most: the most recently written. A root whose
/// files were all touched at once (restored, synced) must not start
/// thousands of readers.
pub const MAX_WATCHED: usize = 24;

/// `[top]` of the config.
#[derive(Debug, Clone)]
pub struct TopSettings {
    /// Sessions written within this many minutes are shown.
    pub minutes: u32,
    /// Ring the terminal bell when a session starts waiting for you.
    pub bell: bool,
    /// Set the terminal's title to how many wait (`ccv top: 2 waiting`).
    pub title: bool,
    /// Its keys, `[keys.top]` in.
    pub keys: std::rc::Rc<crate::viewer::key::KeyTable<keys::TopAction>>,
}

impl Default for TopSettings {
    fn default() -> Self {
        TopSettings {
            minutes: 30,
            bell: false,
            title: false,
            keys: std::rc::Rc::new(keys::defaults()),
        }
    }
}

/// What the watchers and followers tell the overview.
#[derive(Debug)]
pub enum TopEvent {
    /// A session file written at `mtime_ms`: watched if it is recent.
    Candidate { path: PathBuf, mtime_ms: i64 },
    /// The first scan of the root is done.
    Scanned,
    /// Bytes and changes of a followed session.
    Live { path: PathBuf, event: LiveEvent },
}

/// One session on the overview.
pub struct Watched {
    pub path: PathBuf,
    pub session: Session,
    pub last_write_ms: i64,
    pub activity: Activity,
    /// When it came into this state (the entry that put it there).
    pub since_ms: i64,
    /// Its project (the session's cwd, else the directory's name).
    pub project: String,
}

impl Watched {
    /// What it is doing, in a few words (its agent named).
    pub fn doing(&self) -> String {
        self.activity.doing(self.session.format())
    }

    /// The session's cost so far, its subagents' included.
    pub fn cost(&self) -> crate::model::price::Cost {
        self.session.cost().0
    }

    pub fn turns(&self) -> usize {
        self.session.main.turns.len()
    }

    /// Whether it is shown at `now_ms`: it holds a conversation, and was
    /// written within `window_ms` as its entries say (see
    /// [`Session::written_at`]). A file still being read is judged by its
    /// entries read so far.
    fn shown(&self, now_ms: i64, window_ms: i64) -> bool {
        self.has_conversation()
            && crate::model::time::within(
                now_ms,
                self.session.written_at(self.last_write_ms),
                window_ms,
            )
    }

    /// Whether the file holds a conversation yet: a file of `summary` or
    /// snapshot lines is no session, and is not shown.
    pub fn has_conversation(&self) -> bool {
        use crate::model::Kind;
        self.session
            .main
            .items
            .iter()
            .any(|i| matches!(i.kind, Kind::User | Kind::Assistant | Kind::ToolCall))
    }

    fn classify(&mut self, now_ms: i64, th: Thresholds) -> Option<(Activity, Activity)> {
        let next = activity::of(&self.session, now_ms, self.last_write_ms, th);
        // times from the file, not from when top started: idle since its
        // newest entry, in a state since the entry that put it there
        let newest = self.session.written_at(self.last_write_ms);
        let since = match next {
            Activity::Idle => newest,
            _ => activity::since(&self.session).unwrap_or(newest),
        };
        self.since_ms = since;
        if next == self.activity {
            return None;
        }
        let was = std::mem::replace(&mut self.activity, next.clone());
        Some((was, next))
    }
}

/// The overview's state.
pub struct TopState {
    pub root: PathBuf,
    /// Sessions written within this long are shown.
    pub window_ms: i64,
    pub thresholds: Thresholds,
    /// The sessions shown.
    pub rows: Vec<Watched>,
    /// Files followed that hold no conversation yet (being read, or only
    /// `summary` lines), or whose newest entry is older than the window:
    /// not shown until they are (see `Watched::shown`).
    pub quiet: Vec<Watched>,
    /// Index into `rows` (as sorted).
    pub selected: usize,
    pub now_ms: i64,
    pub scanning: bool,
    pub message: Option<String>,
    /// Sessions that went from working to waiting since the loop last
    /// asked (for the bell and the title).
    pub newly_waiting: Vec<PathBuf>,
    /// The keys (see [`keys`]), a config's changes in.
    pub keys: std::rc::Rc<crate::viewer::key::KeyTable<keys::TopAction>>,
}

/// What the loop must do after an event.
#[derive(Debug, PartialEq, Eq)]
pub enum Follow {
    /// Start following this file (it is new on the overview).
    Start(PathBuf),
    /// Stop following it (it left the window).
    Stop(PathBuf),
}

impl TopState {
    pub fn new(root: PathBuf, window_ms: i64, now_ms: i64) -> TopState {
        TopState {
            root,
            window_ms,
            thresholds: Thresholds::default(),
            rows: Vec::new(),
            quiet: Vec::new(),
            selected: 0,
            now_ms,
            scanning: true,
            message: None,
            newly_waiting: Vec::new(),
            keys: std::rc::Rc::new(keys::defaults()),
        }
    }

    /// Applies one event; costs what the event carries (an append: its
    /// bytes), never a re-read. Returns what to start or stop following.
    pub fn apply(&mut self, ev: TopEvent) -> Vec<Follow> {
        match ev {
            TopEvent::Scanned => {
                self.scanning = false;
                Vec::new()
            }
            TopEvent::Candidate { path, mtime_ms } => {
                if !crate::model::time::within(self.now_ms, mtime_ms, self.window_ms)
                    || !watch::is_session_file(&path)
                {
                    return Vec::new();
                }
                if let Some(w) = self.watched_mut(&path) {
                    w.last_write_ms = w.last_write_ms.max(mtime_ms);
                    return Vec::new();
                }
                let mut follow = Vec::new();
                if self.rows.len() + self.quiet.len() >= MAX_WATCHED {
                    // the least recently written makes room, if older
                    let oldest = |v: &Vec<Watched>| {
                        v.iter()
                            .enumerate()
                            .min_by_key(|(_, w)| w.last_write_ms)
                            .map(|(i, w)| (i, w.last_write_ms))
                    };
                    let (shown, quiet) = (oldest(&self.rows), oldest(&self.quiet));
                    let from_quiet = match (shown, quiet) {
                        (_, Some(q)) if q.1 < mtime_ms => Some((true, q.0)),
                        (Some(r), _) if r.1 < mtime_ms => Some((false, r.0)),
                        _ => None,
                    };
                    let Some((q, i)) = from_quiet else {
                        return Vec::new();
                    };
                    let keep = self.selected_path();
                    let gone = if q {
                        self.quiet.remove(i)
                    } else {
                        self.rows.remove(i)
                    };
                    follow.push(Follow::Stop(gone.path));
                    self.reselect(keep);
                }
                let project = watch::project_of(&path);
                self.quiet.push(Watched {
                    session: Session::new(Some(path.clone())),
                    path: path.clone(),
                    last_write_ms: mtime_ms,
                    activity: Activity::Thinking,
                    since_ms: mtime_ms,
                    project,
                });
                follow.push(Follow::Start(path));
                follow
            }
            TopEvent::Live { path, event } => {
                let now = self.now_ms;
                let th = self.thresholds;
                let Some(w) = self.watched_mut(&path) else {
                    return Vec::new();
                };
                let _ = live::apply(&mut w.session, &event);
                let _ = w.session.take_changes();
                // written when its newest entry says (the first read of a
                // file is an append too: its time is not "now")
                if matches!(event, LiveEvent::Appended { .. })
                    && let Some(t) = w.session.meta.last_activity
                {
                    w.last_write_ms = w.last_write_ms.max(t.min(now));
                }
                if let Some(cwd) = &w.session.meta.cwd {
                    w.project = crate::paths::tilde(&crate::model::text::term_line(cwd));
                }
                self.promote();
                self.reclassify_one(&path, th);
                Vec::new()
            }
        }
    }

    /// A followed file, shown or not.
    fn watched_mut(&mut self, path: &std::path::Path) -> Option<&mut Watched> {
        self.rows
            .iter_mut()
            .chain(self.quiet.iter_mut())
            .find(|w| w.path == path)
    }

    /// Files that are now to be shown are, and those no longer to be
    /// are not (see [`Watched::shown`]).
    fn promote(&mut self) {
        let (now, window) = (self.now_ms, self.window_ms);
        let shown = |w: &Watched| w.shown(now, window);
        if self.quiet.iter().all(|w| !shown(w)) && self.rows.iter().all(shown) {
            return;
        }
        let keep = self.selected_path();
        let all = std::mem::take(&mut self.rows)
            .into_iter()
            .chain(std::mem::take(&mut self.quiet));
        (self.rows, self.quiet) = all.partition(shown);
        self.sort();
        self.reselect(keep);
    }

    /// A session read whole at once (`ccv top | …`), in place of what was
    /// followed of it.
    pub fn set_session(&mut self, path: &std::path::Path, session: Session) {
        if let Some(w) = self.watched_mut(path) {
            if let Some(t) = session.meta.last_activity {
                w.last_write_ms = w.last_write_ms.max(t);
            }
            w.session = session;
            if let Some(cwd) = &w.session.meta.cwd {
                w.project = crate::paths::tilde(&crate::model::text::term_line(cwd));
            }
        }
        self.promote();
    }

    fn reclassify_one(&mut self, path: &PathBuf, th: Thresholds) {
        let now = self.now_ms;
        if let Some(w) = self.rows.iter_mut().find(|w| &w.path == path)
            && let Some((was, next)) = w.classify(now, th)
        {
            let working = matches!(
                was,
                Activity::Running { .. } | Activity::Thinking | Activity::Retrying { .. }
            );
            if working && next == Activity::Waiting {
                self.newly_waiting.push(path.clone());
            }
        }
        self.sort();
    }

    /// A second passed: states that change with time (stalled, idle), and
    /// sessions that left the window. Returns the files to stop following.
    pub fn tick(&mut self, now_ms: i64) -> Vec<Follow> {
        self.now_ms = now_ms;
        let th = self.thresholds;
        let paths: Vec<PathBuf> = self.rows.iter().map(|w| w.path.clone()).collect();
        for p in &paths {
            self.reclassify_one(p, th);
        }
        let window = self.window_ms;
        let keep = self.selected_path();
        let mut gone = Vec::new();
        for list in [&mut self.rows, &mut self.quiet] {
            list.retain(|w| {
                let stays = crate::model::time::within(now_ms, w.last_write_ms, window);
                if !stays {
                    gone.push(Follow::Stop(w.path.clone()));
                }
                stays
            });
        }
        self.reselect(keep);
        self.promote();
        gone
    }

    /// Whether something on screen changes with the clock (elapsed times).
    pub fn ticking(&self) -> bool {
        self.rows.iter().any(|w| w.activity != Activity::Idle)
    }

    pub fn selected_path(&self) -> Option<PathBuf> {
        self.rows.get(self.selected).map(|w| w.path.clone())
    }

    /// Most in need of the user first (waiting, stalled, failed...), then
    /// the most recently written: a session that goes quiet moves down.
    fn sort(&mut self) {
        let keep = self.selected_path();
        self.rows.sort_by(|a, b| {
            a.activity
                .rank()
                .cmp(&b.activity.rank())
                .then(b.last_write_ms.cmp(&a.last_write_ms))
                .then(a.path.cmp(&b.path))
        });
        self.reselect(keep);
    }

    fn reselect(&mut self, keep: Option<PathBuf>) {
        if let Some(p) = keep
            && let Some(i) = self.rows.iter().position(|w| w.path == p)
        {
            self.selected = i;
        }
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }
}
