//! The list's render state, owned by the view (like a ratatui
//! `StatefulWidget`'s state, csvlens' `CsvTableState`): where the list is
//! scrolled and the lines it has rendered. The core never holds it: it
//! reads the geometry the view reports ([`ListView::report`]) and says
//! what to render again ([`crate::viewer::Redraw`], taken by
//! [`ListView::sync`]).

use super::cache::LineCache;
use crate::viewer::{State, Viewport};

#[derive(Debug, Default)]
pub struct ListView {
    /// The first row on screen, and how many of its lines are scrolled off.
    pub top: usize,
    pub top_skip: usize,
    /// The state's `sel_offset` for this frame, clamped by the layout.
    pub sel_offset: usize,
    /// The state's `help_scroll` for this frame, clamped by the overlay.
    pub help_scroll: usize,
    /// Where the next layout puts the selected row (a page turned).
    pub pin: Option<crate::viewer::Pin>,
    /// Lines the next layout moves the screen by first (the wheel).
    pub scroll: isize,
    /// The selected row, taller than the screen, that the last layout left
    /// only partly filling it (the wheel stopped between it and the row
    /// before or after it); the next keeps it so until the selection moves.
    pub between: Option<usize>,
    pub cache: LineCache,
    /// What the last frame drew.
    pub screen: Viewport,
    /// The session search's query as last parsed (its text, and the
    /// query when it holds a term): parsed once, not per frame.
    pub highlight: Option<(String, Option<crate::model::query::Query>)>,
    /// The last match gone to that the list scrolled to (see
    /// [`crate::viewer::search::Search::shown`]).
    pub match_shown: u64,
    /// Calls drawn open whose output is still in the session file: the
    /// shell reads them back and draws again (the view does no I/O).
    pub misses: Vec<(Option<u32>, crate::model::ItemId)>,
}

impl ListView {
    /// Before a frame: what the core changed since the last one.
    pub fn sync(&mut self, s: &mut State) {
        let redraw = std::mem::take(&mut s.redraw);
        if redraw.all {
            self.cache.clear();
        }
        self.cache.invalidate_all(&redraw.items);
        if redraw.to_top {
            self.top = 0;
            self.top_skip = 0;
        }
        self.pin = redraw.pin;
        self.scroll = redraw.scroll;
        self.sel_offset = s.sel_offset;
        self.help_scroll = s.help_scroll;
    }

    /// After a frame: what it showed, for the actions that need it.
    pub fn report(&self, s: &mut State) {
        s.viewport = self.screen.clone();
        s.sel_offset = self.sel_offset;
        s.help_scroll = self.help_scroll;
    }
}
