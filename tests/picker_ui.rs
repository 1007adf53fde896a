//! The picker component without a terminal: state through actions, and
//! drawing through ratatui's TestBackend.

use ccv::picker::ui::{Action, perform_action};
use ccv::picker::{PickerOutcome, PickerState, SessionInfo, draw, handle_key};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;

const NOW: i64 = 1_750_000_000_000;

fn session(project: &str, id: &str, title: &str, mins_ago: i64) -> SessionInfo {
    let mut s = crate::common::entry::session_row(project, id, title, NOW - mins_ago * 60_000);
    s.path = PathBuf::from(format!("/p/{id}.jsonl"));
    s.first_prompt = format!("prompt of {title}");
    s.model = Some("claude-opus-4-1-20250805".into());
    s.live = mins_ago < 1;
    s
}

fn sample() -> Vec<SessionInfo> {
    vec![
        session("/src/ccv", "a1", "Fix flaky tail test", 0),
        session("/src/web", "b1", "Tail -f for the deploy logs", 4320),
        session("/src/ccv", "a2", "Make the picker fast", 1440),
        session("/src/web", "b2", "Evil \u{1b}]52;c;aGk=\u{7} title", 9000),
    ]
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn render(state: &PickerState, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| draw(f, f.area(), state)).expect("draw");
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn draws_groups_with_columns() {
    let state = PickerState::with_sessions(sample(), NOW);
    let screen = render(&state, 110, 12);
    assert!(screen.contains("2 projects · 4 sessions"), "{screen}");
    // one of each is not said as many
    let one = PickerState::with_sessions(sample().into_iter().take(1).collect(), NOW);
    let said = render(&one, 110, 12);
    assert!(said.contains("1 project · 1 session "), "{said}");
    let lines: Vec<&str> = screen.lines().collect();
    let pos = |s: &str| {
        lines
            .iter()
            .position(|l| l.contains(s))
            .unwrap_or(usize::MAX)
    };
    assert!(
        pos("/src/ccv") < pos("Fix flaky")
            && pos("Fix flaky") < pos("Make the picker")
            && pos("Make the picker") < pos("/src/web")
    );
    let first = lines[pos("Fix flaky")];
    assert!(
        first.contains('●') && first.contains("just now") && first.contains("240 msgs"),
        "{first}"
    );
    assert!(
        first.contains("3.1 MB") && first.contains("opus-4.1") && first.contains("main"),
        "{first}"
    );
    assert!(lines[pos("Make the picker")].contains("yesterday"));
    assert!(
        screen.contains("Evil  title") || screen.contains("Evil title"),
        "escape sequence stripped: {screen}"
    );
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    insta_like_stable(&screen);
}

/// Drawing twice gives the same screen (no hidden state in draw).
fn insta_like_stable(screen: &str) {
    let again = render(&PickerState::with_sessions(sample(), NOW), 110, 12);
    assert_eq!(screen, again);
}

#[test]
fn typing_filters_and_enter_opens() {
    let mut state = PickerState::with_sessions(sample(), NOW);
    for c in "deploy".chars() {
        assert_eq!(
            handle_key(&mut state, key(KeyCode::Char(c))),
            PickerOutcome::None
        );
    }
    assert_eq!(state.filter(), "deploy");
    let titles: Vec<_> = state.visible_sessions().map(|s| s.title.clone()).collect();
    assert_eq!(titles, ["Tail -f for the deploy logs"]);
    let screen = render(&state, 100, 10);
    assert!(
        screen.contains("filter: deploy") && !screen.contains("Fix flaky"),
        "{screen}"
    );
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Enter)),
        PickerOutcome::Open(PathBuf::from("/p/b1.jsonl"))
    );

    // Fuzzy over the project path and the session id too.
    perform_action(&mut state, Action::Back);
    for c in "srcweb".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    assert_eq!(state.visible_sessions().count(), 2);
    perform_action(&mut state, Action::Back);
    handle_key(&mut state, key(KeyCode::Char('a')));
    handle_key(&mut state, key(KeyCode::Char('2')));
    assert!(state.visible_sessions().any(|s| s.session_id == "a2"));
}

#[test]
fn movement_skips_headers_and_esc_clears_then_quits() {
    let mut state = PickerState::with_sessions(sample(), NOW);
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("a1")
    );
    handle_key(&mut state, key(KeyCode::Down));
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("a2")
    );
    handle_key(
        &mut state,
        KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL),
    );
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("b1"),
        "jumps over the project header"
    );
    handle_key(
        &mut state,
        KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL),
    );
    handle_key(&mut state, key(KeyCode::Up));
    handle_key(&mut state, key(KeyCode::Up));
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("a1"),
        "stops at the top"
    );
    handle_key(&mut state, key(KeyCode::End));
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("b2")
    );

    handle_key(&mut state, key(KeyCode::Char('q')));
    assert_eq!(state.filter(), "q", "printable keys type into the filter");
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Backspace)),
        PickerOutcome::None
    );
    handle_key(&mut state, key(KeyCode::Char('x')));
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Esc)),
        PickerOutcome::None
    );
    assert_eq!(state.filter(), "");
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Esc)),
        PickerOutcome::Quit
    );
    assert_eq!(
        handle_key(
            &mut state,
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
        ),
        PickerOutcome::Quit
    );
}

#[test]
fn background_rows_merge_keeping_the_selection() {
    let mut state = PickerState::new(NOW);
    assert!(render(&state, 80, 8).contains("looking for sessions"));
    let mut rows = sample();
    let late = rows.split_off(2);
    perform_action(&mut state, Action::Merge(rows));
    handle_key(&mut state, key(KeyCode::Down));
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("b1")
    );
    // A newer session arrives above the selection; the selection stays on b1.
    perform_action(&mut state, Action::Merge(late));
    perform_action(
        &mut state,
        Action::Merge(vec![session("/src/new", "n1", "Brand new", 0)]),
    );
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("b1")
    );
    assert_eq!(state.sessions().len(), 5);
    // A re-scanned row replaces the old one.
    let mut changed = session("/src/web", "b1", "Renamed", 1);
    changed.path = PathBuf::from("/p/b1.jsonl");
    perform_action(&mut state, Action::Merge(vec![changed]));
    assert_eq!(state.sessions().len(), 5);
    assert_eq!(
        state.selected_session().map(|s| s.title.as_str()),
        Some("Renamed")
    );
    perform_action(&mut state, Action::ScanDone);
    assert!(!state.loading);
}

#[test]
fn selection_stays_visible_when_scrolling_and_tiny_areas_do_not_panic() {
    let rows: Vec<_> = (0..50)
        .map(|i| {
            session(
                &format!("/p{}", i % 5),
                &format!("s{i}"),
                &format!("Session {i}"),
                i,
            )
        })
        .collect();
    let mut state = PickerState::with_sessions(rows, NOW);
    render(&state, 80, 10);
    for _ in 0..30 {
        handle_key(&mut state, key(KeyCode::Down));
    }
    let title = state
        .selected_session()
        .map(|s| s.title.clone())
        .unwrap_or_default();
    let screen = render(&state, 80, 10);
    assert!(screen.contains(&title), "{title} not on screen:\n{screen}");
    handle_key(&mut state, key(KeyCode::PageUp));
    let title = state
        .selected_session()
        .map(|s| s.title.clone())
        .unwrap_or_default();
    assert!(render(&state, 80, 10).contains(&title));
    for (w, h) in [(1, 1), (5, 2), (10, 3), (20, 4), (200, 60)] {
        render(&state, w, h);
    }
}

fn selected_id(state: &PickerState) -> Option<String> {
    state.selected_session().map(|s| s.session_id.clone())
}

/// A word of one session's title selects that session, even when an older
/// project or id also matches the letters (the score ranks, it is not a
/// yes/no); ties go to the newer session.
#[test]
fn the_filter_ranks_title_matches_first_and_selects_the_best() {
    let mut rows: Vec<SessionInfo> = (0..30)
        .map(|i| {
            session(
                &format!("/work/kube/let-it-be-{i}"),
                &format!("{i:02}b3c9d2-e8f1-4aa0-9d1e-5c4e7f8a9b{i:02}"),
                &format!("Routine work number {i}"),
                i,
            )
        })
        .collect();
    rows.push(session(
        "/src/old",
        "zz",
        "Debug the kubelet eviction storm",
        90_000,
    ));
    rows.push(session("/src/other", "yy", "Kubelet notes", 95_000));
    let mut state = PickerState::with_sessions(rows, NOW);
    for c in "kubelet".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    // both titles hold the word; the newer one wins the tie-ish race, and
    // no session whose only match is its project comes first
    let first = selected_id(&state).expect("a selection");
    assert!(first == "zz" || first == "yy", "selected {first}");
    for c in " eviction".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    assert_eq!(selected_id(&state).as_deref(), Some("zz"));
    // short queries that match every id still put a title match first
    let mut state = PickerState::with_sessions(
        vec![
            session("/src/a", "e3b0c442", "Routine", 0),
            session("/src/b", "9f86d081", "Profile the e3 loader", 600),
        ],
        NOW,
    );
    for c in "loader".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    assert_eq!(selected_id(&state).as_deref(), Some("9f86d081"));
}

/// While the scan streams rows in, the newest session stays selected
/// until the user moves.
#[test]
fn the_newest_session_stays_selected_while_rows_stream_in() {
    let mut state = PickerState::new(NOW);
    perform_action(
        &mut state,
        Action::Merge(vec![session("/src/a", "old", "Old", 600)]),
    );
    assert_eq!(selected_id(&state).as_deref(), Some("old"));
    perform_action(
        &mut state,
        Action::Merge(vec![session("/src/b", "new", "New", 0)]),
    );
    assert_eq!(selected_id(&state).as_deref(), Some("new"));
    perform_action(
        &mut state,
        Action::Merge(vec![session("/src/c", "mid", "Mid", 60)]),
    );
    assert_eq!(selected_id(&state).as_deref(), Some("new"));
}

fn priced(mut s: SessionInfo, usd: f64, size: u64) -> SessionInfo {
    let mut f = ccv::model::figures::Figures::default();
    f.cost.usd = usd;
    s.figures = Some(Box::new(f));
    s.size = size;
    s
}

#[test]
fn the_cost_column_shows_and_tab_sorts_by_cost_then_size() {
    let rows = vec![
        priced(
            session("/src/ccv", "new", "Newest and cheap", 0),
            0.42,
            1_000,
        ),
        priced(
            session("/src/web", "dear", "Older and dear", 60),
            12.5,
            2_000,
        ),
        priced(
            session("/src/ops", "big", "Oldest and big", 120),
            1.0,
            90_000_000,
        ),
        session("/src/tmp", "unread", "Not priced yet", 30),
    ];
    let mut state = PickerState::with_sessions(rows, NOW);
    let screen = render(&state, 110, 12);
    assert!(screen.contains("$0.42"), "{screen}");
    assert!(screen.contains("$12.50"), "{screen}");
    assert!(screen.contains('…'), "a session not read yet: {screen}");
    assert!(screen.contains("Tab sort: newest"), "{screen}");
    let order = |st: &PickerState| -> Vec<String> {
        st.visible_sessions()
            .map(|s| s.session_id.clone())
            .collect()
    };
    assert_eq!(order(&state)[0], "new");
    handle_key(&mut state, key(KeyCode::Tab));
    assert_eq!(order(&state)[0], "dear", "dearest first");
    assert_eq!(
        state.selected_session().map(|s| s.session_id.as_str()),
        Some("dear")
    );
    assert_eq!(
        order(&state).last().map(String::as_str),
        Some("unread"),
        "unpriced last"
    );
    assert!(render(&state, 110, 12).contains("by cost"));
    handle_key(&mut state, key(KeyCode::Tab));
    assert_eq!(order(&state)[0], "big", "largest first");
    handle_key(&mut state, key(KeyCode::Tab));
    assert_eq!(order(&state)[0], "new", "back to newest");
}

#[test]
fn full_text_mode_shows_hits_by_session_and_enter_jumps() {
    use ccv::picker::found::Jump;
    use ccv::search::{Found, Hit, Via};
    let mut state = PickerState::with_sessions(sample(), NOW);
    for c in "tail".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    let ctrl_f = KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL);
    // the filter becomes the query
    assert_eq!(
        handle_key(&mut state, ctrl_f),
        PickerOutcome::Search("tail".into())
    );
    assert!(render(&state, 110, 12).contains("searching…"));
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Char('s'))),
        PickerOutcome::Search("tails".into())
    );
    let hit = |id: &str, line: u32, snippet: &str| Hit {
        file: PathBuf::from(format!("/p/{id}.jsonl")),
        session: PathBuf::from(format!("/p/{id}.jsonl")),
        line,
        kind: ccv::model::Kind::Assistant,
        timestamp: Some(NOW),
        snippet: snippet.into(),
        mark: 4..9,
        marks: std::iter::once(4..9).collect(),
    };
    let found = Found {
        hits: vec![
            hit("a1", 7, "the tails of it"),
            hit("a1", 9, "two tails more"),
            hit("b1", 3, "and tails \u{1b}]0;x\u{7} here"),
        ],
        via: Via::Index,
        more: false,
        note: None,
    };
    // a late answer to an older query is dropped
    perform_action(&mut state, Action::Found("tail".into(), Ok(found.clone())));
    assert!(render(&state, 110, 12).contains("searching…"));
    perform_action(&mut state, Action::Found("tails".into(), Ok(found.clone())));
    let screen = render(&state, 110, 12);
    assert!(screen.contains("3 hits"), "{screen}");
    // on a narrow screen what was typed is seen before the label and the
    // count (it showed as `…s` at 40 columns)
    for w in [24, 30, 40, 50] {
        let first = render(&state, w, 12)
            .lines()
            .next()
            .unwrap_or("")
            .to_owned();
        assert!(first.contains("tails"), "{w}: {first}");
    }
    assert!(
        screen.contains("Fix flaky tail test"),
        "a session heading: {screen}"
    );
    assert!(screen.contains("the tails of it"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen:?}");
    assert_eq!(lit_on(&state, 110, 12), ["tails", "tails", "tails"]);
    // every term of a hit is marked, as `ccv search` marks them
    let mut two = hit("a1", 7, "the tails of it wag, tails \u{1b}[1mup");
    two.marks = vec![4..9, 16..19, 21..26];
    perform_action(
        &mut state,
        Action::Found(
            "tails".into(),
            Ok(Found {
                hits: vec![two],
                via: Via::Index,
                more: false,
                note: None,
            }),
        ),
    );
    assert_eq!(lit_on(&state, 110, 12), ["tails", "wag", "tails"]);
    assert!(render(&state, 110, 12).contains("the tails of it wag, tails up"));
    perform_action(&mut state, Action::Found("tails".into(), Ok(found)));
    handle_key(&mut state, key(KeyCode::Down));
    handle_key(&mut state, key(KeyCode::Down));
    assert_eq!(
        handle_key(&mut state, key(KeyCode::Enter)),
        PickerOutcome::OpenAt(Jump {
            session: "/p/b1.jsonl".into(),
            file: "/p/b1.jsonl".into(),
            line: 3,
            query: "tails".into()
        })
    );
    handle_key(&mut state, key(KeyCode::Esc));
    assert!(state.full_text.is_none());
    assert!(render(&state, 110, 12).contains("filter: tail"));
}

#[test]
fn the_mouse_selects_and_a_double_click_opens() {
    use ccv::picker::handle_mouse;
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut p = PickerState::with_sessions(sample(), NOW);
    let mut t = Terminal::new(TestBackend::new(120, 20)).expect("terminal");
    t.draw(|f| draw(f, f.area(), &p)).expect("draw");
    let screen = format!("{:?}", t.backend());
    let click = |row, kind| MouseEvent {
        kind,
        column: 20,
        row,
        modifiers: KeyModifiers::NONE,
    };
    let left = MouseEventKind::Down(MouseButton::Left);
    let path = |p: &PickerState| p.selected_session().map(|s| s.path.clone());
    // line 2 is the first project's header, 3 its newest session, 4 the next
    assert_eq!(
        handle_mouse(&mut p, click(4, left), 1_000),
        PickerOutcome::None
    );
    let chosen = path(&p).expect("selected");
    assert!(screen.contains("Make the picker fast"), "{screen}");
    assert_eq!(chosen, PathBuf::from("/p/a2.jsonl"), "{screen}");
    assert_eq!(
        handle_mouse(&mut p, click(3, left), 1_100),
        PickerOutcome::None
    );
    assert_eq!(path(&p), Some(PathBuf::from("/p/a1.jsonl")));
    // two clicks far apart only select; two close together open
    assert_eq!(
        handle_mouse(&mut p, click(4, left), 1_200),
        PickerOutcome::None
    );
    assert_eq!(
        handle_mouse(&mut p, click(4, left), 5_000),
        PickerOutcome::None
    );
    assert_eq!(
        handle_mouse(&mut p, click(4, left), 5_200),
        PickerOutcome::Open(chosen.clone())
    );
    // a click on a project header selects nothing new; the wheel moves
    let _ = handle_mouse(&mut p, click(2, left), 9_000);
    assert_eq!(path(&p), Some(chosen));
    let _ = handle_mouse(&mut p, click(0, MouseEventKind::ScrollDown), 9_100);
    assert_ne!(path(&p), Some(PathBuf::from("/p/a2.jsonl")));
}

/// The runs of text drawn in the search match's colour, in order.
fn lit_on(state: &PickerState, w: u16, h: u16) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| draw(f, f.area(), state)).expect("draw");
    let buf = term.backend().buffer().clone();
    let hl = ccv::view::theme::current().search_match.bg;
    let mut runs = Vec::new();
    for y in 0..h {
        let mut run = String::new();
        for x in 0..w {
            if buf[(x, y)].style().bg == hl {
                run.push_str(buf[(x, y)].symbol());
            } else if !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
        }
        if !run.is_empty() {
            runs.push(run);
        }
    }
    runs
}

/// The filter's matches stand out in the titles, and the header counts
/// the sessions it lets through.
#[test]
fn the_filter_highlights_its_matches_and_counts_what_it_keeps() {
    let mut state = PickerState::with_sessions(sample(), NOW);
    for c in "flaky".chars() {
        handle_key(&mut state, key(KeyCode::Char(c)));
    }
    let mut term = Terminal::new(TestBackend::new(120, 12)).expect("terminal");
    term.draw(|f| draw(f, f.area(), &state)).expect("draw");
    let buf = term.backend().buffer().clone();
    let hl = ccv::view::theme::current().search_match.bg;
    let lit: String = (0..12u16)
        .flat_map(|y| (0..120u16).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].style().bg == hl)
        .map(|(x, y)| buf[(x, y)].symbol().to_owned())
        .collect();
    assert!(lit.to_lowercase().contains("flaky"), "lit: {lit:?}");
    let screen = render(&state, 120, 12);
    assert!(screen.contains(" of 4 sessions"), "{screen}");
}

/// No session: where ccv looked, and the way to the demo.
#[test]
fn an_empty_root_says_where_it_looked_and_offers_the_demo() {
    let mut state = PickerState::with_sessions(Vec::new(), NOW);
    state.root = Some(PathBuf::from("/home/ann/.claude/projects"));
    let screen = render(&state, 160, 10);
    assert!(
        screen.contains("no sessions in /home/ann/.claude/projects"),
        "{screen}"
    );
    assert!(screen.contains("ccv --demo"), "{screen}");
}

#[test]
fn shift_tab_shows_one_agents_sessions_then_the_others_then_all() {
    let mut rows = sample();
    let mut codex = session("/srv/shop", "x1", "Fix the checkout rounding", 30);
    codex.agent = Some("codex".into());
    codex.model = Some("gpt-5.3-codex".into());
    rows.push(codex);
    let mut p = PickerState::with_sessions(rows, NOW);
    let screen = render(&p, 120, 12);
    // a list of two agents' sessions says which wrote each, and the key
    let row = screen
        .lines()
        .find(|l| l.contains("Fix the checkout rounding"))
        .expect("the codex row");
    assert!(row.contains("codex"), "{screen}");
    assert!(screen.contains("Shift-Tab agent: all"), "{screen}");
    let ids = |p: &PickerState| -> Vec<String> {
        p.visible_sessions().map(|s| s.session_id.clone()).collect()
    };
    handle_key(&mut p, KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(ids(&p), ["a1", "a2", "b1", "b2"]);
    assert!(render(&p, 120, 12).contains("claude only"));
    perform_action(&mut p, Action::CycleAgent);
    assert_eq!(ids(&p), ["x1"]);
    assert!(render(&p, 120, 12).contains("codex only"));
    perform_action(&mut p, Action::CycleAgent);
    assert_eq!(ids(&p).len(), 5);
    // one agent's sessions only: no column, no key to cycle
    let mut p = PickerState::with_sessions(sample(), NOW);
    assert!(!render(&p, 120, 12).contains("Shift-Tab"));
    perform_action(&mut p, Action::CycleAgent);
    assert_eq!(ids(&p).len(), 4);
}

#[test]
fn the_pickers_keys_and_hints_come_from_its_table_and_the_config() {
    let (config, problems) = ccv::config::parse(
        "[picker.keys]\nopen = \"Ctrl-o\"\nagent = []\nsort = [\"F2\"]\nnope = \"x\"\n",
        "test",
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("picker.keys.nope"), "{problems:?}");
    let mut rows = sample();
    rows[1].agent = Some("codex".into());
    let mut p = PickerState::with_sessions(rows, NOW);
    p.keys = std::rc::Rc::new(config.picker_keys());
    let screen = render(&p, 140, 12);
    let status = screen.lines().last().unwrap_or("");
    assert!(status.contains("Ctrl-o open"), "{status}");
    assert!(status.contains("F2 sort: newest"), "{status}");
    // an unbound action is not hinted
    assert!(!status.contains("agent"), "{status}");
    // Enter no longer opens, Ctrl-o does; Tab no longer sorts, F2 does
    assert_eq!(handle_key(&mut p, key(KeyCode::Enter)), PickerOutcome::None);
    assert!(matches!(
        handle_key(
            &mut p,
            KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)
        ),
        PickerOutcome::Open(_)
    ));
    let sort = p.sort;
    handle_key(&mut p, key(KeyCode::Tab));
    assert_eq!(p.sort, sort);
    handle_key(&mut p, key(KeyCode::F(2)));
    assert_ne!(p.sort, sort);
    // a table with no way out gets Ctrl-C back
    let (config, _) = ccv::config::parse("[picker.keys]\nquit = []\nback = []\n", "test");
    let mut p = PickerState::with_sessions(sample(), NOW);
    p.keys = std::rc::Rc::new(config.picker_keys());
    assert_eq!(
        handle_key(
            &mut p,
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
        ),
        PickerOutcome::Quit
    );
}

/// A file listed for its unreadable lines alone (no message, no title)
/// says so in the title's place, where a blank looked like a session
/// still starting, as does one with messages and no prompt; a session
/// with no message yet stays blank.
#[test]
fn a_file_of_unreadable_lines_says_so_where_its_title_would_be() {
    let mut broken = session("/src/gem", "g1", "", 3);
    broken.message_count = 0;
    broken.unreadable = true;
    let mut starting = session("/src/gem", "g2", "", 2);
    starting.message_count = 0;
    let mut cut = session("/src/gem", "g3", "", 1);
    cut.message_count = 40;
    let state = PickerState::with_sessions(vec![broken, starting, cut], NOW);
    let screen = render(&state, 120, 8);
    let count = |what: &str| {
        let what = what.get(..20).unwrap_or(what);
        screen.lines().filter(|l| l.contains(what)).count()
    };
    assert_eq!(count(ccv::catalog::scan::UNREADABLE_TITLE), 1, "{screen}");
    // answers and results without a prompt (a file cut from a longer one)
    assert_eq!(count(ccv::catalog::scan::NO_PROMPT_TITLE), 1, "{screen}");
}

/// The key hints are those that fit whole, how to move, open and quit
/// first: at 50 columns the edge cut the line and never said how to quit.
#[test]
fn a_narrow_picker_hints_how_to_quit() {
    let state = PickerState::with_sessions(sample(), NOW);
    let last = |w: u16| {
        render(&state, w, 12)
            .lines()
            .last()
            .unwrap_or_default()
            .trim_end()
            .to_owned()
    };
    let wide = last(140);
    for h in [
        "select",
        "open",
        "to filter",
        "search all",
        "sort:",
        "clear/quit",
    ] {
        assert!(wide.contains(h), "{h}: {wide}");
    }
    for w in [40, 50, 70] {
        let l = last(w);
        assert!(l.contains("clear/quit") && l.contains("open"), "{w}: {l}");
        assert!(!l.contains('…'), "{w}: {l}");
    }
}
