//! Keys and mouse -> [`Action`]. vim / less bindings.

use super::action::Action;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

/// The help overlay's content: (keys, what they do).
pub const HELP: &[(&str, &str)] = &[
    ("j k ↓ ↑", "select next / previous row"),
    ("g G Home End", "first / last row"),
    ("Ctrl-d/u", "half page down / up"),
    ("PgDn PgUp Ctrl-f/b", "page down / up"),
    ("[ ]", "previous / next user prompt"),
    ("Enter Space Tab", "expand / collapse the row"),
    ("z", "show the whole output (no folding)"),
    ("o O", "expand / collapse all"),
    ("/", "search (tool output included)"),
    ("n N", "next / previous match"),
    ("t", "show / hide tool calls"),
    ("T", "show / hide thinking"),
    ("m", "show / hide meta and system rows"),
    ("f", "follow the end of the session"),
    ("y", "copy the row (a group: all its calls)"),
    ("v", "select a range (j/k extend, y copies)"),
    ("Y", "copy the transcript as filtered"),
    ("e", "write it to a markdown file"),
    ("> <", "open the newer session / go back"),
    ("R", "resume in claude (or copy the command)"),
    ("mouse", "wheel scrolls, click selects/toggles"),
    ("Ctrl-z", "suspend (fg comes back)"),
    ("?", "this help"),
    ("q Esc", "close overlay / quit (Esc first clears a search)"),
];

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
    Some(match k.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('d') if ctrl => Action::HalfPageDown,
        KeyCode::Char('u') if ctrl => Action::HalfPageUp,
        KeyCode::Char('f') if ctrl => Action::PageDown,
        KeyCode::Char('b') if ctrl => Action::PageUp,
        KeyCode::Char('j') | KeyCode::Down => Action::Down(1),
        KeyCode::Char('k') | KeyCode::Up => Action::Up(1),
        KeyCode::Char('g') | KeyCode::Home => Action::Top,
        KeyCode::Char('G') | KeyCode::End => Action::Bottom,
        KeyCode::PageDown => Action::PageDown,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::Char('[') => Action::PrevPrompt,
        KeyCode::Char(']') => Action::NextPrompt,
        KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Tab => Action::Toggle,
        KeyCode::Char('z') => Action::ShowAll,
        KeyCode::Char('o') => Action::ExpandAll,
        KeyCode::Char('O') => Action::CollapseAll,
        KeyCode::Char('/') => Action::SearchStart,
        KeyCode::Char('n') => Action::NextMatch,
        KeyCode::Char('N') => Action::PrevMatch,
        KeyCode::Char('t') => Action::ToggleTools,
        KeyCode::Char('T') => Action::ToggleThinking,
        KeyCode::Char('m') => Action::ToggleMeta,
        KeyCode::Char('f') => Action::Follow,
        KeyCode::Char('y') => Action::Copy,
        KeyCode::Char('Y') => Action::CopyAll,
        KeyCode::Char('v') | KeyCode::Char('V') => Action::Visual,
        KeyCode::Char('e') => Action::ExportMarkdown,
        KeyCode::Char('>') => Action::OpenNewer,
        KeyCode::Char('<') => Action::GoBack,
        KeyCode::Char('R') => Action::Resume,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('q') => Action::Back,
        KeyCode::Esc => Action::Dismiss,
        _ => return None,
    })
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
}
