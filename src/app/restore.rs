//! Putting the terminal back: on quit, on error, on panic and on signals.
//! Restoring twice is harmless, so every path may call it.

use crossterm::cursor::Show;
use crossterm::event::DisableMouseCapture;
use crossterm::terminal::{LeaveAlternateScreen, disable_raw_mode};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the terminal is in ccv's mode (raw, alternate screen, mouse).
static ACTIVE: AtomicBool = AtomicBool::new(false);
static HOOK: AtomicBool = AtomicBool::new(false);

pub fn mark_active() {
    ACTIVE.store(true, Ordering::SeqCst);
}

/// The signal that ended the viewer (0: none): the process exits with
/// 128 + it, as shells expect.
static EXIT_SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

pub fn set_exit_signal(sig: i32) {
    EXIT_SIGNAL.store(sig, Ordering::SeqCst);
}

/// 128 + the signal that ended the viewer, if one did.
pub fn signal_exit_code() -> Option<i32> {
    let s = EXIT_SIGNAL.load(Ordering::SeqCst);
    (s > 0).then_some(128 + s)
}

/// Ctrl-Z or SIGTSTP: put the terminal back as the shell wants it, stop,
/// and when continued (`fg`) take the terminal again. The caller redraws.
pub fn suspend(mouse: bool) -> std::io::Result<()> {
    restore();
    #[cfg(unix)]
    {
        let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
    }
    take_back(mouse)
}

/// Takes the terminal again after it was handed over (suspend, an editor):
/// raw mode, the alternate screen, the mouse if `mouse`.
pub fn take_back(mouse: bool) -> std::io::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    mark_active();
    crossterm::execute!(
        std::io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
        crossterm::cursor::Hide
    )?;
    set_mouse(mouse)
}

/// Turns the terminal's mouse reporting on or off (off: the terminal's
/// own selection works).
pub fn set_mouse(on: bool) -> std::io::Result<()> {
    if on {
        crossterm::execute!(std::io::stdout(), crossterm::event::EnableMouseCapture)
    } else {
        crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture)
    }
}

/// Writes the sequences that leave ccv's terminal mode, if `active` says
/// it is on; returns whether it wrote anything.
pub fn restore_with(active: &AtomicBool, w: &mut impl Write) -> bool {
    if !active.swap(false, Ordering::SeqCst) {
        return false;
    }
    let _ = disable_raw_mode();
    let _ = crossterm::execute!(w, DisableMouseCapture, LeaveAlternateScreen, Show);
    let _ = w.flush();
    true
}

/// The terminal's settings before raw mode, and the descriptor they were
/// read from (the one crossterm sets: stdin, else `/dev/tty`, kept open).
#[cfg(unix)]
static SAVED: std::sync::OnceLock<(std::os::fd::RawFd, libc::termios)> = std::sync::OnceLock::new();

/// Keeps the terminal's settings as they are, for [`guard_abort`].
pub fn save_terminal() {
    #[cfg(unix)]
    {
        use std::os::fd::{AsRawFd, IntoRawFd};
        if SAVED.get().is_some() {
            return;
        }
        // SAFETY: isatty and tcgetattr only read the descriptor's state
        let fd = if unsafe { libc::isatty(0) } == 1 {
            std::io::stdin().as_raw_fd()
        } else {
            match std::fs::File::open("/dev/tty") {
                // (kept open for the process's life)
                Ok(f) => f.into_raw_fd(),
                Err(_) => return,
            }
        };
        // SAFETY: termios is plain data, filled by tcgetattr
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(fd, &mut t) } == 0 {
            let _ = SAVED.set((fd, t));
        }
    }
}

/// An abort (an allocation that failed, which no panic hook sees) puts
/// the terminal back before the process ends: the screen's sequences
/// written and the settings of [`save_terminal`] set again, with calls a
/// signal handler may make (write, tcsetattr, signal, raise); then the
/// signal's default ends the process.
pub fn guard_abort() {
    #[cfg(unix)]
    {
        static GUARDED: AtomicBool = AtomicBool::new(false);
        if GUARDED.swap(true, Ordering::SeqCst) {
            return;
        }
        // SAFETY: the handler only loads atomics and calls write(2),
        // tcsetattr(3), signal(2) and raise(3), all async-signal-safe
        let _ = unsafe {
            signal_hook::low_level::register(signal_hook::consts::SIGABRT, || {
                if ACTIVE.swap(false, Ordering::SeqCst) {
                    const LEAVE: &[u8] = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1049l\x1b[?25h";
                    let _ = libc::write(1, LEAVE.as_ptr().cast(), LEAVE.len());
                    if let Some((fd, t)) = SAVED.get() {
                        let _ = libc::tcsetattr(*fd, libc::TCSANOW, t);
                    }
                }
                // one sent by `kill` ends the process too, the terminal
                // put back or not (abort's own would, once this returns)
                libc::signal(libc::SIGABRT, libc::SIG_DFL);
                libc::raise(libc::SIGABRT);
            })
        };
    }
}

/// Restores the real terminal (stdout).
pub fn restore() {
    restore_with(&ACTIVE, &mut std::io::stdout());
}

/// The message of the last panic of a background thread, for the status bar.
static BACKGROUND_PANIC: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Restores the terminal before the default hook prints the panic, so the
/// message lands on a usable screen. A panic of a background thread (the
/// clipboard, a loader: each contains its own) leaves the terminal alone
/// and is only recorded: printing it would scribble over the view.
pub fn install_panic_hook() {
    if HOOK.swap(true, Ordering::SeqCst) {
        return;
    }
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // a panic caught at a boundary (see crate::contain) ends nothing
        if crate::contain::active() {
            return;
        }
        let name = std::thread::current().name().map(str::to_owned);
        if ACTIVE.load(Ordering::SeqCst) && name.as_deref() != Some("main") {
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            let mut slot = BACKGROUND_PANIC.lock().unwrap_or_else(|p| p.into_inner());
            *slot = Some(crate::model::text::sanitize(&msg).into_owned());
            return;
        }
        restore();
        prev(info);
    }));
}

/// Takes the message [`install_panic_hook`] recorded for a background
/// thread, if any.
pub fn take_background_panic() -> Option<String> {
    BACKGROUND_PANIC
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
}

pub fn panic_hook_installed() -> bool {
    HOOK.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restore_writes_once_and_leaves_alternate_screen() {
        let active = AtomicBool::new(true);
        let mut out: Vec<u8> = Vec::new();
        assert!(restore_with(&active, &mut out));
        let s = String::from_utf8_lossy(&out);
        assert!(
            s.contains("\x1b[?1049l"),
            "leaves the alternate screen: {s:?}"
        );
        assert!(s.contains("\x1b[?25h"), "shows the cursor: {s:?}");
        let mut again: Vec<u8> = Vec::new();
        assert!(!restore_with(&active, &mut again));
        assert!(again.is_empty());
    }

    #[test]
    fn panic_hook_is_installed_once() {
        install_panic_hook();
        install_panic_hook();
        assert!(panic_hook_installed());
    }
}
