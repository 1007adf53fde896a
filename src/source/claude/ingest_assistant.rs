//! Ingest of assistant lines: text, thinking and tool-call blocks, kept
//! together per message.

use super::ingest::content_text;
use super::raw::{Block, Content, RawEntry, RawMessage};
use super::summary::call_summary;
use crate::model::item::*;
use crate::model::session::{Outcome, Session, Target, push_unique};

impl Session {
    pub(super) fn ingest_assistant(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &mut RawEntry<'_>,
        raw: &str,
    ) -> Outcome {
        let Some(msg) = e.message.take() else {
            return self.unknown(source, line, e, raw);
        };
        let synthetic =
            msg.model.as_deref() == Some("<synthetic>") || e.is_api_error_message == Some(true);
        if synthetic && e.is_api_error_message != Some(true) && no_response(&msg) {
            // what Claude Code writes in the model's place when a turn ends
            // unanswered (interrupted, resumed): no error, no answer
            return Outcome::Hidden("no response requested (Claude Code's, not the model's)");
        }
        if synthetic {
            let mut item = self.envelope_item(Kind::System, source, line, e);
            item.text = msg
                .content
                .as_ref()
                .map(content_text)
                .unwrap_or_default()
                .into();
            item.flags.error = true;
            item.flags.synthetic = true;
            self.push(target, None, item);
            return Outcome::Shown;
        }
        let (_, m) = self.answer_message(target, e, &msg);
        let mut shown = false;
        match msg.content {
            Some(Content::Text(t)) if !t.is_blank() => {
                let mut item = self.envelope_item(Kind::Assistant, source, line, e);
                item.text = self.text_in_file(source, t);
                item.message = m;
                self.push_block(target, m, item);
                shown = true;
            }
            Some(Content::Blocks(blocks)) => {
                for b in blocks {
                    shown |= self.assistant_block(target, source, line, e, m, b);
                }
            }
            _ => {}
        }
        if shown {
            Outcome::Shown
        } else {
            Outcome::Hidden("empty or whitespace-only message")
        }
    }

    /// What an answer's line makes of its message, wherever it is read
    /// (here or lean, for figures): the session's model noted, the
    /// message upserted with the line's usage. Returns the line's time and
    /// the message's index.
    pub(super) fn answer_message(
        &mut self,
        target: Target,
        e: &RawEntry<'_>,
        msg: &RawMessage<'_>,
    ) -> (Option<i64>, Option<u32>) {
        let at = super::ingest::time_of(e);
        (at, self.answer_message_at(target, msg, at))
    }

    /// [`Self::answer_message`] of a line read at `at`: the message's index.
    pub(super) fn answer_message_at(
        &mut self,
        target: Target,
        msg: &RawMessage<'_>,
        at: Option<i64>,
    ) -> Option<u32> {
        if target == Target::Main
            && let Some(m) = msg.model.as_deref()
            && self.meta.model.as_deref() != Some(m)
        {
            self.meta.model = Some(m.to_owned());
        }
        let totals = !self.no_totals;
        let Some(id) = msg.id.as_deref() else {
            // a message written without its id (by a tool that rewrote the
            // file; Claude Code writes one on every answer) still cost
            // what its usage says. Its lines are told apart by that usage,
            // which each line of one message repeats, so it is counted
            // once however the file is read (whole or in parts). Its
            // blocks are not grouped under it: that key may say two
            // answers are one, which a count survives and an order not.
            let u = msg.usage?;
            let id = usage_key(msg.model.as_deref(), &u);
            self.transcript_mut(target).upsert_message(
                &id,
                msg.model.as_deref(),
                Some(u),
                at,
                totals,
            );
            return None;
        };
        Some(self.transcript_mut(target).upsert_message(
            id,
            msg.model.as_deref(),
            msg.usage,
            at,
            totals,
        ))
    }

    /// An update (or a read) of a task names it by its id: the subject it
    /// was made with (or last given) says which (`#3 completed · Ship
    /// it`). One that gives a subject says it itself.
    fn note_task(&mut self, call: crate::model::ItemId, input: &str) {
        let Some((id, subject)) = super::summary::task_named(input) else {
            return;
        };
        if let Some(subject) = subject {
            let first = crate::model::text::first_line(&subject, 160);
            self.tasks_made.insert(id.into(), first.into());
        } else if let Some(subject) = self.tasks_made.get(id.as_str()) {
            let note = crate::model::session::TaskNote::About(subject.clone());
            self.task_notes.insert(call, note);
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
            if let Detail::Call(c) = &it.detail
                && c.result.is_none()
                && !c.server
            {
                lost.push(it.id);
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
        mut b: Block<'_>,
    ) -> bool {
        let kind = b.kind.as_deref().unwrap_or("");
        let mut item = match kind {
            "text" => {
                let text = b.text.unwrap_or_default();
                if text.is_blank() {
                    // `"\n\n"` opens most 2.1.x turns: nothing to read
                    return false;
                }
                let mut item = self.envelope_item(Kind::Assistant, source, line, e);
                item.text = self.text_in_file(source, text);
                item
            }
            "thinking" => {
                let mut item = self.envelope_item(Kind::Thinking, source, line, e);
                let t = b.thinking.unwrap_or_default();
                item.flags.thinking_hidden = t.is_blank();
                item.text = self.text_in_file(source, t);
                item
            }
            "redacted_thinking" => {
                let mut item = self.envelope_item(Kind::Thinking, source, line, e);
                item.flags.redacted = true;
                item.flags.thinking_hidden = true;
                item
            }
            "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                let id = b.id.as_deref().unwrap_or("").to_owned();
                let reused =
                    !id.is_empty() && self.transcript_mut(target).tool_call_index(&id).is_some();
                let name = b.name.as_deref().unwrap_or("?").to_owned();
                let raw = b.input.map_or("{}", |r| r.get());
                let summary = match b.summary.take() {
                    Some(s) => s,
                    None if self.no_call_summaries => String::new(),
                    None => call_summary(&name, raw),
                };
                // a subagent's prompt is read again as its transcript comes
                let input = if matches!(name.as_str(), "Task" | "Agent") {
                    raw.into()
                } else {
                    self.json_in_file(source, raw)
                };
                let mut item = self.envelope_item(Kind::ToolCall, source, line, e);
                if reused {
                    // shown as its own row, and flagged
                    item.flags.collision = Some(Collision::ToolUseId);
                }
                if matches!(name.as_str(), "TaskUpdate" | "TaskGet") {
                    self.note_task(item.id, raw);
                }
                item.text = summary.into();
                let category = Category::of(&name);
                if category == Category::Subagent && !id.is_empty() {
                    self.agent_call_ids.insert(id.as_str().into());
                }
                let task_prompt = (category == Category::Subagent)
                    .then(|| crate::model::agents::task_prompt(raw))
                    .flatten();
                item.detail = Detail::Call(Box::new(ToolCall {
                    category,
                    task_prompt,
                    id,
                    name,
                    input,
                    result: None,
                    // run by the API (a web search, an MCP connector's
                    // tool): its result comes in the same answer
                    server: kind != "tool_use",
                    agent: None,
                }));
                item
            }
            k if k.ends_with("_tool_result") || (b.tool_use_id.is_some() && k != "text") => {
                // web_search_tool_result and friends: results the API ran.
                return self.tool_result(target, source, line, e, b, None);
            }
            _ => return self.unknown_block(target, source, line, e, &b),
        };
        item.message = m;
        let is_call = item.kind == Kind::ToolCall;
        let item_id = item.id;
        let idx = self.push_block(target, m, item);
        if is_call {
            self.adopt_waiting_result(target, idx);
        }
        if kind == "tool_use" {
            // where it is now: adopting a result may have moved it
            let t = self.transcript_mut(target);
            let idx = match t.items.get(idx) {
                Some(i) if i.id == item_id => idx,
                _ => t.index_of(item_id).unwrap_or(idx),
            };
            self.link_call_by_prompt(target, idx);
        }
        true
    }
}

/// Whether an answer says only `No response requested.`: Claude Code's
/// own line for a turn that ended unanswered, not an API error.
fn no_response(msg: &super::raw::RawMessage<'_>) -> bool {
    msg.content
        .as_ref()
        .map(content_text)
        .is_some_and(|t| t.trim() == "No response requested.")
}

/// The key a message without an id is counted under: its model and
/// usage, which no message id (`msg_…`, a UUID) can be.
fn usage_key(model: Option<&str>, u: &crate::model::usage::Usage) -> String {
    let c = &u.cache_creation;
    format!(
        "\u{1}{} {} {} {} {} {:?} {}",
        model.unwrap_or(""),
        u.input_tokens,
        u.output_tokens,
        u.cache_creation_input_tokens,
        u.cache_read_input_tokens,
        c,
        u.fast,
    )
}
