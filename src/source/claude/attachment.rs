//! Attachment lines (2.1.156 on): what Claude Code attached to the
//! conversation around a turn.
//!
//! Most of them are the harness re-sending its own state (tool and skill
//! listings, reminders, the environment): bookkeeping, hidden and counted.
//! The rest carry something a reader wants (hook output, diagnostics, a file
//! Claude was shown, a plan accepted) and become rows. A kind this build does
//! not know is shown with its text fields rather than dropped: Claude Code
//! adds kinds every month, and a reader loses less by seeing one than by
//! missing it.

use serde_json::{Map, Value};
use std::fmt::Write;

/// How much of an attachment's text a row keeps.
const TEXT_MAX: usize = 64 * 1024;

/// Kinds that only restate the harness's state: hidden, counted.
const BOOKKEEPING: &[&str] = &[
    "task_reminder",
    "todo_reminder",
    "deferred_tools_delta",
    "deferred_tools_record",
    "skill_listing",
    "agent_listing_delta",
    "command_permissions",
    "auto_mode",
    "auto_mode_exit",
    "environment",
    "session_context",
    "silent_turn_reminder",
    "output_style_instructions",
    "instructions",
    "model",
    "date",
    "prompt_snapshot",
    "remote_session_change",
    "batching_reminder_sent",
    "bash_output_audience_note",
    "critical_system_reminder",
    "plan_mode",
    "plan_mode_reentry",
    "nested_memory",
    "dynamic_skill",
    "goal_status",
    "read_truncation_notice",
    "tools_changed",
    "system_changed",
    "max_turns_reached",
];

/// What an attachment line becomes.
#[derive(Debug, PartialEq)]
pub enum Shown {
    /// Bookkeeping: hidden, counted under this reason.
    Hidden(&'static str),
    /// A row: its text (first line a headline), and whether it reports a
    /// failure (then it is shown whatever the meta filter says).
    Row { text: String, error: bool },
}

/// `kind`: `attachment.type`; `raw`: the whole `attachment` object.
pub fn describe(kind: &str, raw: &str) -> Shown {
    if BOOKKEEPING.contains(&kind) {
        return Shown::Hidden("attachment");
    }
    let Ok(Value::Object(a)) = serde_json::from_str::<Value>(raw) else {
        return Shown::Hidden("attachment");
    };
    let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("");
    let text = match kind {
        k if k.starts_with("hook_") => return hook(k, &a),
        "diagnostics" => diagnostics(&a),
        "file" | "already_read_file" => file(&a),
        "edited_text_file" | "edited_image_file" => {
            format!(
                "File changed outside Claude: {}\n{}",
                s("filename"),
                s("snippet")
            )
        }
        "compact_file_reference" => format!("File kept after compaction: {}", s("filename")),
        "date_change" => format!("Date changed: {}", s("newDate")),
        "plan_mode_exit" => {
            let mut t = "Plan accepted, plan mode left".to_owned();
            if !s("planFilePath").is_empty() {
                let _ = write!(t, " · plan in {}", s("planFilePath"));
            }
            t
        }
        "task_status" => {
            let mut t = format!("Task {}", first(&a, &["taskId", "task_id"]));
            for k in ["status", "description", "summary", "deltaSummary"] {
                if !s(k).is_empty() {
                    let _ = write!(t, " · {}", s(k));
                }
            }
            t
        }
        "invoked_skills" => {
            let names: Vec<&str> = a
                .get("skills")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("name").and_then(Value::as_str))
                .collect();
            format!("Skills in use: {}", names.join(", "))
        }
        "queued_command" if text_of(a.get("prompt")).trim().is_empty() => {
            return Shown::Hidden("attachment");
        }
        "queued_command" => {
            let mode = s("commandMode");
            let mode = if mode.is_empty() { "command" } else { mode };
            format!("Queued {mode}\n{}", text_of(a.get("prompt")))
        }
        _ => generic(kind, &a),
    };
    if text.trim().is_empty() {
        return Shown::Hidden("attachment");
    }
    Shown::Row {
        text: cap(text),
        error: false,
    }
}

/// Hook runs. One that printed nothing is bookkeeping; one that failed is
/// shown whatever the filter, like any other error.
fn hook(kind: &str, a: &Map<String, Value>) -> Shown {
    let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("");
    let event = if s("hookEvent").is_empty() {
        s("hookName")
    } else {
        s("hookEvent")
    };
    let error = matches!(
        kind,
        "hook_blocking_error" | "hook_non_blocking_error" | "hook_error_during_execution"
    );
    let what = match kind {
        "hook_success" => "Hook",
        "hook_system_message" => "Hook message",
        "hook_additional_context" => "Hook added context",
        "hook_blocking_error" => "Hook blocked",
        "hook_non_blocking_error" | "hook_error_during_execution" => "Hook failed",
        "hook_cancelled" => "Hook cancelled",
        "hook_stopped_continuation" => "Hook stopped Claude",
        "hook_permission_decision" => "Hook decided",
        _ => "Hook",
    };
    let mut body = String::new();
    for v in [
        a.get("content"),
        a.get("message"),
        a.get("blockingError")
            .and_then(|b| b.get("blockingError").or(Some(b))),
        a.get("decision"),
        a.get("stdout"),
        a.get("stderr"),
    ]
    .into_iter()
    .flatten()
    {
        let t = text_of(Some(v));
        if !t.trim().is_empty() {
            if !body.is_empty() {
                body.push('\n');
            }
            body.push_str(t.trim_end());
        }
    }
    if body.is_empty() && !error && kind != "hook_cancelled" {
        return Shown::Hidden("hook without output");
    }
    let mut head = format!("{what} {event}");
    if !s("hookName").is_empty() && s("hookName") != event {
        let _ = write!(head, " ({})", s("hookName"));
    }
    if let Some(code) = a.get("exitCode").and_then(Value::as_i64) {
        let _ = write!(head, " · exit {code}");
    }
    if let Some(ms) = a.get("durationMs").and_then(Value::as_f64) {
        let _ = write!(
            head,
            " · {}",
            crate::model::time::human_duration(ms.max(0.0) as u64)
        );
    }
    if !s("command").is_empty() {
        let _ = write!(head, "\n$ {}", s("command"));
    }
    if !body.is_empty() {
        head.push('\n');
        head.push_str(&body);
    }
    Shown::Row {
        text: cap(head),
        error,
    }
}

fn diagnostics(a: &Map<String, Value>) -> String {
    let files = a.get("files").and_then(Value::as_array);
    let mut out = String::new();
    let mut count = 0;
    for f in files.into_iter().flatten() {
        let path = first(
            f.as_object().unwrap_or(&Map::new()),
            &["uri", "filePath", "path"],
        );
        let path = path.strip_prefix("file://").unwrap_or(&path).to_owned();
        match f.get("diagnostics") {
            Some(Value::Array(ds)) => {
                for d in ds {
                    count += 1;
                    let at = d
                        .pointer("/range/start/line")
                        .and_then(Value::as_u64)
                        .map(|l| format!(":{}", l + 1))
                        .unwrap_or_default();
                    let sev = d.get("severity").and_then(Value::as_str).unwrap_or("");
                    let msg = d.get("message").and_then(Value::as_str).unwrap_or("");
                    let src = d.get("source").and_then(Value::as_str).unwrap_or("");
                    let _ = write!(out, "\n{path}{at} {sev} {msg}");
                    if !src.is_empty() {
                        let _ = write!(out, " ({src})");
                    }
                }
            }
            Some(other) => {
                count += 1;
                let _ = write!(out, "\n{path} {}", text_of(Some(other)));
            }
            None => {}
        }
    }
    if count == 0 {
        return String::new();
    }
    let n = files.map_or(0, Vec::len);
    format!(
        "Diagnostics · {count} in {n} file{}{out}",
        if n == 1 { "" } else { "s" }
    )
}

fn file(a: &Map<String, Value>) -> String {
    let name = first(a, &["displayPath", "filename", "path"]);
    let content = a.get("content");
    let inner = content.and_then(|c| c.get("file"));
    let body = match inner {
        Some(f) => text_of(f.get("content")),
        None => text_of(content),
    };
    let mut head = format!("File shown to Claude: {name}");
    if let Some(n) = inner
        .and_then(|f| f.get("numLines").or(f.get("totalLines")))
        .and_then(Value::as_u64)
    {
        let _ = write!(head, " · {n} line{}", if n == 1 { "" } else { "s" });
    }
    if body.trim().is_empty() {
        head
    } else {
        format!("{head}\n{body}")
    }
}

/// A kind this build does not know: its name, then its text fields.
fn generic(kind: &str, a: &Map<String, Value>) -> String {
    let mut out = String::new();
    for (k, v) in a {
        if k == "type" || k.ends_with("ID") || k.ends_with("Id") || k.ends_with("Uuid") {
            continue;
        }
        let t = text_of(Some(v));
        if t.trim().is_empty() {
            continue;
        }
        if t.contains('\n') || t.len() > 80 {
            let _ = write!(out, "\n{k}:\n{t}");
        } else {
            let _ = write!(out, "\n{k}: {t}");
        }
    }
    if out.is_empty() {
        return String::new();
    }
    format!("Attachment {kind}{out}")
}

/// The text of a value: a string as is, a list of strings one per line,
/// anything else as compact JSON.
fn text_of(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(xs)) if xs.iter().all(Value::is_string) => xs
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Array(xs)) if xs.is_empty() => String::new(),
        Some(Value::Object(m)) if m.is_empty() => String::new(),
        Some(Value::Bool(_)) => String::new(),
        Some(v) => v.to_string(),
    }
}

fn first(a: &Map<String, Value>, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|k| a.get(*k).and_then(Value::as_str).filter(|s| !s.is_empty()))
        .unwrap_or("")
        .to_owned()
}

fn cap(s: String) -> String {
    if s.len() <= TEXT_MAX {
        s
    } else {
        crate::model::text::truncate(&s, TEXT_MAX).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(kind: &str, raw: &str) -> String {
        match describe(kind, raw) {
            Shown::Row { text, .. } => text,
            Shown::Hidden(why) => panic!("hidden ({why})"),
        }
    }

    #[test]
    fn listings_are_bookkeeping() {
        assert_eq!(
            describe("skill_listing", r#"{"type":"skill_listing","content":"x"}"#),
            Shown::Hidden("attachment")
        );
    }

    #[test]
    fn hook_output_is_shown_and_silent_hooks_are_not() {
        let t = row(
            "hook_success",
            r#"{"type":"hook_success","hookName":"SessionStart:startup","hookEvent":"SessionStart","stdout":"loaded 3 notes","stderr":"","exitCode":0,"command":"notes.sh","durationMs":12}"#,
        );
        assert!(
            t.starts_with("Hook SessionStart (SessionStart:startup) · exit 0"),
            "{t}"
        );
        assert!(
            t.contains("$ notes.sh") && t.contains("loaded 3 notes"),
            "{t}"
        );
        assert_eq!(
            describe(
                "hook_success",
                r#"{"hookName":"Stop","hookEvent":"Stop","stdout":"","stderr":"","exitCode":0}"#
            ),
            Shown::Hidden("hook without output")
        );
    }

    #[test]
    fn hook_failures_are_errors() {
        match describe(
            "hook_blocking_error",
            r#"{"hookName":"Stop","hookEvent":"Stop","blockingError":{"blockingError":"Run the tests first.","command":"check.sh"}}"#,
        ) {
            Shown::Row { text, error } => {
                assert!(error);
                assert!(text.contains("Run the tests first."), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn diagnostics_list_each_problem() {
        let t = row(
            "diagnostics",
            r#"{"files":[{"uri":"file:///src/a.rs","diagnostics":[{"message":"unused variable","severity":"Warning","source":"rustc","range":{"start":{"line":41,"character":8}}}]}]}"#,
        );
        assert!(t.starts_with("Diagnostics · 1 in 1 file"), "{t}");
        assert!(
            t.contains("/src/a.rs:42 Warning unused variable (rustc)"),
            "{t}"
        );
    }

    #[test]
    fn unknown_kinds_show_their_text() {
        let t = row(
            "brand_new_kind",
            r#"{"type":"brand_new_kind","toolUseID":"x","note":"something said"}"#,
        );
        assert_eq!(t, "Attachment brand_new_kind\nnote: something said");
        assert_eq!(
            describe("brand_new_kind", r#"{"type":"brand_new_kind","flag":true}"#),
            Shown::Hidden("attachment")
        );
    }

    #[test]
    fn a_file_shows_its_name_and_text() {
        let t = row(
            "file",
            r#"{"filename":"/r/a.txt","content":{"type":"text","file":{"filePath":"/r/a.txt","content":"hello","numLines":1}}}"#,
        );
        assert_eq!(t, "File shown to Claude: /r/a.txt · 1 line\nhello");
    }
}
