//! The runtime shell: the event loop, its workers (loading, live follow,
//! the clipboard, the picker's scan and search), the terminal (raw mode,
//! restore on every way out, input), the editor and `claude --resume`,
//! and writing exports. It drives the pure core in [`crate::viewer`] and
//! draws with [`crate::view`]; background work talks to the loop only
//! through the one [`event::AppEvent`] channel.

pub mod backend;
pub mod demo;
pub mod editor;
pub mod event;
pub mod export_to;
mod input;
pub mod restore;
mod resume;
pub use resume::shell_quote;
pub mod run;
pub mod texts;
mod trace;
mod workers;

// the core, by the names the library has always had
pub use crate::viewer::{
    Action, Mode, Request, State, action, keymap, live, perform_action, search, state,
};
pub use run::{Start, run};
