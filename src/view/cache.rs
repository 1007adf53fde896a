//! Rendered lines per row, computed only for rows that reach the screen
//! and kept until the row, the width or the expansion changes.

use crate::model::ItemId;
use crate::rows::Row;
use ratatui::text::Line;
use std::collections::HashMap;
use std::rc::Rc;

pub type Lines = Rc<Vec<Line<'static>>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    id: ItemId,
    row: Row,
    width: u16,
    expanded: bool,
    full: bool,
    /// What else the lines show that may change (a prompt's turn
    /// figures: see `Transcript::turn_stamp`), 0 for most rows.
    stamp: u64,
    /// The time of the row above (a new day heads a row with its date).
    above: Option<i64>,
}

#[derive(Default)]
pub struct LineCache {
    map: HashMap<Key, Lines>,
}

impl std::fmt::Debug for LineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LineCache({} rows)", self.map.len())
    }
}

/// Enough for many screens; beyond it the cache starts over.
const MAX_ROWS: usize = 4096;

impl LineCache {
    pub fn get_or_render(
        &mut self,
        id: ItemId,
        row: Row,
        width: u16,
        (expanded, full, stamp, above): (bool, bool, u64, Option<i64>),
        render: impl FnOnce() -> Vec<Line<'static>>,
    ) -> Lines {
        let key = Key {
            id,
            row,
            width,
            expanded,
            full,
            stamp,
            above,
        };
        if let Some(l) = self.map.get(&key) {
            return l.clone();
        }
        if self.map.len() >= MAX_ROWS {
            self.map.clear();
        }
        let lines = Rc::new(render());
        self.map.insert(key, lines.clone());
        lines
    }

    /// Forgets an item's lines (its result arrived, its subagent grew).
    pub fn invalidate(&mut self, id: ItemId) {
        self.map.retain(|k, _| k.id != id);
    }

    /// Forgets the lines of each of `ids`, in one pass over what is kept
    /// (a pass per item, for the thousands an append of many lines may
    /// change, was a pass per item over thousands of rows).
    pub fn invalidate_all(&mut self, ids: &[ItemId]) {
        match ids {
            [] => {}
            [id] => self.invalidate(*id),
            _ => {
                let gone: rustc_hash::FxHashSet<ItemId> = ids.iter().copied().collect();
                self.map.retain(|k, _| !gone.contains(&k.id));
            }
        }
    }

    pub fn clear(&mut self) {
        self.map.clear();
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
