//! A prompt's line read into its whole entry without serde: a user line
//! whose message is a string or a list of texts and images (`{"type":
//! "user", "message": {"role": "user", "content": "…"}, …}`: prompts,
//! commands, notes from Claude Code, pictures pasted with a prompt). They
//! are few and short (but for the pictures' base64), yet serde's walk of
//! their sixty fields and a dozen keys it does not know cost a listing
//! of generated sessions a tenth of its instructions (31 thousand a line,
//! where an answer of the same bytes takes a few thousand with its
//! reader).
//!
//! Held to serde as the answer and result readers are: the keys it
//! knows, keys `RawEntry` does not have (passed over, as serde passes
//! them), a string, `null` or a list of text and image blocks for the
//! message's content. Anything else (another block's key, another key, a
//! key with an escape or twice, a value of another type, a surrogate's
//! escape) is `None`, and serde decodes the line as before
//! (`tests/prompt_reader.rs` holds the two equal on every such line of
//! the corpus and on lines cut and bent at random).

use super::answer::{Others, Reader, entry, user_message, with_envelope};
use super::raw::{Block, Content, ImageSource, RawEntry};

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
/// after the envelope's keys), before its content (see [`may_read`]).
const SHAPE: &[u8] = br#"{"role":"user","content":"#;

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
            13 => e.message = user_message(r, prompt_content)?,
            _ => r.skip(1)?,
        }
        Some(())
    })
    .is_some()
}

/// A message's content as `raw::Content` reads it: a string (decoded, as
/// serde hands it over), or a list of text and image blocks (a picture
/// pasted with a prompt: its base64 is most of the line, and serde read
/// it eight bytes at a time for its `&RawValue`).
fn prompt_content<'a>(r: &mut Reader<'a>) -> Option<Option<Content<'a>>> {
    if r.peek()? == b'[' {
        return Some(Some(Content::Blocks(blocks(r)?)));
    }
    r.text_content()
}

/// A prompt's blocks, each an object of a text's or an image's keys.
fn blocks<'a>(r: &mut Reader<'a>) -> Option<Vec<Block<'a>>> {
    r.list(|r| {
        let mut b = Block::default();
        r.object(
            &["type", "text", "source"],
            Others::Only(&[]),
            &mut |r, key| {
                match key {
                    0 => b.kind = r.str_or_null()?,
                    1 => b.text = r.text_or_null()?,
                    2 => b.source = image_source(r)?,
                    _ => r.skip(3)?,
                }
                Some(())
            },
        )?;
        Some(b)
    })
}

/// An image's source, its data kept as written once checked.
fn image_source<'a>(r: &mut Reader<'a>) -> Option<Option<Box<ImageSource<'a>>>> {
    if r.literal("null").is_some() {
        return Some(None);
    }
    let mut s = ImageSource::default();
    let keys = &["type", "media_type", "data", "url"];
    r.object(keys, Others::Only(&[]), &mut |r, key| {
        match key {
            0 => s.kind = r.str_or_null()?,
            1 => s.media_type = r.str_or_null()?,
            2 => s.data = r.raw_json()?,
            3 => s.url = r.str_or_null()?,
            _ => r.skip(4)?,
        }
        Some(())
    })?;
    Some(Some(Box::new(s)))
}

/// Whether a line may be read here, by what follows its message's role
/// (`{"role":"user","content":`, as Claude Code writes it, near the
/// line's start): a string, or a list that starts with a text or an
/// image (a list of tool results is another reader's).
pub fn may_read(head: &[u8]) -> bool {
    static FIND: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(SHAPE));
    FIND.find(head).is_some_and(|at| {
        let rest = &head[at + SHAPE.len()..];
        rest.starts_with(b"\"")
            || rest.starts_with(br#"[{"type":"text""#)
            || rest.starts_with(br#"[{"type":"image""#)
    })
}
