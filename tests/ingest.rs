//! The model layer on handwritten fixtures: classification of every kind,
//! merging, pairing, usage, incremental appends.

use crate::common::export_json;
use ccv::model::item::SystemInfo;
use ccv::model::{Detail, Kind, Session};

const KINDS: &[u8] = include_bytes!("fixtures/kinds.jsonl");

fn load(bytes: &[u8]) -> Session {
    let mut s = Session::new(None);
    s.feed(0, bytes);
    s.finish(0);
    s
}

fn kinds(s: &Session) -> Vec<Kind> {
    s.main.items.iter().map(|i| i.kind).collect()
}

#[test]
fn every_kind_is_classified() {
    let s = load(KINDS);
    use Kind::*;
    assert_eq!(
        kinds(&s),
        vec![
            User, Thinking, Assistant, ToolCall, ToolCall, ToolCall, Thinking, Assistant, System,
            System, Command, Command, Meta, Meta, System, System, System, Compaction, Unknown,
            User, Thinking, Unknown, ToolResult,
        ]
    );
    let items = &s.main.items;
    // empty thinking with only a signature, and redacted thinking
    assert!(items[6].flags.thinking_hidden);
    assert!(items[20].flags.redacted);
    // the synthetic API error line
    assert!(items[15].flags.synthetic && items[15].flags.error);
    // compaction boundary
    assert!(matches!(
        items[16].detail,
        Detail::System(ref i) if **i == SystemInfo::CompactBoundary { trigger: Some("manual".into()), pre_tokens: Some(156688), micro: false }
    ));
    // a prompt with an image keeps one row, with a placeholder
    assert!(
        items[19].text.or_marker().ends_with("[image/png 3 KB]"),
        "{}",
        items[19].text
    );
    // the slash command and its output
    let Detail::Command(c) = &items[10].detail else {
        panic!("command")
    };
    assert_eq!((c.name.as_str(), c.args.as_str()), ("/model", "opus"));
    assert_eq!(items[11].text, "Set model to opus");
    // @-mentions
    let Detail::Prompt(p) = &items[0].detail else {
        panic!("prompt info")
    };
    assert_eq!(p.files, vec!["src/parse.rs".to_string()]);
}

#[test]
fn tool_results_pair_with_calls_and_orphans_stay() {
    let s = load(KINDS);
    let calls: Vec<_> = s
        .main
        .items
        .iter()
        .filter_map(|i| match &i.detail {
            Detail::Call(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c.result.is_some()));
    let edit = calls[1];
    assert_eq!(edit.name, "Edit");
    let patch = edit.result.as_ref().and_then(|r| r.patch()).expect("patch");
    assert_eq!(patch[0].lines.len(), 2);
    let bash = calls[2].result.as_ref().expect("bash result");
    assert!(bash.is_error);
    let orphan = s.main.items.last().expect("orphan");
    assert!(matches!(orphan.detail, Detail::OrphanResult(_)));
    // json: each result directly follows its call
    let json = export_json(&s);
    let rows: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    for (i, r) in rows.iter().enumerate() {
        if r["kind"] == "tool_call" {
            let next = &rows[i + 1];
            assert_eq!(next["kind"], "tool_result");
            assert_eq!(next["tool_use_id"], r["tool_use_id"]);
        }
    }
    let errors: Vec<_> = rows
        .iter()
        .filter(|r| r["is_error"] == true && r["kind"] == "tool_result")
        .collect();
    assert_eq!(errors.len(), 1);
}

#[test]
fn tool_calls_of_a_turn_form_one_group() {
    let s = load(KINDS);
    // Read, Edit (same message, after a result) and Bash (next message) with
    // no text between them: one group
    assert_eq!(s.main.groups.len(), 1);
    let g = &s.main.groups[0];
    assert_eq!((g.first, g.last), (3, 5));
}

#[test]
fn usage_counts_each_message_once() {
    let s = load(KINDS);
    // msg_1 has 4 lines (output 5, 5, 5, then 50): counted once, with 50;
    // msg_2, msg_3 and msg_4 count 5 each (msg_4 has 2 lines).
    assert_eq!(s.main.totals.output_tokens, 50 + 5 + 5 + 5);
    assert_eq!(s.main.totals.input_tokens, 40);
    assert_eq!(s.main.context_tokens(), Some(10 + 100 + 1000 + 5));
}

#[test]
fn metadata_and_hidden_entries_are_counted() {
    let s = load(KINDS);
    assert_eq!(s.title(), Some("Fix the parser"));
    assert_eq!(
        s.meta.first_prompt(),
        Some("Fix the parser in @src/parse.rs please")
    );
    assert_eq!(s.meta.cwd.as_deref(), Some("/home/alice/src/demo"));
    assert_eq!(s.meta.model.as_deref(), Some("claude-opus-4-6"));
    assert_eq!(s.main.turns.len(), 2);
    assert_eq!(s.main.turns[0].duration_ms, Some(12000));
    let st = &s.stats;
    assert_eq!(st.entries, 31);
    assert_eq!(st.shown + st.hidden + st.unreadable, st.entries);
    assert_eq!(st.hidden_by_reason.get("progress"), Some(&1));
    assert_eq!(st.hidden_by_reason.get("summary"), Some(&1));
    assert_eq!(s.lines(), 31);
}

#[test]
fn non_contiguous_message_lines_merge_in_block_order() {
    // msg_A's text comes after a hook system line written between its lines
    let lines = [
        r#"{"type":"user","uuid":"u","message":{"role":"user","content":"hi"}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u","message":{"id":"msg_A","content":[{"type":"thinking","thinking":"hmm"}]}}"#,
        r#"{"type":"system","uuid":"s","parentUuid":"a1","subtype":"informational","content":"hook ran"}"#,
        r#"{"type":"assistant","uuid":"a2","parentUuid":"s","message":{"id":"msg_A","content":[{"type":"text","text":"answer"}]}}"#,
    ];
    let s = load(lines.join("\n").as_bytes());
    assert_eq!(
        kinds(&s),
        vec![Kind::User, Kind::Thinking, Kind::Assistant, Kind::System]
    );
    assert_eq!(s.main.items[2].text, "answer");
    assert_eq!(s.main.messages.len(), 1);
}

/// A reused tool_use id and a uuid reused with other content are shown
/// (nothing vanishes) and flagged; the same line written twice is shown
/// once.
#[test]
fn repeated_tool_use_ids_and_uuids_are_shown_and_flagged() {
    use ccv::model::check::FindingKind;
    use ccv::model::item::Collision;
    let lines = [
        r#"{"type":"assistant","uuid":"a1","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
        r#"{"type":"assistant","uuid":"a2","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
        r#"{"type":"assistant","uuid":"a1","message":{"id":"m2","content":[{"type":"text","text":"rewritten line"}]}}"#,
        r#"{"type":"assistant","uuid":"a1","timestamp":"2025-01-01T00:00:00Z","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
    ];
    let s = load(lines.join("\n").as_bytes());
    assert_eq!(
        kinds(&s),
        vec![Kind::ToolCall, Kind::ToolCall, Kind::Assistant]
    );
    let flags: Vec<_> = s.main.items.iter().map(|i| i.flags.collision).collect();
    assert_eq!(
        flags,
        vec![None, Some(Collision::ToolUseId), Some(Collision::Uuid)]
    );
    assert_eq!(s.stats.hidden, 1, "the same line again (other envelope)");
    let kinds: Vec<_> = s
        .findings(false)
        .into_iter()
        .map(|f| (f.line, f.kind))
        .collect();
    assert!(
        kinds.contains(&(2, FindingKind::RepeatedToolUseId)),
        "{kinds:?}"
    );
    assert!(kinds.contains(&(3, FindingKind::RepeatedUuid)), "{kinds:?}");
    assert_eq!(s.marks(), &s.marks_from_scratch());
}

#[test]
fn appends_split_at_every_byte_give_the_same_transcript() {
    let whole = export_json(&load(KINDS));
    for split in 0..=KINDS.len() {
        let mut s = Session::new(None);
        s.feed(0, &KINDS[..split]);
        s.flush_tail(0);
        s.feed(0, &KINDS[split..]);
        s.finish(0);
        assert_eq!(export_json(&s), whole, "split at byte {split}");
        assert_eq!(s.stats.unreadable, 0, "split at byte {split}");
    }
}

#[test]
fn three_way_splits_with_a_utf8_sequence_cut() {
    let text = "{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"role\":\"user\",\"content\":\"caf\u{e9} \u{1f600} \u{4e2d}\u{6587}\"}}\n";
    let bytes = text.as_bytes();
    let whole = export_json(&load(bytes));
    for i in 0..bytes.len() {
        for j in i..bytes.len() {
            let mut s = Session::new(None);
            for chunk in [&bytes[..i], &bytes[i..j], &bytes[j..]] {
                s.feed(0, chunk);
                s.flush_tail(0);
            }
            s.finish(0);
            assert_eq!(export_json(&s), whole, "splits {i} {j}");
        }
    }
}

#[test]
fn a_later_result_updates_its_call_in_place() {
    let call = r#"{"type":"assistant","uuid":"a","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"sleep 1"}}]}}"#;
    let result = r#"{"type":"user","uuid":"r","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"done"}]}}"#;
    let mut s = Session::new(None);
    s.feed(0, format!("{call}\n").as_bytes());
    let c1 = s.take_changes();
    assert_eq!(c1.appended_from, Some(0));
    let id = s.main.items[0].id;
    s.feed(0, format!("{result}\n").as_bytes());
    let c2 = s.take_changes();
    assert_eq!(c2.appended_from, None);
    assert_eq!(c2.updated, vec![id]);
    let Detail::Call(c) = &s.main.items[0].detail else {
        panic!()
    };
    assert_eq!(c.result.as_ref().and_then(|r| r.text.get()), Some("done"));
}

#[test]
fn unreadable_lines_are_rows_with_line_numbers() {
    let data = b"{\"type\":\"user\",\"message\":{\"content\":\"a\"}}\nnot json\n\n[1,2]\n{\"type\":\"user\",\"mess\n\xff\xfe\n";
    let s = load(data);
    let unreadable: Vec<_> = s
        .main
        .items
        .iter()
        .filter(|i| i.kind == Kind::Unreadable)
        .map(|i| i.line)
        .collect();
    assert_eq!(unreadable, vec![2, 3, 4, 5, 6]);
    assert_eq!(s.stats.unreadable, 5);
    assert_eq!(s.problems.len(), 5);
    assert_eq!(
        s.stats.shown + s.stats.hidden + s.stats.unreadable,
        s.stats.entries
    );
}

#[test]
fn stream_json_is_read() {
    let lines = [
        r#"{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash","Read"],"model":"claude-sonnet-4-5","permissionMode":"default"}"#,
        r#"{"type":"assistant","message":{"id":"m1","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"look","description":"look around","subagent_type":"general-purpose"}}],"usage":{"input_tokens":3,"output_tokens":7}},"parent_tool_use_id":null,"session_id":"s1"}"#,
        r#"{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"sub says hi"}]},"parent_tool_use_id":"t1","session_id":"s1"}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"ok"}]},"parent_tool_use_id":null,"session_id":"s1"}"#,
        r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":2500,"num_turns":2,"result":"All good","session_id":"s1","total_cost_usd":0.0123}"#,
    ];
    let s = load(lines.join("\n").as_bytes());
    assert!(s.meta.stream_json);
    assert_eq!(s.meta.model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(s.meta.session_ids, vec!["s1".to_string()]);
    assert_eq!(kinds(&s), vec![Kind::System, Kind::ToolCall, Kind::System]);
    assert!(
        s.main.items[2]
            .text
            .or_marker()
            .starts_with("Result: success · 2 turns")
    );
    // the subagent's message is linked under the Task call
    let Detail::Call(c) = &s.main.items[1].detail else {
        panic!()
    };
    let a = c.agent.expect("linked subagent");
    assert_eq!(s.agents[a as usize].transcript.items[0].text, "sub says hi");
}

#[test]
fn inline_sidechains_link_to_their_task_call() {
    let lines = [
        r#"{"type":"assistant","uuid":"a","isSidechain":false,"message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Task","input":{"prompt":"Find the bug","description":"find"}}]}}"#,
        r#"{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"message":{"role":"user","content":"Find the bug"}}"#,
        r#"{"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"message":{"id":"sm","content":[{"type":"text","text":"found it"}]}}"#,
        r#"{"type":"user","uuid":"r","parentUuid":"a","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"found it"}]}}"#,
    ];
    let s = load(lines.join("\n").as_bytes());
    assert_eq!(kinds(&s), vec![Kind::ToolCall]);
    let Detail::Call(c) = &s.main.items[0].detail else {
        panic!()
    };
    let a = c.agent.expect("linked");
    assert_eq!(s.agents[a as usize].transcript.items.len(), 2);
    let json = export_json(&s);
    let agents: Vec<_> = json.lines().filter(|l| l.contains("\"agent\":")).collect();
    assert_eq!(agents.len(), 2);
}

/// A session's ids are listed once each, in the order they first come,
/// however they alternate, and `ccv check` names each line that brings
/// a new one (thousands of them: each found without a pass over all).
#[test]
fn session_ids_are_listed_once_each_in_order() {
    let order = ["a", "b", "a", "b", "c", "a", "c"];
    let mut lines: Vec<String> = order
        .iter()
        .enumerate()
        .map(|(n, id)| {
            format!(r#"{{"type":"user","uuid":"u{n}","sessionId":"{id}","message":{{"role":"user","content":"p{n}"}}}}"#)
        })
        .collect();
    for n in 0..5000 {
        lines.push(format!(
            r#"{{"type":"user","uuid":"v{n}","sessionId":"id{n}","message":{{"role":"user","content":"q"}}}}"#
        ));
    }
    let s = load(lines.join("\n").as_bytes());
    assert_eq!(s.meta.session_ids.len(), 5003);
    assert_eq!(s.meta.session_ids[..4], ["a", "b", "c", "id0"]);
    let firsts: Vec<(&str, u32)> = s
        .session_id_lines
        .iter()
        .take(3)
        .map(|at| (at.id.as_str(), at.line))
        .collect();
    assert_eq!(firsts, [("a", 1), ("b", 2), ("c", 5)]);
    assert_eq!(s.session_id_lines.len(), 5003);
}
