//! The list's render state, owned by the view (like a ratatui
//! `StatefulWidget`'s state): where the list is scrolled, the lines it has
//! rendered, and the geometry of the last frame, which actions read (a
//! page is the screen's height, a click names a row by its place).

use super::cache::LineCache;

#[derive(Debug, Default)]
pub struct ListView {
    /// The first row on screen, and how many of its lines are scrolled off.
    pub top: usize,
    pub top_skip: usize,
    /// Lines of the selected row scrolled off when it is taller than the
    /// screen (so a long message can be read line by line).
    pub sel_offset: usize,
    /// Lines of the help overlay scrolled off (a short terminal).
    pub help_scroll: usize,
    pub cache: LineCache,
    /// What the last frame drew.
    pub screen: Geometry,
    /// The session search's query as last parsed (its text, and the
    /// query when it holds a term): parsed once, not per frame.
    pub highlight: Option<(String, Option<crate::model::query::Query>)>,
    /// The last match gone to that the list scrolled to (see
    /// [`crate::app::search::Search::shown`]).
    pub match_shown: u64,
    /// Calls drawn open whose output is still in the session file: the
    /// app reads them back and draws again (the view does no I/O).
    pub misses: Vec<(Option<u32>, crate::model::ItemId)>,
}

#[derive(Debug)]
pub struct Geometry {
    pub width: u16,
    pub height: u16,
    /// Rows on screen, top to bottom.
    pub visible: Vec<Visible>,
    /// Lines of the selected row that do not fit on the screen.
    pub sel_overflow: usize,
}

/// A row on screen: which, the screen line it starts at, how many lines
/// of it are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visible {
    pub row: usize,
    pub y: u16,
    pub lines: u16,
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry {
            width: 80,
            height: 24,
            visible: Vec::new(),
            sel_overflow: 0,
        }
    }
}
