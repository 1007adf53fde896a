//! Ingest of user lines: prompts, commands, meta text, images and the
//! tool results that pair with their calls.

use super::classify::{UserText, classify_user_text, image_from_base64_len, mentioned_files};
use super::ingest::content_text;
use super::raw::{Block, Content, JsonStr, RawEntry, UseResult};
use crate::model::item::*;
use crate::model::session::{Outcome, Session, Target, push_unique};
use std::borrow::Cow;

impl Session {
    pub(super) fn ingest_user(
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
        let content = msg.content;
        if e.is_compact_summary == Some(true) {
            let mut item = self.envelope_item(Kind::Compaction, source, line, e);
            item.text = content
                .as_ref()
                .map(content_text)
                .unwrap_or_default()
                .into();
            self.push(target, None, item);
            return Outcome::Shown;
        }
        let is_meta = e.is_meta == Some(true);
        let mut shown = false;
        let mut tur = e.tool_use_result.take();
        let at = Origin {
            target,
            source,
            line,
            e,
            is_meta,
        };
        match content {
            Some(Content::Text(t)) => {
                shown = self.user_text(&at, None, Some(t), Vec::new());
            }
            Some(Content::Blocks(blocks)) => {
                // Text and image blocks of one prompt make one row; any
                // other block ends the prompt so far.
                let mut prompt = Prompt::default();
                for b in blocks {
                    let kind = b.kind.as_deref().unwrap_or("");
                    let written = b.text.clone().unwrap_or_default();
                    let text = written.text();
                    let text = text.as_ref();
                    if kind == "image" {
                        prompt.images.push(block_image(&b));
                        shown = true;
                        continue;
                    }
                    if kind == "document" {
                        prompt.push(&document_placeholder(&b), None);
                        shown = true;
                        continue;
                    }
                    if kind == "text" && !is_meta && classify_user_text(text) == UserText::Prompt {
                        prompt.push(text, Some(written.clone()));
                        shown = true;
                        continue;
                    }
                    self.flush_prompt(&at, &mut prompt);
                    match kind {
                        "text" => {
                            shown |=
                                self.user_text(&at, Some(text), Some(written.clone()), Vec::new());
                        }
                        "tool_result" => {
                            shown |= self.tool_result(target, source, line, at.e, b, tur.take());
                        }
                        _ => {
                            shown |= self.unknown_block(target, source, line, at.e, &b);
                        }
                    }
                }
                self.flush_prompt(&at, &mut prompt);
            }
            _ => {}
        }
        if shown {
            Outcome::Shown
        } else {
            Outcome::Hidden("empty message")
        }
    }

    fn flush_prompt(&mut self, at: &Origin<'_, '_>, prompt: &mut Prompt<'_>) {
        let Prompt {
            text,
            images,
            written,
            pieces,
        } = std::mem::take(prompt);
        if text.is_empty() && images.is_empty() {
            return;
        }
        let written = written.filter(|_| pieces == 1);
        self.user_text(at, Some(&text), written, images);
    }

    /// One row for a user text; false when there is nothing to show (an
    /// empty command output). `written`: the string of the line `text` is,
    /// when it is one (a prompt made of pieces is held: it is nowhere in
    /// the line as one).
    fn user_text(
        &mut self,
        at: &Origin<'_, '_>,
        text: Option<&str>,
        written: Option<JsonStr<'_>>,
        images: Vec<Image>,
    ) -> bool {
        // the text is the string's own unless given (a prompt of pieces);
        // the string is then moved, not copied, to where it is kept: a
        // prompt of 50 MB was held twice
        let own = written
            .as_ref()
            .filter(|_| text.is_none())
            .map(JsonStr::text);
        let text = text.or(own.as_deref()).unwrap_or_default();
        let Origin {
            target,
            source,
            line,
            e,
            is_meta,
        } = *at;
        let class = if is_meta {
            UserText::Meta
        } else {
            classify_user_text(text)
        };
        // a teammate's session opens with its task: that is its first prompt
        let task = (target == Target::Main
            && !is_meta
            && class == UserText::Meta
            && self.meta.titles.first_prompt.is_none())
        .then(|| super::classify::teammate_message(text))
        .flatten();
        if target == Target::Main && !is_meta && self.meta.titles.first_prompt.is_none() {
            self.meta.titles.note_user(text, images.len());
        }
        if let Some(m) = task {
            let mut item = self.envelope_item(Kind::User, source, line, e);
            item.text = m.text().into();
            item.flags.from_lead = true;
            self.push(target, None, item);
            return true;
        }
        let item = match class {
            UserText::Meta => {
                let mut item = self.envelope_item(Kind::Meta, source, line, e);
                item.text = text.to_owned().into();
                item
            }
            UserText::Command(c)
                if c.name.is_empty()
                    && c.args.is_empty()
                    && c.output.as_deref().is_none_or(|o| o.trim().is_empty()) =>
            {
                return false;
            }
            UserText::Command(c) => {
                let mut item = self.envelope_item(Kind::Command, source, line, e);
                item.text = command_text(&c).into();
                item.detail = Detail::Command(Box::new(c));
                item
            }
            UserText::Prompt => {
                let mut item = self.envelope_item(Kind::User, source, line, e);
                let files = mentioned_files(text);
                if let Target::Agent(a) = target
                    && self.agents[a as usize].prompt.is_none()
                {
                    self.agents[a as usize].prompt = Some(text.to_owned());
                    self.link_by_prompt(a);
                }
                let held = (written.is_none() || !images.is_empty()).then(|| {
                    let mut t = text.to_owned();
                    for img in &images {
                        if !t.is_empty() {
                            t.push('\n');
                        }
                        t.push_str(&img.placeholder());
                    }
                    t
                });
                drop(own);
                item.text = match (held, written) {
                    (None, Some(w)) => self.text_in_file(source, w),
                    (held, _) => held.unwrap_or_default().into(),
                };
                if !files.is_empty() || !images.is_empty() {
                    item.detail = Detail::Prompt(Box::new(PromptInfo { files, images }));
                }
                item
            }
        };
        self.push(target, None, item);
        true
    }

    /// A block of a kind ccv does not know, as a row of its own (one of
    /// the [`Session::MOST_UNKNOWN_ROWS`] a session shows). Returns
    /// whether it is shown.
    pub(super) fn unknown_block(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        b: &Block<'_>,
    ) -> bool {
        let kind = b.kind.as_deref().unwrap_or("?");
        let text = match b.text.as_ref().map(JsonStr::text) {
            Some(t) => format!("[{kind} block]\n{t}"),
            None => format!("[{kind} block]"),
        };
        let Some(text) = self.unknown_row(text) else {
            return false;
        };
        let mut item = self.envelope_item(Kind::Unknown, source, line, e);
        item.text = text.into();
        self.push(target, None, item);
        true
    }

    /// Attaches a result to its call. Returns whether anything is shown.
    pub(super) fn tool_result(
        &mut self,
        target: Target,
        source: u16,
        line: u32,
        e: &RawEntry<'_>,
        b: Block<'_>,
        extra: Option<UseResult>,
    ) -> bool {
        let (extra, task, made) = extra.map_or((None, None, None), |x| {
            (Some(x.kept), x.task, x.created_task)
        });
        // (named by the result of a call of a subagent only: the figures'
        // read looks for the name in those results alone)
        if let Some(agent) = extra.as_ref().and_then(|x| x.agent_id.as_deref())
            && !self.agents_named.contains(agent)
            && b.tool_use_id
                .as_deref()
                .is_some_and(|id| self.agent_call_ids.contains(id))
        {
            self.agents_named.insert(agent.into());
        }
        let mut images = Vec::new();
        // one string as written: what a search can rule out on its raw bytes
        // (placeholders of images and documents are not in it)
        let plain = match b.content.as_deref() {
            Some(Content::Text(_)) => true,
            Some(Content::Blocks(bs)) => {
                matches!(&bs[..], [only] if only.kind.as_deref() == Some("text"))
            }
            _ => false,
        };
        let text = b
            .content
            .filter(|_| !self.no_result_texts)
            .map(|c| tool_result_text(*c, &mut images))
            .unwrap_or_default();
        let is_error = b.is_error == Some(true);
        let id = b.tool_use_id.as_deref().unwrap_or("");
        let call = self.transcript_mut(target).call_for_result(id);
        // errors, answers to questions (their rows show the answer) and
        // results waiting for their call are few and held
        let asked = call.is_some_and(|i| {
            matches!(self.transcript_mut(target).items.get(i).map(|it| &it.detail),
                Some(Detail::Call(c)) if c.name == "AskUserQuestion")
        });
        let text = if call.is_some() && !is_error && !asked && plain {
            self.text_in_file(source, text)
        } else {
            text.into_text().into_owned().into()
        };
        let result = ToolResult {
            // a result on its call has the call's id: a copy of it was
            // one more string for each result
            tool_use_id: if call.is_some() {
                String::new()
            } else {
                id.to_owned()
            },
            source,
            line,
            uuid: self.shared_uuids(e.uuid.as_deref(), None).0,
            timestamp: super::ingest::time_of(e),
            text,
            is_error,
            images,
            extra: extra.filter(|x| !x.is_empty()).map(Box::new),
        };
        if let Some(idx) = call {
            // a task made: its row says its id, as its updates' rows do
            if let Some(made) = made
                && let Some(item) = self.transcript_mut(target).items.get(idx)
                && matches!(&item.detail, Detail::Call(c) if c.name == "TaskCreate")
                && let Some(subject) = item.text.get().filter(|s| !s.is_empty())
            {
                let (subject, call): (Box<str>, _) = (Box::from(subject), item.id);
                self.task_notes
                    .insert(call, crate::model::session::TaskNote::Made(made.clone()));
                self.tasks_made.insert(made, subject);
            }
            if let Some(task) = task
                && let Some(item) = self.transcript_mut(target).items.get(idx)
            {
                let call = crate::model::agents::CallRef {
                    holder: target,
                    item: item.id,
                };
                self.background_tasks.insert(task, call);
            }
            self.attach_result(target, idx, result);
            return true;
        }
        // a lean call's (see `model::lean_rows`): on its call, which no
        // figure reads
        if !id.is_empty()
            && let Some(lean) = &mut self.transcript_mut(target).lean
            && lean.answer(id)
        {
            return true;
        }
        // a call that has its result already: a second result is shown on
        // its own and flagged; no call at all: shown on its own, waiting for
        // a call written after it (parallel calls do that)
        let repeated = !id.is_empty() && self.transcript_mut(target).tool_call_index(id).is_some();
        let mut item = self.envelope_item(Kind::ToolResult, source, line, e);
        item.flags.error = result.is_error;
        if repeated {
            item.flags.collision = Some(Collision::Result);
        }
        item.detail = Detail::OrphanResult(Box::new(result));
        let item_id = item.id;
        self.push(target, None, item);
        if !repeated && !id.is_empty() {
            self.transcript_mut(target)
                .waiting_results
                .entry(id.to_owned())
                .or_default()
                .push(item_id);
        }
        true
    }

    /// Gives the call at `idx` its result.
    pub(super) fn attach_result(&mut self, target: Target, idx: usize, result: ToolResult) {
        let agent_id = result
            .extra
            .as_ref()
            .and_then(|x| x.agent_id.as_deref().map(String::from));
        let t = self.transcript_mut(target);
        let Some(item) = t.items.get_mut(idx) else {
            return;
        };
        let Detail::Call(call) = &mut item.detail else {
            return;
        };
        call.result = Some(result);
        let item_id = item.id;
        if let Some(agent_id) = agent_id {
            let a = self.agent_for_id(&agent_id);
            self.link(a, target, item_id);
        }
        push_unique(&mut self.changes.updated, item_id);
        self.mark_answered(target, item_id);
    }

    /// A call just pushed at `idx`: a result written before it (shown on
    /// its own so far) moves onto it.
    pub(super) fn adopt_waiting_result(&mut self, target: Target, idx: usize) {
        let t = self.transcript_mut(target);
        let Some(Detail::Call(c)) = t.items.get(idx).map(|i| &i.detail) else {
            return;
        };
        let Some(waiting) = t.waiting_results.get_mut(&c.id) else {
            return;
        };
        let orphan = waiting.remove(0);
        if waiting.is_empty() {
            let id = c.id.clone();
            t.waiting_results.remove(&id);
        }
        let call_id = t.items[idx].id;
        let Some(pos) = t.index_of(orphan) else {
            return;
        };
        let Some(key) = t.items.get(pos).map(|i| (i.source, i.line)) else {
            return;
        };
        // one far from the end goes with the batch's end, with the others
        let far = t.items.len() - pos > 64;
        let detail = if far && t.in_batch() {
            t.remove_later(pos)
        } else {
            t.remove(pos).map(|i| i.detail)
        };
        let Some(Detail::OrphanResult(result)) = detail else {
            return;
        };
        let Some(idx) = t.index_of(call_id) else {
            return;
        };
        let agent = match target {
            Target::Main => None,
            Target::Agent(a) => Some(a),
        };
        self.mark_tracker
            .removed(&mut self.marks, agent, orphan, key);
        self.changes.rebuilt = true;
        self.attach_result(target, idx, *result);
    }
}

/// A result's text: its string as written when it is one (or one text
/// block), else its blocks' texts and placeholders joined.
pub(super) fn tool_result_text<'a>(c: Content<'a>, images: &mut Vec<Image>) -> JsonStr<'a> {
    match c {
        Content::Text(t) => t,
        Content::Blocks(bs) => {
            if let [only] = &bs[..]
                && only.kind.as_deref() == Some("text")
            {
                return bs
                    .into_iter()
                    .next()
                    .and_then(|b| b.text)
                    .unwrap_or_default();
            }
            let mut out = String::new();
            for b in bs {
                let piece: Cow<'_, str> = match b.kind.as_deref().unwrap_or("") {
                    "text" => b.text.as_ref().map(JsonStr::text).unwrap_or_default(),
                    "image" => {
                        let img = block_image(&b);
                        let p = img.placeholder();
                        images.push(img);
                        Cow::Owned(p)
                    }
                    "document" => Cow::Owned(document_placeholder(&b)),
                    "tool_reference" => {
                        Cow::Owned(format!("[tool {}]", b.tool_name.as_deref().unwrap_or("?")))
                    }
                    // an MCP tool's search results: a title and a URL over
                    // blocks of text, shown with them
                    "search_result" => Cow::Owned(search_result(b, images)),
                    other => Cow::Owned(format!("[{other}]")),
                };
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&piece);
            }
            JsonStr::Text(Cow::Owned(out))
        }
        Content::Other => JsonStr::default(),
    }
}

/// `[search result "Title" · https://…]` over the result's own texts.
fn search_result(mut b: Block<'_>, images: &mut Vec<Image>) -> String {
    use crate::model::text::truncate;
    let mut head = String::from("[search result");
    if let Some(t) = b.title.as_deref().filter(|t| !t.trim().is_empty()) {
        head.push_str(&format!(" \"{}\"", truncate(t, 200)));
    }
    if let Some(u) = b.source.as_deref().and_then(|s| s.url.as_deref()) {
        head.push_str(&format!(" · {}", truncate(u, 200)));
    }
    head.push(']');
    if let Some(c) = b.content.take() {
        let text = tool_result_text(*c, images);
        if !text.text().is_empty() {
            head.push('\n');
            head.push_str(&text.text());
        }
    }
    head
}

fn block_image(b: &Block<'_>) -> Image {
    let src = b.source.as_deref();
    let media = src.and_then(|s| s.media_type.as_deref());
    let len = src
        .and_then(|s| s.data)
        .map_or(0, |d| d.get().len().saturating_sub(2));
    image_from_base64_len(media, len)
}

/// The text and image blocks of one prompt, gathered into one row.
#[derive(Default)]
struct Prompt<'a> {
    text: String,
    images: Vec<Image>,
    /// The first piece as written: the prompt's string when it is the
    /// only piece.
    written: Option<JsonStr<'a>>,
    pieces: u32,
}

impl<'a> Prompt<'a> {
    /// A piece of text; `written`: the string of the line it is (a
    /// placeholder is none).
    fn push(&mut self, piece: &str, written: Option<JsonStr<'a>>) {
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(piece);
        self.pieces += if written.is_some() { 1 } else { 2 };
        if self.written.is_none() {
            self.written = written;
        }
    }
}

/// `[document "Title" · application/pdf · 1.2 MB]`: what a `document`
/// block (a PDF or text attached to a prompt or returned by a tool) holds,
/// without its bytes.
fn document_placeholder(b: &Block<'_>) -> String {
    let src = b.source.as_deref();
    let mut parts = Vec::new();
    if let Some(t) = b.title.as_deref().filter(|t| !t.trim().is_empty()) {
        parts.push(format!("\"{}\"", crate::model::text::truncate(t, 200)));
    }
    let media = src.and_then(|s| s.media_type.as_deref());
    let kind = src.and_then(|s| s.kind.as_deref()).unwrap_or("");
    parts.push(
        media
            .unwrap_or(if kind == "text" { "text/plain" } else { "" })
            .to_owned(),
    );
    if let Some(d) = src.and_then(|s| s.data) {
        let len = d.get().len().saturating_sub(2) as u64;
        let bytes = if kind == "base64" { len * 3 / 4 } else { len };
        parts.push(human_bytes(bytes));
    } else if let Some(u) = src.and_then(|s| s.url.as_deref()) {
        parts.push(crate::model::text::truncate(u, 200).into_owned());
    }
    parts.retain(|p| !p.is_empty());
    if parts.is_empty() {
        "[document]".to_owned()
    } else {
        format!("[document {}]", parts.join(" · "))
    }
}

pub(super) fn command_text(c: &CommandInfo) -> String {
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

/// Where a user line's rows come from, for the rows made of its blocks.
#[derive(Clone, Copy)]
struct Origin<'a, 'e> {
    target: Target,
    source: u16,
    line: u32,
    e: &'a RawEntry<'e>,
    is_meta: bool,
}
