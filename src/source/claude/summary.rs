//! The one-line description of a tool call: its most telling argument.

use serde::Deserialize;
use std::borrow::Cow;

#[derive(Deserialize, Default)]
struct Args<'a> {
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    file_path: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    notebook_path: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    path: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    command: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    pattern: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    url: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    query: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    description: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    subagent_type: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    prompt: Option<Cow<'a, str>>,
    #[serde(borrow)]
    todos: Option<Vec<Todo<'a>>>,
    #[serde(borrow)]
    questions: Option<Vec<Question<'a>>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    skill: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    subject: Option<Cow<'a, str>>,
    #[serde(
        rename = "taskId",
        borrow,
        default,
        deserialize_with = "super::raw::borrowed"
    )]
    task_id: Option<Cow<'a, str>>,
    /// What a wait for a background task's output (`TaskOutput`) or its
    /// stop names.
    #[serde(
        rename = "task_id",
        borrow,
        default,
        deserialize_with = "super::raw::borrowed"
    )]
    background_task: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    shell_id: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    bash_id: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    plan: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    status: Option<Cow<'a, str>>,
    /// A language server's question (`LSP`): what, of which file, where.
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    operation: Option<Cow<'a, str>>,
    #[serde(
        rename = "filePath",
        borrow,
        default,
        deserialize_with = "super::raw::borrowed"
    )]
    file_path_camel: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "super::use_result::whole_number")]
    line: Option<u64>,
}

#[derive(Deserialize, Default)]
struct Todo<'a> {
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    status: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct Question<'a> {
    #[serde(borrow, default, deserialize_with = "super::raw::borrowed")]
    question: Option<Cow<'a, str>>,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `3 todos · 1 done · 1 in progress`.
fn todo_summary(todos: &[Todo<'_>]) -> String {
    let count = |s: &str| {
        todos
            .iter()
            .filter(|t| t.status.as_deref() == Some(s))
            .count()
    };
    let mut parts = vec![plural(todos.len(), "todo", "todos")];
    let (done, doing) = (count("completed"), count("in_progress"));
    if done > 0 {
        parts.push(format!("{done} done"));
    }
    if doing > 0 {
        parts.push(format!("{doing} in progress"));
    }
    parts.join(" · ")
}

/// The task an update or a read of a task names (`taskId`), and the
/// subject it gives it, if any.
pub fn task_named(input: &str) -> Option<(String, Option<String>)> {
    let a: Args<'_> = serde_json::from_str(input).ok()?;
    let id = a.task_id.filter(|id| !id.is_empty())?;
    Some((id.into_owned(), a.subject.map(Cow::into_owned)))
}

/// `Read src/main.rs` is shown as the tool name plus this string.
pub fn call_summary(tool: &str, input: &str) -> String {
    if tool == "write_stdin"
        && let Some(s) = typed_into(input)
    {
        return s;
    }
    let a: Args<'_> = serde_json::from_str(input).unwrap_or_default();
    let one =
        |s: &Option<Cow<'_, str>>| s.as_deref().map(|s| crate::model::text::first_line(s, 160));
    let s = match tool {
        "Read" | "Write" | "Edit" | "MultiEdit" => one(&a.file_path),
        "NotebookEdit" | "NotebookRead" => one(&a.notebook_path),
        "Bash" => one(&a.command),
        "Grep" => one(&a.pattern).map(|p| match &a.path {
            Some(path) => format!("{p}  in {path}"),
            None => p,
        }),
        "Glob" => one(&a.pattern),
        "LS" => one(&a.path),
        "WebFetch" => one(&a.url),
        "WebSearch" | "web_search" | "ToolSearch" => one(&a.query),
        "Task" | "Agent" => {
            let d = one(&a.description)
                .or_else(|| one(&a.prompt))
                .unwrap_or_default();
            Some(match &a.subagent_type {
                Some(t) => format!("{t} \"{d}\""),
                None => format!("\"{d}\""),
            })
        }
        "TodoWrite" => a.todos.as_deref().map(todo_summary),
        "AskUserQuestion" => a.questions.as_ref().and_then(|q| {
            let first = one(&q.first()?.question)?;
            Some(match q.len() {
                1 => first,
                n => format!("{first} (+{} more)", n - 1),
            })
        }),
        "Skill" => one(&a.skill),
        "BashOutput" | "KillBash" | "KillShell" => one(&a.bash_id).or_else(|| one(&a.shell_id)),
        "ExitPlanMode" => one(&a.plan),
        // `findReferences src/a.go:64`
        "LSP" => one(&a.operation).map(|op| match (one(&a.file_path_camel), a.line) {
            (Some(file), Some(line)) => format!("{op} {file}:{line}"),
            (Some(file), None) => format!("{op} {file}"),
            (None, _) => op,
        }),
        // `#3 completed`: which task, and what became of it
        "TaskUpdate" => one(&a.task_id).map(|id| {
            let what = [
                a.status.as_deref().map(|s| s.replace('_', " ")),
                one(&a.subject),
            ];
            let what: Vec<String> = what.into_iter().flatten().collect();
            if what.is_empty() {
                format!("#{id}")
            } else {
                format!("#{id} {}", what.join(" · "))
            }
        }),
        t if t.starts_with("Task") => one(&a.subject)
            .or_else(|| one(&a.task_id))
            .or_else(|| one(&a.background_task))
            .or_else(|| one(&a.description)),
        _ => None,
    };
    let s = s
        .or_else(|| one(&a.file_path))
        .or_else(|| one(&a.command))
        .or_else(|| one(&a.url))
        .or_else(|| one(&a.query))
        .or_else(|| one(&a.description))
        .or_else(|| one(&a.pattern))
        .or_else(|| one(&a.path))
        .or_else(|| first_argument(input));
    match (mcp_server(tool), s) {
        (Some(server), Some(s)) => format!("{server} · {s}"),
        (Some(server), None) => server.to_owned(),
        (None, s) => s.unwrap_or_default(),
    }
}

pub use crate::model::item::display_name;

/// What Codex's `write_stdin` typed, and into which running process:
/// `"y⏎" → 4242` (the keys that end a line or move on shown as such,
/// other control keys as `^C`). The row names the process's command after
/// it, as a wait's (see `model::call_facts`).
fn typed_into(input: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(input).ok()?;
    let chars = v.get("chars")?.as_str()?;
    let id = match v.get("session_id")? {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let mut keys = String::new();
    for c in chars.chars().take(60) {
        match c {
            '\n' | '\r' => keys.push('⏎'),
            '\t' => keys.push('⇥'),
            c if c.is_control() => crate::model::text::visible_escape(c, &mut keys),
            c => keys.push(c),
        }
    }
    if chars.chars().nth(60).is_some() {
        keys.push('…');
    }
    Some(format!("\"{keys}\" → {id}"))
}

fn mcp_server(tool: &str) -> Option<&str> {
    let (server, _) = tool.strip_prefix("mcp__")?.split_once("__")?;
    Some(server)
}

/// The arguments that name what an unknown tool works on, when it has
/// them: a GitHub issue's `title`, not its `owner` (the first).
const TELLING: [&str; 3] = ["title", "subject", "name"];

/// An unknown tool's telling argument (see [`TELLING`]) or else its first
/// short one, as `key value`.
fn first_argument(input: &str) -> Option<String> {
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(input).ok()?;
    let telling = TELLING.iter().find_map(|&k| {
        let v = map.get(k)?.as_str().filter(|v| !v.trim().is_empty())?;
        Some(format!("{k} {}", crate::model::text::first_line(v, 120)))
    });
    telling.or_else(|| {
        map.iter().find_map(|(k, v)| {
            let v = match v {
                serde_json::Value::String(s) if !s.trim().is_empty() => {
                    crate::model::text::first_line(s, 120)
                }
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some(format!("{k} {v}"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::call_summary;

    #[test]
    fn summaries() {
        assert_eq!(
            call_summary("TaskUpdate", r#"{"taskId":"3","status":"in_progress"}"#),
            "#3 in progress"
        );
        assert_eq!(
            call_summary("TaskUpdate", r#"{"taskId":"3","subject":"Ship it"}"#),
            "#3 Ship it"
        );
        assert_eq!(
            call_summary(
                "TaskCreate",
                r#"{"subject":"Add a test","description":"x"}"#
            ),
            "Add a test"
        );
        assert_eq!(
            call_summary("Read", r#"{"file_path":"/a/b.rs"}"#),
            "/a/b.rs"
        );
        assert_eq!(
            call_summary(
                "Bash",
                r#"{"command":"cargo test\n--all","description":"x"}"#
            ),
            "cargo test"
        );
        assert_eq!(
            call_summary(
                "Task",
                r#"{"description":"review","subagent_type":"general-purpose"}"#
            ),
            "general-purpose \"review\""
        );
        assert_eq!(
            call_summary("mcp__linear-server__get_issue", r#"{"id":"ENT-108"}"#),
            "linear-server · id ENT-108"
        );
        assert_eq!(
            super::display_name("mcp__linear-server__get_issue"),
            "get_issue"
        );
        assert_eq!(super::display_name("Read"), "Read");
        assert_eq!(super::display_name("mcp__odd"), "mcp__odd");
        assert_eq!(
            call_summary("mcp__x__y", r#"{"url":"http://a"}"#),
            "x · http://a"
        );
        assert_eq!(call_summary("Read", "not json"), "");
        assert_eq!(
            call_summary(
                "mcp__github__issue_write",
                r#"{"owner":"me","repo":"app","method":"create","title":"T001: Fix it","body":"…"}"#
            ),
            "github · title T001: Fix it"
        );
        assert_eq!(
            call_summary(
                "mcp__github__list_commits",
                r#"{"owner":"me","repo":"app","name":""}"#
            ),
            "github · owner me"
        );
        assert_eq!(call_summary("TodoWrite", r#"{"todos":[{},{}]}"#), "2 todos");
        assert_eq!(
            call_summary("TodoWrite", r#"{"todos":[{"status":"completed"}]}"#),
            "1 todo · 1 done"
        );
        assert_eq!(
            call_summary(
                "AskUserQuestion",
                r#"{"questions":[{"question":"Which DB?"}]}"#
            ),
            "Which DB?"
        );
    }

    /// What Codex typed into a running command, keys told apart; an input
    /// of other shapes summed up as any tool's.
    #[test]
    fn a_typing_says_its_keys_and_process() {
        let typed = |chars: &str, id: &str| {
            let input = format!(
                r#"{{"session_id":{id},"chars":{}}}"#,
                serde_json::json!(chars)
            );
            call_summary("write_stdin", &input)
        };
        assert_eq!(typed("y\n", "4242"), "\"y⏎\" → 4242");
        assert_eq!(typed("a\tb\r", "\"7\""), "\"a⇥b⏎\" → 7");
        assert_eq!(typed("\u{1b}[A\u{7f}\u{4}", "1"), "\"^[[A^?^D\" → 1");
        let long = typed(&"x".repeat(61), "1");
        assert!(
            long.starts_with(&format!("\"{}…\"", "x".repeat(60))),
            "{long}"
        );
        assert_eq!(
            call_summary("write_stdin", r#"{"session_id":[1],"chars":"y"}"#),
            "chars y"
        );
    }
}
