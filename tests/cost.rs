//! What a session cost: priced per message (once per `message.id`), with
//! subagents, on the header, the prompt's turn line and the subagent row.

use crate::common;

use ccv::model::figures::Figures;
use common::{screen_text, session_of};
use serde_json::json;

fn answer(uuid: &str, id: &str, model: &str, usage: serde_json::Value) -> serde_json::Value {
    json!({"type":"assistant","uuid":uuid,"sessionId":"s","timestamp":"2025-01-01T10:00:01.000Z",
        "message":{"id":id,"role":"assistant","model":model,"content":[{"type":"text","text":"ok"}],"usage":usage}})
}

#[test]
fn a_split_message_is_priced_once_and_shown() {
    // one message over two lines (usage repeated): 1,000 in × $5 +
    // 2,000 out × $25 + 4,000 1h cache writes × $10 = $0.095 (Opus 4.5)
    let usage = json!({"input_tokens":1000,"output_tokens":2000,"cache_creation_input_tokens":4000,
        "cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":4000}});
    let s = session_of(&[
        common::user_line("u1", json!("go")),
        answer("a1", "msg_1", "claude-opus-4-5-20251101", usage.clone()),
        answer("a2", "msg_1", "claude-opus-4-5-20251101", usage),
    ]);
    assert!((s.main.cost.usd - 0.095).abs() < 0.001, "{:?}", s.main.cost);
    assert_eq!(s.main.cost.unpriced, 0);
    let mut st = common::utc_state(s);
    let screen = screen_text(&mut st, 160, 8);
    assert!(screen.contains("$0.10"), "header: {screen}");
    assert!(screen.contains("↓ 2.0k tok · $0.10"), "turn line: {screen}");
}

#[test]
fn an_unknown_model_is_counted_not_priced() {
    let s = session_of(&[
        common::user_line("u1", json!("go")),
        answer(
            "a1",
            "msg_1",
            "claude-future-9",
            json!({"input_tokens":10,"output_tokens":10}),
        ),
    ]);
    assert_eq!(s.main.cost.usd, 0.0);
    assert_eq!(s.main.cost.unpriced, 1);
    assert_eq!(s.main.totals.output_tokens, 10);
    let mut st = common::utc_state(s);
    assert!(screen_text(&mut st, 160, 8).contains("1 unpriced (claude-future-9)"));
}

/// Every real file prices without a panic; say how many hold a model the
/// table does not know.
#[test]
fn the_corpus_prices() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let (mut priced, mut unknown) = (0, 0);
    for f in &files {
        let s = ccv::source::claude::loader::load_with_subagents(f).expect("loads");
        // (its subagents with it, and those not found, see `Session::cost`)
        let (cost, _) = s.cost();
        let (usd, unpriced) = (cost.usd, cost.unpriced);
        assert!(usd.is_finite() && usd >= 0.0, "{}", f.display());
        // the listing's figures are the viewer's own
        let fig = ccv::model::figures::Figures::of(&s, 0);
        assert!((fig.cost.usd - usd).abs() < 1e-6, "{}", f.display());
        assert_eq!(fig.cost.unpriced, unpriced, "{}", f.display());
        assert_eq!(fig.prompts as usize, s.main.turns.len());
        let sliced: f64 = fig.detail.get().slices.iter().map(|x| x.cost.usd).sum();
        assert!((sliced - usd).abs() < 1e-6, "{}", f.display());
        if unpriced > 0 {
            unknown += 1;
        } else if usd > 0.0 {
            priced += 1;
        }
    }
    println!(
        "{} files: {priced} priced, {unknown} with an unknown model",
        files.len()
    );
    assert!(priced > 0);
}

/// Turns whose prompts end parts: each counts under the model that
/// answered it, as read whole, however the file is cut; and an answer
/// written without a time (every third here) is dated by the prompt before
/// it, in the part before its own too.
#[test]
fn a_prompt_that_ends_a_part_counts_under_the_model_that_answers_it() {
    let mut lines = Vec::new();
    let mut parent = json!(null);
    for t in 0..300u32 {
        let at = |s: u32| {
            format!(
                "2025-06-{:02}T{:02}:{:02}:{:02}Z",
                1 + t / 40,
                8 + t % 40 / 4,
                t % 4 * 15,
                s
            )
        };
        lines.push(
            json!({"type": "user", "uuid": format!("u{t}"), "parentUuid": parent, "timestamp": at(0), "sessionId": "s",
                   "isSidechain": false, "message": {"role": "user", "content": format!("step {t}")}})
            .to_string(),
        );
        let model = [
            "claude-sonnet-4-5-20250929",
            "claude-opus-4-5-20251101",
            "claude-haiku-4-5-20251001",
        ][t as usize % 3];
        let mut answer = json!({"type": "assistant", "uuid": format!("a{t}"), "parentUuid": format!("u{t}"), "timestamp": at(30), "sessionId": "s",
               "isSidechain": false,
               "message": {"id": format!("msg_{t}"), "type": "message", "role": "assistant", "model": model,
                           "content": [{"type": "text", "text": "y".repeat(500 + 300 * (t as usize % 7))}],
                           "usage": {"input_tokens": 10 + t, "output_tokens": 20}}});
        if t % 3 == 1
            && let Some(o) = answer.as_object_mut()
        {
            o.remove("timestamp");
        }
        lines.push(answer.to_string());
        parent = json!(format!("a{t}"));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("s.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    let whole = Figures::of(
        &ccv::source::claude::loader::load_with_subagents(&f).expect("loads"),
        0,
    );
    assert_eq!(whole.prompts, 300);
    // (read 64 KB at a time at least: parts end at the last line read)
    for part in [64 << 10, 100 << 10, 150 << 10] {
        let parts = ccv::catalog::list::figures_in_parts(&f, 0, part).expect("reads");
        assert_eq!(parts.prompts, 300);
        common::same_figures_as_whole(&parts, &whole, &format!("parts of {part} bytes"));
    }
}

/// A subagent whose call and result are parts apart in a session priced in
/// parts, with no transcript here, is said missing as a whole read says it
/// (its result names it only once its call is read: each part knew only
/// its own calls, and passed the result over).
#[test]
fn a_subagent_called_parts_before_its_result_is_said_missing() {
    let at = |s: u32| format!("2025-06-01T10:{:02}:{:02}Z", s / 60, s % 60);
    let answer = |n: u32, content: serde_json::Value| {
        json!({"type": "assistant", "uuid": format!("a{n}"), "parentUuid": format!("u{n}"), "timestamp": at(n), "sessionId": "s",
               "isSidechain": false,
               "message": {"id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                           "content": content, "usage": {"input_tokens": 10, "output_tokens": 20}}})
        .to_string()
    };
    let result = |n: u32, call: &str, extra: serde_json::Value| {
        json!({"type": "user", "uuid": format!("u{}", n + 1), "parentUuid": format!("a{n}"), "timestamp": at(n + 1), "sessionId": "s",
               "isSidechain": false,
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": "x".repeat(2000)}]},
               "toolUseResult": extra})
        .to_string()
    };
    let mut lines = vec![
        json!({"type": "user", "uuid": "u0", "parentUuid": null, "timestamp": at(0), "sessionId": "s", "isSidechain": false,
               "message": {"role": "user", "content": "find the bug"}})
        .to_string(),
        answer(0, json!([{"type": "tool_use", "id": "toolu_task", "name": "Task", "input": {"description": "look", "prompt": "look"}}])),
    ];
    // a part's worth of other calls and results while the subagent runs
    for n in (2..80).step_by(2) {
        let call = format!("toolu_{n}");
        lines.push(answer(
            n,
            json!([{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "ls"}}]),
        ));
        lines.push(result(n, &call, json!({"stdout": "src"})));
    }
    // (the result's uuid follows on from the last answer's)
    lines.push(result(
        80,
        "toolu_task",
        json!({"status": "completed", "agentId": "lost1"}),
    ));
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("s.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    let whole = ccv::source::claude::loader::load_with_subagents(&f).expect("loads");
    assert_eq!(whole.agents_not_found().collect::<Vec<_>>(), ["lost1"]);
    let whole = ccv::model::figures::Figures::of(&whole, 0);
    let parts = ccv::catalog::list::figures_in_parts(&f, 0, 16 << 10).expect("reads");
    assert_eq!(whole.cost.unpriced, 1);
    assert_eq!(parts.cost.unpriced, 1, "{parts:?}");
    assert_eq!(parts.agent_cost.unpriced, 1);
    assert_eq!(parts.tokens, whole.tokens);
}
