//! The viewer's pure core: its state, the actions that change it (one
//! place: [`state::perform_action`]), the keys that name them, search,
//! live appends, marks, copies as text. It knows no terminal, no thread
//! and no file but the session's: the shell ([`crate::app`]) feeds it
//! events and serves its [`Request`]s; the view draws it.
//!
//! Input goes key -> [`Action`] -> [`state::perform_action`] -> draw.

pub mod action;
mod command;
mod copy;
mod edit;
mod info;
pub use info::Fact;
mod keep;
pub mod key;
pub mod keymap;
pub mod live;
pub mod search;
pub mod state;
pub mod viewport;

pub use action::Action;
pub use keep::Keep;
pub use state::{Mode, Request, State, perform_action};
pub use viewport::{Pin, Redraw, Viewport, Visible};
