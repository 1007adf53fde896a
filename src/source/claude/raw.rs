//! The shapes of a session line as serde sees them, borrowed from the line.
//!
//! Every field is optional and unknown fields are skipped: Claude Code adds
//! fields and entry types every month. The whole line is parsed in one pass
//! (nested typed structs, not `Value` and not a second parse of a
//! `RawValue`), which is what keeps a 100 MB export close to a bare parse.

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

pub use super::use_result::UseResult;
pub use crate::model::json_str::JsonStr;
pub use crate::model::patch::{Hunk, Meaning, PatchLines, ToolUseResult};
pub use crate::model::usage::{CacheCreation, MAX_REQUEST_TOKENS, Usage};

type Str<'a> = Option<Cow<'a, str>>;

/// A [`Str`] field: borrowed from the line when it holds no escape. serde
/// borrows a `Cow` field only when it is not in an `Option`: these were
/// each a `String` of their own, a dozen allocations a line.
pub(super) fn borrowed<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Str<'a>, D::Error> {
    struct Borrowed<'a>(Cow<'a, str>);
    impl<'de: 'a, 'a> Deserialize<'de> for Borrowed<'a> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<'a>(std::marker::PhantomData<&'a ()>);
            impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
                type Value = Borrowed<'a>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a string")
                }
                fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Borrowed<'a>, E> {
                    Ok(Borrowed(Cow::Borrowed(v)))
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Borrowed<'a>, E> {
                    Ok(Borrowed(Cow::Owned(v.to_owned())))
                }
                fn visit_string<E: de::Error>(self, v: String) -> Result<Borrowed<'a>, E> {
                    Ok(Borrowed(Cow::Owned(v)))
                }
            }
            d.deserialize_str(V(std::marker::PhantomData))
        }
    }
    Ok(Option::<Borrowed<'a>>::deserialize(d)?.map(|b| b.0))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RawEntry<'a> {
    #[serde(rename = "type", borrow, default, deserialize_with = "borrowed")]
    pub kind: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub subtype: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub uuid: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub parent_uuid: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub logical_parent_uuid: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub session_id: Str<'a>,
    #[serde(rename = "session_id", borrow, default, deserialize_with = "borrowed")]
    pub session_id_snake: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub timestamp: Str<'a>,
    pub is_sidechain: Option<bool>,
    pub is_meta: Option<bool>,
    pub is_compact_summary: Option<bool>,
    pub is_api_error_message: Option<bool>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub agent_id: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub cwd: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub version: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub git_branch: Str<'a>,
    #[serde(borrow)]
    pub message: Option<RawMessage<'a>>,
    /// `system` lines: text; `queue-operation`: the queued prompt.
    #[serde(borrow)]
    pub content: Option<Content<'a>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub level: Str<'a>,
    pub tool_use_result: Option<UseResult>,
    // system subtypes
    pub duration_ms: Option<f64>,
    pub compact_metadata: Option<CompactMetadata>,
    pub hook_count: Option<u64>,
    #[serde(borrow)]
    pub hook_infos: Option<Vec<HookInfo<'a>>>,
    pub hook_errors: Option<Vec<IgnoredAny>>,
    pub retry_attempt: Option<u64>,
    pub max_retries: Option<u64>,
    pub retry_in_ms: Option<f64>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
    // metadata entries
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub summary: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub leaf_uuid: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub ai_title: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub custom_title: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub last_prompt: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub mode: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub permission_mode: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub pr_url: Str<'a>,
    pub pr_number: Option<u64>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub operation: Str<'a>,
    /// `continued-in`: the session this one goes on in.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub continued_in_session_id: Str<'a>,
    /// `cost-state`: Claude Code's running total for the session.
    #[serde(rename = "totalCostUSD")]
    pub total_cost_usd_camel: Option<f64>,
    /// `frame-link`: an artifact published from the session.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub frame_url: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub title: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub path: Str<'a>,
    #[serde(borrow)]
    pub data: Option<ProgressData<'a>>,
    /// Kept raw: attachment lines are few, and their kinds many.
    #[serde(borrow)]
    pub attachment: Option<&'a RawValue>,
    // stream-json (`claude -p --output-format stream-json --verbose`)
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub model: Str<'a>,
    pub tools: Option<Vec<IgnoredAny>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub result: Str<'a>,
    pub is_error: Option<bool>,
    #[serde(rename = "total_cost_usd")]
    pub total_cost_usd: Option<f64>,
    #[serde(rename = "duration_ms")]
    pub duration_ms_snake: Option<f64>,
    #[serde(rename = "num_turns")]
    pub num_turns: Option<u64>,
    #[serde(
        rename = "parent_tool_use_id",
        borrow,
        default,
        deserialize_with = "borrowed"
    )]
    pub parent_tool_use_id: Str<'a>,
    /// `progress` lines: the call they report on.
    #[serde(
        rename = "parentToolUseID",
        borrow,
        default,
        deserialize_with = "borrowed"
    )]
    pub parent_tool_use_id_camel: Str<'a>,
    pub usage: Option<Usage>,
    /// What the ingest computes from the entry alone, when the thread that
    /// decoded the line already did (see `model::parallel`).
    #[serde(skip)]
    pub digest: Option<Digest>,
}

/// What the ingest computes from an entry alone (see
/// [`super::ingest::digest`]): worked out on the thread that decodes a
/// line, the ingesting thread (which every line waits for) does not.
#[derive(Debug, Clone, Copy)]
pub struct Digest {
    pub fingerprint: u64,
    pub time: Option<i64>,
    pub role: crate::model::branch::Role,
}

impl RawEntry<'_> {
    /// The typed fields of the `attachment` object.
    pub fn attachment(&self) -> Option<Attachment<'_>> {
        serde_json::from_str(self.attachment?.get()).ok()
    }

    /// Decodes every string left as written (see [`JsonStr`]).
    pub fn decode_texts(&mut self) {
        let message = self.message.as_mut().and_then(|m| m.content.as_mut());
        for c in message.into_iter().chain(self.content.as_mut()) {
            c.decode_texts();
        }
    }
}

impl Content<'_> {
    fn decode_texts(&mut self) {
        match self {
            Content::Text(t) => t.decode(),
            Content::Blocks(bs) => {
                for b in bs {
                    for t in [&mut b.text, &mut b.thinking].into_iter().flatten() {
                        t.decode();
                    }
                    if let Some(c) = &mut b.content {
                        c.decode_texts();
                    }
                }
            }
            Content::Other => {}
        }
    }
}

#[derive(Deserialize, Default)]
pub struct RawMessage<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub id: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub model: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub role: Str<'a>,
    #[serde(borrow)]
    pub content: Option<Content<'a>>,
    pub usage: Option<Usage>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub stop_reason: Str<'a>,
}

/// `message.content` and `tool_result.content`: a string or a list of blocks.
pub enum Content<'a> {
    Text(JsonStr<'a>),
    Blocks(Vec<Block<'a>>),
    Other,
}

#[derive(Deserialize, Default)]
pub struct Block<'a> {
    #[serde(rename = "type", borrow, default, deserialize_with = "borrowed")]
    pub kind: Str<'a>,
    #[serde(borrow)]
    pub text: Option<JsonStr<'a>>,
    #[serde(borrow)]
    pub thinking: Option<JsonStr<'a>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub id: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub name: Str<'a>,
    /// A call's input as written (see [`RawJson`]).
    #[serde(borrow)]
    pub input: Option<RawJson<'a>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub tool_use_id: Str<'a>,
    /// Read as written first: most of a session's bytes are results that
    /// are one string, which then stays undecoded (see [`JsonStr`]).
    #[serde(borrow, default, deserialize_with = "result_content")]
    pub content: Option<Box<Content<'a>>>,
    pub is_error: Option<bool>,
    /// An image's or a document's source; a search result's is its URL
    /// (a string), read as a source of that URL.
    #[serde(borrow, default, deserialize_with = "block_source")]
    pub source: Option<Box<ImageSource<'a>>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub tool_name: Str<'a>,
    /// `document` blocks: the document's title.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub title: Str<'a>,
    /// A call's one-line summary, when the thread that decoded the line
    /// already made it (see `model::parallel`).
    #[serde(skip)]
    pub summary: Option<String>,
}

#[derive(Deserialize, Default)]
pub struct ImageSource<'a> {
    /// `base64`, `text`, `url`, `content`, `file`.
    #[serde(rename = "type", borrow, default, deserialize_with = "borrowed")]
    pub kind: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub media_type: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub url: Str<'a>,
    /// Only its length is used (the size shown as `[image/png 34 KB]`).
    #[serde(borrow)]
    pub data: Option<RawJson<'a>>,
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct CompactMetadata {
    pub trigger: Option<String>,
    pub pre_tokens: Option<u64>,
}

#[derive(Deserialize, Default)]
pub struct HookInfo<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub command: Str<'a>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ProgressData<'a> {
    #[serde(rename = "type", borrow, default, deserialize_with = "borrowed")]
    pub kind: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub agent_id: Str<'a>,
    /// `agent_progress`: the subagent's line, mirrored.
    #[serde(borrow)]
    pub message: Option<RawJson<'a>>,
}

/// A JSON value as written, as serde's `&RawValue` keeps it; a value a
/// reader held to serde checked (an agent's copied line, a call's input,
/// a picture's data: see `super::answer::Reader::raw_json`) is kept
/// without serde's second walk of it.
#[derive(Clone, Copy, Debug)]
pub struct RawJson<'a>(pub &'a str);

impl<'a> RawJson<'a> {
    pub fn get(&self) -> &'a str {
        self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for RawJson<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'de RawValue>::deserialize(d).map(|v| RawJson(v.get()))
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Attachment<'a> {
    #[serde(rename = "type", borrow, default, deserialize_with = "borrowed")]
    pub kind: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub hook_name: Str<'a>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub hook_event: Str<'a>,
    /// `queued_command`: what the user typed while Claude worked.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub prompt: Str<'a>,
    #[serde(rename = "commandMode", borrow, default, deserialize_with = "borrowed")]
    pub command_mode: Str<'a>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a list of content blocks")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Content<'a>, E> {
                Ok(Content::Text(JsonStr::Text(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(JsonStr::Text(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(JsonStr::Text(Cow::Owned(v))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(1));
                while let Some(b) = seq.next_element::<MaybeBlock<'a>>()? {
                    blocks.push(b.0);
                }
                Ok(Content::Blocks(blocks))
            }
            // a value of another shape (an object, a number) is shown as
            // the JSON it is, not left out as an empty message: a
            // future shape is read by someone before ccv knows it
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Content<'a>, A::Error> {
                let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(as_json(&v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Content<'a>, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Content<'a>, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Content<'a>, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Content<'a>, E> {
                Ok(as_json(&v.into()))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A content of another shape than text or blocks, as the JSON it is.
fn as_json<'a>(v: &serde_json::Value) -> Content<'a> {
    Content::Text(JsonStr::Text(Cow::Owned(v.to_string())))
}

/// A block that is not an object (a bare string in a content list) becomes
/// a text block rather than failing the line.
struct MaybeBlock<'a>(Block<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeBlock<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = MaybeBlock<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MaybeBlock<'a>, A::Error> {
                Block::deserialize(de::value::MapAccessDeserializer::new(map)).map(MaybeBlock)
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(text_block(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(text_block(Cow::Owned(v.to_owned()))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MaybeBlock<'a>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(Block::default()))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<MaybeBlock<'a>, E> {
                Ok(MaybeBlock(Block::default()))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

fn text_block(t: Cow<'_, str>) -> Block<'_> {
    Block {
        kind: Some(Cow::Borrowed("text")),
        text: Some(JsonStr::Text(t)),
        ..Default::default()
    }
}

/// A result's `content`: a string is kept as written; a list (or anything
/// else) is read from what was written, as [`Content`] reads it.
fn block_source<'de: 'a, 'a, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Box<ImageSource<'a>>>, D::Error> {
    struct V<'a>(std::marker::PhantomData<&'a ()>);
    impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
        type Value = Option<Box<ImageSource<'a>>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a source object or a URL")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            ImageSource::deserialize(de::value::MapAccessDeserializer::new(map))
                .map(|s| Some(Box::new(s)))
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Box::new(ImageSource {
                url: Some(Cow::Borrowed(v)),
                ..ImageSource::default()
            })))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Box::new(ImageSource {
                url: Some(Cow::Owned(v.to_owned())),
                ..ImageSource::default()
            })))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

fn result_content<'de: 'a, 'a, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Box<Content<'a>>>, D::Error> {
    let Some(raw) = Option::<&'de RawValue>::deserialize(d)? else {
        return Ok(None);
    };
    let content = if raw.get().starts_with('"') {
        Content::Text(JsonStr::of_raw(raw)?)
    } else {
        Content::deserialize(raw).map_err(de::Error::custom)?
    };
    Ok(Some(Box::new(content)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings of a line are borrowed from it, not copied, unless they
    /// hold an escape; long texts stay as written.
    /// A content that is neither text nor blocks is its JSON, shown (a
    /// shape Claude Code may write one day); `null` is none.
    #[test]
    fn a_content_of_another_shape_is_its_json() {
        let text = |line: &str| {
            let mut e: RawEntry<'_> = serde_json::from_str(line).expect("line");
            match e.message.take().and_then(|m| m.content) {
                Some(Content::Text(t)) => Some(t.into_text().into_owned()),
                Some(Content::Blocks(b)) => match b.into_iter().next()?.content.map(|c| *c) {
                    Some(Content::Text(t)) => Some(t.into_text().into_owned()),
                    _ => None,
                },
                _ => None,
            }
        };
        for (content, shown) in [
            (
                r#"{"type":"text","text":"hi"}"#,
                r#"{"type":"text","text":"hi"}"#,
            ),
            ("42", "42"),
            ("-1.5", "-1.5"),
            ("true", "true"),
        ] {
            let line = format!(r#"{{"type":"assistant","message":{{"content":{content}}}}}"#);
            assert_eq!(text(&line).as_deref(), Some(shown), "{content}");
            let result = format!(
                r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":{content}}}]}}}}"#
            );
            assert_eq!(text(&result).as_deref(), Some(shown), "{content}");
        }
        assert_eq!(text(r#"{"type":"user","message":{"content":null}}"#), None);
    }

    #[test]
    fn strings_borrow_from_the_line() {
        let line = r#"{"type":"assistant","uuid":"u-1","parentUuid":null,"timestamp":"2025-01-01T00:00:00Z","cwd":"C:\\dir","message":{"id":"m","model":"claude","role":"assistant","content":[{"type":"text","text":"two\nlines"},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}"#;
        let e: RawEntry<'_> = serde_json::from_str(line).expect("line");
        assert!(matches!(e.kind, Some(Cow::Borrowed("assistant"))));
        assert!(matches!(e.uuid, Some(Cow::Borrowed("u-1"))));
        assert!(e.parent_uuid.is_none());
        assert!(matches!(e.timestamp, Some(Cow::Borrowed(_))));
        // an escape makes it a copy, decoded
        assert!(matches!(e.cwd.as_deref(), Some("C:\\dir")));
        assert!(matches!(e.cwd, Some(Cow::Owned(_))));
        let m = e.message.expect("message");
        assert!(matches!(m.id, Some(Cow::Borrowed("m"))));
        let Some(Content::Blocks(blocks)) = m.content else {
            panic!("blocks")
        };
        assert_eq!(
            blocks[0].text.as_ref().and_then(JsonStr::token),
            Some(r#""two\nlines""#)
        );
        assert!(matches!(blocks[1].name, Some(Cow::Borrowed("Bash"))));
        // a field of another type still fails the line, as a `Cow` did
        assert!(serde_json::from_str::<RawEntry<'_>>(r#"{"uuid":5}"#).is_err());
    }
}
