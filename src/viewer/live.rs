//! The viewer's side of live follow: applying what the follower saw to the
//! state, keeping the reader's place and folds across a reload.

use super::state::State;
use crate::live::{self, Anchor, Applied, LiveEvent};
use crate::model::{ItemId, Kind, Session, Uuid};
use crate::rows::{Fold, RowKind, SessionExt};
use std::collections::HashSet;
use std::path::PathBuf;

/// A followed file written this recently counts as live: its calls
/// without results are running. Older, it is a session being watched.
pub const LIVE_WINDOW_MS: i64 = 5 * 60 * 1000;

/// What the status bar says about the file being followed.
#[derive(Debug, Default)]
pub struct LiveStatus {
    /// A follower (or the stdin reader) feeds this session.
    pub attached: bool,
    /// The input ended (stdin) or the file was deleted: nothing more comes.
    pub ended: bool,
    /// Project mode: a newer session appeared; `>` opens it.
    pub newer: Option<PathBuf>,
    /// The session left for a newer one; `<` goes back to it.
    pub back: Option<PathBuf>,
    /// Milliseconds since the epoch, for the elapsed time of running calls.
    pub now_ms: i64,
    /// When the file was last written (its mtime at load, then each
    /// append); `None` for standard input, live until it ends.
    pub last_write_ms: Option<i64>,
    reload: Option<Reload>,
}

/// The place and folds to restore once a rewritten file has been re-read.
#[derive(Debug)]
struct Reload {
    anchor: Option<Anchor>,
    folds: Vec<FoldKey>,
    follow: bool,
}

/// A fold named by what survives re-reading a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FoldKey {
    Group(Uuid, Kind),
    Item(Uuid, Kind),
    Branch(Uuid, Kind),
    Full(Uuid, Kind),
    Agent(String),
}

/// See [`LiveStatus::quiet`].
const QUIET_MS: i64 = 2_000;

impl LiveStatus {
    /// Followed, not ended, and written recently (or still growing): a
    /// session from months ago is watched, not live.
    pub fn is_live(&self) -> bool {
        self.attached
            && !self.ended
            && self
                .last_write_ms
                .is_none_or(|t| self.now_ms.saturating_sub(t) <= LIVE_WINDOW_MS)
    }

    /// Whether the file has not been written for a while (or is not
    /// followed at all): a last line still without its end then is more
    /// likely cut short than being written, which is worth saying (a line
    /// written in two parts, milliseconds apart, is not).
    pub fn quiet(&self) -> bool {
        match self.last_write_ms {
            Some(t) => self.now_ms.saturating_sub(t) > QUIET_MS,
            // standard input sends the rest, or ends (and the line is read)
            None => !self.attached,
        }
    }

    /// A rewritten file is being read again (rows come back at its end).
    pub fn reloading(&self) -> bool {
        self.reload.is_some()
    }
}

impl State {
    /// Applies one event of the follower. Call [`State::absorb`] once after
    /// a burst of them, before drawing.
    pub fn on_live(&mut self, ev: &LiveEvent) {
        let resetting = matches!(ev, LiveEvent::Truncated { .. } | LiveEvent::Replaced { .. });
        let (sel, folds) = if resetting {
            (
                self.selected_anchor(),
                fold_keys(&self.session, &self.expanded),
            )
        } else {
            (None, Vec::new())
        };
        if let LiveEvent::Appended { .. } = ev {
            self.live.last_write_ms = Some(crate::model::time::now_ms());
        }
        match live::apply(&mut self.session, ev) {
            Applied::Changed => {}
            Applied::Reset { anchor, status } => {
                // a second reset before the first completes keeps the first place
                let reload = self.live.reload.take().unwrap_or(Reload {
                    anchor: sel.or(anchor),
                    folds,
                    follow: self.follow,
                });
                self.live.reload = Some(reload);
                self.live.ended = false;
                // the matches were of the rows gone (the search is made
                // again once the file is read again)
                self.search.hits.clear();
                self.search.current = None;
                self.search.job = None;
                self.expanded.clear();
                self.redraw.everything();
                self.rows.clear();
                self.selected = 0;
                self.redraw.to_top = true;
                self.sel_offset = 0;
                self.follow = false;
                self.message = Some(status);
            }
            Applied::Reloaded => self.finish_reload(),
            Applied::Status(s) => {
                if matches!(ev, LiveEvent::Deleted { .. }) {
                    self.end_live();
                }
                self.message = Some(s);
            }
            Applied::NewSession(p) => {
                let name = p.file_stem().map(|n| n.to_string_lossy().into_owned());
                self.message = Some(format!(
                    "a newer session started ({}): > to open it",
                    crate::model::text::sanitize(name.as_deref().unwrap_or("?"))
                ));
                self.live.newer = Some(p);
            }
            Applied::Ended => {
                self.end_live();
                self.message = Some("input ended".into());
            }
        }
    }

    /// Takes what the model changed since the last call and updates the
    /// rows (only those after the change, or the units updated in place).
    pub fn absorb(&mut self) {
        let changes = self.session.take_changes();
        if self.live.reload.is_some() {
            // rows are rebuilt once the reload completes (a key may build
            // them before: what they show is drawn afresh)
            if !changes.is_empty() {
                self.redraw.everything();
            }
            return;
        }
        if !changes.is_empty() {
            let (from, rebuilt) = (changes.appended_from, changes.rebuilt);
            let updated = changes.updated.clone();
            self.apply_changes(changes);
            self.update_search_from(from, rebuilt, &updated);
            self.refresh_info();
        }
        self.refresh_end_rows();
    }

    fn finish_reload(&mut self) {
        // what changed while the file was read again is not told row by
        // row: every row is drawn afresh
        let _ = self.session.take_changes();
        self.redraw.everything();
        let Some(r) = self.live.reload.take() else {
            // what changed is shown afresh: the rows, and the matches
            self.rebuild();
            self.update_search_from(None, true, &[]);
            return;
        };
        self.expanded = folds_from_keys(&self.session, &r.folds);
        self.follow = r.follow;
        self.rebuild();
        self.update_search_from(None, true, &[]);
        self.refresh_info();
        if r.follow {
            self.select_last();
        } else if let Some((agent, id)) = r.anchor.as_ref().and_then(|a| a.find(&self.session)) {
            self.select_item(agent, id);
        }
        self.message = Some("reloaded".into());
    }

    /// The selected row's item, named so that it can be found again after
    /// the file is re-read.
    fn selected_anchor(&self) -> Option<Anchor> {
        let r = self.rows.get(self.selected)?;
        Anchor::of_item(&self.session, r.agent, self.item_id(r)?)
    }

    /// Selects the row of an item, or of the unit that holds it.
    pub fn select_item(&mut self, agent: Option<u32>, id: ItemId) {
        let Some(t) = self.session.transcript_checked(agent) else {
            return;
        };
        let Some(index) = t.index_of(id) else { return };
        let exact = self
            .rows
            .iter()
            .position(|r| r.agent == agent && r.index as usize == index);
        let pos = exact.or_else(|| {
            let main = match agent {
                None => index,
                Some(_) => return None,
            };
            self.rows.iter().rposition(|r| (r.top as usize) <= main)
        });
        if let Some(p) = pos {
            self.select(p);
        }
    }

    /// Nothing more will be written (the file is gone, standard input
    /// ended): a call without its result is no longer running, and its
    /// row, drawn as running until now, is drawn again.
    fn end_live(&mut self) {
        if !self.live.ended {
            self.live.ended = true;
            self.redraw.everything();
        }
    }

    /// Running tool calls on screen: their elapsed time changes each second.
    pub fn running_on_screen(&self) -> bool {
        if !self.live.is_live() {
            return false;
        }
        self.viewport.visible.iter().any(|v| {
            self.rows.get(v.row).is_some_and(|r| {
                let t = self.session.transcript_checked(r.agent);
                let item = t.and_then(|t| t.items.get(r.index as usize));
                match r.kind {
                    RowKind::Call { .. } | RowKind::Group { .. } => item
                        .is_some_and(|it| running_from(&self.session, t, r, it, self.live.now_ms)),
                    _ => false,
                }
            })
        })
    }

    /// A second passed: forget the lines of running calls on screen.
    pub fn tick(&mut self, now_ms: i64) {
        self.live.now_ms = now_ms;
        self.take_info_if_due();
        let ids: Vec<ItemId> = self
            .viewport
            .visible
            .iter()
            .filter_map(|v| self.item_id(self.rows.get(v.row)?))
            .collect();
        for id in ids {
            self.redraw.item(id);
        }
    }
}

/// A call without its result, or a group holding one.
fn running_from(
    session: &Session,
    t: Option<&crate::model::Transcript>,
    r: &crate::rows::Row,
    it: &crate::model::Item,
    now: i64,
) -> bool {
    let pending = |it: &crate::model::Item| {
        session.call_state(it, Some(now)) == Some(crate::model::item::CallState::Running)
    };
    match r.kind {
        RowKind::Group { group } => t
            .and_then(|t| {
                let g = t.groups.get(group as usize)?;
                Some(t.items.get(g.first..=g.last)?.iter().any(pending))
            })
            .unwrap_or(false),
        _ => pending(it),
    }
}

/// Folds named by uuid and kind (ids are not stable across a re-read).
pub fn fold_keys(session: &Session, folds: &HashSet<Fold>) -> Vec<FoldKey> {
    let key = |id: ItemId| -> Option<(Uuid, Kind)> {
        let it = session.main.items.get(session.main.index_of(id)?)?;
        Some((it.uuid.clone()?, it.kind))
    };
    folds
        .iter()
        .filter_map(|f| match *f {
            Fold::Group(id) => key(id).map(|(u, k)| FoldKey::Group(u, k)),
            Fold::Item(id) => key(id).map(|(u, k)| FoldKey::Item(u, k)),
            Fold::Branch(id) => key(id).map(|(u, k)| FoldKey::Branch(u, k)),
            Fold::Full(id) => key(id).map(|(u, k)| FoldKey::Full(u, k)),
            Fold::Agent(a) => Some(FoldKey::Agent(session.agents.get(a as usize)?.id.clone())),
        })
        .collect()
}

/// The folds of `keys` in a (re-read) session.
pub fn folds_from_keys(session: &Session, keys: &[FoldKey]) -> HashSet<Fold> {
    if keys.is_empty() {
        return HashSet::new();
    }
    let by_key: std::collections::HashMap<(&str, Kind), ItemId> = session
        .main
        .items
        .iter()
        .filter_map(|it| Some(((it.uuid.as_deref()?, it.kind), it.id)))
        .collect();
    let find = |u: &str, k: Kind| by_key.get(&(u, k)).copied();
    keys.iter()
        .filter_map(|k| match k {
            FoldKey::Group(u, kind) => find(u, *kind).map(Fold::Group),
            FoldKey::Item(u, kind) => find(u, *kind).map(Fold::Item),
            FoldKey::Branch(u, kind) => find(u, *kind).map(Fold::Branch),
            FoldKey::Full(u, kind) => find(u, *kind).map(Fold::Full),
            FoldKey::Agent(id) => session.agent_by_id(id).map(Fold::Agent),
        })
        .collect()
}
