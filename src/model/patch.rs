//! What a tool's result tells beyond its text: the patch an edit made
//! (hunks of a unified diff), an exit code, the figures of a subagent's
//! run, how much a read or a search found.

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::fmt;

/// The entry-level `toolUseResult`: a dict for most tools, a string when the
/// call failed, a list of blocks for MCP tools. Only what is shown is kept;
/// the rest (`originalFile`, `file.content`, `stdout`: copies of the
/// result's text) is skipped unread.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct ToolUseResult {
    pub agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub structured_patch: Option<Vec<Hunk>>,
    pub exit_code: Option<i64>,
    pub total_duration_ms: Option<u64>,
    pub total_tool_use_count: Option<u64>,
    pub total_tokens: Option<u64>,
    pub num_lines: Option<u64>,
    pub num_files: Option<u64>,
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
