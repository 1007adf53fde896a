//! A session: the main transcript, its subagents, its metadata, and the
//! incremental ingest that builds them from appended bytes.

pub use super::agents::Agent;
use super::branch::Uuid;
use super::decode::{Problem, decode_line};
use super::item::*;
use super::lines::LineSplitter;
use super::parallel::Decodes;
use super::raw::RawEntry;
use super::transcript::Transcript;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a source file is: the session itself, or a subagent's own file.
#[derive(Debug)]
pub struct Source {
    pub path: Option<PathBuf>,
    /// Lines of this file go to this agent (index into `Session::agents`).
    pub agent: Option<u32>,
    /// Tool output of this file is left in it and read back when shown
    /// (the viewer of a big file: see `model::stored`).
    pub text_in_file: bool,
    /// Where in the file the bytes fed start (a preview of a file's end).
    base: u64,
    splitter: LineSplitter,
    garbage: Garbage,
}

/// Consecutive unreadable lines of a source. Past [`GARBAGE_RUN`] of them
/// the input is not a session (`/dev/urandom`, a binary file piped in):
/// further ones are counted and held as one row, so memory stays bounded
/// however long the input runs.
#[derive(Debug, Default)]
struct Garbage {
    run: u32,
    /// Lines held back: the first, the last and how many.
    held: Option<(u32, u32, u64)>,
}

/// Unreadable lines in a row shown one by one before they are held.
pub const GARBAGE_RUN: u32 = 10_000;

impl Source {
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
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.appended_from.is_none() && self.updated.is_empty() && !self.rebuilt
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
    pub(super) next_id: ItemId,
    pub(super) agent_index: HashMap<String, u32>,
    /// Inline sidechain lines: uuid -> agent, to follow their chains.
    pub(super) sidechain_uuid: HashMap<Box<str>, u32>,
    pub(super) changes: Changes,
    /// Each `sessionId` of the session's own lines, with where it first
    /// appears (a resumed session can hold several).
    pub session_id_lines: Vec<SessionIdAt>,
    /// The viewer's finding marks, kept up to date line by line.
    pub(super) marks: super::marks::Marks,
    pub(super) mark_tracker: super::marks::Tracker,
    /// Set while the line being read collides with an earlier one: its
    /// rows are flagged (see [`push`](Self::push)).
    pub(super) collision: Option<Collision>,
    /// The kept uuids of the line being read (its own, its parent's), once
    /// it is threaded: its items share them rather than copy them.
    pub(super) line_uuids: Option<(Uuid, Option<Uuid>)>,
    /// Whether the main file is a subagent's own file opened on its own:
    /// `None` until its first conversation line says, then the agent's id
    /// (its lines are the main transcript) or `Some(None)`.
    pub(super) lone_agent: Option<Option<Box<str>>>,
    /// Lines pass through the redactor before they are read (the viewer's
    /// screen redaction): set when the session is made.
    pub(super) redacting: bool,
    /// Where the line being read is in its file, when it came whole from
    /// the file as it is, and the bytes its entries are decoded from.
    pub(super) line_at: Option<super::stored::LinePlace>,
    /// Reads back tool output left in the files (see `model::stored`).
    pub(super) readers: super::stored::Readers,
    pub(super) filled: super::stored::Filled,
    /// Batches of lines open (see [`Self::in_batch`]).
    batching: u32,
    /// The load holds as little as it can at a time (the viewer's: see
    /// `model::parallel`).
    pub(super) lean: bool,
    /// Tool calls get no one-line summary (see `model::summary`).
    pub(super) no_call_summaries: bool,
}

pub const MAIN: u16 = 0;

/// Where a line is in its file, for texts left there (`model::stored`):
/// its entries were decoded from the line's bytes at address `addr`.
fn place(
    base: u64,
    line: &super::lines::Line<'_>,
    addr: usize,
) -> Option<super::stored::LinePlace> {
    Some(super::stored::LinePlace {
        at: base + line.offset,
        mem: (addr, line.bytes.len()),
    })
}

/// A session id safe to make a file name of (`<id>.jsonl`) or to pass to
/// `claude --resume`: letters, digits, `-` and `_`.
pub fn is_session_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
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
    /// no price by model (see [`super::price::Cost::describe`]).
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
        (cost, unpriced)
    }

    /// The session's title by the rule of [`super::title`] (a summary
    /// counts only when its leaf is a line of this session).
    pub fn title(&self) -> Option<&str> {
        self.meta
            .titles
            .title(|leaf| self.main.threads.node(leaf).is_some())
    }

    pub fn new(path: Option<PathBuf>) -> Self {
        let mut s = Session {
            redacting: crate::redact::screen(),
            ..Session::default()
        };
        s.sources.push(Source {
            path,
            agent: None,
            text_in_file: false,
            base: 0,
            splitter: LineSplitter::new(),
            garbage: Garbage::default(),
        });
        s
    }

    /// Reads a whole file (or stdin for `-`) into a session.
    pub fn load(path: &Path) -> std::io::Result<Session> {
        let mut s = Session::new(Some(path.to_owned()));
        if path == Path::new("-") {
            s.read_all(MAIN, &mut std::io::stdin().lock())?;
        } else {
            s.read_file_available(MAIN, &open_regular(path)?, &mut |_, _| {})?;
            s.finish(MAIN);
        }
        Ok(s)
    }

    /// Feeds everything `r` yields into `source`, then flushes its tail.
    pub fn read_all(&mut self, source: u16, r: &mut impl Read) -> std::io::Result<()> {
        self.read_available(source, r)?;
        self.finish(source);
        Ok(())
    }

    /// Feeds everything `r` yields so far into `source`. A last line
    /// without its newline stays buffered unless it is already whole (see
    /// [`Self::flush_tail`]): a file being written may end mid-line, and its
    /// follower brings the rest.
    pub fn read_available(&mut self, source: u16, r: &mut impl Read) -> std::io::Result<()> {
        super::parallel::read_sequential(self, source, r, &mut |_| {})?;
        self.flush_tail(source);
        Ok(())
    }

    /// [`Self::read_available`] for a file, from its start: a big one is
    /// decoded on every core (see `model::parallel`). `progress` hears
    /// (bytes read, size) as it goes.
    pub fn read_file_available(
        &mut self,
        source: u16,
        f: &std::fs::File,
        progress: &mut dyn FnMut(u64, u64),
    ) -> std::io::Result<()> {
        if self.redacting {
            // each line is redacted before it is decoded: read in place
            let size = f.metadata().map_or(0, |m| m.len());
            let mut r = f;
            super::parallel::read_sequential(self, source, &mut r, &mut |n| progress(n, size))?;
        } else {
            super::parallel::read_file(self, source, f, progress)?;
        }
        self.flush_tail(source);
        Ok(())
    }

    /// The bytes fed to `source` from now on start at `offset` of its file,
    /// whose tool output is left there (the preview of a big file's end).
    pub fn view_file_from(&mut self, source: u16, offset: u64) {
        if let Some(s) = self.sources.get_mut(source as usize) {
            s.base = offset;
            s.text_in_file = s.path.is_some();
        }
    }

    /// Registers a subagent's own file (`agent-<id>.jsonl`).
    pub fn add_agent_source(&mut self, path: PathBuf, agent_id: &str) -> u16 {
        let a = self.agent_for_id(agent_id);
        if agent_id.starts_with("acompact") {
            self.agents[a as usize].compact = true;
        }
        self.agents[a as usize].has_record = true;
        self.sources.push(Source {
            path: Some(path),
            agent: Some(a),
            text_in_file: false,
            base: 0,
            splitter: LineSplitter::new(),
            garbage: Garbage::default(),
        });
        (self.sources.len() - 1) as u16
    }

    /// Appended bytes of `source`. Complete lines are ingested; an unfinished
    /// last line waits for its newline (or for [`Self::flush_tail`]).
    pub fn feed(&mut self, source: u16, bytes: &[u8]) {
        self.feed_decoded(source, bytes, None, &mut Decodes::default());
    }

    /// [`Self::feed`], with lines already decoded on another thread
    /// (`ahead`, in stream order): a line the splitter hands out whole at
    /// the offset and length of one of them is ingested from it. So is a
    /// line that began in an earlier read and was read on to its end
    /// (`spanning`: its bytes and objects), if its bytes are the ones the
    /// splitter put together. Any other (a tentative tail, a line that
    /// does not read cleanly) is decoded here.
    pub(super) fn feed_decoded(
        &mut self,
        source: u16,
        bytes: &[u8],
        spanning: Option<(&[u8], &mut Decodes<'_>)>,
        ahead: &mut Decodes<'_>,
    ) {
        self.in_batch(|s| s.feed_lines(source, bytes, spanning, ahead));
    }

    /// Runs `f` as one batch of lines: the full passes over the branch
    /// structure that its lines owe are made once, at its end (a whole
    /// load is one batch: with a pass per chunk, the viewer's small chunks
    /// made passes a load's main cost).
    pub(super) fn in_batch<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> T {
        if self.batching == 0 {
            self.main.begin_batch();
            for a in &mut self.agents {
                a.transcript.begin_batch();
            }
        }
        self.batching += 1;
        let out = f(self);
        self.batching -= 1;
        if self.batching == 0 {
            let mut rebuilt = self.main.end_batch();
            for a in &mut self.agents {
                rebuilt |= a.transcript.end_batch();
            }
            if rebuilt {
                self.changes.rebuilt = true;
            }
        }
        out
    }

    fn feed_lines(
        &mut self,
        source: u16,
        bytes: &[u8],
        mut spanning: Option<(&[u8], &mut Decodes<'_>)>,
        ahead: &mut Decodes<'_>,
    ) {
        let mut none = Decodes::default();
        let ahead = if self.redacting {
            // a line is redacted before it is decoded (see `ingest_line`)
            spanning = None;
            &mut none
        } else {
            ahead
        };
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        let mut next = 0;
        // the lines decoded ahead were split from these same bytes
        let mut hint = 0;
        let lines = std::mem::take(&mut ahead.lines);
        let known = |offset: u64| {
            while lines.get(hint).is_some_and(|a| a.offset < offset) {
                hint += 1;
            }
            lines
                .get(hint)
                .filter(|a| a.offset == offset)
                .map(|a| a.len)
        };
        splitter.feed_known(bytes, known, |line| {
            if let Some(len) = line.overlong {
                return self.ingest_overlong(source, line.number, len);
            }
            while lines.get(next).is_some_and(|a| a.offset < line.offset) {
                next += 1;
            }
            let decoded = lines
                .get(next)
                .filter(|a| {
                    a.offset == line.offset && a.len == line.bytes.len() && !a.entries.is_empty()
                })
                .map(|a| {
                    let entries = ahead.entries.get_mut(a.entries.clone());
                    (a.addr, entries.unwrap_or_default())
                });
            // a line read on past its chunk: its bytes were read apart
            // from these, so they must be these
            let spanned = spanning
                .as_mut()
                .filter(|(bytes, d)| {
                    *bytes == line.bytes
                        && d.lines
                            .first()
                            .is_some_and(|a| a.offset == line.offset && !a.entries.is_empty())
                })
                .and_then(|(_, d)| Some((d.lines.first()?.addr, d.entries_of(0))));
            match (spanned, decoded) {
                (Some((addr, entries)), _) => {
                    self.line_at = place(base, &line, addr);
                    self.ingest_decoded(source, line.number, entries)
                }
                (None, Some((addr, entries))) => {
                    self.line_at = place(base, &line, addr);
                    self.ingest_decoded(source, line.number, entries)
                }
                (None, None) => {
                    self.line_at = place(base, &line, line.bytes.as_ptr() as usize);
                    self.ingest_line(source, line.number, line.bytes)
                }
            }
            self.line_at = None;
        });
        ahead.lines = lines;
        self.sources[source as usize].splitter = splitter;
    }

    /// At EOF of a live file: if the unfinished last line is already a
    /// complete JSON object (files often lack a final newline), show it now.
    /// A write in progress stays buffered.
    pub fn flush_tail(&mut self, source: u16) {
        self.flush_garbage(source);
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        let whole = splitter.tail_may_be_whole();
        if let Some(tail) = splitter.tail().filter(|_| whole) {
            let clean = decode_line(tail.number, tail.bytes, |_, _| {})
                .iter()
                .all(|p| p.recovered);
            if clean {
                self.line_at = place(base, &tail, tail.bytes.as_ptr() as usize);
                self.ingest_line(source, tail.number, tail.bytes);
                self.line_at = None;
                splitter.consume_tail();
            }
        }
        self.sources[source as usize].splitter = splitter;
    }

    /// The input is complete: the unfinished last line is read as it is,
    /// and reported if it cannot be.
    pub fn finish(&mut self, source: u16) {
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        if let Some(tail) = splitter.tail() {
            match tail.overlong {
                Some(len) => self.ingest_overlong(source, tail.number, len),
                None => {
                    self.line_at = place(base, &tail, tail.bytes.as_ptr() as usize);
                    self.ingest_line(source, tail.number, tail.bytes);
                    self.line_at = None;
                }
            }
            splitter.consume_tail();
        }
        self.sources[source as usize].splitter = splitter;
        self.flush_garbage(source);
    }

    /// Lines read over all sources.
    pub fn lines(&self) -> u64 {
        self.sources.iter().map(|s| s.lines() as u64).sum()
    }

    pub fn take_changes(&mut self) -> Changes {
        let mut c = std::mem::take(&mut self.changes);
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
    pub(super) fn keep_no_marks(&mut self) {
        self.mark_tracker.off = true;
    }

    /// Tool calls get no summary (their rows' text is then empty): for a
    /// load whose reader writes calls as their inputs, made before any
    /// line is read.
    pub(super) fn keep_no_call_summaries(&mut self) {
        self.no_call_summaries = true;
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

    /// Lines longer than the cap skip their source's splitter: for tests.
    #[doc(hidden)]
    pub fn set_line_cap(&mut self, source: u16, cap: usize) {
        if let Some(s) = self.sources.get_mut(source as usize) {
            s.splitter = LineSplitter::with_cap(cap);
        }
    }

    /// A line over [`super::lines::LINE_MAX`], skipped unread.
    fn ingest_overlong(&mut self, source: u16, line: u32, len: u64) {
        let message = format!(
            "line of {} skipped: longer than the {} a line may hold",
            super::item::human_bytes(len),
            super::item::human_bytes(super::lines::LINE_MAX as u64)
        );
        let p = Problem {
            line,
            message,
            recovered: false,
        };
        self.push_unreadable(source, &p, &mut None);
        self.problems.push((source, p));
    }

    /// The unreadable lines held back in a row become one row.
    fn flush_garbage(&mut self, source: u16) {
        let Some((first, last, n)) = self.sources[source as usize].garbage.held.take() else {
            return;
        };
        let p = Problem {
            line: first,
            message: format!(
                "{n} unreadable lines in a row, {first} to {last}, shown as one: the input does not look like a session"
            ),
            recovered: false,
        };
        // counted line by line as they came
        self.push_unreadable_row(source, &p, &mut None);
        self.problems.push((source, p));
    }

    /// An unreadable row for `p`; the line's findings show on its first
    /// such row (`row`).
    fn push_unreadable(&mut self, source: u16, p: &Problem, row: &mut Option<ItemId>) {
        self.stats.entries += 1;
        self.stats.unreadable += 1;
        self.push_unreadable_row(source, p, row);
    }

    fn push_unreadable_row(&mut self, source: u16, p: &Problem, row: &mut Option<ItemId>) {
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        let mut item = self.new_item(Kind::Unreadable, source, p.line);
        item.text = format!("unreadable line {}: {}", p.line, p.message).into();
        item.flags.error = true;
        let id = *row.get_or_insert(item.id);
        self.push(target, None, item);
        let agent = self.sources[source as usize].agent;
        self.mark_tracker
            .unreadable(&mut self.marks, agent, id, p.line);
    }

    fn ingest_line(&mut self, source: u16, line: u32, bytes: &[u8]) {
        // redacting keeps a line valid JSON (see `crate::redact`)
        let redacted;
        let bytes = if self.redacting {
            redacted = crate::redact::active()
                .redact_json(&String::from_utf8_lossy(bytes))
                .into_owned();
            redacted.as_bytes()
        } else {
            bytes
        };
        if self.sources[source as usize].garbage.held.is_some() {
            // the held run ends before a readable line: its row goes first
            // (decoding twice only the first line after a run of garbage)
            let mut readable = false;
            decode_line(line, bytes, |_, _| readable = true);
            if readable {
                self.flush_garbage(source);
            }
        }
        let before = self.stats.entries;
        let problems = decode_line(line, bytes, |mut entry, raw| {
            self.count_entry(source, line, &mut entry, raw)
        });
        self.after_line(source, line, before, problems);
    }

    /// A line decoded ahead without a problem (see [`Self::feed_decoded`]).
    fn ingest_decoded(&mut self, source: u16, line: u32, entries: &mut [(RawEntry<'_>, &str)]) {
        if self.sources[source as usize].garbage.held.is_some() {
            // the held run ends before this readable line: its row goes first
            self.flush_garbage(source);
        }
        let before = self.stats.entries;
        // by reference: an entry is 1.7 KB, and copies of it were a tenth
        // of a load's time
        for (entry, raw) in entries {
            self.count_entry(source, line, entry, raw);
        }
        self.after_line(source, line, before, Vec::new());
    }

    fn count_entry(&mut self, source: u16, line: u32, entry: &mut RawEntry<'_>, raw: &str) {
        self.stats.entries += 1;
        match self.ingest_entry(source, line, entry, raw) {
            Outcome::Shown => self.stats.shown += 1,
            Outcome::Hidden(reason) => {
                self.stats.hidden += 1;
                *self.stats.hidden_by_reason.entry(reason).or_default() += 1;
            }
        }
    }

    /// What follows the entries of a line: the run of unreadable lines it
    /// ends or extends, and its problems.
    fn after_line(&mut self, source: u16, line: u32, before: u64, problems: Vec<Problem>) {
        let read_some = self.stats.entries > before;
        let g = &mut self.sources[source as usize].garbage;
        if read_some {
            g.run = 0;
            self.flush_garbage(source);
        } else if problems.iter().any(|p| !p.recovered) {
            g.run = g.run.saturating_add(1);
            if g.run > GARBAGE_RUN {
                let held = g.held.get_or_insert((line, line, 0));
                held.1 = line;
                held.2 += 1;
                self.stats.entries += 1;
                self.stats.unreadable += 1;
                return;
            }
        }
        // Findings of a line show on its first unreadable row.
        let mut unreadable_row = None;
        for p in problems {
            if p.recovered {
                self.stats.recovered += 1;
            } else {
                self.push_unreadable(source, &p, &mut unreadable_row);
            }
            self.problems.push((source, p));
        }
    }

    pub(super) fn new_item(&mut self, kind: Kind, source: u16, line: u32) -> Item {
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

    pub(super) fn push(&mut self, target: Target, pos: Option<usize>, mut item: Item) -> usize {
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
    pub(super) fn mark_threaded(&mut self, target: Target, node: u32) {
        let (agent, t) = match target {
            Target::Main => (None, &self.main),
            Target::Agent(a) => (Some(a), &self.agents[a as usize].transcript),
        };
        self.mark_tracker
            .threaded(&mut self.marks, agent, t, &self.main, node);
    }

    /// The call `id` of `target` got its result.
    pub(super) fn mark_answered(&mut self, target: Target, id: ItemId) {
        let agent = match target {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        };
        self.mark_tracker.answered(&mut self.marks, agent, id);
    }

    /// Room in the transcript `source` feeds for the lines of `bytes` more
    /// of it (see [`Transcript::reserve_lines`]).
    pub(super) fn expect_lines(&mut self, source: u16, bytes: u64) {
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

    pub(super) fn transcript_mut(&mut self, target: Target) -> &mut Transcript {
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
pub(super) fn push_unique(v: &mut Vec<ItemId>, id: ItemId) {
    if v.last() != Some(&id) {
        v.push(id);
    }
}

pub(super) enum Outcome {
    Shown,
    Hidden(&'static str),
}
/// An id `claude --resume` may be given: a UUID, as Claude Code names
/// its sessions. Anything else (a `sessionId` of `--dangerously-skip-
/// permissions`) would reach `claude` as an option.
pub fn is_resumable_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}
