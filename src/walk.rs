//! The one walk of a transcript, which the screen's rows, every export
//! format, copies and the HTML page are made from: the same items in the
//! same order, under the same headings (tool groups, earlier branches,
//! subagents) and the same filters. Each reader is a [`Visitor`]: the
//! screen folds what is not open, an export opens all.

use crate::model::item::{Detail, Item, Kind, SystemInfo, ToolCall, ToolResult};
use crate::model::{ItemId, Session, Transcript};

/// Something that can be opened, keyed by stable ids so that the state
/// survives scrolling, filtering and appends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fold {
    /// A tool group, by the id of its first item.
    Group(ItemId),
    /// A call's input and result, a thinking block, a summary...
    Item(ItemId),
    /// A subagent's transcript (index into `Session::agents`).
    Agent(u32),
    /// A run of off-branch items, by the id of its first item.
    Branch(ItemId),
    /// An open item shown whole, without folding long output (`z`).
    Full(ItemId),
}

/// Which items are shown (true = shown): the one set of filters of the
/// screen, copies and exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filters {
    pub tools: bool,
    pub thinking: bool,
    pub meta: bool,
    /// `!`: only error rows (failed calls, API errors, unreadable lines),
    /// whatever the other filters say.
    pub errors: bool,
    /// Subagents' transcripts (under their calls, and those no call links
    /// to after the main one).
    pub subagents: bool,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            tools: true,
            thinking: true,
            meta: false,
            errors: false,
            subagents: true,
        }
    }
}

impl Filters {
    /// Everything a transcript holds (an export's default).
    pub fn all() -> Self {
        Filters {
            tools: true,
            thinking: true,
            meta: true,
            errors: false,
            subagents: true,
        }
    }

    /// Whether the filters show this item.
    pub fn keeps(&self, item: &Item) -> bool {
        if never_shown(item) {
            return false;
        }
        if self.errors {
            return crate::model::label::is_error(item);
        }
        match item.kind {
            Kind::Thinking => self.thinking,
            Kind::ToolCall | Kind::ToolResult => self.tools,
            _ => self.meta || !is_meta(item),
        }
    }
}

/// Rows that the meta filter hides: bookkeeping, not conversation. Errors
/// and compaction boundaries always show.
fn is_meta(item: &Item) -> bool {
    match item.kind {
        Kind::Meta => true,
        Kind::System => {
            !item.flags.error
                && !matches!(
                    &item.detail,
                    Detail::System(s) if matches!(**s, SystemInfo::CompactBoundary { .. } | SystemInfo::ApiError { .. } | SystemInfo::ContinuedIn { .. })
                )
        }
        _ => false,
    }
}

/// Claude Code's caveat before a local command's output (`<local-command-
/// caveat>`, older files' "Caveat: The messages below were generated…"):
/// words for the model, shown nowhere, whatever the filters (a search of
/// the screen does not count it a match either).
pub fn never_shown(item: &Item) -> bool {
    if item.kind != Kind::Meta {
        return false;
    }
    let t = item.text.or_marker().trim_start();
    t.starts_with("<local-command-caveat>")
        || t.starts_with("Caveat: The messages below were generated")
}

/// A compaction (its summary, or its boundary): the summariser's run
/// hangs under it.
pub fn is_compaction(item: &Item) -> bool {
    item.kind == Kind::Compaction
        || matches!(&item.detail, Detail::System(s) if matches!(**s, SystemInfo::CompactBoundary { micro: false, .. }))
}

/// Where a member of an open group is: the tree drawn beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tree {
    None,
    Mid,
    Last,
}

/// Where a step of the walk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// The transcript: `None` for the main one, else a subagent's.
    pub agent: Option<u32>,
    /// Item index in that transcript.
    pub index: u32,
    /// Index in the MAIN transcript of the top-level unit this step
    /// belongs to.
    pub top: u32,
    pub depth: u8,
    /// Under an open group: where among its members.
    pub tree: Tree,
}

/// Subagents inside subagents deeper than this are not walked.
pub const MAX_DEPTH: u8 = 12;

/// A reader of the walk. Only `item` is required; headings are offered
/// as they come, and what [`Visitor::opens`] refuses is not walked.
pub trait Visitor<'a> {
    /// Whether a fold's members are walked (an export opens all).
    fn opens(&self, _fold: Fold) -> bool {
        true
    }
    /// An item shown on its own (a call, a member of a group, a message).
    fn item(&mut self, at: At, item: &'a Item);
    /// The result of the call just given.
    fn result(&mut self, _at: At, _call: &'a Item, _c: &'a ToolCall, _r: &'a ToolResult) {}
    /// After an item and all it brought (its result, its subagent).
    fn item_done(&mut self, _at: At, _item: &'a Item) {}
    /// A tool group's heading, at its first item shown.
    fn group(&mut self, _at: At, _group: u32) {}
    /// A run of `count` items on an earlier branch.
    fn branch(&mut self, _at: At, _count: u32) {}
    /// A subagent's heading; `at` is where it hangs (its call, its
    /// compaction, or its own first item when nothing links to it).
    fn agent(&mut self, _at: At, _agent: u32) {}
    /// The end of the group, branch or subagent last opened.
    fn close(&mut self) {}
    /// After each unit of the main transcript's top level, and after each
    /// subagent no call links to.
    fn unit_done(&mut self) {}
}

/// A walk of one session under one set of filters.
#[derive(Clone, Copy)]
pub struct Walk<'a> {
    pub session: &'a Session,
    pub filters: Filters,
}

impl<'a> Walk<'a> {
    pub fn new(session: &'a Session, filters: Filters) -> Self {
        Walk { session, filters }
    }

    /// The whole session: the main transcript, then the subagents no call
    /// links to.
    pub fn session(&self, v: &mut dyn Visitor<'a>) {
        self.main(0, usize::MAX, v);
    }

    /// The main transcript's units from item `from` (the start of a unit)
    /// to `end`; when `end` reaches past the last item, the subagents no
    /// call links to follow (each as one unit, `top` = the number of
    /// items).
    pub fn main(&self, from: usize, end: usize, v: &mut dyn Visitor<'a>) {
        self.derive(None, from, end, 0, None, v);
        let len = self.session.main.items.len();
        if end > len && self.filters.subagents {
            for a in self.session.unlinked_agents() {
                self.agent(None, a, 0, len as u32, 0, v);
                v.unit_done();
            }
        }
    }

    /// Items `range` of one transcript (a copy of a part of it).
    pub fn part(&self, agent: Option<u32>, range: std::ops::Range<usize>, v: &mut dyn Visitor<'a>) {
        let top = agent.map(|_| 0);
        self.derive(agent, range.start, range.end, 0, top, v);
    }

    /// One item with what it brings (its result, its subagent), whatever
    /// the filters say of its own kind: the user pointed at it.
    pub fn one(&self, agent: Option<u32>, index: usize, v: &mut dyn Visitor<'a>) {
        let Some(t) = self.transcript(agent) else {
            return;
        };
        if index < t.items.len() {
            let at = At {
                agent,
                index: index as u32,
                top: 0,
                depth: 0,
                tree: Tree::None,
            };
            self.emit(t, at, v);
        }
    }

    fn transcript(&self, agent: Option<u32>) -> Option<&'a Transcript> {
        self.session.transcript_checked(agent)
    }

    /// The units of a transcript from `from` to `end`. `top` is `None` on
    /// the main transcript's top level (where earlier branches fold), else
    /// the unit the items hang in.
    fn derive(
        &self,
        agent: Option<u32>,
        from: usize,
        end: usize,
        depth: u8,
        top: Option<u32>,
        v: &mut dyn Visitor<'a>,
    ) {
        let Some(t) = self.transcript(agent) else {
            return;
        };
        let end = end.min(t.items.len());
        if self.filters.errors {
            return self.errors(t, agent, from..end, depth, top, v);
        }
        let keeps = |x: &Item| self.filters.keeps(x);
        let mut i = from;
        while i < end {
            let item = &t.items[i];
            let unit_top = top.unwrap_or(i as u32);
            let at = |index: usize, depth: u8, tree: Tree| At {
                agent,
                index: index as u32,
                top: unit_top,
                depth,
                tree,
            };
            if top.is_none() && item.off_branch {
                let j = unit_end(t, i, true).min(end);
                if t.items[i..j].iter().any(keeps) {
                    v.branch(at(i, depth, Tree::None), (j - i) as u32);
                    if v.opens(Fold::Branch(item.id)) {
                        // the branch's items, as if they were on the main line
                        let mut k = i;
                        while k < j {
                            let e = unit_end(t, k, false).min(j);
                            self.derive(agent, k, e, depth + 1, Some(i as u32), v);
                            k = e;
                        }
                        v.close();
                    }
                }
                i = j;
                self.unit_done(agent, top, v);
                continue;
            }
            let group = item
                .group
                .and_then(|g| t.groups.get(g as usize).map(|gr| (g, gr)));
            if let Some((g, gr)) = group.filter(|(_, gr)| gr.first <= i) {
                let j = (gr.last + 1).min(end).max(i + 1);
                if self.filters.tools {
                    let calls = t.items[i..j]
                        .iter()
                        .filter(|x| x.kind == Kind::ToolCall)
                        .count();
                    if calls == 1 && j - i == 1 {
                        self.emit(t, at(i, depth, Tree::None), v);
                    } else {
                        v.group(at(i, depth, Tree::None), g);
                        if v.opens(Fold::Group(t.items[gr.first].id)) {
                            let members: Vec<usize> =
                                (i..j).filter(|&k| keeps(&t.items[k])).collect();
                            for (n, &k) in members.iter().enumerate() {
                                let tree = if n + 1 == members.len() {
                                    Tree::Last
                                } else {
                                    Tree::Mid
                                };
                                self.emit(t, at(k, depth + 1, tree), v);
                            }
                            v.close();
                        }
                    }
                }
                i = j;
                self.unit_done(agent, top, v);
                continue;
            }
            if keeps(item) {
                self.emit(t, at(i, depth, Tree::None), v);
            }
            i += 1;
            self.unit_done(agent, top, v);
        }
    }

    fn unit_done(&self, agent: Option<u32>, top: Option<u32>, v: &mut dyn Visitor<'a>) {
        if agent.is_none() && top.is_none() {
            v.unit_done();
        }
    }

    /// The steps of `!`: each error item flat, off-branch or in a group
    /// alike, and a call whose subagent failed somewhere (its steps under
    /// it).
    fn errors(
        &self,
        t: &'a Transcript,
        agent: Option<u32>,
        range: std::ops::Range<usize>,
        depth: u8,
        top: Option<u32>,
        v: &mut dyn Visitor<'a>,
    ) {
        let is_error = crate::model::label::is_error;
        for i in range {
            let item = &t.items[i];
            let failed_agent = match &item.detail {
                Detail::Call(c) => c
                    .agent
                    .and_then(|a| self.session.agents.get(a as usize))
                    .is_some_and(|a| a.transcript.items.iter().any(is_error)),
                _ => false,
            };
            if !is_error(item) && !failed_agent {
                continue;
            }
            let at = At {
                agent,
                index: i as u32,
                top: top.unwrap_or_else(|| unit_start(t, i) as u32),
                depth,
                tree: Tree::None,
            };
            self.emit(t, at, v);
            self.unit_done(agent, top, v);
        }
    }

    /// An item, then what hangs under it: a call's result and subagent, a
    /// compaction's summariser.
    fn emit(&self, t: &'a Transcript, at: At, v: &mut dyn Visitor<'a>) {
        let Some(item) = t.items.get(at.index as usize) else {
            return;
        };
        v.item(at, item);
        if let Detail::Call(c) = &item.detail {
            if let Some(r) = &c.result {
                v.result(at, item, c, r);
            }
            if let Some(a) = c.agent {
                self.agent(at.agent, a, at.index as usize, at.top, at.depth + 1, v);
            }
        } else if at.agent.is_none() && is_compaction(item) {
            for a in self.session.agents_of_compaction(item.id) {
                self.agent(None, a, at.index as usize, at.top, at.depth + 1, v);
            }
        }
        v.item_done(at, item);
    }

    /// Subagent `a`'s heading, hanging on item `index` of transcript
    /// `holder`, and its steps when open. A subagent no call links to
    /// hangs on its own first item (`holder` is then the agent itself).
    fn agent(
        &self,
        holder: Option<u32>,
        a: u32,
        index: usize,
        top: u32,
        depth: u8,
        v: &mut dyn Visitor<'a>,
    ) {
        let Some(sub) = self.session.agents.get(a as usize) else {
            return;
        };
        if !self.filters.subagents
            || sub.transcript.items.is_empty()
            || depth > MAX_DEPTH
            || holder == Some(a)
        {
            return;
        }
        let (holder, index) = match sub.call {
            None if self.session.compaction_of(a).is_none() => (Some(a), 0),
            _ => (holder, index),
        };
        let at = At {
            agent: holder,
            index: index as u32,
            top,
            depth,
            tree: Tree::None,
        };
        v.agent(at, a);
        if v.opens(Fold::Agent(a)) {
            self.derive(Some(a), 0, usize::MAX, depth + 1, Some(top), v);
            v.close();
        }
    }
}

/// The first item of the top-level unit holding item `i` of the main
/// transcript (its tool group, or its run of off-branch items), as the
/// walk from the first item finds it.
pub fn unit_start(t: &Transcript, i: usize) -> usize {
    let Some(last) = t.items.len().checked_sub(1) else {
        return i;
    };
    let i = i.min(last);
    // back to an item no earlier unit can hold: one on the main line that
    // begins its group or is in none (a group that begins on the main line
    // holds its off-branch members too, and a run of off-branch items
    // ends at the main line)
    let mut k = i;
    while k > 0 && !begins_a_unit(t, k) {
        // (no member of a group but its first begins a unit: a big group
        // is passed over at once)
        k = match t.items[k].group.and_then(|g| t.groups.get(g as usize)) {
            Some(g) if g.first < k => g.first,
            _ => k - 1,
        };
    }
    // then forward, a unit at a time, as the walk goes
    loop {
        let next = unit_end(t, k, true);
        if next > i || next <= k {
            return k;
        }
        k = next;
    }
}

/// Item `k` of the main transcript begins a unit whatever comes before it.
fn begins_a_unit(t: &Transcript, k: usize) -> bool {
    t.items.get(k).is_some_and(|item| {
        !item.off_branch
            && item
                .group
                .and_then(|g| t.groups.get(g as usize))
                .is_none_or(|g| g.first == k)
    })
}

/// One past the last item of the unit starting at `i`.
pub fn unit_end(t: &Transcript, i: usize, top_level: bool) -> usize {
    let Some(item) = t.items.get(i) else {
        return i + 1;
    };
    if top_level && item.off_branch {
        let mut j = i;
        while t.items.get(j).is_some_and(|p| p.off_branch) {
            j += 1;
        }
        return j;
    }
    // a group's unit starts at its first item, or at its first item on the
    // main line when it begins on an abandoned branch
    let starts_here = |first: usize| {
        first == i || (top_level && first < i && t.items.get(i - 1).is_some_and(|p| p.off_branch))
    };
    match item.group.and_then(|g| t.groups.get(g as usize)) {
        Some(g) if starts_here(g.first) => (g.last + 1).min(t.items.len()).max(i + 1),
        _ => i + 1,
    }
}

/// Helpers the model does not have (bounds-checked transcript access).
pub trait SessionExt {
    fn transcript_checked(&self, agent: Option<u32>) -> Option<&Transcript>;
}

impl SessionExt for Session {
    fn transcript_checked(&self, agent: Option<u32>) -> Option<&Transcript> {
        match agent {
            None => Some(&self.main),
            Some(a) => self.agents.get(a as usize).map(|x| &x.transcript),
        }
    }
}
