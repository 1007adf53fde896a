//! Results pair with their calls by `tool_use_id`, whatever the order in
//! the file (2.1.170+ writes some results before their calls), and ids
//! that repeat are shown, never swallowed.

use crate::common::entry;
use ccv::export::{Format, Options, export};
use ccv::model::check::FindingKind;
use ccv::model::{Detail, Kind, Session, ToolCall};
use serde_json::{Value, json};

fn user(uuid: &str, parent: &str, content: Value) -> Value {
    entry::user(uuid, content)
        .parent_or_root(Some(parent).filter(|p| !p.is_empty()))
        .session("s")
        .at("2025-01-01T10:00:00.000Z")
        .json()
}

fn call(uuid: &str, parent: &str, msg: &str, id: &str, cmd: &str) -> Value {
    entry::call(uuid, msg, id, "Bash", json!({"command": cmd}))
        .model("m")
        .parent(parent)
        .session("s")
        .at("2025-01-01T10:00:01.000Z")
        .json()
}

fn result(uuid: &str, parent: &str, id: &str, text: &str) -> Value {
    entry::result(uuid, id, text)
        .parent_or_root(Some(parent).filter(|p| !p.is_empty()))
        .session("s")
        .at("2025-01-01T10:00:00.000Z")
        .json()
}

fn text(uuid: &str, parent: &str, msg: &str, t: &str) -> Value {
    entry::text_answer(uuid, msg, t)
        .model("m")
        .parent(parent)
        .session("s")
        .at("2025-01-01T10:00:02.000Z")
        .json()
}

fn body(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Loaded whole, and fed line by line as a live follower would.
fn both(lines: &[Value]) -> [Session; 2] {
    let mut whole = Session::new(None);
    whole.feed(0, body(lines).as_bytes());
    whole.finish(0);
    let mut live = Session::new(None);
    for l in lines {
        live.feed(0, format!("{l}\n").as_bytes());
        live.flush_tail(0);
        let _ = live.take_changes();
        assert_eq!(live.marks(), &live.marks_from_scratch(), "after {l}");
    }
    live.finish(0);
    [whole, live]
}

/// The main transcript's calls, in order.
fn calls(s: &Session) -> impl Iterator<Item = &ToolCall> {
    s.main.items.iter().filter_map(|i| match &i.detail {
        Detail::Call(c) => Some(&**c),
        _ => None,
    })
}

/// What a call's result says, if it has one.
fn result_text(c: &ToolCall) -> Option<String> {
    c.result.as_ref().map(|r| r.text.or_marker().to_owned())
}

fn json_rows(s: &Session) -> Vec<Value> {
    let mut out = Vec::new();
    let opts = Options {
        format: Format::Json,
        ..Options::default()
    };
    export(s, &opts, &mut out).expect("export");
    String::from_utf8(out)
        .expect("utf8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect()
}

#[test]
fn results_written_before_their_calls_pair_with_them() {
    // parallel calls: t2's result is written before the line of its call
    let lines = [
        user("u1", "", json!("run both")),
        call("a1", "u1", "m1", "t1", "make"),
        result("r2", "a2", "t2", "tests ok"),
        call("a2", "a1", "m1", "t2", "make test"),
        result("r1", "a1", "t1", "built"),
        text("a3", "r1", "m2", "both done"),
    ];
    for s in both(&lines) {
        let calls: Vec<_> = calls(&s).map(|c| (c.id.clone(), result_text(c))).collect();
        assert_eq!(
            calls,
            vec![
                ("t1".into(), Some("built".into())),
                ("t2".into(), Some("tests ok".into()))
            ]
        );
        assert!(
            !s.main.items.iter().any(|i| i.kind == Kind::ToolResult),
            "no orphan row"
        );
        let findings: Vec<_> = s.findings(false).into_iter().map(|f| f.kind).collect();
        assert!(findings.is_empty(), "{findings:?}");
        assert!(s.marks().is_empty());
        for r in json_rows(&s).iter().filter(|r| r["kind"] == "tool_result") {
            assert!(r["tool_use_id"].is_string(), "{r}");
        }
    }
}

/// Once a result moves onto its call, the transcript's indexes are those of
/// a file written in the usual order (results after their calls).
#[test]
fn pairing_out_of_order_leaves_the_indexes_of_the_usual_order() {
    let early = [
        user("u1", "", json!("run")),
        call("a1", "u1", "m1", "t1", "make"),
        result("r2", "a2", "t2", "tests ok"),
        call("a2", "a1", "m1", "t2", "make test"),
        call("a3", "a2", "m1", "t3", "make doc"),
        result("r1", "a1", "t1", "built"),
        result("r3", "a3", "t3", "doc"),
        text("a4", "r1", "m2", "done"),
    ];
    let usual = [
        early[0].clone(),
        early[1].clone(),
        early[3].clone(),
        early[4].clone(),
        early[2].clone(),
        early[5].clone(),
        early[6].clone(),
        early[7].clone(),
    ];
    let [reference, _] = both(&usual);
    for s in both(&early) {
        assert_eq!(s.main.groups, reference.main.groups);
        assert_eq!(s.main.items.len(), reference.main.items.len());
        for (a, b) in s.main.items.iter().zip(&reference.main.items) {
            assert_eq!((a.kind, a.group, a.message), (b.kind, b.group, b.message));
        }
        for (i, it) in s.main.items.iter().enumerate() {
            if let Detail::Call(c) = &it.detail {
                assert_eq!(s.main.call_for_result(&c.id), None, "answered");
                assert_eq!(s.main.tool_call_index(&c.id), Some(i));
            }
        }
        let last: Vec<_> = s.main.messages.iter().map(|m| m.last_item).collect();
        let want: Vec<_> = reference
            .main
            .messages
            .iter()
            .map(|m| m.last_item)
            .collect();
        assert_eq!(last, want);
    }
}

/// Results written long before their calls (hundreds of rows ahead, so
/// their rows go when the batch ends, in one pass) leave the indexes of a
/// file in the usual order, loaded whole and line by line.
#[test]
fn results_far_ahead_of_their_calls_leave_the_indexes_of_the_usual_order() {
    let n = 300;
    let mut early = vec![user("u1", "", json!("run"))];
    let mut parent = "u1".to_owned();
    for i in 0..n {
        let uuid = format!("r{i}");
        early.push(result(
            &uuid,
            &parent,
            &format!("t{i}"),
            &format!("out {i}"),
        ));
        parent = uuid;
    }
    for i in 0..n {
        let uuid = format!("a{i}");
        early.push(call(
            &uuid,
            &parent,
            &format!("m{i}"),
            &format!("t{i}"),
            "make",
        ));
        parent = uuid;
    }
    early.push(text("z", &parent, "mz", "done"));
    let mut usual = vec![early[0].clone()];
    for i in 0..n {
        usual.push(early[1 + n + i].clone());
        usual.push(early[1 + i].clone());
    }
    usual.push(early[1 + 2 * n].clone());
    let [reference, _] = both(&usual);
    for s in both(&early) {
        assert!(!s.main.items.iter().any(|i| i.kind == Kind::ToolResult));
        assert_eq!(s.main.groups, reference.main.groups);
        let rows = |s: &Session| -> Vec<_> {
            s.main
                .items
                .iter()
                .map(|i| (i.kind, i.group, i.message, i.text.or_marker().to_owned()))
                .collect()
        };
        assert_eq!(rows(&s), rows(&reference));
        for (i, it) in s.main.items.iter().enumerate() {
            if let Detail::Call(c) = &it.detail {
                assert_eq!(s.main.tool_call_index(&c.id), Some(i));
                let r = c.result.as_ref().map(|r| r.text.or_marker().to_owned());
                assert_eq!(r, Some(format!("out {}", &c.id[1..])));
            }
        }
        let last =
            |s: &Session| -> Vec<_> { s.main.messages.iter().map(|m| m.last_item).collect() };
        assert_eq!(last(&s), last(&reference));
        assert!(s.findings(false).is_empty());
        assert!(s.marks().is_empty());
    }
}

#[test]
fn a_result_whose_call_never_comes_stays_an_orphan_with_its_id() {
    let lines = [
        user("u1", "", json!("x")),
        result("r1", "u1", "toolu_gone", "late"),
    ];
    for s in both(&lines) {
        let kinds: Vec<_> = s.findings(false).into_iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![FindingKind::ResultWithoutCall]);
        let rows = json_rows(&s);
        let orphan = rows
            .iter()
            .find(|r| r["kind"] == "tool_result")
            .expect("row");
        assert_eq!(orphan["tool_use_id"], "toolu_gone");
        assert_eq!(orphan["orphan"], true);
    }
}

#[test]
fn five_calls_with_one_id_and_three_results_are_all_shown() {
    let mut lines = vec![user("u1", "", json!("go"))];
    for n in 0..5 {
        lines.push(call(
            &format!("a{n}"),
            "u1",
            &format!("m{n}"),
            "dup",
            &format!("cmd {n}"),
        ));
    }
    for n in 0..3 {
        lines.push(result(&format!("r{n}"), "a0", "dup", &format!("out {n}")));
    }
    // a sixth call's results: one, then two more for it
    lines.push(call("b1", "r2", "mb", "solo", "once"));
    for n in 0..3 {
        lines.push(result(&format!("s{n}"), "b1", "solo", &format!("solo {n}")));
    }
    for s in both(&lines) {
        let calls: Vec<_> = calls(&s).map(result_text).collect();
        assert_eq!(calls.len(), 6, "every call is a row");
        // the three results answer the first three calls with the id
        assert_eq!(
            &calls[..3],
            &[
                Some("out 0".into()),
                Some("out 1".into()),
                Some("out 2".into())
            ]
        );
        assert_eq!(calls[5], Some("solo 0".into()));
        let extra: Vec<_> = s
            .main
            .items
            .iter()
            .filter(|i| i.kind == Kind::ToolResult)
            .collect();
        assert_eq!(extra.len(), 2, "the two extra results are shown");
        let findings: Vec<_> = s.findings(false).into_iter().map(|f| f.kind).collect();
        assert_eq!(
            findings
                .iter()
                .filter(|k| **k == FindingKind::RepeatedToolUseId)
                .count(),
            4
        );
        assert_eq!(
            findings
                .iter()
                .filter(|k| **k == FindingKind::RepeatedResult)
                .count(),
            2
        );
        assert_eq!(s.marks(), &s.marks_from_scratch());
    }
}

/// `ccv check` on the corpus: no call is left without the result the
/// file holds, and no result is an orphan when its call is in the file.
#[test]
fn the_corpus_has_no_false_orphans() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    for f in files {
        let s = ccv::source::claude::loader::load_with_subagents(&f).expect("load");
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for finding in s.findings(false) {
            if finding.kind != FindingKind::ResultWithoutCall || finding.source != 0 {
                continue;
            }
            // an orphan is false when the file holds a tool_use with its id
            let Some(item) = s.main.items.iter().find(|i| Some(i.id) == finding.item_id) else {
                continue;
            };
            let Detail::OrphanResult(r) = &item.detail else {
                continue;
            };
            let needle = format!("\"id\":\"{}\"", r.tool_use_id);
            assert!(
                r.tool_use_id.is_empty() || !text.contains(&needle),
                "{}:{}: false orphan {}",
                f.display(),
                finding.line,
                r.tool_use_id
            );
        }
    }
}

use crate::common;

/// Tools the API runs (a web search, a tool of its MCP connector) answer
/// in the same message as their call: each is a call with its result, no
/// orphan, and no finding of a call left without its result.
#[test]
fn calls_the_api_ran_pair_with_their_results_in_the_same_answer() {
    let blocks = json!([
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
         "input": {"query": "ratatui 0.30"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
         "content": [{"type": "web_search_result", "title": "ratatui", "url": "https://ratatui.rs"}]},
        {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "get_issue",
         "server_name": "linear", "input": {"id": "MCP-108"}},
        {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": false,
         "content": [{"type": "text", "text": "MCP-108: tiered reduction"}]},
        {"type": "mcp_tool_use", "id": "mcptoolu_2", "name": "list_issues",
         "server_name": "linear", "input": {}},
        {"type": "text", "text": "found it"}
    ]);
    let lines = [
        user("u1", "", json!("look it up")),
        entry::assistant("a1", "m1", blocks)
            .model("m")
            .parent("u1")
            .session("s")
            .at("2025-01-01T10:00:01.000Z")
            .json(),
    ];
    for s in both(&lines) {
        let calls: Vec<_> = calls(&s)
            .map(|c| (c.name.clone(), c.server, result_text(c)))
            .collect();
        assert_eq!(calls.len(), 3, "{calls:?}");
        assert_eq!((calls[0].0.as_str(), calls[0].1), ("web_search", true));
        assert!(calls[0].2.is_some(), "{calls:?}");
        assert_eq!(
            calls[1],
            (
                "get_issue".to_owned(),
                true,
                Some("MCP-108: tiered reduction".to_owned())
            )
        );
        // a call the API ran whose result is not written is no finding
        // (the API ran it, not Claude Code)
        assert_eq!(calls[2], ("list_issues".to_owned(), true, None));
        assert!(
            !s.main
                .items
                .iter()
                .any(|i| matches!(i.kind, Kind::ToolResult | Kind::Unknown)),
            "no orphan, no unknown block: {:?}",
            crate::common::rows(&s)
        );
        let findings: Vec<_> = s.findings(false).into_iter().map(|f| f.kind).collect();
        assert!(findings.is_empty(), "{findings:?}");
        let rows = json_rows(&s);
        assert!(
            rows.iter()
                .any(|r| r["kind"] == "tool_call" && r["tool_name"] == "get_issue"),
            "{rows:?}"
        );
    }
}
