//! Drawing: components that draw from state and never do I/O.

pub mod cache;
pub mod call;
pub mod color;
pub mod content;
pub mod frame;
pub mod list;
mod list_view;
pub mod matches;
pub mod prompt_line;
pub mod row;
pub mod theme;

pub use frame::{draw, render};
pub use list_view::{Geometry, ListView, Visible};
