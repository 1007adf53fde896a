//! The text each copy scope produces, on a small handwritten session.

use ccv::clipboard::{CopyScope, copy_text};
use ccv::export::{Format, Options};
use ccv::model::item::Kind;
use ccv::model::session::Session;
use ccv::walk::Filters;

const SESSION: &str = r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T10:00:00Z","message":{"role":"user","content":"Fix the bug"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude","content":[{"type":"thinking","thinking":"Look at main first","signature":"x"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s1","timestamp":"2025-01-01T10:00:02Z","message":{"id":"m1","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/src/main.rs"}}]}}
{"type":"user","uuid":"r1","parentUuid":"a2","sessionId":"s1","timestamp":"2025-01-01T10:00:03Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"fn main() {}"}]}}
{"type":"assistant","uuid":"a3","parentUuid":"r1","sessionId":"s1","timestamp":"2025-01-01T10:00:04Z","message":{"id":"m2","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"cargo test"}}]}}
{"type":"user","uuid":"r2","parentUuid":"a3","sessionId":"s1","timestamp":"2025-01-01T10:00:05Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"error: \u001b[31mfailed\u001b[0m","is_error":true}]}}
{"type":"assistant","uuid":"a4","parentUuid":"r2","sessionId":"s1","timestamp":"2025-01-01T10:00:06Z","message":{"id":"m3","role":"assistant","model":"claude","content":[{"type":"text","text":"The test fails."}]}}
{"type":"user","uuid":"u2","parentUuid":"a4","sessionId":"s1","timestamp":"2025-01-01T10:00:07Z","message":{"role":"user","content":"Thanks"}}
{"type":"assistant","uuid":"a5","parentUuid":"u2","sessionId":"s1","timestamp":"2025-01-01T10:00:08Z","message":{"id":"m4","role":"assistant","model":"claude","content":[{"type":"text","text":"You're welcome."}]}}
"#;

fn session() -> Session {
    let mut s = Session::new(None);
    s.feed(0, SESSION.as_bytes());
    s.finish(0);
    s
}

fn text(s: &Session, scope: CopyScope) -> (String, usize) {
    let t = copy_text(s, &scope, Format::Text, &Options::default());
    (t.text, t.rows)
}

fn id_of(s: &Session, kind: Kind, nth: usize) -> u32 {
    s.main
        .items
        .iter()
        .filter(|i| i.kind == kind)
        .nth(nth)
        .map(|i| i.id)
        .expect("fixture item")
}

#[test]
fn fixture_has_the_expected_items() {
    let s = session();
    let kinds: Vec<Kind> = s.main.items.iter().map(|i| i.kind).collect();
    use Kind::*;
    assert_eq!(
        kinds,
        vec![
            User, Thinking, ToolCall, ToolCall, Assistant, User, Assistant
        ]
    );
    assert_eq!(s.main.groups.len(), 1);
}

#[test]
fn one_item() {
    let s = session();
    let (t, rows) = text(
        &s,
        CopyScope::Item {
            agent: None,
            id: id_of(&s, Kind::User, 0),
        },
    );
    assert_eq!(t, "[User]\nFix the bug\n");
    assert_eq!(rows, 1);
}

#[test]
fn a_call_brings_its_result_and_is_sanitized() {
    let s = session();
    let (t, rows) = text(
        &s,
        CopyScope::Item {
            agent: None,
            id: id_of(&s, Kind::ToolCall, 1),
        },
    );
    assert_eq!(
        t,
        "[Tool Call] Bash\n{\n  \"command\": \"cargo test\"\n}\n\n[Tool Error]\nerror: failed\n"
    );
    assert_eq!(rows, 2);
    assert!(!t.contains('\u{1b}'));
}

#[test]
fn a_hidden_kind_is_still_copied_when_pointed_at() {
    let s = session();
    let opts = Options {
        no_thinking: true,
        ..Options::default()
    };
    let t = copy_text(
        &s,
        &CopyScope::Item {
            agent: None,
            id: id_of(&s, Kind::Thinking, 0),
        },
        Format::Text,
        &opts,
    );
    assert_eq!(t.text, "[Thinking]\nLook at main first\n");
}

#[test]
fn a_group_holds_all_its_calls_and_results() {
    let s = session();
    let (t, rows) = text(
        &s,
        CopyScope::Group {
            agent: None,
            group: 0,
        },
    );
    assert_eq!(
        t,
        "[Tool Call] Read\n{\n  \"file_path\": \"/src/main.rs\"\n}\n\n[Tool Result]\nfn main() {}\n\n\
         [Tool Call] Bash\n{\n  \"command\": \"cargo test\"\n}\n\n[Tool Error]\nerror: failed\n"
    );
    assert_eq!(rows, 4);
}

#[test]
fn a_range_is_inclusive_in_either_direction() {
    let s = session();
    let from = id_of(&s, Kind::Assistant, 0);
    let to = id_of(&s, Kind::Assistant, 1);
    let want = "[Assistant]\nThe test fails.\n\n[User]\nThanks\n\n[Assistant]\nYou're welcome.\n";
    assert_eq!(
        text(
            &s,
            CopyScope::Range {
                agent: None,
                from,
                to
            }
        ),
        (want.to_owned(), 3)
    );
    assert_eq!(
        text(
            &s,
            CopyScope::Range {
                agent: None,
                from: to,
                to: from
            }
        ),
        (want.to_owned(), 3)
    );
}

#[test]
fn the_whole_transcript_as_filtered() {
    let s = session();
    // conversation only: no tools, thinking or bookkeeping
    let filters = Filters {
        tools: false,
        thinking: false,
        meta: false,
        ..Filters::default()
    };
    let (t, rows) = text(
        &s,
        CopyScope::Filtered {
            agent: None,
            filters,
        },
    );
    assert_eq!(
        t,
        "[User]\nFix the bug\n\n[Assistant]\nThe test fails.\n\n[User]\nThanks\n\n[Assistant]\nYou're welcome.\n"
    );
    assert_eq!(rows, 4);
}

#[test]
fn unfiltered_copy_matches_ccv_export() {
    let s = session();
    let mut exported = Vec::new();
    for format in [Format::Text, Format::Markdown] {
        exported.clear();
        let opts = Options {
            format,
            ..Options::default()
        };
        ccv::export::export(&s, &opts, &mut exported).expect("export to a Vec");
        let t = copy_text(
            &s,
            &CopyScope::Filtered {
                agent: None,
                filters: Filters::all(),
            },
            format,
            &opts,
        );
        let exported = String::from_utf8_lossy(&exported);
        // the markdown export opens with the session's title block
        let block = match format {
            Format::Markdown => ccv::export::title_block(&s, false),
            _ => String::new(),
        };
        assert_eq!(Some(t.text.as_str()), exported.strip_prefix(block.as_str()));
        assert_eq!(t.rows, 9);
    }
}

#[test]
fn markdown_fences_tool_output() {
    let s = session();
    let t = copy_text(
        &s,
        &CopyScope::Item {
            agent: None,
            id: id_of(&s, Kind::ToolCall, 0),
        },
        Format::Markdown,
        &Options::default(),
    );
    assert_eq!(
        t.text,
        "## Tool Call: Read\n\n```json\n{\n  \"file_path\": \"/src/main.rs\"\n}\n```\n\n## Tool Result\n\n```\nfn main() {}\n```\n"
    );
}

#[test]
fn unknown_ids_groups_and_agents_copy_nothing() {
    let s = session();
    assert_eq!(
        text(
            &s,
            CopyScope::Item {
                agent: None,
                id: 9999
            }
        ),
        (String::new(), 0)
    );
    assert_eq!(
        text(
            &s,
            CopyScope::Group {
                agent: None,
                group: 7
            }
        ),
        (String::new(), 0)
    );
    assert_eq!(
        text(
            &s,
            CopyScope::Range {
                agent: None,
                from: 0,
                to: 9999
            }
        ),
        (String::new(), 0)
    );
    assert_eq!(
        text(
            &s,
            CopyScope::Item {
                agent: Some(3),
                id: 0
            }
        ),
        (String::new(), 0)
    );
}
