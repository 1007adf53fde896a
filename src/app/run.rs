//! Terminal setup and the event loop: one channel, a blocking `recv`, a
//! frame after each burst of events. The loop owns what does I/O: the
//! terminal, the loaders and followers, the clipboard.

use super::event::{AppEvent, LoadEvent};
use super::keymap;
use super::restore;
use super::state::{State, perform_action};
use super::workers::{self, Ticker};
use crate::clipboard::ClipboardService;
use crate::live::{self, FollowSpec, Follower};
use crate::model::Session;
use crate::model::time::now_ms;
use crate::view::ListView;
use crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};
use ratatui::Terminal;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

pub use super::workers::{PREVIEW_BYTES, preview};

mod requests;

pub enum Start {
    /// A session file, followed as it grows.
    Session(PathBuf),
    /// The newest session of a project directory: followed, and newer
    /// sessions there are offered.
    Project(PathBuf),
    /// `ccv -`: standard input, followed to its end.
    Stdin,
    Demo,
    /// The session picker over a projects root; `q` in the viewer returns to it.
    Picker(PathBuf),
    /// `ccv top`: the sessions of a projects root written lately; `q` in
    /// the viewer returns to it.
    Top(PathBuf),
}

/// How the viewer starts, beyond what it opens.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Shown in the status bar at first.
    pub message: Option<String>,
    /// `y`/`Y`/`v` copy markdown instead of the labelled text.
    pub copy_markdown: bool,
    /// Open on the row of this source line (`ccv FILE:LINE`, `ccv +LINE FILE`).
    pub line: Option<u32>,
    /// Keys, export directory, mouse: the config's.
    pub settings: super::state::Settings,
    /// The filters a session opens with.
    pub filters: Option<crate::rows::Filters>,
    /// The picker's first order.
    pub sort: crate::catalog::SortBy,
    /// The picker's keys (`[keys.picker]`); `None`: its defaults.
    pub picker_keys: Option<std::rc::Rc<crate::viewer::key::KeyTable<crate::picker::Action>>>,
    /// `ccv top`: its window, and what a session that starts waiting does.
    pub top: TopSettings,
}

pub use crate::top::TopSettings;

pub fn run(start: Start) -> anyhow::Result<()> {
    run_with(start, Options::default())
}

/// Like [`run`], with a message shown in the status bar at first.
pub fn run_with_message(start: Start, message: Option<String>) -> anyhow::Result<()> {
    run_with(
        start,
        Options {
            message,
            ..Options::default()
        },
    )
}

pub fn run_with(start: Start, opts: Options) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let (tx, rx) = channel::<AppEvent>();
    workers::spawn_signals(tx.clone());
    restore::install_panic_hook();
    restore::save_terminal();
    enable_raw_mode()?;
    restore::mark_active();
    let mut stdout = std::io::stdout();
    if let Err(e) = crossterm::execute!(stdout, EnterAlternateScreen, crossterm::cursor::Hide)
        .and_then(|_| restore::set_mouse(opts.settings.mouse))
    {
        restore::restore();
        return Err(e.into());
    }
    workers::spawn_input(tx.clone());
    let ready = tx.clone();
    crate::style::highlight::highlight_in_background(move || {
        let _ = ready.send(AppEvent::Highlighted);
    });
    let mut resume = None;
    let result = Terminal::new(super::backend::Placed::new(std::io::stdout()))
        .map_err(anyhow::Error::from)
        .and_then(|term| {
            let mut v = Viewer::new(tx, term, &opts);
            let at = match (&start, opts.line) {
                (Start::Session(p), Some(line)) => Some((p.clone(), line)),
                _ => None,
            };
            v.start(start);
            if let Some((file, line)) = at {
                v.pending_jump = Some(crate::picker::found::Jump {
                    session: file.clone(),
                    file,
                    line,
                    query: String::new(),
                });
            }
            let r = v.run(rx, t0);
            resume = v.resume.take();
            r
        });
    restore::restore();
    if let Some((program, id, cwd, format)) = resume {
        return super::resume::resume_in_claude(&program, &id, cwd.as_deref(), format);
    }
    if let (Ok(t), Ok(trace)) = (&result, std::env::var("CCV_TRACE_STARTUP")) {
        super::trace::report_startup(&trace, t.first_frame, t.loaded);
    }
    result.map(|_| ())
}

/// When the first frame was drawn, and the first frame after the whole
/// session was in, from the start.
#[derive(Default)]
struct Timings {
    first_frame: Option<Duration>,
    loaded: Option<Duration>,
}

type Term = Terminal<super::backend::Placed<std::io::Stdout>>;

fn is_ctrl_z(k: &crossterm::event::KeyEvent) -> bool {
    use crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    k.kind != KeyEventKind::Release
        && k.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(k.code, KeyCode::Char('z' | 'Z'))
}

/// What the terminal shows: the session list, the overview, or a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Screen {
    Picker,
    Top,
    Viewer,
}

struct Viewer {
    tx: Sender<AppEvent>,
    term: Term,
    state: State,
    /// The session list, kept while a session is viewed (q goes back to it).
    picker: Option<crate::picker::PickerState>,
    /// The picker's projects root, and the worker its full-text mode sends
    /// queries to (started at the first query).
    picker_root: Option<PathBuf>,
    searcher: Option<workers::Searcher>,
    /// What the picker's search keeps between queries (see
    /// [`crate::search::kept`]).
    kept: Option<std::sync::Arc<crate::search::kept::Kept>>,
    /// Where to go once the session being loaded is in (a search hit).
    pending_jump: Option<crate::picker::found::Jump>,
    /// Where the viewer was before the session is read again (`#`).
    pending_keep: Option<crate::viewer::Keep>,
    /// The list's render state (scroll, rendered lines): the view's, kept
    /// here between frames.
    list: ListView,
    screen: Screen,
    /// The current load; events of others are stale.
    generation: u64,
    /// The whole session has arrived (a preview no longer replaces it).
    loaded: bool,
    /// Loading failed: leave with this error.
    error: Option<String>,
    follower: Option<Follower>,
    /// Follow the current session in project mode (newer sessions offered).
    project: bool,
    current: Option<PathBuf>,
    clipboard: Option<ClipboardService>,
    ticker: Ticker,
    copy_format: crate::export::Format,
    trace_live: Option<super::trace::LiveTrace>,
    /// `R`: run `claude --resume` once the terminal is restored:
    /// (program, session id, directory).
    resume: Option<(PathBuf, String, Option<String>, Option<&'static str>)>,
    /// What the next copy says: when done (`Copied the whole output
    /// (59 KB)`, before where it went), and what it copied (before why it
    /// failed).
    copy_label: Option<(String, &'static str)>,
    /// The picker's first order (the config's), and its keys.
    sort: crate::catalog::SortBy,
    picker_keys: Option<std::rc::Rc<crate::viewer::key::KeyTable<crate::picker::Action>>>,
    /// `ccv top`: the overview, the followers of its sessions, its settings.
    top: Option<crate::top::TopState>,
    top_followers: std::collections::HashMap<PathBuf, Follower>,
    top_settings: TopSettings,
    /// Where `q` in the viewer goes back to (the picker, the overview).
    home: Option<Screen>,
}

impl Viewer {
    fn new(tx: Sender<AppEvent>, term: Term, opts: &Options) -> Viewer {
        let ticker = Ticker::spawn(tx.clone());
        let copy_format = if opts.copy_markdown {
            crate::export::Format::Markdown
        } else {
            crate::export::Format::Text
        };
        let mut state = State::new(Session::new(None));
        state.partial = true;
        state.message = opts.message.clone();
        state.copy_format = copy_format;
        state.settings = opts.settings.clone();
        if let Some(f) = opts.filters {
            state.filters = f;
        }
        Viewer {
            tx,
            term,
            state,
            picker: None,
            picker_root: None,
            searcher: None,
            kept: None,
            pending_jump: None,
            pending_keep: None,
            list: ListView::default(),
            screen: Screen::Viewer,
            generation: 0,
            loaded: false,
            error: None,
            follower: None,
            project: false,
            current: None,
            clipboard: None,
            ticker,
            copy_format,
            trace_live: super::trace::LiveTrace::from_env(),
            resume: None,
            copy_label: None,
            sort: opts.sort,
            picker_keys: opts.picker_keys.clone(),
            top: None,
            top_followers: Default::default(),
            top_settings: opts.top.clone(),
            home: None,
        }
    }

    fn start(&mut self, start: Start) {
        match start {
            Start::Demo => {
                self.state.replace_session(super::demo::session());
                self.loaded = true;
            }
            Start::Session(path) => self.open(path, false),
            Start::Project(path) => self.open(path, true),
            Start::Stdin => self.follow_stdin(),
            Start::Top(root) => {
                self.start_top(root, true, None);
                if let Some(t) = &mut self.top {
                    t.message = self.state.message.take();
                }
                self.screen = Screen::Top;
                self.home = Some(Screen::Top);
            }
            Start::Picker(root) => {
                // the sessions written lately head the list; their
                // watcher tells the full-text search what changed too
                let (kept, teller) = crate::search::kept::Kept::told_by_another(&root);
                self.kept = Some(std::sync::Arc::new(kept));
                self.start_top(root.clone(), false, Some(teller));
                self.home = Some(Screen::Picker);
                self.picker_root = Some(root.clone());
                workers::spawn_scan(root.clone(), self.tx.clone());
                let mut picker = crate::picker::PickerState::new(now_ms());
                picker.sort = self.sort;
                if let Some(k) = &self.picker_keys {
                    picker.keys = k.clone();
                }
                picker.root = Some(root);
                picker.histories = crate::prompt::Histories::dir()
                    .map(|d| crate::prompt::Histories::load(&d))
                    .unwrap_or_default();
                // a note for the start (a config problem) shows where the user is
                picker.message = self.state.message.take();
                self.picker = Some(picker);
                self.screen = Screen::Picker;
            }
        }
    }

    /// Watches the root for sessions written lately (the overview, or the
    /// picker's section of them).
    fn start_top(
        &mut self,
        root: PathBuf,
        poll: bool,
        teller: Option<crate::search::kept::Teller>,
    ) {
        let tx = self.tx.clone();
        crate::top::watch::spawn(root.clone(), poll, teller, move |e| {
            tx.send(AppEvent::Top(e)).is_ok()
        });
        let window = i64::from(self.top_settings.minutes) * 60_000;
        let mut top = crate::top::TopState::new(root, window, now_ms());
        top.keys = self.top_settings.keys.clone();
        self.top = Some(top);
    }

    /// Sends a full-text query to the search worker (started at the first).
    fn send_query(&mut self, q: String) {
        let Some(root) = self.picker_root.clone() else {
            return;
        };
        let tx = self.tx.clone();
        let searcher = self
            .searcher
            .get_or_insert_with(|| workers::spawn_searcher(root, tx, self.kept.clone()));
        if searcher.send(q).is_err() {
            self.searcher = None;
        }
    }

    /// Opens a session file in a fresh view: drops the previous follower;
    /// the loader's events start the new one.
    fn open(&mut self, path: PathBuf, project: bool) {
        self.generation += 1;
        self.pending_jump = None;
        self.pending_keep = None;
        self.follower = None;
        let filters = self.state.filters;
        let settings = self.state.settings.clone();
        self.state = State::new(Session::new(None));
        self.state.partial = true;
        self.state.filters = filters;
        self.state.settings = settings;
        self.state.copy_format = self.copy_format;
        self.loaded = false;
        self.project = project;
        self.current = Some(path.clone());
        workers::spawn_loader(path, self.generation, self.tx.clone());
    }

    fn follow_stdin(&mut self) {
        self.generation += 1;
        let generation = self.generation;
        let tx = self.tx.clone();
        let sink = move |event| tx.send(AppEvent::Live { generation, event }).is_ok();
        self.state.partial = false;
        self.loaded = true;
        match live::spawn_stdin(sink) {
            Ok(_) => self.state.live.attached = true,
            Err(e) => self.state.message = Some(format!("cannot read standard input: {e}")),
        }
    }

    /// Starts following the loaded session from where the load ended.
    fn start_follower(&mut self) {
        let generation = self.generation;
        let tx = self.tx.clone();
        let sink = move |event| tx.send(AppEvent::Live { generation, event }).is_ok();
        let spec = FollowSpec::from_session(&self.state.session).project(self.project);
        match live::spawn(spec, sink) {
            Ok(f) => {
                self.follower = Some(f);
                self.state.live.attached = true;
                // (a file time ahead of the clock, a file touched to a
                // later date, is no later than now: live for as long as
                // a write of now would be, not until that date)
                self.state.live.last_write_ms = self
                    .current
                    .as_deref()
                    .and_then(|p| std::fs::metadata(p).ok()?.modified().ok())
                    .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| (d.as_millis() as i64).min(crate::model::time::now_ms()))
                    // nor is a file copied today of an old session
                    .map(|m| self.state.session.written_at(m))
                    .or(Some(0));
            }
            Err(e) => self.state.message = Some(format!("not following the file: {e}")),
        }
    }

    /// Returns the time to the first frame that showed the session.
    fn run(&mut self, rx: Receiver<AppEvent>, t0: Instant) -> anyhow::Result<Timings> {
        let mut timings = Timings::default();
        self.draw()?;
        loop {
            // a search going on takes the time no event wants
            let searching = self.screen == Screen::Viewer && self.state.search.job.is_some();
            let ev = if searching {
                match rx.try_recv() {
                    Ok(ev) => Some(ev),
                    Err(std::sync::mpsc::TryRecvError::Empty) => None,
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
                }
            } else {
                match rx.recv() {
                    Ok(ev) => Some(ev),
                    Err(_) => break,
                }
            };
            let mut shown = false;
            let mut live = false;
            let mut next = ev;
            // coalesce bursts (appends, mouse wheel, pasted keys) into one frame
            while let Some(ev) = next.take().or_else(|| rx.try_recv().ok()) {
                live |= matches!(ev, AppEvent::Live { .. });
                shown |= self.handle(ev);
                // a burst of wheel turns (a trackpad's) is laid out every
                // half screen: a turn moves the selection by what the last
                // frame showed, and past it the rest of a burst was lost
                if self.screen == Screen::Viewer
                    && self.state.redraw.scroll.unsigned_abs() * 2
                        >= usize::from(self.state.viewport.list_height.max(2))
                {
                    self.draw()?;
                }
                if let Some(home) = self.home.filter(|_| {
                    self.state.quit && self.screen == Screen::Viewer && self.error.is_none()
                }) {
                    // q in the viewer goes back to the picker or the overview
                    self.state.quit = false;
                    self.screen = home;
                    self.generation += 1;
                    self.follower = None;
                }
                if self.state.quit {
                    break;
                }
            }
            if self.state.quit {
                break;
            }
            if live {
                self.state.absorb();
            }
            if self.screen == Screen::Viewer && self.state.search.job.is_some() {
                self.state.search_step(Duration::from_millis(25));
            }
            self.serve_requests();
            if self.resume.is_some() {
                break;
            }
            if let Some(msg) = restore::take_background_panic() {
                self.state.message = Some(format!("internal error in a background task: {msg}"));
            }
            self.state.live.now_ms = now_ms();
            self.draw()?;
            if live && let Some(t) = &mut self.trace_live {
                t.drawn(&self.state.session);
            }
            self.tell_waiting();
            let top_ticks = matches!(self.screen, Screen::Top | Screen::Picker)
                && self.top.as_ref().is_some_and(|t| t.ticking());
            // (and, for a file, until a last line left without its end is
            // said: see `LiveStatus::quiet`; standard input has no such
            // wait, its line is read when it ends)
            let status = &self.state.live;
            let viewer_ticks = self.state.running_on_screen()
                || status.last_write_ms.is_some()
                    && !status.quiet()
                    && self.state.session.unfinished_line().is_some();
            self.ticker
                .want(top_ticks || self.screen == Screen::Viewer && viewer_ticks);
            if shown && timings.first_frame.is_none() {
                timings.first_frame = Some(t0.elapsed());
            }
            if self.loaded && timings.loaded.is_none() {
                timings.loaded = Some(t0.elapsed());
            }
        }
        match self.error.take() {
            Some(e) => Err(anyhow::anyhow!(e)),
            None => Ok(timings),
        }
    }

    fn draw(&mut self) -> std::io::Result<()> {
        if let (Some(t), Screen::Top) = (&self.top, self.screen) {
            return self
                .term
                .draw(|f| {
                    crate::top::draw(f, f.area(), t);
                    crate::style::frame::finish(f.buffer_mut());
                })
                .map(|_| ());
        }
        match &self.picker {
            Some(p) if self.screen == Screen::Picker => {
                let top = self.top.as_ref();
                self.term
                    .draw(|f| {
                        let mut area = f.area();
                        if let Some(t) = top {
                            let used = crate::top::ui::draw_section(f, area, t);
                            area.y += used;
                            area.height -= used;
                        }
                        crate::picker::draw(f, area, p);
                        crate::style::frame::finish(f.buffer_mut());
                    })
                    .map(|_| ())
            }
            _ => {
                let draw = |term: &mut Term, state: &mut State, list: &mut ListView| {
                    term.draw(|f| {
                        crate::view::draw(f, state, list);
                        crate::style::frame::finish(f.buffer_mut());
                    })
                    .map(|_| ())
                };
                draw(&mut self.term, &mut self.state, &mut self.list)?;
                // output still in the file was drawn as a placeholder: read
                // it and draw again (the second frame only sends what
                // changed)
                if super::texts::fill_drawn(&mut self.state, &mut self.list) {
                    draw(&mut self.term, &mut self.state, &mut self.list)?;
                }
                Ok(())
            }
        }
    }

    /// Stops the process with the terminal restored; on `fg`, takes it back
    /// and redraws everything.
    fn suspend(&mut self) {
        match restore::suspend(self.state.settings.mouse) {
            Ok(()) => {
                // forget what the screen held: the next frame is drawn
                // whole. (`Terminal::clear` asks the terminal for the cursor
                // position, an answer the input thread would swallow.)
                self.term.swap_buffers();
                self.term.swap_buffers();
            }
            Err(e) => self.error = Some(format!("could not take the terminal back: {e}")),
        }
    }

    /// Applies one event; true when it brought a session to show.
    fn handle(&mut self, ev: AppEvent) -> bool {
        match ev {
            AppEvent::Found(q, found) => {
                if let Some(p) = &mut self.picker {
                    crate::picker::ui::perform_action(p, crate::picker::Action::Found(q, found));
                }
                false
            }
            AppEvent::Scan(e) => {
                if let Some(p) = &mut self.picker {
                    p.now_ms = now_ms();
                    p.apply(e);
                }
                false
            }
            AppEvent::Term(crossterm::event::Event::Key(k)) if is_ctrl_z(&k) => {
                // raw mode turns Ctrl-Z into a key: suspend as the shell would
                self.suspend();
                false
            }
            AppEvent::Term(
                ev @ (crossterm::event::Event::Key(_) | crossterm::event::Event::Mouse(_)),
            ) if self.screen == Screen::Picker => {
                let Some(p) = &mut self.picker else {
                    return false;
                };
                p.now_ms = now_ms();
                let outcome = match ev {
                    crossterm::event::Event::Key(k) => crate::picker::handle_key(p, k),
                    crossterm::event::Event::Mouse(m) => {
                        crate::picker::handle_mouse(p, m, p.now_ms)
                    }
                    _ => crate::picker::PickerOutcome::None,
                };
                save_histories(&mut p.histories);
                match outcome {
                    crate::picker::PickerOutcome::Open(path) => {
                        self.screen = Screen::Viewer;
                        self.open(path, true);
                    }
                    crate::picker::PickerOutcome::OpenAt(jump) => {
                        self.screen = Screen::Viewer;
                        self.open(jump.session.clone(), true);
                        self.pending_jump = Some(jump);
                    }
                    crate::picker::PickerOutcome::Search(q) => self.send_query(q),
                    crate::picker::PickerOutcome::Quit => self.state.quit = true,
                    crate::picker::PickerOutcome::None => {}
                }
                false
            }
            AppEvent::Term(_) if self.screen == Screen::Picker => false,
            AppEvent::Term(crossterm::event::Event::Key(k)) if self.screen == Screen::Top => {
                let Some(t) = &mut self.top else {
                    return false;
                };
                match crate::top::handle_key(t, k) {
                    crate::top::TopOutcome::Open(path) => {
                        self.screen = Screen::Viewer;
                        self.open(path, true);
                    }
                    crate::top::TopOutcome::Quit => self.state.quit = true,
                    crate::top::TopOutcome::None => {}
                }
                false
            }
            AppEvent::Term(_) if self.screen == Screen::Top => false,
            AppEvent::Top(e) => {
                self.on_top(e);
                false
            }
            AppEvent::Term(e) => {
                use super::state::Mode;
                let keys = &self.state.settings.keys;
                let action = match self.state.mode {
                    Mode::Search(_) | Mode::Command(_) => keymap::map_prompt(keys, &e),
                    Mode::Pending(_) => keymap::map_pending(keys, &e),
                    _ => keys.map(&e),
                };
                if let Some(a) = action {
                    perform_action(&mut self.state, a);
                }
                save_histories(&mut self.state.settings.histories);
                false
            }
            AppEvent::Load { generation, .. } if generation != self.generation => false,
            AppEvent::Load { event, .. } => self.on_load(event),
            AppEvent::Live { generation, event } => {
                if generation == self.generation {
                    self.state.on_live(&event);
                }
                false
            }
            AppEvent::Copied(outcome) => {
                self.on_copied(outcome);
                false
            }
            AppEvent::Tick => {
                self.state.tick(now_ms());
                if let Some(t) = &mut self.top {
                    for f in t.tick(now_ms()) {
                        if let crate::top::Follow::Stop(p) = f {
                            self.top_followers.remove(&p);
                        }
                    }
                }
                false
            }
            AppEvent::Highlighted => {
                // rows drawn plain are drawn again, now from the highlight cache
                self.list.cache.clear();
                false
            }
            AppEvent::Signal(sig) if workers::is_suspend(sig) => {
                self.suspend();
                false
            }
            AppEvent::Signal(sig) => {
                restore::set_exit_signal(sig);
                self.state.quit = true;
                // a signal leaves ccv, not only the viewer for the picker
                self.picker = None;
                false
            }
        }
    }

    fn on_load(&mut self, event: LoadEvent) -> bool {
        match event {
            LoadEvent::Preview(s) => {
                // a session read again shows when whole, where it was
                if self.loaded || self.pending_keep.is_some() {
                    return false;
                }
                self.state.replace_session(*s);
                self.state.partial = true;
                self.state.refresh_info();
                true
            }
            LoadEvent::Progress(read, size) => {
                if !self.loaded {
                    self.state.load_progress = Some((read, size));
                    // (the info overlay says how far the load got)
                    self.state.refresh_info();
                }
                false
            }
            LoadEvent::Loaded(s) => {
                self.loaded = true;
                self.state.load_progress = None;
                // lines, not rows: a run of them held as one row counts each
                let problems = s.stats.unreadable;
                self.state.replace_session(*s);
                if let Some(j) = self.pending_jump.take() {
                    self.state.jump_to(&j.file, j.line, &j.query);
                }
                if let Some(k) = self.pending_keep.take() {
                    self.state.come_back(k);
                }
                if problems > 0 {
                    self.state.message = Some(format!(
                        "{problems} unreadable line{}",
                        if problems == 1 { "" } else { "s" }
                    ));
                }
                self.start_follower();
                true
            }
            LoadEvent::Failed(e) => {
                if let Some(home) = self.home {
                    // back to the list, saying why
                    self.screen = home;
                    if let Some(p) = &mut self.picker {
                        p.message = Some(e.clone());
                    }
                    if let (Some(t), Screen::Top) = (&mut self.top, home) {
                        t.message = Some(e);
                    }
                } else {
                    self.error = Some(e);
                    self.state.quit = true;
                }
                false
            }
        }
    }

    /// An event of the overview: a session to follow, or its appends.
    fn on_top(&mut self, e: crate::top::TopEvent) {
        let Some(t) = &mut self.top else { return };
        t.now_ms = now_ms();
        for f in t.apply(e) {
            match f {
                crate::top::Follow::Start(path) => {
                    let tx = self.tx.clone();
                    let key = path.clone();
                    let sink = move |event| {
                        tx.send(AppEvent::Top(crate::top::TopEvent::Live {
                            path: key.clone(),
                            event,
                        }))
                        .is_ok()
                    };
                    match live::spawn(FollowSpec::new(path.clone()), sink) {
                        Ok(f) => {
                            self.top_followers.insert(path, f);
                        }
                        Err(e) => {
                            t.message = Some(format!(
                                "not following {}: {e}",
                                crate::model::text::term_path(&path)
                            ))
                        }
                    }
                }
                crate::top::Follow::Stop(p) => {
                    self.top_followers.remove(&p);
                }
            }
        }
    }

    /// A session went from working to waiting: the bell and the title,
    /// when the config asks (through ccv's own sanitising).
    fn tell_waiting(&mut self) {
        let Some(t) = &mut self.top else { return };
        if t.newly_waiting.is_empty() {
            return;
        }
        t.newly_waiting.clear();
        let waiting = t
            .rows
            .iter()
            .filter(|w| w.activity == crate::model::activity::Activity::Waiting)
            .count();
        use std::io::Write;
        let out = self.term.backend_mut();
        if self.top_settings.bell {
            let _ = out.write_all(b"\x07");
        }
        if self.top_settings.title {
            let title = crate::model::text::term_line(&format!("ccv top: {waiting} waiting"));
            let _ = crossterm::execute!(out, crossterm::terminal::SetTitle(title));
        }
        let _ = out.flush();
    }
}

/// Writes what was added to a prompt's history (a failure only costs the
/// history: nothing to tell).
fn save_histories(h: &mut crate::prompt::Histories) {
    if let Some(dir) = crate::prompt::Histories::dir() {
        let _ = h.save(&dir);
    }
}
