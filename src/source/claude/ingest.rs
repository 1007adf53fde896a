//! Ingest of one decoded entry: metadata lines, routing to the main
//! transcript or a subagent, the `parentUuid` threads, and the envelope
//! every item carries.

use super::raw::{Content, JsonStr, RawEntry};
use crate::model::branch::{Role, Uuid, message_key};
use crate::model::item::*;
use crate::model::session::{Outcome, Session, Target};
use crate::model::time::parse_timestamp;
use crate::model::transcript::UuidSeen;
use std::hash::{Hash, Hasher};

impl Session {
    /// The subagent whose inline sidechain holds `e`'s parent.
    fn agent_of_parent(&self, e: &RawEntry<'_>) -> Option<u32> {
        let parent = e.parent_uuid.as_deref()?;
        self.sidechain_uuid.get(parent).copied()
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
        let by_parent = self.agent_of_parent(e);
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
        self.agents[a as usize].has_record = true;
        Target::Agent(a)
    }

    pub(super) fn ingest_entry(
        &mut self,
        source: u16,
        line: u32,
        e: &mut RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        self.line_uuids = None;
        if source == crate::model::session::MAIN {
            self.as_lone_agent(e);
        }
        let kind = e.kind.as_deref().unwrap_or("");
        self.note_envelope(e);
        // a line of another kind that has a uuid may sit in the chain (as
        // attachments came to, and kinds Claude Code adds since): a link
        // the lines under it hang from, not a parent missing
        let conversation = matches!(
            kind,
            "user" | "assistant" | "system" | "result" | "progress" | "attachment"
        );
        if !conversation && e.uuid.is_some() {
            self.thread_side(source, line, e);
        }
        match kind {
            "user" | "assistant" | "system" | "result" => {}
            "summary" => {
                if let Some(s) = e.summary.as_deref() {
                    self.meta.titles.add_summary(s, e.leaf_uuid.as_deref());
                }
                return Outcome::Hidden("summary");
            }
            "ai-title" => {
                if let Some(t) = e.ai_title.as_deref() {
                    self.meta.titles.set_ai(t);
                }
                return Outcome::Hidden("ai-title");
            }
            "custom-title" => {
                if let Some(t) = e.custom_title.as_deref() {
                    self.meta.titles.set_custom(t);
                }
                return Outcome::Hidden("custom-title");
            }
            "last-prompt" => {
                self.meta.last_prompt = e.last_prompt.as_deref().map(str::to_owned);
                self.meta.leaf_uuid = e.leaf_uuid.as_deref().map(str::to_owned);
                if let Some(leaf) = e.leaf_uuid.as_deref()
                    && self.sources[source as usize].agent.is_none()
                    && self.main.set_leaf_hint(leaf)
                {
                    self.changes.rebuilt = true;
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
                if let Some(u) = e.pr_url.as_deref()
                    && !self.meta.pr_links.iter().any(|p| p == u)
                {
                    self.meta.pr_links.push(u.to_owned());
                }
                return Outcome::Hidden("pr-link");
            }
            "file-history-snapshot" => return Outcome::Hidden("file-history-snapshot"),
            "cost-state" => {
                // a running total: the last one is the session's
                if let Some(c) = e.total_cost_usd_camel.filter(|c| c.is_finite()) {
                    self.meta.cost_usd = Some(c);
                }
                return Outcome::Hidden("cost-state");
            }
            "continued-in" => return self.continued_in(source, line, e),
            "frame-link" => return self.frame_link(source, line, e),
            // remote-control bridge ids, file-history deltas, artifact
            // ledgers, worktree state: the harness's bookkeeping
            "atis-latch"
            | "bridge-session"
            | "file-history-delta"
            | "worktree-state"
            | "history-suppression"
            | "artifact-autoreact-ledger"
            | "artifact-comment-monitor" => return Outcome::Hidden("bookkeeping"),
            // Claude Code 2.1.2xx's other records of a session's state:
            // context-collapse bookkeeping, tool results kept apart,
            // forks' references, attribution, latches, a file moved
            "marble-origami-snapshot"
            | "marble-origami-reset"
            | "content-replacement"
            | "fork-context-ref"
            | "attribution-snapshot"
            | "isolation-latch"
            | "observer-ref"
            | "relocated"
            | "speculation-accept" => return Outcome::Hidden("bookkeeping"),
            "marble-origami-commit" => return self.context_collapse(source, line, e, raw),
            "queue-operation" => return Outcome::Hidden("queue-operation"),
            "progress" => {
                self.thread_side(source, line, e);
                let sub = e
                    .data
                    .as_ref()
                    .and_then(|d| d.kind.as_deref())
                    .unwrap_or("");
                if sub == "agent_progress" {
                    return self.agent_progress(source, line, e);
                }
                return Outcome::Hidden("progress");
            }
            "attachment" => {
                self.thread_side(source, line, e);
                if let Some(out) = self.queued_prompt(source, line, e) {
                    return out;
                }
                return self.attachment_row(source, line, e);
            }
            "agent-name" | "agent-color" | "tag" | "agent-setting" | "ended-by-model"
            | "task-summary" => return Outcome::Hidden("metadata"),
            _ => return self.unknown(source, line, e, raw),
        }
        let target = self.route(source, e);
        self.note_session_id(source, line, e);
        let role = e.digest.map_or_else(|| role_of(kind, e), |d| d.role);
        self.thread_line(target, source, line, e, role);
        if let Some(u) = e.uuid.as_deref() {
            let print = e.digest.map_or_else(|| fingerprint(e), |d| d.fingerprint);
            match self.transcript_mut(target).note_uuid(u, print) {
                UuidSeen::New => {}
                // the same line written again: shown once
                UuidSeen::Same if kind != "system" => return Outcome::Hidden("repeated uuid"),
                UuidSeen::Same => {}
                // another line under a used uuid: shown, and flagged
                UuidSeen::Different => self.collision = Some(Collision::Uuid),
            }
        }
        let out = match kind {
            "user" => self.ingest_user(target, source, line, e, raw),
            "assistant" => self.ingest_assistant(target, source, line, e, raw),
            "result" => self.ingest_stream_result(target, source, line, e),
            _ => self.ingest_system(target, source, line, e),
        };
        self.collision = None;
        self.line_uuids = None;
        out
    }

    /// A subagent's file opened on its own (`agent-<id>.jsonl`, or a copy
    /// of one under another name) holds only sidechain lines of one agent:
    /// they are its main transcript, so they are read as main lines.
    fn as_lone_agent(&mut self, e: &mut RawEntry<'_>) {
        if self.lone_agent.is_none() {
            if e.uuid.is_none() || !matches!(e.kind.as_deref(), Some("user" | "assistant")) {
                return;
            }
            let lone: Option<Box<str>> = (e.is_sidechain == Some(true))
                .then(|| e.agent_id.as_deref().map(Box::from))
                .flatten();
            if let Some(id) = &lone {
                self.meta.agent_id = Some(id.to_string());
            }
            self.lone_agent = Some(lone);
        }
        let Some(Some(id)) = &self.lone_agent else {
            return;
        };
        if e.is_sidechain == Some(true) && e.agent_id.as_deref().is_none_or(|a| a == &**id) {
            e.is_sidechain = Some(false);
            e.agent_id = None;
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
        let batching = self.batching > 0;
        let t = self.transcript_mut(target);
        if let (true, Target::Agent(a)) = (batching, target)
            && !t.in_batch()
        {
            t.begin_batch();
            self.batched_agents.push(a);
        }
        let t = self.transcript_mut(target);
        let before = t.threads.nodes.len();
        let rebuilt = t.thread(u, parent, role, source, line);
        // a new uuid is the node just added (found without a lookup: uuid
        // lookups were a quarter of a big load's ingest); a repeated one
        // keeps its first line's node, and its parent only if the same
        let new = t.threads.nodes.len() > before;
        let n = if new {
            u32::try_from(before).ok()
        } else {
            t.threads.node(u)
        };
        self.line_uuids = n
            .and_then(|n| t.threads.uuids(n))
            .map(|(u, p)| (u.clone(), p.filter(|p| Some(&***p) == parent).cloned()));
        if rebuilt {
            self.changes.rebuilt = true;
        }
        if let (true, Some(n)) = (new, n) {
            self.mark_threaded(target, n);
        }
    }

    /// Progress and attachment lines: threaded (the chain runs through
    /// them) but never shown, and never the reason to start an agent.
    fn thread_side(&mut self, source: u16, line: u32, e: &RawEntry<'_>) {
        let target = if let Some(a) = self.sources[source as usize].agent {
            Target::Agent(a)
        } else if e.is_sidechain == Some(true) {
            let Some(a) = self.agent_of_parent(e) else {
                return;
            };
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
    pub(super) fn note_session_id(&mut self, source: u16, line: u32, e: &RawEntry<'_>) {
        // a subagent's own file: its "Warmup" line has an id of its own
        if self.sources[source as usize].agent.is_some()
            || e.is_sidechain == Some(true)
            || e.agent_id.is_some()
            || self.meta.agent_id.is_some()
        {
            return;
        }
        if let Some(sid) = e.session_id.as_deref().or(e.session_id_snake.as_deref())
            && self.session_id_lines.last().is_none_or(|s| s.id != sid)
            && self.session_id_lines_seen.insert(sid.into())
        {
            self.session_id_lines
                .push(crate::model::session::SessionIdAt {
                    id: sid.to_owned(),
                    source,
                    line,
                });
        }
    }

    pub(super) fn note_envelope(&mut self, e: &RawEntry<'_>) {
        let m = &mut self.meta;
        if let Some(ts) = time_of(e) {
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
        if let Some(c) = e.cwd.as_deref()
            && m.cwd.as_deref() != Some(c)
        {
            m.cwd = Some(c.to_owned());
            self.changes.restyled = true;
        }
        if let Some(b) = e.git_branch.as_deref().filter(|b| !b.is_empty())
            && m.git_branch.as_deref() != Some(b)
        {
            m.git_branch = Some(b.to_owned());
        }
        if let Some(v) = e.version.as_deref()
            && m.version.as_deref() != Some(v)
        {
            m.version = Some(v.to_owned());
        }
        if let Some(sid) = e.session_id.as_deref().or(e.session_id_snake.as_deref())
            && m.session_ids.last().is_none_or(|s| s != sid)
            && self.session_ids_seen.insert(sid.into())
        {
            self.meta.session_ids.push(sid.to_owned());
        }
    }

    pub(super) fn envelope_item(
        &mut self,
        kind: Kind,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
    ) -> Item {
        let mut item = self.new_item(kind, source, line);
        let parent = e
            .parent_uuid
            .as_deref()
            .or(e.logical_parent_uuid.as_deref());
        (item.uuid, item.parent_uuid) = self.shared_uuids(e.uuid.as_deref(), parent);
        item.timestamp = time_of(e);
        item
    }

    /// `uuid` and `parent` as kept: shared with the line's node when the
    /// line is threaded, copied otherwise.
    pub(super) fn shared_uuids(
        &self,
        uuid: Option<&str>,
        parent: Option<&str>,
    ) -> (Option<Uuid>, Option<Uuid>) {
        let kept = self.line_uuids.as_ref();
        let uuid = uuid.map(|u| match kept {
            Some((k, _)) if **k == *u => k.clone(),
            _ => Uuid::from(u),
        });
        let parent = parent.map(|p| match kept.and_then(|(_, p)| p.as_ref()) {
            Some(k) if **k == *p => k.clone(),
            _ => Uuid::from(p),
        });
        (uuid, parent)
    }

    /// A prompt typed while Claude worked is recorded only as a
    /// `queued_command` attachment: it is a user row, marked queued.
    fn queued_prompt(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Option<Outcome> {
        let a = e.attachment()?;
        if a.kind.as_deref() != Some("queued_command")
            || a.command_mode.as_deref().is_some_and(|m| m != "prompt")
        {
            return None;
        }
        let text = a.prompt.as_deref().filter(|p| !p.trim().is_empty())?;
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None if e.is_sidechain == Some(true) => return None,
            None => Target::Main,
        };
        let mut item = self.envelope_item(Kind::User, source, line, e);
        item.text = text.to_owned().into();
        item.flags.queued = true;
        self.push(target, None, item);
        Some(Outcome::Shown)
    }

    /// `agent_progress`: a copy of a subagent's line, written into the main
    /// file as the subagent works. Hidden when the subagent has a record of
    /// its own; otherwise (a copied session without its `subagents/`
    /// folder) the only record of what it did, shown under its call.
    fn agent_progress(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Outcome {
        const REASON: &str = "agent_progress";
        let Some(d) = e.data.as_ref() else {
            return Outcome::Hidden(REASON);
        };
        let (Some(agent_id), Some(msg)) = (d.agent_id.as_deref(), d.message) else {
            return Outcome::Hidden(REASON);
        };
        if self.sources[source as usize].agent.is_some() || e.is_sidechain == Some(true) {
            return Outcome::Hidden(REASON);
        }
        let a = self.agent_for_id(agent_id);
        if self.agents[a as usize].has_record {
            return Outcome::Hidden(REASON);
        }
        if let Some(tool) = e.parent_tool_use_id_camel.as_deref() {
            self.link_agent_to_tool(a, tool);
        }
        // the line it copies, an answer of the common shape read by the
        // answer reader (held to serde), any other by serde
        let mut inner = RawEntry::default();
        if !super::answer::read_whole_into(msg.get(), &mut inner) {
            let Ok(e) = serde_json::from_str::<RawEntry<'_>>(msg.get()) else {
                return Outcome::Hidden(REASON);
            };
            inner = e;
        }
        let target = Target::Agent(a);
        if let Some(u) = inner.uuid.as_deref() {
            // the same line mirrored twice, or also in the agent's own file
            if self
                .transcript_mut(target)
                .note_uuid(u, fingerprint(&inner))
                != UuidSeen::New
            {
                return Outcome::Hidden(REASON);
            }
        }
        self.agents[a as usize].mirrored = true;
        match inner.kind.as_deref() {
            Some("user") => self.ingest_user(target, source, line, &mut inner, msg.get()),
            Some("assistant") => self.ingest_assistant(target, source, line, &mut inner, msg.get()),
            _ => Outcome::Hidden(REASON),
        }
    }

    /// `continued-in`: the conversation goes on in another session file,
    /// which `>` opens.
    fn continued_in(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Outcome {
        let Some(id) = e
            .continued_in_session_id
            .as_deref()
            .filter(|id| crate::model::session::is_session_id(id))
        else {
            return Outcome::Hidden("continued-in");
        };
        if self.sources[source as usize].agent.is_some() {
            return Outcome::Hidden("continued-in");
        }
        self.meta.continued_in = Some(id.to_owned());
        let mut item = self.envelope_item(Kind::System, source, line, e);
        item.text = format!("Continued in session {id}").into();
        item.detail = Detail::System(Box::new(SystemInfo::ContinuedIn {
            session_id: id.to_owned(),
        }));
        self.push(Target::Main, None, item);
        Outcome::Shown
    }

    /// `marble-origami-commit`: a span of the conversation collapsed
    /// into a summary, which the model sees in its place from then on (as
    /// after a compaction, of a part only). Shown as a system row: its
    /// `summary`, then the `summaryContent` that stands for the span.
    fn context_collapse(&mut self, source: u16, line: u32, e: &RawEntry<'_>, raw: &str) -> Outcome {
        #[derive(serde::Deserialize, Default)]
        #[serde(default, rename_all = "camelCase")]
        struct Commit {
            summary: Option<String>,
            summary_content: Option<String>,
        }
        let c: Commit = serde_json::from_str(raw).unwrap_or_default();
        let text = |t: Option<String>| t.filter(|t| !t.trim().is_empty());
        let (summary, content) = (text(c.summary), text(c.summary_content));
        let mut shown = String::from("Context collapsed");
        if let Some(s) = &summary {
            shown.push_str(": ");
            shown.push_str(s.trim());
        }
        if let Some(c) = &content {
            shown.push_str("\n\n");
            shown.push_str(c);
        }
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        let mut item = self.envelope_item(Kind::System, source, line, e);
        item.text = shown.into();
        self.push(target, None, item);
        Outcome::Shown
    }

    /// `frame-link`: an artifact published from the session.
    fn frame_link(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Outcome {
        let parts: Vec<&str> = [
            e.title.as_deref(),
            e.frame_url.as_deref(),
            e.path.as_deref(),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .collect();
        if parts.is_empty() || self.sources[source as usize].agent.is_some() {
            return Outcome::Hidden("frame-link");
        }
        let mut item = self.envelope_item(Kind::Meta, source, line, e);
        item.text = format!("Artifact published: {}", parts.join(" · ")).into();
        self.push(Target::Main, None, item);
        Outcome::Shown
    }

    /// Any other attachment: a meta row when it carries something a reader
    /// wants (see `attachment`), else hidden and counted.
    fn attachment_row(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Outcome {
        let Some(a) = e.attachment() else {
            return Outcome::Hidden("attachment");
        };
        if let Some(h) = a.hook_name.as_deref().or(a.hook_event.as_deref())
            && !self.meta.hooks.iter().any(|x| x == h)
        {
            self.meta.hooks.push(h.to_owned());
        }
        let kind = a.kind.as_deref().unwrap_or("");
        let raw = e.attachment.map_or("", |r| r.get());
        let (text, error) = match super::attachment::describe(kind, raw) {
            super::attachment::Shown::Hidden(why) => return Outcome::Hidden(why),
            super::attachment::Shown::Row { text, error } => (text, error),
        };
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None if e.is_sidechain == Some(true) => return Outcome::Hidden("attachment"),
            None => Target::Main,
        };
        let kind = if error { Kind::System } else { Kind::Meta };
        let mut item = self.envelope_item(kind, source, line, e);
        item.text = text.into();
        item.flags.error = error;
        self.push(target, None, item);
        Outcome::Shown
    }

    /// The text of one more row of an unknown kind (a line's or a
    /// block's), `None` past the [`Session::MOST_UNKNOWN_ROWS`] a session
    /// shows; the last says so first (what its row shows folded).
    pub(super) fn unknown_row(&mut self, text: String) -> Option<String> {
        if self.unknown_rows >= Session::MOST_UNKNOWN_ROWS {
            return None;
        }
        self.unknown_rows += 1;
        Some(if self.unknown_rows == Session::MOST_UNKNOWN_ROWS {
            format!(
                "[ccv shows 10,000 rows of unknown kinds at most: any after this one are hidden, and counted]\n{text}"
            )
        } else {
            text
        })
    }

    pub(super) fn unknown(
        &mut self,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            // a line of an inline sidechain (the main file's copy of a
            // subagent's): its agent's, as its parent is
            None if e.is_sidechain == Some(true) => {
                self.agent_of_parent(e).map_or(Target::Main, Target::Agent)
            }
            None => Target::Main,
        };
        let text = crate::model::text::truncate(raw, 64 * 1024).into_owned();
        let Some(text) = self.unknown_row(text) else {
            return Outcome::Hidden("lines of unknown kinds past the first 10,000");
        };
        let mut item = self.envelope_item(Kind::Unknown, source, line, e);
        item.text = text.into();
        self.push(target, None, item);
        Outcome::Shown
    }
}

/// What the ingest computes from `e` alone, worked out ahead (on the
/// thread that decoded it): its fingerprint, time and role, and (when
/// `summaries`) the summaries of its calls.
pub(super) fn digest(e: &mut RawEntry<'_>, summaries: bool) {
    let kind = e.kind.as_deref().unwrap_or("");
    e.digest = Some(super::raw::Digest {
        fingerprint: fingerprint(e),
        time: e.timestamp.as_deref().and_then(parse_timestamp),
        role: role_of(kind, e),
    });
    if kind != "assistant" || !summaries {
        return;
    }
    if let Some(Content::Blocks(blocks)) = e.message.as_mut().and_then(|m| m.content.as_mut()) {
        for b in blocks {
            if matches!(
                b.kind.as_deref(),
                Some("tool_use" | "server_tool_use" | "mcp_tool_use")
            ) {
                let name = b.name.as_deref().unwrap_or("?");
                let input = b.input.map_or("{}", |r| r.get());
                b.summary = Some(super::summary::call_summary(name, input));
            }
        }
    }
}

/// When an entry was written.
pub(super) fn time_of(e: &RawEntry<'_>) -> Option<i64> {
    match e.digest {
        Some(d) => d.time,
        None => e.timestamp.as_deref().and_then(parse_timestamp),
    }
}

/// A cheap fingerprint of what a line says (not its envelope, which a
/// re-written line changes): per text its length and ends, and the ids.
pub(super) fn fingerprint(e: &RawEntry<'_>) -> u64 {
    fn text(h: &mut rustc_hash::FxHasher, t: &str) {
        let b = t.as_bytes();
        b.len().hash(h);
        b[..b.len().min(32)].hash(h);
        b[b.len().saturating_sub(32)..].hash(h);
    }
    // a string as written when it was not decoded: the same line gives
    // the same form wherever it is read (see `JsonStr`)
    fn json_str(h: &mut rustc_hash::FxHasher, s: Option<&JsonStr<'_>>) {
        match s {
            Some(JsonStr::Token(t)) => text(h, t),
            Some(JsonStr::Text(t)) => text(h, t),
            None => text(h, ""),
        }
    }
    fn content(h: &mut rustc_hash::FxHasher, c: &Content<'_>) {
        match c {
            Content::Text(t) => json_str(h, Some(t)),
            Content::Blocks(bs) => {
                for b in bs {
                    text(h, b.kind.as_deref().unwrap_or(""));
                    json_str(h, b.text.as_ref());
                    json_str(h, b.thinking.as_ref());
                    for s in [&b.id, &b.name, &b.tool_use_id] {
                        text(h, s.as_deref().unwrap_or(""));
                    }
                    text(h, b.input.map_or("", |r| r.get()));
                    if let Some(c) = &b.content {
                        content(h, c);
                    }
                }
            }
            Content::Other => 0u8.hash(h),
        }
    }
    let mut h = rustc_hash::FxHasher::default();
    text(&mut h, e.kind.as_deref().unwrap_or(""));
    text(&mut h, e.subtype.as_deref().unwrap_or(""));
    if let Some(m) = &e.message {
        text(&mut h, m.id.as_deref().unwrap_or(""));
        if let Some(c) = &m.content {
            content(&mut h, c);
        }
    }
    if let Some(c) = &e.content {
        content(&mut h, c);
    }
    h.finish()
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

/// The text of message content (string, or text blocks joined).
pub(super) fn content_text(c: &Content<'_>) -> String {
    match c {
        Content::Text(t) => t.text().into_owned(),
        Content::Blocks(bs) => {
            let mut out = String::new();
            for b in bs {
                let t = b.text.as_ref().or(b.thinking.as_ref());
                let t = t.map(JsonStr::text).unwrap_or_default();
                if t.is_empty() {
                    continue;
                }
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&t);
            }
            out
        }
        Content::Other => String::new(),
    }
}
