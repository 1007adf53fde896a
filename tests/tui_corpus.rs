//! Every real sample session opens in the viewer, with everything expanded,
//! paged from top to bottom at a wide and a narrow width, without a panic
//! and without a control character reaching a cell.

use ccv::app::{Action, State, perform_action};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common;

fn check_buffer(t: &Terminal<TestBackend>, file: &str) {
    let buf = t.backend().buffer();
    for cell in buf.content() {
        let sym = cell.symbol();
        assert!(
            !sym.chars()
                .any(|c| c.is_control() || ('\u{80}'..='\u{9f}').contains(&c)),
            "{file}: control character {sym:?} reached the screen"
        );
    }
}

#[test]
fn every_corpus_session_pages_through_expanded() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for path in files {
        page_through(&path);
    }
}

/// The wheel, pages both ways, half pages, prompt jumps and toggles, in
/// an order a seed picks, some of them several before a frame: after
/// every frame the selected row is on the screen.
fn move_about(s: &mut State, name: &str) {
    let moves = [
        Action::ScrollDown,
        Action::ScrollUp,
        Action::PageDown,
        Action::PageUp,
        Action::HalfPageDown,
        Action::HalfPageUp,
        Action::NextPrompt,
        Action::PrevPrompt,
        Action::Toggle,
        Action::Down(1),
        Action::Up(1),
    ];
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    perform_action(s, Action::Resize(100, 30));
    let mut seed = name
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    for step in 0..60 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let pick = (seed >> 33) as usize;
        for _ in 0..1 + pick % 3 / 2 {
            perform_action(s, moves[pick % moves.len()].clone());
        }
        t.draw(|f| crate::common::draw(f, s)).expect("draw");
        assert!(
            s.rows.is_empty() || s.viewport.visible.iter().any(|v| v.row == s.selected),
            "{name}: step {step}: the selected row {} is off the screen",
            s.selected
        );
    }
}

/// A generated session with every kind of corrupt line, in the viewer.
#[test]
fn a_corrupt_session_pages_through_expanded() {
    let Some((_dir, file, _)) = common::generated(&["--size", "2M", "--seed", "11", "--corrupt"])
    else {
        return;
    };
    page_through(&file);
}

fn page_through(path: &std::path::Path) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Ok(session) = ccv::source::claude::loader::load_with_subagents(path) else {
        panic!("{name}: could not be read");
    };
    let mut s = State::new(session);
    perform_action(&mut s, Action::ExpandAll);
    perform_action(&mut s, Action::ToggleMeta);
    for (w, h) in [(160u16, 50u16), (42, 20)] {
        let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
        perform_action(&mut s, Action::Resize(w, h));
        perform_action(&mut s, Action::Top);
        // every row once: page down until the last row is selected
        for _ in 0..10_000 {
            t.draw(|f| crate::common::draw(f, &mut s)).expect("draw");
            check_buffer(&t, &name);
            if s.selected + 1 >= s.rows.len() {
                break;
            }
            perform_action(&mut s, Action::PageDown);
        }
    }
    move_about(&mut s, &name);
    // and every row opened on its own, at the end of the file
    perform_action(&mut s, Action::Bottom);
    for _ in 0..40 {
        perform_action(&mut s, Action::Toggle);
        perform_action(&mut s, Action::ShowAll);
        perform_action(&mut s, Action::Up(1));
    }
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, &mut s)).expect("draw");
    check_buffer(&t, &name);
    // `i`: every line accounted for, and the cost by model is the cost
    perform_action(&mut s, Action::Info);
    t.draw(|f| crate::common::draw(f, &mut s)).expect("draw");
    check_buffer(&t, &name);
    let st = &s.session.stats;
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries, "{name}");
    let f = ccv::model::figures::Figures::of(&s.session, 0);
    let (cost, _) = s.session.cost();
    assert!(
        (f.cost.usd - cost.usd).abs() < 1e-6,
        "{name}: {} against {}",
        f.cost.usd,
        cost.usd
    );
    let by_model: f64 = f.detail.get().slices.iter().map(|sl| sl.cost.usd).sum();
    assert!(
        (by_model - cost.usd).abs() < 1e-6,
        "{name}: by model {by_model} against {}",
        cost.usd
    );
}
