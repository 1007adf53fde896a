//! A session: the main transcript, its subagents, its metadata, and the
//! incremental ingest that builds them from appended bytes.

pub use super::agents::Agent;
use super::branch::{Role, message_key};
use super::classify::{UserText, classify_user_text, image_from_base64_len, mentioned_files};
use super::decode::{Problem, decode_line};
use super::item::*;
use super::lines::LineSplitter;
use super::raw::{Block, Content, RawEntry, ToolUseResult};
use super::summary::call_summary;
use super::time::parse_timestamp;
use super::transcript::Transcript;
use rustc_hash::FxHashMap as HashMap;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a source file is: the session itself, or a subagent's own file.
#[derive(Debug)]
pub struct Source {
    pub path: Option<PathBuf>,
    /// Lines of this file go to this agent (index into `Session::agents`).
    pub agent: Option<u32>,
    splitter: LineSplitter,
}

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
    pub ai_title: Option<String>,
    pub custom_title: Option<String>,
    pub summary: Option<String>,
    pub first_prompt: Option<String>,
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
}

impl Meta {
    /// Last ai-title / custom-title / summary, else the first real prompt.
    pub fn title(&self) -> Option<&str> {
        self.custom_title
            .as_deref()
            .or(self.ai_title.as_deref())
            .or(self.summary.as_deref())
            .or(self.first_prompt.as_deref())
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

/// Where an entry's items go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Target {
    Main,
    Agent(u32),
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
    next_id: ItemId,
    pub(super) agent_index: HashMap<String, u32>,
    /// Inline sidechain lines: uuid -> agent, to follow their chains.
    sidechain_uuid: HashMap<Box<str>, u32>,
    pub(super) changes: Changes,
    /// Each `sessionId` of the session's own lines, with where it first
    /// appears (a resumed session can hold several).
    pub session_id_lines: Vec<(String, u16, u32)>,
    /// The viewer's finding marks, built on first use after a change.
    marks: std::sync::OnceLock<super::check::Marks>,
}

pub const MAIN: u16 = 0;

impl Session {
    pub fn new(path: Option<PathBuf>) -> Self {
        let mut s = Session::default();
        s.sources.push(Source {
            path,
            agent: None,
            splitter: LineSplitter::new(),
        });
        s
    }

    /// Reads a whole file (or stdin for `-`) into a session.
    pub fn load(path: &Path) -> std::io::Result<Session> {
        let mut s = Session::new(Some(path.to_owned()));
        if path == Path::new("-") {
            s.read_all(MAIN, &mut std::io::stdin().lock())?;
        } else {
            s.read_all(MAIN, &mut std::fs::File::open(path)?)?;
        }
        Ok(s)
    }

    /// Feeds everything `r` yields into `source`, then flushes its tail.
    pub fn read_all(&mut self, source: u16, r: &mut impl Read) -> std::io::Result<()> {
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.feed(source, &buf[..n]);
        }
        self.finish(source);
        Ok(())
    }

    /// Registers a subagent's own file (`agent-<id>.jsonl`).
    pub fn add_agent_source(&mut self, path: PathBuf, agent_id: &str) -> u16 {
        let a = self.agent_for_id(agent_id);
        self.marks.take();
        if agent_id.starts_with("acompact") {
            self.agents[a as usize].compact = true;
        }
        self.sources.push(Source {
            path: Some(path),
            agent: Some(a),
            splitter: LineSplitter::new(),
        });
        (self.sources.len() - 1) as u16
    }

    /// Appended bytes of `source`. Complete lines are ingested; an unfinished
    /// last line waits for its newline (or for [`Self::flush_tail`]).
    pub fn feed(&mut self, source: u16, bytes: &[u8]) {
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        splitter.feed(bytes, |line| {
            self.ingest_line(source, line.number, line.bytes)
        });
        self.sources[source as usize].splitter = splitter;
    }

    /// At EOF of a live file: if the unfinished last line is already a
    /// complete JSON object (files often lack a final newline), show it now.
    /// A write in progress stays buffered.
    pub fn flush_tail(&mut self, source: u16) {
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        if let Some(tail) = splitter.tail() {
            let clean = decode_line(tail.number, tail.bytes, |_, _| {})
                .iter()
                .all(|p| p.recovered);
            if clean {
                self.ingest_line(source, tail.number, tail.bytes);
                splitter.consume_tail();
            }
        }
        self.sources[source as usize].splitter = splitter;
    }

    /// The input is complete: the unfinished last line is read as it is,
    /// and reported if it cannot be.
    pub fn finish(&mut self, source: u16) {
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        if let Some(tail) = splitter.tail() {
            self.ingest_line(source, tail.number, tail.bytes);
            splitter.consume_tail();
        }
        self.sources[source as usize].splitter = splitter;
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

    pub fn transcript(&self, agent: Option<u32>) -> &Transcript {
        match agent {
            None => &self.main,
            Some(a) => &self.agents[a as usize].transcript,
        }
    }

    /// Problems a reader of the file should know about (see
    /// [`super::check`]). `live`: the file changed in the last minute, so
    /// calls without results may still be running.
    pub fn findings(&self, live: bool) -> Vec<super::check::Finding> {
        super::check::check(self, live)
    }

    /// The rows findings name, for the viewer to mark. Computed once after
    /// each change (not per frame).
    pub fn marks(&self) -> &super::check::Marks {
        self.marks.get_or_init(|| super::check::marks(self))
    }

    fn ingest_line(&mut self, source: u16, line: u32, bytes: &[u8]) {
        self.marks.take();
        let problems = decode_line(line, bytes, |entry, raw| {
            self.stats.entries += 1;
            match self.ingest_entry(source, line, entry, raw) {
                Outcome::Shown => self.stats.shown += 1,
                Outcome::Hidden(reason) => {
                    self.stats.hidden += 1;
                    *self.stats.hidden_by_reason.entry(reason).or_default() += 1;
                }
            }
        });
        for p in problems {
            if p.recovered {
                self.stats.recovered += 1;
            } else {
                self.stats.entries += 1;
                self.stats.unreadable += 1;
                let target = match self.sources[source as usize].agent {
                    Some(a) => Target::Agent(a),
                    None => Target::Main,
                };
                let mut item = self.new_item(Kind::Unreadable, source, line);
                item.text = format!("unreadable line {}: {}", p.line, p.message);
                item.flags.error = true;
                self.push(target, None, item);
            }
            self.problems.push((source, p));
        }
    }

    fn new_item(&mut self, kind: Kind, source: u16, line: u32) -> Item {
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
            text: String::new(),
            flags: Flags::default(),
            message: None,
            group: None,
            off_branch: false,
            detail: Detail::None,
        }
    }

    fn push(&mut self, target: Target, pos: Option<usize>, item: Item) -> usize {
        let t = match target {
            Target::Main => &mut self.main,
            Target::Agent(a) => &mut self.agents[a as usize].transcript,
        };
        let pos = pos.unwrap_or(t.items.len());
        let appended = pos >= t.items.len();
        let idx = t.insert(pos, item);
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
                Some((_, call)) => push_unique(&mut self.changes.updated, call),
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

    fn transcript_mut(&mut self, target: Target) -> &mut Transcript {
        match target {
            Target::Main => &mut self.main,
            Target::Agent(a) => &mut self.agents[a as usize].transcript,
        }
    }

    fn route(&mut self, source: u16, e: &RawEntry<'_>) -> Target {
        if let Some(a) = self.sources[source as usize].agent {
            return Target::Agent(a);
        }
        if let Some(tool) = e.parent_tool_use_id.as_deref() {
            // stream-json: a subagent's message names the Task call.
            let a = self.agent_for_id(&format!("task-{tool}"));
            self.link_agent_to_tool(a, tool);
            return Target::Agent(a);
        }
        if e.is_sidechain != Some(true) {
            return Target::Main;
        }
        let by_parent = e
            .parent_uuid
            .as_deref()
            .and_then(|p| self.sidechain_uuid.get(p).copied());
        let a = match (e.agent_id.as_deref(), by_parent) {
            (Some(id), _) => self.agent_for_id(id),
            (None, Some(a)) => a,
            (None, None) => {
                let n = self.agents.len();
                self.agent_for_id(&format!("sidechain-{}", n + 1))
            }
        };
        if let Some(u) = e.uuid.as_deref() {
            self.sidechain_uuid.insert(u.into(), a);
        }
        Target::Agent(a)
    }

    fn ingest_entry(&mut self, source: u16, line: u32, e: RawEntry<'_>, raw: &str) -> Outcome {
        let kind = e.kind.as_deref().unwrap_or("");
        self.note_envelope(&e);
        match kind {
            "user" | "assistant" | "system" | "result" => {}
            "summary" => {
                if let Some(s) = e.summary.as_deref() {
                    self.meta.summary = Some(s.to_owned());
                }
                return Outcome::Hidden("summary");
            }
            "ai-title" => {
                if let Some(t) = e.ai_title.as_deref() {
                    self.meta.ai_title = Some(t.to_owned());
                }
                return Outcome::Hidden("ai-title");
            }
            "custom-title" => {
                if let Some(t) = e.custom_title.as_deref() {
                    self.meta.custom_title = Some(t.to_owned());
                }
                return Outcome::Hidden("custom-title");
            }
            "last-prompt" => {
                self.meta.last_prompt = e.last_prompt.as_deref().map(str::to_owned);
                self.meta.leaf_uuid = e.leaf_uuid.as_deref().map(str::to_owned);
                if let Some(leaf) = e.leaf_uuid.as_deref() {
                    if self.sources[source as usize].agent.is_none()
                        && self.main.set_leaf_hint(leaf)
                    {
                        self.changes.rebuilt = true;
                    }
                }
                return Outcome::Hidden("last-prompt");
            }
            "mode" => {
                self.meta.mode = e.mode.as_deref().map(str::to_owned);
                return Outcome::Hidden("mode");
            }
            "permission-mode" => {
                self.meta.permission_mode = e.permission_mode.as_deref().map(str::to_owned);
                return Outcome::Hidden("permission-mode");
            }
            "pr-link" => {
                if let Some(u) = e.pr_url.as_deref() {
                    if !self.meta.pr_links.iter().any(|p| p == u) {
                        self.meta.pr_links.push(u.to_owned());
                    }
                }
                return Outcome::Hidden("pr-link");
            }
            "file-history-snapshot" => return Outcome::Hidden("file-history-snapshot"),
            "queue-operation" => return Outcome::Hidden("queue-operation"),
            "progress" => {
                self.thread_side(source, line, &e);
                let sub = e
                    .data
                    .as_ref()
                    .and_then(|d| d.kind.as_deref())
                    .unwrap_or("");
                return Outcome::Hidden(if sub == "agent_progress" {
                    "agent_progress"
                } else {
                    "progress"
                });
            }
            "attachment" => {
                self.thread_side(source, line, &e);
                if let Some(a) = &e.attachment {
                    if let Some(h) = a.hook_name.as_deref().or(a.hook_event.as_deref()) {
                        if !self.meta.hooks.iter().any(|x| x == h) {
                            self.meta.hooks.push(h.to_owned());
                        }
                    }
                }
                return Outcome::Hidden("attachment");
            }
            "agent-name" | "tag" | "agent-setting" => return Outcome::Hidden("metadata"),
            _ => return self.unknown(source, line, &e, raw),
        }
        let target = self.route(source, &e);
        self.note_session_id(source, line, &e);
        self.thread_line(target, source, line, &e, role_of(kind, &e));
        if let Some(u) = e.uuid.as_deref() {
            if !self.transcript_mut(target).note_uuid(u) && kind != "system" {
                return Outcome::Hidden("repeated uuid");
            }
        }
        match kind {
            "user" => self.ingest_user(target, source, line, e, raw),
            "assistant" => self.ingest_assistant(target, source, line, e, raw),
            "result" => self.ingest_stream_result(target, source, line, e),
            _ => self.ingest_system(target, source, line, e),
        }
    }

    /// Puts a line into its transcript's `parentUuid` tree.
    fn thread_line(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        role: Role,
    ) {
        let Some(u) = e.uuid.as_deref() else { return };
        let parent = e
            .parent_uuid
            .as_deref()
            .or(e.logical_parent_uuid.as_deref());
        if self
            .transcript_mut(target)
            .thread(u, parent, role, source, line)
        {
            self.changes.rebuilt = true;
        }
    }

    /// Progress and attachment lines: threaded (the chain runs through
    /// them) but never shown, and never the reason to start an agent.
    fn thread_side(&mut self, source: u16, line: u32, e: &RawEntry<'_>) {
        let target = if let Some(a) = self.sources[source as usize].agent {
            Target::Agent(a)
        } else if e.is_sidechain == Some(true) {
            let by_parent = e
                .parent_uuid
                .as_deref()
                .and_then(|p| self.sidechain_uuid.get(p).copied());
            let Some(a) = by_parent else { return };
            if let Some(u) = e.uuid.as_deref() {
                self.sidechain_uuid.insert(u.into(), a);
            }
            Target::Agent(a)
        } else {
            Target::Main
        };
        self.thread_line(target, source, line, e, Role::Side);
    }

    /// The first line of each `sessionId` of the session's own file.
    fn note_session_id(&mut self, source: u16, line: u32, e: &RawEntry<'_>) {
        if self.sources[source as usize].agent.is_some()
            || e.is_sidechain == Some(true)
            || e.agent_id.is_some()
        {
            return;
        }
        if let Some(sid) = e.session_id.as_deref().or(e.session_id_snake.as_deref()) {
            if !self.session_id_lines.iter().any(|(s, _, _)| s == sid) {
                self.session_id_lines.push((sid.to_owned(), source, line));
            }
        }
    }

    fn note_envelope(&mut self, e: &RawEntry<'_>) {
        let m = &mut self.meta;
        if let Some(ts) = e.timestamp.as_deref().and_then(parse_timestamp) {
            if m.started.is_none_or(|s| ts < s) {
                m.started = Some(ts);
            }
            if m.last_activity.is_none_or(|l| ts > l) {
                m.last_activity = Some(ts);
            }
        }
        if e.is_sidechain == Some(true) || e.agent_id.is_some() {
            return;
        }
        if let Some(c) = e.cwd.as_deref() {
            if m.cwd.as_deref() != Some(c) {
                m.cwd = Some(c.to_owned());
            }
        }
        if let Some(b) = e.git_branch.as_deref().filter(|b| !b.is_empty()) {
            if m.git_branch.as_deref() != Some(b) {
                m.git_branch = Some(b.to_owned());
            }
        }
        if let Some(v) = e.version.as_deref() {
            if m.version.as_deref() != Some(v) {
                m.version = Some(v.to_owned());
            }
        }
        if let Some(sid) = e.session_id.as_deref().or(e.session_id_snake.as_deref()) {
            if !m.session_ids.iter().any(|s| s == sid) {
                m.session_ids.push(sid.to_owned());
            }
        }
    }

    fn envelope_item(&mut self, kind: Kind, source: u16, line: u32, e: &RawEntry<'_>) -> Item {
        let mut item = self.new_item(kind, source, line);
        item.uuid = e.uuid.as_deref().map(Into::into);
        item.parent_uuid = e
            .parent_uuid
            .as_deref()
            .or(e.logical_parent_uuid.as_deref())
            .map(Into::into);
        item.timestamp = e.timestamp.as_deref().and_then(parse_timestamp);
        item
    }

    fn unknown(&mut self, source: u16, line: u32, e: &RawEntry<'_>, raw: &str) -> Outcome {
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        let mut item = self.envelope_item(Kind::Unknown, source, line, e);
        item.text = super::text::truncate(raw, 64 * 1024).into_owned();
        self.push(target, None, item);
        Outcome::Shown
    }

    fn ingest_user(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        mut e: RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        let Some(msg) = e.message.take() else {
            return self.unknown(source, line, &e, raw);
        };
        let content = msg.content;
        if e.is_compact_summary == Some(true) {
            let mut item = self.envelope_item(Kind::Compaction, source, line, &e);
            item.text = content.as_ref().map(content_text).unwrap_or_default();
            self.push(target, None, item);
            return Outcome::Shown;
        }
        let is_meta = e.is_meta == Some(true);
        let mut shown = false;
        match content {
            Some(Content::Text(t)) => {
                self.user_text(target, source, line, &e, &t, Vec::new(), is_meta);
                shown = true;
            }
            Some(Content::Blocks(blocks)) => {
                let mut tur = e.tool_use_result.take();
                // Text and image blocks of one prompt make one row.
                let mut text = String::new();
                let mut images = Vec::new();
                for b in blocks {
                    match b.kind.as_deref().unwrap_or("") {
                        "text" => {
                            let t = b.text.as_deref().unwrap_or("");
                            if is_meta || classify_user_text(t) != UserText::Prompt {
                                self.flush_prompt(
                                    target,
                                    source,
                                    line,
                                    &e,
                                    &mut text,
                                    &mut images,
                                    is_meta,
                                );
                                self.user_text(target, source, line, &e, t, Vec::new(), is_meta);
                            } else {
                                if !text.is_empty() {
                                    text.push('\n');
                                }
                                text.push_str(t);
                            }
                            shown = true;
                        }
                        "image" => {
                            images.push(block_image(&b));
                            shown = true;
                        }
                        "tool_result" => {
                            self.flush_prompt(
                                target,
                                source,
                                line,
                                &e,
                                &mut text,
                                &mut images,
                                is_meta,
                            );
                            shown |= self.tool_result(target, source, line, &e, b, tur.take());
                        }
                        _ => {
                            self.flush_prompt(
                                target,
                                source,
                                line,
                                &e,
                                &mut text,
                                &mut images,
                                is_meta,
                            );
                            self.unknown_block(target, source, line, &e, &b);
                            shown = true;
                        }
                    }
                }
                self.flush_prompt(target, source, line, &e, &mut text, &mut images, is_meta);
            }
            _ => {}
        }
        if shown {
            Outcome::Shown
        } else {
            Outcome::Hidden("empty message")
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn flush_prompt(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        text: &mut String,
        images: &mut Vec<Image>,
        is_meta: bool,
    ) {
        if text.is_empty() && images.is_empty() {
            return;
        }
        let t = std::mem::take(text);
        self.user_text(target, source, line, e, &t, std::mem::take(images), is_meta);
    }

    #[allow(clippy::too_many_arguments)]
    fn user_text(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        text: &str,
        images: Vec<Image>,
        is_meta: bool,
    ) {
        let class = if is_meta {
            UserText::Meta
        } else {
            classify_user_text(text)
        };
        let item = match class {
            UserText::Meta => {
                let mut item = self.envelope_item(Kind::Meta, source, line, e);
                item.text = text.to_owned();
                item
            }
            UserText::Command(c) => {
                let mut item = self.envelope_item(Kind::Command, source, line, e);
                item.text = command_text(&c);
                item.detail = Detail::Command(Box::new(c));
                item
            }
            UserText::Prompt => {
                let mut item = self.envelope_item(Kind::User, source, line, e);
                item.text = text.to_owned();
                for img in &images {
                    if !item.text.is_empty() {
                        item.text.push('\n');
                    }
                    item.text.push_str(&img.placeholder());
                }
                let files = mentioned_files(text);
                if target == Target::Main
                    && self.meta.first_prompt.is_none()
                    && !text.trim().is_empty()
                {
                    self.meta.first_prompt = Some(super::text::first_line(text, 200));
                }
                if let Target::Agent(a) = target {
                    if self.agents[a as usize].prompt.is_none() {
                        self.agents[a as usize].prompt = Some(text.to_owned());
                        self.link_by_prompt(a);
                    }
                }
                if !files.is_empty() || !images.is_empty() {
                    item.detail = Detail::Prompt(Box::new(PromptInfo { files, images }));
                }
                item
            }
        };
        self.push(target, None, item);
    }

    fn unknown_block(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        b: &Block<'_>,
    ) {
        let mut item = self.envelope_item(Kind::Unknown, source, line, e);
        let kind = b.kind.as_deref().unwrap_or("?");
        item.text = match b.text.as_deref() {
            Some(t) => format!("[{kind} block]\n{t}"),
            None => format!("[{kind} block]"),
        };
        self.push(target, None, item);
    }

    /// Attaches a result to its call. Returns whether anything is shown.
    fn tool_result(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        b: Block<'_>,
        extra: Option<ToolUseResult>,
    ) -> bool {
        let mut images = Vec::new();
        let text = b
            .content
            .map(|c| tool_result_text(*c, &mut images))
            .unwrap_or_default();
        let result = ToolResult {
            source,
            line,
            uuid: e.uuid.as_deref().map(Into::into),
            timestamp: e.timestamp.as_deref().and_then(parse_timestamp),
            text,
            is_error: b.is_error == Some(true),
            images,
            extra: extra.map(Box::new),
        };
        let agent_id = result.extra.as_ref().and_then(|x| x.agent_id.clone());
        let id = b.tool_use_id.as_deref().unwrap_or("");
        let t = self.transcript_mut(target);
        if let Some(idx) = t.tool_call_index(id) {
            let item = &mut t.items[idx];
            if let Detail::Call(call) = &mut item.detail {
                if call.result.is_some() {
                    return false; // a repeated result
                }
                call.result = Some(result);
                let item_id = item.id;
                if let Some(agent_id) = agent_id {
                    let a = self.agent_for_id(&agent_id);
                    self.link(a, target, item_id);
                }
                push_unique(&mut self.changes.updated, item_id);
                return true;
            }
        }
        let mut item = self.envelope_item(Kind::ToolResult, source, line, e);
        item.flags.error = result.is_error;
        item.detail = Detail::OrphanResult(Box::new(result));
        self.push(target, None, item);
        true
    }

    fn ingest_assistant(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        mut e: RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        let Some(msg) = e.message.take() else {
            return self.unknown(source, line, &e, raw);
        };
        let synthetic =
            msg.model.as_deref() == Some("<synthetic>") || e.is_api_error_message == Some(true);
        if synthetic {
            let mut item = self.envelope_item(Kind::System, source, line, &e);
            item.text = msg.content.as_ref().map(content_text).unwrap_or_default();
            item.flags.error = true;
            item.flags.synthetic = true;
            self.push(target, None, item);
            return Outcome::Shown;
        }
        if target == Target::Main {
            if let Some(m) = msg.model.as_deref() {
                if self.meta.model.as_deref() != Some(m) {
                    self.meta.model = Some(m.to_owned());
                }
            }
        }
        let m = msg.id.as_deref().map(|id| {
            self.transcript_mut(target)
                .upsert_message(id, msg.model.as_deref(), msg.usage)
        });
        let mut shown = false;
        match msg.content {
            Some(Content::Text(t)) => {
                let mut item = self.envelope_item(Kind::Assistant, source, line, &e);
                item.text = t.into_owned();
                item.message = m;
                self.push_block(target, m, item);
                shown = true;
            }
            Some(Content::Blocks(blocks)) => {
                for b in blocks {
                    shown |= self.assistant_block(target, source, line, &e, m, b);
                }
            }
            _ => {}
        }
        if shown {
            Outcome::Shown
        } else {
            Outcome::Hidden("empty message")
        }
    }

    fn push_block(&mut self, target: Target, m: Option<u32>, item: Item) -> usize {
        let pos = m.map(|m| self.transcript_mut(target).position_for_message(m));
        let idx = self.push(target, pos, item);
        if let Some(m) = m {
            self.note_lost_calls(target, idx, m);
        }
        idx
    }

    /// A new assistant message means the calls of the one before it will
    /// get no result: the viewer marks them now (see `check::marks`), so
    /// their cached rows must be redrawn. Only the previous message is
    /// looked at; older ones were noted when their successor came.
    fn note_lost_calls(&mut self, target: Target, idx: usize, m: u32) {
        let t = self.transcript_mut(target);
        let mut prev = None;
        let mut lost = Vec::new();
        for it in t.items.get(..idx).unwrap_or(&[]).iter().rev().take(256) {
            match (it.message, prev) {
                (Some(x), _) if x == m => return, // not the message's first block
                (Some(x), None) => prev = Some(x),
                (Some(x), Some(p)) if x != p => break,
                _ => {}
            }
            if let Detail::Call(c) = &it.detail {
                if c.result.is_none() && !c.server {
                    lost.push(it.id);
                }
            }
        }
        for id in lost {
            push_unique(&mut self.changes.updated, id);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn assistant_block(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        m: Option<u32>,
        b: Block<'_>,
    ) -> bool {
        let kind = b.kind.as_deref().unwrap_or("");
        let mut item = match kind {
            "text" => {
                let mut item = self.envelope_item(Kind::Assistant, source, line, e);
                item.text = b.text.map(Cow::into_owned).unwrap_or_default();
                item
            }
            "thinking" => {
                let mut item = self.envelope_item(Kind::Thinking, source, line, e);
                let t = b.thinking.map(Cow::into_owned).unwrap_or_default();
                item.flags.thinking_hidden = t.trim().is_empty();
                item.text = t;
                item
            }
            "redacted_thinking" => {
                let mut item = self.envelope_item(Kind::Thinking, source, line, e);
                item.flags.redacted = true;
                item.flags.thinking_hidden = true;
                item
            }
            "tool_use" | "server_tool_use" => {
                let id = b.id.as_deref().unwrap_or("").to_owned();
                if !id.is_empty() && self.transcript_mut(target).tool_call_index(&id).is_some() {
                    return false; // the same call written twice
                }
                let name = b.name.as_deref().unwrap_or("?").to_owned();
                let input: Box<RawValue> = match b.input {
                    Some(r) => r.to_owned(),
                    None => empty_object(),
                };
                let summary = call_summary(&name, input.get());
                let mut item = self.envelope_item(Kind::ToolCall, source, line, e);
                item.text = summary.clone();
                item.detail = Detail::Call(Box::new(ToolCall {
                    category: Category::of(&name),
                    id,
                    name,
                    input,
                    summary,
                    result: None,
                    server: kind == "server_tool_use",
                    agent: None,
                }));
                item
            }
            k if k.ends_with("_tool_result") || (b.tool_use_id.is_some() && k != "text") => {
                // web_search_tool_result and friends: results the API ran.
                return self.tool_result(target, source, line, e, b, None);
            }
            _ => {
                self.unknown_block(target, source, line, e, &b);
                return true;
            }
        };
        item.message = m;
        let idx = self.push_block(target, m, item);
        if kind == "tool_use" {
            self.link_call_by_prompt(target, idx);
        }
        true
    }

    fn ingest_system(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: RawEntry<'_>,
    ) -> Outcome {
        let subtype = e.subtype.as_deref().unwrap_or("");
        let text = e.content.as_ref().map(content_text).unwrap_or_default();
        let (kind, info, text) = match subtype {
            "init" => {
                self.meta.stream_json = true;
                if let Some(m) = e.model.as_deref() {
                    self.meta.model = Some(m.to_owned());
                }
                let tools = e.tools.as_ref().map_or(0, Vec::len);
                let info = SystemInfo::StreamInit {
                    model: e.model.as_deref().map(str::to_owned),
                    tools,
                    cwd: e.cwd.as_deref().map(str::to_owned),
                };
                let text = format!(
                    "Session started · {} · {} tools · {}",
                    e.model.as_deref().unwrap_or("?"),
                    tools,
                    e.cwd.as_deref().unwrap_or("?")
                );
                (Kind::System, info, text)
            }
            "compact_boundary" | "microcompact_boundary" => {
                let micro = subtype == "microcompact_boundary";
                let cm = e.compact_metadata.clone().unwrap_or_default();
                let info = SystemInfo::CompactBoundary {
                    trigger: cm.trigger,
                    pre_tokens: cm.pre_tokens,
                    micro,
                };
                let text = if text.is_empty() {
                    (if micro {
                        "Context microcompacted"
                    } else {
                        "Conversation compacted"
                    })
                    .to_owned()
                } else {
                    text
                };
                (Kind::System, info, text)
            }
            "turn_duration" => {
                let ms = e.duration_ms.unwrap_or(0.0).max(0.0) as u64;
                if let Some(t) = self.transcript_mut(target).turns.last_mut() {
                    t.duration_ms = Some(ms);
                }
                (
                    Kind::System,
                    SystemInfo::TurnDuration { ms },
                    format!("Turn took {}", super::time::human_duration(ms)),
                )
            }
            "api_error" => {
                let info = SystemInfo::ApiError {
                    attempt: e.retry_attempt,
                    max: e.max_retries,
                    retry_in_ms: e.retry_in_ms,
                };
                let err = e
                    .error
                    .map(|r| r.get())
                    .filter(|r| *r != "{}" && *r != "null")
                    .unwrap_or("");
                let mut text = format!(
                    "API error · retry {}/{}",
                    e.retry_attempt.map_or("?".into(), |n| n.to_string()),
                    e.max_retries.map_or("?".into(), |n| n.to_string())
                );
                if let Some(ms) = e.retry_in_ms {
                    text.push_str(&format!(" in {:.0} ms", ms));
                }
                if !err.is_empty() {
                    text.push_str(&format!("\n{err}"));
                }
                (Kind::System, info, text)
            }
            "stop_hook_summary" => {
                let count = e.hook_count.unwrap_or(0);
                let errors = e.hook_errors.as_ref().map_or(0, Vec::len) as u64;
                let cmds: Vec<String> = e
                    .hook_infos
                    .iter()
                    .flatten()
                    .filter_map(|h| h.command.as_deref().map(str::to_owned))
                    .collect();
                for c in &cmds {
                    if !self.meta.hooks.iter().any(|h| h == c) {
                        self.meta.hooks.push(c.clone());
                    }
                }
                let mut text = format!("Stop hooks: {count} ran");
                if errors > 0 {
                    text.push_str(&format!(", {errors} failed"));
                }
                for c in cmds {
                    text.push_str(&format!("\n{c}"));
                }
                (Kind::System, SystemInfo::StopHooks { count, errors }, text)
            }
            "local_command" => {
                let c = super::classify::parse_command(&text);
                let mut item = self.envelope_item(Kind::Command, source, line, &e);
                item.text = command_text(&c);
                item.detail = Detail::Command(Box::new(c));
                self.push(target, None, item);
                return Outcome::Shown;
            }
            _ => {
                let info = SystemInfo::Other {
                    subtype: e.subtype.as_deref().map(str::to_owned),
                    level: e.level.as_deref().map(str::to_owned),
                };
                (Kind::System, info, text)
            }
        };
        let mut item = self.envelope_item(kind, source, line, &e);
        item.flags.error = e.level.as_deref() == Some("error");
        item.text = text;
        item.detail = Detail::System(Box::new(info));
        self.push(target, None, item);
        Outcome::Shown
    }

    fn ingest_stream_result(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: RawEntry<'_>,
    ) -> Outcome {
        self.meta.stream_json = true;
        self.meta.cost_usd = e.total_cost_usd.or(self.meta.cost_usd);
        let mut item = self.envelope_item(Kind::System, source, line, &e);
        let mut text = format!(
            "Result: {}",
            if e.is_error == Some(true) {
                "error"
            } else {
                e.subtype.as_deref().unwrap_or("done")
            }
        );
        if let Some(n) = e.num_turns {
            text.push_str(&format!(" · {n} turns"));
        }
        if let Some(ms) = e.duration_ms_snake {
            text.push_str(&format!(" · {}", super::time::human_duration(ms as u64)));
        }
        if let Some(c) = e.total_cost_usd {
            text.push_str(&format!(" · ${c:.4}"));
        }
        if let Some(r) = e.result.as_deref().filter(|r| !r.is_empty()) {
            text.push('\n');
            text.push_str(r);
        }
        item.text = text;
        item.flags.error = e.is_error == Some(true);
        item.detail = Detail::System(Box::new(SystemInfo::StreamResult {
            cost_usd: e.total_cost_usd,
            duration_ms: e.duration_ms_snake,
            turns: e.num_turns,
        }));
        self.push(target, None, item);
        Outcome::Shown
    }
}

/// What a line is to the branch structure.
fn role_of(kind: &str, e: &RawEntry<'_>) -> Role {
    match kind {
        "user" => {
            if e.is_compact_summary == Some(true) {
                return Role::User;
            }
            match e.message.as_ref().and_then(|m| m.content.as_ref()) {
                Some(Content::Blocks(bs))
                    if !bs.is_empty()
                        && bs.iter().all(|b| b.kind.as_deref() == Some("tool_result")) =>
                {
                    Role::ToolResults
                }
                Some(_) => Role::User,
                None => Role::Side,
            }
        }
        "assistant" => {
            let id = e
                .message
                .as_ref()
                .and_then(|m| m.id.as_deref())
                .or(e.uuid.as_deref())
                .unwrap_or("");
            Role::Assistant(message_key(id))
        }
        _ => Role::Side,
    }
}

pub(super) fn target_agent(t: Target) -> u32 {
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

fn empty_object() -> Box<RawValue> {
    serde_json::from_str("{}").unwrap_or_else(|_| unreachable!("a literal empty object parses"))
}

enum Outcome {
    Shown,
    Hidden(&'static str),
}

/// The text of message content (string, or text blocks joined).
fn content_text(c: &Content<'_>) -> String {
    match c {
        Content::Text(t) => t.to_string(),
        Content::Blocks(bs) => {
            let mut out = String::new();
            for b in bs {
                let t = b.text.as_deref().or(b.thinking.as_deref()).unwrap_or("");
                if t.is_empty() {
                    continue;
                }
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(t);
            }
            out
        }
        Content::Other => String::new(),
    }
}

fn tool_result_text(c: Content<'_>, images: &mut Vec<Image>) -> String {
    match c {
        Content::Text(t) => t.into_owned(),
        Content::Blocks(bs) => {
            if let [only] = &bs[..] {
                if only.kind.as_deref() == Some("text") {
                    return bs
                        .into_iter()
                        .next()
                        .and_then(|b| b.text)
                        .map(Cow::into_owned)
                        .unwrap_or_default();
                }
            }
            let mut out = String::new();
            for b in bs {
                let piece: Cow<'_, str> = match b.kind.as_deref().unwrap_or("") {
                    "text" => b.text.clone().unwrap_or_default(),
                    "image" => {
                        let img = block_image(&b);
                        let p = img.placeholder();
                        images.push(img);
                        Cow::Owned(p)
                    }
                    "tool_reference" => {
                        Cow::Owned(format!("[tool {}]", b.tool_name.as_deref().unwrap_or("?")))
                    }
                    other => Cow::Owned(format!("[{other}]")),
                };
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&piece);
            }
            out
        }
        Content::Other => String::new(),
    }
}

fn block_image(b: &Block<'_>) -> Image {
    let src = b.source.as_ref();
    let media = src.and_then(|s| s.media_type.as_deref());
    let len = src
        .and_then(|s| s.data)
        .map_or(0, |d| d.get().len().saturating_sub(2));
    image_from_base64_len(media, len)
}

fn command_text(c: &CommandInfo) -> String {
    let mut t = c.name.clone();
    if !c.args.is_empty() {
        if !t.is_empty() {
            t.push(' ');
        }
        t.push_str(&c.args);
    }
    if let Some(o) = &c.output {
        if !t.is_empty() && !o.is_empty() {
            t.push('\n');
        }
        t.push_str(o);
    }
    t
}
