//! Search without an index: the raw bytes of every file are scanned for
//! each term as JSON writes it (a fast literal search, case folded unless
//! the query has capitals), and only the lines that hold every term are
//! decoded and checked (a prompt's or an answer's only when it is newer
//! than the hits already found: see `search::first::scan_files`). As fast as grep
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
    /// The file is Claude Code's: each text of a line is one of its
    /// strings, decoded once (a Codex call's arguments are JSON in a
    /// string, decoded twice).
    pub claude: bool,
    /// It holds a result saved apart: a term it does not show may be in
    /// the whole output (see [`RawTest::holds_saved`]), so what the line
    /// alone shows does not rule it out.
    pub saved: bool,
}

/// The byte patterns for `query`: each term as it appears inside a JSON
/// string (quotes, backslashes and control characters escaped), or as a
/// plain text holds it (`json` false: a saved output); a regular
/// expression as written.
fn patterns(query: &Query, json: bool) -> Result<Vec<Regex>, String> {
    query
        .terms()
        .iter()
        .map(|t| {
            let p = if query.is_regex {
                t.clone()
            } else if json {
                let json = serde_json::to_string(t).unwrap_or_default();
                let inner = json.get(1..json.len().saturating_sub(1)).unwrap_or("");
                regex::escape(inner)
            } else {
                regex::escape(t)
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
pub struct RawTest {
    pats: Vec<Regex>,
    /// Per pattern: its term counts only where a word starts.
    words: Vec<bool>,
    /// Each term as a text writes it (not escaped as JSON), for the whole
    /// outputs saved apart: `None` until one is looked in.
    plain: std::sync::OnceLock<Vec<Regex>>,
    query: Query,
}

impl RawTest {
    /// Every term's pattern (a regular expression's as written): what the
    /// files are scanned for.
    pub fn new(query: &Query) -> Result<RawTest, String> {
        let pats = patterns(query, true)?;
        let words = (0..pats.len()).map(|i| query.word_start_at(i)).collect();
        Ok(RawTest {
            pats,
            words,
            plain: std::sync::OnceLock::new(),
            query: query.clone(),
        })
    }

    /// Whether the raw `line` of the session file `file`, with the whole
    /// outputs its results saved apart, holds every term: each in the
    /// line or in one of them (a superset of what decoding finds, as
    /// [`RawTest::holds`] is).
    pub fn holds_saved(&self, line: &[u8], file: &std::path::Path) -> bool {
        let calls = super::extract::saved_calls_in(line);
        if calls.is_empty() {
            return false;
        }
        // the terms the line does not hold, looked for in one output at a
        // time (what is held is one output, whatever the line names)
        let mut missing: Vec<usize> = (0..self.pats.len())
            .filter(|&i| !self.pats[i].is_match(line))
            .collect();
        let plain = self
            .plain
            .get_or_init(|| patterns(&self.query, false).unwrap_or_default());
        let mut output = Vec::new();
        for id in calls {
            if missing.is_empty() {
                break;
            }
            if super::extract::saved_bytes_into(file, id, &mut output).is_some() {
                missing.retain(|&i| !plain.get(i).is_some_and(|q| q.is_match(&output)));
            }
        }
        missing.is_empty()
    }

    /// `None` for a regular expression, which is tested on the text only.
    pub fn of(query: &Query) -> Option<RawTest> {
        if query.is_regex {
            return None;
        }
        RawTest::new(query).ok()
    }

    /// The lines of `piece` (whole lines of the file `file`) that hold
    /// every term, to `sink`, as [`scan`] finds them: only the lines where
    /// the longest term is are looked at, and those of results saved
    /// apart. `claude`: the file is Claude Code's.
    pub fn lines_in(
        &self,
        (piece, file): (&crate::catalog::pieces::Piece<'_>, &std::path::Path),
        claude: bool,
        sink: &mut dyn FnMut(RawLine<'_>),
    ) {
        let mut order: Vec<usize> = (0..self.pats.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.pats[i].as_str().len()));
        let saved = claude && super::extract::may_have_saved_outputs(file);
        scan_piece((0, claude, file, saved), piece, (self, &order), sink);
    }

    pub fn holds(&self, line: &[u8]) -> bool {
        self.pats.iter().all(|p| p.is_match(line))
    }

    /// Whether some term occurs in `line` only where no entry shows it
    /// (see [`a_term_shows_nowhere`]): the line holds no hit. Asked only
    /// of the lines not passed over for their age (most lines of a common
    /// word are, and the question reads the line).
    pub fn shown_nowhere(&self, line: &Unshown<'_>, claude: bool) -> bool {
        let words: &[bool] = if claude { &self.words } else { &[] };
        a_term_shows_nowhere(line, &self.pats, words)
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
    let pats = &test.pats;
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
                    let _ =
                        crate::contain::contain(|| scan_file(i, f, (test, &order), sink, enough));
                    done(i);
                }
                // no file left to read: help with what the others found
                let _ = crate::contain::contain(idle);
            });
        }
    });
}

/// What a file is read and scanned by: a common word's search stops
/// after a few files, and each page of a thread's buffer is touched once
/// (at 1 MB, with a read as big, those pages were a third of the page
/// faults of a first search of "the" on real sessions; no slower on 1 GB).
const PIECE: usize = 256 << 10;

/// Whether some term occurs in `line` only where no entry shows it: it
/// holds no hit, and is not decoded. That is inside a tool result's
/// structured copy or an agent's prompt repeated on its progress (see
/// [`crate::source::unshown_span`]: an edit's whole file, which made a
/// search of "error" decode every line of an edit to a file that says
/// it), or inside a key of a line of tool results (its own or an agent's
/// mirrored), whose rows show values and no key (every result says
/// `"is_error": false`).
/// A term of one character is left alone in keys (a placeholder such as
/// `[image/png 3 KB]` shows letters no value wrote). A term that counts
/// where a word starts is not at one after a letter or digit the text
/// shows, nor inside an escape (`\thead` holds no `the`): a search of
/// "fix" decoded every line of a file's listing that says `suffix`.
fn a_term_shows_nowhere(unshown: &Unshown<'_>, pats: &[Regex], words: &[bool]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static COPY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"toolUseResult\""));
    static PROMPT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"prompt\""));
    let line = unshown.line;
    // no match before the key of what no entry shows is in it: where it
    // is (a walk of the line) is found only for a match after it, and
    // most terms are first met in the message, before it
    let copy = COPY.find(line).unwrap_or(line.len());
    let copy_from = PROMPT.find(&line[..copy]).unwrap_or(copy);
    let mut results_only = None;
    // where the value no entry shows ends, for a match inside it: every
    // other match up to there is in it too (an edited file's copy may say
    // the word a hundred times)
    let hidden_to = |m: &regex::bytes::Match<'_>| {
        if m.start() < copy_from {
            return None;
        }
        let u = unshown.span()?;
        (u.start <= m.start() && m.end() <= u.end).then_some(u.end)
    };
    let in_a_key = |m: &regex::bytes::Match<'_>| m.as_bytes().len() >= 2 && in_key(line, m.end());
    let mut rewritten = None;
    pats.iter().enumerate().any(|(i, p)| {
        let word = words.get(i).copied().unwrap_or(false);
        let mut at = 0;
        let mut found = false;
        while let Some(m) = p.find_at(line, at) {
            found = true;
            if let Some(end) = hidden_to(&m) {
                at = end.max(m.end());
                continue;
            }
            if word
                && !may_start_word(line, m.start())
                && !*rewritten
                    .get_or_insert_with(|| crate::model::text::sanitizing_may_rewrite(line))
            {
                // an escape's letter (`\n`) is a character of its own: a
                // word may start right after it; else not before the next
                // byte that is no ASCII letter or digit (an occurrence
                // overlapping this one included: `x.x` in `yx.x.x`)
                at = if m.start() > 0 && line[m.start() - 1] == b'\\' {
                    m.start() + 1
                } else {
                    line[m.start()..]
                        .iter()
                        .position(|c| !c.is_ascii_alphanumeric())
                        .map_or(line.len(), |g| m.start() + g)
                        + 1
                };
                if at > line.len() {
                    break;
                }
                continue;
            }
            let unshown = in_a_key(&m)
                && *results_only.get_or_insert_with(|| crate::source::only_tool_results(line));
            if !unshown {
                return false;
            }
            at = if m.is_empty() { m.end() + 1 } else { m.end() };
            if at > line.len() {
                break;
            }
        }
        found
    })
}

/// Whether the text decoded from a JSON line may have a word start where
/// the line has byte `at` (the first of a term that starts with a letter
/// or digit): not after an ASCII letter or digit the text keeps, nor at
/// an escape's letter. Any doubt (a byte of another script, the end of a
/// `\u` escape) says it may.
fn may_start_word(line: &[u8], at: usize) -> bool {
    let backslashes_before = |i: usize| line[..i].iter().rev().take_while(|&&c| c == b'\\').count();
    let Some(prev) = at.checked_sub(1) else {
        return true;
    };
    match line[prev] {
        // the occurrence is an escape's letter, unless the backslashes
        // before it are pairs (each a backslash of the text)
        b'\\' => backslashes_before(at) % 2 == 0,
        c if !c.is_ascii_alphanumeric() => true,
        // a control character's escape (`\n`): no letter of the text
        b'n' | b't' | b'r' | b'b' | b'f' if backslashes_before(prev) % 2 == 1 => true,
        // the end of `\uXXXX`, which may be anything
        c if c.is_ascii_hexdigit()
            && prev >= 5
            && line[prev - 5..prev - 3] == *b"\\u"
            && line[prev - 3..prev].iter().all(u8::is_ascii_hexdigit)
            && backslashes_before(prev - 4) % 2 == 1 =>
        {
            true
        }
        _ => false,
    }
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
    test: (&RawTest, &[usize]),
    sink: &(dyn Fn(RawLine<'_>) + Sync),
    enough: &(dyn Fn(&SearchFile) -> bool + Sync),
) -> io::Result<()> {
    let mut pieces = crate::catalog::pieces::Pieces::open(&f.path, 0, 1, f.size, PIECE, true)?;
    let mut claude = None;
    let mut saved = None;
    while let Some(p) = pieces.next_piece()? {
        let claude = *claude.get_or_insert_with(|| {
            let first = memchr::memchr(b'\n', p.bytes).map_or(p.bytes, |n| &p.bytes[..n]);
            crate::source::translator_for(first).is_none()
        });
        let saved =
            *saved.get_or_insert_with(|| claude && super::extract::may_have_saved_outputs(&f.path));
        scan_piece((idx, claude, &f.path, saved), &p, test, &mut |l| sink(l));
        // asked again after each piece: the hits found meanwhile may have
        // made the file older than what they hold (or the search stale)
        if enough(f) {
            break;
        }
    }
    Ok(())
}

/// The lines of `p` that hold every term, to `sink`; `(idx, claude,
/// file)`: the file's index, whether it is Claude Code's (see
/// [`RawLine`]), its path and whether outputs may be saved apart beside
/// it. A line of a result saved apart is then looked at whatever it
/// holds: the whole output may hold what it does not (see
/// [`RawTest::holds_saved`]).
fn scan_piece(
    (idx, claude, file, saved_beside): (usize, bool, &std::path::Path, bool),
    p: &crate::catalog::pieces::Piece<'_>,
    (test, order): (&RawTest, &[usize]),
    sink: &mut dyn FnMut(RawLine<'_>),
) {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static WRAPPER: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(super::extract::WRAPPER));
    let pats = &test.pats;
    let Some((&first, rest)) = order.split_first() else {
        return;
    };
    let (piece, base_offset) = (p.bytes, p.offset);
    let line_start = |at: usize| memchr::memrchr(b'\n', &piece[..at]).map_or(0, |p| p + 1);
    let line_end = |at: usize| memchr::memchr(b'\n', &piece[at..]).map_or(piece.len(), |p| at + p);
    // the starts of the lines of results saved apart (a few in a file)
    let mut saved: Vec<usize> = Vec::new();
    if claude && saved_beside {
        // a line at a time (one line may hold thousands): each byte is
        // looked at once
        let mut from = 0;
        while let Some(k) = piece.get(from..).and_then(|r| WRAPPER.find(r)) {
            let at = from + k;
            saved.push(from + memchr::memrchr(b'\n', &piece[from..at]).map_or(0, |p| p + 1));
            from = line_end(at) + 1;
        }
    }
    let mut next_saved = saved.iter().copied().peekable();
    let (mut counted_to, mut line_no) = (0usize, p.line);
    let mut number = |start: usize| {
        line_no += memchr::memchr_iter(b'\n', &piece[counted_to..start]).count() as u32;
        counted_to = start;
        line_no
    };
    let raw = |(start, end): (usize, usize), line_no: u32, saved: bool| RawLine {
        file: idx,
        line: line_no,
        offset: base_offset + start as u64,
        bytes: &piece[start..end],
        claude,
        saved,
    };
    let mut at = 0;
    loop {
        let m = pats[first].find_at(piece, at);
        let start = m.map_or(piece.len(), |m| line_start(m.start()));
        // the lines of saved results before it, which the longest term
        // is not in
        while let Some(s) = next_saved.next_if(|&s| s < start) {
            let end = line_end(s);
            if test.holds_saved(&piece[s..end], file) {
                sink(raw((s, end), number(s), true));
            }
        }
        let Some(m) = m else { break };
        let end = line_end(m.start());
        let line = &piece[start..end];
        let is_saved = next_saved.next_if_eq(&start).is_some();
        if rest.iter().all(|&i| pats[i].is_match(line))
            || (is_saved && test.holds_saved(line, file))
        {
            sink(raw((start, end), number(start), is_saved));
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
        let pats = patterns(&q, true).expect("patterns");
        a_term_shows_nowhere(&super::Unshown::new(line.as_bytes()), &pats, &[])
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

    fn nowhere_in_claude(query: &str, line: &str) -> bool {
        let q = Query::words(query, false).expect("query");
        let test = super::RawTest::new(&q).expect("patterns");
        test.shown_nowhere(&super::Unshown::new(line.as_bytes()), true)
    }

    /// A word's occurrence counts where the decoded text may start a word
    /// there: after a letter or digit it shows, or at an escape's letter,
    /// it holds none; after an escape of a control character, a byte of
    /// another script, a `\u` escape, or in a line a terminal's escape
    /// sequences may be taken out of, it may.
    #[test]
    fn a_word_inside_another_or_an_escape_is_no_hit() {
        let prompt = |text: &str| {
            format!(r#"{{"type":"user","message":{{"role":"user","content":"{text}"}}}}"#)
        };
        for (text, nowhere) in [
            ("has suffix", true),
            ("strings.HasSuffix(", true),
            (r"\fixed", true),
            (r"a\\\fixed", true),
            (r"\tfixed", false),
            ("x2fix", true),
            ("a fix", false),
            ("a-fix", false),
            ("suffix and fix", false),
            (r"a\nfix", false),
            (r"a\tfix", false),
            (r"a\\fix", false),
            (r"a\\\nfix", false),
            (r"a\u00e9fix", false),
            ("éfix", false),
            (r"\u001b[31mfix", false),
            ("\u{9b}31mfix", false),
            (r#"\"fix"#, false),
            ("x.fix", false),
        ] {
            assert_eq!(nowhere_in_claude("fix", &prompt(text)), nowhere, "{text}");
        }
        // an occurrence inside one that is no word's start is still found
        assert!(!nowhere_in_claude("x.x", &prompt("yx.x.x")));
        assert!(nowhere_in_claude("x.x", &prompt("yx.xy")));
        // a term that does not start with a letter counts anywhere
        assert!(!nowhere_in_claude(".x", &prompt("y.x")));
        // a Codex line's texts may be decoded twice: left to decoding
        let q = Query::words("fix", false).expect("query");
        let test = super::RawTest::new(&q).expect("patterns");
        let line = prompt("has suffix");
        assert!(!test.shown_nowhere(&super::Unshown::new(line.as_bytes()), false));
    }

    /// An agent's progress repeats its prompt, which no entry of the line
    /// shows, and mirrors a line of results, whose keys none shows.
    #[test]
    fn an_agents_prompt_and_mirrored_keys_are_no_hit() {
        let progress = |result: &str| {
            format!(
                r#"{{"type":"progress","data":{{"message":{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t","type":"tool_result","content":"{result}","is_error":false}}]}},"uuid":"m"}},"type":"agent_progress","prompt":"find the error","agentId":"a"}},"uuid":"u","parentToolUseID":"t0"}}"#
            )
        };
        assert!(only_in_keys("error", &progress("all fine")));
        assert!(only_in_keys("find", &progress("all fine")));
        assert!(!only_in_keys("error", &progress("an error")));
        assert!(!only_in_keys("fine", &progress("all fine")));
    }

    /// A line passed over holds no hit: random texts of letters, escapes,
    /// terminal sequences and other scripts, written as JSON writes them
    /// (and some characters as `\u` escapes), in a prompt and a tool
    /// result, against what the model's entries of the line say.
    #[test]
    fn a_line_passed_over_holds_no_hit_whatever_its_text() {
        const PARTS: &[&str] = &[
            "fix",
            "the",
            "x",
            "a",
            "3",
            "m",
            "n",
            "t",
            "u",
            " ",
            ".",
            "-",
            "_",
            "\\",
            "\n",
            "\t",
            "\r",
            "\u{8}",
            "\"",
            "é",
            "→",
            "\u{1b}[31m",
            "\u{9b}1m",
            "\u{200b}",
            "\u{7f}",
            "0",
            "F",
            "e",
            "9",
            "/",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let queries: Vec<Query> = [
            "fix", "the", "x", "n", "t", "nn", "a3", "1m", "m", "e9", "Fix", "fix the", "\"the",
        ]
        .iter()
        .map(|q| Query::words(q, false).expect("query"))
        .collect();
        let tests: Vec<super::RawTest> = queries
            .iter()
            .map(|q| super::RawTest::new(q).expect("patterns"))
            .collect();
        let (mut passed, mut hits) = (0, 0);
        for _ in 0..5000 {
            let text: String = (0..next(12)).map(|_| PARTS[next(PARTS.len())]).collect();
            let mut json = serde_json::to_string(&text).expect("json");
            // a letter as an escape, as another writer may put it
            if next(3) == 0 {
                json = json
                    .replacen('f', "\\u0066", 1)
                    .replacen('x', "\\u0078", 1)
                    .replacen('é', "\\u00e9", 1)
                    .replacen('→', "\\u2192", 1);
            }
            let lines = [
                format!(
                    r#"{{"type":"user","message":{{"role":"user","content":{json}}},"uuid":"u"}}"#
                ),
                format!(
                    r#"{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t","type":"tool_result","content":{json}}}]}},"uuid":"u"}}"#
                ),
            ];
            for line in &lines {
                let entries = crate::search::extract::entries(line.as_bytes(), 1, None);
                for (q, t) in queries.iter().zip(&tests) {
                    let hit = entries.iter().any(|e| q.matches(&e.text));
                    hits += usize::from(hit);
                    if t.shown_nowhere(&super::Unshown::new(line.as_bytes()), true) {
                        passed += 1;
                        assert!(!hit, "{:?} in {line}", q.terms());
                    }
                }
            }
        }
        // both ways were taken, often
        assert!(
            passed > 500 && hits > 500,
            "{passed} passed over, {hits} hits"
        );
    }
}
