//! The viewer's finding marks are kept up to date as lines arrive; after
//! every step they must equal the marks derived from the whole session.

use crate::common;

use ccv::model::Session;
use ccv::model::check::FindingKind;
use serde_json::{Value, json};

fn same(s: &Session, what: &str) {
    let scratch = s.marks_from_scratch();
    assert_eq!(
        s.marks(),
        &scratch,
        "{what}: incremental marks differ from a full check"
    );
}

/// Line by line, then in random chunks (with `flush_tail` between them, as
/// the live follower does), checking after every step.
fn check_file(name: &str, bytes: &[u8], seed: u64) {
    let mut s = Session::new(None);
    for (n, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        s.feed(0, line);
        same(&s, &format!("{name} line {}", n + 1));
    }
    s.finish(0);
    same(&s, &format!("{name} finished"));
    let full = s.marks_from_scratch();

    let mut rng = seed | 1;
    let mut s = Session::new(None);
    let mut at = 0;
    while at < bytes.len() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let n = 1 + (rng % 8192) as usize;
        let end = (at + n).min(bytes.len());
        s.feed(0, &bytes[at..end]);
        if rng.is_multiple_of(3) {
            s.flush_tail(0);
        }
        same(&s, &format!("{name} bytes ..{end}"));
        at = end;
    }
    s.finish(0);
    same(&s, &format!("{name} finished in chunks"));
    assert_eq!(s.marks(), &full, "{name}: chunks and lines disagree");
}

fn line(kind: &str, uuid: &str, parent: &str, message: Value) -> String {
    common::jsonl::line(kind, uuid, parent, 0, message)
}

use common::jsonl::{assistant, user};

fn result(id: &str) -> Value {
    common::jsonl::result(id, "ok")
}

fn call(id: &str) -> Value {
    common::jsonl::call(id, "Bash", json!({"command": "make"}))
}

/// The fixture of tests/tui_findings.rs.
fn tui_findings() -> String {
    common::jsonl::findings()
}

/// Parents written after their children (one closing a cycle), a result
/// that arrives late, parallel calls of one message split over lines, an
/// unreadable line and two objects on one line.
fn edge_cases() -> String {
    [
        line("user", "c1", "c3", user("in a cycle")),
        line("assistant", "c2", "c1", assistant("mc", call("t0"))),
        line(
            "user",
            "late-child",
            "late-parent",
            user("parent comes later"),
        ),
        "{not json".into(),
        line("user", "c3", "c2", result("t0")),
        line("user", "late-parent", "nowhere", user("here I am")),
        line(
            "assistant",
            "p1",
            "late-parent",
            assistant("mp", call("t1")),
        ),
        line("assistant", "p2", "p1", assistant("mp", call("t2"))),
        line("user", "p3", "p2", result("t1")),
        line("assistant", "p4", "p3", assistant("mq", call("t3"))),
        line("user", "p5", "p4", result("t2")),
        line("user", "p6", "p5", result("t3")) + &line("user", "p7", "p6", user("joined")),
        line("assistant", "p8", "p7", assistant("mr", call("t4"))),
        line("user", "p9", "p8", user("moving on without t4")),
        line("assistant", "p10", "p9", assistant("ms", call("t5"))),
        "".into(),
        line("user", "p11", "p10", result("t5")),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn fixtures_mark_as_a_full_check_does() {
    check_file("tui_findings", tui_findings().as_bytes(), 1);
    check_file("edge cases", edge_cases().as_bytes(), 2);
    // the edge cases do exercise every kind of mark
    let mut s = Session::new(None);
    s.feed(0, edge_cases().as_bytes());
    s.finish(0);
    let mut kinds: Vec<FindingKind> = s
        .main
        .items
        .iter()
        .flat_map(|i| s.marks().of(i.id).iter().map(|m| m.kind))
        .collect();
    kinds.sort_by_key(|k| *k as u8);
    kinds.dedup();
    assert_eq!(
        kinds,
        [
            FindingKind::NoResult,
            FindingKind::DanglingParent,
            FindingKind::Cycle,
            FindingKind::Unreadable
        ]
    );
    for seed in [3, 4, 5] {
        check_file("kinds.jsonl", common::KINDS, seed);
        check_file("newer.jsonl", common::NEWER, seed);
    }
}

/// A subagent's own file whose first line points into the session file:
/// excused once the session line is read, whichever comes first.
#[test]
fn subagent_file_parents_in_the_session_file() {
    let main = [
        line("user", "m1", "", user("start")),
        line("assistant", "m2", "m1", assistant("ma", call("task"))),
    ];
    let agent = [
        json!({"type": "user", "uuid": "s1", "parentUuid": "m2", "isSidechain": true,
               "agentId": "x", "sessionId": "s1", "message": user("sub")})
        .to_string(),
        json!({"type": "user", "uuid": "s2", "parentUuid": "elsewhere", "isSidechain": true,
               "agentId": "x", "sessionId": "s1", "message": user("sub 2")})
        .to_string(),
    ];
    for agent_first in [false, true] {
        let mut s = Session::new(None);
        let a = s.add_agent_source("agent-x.jsonl".into(), "x");
        same(&s, "agent source added");
        let steps: Vec<(u16, &String)> = if agent_first {
            agent
                .iter()
                .map(|l| (a, l))
                .chain(main.iter().map(|l| (0, l)))
                .collect()
        } else {
            main.iter()
                .map(|l| (0, l))
                .chain(agent.iter().map(|l| (a, l)))
                .collect()
        };
        for (n, (src, l)) in steps.into_iter().enumerate() {
            s.feed(src, format!("{l}\n").as_bytes());
            same(&s, &format!("agent_first={agent_first} step {n}"));
        }
        assert!(
            s.marks().agent(0),
            "the dangling second line marks its agent"
        );
    }
}

#[test]
fn corpus_marks_as_a_full_check_does() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for (n, p) in files.iter().enumerate() {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let name = p
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        check_file(&name, &bytes, n as u64 + 11);
    }
}

/// An export keeps no marks (nothing it writes is marked) and makes no
/// call summaries, and writes what a load that keeps them writes.
#[test]
fn an_export_keeps_no_marks_and_writes_the_same() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, edge_cases() + &tui_findings()).expect("write");
    let kept = ccv::source::claude::loader::load_with_subagents(&path).expect("load");
    assert!(!kept.marks().is_empty(), "the fixture has findings");
    let export = ccv::source::claude::loader::load_for_export(&path, false).expect("load");
    assert!(export.marks().is_empty());
    let calls = |s: &ccv::model::session::Session| -> Vec<String> {
        s.main
            .items
            .iter()
            .filter_map(|i| match &i.detail {
                ccv::model::item::Detail::Call(_) => Some(i.call_summary().to_owned()),
                _ => None,
            })
            .collect()
    };
    assert!(
        calls(&kept).iter().any(|s| !s.is_empty()),
        "the fixture has calls"
    );
    assert!(calls(&export).iter().all(String::is_empty));
    for format in [
        ccv::export::Format::Json,
        ccv::export::Format::Text,
        ccv::export::Format::Markdown,
    ] {
        assert_eq!(
            common::exported(&export, format),
            common::exported(&kept, format)
        );
    }
}

/// Random sessions of calls spread over lines of a message (results
/// between them, as Claude Code writes parallel calls), calls of lines
/// without a message id, texts, results early, late or never: after
/// every line and chunk the marks are a full check's (the calls of the
/// message written last are looked at again only when a call of another
/// one may be waiting).
#[test]
fn random_messages_of_calls_mark_as_a_full_check_does() {
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    for round in 0..40 {
        let mut lines = Vec::new();
        let mut parent = String::new();
        let mut calls = Vec::new();
        let mut message = 0;
        for n in 0..60 {
            // a message's lines come together, as the API streams them
            if next(3) == 0 {
                message += 1;
            }
            let uuid = format!("r{round}-{n}");
            let text = match next(6) {
                0 | 1 => {
                    let id = format!("t{round}-{n}");
                    calls.push(id.clone());
                    let mut m = assistant(&format!("m{message}"), call(&id));
                    if next(8) == 0 {
                        // a line of a message without an id
                        m.as_object_mut().map(|o| o.remove("id"));
                    }
                    line("assistant", &uuid, &parent, m)
                }
                2 => line(
                    "assistant",
                    &uuid,
                    &parent,
                    assistant(&format!("m{message}"), json!([{"type":"text","text":"so"}])),
                ),
                3 if !calls.is_empty() => {
                    let at = next(calls.len() as u64) as usize;
                    line("user", &uuid, &parent, result(&calls.swap_remove(at)))
                }
                // a result before its call
                4 => line(
                    "user",
                    &uuid,
                    &parent,
                    result(&format!("t{round}-{}", n + 1)),
                ),
                _ => line("user", &uuid, &parent, user("next")),
            };
            lines.push(text);
            parent = uuid;
        }
        let body = lines.join("\n") + "\n";
        check_file(&format!("round {round}"), body.as_bytes(), round + 7);
    }
}
