//! An answer's line read for its figures without serde: a third of a
//! history's bytes are answers, and decoding each into a whole
//! [`RawEntry`] (sixty fields, every block in full) was a third of a
//! cold listing. This reader walks the line once, checking it as JSON
//! the way serde would (every string's escapes and bytes, every number,
//! the nesting), and keeps only what `Session::ingest_lean` reads.
//!
//! It answers only for the shape Claude Code writes: the keys it knows
//! at the top, in the message and in each block, and keys `RawEntry`
//! does not have (which serde skips whatever they hold; a test holds
//! that list to serde's). Any other key, a key written with an escape or
//! twice, a value of another type, an escape of a surrogate, a control
//! byte, a second object on the line: `None`, and the line is decoded by
//! serde as before. So a line read here is one serde reads, into the
//! same fields (`tests/answer_reader.rs` compares them on every answer of
//! the corpus and on lines cut and bent at random).

use super::raw::{
    Block, Content, JsonStr, MAX_REQUEST_TOKENS, RawEntry, RawJson, RawMessage, Usage,
};
use std::borrow::Cow;

/// Keys of an answer's line that `RawEntry` does not have.
pub const OTHER_TOP: &[&str] = &["userType", "requestId", "slug"];
/// Keys of its message that `RawMessage` does not have.
pub const OTHER_MESSAGE: &[&str] = &["type", "stop_sequence", "context_management", "container"];
/// Keys of a block that `Block` does not have.
pub const OTHER_BLOCK: &[&str] = &["signature", "caller"];

/// serde refuses nesting deeper than 128; far below that, doubt.
const DEEPEST: u32 = 64;

/// `text` (one JSON value, trimmed or not) as the entry serde would make
/// of it, when it is an answer of the common shape.
pub fn read(text: &str) -> Option<RawEntry<'_>> {
    read_by(read_into, text)
}

/// [`read`] into `e` (a fresh entry), which is not moved: an entry is
/// 1.6 KB, and moving it out, then into an `Option`, was a copy of it
/// twice for every answer. `false`: not read (`e` holds what was read so
/// far, for nothing).
pub fn read_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    read_fields(Reader::new(text), e).is_some()
}

/// [`read_into`] with each call's input kept too, as serde keeps it (the
/// value as written): every field serde would fill, for a whole decode
/// of an answer (a viewer's, a search's), where the figures need none.
pub fn read_whole_into<'a>(text: &'a str, e: &mut RawEntry<'a>) -> bool {
    let mut r = Reader::new(text);
    r.inputs = true;
    read_fields(r, e).is_some()
}

/// `text` read by `read_into` (one of the readers held to serde: this
/// one's, `results`, `prompts`, `notes`, `progress`) into a fresh entry:
/// the entry serde would make of it, when the reader answers.
pub fn read_by<'a>(
    read_into: fn(&'a str, &mut RawEntry<'a>) -> bool,
    text: &'a str,
) -> Option<RawEntry<'a>> {
    let mut e = RawEntry::default();
    read_into(text, &mut e).then_some(e)
}

/// A line's entry (`text`, white space around it trimmed), each of its
/// members handed to `member` as [`Reader::object`] hands them; `None`
/// unless it reads as one whole object.
pub(super) fn entry<'a>(
    text: &'a str,
    keys: &[&str],
    others: Others,
    member: &mut impl FnMut(&mut Reader<'a>, usize) -> Option<()>,
) -> Option<()> {
    let mut r = Reader::new(text.trim_ascii());
    r.object(keys, others, member)?;
    r.at_end().then_some(())
}

/// A user line's message (`{"role": …, "content": …}`, no other key),
/// its content read by `content`.
pub(super) fn user_message<'a>(
    r: &mut Reader<'a>,
    content: fn(&mut Reader<'a>) -> Option<Option<Content<'a>>>,
) -> Option<Option<RawMessage<'a>>> {
    if r.literal("null").is_some() {
        return Some(None);
    }
    let mut m = RawMessage::default();
    r.object(&["role", "content"], Others::Only(&[]), &mut |r, key| {
        match key {
            0 => m.role = r.str_or_null()?,
            1 => m.content = content(r)?,
            _ => r.skip(2)?,
        }
        Some(())
    })?;
    Some(Some(m))
}

/// The keys of an entry's envelope, which every reader of a line reads
/// first and alike (see [`Reader::envelope`]).
const ENVELOPE: [&str; 10] = [
    "type",
    "uuid",
    "parentUuid",
    "sessionId",
    "timestamp",
    "cwd",
    "version",
    "gitBranch",
    "agentId",
    "isSidechain",
];

/// The envelope's keys, then `more`: a reader's keys, in the order of
/// their places (`N` must be the sum).
pub(super) const fn with_envelope<const M: usize, const N: usize>(
    more: [&'static str; M],
) -> [&'static str; N] {
    assert!(N == ENVELOPE.len() + M);
    let mut keys = [""; N];
    let mut i = 0;
    while i < N {
        keys[i] = if i < ENVELOPE.len() {
            ENVELOPE[i]
        } else {
            more[i - ENVELOPE.len()]
        };
        i += 1;
    }
    keys
}

fn read_fields<'a>(mut r: Reader<'a>, e: &mut RawEntry<'a>) -> Option<()> {
    const KEYS: [&str; 12] = with_envelope(["isApiErrorMessage", "message"]);
    let text = r.t.trim_ascii();
    r.t = text;
    r.object(&KEYS, Others::Only(OTHER_TOP), &mut |r, key| {
        match key {
            0..10 => r.envelope(key, e)?,
            10 => e.is_api_error_message = r.bool_or_null()?,
            11 => e.message = r.message()?,
            _ => r.skip(1)?,
        }
        Some(())
    })?;
    (r.i == text.len()).then_some(())
}

/// Whether `a` and `b`, of the same length, hold the same bytes: a key
/// is short, and a call to `memcmp` for each was most of its comparison.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| {
        s.get(at..at + 8)
            .and_then(|w| w.first_chunk::<8>())
            .map(|w| u64::from_le_bytes(*w))
    };
    match n {
        // the first 8 bytes and the last 8 (which overlap up to 16)
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// The keys an object may hold besides those read.
#[derive(Clone, Copy)]
pub(super) enum Others {
    /// These, handed on to be skipped; another is doubt.
    Only(&'static [&'static str]),
    /// Any, skipped here (`Usage`'s objects, which serde reads with
    /// unknown keys skipped).
    Any,
}

/// A line read as serde would read it, checked as it goes (also the
/// headline's reader, see `scan::lean`).
pub(super) struct Reader<'a> {
    t: &'a str,
    i: usize,
    /// Calls' inputs are kept (else passed over).
    inputs: bool,
}

impl<'a> Reader<'a> {
    pub(super) fn new(t: &'a str) -> Self {
        Reader {
            t,
            i: 0,
            inputs: false,
        }
    }

    /// Whether all of the text was read.
    pub(super) fn at_end(&self) -> bool {
        self.i == self.t.len()
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.t.as_bytes().get(self.i).copied()
    }

    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// An object's members, each handed to `member` at its value (which it
    /// reads or skips) by its place in `keys`; a key of `others` comes as
    /// `keys.len()`. A key with an escape, or one of `keys` twice, is
    /// doubt: serde matches keys unescaped, and refuses a field twice.
    pub(super) fn object(
        &mut self,
        keys: &[&str],
        others: Others,
        member: &mut impl FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        let mut seen = 0u64;
        loop {
            let key = self.key()?;
            self.eat(b':')?;
            // a key's length and first byte tell it from the others at
            // once: one comparison in full, not one a key
            let first = key.first();
            let place = keys.iter().position(|k| {
                k.len() == key.len() && k.as_bytes().first() == first && same(k.as_bytes(), key)
            });
            match place {
                Some(n) if seen & (1 << n) != 0 => return None,
                Some(n) => {
                    seen |= 1 << n;
                    member(self, n)?;
                }
                None => match others {
                    Others::Any => self.skip(1)?,
                    Others::Only(o) => {
                        o.iter().any(|k| k.as_bytes() == key).then_some(())?;
                        member(self, keys.len())?;
                    }
                },
            }
            if self.end_of(b'}')? {
                return Some(());
            }
        }
    }

    /// A key: a string without escapes or control bytes (a key with any
    /// is doubt: serde matches keys unescaped), its bytes inside the
    /// quotes. Most keys end within 16 bytes: one look at them.
    #[inline(always)]
    fn key(&mut self) -> Option<&'a [u8]> {
        let b: &'a [u8] = self.t.as_bytes();
        (b.get(self.i) == Some(&b'"')).then_some(())?;
        let start = self.i + 1;
        let end = super::string_end::special_near(b, start)
            .or_else(|| super::string_end::special(b, start))?;
        (b.get(end) == Some(&b'"')).then_some(())?;
        self.i = end + 1;
        b.get(start..end)
    }

    /// A content that is a string (or `null`), as `raw::Content` reads
    /// it: decoded, as serde hands it over.
    pub(super) fn text_content(&mut self) -> Option<Option<Content<'a>>> {
        Some(self.str_or_null()?.map(|t| Content::Text(JsonStr::Text(t))))
    }

    /// A list's elements, each read by `element`.
    // (in its callers' code: a call of its own moved the listing's
    // instructions by 2%, through where the build put the readers)
    #[inline(always)]
    pub(super) fn list<T>(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut all = Vec::new();
        if self.eat(b']').is_some() {
            return Some(all);
        }
        loop {
            all.push(element(self)?);
            if self.end_of(b']')? {
                return Some(all);
            }
        }
    }

    /// Past a comma (`false`) or the closing `close` (`true`).
    pub(super) fn end_of(&mut self, close: u8) -> Option<bool> {
        let c = self.peek()?;
        self.i += 1;
        match c {
            b',' => Some(false),
            c if c == close => Some(true),
            _ => None,
        }
    }

    /// A string token, quotes included, and whether it holds an escape;
    /// every escape checked as serde checks it, and a control byte
    /// refused as serde refuses it.
    fn string(&mut self) -> Option<(&'a str, bool)> {
        let start = self.i;
        self.eat(b'"')?;
        let (end, escaped) = super::checked_string::checked_end(self.t.as_bytes(), self.i)?;
        self.i = end + 1;
        Some((self.t.get(start..self.i)?, escaped))
    }

    /// A string field as `raw::borrowed` reads it (`null`: none).
    pub(super) fn str_or_null(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.peek()? != b'"' {
            return self.literal("null").map(|()| None);
        }
        let (token, escaped) = self.string()?;
        Some(Some(if escaped {
            // its escapes were checked as serde checks them (no half of
            // a pair, no other letter): the model's decoding makes of
            // them what serde makes, without serde's call and its walk
            JsonStr::Token(token).into_text()
        } else {
            // (the token's quotes are a byte each)
            Cow::Borrowed(token.get(1..token.len() - 1)?)
        }))
    }

    pub(super) fn bool_or_null(&mut self) -> Option<Option<bool>> {
        if self.literal("null").is_some() {
            Some(None)
        } else if self.literal("true").is_some() {
            Some(Some(true))
        } else {
            self.literal("false").map(|()| Some(false))
        }
    }

    /// A text as `JsonStr` keeps it: the token as written.
    pub(super) fn text_or_null(&mut self) -> Option<Option<JsonStr<'a>>> {
        if self.peek()? != b'"' {
            return self.literal("null").map(|()| None);
        }
        Some(Some(JsonStr::Token(self.string()?.0)))
    }

    /// The value of the envelope's key `key` (its place in [`ENVELOPE`])
    /// into `e`, as serde reads it.
    // on every key of every answer a listing reads: a call each was 0.6%
    #[inline(always)]
    pub(super) fn envelope(&mut self, key: usize, e: &mut RawEntry<'a>) -> Option<()> {
        match key {
            0 => e.kind = self.str_or_null()?,
            1 => e.uuid = self.str_or_null()?,
            2 => e.parent_uuid = self.str_or_null()?,
            3 => e.session_id = self.str_or_null()?,
            4 => e.timestamp = self.str_or_null()?,
            5 => e.cwd = self.str_or_null()?,
            6 => e.version = self.str_or_null()?,
            7 => e.git_branch = self.str_or_null()?,
            8 => e.agent_id = self.str_or_null()?,
            9 => e.is_sidechain = self.bool_or_null()?,
            _ => return None,
        }
        Some(())
    }

    /// The next value, checked as [`Self::skip`] checks it, then read by
    /// serde into `T` (as serde reads it inside the line: the value's
    /// nesting is held within [`DEEPEST`], far below serde's limit for
    /// the line).
    /// A value as serde keeps an `Option<&RawValue>` (`null`: none): read
    /// by serde, once, from where it starts.
    pub(super) fn raw_value(&mut self) -> Option<Option<&'a serde_json::value::RawValue>> {
        let rest = self.t.get(self.i..)?;
        let mut values = serde_json::Deserializer::from_str(rest)
            .into_iter::<Option<&'a serde_json::value::RawValue>>();
        let v = values.next()?.ok()?;
        self.i += values.byte_offset();
        Some(v)
    }

    /// A value as written (`null`: none), checked as [`Self::skip`]
    /// checks it: what serde keeps of an `Option<&RawValue>`, without
    /// serde's walk of it.
    // (out of its callers' code: inlined into the answer's blocks, it
    // made the listing, which never keeps an input, 2% slower)
    #[inline(never)]
    pub(super) fn raw_json(&mut self) -> Option<Option<RawJson<'a>>> {
        if self.literal("null").is_some() {
            return Some(None);
        }
        let start = self.i;
        self.skip(3)?;
        Some(Some(RawJson(self.t.get(start..self.i)?)))
    }

    pub(super) fn by_serde<T: serde::Deserialize<'a>>(&mut self) -> Option<T> {
        let start = self.i;
        self.skip(2)?;
        serde_json::from_str(self.t.get(start..self.i)?).ok()
    }

    // (its words are constants: inlined, the comparison is of a few bytes)
    #[inline(always)]
    pub(super) fn literal(&mut self, word: &str) -> Option<()> {
        self.t
            .as_bytes()
            .get(self.i..)?
            .starts_with(word.as_bytes())
            .then(|| self.i += word.len())
    }

    /// A number as JSON writes one.
    fn number(&mut self) -> Option<()> {
        let b = self.t.as_bytes();
        let digits = |i: &mut usize| {
            let from = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > from
        };
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                digits(&mut i);
            }
            _ => return None,
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i).then_some(())?;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            digits(&mut i).then_some(())?;
        }
        self.i = i;
        Some(())
    }

    /// Passes over one value of any kind, checked (keys twice are
    /// serde's to accept here: what it skips it does not look into).
    pub(super) fn skip(&mut self, depth: u32) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' | b'[' if depth >= DEEPEST => None,
            b'{' => {
                self.i += 1;
                if self.eat(b'}').is_some() {
                    return Some(());
                }
                loop {
                    self.string()?;
                    self.eat(b':')?;
                    self.skip(depth + 1)?;
                    if self.end_of(b'}')? {
                        return Some(());
                    }
                }
            }
            b'[' => {
                self.i += 1;
                if self.eat(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip(depth + 1)?;
                    if self.end_of(b']')? {
                        return Some(());
                    }
                }
            }
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => self.number(),
        }
    }

    fn message(&mut self) -> Option<Option<RawMessage<'a>>> {
        if self.literal("null").is_some() {
            return Some(None);
        }
        let mut m = RawMessage::default();
        let keys = &["id", "model", "role", "stop_reason", "usage", "content"];
        self.object(keys, Others::Only(OTHER_MESSAGE), &mut |r, key| {
            match key {
                0 => m.id = r.str_or_null()?,
                1 => m.model = r.str_or_null()?,
                2 => m.role = r.str_or_null()?,
                3 => m.stop_reason = r.str_or_null()?,
                4 => m.usage = r.usage()?,
                5 => m.content = Some(Content::Blocks(r.blocks()?)),
                _ => r.skip(2)?,
            }
            Some(())
        })?;
        Some(Some(m))
    }

    /// The usage object as `Usage` decodes it: its counts plain
    /// numbers within `MAX_REQUEST_TOKENS`, `speed` anything.
    fn usage(&mut self) -> Option<Option<Usage>> {
        if self.literal("null").is_some() {
            return Some(None);
        }
        let mut u = Usage::default();
        let keys = &[
            "input_tokens",
            "output_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
            "cache_creation",
            "speed",
        ];
        self.object(keys, Others::Any, &mut |r, key| {
            match key {
                0 => u.input_tokens = r.count()?,
                1 => u.output_tokens = r.count()?,
                2 => u.cache_creation_input_tokens = r.count()?,
                3 => u.cache_read_input_tokens = r.count()?,
                4 => {
                    let c = &mut u.cache_creation;
                    let keys = &["ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"];
                    r.object(keys, Others::Any, &mut |r, key| {
                        match key {
                            0 => c.ephemeral_5m_input_tokens = r.count()?,
                            _ => c.ephemeral_1h_input_tokens = r.count()?,
                        }
                        Some(())
                    })?;
                }
                // any other value is not fast; an escaped word, doubt
                _ if r.peek()? == b'"' => u.fast = r.string()? == ("\"fast\"", false),
                _ => r.skip(3)?,
            }
            Some(())
        })?;
        Some(Some(u))
    }

    /// A token count: digits only (serde refuses a sign, a fraction or an
    /// exponent for one), no more than a request can hold.
    fn count(&mut self) -> Option<u64> {
        let b = self.t.as_bytes();
        let start = self.i;
        self.number()?;
        let digits = b.get(start..self.i)?;
        if digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = digits
            .iter()
            .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
        (n <= MAX_REQUEST_TOKENS).then_some(n)
    }

    fn blocks(&mut self) -> Option<Vec<Block<'a>>> {
        self.eat(b'[')?;
        let mut blocks = Vec::new();
        if self.eat(b']').is_some() {
            return Some(blocks);
        }
        loop {
            let mut b = Block::default();
            let keys = &["type", "id", "name", "text", "thinking", "input"];
            self.object(keys, Others::Only(OTHER_BLOCK), &mut |r, key| {
                match key {
                    0 => b.kind = r.str_or_null()?,
                    1 => b.id = r.str_or_null()?,
                    2 => b.name = r.str_or_null()?,
                    3 => b.text = r.text_or_null()?,
                    4 => b.thinking = r.text_or_null()?,
                    5 if r.inputs => b.input = r.raw_json()?,
                    // what `ingest_lean` keeps of a call is its name
                    _ => r.skip(3)?,
                }
                Some(())
            })?;
            blocks.push(b);
            if self.end_of(b']')? {
                return Some(blocks);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Keys are told apart as a comparison of their bytes would: every
    /// length up to past two words, a difference at every place.
    #[test]
    fn keys_are_compared_byte_for_byte() {
        for n in 0..40 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(super::same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!super::same(&a, &b), "{n} {at}");
            }
            assert!(!super::same(&a, &a[..n.saturating_sub(1)]) || n == 0);
        }
    }
}
