//! Copying to the clipboard: the system clipboard (arboard), else the
//! terminal's (OSC 52), else a file, without ever blocking the UI.
//!
//! - [`copy_text`] renders a [`CopyScope`] in the labelled format of
//!   `ccv export` (the same formatter).
//! - [`ClipboardService`] owns the backends on a thread of its own; its
//!   outcomes are status-bar messages. An outcome with
//!   [`CopyOutcome::osc52`] bytes must be written to the terminal by the UI
//!   (see [`write_osc52`]).
//! - Inside tmux, OSC 52 reaches the outer terminal only with
//!   `tmux set -g set-clipboard on` (the default, `external`, drops it);
//!   the status message says so when it is off.
//! - [`export_markdown_file`] is `e`: the filtered transcript to a file.

mod backend;
mod chain;
mod export_file;
mod files;
mod scope;
mod service;

pub use backend::{
    ArboardBackend, ClipboardBackend, Delivery, FileBackend, OSC52_MAX_ENCODED, Osc52Backend,
    osc52_encoded_len, osc52_sequence, size_label,
};
pub use chain::{Chain, CopyOutcome, Env, with_rows};
pub use export_file::export_markdown_file;
pub use scope::{CopyScope, CopyText, copy_text};
pub use service::{ClipboardService, EXIT_WAIT};

use std::io::{self, Write};

/// Sends an OSC 52 sequence to the terminal (between frames, from the
/// thread that draws).
pub fn write_osc52(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(bytes)?;
    out.flush()
}
