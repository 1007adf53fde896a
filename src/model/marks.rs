//! The viewer's finding marks: the rows `ccv check` has something to say
//! about. [`marks`] derives them from a whole session; [`Tracker`] keeps
//! them up to date as lines arrive, at a cost that follows the appended
//! lines (a live append must not re-check a 100 MB session).

use super::check::check;
use super::finding::FindingKind;
use super::item::{Collision, Detail, ItemId, Kind};
use super::session::Session;
use super::transcript::Transcript;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::hash_map::Entry;

/// What the viewer marks: the rows findings name, with a short reason
/// each (see [`Session::marks`]).
#[derive(Debug)]
pub struct Marks {
    items: HashMap<ItemId, Vec<Mark>>,
    /// Subagents with a marked row (their folded row is marked too), with
    /// how many marks their rows hold.
    agents: HashMap<u32, u32>,
    /// The rows whose marks changed since the session's changes were last
    /// taken (of a subagent's transcript, or the main one): drawn again.
    /// `None` once more than [`TOUCHED_MOST`] did (a load of a chain
    /// written backwards marks and unmarks every line): all are drawn.
    touched: Option<Vec<(Option<u32>, ItemId)>>,
}

impl Default for Marks {
    fn default() -> Self {
        Marks {
            items: HashMap::default(),
            agents: HashMap::default(),
            touched: Some(Vec::new()),
        }
    }
}

/// The rows whose marks changed that are told one by one.
const TOUCHED_MOST: usize = 4096;

/// The marks themselves, not what changed of them lately.
impl PartialEq for Marks {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items && self.agents == other.agents
    }
}

impl Eq for Marks {}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub kind: FindingKind,
    pub line: u32,
}

impl Mark {
    /// One short line for the viewer (the full message is `ccv check`'s).
    pub fn explain(&self) -> String {
        let what = match self.kind {
            FindingKind::StillRunning => "still running",
            FindingKind::NoResult => "no result for this tool call",
            FindingKind::ResultWithoutCall => "no tool call for this result",
            FindingKind::DanglingParent => "parent uuid not found (resumed or copied session?)",
            FindingKind::Cycle => "parentUuid links form a cycle",
            FindingKind::RepeatedUuid => "uuid used by another line with other content",
            FindingKind::RepeatedToolUseId => "tool call id used by an earlier call",
            FindingKind::RepeatedResult => "a second result for this tool call",
            FindingKind::SeveralSessions => "sessionId changes here",
            FindingKind::Unreadable => "unreadable line",
            FindingKind::Repaired => "line read after a repair",
            FindingKind::AgentNotFound => "the subagent's transcript is not here",
        };
        format!("line {}: {what}", self.line)
    }
}

impl Marks {
    pub fn of(&self, id: ItemId) -> &[Mark] {
        self.items.get(&id).map_or(&[], Vec::as_slice)
    }

    pub fn agent(&self, agent: u32) -> bool {
        self.agents.contains_key(&agent)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The rows whose marks changed since this was last asked (`None`:
    /// too many to tell).
    pub(crate) fn take_touched(&mut self) -> Option<Vec<(Option<u32>, ItemId)>> {
        self.touched.replace(Vec::new())
    }

    fn touch(&mut self, agent: Option<u32>, id: ItemId) {
        if let Some(t) = &mut self.touched {
            if t.len() < TOUCHED_MOST {
                t.push((agent, id));
            } else {
                self.touched = None;
            }
        }
    }

    /// Marks `id` (of `agent`'s transcript, or the main one), once per kind,
    /// in the order `ccv check` lists findings.
    fn add(&mut self, agent: Option<u32>, id: ItemId, kind: FindingKind, line: u32) {
        let v = self.items.entry(id).or_default();
        if v.iter().any(|x| x.kind == kind) {
            return;
        }
        let key = |m: &Mark| (m.line, m.kind as u8);
        let pos = v.partition_point(|x| key(x) < (line, kind as u8));
        v.insert(pos, Mark { kind, line });
        self.touch(agent, id);
        if let Some(a) = agent {
            *self.agents.entry(a).or_default() += 1;
        }
    }

    fn remove(&mut self, agent: Option<u32>, id: ItemId, kind: FindingKind) {
        let Some(v) = self.items.get_mut(&id) else {
            return;
        };
        let Some(p) = v.iter().position(|x| x.kind == kind) else {
            return;
        };
        v.remove(p);
        if v.is_empty() {
            self.items.remove(&id);
        }
        self.touch(agent, id);
        if let Some(a) = agent
            && let Some(n) = self.agents.get_mut(&a)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.agents.remove(&a);
            }
        }
    }
}

/// The marks of a session, from scratch. A call without a result is only
/// marked when the conversation went on without it (a later assistant
/// message): one at the end may still be running, in a live file or not.
pub fn marks(session: &Session) -> Marks {
    let mut gone = HashSet::default();
    for t in std::iter::once(&session.main).chain(session.agents.iter().map(|a| &a.transcript)) {
        lost_calls(t, &mut gone);
    }
    let mut owner = HashMap::default();
    for (a, agent) in session.agents.iter().enumerate() {
        for i in &agent.transcript.items {
            owner.insert(i.id, a as u32);
        }
    }
    let mut m = Marks::default();
    for f in check(session, true) {
        let Some(id) = f.item_id else { continue };
        let kind = match f.kind {
            FindingKind::StillRunning if gone.contains(&id) => FindingKind::NoResult,
            FindingKind::StillRunning => continue,
            k => k,
        };
        m.add(owner.get(&id).copied(), id, kind, f.line);
    }
    m
}

fn by_model(k: Kind) -> bool {
    matches!(k, Kind::Assistant | Kind::Thinking | Kind::ToolCall)
}

/// Calls without results that an assistant message of a later request
/// follows: their results were never written.
fn lost_calls(t: &Transcript, out: &mut HashSet<ItemId>) {
    let Some((last, msg)) = t
        .items
        .iter()
        .enumerate()
        .rev()
        .find_map(|(n, i)| Some((n, i.message?)).filter(|_| by_model(i.kind)))
    else {
        return;
    };
    for i in t.items.get(..last).unwrap_or(&[]) {
        if let Detail::Call(c) = &i.detail
            && c.result.is_none()
            && !c.server
            && i.message != Some(msg)
        {
            out.insert(i.id);
        }
    }
}

/// Keeps [`Marks`] equal to [`marks`] as lines arrive. Told of each item
/// pushed, each line threaded, each result that finds its call and each
/// unreadable line; every update looks at that one event (and at the few
/// calls still waiting for a result), never at the whole session.
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    /// Per transcript: the main one first, then agent `a` at `a + 1`.
    tracks: Vec<Track>,
    /// Subagent lines whose parent uuid is not in their own file: the
    /// parent may still appear in the session file, which excuses them.
    agent_waiting: HashMap<Box<str>, Vec<u32>>,
    /// Told nothing, keeps nothing: see `Session::keep_no_marks`.
    pub(crate) off: bool,
}

#[derive(Debug, Default)]
struct Track {
    /// The first item of each line: where a line's findings are shown.
    first_item: HashMap<(u16, u32), ItemId>,
    /// Lines whose parent uuid is not (yet) in the transcript, by that uuid.
    waiting: HashMap<Box<str>, Vec<(u16, u32)>>,
    /// Lines with a dangling parent or on a cycle.
    lines: HashMap<(u16, u32), LineMarks>,
    /// Lines that stand for a cycle (see `Threads::cycles`).
    cycles: HashSet<(u16, u32)>,
    /// The last item written by the model with a message: (id, message).
    last: Option<(ItemId, u32)>,
    /// Calls without a result not yet followed by another message:
    /// id -> (message, line). Usually the calls of the last message only.
    pending: HashMap<ItemId, (Option<u32>, u32)>,
    /// A call of another message than `last`'s may be pending: the next
    /// row of a message looks at them all. Without one, a row appended
    /// to `last`'s message has nothing to look at (a message of 100,000
    /// calls looked at every pending one for each: quadratic).
    foreign: bool,
    /// Calls marked without result, by their message: should a row of
    /// that message come last again, they are its calls, which may still
    /// get their results (no more marked).
    lost: HashMap<u32, Vec<(ItemId, u32)>>,
}

#[derive(Debug, Default, Clone, Copy)]
struct LineMarks {
    dangling: bool,
    cycle: bool,
}

fn slot(agent: Option<u32>) -> usize {
    agent.map_or(0, |a| a as usize + 1)
}

impl Tracker {
    fn track(&mut self, agent: Option<u32>) -> &mut Track {
        let i = slot(agent);
        if self.tracks.len() <= i {
            self.tracks.resize_with(i + 1, Track::default);
        }
        &mut self.tracks[i]
    }

    /// Room for the rows of about `lines` more lines of a transcript (see
    /// `Transcript::reserve_lines`).
    pub(crate) fn reserve_lines(&mut self, agent: Option<u32>, lines: usize) {
        if self.off {
            return;
        }
        self.track(agent).first_item.reserve(lines / 3 * 2);
    }

    /// `t.items[idx]` was just added (`appended`: at the end).
    pub(crate) fn pushed(
        &mut self,
        marks: &mut Marks,
        agent: Option<u32>,
        t: &Transcript,
        idx: usize,
        appended: bool,
    ) {
        if self.off {
            return;
        }
        let Some(item) = t.items.get(idx) else {
            return;
        };
        let tr = self.track(agent);
        let key = (item.source, item.line);
        if let Entry::Vacant(v) = tr.first_item.entry(key) {
            v.insert(item.id);
            if let Some(lm) = tr.lines.get(&key) {
                if lm.dangling {
                    marks.add(agent, item.id, FindingKind::DanglingParent, item.line);
                }
                if lm.cycle {
                    marks.add(agent, item.id, FindingKind::Cycle, item.line);
                }
            }
        }
        match item.flags.collision {
            Some(Collision::ToolUseId) => {
                marks.add(agent, item.id, FindingKind::RepeatedToolUseId, item.line);
            }
            Some(Collision::Result) => {
                marks.add(agent, item.id, FindingKind::RepeatedResult, item.line);
            }
            // the line's first row carries it, as `ccv check` says
            Some(Collision::Uuid) if tr.first_item.get(&key) == Some(&item.id) => {
                marks.add(agent, item.id, FindingKind::RepeatedUuid, item.line);
            }
            Some(Collision::Uuid) => {}
            None if item.kind == Kind::ToolResult
                && matches!(item.detail, Detail::OrphanResult(_)) =>
            {
                marks.add(agent, item.id, FindingKind::ResultWithoutCall, item.line);
            }
            None => {}
        }
        // Before `idx`: every item when appended; else ask (rare inserts).
        let before = |id: ItemId| appended || t.index_of(id).is_some_and(|i| i < idx);
        if let (true, Some(m)) = (by_model(item.kind), item.message) {
            let newest = match tr.last {
                None => true,
                Some((last, _)) => appended || t.index_of(last).is_none_or(|l| l < idx),
            };
            if newest {
                let same = tr.last.is_some_and(|(_, was)| was == m);
                tr.last = Some((item.id, m));
                if !same && let Some(back) = tr.lost.remove(&m) {
                    // (those answered since have no mark left)
                    for (id, line) in back {
                        if marks.of(id).iter().any(|k| k.kind == FindingKind::NoResult) {
                            marks.remove(agent, id, FindingKind::NoResult);
                            tr.pending.insert(id, (Some(m), line));
                        }
                    }
                }
                if !(appended && same) || tr.foreign {
                    let lost_now = &mut tr.lost;
                    tr.pending.retain(|&id, &mut (msg, line)| {
                        let lost = msg != Some(m) && before(id);
                        if lost {
                            marks.add(agent, id, FindingKind::NoResult, line);
                            if let Some(msg) = msg {
                                lost_now.entry(msg).or_default().push((id, line));
                            }
                        }
                        !lost
                    });
                    tr.foreign = tr.pending.values().any(|&(msg, _)| msg != Some(m));
                }
            }
        }
        if let Detail::Call(c) = &item.detail
            && c.result.is_none()
            && !c.server
        {
            let gone = match tr.last {
                Some((last, m)) if last != item.id && item.message != Some(m) => {
                    !appended && t.index_of(last).is_some_and(|l| idx < l)
                }
                _ => false,
            };
            if gone {
                marks.add(agent, item.id, FindingKind::NoResult, item.line);
                if let Some(msg) = item.message {
                    tr.lost.entry(msg).or_default().push((item.id, item.line));
                }
            } else {
                tr.foreign |= item.message.is_none() || item.message != tr.last.map(|(_, m)| m);
                tr.pending.insert(item.id, (item.message, item.line));
            }
        }
    }

    /// The row `id` was taken out (a result that found its call): nothing
    /// marks it any more.
    /// `line`: its (source, line), where it may be its line's first row
    /// (found by it: a pass over every line's first row for each result
    /// that found its call was quadratic).
    pub(crate) fn removed(
        &mut self,
        marks: &mut Marks,
        agent: Option<u32>,
        id: ItemId,
        line: (u16, u32),
    ) {
        if self.off {
            return;
        }
        let tr = self.track(agent);
        if tr.first_item.get(&line) == Some(&id) {
            tr.first_item.remove(&line);
        }
        tr.pending.remove(&id);
        for kind in marks.of(id).iter().map(|m| m.kind).collect::<Vec<_>>() {
            marks.remove(agent, id, kind);
        }
    }

    /// The call `id` got its result.
    pub(crate) fn answered(&mut self, marks: &mut Marks, agent: Option<u32>, id: ItemId) {
        if self.off {
            return;
        }
        let tr = self.track(agent);
        tr.pending.remove(&id);
        marks.remove(agent, id, FindingKind::NoResult);
    }

    /// An unreadable line, shown as the item `id`.
    pub(crate) fn unreadable(
        &mut self,
        marks: &mut Marks,
        agent: Option<u32>,
        id: ItemId,
        line: u32,
    ) {
        if self.off {
            return;
        }
        marks.add(agent, id, FindingKind::Unreadable, line);
    }

    /// A line with a new uuid was added to `t`'s threads as node `n`.
    /// `main` is the session's own transcript (the same as `t` when `agent`
    /// is `None`).
    pub(crate) fn threaded(
        &mut self,
        marks: &mut Marks,
        agent: Option<u32>,
        t: &Transcript,
        main: &Transcript,
        n: u32,
    ) {
        if self.off {
            return;
        }
        let Some(node) = t.threads.nodes.get(n as usize) else {
            return;
        };
        let Some(uuid) = t.threads.uuid_of(node).map(|u| &**u) else {
            return;
        };
        let key = (node.source, node.line);
        if let (None, Some(p)) = (node.parent(), t.threads.parent_uuid(n).map(|p| &**p)) {
            self.track(agent)
                .waiting
                .entry(p.into())
                .or_default()
                .push(key);
            let excused = agent.is_some() && main.threads.node(p).is_some();
            if !excused {
                if let Some(a) = agent {
                    let v = self.agent_waiting.entry(p.into()).or_default();
                    if v.last() != Some(&a) {
                        v.push(a);
                    }
                }
                self.track(agent)
                    .set(marks, agent, key, FindingKind::DanglingParent, true);
            }
        }
        let tr = self.track(agent);
        if let Some(kids) = tr.waiting.remove(uuid) {
            for k in kids {
                tr.set(marks, agent, k, FindingKind::DanglingParent, false);
            }
            // A new line has no children yet, so its own parent link cannot
            // close a cycle: only a parent written after its children can,
            // and only a cycle through itself (links are only ever added, so
            // the cycles found before stay). A walk up from it, not a pass
            // over every line: a file written backwards made each line one.
            let closed = t
                .threads
                .cycle_through(n)
                .and_then(|c| t.threads.nodes.get(c as usize))
                .map(|n| (n.source, n.line));
            if let Some(k) = closed
                && tr.cycles.insert(k)
            {
                tr.set(marks, agent, k, FindingKind::Cycle, true);
            }
        }
        if agent.is_none() {
            for a in self.agent_waiting.remove(uuid).unwrap_or_default() {
                let tr = self.track(Some(a));
                for k in tr.waiting.get(uuid).cloned().unwrap_or_default() {
                    tr.set(marks, Some(a), k, FindingKind::DanglingParent, false);
                }
            }
        }
    }
}

impl Track {
    /// A line-level finding starts or stops; it shows on the line's first
    /// item, now or when that item comes.
    fn set(
        &mut self,
        marks: &mut Marks,
        agent: Option<u32>,
        key: (u16, u32),
        kind: FindingKind,
        on: bool,
    ) {
        let lm = self.lines.entry(key).or_default();
        match kind {
            FindingKind::Cycle => lm.cycle = on,
            _ => lm.dangling = on,
        }
        if !lm.cycle && !lm.dangling {
            self.lines.remove(&key);
        }
        if let Some(&id) = self.first_item.get(&key) {
            if on {
                marks.add(agent, id, kind, key.1);
            } else {
                marks.remove(agent, id, kind);
            }
        }
    }
}
