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
}

/// The entries of `bytes`, complete lines of one file whose first line is
/// line `first_line`. Lines are read on their own (a result whose call
/// is in another piece is still an entry), so any piece can be read.
pub fn entries(bytes: &[u8], first_line: u32) -> Vec<Entry> {
    let mut s = Session::new(None);
    s.feed(MAIN, bytes);
    s.finish(MAIN);
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
                out.push(Entry {
                    line: it.line + base,
                    kind: it.kind,
                    timestamp: it.timestamp,
                    text: text.into_owned(),
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
