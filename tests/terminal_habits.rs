//! Issue 20: a config's keys show in the help and drive the viewer; `:`
//! commands, marks, the errors-only filter, copy parts, the mouse in the
//! picker and in the viewer; a broken config starts with defaults.

use crate::common;

use ccv::app::state::{Mode, Request, Settings};
use ccv::app::{Action, State, perform_action};
use ccv::rows::RowKind;
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn demo() -> State {
    common::utc_state(ccv::app::demo::session())
}

fn screen(s: &mut State, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, s)).expect("draw");
    format!("{:?}", t.backend())
}

fn key(c: KeyCode, mods: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(c, mods))
}

fn with_config(text: &str) -> (State, Vec<String>) {
    let (config, problems) = ccv::config::parse(text, "config.toml");
    let mut s = demo();
    s.settings = Settings {
        keys: std::rc::Rc::new(config.keymap()),
        ..Settings::default()
    };
    (s, problems)
}

#[test]
fn a_remapped_key_drives_the_viewer_and_shows_in_the_help() {
    let (mut s, problems) = with_config(
        "[keys]\ndown = [\"j\", \"Ctrl-n\"]\nhelp = \"F1\"\ntoggle_meta = \"m\"\nset_mark = \"b\"\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let keys = s.settings.keys.clone();
    assert_eq!(
        keys.map(&key(KeyCode::Char('n'), KeyModifiers::CONTROL)),
        Some(Action::Down(1))
    );
    // `?` is no longer help; F1 is; `m` took the meta filter from marks
    assert_eq!(keys.map(&key(KeyCode::Char('?'), KeyModifiers::NONE)), None);
    assert_eq!(
        keys.map(&key(KeyCode::F(1), KeyModifiers::NONE)),
        Some(Action::Help)
    );
    assert_eq!(
        keys.map(&key(KeyCode::Char('m'), KeyModifiers::NONE)),
        Some(Action::ToggleMeta)
    );
    let help = s.help_lines();
    let line = |does: &str| {
        help.iter()
            .find(|(_, d)| d.contains(does))
            .map(|(k, _)| k.clone())
            .unwrap_or_default()
    };
    // `down` has exactly the keys given (↓ is free now); plain keys in
    // the line's order, then Ctrl ones
    assert_eq!(line("select next"), "j k ↑ Ctrl-n");
    assert_eq!(line("this help"), "F1");
    assert_eq!(line("meta and system"), "m");
    // in the order the line names them: mark, then go to a mark
    assert_eq!(line("go to a mark"), "b '");
    // the overlay and the status hints read the same table
    perform_action(&mut s, Action::Help);
    let shown = screen(&mut s, 120, 30);
    assert!(shown.contains("Ctrl-n"), "{shown}");
    assert!(shown.contains("F1"), "{shown}");
    perform_action(&mut s, Action::Help);
    assert!(
        s.key_hints()[0].starts_with("F1 help"),
        "{:?}",
        s.key_hints()
    );
}

#[test]
fn a_wrong_key_or_action_is_named_with_its_line() {
    let (c, problems) = ccv::config::parse(
        "theme = \"light\"\n[keys]\nfly = \"j\"\ndown = \"Hyper-j\"\nup = \"K\"\n[colors]\nuser = \"blurple\"\n",
        "c.toml",
    );
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].starts_with("c.toml:3: keys.fly: not an action"),
        "{problems:?}"
    );
    assert!(
        problems[1].starts_with("c.toml:4: keys.down: `Hyper-j`"),
        "{problems:?}"
    );
    assert!(
        problems[2].starts_with("c.toml:7: colors.user"),
        "{problems:?}"
    );
    // what was right still applies
    assert_eq!(c.theme.as_deref(), Some("light"));
    assert_eq!(c.keys.len(), 1);
}

/// `ccv config` names a theme that does not exist, with its line; one a
/// `[themes.NAME]` of the file defines is fine.
#[test]
fn a_wrong_theme_name_is_named_with_its_line() {
    let home = tempfile::tempdir().expect("tempdir");
    let cfg = home.path().join("c.toml");
    std::fs::write(&cfg, "copy_format = \"text\"\ntheme = \"solarised\"\n").expect("write");
    let out = check_config(home.path(), &cfg);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":2: theme: no theme `solarised`"), "{err}");
    std::fs::write(
        &cfg,
        "theme = \"paper\"\n[themes.paper]\nbase = \"light\"\n",
    )
    .expect("write");
    let out = check_config(home.path(), &cfg);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `ccv --config CFG config`: what it says of a config file.
fn check_config(home: &std::path::Path, cfg: &std::path::Path) -> std::process::Output {
    common::ccv_at(home)
        .arg("--config")
        .arg(cfg)
        .arg("config")
        .output()
        .expect("run ccv")
}

#[test]
fn a_broken_config_starts_with_defaults_and_says_so() {
    let home = tempfile::tempdir().expect("tempdir");
    let cfg = home.path().join("bad.toml");
    std::fs::write(&cfg, "[keys\ndown = \"j\"\n").expect("write");
    let demo = home.path().join("s.jsonl");
    std::fs::write(&demo, ccv::app::demo::DEMO).expect("write");
    let out = common::ccv_at(home.path())
        .arg("--config")
        .arg(&cfg)
        .arg("export")
        .arg(&demo)
        .output()
        .expect("run ccv");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:1:") && err.contains("using defaults"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("[User]"));
    // `ccv config` says it too, and fails
    assert_eq!(check_config(home.path(), &cfg).status.code(), Some(1));
}

/// A config path that is a folder (or a FIFO, a device) is not read, and
/// `ccv config` says so: not that it is missing, nor to pipe it in.
#[test]
fn a_config_that_is_no_file_is_not_read_and_said_so() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = check_config(home.path(), home.path());
    assert_eq!(out.status.code(), Some(1));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("not a regular file; using defaults"),
        "{said}"
    );
    assert!(said.contains("(not read: defaults)"), "{said}");
    assert!(
        !said.contains("not there") && !said.contains("pipe it in"),
        "{said}"
    );
}

#[test]
fn the_default_config_prints_every_action() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = common::ccv_at(home.path())
        .args(["config", "--default"])
        .output()
        .expect("run ccv");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "[keys]",
        "toggle_errors = [\"!\"]",
        "down = [\"j\", \"Down\"]",
        "theme = \"auto\"",
    ] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    // and it can be used as it is
    let cfg = home.path().join("c.toml");
    std::fs::write(&cfg, text.as_bytes()).expect("write");
    let out = check_config(home.path(), &cfg);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn errors_only_shows_the_failed_call_and_comes_back() {
    let mut s = demo();
    let all = s.rows.len();
    perform_action(&mut s, Action::ToggleErrors);
    assert!(s.filters.errors);
    assert!(
        !s.rows.is_empty() && s.rows.len() < all,
        "{} of {all}",
        s.rows.len()
    );
    for r in &s.rows {
        let t = ccv::rows::SessionExt::transcript_checked(&s.session, r.agent).expect("t");
        let item = &t.items[r.index as usize];
        assert!(
            ccv::model::label::is_error(item) || matches!(r.kind, RowKind::Call { .. }),
            "{:?} is not an error",
            item.kind
        );
    }
    let shown = screen(&mut s, 120, 30);
    assert!(shown.contains("errors only"), "{shown}");
    assert!(shown.contains("cargo test --test keepalive"), "{shown}");
    perform_action(&mut s, Action::ToggleErrors);
    assert_eq!(s.rows.len(), all);
}

#[test]
fn command_line_goes_to_a_line_sets_filters_and_asks_for_exports() {
    let mut s = demo();
    let type_line = |s: &mut State, text: &str| {
        perform_action(s, Action::CommandStart);
        for c in text.chars() {
            perform_action(s, Action::PromptInput(c));
        }
        perform_action(s, Action::PromptSubmit);
    };
    // the demo has no file: a file-backed session for :LINE
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("s.jsonl");
    std::fs::write(&file, ccv::app::demo::DEMO).expect("write");
    let mut s2 = common::utc_state(ccv::model::Session::load(&file).expect("load"));
    type_line(&mut s2, "15");
    let r = s2.rows[s2.selected];
    let t = ccv::rows::SessionExt::transcript_checked(&s2.session, r.agent).expect("t");
    assert_eq!(t.items[r.index as usize].line, 15, "{:?}", s2.message);

    type_line(&mut s, "set notools");
    assert!(!s.filters.tools);
    type_line(&mut s, "set tools! meta");
    assert!(s.filters.tools && s.filters.meta);
    type_line(&mut s, "export! ~/out.md");
    assert!(matches!(
        s.requests.last(),
        Some(Request::Export {
            format: ccv::export::Format::Markdown,
            overwrite: true,
            ..
        })
    ));
    type_line(&mut s, "frobnicate");
    assert!(
        s.message
            .as_deref()
            .is_some_and(|m| m.starts_with("unknown command"))
    );
    // the prompt shows while typing
    perform_action(&mut s, Action::CommandStart);
    perform_action(&mut s, Action::PromptInput('4'));
    assert!(screen(&mut s, 100, 20).contains("\" :4 "));
    perform_action(&mut s, Action::PromptCancel);
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn a_mark_brings_the_selection_back() {
    let mut s = demo();
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(3));
    let marked = s.selected;
    perform_action(&mut s, Action::Pending(ccv::app::action::Pending::SetMark));
    perform_action(&mut s, Action::PendingKey('a'));
    perform_action(&mut s, Action::Bottom);
    assert_ne!(s.selected, marked);
    perform_action(&mut s, Action::Pending(ccv::app::action::Pending::GotoMark));
    assert!(screen(&mut s, 100, 20).contains("go to mark: a"));
    perform_action(&mut s, Action::PendingKey('a'));
    assert_eq!(s.selected, marked);
    perform_action(&mut s, Action::Pending(ccv::app::action::Pending::GotoMark));
    perform_action(&mut s, Action::PendingKey('z'));
    assert_eq!(s.message.as_deref(), Some("no mark z"));
}

#[test]
fn copy_parts_of_a_call() {
    let mut s = demo();
    perform_action(&mut s, Action::ExpandAll);
    let bash = s
        .rows
        .iter()
        .position(|r| {
            let t = &s.session.main;
            matches!(r.kind, RowKind::Call { .. })
                && matches!(&t.items[r.index as usize].detail, ccv::model::Detail::Call(c) if c.name == "Bash")
        })
        .expect("a Bash call");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(bash));
    let mut copy = |c: char| {
        perform_action(&mut s, Action::Pending(ccv::app::action::Pending::CopyPart));
        perform_action(&mut s, Action::PendingKey(c));
        match s.requests.pop() {
            Some(Request::Copy(t)) => t.text,
            other => panic!("{c}: {other:?} ({:?})", s.message),
        }
    };
    assert_eq!(copy('c'), "cargo test --test keepalive");
    assert!(copy('o').contains("could not compile"));
    assert_eq!(copy('s'), "7f3c2a10-5b6e-4d2a-9c1e-2f8b4a6d0e11");
}

#[test]
fn the_mouse_in_the_viewer_selects_toggles_and_scrolls() {
    let mut s = demo();
    let _ = screen(&mut s, 100, 40);
    let keys = s.settings.keys.clone();
    let at = |kind, row| {
        Event::Mouse(MouseEvent {
            kind,
            column: 10,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let group = s
        .viewport
        .visible
        .iter()
        .find(|v| matches!(s.rows[v.row].kind, RowKind::Group { .. }))
        .copied()
        .expect("a group on screen");
    let before = s.rows.len();
    let click = keys
        .map(&at(MouseEventKind::Down(MouseButton::Left), group.y))
        .expect("a click maps");
    perform_action(&mut s, click);
    assert_eq!(s.selected, group.row);
    assert!(s.rows.len() > before, "the group opened");
    // the wheel moves the screen three lines
    let shown = common::screen_text(&mut s, 100, 40);
    let wheel = keys
        .map(&at(MouseEventKind::ScrollDown, 5))
        .expect("the wheel maps");
    perform_action(&mut s, wheel);
    let moved = common::screen_text(&mut s, 100, 40);
    let lines = |t: &str| {
        t.lines()
            .skip(2)
            .take(36)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&shown)[3..], lines(&moved)[..33]);
    // M: mouse capture off, said in the status bar, asked of the loop
    perform_action(&mut s, Action::ToggleMouse);
    assert_eq!(s.requests.last(), Some(&Request::Mouse(false)));
    assert!(screen(&mut s, 120, 20).contains("mouse off"));
}

#[test]
fn the_readme_config_example_reads_without_a_problem() {
    let readme = include_str!("../README.md");
    let config = readme.find("theme = \"auto\"").expect("the config example");
    let start = readme[..config].rfind("```toml\n").expect("its toml block") + 8;
    let end = start + readme[start..].find("```").expect("its end");
    let (c, problems) = ccv::config::parse(&readme[start..end], "README");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(c.picker_sort, Some(ccv::picker::SortBy::Cost));
    assert!(c.filters.is_some_and(|f| !f.thinking && f.meta));
    let (theme, note) = c.theme(Some("paper"), true);
    assert!(note.is_none());
    assert_eq!(theme.syntax_theme, "OneHalfLight");
    let help = c.keymap().help();
    assert!(
        help.iter().any(|(k, d)| k == "m" && d.contains("meta")),
        "{help:?}"
    );
}

/// `--ascii` / `glyphs = "ascii"`: every symbol of the frame an ASCII
/// character in the same cell (a terminal that draws ambiguous characters
/// two columns wide kept no column of the layout), text as it was.
#[test]
fn ascii_glyphs_keep_every_cell_where_it_was() {
    if alone!(&[]) {
        return;
    }
    let frame = |ascii: bool| {
        ccv::style::glyphs::set_ascii(ascii);
        let mut s = demo();
        let mut t = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
        t.draw(|f| {
            crate::common::draw(f, &mut s);
            ccv::style::frame::finish(f.buffer_mut());
        })
        .expect("draw");
        t.backend().buffer().clone()
    };
    let (uni, asc) = (frame(false), frame(true));
    ccv::style::glyphs::set_ascii(false);
    let mut changed = 0;
    for (u, a) in uni.content.iter().zip(&asc.content) {
        if u.symbol() == a.symbol() {
            continue;
        }
        changed += 1;
        let c = u.symbol().chars().next().expect("a symbol");
        assert_eq!(
            ccv::style::glyphs::stand_in(c).map(String::from).as_deref(),
            Some(a.symbol())
        );
    }
    assert!(changed > 20, "{changed} cells");
    let symbols = ['│', '─', '●', '…', '·', '❯', '▸'];
    assert!(
        !asc.content
            .iter()
            .any(|c| c.symbol().chars().any(|x| symbols.contains(&x))),
        "{asc:?}"
    );
    // and the setting, from the config
    let home = tempfile::tempdir().expect("tempdir");
    let cfg = home.path().join("c.toml");
    std::fs::write(&cfg, "glyphs = \"wide\"\n").expect("write");
    let out = check_config(home.path(), &cfg);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":1: glyphs: `wide`: unicode or ascii"),
        "{err}"
    );
    let (c, problems) = ccv::config::parse("glyphs = \"ascii\"\n", "c");
    assert!(problems.is_empty() && c.ascii == Some(true), "{problems:?}");
}
