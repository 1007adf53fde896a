//! An answer's line taken in for its figures only. Three lines in ten
//! of a session are an assistant's, and their ingest (threads, envelopes,
//! pairing, links) was most of what a cold listing spent on them; the
//! figures read only what this keeps: each message once with the usage
//! of its latest line, its blocks as lean rows (`model::lean_rows`: their
//! place, their line's time, their message, a call's name), not items.
//! Decoding is the model's own, or `super::answer`'s for the common
//! shape; a line of any other shape (a sidechain, an agent's prompt, a
//! result the API ran, an error, a block of another kind, a uuid the
//! threads already hold, no time) is handed to the model whole, and a
//! uuid met twice among the lines kept here, or a row the model would
//! have put elsewhere, sends the session to be read again the usual way
//! (see `Session::lean_lines_hold`).
//! `tests/figures_fast.rs` holds the figures to a whole load's.

use super::raw::{Block, Content, RawEntry};
use crate::model::item::Category;
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
        // a row without a time is dated by the rows before it, which a
        // lean row does not know
        let Some(at) = super::ingest::time_of(e) else {
            return false;
        };
        if let Some(u) = e.uuid.as_deref() {
            if self.transcript_mut(target).threads.node(u).is_some() {
                // the threads tell what a line under this uuid is
                return false;
            }
            if let Some(l) = self.lean_lines.as_mut() {
                l.note(agent, u);
            }
        }
        // what `ingest_entry` notes of every line
        self.note_envelope(e);
        self.note_session_id(source, line, e);
        let m = self.answer_message_at(target, msg, Some(at));
        match &msg.content {
            Some(Content::Text(t)) if !t.is_blank() => self.push_lean(target, m, at, None),
            Some(Content::Blocks(blocks)) => {
                for b in blocks {
                    let call = match b.kind.as_deref().unwrap_or("") {
                        "text" if b.text.as_ref().is_none_or(|t| t.is_blank()) => continue,
                        "text" | "thinking" | "redacted_thinking" => None,
                        _ => Some((
                            b.name.as_deref().unwrap_or("?"),
                            b.id.as_deref().unwrap_or(""),
                        )),
                    };
                    self.push_lean(target, m, at, call);
                }
            }
            _ => {}
        }
        true
    }

    /// A row of message `m`, numbered as an item would be (see
    /// `model::lean_rows`).
    fn push_lean(&mut self, target: Target, m: Option<u32>, at: i64, call: Option<(&str, &str)>) {
        let id = self.next_id;
        self.next_id += 1;
        self.transcript_mut(target).push_lean_row(id, m, at, call);
    }
}

/// A block whose row the figures can be given without the model: text,
/// thinking, and calls other than an agent's (whose prompt links the
/// agent's own lines to it).
fn kept_block(b: &Block<'_>) -> bool {
    match b.kind.as_deref() {
        Some("text" | "thinking" | "redacted_thinking") => true,
        Some("tool_use" | "server_tool_use" | "mcp_tool_use") => {
            Category::of(b.name.as_deref().unwrap_or("?")) != Category::Subagent
        }
        _ => false,
    }
}
