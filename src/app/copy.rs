//! `y`, `Y`, `v` and `e`: what the selection means as a copy scope. The
//! text is made here (the export formatter); the clipboard thread gets it
//! through a [`Request`], so nothing here waits on a clipboard.

use super::state::{Request, State};
use crate::clipboard::{CopyScope, copy_text};
use crate::export::Options;
use crate::model::ItemId;
use crate::rows::{self, Row, RowKind, SessionExt};

impl State {
    /// `y`: the selected row (a group: all its calls and results), or the
    /// visual range when one is open.
    pub(crate) fn copy_selection(&mut self) {
        if let super::state::Mode::Visual { anchor } = self.mode {
            self.mode = super::state::Mode::Normal;
            self.copy_range(anchor, self.selected);
            return;
        }
        let Some(r) = self.rows.get(self.selected).copied() else {
            self.message = Some("Nothing to copy".into());
            return;
        };
        let Some(id) = self.item_id(&r) else { return };
        let scope = match r.kind {
            RowKind::Group { group } => CopyScope::Group {
                agent: r.agent,
                group: group as usize,
            },
            RowKind::Branch { .. } => match self.last_of(&r) {
                Some(to) => CopyScope::Range {
                    agent: r.agent,
                    from: id,
                    to,
                },
                None => return,
            },
            _ => CopyScope::Item { agent: r.agent, id },
        };
        self.request_copy(&scope);
    }

    /// `Y`: the whole transcript as the filters show it.
    pub(crate) fn copy_filtered(&mut self) {
        let filters = self.filters;
        let keep = move |i: &crate::model::Item| filters.keeps(i);
        self.request_copy(&CopyScope::Filtered {
            agent: None,
            keep: &keep,
        });
    }

    /// From row `a` to row `b` (either first), inclusive of what the last
    /// row folds away.
    fn copy_range(&mut self, a: usize, b: usize) {
        let (a, b) = (a.min(b), a.max(b));
        let (Some(ra), Some(rb)) = (self.rows.get(a).copied(), self.rows.get(b).copied()) else {
            return;
        };
        let scope = if ra.agent == rb.agent {
            match (self.item_id(&ra), self.last_of(&rb)) {
                (Some(from), Some(to)) => CopyScope::Range {
                    agent: ra.agent,
                    from,
                    to,
                },
                _ => return,
            }
        } else {
            // the ends lie in different transcripts: copy the main-transcript
            // units that hold them
            let t = &self.session.main;
            let end = rows::unit_end(t, rb.top as usize, true);
            let ids = t
                .items
                .get(ra.top as usize)
                .zip(t.items.get(end.saturating_sub(1)));
            match ids {
                Some((x, y)) => CopyScope::Range {
                    agent: None,
                    from: x.id,
                    to: y.id,
                },
                None => return,
            }
        };
        self.request_copy(&scope);
    }

    fn request_copy(&mut self, scope: &CopyScope<'_>) {
        let opts = Options {
            format: self.copy_format,
            no_thinking: !self.filters.thinking,
            no_tools: !self.filters.tools,
            no_subagents: false,
        };
        let text = copy_text(&self.session, scope, self.copy_format, &opts);
        if text.rows == 0 {
            self.message = Some("Nothing to copy".into());
            return;
        }
        self.message = Some("Copying…".into());
        self.requests.push(Request::Copy(text));
    }

    /// The last item a row stands for: a group's last call, a branch's last
    /// message, else the row's own item.
    fn last_of(&self, r: &Row) -> Option<ItemId> {
        let t = self.session.transcript_checked(r.agent)?;
        let i = r.index as usize;
        let last = match r.kind {
            RowKind::Group { group } => t.groups.get(group as usize)?.last,
            RowKind::Branch { .. } => rows::unit_end(t, i, r.agent.is_none()).saturating_sub(1),
            _ => i,
        };
        Some(t.items.get(last)?.id)
    }
}
