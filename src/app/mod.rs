//! The interactive viewer: state, actions, the event loop.
//!
//! Input goes key -> [`Action`] -> [`state::perform_action`] -> draw.
//! Background work (loading, live follow, clipboard) talks to the loop
//! only through the one [`event::AppEvent`] channel.

pub mod action;
mod command;
mod copy;
pub mod demo;
mod edit;
pub mod event;
pub mod export_to;
mod input;
mod keep;
mod key;
pub mod keymap;
pub mod live;
pub mod restore;
mod resume;
pub mod run;
pub mod search;
pub mod state;
mod texts;
mod trace;
mod workers;

pub use action::Action;
pub use run::{Start, run};
pub use state::{Mode, Request, State, perform_action};
