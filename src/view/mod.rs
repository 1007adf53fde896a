//! Drawing: components that draw from state and never do I/O.

pub mod content;
pub mod theme;
