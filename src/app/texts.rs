//! Tool output the viewer left in the session file (see `model::stored`),
//! read back for the rows a frame drew open.

use super::state::State;

impl State {
    /// Reads back the output the last frame drew as a placeholder. True
    /// when some was read: the frame is drawn again.
    pub fn fill_drawn_texts(&mut self) -> bool {
        let misses = std::mem::take(&mut self.list.misses);
        !misses.is_empty() && !self.session.fill_texts(&misses).is_empty()
    }
}
