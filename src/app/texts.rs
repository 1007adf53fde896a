//! Texts the viewer left in the session file (see `model::stored`), read
//! back for the rows a frame drew.

use super::state::State;

impl State {
    /// Reads back the texts the last frame drew as `…`. True when some
    /// were read: the frame is drawn again.
    pub fn fill_drawn_texts(&mut self) -> bool {
        let misses = std::mem::take(&mut self.list.misses);
        !misses.is_empty() && !self.session.fill_texts(&misses).is_empty()
    }
}
