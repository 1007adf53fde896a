//! Trying the backends in order, and the status message that says what
//! happened.

use super::backend::{
    ArboardBackend, ClipboardBackend, Delivery, FileBackend, OSC52_MAX_ENCODED, Osc52Backend,
    size_label,
};

/// What a copy did, for the status bar. When `delivery` is
/// [`Delivery::Osc52`], the UI must write [`CopyOutcome::osc52`] to the
/// terminal for the copy to happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyOutcome {
    /// `Copied 14 rows (3.2 KB) to the clipboard`.
    pub message: String,
    /// `None` when nothing was copied.
    pub delivery: Option<Delivery>,
    pub is_error: bool,
}

impl CopyOutcome {
    /// The OSC 52 sequence to write to the terminal, if that is how the text
    /// goes out.
    pub fn osc52(&self) -> Option<&[u8]> {
        match &self.delivery {
            Some(Delivery::Osc52 { bytes, .. }) => Some(bytes),
            _ => None,
        }
    }

    pub fn error(message: String) -> Self {
        CopyOutcome {
            message,
            delivery: None,
            is_error: true,
        }
    }
}

/// What the environment offers, read once.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// `DISPLAY` or `WAYLAND_DISPLAY` is set (or not Linux/BSD).
    pub display: bool,
    pub tmux: bool,
    /// A terminal known to ignore OSC 52 (`TERM=linux`, `dumb`).
    pub no_osc52: bool,
}

impl Env {
    pub fn current() -> Env {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        let term = std::env::var("TERM").unwrap_or_default();
        Env {
            display: !cfg!(all(unix, not(target_os = "macos")))
                || set("DISPLAY")
                || set("WAYLAND_DISPLAY"),
            tmux: set("TMUX"),
            no_osc52: matches!(term.as_str(), "linux" | "dumb"),
        }
    }
}

/// Backends tried in order until one takes the text.
pub struct Chain {
    backends: Vec<Box<dyn ClipboardBackend>>,
}

impl Chain {
    pub fn new(backends: Vec<Box<dyn ClipboardBackend>>) -> Self {
        Chain { backends }
    }

    /// The system clipboard when there is a display (no display: SSH,
    /// headless, console), then OSC 52, then a file.
    pub fn for_env(env: &Env) -> Self {
        let mut b: Vec<Box<dyn ClipboardBackend>> = Vec::new();
        if env.display {
            b.push(Box::new(ArboardBackend::new()));
        }
        if !env.no_osc52 {
            b.push(Box::new(Osc52Backend::new(OSC52_MAX_ENCODED, env.tmux)));
        }
        b.push(Box::new(FileBackend::new(None)));
        Chain::new(b)
    }

    pub fn copy(&mut self, text: &str, rows: usize) -> CopyOutcome {
        if text.is_empty() || rows == 0 {
            return CopyOutcome {
                message: "Nothing to copy".into(),
                delivery: None,
                is_error: true,
            };
        }
        let what = format!("{} ({})", rows_label(rows), size_label(text.len()));
        let mut failed: Vec<String> = Vec::new();
        for b in &mut self.backends {
            match b.set_text(text) {
                Ok(d) => {
                    let message = match &d {
                        Delivery::Clipboard => format!("Copied {what} to the clipboard"),
                        Delivery::Osc52 { hint: None, .. } => format!("Copied {what} via OSC 52"),
                        Delivery::Osc52 { hint: Some(h), .. } => {
                            format!("Copied {what} via OSC 52 ({h})")
                        }
                        Delivery::File(p) if failed.is_empty() => {
                            format!("Saved {what} to {}", p.display())
                        }
                        Delivery::File(p) => {
                            format!("Saved {what} to {} ({})", p.display(), failed.join("; "))
                        }
                    };
                    return CopyOutcome {
                        message,
                        delivery: Some(d),
                        is_error: false,
                    };
                }
                Err(e) => failed.push(format!("{}: {}", b.name(), one_line(&e))),
            }
        }
        CopyOutcome::error(format!("Copy failed: {}", failed.join("; ")))
    }
}

/// A copy's message with the rows it was made of: `Copied 4 rows: 14
/// entries (3.1 KB) to the clipboard`.
pub fn with_rows(message: &str, rows: &str) -> String {
    for verb in ["Copied ", "Saved "] {
        if let Some(rest) = message.strip_prefix(verb) {
            return format!("{verb}{rows}: {rest}");
        }
    }
    message.to_owned()
}

/// What a copy holds: labelled entries (`[User]`, `[Tool Call]`, its
/// `[Tool Result]`...), which are not the rows on screen (a call's row
/// copies as two entries, a group's as all of its calls).
fn rows_label(n: usize) -> String {
    if n == 1 {
        "1 entry".into()
    } else {
        format!("{n} entries")
    }
}

/// Backend errors can span lines; the status bar has one.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
