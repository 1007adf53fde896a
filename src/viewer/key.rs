//! A key as the keymap, the help and the config write it: `j`, `G`,
//! `Ctrl-d`, `PgDn`, `Space`.

use crossterm::event::KeyCode;

/// A key: what is pressed, with or without Ctrl.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

pub const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

pub const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

/// Named keys: (the names a config may use, the first is how ccv writes
/// it where no symbol is shorter; the code).
const NAMED: &[(&[&str], KeyCode)] = &[
    (&["Space"], KeyCode::Char(' ')),
    (&["Enter", "Return", "CR"], KeyCode::Enter),
    (&["Tab"], KeyCode::Tab),
    (&["Shift-Tab", "BackTab"], KeyCode::BackTab),
    (&["Esc", "Escape"], KeyCode::Esc),
    (&["Backspace", "BS"], KeyCode::Backspace),
    (&["Delete", "Del"], KeyCode::Delete),
    (&["Insert", "Ins"], KeyCode::Insert),
    (&["Up", "↑"], KeyCode::Up),
    (&["Down", "↓"], KeyCode::Down),
    (&["Left", "←"], KeyCode::Left),
    (&["Right", "→"], KeyCode::Right),
    (&["Home"], KeyCode::Home),
    (&["End"], KeyCode::End),
    (&["PgUp", "PageUp"], KeyCode::PageUp),
    (&["PgDn", "PageDown"], KeyCode::PageDown),
];

impl Key {
    /// How the help and the status bar write it.
    pub fn name(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Down => "↓".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => NAMED
                .iter()
                .find(|(_, c)| *c == other)
                .map_or_else(|| format!("{other:?}"), |(names, _)| names[0].to_owned()),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }

    /// How a config writes it: as [`Key::name`], arrows spelt out.
    pub fn config_name(&self) -> String {
        let base = match self.code {
            KeyCode::Up => "Up",
            KeyCode::Down => "Down",
            KeyCode::Left => "Left",
            KeyCode::Right => "Right",
            _ => return self.name(),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base.to_owned()
        }
    }

    /// Reads a key as a config writes it: `j`, `G`, `?`, `Ctrl-d` (also
    /// `C-d`, `ctrl+d`), `Enter`, `PgDn`, `F5`... Names ignore case; a
    /// single character is itself.
    pub fn parse(text: &str) -> Result<Key, String> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        for prefix in ["ctrl-", "ctrl+", "c-"] {
            if lower.starts_with(prefix) && t.len() > prefix.len() {
                let rest = Key::parse(&t[prefix.len()..])?;
                return match rest.code {
                    KeyCode::Char(c) if !rest.ctrl => Ok(ctrl(c.to_ascii_lowercase())),
                    // keys terminals send apart with Ctrl (CSI 1;5 H)
                    KeyCode::Home
                    | KeyCode::End
                    | KeyCode::Up
                    | KeyCode::Down
                    | KeyCode::Left
                    | KeyCode::Right
                    | KeyCode::PageUp
                    | KeyCode::PageDown
                        if !rest.ctrl =>
                    {
                        Ok(Key {
                            code: rest.code,
                            ctrl: true,
                        })
                    }
                    _ => Err(format!(
                        "`{t}`: Ctrl goes with a letter, a sign, an arrow, Home, End, PgUp or PgDn"
                    )),
                };
            }
        }
        if let Some((_, c)) = NAMED
            .iter()
            .find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(t)))
        {
            return Ok(code(*c));
        }
        let mut chars = t.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Ok(ch(c));
        }
        if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok())
            && (1..=12).contains(&n)
        {
            return Ok(code(KeyCode::F(n)));
        }
        Err(format!(
            "`{t}` is not a key (a character, Ctrl-x, Enter, Esc, Tab, Space, Up, PgDn, F1...)"
        ))
    }
}

/// The keys of one screen (the picker's, `ccv top`'s): each bound to one
/// of its actions, the defaults with a config's changes, and the hints it
/// shows written from them. (The viewer's own, with its help, is
/// [`crate::viewer::keymap::Keymap`].)
#[derive(Debug, Clone)]
pub struct KeyTable<A: 'static> {
    keys: Vec<(Key, A)>,
}

impl<A: Clone + PartialEq> KeyTable<A> {
    pub fn new(defaults: &[(Key, A)]) -> KeyTable<A> {
        KeyTable {
            keys: defaults.to_vec(),
        }
    }

    /// Binds `action` to `keys` instead of its keys (none: unbound); a key
    /// given is taken from the action that had it.
    pub fn rebind(&mut self, action: &A, keys: &[Key]) {
        // linear in the keys given: a config may list thousands
        let given: std::collections::HashSet<Key> = keys.iter().copied().collect();
        self.keys.retain(|(k, a)| a != action && !given.contains(k));
        let mut added = std::collections::HashSet::new();
        for k in keys {
            if added.insert(*k) {
                self.keys.push((*k, action.clone()));
            }
        }
    }

    /// The action of a key (Ctrl tells keys apart, Shift is in the letter).
    pub fn action(&self, code: KeyCode, ctrl: bool) -> Option<A> {
        self.keys
            .iter()
            .find(|(k, _)| k.code == code && k.ctrl == ctrl)
            .map(|(_, a)| a.clone())
    }

    pub fn keys_of<'a>(&'a self, action: &'a A) -> impl Iterator<Item = Key> + 'a {
        self.keys
            .iter()
            .filter(move |(_, a)| a == action)
            .map(|(k, _)| *k)
    }

    /// The first key of each action, as a hint writes them (`↑/↓`); `None`
    /// when one of them has no key.
    pub fn hint(&self, actions: &[&A]) -> Option<String> {
        let names: Option<Vec<String>> = actions
            .iter()
            .map(|a| self.keys_of(a).next().map(|k| k.name()))
            .collect();
        Some(names?.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screens_table_rebinds_and_hints() {
        let mut t = KeyTable::new(&[(ch('q'), 1), (code(KeyCode::Esc), 1), (ch('j'), 2)]);
        assert_eq!(t.action(KeyCode::Char('q'), false), Some(1));
        assert_eq!(t.hint(&[&1, &2]).as_deref(), Some("q/j"));
        // `j` taken from 2 and given to 1: 2 has no key, and no hint
        t.rebind(&1, &[ch('j')]);
        assert_eq!(t.action(KeyCode::Char('j'), false), Some(1));
        assert_eq!(t.action(KeyCode::Char('q'), false), None);
        assert_eq!(t.hint(&[&2]), None);
    }

    #[test]
    fn keys_read_as_they_are_written() {
        for (text, key) in [
            ("j", ch('j')),
            ("G", ch('G')),
            ("Ctrl-d", ctrl('d')),
            ("C-D", ctrl('d')),
            ("ctrl+f", ctrl('f')),
            ("Space", ch(' ')),
            ("enter", code(KeyCode::Enter)),
            ("PageDown", code(KeyCode::PageDown)),
            ("↓", code(KeyCode::Down)),
            ("F5", code(KeyCode::F(5))),
            (
                "Ctrl-Home",
                Key {
                    code: KeyCode::Home,
                    ctrl: true,
                },
            ),
            ("-", ch('-')),
        ] {
            assert_eq!(Key::parse(text), Ok(key), "{text}");
            // what ccv writes reads back as the same key
            assert_eq!(Key::parse(&key.name()), Ok(key), "{}", key.name());
        }
        for bad in ["", "jj", "Ctrl-Enter", "Hyper-x", "F13"] {
            assert!(Key::parse(bad).is_err(), "{bad:?} read as a key");
        }
    }
}
