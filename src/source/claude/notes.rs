//! Claude Code's own lines read into their whole entry without serde: a
//! system line (`{"type": "system", "subtype": "turn_duration", …}`, a
//! command's output, a compaction's boundary, an API error, a hook's
//! summary) and a file-history snapshot (`{"type":
//! "file-history-snapshot", "snapshot": {…}, …}`). A session has one or
//! two a turn; serde's walk of `RawEntry`'s sixty fields for each was
//! 5% of a cold listing of generated sessions.
//!
//! Held to serde as the answer, result and prompt readers are: the keys
//! it knows, read as serde reads them (a number, a list of hooks or a
//! compaction's figures by serde itself, from the value's bytes), and
//! keys `RawEntry` does not have, passed over as serde passes them.
//! Anything else (another key, a key with an escape or twice, a value of
//! another type, a surrogate's escape) is `None`, and serde decodes the
//! line as before (`tests/note_reader.rs` holds the two equal on every
//! such line of the corpus and on lines cut and bent at random).

use super::answer::{Others, entry, with_envelope};
use super::raw::RawEntry;

/// Keys of these lines that `RawEntry` does not have.
pub const OTHER_TOP: &[&str] = &[
    "userType",
    "slug",
    "messageId",
    "snapshot",
    "isSnapshotUpdate",
    "preventedContinuation",
    "stopReason",
    "hasOutput",
    "toolUseID",
    "microcompactMetadata",
];

/// `text` (one JSON value, trimmed or not) read into `e` (a fresh
/// entry), in place, as serde would read it, when it is a system line or
/// a snapshot of the common shape (see `answer::read_by`). `false`: not
/// read (`e` holds what was read so far, for nothing).
pub fn read_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    const KEYS: [&str; 25] = with_envelope([
        "subtype",
        "level",
        "content",
        "isMeta",
        "logicalParentUuid",
        "durationMs",
        "compactMetadata",
        "error",
        "retryInMs",
        "retryAttempt",
        "maxRetries",
        "hookCount",
        "hookInfos",
        "hookErrors",
        "parentToolUseID",
    ]);
    entry(text, &KEYS, Others::Only(OTHER_TOP), &mut |r, key| {
        match key {
            0..10 => r.envelope(key, e)?,
            10 => e.subtype = r.str_or_null()?,
            11 => e.level = r.str_or_null()?,
            // a string; a list of blocks is serde's
            12 => e.content = r.text_content()?,
            13 => e.is_meta = r.bool_or_null()?,
            14 => e.logical_parent_uuid = r.str_or_null()?,
            15 => e.duration_ms = r.by_serde()?,
            16 => e.compact_metadata = r.by_serde()?,
            17 => e.error = r.raw_value()?,
            18 => e.retry_in_ms = r.by_serde()?,
            19 => e.retry_attempt = r.by_serde()?,
            20 => e.max_retries = r.by_serde()?,
            21 => e.hook_count = r.by_serde()?,
            22 => e.hook_infos = r.by_serde()?,
            23 => e.hook_errors = r.by_serde()?,
            24 => e.parent_tool_use_id_camel = r.str_or_null()?,
            _ => r.skip(1)?,
        }
        Some(())
    })
    .is_some()
}
