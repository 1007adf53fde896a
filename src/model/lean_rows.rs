//! The rows of answers a read for figures takes in without making items of
//! them (see `source::claude::lean`). An answer's blocks were items like
//! any other (an item is 128 bytes, a call 232 more, with its id and name
//! and the index of calls by id): their making was a tenth of a cold
//! listing's time, for figures that read four things of them. A lean row
//! keeps those four: its place among the rows (its id: rows are numbered
//! as they are made), its time, its message and, for a call, its name.
//! The figures then read the items and these rows as the one list the
//! model would have made (`model::figures`).
//!
//! That list is the model's only while every row, item or lean, went at
//! the end: the model puts a block after its message's last one when only
//! hooks' or notes' rows came since, and moves a result onto its call. A
//! row that would have gone elsewhere, an item of a message after its
//! lean rows that the model puts elsewhere, a result of a lean call read
//! before it or twice, any item put or taken out in the middle: the rows
//! are [`LeanRows::broken`], and the session is read again the usual way
//! (see `Session::lean_lines_hold`).

use super::item::{ItemId, Kind};
use super::transcript::Transcript;

/// `Message::last_item` of a message whose last row is lean: this bit
/// and the row's id.
pub(crate) const LEAN_ROW: usize = 1 << (usize::BITS - 1);

#[derive(Debug, Default)]
pub struct LeanRows {
    /// The calls, in the order they were read.
    pub calls: Vec<LeanCall>,
    /// The calls' names (a session calls a few tools many times), and
    /// each one's index.
    pub names: Vec<Box<str>>,
    by_name: rustc_hash::FxHashMap<Box<str>, u32>,
    /// The time of the last lean row before each item that follows lean
    /// rows: (the item's index, the time).
    pub times: Vec<(usize, i64)>,
    /// Each message's first lean row, and its first after each of its
    /// items: (message, row, time).
    pub firsts: Vec<(u32, ItemId, i64)>,
    /// The first lean row of a message that names its model, in each
    /// turn that has one: (turn, row, message).
    pub turn_models: Vec<(usize, ItemId, u32)>,
    /// The calls of each id not answered yet, the first and the last
    /// (the others linked by [`LeanCall::next_same`]), made when a result
    /// first asks: a result goes on the first.
    by_id: Option<rustc_hash::FxHashMap<Box<str>, (u32, u32)>>,
    /// The newest row, and the newest that is not a hook's or a note's.
    newest: Option<ItemId>,
    last_flow: Option<ItemId>,
    /// The rows are not the model's list (see the module's comment).
    pub(crate) broken: bool,
}

#[derive(Debug)]
pub struct LeanCall {
    pub at: i64,
    pub message: Option<u32>,
    /// Index into [`LeanRows::names`].
    pub name: u32,
    pub id: Box<str>,
    /// The next call of the same id ([`NONE`]: none), once a result asked.
    next_same: u32,
}

/// No call (see [`LeanCall::next_same`]).
const NONE: u32 = u32::MAX;

impl LeanRows {
    /// The model's message of turn `turn`'s first lean row that names
    /// one, and that row.
    pub fn turn_model(&self, turn: usize) -> Option<(ItemId, u32)> {
        let i = self
            .turn_models
            .binary_search_by_key(&turn, |&(t, _, _)| t)
            .ok()?;
        self.turn_models.get(i).map(|&(_, row, m)| (row, m))
    }

    /// A result of call `id` read: whether it is a lean call's first,
    /// which the model puts on its call (no row of its own). A second
    /// result of a lean call is shown on its own and flagged by the
    /// model, which a lean call cannot tell: the rows are broken.
    pub(crate) fn answer(&mut self, id: &str) -> bool {
        if self.by_id.is_none() {
            let mut by_id = rustc_hash::FxHashMap::default();
            for i in 0..self.calls.len() {
                link(&mut self.calls, &mut by_id, i);
            }
            self.by_id = Some(by_id);
        }
        let Some((first, _)) = self.by_id.as_mut().and_then(|b| b.get_mut(id)) else {
            return false;
        };
        match self.calls.get(*first as usize) {
            Some(c) => {
                *first = c.next_same;
                true
            }
            None => {
                self.broken = true;
                false
            }
        }
    }

    /// Notes an item put at the end; `after` its message's last row when
    /// that row is lean (where the model looked for the item's place).
    pub(crate) fn item_appended(&mut self, id: ItemId, kind: Kind, after: Option<ItemId>) {
        if let Some(l) = after {
            self.broken |= !self.at_end_after(l);
        }
        self.newest = Some(id);
        if !matches!(kind, Kind::System | Kind::Meta) {
            self.last_flow = Some(id);
        }
    }

    /// Whether the model puts a new row of a message whose last row is
    /// `last` at the end (see `Transcript::position_for_message`): right
    /// after that row, or past a row of the conversation since; else it
    /// goes after that row, before the hooks' and notes' rows since.
    fn at_end_after(&self, last: ItemId) -> bool {
        self.newest == Some(last) || self.last_flow.is_some_and(|f| f > last)
    }
}

/// A call's id hashed (see `Session::lean_lines_hold`).
pub fn call_hash(id: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(id)
}

/// Links call `i` after the calls of its id not answered yet.
fn link(calls: &mut [LeanCall], by_id: &mut rustc_hash::FxHashMap<Box<str>, (u32, u32)>, i: usize) {
    let i = i as u32;
    let Some(id) = calls.get(i as usize).map(|c| c.id.clone()) else {
        return;
    };
    let (first, last) = by_id.entry(id).or_insert((NONE, NONE));
    if let Some(c) = calls.get_mut(*last as usize) {
        c.next_same = i;
    }
    if *first == NONE {
        *first = i;
    }
    *last = i;
}

impl Transcript {
    /// Takes in row `id` of message `m` (of no message: `None`), read at
    /// `at`: a call when `call` names it (name, id), else a text or a
    /// thinking.
    pub(crate) fn push_lean_row(
        &mut self,
        id: ItemId,
        m: Option<u32>,
        at: i64,
        call: Option<(&str, &str)>,
    ) {
        let items = &self.items;
        let lean = self.lean.get_or_insert_with(|| {
            Box::new(LeanRows {
                newest: items.last().map(|i| i.id),
                last_flow: items
                    .iter()
                    .rev()
                    .find(|i| !matches!(i.kind, Kind::System | Kind::Meta))
                    .map(|i| i.id),
                ..LeanRows::default()
            })
        });
        // rows were put in the middle: ids no longer follow the list
        lean.broken |= self.reordered || id as usize >= LEAN_ROW;
        if let Some(m) = m
            && let Some(msg) = self.messages.get_mut(m as usize)
        {
            let last = match msg.last_item {
                usize::MAX => None,
                l if l & LEAN_ROW != 0 => Some((l & !LEAN_ROW) as ItemId),
                l => items.get(l).map(|i| i.id),
            };
            if let Some(l) = last {
                lean.broken |= !lean.at_end_after(l);
            }
            // the first lean row since an item of the message: the
            // message is dated by its first row that has a time, which
            // an item before it may not have had
            if last.is_none() || msg.last_item & LEAN_ROW == 0 {
                lean.firsts.push((m, id, at));
            }
            msg.last_item = LEAN_ROW | id as usize;
            if msg.model.is_some()
                && let Some(turn) = self.turns.len().checked_sub(1)
                && lean.turn_models.last().is_none_or(|&(t, _, _)| t < turn)
            {
                lean.turn_models.push((turn, id, m));
            }
        }
        lean.newest = Some(id);
        lean.last_flow = Some(id);
        match lean.times.last_mut() {
            Some((before, t)) if *before == items.len() => *t = at,
            _ => lean.times.push((items.len(), at)),
        }
        if let Some((name, call_id)) = call {
            let name = match lean.by_name.get(name) {
                Some(&n) => n,
                None => {
                    let n = lean.names.len() as u32;
                    lean.names.push(name.into());
                    lean.by_name.insert(name.into(), n);
                    n
                }
            };
            lean.calls.push(LeanCall {
                at,
                message: m,
                name,
                id: call_id.into(),
                next_same: NONE,
            });
            let i = lean.calls.len() - 1;
            if let Some(by_id) = &mut lean.by_id {
                link(&mut lean.calls, by_id, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result goes on its lean call once; a second result of it is one
    /// the model shows on its own (the rows are then not the model's).
    #[test]
    fn a_lean_calls_result_goes_on_it_once() {
        let mut t = Transcript::default();
        let m = t.upsert_message("m0", Some("claude-sonnet-4-5"), None, Some(0), false);
        t.push_lean_row(1, Some(m), 0, Some(("Bash", "t0")));
        t.push_lean_row(2, Some(m), 0, Some(("Read", "t1")));
        let lean = t.lean.as_mut().expect("lean rows");
        assert!(!lean.answer("t9"), "no such call");
        assert!(lean.answer("t1"));
        assert!(lean.answer("t0"));
        assert!(!lean.broken);
        assert!(!lean.answer("t0"), "answered already");
        assert!(lean.broken);
        // calls of one id take their results in turn, those read after a
        // result asked too
        let mut t = Transcript::default();
        t.push_lean_row(1, None, 0, Some(("Bash", "t2")));
        t.push_lean_row(2, None, 0, Some(("Bash", "t2")));
        let answer = |t: &mut Transcript| t.lean.as_mut().is_some_and(|l| l.answer("t2"));
        assert!(answer(&mut t) && answer(&mut t));
        t.push_lean_row(3, None, 0, Some(("Bash", "t2")));
        assert!(answer(&mut t));
        assert!(t.lean.as_ref().is_some_and(|l| !l.broken));
        assert!(!answer(&mut t));
        assert!(t.lean.as_ref().is_some_and(|l| l.broken));
        let names: Vec<&str> = lean.names.iter().map(|n| &**n).collect();
        assert_eq!(names, ["Bash", "Read"]);
    }

    /// A row after its message's last one with only a note since goes,
    /// in the model, before the note: not where a lean row is.
    #[test]
    fn a_row_the_model_puts_before_a_note_breaks_the_rows() {
        let mut t = Transcript::default();
        let m = t.upsert_message("m0", None, None, Some(0), false);
        t.push_lean_row(1, Some(m), 0, None);
        let row = |kind: Kind| crate::model::Item {
            id: 2,
            kind,
            source: 0,
            line: 2,
            uuid: None,
            parent_uuid: None,
            timestamp: None,
            text: Default::default(),
            flags: Default::default(),
            message: None,
            group: None,
            off_branch: false,
            detail: Default::default(),
        };
        t.insert(usize::MAX, row(Kind::System));
        t.push_lean_row(3, Some(m), 0, None);
        assert!(t.lean.as_ref().is_some_and(|l| l.broken));
        // past a row of the conversation, it goes at the end as it does
        let mut t = Transcript::default();
        let m = t.upsert_message("m0", None, None, Some(0), false);
        t.push_lean_row(1, Some(m), 0, None);
        t.insert(usize::MAX, row(Kind::User));
        t.push_lean_row(3, Some(m), 0, None);
        assert!(t.lean.as_ref().is_some_and(|l| !l.broken));
    }
}
