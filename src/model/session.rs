//! A session: the main transcript, its subagents, its metadata, and the
//! incremental ingest that builds them from appended bytes.

pub use super::agents::Agent;
use super::branch::Uuid;
use super::item::*;
use super::lines::LineSplitter;
use super::transcript::Transcript;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a source file is: the session itself, or a subagent's own file.
pub struct Source {
    pub path: Option<PathBuf>,
    /// Lines of this file go to this agent (index into `Session::agents`).
    pub agent: Option<u32>,
    /// Tool output of this file is left in it and read back when shown
    /// (the viewer of a big file: see `model::stored`).
    pub text_in_file: bool,
    /// Where in the file the bytes fed start (a preview of a file's end).
    pub(crate) base: u64,
    pub(crate) splitter: LineSplitter,
    pub(crate) garbage: Garbage,
    /// The file is in another transcript format, read through this (set
    /// by its first line: see [`Translate`]).
    pub(crate) translator: Option<Box<dyn Translate>>,
    /// Its first line was looked at for its format.
    pub(crate) sniffed: bool,
}

/// A transcript format the session reads by turning each of its lines
/// into lines of the one it reads natively (`source/` decides, from a
/// file's first line, which format it is and makes this).
pub trait Translate: Send + Sync {
    fn translate(&mut self, line: &[u8]) -> Translated;
    /// The part of reading a line that needs no line before it, which a
    /// load of a big file does ahead on its other cores (parsing a line
    /// is most of translating it); [`Self::translate_read`] does the rest.
    /// `None`: [`Self::translate`] does it all.
    fn read_ahead(&self) -> Option<ReadAhead> {
        None
    }
    /// [`Self::translate`] of `line`, `read` being what [`Self::read_ahead`]
    /// made of it.
    fn translate_read(&mut self, line: &[u8], read: serde_json::Value) -> Translated {
        let _ = read;
        self.translate(line)
    }
    /// The file is complete: what is still held back.
    fn finish(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The format's name (`codex`).
    fn format(&self) -> &'static str;
    /// A line is about to be read apart from its file (a search's hit),
    /// whose first line is `first_line`: what of that line it needs.
    fn apart_after(&mut self, _first_line: &[u8]) {}
}

/// A line of a file in another format parsed, on any thread (see
/// [`Translate::read_ahead`]).
pub type ReadAhead = fn(&[u8]) -> serde_json::Value;

/// What one line of a file in another format stands for.
pub enum Translated {
    /// Lines the session reads (one JSON object each).
    Lines(Vec<String>),
    /// Nothing to show, and why (counted among the hidden lines).
    Hidden(&'static str),
    /// Not a line of the format: read as it is (reported unreadable).
    Raw,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("path", &self.path)
            .field("agent", &self.agent)
            .field("format", &self.translator.as_ref().map(|t| t.format()))
            .finish()
    }
}

/// Consecutive unreadable lines of a source. Past [`GARBAGE_RUN`] of them
/// the input is not a session (`/dev/urandom`, a binary file piped in):
/// further ones are counted and held as one row, so memory stays bounded
/// however long the input runs.
#[derive(Debug, Default)]
pub(crate) struct Garbage {
    pub(crate) run: u32,
    /// Lines held back: the first, the last and how many.
    pub(crate) held: Option<(u32, u32, u64)>,
    /// The source opened with a line that is only `{` or `[`: one JSON
    /// document written over many lines (another agent's session, a
    /// pretty-printed file), not JSON Lines. Its lines are held from the
    /// first, undecoded: one row that says what the file is, not a row
    /// per line of it.
    pub(crate) document: Option<Document>,
    /// A document's row (and its finding's place among the session's
    /// problems): updated as more of it is read, so a file read in parts
    /// (followed live) shows the one row a whole read shows.
    pub(crate) document_row: Option<(super::ItemId, usize)>,
}

/// What a source that is one JSON document looks like (see
/// [`Garbage::document`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Document {
    #[default]
    Json,
    /// Gemini CLI's session file (`{"sessionId", "projectHash",
    /// "messages": [...]}`, rewritten whole at each message).
    Gemini,
    /// It opened like one, then a line of JSON Lines came: a session
    /// whose head is damaged, read on line by line.
    Damaged,
}

/// Unreadable lines in a row shown one by one before they are held.
pub const GARBAGE_RUN: u32 = 10_000;

impl Source {
    /// A file (or stdin: no path) of the session, or of agent `agent`,
    /// nothing read yet.
    pub fn new(path: Option<PathBuf>, agent: Option<u32>) -> Source {
        Source {
            path,
            agent,
            text_in_file: false,
            base: 0,
            splitter: LineSplitter::new(),
            garbage: Garbage::default(),
            translator: None,
            sniffed: false,
        }
    }

    pub fn lines(&self) -> u32 {
        self.splitter.lines_seen()
    }
    pub fn bytes_read(&self) -> u64 {
        self.splitter.stream_len()
    }
}

#[derive(Debug, Default, Clone)]
pub struct Meta {
    /// What names the session: see [`Session::title`].
    pub titles: super::title::TitleFacts,
    pub last_prompt: Option<String>,
    pub leaf_uuid: Option<String>,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    pub model: Option<String>,
    pub version: Option<String>,
    pub session_ids: Vec<String>,
    pub started: Option<i64>,
    pub last_activity: Option<i64>,
    pub mode: Option<String>,
    pub permission_mode: Option<String>,
    pub pr_links: Vec<String>,
    pub hooks: Vec<String>,
    /// `claude -p --output-format stream-json` output.
    pub stream_json: bool,
    pub cost_usd: Option<f64>,
    /// A `continued-in` line: the id of the session this one goes on in.
    pub continued_in: Option<String>,
    /// The file is a subagent's own, opened on its own: the agent's id.
    pub agent_id: Option<String>,
}

impl Meta {
    /// The first prompt the user typed, if any.
    pub fn first_prompt(&self) -> Option<&str> {
        self.titles.first_prompt.as_deref()
    }
}

/// How every entry was accounted for. `shown + hidden + unreadable ==
/// entries`; a line holds one entry, or more when objects were joined.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub entries: u64,
    pub shown: u64,
    pub hidden: u64,
    pub unreadable: u64,
    /// Lines shown after repair (invalid UTF-8, lone surrogates).
    pub recovered: u64,
    pub hidden_by_reason: BTreeMap<&'static str, u64>,
}

impl Stats {
    /// Why lines were hidden, with how many each, the most first.
    pub fn hidden_most_first(&self) -> Vec<(&'static str, u64)> {
        let mut why: Vec<(&'static str, u64)> = self
            .hidden_by_reason
            .iter()
            .map(|(r, n)| (*r, *n))
            .collect();
        why.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        why
    }
}

/// What changed since the last [`Session::take_changes`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Changes {
    /// Items of the main transcript from this index on are new.
    pub appended_from: Option<usize>,
    /// Items that were updated in place (a result arrived for a call).
    pub updated: Vec<ItemId>,
    /// The structure changed (insert in the middle, a subagent linked...):
    /// views should re-derive what they keep.
    pub rebuilt: bool,
    /// What every row shows changed (the session's folder, which the
    /// paths of its calls are shown from): rows are drawn afresh.
    pub restyled: bool,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.appended_from.is_none() && self.updated.is_empty() && !self.rebuilt && !self.restyled
    }
}

/// A transcript of the session: the main one, or a subagent's (index into
/// `Session::agents`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Target {
    Main,
    Agent(u32),
}

impl Target {
    /// The subagent, for a subagent's transcript.
    pub fn agent(self) -> Option<u32> {
        match self {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        }
    }
}

/// What a call on a task says beside its summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskNote {
    /// A task made (`TaskCreate`): its id, `#3`.
    Made(Box<str>),
    /// An update or a read of a task named by its id: its subject then.
    About(Box<str>),
}

impl From<Option<u32>> for Target {
    fn from(agent: Option<u32>) -> Target {
        agent.map_or(Target::Main, Target::Agent)
    }
}

#[derive(Debug, Default)]
pub struct Session {
    pub main: Transcript,
    pub agents: Vec<Agent>,
    pub meta: Meta,
    pub stats: Stats,
    /// Unreadable and repaired lines, with their source.
    pub problems: Vec<(u16, Problem)>,
    pub sources: Vec<Source>,
    pub(crate) next_id: ItemId,
    pub(crate) agent_index: HashMap<String, u32>,
    /// Inline sidechain lines: uuid -> agent, to follow their chains.
    pub(crate) sidechain_uuid: HashMap<Box<str>, u32>,
    /// The subagents a tool result names (a Task's `agentId`): one whose
    /// transcript holds no answer here was not found (see
    /// [`Session::agents_not_found`]).
    pub(crate) agents_named: std::collections::BTreeSet<Box<str>>,
    /// The ids of the calls of a subagent (Task, Agent) read so far.
    pub(crate) agent_call_ids: rustc_hash::FxHashSet<Box<str>>,
    /// The commands left running in the background, by the id a wait for
    /// their output names (`backgroundTaskId`): the calls that started
    /// them.
    pub(crate) background_tasks: HashMap<Box<str>, super::agents::CallRef>,
    /// The tasks made so far (`TaskCreate`), by id: their subjects, which
    /// an update that names a task by its id says too.
    pub(crate) tasks_made: HashMap<Box<str>, Box<str>>,
    /// What the calls on tasks say beside their summary (see
    /// [`TaskNote`]), set as the file is read (a task list begun again
    /// uses its ids again).
    pub(crate) task_notes: HashMap<ItemId, TaskNote>,
    /// Rows of lines and blocks of unknown kinds so far (see
    /// [`Session::MOST_UNKNOWN_ROWS`]).
    pub(crate) unknown_rows: u32,
    /// Subagents whose own files were read apart from this session (a
    /// part of a big file, see `catalog::list::figures_in_parts`): each
    /// has a record when it is first met here.
    pub(crate) recorded_apart: rustc_hash::FxHashSet<Box<str>>,
    pub(crate) changes: Changes,
    /// Each `sessionId` of the session's own lines, with where it first
    /// appears (a resumed session can hold several).
    pub session_id_lines: Vec<SessionIdAt>,
    /// The ids of `meta.session_ids` and of `session_id_lines`, found
    /// without a pass over either (a file of 50,000 ids took 5 s).
    pub(crate) session_ids_seen: rustc_hash::FxHashSet<Box<str>>,
    pub(crate) session_id_lines_seen: rustc_hash::FxHashSet<Box<str>>,
    /// The viewer's finding marks, kept up to date line by line.
    pub(crate) marks: super::marks::Marks,
    pub(crate) mark_tracker: super::marks::Tracker,
    /// Set while the line being read collides with an earlier one: its
    /// rows are flagged (see [`push`](Self::push)).
    pub(crate) collision: Option<Collision>,
    /// The kept uuids of the line being read (its own, its parent's), once
    /// it is threaded: its items share them rather than copy them.
    pub(crate) line_uuids: Option<(Uuid, Option<Uuid>)>,
    /// Whether the main file is a subagent's own file opened on its own:
    /// `None` until its first conversation line says, then the agent's id
    /// (its lines are the main transcript) or `Some(None)`.
    pub(crate) lone_agent: Option<Option<Box<str>>>,
    /// Lines pass through the redactor before they are read (the viewer's
    /// screen redaction): set when the session is made.
    pub(crate) redacting: bool,
    /// Where the line being read is in its file, when it came whole from
    /// the file as it is, and the bytes its entries are decoded from.
    pub(crate) line_at: Option<super::stored::LinePlace>,
    /// Reads back tool output left in the files (see `model::stored`).
    pub(crate) readers: super::stored::Readers,
    pub(crate) filled: super::stored::Filled,
    /// Batches of lines open (see `Session::in_batch`).
    pub(crate) batching: u32,
    /// The subagents whose threads joined the open batch, which its end
    /// owes a pass (the others were not touched).
    pub(crate) batched_agents: Vec<u32>,
    /// The load holds as little as it can at a time (the viewer's: see
    /// `model::parallel`).
    pub(crate) lean: bool,
    /// Tool calls get no one-line summary (see `model::summary`).
    pub(crate) no_call_summaries: bool,
    /// Tool results keep no text (a read for figures only, which count
    /// calls by name and no result's words).
    pub(crate) no_result_texts: bool,
    /// The transcripts keep no running totals of tokens and cost (see
    /// `Session::keep_no_totals`).
    pub(crate) no_totals: bool,
    /// The lines fed hold no structured copy of a tool's result (a
    /// search's and an index build's, see `search::extract`).
    pub(crate) copies_left_out: bool,
    /// Read for its figures only: answers of the common shape are taken
    /// in without being threaded (see `source::claude::lean`).
    pub(crate) lean_lines: Option<Box<LeanLines>>,
}

/// The uuids of the lines a read for figures took in without threading
/// them, by transcript (`None`: the main one). The threads are what
/// tells a line written twice from two lines: a uuid met twice among
/// them, or also among the threaded lines, means the session must be
/// read again the usual way (see `Session::lean_lines_hold`). Each is
/// kept as a hash, in a list checked once at the end (a set of the uuids
/// themselves was an allocation and a lookup for three lines in ten): two
/// hashes alike, a uuid met twice or two uuids that hash alike, only send
/// the session to that read.
#[derive(Debug, Default)]
pub struct LeanLines {
    uuids: Vec<u64>,
}

impl LeanLines {
    /// Notes a uuid taken in lean in `agent`'s transcript (`None`: the
    /// main one).
    pub(crate) fn note(&mut self, agent: Option<u32>, uuid: &str) {
        self.uuids.push(lean_hash(agent, uuid));
    }
}

/// Whether the rows taken in lean in `t` are the model's (see
/// `model::lean_rows`): none put where the model would not have, and no
/// result left on its own that the model would have put on a lean call.
fn lean_rows_hold(t: &Transcript) -> bool {
    use super::lean_rows::call_hash;
    let Some(lean) = &t.lean else {
        return true;
    };
    if lean.broken || t.reordered {
        return false;
    }
    let mut calls: Option<Vec<u64>> = None;
    t.items.iter().all(|it| {
        let Detail::OrphanResult(r) = &it.detail else {
            return true;
        };
        // (hashes: two alike only send the session to be read again)
        let calls = calls.get_or_insert_with(|| {
            let mut ids: Vec<u64> = lean.calls.iter().map(|c| call_hash(&c.id)).collect();
            ids.sort_unstable();
            ids
        });
        calls.binary_search(&call_hash(&r.tool_use_id)).is_err()
    })
}

fn lean_hash(agent: Option<u32>, uuid: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one((agent, uuid))
}

pub const MAIN: u16 = 0;

/// A session id safe to make a file name of (`<id>.jsonl`) or to pass to
/// `claude --resume`: letters, digits, `-` and `_`.
pub fn is_session_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What a subagent whose transcript is not here counts under, where
/// messages with no price count by their model.
pub const AGENT_NOT_FOUND: &str = "(subagent transcript not found)";

/// Why (part of) a line could not be read, or what was repaired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: u32,
    pub message: String,
    /// `true`: the line was still shown (after repair).
    pub recovered: bool,
}

/// Where a `sessionId` of the session's own lines first appears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionIdAt {
    pub id: String,
    pub source: u16,
    pub line: u32,
}

/// Opens a session file. Only regular files are sessions: a FIFO would
/// block for ever, a device (`/dev/zero`, `/dev/urandom`) never ends.
/// Symlinks are followed to what they name.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        // a folder is read by the commands that take one, not piped in
        return Err(std::io::Error::other(
            "a directory, not a session file (`ccv export --all DIR FOLDER` exports every session in it)",
        ));
    }
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "not a regular file ({}); pipe it in with `-` if you mean it",
            file_kind(&meta)
        )));
    }
    let f = std::fs::File::open(path)?;
    // the path may have been swapped between the two calls
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// The first `limit` bytes of a regular file (see [`open_regular`]).
pub fn read_regular(path: &Path, limit: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::new();
    open_regular(path)
        .ok()?
        .take(limit)
        .read_to_end(&mut buf)
        .ok()?;
    Some(buf)
}

/// What a file that is not a regular one is, in a word.
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_file() { "a file" } else { "not a file" }
}

impl Session {
    /// What the session cost with its subagents, and its messages with
    /// no price by model (see [`super::price::Cost::describe`]). A
    /// subagent whose transcript is not here counts as one with no price
    /// (see [`Session::agents_not_found`]).
    pub fn cost(&self) -> (super::price::Cost, std::collections::BTreeMap<String, u32>) {
        let mut cost = self.main.cost;
        let mut unpriced = self.main.unpriced.clone();
        for a in &self.agents {
            cost.usd += a.transcript.cost.usd;
            cost.unpriced += a.transcript.cost.unpriced;
            for (m, n) in &a.transcript.unpriced {
                *unpriced.entry(m.clone()).or_insert(0) += n;
            }
        }
        let lost = self.agents_not_found().count() as u32;
        if lost > 0 {
            cost.unpriced += lost;
            *unpriced.entry(AGENT_NOT_FOUND.to_owned()).or_insert(0) += lost;
        }
        (cost, unpriced)
    }

    /// The ids of the subagents a tool result names whose transcript holds
    /// no answer here: neither their file (`subagents/agent-ID.jsonl`)
    /// nor the copies of their lines in the main file was read. What they
    /// cost is not in the session's figures, which say so.
    pub fn agents_not_found(&self) -> impl Iterator<Item = &str> {
        self.agents_named
            .iter()
            .filter(|id| !self.agent_answered(id))
            .map(|id| &**id)
    }

    /// Whether `id` is among [`Session::agents_not_found`].
    pub fn agent_not_found(&self, id: &str) -> bool {
        self.agents_named.contains(id) && !self.agent_answered(id)
    }

    /// Whether the subagent `id` has an answer here.
    fn agent_answered(&self, id: &str) -> bool {
        self.agent_by_id(id)
            .and_then(|a| self.agents.get(a as usize))
            .is_some_and(|a| !a.transcript.messages.is_empty())
    }

    /// The ids of the subagents a tool result names, and of those that
    /// answered here (for figures summed over parts of a file).
    pub(crate) fn agents_named_and_answered(&self) -> (Vec<&str>, Vec<&str>) {
        let named = self.agents_named.iter().map(|id| &**id).collect();
        let answered = self
            .agents
            .iter()
            .filter(|a| !a.transcript.messages.is_empty())
            .map(|a| a.id.as_str())
            .collect();
        (named, answered)
    }

    /// The session's title by the rule of [`super::title`] (a summary
    /// counts only when its leaf is a line of this session).
    pub fn title(&self) -> Option<&str> {
        self.meta
            .titles
            .title(|leaf| self.main.threads.node(leaf).is_some())
    }

    /// Lines (and blocks) of kinds ccv does not know shown as rows, at
    /// most: past these they are hidden and counted. A row is a few
    /// hundred bytes whatever its line: a file of a million `{}` lines
    /// held a hundred times its size, where no session Claude Code writes
    /// has more than a few such lines (a kind it adds is known, or
    /// hidden, in a later ccv).
    pub const MOST_UNKNOWN_ROWS: u32 = 10_000;

    pub fn new(path: Option<PathBuf>) -> Self {
        let mut s = Session {
            redacting: crate::redact::screen(),
            ..Session::default()
        };
        s.sources.push(Source::new(path, None));
        s
    }

    /// When the session was last written, its files having been written
    /// at `file_ms`: its newest entry's time when that is older (a file
    /// copied or restored today, an old session Claude Code appended a
    /// summary to, was written lately by no session).
    pub fn written_at(&self, file_ms: i64) -> i64 {
        self.meta.last_activity.map_or(file_ms, |t| t.min(file_ms))
    }

    /// The format of the main file when it is not the native one
    /// (`codex`), once its first line has been read.
    pub fn format(&self) -> Option<&'static str> {
        self.sources
            .first()?
            .translator
            .as_ref()
            .map(|t| t.format())
    }

    /// The first file whose last line has not ended (no newline, and not
    /// whole JSON): a line being written, or a file cut short. A viewer
    /// waits for the rest; until then the line is in no entry, so it says
    /// so. Its source and line number.
    pub fn unfinished_line(&self) -> Option<(u16, u32)> {
        self.sources.iter().enumerate().find_map(|(i, s)| {
            let tail = s.splitter.tail()?;
            Some((u16::try_from(i).ok()?, tail.number))
        })
    }

    /// Lines read over all sources.
    pub fn lines(&self) -> u64 {
        self.sources.iter().map(|s| s.lines() as u64).sum()
    }

    pub fn take_changes(&mut self) -> Changes {
        let mut c = std::mem::take(&mut self.changes);
        // a row marked or no longer marked is drawn again, and so is the
        // folded row of its subagent (marked while any of its rows is)
        match self.marks.take_touched() {
            None => c.restyled = true,
            Some(touched) => {
                for (agent, id) in touched {
                    c.updated.push(id);
                    if let Some(ag) = agent.and_then(|a| self.agents.get(a as usize)) {
                        match ag.call {
                            Some(call) => c.updated.push(call.item),
                            None => c.updated.extend(ag.transcript.items.first().map(|i| i.id)),
                        }
                    }
                }
            }
        }
        c.updated.sort_unstable();
        c.updated.dedup();
        c
    }

    pub fn transcript(&self, target: impl Into<Target>) -> &Transcript {
        match target.into() {
            Target::Main => &self.main,
            Target::Agent(a) => &self.agents[a as usize].transcript,
        }
    }

    /// Problems a reader of the file should know about (see
    /// [`super::check`]). `live`: the file changed in the last minute, so
    /// calls without results may still be running.
    pub fn findings(&self, live: bool) -> Vec<super::check::Finding> {
        super::check::check(self, live)
    }

    /// The rows findings name, for the viewer to mark. Kept up to date as
    /// lines arrive (see [`super::marks::Tracker`]), so this costs nothing.
    pub fn marks(&self) -> &super::marks::Marks {
        &self.marks
    }

    /// The marks are not kept (they stay empty): for a load no one looks
    /// at them in, made before any line is read.
    pub(crate) fn keep_no_marks(&mut self) {
        self.mark_tracker.off = true;
    }

    /// Answers of the common shape are taken in for their figures only
    /// (see `source::claude::lean`).
    pub(crate) fn take_lean_lines(&mut self) {
        self.lean_lines = Some(Box::default());
    }

    /// Whether the lines taken in lean (if any) make the figures a whole
    /// read makes: no uuid among them met twice, nor met by a threaded
    /// line, and their rows where the model puts its rows (see
    /// `model::lean_rows`; every prompt's row found, for the turns).
    pub(crate) fn lean_lines_hold(&mut self) -> bool {
        let Some(l) = &mut self.lean_lines else {
            return true;
        };
        let lean = &mut l.uuids;
        lean.sort_unstable();
        if lean.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        let threaded = |agent: Option<u32>, t: &Transcript| {
            t.threads.nodes.iter().any(|n| {
                t.threads
                    .uuid_of(n)
                    .is_some_and(|u| lean.binary_search(&lean_hash(agent, u)).is_ok())
            })
        };
        let main_turns = self.main.lean.is_none()
            || self
                .main
                .turns
                .iter()
                .all(|t| self.main.index_of(t.first_item).is_some());
        main_turns
            && !threaded(None, &self.main)
            && lean_rows_hold(&self.main)
            && !self.agents.iter().enumerate().any(|(a, ag)| {
                threaded(Some(a as u32), &ag.transcript) || !lean_rows_hold(&ag.transcript)
            })
    }

    /// Tool calls get no summary (their rows' text is then empty): for a
    /// load whose reader writes calls as their inputs, made before any
    /// line is read.
    /// The lines to be fed have their results' structured copies left
    /// out (see `search::extract::Unshown`): they are read the faster way.
    pub(crate) fn copies_left_out(&mut self) {
        self.copies_left_out = true;
    }

    /// The transcripts keep no running totals of their messages' tokens
    /// and cost (each message priced as its lines come): for a read whose
    /// figures are summed from the messages at its end (`model::figures`),
    /// made before any line is read.
    pub(crate) fn keep_no_totals(&mut self) {
        self.no_totals = true;
    }

    pub(crate) fn keep_no_call_summaries(&mut self) {
        self.no_call_summaries = true;
    }

    /// Tool results are taken in without their text (see
    /// `no_result_texts`): a subagent's lines of results written in the
    /// main file (an old session's) are read whole, and undoing their
    /// escapes was a twentieth of a cold listing of generated sessions.
    pub(crate) fn keep_no_result_texts(&mut self) {
        self.no_result_texts = true;
    }

    /// What became of a tool call item (`None` for other items): the one
    /// answer the viewer's rows, its spinner ticks and the exports share.
    /// `now`: the time, while the session is followed live.
    pub fn call_state(&self, item: &Item, now: Option<i64>) -> Option<CallState> {
        let Detail::Call(c) = &item.detail else {
            return None;
        };
        // the conversation went on without its result: not running
        let lost = self
            .marks
            .of(item.id)
            .iter()
            .any(|m| m.kind == super::check::FindingKind::NoResult);
        Some(c.state(lost, now, item.timestamp))
    }

    /// [`Self::marks`] derived from the whole session (what the tracker
    /// must always equal; for tests).
    #[doc(hidden)]
    pub fn marks_from_scratch(&self) -> super::marks::Marks {
        super::marks::marks(self)
    }

    pub(crate) fn new_item(&mut self, kind: Kind, source: u16, line: u32) -> Item {
        let id = self.next_id;
        self.next_id += 1;
        Item {
            id,
            kind,
            source,
            line,
            uuid: None,
            parent_uuid: None,
            timestamp: None,
            text: Default::default(),
            flags: Flags::default(),
            message: None,
            group: None,
            off_branch: false,
            detail: Detail::None,
        }
    }

    pub(crate) fn push(&mut self, target: Target, pos: Option<usize>, mut item: Item) -> usize {
        if item.flags.collision.is_none() {
            item.flags.collision = self.collision;
        }
        let t = match target {
            Target::Main => &mut self.main,
            Target::Agent(a) => &mut self.agents[a as usize].transcript,
        };
        let pos = pos.unwrap_or(t.items.len());
        let appended = pos >= t.items.len();
        let idx = t.insert(pos, item);
        let agent = match target {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        };
        self.mark_tracker
            .pushed(&mut self.marks, agent, t, idx, appended);
        if target == Target::Main {
            if appended {
                self.changes.appended_from.get_or_insert(idx);
            } else {
                self.changes.rebuilt = true;
            }
        } else {
            // a subagent's rows show under its call
            self.changes.rebuilt |= !appended;
            let ag = &self.agents[target_agent(target) as usize];
            match ag.call {
                Some(c) => push_unique(&mut self.changes.updated, c.item),
                // a subagent no call links to shows on its own first row
                None => {
                    if let Some(first) = ag.transcript.items.first() {
                        push_unique(&mut self.changes.updated, first.id);
                    }
                }
            }
        }
        idx
    }

    /// A line with a new uuid joined `target`'s threads.
    pub(crate) fn mark_threaded(&mut self, target: Target, node: u32) {
        let (agent, t) = match target {
            Target::Main => (None, &self.main),
            Target::Agent(a) => (Some(a), &self.agents[a as usize].transcript),
        };
        self.mark_tracker
            .threaded(&mut self.marks, agent, t, &self.main, node);
    }

    /// The call `id` of `target` got its result.
    pub(crate) fn mark_answered(&mut self, target: Target, id: ItemId) {
        let agent = match target {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        };
        self.mark_tracker.answered(&mut self.marks, agent, id);
    }

    /// Room in the transcript `source` feeds for the lines of `bytes` more
    /// of it (see [`Transcript::reserve_lines`]).
    pub(crate) fn expect_lines(&mut self, source: u16, bytes: u64) {
        // lines average 2-3 KB (2 in generated sessions, 2.9 in the
        // corpus): too many is cheaper than too few
        let lines = usize::try_from(bytes / 2048).unwrap_or(usize::MAX);
        let target = match self.sources.get(source as usize).and_then(|s| s.agent) {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        self.transcript_mut(target).reserve_lines(lines);
        let agent = match target {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        };
        self.mark_tracker.reserve_lines(agent, lines);
    }

    pub(crate) fn transcript_mut(&mut self, target: Target) -> &mut Transcript {
        match target {
            Target::Main => &mut self.main,
            Target::Agent(a) => &mut self.agents[a as usize].transcript,
        }
    }
}

fn target_agent(t: Target) -> u32 {
    match t {
        Target::Agent(a) => a,
        Target::Main => u32::MAX,
    }
}

/// Deduplicated in `take_changes`; only the common repeat is skipped here
/// (a whole-file load records tens of thousands of updates).
pub(crate) fn push_unique(v: &mut Vec<ItemId>, id: ItemId) {
    if v.last() != Some(&id) {
        v.push(id);
    }
}

pub(crate) enum Outcome {
    Shown,
    Hidden(&'static str),
}
