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
}

/// How much of the end of a big file the first frame is built from.
pub const PREVIEW_BYTES: u64 = 2 << 20;

pub fn run(start: Start) -> anyhow::Result<()> {
    run_with_message(start, None)
}

/// Like [`run`], with a message shown in the status bar at first.
pub fn run_with_message(start: Start, message: Option<String>) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let (tx, rx) = channel::<AppEvent>();
    match start {
        Start::Demo => {
            let _ = tx.send(AppEvent::Loaded(Box::new(super::demo::session())));
        }
        Start::Session(path) => spawn_loader(path, tx.clone()),
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
    spawn_input(tx);
    let result = event_loop(rx, message, t0);
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
    message: Option<String>,
    t0: Instant,
) -> anyhow::Result<Option<Duration>> {
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut term = Terminal::new(backend)?;
    let mut state = State::new(Session::new(None));
    state.partial = true;
    state.message = message;
    let mut loaded = false;
    let mut first_frame = None;
    let mut error = None;
    term.draw(|f| crate::view::draw(f, &mut state))?;
    while let Ok(ev) = rx.recv() {
        let mut shown = handle(&mut state, ev, &mut loaded, &mut error);
        // coalesce bursts (mouse wheel, pasted keys) into one frame
        while let Ok(ev) = rx.try_recv() {
            shown |= handle(&mut state, ev, &mut loaded, &mut error);
        }
        if state.quit {
            break;
        }
        term.draw(|f| crate::view::draw(f, &mut state))?;
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

fn spawn_loader(path: PathBuf, tx: Sender<AppEvent>) {
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
