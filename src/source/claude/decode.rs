//! Decoding one physical line into entries, tolerantly.
//!
//! A line may hold two objects (`}{`, a writer that never wrote its newline
//! followed by one that appended), invalid UTF-8, lone-surrogate escapes,
//! truncated JSON or no JSON at all. What can be recovered is recovered and
//! reported; what cannot becomes an unreadable record. Nothing panics.

use super::raw::RawEntry;
use std::borrow::Cow;

pub use crate::model::session::Problem;

/// Calls `f` for every object on the line. Returns the problems found.
/// `f` receives the entry and the raw JSON text of the object (used to show
/// unknown entries as they are).
pub fn decode_line(
    line_no: u32,
    bytes: &[u8],
    mut f: impl FnMut(RawEntry<'_>, &str),
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let trimmed = trim_ascii(bytes);
    if trimmed.is_empty() {
        problems.push(Problem {
            line: line_no,
            message: "empty line".into(),
            recovered: false,
        });
        return problems;
    }
    // Fast path: valid UTF-8, parse borrowing from the line.
    let text: Cow<'_, str> = match simdutf8::basic::from_utf8(trimmed) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            problems.push(Problem {
                line: line_no,
                message: "invalid UTF-8 (shown with replacement characters)".into(),
                recovered: true,
            });
            Cow::Owned(String::from_utf8_lossy(trimmed).into_owned())
        }
    };
    let mut repaired = Vec::new();
    let mut handed = 0usize;
    let mut count = |e: RawEntry<'_>, obj: &str| {
        handed += 1;
        f(e, obj)
    };
    let result = decode_objects(&text, &mut count, &mut repaired);
    // white space of another kind alone (a vertical tab, U+3000), which
    // the objects' reader skips: as empty as a line of spaces, and said
    if result.is_ok() && handed == 0 {
        problems.clear();
        problems.push(Problem {
            line: line_no,
            message: "empty line".into(),
            recovered: false,
        });
        return problems;
    }
    for path in repaired {
        problems.push(Problem {
            line: line_no,
            message: format!(
                "field {} has an unexpected type or value (left out)",
                crate::model::text::sanitize(&path)
            ),
            recovered: true,
        });
    }
    match result {
        Ok(()) => {}
        Err(e) if has_lone_surrogate(&text) => {
            let fixed = replace_lone_surrogates(&text);
            // Objects before the bad one were already handed out; skip them.
            match decode_objects_from(&fixed, e.done, &mut f, &mut Vec::new()) {
                Ok(()) => problems.push(Problem {
                    line: line_no,
                    message: "lone surrogate escape (replaced with U+FFFD)".into(),
                    recovered: true,
                }),
                Err(e2) => {
                    problems.clear();
                    problems.push(unreadable(line_no, &e2));
                }
            }
        }
        Err(e) => {
            // a repair that did not make the line readable is not worth a report
            problems.clear();
            problems.push(unreadable(line_no, &e));
        }
    }
    problems
}

/// The objects of a line that reads without any problem, borrowed from it,
/// appended to `out`; false (and `out` as it was) for any other line
/// (empty, invalid UTF-8, bad JSON, a field of an unexpected type), which
/// [`decode_line`] then reads and reports. What it yields is what
/// `decode_line` hands out for the same line, so a line decoded ahead on
/// another thread (see `model::parallel`) is ingested exactly as if it were
/// decoded in place.
pub fn decode_clean<'a>(bytes: &'a [u8], out: &mut Vec<(RawEntry<'a>, &'a str)>) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok_and(|text| decode_clean_text(text, out))
}

/// [`decode_clean`] of a line known to be UTF-8 (a chunk of lines is
/// checked at once).
pub fn decode_clean_text<'a>(text: &'a str, out: &mut Vec<(RawEntry<'a>, &'a str)>) -> bool {
    decode_clean_read(text, out, false)
}

/// [`decode_clean`] of a line whose tool results' structured copy was
/// left out (a search's, an index build's: see `search::extract`): a line
/// of results is read by `super::results`, whose texts serde scanned
/// eight bytes at a time. A line that holds its copy is read as well,
/// but serde reads the copy after the reader's check (a whole load of
/// such lines cost more than it saved).
pub fn decode_clean_without_copies<'a>(
    bytes: &'a [u8],
    out: &mut Vec<(RawEntry<'a>, &'a str)>,
) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok_and(|text| decode_clean_read(text, out, true))
}

fn decode_clean_read<'a>(
    text: &'a str,
    out: &mut Vec<(RawEntry<'a>, &'a str)>,
    results: bool,
) -> bool {
    let start = out.len();
    let done = decode_clean_onto(text, out, results).is_some() && out.len() > start;
    if !done {
        out.truncate(start);
    }
    done
}

/// How far into a line its kind is looked for (an answer's type and its
/// message's role come before its content, another line's type before
/// its message or data).
pub(super) const HEAD: usize = 1024;

static RESULT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"tool_result\""));

/// What a line's head (its first [`HEAD`] bytes) says of its kind: a
/// guess, told by its first `"type":"`, which is the entry's own as
/// Claude Code writes its lines (an answer's is its message's, then its
/// role). A reader tried on it checks the whole line: a wrong guess costs
/// a reader's try, or a line read by serde, never an entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Guess {
    Answer,
    User,
    Progress,
    /// Claude Code's notes (see `super::notes`).
    Note,
    /// Another kind, or none said: an answer if the head says
    /// "assistant" anywhere (see [`Guess::may_answer`]).
    Other,
}

impl Guess {
    pub(super) fn of(head: &[u8]) -> Guess {
        use memchr::memmem::Finder;
        use std::sync::LazyLock;
        const TYPE: &[u8] = br#""type":""#;
        static FIND: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(TYPE));
        let Some(at) = FIND.find(head) else {
            return Guess::Other;
        };
        let kind = &head[at + TYPE.len()..];
        if kind.starts_with(br#"message","role":"assistant""#) {
            Guess::Answer
        } else if kind.starts_with(br#"user""#) {
            Guess::User
        } else if kind.starts_with(br#"progress""#) {
            Guess::Progress
        } else if kind.starts_with(br#"system""#) || kind.starts_with(br#"file-history-snapshot""#)
        {
            Guess::Note
        } else {
            Guess::Other
        }
    }

    /// Whether the line of head `head` may be an answer, to be tried by
    /// the answer reader: guessed one, or of no kind guessed and its head
    /// says "assistant".
    pub(super) fn may_answer(self, head: &[u8]) -> bool {
        use memchr::memmem::Finder;
        use std::sync::LazyLock;
        static ANSWER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"assistant\""));
        match self {
            Guess::Answer => true,
            Guess::Other => ANSWER.find(head).is_some(),
            _ => false,
        }
    }
}

/// `results`: a line of tool results may be read by `super::results`.
fn decode_clean_onto<'a>(
    text: &'a str,
    out: &mut Vec<(RawEntry<'a>, &'a str)>,
    results: bool,
) -> Option<()> {
    let mut rest = text.trim_ascii();
    let first = out.len();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Some(());
        }
        if !rest.starts_with('{') {
            return None;
        }
        // a line is one object but for rare joined writes: read as one, and
        // into its place in the list (an entry is 1.6 KB: moving it there
        // from the decoder's fields was a tenth of decoding)
        if out.len() == first {
            // an answer of the common shape is read without serde's walk
            // of every field (see `super::answer`: a third of a
            // session's bytes, and most of its lines)
            let head = &rest.as_bytes()[..rest.len().min(HEAD)];
            let guess = Guess::of(head);
            if guess.may_answer(head) && read_fast(out, rest, super::answer::read_whole_into) {
                return Some(());
            }
            let user = matches!(guess, Guess::User | Guess::Other);
            // a line of tool results of the common shape is read without
            // serde's scan of its texts (see `super::results`)
            if results
                && user
                && RESULT.find(rest.as_bytes()).is_some()
                && read_fast(out, rest, super::results::read_into)
            {
                return Some(());
            }
            // likewise a prompt's line (a user line whose message is a
            // string, or texts and pictures: see `super::prompts`)
            if user
                && super::prompts::may_read(head)
                && read_fast(out, rest, super::prompts::read_into)
            {
                return Some(());
            }
            // and Claude Code's own notes and progress lines (see
            // `super::notes`, `super::progress`)
            if guess == Guess::Note && read_fast(out, rest, super::notes::read_into) {
                return Some(());
            }
            if guess == Guess::Progress && read_fast(out, rest, super::progress::read_into) {
                return Some(());
            }
            let mut one = serde_json::Deserializer::from_str(rest);
            out.push((RawEntry::default(), rest));
            let read = out.last_mut().is_some_and(|(place, _)| {
                serde::Deserialize::deserialize_in_place(&mut one, place).is_ok()
            });
            if read && one.end().is_ok() {
                return Some(());
            }
            out.pop();
            if !read {
                return None;
            }
        }
        // objects joined on one line are held here all at once (1.7 KB
        // each): past a few, the line is left to `decode_line`, which
        // hands them on one by one (a line of 2 million `{}` held 3.4 GB)
        if out.len() - first >= MOST_JOINED {
            return None;
        }
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<RawEntry<'_>>();
        let entry = stream.next()?.ok()?;
        let used = stream.byte_offset().min(rest.len());
        out.push((entry, &rest[..used]));
        rest = &rest[used..];
    }
}

/// The most objects of one line decoded into a list (see
/// [`decode_clean`]); Claude Code joins two now and then.
const MOST_JOINED: usize = 64;

/// `rest` read by `read` (a reader held to serde) into a fresh entry
/// pushed on `out`, in place; `false`: not read, and `out` as it was.
fn read_fast<'a>(
    out: &mut Vec<(RawEntry<'a>, &'a str)>,
    rest: &'a str,
    read: fn(&'a str, &mut RawEntry<'a>) -> bool,
) -> bool {
    out.push((RawEntry::default(), rest));
    if out.last_mut().is_some_and(|(place, _)| read(rest, place)) {
        return true;
    }
    out.pop();
    false
}

fn unreadable(line: u32, e: &DecodeError) -> Problem {
    let message = if e.done > 0 {
        format!(
            "{} (after {} readable object(s) on this line)",
            e.message, e.done
        )
    } else {
        e.message.clone()
    };
    Problem {
        line,
        message,
        recovered: false,
    }
}

struct DecodeError {
    /// How many objects were handed out before the error.
    done: usize,
    message: String,
}

fn decode_objects(
    text: &str,
    f: &mut impl FnMut(RawEntry<'_>, &str),
    repaired: &mut Vec<String>,
) -> Result<(), DecodeError> {
    decode_objects_from(text, 0, f, repaired)
}

/// The largest object [`repair`] mends.
const REPAIR_MAX: usize = 8 << 20;

/// An object whose fields do not all have the types the reader expects:
/// the same object without those fields (as JSON), and the paths of the
/// fields dropped. `None` when dropping fields does not make it readable.
fn repair(obj: &str) -> Option<(String, Vec<String>)> {
    // the object is held a few times over while it is mended: past this
    // size (real lines stay under 1 MB) it is shown as it is instead
    if obj.len() > REPAIR_MAX {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_str(obj).ok()?;
    let mut dropped = Vec::new();
    // a few bad fields at most are worth a repair
    for _ in 0..8 {
        let text = serde_json::to_string(&v).ok()?;
        let mut de = serde_json::Deserializer::from_str(&text);
        match serde_path_to_error::deserialize::<_, RawEntry<'_>>(&mut de) {
            Ok(_) => return Some((text, dropped)),
            Err(e) => {
                let path = within_contents(&v, segments(e.path())?);
                if !drop_path(&mut v, &path) {
                    return None;
                }
                dropped.push(shown(&path));
            }
        }
    }
    None
}

/// A step of a path into a JSON value.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `None` when a step is not one a value has (an enum's variant, a step
/// serde could not name).
fn segments(path: &serde_path_to_error::Path) -> Option<Vec<Step>> {
    use serde_path_to_error::Segment;
    path.iter()
        .map(|s| match s {
            Segment::Map { key } => Some(Step::Key(key.clone())),
            Segment::Seq { index } => Some(Step::Index(*index)),
            _ => None,
        })
        .collect()
}

/// `message.content[0].content[1].source`, as serde names a path.
fn shown(path: &[Step]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

fn at<'v>(v: &'v serde_json::Value, path: &[Step]) -> Option<&'v serde_json::Value> {
    path.iter().try_fold(v, |at, s| match (s, at) {
        (Step::Key(k), serde_json::Value::Object(m)) => m.get(k),
        (Step::Index(i), serde_json::Value::Array(a)) => a.get(*i),
        _ => None,
    })
}

/// The field at fault when serde names a tool result's whole `content`
/// list: that list is read apart from the line (see `raw::result_content`),
/// so serde's path stops at it, and dropping it lost every block's text
/// for one block's odd field (a `search_result`'s `source` is a string).
/// The list is read alone with its path kept, as deep as such lists nest.
fn within_contents(v: &serde_json::Value, mut path: Vec<Step>) -> Vec<Step> {
    use super::raw::Content;
    while path.last() == Some(&Step::Key("content".to_owned())) {
        let Some(list) = at(v, &path).filter(|l| l.is_array()) else {
            break;
        };
        let Ok(text) = serde_json::to_string(list) else {
            break;
        };
        let mut de = serde_json::Deserializer::from_str(&text);
        let inner = match serde_path_to_error::deserialize::<_, Content<'_>>(&mut de) {
            Ok(_) => break,
            Err(e) => segments(e.path()),
        };
        match inner {
            Some(inner) if !inner.is_empty() => path.extend(inner),
            _ => break,
        }
    }
    path
}

/// Removes the value at `path` (an array element becomes `null`, so the
/// indices of the others hold). False when there is nothing to remove.
fn drop_path(v: &mut serde_json::Value, path: &[Step]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = v;
    for step in parents {
        at = match (step, at) {
            (Step::Key(key), serde_json::Value::Object(m)) => match m.get_mut(key) {
                Some(x) => x,
                None => return false,
            },
            (Step::Index(index), serde_json::Value::Array(a)) => match a.get_mut(*index) {
                Some(x) => x,
                None => return false,
            },
            _ => return false,
        };
    }
    match (last, at) {
        (Step::Key(key), serde_json::Value::Object(m)) => m.remove(key).is_some(),
        (Step::Index(index), serde_json::Value::Array(a)) => match a.get_mut(*index) {
            Some(x) if !x.is_null() => {
                *x = serde_json::Value::Null;
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn decode_objects_from(
    text: &str,
    skip: usize,
    f: &mut impl FnMut(RawEntry<'_>, &str),
    repaired: &mut Vec<String>,
) -> Result<(), DecodeError> {
    let mut rest = text;
    let mut n = 0usize;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(());
        }
        if !rest.starts_with('{') {
            let what = if n == 0 && looks_like_json(rest) {
                "not a JSON object"
            } else {
                "not JSON"
            };
            return Err(DecodeError {
                done: n,
                message: format!("{what}: {}", preview(rest)),
            });
        }
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<RawEntry<'_>>();
        let parsed = stream.next();
        let used = stream.byte_offset();
        let obj = &rest[..used.min(rest.len())];
        match parsed {
            None => return Ok(()),
            Some(Ok(entry)) => {
                if n >= skip {
                    f(entry, obj);
                }
            }
            Some(Err(e)) if e.is_data() => {
                // Valid JSON of an unexpected shape. A field of an
                // unexpected type (a number where a string was, a string
                // where a number was) is dropped and the rest read; what
                // still does not fit is shown as an unknown entry rather
                // than lost.
                let end = object_end(rest).ok_or_else(|| DecodeError {
                    done: n,
                    message: e.to_string(),
                })?;
                let obj = &rest[..end];
                // a lone surrogate's escape (JavaScript writes one for half
                // an emoji cut off) inside a block reaches serde as a data
                // error, and no repair reads it: the line is read again
                // with it replaced, as a lone one anywhere else is
                if has_lone_surrogate(obj) && replace_lone_surrogates(obj) != obj {
                    return Err(DecodeError {
                        done: n,
                        message: e.to_string(),
                    });
                }
                if n >= skip {
                    match repair(obj) {
                        Some((fixed, dropped)) => {
                            let mut entry =
                                serde_json::from_str::<RawEntry<'_>>(&fixed).unwrap_or_default();
                            usage_left_out(&mut entry, &dropped);
                            repaired.extend(dropped);
                            f(entry, obj);
                        }
                        None => f(RawEntry::default(), obj),
                    }
                }
                rest = &rest[end..];
                n += 1;
                continue;
            }
            Some(Err(e)) => {
                let message = if e.is_eof() {
                    format!("truncated JSON ({e})")
                } else {
                    format!("invalid JSON ({e})")
                };
                return Err(DecodeError { done: n, message });
            }
        }
        rest = &rest[used.min(rest.len())..];
        n += 1;
    }
}

/// Marks the usage of `entry` unreadable when a field of it was `dropped`
/// (its figures are then not what the line holds: a count of the tokens
/// left would be a cost too low, said nowhere).
fn usage_left_out(entry: &mut RawEntry<'_>, dropped: &[String]) {
    let under = |root: &str| {
        dropped.iter().any(|p| {
            p.strip_prefix(root)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
    };
    let mark = |u: &mut Option<crate::model::usage::Usage>| {
        u.get_or_insert_with(crate::model::usage::Usage::unreadable)
            .unreadable = true;
    };
    if under("usage") {
        mark(&mut entry.usage);
    }
    if under("message.usage")
        && let Some(m) = entry.message.as_mut()
    {
        mark(&mut m.usage);
    }
}

/// The end of the first JSON value in `s`, if it is valid JSON.
fn object_end(s: &str) -> Option<usize> {
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<serde::de::IgnoredAny>();
    stream.next()?.ok()?;
    Some(stream.byte_offset())
}

fn looks_like_json(s: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok()
}

fn preview(s: &str) -> String {
    let p: String = s.chars().take(40).collect();
    let p = crate::model::text::sanitize(&p).into_owned();
    if s.chars().count() > 40 {
        format!("{p}…")
    } else {
        p
    }
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    let t = &b[start..end];
    t.strip_prefix(BOM.as_bytes())
        .map_or(t, <[u8]>::trim_ascii_start)
}

/// A byte-order mark, which an editor may write first in a file it saves.
const BOM: &str = "\u{feff}";

/// A line's JSON: the ASCII white space around it and a byte-order mark
/// before it left out (the first line of a file saved by an editor that
/// writes one is read as the others).
#[inline]
pub(crate) fn line_json(text: &str) -> &str {
    let t = text.trim_ascii();
    t.strip_prefix(BOM).map_or(t, str::trim_ascii_start)
}

fn has_lone_surrogate(s: &str) -> bool {
    s.contains("\\ud") || s.contains("\\uD")
}

/// Replaces `\uD800`-`\uDFFF` escapes that are not a valid high+low pair
/// with `\uFFFD`, leaving valid pairs alone.
fn replace_lone_surrogates(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i + 6 <= b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'u'
                && let Some(u) = hex4(&b[i + 2..i + 6])
            {
                if (0xd800..0xdc00).contains(&u) {
                    let pair_ok = i + 12 <= b.len()
                        && b[i + 6] == b'\\'
                        && b[i + 7] == b'u'
                        && hex4(&b[i + 8..i + 12]).is_some_and(|l| (0xdc00..0xe000).contains(&l));
                    if pair_ok {
                        i += 12;
                        continue;
                    }
                    out.push_str(&s[last..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    last = i;
                    continue;
                }
                if (0xdc00..0xe000).contains(&u) {
                    out.push_str(&s[last..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    last = i;
                    continue;
                }
            }
            // skip the escaped character (e.g. `\\`), so `\\ud800` is text
            i += 2;
            continue;
        }
        i += 1;
    }
    out.push_str(&s[last..]);
    out
}

fn hex4(b: &[u8]) -> Option<u32> {
    std::str::from_utf8(b)
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &[u8]) -> (Vec<Option<String>>, Vec<Problem>) {
        let mut out = Vec::new();
        let p = decode_line(7, line, |e, _| out.push(e.kind.map(|k| k.into_owned())));
        (out, p)
    }

    #[test]
    fn two_objects_on_one_line() {
        let (k, p) = kinds(br#"{"type":"assistant","uuid":"a"}{"type":"summary","summary":"x"}"#);
        assert_eq!(k, vec![Some("assistant".into()), Some("summary".into())]);
        assert!(p.is_empty());
    }

    /// A few joined objects are decoded into a list; more are left to
    /// `decode_line`, which hands each on as it reads it, all of them (a
    /// list of 2 million held 3.4 GB).
    #[test]
    fn many_joined_objects_are_handed_on_one_by_one() {
        for n in [2, MOST_JOINED, MOST_JOINED + 1, 5000] {
            let line: Vec<u8> = (0..n)
                .flat_map(|i| format!(r#"{{"type":"t{i}"}}"#).into_bytes())
                .collect();
            let mut list = Vec::new();
            assert_eq!(decode_clean(&line, &mut list), n <= MOST_JOINED, "{n}");
            assert!(list.len() <= MOST_JOINED);
            let (k, p) = kinds(&line);
            assert_eq!(k.len(), n);
            assert_eq!(k.last(), Some(&Some(format!("t{}", n - 1))));
            assert!(p.is_empty());
        }
    }

    #[test]
    fn bad_lines_are_reported_not_panicking() {
        for (line, msg) in [
            (&b""[..], "empty line"),
            (b"\x0b", "empty line"),
            ("\u{3000} \u{a0}".as_bytes(), "empty line"),
            (b"this is not json at all", "not JSON"),
            (b"[{\"type\":\"user\"},1,2,null]", "not a JSON object"),
            (b"{\"type\":\"user\",\"mess", "truncated"),
            (b"42", "not a JSON object"),
        ] {
            let (k, p) = kinds(line);
            assert!(k.is_empty(), "{line:?}");
            assert_eq!(p.len(), 1);
            assert!(p[0].message.contains(msg), "{:?} vs {msg}", p[0].message);
            assert!(!p[0].recovered);
            assert_eq!(p[0].line, 7);
        }
    }

    /// A line's kind is guessed from the first `"type":"` of its head, as
    /// Claude Code writes each kind; a line of another order, or whose
    /// kind is past its head, is of no kind guessed (every reader may try
    /// it), and the guess is only ever a guess: the same line decodes
    /// whatever it says.
    #[test]
    fn a_lines_kind_is_guessed_from_its_head() {
        let env = r#""parentUuid":"p","isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s""#;
        let deep = format!(r#""cwd":"/{}""#, "d/".repeat(600));
        for (line, guess) in [
            (
                format!(r#"{{{env},"message":{{"model":"m","id":"msg_1","type":"message","role":"assistant","content":[]}},"type":"assistant","uuid":"a"}}"#),
                Guess::Answer,
            ),
            (
                format!(r#"{{{env},"type":"user","message":{{"role":"user","content":"hi"}},"uuid":"u"}}"#),
                Guess::User,
            ),
            (
                format!(r#"{{{env},"type":"progress","data":{{"type":"hook_progress"}},"uuid":"g"}}"#),
                Guess::Progress,
            ),
            (
                format!(r#"{{{env},"type":"system","subtype":"turn_duration","uuid":"y"}}"#),
                Guess::Note,
            ),
            (
                r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{}}"#.to_owned(),
                Guess::Note,
            ),
            (
                r#"{"type":"summary","summary":"s","leafUuid":"l"}"#.to_owned(),
                Guess::Other,
            ),
            // the message first: its blocks' kind is no line's
            (
                r#"{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]},"type":"user"}"#.to_owned(),
                Guess::Other,
            ),
            // the role first, then the type: "assistant" in the head
            (
                r#"{"type":"assistant","message":{"role":"assistant","content":[]},"uuid":"a"}"#.to_owned(),
                Guess::Other,
            ),
            // a deep folder: the kind past the head
            (
                format!(r#"{{{deep},"type":"user","message":{{"role":"user","content":"hi"}}}}"#),
                Guess::Other,
            ),
            // an escaped key says nothing
            (
                r#"{"t\u0079pe":"user","message":{"role":"user","content":"hi"}}"#.to_owned(),
                Guess::Other,
            ),
        ] {
            let head = &line.as_bytes()[..line.len().min(HEAD)];
            assert_eq!(Guess::of(head), guess, "{line}");
            // decoded alike whatever the guess
            let mut fast = Vec::new();
            let decoded = decode_clean(line.as_bytes(), &mut fast);
            let by_serde = serde_json::from_str::<RawEntry<'_>>(&line).is_ok();
            assert_eq!(decoded, by_serde, "{line}");
            if let Ok(e) = serde_json::from_str::<RawEntry<'_>>(&line) {
                assert_eq!(fast.len(), 1, "{line}");
                assert_eq!(fast[0].0.kind, e.kind, "{line}");
                assert_eq!(fast[0].0.uuid, e.uuid, "{line}");
            }
        }
        assert!(Guess::Answer.may_answer(b""));
        assert!(Guess::Other.may_answer(br#"{"message":{"role":"assistant""#));
        assert!(!Guess::Other.may_answer(br#"{"type":"summary""#));
        assert!(!Guess::User.may_answer(br#"{"type":"user","x":"assistant""#));
    }

    #[test]
    fn lone_surrogate_is_repaired() {
        let (k, p) = kinds(
            br#"{"type":"user","message":{"role":"user","content":"cut emoji \ud83d here"}}"#,
        );
        assert_eq!(k, vec![Some("user".into())]);
        assert!(p[0].recovered);
        // valid pairs stay
        assert_eq!(
            replace_lone_surrogates(r#""\ud83d\ude00""#),
            r#""\ud83d\ude00""#
        );
        assert_eq!(replace_lone_surrogates(r#""\\ud83d""#), r#""\\ud83d""#);
    }

    #[test]
    fn invalid_utf8_is_repaired() {
        let (k, p) =
            kinds(b"{\"type\":\"assistant\",\"note\":\"bad utf8 \xff\xfe\xc3(\",\"uuid\":\"x\"}");
        assert_eq!(k, vec![Some("assistant".into())]);
        assert!(p[0].recovered);
    }

    #[test]
    fn wrong_field_types_are_left_out_and_said() {
        let mut raws = Vec::new();
        let p = decode_line(1, br#"{"type":42,"uuid":{"a":1}}"#, |e, raw| {
            // without a type it is an unknown entry, shown as it was
            assert!(e.kind.is_none() && e.uuid.is_none());
            raws.push(raw.to_owned());
        });
        assert_eq!(raws, vec![r#"{"type":42,"uuid":{"a":1}}"#.to_string()]);
        let said: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            said,
            vec![
                "field type has an unexpected type or value (left out)",
                "field uuid has an unexpected type or value (left out)"
            ]
        );
        assert!(p.iter().all(|p| p.recovered));
    }

    /// A block of a tool result's list with a field of another type loses
    /// that field alone, however deep the list: the other blocks stay.
    #[test]
    fn a_bad_field_in_a_results_list_loses_only_that_field() {
        use crate::source::claude::raw::Content;
        let line = br#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"kept"},{"type":"x","id":5},{"type":"search_result","content":[{"type":"text","text":"deep"},{"type":"y","title":["no"]}]}]}]}}"#;
        let mut texts = Vec::new();
        let p = decode_line(1, line, |e, _| {
            let Some(Content::Blocks(bs)) = e.message.and_then(|m| m.content) else {
                return;
            };
            for b in bs {
                if let Some(c) = b.content
                    && let Content::Blocks(inner) = *c
                {
                    texts.extend(
                        inner
                            .iter()
                            .map(|b| b.kind.as_deref().unwrap_or("").to_owned()),
                    );
                }
            }
        });
        assert_eq!(texts, ["text", "x", "search_result"]);
        let said: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            said,
            [
                "field message.content[0].content[1].id has an unexpected type or value (left out)",
                "field message.content[0].content[2].content[1].title has an unexpected type or value (left out)"
            ]
        );
    }

    /// A usage with a field left out is marked unreadable (priced as
    /// unknown, not from what was left); one with another field of the
    /// line left out is not.
    #[test]
    fn a_usage_left_out_in_part_is_unreadable() {
        let usage_of = |line: &str| {
            let mut got = None;
            decode_line(1, line.as_bytes(), |e, _| {
                got = Some((e.usage, e.message.and_then(|m| m.usage)));
            });
            got.expect("an entry")
        };
        let answer = |usage: &str, other: &str| {
            format!(
                r#"{{"type":"assistant","uuid":{other},"message":{{"role":"assistant","usage":{usage}}}}}"#
            )
        };
        for usage in [
            r#"{"input_tokens":"3","output_tokens":2}"#,
            r#"{"input_tokens":-1}"#,
            r#"{"cache_creation":{"ephemeral_5m_input_tokens":1.5}}"#,
            r#""lots""#,
        ] {
            let (_, u) = usage_of(&answer(usage, r#""u""#));
            assert!(u.is_some_and(|u| u.unreadable), "{usage}");
        }
        let (_, u) = usage_of(&answer(r#"{"output_tokens":2}"#, "5"));
        assert_eq!(u.map(|u| (u.unreadable, u.output_tokens)), Some((false, 2)));
        let (top, _) = usage_of(r#"{"type":"result","usage":{"output_tokens":"x"}}"#);
        assert!(top.is_some_and(|u| u.unreadable));
        let (_, u) = usage_of(&answer("null", r#""u""#));
        assert!(u.is_none(), "no usage is not an unreadable one");
    }
}
