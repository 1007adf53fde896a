//! Search without an index: the raw bytes of every file are scanned for
//! each term as JSON writes it (a fast literal search, case folded unless
//! the query has capitals), and only the lines that hold every term are
//! decoded and checked (a prompt's or an answer's only when it is newer
//! than the hits already found: see `search::scan_files`). As fast as grep
//! on the first query, before any index exists.

use crate::catalog::files::SearchFile;
use crate::model::query::Query;
use crate::search::extract::Unshown;
use regex::bytes::{Regex, RegexBuilder};
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A line that holds every term: its file (index into the files), its
/// 1-based number, byte offset and bytes (in the piece being read: most
/// lines found are never kept).
pub struct RawLine<'a> {
    pub file: usize,
    pub line: u32,
    pub offset: u64,
    pub bytes: &'a [u8],
}

/// The byte patterns for `query`: each term as it appears inside a JSON
/// string (quotes, backslashes and control characters escaped).
fn patterns(query: &Query) -> Result<Vec<Regex>, String> {
    query
        .terms()
        .iter()
        .map(|t| {
            let p = if query.is_regex {
                t.clone()
            } else {
                let json = serde_json::to_string(t).unwrap_or_default();
                let inner = json.get(1..json.len().saturating_sub(1)).unwrap_or("");
                regex::escape(inner)
            };
            RegexBuilder::new(&p)
                .case_insensitive(!query.case_sensitive)
                .unicode(!p.is_ascii() || query.is_regex)
                .size_limit(1 << 20)
                .build()
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The test every line a search decodes has passed: its bytes hold each
/// term as JSON writes it. The index's candidates are put to it too (an
/// entry that holds a phrase's words apart, or a word's parts, as
/// `resolve_layout` is indexed, is passed over without being decoded),
/// so both ways find the same lines.
pub struct RawTest(Vec<Regex>);

impl RawTest {
    /// Every term's pattern (a regular expression's as written): what the
    /// files are scanned for.
    pub fn new(query: &Query) -> Result<RawTest, String> {
        patterns(query).map(RawTest)
    }

    /// `None` for a regular expression, which is tested on the text only.
    pub fn of(query: &Query) -> Option<RawTest> {
        if query.is_regex {
            return None;
        }
        RawTest::new(query).ok()
    }

    pub fn holds(&self, line: &[u8]) -> bool {
        self.0.iter().all(|p| p.is_match(line))
    }

    /// Whether some term occurs in `line` only where no entry shows it
    /// (see [`a_term_shows_nowhere`]): the line holds no hit. Asked only
    /// of the lines not passed over for their age (most lines of a common
    /// word are, and the question reads the line).
    pub fn shown_nowhere(&self, line: &Unshown<'_>) -> bool {
        a_term_shows_nowhere(line, &self.0)
    }
}

/// Every line of `files` holding every term of `test`, found on `threads`
/// threads; `sink` gets each (in no particular order). Files are taken in
/// order (newest first), and none after `enough` says so (asked of each
/// file before it and after each of its pieces); `done` is told of each
/// file read (whole or left), by its index, after its last line found,
/// and `idle` is called on each thread that has no file left to read.
pub fn scan(
    files: &[SearchFile],
    test: &RawTest,
    threads: usize,
    sink: &(dyn Fn(RawLine<'_>) + Sync),
    enough: &(dyn Fn(&SearchFile) -> bool + Sync),
    done: &(dyn Fn(usize) + Sync),
    idle: &(dyn Fn() + Sync),
) {
    let pats = &test.0;
    if pats.is_empty() {
        return;
    }
    // the longest term first: fewest false starts
    let mut order: Vec<usize> = (0..pats.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(pats[i].as_str().len()));
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, files.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    if enough(f) {
                        break;
                    }
                    // a file ccv fails to read costs its hits, not the search
                    let _ = crate::contain::contain(|| scan_file(i, f, pats, &order, sink, enough));
                    done(i);
                }
                // no file left to read: help with what the others found
                let _ = crate::contain::contain(idle);
            });
        }
    });
}

const PIECE: usize = 1 << 20;

/// Whether some term occurs in `line` only where no entry shows it: it
/// holds no hit, and is not decoded. That is inside a tool result's
/// structured copy (see [`crate::source::unshown_span`]: an edit's whole
/// file, which made a search of "error" decode every line of an edit to
/// a file that says it), or inside a key of a line of tool results, whose
/// rows show values and no key (every result says `"is_error": false`).
/// A term of one character is left alone in keys (a placeholder such as
/// `[image/png 3 KB]` shows letters no value wrote).
fn a_term_shows_nowhere(unshown: &Unshown<'_>, pats: &[Regex]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static COPY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"toolUseResult\""));
    let line = unshown.line;
    // no match before the copy's key is in the copy: where it is (a walk
    // of the line) is found only for a match after it, and most terms are
    // first met in the message, before it
    let copy_from = COPY.find(line).unwrap_or(line.len());
    let mut results_only = None;
    let hidden = |m: &regex::bytes::Match<'_>| {
        m.start() >= copy_from
            && unshown
                .span()
                .is_some_and(|u| u.start <= m.start() && m.end() <= u.end)
    };
    let in_a_key = |m: &regex::bytes::Match<'_>| m.as_bytes().len() >= 2 && in_key(line, m.end());
    pats.iter().any(|p| {
        let mut found = p.find_iter(line).peekable();
        found.peek().is_some()
            && found.all(|m| {
                hidden(&m)
                    || (in_a_key(&m)
                        && *results_only
                            .get_or_insert_with(|| crate::source::only_tool_results(line)))
            })
    })
}

/// Whether the text before `at` ends inside a key: the string it is in
/// closes with a quote and a colon. A match in a value (its string closes
/// with a comma or a bracket) or outside any string (a literal, which the
/// next string's start follows) is not one.
fn in_key(line: &[u8], at: usize) -> bool {
    let mut i = at;
    let close = loop {
        let Some(q) = line.get(i..).and_then(|r| memchr::memchr(b'"', r)) else {
            return false;
        };
        let q = i + q;
        let escapes = line[..q].iter().rev().take_while(|&&c| c == b'\\').count();
        if escapes % 2 == 0 {
            break q;
        }
        i = q + 1;
    };
    line.get(close + 1..)
        .and_then(|r| r.iter().find(|c| !c.is_ascii_whitespace()))
        == Some(&b':')
}

fn scan_file(
    idx: usize,
    f: &SearchFile,
    pats: &[Regex],
    order: &[usize],
    sink: &(dyn Fn(RawLine<'_>) + Sync),
    enough: &(dyn Fn(&SearchFile) -> bool + Sync),
) -> io::Result<()> {
    let mut pieces = crate::catalog::pieces::Pieces::open(&f.path, 0, 1, f.size, PIECE, true)?;
    while let Some(p) = pieces.next_piece()? {
        scan_piece(idx, p.bytes, p.offset, p.line, pats, order, sink);
        // asked again after each piece: the hits found meanwhile may have
        // made the file older than what they hold (or the search stale)
        if enough(f) {
            break;
        }
    }
    Ok(())
}

fn scan_piece(
    idx: usize,
    piece: &[u8],
    base_offset: u64,
    base_line: u32,
    pats: &[Regex],
    order: &[usize],
    sink: &(dyn Fn(RawLine<'_>) + Sync),
) {
    let Some((&first, rest)) = order.split_first() else {
        return;
    };
    let (mut counted_to, mut line_no) = (0usize, base_line);
    let mut at = 0;
    while let Some(m) = pats[first].find_at(piece, at) {
        let start = memchr::memrchr(b'\n', &piece[..m.start()]).map_or(0, |p| p + 1);
        let end = memchr::memchr(b'\n', &piece[m.start()..]).map_or(piece.len(), |p| m.start() + p);
        let line = &piece[start..end];
        line_no += memchr::memchr_iter(b'\n', &piece[counted_to..start]).count() as u32;
        counted_to = start;
        if rest.iter().all(|&i| pats[i].is_match(line)) {
            sink(RawLine {
                file: idx,
                line: line_no,
                offset: base_offset + start as u64,
                bytes: line,
            });
        }
        at = end + 1;
        if at >= piece.len() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{a_term_shows_nowhere, patterns};
    use crate::model::query::Query;

    fn only_in_keys(query: &str, line: &str) -> bool {
        let q = Query::words(query, false).expect("query");
        let pats = patterns(&q).expect("patterns");
        a_term_shows_nowhere(&super::Unshown::new(line.as_bytes()), &pats)
    }

    /// A line of tool results whose only "error" is its `is_error` key, or
    /// its result's structured copy, holds no hit; one whose result says
    /// it, or a line of another kind (whose keys an unknown entry shows),
    /// is decoded.
    #[test]
    fn a_term_only_where_no_entry_shows_it_is_passed_over() {
        let result = |text: &str| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t1","type":"tool_result","content":"{text}","is_error":false}}]}},"uuid":"u1","toolUseResult":{{"stdout":"{text}","interrupted":false}}}}"#
            )
        };
        assert!(only_in_keys("error", &result("all fine")));
        assert!(only_in_keys("interrupt", &result("all fine")));
        assert!(!only_in_keys("error", &result("an error here")));
        assert!(!only_in_keys(
            "error",
            &result(r#"a \"is_error\": true in the output"#)
        ));
        // the other term is in the text: the line still holds no hit
        assert!(only_in_keys("fine error", &result("all fine")));
        assert!(!only_in_keys("fine", &result("all fine")));
        // a key of a line of another kind may be shown (an unknown entry)
        let unknown = r#"{"type":"new-kind","is_error":true,"uuid":"u2"}"#;
        assert!(!only_in_keys("error", unknown));
        let prompt = r#"{"type":"user","is_error":true,"message":{"role":"user","content":"hi"}}"#;
        assert!(!only_in_keys("error", prompt));
        // a word only in the structured copy of a result: no hit
        let edit = |text: &str, copy: &str| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t1","type":"tool_result","content":"{text}"}}]}},"toolUseResult":{{"originalFile":"{copy}","structuredPatch":[]}}}}"#
            )
        };
        assert!(only_in_keys("error", &edit("updated", "an error")));
        assert!(only_in_keys("patch", &edit("updated", "x")));
        assert!(!only_in_keys("error", &edit("an error", "an error")));
        assert!(!only_in_keys("updated", &edit("updated", "an error")));
        // ...of a line the model shows as it is, it may be a hit
        let bare = r#"{"type":"user","toolUseResult":{"stdout":"an error"}}"#;
        assert!(!only_in_keys("error", bare));
        let prompt =
            r#"{"type":"user","message":{"role":"user","content":"x"},"toolUseResult":"an error"}"#;
        assert!(only_in_keys("error", prompt));
        // a one-character term is left alone
        assert!(!only_in_keys(
            "e",
            r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"x"}]}}"#
        ));
    }
}
