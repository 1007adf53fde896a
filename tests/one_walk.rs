//! One walk of a transcript: the screen (every fold open), a copy or
//! export and the HTML page show the same items in the same order under
//! the same filters.

use crate::common;

use ccv::export::{Flat, Format, Row};
use ccv::model::{Item, ItemId, Session};
use ccv::rows::{Ctx, Fold, RowKind, SessionExt};
use ccv::walk::{Filters, Walk};
use common::entry::{assistant, call, result, user};
use serde_json::json;
use std::collections::HashSet;

/// The items the screen shows with every fold open, in order.
fn screen_items(s: &Session, filters: Filters) -> Vec<ItemId> {
    let mut expanded: HashSet<Fold> = HashSet::new();
    loop {
        let mut rows = Vec::new();
        let ctx = Ctx {
            session: s,
            expanded: &expanded,
            filters,
        };
        ccv::rows::derive_main(&ctx, 0, usize::MAX, &mut rows);
        let before = expanded.len();
        expanded.extend(rows.iter().filter_map(|r| r.fold(s)));
        if expanded.len() == before {
            return rows
                .iter()
                .filter(|r| {
                    matches!(
                        r.kind,
                        RowKind::Item | RowKind::Call { .. } | RowKind::Member { .. }
                    )
                })
                .filter_map(|r| {
                    let t = s.transcript_checked(r.agent)?;
                    Some(t.items.get(r.index as usize)?.id)
                })
                .collect();
        }
    }
}

/// The items an export of the same filters writes, in order.
fn exported_items(s: &Session, filters: Filters) -> Vec<ItemId> {
    let mut ids = Vec::new();
    let mut f = |r: Row<'_>, _: Option<&str>| {
        if let Row::Item(i) = r {
            ids.push(i.id);
        }
    };
    Walk::new(s, filters).session(&mut Flat::new(s, &mut f));
    ids
}

/// How many items the page shows: a row each, a call each.
fn page_items(s: &Session, filters: Filters) -> usize {
    let mut page = Vec::new();
    ccv::html::write(s, &ccv::export::Options::default(), filters, &mut page).expect("page");
    let page = String::from_utf8(page).expect("utf-8");
    let main = &page[page.find("<main>").expect("main")..];
    main.matches("class=\"row ").count() + main.matches("<details class=\"call").count()
}

fn filter_sets() -> Vec<Filters> {
    let mut sets = Vec::new();
    for tools in [true, false] {
        for thinking in [true, false] {
            for meta in [true, false] {
                for subagents in [true, false] {
                    sets.push(Filters {
                        tools,
                        thinking,
                        meta,
                        errors: false,
                        subagents,
                    });
                }
            }
        }
    }
    sets.push(Filters {
        errors: true,
        ..Filters::default()
    });
    sets
}

fn assert_one_walk(s: &Session, what: &str) {
    for filters in filter_sets() {
        let screen = screen_items(s, filters);
        let exported = exported_items(s, filters);
        if filters.subagents {
            // the screen has no subagent filter: it shows them all
            assert_eq!(screen, exported, "{what}: screen and export, {filters:?}");
        }
        assert_eq!(
            page_items(s, filters),
            exported.len(),
            "{what}: page and export, {filters:?}"
        );
        let copied = ccv::clipboard::copy_text(
            s,
            &ccv::clipboard::CopyScope::Filtered {
                agent: None,
                filters,
            },
            Format::Json,
            &ccv::export::Options::default(),
        );
        let results = {
            let mut n = 0;
            let mut f =
                |r: Row<'_>, _: Option<&str>| n += usize::from(matches!(r, Row::Result(..)));
            Walk::new(s, filters).session(&mut Flat::new(s, &mut f));
            n
        };
        assert_eq!(
            copied.rows,
            exported.len() + results,
            "{what}: copy, {filters:?}"
        );
    }
}

fn at(n: u32) -> String {
    format!("2025-01-01T10:00:{n:02}.000Z")
}

/// A session with a tool group (thinking between its calls), a rewound
/// branch, a local command's caveat, bookkeeping and an error.
fn built() -> Session {
    let lines = vec![
        user("u1", json!("fix the build")).root().at(&at(1)).json(),
        assistant(
            "a1",
            "m1",
            json!([{"type":"thinking","thinking":"look first","signature":""}]),
        )
        .parent("u1")
        .at(&at(2))
        .json(),
        call("a2", "m1", "t1", "Bash", json!({"command":"cargo build"}))
            .parent("a1")
            .at(&at(3))
            .json(),
        result("r1", "t1", json!("error[E0308]"))
            .parent("a2")
            .error()
            .at(&at(4))
            .json(),
        assistant(
            "a3",
            "m2",
            json!([{"type":"thinking","thinking":"a type","signature":""}]),
        )
        .parent("r1")
        .at(&at(5))
        .json(),
        call("a4", "m2", "t2", "Read", json!({"file_path":"/src/a.rs"}))
            .parent("a3")
            .at(&at(6))
            .json(),
        result("r2", "t2", json!("fn a() {}"))
            .parent("a4")
            .at(&at(7))
            .json(),
        // a prompt the user rewound, then the one they kept
        user("u2", json!("never mind"))
            .parent("r2")
            .at(&at(8))
            .json(),
        user(
            "u3",
            json!("<local-command-caveat>Caveat: for the model</local-command-caveat>"),
        )
        .parent("r2")
        .set("isMeta", json!(true))
        .at(&at(9))
        .json(),
        user("u4", json!("go on")).parent("u3").at(&at(10)).json(),
        json!({"type":"system","subtype":"informational","uuid":"s1","parentUuid":"u4","content":"hook ran","timestamp":at(11),"sessionId":"s"}),
        assistant("a5", "m3", json!([{"type":"text","text":"Done."}]))
            .parent("s1")
            .at(&at(12))
            .json(),
    ];
    common::session_of(&lines)
}

#[test]
fn screen_export_copy_and_page_walk_the_same_items() {
    let s = built();
    // the fixture holds what the walk folds: a group, a branch, a caveat
    assert!(!s.main.groups.is_empty());
    assert!(s.main.items.iter().any(|i| i.off_branch));
    assert_one_walk(&s, "built");
    let all = exported_items(&s, Filters::all());
    let caveat = |i: &&Item| i.text.or_marker().contains("local-command-caveat");
    assert!(
        !s.main
            .items
            .iter()
            .filter(caveat)
            .any(|i| all.contains(&i.id)),
        "a caveat is shown nowhere"
    );
}

#[test]
fn the_corpus_walks_the_same_on_screen_in_exports_and_pages() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in files {
        let Ok(s) = ccv::source::load_with_subagents(&f) else {
            continue;
        };
        assert_one_walk(&s, &f.display().to_string());
    }
}

/// With tools hidden a tool group goes whole, its thinking with it, on
/// screen and in every export.
#[test]
fn hidden_tools_take_their_groups_thinking_along() {
    let s = built();
    let filters = Filters {
        tools: false,
        ..Filters::all()
    };
    let ids = exported_items(&s, filters);
    let thinking: Vec<_> = s
        .main
        .items
        .iter()
        .filter(|i| i.group.is_some() && i.kind == ccv::model::Kind::Thinking)
        .collect();
    assert!(!thinking.is_empty());
    assert!(thinking.iter().all(|i| !ids.contains(&i.id)));
    assert_eq!(screen_items(&s, filters), ids);
}
