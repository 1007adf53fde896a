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
    /// One matcher per term (or the one regular expression).
    matchers: Vec<Regex>,
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
        let matchers = terms
            .iter()
            .map(|t| {
                let pattern = match (regex, word_start) {
                    (true, _) => t.clone(),
                    (false, false) => regex::escape(t),
                    // the term is group 1; what precedes it is no part of the match
                    (false, true) => {
                        let lead = t.chars().next().is_some_and(char::is_alphanumeric);
                        if lead {
                            format!("(?:^|[^\\p{{Alphabetic}}\\p{{N}}])({})", regex::escape(t))
                        } else {
                            format!("({})", regex::escape(t))
                        }
                    }
                };
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
        !self.is_empty() && self.matchers.iter().all(|m| m.is_match(text))
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
            && self
                .matchers
                .iter()
                .all(|m| texts.iter().any(|t| m.is_match(t)))
    }

    /// Byte ranges of every occurrence of any term in `text`, sorted and
    /// merged (for highlighting).
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        let mut r: Vec<Range<usize>> = self
            .matchers
            .iter()
            .flat_map(|m| self.occurrences(m, text))
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
        let mut each: Vec<_> = self
            .matchers
            .iter()
            .map(|m| self.occurrences(m, text).peekable())
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

    /// Where matcher `m` occurs in `text`, in order: the whole match, or
    /// the term's group of a word-start one. Found by the fast search, the
    /// group then read at each match only (the engine that reads groups is
    /// many times slower over a whole text).
    fn occurrences<'t>(
        &'t self,
        m: &'t Regex,
        text: &'t str,
    ) -> impl Iterator<Item = Range<usize>> + 't {
        m.find_iter(text)
            .filter_map(move |found| {
                if !self.word_start {
                    return Some(found.range());
                }
                m.captures_at(text, found.start())
                    .and_then(|c| c.get(1))
                    .map(|x| x.range())
            })
            .filter(|r| !r.is_empty())
    }
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

    /// The ranges as the engine that reads groups finds them, every one.
    fn ranges_by_groups(q: &Query, text: &str) -> Vec<Range<usize>> {
        let mut r: Vec<Range<usize>> = q
            .matchers
            .iter()
            .flat_map(|m| {
                m.captures_iter(text)
                    .filter_map(|c| c.get(usize::from(q.word_start)).map(|x| x.range()))
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
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
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
