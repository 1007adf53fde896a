//! Subagents no call links to (compaction summarisers in
//! `<session>/subagents/`) get a folded row: next to their compaction, or
//! at the end of the transcript when they belong to none.

use crate::common;

use ccv::app::{Action, State, perform_action};
use ccv::rows::{Fold, RowKind};
use ccv::source::claude::loader::load_with_subagents;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};
use std::path::Path;

fn line(kind: &str, uuid: &str, parent: Option<&str>, n: u32, extra: Value) -> String {
    // the fields given over the envelope, as a line of the test says them
    crate::common::entry::other(kind, uuid, json!({}))
        .parent_or_root(parent)
        .session("sess")
        .at(&format!("2025-06-01T10:{n:02}:00Z"))
        .with(extra)
        .line()
}

fn user(text: &str) -> Value {
    json!({"message": {"role": "user", "content": text}})
}

fn assistant(id: &str, content: Value) -> Value {
    json!({"message": {"id": id, "role": "assistant", "model": "claude-test", "content": content}})
}

fn write(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").expect("write");
}

/// A session with a compaction, the summariser that ran for it, and a
/// second summariser whose parent is nowhere (it belongs to no compaction).
pub(crate) fn fixture(dir: &Path) -> State {
    let main = dir.join("sess.jsonl");
    write(
        &main,
        &[
            line("user", "u1", None, 0, user("first prompt")),
            line(
                "assistant",
                "a1",
                Some("u1"),
                1,
                assistant("m1", json!([{"type": "text", "text": "done"}])),
            ),
            line(
                "system",
                "c1",
                None,
                2,
                json!({"subtype": "compact_boundary", "content": "Conversation compacted",
                "compactMetadata": {"trigger": "auto", "preTokens": 150000}}),
            ),
            line("user", "u2", Some("c1"), 3, user("after the compaction")),
        ],
    );
    let subs = dir.join("sess").join("subagents");
    std::fs::create_dir_all(&subs).expect("mkdir");
    let agent = |parent: &str, tag: &str| {
        vec![
            line(
                "user",
                &format!("{tag}1"),
                Some(parent),
                1,
                user("Summarise the conversation"),
            ),
            line(
                "assistant",
                &format!("{tag}2"),
                Some(&format!("{tag}1")),
                1,
                assistant(
                    &format!("{tag}m1"),
                    json!([
                {"type": "tool_use", "id": format!("toolu_{tag}"), "name": "Read", "input": {"file_path": "/a.rs"}}]),
                ),
            ),
            line(
                "user",
                &format!("{tag}3"),
                Some(&format!("{tag}2")),
                2,
                json!({"message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("toolu_{tag}"), "content": "fn main() {}"}]}}),
            ),
            line(
                "assistant",
                &format!("{tag}4"),
                Some(&format!("{tag}3")),
                2,
                assistant(
                    &format!("{tag}m2"),
                    json!([
                {"type": "text", "text": format!("summary text {tag}")}]),
                ),
            ),
        ]
    };
    write(&subs.join("agent-acompact-abc.jsonl"), &agent("a1", "k"));
    write(
        &subs.join("agent-acompact-xyz.jsonl"),
        &agent("nowhere", "z"),
    );
    let session = load_with_subagents(&main).expect("loads");
    common::utc_state(session)
}

fn agent_rows(s: &State) -> Vec<(usize, u32)> {
    s.rows
        .iter()
        .enumerate()
        .filter_map(|(n, r)| match r.kind {
            RowKind::Subagent { agent } => Some((n, agent)),
            _ => None,
        })
        .collect()
}

#[test]
fn summarisers_get_rows_by_their_compaction_and_at_the_end() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = fixture(dir.path());
    let abc = s.session.agent_by_id("acompact-abc").expect("abc loaded");
    let xyz = s.session.agent_by_id("acompact-xyz").expect("xyz loaded");
    let rows = agent_rows(&s);
    assert_eq!(rows.len(), 2, "{:?}", s.rows);
    // the one of the compaction hangs right under its divider
    let (at, a) = rows[0];
    assert_eq!(a, abc);
    let above = s.rows[at - 1];
    let item = &s.session.main.items[above.index as usize];
    assert!(item.text.or_marker().contains("compacted"), "{}", item.text);
    // the other one closes the transcript
    assert_eq!(rows[1], (s.rows.len() - 1, xyz));
    // both fold open into their own rows, and closed again
    let before = s.rows.len();
    for (agent, expected_first) in [(xyz, "Summarise"), (abc, "Summarise")] {
        let at = agent_rows(&s).iter().find(|r| r.1 == agent).expect("row").0;
        perform_action(&mut s, Action::Top);
        perform_action(&mut s, Action::Down(at));
        perform_action(&mut s, Action::Toggle);
        assert!(s.expanded.contains(&Fold::Agent(agent)));
        let next = s.rows[at + 1];
        assert_eq!(next.agent, Some(agent));
        let t = &s.session.agents[agent as usize].transcript;
        assert!(
            t.items[next.index as usize]
                .text
                .or_marker()
                .starts_with(expected_first)
        );
    }
    assert!(s.rows.len() > before);
    // toggling in place matches a full rebuild
    let in_place = s.rows.clone();
    s.rebuild();
    assert_eq!(in_place, s.rows);
    perform_action(&mut s, Action::CollapseAll);
    assert_eq!(s.rows.len(), before);
}

#[test]
fn an_unlinked_subagent_renders_as_a_folded_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = fixture(dir.path());
    let mut t = Terminal::new(TestBackend::new(90, 14)).expect("test terminal");
    t.draw(|f| crate::common::draw(f, &mut s)).expect("draw");
    let text = format!("{}", t.backend());
    assert!(
        text.contains("▸ Subagent   compaction · 1 tool call · 1m00s"),
        "{text}"
    );
    insta::assert_snapshot!(t.backend());
}

#[test]
fn appends_keep_the_unlinked_row_at_the_end() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = fixture(dir.path());
    let xyz = s.session.agent_by_id("acompact-xyz").expect("xyz loaded");
    s.expanded.insert(Fold::Agent(xyz));
    s.rebuild();
    let more = line(
        "assistant",
        "a9",
        Some("u2"),
        9,
        assistant("m9", json!([{"type": "text", "text": "later"}])),
    );
    s.session.feed(0, format!("{more}\n").as_bytes());
    let changes = s.session.take_changes();
    s.apply_changes(changes);
    let incremental = s.rows.clone();
    s.rebuild();
    assert_eq!(incremental, s.rows);
    let last_main = s
        .rows
        .iter()
        .rposition(|r| r.agent.is_none())
        .expect("main rows");
    let item = &s.session.main.items[s.rows[last_main].index as usize];
    assert_eq!(item.text, "later");
    assert_eq!(s.rows[last_main + 1].kind, RowKind::Subagent { agent: xyz });
}

#[test]
fn search_finds_and_opens_subagents_no_call_links_to() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = fixture(dir.path());
    let abc = s.session.agent_by_id("acompact-abc").expect("abc loaded");
    let xyz = s.session.agent_by_id("acompact-xyz").expect("xyz loaded");
    // the summariser of the compaction, and the one of none
    let hits = ccv::app::search::find_all(&s.session, "summary text");
    let agents: Vec<Option<u32>> = hits.iter().map(|h| h.0).collect();
    assert!(
        agents.contains(&Some(abc)) && agents.contains(&Some(xyz)),
        "{hits:?}"
    );
    assert!(s.begin_search("summary text z".into()));
    while s.search_step(std::time::Duration::from_millis(50)) {}
    assert_eq!(s.search.hits.len(), 1);
    // the match is shown: its subagent's row opened, the row selected
    assert!(s.expanded.contains(&Fold::Agent(xyz)), "{:?}", s.expanded);
    let row = s.rows[s.selected];
    assert_eq!(row.agent, Some(xyz), "{row:?}");
}

#[test]
fn copying_what_is_on_screen_brings_the_summariser_as_the_export_does() {
    use ccv::clipboard::{CopyScope, copy_text};
    use ccv::export::{Format, Options};
    let dir = tempfile::tempdir().expect("tempdir");
    let s = fixture(dir.path());
    let opts = Options {
        format: Format::Text,
        no_thinking: false,
        no_tools: false,
        no_subagents: false,
        redact: false,
    };
    let copied = copy_text(
        &s.session,
        &CopyScope::Filtered {
            agent: None,
            filters: ccv::walk::Filters::all(),
        },
        Format::Text,
        &opts,
    )
    .text;
    let mut exported = Vec::new();
    ccv::export::export(&s.session, &opts, &mut exported).expect("export");
    let exported = String::from_utf8_lossy(&exported);
    // the summariser of the compaction right after it, in both
    for text in [copied.as_str(), &exported] {
        let compaction = text.find("compacted").expect(text);
        let summary = text.find("summary text k").expect(text);
        assert!(compaction < summary, "{text}");
    }
}

/// The page walks as the screen does: a compaction's summariser under it,
/// a subagent nothing links to at the end.
#[test]
fn the_page_shows_the_summariser_under_its_compaction() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = fixture(dir.path());
    let mut page = Vec::new();
    ccv::html::write(
        &s.session,
        &ccv::export::Options::default(),
        ccv::walk::Filters::all(),
        &mut page,
    )
    .expect("page");
    let page = String::from_utf8_lossy(&page);
    // the transcript (the table of contents above lists the prompts)
    let page = &page[page.find("<main>").expect("main")..];
    let compaction = page.find("compacted").expect("the compaction");
    let k = page.find("summary text k").expect("its summariser");
    let after = page.find("after the compaction").expect("what follows");
    let z = page.find("summary text z").expect("the unlinked one");
    assert!(compaction < k && k < after && after < z, "{page}");
}
