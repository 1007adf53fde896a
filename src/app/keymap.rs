//! Keys and mouse -> [`Action`]. vim / less bindings.

use super::action::Action;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

/// A key: what is pressed, with or without Ctrl.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

impl Key {
    /// How the help and the status bar write it.
    pub fn name(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Down => "↓".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::Esc => "Esc".into(),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

/// One line of the help: the keys and the action each does, and what the
/// line says. The viewer's keys, its help and its status hints all read
/// this table (a user keymap would replace it).
pub struct Binding {
    pub keys: &'static [(Key, Action)],
    pub does: &'static str,
}

const fn bind(keys: &'static [(Key, Action)], does: &'static str) -> Binding {
    Binding { keys, does }
}

pub const BINDINGS: &[Binding] = &[
    bind(
        &[
            (ch('j'), Action::Down(1)),
            (ch('k'), Action::Up(1)),
            (code(KeyCode::Down), Action::Down(1)),
            (code(KeyCode::Up), Action::Up(1)),
        ],
        "select next / previous row",
    ),
    bind(
        &[
            (ch('g'), Action::Top),
            (ch('G'), Action::Bottom),
            (code(KeyCode::Home), Action::Top),
            (code(KeyCode::End), Action::Bottom),
        ],
        "first / last row",
    ),
    bind(
        &[
            (ctrl('d'), Action::HalfPageDown),
            (ctrl('u'), Action::HalfPageUp),
        ],
        "half page down / up",
    ),
    bind(
        &[
            (code(KeyCode::PageDown), Action::PageDown),
            (code(KeyCode::PageUp), Action::PageUp),
            (ctrl('f'), Action::PageDown),
            (ctrl('b'), Action::PageUp),
        ],
        "page down / up",
    ),
    bind(
        &[(ch('['), Action::PrevPrompt), (ch(']'), Action::NextPrompt)],
        "previous / next user prompt",
    ),
    bind(
        &[
            (code(KeyCode::Enter), Action::Toggle),
            (ch(' '), Action::Toggle),
            (code(KeyCode::Tab), Action::Toggle),
        ],
        "expand / collapse the row",
    ),
    bind(
        &[(ch('z'), Action::ShowAll)],
        "show the whole output (no folding)",
    ),
    bind(
        &[(ch('o'), Action::ExpandAll), (ch('O'), Action::CollapseAll)],
        "expand / collapse all",
    ),
    bind(
        &[(ch('/'), Action::SearchStart)],
        "search (tool output included)",
    ),
    bind(
        &[(ch('n'), Action::NextMatch), (ch('N'), Action::PrevMatch)],
        "next / previous match",
    ),
    bind(
        &[(ch('x'), Action::NextError), (ch('X'), Action::PrevError)],
        "next / previous error row",
    ),
    bind(&[(ch('t'), Action::ToggleTools)], "show / hide tool calls"),
    bind(&[(ch('T'), Action::ToggleThinking)], "show / hide thinking"),
    bind(
        &[(ch('m'), Action::ToggleMeta)],
        "show / hide meta and system rows",
    ),
    bind(
        &[(ch('f'), Action::Follow)],
        "follow the end of the session",
    ),
    bind(
        &[(ch('y'), Action::Copy)],
        "copy the row (a group: all its calls)",
    ),
    bind(
        &[(ch('v'), Action::Visual), (ch('V'), Action::Visual)],
        "select a range (j/k extend, y copies)",
    ),
    bind(
        &[(ch('Y'), Action::CopyAll)],
        "copy the transcript as filtered",
    ),
    bind(
        &[(ch('e'), Action::ExportMarkdown)],
        "write it to a markdown file",
    ),
    bind(
        &[(ch('>'), Action::OpenNewer), (ch('<'), Action::GoBack)],
        "open the newer session / go back",
    ),
    bind(
        &[(ch('R'), Action::Resume)],
        "resume in claude (or copy the command)",
    ),
    bind(&[], "mouse: wheel scrolls, click selects/toggles"),
    bind(&[], "Ctrl-z: suspend (fg comes back)"),
    bind(&[], "picker: Ctrl-F search all, Tab sort"),
    bind(&[(ch('?'), Action::Help)], "this help"),
    bind(
        &[
            (ch('q'), Action::Back),
            (code(KeyCode::Esc), Action::Dismiss),
            (ctrl('c'), Action::Quit),
        ],
        "close overlay, clear search, or quit",
    ),
];

/// The status bar's hints, most wanted first: what each says, and the
/// actions whose keys it names.
const HINTS: &[(&str, &[Action])] = &[
    ("help", &[Action::Help]),
    ("search", &[Action::SearchStart]),
    ("quit", &[Action::Back]),
    ("open", &[Action::Toggle]),
    ("copy", &[Action::Copy]),
    (
        "filters",
        &[
            Action::ToggleTools,
            Action::ToggleThinking,
            Action::ToggleMeta,
        ],
    ),
];

/// The first key bound to `action`.
fn key_for(action: &Action) -> Option<Key> {
    BINDINGS
        .iter()
        .flat_map(|b| b.keys.iter())
        .find(|(_, a)| a == action)
        .map(|(k, _)| *k)
}

/// The help overlay's lines: (keys, what they do).
pub fn help() -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .map(|b| {
            if b.keys.is_empty() {
                // not a key of this table (the mouse, the shell's Ctrl-z)
                let (k, d) = b.does.split_once(": ").unwrap_or(("", b.does));
                return (k.to_owned(), d);
            }
            let mut names: Vec<String> = Vec::new();
            for (k, _) in b.keys {
                let n = k.name();
                if names.contains(&n) {
                    continue;
                }
                // `Ctrl-d/u`: a pair of Ctrl keys reads as one
                match (names.last_mut(), n.strip_prefix("Ctrl-")) {
                    (Some(last), Some(rest)) if last.starts_with("Ctrl-") => {
                        last.push('/');
                        last.push_str(rest);
                    }
                    _ => names.push(n),
                }
            }
            (names.join(" "), b.does)
        })
        .collect()
}

/// The status bar's key hints, longest first: `? help  / search  q quit`...
/// in three lengths (all, the first three, the first).
pub fn hints() -> [String; 3] {
    let hint = |(what, actions): &(&str, &[Action])| {
        let keys: Vec<String> = actions
            .iter()
            .filter_map(key_for)
            .map(|k| k.name())
            .collect();
        format!("{} {what}  ", keys.join(" "))
    };
    let all: Vec<String> = HINTS.iter().map(hint).collect();
    // the order they read in: help, search, open, copy, filters, quit
    let order = [0, 1, 3, 4, 5, 2];
    let long: String = order.iter().map(|&i| all[i].as_str()).collect();
    let short: String = [0, 1, 2].iter().map(|&i| all[i].as_str()).collect();
    [
        long.trim_end().to_owned() + " ",
        short.trim_end().to_owned() + " ",
        all[0].trim_end().to_owned() + " ",
    ]
}

/// Maps a terminal event in normal mode (no prompt open).
pub fn map(ev: &Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => map_key(k),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::ScrollDown),
            MouseEventKind::ScrollUp => Some(Action::ScrollUp),
            MouseEventKind::Down(crossterm::event::MouseButton::Left) => Some(Action::Click(m.row)),
            _ => None,
        },
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

fn map_key(k: &KeyEvent) -> Option<Action> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    // terminals send Shift+letter as the upper-case letter, some with the
    // Shift modifier too: only Ctrl tells keys apart here
    BINDINGS
        .iter()
        .flat_map(|b| b.keys.iter())
        .find(|(key, _)| key.code == k.code && key.ctrl == ctrl)
        .map(|(_, a)| a.clone())
}

/// Maps a key while the search prompt is open.
pub fn map_prompt(ev: &Event) -> Option<Action> {
    let Event::Key(k) = ev else { return map(ev) };
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char('c') if ctrl => Action::SearchCancel,
        KeyCode::Enter => Action::SearchSubmit,
        KeyCode::Esc => Action::SearchCancel,
        KeyCode::Backspace => Action::SearchBackspace,
        KeyCode::Char(c) => Action::SearchInput(c),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEvent;

    fn key(c: KeyCode) -> Event {
        Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
    }

    #[test]
    fn vim_keys_map_to_actions() {
        assert_eq!(map(&key(KeyCode::Char('j'))), Some(Action::Down(1)));
        assert_eq!(map(&key(KeyCode::Char('G'))), Some(Action::Bottom));
        assert_eq!(map(&key(KeyCode::Enter)), Some(Action::Toggle));
        let ctrl_d = Event::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
        assert_eq!(map(&ctrl_d), Some(Action::HalfPageDown));
        assert_eq!(
            map_prompt(&key(KeyCode::Char('j'))),
            Some(Action::SearchInput('j'))
        );
    }

    #[test]
    fn every_key_is_bound_once_and_in_the_help() {
        let mut seen = Vec::new();
        for b in BINDINGS {
            for (k, _) in b.keys {
                assert!(!seen.contains(k), "{} bound twice", k.name());
                seen.push(*k);
            }
        }
        let help = help();
        for k in &seen {
            assert!(
                help.iter()
                    .any(|(keys, _)| keys.split(' ').any(|n| n == k.name()
                        || (k.ctrl && n.starts_with("Ctrl-") && n.contains(&k.name()[5..])))),
                "{} missing from the help",
                k.name()
            );
        }
    }

    #[test]
    fn hints_name_the_bound_keys() {
        let [long, short, least] = hints();
        assert_eq!(
            long,
            "? help  / search  Enter open  y copy  t T m filters  q quit "
        );
        assert_eq!(short, "? help  / search  q quit ");
        assert_eq!(least, "? help ");
    }
}
