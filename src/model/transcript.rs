//! One conversation as a flat list of items (the main session, or one
//! subagent), with the indexes that let appends update it in place.

use super::branch::{Added, Role, Threads};
use super::item::{Group, Item, ItemId, Kind, Message, Turn};
use super::lean_rows::LEAN_ROW;
use super::usage::Usage;
use rustc_hash::FxHashMap as HashMap;

#[derive(Debug, Default)]
pub struct Transcript {
    /// Each model's price, looked up once.
    models_met: super::price::ModelsMet,
    pub items: Vec<Item>,
    pub groups: Vec<Group>,
    pub messages: Vec<Message>,
    pub turns: Vec<Turn>,
    /// Token totals over distinct assistant messages.
    pub totals: Usage,
    /// What those messages cost (see [`super::price`]).
    pub cost: super::price::Cost,
    /// Messages with no price, by model (the table does not know it).
    pub unpriced: std::collections::BTreeMap<String, u32>,
    msg_index: HashMap<std::sync::Arc<str>, u32>,
    /// The first call of each `tool_use_id`.
    tool_index: HashMap<String, usize>,
    /// Later calls that reuse an id (rare; see `Collision::ToolUseId`).
    dup_calls: HashMap<String, DupCalls>,
    /// Results shown on their own because their call has not come (yet):
    /// with parallel calls a result can be written before its call.
    pub(crate) waiting_results: HashMap<String, Vec<ItemId>>,
    /// The `parentUuid` tree of every threaded line (also hidden ones:
    /// progress and tool-result lines carry the chain too).
    pub threads: Threads,
    /// Rows a read for figures took in without making items of them.
    pub(crate) lean: Option<Box<super::lean_rows::LeanRows>>,
    /// An item was put or taken out in the middle at some point.
    pub(crate) reordered: bool,
    /// Rows to take out when the batch ends (see [`Self::remove_later`]).
    doomed: Vec<ItemId>,
    /// The other contents met under a uuid a line already had (rare): one
    /// of them written again is a repeat too.
    reused_uuids: rustc_hash::FxHashSet<(Box<str>, u64)>,
}

impl Transcript {
    pub fn tool_call_index(&self, tool_use_id: &str) -> Option<usize> {
        self.tool_index.get(tool_use_id).copied()
    }

    /// The call a result of `tool_use_id` belongs to: the first call with
    /// that id still waiting for one.
    pub fn call_for_result(&self, tool_use_id: &str) -> Option<usize> {
        let waiting = |i: usize| {
            matches!(&self.items.get(i).map(|it| &it.detail),
                Some(super::item::Detail::Call(c)) if c.result.is_none())
        };
        let first = self.tool_index.get(tool_use_id).copied();
        if let Some(i) = first.filter(|&i| waiting(i)) {
            return Some(i);
        }
        // the later calls of the id, from the first not known answered (a
        // result is never taken off its call): each result looked at all
        // of them, quadratic in a file of one id written many times
        let dups = self.dup_calls.get(tool_use_id)?;
        let from = dups.answered.load(std::sync::atomic::Ordering::Relaxed);
        let k = (dups.calls.get(from..).unwrap_or_default().iter())
            .position(|&i| waiting(i))
            .map(|k| from + k);
        dups.answered.store(
            k.unwrap_or(dups.calls.len()),
            std::sync::atomic::Ordering::Relaxed,
        );
        k.and_then(|k| dups.calls.get(k).copied())
    }

    pub fn message_index(&self, message_id: &str) -> Option<u32> {
        self.msg_index.get(message_id).copied()
    }

    pub fn index_of(&self, id: ItemId) -> Option<usize> {
        // Asked mostly of the row just pushed: found without a binary
        // search, whose probes each miss the cache in a big session.
        let last = self.items.len().checked_sub(1)?;
        if self.items[last].id == id {
            return Some(last);
        }
        // Ids grow with position except after a (rare) insert, so a binary
        // search almost always lands; fall back to a scan.
        match self.items.binary_search_by_key(&id, |i| i.id) {
            Ok(i) => Some(i),
            Err(_) => self.items.iter().position(|i| i.id == id),
        }
    }

    /// Records a uuid with the fingerprint of its line's content.
    pub fn note_uuid(&mut self, uuid: &str, content: u64) -> UuidSeen {
        // kept with the uuid's node: the line was just threaded, so its
        // uuid was just looked up there
        match self.threads.note(uuid, content) {
            None => UuidSeen::New,
            Some(before) if before == content => UuidSeen::Same,
            // the uuid keeps its first line's print: a line under a reused
            // uuid written twice (a torn write and its repeat) was two rows,
            // where a read that never met the first line showed one
            Some(_) if !self.reused_uuids.insert((Box::from(uuid), content)) => UuidSeen::Same,
            Some(_) => UuidSeen::Different,
        }
    }

    /// Records a threaded line. True when earlier items changed branch
    /// (a fork made a full pass necessary).
    pub fn thread(
        &mut self,
        uuid: &str,
        parent: Option<&str>,
        role: Role,
        source: u16,
        line: u32,
    ) -> bool {
        let added = self.threads.add(uuid, parent, role, source, line);
        added == Added::Recomputed && self.apply_branches()
    }

    /// `last-prompt.leafUuid`. True when earlier items changed branch.
    pub fn set_leaf_hint(&mut self, uuid: &str) -> bool {
        self.threads.set_leaf_hint(uuid) == Added::Recomputed && self.apply_branches()
    }

    /// Room for about `lines` more lines, made before a big file is read:
    /// growing a table rehashes it, and growing either touches fresh
    /// memory, which costs page faults; room reserved and not used is
    /// address space only (bar a table's byte per slot).
    pub fn reserve_lines(&mut self, lines: usize) {
        // the shares of a line that make each, with room to spare
        // (generated sessions have an item per two lines, a message per
        // five, a group per ten; a list that outgrows its room is copied
        // whole: at 1 GB, messages 10 MB)
        self.items.reserve(lines / 3 * 2);
        self.groups.reserve(lines / 8);
        self.messages.reserve(lines / 4);
        self.msg_index.reserve(lines / 5);
        self.tool_index.reserve(lines / 4);
        self.threads.reserve_lines(lines);
    }

    /// Lines read together (a chunk): branch passes wait for the end,
    /// as do the rows taken out far from the end (see
    /// [`Self::remove_later`]).
    pub fn begin_batch(&mut self) {
        self.threads.begin_batch();
    }

    /// Whether a batch is open (see [`Self::begin_batch`]).
    pub fn in_batch(&self) -> bool {
        self.threads.in_batch()
    }

    /// The end of a batch: the pass it owes. True when earlier items
    /// changed branch.
    pub fn end_batch(&mut self) -> bool {
        let removed = self.remove_doomed();
        (self.threads.end_batch() == Added::Recomputed && self.apply_branches()) || removed
    }

    /// [`Self::remove`] of row `idx` in a batch, when it is far from the
    /// end: its detail is taken now and the row goes when the batch ends,
    /// with every other such row in one pass. Results written long before
    /// their calls (50,000 of them) were each taken out of the middle of
    /// the rows, every row after it moved: a load of a minute.
    pub(crate) fn remove_later(&mut self, idx: usize) -> Option<super::item::Detail> {
        let it = self.items.get_mut(idx)?;
        self.doomed.push(it.id);
        Some(std::mem::take(&mut it.detail))
    }

    /// Takes out the rows [`Self::remove_later`] left; true when any.
    fn remove_doomed(&mut self) -> bool {
        if self.doomed.is_empty() {
            return false;
        }
        let doomed: std::collections::HashSet<ItemId> = self.doomed.drain(..).collect();
        self.items.retain(|i| !doomed.contains(&i.id));
        self.reindex();
        true
    }

    /// Copies the branch of each line onto its items.
    fn apply_branches(&mut self) -> bool {
        let mut changed = false;
        for it in &mut self.items {
            let off = it.uuid.as_deref().is_some_and(|u| self.threads.is_off(u));
            changed |= it.off_branch != off;
            it.off_branch = off;
        }
        changed
    }

    /// Items on a branch the user left.
    pub fn off_branch_count(&self) -> usize {
        self.items.iter().filter(|i| i.off_branch).count()
    }

    /// The tokens of the context after the last assistant message.
    pub fn context_tokens(&self) -> Option<u64> {
        Some(self.messages.iter().rev().find_map(|m| m.usage)?.total())
    }

    /// Registers or updates an assistant message; usage repeats on every
    /// line of a message, so the totals count each message once (with the
    /// figures of its latest line). `totals`: kept (a read for figures
    /// sums them at its end, see `Session::keep_no_totals`).
    pub fn upsert_message(
        &mut self,
        id: &str,
        model: Option<&str>,
        usage: Option<Usage>,
        at: Option<i64>,
        totals: bool,
    ) -> u32 {
        // the lines of a message mostly follow each other: the newest one
        // is known without a lookup (a cache miss per line in a big session)
        let newest = self
            .messages
            .len()
            .checked_sub(1)
            .filter(|&m| *self.messages[m].id == *id)
            .map(|m| m as u32);
        if let Some(m) = newest.or_else(|| self.msg_index.get(id).copied()) {
            let msg = &mut self.messages[m as usize];
            if !totals {
                if usage.is_some() {
                    msg.usage = usage;
                }
                return m;
            }
            // each line of a message mostly repeats its usage: nothing to
            // count again (nor to price twice)
            if let Some(new) = usage.filter(|u| msg.usage != Some(*u)) {
                let prices = super::price::PriceTable::active();
                let (model, when) = (msg.model.clone(), msg.at);
                if let Some(old) = msg.usage {
                    sub_usage(&mut self.totals, &old);
                    let c = self.models_met.cost(prices, model.as_ref(), &old, when);
                    self.cost.sub(c);
                    self.unpriced_of(old.counted_as(model.as_deref()), c, -1);
                }
                add_usage(&mut self.totals, &new);
                let c = self.models_met.cost(prices, model.as_ref(), &new, when);
                self.cost.add(c);
                self.unpriced_of(new.counted_as(model.as_deref()), c, 1);
                if let Some(msg) = self.messages.get_mut(m as usize) {
                    msg.usage = Some(new);
                }
            }
            return m;
        }
        let m = self.messages.len() as u32;
        let model = model.map(
            |m| match self.messages.last().and_then(|l| l.model.clone()) {
                Some(last) if *last == *m => last,
                _ => std::sync::Arc::from(m),
            },
        );
        if let Some(u) = usage.as_ref().filter(|_| totals) {
            add_usage(&mut self.totals, u);
            let prices = super::price::PriceTable::active();
            let c = self.models_met.cost(prices, model.as_ref(), u, at);
            self.cost.add(c);
            self.unpriced_of(u.counted_as(model.as_deref()), c, 1);
        }
        let id: std::sync::Arc<str> = id.into();
        self.msg_index.insert(id.clone(), m);
        self.messages.push(Message {
            id,
            model,
            usage,
            at,
            last_item: usize::MAX,
        });
        m
    }

    /// Counts a message of `model` that has no price (`cost` `None`), or
    /// takes one back (`by` -1).
    fn unpriced_of(&mut self, model: Option<&str>, cost: Option<f64>, by: i32) {
        if cost.is_some() {
            return;
        }
        let name = model.unwrap_or("(no model)");
        match self.unpriced.get_mut(name) {
            Some(n) => *n = n.saturating_add_signed(by),
            None if by > 0 => {
                self.unpriced.insert(name.to_owned(), by as u32);
            }
            None => {}
        }
        self.unpriced.retain(|_, n| *n > 0);
    }

    /// Where a new block of message `m` goes: right after the message's last
    /// block, so that lines of one message stay together even when other
    /// lines were written between them.
    pub fn position_for_message(&self, m: u32) -> usize {
        let last = self.messages[m as usize].last_item;
        if last == usize::MAX || last + 1 >= self.items.len() {
            return self.items.len();
        }
        // Only jump back over rows that are not part of the conversation
        // flow (hooks, system notes); never over a user prompt.
        let between = &self.items[last + 1..];
        if between
            .iter()
            .all(|i| matches!(i.kind, Kind::System | Kind::Meta))
        {
            last + 1
        } else {
            self.items.len()
        }
    }

    /// Adds an item at `pos` (usually the end). Returns its index. An insert
    /// before the end re-derives the indexes (rare: see
    /// [`Self::position_for_message`]); an append updates them in place.
    pub fn insert(&mut self, pos: usize, mut item: Item) -> usize {
        item.off_branch = item
            .uuid
            .as_ref()
            .is_some_and(|u| self.threads.is_off_kept(u));
        if pos >= self.items.len() {
            let idx = self.items.len();
            self.items.push(item);
            self.index_appended(idx);
            idx
        } else {
            self.items.insert(pos, item);
            self.reindex();
            pos
        }
    }

    fn index_appended(&mut self, idx: usize) {
        let item = &self.items[idx];
        let mut after = None;
        if let Some(m) = item.message {
            let last = &mut self.messages[m as usize].last_item;
            if *last != usize::MAX && *last & LEAN_ROW != 0 {
                after = Some((*last & !LEAN_ROW) as ItemId);
            }
            *last = idx;
        }
        if let Some(lean) = &mut self.lean {
            lean.item_appended(item.id, item.kind, after);
        }
        if let super::item::Detail::Call(c) = &item.detail {
            match self.tool_index.entry(c.id.clone()) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(idx);
                }
                std::collections::hash_map::Entry::Occupied(_) => {
                    self.dup_calls
                        .entry(c.id.clone())
                        .or_default()
                        .calls
                        .push(idx);
                }
            }
        }
        if item.kind == Kind::User {
            self.turns.push(Turn {
                first_item: item.id,
                duration_ms: None,
            });
        }
        if item.kind == Kind::ToolCall {
            self.group_call(idx);
        }
    }

    fn group_call(&mut self, idx: usize) {
        let mut j = idx;
        while j > 0 && self.items[j - 1].kind == Kind::Thinking {
            j -= 1;
        }
        let prev_group = (j > 0 && self.items[j - 1].kind == Kind::ToolCall)
            .then(|| self.items[j - 1].group)
            .flatten();
        let g = match prev_group {
            Some(g) => {
                self.groups[g as usize].last = idx;
                for it in &mut self.items[j..idx] {
                    it.group = Some(g);
                }
                g
            }
            None => {
                self.groups.push(Group {
                    first: idx,
                    last: idx,
                });
                (self.groups.len() - 1) as u32
            }
        };
        self.items[idx].group = Some(g);
    }

    /// What the figures of this transcript's turns depend on, in one
    /// number: their rows, messages, tokens written, cost and durations.
    /// A prompt's row is drawn again when it moves (its turn's figures
    /// may have: rows came, a line's usage changed the message's).
    pub fn turn_stamp(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        (self.items.len(), self.messages.len(), self.turns.len()).hash(&mut h);
        (
            self.totals.output_tokens,
            self.cost.usd.to_bits(),
            self.cost.unpriced,
        )
            .hash(&mut h);
        self.turns
            .iter()
            .rev()
            .take(2)
            .for_each(|t| t.duration_ms.hash(&mut h));
        h.finish()
    }

    /// The turn the user prompt at `user` starts: how long it took (when
    /// Claude Code recorded it) and the tokens its answers wrote. Costs the
    /// length of the turn.
    pub fn turn_figures(&self, user: usize) -> Option<TurnFigures> {
        self.items.get(user)?;
        let duration_ms = self
            .turns
            .binary_search_by_key(&user, |t| self.index_of(t.first_item).unwrap_or(usize::MAX))
            .ok()
            .and_then(|t| self.turns.get(t)?.duration_ms);
        let mut output_tokens = 0;
        let mut cost = super::price::Cost::default();
        let prices = super::price::PriceTable::active();
        let mut last_message = None;
        for it in self.items.iter().skip(user + 1) {
            if it.kind == Kind::User {
                break;
            }
            if let Some(m) = it.message.filter(|m| Some(*m) != last_message) {
                last_message = Some(m);
                let Some(msg) = self.messages.get(m as usize) else {
                    continue;
                };
                if let Some(u) = &msg.usage {
                    output_tokens += u.output_tokens;
                    cost.add(prices.cost(msg.model.as_deref(), u, msg.at));
                }
            }
        }
        Some(TurnFigures {
            duration_ms,
            output_tokens,
            cost,
        })
    }

    /// Tool calls in this transcript (kept as they arrive).
    pub fn tool_calls(&self) -> usize {
        self.tool_index.len()
            + self
                .dup_calls
                .values()
                .map(|d| d.calls.len())
                .sum::<usize>()
    }

    /// Takes item `idx` out (a result that found its call). Only what
    /// follows it is re-indexed: the item is usually a few rows from the
    /// end, and a 100 MB session must not be re-indexed per such result.
    pub(crate) fn remove(&mut self, idx: usize) -> Option<Item> {
        if idx >= self.items.len() {
            return None;
        }
        self.reordered = true;
        // the indexes of what follows move down by one
        for i in idx + 1..self.items.len() {
            let it = &self.items[i];
            if let Some(m) = it.message.and_then(|m| self.messages.get_mut(m as usize))
                && m.last_item == i
            {
                m.last_item = i - 1;
            }
            if let super::item::Detail::Call(c) = &it.detail {
                if let Some(v) = self.tool_index.get_mut(&c.id).filter(|v| **v == i) {
                    *v = i - 1;
                }
                for v in self
                    .dup_calls
                    .get_mut(&c.id)
                    .into_iter()
                    .flat_map(|d| &mut d.calls)
                {
                    if *v == i {
                        *v = i - 1;
                    }
                }
            }
        }
        // the groups from the one holding the row before it on are formed
        // again (the removed row may have parted two runs of calls)
        let from = match idx.checked_sub(1).and_then(|p| self.items[p].group) {
            Some(g) => self.groups.get(g as usize).map_or(idx, |g| g.first),
            None => idx,
        };
        let item = self.items.remove(idx);
        let keep = self.groups.partition_point(|g| g.first < from);
        self.groups.truncate(keep);
        for it in &mut self.items[from..] {
            it.group = None;
        }
        for i in from..self.items.len() {
            if self.items[i].kind == Kind::ToolCall {
                self.group_call(i);
            }
        }
        Some(item)
    }

    /// Re-derives every index from `items` (after an insert in the middle).
    pub fn reindex(&mut self) {
        self.reordered = true;
        self.groups.clear();
        self.tool_index.clear();
        self.dup_calls.clear();
        let durations: HashMap<ItemId, u64> = self
            .turns
            .iter()
            .filter_map(|t| Some((t.first_item, t.duration_ms?)))
            .collect();
        self.turns.clear();
        for m in &mut self.messages {
            m.last_item = usize::MAX;
        }
        for it in &mut self.items {
            it.group = None;
        }
        for idx in 0..self.items.len() {
            self.index_appended(idx);
        }
        for t in &mut self.turns {
            t.duration_ms = durations.get(&t.first_item).copied();
        }
    }
}

/// The calls that reuse an id after its first, in order, and how many of
/// them have their result (they keep it: the count only grows).
#[derive(Debug, Default)]
struct DupCalls {
    calls: Vec<usize>,
    answered: std::sync::atomic::AtomicUsize,
}

fn add_usage(t: &mut Usage, u: &Usage) {
    t.input_tokens += u.input_tokens;
    t.output_tokens += u.output_tokens;
    t.cache_creation_input_tokens += u.cache_creation_input_tokens;
    t.cache_read_input_tokens += u.cache_read_input_tokens;
    t.cache_creation.ephemeral_5m_input_tokens += u.cache_creation.ephemeral_5m_input_tokens;
    t.cache_creation.ephemeral_1h_input_tokens += u.cache_creation.ephemeral_1h_input_tokens;
}

fn sub_usage(t: &mut Usage, u: &Usage) {
    t.input_tokens = t.input_tokens.saturating_sub(u.input_tokens);
    t.output_tokens = t.output_tokens.saturating_sub(u.output_tokens);
    t.cache_creation_input_tokens = t
        .cache_creation_input_tokens
        .saturating_sub(u.cache_creation_input_tokens);
    t.cache_read_input_tokens = t
        .cache_read_input_tokens
        .saturating_sub(u.cache_read_input_tokens);
    let (c, d) = (&mut t.cache_creation, &u.cache_creation);
    c.ephemeral_5m_input_tokens = c
        .ephemeral_5m_input_tokens
        .saturating_sub(d.ephemeral_5m_input_tokens);
    c.ephemeral_1h_input_tokens = c
        .ephemeral_1h_input_tokens
        .saturating_sub(d.ephemeral_1h_input_tokens);
}

/// What [`Transcript::note_uuid`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UuidSeen {
    New,
    /// The same line written again (a resumed session, a re-write).
    Same,
    /// Another line with this uuid and other content.
    Different,
}

/// What a turn took: see [`Transcript::turn_figures`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TurnFigures {
    pub duration_ms: Option<u64>,
    /// Tokens the model wrote in the turn (usage counted once per message).
    pub output_tokens: u64,
    /// What the turn's messages cost.
    pub cost: super::price::Cost,
}
