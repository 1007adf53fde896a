//! ccv: a terminal viewer for Claude Code sessions.

// no unwrap on what a file or the system hands us (tests may)
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
// a command prints through `say`: a closed pipe is no panic
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod app;
pub mod archive;
pub mod catalog;
pub mod check;
pub mod cli;
pub mod clipboard;
pub mod columns;
pub mod config;
pub mod contain;
pub mod export;
pub mod html;
pub mod json_out;
pub mod json_pretty;
pub mod live;
pub mod manpage;
pub mod model;
pub mod packed;
pub mod paths;
pub mod picker;
pub mod prices;
pub mod priority;
pub mod prompt;
pub mod redact;
pub mod rows;
pub mod say;
pub mod search;
pub mod source;
pub mod stats;
pub mod style;
pub mod top;
pub mod view;
pub mod viewer;
pub mod walk;
pub mod writes;
