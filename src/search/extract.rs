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
                out.push(Entry {
                    line: it.line + base,
                    kind: it.kind,
                    timestamp: it.timestamp,
                    text: text.into_owned(),
                    copy,
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
                });
            }
        }
    }
    out
}

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
    use super::shown_piece;

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
