//! Display rows: a flat list of references into the session (jless style),
//! derived from the items, what is expanded and the filters. Rendering
//! happens later, only for the rows on screen.

pub mod clip;

use crate::model::{Item, Kind, Session};
use crate::walk::{At, Visitor, Walk};
use std::collections::HashSet;

pub use crate::walk::{Filters, Fold, MAX_DEPTH, SessionExt, Tree, unit_end, unit_start};

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
        Kind::User | Kind::Assistant | Kind::ToolCall | Kind::Unreadable => false,
        // a command's output, a system line, any kind the model adds: its
        // first line until opened
        _ => item.text.or_marker().trim().contains('\n'),
    }
}

pub struct Ctx<'a> {
    pub session: &'a Session,
    pub expanded: &'a HashSet<Fold>,
    pub filters: Filters,
}

/// Lines of an open call's output shown before `… N more lines` (the
/// view folds there; search opens what a match lies past).
pub const OUTPUT_FOLD: usize = 12;

/// Derives the rows of the main transcript from item `from` on (the start
/// of a top-level unit) and appends them to `out`.
/// When `end` reaches past the last item, the subagents no call links to
/// follow (as one unit, `top` = the number of items).
pub fn derive_main(ctx: &Ctx<'_>, from: usize, end: usize, out: &mut Vec<Row>) {
    let mut rows = Rows { ctx, out };
    Walk::new(ctx.session, ctx.filters).main(from, end, &mut rows);
}

/// The screen's reader of the walk: a row per step, folds as expanded.
struct Rows<'c, 'o> {
    ctx: &'c Ctx<'c>,
    out: &'o mut Vec<Row>,
}

impl Rows<'_, '_> {
    fn push(&mut self, at: At, kind: RowKind) {
        self.out.push(Row {
            agent: at.agent,
            index: at.index,
            top: at.top,
            depth: at.depth,
            kind,
        });
    }
}

impl<'a> Visitor<'a> for Rows<'_, '_> {
    fn opens(&self, fold: Fold) -> bool {
        self.ctx.expanded.contains(&fold)
    }
    fn item(&mut self, at: At, item: &'a Item) {
        let kind = match (item.kind, at.tree) {
            (Kind::ToolCall, tree) => RowKind::Call { tree },
            (_, Tree::None) => RowKind::Item,
            (_, tree) => RowKind::Member { tree },
        };
        self.push(at, kind);
    }
    fn group(&mut self, at: At, group: u32) {
        self.push(at, RowKind::Group { group });
    }
    fn branch(&mut self, at: At, count: u32) {
        self.push(at, RowKind::Branch { count });
    }
    fn agent(&mut self, at: At, agent: u32) {
        self.push(at, RowKind::Subagent { agent });
    }
}
