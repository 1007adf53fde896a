//! Texts the viewer left in the session file (see `model::stored`), read
//! back for the rows a frame drew.

use crate::view::ListView;
use crate::viewer::State;

/// Reads back the texts the last frame drew as `…`. True when some were
/// read: the frame is drawn again.
pub fn fill_drawn(state: &mut State, list: &mut ListView) -> bool {
    let misses = std::mem::take(&mut list.misses);
    !misses.is_empty() && !state.session.fill_texts(&misses).is_empty()
}
