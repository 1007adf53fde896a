//! Terminal setup and the event loop: one channel, a blocking `recv`, a
//! frame after each burst of events.

use super::event::AppEvent;
use super::keymap;
use super::restore;
use super::state::{State, perform_action};
use crate::model::Session;
use crossterm::event::EnableMouseCapture;
use crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

pub enum Start {
    Session(PathBuf),
    Demo,
    /// The session picker over a projects root; `q` in the viewer returns to it.
    Picker(PathBuf),
}

/// Which load the events of a loader thread belong to: opening another
/// session from the picker makes the previous loader's events stale.
static LOAD_GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How much of the end of a big file the first frame is built from.
pub const PREVIEW_BYTES: u64 = 2 << 20;

pub fn run(start: Start) -> anyhow::Result<()> {
    run_with_message(start, None)
}

/// Like [`run`], with a message shown in the status bar at first.
pub fn run_with_message(start: Start, message: Option<String>) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let (tx, rx) = channel::<AppEvent>();
    let mut picker = None;
    match start {
        Start::Demo => {
            let _ = tx.send(AppEvent::Loaded(Box::new(super::demo::session())));
        }
        Start::Session(path) => spawn_loader(path, tx.clone()),
        Start::Picker(root) => {
            spawn_scan(root, tx.clone());
            picker = Some(crate::picker::PickerState::new(now_ms()));
        }
    }
    spawn_signals(tx.clone());
    restore::install_panic_hook();
    enable_raw_mode()?;
    restore::mark_active();
    let mut stdout = std::io::stdout();
    if let Err(e) = crossterm::execute!(
        stdout,
        EnterAlternateScreen,
        EnableMouseCapture,
        crossterm::cursor::Hide
    ) {
        restore::restore();
        return Err(e.into());
    }
    let opener = tx.clone();
    spawn_input(tx);
    let result = event_loop(rx, opener, picker, message, t0);
    restore::restore();
    let first = result.as_ref().ok().copied().flatten();
    if let (Some(ms), Ok(trace)) = (first, std::env::var("CCV_TRACE_STARTUP")) {
        report_startup(&trace, ms);
    }
    result.map(|_| ())
}

fn report_startup(trace: &str, d: Duration) {
    let line = format!("ccv: first frame in {:.1} ms\n", d.as_secs_f64() * 1000.0);
    if trace == "1" || trace.is_empty() {
        eprint!("{line}");
    } else if let Err(e) = std::fs::write(trace, line) {
        eprintln!("ccv: CCV_TRACE_STARTUP: {trace}: {e}");
    }
}

/// Returns the time to the first frame that showed the session.
fn event_loop(
    rx: Receiver<AppEvent>,
    opener: Sender<AppEvent>,
    mut picker: Option<crate::picker::PickerState>,
    message: Option<String>,
    t0: Instant,
) -> anyhow::Result<Option<Duration>> {
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut term = Terminal::new(backend)?;
    let mut state = State::new(Session::new(None));
    state.partial = true;
    state.message = message;
    let mut in_picker = picker.is_some();
    let mut loaded = false;
    let mut first_frame = None;
    let mut error = None;
    let draw = |term: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
                in_picker: bool,
                picker: &Option<crate::picker::PickerState>,
                state: &mut State|
     -> std::io::Result<()> {
        match picker {
            Some(p) if in_picker => term
                .draw(|f| crate::picker::draw(f, f.area(), p))
                .map(|_| ()),
            _ => term.draw(|f| crate::view::draw(f, state)).map(|_| ()),
        }
    };
    draw(&mut term, in_picker, &picker, &mut state)?;
    while let Ok(ev) = rx.recv() {
        let mut shown = false;
        let mut next = Some(ev);
        // coalesce bursts (mouse wheel, pasted keys) into one frame
        while let Some(ev) = next.take().or_else(|| rx.try_recv().ok()) {
            match (ev, picker.as_mut()) {
                (AppEvent::Scan(e), Some(p)) => {
                    p.now_ms = now_ms();
                    p.apply(e);
                }
                (AppEvent::Term(crossterm::event::Event::Key(k)), Some(p)) if in_picker => {
                    p.now_ms = now_ms();
                    match crate::picker::handle_key(p, k) {
                        crate::picker::PickerOutcome::Open(path) => {
                            state = State::new(Session::new(None));
                            state.partial = true;
                            loaded = false;
                            in_picker = false;
                            spawn_loader(path, opener.clone());
                        }
                        crate::picker::PickerOutcome::Quit => state.quit = true,
                        crate::picker::PickerOutcome::None => {}
                    }
                }
                (AppEvent::Signal(_), _) => state.quit = true,
                (AppEvent::Term(_) | AppEvent::Scan(_), _) if in_picker => {}
                (ev, _) => shown |= handle(&mut state, ev, &mut loaded, &mut error),
            }
            if state.quit && !in_picker && picker.is_some() && error.is_none() {
                // q in the viewer goes back to the picker
                state.quit = false;
                in_picker = true;
                LOAD_GENERATION.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        if state.quit {
            break;
        }
        draw(&mut term, in_picker, &picker, &mut state)?;
        if shown && first_frame.is_none() {
            first_frame = Some(t0.elapsed());
        }
    }
    match error {
        Some(e) => Err(anyhow::anyhow!(e)),
        None => Ok(first_frame),
    }
}

/// Applies one event; true when it brought a session to show.
pub fn handle(
    state: &mut State,
    ev: AppEvent,
    loaded: &mut bool,
    error: &mut Option<String>,
) -> bool {
    match ev {
        AppEvent::Term(e) => {
            let action = if state.search.editing.is_some() {
                keymap::map_prompt(&e)
            } else {
                keymap::map(&e)
            };
            if let Some(a) = action {
                perform_action(state, a);
            }
            false
        }
        AppEvent::Preview(s) => {
            if *loaded {
                return false;
            }
            state.replace_session(*s);
            state.partial = true;
            true
        }
        AppEvent::Loaded(s) => {
            *loaded = true;
            let problems = s.problems.iter().filter(|(_, p)| !p.recovered).count();
            state.replace_session(*s);
            if problems > 0 {
                state.message = Some(format!(
                    "{problems} unreadable line{}",
                    if problems == 1 { "" } else { "s" }
                ));
            }
            true
        }
        AppEvent::LoadFailed(e) => {
            *error = Some(e);
            state.quit = true;
            false
        }
        AppEvent::Signal(_) => {
            state.quit = true;
            false
        }
        // the picker's rows; the loop hands them to the picker
        AppEvent::Scan(_) => false,
    }
}

fn spawn_input(tx: Sender<AppEvent>) {
    std::thread::spawn(move || {
        while let Ok(ev) = crossterm::event::read() {
            if tx.send(AppEvent::Term(ev)).is_err() {
                break;
            }
        }
    });
}

fn spawn_signals(tx: Sender<AppEvent>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let _ = tx.send(AppEvent::Signal(sig));
        }
    });
}

fn spawn_scan(root: PathBuf, tx: Sender<AppEvent>) {
    let rx = crate::picker::spawn_scan(root, crate::picker::ScanOptions::standard());
    std::thread::spawn(move || {
        while let Ok(e) = rx.recv() {
            if tx.send(AppEvent::Scan(e)).is_err() {
                break;
            }
        }
    });
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn spawn_loader(path: PathBuf, tx: Sender<AppEvent>) {
    // events of a load the user has left (back to the picker) are dropped
    let generation = LOAD_GENERATION.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
    let tx = CurrentLoad { tx, generation };
    std::thread::spawn(move || {
        if let Some(s) = preview(&path) {
            if tx.send(AppEvent::Preview(Box::new(s))).is_err() {
                return;
            }
        }
        let ev = match crate::model::loader::load_with_subagents(&path) {
            Ok(s) => AppEvent::Loaded(Box::new(s)),
            Err(e) => AppEvent::LoadFailed(format!("{}: {e}", path.display())),
        };
        let _ = tx.send(ev);
    });
}

/// The end of a big file, from the first line that starts in its last
/// [`PREVIEW_BYTES`]. `None` for small files (they load fast anyway).
pub fn preview(path: &Path) -> Option<Session> {
    if path == Path::new("-") {
        return None;
    }
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    if len <= 2 * PREVIEW_BYTES {
        return None;
    }
    f.seek(SeekFrom::Start(len - PREVIEW_BYTES)).ok()?;
    let mut buf = Vec::with_capacity(PREVIEW_BYTES as usize);
    f.take(PREVIEW_BYTES).read_to_end(&mut buf).ok()?;
    let nl = memchr::memchr(b'\n', &buf)?;
    let mut s = Session::new(Some(path.to_owned()));
    s.feed(0, buf.get(nl + 1..)?);
    s.finish(0);
    let _ = s.take_changes();
    Some(s)
}

/// A sender that goes quiet once its load is no longer the current one.
struct CurrentLoad {
    tx: Sender<AppEvent>,
    generation: u64,
}

impl CurrentLoad {
    fn send(&self, ev: AppEvent) -> Result<(), std::sync::mpsc::SendError<AppEvent>> {
        if LOAD_GENERATION.load(std::sync::atomic::Ordering::SeqCst) != self.generation {
            return Err(std::sync::mpsc::SendError(ev));
        }
        self.tx.send(ev)
    }
}
