//! A progress line read into its whole entry without serde: `{"type":
//! "progress", "data": {"type": "agent_progress", "agentId": …,
//! "message": {…the agent's line…}, "prompt": …}, …}`, which an older
//! session writes for each line of a subagent that has no file of its
//! own, and a hook's or a command's progress. The copied line is most of
//! its bytes: serde walked it for its `&RawValue` and passed over the
//! agent's prompt (written again on every line), a fifteenth of a cold
//! listing of the real corpus. Here both are passed over with the
//! reader's checks (as serde checks them), and the copy kept as written
//! (`raw::RawJson`), which the model reads next.
//!
//! Held to serde as the other readers are: the keys it knows, keys
//! `RawEntry` does not have at the top, any key in `data` (where serde
//! passes over all but three). Anything else (another key, a key with an
//! escape or twice, a value of another type, a surrogate's escape) is
//! `None`, and serde decodes the line as before
//! (`tests/progress_reader.rs` holds the two equal on every progress line
//! of the corpus and on lines cut and bent at random).

use super::answer::{Others, Reader, entry, with_envelope};
use super::raw::{ProgressData, RawEntry};

/// Keys of a progress line that `RawEntry` does not have.
pub const OTHER_TOP: &[&str] = &["userType", "slug", "toolUseID"];

/// `text` (one JSON value, trimmed or not) read into `e` (a fresh
/// entry), in place, as serde would read it, when it is a progress line
/// of the common shape (see `answer::read_by`). `false`: not read (`e`
/// holds what was read so far, for nothing).
pub fn read_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    const KEYS: [&str; 12] = with_envelope(["data", "parentToolUseID"]);
    entry(text, &KEYS, Others::Only(OTHER_TOP), &mut |r, key| {
        match key {
            0..10 => r.envelope(key, e)?,
            10 => e.data = data(r)?,
            11 => e.parent_tool_use_id_camel = r.str_or_null()?,
            _ => r.skip(1)?,
        }
        Some(())
    })
    .is_some()
}

fn data<'a>(r: &mut Reader<'a>) -> Option<Option<ProgressData<'a>>> {
    if r.literal("null").is_some() {
        return Some(None);
    }
    let mut d = ProgressData::default();
    r.object(
        &["type", "agentId", "message"],
        Others::Any,
        &mut |r, key| {
            match key {
                0 => d.kind = r.str_or_null()?,
                1 => d.agent_id = r.str_or_null()?,
                2 => d.message = r.raw_json()?,
                _ => r.skip(2)?,
            }
            Some(())
        },
    )?;
    Some(Some(d))
}
