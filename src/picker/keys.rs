//! The picker's keys: the one table its key handling, its hints and a
//! config's `[keys.picker]` read. Typing and the line-editing keys of the
//! filter (Ctrl-W, Ctrl-U, Alt-P…) are the filter's, not in it.

use super::ui::Action;
use crate::viewer::key::{Key, KeyTable, code, ctrl};
use crossterm::event::KeyCode;

/// (the name a config gives it, the action, its default keys, what it
/// does): `ccv config --default` writes them from here.
pub const KEYS: &[(&str, Action, &[Key], &str)] = &[
    (
        "up",
        Action::Up,
        &[code(KeyCode::Up), ctrl('p'), ctrl('k')],
        "previous session",
    ),
    (
        "down",
        Action::Down,
        &[code(KeyCode::Down), ctrl('n'), ctrl('j')],
        "next session",
    ),
    (
        "page_up",
        Action::PageUp,
        &[code(KeyCode::PageUp)],
        "page up",
    ),
    (
        "page_down",
        Action::PageDown,
        &[code(KeyCode::PageDown)],
        "page down",
    ),
    ("first", Action::Top, &[CTRL_HOME], "first session"),
    ("last", Action::Bottom, &[CTRL_END], "last session"),
    (
        "open",
        Action::Open,
        &[code(KeyCode::Enter), ctrl('m')],
        "open the session",
    ),
    (
        "back",
        Action::Back,
        &[code(KeyCode::Esc)],
        "clear the filter, or quit",
    ),
    ("quit", Action::Quit, &[ctrl('c'), ctrl('g')], "quit"),
    (
        "sort",
        Action::CycleSort,
        &[code(KeyCode::Tab)],
        "sort by newest, cost, size",
    ),
    (
        "agent",
        Action::CycleAgent,
        &[code(KeyCode::BackTab)],
        "every agent's sessions, or one agent's",
    ),
    (
        "search",
        Action::FullText,
        &[ctrl('f')],
        "search every session's words",
    ),
];

const CTRL_HOME: Key = Key {
    code: KeyCode::Home,
    ctrl: true,
};
const CTRL_END: Key = Key {
    code: KeyCode::End,
    ctrl: true,
};

/// The action a config names (`open`, `sort`…).
pub fn named(name: &str) -> Option<Action> {
    KEYS.iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, a, ..)| a.clone())
}

/// The default table.
pub fn defaults() -> KeyTable<Action> {
    let keys: Vec<(Key, Action)> = KEYS
        .iter()
        .flat_map(|(_, a, keys, _)| keys.iter().map(move |k| (*k, a.clone())))
        .collect();
    KeyTable::new(&keys)
}
