//! A line being typed (the viewer's `/` and `:`, the picker's filter and
//! its full-text query): readline's editing keys, as in fzf and less, and
//! a history per kind of prompt kept in the state directory.
//!
//! Hand-written rather than a line-editor crate: those (rustyline,
//! reedline) own the terminal, and these prompts are one status line of
//! a ratatui screen.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::path::{Path, PathBuf};

/// What a key does to a line being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    Insert(char),
    /// Backspace, Ctrl-H.
    Backspace,
    /// Delete.
    Delete,
    /// Ctrl-W, Alt-Backspace: the word before the cursor.
    KillWordBack,
    /// Ctrl-U: everything before the cursor.
    KillToStart,
    /// Ctrl-K: everything from the cursor on.
    KillToEnd,
    /// Ctrl-A, Home.
    Home,
    /// Ctrl-E, End.
    End,
    Left,
    Right,
    /// Alt-B / Alt-F: a word back / forward.
    WordLeft,
    WordRight,
    /// Up / Down: the older / newer line of the history.
    Older,
    Newer,
}

/// The editing a key asks for in a prompt; `None` for the keys the
/// prompt's owner handles (Enter, Esc, Ctrl-C...). `Left`/`Right` and
/// `Up`/`Down` are left to the caller when `arrows_move` (the picker's
/// list moves on them): there, the history is on Alt-P / Alt-N.
pub fn op_of(key: &KeyEvent) -> Option<EditOp> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    Some(match key.code {
        KeyCode::Char('h') if ctrl => EditOp::Backspace,
        KeyCode::Char('w') if ctrl => EditOp::KillWordBack,
        KeyCode::Char('u') if ctrl => EditOp::KillToStart,
        KeyCode::Char('k') if ctrl => EditOp::KillToEnd,
        KeyCode::Char('a') if ctrl => EditOp::Home,
        KeyCode::Char('e') if ctrl => EditOp::End,
        KeyCode::Char('b') if ctrl => EditOp::Left,
        KeyCode::Char('b') if alt => EditOp::WordLeft,
        KeyCode::Char('f') if alt => EditOp::WordRight,
        KeyCode::Char('p') if alt => EditOp::Older,
        KeyCode::Char('n') if alt => EditOp::Newer,
        KeyCode::Backspace if alt || ctrl => EditOp::KillWordBack,
        KeyCode::Backspace => EditOp::Backspace,
        KeyCode::Delete => EditOp::Delete,
        KeyCode::Home => EditOp::Home,
        KeyCode::End => EditOp::End,
        KeyCode::Left if ctrl || alt => EditOp::WordLeft,
        KeyCode::Right if ctrl || alt => EditOp::WordRight,
        KeyCode::Left => EditOp::Left,
        KeyCode::Right => EditOp::Right,
        KeyCode::Up => EditOp::Older,
        KeyCode::Down => EditOp::Newer,
        KeyCode::Char(c) if !ctrl && !alt && !c.is_control() => EditOp::Insert(c),
        _ => return None,
    })
}

/// A line and its cursor (a byte offset at a character boundary), and,
/// while the history is browsed, where in it and what was typed before.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    cursor: usize,
    browsing: Option<(usize, String)>,
}

/// The longest line a prompt holds (a paste of a whole file is cut).
pub const MAX_CHARS: usize = 1000;

impl LineEdit {
    /// `text`, the cursor at its end.
    pub fn new(text: &str) -> LineEdit {
        LineEdit {
            text: text.to_owned(),
            cursor: text.len(),
            browsing: None,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The text before and after the cursor.
    pub fn split(&self) -> (&str, &str) {
        self.text.split_at(self.cursor)
    }

    /// Replaces the line, the cursor at its end.
    pub fn set(&mut self, text: &str) {
        *self = LineEdit::new(text);
    }

    /// Applies `op`, browsing `history` (oldest first) on Up / Down;
    /// true when the text changed.
    pub fn apply(&mut self, op: EditOp, history: &[String]) -> bool {
        let before = self.text.len();
        let old = (op != EditOp::Older && op != EditOp::Newer).then(|| self.text.clone());
        match op {
            EditOp::Insert(c) => {
                if self.text.chars().count() < MAX_CHARS {
                    self.text.insert(self.cursor, c);
                    self.cursor += c.len_utf8();
                }
            }
            EditOp::Backspace => {
                if let Some(c) = self.text[..self.cursor].chars().next_back() {
                    self.cursor -= c.len_utf8();
                    self.text.remove(self.cursor);
                }
            }
            EditOp::Delete => {
                if self.cursor < self.text.len() {
                    self.text.remove(self.cursor);
                }
            }
            EditOp::KillWordBack => {
                let start = word_back(&self.text, self.cursor, char::is_whitespace);
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
            EditOp::KillToStart => {
                self.text.replace_range(..self.cursor, "");
                self.cursor = 0;
            }
            EditOp::KillToEnd => self.text.truncate(self.cursor),
            EditOp::Home => self.cursor = 0,
            EditOp::End => self.cursor = self.text.len(),
            EditOp::Left => {
                if let Some(c) = self.text[..self.cursor].chars().next_back() {
                    self.cursor -= c.len_utf8();
                }
            }
            EditOp::Right => {
                if let Some(c) = self.text[self.cursor..].chars().next() {
                    self.cursor += c.len_utf8();
                }
            }
            EditOp::WordLeft => {
                self.cursor = word_back(&self.text, self.cursor, |c| !c.is_alphanumeric());
            }
            EditOp::WordRight => {
                self.cursor = word_forward(&self.text, self.cursor);
            }
            EditOp::Older | EditOp::Newer => return self.browse(op == EditOp::Older, history),
        }
        let changed = old.is_some_and(|o| o != self.text) || before != self.text.len();
        if changed {
            // typing over a line of the history makes it a line of one's own
            self.browsing = None;
        }
        changed
    }

    fn browse(&mut self, older: bool, history: &[String]) -> bool {
        let n = history.len();
        let next = match (&self.browsing, older) {
            (None, true) if n > 0 => Some(n - 1),
            (None, _) => return false,
            (Some((i, _)), true) => Some(i.saturating_sub(1)),
            (Some((i, _)), false) if i + 1 < n => Some(i + 1),
            (Some(_), false) => None,
        };
        let draft = match self.browsing.take() {
            Some((_, d)) => d,
            None => self.text.clone(),
        };
        let text = match next {
            Some(i) => {
                let t = history[i].clone();
                self.browsing = Some((i, draft));
                t
            }
            None => draft,
        };
        let changed = text != self.text;
        self.cursor = text.len();
        self.text = text;
        changed
    }
}

/// The start of the word before `at`: `sep` characters before it are
/// skipped, then the rest of the word.
fn word_back(s: &str, at: usize, sep: impl Fn(char) -> bool) -> usize {
    let mut i = at;
    let mut seen_word = false;
    for (k, c) in s[..at].char_indices().rev() {
        if sep(c) {
            if seen_word {
                break;
            }
        } else {
            seen_word = true;
        }
        i = k;
    }
    i
}

/// The end of the word after `at` (alphanumeric runs, as readline's
/// `forward-word`).
fn word_forward(s: &str, at: usize) -> usize {
    let mut seen_word = false;
    for (k, c) in s[at..].char_indices() {
        if c.is_alphanumeric() {
            seen_word = true;
        } else if seen_word {
            return at + k;
        }
    }
    s.len()
}

/// The kinds of prompt, each with a history of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `/` in the viewer.
    Search,
    /// `:` in the viewer.
    Command,
    /// The picker's filter.
    Filter,
    /// The picker's full-text search (Ctrl-F).
    FullText,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Search, Kind::Command, Kind::Filter, Kind::FullText];

    fn file_name(self) -> &'static str {
        match self {
            Kind::Search => "search",
            Kind::Command => "command",
            Kind::Filter => "filter",
            Kind::FullText => "full-text",
        }
    }
}

/// Lines kept per kind.
const KEEP: usize = 200;
/// A history file longer than this is not read (it is not ccv's).
const MAX_FILE: u64 = 512 * 1024;

/// The prompts' histories, oldest line first. Loaded once, saved when a
/// line was added (by the event loop: state changes do no I/O).
#[derive(Debug, Clone, Default)]
pub struct Histories {
    lines: std::collections::HashMap<Kind, Vec<String>>,
    dirty: Vec<Kind>,
}

impl Histories {
    /// Where they are kept: `$XDG_STATE_HOME/ccv/history/`.
    pub fn dir() -> Option<PathBuf> {
        Some(crate::paths::state_dir()?.join("history"))
    }

    /// Reads what `dir` holds; a file that is missing, too long or not
    /// text is an empty history (never an error: a history is a comfort).
    pub fn load(dir: &Path) -> Histories {
        let mut h = Histories::default();
        for k in Kind::ALL {
            let path = dir.join(k.file_name());
            let ok =
                std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE);
            let Some(text) = ok.then(|| std::fs::read(&path).ok()).flatten() else {
                continue;
            };
            let text = String::from_utf8_lossy(&text);
            let lines: Vec<String> = text
                .lines()
                .filter(|l| !l.is_empty() && !l.chars().any(char::is_control))
                .map(|l| l.chars().take(MAX_CHARS).collect())
                .collect();
            let from = lines.len().saturating_sub(KEEP);
            h.lines.insert(k, lines[from..].to_vec());
        }
        h
    }

    pub fn get(&self, k: Kind) -> &[String] {
        self.lines.get(&k).map_or(&[], Vec::as_slice)
    }

    /// A submitted line: the newest of its kind (once).
    pub fn add(&mut self, k: Kind, line: &str) {
        let line: String = line.chars().filter(|c| !c.is_control()).collect();
        if line.trim().is_empty() {
            return;
        }
        let v = self.lines.entry(k).or_default();
        v.retain(|l| *l != line);
        v.push(line);
        let from = v.len().saturating_sub(KEEP);
        v.drain(..from);
        if !self.dirty.contains(&k) {
            self.dirty.push(k);
        }
    }

    /// Writes the histories a line was added to since the last save
    /// (0600 files in a 0700 directory, through [`crate::writes`]).
    pub fn save(&mut self, dir: &Path) -> std::io::Result<()> {
        if self.dirty.is_empty() {
            return Ok(());
        }
        crate::writes::private_dir(dir)?;
        for k in std::mem::take(&mut self.dirty) {
            let lines = self.get(k).join("\n") + "\n";
            crate::writes::write_file(&dir.join(k.file_name()), true, |w| {
                std::io::Write::write_all(w, lines.as_bytes())
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(ops: &[EditOp]) -> LineEdit {
        let mut l = LineEdit::default();
        for &op in ops {
            l.apply(op, &[]);
        }
        l
    }

    fn chars(s: &str) -> Vec<EditOp> {
        s.chars().map(EditOp::Insert).collect()
    }

    #[test]
    fn readline_keys_edit_as_in_a_shell() {
        let mut l = typed(&chars("cargo test --lib"));
        l.apply(EditOp::KillWordBack, &[]);
        assert_eq!(l.as_str(), "cargo test ");
        l.apply(EditOp::KillWordBack, &[]);
        assert_eq!(l.as_str(), "cargo ");
        l.apply(EditOp::Home, &[]);
        l.apply(EditOp::Insert('x'), &[]);
        assert_eq!(l.split(), ("x", "cargo "));
        l.apply(EditOp::KillToEnd, &[]);
        assert_eq!(l.as_str(), "x");
        let mut l = typed(&chars("foo-bar baz"));
        l.apply(EditOp::WordLeft, &[]);
        assert_eq!(l.split(), ("foo-bar ", "baz"));
        l.apply(EditOp::WordLeft, &[]);
        assert_eq!(l.split(), ("foo-", "bar baz"));
        l.apply(EditOp::KillToStart, &[]);
        assert_eq!(l.split(), ("", "bar baz"));
        l.apply(EditOp::WordRight, &[]);
        assert_eq!(l.split(), ("bar", " baz"));
        l.apply(EditOp::Delete, &[]);
        l.apply(EditOp::Left, &[]);
        l.apply(EditOp::Backspace, &[]);
        assert_eq!(l.split(), ("b", "rbaz"));
        l.apply(EditOp::End, &[]);
        l.apply(EditOp::Right, &[]);
        assert_eq!(l.split(), ("brbaz", ""));
    }

    #[test]
    fn wide_and_combined_characters_stay_whole() {
        let mut l = typed(&chars("naïve 日本"));
        l.apply(EditOp::Backspace, &[]);
        l.apply(EditOp::Left, &[]);
        l.apply(EditOp::Left, &[]);
        assert_eq!(l.split(), ("naïve", " 日"));
        l.apply(EditOp::KillWordBack, &[]);
        assert_eq!(l.as_str(), " 日");
    }

    #[test]
    fn the_history_is_browsed_and_the_draft_comes_back() {
        let h = vec!["one".to_owned(), "two".to_owned()];
        let mut l = LineEdit::new("dra");
        l.apply(EditOp::Older, &h);
        assert_eq!(l.as_str(), "two");
        l.apply(EditOp::Older, &h);
        l.apply(EditOp::Older, &h);
        assert_eq!(l.as_str(), "one");
        l.apply(EditOp::Newer, &h);
        assert_eq!(l.as_str(), "two");
        l.apply(EditOp::Newer, &h);
        assert_eq!(l.as_str(), "dra");
        // an edit leaves the history
        l.apply(EditOp::Older, &h);
        l.apply(EditOp::Insert('!'), &h);
        l.apply(EditOp::Newer, &h);
        assert_eq!(l.as_str(), "two!");
    }

    #[test]
    fn histories_are_kept_private_and_read_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path().join("history");
        let mut h = Histories::default();
        h.add(Kind::Search, "needle");
        h.add(Kind::Search, "other");
        h.add(Kind::Search, "needle");
        h.add(Kind::Command, "set wrap");
        h.save(&d).expect("saved");
        let back = Histories::load(&d);
        assert_eq!(back.get(Kind::Search), ["other", "needle"]);
        assert_eq!(back.get(Kind::Command), ["set wrap"]);
        assert!(back.get(Kind::Filter).is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode(&d), 0o700);
            assert_eq!(mode(&d.join("search")), 0o600);
        }
        // a history file that is not one is an empty history
        std::fs::write(d.join("filter"), vec![0u8; 1 << 20]).expect("write");
        assert!(Histories::load(&d).get(Kind::Filter).is_empty());
    }
}
