//! The viewer's state, driven without a terminal.

use crate::common;

use ccv::app::{Action, State, perform_action};
use ccv::model::{Kind, Session};
use ccv::rows::{Fold, RowKind};

fn demo() -> State {
    common::utc_state(ccv::app::demo::session())
}

fn kind_at(s: &State, r: usize) -> RowKind {
    s.rows[r].kind
}

#[test]
fn opens_at_the_end_following() {
    let s = demo();
    assert!(s.follow);
    assert_eq!(s.selected, s.rows.len() - 1);
}

#[test]
fn navigation_moves_the_selection_and_stops_following() {
    let mut s = demo();
    let last = s.rows.len() - 1;
    perform_action(&mut s, Action::Up(1));
    assert_eq!(s.selected, last - 1);
    assert!(!s.follow);
    perform_action(&mut s, Action::Top);
    assert_eq!(s.selected, 0);
    perform_action(&mut s, Action::Up(1));
    assert_eq!(s.selected, 0);
    perform_action(&mut s, Action::Bottom);
    assert_eq!(s.selected, last);
    assert!(s.follow);
}

#[test]
fn prompt_jumps_land_on_user_rows() {
    let mut s = demo();
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::NextPrompt);
    let r = s.rows[s.selected];
    assert_eq!(s.session.main.items[r.index as usize].kind, Kind::User);
    assert!(s.selected > 0);
    let here = s.selected;
    perform_action(&mut s, Action::PrevPrompt);
    assert!(s.selected < here);
}

#[test]
fn groups_start_collapsed_and_toggle_by_id() {
    let mut s = demo();
    let g = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. }))
        .expect("a group");
    let before = s.rows.len();
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(g));
    perform_action(&mut s, Action::Toggle);
    assert!(s.rows.len() > before, "expanding shows the calls");
    assert!(matches!(kind_at(&s, g + 1), RowKind::Call { .. }));
    assert_eq!(s.selected, g, "selection stays on the header");
    // expanded state survives a filter round trip
    perform_action(&mut s, Action::ToggleThinking);
    perform_action(&mut s, Action::ToggleThinking);
    assert!(matches!(kind_at(&s, g + 1), RowKind::Call { .. }));
    perform_action(&mut s, Action::Toggle);
    assert_eq!(s.rows.len(), before);
}

#[test]
fn expand_all_and_collapse_all() {
    let mut s = demo();
    let before = s.rows.len();
    perform_action(&mut s, Action::ExpandAll);
    assert!(s.rows.len() > before);
    perform_action(&mut s, Action::CollapseAll);
    assert_eq!(s.rows.len(), before);
}

#[test]
fn filters_hide_tools_and_thinking() {
    let mut s = demo();
    let has = |s: &State, k: Kind| {
        s.rows
            .iter()
            .any(|r| r.agent.is_none() && s.session.main.items[r.index as usize].kind == k)
    };
    assert!(has(&s, Kind::Thinking));
    perform_action(&mut s, Action::ToggleThinking);
    assert!(!has(&s, Kind::Thinking));
    perform_action(&mut s, Action::ToggleTools);
    assert!(
        !s.rows
            .iter()
            .any(|r| matches!(r.kind, RowKind::Group { .. } | RowKind::Call { .. }))
    );
    let meta_before = s.rows.len();
    perform_action(&mut s, Action::ToggleMeta);
    assert!(
        s.rows.len() > meta_before,
        "meta rows (turn duration) appear"
    );
}

#[test]
fn search_finds_folded_tool_output_and_reveals_it() {
    let mut s = demo();
    perform_action(&mut s, Action::SearchStart);
    for c in "E0433".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    assert_eq!(s.search.hits.len(), 1, "only in the Bash result");
    let r = s.rows[s.selected];
    assert!(matches!(r.kind, RowKind::Call { .. }));
    let id = s.session.main.items[r.index as usize].id;
    assert!(
        s.expanded.contains(&Fold::Item(id)),
        "the call is opened to show the match"
    );
}

#[test]
fn search_reaches_into_subagents_and_cycles() {
    let mut s = demo();
    perform_action(&mut s, Action::SearchStart);
    for c in "reconnect".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    assert!(
        s.search.hits.iter().any(|h| h.0.is_some()),
        "a hit inside the subagent"
    );
    let n = s.search.hits.len();
    for _ in 0..n {
        perform_action(&mut s, Action::NextMatch);
    }
    assert!(s.search.current.is_some());
    perform_action(&mut s, Action::PrevMatch);
    assert!(s.search.current.is_some());
}

#[test]
fn help_and_back() {
    let mut s = demo();
    perform_action(&mut s, Action::Help);
    assert!(s.mode == ccv::app::Mode::Help);
    perform_action(&mut s, Action::Back);
    assert!(s.mode == ccv::app::Mode::Normal && !s.quit);
    perform_action(&mut s, Action::Back);
    assert!(s.quit);
}

fn split_demo() -> (Session, &'static [u8]) {
    let bytes = ccv::app::demo::DEMO;
    let cut = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(14)
        .map(|(i, _)| i + 1)
        .unwrap();
    let mut session = Session::new(None);
    session.feed(0, &bytes[..cut]);
    let _ = session.take_changes();
    (session, &bytes[cut..])
}

#[test]
fn follow_stays_at_the_bottom_as_rows_arrive() {
    let (session, rest) = split_demo();
    let mut s = State::new(session);
    let before = s.rows.len();
    s.session.feed(0, rest);
    s.session.flush_tail(0);
    let ch = s.session.take_changes();
    s.apply_changes(ch);
    assert!(s.rows.len() > before);
    assert_eq!(s.selected, s.rows.len() - 1);
    assert_eq!(s.unseen, 0);
    // same rows as a full rebuild
    let incremental = s.rows.clone();
    s.rebuild();
    assert_eq!(incremental, s.rows);
}

#[test]
fn scrolled_up_stays_put_and_counts_new_rows() {
    let (session, rest) = split_demo();
    let mut s = State::new(session);
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(1));
    let sel = s.selected;
    let before = s.rows.len();
    s.session.feed(0, rest);
    let ch = s.session.take_changes();
    s.apply_changes(ch);
    assert_eq!(s.selected, sel);
    assert!(!s.follow);
    assert_eq!(s.unseen, s.rows.len() - before);
    perform_action(&mut s, Action::Follow);
    assert_eq!(s.selected, s.rows.len() - 1);
    assert_eq!(s.unseen, 0);
}

#[test]
fn expanded_state_survives_appends() {
    let (session, rest) = split_demo();
    let mut s = State::new(session);
    let g = s
        .rows
        .iter()
        .position(|r| matches!(r.kind, RowKind::Group { .. }))
        .expect("a group");
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(g));
    perform_action(&mut s, Action::Toggle);
    let open = s.rows.len();
    s.session.feed(0, rest);
    let ch = s.session.take_changes();
    s.apply_changes(ch);
    assert!(s.rows.len() > open);
    assert!(matches!(s.rows[g + 1].kind, RowKind::Call { .. }));
}

#[test]
fn replacing_a_preview_keeps_the_bottom() {
    let (session, _) = split_demo();
    let mut s = State::new(session);
    s.partial = true;
    s.replace_session(ccv::app::demo::session());
    assert!(!s.partial);
    assert_eq!(s.selected, s.rows.len() - 1);
}

#[test]
fn off_branch_items_fold_into_one_row() {
    let mut session = ccv::app::demo::session();
    for it in session.main.items.iter_mut().take(3) {
        it.off_branch = true;
    }
    let mut s = State::new(session);
    assert!(matches!(s.rows[0].kind, RowKind::Branch { count: 3 }));
    assert!(!matches!(s.rows[1].kind, RowKind::Branch { .. }));
    let before = s.rows.len();
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Toggle);
    assert_eq!(s.rows.len(), before + 3);
    assert!(s.rows[1..4].iter().all(|r| r.depth == 1));
}

#[test]
fn toggling_in_place_matches_a_full_rebuild() {
    let mut s = demo();
    perform_action(&mut s, Action::Top);
    for _ in 0..s.rows.len() {
        perform_action(&mut s, Action::Toggle);
        let incremental = s.rows.clone();
        s.rebuild();
        assert_eq!(incremental, s.rows);
        perform_action(&mut s, Action::Down(1));
    }
}

#[test]
fn line_by_line_appends_match_a_full_rebuild() {
    let bytes = ccv::app::demo::DEMO;
    let mut s = State::new(Session::new(None));
    perform_action(&mut s, Action::ToggleMeta);
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        s.session.feed(0, line);
        let ch = s.session.take_changes();
        s.apply_changes(ch);
        let incremental = s.rows.clone();
        s.rebuild();
        assert_eq!(
            incremental,
            s.rows,
            "after {}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(s.selected, s.rows.len() - 1, "following");
        // open everything that can be opened, subagents included
        let folds: Vec<Fold> = (0..s.rows.len())
            .filter_map(|r| s.rows[r].fold(&s.session))
            .collect();
        s.expanded.extend(folds);
        s.rebuild();
    }
    assert!(
        s.rows.iter().any(|r| r.agent.is_some()),
        "subagent rows shown"
    );
}

#[test]
fn a_match_in_a_call_selects_the_call_not_its_group() {
    let mut s = demo();
    perform_action(&mut s, Action::SearchStart);
    for c in "ConnectionReset =>".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    let mut kinds = Vec::new();
    for _ in 0..s.search.hits.len() {
        kinds.push(s.rows[s.selected].kind);
        perform_action(&mut s, Action::NextMatch);
    }
    assert!(
        kinds.iter().any(|k| matches!(k, RowKind::Call { .. })),
        "{kinds:?}"
    );
    assert!(
        !kinds.iter().any(|k| matches!(k, RowKind::Group { .. })),
        "{kinds:?}"
    );
}

#[test]
fn esc_clears_a_search_before_it_quits() {
    let mut s = ccv::app::State::new(common::session_of(&[common::user_line(
        "u1",
        serde_json::json!("find the needle"),
    )]));
    for a in [ccv::app::Action::SearchStart]
        .into_iter()
        .chain("needle".chars().map(ccv::app::Action::PromptInput))
        .chain([ccv::app::Action::PromptSubmit])
    {
        ccv::app::perform_action(&mut s, a);
    }
    assert!(!s.search.hits.is_empty());
    ccv::app::perform_action(&mut s, ccv::app::Action::Dismiss);
    assert!(!s.quit, "the first Esc clears the search");
    assert!(s.search.query.is_empty());
    ccv::app::perform_action(&mut s, ccv::app::Action::Dismiss);
    assert!(s.quit);
}

/// A search goes through a big session a slice at a time: matches come
/// in as found, the first one past the selection is shown at once, and
/// the whole search finds what a search in one go finds.
#[test]
fn a_search_streams_its_matches_slice_by_slice() {
    let mut lines = Vec::new();
    for i in 0..9_000 {
        let text = if i % 1000 == 7 {
            format!("needle {i}")
        } else {
            format!("hay {i}")
        };
        let mut l = common::user_line(&format!("u{i}"), serde_json::json!(text));
        if i > 0 {
            l["parentUuid"] = serde_json::json!(format!("u{}", i - 1));
        }
        lines.push(l);
    }
    let mut s = common::utc_state(common::session_of(&lines));
    perform_action(&mut s, Action::Top);
    assert!(s.begin_search("needle".into()));
    let mut steps = 0;
    let mut seen = 0;
    while s.search_step(std::time::Duration::ZERO) {
        steps += 1;
        assert!(s.search.hits.len() >= seen, "matches only come in");
        seen = s.search.hits.len();
        if seen > 0 {
            assert!(
                s.search.current.is_some(),
                "the first match is shown when found"
            );
        }
    }
    assert!(steps >= 2, "{steps} steps: the search was not sliced");
    assert_eq!(
        s.search.hits,
        ccv::app::search::find_all(&s.session, "needle")
    );
    assert_eq!(s.search.hits.len(), 9);
    assert_eq!(s.search.current, Some(0));
}
