//! Drawing: components that draw from state and never do I/O.

pub mod cache;
pub mod call;
// the style layer, by its old names too
pub use crate::style::{color, theme};
pub mod content;
pub mod frame;
mod info;
pub mod list;
mod list_view;
pub mod matches;
pub mod row;

pub use crate::viewer::{Viewport as Geometry, Visible};
pub use frame::{draw, render};
pub use list_view::ListView;
