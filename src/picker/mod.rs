//! The session picker and `ccv list`: finding sessions under a projects
//! root (`list`, `scan`, `cache`), and the picker screen (`ui`).
//! `scan`/`list`/`cache` know nothing of ratatui; `ui` does no file I/O.

pub mod cache;
pub mod format;
pub mod found;
pub mod list;
pub mod scan;
pub mod ui;

pub use list::{ScanEvent, ScanOptions, SortBy, list_sessions, spawn_scan};
pub use scan::SessionInfo;
pub use ui::{Action, PickerOutcome, PickerState, draw, handle_key, handle_mouse};
