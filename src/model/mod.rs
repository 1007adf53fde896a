//! The model: a session as classified, paired rows (items, tool calls and
//! their results, subagents, branches), its figures and prices, and the
//! rules over them (titles, labels, findings, activity). Its own types
//! only: reading a format into them is a source's job (`crate::source`),
//! and the model never imports one. Knows nothing of terminals.

pub mod activity;
pub mod agents;
pub mod branch;
pub mod breakdown;
pub mod call_facts;
pub mod check;
pub mod figures;
pub mod finding;
pub mod group;
pub mod headline;
pub mod item;
pub mod json_str;
pub mod label;
pub mod lean_rows;
pub mod lines;
pub mod marks;
pub mod patch;
pub mod plain_run;
pub mod price;
pub mod query;
pub mod read_in_parts;
pub mod saved;
pub mod saved_read;
pub mod session;
pub mod stored;
#[cfg(test)]
pub(crate) mod test_rng;
pub mod text;
pub mod time;
pub mod title;
pub mod transcript;
pub mod usage;

pub use branch::Uuid;
pub use item::{Category, Detail, Item, ItemId, Kind, ToolCall, ToolResult};
pub use session::{Agent, Changes, Meta, Session, Stats, Target};
pub use transcript::Transcript;
