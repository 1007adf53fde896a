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
    pub cache: LineCache,
    /// What the last frame drew.
    pub screen: Screen,
}

#[derive(Debug)]
pub struct Screen {
    pub width: u16,
    pub height: u16,
    /// Rows on screen: (row index, first screen line, lines shown).
    pub visible: Vec<(usize, u16, u16)>,
    /// Lines of the selected row that do not fit on the screen.
    pub sel_overflow: usize,
}

impl Default for Screen {
    fn default() -> Self {
        Screen {
            width: 80,
            height: 24,
            visible: Vec::new(),
            sel_overflow: 0,
        }
    }
}
