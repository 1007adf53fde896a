//! An answer's line taken in for its figures only. Three lines in ten
//! of a session are an assistant's, and their ingest (threads, envelopes,
//! pairing, links) was most of what a cold listing spent on them; the
//! figures read only what this keeps: each message once with the usage
//! of its latest line, its blocks as rows in the order the model puts
//! them, dated by their line, and the calls by name. Decoding is the
//! model's own, or `super::answer`'s for the common shape; a line of any
//! other shape (a sidechain, an agent's prompt, a result the API ran, an
//! error, a block of another kind, a uuid the threads already hold) is
//! handed to the model whole, and a
//! uuid met twice among the lines kept here sends the session to be read
//! again the usual way (see `Session::lean_lines_hold`).
//! `tests/figures_fast.rs` holds the figures to a whole load's.

use super::raw::{Block, Content, RawEntry};
use crate::model::item::{Category, Detail, Kind, ToolCall};
use crate::model::session::{MAIN, Session, Target};

impl Session {
    /// Takes in the assistant line `e` for its figures; `false` (nothing
    /// done) when it is not of the shape kept here.
    pub(super) fn ingest_lean(&mut self, source: u16, line: u32, e: &RawEntry<'_>) -> bool {
        if self.lean_lines.is_none()
            || self.redacting
            || e.kind.as_deref() != Some("assistant")
            || e.digest.is_some()
        {
            return false;
        }
        let agent = self.sources.get(source as usize).and_then(|s| s.agent);
        let target = match agent {
            Some(a) => Target::Agent(a),
            // a main line once the file is known not to be an agent's own,
            // not routed by its sidechain or a call
            None if source == MAIN
                && matches!(self.lone_agent, Some(None))
                && e.is_sidechain != Some(true)
                && e.parent_tool_use_id.is_none() =>
            {
                Target::Main
            }
            None => return false,
        };
        let Some(msg) = e.message.as_ref() else {
            return false;
        };
        if msg.model.as_deref() == Some("<synthetic>") || e.is_api_error_message == Some(true) {
            return false;
        }
        let blocks: &[Block<'_>] = match &msg.content {
            Some(Content::Blocks(b)) => b,
            _ => &[],
        };
        if !blocks.iter().all(kept_block) {
            return false;
        }
        if let Some(u) = e.uuid.as_deref() {
            if self.transcript_mut(target).threads.node(u).is_some() {
                // the threads tell what a line under this uuid is
                return false;
            }
            let key = (agent, Box::from(u));
            if let Some(l) = self.lean_lines.as_mut()
                && !l.uuids.insert(key)
            {
                l.repeated = true;
            }
        }
        // what `ingest_entry` notes of every line
        self.note_envelope(e);
        self.note_session_id(source, line, e);
        let (at, m) = self.answer_message(target, e, msg);
        match &msg.content {
            Some(Content::Text(t)) if !t.is_blank() => {
                self.push_lean(target, source, line, m, at, Kind::Assistant, Detail::None);
            }
            Some(Content::Blocks(blocks)) => {
                for b in blocks {
                    let kind = b.kind.as_deref().unwrap_or("");
                    let (row, detail) = match kind {
                        "text" if b.text.as_ref().is_none_or(|t| t.is_blank()) => continue,
                        "text" => (Kind::Assistant, Detail::None),
                        "thinking" | "redacted_thinking" => (Kind::Thinking, Detail::None),
                        _ => {
                            let name = b.name.as_deref().unwrap_or("?").to_owned();
                            let call = ToolCall {
                                category: Category::of(&name),
                                id: b.id.as_deref().unwrap_or("").to_owned(),
                                name,
                                input: Default::default(),
                                summary: String::new(),
                                result: None,
                                server: kind == "server_tool_use",
                                agent: None,
                            };
                            (Kind::ToolCall, Detail::Call(Box::new(call)))
                        }
                    };
                    self.push_lean(target, source, line, m, at, row, detail);
                }
            }
            _ => {}
        }
        true
    }

    /// A row of message `m` where the model puts it (see
    /// `Transcript::position_for_message`).
    #[allow(clippy::too_many_arguments)]
    fn push_lean(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        m: Option<u32>,
        at: Option<i64>,
        kind: Kind,
        detail: Detail,
    ) {
        let mut item = self.new_item(kind, source, line);
        item.timestamp = at;
        item.message = m;
        item.detail = detail;
        let pos = m.map(|m| self.transcript_mut(target).position_for_message(m));
        self.push(target, pos, item);
    }
}

/// A block whose row the figures can be given without the model: text,
/// thinking, and calls other than an agent's (whose prompt links the
/// agent's own lines to it).
fn kept_block(b: &Block<'_>) -> bool {
    match b.kind.as_deref() {
        Some("text" | "thinking" | "redacted_thinking") => true,
        Some("tool_use" | "server_tool_use") => {
            Category::of(b.name.as_deref().unwrap_or("?")) != Category::Subagent
        }
        _ => false,
    }
}
