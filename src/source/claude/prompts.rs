//! A prompt's line read into its whole entry without serde: a user line
//! whose message is one string (`{"type": "user", "message": {"role":
//! "user", "content": "…"}, …}`: prompts, commands, notes from Claude
//! Code). They are few and short, but serde's walk of their sixty fields
//! and a dozen keys it does not know cost a listing of generated
//! sessions a tenth of its instructions (31 thousand a line, where an
//! answer of the same bytes takes a few thousand with its reader).
//!
//! Held to serde as the answer and result readers are: the keys it
//! knows, keys `RawEntry` does not have (passed over, as serde passes
//! them), a string or `null` for the message's content. Anything else (a
//! list of blocks, another key, a key with an escape or twice, a value of
//! another type, a surrogate's escape) is `None`, and serde decodes the
//! line as before (`tests/prompt_reader.rs` holds the two equal on every
//! such line of the corpus and on lines cut and bent at random).

use super::answer::{Others, Reader, entry, user_message, with_envelope};
use super::raw::{Content, JsonStr, RawEntry};

/// Keys of a prompt's line that `RawEntry` does not have.
pub const OTHER_TOP: &[&str] = &[
    "userType",
    "slug",
    "thinkingMetadata",
    "todos",
    "isVisibleInTranscriptOnly",
    "planContent",
    "promptId",
    "imagePasteIds",
    "interruptedMessageId",
    "sourceToolUseID",
    "sourceToolAssistantUUID",
    "origin",
    "promptSource",
];

/// What a line that may be read here holds near its start (its message,
/// after the envelope's keys, as Claude Code writes it): other lines are
/// not tried.
pub const SHAPE: &[u8] = br#"{"role":"user","content":""#;

/// `text` (one JSON value, trimmed or not) read into `e` (a fresh
/// entry), in place, as serde would read it, when it is a prompt's line
/// of the common shape (see `answer::read_by`). `false`: not read (`e`
/// holds what was read so far, for nothing).
pub fn read_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    const KEYS: [&str; 14] =
        with_envelope(["isMeta", "isCompactSummary", "permissionMode", "message"]);
    entry(text, &KEYS, Others::Only(OTHER_TOP), &mut |r, key| {
        match key {
            0..10 => r.envelope(key, e)?,
            10 => e.is_meta = r.bool_or_null()?,
            11 => e.is_compact_summary = r.bool_or_null()?,
            12 => e.permission_mode = r.str_or_null()?,
            13 => e.message = user_message(r, text_content)?,
            _ => r.skip(1)?,
        }
        Some(())
    })
    .is_some()
}

/// A message's content as `raw::Content` reads a string (decoded, as
/// serde hands it over); a list of blocks is serde's.
fn text_content<'a>(r: &mut Reader<'a>) -> Option<Option<Content<'a>>> {
    Some(r.str_or_null()?.map(|t| Content::Text(JsonStr::Text(t))))
}
