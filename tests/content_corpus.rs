//! Every text block and patch of the real sample sessions renders safely
//! and within the width.

use ccv::model::text::is_unsafe_char;
use ccv::source::claude::raw::Hunk;
use ccv::view::content::{ansi, diff, markdown, read_result, spans_width};
use ratatui::text::Line;
use serde_json::Value;

fn check(lines: &[Line<'_>], width: usize) {
    for l in lines {
        assert!(spans_width(&l.spans) <= width, "{l:?}");
        for s in &l.spans {
            assert!(
                !s.content
                    .chars()
                    .any(|c| is_unsafe_char(c) || c.is_control()),
                "{s:?}"
            );
        }
    }
}

/// Enough blocks to meet every shape, few enough for a debug build.
const LIMIT: usize = 600;

fn walk(v: &Value, n: &mut usize) {
    if *n >= LIMIT {
        return;
    }
    match v {
        Value::Object(m) => {
            if let (Some(Value::String(t)), Some(Value::String(kind))) =
                (m.get("text"), m.get("type"))
                && kind == "text"
            {
                check(&markdown(t, 80), 80);
                *n += 1;
            }
            if let Some(Value::String(c)) = m.get("content") {
                check(&ansi(c, 80, false), 80);
                if c.trim_start()
                    .split_once('→')
                    .is_some_and(|(n, _)| n.parse::<u64>().is_ok())
                {
                    check(&read_result(c, "x.rs", 80), 80);
                }
                *n += 1;
            }
            if let Some(p) = m.get("structuredPatch")
                && let Ok(hunks) = serde_json::from_value::<Vec<Hunk>>(p.clone())
            {
                check(&diff(&hunks, "a.ts", 80), 80);
                *n += 1;
            }
            m.values().for_each(|v| walk(v, n));
        }
        Value::Array(a) => a.iter().for_each(|v| walk(v, n)),
        _ => {}
    }
}

#[test]
fn corpus_renders_safely() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("skipping: no corpus at {dir}");
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "jsonl") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for line in text.lines() {
                if let Ok(v) = serde_json::from_str::<Value>(line) {
                    walk(&v, &mut n);
                }
            }
        }
    }
    eprintln!("rendered {n} blocks");
}
