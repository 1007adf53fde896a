//! Where the viewer is, in terms that outlive a re-read of the session
//! (item ids do not): the selected row by its file and line, the folds by
//! uuid, whether it follows the end. `#` reads the session again to show
//! it redacted (or not), and keeps the reader's place.

use super::live::{FoldKey, fold_keys, folds_from_keys};
use super::state::State;
use crate::rows::{RowKind, SessionExt};
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct Keep {
    folds: Vec<FoldKey>,
    /// The selected row's item: its file, line and kind of row.
    at: Option<(Option<PathBuf>, u32, std::mem::Discriminant<RowKind>)>,
    follow: bool,
    sel_offset: usize,
    search: String,
}

impl State {
    /// The place to come back to after the session is read again.
    pub fn keep(&self) -> Keep {
        let at = self.rows.get(self.selected).and_then(|r| {
            let it = self
                .session
                .transcript_checked(r.agent)?
                .items
                .get(r.index as usize)?;
            let file = self
                .session
                .sources
                .get(it.source as usize)
                .and_then(|s| s.path.clone());
            Some((file, it.line, std::mem::discriminant(&r.kind)))
        });
        Keep {
            folds: fold_keys(&self.session, &self.expanded),
            at,
            follow: self.follow,
            sel_offset: self.sel_offset,
            search: self.search.query.clone(),
        }
    }

    /// Back to `keep` in the session read again: the same rows open, the
    /// same row selected (the nearest one when it is gone), the search
    /// still highlighted.
    pub fn come_back(&mut self, keep: Keep) {
        self.expanded = folds_from_keys(&self.session, &keep.folds);
        self.rebuild();
        if !keep.search.is_empty() {
            self.search.query = keep.search;
            self.search.job = None;
            self.search_again();
        }
        if keep.follow {
            self.select_last();
            return;
        }
        let Some((file, line, kind)) = keep.at else {
            return;
        };
        let found = self.rows.iter().position(|r| {
            std::mem::discriminant(&r.kind) == kind
                && self
                    .session
                    .transcript_checked(r.agent)
                    .and_then(|t| t.items.get(r.index as usize))
                    .is_some_and(|it| {
                        it.line == line
                            && self
                                .session
                                .sources
                                .get(it.source as usize)
                                .is_some_and(|s| s.path == file)
                    })
        });
        match found {
            Some(p) => {
                self.select(p);
                self.sel_offset = keep.sel_offset;
            }
            None => {
                if let Some(f) = file {
                    let message = self.message.take();
                    self.jump_to(&f, line, "");
                    self.message = message;
                }
            }
        }
    }
}
