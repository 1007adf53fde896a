//! The texts of a user or assistant line that its rows may show, read off
//! its bytes without decoding it: what the search index lists the words
//! of. Decoding every line through the model was two fifths of an index
//! build, for words that are the line's own strings: a prompt's or an
//! answer's text, a call's name and input, a result's output. Every
//! string and literal of the line is handed over, with the keys of a
//! call's input (an unknown tool's summary shows its first), a call's
//! summary (which may add words: `3 todos`) and the size an image's or a
//! document's placeholder shows; not the values no row ever shows, which
//! are random and would fill the index with words no one types (ids,
//! signatures, times, images' data, a result's structured copy). So the
//! words handed over hold every word a row of the line shows
//! (`tests/index_words.rs` holds this on every line of the corpus); a
//! word too many only makes a query read a span it did not need.
//!
//! A text sanitizing may rewrite (an escape sequence, which it takes out
//! with the letters after it, a backspace: see
//! [`crate::model::text::sanitize`]) is handed over sanitized, as its
//! rows show it: 8% of a generated history's bytes is command
//! output in colour, and each of its lines was decoded for that.
//! Any doubt is `None`, and the caller decodes the line: another kind of
//! line, a shape that does not read as JSON to its end, a key twice.

use super::cursor::Cursor;
use crate::model::Kind;

/// A text of a line, as [`shown_texts`] hands it over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Text<'a> {
    /// As it reads.
    Plain(&'a str),
    /// As JSON writes it: escapes in, each of them (`\n`, `\"`, `\\`...)
    /// one character that is no letter or digit (a string with a `\u`
    /// escape is handed over unescaped, as `Plain`).
    Escaped(&'a str),
}

/// What a line read by [`shown_texts`] is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// A user line (else an assistant's).
    pub user: bool,
    /// What its message holds (see [`Walk::blocks`]).
    blocks: u8,
    /// Its own time, which dates every entry the model makes of it.
    pub time: Option<i64>,
}

impl Shape {
    /// Every kind of entry the model may make of such a line: of a user
    /// line of tool results only, results; of an answer, those of its
    /// blocks, and the kinds an answer of any shape may make (an API
    /// error's text is a system row).
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.may_make(k))
    }

    fn may_make(self, k: Kind) -> bool {
        let blocks = self.blocks;
        if self.user {
            return if blocks == RESULT {
                k == Kind::ToolResult
            } else {
                matches!(
                    k,
                    Kind::User
                        | Kind::ToolResult
                        | Kind::Command
                        | Kind::Meta
                        | Kind::Compaction
                        | Kind::System
                        | Kind::Unknown
                )
            };
        }
        let any = blocks & (PROMPT | OTHER) != 0;
        match k {
            Kind::Meta | Kind::System | Kind::Unknown => true,
            // (an answer with no block: an empty one)
            Kind::Assistant => any || blocks & TEXT != 0 || blocks == 0,
            Kind::Thinking => any || blocks & THINKING != 0,
            Kind::ToolCall => any || blocks & CALL != 0,
            _ => false,
        }
    }
}

/// Hands each text of `line` its rows may show to `each` (see the
/// module's comment), unescaped into `scratch` where it has escapes.
/// `None` on any doubt, after which some texts may have been handed over.
pub fn shown_texts(
    line: &[u8],
    scratch: &mut String,
    each: &mut dyn FnMut(Text<'_>),
) -> Option<Shape> {
    let text = simdutf8::basic::from_utf8(line).ok()?;
    let mut walk = Walk {
        text,
        scratch,
        each,
        user: None,
        time: None,
        message: false,
        copy: false,
        blocks: 0,
    };
    let mut c = Cursor::new(line);
    walk.value(&mut c, At::Top)?;
    c.ws();
    // one entry to the line's end (not two joined: see `cursor::joined`)
    (c.i == line.len()).then_some(())?;
    let user = walk.user?;
    // a line without a message (or with one of another type) is shown as
    // it is written, its keys too: decoded
    if !walk.message {
        return None;
    }
    // a result's copy is not shown where the line is a user's with a
    // message (see `unshown::tool_use_result`); else the line is decoded
    if walk.copy && !user {
        return None;
    }
    Some(Shape {
        user,
        blocks: walk.blocks,
        time: walk.time,
    })
}

/// Where a value is in the line's structure, as far as it tells what is
/// never shown.
#[derive(Clone, Copy, PartialEq)]
enum At {
    Top,
    Message,
    /// A message's (`top`) or a result's `content` array.
    Content {
        top: bool,
    },
    /// An element of a content array.
    Block {
        top: bool,
    },
    /// An image's or a document's `source`.
    Source,
    Other,
}

fn inside(at: At, key: &[u8]) -> At {
    match (at, key) {
        // (not in a call's input, whose values are all shown)
        (At::Block { .. }, b"source") => At::Source,
        (At::Top, b"message") => At::Message,
        (At::Message, b"content") => At::Content { top: true },
        (At::Block { .. }, b"content") => At::Content { top: false },
        _ => At::Other,
    }
}

/// Values no row shows: ids, times, signatures, usage, binary data.
fn never_shown(at: At, key: &[u8]) -> bool {
    match at {
        At::Top => matches!(
            key,
            b"uuid"
                | b"parentUuid"
                | b"logicalParentUuid"
                | b"leafUuid"
                | b"sessionId"
                | b"requestId"
                | b"timestamp"
                | b"promptId"
                | b"messageId"
                | b"sourceToolAssistantUUID"
                | b"sourceToolUseID"
                | b"toolUseID"
                | b"parentToolUseID"
                | b"cwd"
                | b"version"
                | b"gitBranch"
                | b"userType"
        ),
        At::Message => matches!(key, b"id" | b"usage"),
        At::Block { .. } => matches!(key, b"id" | b"tool_use_id" | b"signature" | b"data"),
        At::Source => key == b"data",
        At::Content { .. } | At::Other => false,
    }
}

struct Walk<'l, 's> {
    text: &'l str,
    scratch: &'s mut String,
    each: &'s mut dyn FnMut(Text<'_>),
    /// The line's type: a user's, an assistant's (any other is doubt).
    user: Option<bool>,
    /// Its time, read as the model reads it (see `line_time::own_time`).
    time: Option<i64>,
    /// It has a message that is an object.
    message: bool,
    /// It has a `toolUseResult`, passed over.
    copy: bool,
    /// What its message holds: a prompt's string, blocks of which types.
    blocks: u8,
}

const PROMPT: u8 = 1;
const RESULT: u8 = 2;
const TEXT: u8 = 4;
const THINKING: u8 = 8;
const CALL: u8 = 16;
const OTHER: u8 = 32;

/// A call's name and input, as a block of a message writes them.
#[derive(Default)]
struct Call<'l> {
    name: Option<&'l str>,
    input: Option<&'l str>,
    /// A message's block of a type the model shows as it is (else it
    /// shows `[<type> block]`).
    known: bool,
    /// An image's or a document's block: the words of its placeholder
    /// when its source holds no size (`[image 0 B]`, `[document]`), a few
    /// words too many where it does.
    media: Option<&'static str>,
}

impl<'l> Walk<'l, '_> {
    fn value(&mut self, c: &mut Cursor<'l>, at: At) -> Option<()> {
        match c.peek()? {
            b'"' => {
                let s = c.string()?;
                self.string(s)
            }
            // a content of another shape is shown as its JSON, keys and
            // all (see `raw::Content`): the model's to read
            b'{' if matches!(at, At::Content { .. }) => None,
            b'{' => self.object(c, at),
            b'[' => {
                let element = match at {
                    At::Content { top } => At::Block { top },
                    _ => at,
                };
                c.array(&mut |c| self.value(c, element))
            }
            _ => {
                // a number, true, false or null
                let start = c.i;
                c.skip()?;
                let literal = self.text.get(start..c.i)?;
                (self.each)(Text::Plain(literal));
                if literal.starts_with(|c: char| c == '-' || c.is_ascii_digit())
                    && literal.contains(['.', 'e', 'E'])
                {
                    // as a row shows it, read (`1200.00` is `1200.0`)
                    let shown = serde_json::from_str::<serde_json::Number>(literal).ok()?;
                    (self.each)(Text::Plain(&shown.to_string()));
                }
                Some(())
            }
        }
    }

    fn object(&mut self, c: &mut Cursor<'l>, at: At) -> Option<()> {
        let mut call = Call::default();
        c.object(&mut |c, key| self.member(c, at, key, &mut call))?;
        // a summary may say more than its input: `3 todos · 1 done`,
        // `pattern  in path`, a word cut short whose whole is too long to
        // be listed (see `summary::call_summary`)
        if let Some(input) = call.input {
            // (a call without a name is shown as `?`'s)
            let summary = super::summary::call_summary(call.name.unwrap_or("?"), input);
            (self.each)(Text::Plain(&sanitize(&summary)));
        }
        if at == (At::Block { top: true }) && !call.known {
            // (its type's words are handed over as a string of the line)
            (self.each)(Text::Plain("block"));
        }
        if let Some(placeholder) = call.media {
            (self.each)(Text::Plain(placeholder));
        }
        Some(())
    }

    fn member(
        &mut self,
        c: &mut Cursor<'l>,
        at: At,
        key: &'l [u8],
        call: &mut Call<'l>,
    ) -> Option<()> {
        // a key written with escapes (Claude Code writes none) may be
        // any key, or no JSON serde reads (a lone surrogate): doubt
        if key.contains(&b'\\') {
            return None;
        }
        // keys are the schema's, but for a tool's input, whose first key
        // an unknown tool's summary shows
        if at == At::Other {
            self.string(key)?;
        }
        match (at, key) {
            (At::Top, b"timestamp") => {
                // as `line_time::own_time` reads it: a time the model
                // cannot read is none to it either
                let t = c.string()?;
                if t.contains(&b'\\') {
                    return None;
                }
                self.time = crate::model::time::parse_timestamp(std::str::from_utf8(t).ok()?);
                return Some(());
            }
            (At::Top, b"type") => {
                self.user = Some(match c.string()? {
                    b"user" => true,
                    b"assistant" => false,
                    _ => return None,
                });
                return Some(());
            }
            (At::Top, b"toolUseResult") => {
                self.copy = true;
                return c.skip();
            }
            (At::Top, b"message") => self.message = c.peek()? == b'{',
            (At::Message, b"content") if c.peek()? == b'"' => self.blocks |= PROMPT,
            (At::Block { top: true }, b"type") => {
                let kind = c.string()?;
                let block = match kind {
                    b"tool_result" => RESULT,
                    b"text" => TEXT,
                    b"thinking" | b"redacted_thinking" => THINKING,
                    b"tool_use" | b"server_tool_use" | b"mcp_tool_use" => CALL,
                    _ => OTHER,
                };
                self.blocks |= block;
                call.known = block != OTHER;
                call.media = match kind {
                    b"image" => Some("image 0 B"),
                    b"document" => Some("document"),
                    _ => None,
                };
                return self.string(kind);
            }
            (At::Block { .. }, b"input") => {
                c.peek()?;
                let start = c.i;
                self.value(c, At::Other)?;
                call.input = self.text.get(start..c.i);
                return Some(());
            }
            (At::Block { .. }, b"name") => {
                // a name written with escapes is doubt: its summary is
                // made of the name as it reads
                let raw = c.string()?;
                call.name = Some(
                    std::str::from_utf8(raw)
                        .ok()
                        .filter(|n| !n.contains('\\'))?,
                );
                return self.string(raw);
            }
            _ => {}
        }
        if never_shown(at, key) {
            c.peek()?;
            let start = c.i;
            c.skip()?;
            // a surrogate's escape in a value passed over: serde refuses a
            // lone one, and the model then shows the line as written
            if surrogate_escape(self.text.as_bytes().get(start..c.i)?) {
                return None;
            }
            if at == At::Source {
                // shown as its size, `[image/png 3 KB]`, a document's
                // counted in base64 or not, and a text's type named (see
                // `block_image`, `document_placeholder`)
                let len = (c.i - start).saturating_sub(2) as u64;
                let size = crate::model::item::human_bytes;
                (self.each)(Text::Plain(&size(len * 3 / 4)));
                (self.each)(Text::Plain(&size(len)));
                (self.each)(Text::Plain("text/plain"));
            }
            return Some(());
        }
        self.value(c, inside(at, key))
    }

    /// A string's bytes as the line writes them (escapes in). One that
    /// sanitizing may rewrite (an escape sequence, which it takes out with
    /// the letters after it: `\u001b[31merror`; a backspace) is handed
    /// over as its rows show it, sanitized as the model sanitizes texts.
    fn string(&mut self, raw: &'l [u8]) -> Option<()> {
        let start = raw.as_ptr() as usize - self.text.as_ptr() as usize;
        let s = self.text.get(start..start + raw.len())?;
        if simple_escapes(raw) && !has_c1(raw) {
            (self.each)(Text::Escaped(s));
            return Some(());
        }
        unescape(s, self.scratch)?;
        let text: &str = self.scratch;
        let shown = sanitize(text);
        (self.each)(Text::Plain(&shown));
        if matches!(shown, std::borrow::Cow::Owned(_)) && text.contains("</") {
            // a row may show a tag's body (`<local-command-stdout>…`)
            // sanitized alone, where a sequence cut at its end takes no
            // letter of the tag after it: each run between tags too
            for run in text.split(['<', '>']).filter(|r| !r.is_empty()) {
                (self.each)(Text::Plain(&sanitize(run)));
            }
        }
        Some(())
    }
}

/// Whether every escape of a string (if any) stands for a character that
/// is no letter or digit and that sanitizing keeps: not `\\u`, `\\b`, `\\f`
/// (nor a broken one).
fn simple_escapes(raw: &[u8]) -> bool {
    let mut at = 0;
    while let Some(k) = raw.get(at..).and_then(|r| memchr::memchr(b'\\', r)) {
        match raw.get(at + k + 1) {
            Some(b'n' | b't' | b'r' | b'"' | b'\\' | b'/') => at += k + 2,
            _ => return false,
        }
    }
    true
}

/// Whether `raw` may hold a `\uD800`-`\uDFFF` escape (a `\u` followed
/// by `d` or `D`; Claude Code writes other scripts as they are, so such
/// an escape is rare). A string handed over is checked as it is
/// unescaped; a result's copy passed over is not decoded either way.
fn surrogate_escape(raw: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', raw)
        .any(|i| raw.get(i + 1) == Some(&b'u') && matches!(raw.get(i + 2), Some(b'd' | b'D')))
}

/// Whether a string's bytes hold a C1 control (U+0080..U+009F), which
/// may start an escape sequence.
fn has_c1(raw: &[u8]) -> bool {
    memchr::memchr_iter(0xc2, raw).any(|i| matches!(raw.get(i + 1), Some(0x80..=0x9f)))
}

/// `text` as the model's rows show it (see `model::text::sanitize`).
fn sanitize(text: &str) -> std::borrow::Cow<'_, str> {
    crate::model::text::sanitize(text)
}

/// A JSON string's content with its escapes undone into `out`; `None`
/// for a broken escape (or a lone surrogate, which the model does not
/// read). A carriage return starts a line of its own where it is shown,
/// and is a line break here.
fn unescape(s: &str, out: &mut String) -> Option<()> {
    out.clear();
    let mut rest = s;
    while let Some(k) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.push_str(&rest[..k]);
        let esc = rest.get(k + 1..)?;
        let mut chars = esc.chars();
        let c = match chars.next()? {
            'n' | 'r' => '\n',
            't' => '\t',
            'b' => '\u{8}',
            'f' => '\u{c}',
            c @ ('"' | '\\' | '/') => c,
            'u' => {
                let (c, used) = hex_char(esc.get(1..)?)?;
                rest = esc.get(1 + used..)?;
                out.push(c);
                continue;
            }
            _ => return None,
        };
        out.push(c);
        rest = chars.as_str();
    }
    out.push_str(rest);
    Some(())
}

/// The character of `XXXX` (after `\u`), a surrogate pair's two escapes
/// read together, and the bytes it took.
fn hex_char(s: &str) -> Option<(char, usize)> {
    let unit = |s: &str| u32::from_str_radix(s.get(..4)?, 16).ok();
    let hi = unit(s)?;
    if !(0xd800..0xdc00).contains(&hi) {
        return Some((char::from_u32(hi)?, 4));
    }
    let lo = unit(s.get(4..)?.strip_prefix("\\u")?)?;
    if !(0xdc00..0xe000).contains(&lo) {
        return None;
    }
    let c = char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))?;
    Some((c, 10))
}

#[cfg(test)]
mod tests {
    use super::{Text, shown_texts};
    use crate::model::Kind;

    fn texts(line: &str) -> Option<(Vec<String>, bool)> {
        let mut out = Vec::new();
        let mut scratch = String::new();
        let shape = shown_texts(line.as_bytes(), &mut scratch, &mut |t| {
            out.push(match t {
                Text::Plain(t) => t.to_owned(),
                Text::Escaped(t) => serde_json::from_str(&format!("\"{t}\"")).expect("JSON"),
            })
        })?;
        Some((out, shape.user))
    }

    /// The texts a row may show are handed over, unescaped; ids, times,
    /// signatures, usage, images' data and a result's copy are not.
    #[test]
    fn a_lines_shown_texts_and_not_its_ids() {
        let (got, user) = texts(
            r#"{"type":"assistant","uuid":"u-1","timestamp":"2026-01-01T00:00:00Z","message":{"id":"msg_1","usage":{"input_tokens":7},"content":[{"type":"thinking","thinking":"hm \"q\"\nnext","signature":"c2ln"},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a\/b.rs","limit":20}},{"type":"image","source":{"media_type":"image/png","data":"iVBOR"}}]}}"#,
        )
        .expect("a plain assistant line");
        assert!(!user);
        let all = got.join(" ");
        for shown in ["hm \"q\"\nnext", "Read", "/a/b.rs", "20", "image/png"] {
            assert!(got.iter().any(|t| t == shown), "{shown} in {all}");
        }
        for hidden in ["u-1", "msg_1", "toolu_1", "c2ln", "iVBOR", "2026", "7"] {
            assert!(!all.contains(hidden), "{hidden} in {all}");
        }
        // every value of a call's input is shown, a `source`'s too
        let (got, _) = texts(
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"mcp__s__put","input":{"source":{"data":"payload"}}}]}}"#,
        )
        .expect("a plain assistant line");
        assert!(got.iter().any(|t| t == "payload"), "{got:?}");
        let (got, user) = texts(
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"done\r50%"}]},"toolUseResult":{"stdout":"copy"},"timestamp":"2026-01-01T00:00:00Z"}"#,
        )
        .expect("a plain user line");
        assert!(user);
        assert!(got.iter().any(|t| t == "done\r50%"));
        // (a line of results makes results only; an answer's rows are
        // those of its blocks, and those any answer may make)
        let kinds = |line: &str| {
            let shape = shown_texts(line.as_bytes(), &mut String::new(), &mut |_| {});
            shape.expect("plain").kinds().collect::<Vec<_>>()
        };
        assert_eq!(
            kinds(
                r#"{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"x"}]}]}}"#
            ),
            [Kind::ToolResult]
        );
        assert_eq!(
            kinds(r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"x"}]}}"#),
            [Kind::ToolCall, Kind::System, Kind::Meta, Kind::Unknown]
        );
        assert!(kinds(r#"{"type":"user","message":{"content":"x"}}"#).contains(&Kind::User));
        assert!(!got.join(" ").contains("copy") && !got.join(" ").contains("toolu_1"));
    }

    /// Other kinds of line, broken or joined lines: decoded by the caller.
    #[test]
    fn doubt_is_none() {
        let user = |content: &str| {
            format!(r#"{{"type":"user","message":{{"role":"user","content":"{content}"}}}}"#)
        };
        assert!(texts(&user("plain")).is_some());
        for content in [r"lone \ud800 surrogate", r"bad \x escape"] {
            assert!(texts(&user(content)).is_none(), "{content}");
        }
        // (serde refuses a lone surrogate in a value no row shows too)
        assert!(
            texts(r#"{"type":"user","userType":"x\uDC00","message":{"content":"x"}}"#).is_none()
        );
        let (got, _) = texts(&user(r"emoji \ud83d\ude00 ok")).expect("a pair");
        assert!(got.iter().any(|t| t == "emoji \u{1f600} ok"));
        for line in [
            r#"{"type":"system","content":"x"}"#,
            r#"{"type":"user","message":{"content":"x"}"#,
            r#"{"type":"user","message":{"content":"x"}}{"type":"user"}"#,
            r#"{"type":"user","type":"assistant","message":{}}"#,
            // a content of another shape: its keys are shown too
            r#"{"type":"user","message":{"content":{"note":"x"}}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","content":{"k":1}}]}}"#,
        ] {
            assert!(texts(line).is_none(), "{line}");
        }
    }

    /// A text sanitizing rewrites is handed over as its row shows it.
    #[test]
    fn texts_sanitizing_rewrites_are_handed_over_sanitized() {
        let user = |content: &str| {
            format!(r#"{{"type":"user","message":{{"role":"user","content":"{content}"}}}}"#)
        };
        for (content, shown) in [
            (r"\u001b[31merror\u001b[0m done", "error done"),
            (r"a\bb", "b"),
            ("c1 \u{9b}31mred", "c1 red"),
            (r"c1 \u009b31mred", "c1 red"),
        ] {
            let (got, _) = texts(&user(content)).expect("read off");
            assert!(got.iter().any(|t| t == shown), "{content}: {got:?}");
        }
        let (got, _) = texts(
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls \u001b[1mbold"}}]}}"#,
        )
        .expect("read off");
        assert!(got.iter().all(|t| !t.contains('\u{1b}')), "{got:?}");
    }
}
