//! The ways text can leave ccv, tried in order: the system clipboard
//! (arboard), the terminal's clipboard (OSC 52), a file.

use super::files::timestamp;
use crossterm::Command;
use crossterm::clipboard::CopyToClipboard;
use std::path::PathBuf;

/// How a copy reached the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// The X11/Wayland/macOS/Windows clipboard holds it.
    Clipboard,
    /// The terminal must be sent `bytes` (an OSC 52 sequence) by whoever
    /// owns it: the clipboard thread cannot write between ratatui's frames.
    Osc52 {
        bytes: Vec<u8>,
        hint: Option<String>,
    },
    /// It was saved to this file.
    File(PathBuf),
}

pub trait ClipboardBackend: Send {
    fn name(&self) -> &str;
    /// Puts `text` somewhere the user can paste it from, or says why not.
    fn set_text(&mut self, text: &str) -> Result<Delivery, String>;
}

/// The system clipboard. One `arboard::Clipboard`, made on first use and
/// kept: on X11 and Wayland the owner serves every paste, so it must live
/// as long as the app. Dropping it hands the text to a clipboard manager.
#[derive(Default)]
pub struct ArboardBackend {
    clipboard: Option<arboard::Clipboard>,
    /// Why the clipboard could not be opened: not retried on every copy.
    unavailable: Option<String>,
}

impl ArboardBackend {
    pub fn new() -> Self {
        Self::default()
    }
}

impl ClipboardBackend for ArboardBackend {
    fn name(&self) -> &str {
        "clipboard"
    }

    fn set_text(&mut self, text: &str) -> Result<Delivery, String> {
        if let Some(why) = &self.unavailable {
            return Err(why.clone());
        }
        let clipboard = match &mut self.clipboard {
            Some(c) => c,
            None => match arboard::Clipboard::new() {
                Ok(c) => self.clipboard.insert(c),
                Err(e) => {
                    let why = e.to_string();
                    self.unavailable = Some(why.clone());
                    return Err(why);
                }
            },
        };
        match clipboard.set_text(text) {
            Ok(()) => Ok(Delivery::Clipboard),
            Err(e) => {
                // A broken connection is not reused; the next copy reconnects.
                self.clipboard = None;
                Err(e.to_string())
            }
        }
    }
}

/// Terminals and tmux drop OSC 52 payloads much above this (base64 bytes).
pub const OSC52_MAX_ENCODED: usize = 100_000;

/// The terminal's clipboard, through OSC 52. Works over SSH and in tmux
/// with `set -g set-clipboard on`.
pub struct Osc52Backend {
    max_encoded: usize,
    /// Inside tmux: check `set-clipboard` once, to tell the user when tmux
    /// will swallow the sequence.
    tmux: bool,
    tmux_hint: Option<Option<String>>,
}

impl Osc52Backend {
    pub fn new(max_encoded: usize, tmux: bool) -> Self {
        Osc52Backend {
            max_encoded,
            tmux,
            tmux_hint: None,
        }
    }

    /// The hint while tmux needs it: asked again until tmux has the
    /// setting (the user may set it after the first copy), then no more.
    fn hint(&mut self) -> Option<String> {
        if !self.tmux {
            return None;
        }
        match &self.tmux_hint {
            Some(None) => None,
            _ => {
                let h = tmux_clipboard_hint();
                self.tmux_hint = Some(h.clone());
                h
            }
        }
    }
}

impl ClipboardBackend for Osc52Backend {
    fn name(&self) -> &str {
        "OSC 52"
    }

    fn set_text(&mut self, text: &str) -> Result<Delivery, String> {
        let encoded = osc52_encoded_len(text.len());
        if encoded > self.max_encoded {
            return Err(format!(
                "too big ({} encoded, the limit is {})",
                size_label(encoded),
                size_label(self.max_encoded)
            ));
        }
        Ok(Delivery::Osc52 {
            bytes: osc52_sequence(text),
            hint: self.hint(),
        })
    }
}

/// `ESC ] 52 ; c ; <base64> ESC \`: sets the terminal's clipboard.
pub fn osc52_sequence(text: &str) -> Vec<u8> {
    let mut s = String::with_capacity(osc52_encoded_len(text.len()) + 10);
    // Writing to a String cannot fail.
    let _ = CopyToClipboard::to_clipboard_from(text).write_ansi(&mut s);
    s.into_bytes()
}

pub fn osc52_encoded_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// tmux passes an application's OSC 52 on only with `set-clipboard on`.
fn tmux_clipboard_hint() -> Option<String> {
    let out = std::process::Command::new("tmux")
        .args(["show-options", "-gv", "set-clipboard"])
        .output()
        .ok()?;
    let value = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && value != "on")
        .then(|| "tmux needs: set -g set-clipboard on".to_owned())
}

/// The last resort: a file the user can open. `dir: None` is
/// `$XDG_STATE_HOME/ccv` (`~/.local/state/ccv`), else the temp dir.
pub struct FileBackend {
    dir: Option<PathBuf>,
}

impl FileBackend {
    pub fn new(dir: Option<PathBuf>) -> Self {
        FileBackend { dir }
    }

    fn dirs(&self) -> Vec<PathBuf> {
        match &self.dir {
            Some(d) => vec![d.clone()],
            None => crate::paths::state_dir()
                .into_iter()
                .chain([std::env::temp_dir()])
                .collect(),
        }
    }
}

impl ClipboardBackend for FileBackend {
    fn name(&self) -> &str {
        "file"
    }

    fn set_text(&mut self, text: &str) -> Result<Delivery, String> {
        let mut last = String::from("no directory to write to");
        for dir in self.dirs() {
            let stem = format!("ccv-copy-{}", timestamp());
            let written = crate::writes::private_dir(&dir)
                .and_then(|_| crate::writes::write_unique(&dir, &stem, "txt", text.as_bytes()));
            match written {
                Ok(path) => return Ok(Delivery::File(path)),
                Err(e) => last = format!("{}: {e}", dir.display()),
            }
        }
        Err(last)
    }
}

/// `3.2 KB`, `812 B`, `1.4 MB`.
pub fn size_label(n: usize) -> String {
    let n = n as f64;
    if n < 1024.0 {
        format!("{n} B")
    } else if n < 1024.0 * 1024.0 {
        format!("{:.1} KB", n / 1024.0)
    } else {
        format!("{:.1} MB", n / (1024.0 * 1024.0))
    }
}
