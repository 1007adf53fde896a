//! Ingest of one decoded entry: metadata lines, routing to the main
//! transcript or a subagent, the `parentUuid` threads, and the envelope
//! every item carries.

use super::branch::{Role, message_key};
use super::item::*;
use super::raw::{Content, RawEntry};
use super::session::{Outcome, Session, Target};
use super::time::parse_timestamp;
use super::transcript::UuidSeen;
use std::hash::{Hash, Hasher};

impl Session {
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

    pub(super) fn ingest_entry(
        &mut self,
        source: u16,
        line: u32,
        e: RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        let kind = e.kind.as_deref().unwrap_or("");
        self.note_envelope(&e);
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
                if let Some(out) = self.queued_prompt(source, line, &e) {
                    return out;
                }
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
            match self.transcript_mut(target).note_uuid(u, fingerprint(&e)) {
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
        out
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
        let t = self.transcript_mut(target);
        let new = t.threads.node(u).is_none();
        if t.thread(u, parent, role, source, line) {
            self.changes.rebuilt = true;
        }
        if new {
            self.mark_threaded(target, u);
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

    pub(super) fn envelope_item(
        &mut self,
        kind: Kind,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
    ) -> Item {
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

    /// A prompt typed while Claude worked is recorded only as a
    /// `queued_command` attachment: it is a user row, marked queued.
    fn queued_prompt(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> Option<Outcome> {
        let a = e.attachment.as_ref()?;
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
        item.text = text.to_owned();
        item.flags.queued = true;
        self.push(target, None, item);
        Some(Outcome::Shown)
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
            None => Target::Main,
        };
        let mut item = self.envelope_item(Kind::Unknown, source, line, e);
        item.text = super::text::truncate(raw, 64 * 1024).into_owned();
        self.push(target, None, item);
        Outcome::Shown
    }
}

/// A cheap fingerprint of what a line says (not its envelope, which a
/// re-written line changes): per text its length and ends, and the ids.
fn fingerprint(e: &RawEntry<'_>) -> u64 {
    fn text(h: &mut rustc_hash::FxHasher, t: &str) {
        let b = t.as_bytes();
        b.len().hash(h);
        b[..b.len().min(32)].hash(h);
        b[b.len().saturating_sub(32)..].hash(h);
    }
    fn content(h: &mut rustc_hash::FxHasher, c: &Content<'_>) {
        match c {
            Content::Text(t) => text(h, t),
            Content::Blocks(bs) => {
                for b in bs {
                    for s in [
                        &b.kind,
                        &b.text,
                        &b.thinking,
                        &b.id,
                        &b.name,
                        &b.tool_use_id,
                    ] {
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
