//! The session catalogue: every session under a projects root, found
//! (`files`, `candidates`, `list`), named and counted from its head and tail (`scan`),
//! priced (`list::with_figures`), cached (`cache`), read in pieces of whole
//! lines (`pieces`) and printed (`format`). The picker, `ccv search`, `ccv
//! stats` and `ccv top` use it; none of them owns it. It knows nothing of
//! ratatui.

pub mod cache;
mod cache_rows;
mod candidates;
pub mod files;
pub mod folders;
pub mod format;
#[cfg(target_os = "linux")]
pub mod inotify;
mod json_rows;
pub mod list;
pub mod open_dir;
pub mod pieces;
pub mod scan;

pub use list::{ScanEvent, ScanOptions, SortBy, list_sessions, spawn_scan};

/// Worker threads for a pass over every session: `$CCV_THREADS` when set
/// (to measure how a pass scales), else one per core, at most 8.
pub fn threads() -> usize {
    std::env::var("CCV_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            // asked once: each answer reads the cgroup's files again
            static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            *CORES.get_or_init(|| {
                std::thread::available_parallelism()
                    .map_or(2, |n| n.get())
                    .min(8)
            })
        })
}
pub use scan::SessionInfo;
