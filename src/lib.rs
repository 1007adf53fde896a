//! ccv: a terminal viewer for Claude Code sessions.

pub mod app;
pub mod check;
pub mod cli;
pub mod clipboard;
pub mod export;
pub mod json_out;
pub mod live;
pub mod model;
pub mod paths;
pub mod picker;
pub mod rows;
pub mod view;
