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
    (&["BackTab", "Shift-Tab"], KeyCode::BackTab),
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
                    _ => Err(format!("`{t}`: Ctrl goes with a letter or a sign")),
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

#[cfg(test)]
mod tests {
    use super::*;

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
