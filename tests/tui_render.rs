//! Rendering through ratatui's TestBackend: snapshots of the main screens
//! and the guarantee that no control character from a session reaches a
//! cell.

use crate::common;

use ccv::app::{Action, State, perform_action};
use ccv::model::Session;
use ccv::rows::RowKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

fn state(session: Session) -> State {
    common::utc_state(session)
}

fn draw(s: &mut State, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, s)).expect("draw");
    t
}

fn select_group(s: &mut State, nth: usize) {
    let g = s
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.kind, RowKind::Group { .. }))
        .nth(nth)
        .unwrap()
        .0;
    perform_action(s, Action::Top);
    perform_action(s, Action::Down(g));
}

#[test]
fn main_view() {
    let mut s = state(ccv::app::demo::session());
    let t = draw(&mut s, 100, 30);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn expanded_group_with_diff() {
    let mut s = state(ccv::app::demo::session());
    select_group(&mut s, 1);
    perform_action(&mut s, Action::Toggle);
    perform_action(&mut s, Action::Down(1));
    perform_action(&mut s, Action::Toggle);
    let t = draw(&mut s, 100, 30);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn search_match() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::SearchStart);
    for c in "E0433".chars() {
        perform_action(&mut s, Action::PromptInput(c));
    }
    perform_action(&mut s, Action::PromptSubmit);
    let t = draw(&mut s, 100, 30);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn help_overlay() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Help);
    let t = draw(&mut s, 100, 30);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn resize_keeps_the_selection_in_view() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(6));
    let _ = draw(&mut s, 100, 30);
    for (w, h) in [(40, 10), (200, 60), (30, 6)] {
        let _ = draw(&mut s, w, h);
        assert!(
            s.viewport.visible.iter().any(|v| v.row == s.selected),
            "{w}x{h}"
        );
    }
}

#[test]
fn click_selects_and_toggles() {
    let mut s = state(ccv::app::demo::session());
    let _ = draw(&mut s, 100, 40);
    let ccv::view::Visible { row, y, .. } = *s
        .viewport
        .visible
        .iter()
        .find(|v| matches!(s.rows[v.row].kind, RowKind::Group { .. }))
        .expect("a group on screen");
    let before = s.rows.len();
    perform_action(&mut s, Action::Click(y));
    assert_eq!(s.selected, row);
    assert!(s.rows.len() > before);
}

const HOSTILE: &[&str] = &[
    "\x1b]2;pwned title\x07",
    "\x1b]52;c;ZXZpbA==\x07",
    "\x1b[2J",
    "\x1b[?1049h",
    "\x1b[?1000h",
    "over\rwrite",
    "nul\0byte",
    "c1\u{9b}31mcsi",
    "bidi\u{202e}txt.exe",
    "bell\x07 del\x7f",
];

fn hostile_session() -> Session {
    let evil = HOSTILE.join(" | ");
    let env = |t: &str, uuid: &str, extra: serde_json::Value| {
        let mut v = json!({"type": t, "uuid": uuid, "sessionId": "s", "cwd": format!("/tmp/{evil}"),
            "gitBranch": evil, "version": "2.1.42", "timestamp": "2026-02-11T10:00:00.000Z"});
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v.to_string()
    };
    let lines = [
        env(
            "user",
            "u1",
            json!({"message": {"role": "user", "content": evil}}),
        ),
        env(
            "assistant",
            "a1",
            json!({"message": {"id": "m1", "model": evil, "role": "assistant",
            "content": [{"type": "text", "text": format!("# {evil}\n\n```sh\n{evil}\n```\n| a | {evil} |\n|---|---|\n| x | y |")}]}}),
        ),
        env(
            "assistant",
            "a2",
            json!({"message": {"id": "m1", "role": "assistant",
            "content": [{"type": "thinking", "thinking": evil, "signature": "x"}]}}),
        ),
        env(
            "assistant",
            "a3",
            json!({"message": {"id": "m1", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": format!("Bash{evil}"), "input": {"command": evil}}]}}),
        ),
        env(
            "user",
            "r1",
            json!({"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
            "content": format!("{evil}\n{evil}"), "is_error": true}]}}),
        ),
        env(
            "assistant",
            "a4",
            json!({"message": {"id": "m1", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t2", "name": "Edit", "input": {"file_path": evil, "old_string": evil, "new_string": "x"}}]}}),
        ),
        env(
            "user",
            "r2",
            json!({"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": evil}]},
            "toolUseResult": {"filePath": evil, "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [format!("-{evil}"), format!("+{evil}")]}]}}),
        ),
        env(
            "assistant",
            "a5",
            json!({"message": {"id": "m1", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t3", "name": "Read", "input": {"file_path": evil}}]}}),
        ),
        env(
            "user",
            "r3",
            json!({"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t3", "content": format!("     1→{evil}")}]}}),
        ),
        env(
            "system",
            "s1",
            json!({"subtype": "compact_boundary", "content": evil, "compactMetadata": {"trigger": evil, "preTokens": 1}}),
        ),
        env(&format!("weird{evil}"), "w1", json!({"note": evil})),
        json!({"type": "ai-title", "aiTitle": evil}).to_string(),
        format!("{{not json {evil}"),
    ];
    let mut s = Session::new(None);
    s.feed(0, (lines.join("\n") + "\n").as_bytes());
    s.finish(0);
    let _ = s.take_changes();
    s
}

fn assert_clean(t: &Terminal<TestBackend>, what: &str) {
    for (i, cell) in t.backend().buffer().content.iter().enumerate() {
        for c in cell.symbol().chars() {
            let u = c as u32;
            let bad = u < 0x20
                || u == 0x7f
                || (0x80..0xa0).contains(&u)
                || matches!(u, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x061c);
            assert!(!bad, "{what}: control U+{u:04X} in cell {i}");
        }
    }
}

#[test]
fn hostile_payloads_never_reach_a_cell() {
    let mut s = state(hostile_session());
    let t = draw(&mut s, 120, 50);
    assert_clean(&t, "collapsed");
    perform_action(&mut s, Action::ExpandAll);
    perform_action(&mut s, Action::ToggleMeta);
    for r in 0..s.rows.len() {
        perform_action(&mut s, Action::Top);
        perform_action(&mut s, Action::Down(r));
        if s.rows[s.selected].fold(&s.session).is_some() {
            perform_action(&mut s, Action::Toggle);
        }
    }
    for (w, h) in [(120, 50), (40, 20)] {
        perform_action(&mut s, Action::Top);
        let t = draw(&mut s, w, h);
        assert_clean(&t, "expanded");
        perform_action(&mut s, Action::Bottom);
        let t = draw(&mut s, w, h);
        assert_clean(&t, "expanded bottom");
    }
    perform_action(&mut s, Action::Help);
    let t = draw(&mut s, 120, 50);
    assert_clean(&t, "help");
    perform_action(&mut s, Action::Info);
    for (w, h) in [(120, 50), (40, 12), (6, 3), (1, 1)] {
        let t = draw(&mut s, w, h);
        assert_clean(&t, "info");
    }
}

/// `i` shows the session in figures: where every line went (shown, hidden
/// by why, unreadable), its tokens, cost and calls; `i` or `q` puts it
/// away, and on a short screen it scrolls.
#[test]
fn the_info_overlay_accounts_for_every_line() {
    use common::entry;
    let at = |t: &str| format!("2026-03-01T10:{t}.000Z");
    let lines = [
        entry::user("u1", "fix the build")
            .session("s1")
            .cwd("/w/app")
            .at(&at("00:00"))
            .json(),
        entry::other(
            "progress",
            "p1",
            json!({"parentUuid": "u1", "data": {"type": "hook_progress"}}),
        )
        .json(),
        entry::other(
            "progress",
            "p2",
            json!({"parentUuid": "u1", "data": {"type": "hook_progress"}}),
        )
        .json(),
        entry::call("a1", "m1", "t1", "Bash", json!({"command": "cargo build"}))
            .parent("u1")
            .session("s1")
            .model("claude-opus-4-6")
            .at(&at("00:05"))
            .usage(json!({"input_tokens": 1200, "output_tokens": 300}))
            .json(),
        entry::result("r1", "t1", "error[E0433]")
            .parent("a1")
            .session("s1")
            .at(&at("00:09"))
            .json(),
        json!({"type": "file-history-snapshot", "messageId": "x", "snapshot": {}}),
        entry::text_answer("a2", "m2", "Fixed.")
            .parent("r1")
            .session("s1")
            .model("claude-opus-4-6")
            .at(&at("02:30"))
            .usage(json!({"input_tokens": 100, "output_tokens": 20}))
            .json(),
    ];
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    text.push_str("{not json\n");
    let mut session = Session::new(None);
    session.feed(0, text.as_bytes());
    session.finish(0);
    let _ = session.take_changes();
    let mut s = state(session);
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 110, 30);
    let screen = format!("{:?}", t.backend());
    for want in [
        "8 read: 4 shown · 3 hidden · 1 unreadable",
        "2 progress · 1 file-history-snapshot",
        "1 prompt · 1 tool call",
        "1.3k in · 320 out · 0 cache write · 0 cache read",
        "Bash 1",
        "2026-03-01 10:00 → 10:02 (2m30s)",
        "/w/app",
        "no file (standard input",
    ] {
        assert!(screen.contains(want), "no {want:?} in\n{screen}");
    }
    let st = &s.session.stats;
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries);
    // the cost the header gives is the overlay's
    let (cost, unpriced) = s.session.cost();
    let label = cost.describe(&unpriced).expect("priced");
    assert!(
        screen
            .lines()
            .any(|l| l.contains("│ cost ") && l.contains(&label)),
        "{screen}"
    );
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 110, 30);
    assert!(!format!("{:?}", t.backend()).contains("hidden"));
    // a short screen scrolls it, and q puts it away
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 60, 8);
    let top = format!("{:?}", t.backend());
    assert!(top.contains("↓ j"), "{top}");
    perform_action(&mut s, Action::Down(30));
    let t = draw(&mut s, 60, 8);
    let bottom = format!("{:?}", t.backend());
    assert!(bottom.contains("2 progress"), "{bottom}");
    assert!(bottom.contains("↑ k"), "{bottom}");
    perform_action(&mut s, Action::Back);
    assert_eq!(s.mode, ccv::app::Mode::Normal);
    assert!(!s.quit);
}

/// The overlay follows a session being written: what arrives while it
/// shows is counted at once.
#[test]
fn the_info_overlay_follows_appends() {
    use common::entry;
    let first = entry::user("u1", "hello")
        .session("s1")
        .at("2026-03-01T10:00:00.000Z")
        .json();
    let mut session = Session::new(None);
    session.feed(0, format!("{first}\n").as_bytes());
    let _ = session.take_changes();
    let mut s = state(session);
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 110, 30);
    assert!(format!("{:?}", t.backend()).contains("1 read: 1 shown"));
    let more = entry::other("progress", "p1", json!({"parentUuid": "u1"})).json();
    s.session.feed(0, format!("{more}\n{{broken\n").as_bytes());
    s.absorb();
    let t = draw(&mut s, 110, 30);
    let screen = format!("{:?}", t.backend());
    assert!(
        screen.contains("3 read: 1 shown · 1 hidden · 1 unreadable"),
        "{screen}"
    );
}

#[test]
fn info_overlay() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 100, 30);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn a_row_taller_than_the_screen_scrolls_line_by_line() {
    let mut s = state(ccv::app::demo::session());
    // the markdown answer with a table is the tallest row of the demo
    let tall = (0..s.rows.len())
        .max_by_key(|&r| {
            s.session.main.items[s.rows[r].index as usize]
                .text
                .or_marker()
                .lines()
                .count()
        })
        .unwrap();
    perform_action(&mut s, Action::Top);
    perform_action(&mut s, Action::Down(tall));
    let _ = draw(&mut s, 80, 10);
    assert!(s.viewport.sel_overflow > 0);
    let top_line = |t: &Terminal<TestBackend>| {
        let b = t.backend().buffer();
        (0..b.area.width)
            .map(|x| b[(x, 2)].symbol().to_string())
            .collect::<String>()
    };
    let before = top_line(&draw(&mut s, 80, 10));
    perform_action(&mut s, Action::Down(1));
    assert_eq!(s.selected, tall, "still on the tall row");
    let after = top_line(&draw(&mut s, 80, 10));
    assert_ne!(before, after, "scrolled one line");
    perform_action(&mut s, Action::Up(1));
    assert_eq!(top_line(&draw(&mut s, 80, 10)), before);
    for _ in 0..100 {
        perform_action(&mut s, Action::Down(1));
        let _ = draw(&mut s, 80, 10);
    }
    assert!(s.selected > tall, "moves on after the end of the row");
}

#[test]
fn z_shows_a_long_output_whole_and_folds_it_again() {
    let out: String = (1..=40).map(|i| format!("output line {i}\n")).collect();
    let lines = [
        json!({"type":"user","uuid":"u1","timestamp":"2025-03-01T10:00:00Z","message":{"role":"user","content":"run it"}}),
        json!({"type":"assistant","uuid":"a1","timestamp":"2025-03-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"seq 40"}}]}}),
        json!({"type":"user","uuid":"r1","timestamp":"2025-03-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":out}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut session = Session::new(None);
    session.feed(0, text.as_bytes());
    session.finish(0);
    let mut s = state(session);
    common::select_first_tool_row(&mut s);
    perform_action(&mut s, Action::ShowAll);
    let screen = format!("{:?}", draw(&mut s, 100, 60).backend());
    assert!(screen.contains("output line 40"), "{screen}");
    assert!(!screen.contains("more lines"), "{screen}");
    perform_action(&mut s, Action::ShowAll);
    let screen = format!("{:?}", draw(&mut s, 100, 60).backend());
    assert!(screen.contains("output line 12"), "still open: {screen}");
    assert!(!screen.contains("output line 40"), "{screen}");
    assert!(screen.contains("more lines (z shows all)"), "{screen}");
}

#[test]
fn help_fits_a_24_line_terminal() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Help);
    let screen = format!("{:?}", draw(&mut s, 120, 24).backend());
    for (keys, what) in ccv::app::keymap::help() {
        assert!(screen.contains(&keys), "{keys:?} missing:\n{screen}");
        assert!(screen.contains(what), "{what:?} cut:\n{screen}");
    }
}

/// At 80x24 the overlay does not fit: it scrolls, and every entry can be
/// read whole, none cut at the right edge.
#[test]
fn help_scrolls_at_80x24_and_nothing_is_cut() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Help);
    let mut seen = String::new();
    for _ in 0..30 {
        seen.push_str(&format!("{:?}", draw(&mut s, 80, 24).backend()));
        perform_action(&mut s, Action::Down(1));
    }
    for (keys, what) in ccv::app::keymap::help() {
        assert!(seen.contains(&keys), "{keys:?} never shown");
        assert!(seen.contains(what), "{what:?} never shown whole");
    }
    assert!(
        s.mode == ccv::app::Mode::Help,
        "j scrolled the overlay, it did not close it"
    );
    // the wheel scrolls the overlay, not the rows behind it
    let (selected, scroll) = (s.selected, s.help_scroll);
    perform_action(&mut s, Action::ScrollUp);
    assert_eq!(
        (s.selected, s.help_scroll),
        (selected, scroll.saturating_sub(3))
    );
}

/// The header keeps what tells most (title, place, context) at 80 columns,
/// drops the rest whole, and never cuts a word without an ellipsis.
#[test]
fn the_header_drops_fields_by_priority_at_80_columns() {
    let mut s = state(ccv::app::demo::session());
    let t = draw(&mut s, 80, 24);
    let b = t.backend().buffer();
    let head: String = (0..80).map(|x| b[(x, 0)].symbol().to_string()).collect();
    assert!(head.contains("Fix flaky keep-alive test"), "{head}");
    assert!(head.contains("ctx "), "{head}");
    assert!(!head.contains("v2.1"), "the version goes first: {head}");
    let wide = draw(&mut s, 200, 24);
    let b = wide.backend().buffer();
    let head: String = (0..200).map(|x| b[(x, 0)].symbol().to_string()).collect();
    assert!(head.contains("v2.1.42") && head.contains("tok"), "{head}");
}

/// Paths under the session's directory show relative to it.
#[test]
fn tool_rows_show_paths_relative_to_the_cwd() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::ExpandAll);
    let screen = format!("{:?}", draw(&mut s, 80, 200).backend());
    assert!(screen.contains("Edit       src/client.rs"), "{screen}");
    assert!(!screen.contains("/home/ada/src/tinyhttp/src"), "{screen}");
}

/// A question's row says what the user answered.
#[test]
fn a_question_says_its_answer() {
    use common::{assistant_line, user_line};
    use serde_json::json;
    let q = |n: usize| json!({"question":format!("Which way {n}?"),"header":"Way","options":[{"label":"A"},{"label":"B"}],"multiSelect":false});
    let mut lines = vec![user_line("u0", json!("ask"))];
    for (i, (questions, said)) in [
        (json!([q(1)]), "User has answered your questions: \"Which way 1?\"=\"B \u{1b}]0;x\u{7} (Recommended)\". You can now continue with the user's answers in mind. You can now continue with the user's answers in mind. You can now continue with the user's answers in mind. You can now continue with the user's answers in mind."),
        (json!([q(2), q(3)]), r#"User has answered your questions: "Which way 2?"="A", "Which way 3?"="B". You can now continue."#),
        (json!([q(4)]), "The user doesn't want to proceed with this tool use."),
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("t{i}");
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type":"tool_use","id":id,"name":"AskUserQuestion","input":{"questions":questions}}]),
        ));
        lines.push(user_line(
            &format!("r{i}"),
            json!([{"type":"tool_result","tool_use_id":id,"content":said}]),
        ));
    }
    // read as the viewer reads a file, which leaves long texts in it: an
    // answer is held, as its row shows it closed
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).expect("write");
    let session = ccv::source::claude::loader::load_to_view(&path, &mut |_, _| {}).expect("load");
    let mut s = state(session);
    perform_action(&mut s, Action::ExpandAll);
    let screen = format!("{:?}", draw(&mut s, 120, 40).backend());
    assert!(
        screen.contains("Which way 1? · → B  (Recommended)"),
        "{screen}"
    );
    assert!(
        screen.contains("Which way 2? (+1 more) · → A (+1 more)"),
        "{screen}"
    );
    assert!(!screen.contains("Which way 4? · →"), "{screen}");
}

/// Collapsing a tall row while scrolled inside it brings the row back on
/// screen, and `k` moves at once.
#[test]
fn collapsing_a_tall_row_scrolled_inside_keeps_it_on_screen() {
    let mut s = state(ccv::app::demo::session());
    // a row that, opened, is taller than the screen
    let mut tall = None;
    for r in 0..s.rows.len() {
        if s.rows[r].fold(&s.session).is_none() {
            continue;
        }
        perform_action(&mut s, Action::Top);
        perform_action(&mut s, Action::Down(r));
        perform_action(&mut s, Action::Toggle);
        let _ = draw(&mut s, 80, 8);
        if s.viewport.sel_overflow > 3 {
            tall = Some(r);
            break;
        }
        perform_action(&mut s, Action::Toggle);
    }
    let tall = tall.expect("a tall foldable row in the demo");
    for _ in 0..3 {
        perform_action(&mut s, Action::Down(1));
        let _ = draw(&mut s, 80, 8);
    }
    assert!(s.sel_offset > 0, "scrolled inside the row");
    assert_eq!(s.selected, tall);
    perform_action(&mut s, Action::Toggle);
    let _ = draw(&mut s, 80, 8);
    assert!(
        s.viewport.visible.iter().any(|v| v.row == tall),
        "the collapsed row is on screen"
    );
    perform_action(&mut s, Action::Up(1));
    let _ = draw(&mut s, 80, 8);
    assert_eq!(s.selected, tall - 1, "k moved the selection");
}

/// While a big file loads (its end shown first), the overlay gives the
/// file's size and how far the load got, not the end's figures as the
/// session's.
#[test]
fn the_info_overlay_waits_for_a_whole_load() {
    let mut s = state(ccv::app::demo::session());
    s.partial = true;
    s.load_progress = Some((50, 200));
    perform_action(&mut s, Action::Info);
    let t = draw(&mut s, 110, 30);
    let screen = format!("{:?}", t.backend());
    assert!(screen.contains("loading 25%"), "{screen}");
    for absent in ["shown ·", "cache read", "tool calls ·"] {
        assert!(!screen.contains(absent), "{absent}: {screen}");
    }
}

/// A search's header counts what it found as its result counts it: a
/// read's lines (which, of a part of a file), a new file, what runs on in
/// the background, was interrupted or is waited for still running, what
/// a command's exit status meant, the lines of a `content` search (its files are 0 there), a count's matches,
/// a file list's files, `+` where it stopped at its limit, and no matches.
#[test]
fn call_headers_count_what_each_read_and_search_found() {
    use common::{assistant_line, user_line};
    use serde_json::json;
    let results = [
        json!({"mode":"content","numFiles":0,"filenames":[],"content":"a:1:x\na:2:y\na:3:z","numLines":3}),
        json!({"mode":"count","numFiles":2,"filenames":[],"content":"a:4\nb:1","numMatches":5}),
        json!({"mode":"files_with_matches","filenames":["a"],"numFiles":1}),
        json!({"mode":"content","numFiles":0,"filenames":[],"content":"…","numLines":20,"appliedLimit":20}),
        json!({"mode":"content","numFiles":0,"filenames":[],"content":"","numLines":0}),
        json!({"filenames":["a"],"numFiles":100,"truncated":true,"durationMs":3}),
        json!({"type":"text","file":{"filePath":"/home/bob/app/a","content":"x","numLines":7}}),
        json!({"type":"text","file":{"filePath":"/home/bob/app/b","content":"x","numLines":150,"startLine":59,"totalLines":455}}),
        json!({"type":"text","file":{"filePath":"/home/bob/app/c","content":"x","numLines":20,"startLine":1,"totalLines":193}}),
        json!({"type":"create","filePath":"/home/bob/app/d","content":"x\ny\n","structuredPatch":[]}),
        json!({"type":["odd"],"filePath":"/home/bob/app/e","content":"x","structuredPatch":[]}),
        json!({"stdout":"","stderr":"","interrupted":false,"isImage":false,"backgroundTaskId":"bash_1"}),
        json!({"stdout":"","stderr":"","interrupted":true,"isImage":false}),
        json!({"isAsync":true,"status":"async_launched","agentId":"a1","description":"look","prompt":"look"}),
        json!({"retrieval_status":"timeout","task":{"task_id":"a1","task_type":"local_agent","status":"running","description":"look"}}),
        json!({"retrieval_status":"success","task":{"task_id":"a2","task_type":"local_agent","status":"completed","description":"look"}}),
        // words of other types, read as nothing said
        json!({"retrieval_status":7,"task":"running","interrupted":"yes","backgroundTaskId":null,"truncated":[true],"status":{"status":"async_launched"}}),
        json!({"task":{"status":["running"]},"type":{"create":true}}),
        json!({"stdout":"","stderr":"","interrupted":false,"isImage":false,"returnCodeInterpretation":"No matches found"}),
        json!({"stdout":"","stderr":"","interrupted":false,"isImage":false,"returnCodeInterpretation":"Something new"}),
    ];
    let mut lines = vec![user_line("u0", json!("look"))];
    for (i, r) in results.iter().enumerate() {
        let id = format!("t{i}");
        let (name, input) = match i {
            5 => ("Glob", json!({"pattern":"**/*.rs"})),
            6 => ("Read", json!({"file_path":"/home/bob/app/a"})),
            7 => (
                "Read",
                json!({"file_path":"/home/bob/app/b","offset":59,"limit":150}),
            ),
            8 => ("Read", json!({"file_path":"/home/bob/app/c","limit":20})),
            9 | 10 => (
                "Write",
                json!({"file_path":format!("/home/bob/app/{}", if i == 9 {"d"} else {"e"}),"content":"x"}),
            ),
            11 | 12 => ("Bash", json!({"command":format!("sleep {i}")})),
            13 => (
                "Task",
                json!({"description":"watch","prompt":"watch","subagent_type":"general-purpose"}),
            ),
            18 | 19 => ("Bash", json!({"command":format!("grep -r nothing{i} .")})),
            14..=17 => (
                "TaskOutput",
                json!({"task_id":format!("x{i}"),"block":true}),
            ),
            _ => ("Grep", json!({"pattern":format!("w{i}")})),
        };
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type":"tool_use","id":id,"name":name,"input":input}]),
        ));
        let mut result = user_line(
            &format!("r{i}"),
            json!([{"type":"tool_result","tool_use_id":id,"content":"…"}]),
        );
        result["toolUseResult"] = r.clone();
        lines.push(result);
    }
    let session = common::session_of(&lines);
    assert!(session.problems.is_empty(), "{:?}", session.problems);
    let mut s = state(session);
    perform_action(&mut s, Action::ExpandAll);
    let screen = format!("{:?}", draw(&mut s, 120, 60).backend());
    for want in [
        "w0 · 3 lines",
        "w1 · 5 matches in 2 files",
        "w2 · 1 file",
        "w3 · 20+ lines",
        "w4 · no matches",
        "**/*.rs · 100+ files",
        "a · 7 lines",
        "b · lines 59–208 of 455",
        "c · lines 1–20 of 193",
        "d · new file",
        "sleep 11 · in background",
        "sleep 12 · interrupted",
        "\"watch\" · in background",
        "x14 · still running",
        "nothing18 . · no matches",
    ] {
        assert!(screen.contains(want), "{want}: {screen}");
    }
    assert!(!screen.contains("0 files"), "{screen}");
    // a write's result of another shape reads as nothing said, the line whole
    assert!(screen.contains("Write      e"), "{screen}");
    assert!(!screen.contains("e · new file"), "{screen}");
    assert!(screen.contains("grep -r nothing19 .  "), "{screen}");
    for quiet in ["x15", "x16", "x17"] {
        let row = screen
            .split('"')
            .find(|l| l.contains(&format!("TaskOutput {quiet}")))
            .unwrap_or_else(|| panic!("{quiet}: {screen}"));
        assert!(!row.contains(" · "), "{row}");
    }
}

/// Calls and their results' `toolUseResult`s: background tasks, fetches,
/// searches, tasks made and updated, and fields of other types.
fn calls_of_tasks_and_fetches() -> Vec<(&'static str, serde_json::Value, serde_json::Value)> {
    vec![
        (
            "Bash",
            json!({"command":"npm run \"dev\"","run_in_background":true}),
            json!({"stdout":"","stderr":"","interrupted":false,"backgroundTaskId":"b7f3a1c"}),
        ),
        (
            "Task",
            json!({"description":"watch the build","prompt":"watch","subagent_type":"Explore"}),
            json!({"isAsync":true,"status":"async_launched","agentId":"a9e2d41","description":"watch the build"}),
        ),
        (
            "TaskOutput",
            json!({"task_id":"b7f3a1c","block":true}),
            json!({"retrieval_status":"timeout","task":{"task_id":"b7f3a1c","status":"running"}}),
        ),
        (
            "TaskOutput",
            json!({"task_id":"a9e2d41","block":true}),
            json!({"retrieval_status":"success","task":{"task_id":"a9e2d41","status":"completed"}}),
        ),
        ("TaskOutput", json!({"task_id":"zz00000"}), json!({})),
        ("KillShell", json!({"shell_id":"b7f3a1c"}), json!({})),
        (
            "BashOutput",
            json!({"bash_id":"b7f3a1c"}),
            json!({"shellId":"b7f3a1c","command":"npm run dev","status":"running","exitCode":null,"stdout":"ready"}),
        ),
        (
            "BashOutput",
            json!({"bash_id":"b7f3a1c"}),
            json!({"shellId":"b7f3a1c","command":"npm run dev","status":"failed","exitCode":2,"stdout":""}),
        ),
        (
            "WebFetch",
            json!({"url":"https://moved.example/","prompt":"read"}),
            json!({"bytes":120,"code":301,"codeText":"Moved Permanently","result":"REDIRECT","durationMs":9,"url":"https://moved.example/"}),
        ),
        (
            "WebFetch",
            json!({"url":"https://fine.example/","prompt":"read"}),
            json!({"bytes":1200,"code":200,"codeText":"OK","result":"page","durationMs":9,"url":"https://fine.example/"}),
        ),
        (
            "LSP",
            json!({"operation":"findReferences","filePath":"/home/bob/app/src/a.go","line":64,"character":6}),
            json!({"operation":"findReferences","result":"…","filePath":"/home/bob/app/src/a.go","resultCount":5,"fileCount":4}),
        ),
        (
            "LSP",
            json!({"operation":"incomingCalls","filePath":"/home/bob/app/src/b.go","line":"64"}),
            json!({"operation":"incomingCalls","result":"none","filePath":"/home/bob/app/src/b.go","resultCount":0,"fileCount":0}),
        ),
        (
            "LSP",
            json!({"operation":"hover","filePath":"/home/bob/app/src/c.go","line":3}),
            json!({"operation":"hover","result":"x","resultCount":"many","fileCount":[1]}),
        ),
        (
            "WebSearch",
            json!({"query":"ratatui 0.30"}),
            json!({"query":"ratatui 0.30","results":[
                {"tool_use_id":"s1","content":[{"title":"a","url":"https://a"},{"title":"b","url":"https://b"},{"title":"c","url":"https://c"}]},
                "Found these.",
                {"tool_use_id":"s2","content":[{"title":"d","url":"https://d"},{"title":"e","url":"https://e"}]}
            ],"durationSeconds":2.5}),
        ),
        (
            "WebSearch",
            json!({"query":"zzqx nothing"}),
            json!({"query":"zzqx nothing","results":[{"tool_use_id":"s3","content":[]}],"durationSeconds":1.0}),
        ),
        (
            "WebSearch",
            json!({"query":"odd shapes"}),
            json!({"query":"odd shapes","results":[[1,2],"text",{"content":"x"}]}),
        ),
        (
            "TaskList",
            json!({}),
            json!({"tasks":[{"id":"3","subject":"Ship it","status":"completed","blockedBy":[]},{"id":"4","subject":"Test it","status":"pending","blockedBy":["3"]}]}),
        ),
        ("TaskList", json!({}), json!({"tasks":[]})),
        ("TaskList", json!({}), json!({"tasks":"none"})),
        (
            "WebSearch",
            json!({"query":"down here"}),
            json!({"query":"down here","results":["Web search error: unavailable","The web search tool is currently unavailable."],"durationSeconds":16.9}),
        ),
        (
            "WebSearch",
            json!({"query":"too often"}),
            json!({"query":"too often","results":["Web search error: too_many_requests"]}),
        ),
        (
            "WebSearch",
            json!({"query":"new code"}),
            json!({"query":"new code","results":["Web search error: something_new"]}),
        ),
        (
            "TaskCreate",
            json!({"subject":"Ship it","description":"all of it","activeForm":"Shipping it"}),
            json!({"task":{"id":"3","subject":"Ship it"}}),
        ),
        (
            "TaskCreate",
            json!({"subject":"Test it"}),
            json!({"task":{"id":4,"subject":"Test it"}}),
        ),
        (
            "TaskUpdate",
            json!({"taskId":"3","status":"completed"}),
            json!({"success":true,"taskId":"3","updatedFields":["status"]}),
        ),
        (
            "TaskUpdate",
            json!({"taskId":"4","subject":"Test it all"}),
            json!({"success":true,"taskId":"4","updatedFields":["subject"]}),
        ),
        (
            "TaskUpdate",
            json!({"taskId":"4","status":"in_progress"}),
            json!({"success":true,"taskId":"4","updatedFields":["status"]}),
        ),
        (
            "TaskUpdate",
            json!({"taskId":"9","status":"completed"}),
            json!({"success":true,"taskId":"9","updatedFields":["status"]}),
        ),
        // a tool's own `code` and `backgroundTaskId` of other types say nothing
        (
            "mcp__py__run",
            json!({"src":"print(1)"}),
            json!({"code":"print(1)","backgroundTaskId":{"id":1}}),
        ),
        (
            "mcp__py__run",
            json!({"src":"print(2)"}),
            json!({"code":404.5}),
        ),
    ]
}

/// A session of one prompt and these calls, each answered.
fn session_of_calls(calls: &[(&str, serde_json::Value, serde_json::Value)]) -> Session {
    use common::{assistant_line, user_line};
    let mut lines = vec![user_line("u0", json!("go"))];
    for (i, (name, input, result)) in calls.iter().enumerate() {
        let id = format!("t{i}");
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type":"tool_use","id":id,"name":name,"input":input}]),
        ));
        let mut line = user_line(
            &format!("r{i}"),
            json!([{"type":"tool_result","tool_use_id":id,"content":"…"}]),
        );
        line["toolUseResult"] = result.clone();
        lines.push(line);
    }
    common::session_of(&lines)
}

/// A wait for a background task names what the task was started for (a
/// command's, a subagent's call), in the viewer and on the HTML page; a
/// fetch that got no page says its status; the page's call lines carry
/// what the viewer's rows say.
#[test]
fn a_wait_names_its_task_and_a_fetch_its_status() {
    let session = session_of_calls(&calls_of_tasks_and_fetches());
    assert!(session.problems.is_empty(), "{:?}", session.problems);
    let mut s = state(session);
    perform_action(&mut s, Action::ExpandAll);
    let screen = format!("{:?}", draw(&mut s, 120, 70).backend());
    for want in [
        "b7f3a1c (npm run \"dev\") · still running",
        "a9e2d41 (\"watch the build\")",
        "KillShell  b7f3a1c (npm run \"dev\")",
        "BashOutput b7f3a1c (npm run \"dev\") · still running",
        "BashOutput b7f3a1c (npm run \"dev\") · exit 2",
        "moved.example/ · HTTP 301",
        "LSP        findReferences src/a.go:64 · 5 results in 4 files",
        "LSP        incomingCalls src/b.go · no results",
        "ratatui 0.30 · 5 results",
        "zzqx nothing · no results",
        "down here · search error: unavailable",
        "too often · search error: too many requests",
        "new code · search error",
        "TaskList   2 tasks",
        "TaskList   no tasks",
        "TaskCreate #3 Ship it",
        "TaskCreate #4 Test it",
        "TaskUpdate #3 completed · Ship it",
        "TaskUpdate #4 Test it all",
        "TaskUpdate #4 in progress · Test it all",
    ] {
        assert!(screen.contains(want), "{want}: {screen}");
    }
    assert!(screen.contains("TaskOutput zz00000 "), "{screen}");
    assert!(!screen.contains("zz00000 ("), "{screen}");
    assert!(
        !screen.contains("HTTP 200") && !screen.contains("HTTP 404"),
        "{screen}"
    );
    // counts and lists of another type say nothing; an unknown task, nothing
    assert!(screen.contains("LSP        hover src/c.go:3  "), "{screen}");
    assert!(screen.contains("odd shapes  "), "{screen}");
    assert!(!screen.contains("TaskList    · "), "{screen}");
    assert!(screen.contains("TaskUpdate #9 completed  "), "{screen}");
    // a search finds what the rows add: a task's subject, what a task runs
    let hits = ccv::viewer::search::find_all(&s.session, "\"completed · Ship it\"");
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hits = ccv::viewer::search::find_all(&s.session, "zz00000");
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hits = ccv::viewer::search::find_all(&s.session, "\"b7f3a1c (npm run\"");
    assert_eq!(hits.len(), 4, "{hits:?}");
    let mut page = Vec::new();
    let opts = ccv::export::Options {
        format: ccv::export::Format::Html,
        ..ccv::export::Options::default()
    };
    ccv::html::write(&s.session, &opts, ccv::walk::Filters::all(), &mut page).expect("page");
    let page = String::from_utf8(page).expect("utf-8");
    for want in [
        "<code>b7f3a1c (npm run &quot;dev&quot;)</code> <span class=\"facts\"> · still running</span>",
        "<code>npm run &quot;dev&quot;</code> <span class=\"facts\"> · in background</span>",
        "<code>https://moved.example/</code> <span class=\"facts\"> · HTTP 301</span>",
        "<code>down here</code> <span class=\"facts\"> · search error: unavailable</span>",
    ] {
        assert!(page.contains(want), "{want}: {page}");
    }
}

/// A failed command says its exit code as `exit 2`, with the line of its
/// output that tells what failed (Claude Code heads the output with
/// `Exit code 2`, which no row repeats).
#[test]
fn a_failed_command_says_its_exit_code_and_the_telling_line() {
    use common::{assistant_line, user_line};
    let outputs = [
        "Exit code 2\n[lint] $ eslint .\n[lint] ERROR task failed\nmore",
        "Exit code 1\nnothing matched",
        "Exit codes differ\nbad error here",
        "command not found: foo",
    ];
    let mut lines = vec![user_line("u0", json!("go"))];
    for (i, out) in outputs.iter().enumerate() {
        let id = format!("t{i}");
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type":"tool_use","id":id,"name":"Bash","input":{"command":format!("step{i}")}}]),
        ));
        lines.push(user_line(
            &format!("r{i}"),
            json!([{"type":"tool_result","tool_use_id":id,"content":out,"is_error":true}]),
        ));
    }
    let mut s = state(common::session_of(&lines));
    perform_action(&mut s, Action::ExpandAll);
    let screen = format!("{:?}", draw(&mut s, 120, 20).backend());
    for want in [
        "step0 · exit 2 · [lint] ERROR task failed",
        "step1 · exit 1  ",
        "step2 · bad error here",
        "step3 · command not found: foo",
    ] {
        assert!(screen.contains(want), "{want}: {screen}");
    }
    assert!(!screen.contains("Exit code"), "{screen}");
}

/// An answer in Japanese (no spaces between words) fills each line of the
/// row before it wraps, between characters: it was wrapped at its one
/// space, leaving the line before half empty, and never ran past the
/// screen's edge.
#[test]
fn a_japanese_answer_fills_its_lines() {
    let text = "README だけだと手動操縦の出し元が抜けています。付属 PDF に手順がある可能性が高いので、そのマニュアル名を拾って中身を検索します。";
    let s = common::session_of(&[
        common::user_line("u1", json!("調べて")),
        common::assistant_line("a1", "msg_1", json!([{"type": "text", "text": text}])),
    ]);
    let mut st = state(s);
    let screen = common::screen_text(&mut st, 120, 12);
    let rows: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Assistant"))
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let cells = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    assert!(cells(&rows.concat()).contains(&cells(text)), "{screen}");
    assert!(rows.len() >= 2, "{screen}");
    // each line but the last ends within a character of the edge (the
    // text is a cell a symbol, a wide character's second cell a space)
    for r in &rows[..rows.len() - 1] {
        let w = r.trim_end().chars().count();
        assert!(w >= 118, "{w}: {screen}");
    }
}

/// However narrow the screen, an answer's every character is on it: a
/// row's text was wrapped at least 12 columns wide, and where fewer were
/// left (a pane under 31 columns) each line lost its last characters.
#[test]
fn a_narrow_screen_loses_no_character_of_an_answer() {
    let text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghij";
    let lines = [
        common::user_line("u1", json!("go")),
        common::assistant_line("a1", "msg_1", json!([{"type": "text", "text": text}])),
    ];
    let cells = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for w in 20..=40 {
        let mut st = state(common::session_of(&lines));
        let screen = common::screen_text(&mut st, w, 120);
        assert!(
            cells(&screen).contains(&cells(text)),
            "{w} columns:\n{screen}"
        );
    }
    // and narrower than a row's time and label, every row of the demo
    // open (tables, diffs, code) is drawn
    for w in 1..=40 {
        let mut st = state(ccv::app::demo::session());
        perform_action(&mut st, Action::ExpandAll);
        for _ in 0..3 {
            draw(&mut st, w, 30);
            perform_action(&mut st, Action::PageDown);
        }
    }
}

/// A prompt's indented list item, too long for a line, goes on under its
/// text, as a tool's indented output does: it ran back to the left edge,
/// where it read as a line of its own.
#[test]
fn a_wrapped_list_item_of_a_prompt_stays_under_its_text() {
    let prompt = "Steps:\n  - Display the table with the incomplete item counts of every checklist\n  - Wait";
    let lines = [common::user_line("u1", json!(prompt))];
    let mut st = state(common::session_of(&lines));
    let screen = common::screen_text(&mut st, 60, 10);
    let rows: Vec<&str> = screen.lines().collect();
    // below the header, which names the prompt too
    let at = 2 + rows[2..]
        .iter()
        .position(|l| l.contains("- Display"))
        .expect("the item is on screen");
    let item = rows[at].find("- Display").expect("the item");
    let next = rows[at + 1];
    assert_eq!(
        next.find(|c: char| c != ' '),
        Some(item + 2),
        "the rest of the item is under its text:\n{screen}"
    );
    assert!(rows[at + 2].contains("- Wait"), "{screen}");
}

/// The first and last of `order` (every line of a transcript, in order)
/// on the screen, which must show a run of them.
fn screen_span(st: &mut State, order: &[&String], w: u16, h: u16) -> (usize, usize) {
    let screen = common::screen_text(st, w, h);
    let at: Vec<usize> = screen
        .lines()
        .filter_map(|l| {
            order
                .iter()
                .position(|o| l.trim_end().ends_with(o.as_str()))
        })
        .collect();
    assert!(
        at.windows(2).all(|p| p[1] == p[0] + 1),
        "in order:\n{screen}"
    );
    (at[0], at[at.len() - 1])
}

/// A page turned moves a screen of lines, whatever the rows hold, and
/// skips none: the line at the foot of a screen is on the next one. By
/// rows, a screen showing the end of a tall prompt and an answer turned
/// two rows, a few lines.
#[test]
fn a_page_turns_a_screen_of_lines_and_skips_none() {
    let prompt: Vec<String> = (0..60).map(|i| format!("prompt line {i:02}")).collect();
    let answers: Vec<String> = (0..40).map(|i| format!("answer {i:02}")).collect();
    let mut lines = vec![common::user_line("u0", json!(prompt.join("\n")))];
    for (i, text) in answers.iter().enumerate() {
        lines.push(common::assistant_line(
            &format!("a{i}"),
            &format!("msg_{i}"),
            json!([{"type": "text", "text": text}]),
        ));
    }
    // every line of the transcript, in order: a screen is a span of them
    let order: Vec<&String> = prompt.iter().chain(&answers).collect();
    let (w, h) = (60, 20);
    let span = |st: &mut State| screen_span(st, &order, w, h);
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Top);
    let mut screen = span(&mut st);
    let mut pages = 0;
    for _ in 0..20 {
        perform_action(&mut st, Action::PageDown);
        let next = span(&mut st);
        if next == screen {
            break;
        }
        // no line skipped, half a screen gone at least (but at the end)
        assert!(next.0 <= screen.1 + 1, "{screen:?} to {next:?}");
        assert!(
            next.0 >= screen.0 + 8 || next.1 == order.len() - 1,
            "{screen:?} to {next:?}"
        );
        pages += 1;
        screen = next;
    }
    assert_eq!(screen.1, order.len() - 1, "the end is reached");
    assert!((3..=6).contains(&pages), "{pages} pages");
    for _ in 0..20 {
        perform_action(&mut st, Action::PageUp);
        let next = span(&mut st);
        if next == screen {
            break;
        }
        assert!(next.1 + 1 >= screen.0, "{screen:?} back to {next:?}");
        assert!(
            next.1 + 8 <= screen.1 || next.0 == 0,
            "{screen:?} back to {next:?}"
        );
        screen = next;
    }
    assert_eq!(screen.0, 0, "the start is reached");
    // pages turned before a frame is drawn turn from where the last left
    perform_action(&mut st, Action::Top);
    span(&mut st);
    for _ in 0..2 {
        perform_action(&mut st, Action::PageDown);
    }
    assert!(span(&mut st).0 >= 16, "two pages on");
    // a last row taller than the screen: turned back inside it, and on
    // to its end again, never to its start
    let tall: Vec<String> = (0..40).map(|i| format!("last line {i:02}")).collect();
    let mut lines = lines;
    lines.push(common::assistant_line(
        "z",
        "msg_z",
        json!([{"type": "text", "text": tall.join("\n\n")}]),
    ));
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Bottom);
    let end = common::screen_text(&mut st, w, h);
    assert!(end.contains("last line 39"), "{end}");
    perform_action(&mut st, Action::PageDown);
    assert_eq!(common::screen_text(&mut st, w, h), end);
    perform_action(&mut st, Action::PageUp);
    let up = common::screen_text(&mut st, w, h);
    assert!(
        !up.contains("last line 39") && up.contains("last line 29"),
        "{up}"
    );
    perform_action(&mut st, Action::PageDown);
    perform_action(&mut st, Action::PageDown);
    assert!(common::screen_text(&mut st, w, h).contains("last line 39"));
}

/// The wheel moves the screen three lines a turn, through a tall row as
/// through short ones: by rows, a turn leapt past most of a tall row's
/// text. Turns made before a frame add up. Half a page moves so too.
#[test]
fn the_wheel_scrolls_lines_not_rows() {
    let tall: Vec<String> = (0..30).map(|i| format!("tall line {i:02}")).collect();
    let answers: Vec<String> = (0..30).map(|i| format!("answer {i:02}")).collect();
    let mut lines = vec![
        common::user_line("u0", json!("first prompt")),
        common::assistant_line(
            "a",
            "msg_a",
            json!([{"type": "text", "text": "first answer"}]),
        ),
        common::user_line("u1", json!(tall.join("\n"))),
    ];
    for (i, text) in answers.iter().enumerate() {
        lines.push(common::assistant_line(
            &format!("a{i}"),
            &format!("msg_{i}"),
            json!([{"type": "text", "text": text}]),
        ));
    }
    let first = ["first prompt".to_string(), "first answer".to_string()];
    let order: Vec<&String> = first.iter().chain(&tall).chain(&answers).collect();
    let (w, h) = (60, 20);
    let span = |st: &mut State| screen_span(st, &order, w, h);
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Top);
    let mut screen = span(&mut st);
    assert_eq!(screen.0, 0);
    while screen.1 + 1 < order.len() {
        perform_action(&mut st, Action::ScrollDown);
        let next = span(&mut st);
        assert!(
            next.0 == screen.0 + 3 || next.1 + 1 == order.len(),
            "{screen:?} to {next:?}"
        );
        screen = next;
    }
    while screen.0 > 0 {
        perform_action(&mut st, Action::ScrollUp);
        let next = span(&mut st);
        assert!(
            next.0 + 3 == screen.0 || next.0 == 0,
            "{screen:?} back to {next:?}"
        );
        screen = next;
    }
    // three turns before a frame: nine lines
    for _ in 0..3 {
        perform_action(&mut st, Action::ScrollDown);
    }
    assert_eq!(span(&mut st).0, 9);
    // half a page: half the list's 17 lines
    perform_action(&mut st, Action::HalfPageDown);
    assert_eq!(span(&mut st).0, 17);
    perform_action(&mut st, Action::HalfPageUp);
    assert_eq!(span(&mut st).0, 9);
    // the end of a tall last row followed: up three lines, and back
    let mut st = state(common::session_of(&lines[..3]));
    perform_action(&mut st, Action::Bottom);
    let end = span(&mut st);
    assert_eq!(end.1, 31);
    perform_action(&mut st, Action::ScrollUp);
    assert_eq!(span(&mut st).1, 28);
    perform_action(&mut st, Action::ScrollDown);
    perform_action(&mut st, Action::ScrollDown);
    assert_eq!(span(&mut st), end);
}

/// `]` and `[` put the prompt at the head of the screen, its turn under
/// it: shown as little as it took, it stood at the foot, its answer unseen.
#[test]
fn a_prompt_jumped_to_heads_the_screen() {
    let mut lines = Vec::new();
    for p in 0..4 {
        lines.push(common::user_line(
            &format!("u{p}"),
            json!(format!("prompt {p}")),
        ));
        for a in 0..20 {
            let text = format!("answer {p}.{a}");
            lines.push(common::assistant_line(
                &format!("a{p}.{a}"),
                &format!("msg_{p}_{a}"),
                json!([{"type": "text", "text": text}]),
            ));
        }
    }
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Top);
    let head = |st: &mut State| {
        let screen = common::screen_text(st, 60, 20);
        screen.lines().nth(2).unwrap_or_default().to_string()
    };
    head(&mut st);
    for p in 1..4 {
        perform_action(&mut st, Action::NextPrompt);
        let line = head(&mut st);
        assert!(line.contains(&format!("prompt {p}")), "{line}");
    }
    perform_action(&mut st, Action::PrevPrompt);
    let screen = common::screen_text(&mut st, 60, 20);
    assert!(
        screen
            .lines()
            .nth(2)
            .unwrap_or_default()
            .contains("prompt 2"),
        "{screen}"
    );
}

/// A result that is one line of JSON wider than the screen (an MCP
/// server's issue) is shown pretty-printed, a key to a line; JSON that
/// fits, JSON already on lines, and text in brackets are shown as written.
#[test]
fn a_wide_line_of_json_in_a_result_is_pretty_printed() {
    use common::{assistant_line, user_line};
    let issue = json!({"id":"864b2bd6","identifier":"ENT-108","title":"Create summaries of a checkpoint","labels":[{"name":"ai"},{"name":"cli"}],"estimate":2.5,"description":"See [ENT-53](https://linear.app/x) for the plan, and the notes below."});
    let results = [
        issue.to_string(),
        "{\"ok\":true}".to_owned(),
        "{\n  \"kept\":   \"as written\"\n}".to_owned(),
        "[INFO] started the server on port 8080, waiting for the first request to come in ]"
            .to_owned(),
    ];
    let mut lines = vec![user_line("u0", json!("go"))];
    for (i, out) in results.iter().enumerate() {
        let id = format!("t{i}");
        lines.push(assistant_line(
            &format!("a{i}"),
            &format!("m{i}"),
            json!([{"type":"tool_use","id":id,"name":"mcp__linear__get_issue","input":{"id":"ENT-108"}}]),
        ));
        lines.push(user_line(
            &format!("r{i}"),
            json!([{"type":"tool_result","tool_use_id":id,"content":out}]),
        ));
    }
    let mut s = state(common::session_of(&lines));
    perform_action(&mut s, Action::ExpandAll);
    let calls: Vec<usize> = (0..s.rows.len())
        .filter(|&i| matches!(s.rows[i].kind, RowKind::Call { .. }))
        .collect();
    for i in calls {
        perform_action(&mut s, Action::Top);
        perform_action(&mut s, Action::Down(i));
        perform_action(&mut s, Action::Toggle);
    }
    let t = draw(&mut s, 80, 80);
    let screen: Vec<String> = (0..80)
        .map(|y| {
            (0..80)
                .map(|x| t.backend().buffer()[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect();
    let all = screen.join("\n");
    for want in [
        "│   \"identifier\": \"ENT-108\",",
        "│   \"title\": \"Create summaries of a checkpoint\",",
        "│       \"name\": \"cli\"",
        "│ {\"ok\":true}",
        "│   \"kept\":   \"as written\"",
        "│ [INFO] started the server on port 8080",
    ] {
        assert!(
            screen.iter().any(|l| l.ends_with(want) || l.contains(want)),
            "{want}:\n{all}"
        );
    }
    assert!(!all.contains("{\"id\":\"864b2bd6\""), "{all}");
}

/// A match off the screen is put near its head, under the last lines of
/// what led to it, not at the foot with what follows out of sight; a
/// match already wholly on the screen does not move it.
#[test]
fn a_match_off_the_screen_comes_up_near_its_head() {
    let mut lines = vec![common::user_line("u0", json!("go"))];
    for a in 0..60 {
        let text = match a {
            30 | 33 | 43 | 58 => format!("answer {a} has the needle"),
            50 => format!("answer {a} has the needle\n\nand a second line\n\nand a third"),
            _ => format!("answer {a}"),
        };
        lines.push(common::assistant_line(
            &format!("a{a}"),
            &format!("msg_{a}"),
            json!([{"type": "text", "text": text}]),
        ));
    }
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Top);
    common::screen_text(&mut st, 60, 20);
    perform_action(&mut st, Action::SearchStart);
    for c in "needle".chars() {
        perform_action(&mut st, Action::PromptInput(c));
    }
    perform_action(&mut st, Action::PromptSubmit);
    let at = |st: &mut State, what: &str| {
        let screen = common::screen_text(st, 60, 20);
        let y = screen.lines().position(|l| l.contains(what));
        (y, screen)
    };
    // (the list starts on line 2; three lines of it lead to the match)
    let (y, screen) = at(&mut st, "answer 30 has");
    assert_eq!(y, Some(5), "{screen}");
    assert!(
        screen.lines().any(|l| l.trim_end().ends_with("answer 29")),
        "{screen}"
    );
    perform_action(&mut st, Action::NextMatch);
    let (y, screen) = at(&mut st, "answer 33 has");
    assert_eq!(y, Some(8), "stays where it was:\n{screen}");
    // on the last line, whole: it stays too
    perform_action(&mut st, Action::NextMatch);
    let (y, screen) = at(&mut st, "answer 43 has");
    assert_eq!(y, Some(18), "stays where it was:\n{screen}");
    perform_action(&mut st, Action::NextMatch);
    let (y, screen) = at(&mut st, "answer 50 has");
    assert_eq!(y, Some(5), "{screen}");
    assert!(screen.contains("and a third"), "{screen}");
    // back up: the match above the screen comes down near its head too
    perform_action(&mut st, Action::PrevMatch);
    let (y, screen) = at(&mut st, "answer 43 has");
    assert_eq!(y, Some(5), "{screen}");
    perform_action(&mut st, Action::NextMatch);
    // at the end of the session, the screen stays full
    perform_action(&mut st, Action::NextMatch);
    let (y, screen) = at(&mut st, "answer 58 has");
    assert_eq!(y, Some(17), "{screen}");
    assert!(
        screen
            .lines()
            .nth(18)
            .is_some_and(|l| l.contains("answer 59")),
        "{screen}"
    );
}

/// The wheel turns three lines between two rows taller than the screen,
/// both ways, and down a tall last row: the selection moved to the next
/// tall row, that row filled the screen from its head (or, going up, from
/// its end), a jump of up to a screen; onto the last row, which follows,
/// to its end.
#[test]
fn the_wheel_turns_three_lines_between_tall_rows() {
    let mut lines = vec![common::user_line("u0", json!("first prompt"))];
    let mut order: Vec<String> = vec!["first prompt".into()];
    for r in 0..4 {
        let tall: Vec<String> = (0..(10 + r * 13))
            .map(|i| format!("row {r} line {i:02}"))
            .collect();
        order.extend(tall.iter().cloned());
        lines.push(common::user_line(
            &format!("u{}", r + 1),
            json!(tall.join("\n")),
        ));
    }
    let order: Vec<&String> = order.iter().collect();
    let (w, h) = (60, 20);
    let mut st = state(common::session_of(&lines));
    perform_action(&mut st, Action::Top);
    let mut screen = screen_span(&mut st, &order, w, h);
    assert_eq!(screen.0, 0);
    let mut turns = 0;
    while screen.1 + 1 < order.len() {
        perform_action(&mut st, Action::ScrollDown);
        let next = screen_span(&mut st, &order, w, h);
        assert!(
            next.0 == screen.0 + 3 || (next.1 + 1 == order.len() && next.0 > screen.0),
            "{screen:?} to {next:?}"
        );
        screen = next;
        turns += 1;
        assert!(turns < 100, "never reached the end");
    }
    while screen.0 > 0 {
        perform_action(&mut st, Action::ScrollUp);
        let next = screen_span(&mut st, &order, w, h);
        assert!(
            next.0 + 3 == screen.0 || next.0 == 0,
            "{screen:?} back to {next:?}"
        );
        screen = next;
    }
    // a page from between two rows goes on from the line past the screen
    let (mut down, mut up) = (0, 0);
    let turned = |from: Action, turn: Action, turns: usize| {
        let mut st = state(common::session_of(&lines));
        perform_action(&mut st, from);
        screen_span(&mut st, &order, w, h);
        for _ in 0..turns {
            perform_action(&mut st, turn.clone());
            screen_span(&mut st, &order, w, h);
        }
        let screen = screen_span(&mut st, &order, w, h);
        (st, screen)
    };
    for turns in (1..40).step_by(2) {
        let (mut st, screen) = turned(Action::Top, Action::ScrollDown, turns);
        let v = st.viewport.visible.clone();
        // the head of the selection under the end of the row before it
        if v.first().is_some_and(|r| r.row != st.selected)
            && v.last().is_some_and(|r| r.row == st.selected)
        {
            perform_action(&mut st, Action::PageDown);
            let next = screen_span(&mut st, &order, w, h);
            assert_eq!(next.0, screen.1 + 1, "{screen:?} a page on: {next:?}");
            down += 1;
            // and j goes into it a line, as the wheel does
            let (mut st, screen) = turned(Action::Top, Action::ScrollDown, turns);
            perform_action(&mut st, Action::Down(1));
            let next = screen_span(&mut st, &order, w, h);
            assert_eq!(next.0, screen.0 + 1, "{screen:?} j: {next:?}");
        }
        // its end over the rows after it
        let (mut st, screen) = turned(Action::Bottom, Action::ScrollUp, turns);
        let v = st.viewport.visible.clone();
        if v.first().is_some_and(|r| r.row == st.selected)
            && v.len() > 1
            && st.viewport.sel_overflow > 0
        {
            perform_action(&mut st, Action::PageUp);
            let next = screen_span(&mut st, &order, w, h);
            assert_eq!(next.1 + 1, screen.0, "{screen:?} a page back: {next:?}");
            up += 1;
            let (mut st, screen) = turned(Action::Bottom, Action::ScrollUp, turns);
            perform_action(&mut st, Action::Up(1));
            let next = screen_span(&mut st, &order, w, h);
            assert_eq!(next.0 + 1, screen.0, "{screen:?} k: {next:?}");
        }
    }
    assert!(down > 3 && up > 3, "{down} {up}");
}

/// Under 60 columns (half a screen of 120, a tmux split) a row's text
/// goes under its label, as wide as the pane leaves after the time
/// column, unless it fits beside it; a folded group's heading wraps
/// where the edge cut its errors and its time.
#[test]
fn a_narrow_pane_puts_the_text_under_the_label() {
    let mut s = state(ccv::app::demo::session());
    let t = draw(&mut s, 50, 30);
    insta::assert_snapshot!(t.backend());
    let screen = common::screen_text(&mut s, 50, 30);
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_end().ends_with("● Assistant") && l.starts_with("10:05"))
        .expect("the answer's head alone on its line");
    let next = lines[at + 1];
    assert!(next.starts_with("        The test now passes"), "{next:?}");
    // the lead of 19 columns left 31 for the text
    assert!(next.trim().chars().count() > 31, "{next:?}");
    assert!(screen.contains("1m38s"), "{screen}");
    // a line that fits beside its label stays there
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("10:06 ❯ User Fix the recv race too.")),
        "{screen}"
    );
    // and 60 columns keep the lead
    let wide = common::screen_text(&mut s, 60, 30);
    assert!(
        wide.contains("10:06 ❯ User       Fix the recv race too."),
        "{wide}"
    );
}

/// The help overlay in a pane too narrow for its descriptions wraps them
/// under themselves: every word of every one shows (scrolled with j).
#[test]
fn help_wraps_in_a_narrow_pane() {
    let mut s = state(ccv::app::demo::session());
    perform_action(&mut s, Action::Help);
    let want: Vec<String> = s
        .help_lines()
        .iter()
        .flat_map(|(_, d)| d.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&common::screen_text(&mut s, 50, 30));
        perform_action(&mut s, Action::Down(1));
    }
    for w in &want {
        assert!(seen.contains(w.as_str()), "{w:?} not shown");
    }
    // every line of the box ends at its border
    for l in common::screen_text(&mut s, 50, 30).lines().take(29) {
        assert!(
            l.trim_end().ends_with('│') || l.contains('┘') || l.contains('┐'),
            "{l:?}"
        );
    }
}

/// A status line wider than the pane gives up how long ago the file was
/// written, then the default filter's name, before the edge cuts what
/// follows: the row's position and the filters set stay.
#[test]
fn a_narrow_status_line_keeps_the_position_and_the_filters() {
    let mut s = state(ccv::app::demo::session());
    s.live.attached = true;
    s.live.last_write_ms = Some(1_000_000);
    s.live.now_ms = 1_000_000_000_000;
    perform_action(&mut s, Action::ToggleThinking);
    let status = |s: &mut State, w: u16| {
        let screen = common::screen_text(s, w, 20);
        screen
            .lines()
            .last()
            .unwrap_or_default()
            .trim_end()
            .to_owned()
    };
    let wide = status(&mut s, 200);
    assert!(
        wide.contains("last written") && wide.contains("tools grouped"),
        "{wide}"
    );
    let narrow = status(&mut s, 50);
    assert!(narrow.contains("thinking hidden"), "{narrow}");
    assert!(narrow.contains("tools grouped"), "{narrow}");
    assert!(!narrow.contains("last written"), "{narrow}");
    let narrower = status(&mut s, 36);
    assert!(narrower.contains("thinking hidden"), "{narrower}");
    assert!(!narrower.contains("tools"), "{narrower}");
    assert!(
        narrower.contains(&format!("/{}", s.rows.len())),
        "{narrower}"
    );
}
