//! What a tool's result tells beyond its text: the patch an edit made
//! (hunks of a unified diff), an exit code, the figures of a subagent's
//! run, how much a read or a search found.

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::fmt;

/// The entry-level `toolUseResult`: a dict for most tools, a string when the
/// call failed, a list of blocks for MCP tools. Only what is shown is kept;
/// the rest (`originalFile`, `file.content`, `stdout`: copies of the
/// result's text) is skipped unread. A session holds one for each result
/// that says any of it (9,000 in a 100 MB one): 112 bytes, where options
/// of strings and numbers took 168.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct ToolUseResult {
    pub agent_id: Option<Box<str>>,
    pub agent_type: Option<Box<str>>,
    pub structured_patch: Option<Vec<Hunk>>,
    pub exit_code: Code,
    pub total_duration_ms: Count,
    pub total_tool_use_count: Small,
    pub total_tokens: Count,
    /// A read's lines, or a search's lines of matches (`content` mode).
    pub num_lines: Small,
    /// The files a search or a glob found.
    pub num_files: Small,
    /// A search's matches counted (`count` mode); a web search's links, a
    /// language server's results, a task list's tasks.
    pub num_matches: Small,
    /// A read's first line (from 1) and the file's lines: a read of a
    /// part shows which.
    pub start_line: Small,
    pub total_lines: Small,
    /// The search or glob stopped at its limit: there may be more.
    pub cut: bool,
    /// A write made a new file.
    pub created: bool,
    /// A command or a subagent left running in the background: its
    /// result says it started, not that it ended.
    pub background: bool,
    /// The command or subagent was interrupted.
    pub interrupted: bool,
    /// A wait for a background task's output ended with the task still
    /// running.
    pub still_running: bool,
    /// What Claude Code said a result meant: a command's exit status that
    /// is no failure (a `grep` that found nothing exits 1), a web search
    /// that met an error.
    pub meaning: Meaning,
    /// The HTTP status a fetch got (`WebFetch`'s `code`); 0 when none.
    pub http_status: u16,
}

/// What Claude Code said a result meant, in its own words: the four
/// `returnCodeInterpretation`s of a command's exit status that is no
/// failure, and the errors a web search meets (`Web search error:
/// unavailable`, the API's codes).
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    #[default]
    Unsaid,
    NoMatches,
    FilesDiffer,
    ConditionFalse,
    SomeInaccessible,
    SearchUnavailable,
    SearchTooManyRequests,
    SearchMaxUsesExceeded,
    SearchQueryTooLong,
    SearchInvalidInput,
    SearchFailed,
}

impl Meaning {
    /// A command's `returnCodeInterpretation`, as Claude Code writes it.
    pub fn of(said: &str) -> Meaning {
        match said {
            "No matches found" => Meaning::NoMatches,
            "Files differ" => Meaning::FilesDiffer,
            "Condition is false" => Meaning::ConditionFalse,
            "Some directories were inaccessible" => Meaning::SomeInaccessible,
            _ => Meaning::Unsaid,
        }
    }

    /// A web search's error, by its code (`Web search error: <code>`).
    pub fn search_error(code: &str) -> Meaning {
        match code.trim() {
            "unavailable" => Meaning::SearchUnavailable,
            "too_many_requests" => Meaning::SearchTooManyRequests,
            "max_uses_exceeded" => Meaning::SearchMaxUsesExceeded,
            "query_too_long" => Meaning::SearchQueryTooLong,
            "invalid_input" => Meaning::SearchInvalidInput,
            _ => Meaning::SearchFailed,
        }
    }

    /// For a row's header.
    pub fn text(self) -> Option<&'static str> {
        match self {
            Meaning::Unsaid => None,
            Meaning::NoMatches => Some("no matches"),
            Meaning::FilesDiffer => Some("files differ"),
            Meaning::ConditionFalse => Some("condition false"),
            Meaning::SomeInaccessible => Some("some directories inaccessible"),
            Meaning::SearchUnavailable => Some("search error: unavailable"),
            Meaning::SearchTooManyRequests => Some("search error: too many requests"),
            Meaning::SearchMaxUsesExceeded => Some("search error: max uses exceeded"),
            Meaning::SearchQueryTooLong => Some("search error: query too long"),
            Meaning::SearchInvalidInput => Some("search error: invalid input"),
            Meaning::SearchFailed => Some("search error"),
        }
    }
}

/// A count a result may say (see [`Said`]).
pub type Count = Said<u64>;
/// A count of lines or files a result may say, in 4 bytes (see [`Said`]).
pub type Small = Said<u32>;
/// An exit code a result may say (see [`Said`]).
pub type Code = Said<i64>;

/// A number a result may say, in the number's own 8 bytes (an `Option`
/// takes 16). [`Unsaid::NONE`] stands for none: a file that writes
/// exactly that value says nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Said<T: Unsaid>(T);

/// The value of a number that [`Said`] keeps for none.
pub trait Unsaid: Copy + Eq + fmt::Debug {
    const NONE: Self;
}

impl Unsaid for u64 {
    const NONE: u64 = u64::MAX;
}

impl Unsaid for u32 {
    const NONE: u32 = u32::MAX;
}

impl Unsaid for i64 {
    const NONE: i64 = i64::MIN;
}

impl<T: Unsaid> Said<T> {
    pub fn get(self) -> Option<T> {
        (self.0 != T::NONE).then_some(self.0)
    }
}

impl<T: Unsaid> Default for Said<T> {
    fn default() -> Self {
        Said(T::NONE)
    }
}

impl<T: Unsaid> From<Option<T>> for Said<T> {
    fn from(n: Option<T>) -> Self {
        Said(n.unwrap_or(T::NONE))
    }
}

impl ToolUseResult {
    /// Holds nothing shown (not worth a row's memory).
    pub fn is_empty(&self) -> bool {
        *self == ToolUseResult::default()
    }
}

#[derive(Deserialize, Default, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Hunk {
    #[serde(default)]
    pub old_start: u64,
    #[serde(default)]
    pub old_lines: u64,
    #[serde(default)]
    pub new_start: u64,
    #[serde(default)]
    pub new_lines: u64,
    #[serde(default)]
    pub lines: PatchLines,
}

/// The lines of a hunk in one string (a `String` per line cost a patch
/// twice its size in a big session).
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct PatchLines {
    text: String,
    /// Where each line ends in `text`.
    ends: Vec<u32>,
}

impl PatchLines {
    pub fn push(&mut self, line: &str) {
        self.text.push_str(line);
        self.ends.push(self.text.len() as u32);
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let line = self.text.get(start..end as usize).unwrap_or("");
            start = end as usize;
            line
        })
    }
}

impl<'a> IntoIterator for &'a PatchLines {
    type Item = &'a str;
    type IntoIter = Box<dyn Iterator<Item = &'a str> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for PatchLines {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut p = PatchLines::default();
        for l in iter {
            p.push(l.as_ref());
        }
        p
    }
}

impl<'de> Deserialize<'de> for PatchLines {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PatchLines;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of lines")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PatchLines, A::Error> {
                let mut p = PatchLines::default();
                while seq.next_element_seed(Line(&mut p))?.is_some() {}
                p.text.shrink_to_fit();
                p.ends.shrink_to_fit();
                Ok(p)
            }
        }
        /// One line, appended where it is read (no `String` of its own).
        struct Line<'p>(&'p mut PatchLines);
        impl<'de> de::DeserializeSeed<'de> for Line<'_> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_str(self)
            }
        }
        impl<'de> Visitor<'de> for Line<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a line")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
                if self.0.text.len() + v.len() > u32::MAX as usize {
                    return Err(E::custom("patch too long"));
                }
                self.0.push(v);
                Ok(())
            }
        }
        d.deserialize_seq(V)
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Count, Small, ToolUseResult};

    /// A result's figures keep what was said, none included, in 8 bytes
    /// each; the set stays small (a session holds one per result).
    #[test]
    fn a_results_numbers_keep_what_was_said() {
        assert!(
            size_of::<ToolUseResult>() <= 112,
            "{}",
            size_of::<ToolUseResult>()
        );
        for n in [None, Some(0), Some(1), Some(u64::MAX - 1)] {
            assert_eq!(Count::from(n).get(), n);
        }
        for c in [None, Some(0), Some(-1), Some(i64::MAX), Some(i64::MIN + 1)] {
            assert_eq!(Code::from(c).get(), c);
        }
        for n in [None, Some(0), Some(u32::MAX - 1)] {
            assert_eq!(Small::from(n).get(), n);
        }
        assert_eq!(Count::default().get(), None);
        assert_eq!(Code::default().get(), None);
        assert!(ToolUseResult::default().is_empty());
        let said = ToolUseResult {
            exit_code: Some(0).into(),
            ..ToolUseResult::default()
        };
        assert!(!said.is_empty(), "an exit code of 0 is said");
    }
}
