//! Keys and mouse -> [`Action`]. vim / less bindings by default; a
//! config's `[keys]` table changes them, and the help and the status
//! hints read the same [`Keymap`], so a remapped key shows there too.

use super::action::{Action, Pending};
pub use super::key::Key;
use super::key::{ch, code, ctrl};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

/// One line of the help: the default keys and the action each does, and
/// what the line says.
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
        "show the whole output or long text",
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
    bind(
        &[(ch(':'), Action::CommandStart)],
        "command line: :LINE :export F :set",
    ),
    bind(
        &[
            (ch('m'), Action::Pending(Pending::SetMark)),
            (ch('\''), Action::Pending(Pending::GotoMark)),
        ],
        "mark a-z / go to a mark ('' back)",
    ),
    bind(&[(ch('t'), Action::ToggleTools)], "show / hide tool calls"),
    bind(&[(ch('T'), Action::ToggleThinking)], "show / hide thinking"),
    bind(
        &[(ch('s'), Action::ToggleMeta)],
        "show / hide meta and system rows",
    ),
    bind(&[(ch('!'), Action::ToggleErrors)], "show only errors / all"),
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
        &[(ch('c'), Action::Pending(Pending::CopyPart))],
        "copy a part of the row (see COPY_PARTS)",
    ),
    bind(
        &[(ch('Y'), Action::CopyAll)],
        "copy the transcript as filtered",
    ),
    bind(
        &[(ch('E'), Action::EditLine), (ch('F'), Action::EditFile)],
        "editor: JSONL line / file or output",
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
    bind(
        &[(ch('#'), Action::ToggleRedact)],
        "redact: copies / + screen / off",
    ),
    bind(&[(ch('M'), Action::ToggleMouse)], "mouse capture on / off"),
    bind(&[], "Ctrl-z: suspend (fg comes back)"),
    bind(&[], "picker: Ctrl-F search all, Tab sort"),
    bind(
        &[(ch('i'), Action::Info)],
        "the session in figures: lines, cost",
    ),
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

/// A part of the selected row that `c` copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// A call's command (Bash) or input; a message's text.
    Input,
    /// A call's output alone.
    Output,
    /// The file a call names.
    Path,
    SessionId,
    /// `FILE:LINE` of the row.
    Place,
}

/// The keys after `c`: the one table the copy, its prompt and the help
/// read (`i` is also the input).
/// Each: its key, the part, what the prompt calls it, what the help does.
pub const COPY_PARTS: &[(char, Part, &str, &str)] = &[
    ('c', Part::Input, "command/input", "input"),
    ('o', Part::Output, "output", "output"),
    ('p', Part::Path, "path", "path"),
    ('s', Part::SessionId, "session id", "id"),
    ('l', Part::Place, "FILE:LINE", "line"),
];

/// The part key `k` names after `c`.
pub fn copy_part_of(k: char) -> Option<Part> {
    if k == 'i' {
        return Some(Part::Input);
    }
    COPY_PARTS
        .iter()
        .find(|(c, ..)| *c == k)
        .map(|(_, p, ..)| *p)
}

/// `c command/input  o output  p path  s session id  l FILE:LINE`.
pub fn copy_parts_line() -> String {
    COPY_PARTS
        .iter()
        .map(|(k, _, what, _)| format!("{k} {what}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The help's line for `c` (`+ c input o output…`: the key that follows), made
/// from [`COPY_PARTS`].
fn copy_parts_help() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        let parts: Vec<String> = COPY_PARTS
            .iter()
            .map(|(k, _, _, short)| format!("{k} {short}"))
            .collect();
        format!("+ {}", parts.join(" "))
    })
}

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

/// The keys in use: the defaults with a config's changes. Every key maps
/// to one action; an action may have several keys, or none.
#[derive(Debug, Clone)]
pub struct Keymap {
    keys: Vec<(Key, Action)>,
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap {
            keys: BINDINGS
                .iter()
                .flat_map(|b| b.keys.iter().cloned())
                .collect(),
        }
    }
}

impl Keymap {
    /// Binds `action` to `keys` instead of its keys (none: unbound). A key
    /// given to an action is taken from the one it had.
    pub fn rebind(&mut self, action: &Action, keys: &[Key]) {
        // linear in the keys given: a config may list thousands
        let mut given: Vec<Key> = Vec::with_capacity(keys.len());
        let mut seen = std::collections::HashSet::new();
        for k in keys {
            if seen.insert(*k) {
                given.push(*k);
            }
        }
        self.keys.retain(|(k, a)| a != action && !seen.contains(k));
        // where the action's help line is, so the help keeps its order
        let line = help_line(action);
        let at = self
            .keys
            .iter()
            .position(|(_, a)| help_line(a) > line)
            .unwrap_or(self.keys.len());
        self.keys
            .splice(at..at, given.into_iter().map(|k| (k, action.clone())));
    }

    /// Whether some key still leaves the viewer (quit, back or dismiss).
    pub fn has_way_out(&self) -> bool {
        self.keys
            .iter()
            .any(|(_, a)| matches!(a, Action::Quit | Action::Back | Action::Dismiss))
    }

    /// Makes sure a key leaves: a keymap that unbound every way out gets
    /// Ctrl-C back as quit. Returns whether it had to.
    pub fn keep_a_way_out(&mut self) -> bool {
        if self.has_way_out() {
            return false;
        }
        self.rebind(&Action::Quit, &[ctrl('c')]);
        true
    }

    /// The action of a key press in normal mode.
    pub fn action(&self, k: &KeyEvent) -> Option<Action> {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        // terminals send Shift+letter as the upper-case letter, some with
        // the Shift modifier too: only Ctrl tells keys apart here
        self.keys
            .iter()
            .find(|(key, _)| key.code == k.code && key.ctrl == ctrl)
            .map(|(_, a)| a.clone())
    }

    /// The keys bound to `action`, in the order they were given.
    pub fn keys_of<'a>(&'a self, action: &'a Action) -> impl Iterator<Item = Key> + 'a {
        self.keys
            .iter()
            .filter(move |(_, a)| a == action)
            .map(|(k, _)| *k)
    }

    /// The help overlay's lines: (keys, what they do), each line's keys as
    /// bound now.
    pub fn help(&self) -> Vec<(String, &'static str)> {
        BINDINGS
            .iter()
            .map(|b| {
                if b.keys.is_empty() {
                    // not a key of this table (the shell's Ctrl-z)
                    let (k, d) = b.does.split_once(": ").unwrap_or(("", b.does));
                    return (k.to_owned(), d);
                }
                let does = if b
                    .keys
                    .iter()
                    .any(|(_, a)| *a == Action::Pending(Pending::CopyPart))
                {
                    copy_parts_help()
                } else {
                    b.does
                };
                // action by action, in the order the line says them ("mark
                // / go to a mark"): its default keys still bound, then the
                // keys a config gave it
                let mut keys: Vec<Key> = Vec::new();
                let mut done: Vec<&Action> = Vec::new();
                for (_, a) in b.keys {
                    if done.contains(&a) {
                        continue;
                    }
                    done.push(a);
                    let defaults = b.keys.iter().filter(|(k, x)| {
                        x == a && self.keys.iter().any(|(k2, a2)| k2 == k && a2 == a)
                    });
                    for k in defaults.map(|(k, _)| *k).chain(self.keys_of(a)) {
                        if !keys.contains(&k) {
                            keys.push(k);
                        }
                    }
                }
                // plain keys first, then Ctrl ones, each in action order:
                // `PgDn PgUp Ctrl-f/b`
                keys.sort_by_key(|k| k.ctrl);
                (names(&keys), does)
            })
            .collect()
    }

    /// The status bar's key hints, longest first: `? help  / search  q
    /// quit`... in three lengths (all, the first three, the first).
    pub fn hints(&self) -> [String; 3] {
        let hint = |(what, actions): &(&str, &[Action])| {
            let keys: Vec<String> = actions
                .iter()
                .filter_map(|a| self.keys_of(a).next())
                .map(|k| k.name())
                .collect();
            if keys.is_empty() {
                String::new()
            } else {
                format!("{} {what}  ", keys.join(" "))
            }
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
    pub fn map(&self, ev: &Event) -> Option<Action> {
        match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => self.action(k),
            Event::Mouse(m) => match m.kind {
                MouseEventKind::ScrollDown => Some(Action::ScrollDown),
                MouseEventKind::ScrollUp => Some(Action::ScrollUp),
                MouseEventKind::Down(crossterm::event::MouseButton::Left) => {
                    Some(Action::Click(m.row))
                }
                _ => None,
            },
            Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
            _ => None,
        }
    }
}

/// The index of the help line that holds `action` (past the end: none).
fn help_line(action: &Action) -> usize {
    BINDINGS
        .iter()
        .position(|b| b.keys.iter().any(|(_, a)| a == action))
        .unwrap_or(BINDINGS.len())
}

/// `j k ↓ ↑`, with a pair of Ctrl keys written as one: `Ctrl-d/u`.
fn names(keys: &[Key]) -> String {
    let mut names: Vec<String> = Vec::new();
    for k in keys {
        let n = k.name();
        if names.contains(&n) {
            continue;
        }
        match (names.last_mut(), n.strip_prefix("Ctrl-")) {
            (Some(last), Some(rest)) if last.starts_with("Ctrl-") => {
                last.push('/');
                last.push_str(rest);
            }
            _ => names.push(n),
        }
    }
    names.join(" ")
}

/// The default keymap's help lines.
pub fn help() -> Vec<(String, &'static str)> {
    Keymap::default().help()
}

/// The default keymap's hints.
pub fn hints() -> [String; 3] {
    Keymap::default().hints()
}

/// Maps a key while a prompt (search, command line) is open.
pub fn map_prompt(keys: &Keymap, ev: &Event) -> Option<Action> {
    let Event::Key(k) = ev else {
        return keys.map(ev);
    };
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    let alt = k.modifiers.contains(KeyModifiers::ALT);
    Some(match k.code {
        KeyCode::Char('c' | 'g') if ctrl => Action::PromptCancel,
        KeyCode::Char('j' | 'm') if ctrl => Action::PromptSubmit,
        KeyCode::Enter => Action::PromptSubmit,
        KeyCode::Esc => Action::PromptCancel,
        KeyCode::Backspace if !ctrl && !alt => Action::PromptBackspace,
        KeyCode::Char('h') if ctrl => Action::PromptBackspace,
        // Ctrl-F / Ctrl-N / Ctrl-P as in a shell
        KeyCode::Char('f') if ctrl => Action::PromptEdit(crate::prompt::EditOp::Right),
        KeyCode::Char('p') if ctrl => Action::PromptEdit(crate::prompt::EditOp::Older),
        KeyCode::Char('n') if ctrl => Action::PromptEdit(crate::prompt::EditOp::Newer),
        KeyCode::Char(c) if !ctrl && !alt && !c.is_control() => Action::PromptInput(c),
        _ => Action::PromptEdit(crate::prompt::op_of(k)?),
    })
}

/// Maps the key after a pending one (`m`, `'`, `c`): a character is its
/// argument; Esc or anything else cancels.
pub fn map_pending(keys: &Keymap, ev: &Event) -> Option<Action> {
    let Event::Key(k) = ev else {
        return keys.map(ev);
    };
    if k.kind == KeyEventKind::Release {
        return None;
    }
    match k.code {
        KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
            Some(Action::PendingKey(c))
        }
        _ => Some(Action::PromptCancel),
    }
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
        let map = |e: &Event| Keymap::default().map(e);
        assert_eq!(map(&key(KeyCode::Char('j'))), Some(Action::Down(1)));
        assert_eq!(map(&key(KeyCode::Char('G'))), Some(Action::Bottom));
        assert_eq!(map(&key(KeyCode::Enter)), Some(Action::Toggle));
        let ctrl_d = Event::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
        assert_eq!(map(&ctrl_d), Some(Action::HalfPageDown));
        assert_eq!(
            map_prompt(&Keymap::default(), &key(KeyCode::Char('j'))),
            Some(Action::PromptInput('j'))
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
            "? help  / search  Enter open  y copy  t T s filters  q quit "
        );
        assert_eq!(short, "? help  / search  q quit ");
        assert_eq!(least, "? help ");
    }
}

#[cfg(test)]
mod parts {
    use super::*;

    /// The keys after `c` are one table: what the help says, what the
    /// prompt offers and what the copy takes cannot drift apart.
    #[test]
    fn every_copy_part_is_in_the_help_the_prompt_and_the_copy() {
        let help = help();
        let line = help
            .iter()
            .find(|(k, _)| k == "c")
            .map(|(_, d)| *d)
            .expect("the c line");
        for (k, part, what, short) in COPY_PARTS {
            assert!(line.contains(&format!("{k} {short}")), "{line}");
            assert!(copy_parts_line().contains(&format!("{k} {what}")));
            assert_eq!(copy_part_of(*k), Some(*part));
        }
        assert_eq!(copy_part_of('x'), None);
    }
}
