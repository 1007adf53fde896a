//! `ccv top`'s keys: the one table its key handling, its hints and a
//! config's `[keys.top]` read.

use crate::viewer::key::{Key, KeyTable, ch, code, ctrl};
use crossterm::event::KeyCode;

/// What a key does on the overview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopAction {
    Up,
    Down,
    First,
    Last,
    /// Open the selected session, following its end.
    Open,
    Quit,
}

/// (the name a config gives it, the action, its default keys, what it
/// does): `ccv config --default` writes them from here.
pub const KEYS: &[(&str, TopAction, &[Key], &str)] = &[
    (
        "up",
        TopAction::Up,
        &[code(KeyCode::Up), ch('k')],
        "previous session",
    ),
    (
        "down",
        TopAction::Down,
        &[code(KeyCode::Down), ch('j')],
        "next session",
    ),
    (
        "first",
        TopAction::First,
        &[code(KeyCode::Home), ch('g')],
        "first session",
    ),
    (
        "last",
        TopAction::Last,
        &[code(KeyCode::End), ch('G')],
        "last session",
    ),
    (
        "open",
        TopAction::Open,
        &[code(KeyCode::Enter)],
        "open it, following its end",
    ),
    (
        "quit",
        TopAction::Quit,
        &[ch('q'), code(KeyCode::Esc), ctrl('c')],
        "quit",
    ),
];

/// The action a config names (`open`, `quit`…).
pub fn named(name: &str) -> Option<TopAction> {
    KEYS.iter().find(|(n, ..)| *n == name).map(|(_, a, ..)| *a)
}

/// The default table.
pub fn defaults() -> KeyTable<TopAction> {
    let keys: Vec<(Key, TopAction)> = KEYS
        .iter()
        .flat_map(|(_, a, keys, _)| keys.iter().map(move |k| (*k, *a)))
        .collect();
    KeyTable::new(&keys)
}
