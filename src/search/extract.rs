//! The entries of a piece of a session file, as search reads them: one per
//! row a person reads (prompt, answer, thinking, a call's input, a
//! result, a compaction summary...), with its line, kind and time. Made by
//! the model itself, so search sees what the viewer shows.

use crate::model::session::{MAIN, Session};
use crate::model::{Detail, Kind};

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// 1-based line in the file.
    pub line: u32,
    pub kind: Kind,
    pub timestamp: Option<i64>,
    pub text: String,
    /// Its line's uuid and content's fingerprint, for an entry the model
    /// shows only where its line was first written (see [`Copy`]).
    pub copy: Option<Copy>,
    /// A result Claude Code saved apart: its call's id, which names the
    /// file that holds the whole output (see [`add_saved_outputs`]).
    pub saved: Option<Box<str>>,
}

/// A line's uuid and the fingerprint of its content: a prompt's or an
/// answer's line written again under both (Claude Code rewrites some) is
/// shown once, at its first line. A line decoded on its own, as a
/// search reads the lines that hold its words, cannot know that; the
/// search compares the copies it decoded (see `super::Copies`).
pub type Copy = (Box<str>, u64);

/// Kinds made of prompts and answers: the model hides them written again
/// (a system line it shows each time).
fn hides_copies(k: Kind) -> bool {
    matches!(
        k,
        Kind::User | Kind::Assistant | Kind::Thinking | Kind::ToolCall | Kind::ToolResult
    )
}

/// The entries of `bytes`, complete lines of one file whose first line is
/// line `first_line`. Lines are read on their own (a result whose call
/// is in another piece is still an entry), so any piece can be read;
/// `header`: the file's own first line, when it is in another format and
/// `bytes` do not start with it (see [`crate::source::header_of`]).
pub fn entries(bytes: &[u8], first_line: u32, header: Option<&[u8]>) -> Vec<Entry> {
    let mut s = Session::new(None);
    // its callers leave each result's structured copy out (see `Unshown`)
    s.copies_left_out();
    if let Some(h) = header {
        s.read_apart_after(MAIN, h);
    }
    s.feed(MAIN, bytes);
    s.finish(MAIN);
    // a file in another format has its uuids made up as it is read: a
    // line read apart has the same as another (see `Copy`)
    let own = s
        .sources
        .get(usize::from(MAIN))
        .is_some_and(|src| src.translator.is_none());
    let base = first_line.saturating_sub(1);
    let mut out = Vec::new();
    let transcripts = std::iter::once(&s.main).chain(s.agents.iter().map(|a| &a.transcript));
    for t in transcripts {
        for it in &t.items {
            if it.kind == Kind::Unreadable {
                continue;
            }
            let text = it.search_text();
            if !text.trim().is_empty() {
                let copy = it
                    .uuid
                    .as_deref()
                    .filter(|_| own && hides_copies(it.kind))
                    .and_then(|u| Some((Box::from(u), t.threads.print(u)?)));
                let saved = match &it.detail {
                    Detail::OrphanResult(r) => saved_call(r.text.or_marker(), None),
                    _ => None,
                };
                out.push(Entry {
                    line: it.line + base,
                    kind: it.kind,
                    timestamp: it.timestamp,
                    text: text.into_owned(),
                    copy,
                    saved,
                });
            }
            if let Detail::Call(c) = &it.detail
                && let Some(r) = &c.result
                && !r.text.is_blank()
            {
                out.push(Entry {
                    line: r.line + base,
                    kind: Kind::ToolResult,
                    timestamp: r.timestamp,
                    text: r.search_text().into_owned(),
                    // (paired with its call: the two were in one piece)
                    copy: None,
                    saved: saved_call(r.text.or_marker(), Some(&c.id)),
                });
            }
        }
    }
    out
}

/// The call whose output a result's `text` says was saved apart: `call`
/// (its call's id, as `F` opens it) when known, else the one its wrapper
/// names.
fn saved_call(text: &str, call: Option<&str>) -> Option<Box<str>> {
    let saved = crate::model::saved::saved_output(text)?;
    call.or_else(|| saved.call_id()).map(Box::from)
}

/// What a search reads of an output saved apart, at most: what `c o`
/// copies.
const SAVED_MOST: u64 = crate::model::saved_read::MOST;

/// The whole output of call `call_id` saved apart beside the session file
/// `file` (see [`crate::model::saved::saved_file`]), its first
/// [`SAVED_MOST`] bytes: only a regular file, never through a link.
pub fn saved_text(file: &std::path::Path, call_id: &str) -> Option<String> {
    crate::model::saved_read::whole_output(file, call_id, SAVED_MOST).map(|s| s.text)
}

/// [`saved_text`]'s bytes as they are, for a search's raw test, into
/// `out` (emptied first).
pub fn saved_bytes_into(file: &std::path::Path, call_id: &str, out: &mut Vec<u8>) -> Option<()> {
    use std::io::Read;
    let path = crate::model::saved::saved_file(file, call_id)?;
    let f = crate::model::saved_read::open_saved(&path)?;
    out.clear();
    f.take(SAVED_MOST).read_to_end(out).ok()?;
    Some(())
}

/// Whether outputs saved apart may lie beside the session file `file`:
/// its session's `tool-results/` folder is there (no link). One look per
/// file spares a search of one without it looking for their wrappers in
/// every line.
pub fn may_have_saved_outputs(file: &std::path::Path) -> bool {
    crate::model::saved::saved_file(file, "x")
        .as_deref()
        .and_then(std::path::Path::parent)
        .and_then(|dir| std::fs::symlink_metadata(dir).ok())
        .is_some_and(|m| m.is_dir())
}

/// Adds to each entry of a result Claude Code saved apart the whole
/// output (safe text, after what Claude read; redacted when the screen
/// is), as it lies beside the session file `file`: the words of a long
/// command's output are found, not only those of its preview. One whose
/// file is not on this machine keeps its preview. (The raw test reads
/// the file its wrapper names, [`saved_calls_in`]; Claude Code names it
/// by the call's id, so both read the same file.)
pub fn add_saved_outputs(entries: &mut [Entry], file: &std::path::Path) {
    // what all of them read together: a line naming many outputs is
    // held to what one may be
    let mut left = SAVED_MOST;
    for e in entries {
        if left == 0 {
            break;
        }
        let read = e
            .saved
            .as_deref()
            .and_then(|id| crate::model::saved_read::whole_output(file, id, left));
        if let Some(read) = read {
            left = left.saturating_sub(read.text.len() as u64);
            let text = crate::model::text::sanitize(&read.text);
            e.text.push('\n');
            // redacted as the session's own texts are read when the
            // screen is (the snippet is then cut from redacted text)
            if crate::redact::screen() {
                e.text.push_str(&crate::redact::active().redact(&text));
            } else {
                e.text.push_str(&text);
            }
        }
    }
}

/// The calls whose outputs a line's results say were saved apart, read
/// off its raw bytes (the file name after each wrapper's `saved to:`):
/// what a search looks in for the terms the line does not hold. An id
/// that is not plain is left to [`crate::model::saved::saved_file`],
/// which refuses it.
pub fn saved_calls_in(line: &[u8]) -> Vec<&str> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static OPEN: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(WRAPPER));
    static SAVED: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"saved to:"));
    static TXT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b".txt"));
    // a line of real results names a few; one written to name thousands
    // is looked at no further than this
    const MOST_NAMED: usize = 64;
    const MOST_LOOKED: usize = 1024;
    let mut out = Vec::new();
    for at in OPEN.find_iter(line).take(MOST_LOOKED) {
        if out.len() >= MOST_NAMED {
            break;
        }
        // the head of the wrapper is its first line: not far
        let head = &line[at..line.len().min(at + 4096)];
        let Some(s) = SAVED.find(head) else { continue };
        let Some(t) = TXT.find(&head[s..]) else {
            continue;
        };
        let end = s + t;
        let start = head[..end]
            .iter()
            .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
            .map_or(0, |p| p + 1);
        if let Ok(id) = std::str::from_utf8(&head[start..end])
            && !id.is_empty()
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

/// What opens the wrapper of a result saved apart, as a line holds it.
pub const WRAPPER: &[u8] = b"<persisted-output>";

/// A line a search may decode, and where its part no entry shows is (a
/// tool result's structured copy, see [`crate::source::unshown_span`]):
/// found at most once, for both questions asked of it (is a term only
/// there? what is decoded?).
pub struct Unshown<'a> {
    pub line: &'a [u8],
    span: std::cell::OnceCell<Option<std::ops::Range<usize>>>,
}

impl<'a> Unshown<'a> {
    pub fn new(line: &'a [u8]) -> Self {
        Unshown {
            line,
            span: std::cell::OnceCell::new(),
        }
    }

    pub fn span(&self) -> Option<&std::ops::Range<usize>> {
        self.span
            .get_or_init(|| crate::source::unshown_span(self.line))
            .as_ref()
    }

    /// The line as the model needs it for its entries: the copy replaced
    /// by `null`, so it is not decoded. It is a third to a half of the
    /// bytes of the lines a search of a common word decodes
    /// (`tests/line_time.rs` holds the entries equal with it and without).
    pub fn shown(&self) -> std::borrow::Cow<'a, [u8]> {
        const NULL: &[u8] = b"null";
        let line = self.line;
        match self.span() {
            Some(span) if span.len() > NULL.len() => {
                let mut out = Vec::with_capacity(line.len() - span.len() + NULL.len());
                out.extend_from_slice(&line[..span.start]);
                out.extend_from_slice(NULL);
                out.extend_from_slice(&line[span.end..]);
                std::borrow::Cow::Owned(out)
            }
            _ => std::borrow::Cow::Borrowed(line),
        }
    }
}

/// `piece` (whole lines) as the model needs it for its entries: each
/// line's structured copy of a tool result replaced by `null` (see
/// [`Unshown::shown`]). An index build decoded every edited file whole,
/// every patch and every command's output twice, for no word it keeps.
/// The lines stay where they were: an entry's line number is the same.
pub fn shown_piece(piece: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let mut out = Vec::new();
    if shown_piece_into(piece, &mut out) {
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(piece)
    }
}

/// [`shown_piece`] written into `out` (emptied first), a buffer its
/// caller keeps: a fresh one for every piece of an index build raised
/// its peak memory by a quarter. `false`: nothing to leave out, `piece`
/// is as the model needs it (and `out` is empty).
pub fn shown_piece_into(piece: &[u8], out: &mut Vec<u8>) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static COPY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"toolUseResult\""));
    const NULL: &[u8] = b"null";
    out.clear();
    let mut copied = false;
    // the end of the last line looked at (copied or to be copied)
    let mut done = 0;
    let mut at = 0;
    while let Some(k) = piece.get(at..).and_then(|r| COPY.find(r)) {
        let hit = at + k;
        let start = memchr::memrchr(b'\n', &piece[..hit]).map_or(0, |p| p + 1);
        let end = memchr::memchr(b'\n', &piece[hit..]).map_or(piece.len(), |p| hit + p);
        let line = &piece[start..end];
        if let Some(span) = crate::source::unshown_span(line).filter(|s| s.len() > NULL.len()) {
            out.extend_from_slice(&piece[done..start + span.start]);
            out.extend_from_slice(NULL);
            done = start + span.end;
            copied = true;
        }
        at = end + 1;
        if at >= piece.len() {
            break;
        }
    }
    if copied {
        out.extend_from_slice(&piece[done..]);
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::{saved_calls_in, shown_piece};

    /// The calls a line's wrappers name, as JSON writes them (a Windows
    /// path's backslashes escaped), once each; a name that would leave the
    /// folder gives only its last part; a line written to name thousands
    /// gives no more than 64.
    #[test]
    fn the_calls_a_line_names_are_read_off_its_bytes() {
        let wrapper = |path: &str| {
            let text = format!(
                "<persisted-output>\nOutput too large (9KB). Full output saved to: {path}\n\nPreview (first 2KB):\nx\n</persisted-output>"
            );
            serde_json::json!({"type":"tool_result","tool_use_id":"t","content":text})
        };
        let line = serde_json::json!({"type":"user","message":{"role":"user","content":[
            wrapper("/Users/a/.claude/projects/-x/s/tool-results/toolu_01A.txt"),
            wrapper(r"C:\Users\a\.claude\projects\-x\s\tool-results\toolu_01B.txt"),
            wrapper("/Users/a/.claude/projects/-x/s/tool-results/toolu_01A.txt"),
            wrapper("/x/../../etc/passwd.txt"),
            wrapper("no file named"),
        ]}})
        .to_string();
        assert_eq!(
            saved_calls_in(line.as_bytes()),
            ["toolu_01A", "toolu_01B", "passwd"]
        );
        let many: Vec<_> = (0..5000)
            .map(|i| wrapper(&format!("/s/tool-results/toolu_{i}.txt")))
            .collect();
        let line =
            serde_json::json!({"type":"user","message":{"role":"user","content":many}}).to_string();
        assert_eq!(saved_calls_in(line.as_bytes()).len(), 64);
    }

    /// Each line's copy goes, and only that: lines without one, a word
    /// `toolUseResult` in a text, a last line without its newline, and
    /// the line count stay as they were.
    #[test]
    fn a_piece_loses_its_copies_and_keeps_its_lines() {
        let result = |copy: &str| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t","type":"tool_result","content":"ok"}}]}},"toolUseResult":{copy}}}"#
            )
        };
        let prompt =
            r#"{"type":"user","message":{"role":"user","content":"what is \"toolUseResult\"?"}}"#;
        let lines = [
            prompt.to_owned(),
            result(r#"{"stdout":"a long output","interrupted":false}"#),
            result("null"),
            result(r#""x""#),
            prompt.to_owned(),
            result(r#"{"file":{"content":"toolUseResult"}}"#),
        ];
        let piece = lines.join("\n");
        let shown = shown_piece(piece.as_bytes());
        let want = [
            prompt.to_owned(),
            result("null"),
            result("null"),
            result(r#""x""#),
            prompt.to_owned(),
            result("null"),
        ]
        .join("\n");
        assert_eq!(String::from_utf8_lossy(&shown), want);
        let with_newline = format!("{piece}\n");
        assert_eq!(
            String::from_utf8_lossy(&shown_piece(with_newline.as_bytes())),
            format!("{want}\n")
        );
        // nothing to take out: the piece itself
        let plain = format!("{prompt}\n{prompt}\n");
        assert!(matches!(
            shown_piece(plain.as_bytes()),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
