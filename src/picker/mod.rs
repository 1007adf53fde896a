//! The session picker: the screen over the catalogue (`ui`), its keys
//! (`keys`) and its full-text mode (`found`). `ui` does no file I/O.

pub mod found;
pub mod keys;
pub mod ui;

// the catalogue the picker lists, by its old names too
pub use crate::catalog::{
    ScanEvent, ScanOptions, SessionInfo, SortBy, cache, format, list, list_sessions, scan,
    spawn_scan,
};
pub use ui::{Action, PickerOutcome, PickerState, draw, handle_key, handle_mouse};
