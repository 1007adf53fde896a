//! The model layer: reading Claude Code session files into classified,
//! paired rows. Knows nothing of terminals or ratatui.

pub mod activity;
pub mod agents;
mod attachment;
pub mod branch;
pub mod check;
pub mod classify;
pub mod decode;
pub mod figures;
pub mod finding;
mod ingest;
mod ingest_assistant;
mod ingest_system;
mod ingest_user;
pub mod item;
pub mod json_str;
pub mod label;
pub mod lines;
pub mod loader;
pub mod marks;
pub mod parallel;
pub mod price;
pub mod query;
pub mod raw;
pub mod session;
pub mod stored;
pub mod summary;
pub mod text;
pub mod time;
pub mod title;
pub mod transcript;

pub use branch::Uuid;
pub use item::{Category, Detail, Item, ItemId, Kind, ToolCall, ToolResult};
pub use session::{Agent, Changes, Meta, Session, Stats, Target};
pub use transcript::Transcript;
