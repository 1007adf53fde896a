//! What the core knows of the screen: the geometry the view reports after
//! each frame (a page is the screen's height, a click names a row by its
//! place), and what it asks the view to render again.

use crate::model::ItemId;

/// The last frame, as the view reports it.
#[derive(Debug, Clone)]
pub struct Viewport {
    pub width: u16,
    pub height: u16,
    /// Rows on screen, top to bottom.
    pub visible: Vec<Visible>,
    /// Lines of the selected row that do not fit on the screen.
    pub sel_overflow: usize,
    /// Lines of the first row on screen scrolled off above it.
    pub head_skip: usize,
    /// Lines the list of rows has (the screen less its header and status).
    pub list_height: u16,
}

/// A row on screen: which, the screen line it starts at, how many lines
/// of it are shown, and whether that is all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visible {
    pub row: usize,
    pub y: u16,
    pub lines: u16,
    pub whole: bool,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            width: 80,
            height: 24,
            visible: Vec::new(),
            sel_overflow: 0,
            head_skip: 0,
            list_height: 21,
        }
    }
}

/// Rows whose rendered lines changed since the last frame: the view
/// forgets what it kept of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redraw {
    /// Everything (the session was replaced, the theme's highlighting
    /// arrived).
    pub all: bool,
    pub items: Vec<ItemId>,
    /// The list starts at its first row again (a file rewritten in place).
    pub to_top: bool,
    /// Where the selected row goes on screen (a page turned), instead of
    /// the least move that shows it.
    pub pin: Option<Pin>,
    /// Lines the screen moves down (up when negative) before the selected
    /// row is shown (the mouse wheel).
    pub scroll: isize,
}

/// Where on the screen the selected row is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pin {
    /// Its first line at the top of the screen.
    Top,
    /// Its last line at the bottom of the screen.
    Bottom,
    /// A few lines below the top, under the end of the row before it: a
    /// match or a mark jumped to, read with what led to it.
    Near,
}

impl Redraw {
    pub fn item(&mut self, id: ItemId) {
        if !self.all {
            self.items.push(id);
        }
    }

    pub fn everything(&mut self) {
        self.all = true;
        self.items.clear();
    }
}
