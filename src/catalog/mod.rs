//! The session catalogue: every session under a projects root, found
//! (`files`, `list`), named and counted from its head and tail (`scan`),
//! priced (`list::with_figures`), cached (`cache`), read in pieces of whole
//! lines (`pieces`) and printed (`format`). The picker, `ccv search`, `ccv
//! stats` and `ccv top` use it; none of them owns it. It knows nothing of
//! ratatui.

pub mod cache;
pub mod files;
pub mod format;
pub mod list;
pub mod pieces;
pub mod scan;

pub use list::{ScanEvent, ScanOptions, SortBy, list_sessions, spawn_scan};
pub use scan::SessionInfo;
