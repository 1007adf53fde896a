//! The terminal's backend: crossterm's, but a cell whose width terminals
//! disagree on is placed where ccv's buffer puts it, and nothing of it
//! stays when it is written over.
//!
//! The buffer measures a grapheme cluster as unicode-width does: `⚠️` (a
//! symbol and the emoji selector), a flag, `👍🏽`, `👩‍💻` two columns.
//! Terminals differ: tmux 3.3 draws `⚠️` in one column, keeps a flag as
//! two cells of one column each and `👍🏽` as two wide ones; tmux 3.4 and
//! most terminals draw `⚠️` in two; a dingbat (`✍`) or a private-use icon
//! (a Nerd Font's) is one or two by the terminal and its font. Written as
//! crossterm writes a run of cells, the cells after such a cluster could
//! land a column off, and a later frame that wrote over its first column
//! left the rest: in a live session in tmux, stray halves of flags
//! stayed on rows scrolled past them.
//!
//! So each such cluster is written where it belongs and the cell after
//! it is moved to, a wide one after a blank in its second column (a
//! terminal that draws it narrow shows the blank, not what was there
//! before), and a cell written over any column of one is written with
//! every other column it had (this keeps what the screen holds, as the
//! buffer sees it, to know them).

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Rect, Size};
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

/// Crossterm's backend, with the clusters of uncertain width placed (see
/// the module's note).
pub struct Placed<W: Write> {
    inner: CrosstermBackend<W>,
    /// What the screen shows, as the buffer sees it.
    screen: Buffer,
}

impl<W: Write> Placed<W> {
    pub fn new(writer: W) -> Placed<W> {
        let mut p = Placed {
            inner: CrosstermBackend::new(writer),
            screen: Buffer::empty(Rect::default()),
        };
        p.screen = p.blank();
        p
    }

    /// A blank screen of the terminal's size (none when it is not known:
    /// the screen's buffer grows as cells are written).
    fn blank(&self) -> Buffer {
        let size = self.inner.size().unwrap_or_default();
        Buffer::empty(Rect::new(0, 0, size.width, size.height))
    }

    /// [`Placed::new`] for a terminal of `width` by `height`.
    #[cfg(test)]
    fn sized(writer: W, width: u16, height: u16) -> Placed<W> {
        Placed {
            inner: CrosstermBackend::new(writer),
            screen: Buffer::empty(Rect::new(0, 0, width, height)),
        }
    }
}

/// Bytes written around the frames (a bell, an OSC 52 copy) go to the
/// terminal as they are.
impl<W: Write> Write for Placed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

/// Whether terminals differ on the columns `symbol` (one cell's grapheme
/// cluster) takes: a cluster of several characters beyond ASCII (an
/// emoji with its selector, a ZWJ sequence, a flag, a skin tone, a
/// letter and its marks), or one of the symbols that emoji fonts draw
/// (miscellaneous symbols, dingbats, technical and emoji blocks) or a
/// private-use icon. CJK, box drawing, arrows and the rest of ccv's own
/// marks are one width everywhere and stay in the run.
pub fn uncertain(symbol: &str) -> bool {
    if symbol.is_ascii() {
        return false;
    }
    let mut chars = symbol.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return true;
    };
    matches!(
        u32::from(c),
        0x2300..=0x23FF
            | 0x2600..=0x27BF
            | 0x2B00..=0x2BFF
            | 0xE000..=0xF8FF
            | 0xFE00..=0xFE0F
            | 0x1F000..=0x1FAFF
            | 0xF0000..
    )
}

/// The columns the buffer gives `cell` (at least one).
fn columns(cell: &Cell) -> u16 {
    u16::try_from(cell.symbol().width()).map_or(u16::MAX, |w| w.max(1))
}

/// The widest cluster a cell holds, in columns.
const WIDEST: u16 = 4;

impl<W: Write> Placed<W> {
    /// The cluster the screen has over column `x` of row `y`, when it is
    /// one of uncertain width: where it starts and its columns.
    fn uncertain_over(&self, x: u16, y: u16) -> Option<(u16, u16)> {
        (x.saturating_sub(WIDEST - 1)..=x).rev().find_map(|h| {
            let cell = self.screen.cell((h, y))?;
            let w = columns(cell);
            (uncertain(cell.symbol()) && h.saturating_add(w) > x).then_some((h, w))
        })
    }

    /// Whether column `x` of row `y` is the second (or later) column of a
    /// wide cluster the screen has.
    fn covered(&self, x: u16, y: u16) -> bool {
        (x.saturating_sub(WIDEST - 1)..x)
            .any(|h| self.screen.cell((h, y)).is_some_and(|c| h + columns(c) > x))
    }

    /// Makes the screen's buffer hold `(x, y)`, each cell kept where it
    /// is (`Buffer::resize` keeps them in order, not in place).
    fn hold(&mut self, x: u16, y: u16) {
        let a = self.screen.area;
        if x < a.width && y < a.height {
            return;
        }
        let area = Rect::new(
            0,
            0,
            a.width.max(x.saturating_add(1)),
            a.height.max(y.saturating_add(1)),
        );
        let mut screen = Buffer::empty(area);
        for cy in 0..a.height {
            for cx in 0..a.width {
                screen[(cx, cy)] = self.screen[(cx, cy)].clone();
            }
        }
        self.screen = screen;
    }
}

impl<W: Write> Backend for Placed<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut writes: Vec<(u16, u16, &Cell)> = Vec::new();
        // columns of clusters of uncertain width written over: each of
        // their columns is written again (a terminal that keeps a flag
        // as two cells keeps the second when the first is written over)
        let mut again: Vec<(u16, u16)> = Vec::new();
        for (x, y, cell) in content {
            self.hold(x, y);
            // (over each column the cell covers)
            for k in x..x.saturating_add(columns(cell)) {
                if let Some((h, w)) = self.uncertain_over(k, y) {
                    again.extend((h..h.saturating_add(w)).map(|c| (c, y)));
                }
            }
            writes.push((x, y, cell));
        }
        if writes.iter().all(|(_, _, c)| !uncertain(c.symbol())) && again.is_empty() {
            let r = self.inner.draw(writes.iter().copied());
            for (x, y, c) in writes {
                self.put(x, y, c.clone());
            }
            return r;
        }
        let mut todo: Vec<(u16, u16)> = Vec::with_capacity(writes.len() + again.len());
        for (x, y, c) in writes {
            todo.push((x, y));
            self.put(x, y, c.clone());
        }
        todo.extend(again);
        // and the two columns after each cluster of uncertain width
        // written: a terminal that draws it wider than measured (tmux 3.3
        // gives `👍🏽` four columns) drew over them
        let mut seen: std::collections::HashSet<(u16, u16)> = todo.iter().copied().collect();
        let mut i = 0;
        while i < todo.len() {
            let (x, y) = todo[i];
            if let Some(c) = self.screen.cell((x, y))
                && uncertain(c.symbol())
            {
                let end = x.saturating_add(columns(c));
                for k in end..end.saturating_add(2) {
                    if seen.insert((k, y)) {
                        todo.push((k, y));
                    }
                }
            }
            i += 1;
        }
        todo.sort_unstable_by_key(|&(x, y)| (y, x));
        todo.dedup();
        // each as the screen now holds it, but for the columns a wide
        // cluster covers (written with it; a blank is written before one
        // of uncertain width)
        let cells: Vec<(u16, u16, Cell)> = todo
            .into_iter()
            .filter(|&(x, y)| !self.covered(x, y))
            .filter_map(|(x, y)| Some((x, y, self.screen.cell((x, y))?.clone())))
            .collect();
        // in runs that end at each cluster of uncertain width, written
        // alone: the cursor is moved to it and to the cell after it
        let mut run: Vec<(u16, u16, &Cell)> = Vec::new();
        for (x, y, c) in &cells {
            if !uncertain(c.symbol()) {
                run.push((*x, *y, c));
                continue;
            }
            if !run.is_empty() {
                self.inner.draw(run.drain(..))?;
            }
            if columns(c) > 1 {
                let mut blank = c.clone();
                blank.set_symbol(" ");
                self.inner
                    .draw(std::iter::once((x.saturating_add(1), *y, &blank)))?;
            }
            self.inner.draw(std::iter::once((*x, *y, c)))?;
        }
        self.inner.draw(run.into_iter())
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        // (a new size, after a resize, is the screen's)
        self.screen = self.blank();
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        // (what is left is not known cell by cell: none is kept)
        self.screen = self.blank();
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

impl<W: Write> Placed<W> {
    /// The screen holds `cell` at `(x, y)`, and blanks in the columns it
    /// covers.
    fn put(&mut self, x: u16, y: u16, cell: Cell) {
        self.hold(x, y);
        let w = columns(&cell);
        self.screen[(x, y)] = cell;
        for k in x.saturating_add(1)..x.saturating_add(w) {
            if let Some(c) = self.screen.cell_mut((k, y)) {
                c.reset();
            }
        }
    }
}

#[cfg(test)]
mod tests;
