//! A result line's `toolUseResult`, Claude Code's structured copy of a
//! tool's result: what a row says of it (counts, an exit code, a task),
//! read leniently. A field of an unexpected type says nothing; it must not
//! make the line unreadable.

use super::raw::Meaning;
use crate::model::patch::{Hunk, ToolUseResult};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// A visitor's answer to a string, a number, a bool or a null where it
/// reads a list or an object: `$none`, nothing said.
macro_rules! nothing_for_other_shapes {
    ($t:ty, $none:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$t, E> {
            Ok($none)
        }
        nothing_for_other_shapes!($t, $none; not str);
    };
    ($t:ty, $none:expr; not str) => {
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$t, E> {
            Ok($none)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$t, E> {
            Ok($none)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$t, E> {
            Ok($none)
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$t, E> {
            Ok($none)
        }
        fn visit_unit<E: de::Error>(self) -> Result<$t, E> {
            Ok($none)
        }
    };
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ToolUseResultMap {
    agent_id: Option<String>,
    #[serde(rename = "agent_id")]
    agent_id_snake: Option<String>,
    agent_type: Option<String>,
    structured_patch: Option<Vec<Hunk>>,
    exit_code: Option<i64>,
    total_duration_ms: Option<u64>,
    total_tool_use_count: Option<u64>,
    total_tokens: Option<u64>,
    num_files: Option<u64>,
    num_lines: Option<u64>,
    num_matches: Option<u64>,
    /// A web search's answers (`WebSearch`): the links it found, or the
    /// error it met.
    #[serde(default, deserialize_with = "searched")]
    results: Searched,
    /// The tasks a task list holds (`TaskList`).
    #[serde(default, deserialize_with = "list_length")]
    tasks: Option<u64>,
    /// A language server's answer (`LSP`): its results, in how many files.
    #[serde(default, deserialize_with = "whole_number")]
    result_count: Option<u64>,
    #[serde(default, deserialize_with = "whole_number")]
    file_count: Option<u64>,
    applied_limit: Option<u64>,
    #[serde(default, deserialize_with = "word")]
    truncated: Word,
    /// A write's `"create"` (a new file) or `"update"`.
    #[serde(rename = "type", default, deserialize_with = "word")]
    kind: Word,
    /// A subagent's `"async_launched"`: it runs on in the background; a
    /// background command's `"running"` (`BashOutput`).
    #[serde(default, deserialize_with = "word")]
    status: Word,
    /// A command left running in the background (a wait for its output
    /// names it).
    #[serde(default, deserialize_with = "name")]
    background_task_id: Option<Box<str>>,
    #[serde(default, deserialize_with = "word")]
    interrupted: Word,
    #[serde(default, deserialize_with = "word")]
    was_interrupted: Word,
    /// A wait for a background task's output: `"timeout"` when it ran on.
    #[serde(default, deserialize_with = "word")]
    retrieval_status: Word,
    /// What a command's exit status meant (`"No matches found"`).
    #[serde(default, deserialize_with = "word")]
    return_code_interpretation: Word,
    /// The task a wait for output looked at (`TaskOutput`): its status; or
    /// the task made (`TaskCreate`): its id.
    #[serde(default, deserialize_with = "task_said")]
    task: TaskSaid,
    file: Option<ReadFile>,
    /// A fetch's HTTP status (any other value of a tool's own `code` is
    /// no status).
    #[serde(default, deserialize_with = "status_code")]
    code: u16,
}

/// A string, or nothing for a value of any other type.
fn name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<str>>, D::Error> {
    fn of(v: Scalar<'_>) -> Option<Box<str>> {
        match v {
            Scalar::Str(s) => Some(Box::from(s)),
            _ => None,
        }
    }
    d.deserialize_any(Lenient(of))
}

/// A whole number, or nothing for a value of any other type.
pub(super) fn whole_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    fn of(v: Scalar<'_>) -> Option<u64> {
        match v {
            Scalar::Unsigned(n) => Some(n),
            _ => None,
        }
    }
    d.deserialize_any(Lenient(of))
}

/// An HTTP status (100 to 599), or 0 for a value of any other kind.
fn status_code<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
    fn of(v: Scalar<'_>) -> u16 {
        match v {
            Scalar::Unsigned(n @ 100..600) => n as u16,
            _ => 0,
        }
    }
    d.deserialize_any(Lenient(of))
}

/// A value as a field of a result is read: a string, a whole number or a
/// bool; any other is `Other`.
enum Scalar<'v> {
    Str(&'v str),
    Unsigned(u64),
    Bool(bool),
    Other,
}

/// Reads a value of any type through `F` (a value of an unexpected type
/// must not make the line unreadable).
struct Lenient<F>(F);

impl<'de, T, F: FnOnce(Scalar<'_>) -> T> Visitor<'de> for Lenient<F> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(self.0(Scalar::Str(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(self.0(Scalar::Unsigned(v)))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<T, E> {
        Ok(self.0(Scalar::Other))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<T, E> {
        Ok(self.0(Scalar::Other))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<T, E> {
        Ok(self.0(Scalar::Bool(b)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(self.0(Scalar::Other))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.0(Scalar::Other))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(self.0(Scalar::Other))
    }
}

/// What a web search's `results` say: the links it found (its searches,
/// each `{tool_use_id, content: [{title, url}…]}`, between the texts it
/// wrote), or the error it met instead (a text, `Web search error:
/// unavailable`). Nothing for a value of another shape.
#[derive(Default, Clone, Copy)]
struct Searched {
    links: Option<u64>,
    failed: Meaning,
}

fn searched<'de, D: Deserializer<'de>>(d: D) -> Result<Searched, D::Error> {
    d.deserialize_any(Results)
}

/// Reads [`Searched`] from the list of results.
struct Results;

impl<'de> Visitor<'de> for Results {
    type Value = Searched;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Searched, A::Error> {
        let (mut n, mut searches, mut others) = (0u64, 0, 0);
        let mut failed = Meaning::Unsaid;
        while let Some(part) = seq.next_element_seed(PartOf)? {
            match part {
                Part::Search(k) => {
                    n = n.saturating_add(k);
                    searches += 1;
                }
                Part::Failed(m) => {
                    failed = m;
                    others += 1;
                }
                Part::Other => others += 1,
            }
        }
        // (a list of no search is of an unknown shape, not no links)
        let links = (searches > 0 || others == 0).then_some(n);
        Ok(Searched { links, failed })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Searched, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Searched::default())
    }
    nothing_for_other_shapes!(Searched, Searched::default());
}

/// One of a web search's results: a search and the links it found, the
/// error it met, or a text it wrote.
enum Part {
    Search(u64),
    Failed(Meaning),
    Other,
}

struct PartOf;

impl<'de> de::DeserializeSeed<'de> for PartOf {
    type Value = Part;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Part, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PartOf {
    type Value = Part;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Part, A::Error> {
        let mut links = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == "content" {
                links = map.next_value_seed(Length)?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(links.map_or(Part::Other, Part::Search))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Part, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Part::Other)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Part, E> {
        Ok(s.strip_prefix("Web search error: ")
            .map_or(Part::Other, |code| {
                Part::Failed(Meaning::search_error(code))
            }))
    }
    nothing_for_other_shapes!(Part, Part::Other; not str);
}

/// How long a list is (a search's `content`: its links; a task list's
/// `tasks`); none for a value of another shape.
struct Length;

fn list_length<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    d.deserialize_any(Length)
}

impl<'de> de::DeserializeSeed<'de> for Length {
    type Value = Option<u64>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Length {
    type Value = Option<u64>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<u64>, A::Error> {
        let mut n = 0u64;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(Some(n))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<u64>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    nothing_for_other_shapes!(Option<u64>, None);
}

/// A result's `task` object: a wait's task's `status`, or the `id` of a
/// task made (`TaskCreate`: later updates name it by it).
#[derive(Default)]
struct TaskSaid {
    status: Word,
    id: Option<Box<str>>,
}

fn task_said<'de, D: Deserializer<'de>>(d: D) -> Result<TaskSaid, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = TaskSaid;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TaskSaid, A::Error> {
            struct W(Word);
            impl<'de> Deserialize<'de> for W {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    word(d).map(W)
                }
            }
            struct Id(Option<Box<str>>);
            impl<'de> Deserialize<'de> for Id {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    fn of(v: Scalar<'_>) -> Option<Box<str>> {
                        match v {
                            Scalar::Str(s) => Some(Box::from(s)),
                            Scalar::Unsigned(n) => Some(n.to_string().into()),
                            _ => None,
                        }
                    }
                    d.deserialize_any(Lenient(of)).map(Id)
                }
            }
            let mut said = TaskSaid::default();
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                match &*key {
                    // (a word of another type is no status)
                    "status" => said.status = map.next_value::<W>()?.0,
                    "id" => said.id = map.next_value::<Id>()?.0,
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(said)
        }
        nothing_for_other_shapes!(TaskSaid, TaskSaid::default());
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TaskSaid, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(TaskSaid::default())
        }
    }
    d.deserialize_any(V)
}

/// The few values of a result's words that tell something; a value of
/// any other kind or type is `Other` (it must not make the line
/// unreadable).
#[derive(Default, PartialEq, Eq)]
enum Word {
    #[default]
    Other,
    True,
    Create,
    AsyncLaunched,
    /// A wait that ended before its task (`"timeout"`, `"running"`).
    Running,
    /// What a command's exit status meant.
    Exit(Meaning),
}

fn word<'de, D: Deserializer<'de>>(d: D) -> Result<Word, D::Error> {
    fn of(v: Scalar<'_>) -> Word {
        match v {
            Scalar::Str("create") => Word::Create,
            Scalar::Str("async_launched") => Word::AsyncLaunched,
            Scalar::Str("timeout" | "running") => Word::Running,
            Scalar::Str(v) => match Meaning::of(v) {
                Meaning::Unsaid => Word::Other,
                meaning => Word::Exit(meaning),
            },
            Scalar::Bool(true) => Word::True,
            _ => Word::Other,
        }
    }
    d.deserialize_any(Lenient(of))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ReadFile {
    num_lines: Option<u64>,
    start_line: Option<u64>,
    total_lines: Option<u64>,
}

/// A line's `toolUseResult`: what a result keeps, and the background
/// task it started or the task it made, which the session keeps apart
/// (few results name one).
#[derive(Default, Debug)]
pub struct UseResult {
    pub kept: ToolUseResult,
    pub task: Option<Box<str>>,
    /// The id of a task made (`TaskCreate`'s `task.id`).
    pub created_task: Option<Box<str>>,
}

impl<'de> Deserialize<'de> for UseResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = UseResult;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a toolUseResult")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<UseResult, A::Error> {
                // A field of an unexpected type must not make the line
                // unreadable: fall back to nothing for this field set.
                let m = ToolUseResultMap::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let file = m.file.unwrap_or_default();
                let small = |n: Option<u64>| n.map(|n| u32::try_from(n).unwrap_or(u32::MAX - 1));
                let num_lines = file.num_lines.or(m.num_lines);
                let kept = ToolUseResult {
                    agent_id: m.agent_id.or(m.agent_id_snake).map(Box::from),
                    agent_type: m.agent_type.map(Box::from),
                    structured_patch: m.structured_patch,
                    exit_code: m.exit_code.into(),
                    total_duration_ms: m.total_duration_ms.into(),
                    total_tool_use_count: small(m.total_tool_use_count).into(),
                    total_tokens: m.total_tokens.into(),
                    num_lines: small(num_lines).into(),
                    num_files: small(m.num_files.or(m.file_count)).into(),
                    num_matches: small(
                        m.num_matches
                            .or(m.result_count)
                            .or(m.results.links)
                            .or(m.tasks),
                    )
                    .into(),
                    created: m.kind == Word::Create,
                    background: m.background_task_id.is_some() || m.status == Word::AsyncLaunched,
                    http_status: m.code,
                    interrupted: m.interrupted == Word::True || m.was_interrupted == Word::True,
                    // (a wait that ended first, or a read of a command's output
                    // so far: `BashOutput`'s `status`)
                    still_running: m.retrieval_status == Word::Running
                        || m.task.status == Word::Running
                        || m.status == Word::Running,
                    meaning: match m.return_code_interpretation {
                        Word::Exit(meaning) => meaning,
                        _ => m.results.failed,
                    },
                    start_line: small(file.start_line).into(),
                    total_lines: small(file.total_lines).into(),
                    // a search's limit reached: its lines (or files) may go on
                    cut: m.truncated == Word::True
                        || matches!((m.applied_limit, num_lines.or(m.num_files)),
                            (Some(l), Some(n)) if l > 0 && n >= l),
                };
                Ok(UseResult {
                    kept,
                    task: m.background_task_id,
                    created_task: m.task.id,
                })
            }
            // (a string is the error's text, which the result's own text holds)
            nothing_for_other_shapes!(UseResult, UseResult::default());
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UseResult, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(UseResult::default())
            }
        }
        d.deserialize_any(V)
    }
}
