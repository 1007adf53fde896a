//! Search in a session as a terminal user expects it: `n` goes down the
//! screen and says when it wraps, the current match stands out on the
//! selected row in every theme, and a match deep in a folded output is
//! brought on screen.

use crate::common::{self, jsonl};
use ccv::app::{Action, State, perform_action};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Style;

fn search(s: &mut State, q: &str) {
    perform_action(s, Action::SearchStart);
    for c in q.chars() {
        perform_action(s, Action::PromptInput(c));
    }
    perform_action(s, Action::PromptSubmit);
    while s.search_step(std::time::Duration::from_millis(50)) {}
}

/// Every hit's row, all rows open: the hits come in the order of the
/// rows (a compaction's summariser in its place, not at the end).
fn assert_hits_in_screen_order(s: &mut State, what: &str) {
    perform_action(s, Action::ExpandAll);
    for a in 0..s.session.agents.len() as u32 {
        s.expanded.insert(ccv::rows::Fold::Agent(a));
    }
    s.rebuild();
    let places: Vec<usize> = s
        .search
        .hits
        .iter()
        .filter_map(|&(a, i)| {
            s.rows
                .iter()
                .position(|r| r.agent == a && r.index as usize == i)
        })
        .collect();
    let mut sorted = places.clone();
    sorted.sort_unstable();
    assert_eq!(places, sorted, "{what}: hits out of screen order");
}

#[test]
fn n_follows_the_screen_through_a_compaction_summariser() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = crate::tui_unlinked_agents::fixture(dir.path());
    perform_action(&mut s, Action::Top);
    search(&mut s, "t");
    let n = s.search.hits.len();
    assert!(n >= 4, "{:?}", s.search.hits);
    // the summariser of the compaction comes before what follows it
    let abc = s.session.agent_by_id("acompact-abc").expect("abc");
    let after = s
        .session
        .main
        .items
        .iter()
        .position(|i| i.text == "after the compaction")
        .expect("the prompt after the compaction");
    let first_abc = s.search.hits.iter().position(|h| h.0 == Some(abc));
    let main_after = s.search.hits.iter().position(|h| *h == (None, after));
    assert!(
        first_abc < main_after,
        "summariser hits come first: {:?}",
        s.search.hits
    );
    assert_hits_in_screen_order(&mut s, "fixture");
}

#[test]
fn hits_are_in_screen_order_on_every_corpus_file() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in files {
        let Ok(session) = ccv::source::claude::loader::load_with_subagents(&f) else {
            continue;
        };
        if session.agents.is_empty() {
            continue;
        }
        let mut s = common::utc_state(session);
        s.search.query = "the".into();
        s.search.hits = ccv::app::search::find_all(&s.session, "the");
        assert_hits_in_screen_order(&mut s, &f.display().to_string());
    }
}

#[test]
fn n_and_n_say_when_the_search_wraps() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = crate::tui_unlinked_agents::fixture(dir.path());
    perform_action(&mut s, Action::Top);
    search(&mut s, "summary");
    let n = s.search.hits.len();
    assert!(n >= 2, "{:?}", s.search.hits);
    let mut wraps = 0;
    let mut places = vec![s.selected];
    for _ in 0..n {
        perform_action(&mut s, Action::NextMatch);
        let msg = s.message.clone().unwrap_or_default();
        wraps += usize::from(msg.contains("search wrapped to top"));
        places.push(s.selected);
    }
    assert_eq!(wraps, 1, "one wrap in a full round");
    assert_eq!(places.first(), places.last(), "back where it started");
    // down the screen until the wrap
    let turn = places.windows(2).filter(|w| w[1] < w[0]).count();
    assert_eq!(turn, 1, "{places:?}");
    // backwards from the first match
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::PrevMatch);
    let msg = s.message.clone().unwrap_or_default();
    assert!(msg.contains("search wrapped to bottom"), "{msg}");
    assert_eq!(s.search.current, Some(n - 1));
}

/// A session whose call's output holds `needle` on line `at` of `lines`.
fn long_output(lines: usize, at: usize) -> State {
    let out: Vec<String> = (0..lines)
        .map(|i| {
            if i == at {
                format!("line {i} needle here")
            } else {
                format!("line {i} of output")
            }
        })
        .collect();
    let text = [
        jsonl::line("user", "u1", "", 0, jsonl::user("run it")),
        jsonl::line(
            "assistant",
            "a1",
            "u1",
            1,
            jsonl::assistant(
                "m1",
                jsonl::call("t1", "Bash", serde_json::json!({"command": "seq"})),
            ),
        ),
        jsonl::line("user", "r1", "a1", 2, jsonl::result("t1", &out.join("\n"))),
        jsonl::line(
            "assistant",
            "a2",
            "r1",
            3,
            jsonl::assistant("m2", jsonl::text("done")),
        ),
    ];
    let lines: Vec<serde_json::Value> = text
        .iter()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    common::utc_state(common::session_of(&lines))
}

#[test]
fn a_match_deep_in_a_folded_output_is_brought_on_screen() {
    let mut s = long_output(300, 200);
    perform_action(&mut s, Action::Top);
    search(&mut s, "needle");
    let screen = common::screen_text(&mut s, 100, 30);
    assert!(screen.contains("line 200 needle here"), "{screen}");
    assert!(!screen.contains("more lines"), "{screen}");
    // a match near the top keeps the output folded
    let mut s = long_output(300, 3);
    perform_action(&mut s, Action::Top);
    search(&mut s, "needle");
    let screen = common::screen_text(&mut s, 100, 30);
    assert!(screen.contains("line 3 needle here"), "{screen}");
    assert!(screen.contains("more lines"), "{screen}");
}

/// The styles of the cells of `word` on screen line `y`.
fn styles_of(b: &ratatui::buffer::Buffer, y: u16, word: &str) -> Vec<Style> {
    let w = b.area.width;
    let line: String = (0..w).map(|x| b[(x, y)].symbol().to_string()).collect();
    let Some(at) = line.find(word) else {
        return Vec::new();
    };
    let x0 = line[..at].chars().count() as u16;
    (x0..x0 + word.chars().count() as u16)
        .map(|x| b[(x, y)].style())
        .collect()
}

/// A cell's background: none set is the terminal's own.
fn same_bg(a: Option<ratatui::style::Color>, b: Option<ratatui::style::Color>) -> bool {
    let reset = ratatui::style::Color::Reset;
    a.unwrap_or(reset) == b.unwrap_or(reset)
}

/// Two rows match; the selected one holds the current match, drawn in
/// the theme's current-match style (not the selection's), the other in
/// the match style; the rest of the selected row has the selection.
fn current_match_in(theme: ccv::view::theme::Theme) {
    let th = theme.clone();
    ccv::view::theme::install(theme);
    let lines = vec![
        common::user_line("u1", serde_json::json!("first zebra prompt")),
        common::assistant_line("a1", "m1", jsonl::text("an answer")),
        common::user_line("u2", serde_json::json!("second zebra prompt")),
        common::assistant_line("a2", "m2", jsonl::text("another answer")),
    ];
    let mut s = common::utc_state(common::session_of(&lines));
    perform_action(&mut s, Action::Top);
    search(&mut s, "zebra");
    let mut t = Terminal::new(TestBackend::new(80, 12)).expect("terminal");
    t.draw(|f| crate::common::draw(f, &mut s)).expect("draw");
    let b = t.backend().buffer().clone();
    let rows: Vec<u16> = (2..12)
        .filter(|&y| !styles_of(&b, y, "zebra prompt").is_empty())
        .collect();
    let text: String = (0..12u16)
        .map(|y| {
            (0..80u16)
                .map(|x| b[(x, y)].symbol().to_string())
                .collect::<String>()
                + "\n"
        })
        .collect();
    assert_eq!(rows.len(), 2, "two matching rows on screen:\n{text}");
    let sel_y = rows
        .iter()
        .copied()
        .find(|&y| {
            styles_of(&b, y, "prompt").iter().all(|st| {
                same_bg(st.bg, th.selected.bg)
                    && (th.color || st.add_modifier.contains(ratatui::style::Modifier::REVERSED))
            })
        })
        .expect("a selected row");
    let other_y = rows.iter().copied().find(|&y| y != sel_y).expect("other");
    let cur = styles_of(&b, sel_y, "zebra");
    let other = styles_of(&b, other_y, "zebra");
    for st in &cur {
        assert!(same_bg(st.bg, th.current_match.bg), "current match bg");
        assert!(
            st.add_modifier.contains(th.current_match.add_modifier),
            "{st:?}"
        );
        assert!(
            !st.add_modifier.contains(ratatui::style::Modifier::REVERSED),
            "not reversed with the selection: {st:?}"
        );
        assert_ne!(*st, other[0], "current differs from another match");
    }
    for st in &other {
        assert!(same_bg(st.bg, th.search_match.bg), "another match");
    }
}

#[test]
fn the_current_match_stands_out_in_the_dark_theme() {
    if alone!(&[]) {
        return;
    }
    current_match_in(ccv::view::theme::Theme::colored());
}

#[test]
fn the_current_match_stands_out_in_the_light_theme() {
    if alone!(&[]) {
        return;
    }
    current_match_in(ccv::view::theme::Theme::light());
}

#[test]
fn the_current_match_stands_out_without_colour() {
    if alone!(&[]) {
        return;
    }
    current_match_in(ccv::view::theme::Theme::mono());
}

/// Claude Code's caveat before a command's output is shown on no screen
/// and in no export: a search does not count it (`n` could not go there).
#[test]
fn a_caveat_shown_nowhere_is_no_match() {
    use crate::common::entry;
    use serde_json::json;
    let s = common::session_of(&[
        entry::user(
            "u1",
            json!("<local-command-caveat>Caveat: the messages below were generated by the user</local-command-caveat>"),
        )
        .root()
        .set("isMeta", json!(true))
        .json(),
        entry::user("u2", json!("the messages below look fine"))
            .parent("u1")
            .json(),
    ]);
    let mut st = State::new(s);
    search(&mut st, "messages below");
    assert_eq!(st.search.hits.len(), 1, "{:?}", st.search.hits);
}
