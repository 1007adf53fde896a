//! Claude Code's transcript format: `~/.claude/projects/<project>/<id>.jsonl`
//! and its subagents' files. Everything that knows its JSONL lives here:
//! the line shapes ([`raw`]), decoding ([`decode`]), the ingest of each
//! entry type into the model's items ([`ingest`] and its parts), user
//! text wrappers ([`classify`]), attachments, tool-call summaries, the
//! parallel load of a big file, the files of a session ([`loader`]), the
//! head-and-tail scan the catalogue lists with ([`scan`]), the project a
//! directory's name encodes, and how to resume a session.

pub mod answer;
pub mod attachment;
mod checked_string;
pub mod classify;
mod cursor;
pub mod decode;
pub mod figures;
mod ingest;
mod ingest_assistant;
mod ingest_system;
mod ingest_user;
mod lean;
pub mod line_time;
pub mod loader;
pub mod notes;
pub mod parallel;
pub mod progress;
pub mod prompts;
pub mod raw;
pub mod read;
pub mod results;
pub mod resume;
pub mod scan;
pub mod shown_text;
mod spanning;
mod string_end;
pub(crate) use string_end::escaped;
pub mod summary;
pub mod title;
pub mod unshown;
pub mod use_result;
