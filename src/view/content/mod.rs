//! Rendering the content of a row into styled lines: markdown, syntax
//! highlighting, diffs, ANSI tool output. Pure functions (no I/O), safe
//! output: no control character from the session survives.
//!
//! CONTRACT (the TUI calls these; keep the signatures):
//! every function returns owned lines already wrapped to `width` columns.

mod ansi;
mod code;
mod diff;
pub use crate::style::highlight;
mod markdown;
mod table;
mod wrap;

use crate::model::patch::Hunk;
use crate::model::text::sanitize;
use ratatui::text::{Line, Span};

pub use crate::rows::clip::{Clip, budget, clip};
pub use ansi::{Sgr, ansi_lines, ansi_lines_folded};
pub use code::{read_result, split_numbered};
pub use diff::{diff_most, diff_stats};
pub use highlight::{highlight_in_background, is_warm, warm_up};
pub use wrap::{display_width, grapheme_width, spans_width, wrap, wrap_hanging, wrap_spans};

/// Assistant text as markdown.
pub fn markdown(text: &str, width: u16) -> Vec<Line<'static>> {
    markdown::markdown(text, width)
}

/// Source code, highlighted by language token or file extension (`rs`,
/// `py`, `sh`, a path like `src/main.rs`), optionally with line numbers
/// starting at `first_line`.
pub fn code(text: &str, lang: &str, first_line: Option<u64>, width: u16) -> Vec<Line<'static>> {
    code::code(text, lang, first_line, width)
}

/// A diff from `structuredPatch` hunks, highlighted for `path`.
pub fn diff(hunks: &[Hunk], path: &str, width: u16) -> Vec<Line<'static>> {
    diff::diff(hunks, path, width)
}

/// Tool output: ANSI colours become styles, every other escape is dropped.
/// Unless `full`, a line redrawn with `\r` (a progress bar) shows its last
/// frame and how many there were.
pub fn ansi(text: &str, width: u16, full: bool) -> Vec<Line<'static>> {
    ansi::ansi(text, width, !full)
}

/// Plain text, sanitized and wrapped, an indented line under its text.
pub fn plain(text: &str, width: u16) -> Vec<Line<'static>> {
    let text = sanitize(text);
    highlight::split_lines(&text)
        .flat_map(|l| wrap_hanging(&[Span::raw(l)], usize::from(width)))
        .collect()
}
