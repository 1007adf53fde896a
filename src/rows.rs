//! Display rows: a flat list of references into the session (jless style),
//! derived from the items, what is expanded and the filters. Rendering
//! happens later, only for the rows on screen.

use crate::model::item::SystemInfo;
use crate::model::{Detail, ItemId, Kind, Session, Transcript};
use std::collections::HashSet;

/// Something that can be expanded, keyed by stable ids so that the state
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// One item on its own line(s).
    Item,
    /// `▸ 5 tool calls · Read ×3 · Edit · Bash · 1 error`
    Group { group: u32 },
    /// A tool call; `tree` when it hangs under a group header.
    Call { tree: Tree },
    /// Another item of an open group (thinking between calls).
    Member { tree: Tree },
    /// `▸ subagent general-purpose · 14 tool calls` under its call.
    Subagent { agent: u32 },
    /// `▸ 12 messages on an earlier branch`
    Branch { count: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tree {
    None,
    Mid,
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Row {
    /// The transcript: `None` for the main one, else a subagent's.
    pub agent: Option<u32>,
    /// Item index in that transcript.
    pub index: u32,
    /// Index in the MAIN transcript of the top-level unit this row belongs
    /// to; appends re-derive from the last unit on.
    pub top: u32,
    pub depth: u8,
    pub kind: RowKind,
}

impl Row {
    /// What toggling this row expands, if anything.
    pub fn fold(&self, session: &Session) -> Option<Fold> {
        let t = session.transcript_checked(self.agent)?;
        let item = t.items.get(self.index as usize)?;
        match self.kind {
            // a group is named by its first item, wherever its header is
            // (after an abandoned branch, at its first item on the main line)
            RowKind::Group { group } => {
                let first = t.groups.get(group as usize)?.first;
                Some(Fold::Group(t.items.get(first)?.id))
            }
            RowKind::Call { .. } => Some(Fold::Item(item.id)),
            RowKind::Subagent { agent } => Some(Fold::Agent(agent)),
            RowKind::Branch { .. } => Some(Fold::Branch(item.id)),
            RowKind::Item | RowKind::Member { .. } => foldable(item).then_some(Fold::Item(item.id)),
        }
    }
}

/// Items whose content is hidden until expanded.
pub fn foldable(item: &crate::model::Item) -> bool {
    match item.kind {
        Kind::Thinking => !item.flags.thinking_hidden && !item.flags.redacted,
        Kind::Compaction | Kind::Unknown | Kind::ToolResult | Kind::Meta => true,
        Kind::System | Kind::Command => item.text.or_marker().trim().contains('\n'),
        _ => false,
    }
}

/// Which rows are shown (true = shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filters {
    pub tools: bool,
    pub thinking: bool,
    pub meta: bool,
    /// `!`: only error rows (failed calls, API errors, unreadable lines),
    /// whatever the other filters say.
    pub errors: bool,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            tools: true,
            thinking: true,
            meta: false,
            errors: false,
        }
    }
}

/// Rows that the meta filter hides: bookkeeping, not conversation. Errors
/// and compaction boundaries always show.
fn is_meta(item: &crate::model::Item) -> bool {
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

pub struct Ctx<'a> {
    pub session: &'a Session,
    pub expanded: &'a HashSet<Fold>,
    pub filters: Filters,
}

pub const MAX_DEPTH: u8 = 12;

/// Lines of an open call's output shown before `… N more lines` (the
/// view folds there; search opens what a match lies past).
pub const OUTPUT_FOLD: usize = 12;

/// Derives the rows of the main transcript from item `from` on (the start
/// of a top-level unit) and appends them to `out`.
/// When `end` reaches past the last item, the subagents no call links to
/// follow (as one unit, `top` = the number of items).
pub fn derive_main(ctx: &Ctx<'_>, from: usize, end: usize, out: &mut Vec<Row>) {
    derive(ctx, None, from, end, 0, None, out);
    let len = ctx.session.main.items.len();
    if end > len {
        for a in ctx.session.unlinked_agents() {
            push_agent(ctx, None, a, 0, len as u32, 0, out);
        }
    }
}

/// The first item of the top-level unit holding item `i` of the main
/// transcript (its tool group, or its run of off-branch items).
pub fn unit_start(t: &Transcript, mut i: usize) -> usize {
    // A group can begin inside an off-branch run and a run inside a group:
    // step back until neither moves the start.
    loop {
        let Some(item) = t.items.get(i) else { return i };
        let j = if item.off_branch {
            let mut j = i;
            while j > 0 && t.items.get(j - 1).is_some_and(|p| p.off_branch) {
                j -= 1;
            }
            j
        } else {
            match item.group.and_then(|g| t.groups.get(g as usize)) {
                Some(g) => g.first.min(i),
                None => i,
            }
        };
        if j == i {
            return i;
        }
        i = j;
    }
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

#[allow(clippy::too_many_arguments)]
fn derive(
    ctx: &Ctx<'_>,
    agent: Option<u32>,
    from: usize,
    end: usize,
    depth: u8,
    top: Option<u32>,
    out: &mut Vec<Row>,
) {
    let Some(t) = ctx.session.transcript_checked(agent) else {
        return;
    };
    let end = end.min(t.items.len());
    if ctx.filters.errors {
        return derive_errors(ctx, t, agent, from..end, depth, top, out);
    }
    let mut i = from;
    while i < end {
        let item = &t.items[i];
        let unit_top = top.unwrap_or(i as u32);
        let row = |index: usize, depth: u8, kind| Row {
            agent,
            index: index as u32,
            top: unit_top,
            depth,
            kind,
        };
        if top.is_none() && item.off_branch {
            let j = unit_end(t, i, true).min(end);
            out.push(row(
                i,
                depth,
                RowKind::Branch {
                    count: (j - i) as u32,
                },
            ));
            if ctx.expanded.contains(&Fold::Branch(item.id)) {
                // the branch's items, as if they were on the main line
                let mut k = i;
                while k < j {
                    let e = unit_end(t, k, false).min(j);
                    derive(ctx, agent, k, e, depth + 1, Some(i as u32), out);
                    k = e;
                }
            }
            i = j;
            continue;
        }
        let group = item
            .group
            .and_then(|g| t.groups.get(g as usize).map(|gr| (g, gr)));
        if let Some((g, gr)) = group.filter(|(_, gr)| gr.first <= i) {
            let j = (gr.last + 1).min(end).max(i + 1);
            if ctx.filters.tools {
                let calls = t.items[i..j]
                    .iter()
                    .filter(|x| x.kind == Kind::ToolCall)
                    .count();
                if calls == 1 && j - i == 1 {
                    push_call(ctx, agent, i, depth, unit_top, Tree::None, out);
                } else {
                    out.push(row(i, depth, RowKind::Group { group: g }));
                    if ctx.expanded.contains(&Fold::Group(t.items[gr.first].id)) {
                        let members: Vec<usize> =
                            (i..j).filter(|&k| shown(ctx, &t.items[k])).collect();
                        for (n, &k) in members.iter().enumerate() {
                            let tree = if n + 1 == members.len() {
                                Tree::Last
                            } else {
                                Tree::Mid
                            };
                            if t.items[k].kind == Kind::ToolCall {
                                push_call(ctx, agent, k, depth + 1, unit_top, tree, out);
                            } else {
                                out.push(row(k, depth + 1, RowKind::Member { tree }));
                            }
                        }
                    }
                }
            }
            i = j;
            continue;
        }
        if shown(ctx, item) {
            if item.kind == Kind::ToolCall {
                push_call(ctx, agent, i, depth, unit_top, Tree::None, out);
            } else {
                out.push(row(i, depth, RowKind::Item));
                if top.is_none() && agent.is_none() && is_compaction(item) {
                    // its summariser, as export shows it
                    for a in ctx.session.agents_of_compaction(item.id) {
                        push_agent(ctx, None, a, i, unit_top, depth + 1, out);
                    }
                }
            }
        }
        i += 1;
    }
}

/// The rows of `!`: each error item flat, off-branch or in a group alike,
/// and a call whose subagent failed somewhere (its rows under it).
fn derive_errors(
    ctx: &Ctx<'_>,
    t: &Transcript,
    agent: Option<u32>,
    range: std::ops::Range<usize>,
    depth: u8,
    top: Option<u32>,
    out: &mut Vec<Row>,
) {
    let is_error = crate::model::label::is_error;
    for i in range {
        let item = &t.items[i];
        let failed_agent = match &item.detail {
            Detail::Call(c) => c
                .agent
                .and_then(|a| ctx.session.agents.get(a as usize))
                .is_some_and(|a| a.transcript.items.iter().any(is_error)),
            _ => false,
        };
        if !is_error(item) && !failed_agent {
            continue;
        }
        let unit_top = top.unwrap_or_else(|| unit_start(t, i) as u32);
        if item.kind == Kind::ToolCall {
            push_call(ctx, agent, i, depth, unit_top, Tree::None, out);
        } else {
            out.push(Row {
                agent,
                index: i as u32,
                top: unit_top,
                depth,
                kind: RowKind::Item,
            });
        }
    }
}

fn shown(ctx: &Ctx<'_>, item: &crate::model::Item) -> bool {
    ctx.filters.keeps(item)
}

impl Filters {
    /// Whether the filters show this item (copying `Y` and `e` keep the
    /// same items the screen shows).
    pub fn keeps(&self, item: &crate::model::Item) -> bool {
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

fn push_call(
    ctx: &Ctx<'_>,
    agent: Option<u32>,
    i: usize,
    depth: u8,
    top: u32,
    tree: Tree,
    out: &mut Vec<Row>,
) {
    out.push(Row {
        agent,
        index: i as u32,
        top,
        depth,
        kind: RowKind::Call { tree },
    });
    let Some(t) = ctx.session.transcript_checked(agent) else {
        return;
    };
    let Some(Detail::Call(call)) = t.items.get(i).map(|x| &x.detail) else {
        return;
    };
    let Some(a) = call.agent else { return };
    push_agent(ctx, agent, a, i, top, depth + 1, out);
}

/// `▸ subagent …` for agent `a`, hanging on item `index` of transcript
/// `holder`, and its rows when open. A subagent no call links to hangs on
/// its own first item (`holder` is then the agent itself).
fn push_agent(
    ctx: &Ctx<'_>,
    holder: Option<u32>,
    a: u32,
    index: usize,
    top: u32,
    depth: u8,
    out: &mut Vec<Row>,
) {
    let Some(sub) = ctx.session.agents.get(a as usize) else {
        return;
    };
    if sub.transcript.items.is_empty() || depth > MAX_DEPTH || holder == Some(a) {
        return;
    }
    let (holder, index) = match sub.call {
        None if ctx.session.compaction_of(a).is_none() => (Some(a), 0),
        _ => (holder, index),
    };
    out.push(Row {
        agent: holder,
        index: index as u32,
        top,
        depth,
        kind: RowKind::Subagent { agent: a },
    });
    if ctx.expanded.contains(&Fold::Agent(a)) {
        derive(ctx, Some(a), 0, usize::MAX, depth + 1, Some(top), out);
    }
}

fn is_compaction(item: &crate::model::Item) -> bool {
    item.kind == Kind::Compaction
        || matches!(&item.detail, Detail::System(s) if matches!(**s, SystemInfo::CompactBoundary { micro: false, .. }))
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
