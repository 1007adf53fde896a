//! A line of tool results read into its whole entry without serde's scan
//! of its texts: most of a session's bytes are tool output, one string a
//! result, and serde looked for its end eight bytes at a time, stopping
//! at every escape (a line break every few dozen bytes). This reader
//! checks the line as JSON the way serde would, with the answer reader's
//! strings (sixteen bytes at a time, escapes in place), and fills the
//! fields serde fills; the structured copy of the result, and a result
//! that is a list of blocks, are still read by serde.
//!
//! It answers only for the shape Claude Code writes (`{"type": "user",
//! "message": {"role": "user", "content": [{"type": "tool_result",
//! "tool_use_id": …, "content": …, "is_error": …}]}, …}`): the keys it
//! knows, and keys `RawEntry` does not have. Anything else (another key,
//! a key with an escape or twice, a value of another type, a surrogate's
//! escape, white space between tokens) is `None`, and the line is decoded
//! by serde as before (`tests/result_reader.rs` holds the two equal on
//! every result of the corpus and on lines cut and bent at random).

use super::answer::{Others, Reader, entry, user_message, with_envelope};
use super::raw::{Block, Content, RawEntry};

/// Keys of a result's line that `RawEntry` does not have.
pub const OTHER_TOP: &[&str] = &["userType", "slug", "sourceToolAssistantUUID"];

/// `text` (one JSON value, trimmed or not) read into `e` (a fresh
/// entry), in place, as serde would read it, when it is a line of tool
/// results of the common shape (see `answer::read_by`). `false`: not
/// read (`e` holds what was read so far, for nothing).
pub fn read_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    const KEYS: [&str; 13] = with_envelope(["isMeta", "message", "toolUseResult"]);
    entry(text, &KEYS, Others::Only(OTHER_TOP), &mut |r, key| {
        match key {
            0..10 => r.envelope(key, e)?,
            10 => e.is_meta = r.bool_or_null()?,
            11 => e.message = user_message(r, |r| Some(Some(Content::Blocks(results(r)?))))?,
            12 => e.tool_use_result = r.by_serde()?,
            _ => r.skip(1)?,
        }
        Some(())
    })
    .is_some()
}

/// A message's list of blocks, each a result's keys only.
fn results<'a>(r: &mut Reader<'a>) -> Option<Vec<Block<'a>>> {
    r.list(|r| {
        let mut b = Block::default();
        let keys = &["type", "tool_use_id", "content", "is_error"];
        r.object(keys, Others::Only(&[]), &mut |r, key| {
            match key {
                0 => b.kind = r.str_or_null()?,
                1 => b.tool_use_id = r.str_or_null()?,
                // as `raw::result_content` reads it: a string as written,
                // anything else as `Content` reads it
                2 => {
                    b.content = match r.peek()? {
                        b'"' => r.text_or_null()?.map(|t| Box::new(Content::Text(t))),
                        b'n' => r.literal("null").map(|()| None)?,
                        _ => Some(Box::new(r.by_serde::<Content<'a>>()?)),
                    }
                }
                3 => b.is_error = r.bool_or_null()?,
                _ => r.skip(3)?,
            }
            Some(())
        })?;
        Some(b)
    })
}
