//! The prompts (`/`, `:`, the picker's filter and its full-text query)
//! edit as readline does, and `/` and `:` come back with Up.

use crate::common;
use ccv::app::keymap::{Keymap, map_prompt};
use ccv::app::{Action, Mode, State, perform_action};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

fn key(code: KeyCode, m: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, m))
}

fn ctrl(c: char) -> Event {
    key(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn alt(c: char) -> Event {
    key(KeyCode::Char(c), KeyModifiers::ALT)
}

fn plain(code: KeyCode) -> Event {
    key(code, KeyModifiers::NONE)
}

fn press(s: &mut State, ev: &Event) {
    if let Some(a) = map_prompt(&Keymap::default(), ev) {
        perform_action(s, a);
    }
}

fn typed(s: &mut State, text: &str) {
    for c in text.chars() {
        press(s, &plain(KeyCode::Char(c)));
    }
}

fn prompt(s: &State) -> String {
    match &s.mode {
        Mode::Search(q) | Mode::Command(q) => q.as_str().to_owned(),
        other => panic!("no prompt open: {other:?}"),
    }
}

fn state() -> State {
    common::utc_state(common::session_of(&[
        common::user_line("u1", serde_json::json!("find the needle")),
        common::assistant_line("a1", "m1", common::jsonl::text("here is the needle")),
    ]))
}

#[test]
fn the_search_prompt_edits_as_readline() {
    let mut s = state();
    perform_action(&mut s, Action::SearchStart);
    typed(&mut s, "cargo test --lib");
    press(&mut s, &ctrl('w'));
    assert_eq!(prompt(&s), "cargo test ", "Ctrl-W: the word before");
    press(&mut s, &ctrl('a'));
    typed(&mut s, "x ");
    press(&mut s, &ctrl('e'));
    typed(&mut s, "y");
    assert_eq!(prompt(&s), "x cargo test y", "Ctrl-A / Ctrl-E");
    press(&mut s, &alt('b'));
    press(&mut s, &ctrl('k'));
    assert_eq!(prompt(&s), "x cargo test ", "Alt-B then Ctrl-K");
    press(&mut s, &plain(KeyCode::Left));
    press(&mut s, &ctrl('u'));
    assert_eq!(prompt(&s), " ", "Left then Ctrl-U");
    press(&mut s, &plain(KeyCode::Right));
    typed(&mut s, "ab");
    press(&mut s, &ctrl('h'));
    press(&mut s, &plain(KeyCode::Backspace));
    assert_eq!(prompt(&s), " ", "Ctrl-H and Backspace");
    press(&mut s, &alt('f'));
    press(&mut s, &ctrl('c'));
    assert_eq!(s.mode, Mode::Normal, "Ctrl-C leaves the prompt");
}

#[test]
fn searches_and_commands_come_back_with_up() {
    let mut s = state();
    perform_action(&mut s, Action::SearchStart);
    typed(&mut s, "needle");
    press(&mut s, &plain(KeyCode::Enter));
    perform_action(&mut s, Action::SearchStart);
    typed(&mut s, "other");
    press(&mut s, &plain(KeyCode::Enter));
    perform_action(&mut s, Action::SearchStart);
    typed(&mut s, "draft");
    press(&mut s, &plain(KeyCode::Up));
    assert_eq!(prompt(&s), "other");
    press(&mut s, &ctrl('p'));
    assert_eq!(prompt(&s), "needle");
    press(&mut s, &plain(KeyCode::Down));
    press(&mut s, &plain(KeyCode::Down));
    assert_eq!(prompt(&s), "draft", "what was typed comes back");
    press(&mut s, &plain(KeyCode::Esc));
    // `:` keeps a history of its own
    perform_action(&mut s, Action::CommandStart);
    press(&mut s, &plain(KeyCode::Up));
    assert_eq!(prompt(&s), "", "no command typed yet");
    typed(&mut s, "1");
    press(&mut s, &plain(KeyCode::Enter));
    perform_action(&mut s, Action::CommandStart);
    press(&mut s, &plain(KeyCode::Up));
    assert_eq!(prompt(&s), "1");
}

#[test]
fn the_picker_moves_on_ctrl_j_k_n_p_and_its_filter_edits() {
    use ccv::picker::{PickerState, handle_key};
    let mut sessions = Vec::new();
    for (i, title) in ["alpha one", "beta two", "gamma three"].iter().enumerate() {
        let mut s =
            crate::common::entry::session_row("/p", &format!("s{i}"), title, 1_000_000 - i as i64);
        s.message_count = 2;
        s.size = 100;
        s.model = None;
        s.git_branch = None;
        sessions.push(s);
    }
    let mut p = PickerState::with_sessions(sessions, 2_000_000);
    let sel = |p: &PickerState| p.selected_session().map(|s| s.session_id.clone());
    let k = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    assert_eq!(sel(&p).as_deref(), Some("s0"));
    handle_key(&mut p, k('j'));
    assert_eq!(sel(&p).as_deref(), Some("s1"), "Ctrl-J");
    handle_key(&mut p, k('n'));
    assert_eq!(sel(&p).as_deref(), Some("s2"), "Ctrl-N");
    handle_key(&mut p, k('k'));
    assert_eq!(sel(&p).as_deref(), Some("s1"), "Ctrl-K");
    handle_key(&mut p, k('p'));
    assert_eq!(sel(&p).as_deref(), Some("s0"), "Ctrl-P");
    for c in "beta gamma".chars() {
        handle_key(&mut p, KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    handle_key(&mut p, k('w'));
    assert_eq!(p.filter(), "beta ", "Ctrl-W in the filter");
    handle_key(&mut p, k('u'));
    assert_eq!(p.filter(), "", "Ctrl-U in the filter");
}
