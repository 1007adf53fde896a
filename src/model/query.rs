//! What a search query means, in one place for the session search (`/`)
//! and the search across sessions (`ccv search`, the picker's Ctrl-F):
//! words in any order that must all occur in one row, `"a quoted
//! phrase"` matched as written, smart case (a query with no capital
//! letter ignores case), or one regular expression.

use regex::{Regex, RegexBuilder};
use std::ops::Range;

#[derive(Debug, Clone)]
pub struct Query {
    /// The words and phrases, as typed.
    terms: Vec<String>,
    /// One matcher per term (or the one regular expression): the term as
    /// written, found anywhere.
    matchers: Vec<Regex>,
    /// Per matcher: its occurrences count only where a word starts (a
    /// term of [`Query::words`] that starts with a letter or digit).
    at_word_start: Vec<bool>,
    pub case_sensitive: bool,
    pub is_regex: bool,
    /// Terms match only where a word starts (the search across sessions,
    /// whose index knows words, not every substring).
    pub word_start: bool,
}

/// A JSON text whose strings decode to themselves but for `\n`, `\t`,
/// `\"` and `\\`, and which [`super::text::sanitize`] leaves as it is.
fn json_text_is_verbatim(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'\\', &b[i..]) {
        let at = i + k;
        if !matches!(b.get(at + 1), Some(b'n' | b't' | b'"' | b'\\')) {
            return false;
        }
        i = at + 2;
    }
    !super::text::needs_sanitizing(raw)
}

/// The longest query, in characters: a query is typed, not pasted
/// megabytes; a longer one is refused with a message, never cut.
pub const MAX_QUERY_CHARS: usize = 1000;
/// The most words and phrases in one query (each is a matcher).
pub const MAX_TERMS: usize = 32;
/// What one term's compiled matcher may take (a word-start term over
/// Unicode classes takes ~400 KB); past it the query is refused.
const MAX_COMPILED: usize = 2 << 20;

impl Query {
    /// Parses `input`; `regex`: the whole input is one regular expression.
    /// A term matches anywhere in the text.
    pub fn parse(input: &str, regex: bool) -> Result<Query, String> {
        Query::parse_with(input, regex, false)
    }

    /// As [`parse`](Self::parse), but a term matches only at the start of
    /// a word (after a character that is not a letter or digit), so
    /// `lay` finds `layout` and `resolve_layout`, not `delay`.
    pub fn words(input: &str, regex: bool) -> Result<Query, String> {
        Query::parse_with(input, regex, !regex)
    }

    fn parse_with(input: &str, regex: bool, word_start: bool) -> Result<Query, String> {
        let chars = input.chars().count();
        if chars > MAX_QUERY_CHARS {
            return Err(format!(
                "the query is too long ({chars} characters; at most {MAX_QUERY_CHARS})"
            ));
        }
        let case_sensitive = input.chars().any(char::is_uppercase);
        let terms = if regex {
            vec![input.to_owned()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            split_terms(input)
        };
        if terms.len() > MAX_TERMS {
            return Err(format!(
                "too many words in the query ({}; at most {MAX_TERMS})",
                terms.len()
            ));
        }
        // a word's start is checked at each occurrence of the term, not
        // written into the pattern: `[^\p{Alphabetic}\p{N}]` before it took
        // the pattern milliseconds to compile, at every query (each key
        // typed in the picker's search), for a few microseconds of search
        let at_word_start = terms
            .iter()
            .map(|t| word_start && !regex && t.chars().next().is_some_and(char::is_alphanumeric))
            .collect();
        let matchers = terms
            .iter()
            .map(|t| {
                let pattern = if regex { t.clone() } else { regex::escape(t) };
                RegexBuilder::new(&pattern)
                    .case_insensitive(!case_sensitive)
                    .size_limit(MAX_COMPILED)
                    .dfa_size_limit(1 << 20)
                    .build()
                    .map_err(|e| {
                        e.to_string()
                            .lines()
                            .last()
                            .unwrap_or("bad pattern")
                            .to_owned()
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Query {
            terms,
            matchers,
            at_word_start,
            case_sensitive,
            is_regex: regex,
            word_start,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.matchers.is_empty()
    }

    /// The words and phrases (a regular expression is one term).
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// Every term occurs in `text`.
    pub fn matches(&self, text: &str) -> bool {
        !self.is_empty() && (0..self.matchers.len()).all(|i| self.occurs(i, text))
    }

    /// Whether term `i` occurs in `text`.
    fn occurs(&self, i: usize, text: &str) -> bool {
        match self.matchers.get(i) {
            Some(m) if !self.word_start_at(i) => m.is_match(text),
            Some(_) => self.occurrences(i, text).next().is_some(),
            None => false,
        }
    }

    /// Whether term `i` counts only where a word starts.
    pub fn word_start_at(&self, i: usize) -> bool {
        self.at_word_start.get(i).copied().unwrap_or(false)
    }

    /// Whether a term may occur in the text a JSON line (or one string of
    /// it, as written) holds, found from its raw bytes without decoding
    /// it. `false` is a proof; `true`
    /// only says "decode and see". The proof holds when every term is free
    /// of what JSON escapes (`"`, `\`, control characters) and the line
    /// escapes nothing but `\n`, `\t`, `\"` and `\\` and holds nothing
    /// [`super::text::sanitize`] changes: a term's characters then stand in
    /// the line as they stand in the text, side by side, and the same
    /// matchers run on both. (`\u` escapes, escape sequences, overstrikes
    /// and invisible characters make the text differ from the line: such a
    /// line is decoded.)
    pub fn may_occur_in_json(&self, raw: &[u8]) -> bool {
        if self.is_regex || self.word_start {
            return true;
        }
        let Ok(raw) = std::str::from_utf8(raw) else {
            return true;
        };
        if self.matchers.iter().any(|m| m.is_match(raw)) {
            return true;
        }
        let plain_terms = self
            .terms
            .iter()
            .all(|t| !t.chars().any(|c| c == '"' || c == '\\' || c.is_control()));
        !(plain_terms && json_text_is_verbatim(raw))
    }

    /// Every term occurs in one of `texts` (a row shown from several
    /// fields: a call's name, input and result).
    pub fn matches_any_of(&self, texts: &[&str]) -> bool {
        !self.is_empty()
            && (0..self.matchers.len()).all(|i| texts.iter().any(|t| self.occurs(i, t)))
    }

    /// Byte ranges of every occurrence of any term in `text`, sorted and
    /// merged (for highlighting).
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        let mut r: Vec<Range<usize>> = (0..self.matchers.len())
            .flat_map(|i| self.occurrences(i, text))
            .collect();
        r.sort_by_key(|r| (r.start, r.end));
        let mut out: Vec<Range<usize>> = Vec::with_capacity(r.len());
        for x in r {
            match out.last_mut() {
                Some(last) if x.start <= last.end => last.end = last.end.max(x.end),
                _ => out.push(x),
            }
        }
        out
    }

    /// The first of [`ranges`](Self::ranges), found without the others (a
    /// hit's snippet in a result of megabytes).
    pub fn first_range(&self, text: &str) -> Option<Range<usize>> {
        let mut each: Vec<_> = (0..self.matchers.len())
            .map(|i| self.occurrences(i, text).peekable())
            .collect();
        let mut first: Option<Range<usize>> = None;
        loop {
            // the next occurrence of any term, in the order `ranges` sorts
            let next = each
                .iter_mut()
                .enumerate()
                .filter_map(|(i, o)| o.peek().map(|r| (r.start, r.end, i)))
                .min();
            let Some((start, end, i)) = next else {
                return first;
            };
            match &mut first {
                None => first = Some(start..end),
                Some(f) if start <= f.end => f.end = f.end.max(end),
                Some(_) => return first,
            }
            each[i].next();
        }
    }

    /// Where term `i` occurs in `text`, in order, not overlapping (empty
    /// matches of an expression left out). A term that counts at a word's
    /// start only is looked for again one character on from an occurrence
    /// that is not at one: `x.x` in `yx.x.x` is at 3.
    fn occurrences<'t>(
        &'t self,
        i: usize,
        text: &'t str,
    ) -> impl Iterator<Item = Range<usize>> + 't {
        let m = self.matchers.get(i);
        let word_start = self.word_start_at(i);
        let mut at = 0;
        std::iter::from_fn(move || {
            loop {
                let found = m?.find_at(text, at)?;
                let next_char = text
                    .get(found.start()..)
                    .and_then(|r| r.chars().next())
                    .map_or(1, char::len_utf8);
                if !word_start || starts_word(text, found.start()) {
                    at = if found.is_empty() {
                        found.end() + next_char
                    } else {
                        found.end()
                    };
                    return Some(found.range());
                }
                // no word starts before the next character that is not a
                // letter or digit: looked for again after it (a step of
                // one character made a long run of one letter cost its
                // length times the term's)
                at = word_gap_after(text, found.start()).unwrap_or(text.len() + 1);
                if at > text.len() {
                    return None;
                }
            }
        })
        .filter(|r| !r.is_empty())
    }
}

/// Where the first character from byte `at` that is not a letter or
/// digit ends (`None`: there is none).
fn word_gap_after(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let (i, c) = rest.char_indices().find(|(_, c)| !c.is_alphanumeric())?;
    Some(at + i + c.len_utf8())
}

/// Whether a word starts at byte `at` of `text`: no letter or digit is
/// just before it (what `\p{Alphabetic}` and `\p{N}` hold).
fn starts_word(text: &str, at: usize) -> bool {
    text.get(..at)
        .and_then(|before| before.chars().next_back())
        .is_none_or(|c| !c.is_alphanumeric())
}

/// Words split on white space; `"…"` keeps a phrase together (an
/// unclosed quote runs to the end).
fn split_terms(input: &str) -> Vec<String> {
    let mut terms = Vec::new();
    let mut rest = input;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').unwrap_or(q.len());
            if !q[..end].is_empty() {
                terms.push(q[..end].to_owned());
            }
            rest = q.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            terms.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_any_order_phrases_and_smart_case() {
        let q = Query::parse("tail follow", false).expect("parses");
        assert!(q.matches("Follow the TAIL"));
        assert!(!q.matches("follow only"));
        let q = Query::parse("\"the tail\" x", false).expect("parses");
        assert_eq!(q.terms(), ["the tail", "x"]);
        assert!(q.matches("x: The tail"));
        assert!(!q.matches("tail the x"));
        let q = Query::parse("Tail", false).expect("parses");
        assert!(q.case_sensitive);
        assert!(!q.matches("tail"));
        assert!(q.matches("a Tail"));
        assert!(Query::parse("   ", false).expect("parses").is_empty());
        assert!(!Query::parse("", false).expect("parses").matches("x"));
    }

    #[test]
    fn special_characters_are_literal_and_regex_is_opt_in() {
        let q = Query::parse("a.b (c", false).expect("parses");
        assert!(q.matches("(c a.b"));
        assert!(!q.matches("axb (c"));
        let r = Query::parse("fo+ba[rz]", true).expect("parses");
        assert!(r.matches("xfooobaz"));
        assert!(Query::parse("(", true).is_err());
    }

    #[test]
    fn words_match_where_a_word_starts() {
        let q = Query::words("lay", false).expect("parses");
        assert!(q.matches("layout"));
        assert!(q.matches("fn resolve_layout()"));
        assert!(q.matches("x.Layout"));
        assert!(!q.matches("delay"));
        assert_eq!(q.ranges("a resolve_layout"), vec![10..13]);
        let q = Query::words("-rf", false).expect("parses");
        assert!(q.matches("rm -rf /"));
        assert!(Query::parse("lay", false).expect("parses").matches("delay"));
    }

    #[test]
    fn ranges_cover_every_term_merged() {
        let q = Query::parse("ab bc", false).expect("parses");
        assert_eq!(q.ranges("xabcx ab"), vec![1..4, 6..8]);
        let q = Query::parse("é", false).expect("parses");
        assert_eq!(q.ranges("CAFÉ café"), vec![3..5, 9..11]);
    }

    /// The ranges as a pattern that says where a word starts found them
    /// (the way `Query::words` was written before it checked each
    /// occurrence): every match's group, all of them.
    fn ranges_by_groups(q: &Query, text: &str) -> Vec<Range<usize>> {
        let mut r: Vec<Range<usize>> = q
            .terms
            .iter()
            .enumerate()
            .flat_map(|(i, t)| {
                let pattern = match (q.is_regex, q.word_start_at(i)) {
                    (true, _) => format!("({t})"),
                    (false, false) => format!("({})", regex::escape(t)),
                    (false, true) => {
                        format!("(?:^|[^\\p{{Alphabetic}}\\p{{N}}])({})", regex::escape(t))
                    }
                };
                let m = RegexBuilder::new(&pattern)
                    .case_insensitive(!q.case_sensitive)
                    .build()
                    .expect("pattern");
                m.captures_iter(text)
                    .filter_map(|c| c.get(1).map(|x| x.range()))
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        r.sort_by_key(|r| (r.start, r.end));
        let mut out: Vec<Range<usize>> = Vec::new();
        for x in r {
            match out.last_mut() {
                Some(last) if x.start <= last.end => last.end = last.end.max(x.end),
                _ => out.push(x),
            }
        }
        out
    }

    /// An occurrence that is not at a word's start does not hide one that
    /// overlaps it and is; one right after another (a term ending in a
    /// mark) counts too.
    #[test]
    fn word_starts_behind_and_after_other_occurrences() {
        let q = Query::words("x.x", false).expect("parses");
        assert_eq!(q.ranges("yx.x.x"), vec![3..6]);
        assert!(q.matches("yx.x.x"));
        assert!(!q.matches("yx.x"));
        let q = Query::words("a-", false).expect("parses");
        assert_eq!(q.ranges("a-a-"), vec![0..4]);
        assert_eq!(q.first_range("ba-a-"), Some(3..5));
        // a letter of another script, or a digit, joins a word
        let q = Query::words("x", false).expect("parses");
        assert!(!q.matches("éx 2x ⅻx"));
        assert!(q.matches("é x"));
        assert!(q.matches_any_of(&["ax", "(x"]));
        assert!(!q.matches_any_of(&["ax", "bx"]));
        // a long run of one letter is passed over at once, not a letter
        // at a time (a term of 500 letters over a megabyte of them)
        let run = format!("b{}", "a".repeat(1 << 20));
        let q = Query::words(&"a".repeat(500), false).expect("parses");
        assert!(!q.matches(&run));
        assert_eq!(
            q.ranges(&format!("{run} {}", "a".repeat(500))),
            vec![run.len() + 1..run.len() + 501]
        );
    }

    /// Ranges found by the fast search, and the first found alone, are
    /// the ones the group-reading engine finds, over texts and queries
    /// drawn at random (words, word starts, phrases, cases, expressions).
    #[test]
    fn ranges_found_fast_are_the_ranges_of_every_match() {
        let pieces = [
            "a", "ab", "b", "A", "é", "É", "_", " ", "-", "x1", "1", "\n", "ß", "ss", "\u{212a}",
        ];
        let queries = [
            ("a", false),
            ("ab b", false),
            ("\"a b\"", false),
            ("A", false),
            ("é ss", false),
            ("-", false),
            ("1 x", false),
            ("k", false),
            ("a+b?", true),
            ("(a|b)\\b", true),
            ("^a", true),
            ("a*", true),
        ];
        let mut rng = crate::model::test_rng::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = |n: usize| rng.below(n);
        for round in 0..3000 {
            let text: String = (0..next(24)).map(|_| pieces[next(pieces.len())]).collect();
            let (input, regex) = queries[round % queries.len()];
            for word_start in [false, true] {
                let Ok(q) = Query::parse_with(input, regex, word_start && !regex) else {
                    continue;
                };
                let want = ranges_by_groups(&q, &text);
                assert_eq!(q.ranges(&text), want, "{input:?} in {text:?}");
                assert_eq!(
                    q.first_range(&text),
                    want.first().cloned(),
                    "{input:?} in {text:?}"
                );
            }
        }
    }
}
