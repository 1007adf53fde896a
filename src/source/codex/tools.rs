//! Codex's tool calls and outputs in the shapes ccv shows calls by: its
//! three shell tools (`shell` with an argv, `shell_command`, then
//! `exec_command`) as `Bash` with a command line, a `write_stdin` that
//! waits on or stops a running command as `BashOutput` or `KillShell` (one
//! that types into it keeps its name),
//! `update_plan` as a to-do list, a patch of one file as an edit (or, one
//! that only adds it, a write); the rest under their own names with their
//! arguments.

use super::shell_line::{command_line, unwrapped};
use serde_json::{Map, Value, json};

/// A call's name and input, as ccv shows them.
pub fn call(p: &Map<String, Value>) -> (String, Value) {
    let name = p.get("name").and_then(Value::as_str).unwrap_or("tool");
    // `arguments` is JSON in a string; `input` is a custom tool's text
    let args: Value = match (p.get("arguments"), p.get("input"), p.get("action")) {
        (Some(Value::String(s)), _, _) => {
            serde_json::from_str(s).unwrap_or_else(|_| json!({ "arguments": s }))
        }
        (Some(v), _, _) => v.clone(),
        (None, Some(Value::String(s)), _) => json!({ "input": s }),
        (None, Some(v), _) => v.clone(),
        (None, None, Some(a)) => a.clone(),
        _ => json!({}),
    };
    let field = |k: &str| args.get(k).cloned();
    let shell = |command: String| {
        let mut input = json!({ "command": command });
        if let Some(w) = field("workdir").filter(|w| !w.is_null()) {
            input["workdir"] = w;
        }
        ("Bash".to_owned(), input)
    };
    let local_shell = p.get("type").and_then(Value::as_str) == Some("local_shell_call");
    match name {
        _ if local_shell => match field("command") {
            Some(Value::Array(argv)) => shell(command_line(&argv)),
            _ => ("local_shell".to_owned(), args),
        },
        "shell" | "container.exec" => match field("command") {
            Some(Value::Array(argv)) => shell(command_line(&argv)),
            Some(Value::String(s)) => shell(unwrapped(&s)),
            _ => (name.to_owned(), args),
        },
        "shell_command" => match field("command") {
            Some(Value::String(s)) => shell(unwrapped(&s)),
            _ => (name.to_owned(), args),
        },
        "exec_command" => match field("cmd") {
            Some(Value::String(s)) => shell(unwrapped(&s)),
            _ => (name.to_owned(), args),
        },
        // a wait for more of a running command's output (nothing typed):
        // as Claude Code's wait for a background command's
        // (and one that types Ctrl-C: a stop of that command)
        "write_stdin" => match (field("session_id"), field("chars")) {
            (Some(id), c) if c.as_ref().is_none_or(|c| c.is_null() || c == "") => {
                about_process("BashOutput", id, args)
            }
            (Some(id), Some(c)) if c == "\u{3}" => about_process("KillShell", id, args),
            _ => (name.to_owned(), args),
        },
        "update_plan" => {
            let todos: Vec<Value> = args
                .get("plan")
                .and_then(Value::as_array)
                .map(|steps| {
                    steps
                        .iter()
                        .map(|s| {
                            let step = s.get("step").and_then(Value::as_str).unwrap_or("");
                            json!({
                                "content": step,
                                "status": s.get("status").cloned().unwrap_or(json!("pending")),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            ("TodoWrite".to_owned(), json!({ "todos": todos }))
        }
        "apply_patch" => {
            let patch = match &args {
                Value::Object(o) => o
                    .get("input")
                    .or_else(|| o.get("patch"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                Value::String(s) => Some(s.clone()),
                _ => None,
            };
            let edit = patch.as_deref().and_then(|p| {
                let edit = one_file_edit(p).map(|e| ("Edit", e));
                edit.or_else(|| one_new_file(p).map(|w| ("Write", w)))
            });
            match edit {
                Some((tool, input)) => (tool.to_owned(), input),
                None => (
                    name.to_owned(),
                    patch.map_or(args, |p| json!({ "patch": p })),
                ),
            }
        }
        // a sub-agent (0.118 and later): its own rollout, linked by the id
        // its output gives (see [`spawned_agent`])
        "spawn_agent" => {
            let message = field("message")
                .and_then(|m| m.as_str().map(str::to_owned))
                .unwrap_or_default();
            let description: String = message
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .chars()
                .take(80)
                .collect();
            let mut input = json!({ "description": description, "prompt": message });
            if let Some(t) = field("agent_type").filter(|t| t.is_string()) {
                input["subagent_type"] = t;
            }
            ("Agent".to_owned(), input)
        }
        _ => (name.to_owned(), args),
    }
}

/// A `write_stdin` as Claude Code's call on a background command
/// (`BashOutput`, `KillShell`) of the process its session runs.
fn about_process(tool: &str, session: Value, args: Value) -> (String, Value) {
    let id = match session {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s,
        _ => return ("write_stdin".to_owned(), args),
    };
    let key = if tool == "KillShell" {
        "shell_id"
    } else {
        "bash_id"
    };
    (tool.to_owned(), json!({ key: id }))
}

/// The thread a `spawn_agent` output names (`{"agent_id": …}`): the id of
/// the sub-agent's own rollout.
pub fn spawned_agent(o: Option<&Value>) -> Option<String> {
    let s = o?.as_str()?.trim();
    if !s.starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(s).ok()?;
    let id = v.get("agent_id")?.as_str()?;
    crate::source::is_resumable_id(id).then(|| id.to_owned())
}

/// A patch (`*** Begin Patch` / `*** Update File: x` / `@@` hunks) that
/// changes one existing file, as an edit of it (old text, new text); a
/// patch that adds, deletes, moves or touches several files is not one.
fn one_file_edit(patch: &str) -> Option<Value> {
    let mut path = None;
    let (mut old, mut new) = (String::new(), String::new());
    for line in patch.lines() {
        if let Some(p) = line.strip_prefix("*** Update File: ") {
            if path.is_some() {
                return None;
            }
            path = Some(p.trim().to_owned());
        } else if line.starts_with("*** Add File")
            || line.starts_with("*** Delete File")
            || line.starts_with("*** Move to")
        {
            return None;
        } else if line.starts_with("***") || line.starts_with("@@") {
            if line.starts_with("@@") && !old.is_empty() {
                // hunks apart: the lines between them are not in the edit
                old.push_str("...\n");
                new.push_str("...\n");
            }
        } else if let Some(l) = line.strip_prefix('-') {
            old.push_str(l);
            old.push('\n');
        } else if let Some(l) = line.strip_prefix('+') {
            new.push_str(l);
            new.push('\n');
        } else {
            let l = line.strip_prefix(' ').unwrap_or(line);
            old.push_str(l);
            old.push('\n');
            new.push_str(l);
            new.push('\n');
        }
    }
    Some(json!({ "file_path": path?, "old_string": old, "new_string": new }))
}

/// A patch that adds one file and does nothing else, as a write of it
/// (the row names the file, its content shows as a file's).
fn one_new_file(patch: &str) -> Option<Value> {
    let mut path = None;
    let mut content = String::new();
    for line in patch.lines() {
        if let Some(p) = line.strip_prefix("*** Add File: ") {
            if path.is_some() {
                return None;
            }
            path = Some(p.trim().to_owned());
        } else if let Some(l) = line.strip_prefix('+') {
            path.as_ref()?;
            content.push_str(l);
            content.push('\n');
        } else if !matches!(
            line,
            "*** Begin Patch" | "*** End Patch" | "*** End of File"
        ) {
            return None;
        }
    }
    Some(json!({ "file_path": path.filter(|p| !p.is_empty())?, "content": content }))
}

/// An output as a tool result reads it.
#[derive(Debug, PartialEq)]
pub struct Output<'a> {
    pub content: Value,
    pub failed: bool,
    /// The exit code of a command that failed (its row says `exit 1`).
    pub code: Option<i64>,
    /// The session of a command still running when its output was
    /// written (`Process running with session ID 77670`).
    pub running: Option<&'a str>,
}

pub fn output(o: Option<&Value>) -> Output<'_> {
    let mut out = output_of(o);
    out.code = out.code.filter(|&c| c != 0);
    out
}

fn output_of(o: Option<&Value>) -> Output<'_> {
    let plain = |content: Value, failed: bool| Output {
        content,
        failed,
        code: None,
        running: None,
    };
    match o {
        Some(Value::String(s)) => {
            // `shell` (0.34-0.58) and custom tools: {"output", "metadata"}
            if s.starts_with('{')
                && let Ok(Value::Object(m)) = serde_json::from_str::<Value>(s)
                && let Some(out) = m.get("output").and_then(Value::as_str)
            {
                let code = m
                    .get("metadata")
                    .and_then(|md| md.get("exit_code"))
                    .and_then(Value::as_i64);
                return Output {
                    code,
                    ..plain(json!(out), code.is_some_and(|c| c != 0))
                };
            }
            // `shell_command`, `exec_command`: a header, then `Output:`
            let Some(h) = header(s) else {
                return plain(json!(s), false);
            };
            let text = match (h.body, h.total_lines) {
                (Some(body), Some(n)) => format!("Total output lines: {n}\n\n{body}"),
                (Some(body), None) => body.to_owned(),
                // a header not all of whose lines are known: kept whole
                (None, _) => s.clone(),
            };
            Output {
                code: h.code,
                running: h.running,
                ..plain(json!(text), h.code.is_some_and(|c| c != 0))
            }
        }
        // a list of content items (text and images)
        Some(Value::Array(items)) => {
            let mut blocks: Vec<Value> = items
                .iter()
                .filter_map(|i| {
                    let t = i.get("text").and_then(Value::as_str)?;
                    Some(json!({"type": "text", "text": t}))
                })
                .collect();
            blocks.extend(images(Some(&Value::Array(items.clone()))));
            plain(Value::Array(blocks), false)
        }
        Some(Value::Object(m)) => {
            let text = m
                .get("content")
                .or_else(|| m.get("output"))
                .and_then(Value::as_str)
                .map_or_else(|| Value::Object(m.clone()).to_string(), str::to_owned);
            let failed = m.get("success").and_then(Value::as_bool) == Some(false);
            plain(json!(text), failed)
        }
        Some(v) if !v.is_null() => plain(json!(v.to_string()), false),
        _ => plain(json!(""), false),
    }
}

/// A command's output as Codex heads it: what its header says, and what
/// the command printed.
#[derive(Debug, PartialEq)]
struct Header<'a> {
    code: Option<i64>,
    /// The session of a process still running.
    running: Option<&'a str>,
    /// Codex gave the model part of a longer output.
    total_lines: Option<&'a str>,
    /// What the command printed: `None` unless every line before
    /// `Output:` is one of the header's (else the output is kept whole).
    body: Option<&'a str>,
}

/// Lines Codex's header may hold.
const KEYS: [&str; 7] = [
    "Exit code: ",
    "Wall time: ",
    "Chunk ID: ",
    "Process exited with code ",
    "Process running with session ID ",
    "Original token count: ",
    "Total output lines: ",
];

/// The header Codex puts before a command's output (`Exit code: 0`,
/// `Wall time: 0.1 seconds`, `Chunk ID: …`, `Process exited with code 1`,
/// `Process running with session ID 7`, `Original token count: 15`, a
/// `Command: …` of one or more lines, then `Output:`), read off so the
/// body is what the command printed, as a Claude Code command's is.
/// `None` for an output that does not open with one: what it prints is
/// never read as its header.
fn header(s: &str) -> Option<Header<'_>> {
    if !s.starts_with("Command: ") && !KEYS.iter().any(|k| s.starts_with(k)) {
        return None;
    }
    let (head, body) = match s.find("\nOutput:") {
        Some(at) => {
            let rest = &s[at + "\nOutput:".len()..];
            let body = rest
                .strip_prefix("\r\n")
                .or_else(|| rest.strip_prefix('\n'))
                .or_else(|| rest.is_empty().then_some(""));
            (&s[..at], body)
        }
        None => (s, None),
    };
    let mut lines = head.lines().peekable();
    // a command's line may run over several lines: up to the next key
    if lines.next_if(|l| l.starts_with("Command: ")).is_some() {
        while lines
            .next_if(|l| !KEYS.iter().any(|k| l.starts_with(k)))
            .is_some()
        {}
    }
    let mut h = Header {
        code: None,
        running: None,
        total_lines: None,
        body,
    };
    let (mut known, mut all_known) = (false, true);
    for line in lines {
        let Some(key) = KEYS.iter().find(|k| line.starts_with(**k)) else {
            all_known = false;
            continue;
        };
        let value = line[key.len()..].trim();
        match *key {
            "Exit code: " | "Process exited with code " => match value.parse() {
                Ok(code) => h.code = Some(code),
                Err(_) => all_known = false,
            },
            "Process running with session ID " => {
                h.running = Some(value)
                    .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()));
            }
            "Total output lines: " => h.total_lines = Some(value),
            _ => {}
        }
        known = true;
    }
    if !(known && all_known) {
        h.body = None;
    }
    Some(h)
}

/// `input_image` parts (data URLs) as image blocks.
pub fn images(content: Option<&Value>) -> Vec<Value> {
    let Some(Value::Array(parts)) = content else {
        return Vec::new();
    };
    parts
        .iter()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("input_image"))
        .filter_map(|p| {
            let url = p.get("image_url").and_then(Value::as_str)?;
            let (head, data) = url.strip_prefix("data:")?.split_once(',')?;
            let media = head.strip_suffix(";base64")?;
            Some(json!({"type": "image", "source": {"type": "base64", "media_type": media, "data": data}}))
        })
        .collect()
}

/// A web search's input: its query (or the page it opened).
pub fn web_search(p: &Map<String, Value>) -> Value {
    let Some(a) = p.get("action") else {
        return json!({});
    };
    if let Some(q) = a.get("query").and_then(Value::as_str) {
        return json!({ "query": q });
    }
    if let Some(qs) = a.get("queries").and_then(Value::as_array) {
        let q: Vec<&str> = qs.iter().filter_map(Value::as_str).collect();
        return json!({ "query": q.join(" | ") });
    }
    if let Some(u) = a.get("url").and_then(Value::as_str) {
        return json!({ "url": u });
    }
    a.clone()
}

/// A command the user ran in Codex's shell (`!cmd`): its line and output.
pub fn user_shell(p: &Map<String, Value>) -> (String, String) {
    let command = match p.get("command") {
        Some(Value::Array(argv)) => command_line(argv),
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let output = ["aggregated_output", "formatted_output", "stdout"]
        .iter()
        .find_map(|k| p.get(*k).and_then(Value::as_str))
        .unwrap_or("")
        .to_owned();
    (command, output)
}

/// What a review found, as text.
pub fn review_text(out: Option<&Value>) -> String {
    let Some(o) = out else {
        return "Review finished".to_owned();
    };
    let mut text = String::from("Review finished");
    if let Some(c) = o.get("overall_correctness").and_then(Value::as_str) {
        text.push_str(&format!(": {c}"));
    }
    if let Some(e) = o.get("overall_explanation").and_then(Value::as_str) {
        text.push_str(&format!("\n{e}"));
    }
    for f in o
        .get("findings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let title = f.get("title").and_then(Value::as_str).unwrap_or("finding");
        text.push_str(&format!("\n- {title}"));
        if let Some(b) = f.get("body").and_then(Value::as_str) {
            text.push_str(&format!(": {b}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an output reads as: its content, failed, the code of a failure.
    fn out(s: &str) -> (Value, bool, Option<i64>) {
        let v = json!(s);
        let o = output(Some(&v));
        (o.content, o.failed, o.code)
    }

    /// The running process an output names.
    fn running(s: &str) -> Option<String> {
        output(Some(&json!(s))).running.map(str::to_owned)
    }

    #[test]
    fn a_command_output_loses_its_header() {
        // exec_command
        assert_eq!(
            out(
                "Chunk ID: 5c4364\nWall time: 0.3357 seconds\nProcess exited with code 2\nOriginal token count: 15\nOutput:\nnot found\n"
            ),
            (json!("not found\n"), true, Some(2))
        );
        // shell_command, cut short by Codex
        assert_eq!(
            out("Exit code: 0\nWall time: 0.8 seconds\nTotal output lines: 24144\nOutput:\na\nb"),
            (json!("Total output lines: 24144\n\na\nb"), false, None)
        );
        // a command of several lines, still running, nothing printed yet
        assert_eq!(
            out(
                "Command: /bin/zsh -lc 'python - <<PY\nprint(1)\nPY'\nChunk ID: 958b31\nWall time: 1.0016 seconds\nProcess running with session ID 67141\nOriginal token count: 0\nOutput:\n"
            ),
            (json!(""), false, None)
        );
        assert_eq!(
            out("Exit code: 1\r\nWall time: 0 seconds\r\nOutput:\r\nno"),
            (json!("no"), true, Some(1))
        );
    }

    #[test]
    fn only_a_header_is_read_as_one() {
        // what a command printed is not its exit status
        let printed = "make: leaving\nProcess exited with code 3\n";
        assert_eq!(out(printed), (json!(printed), false, None));
        assert_eq!(running("log: Process running with session ID 9"), None);
        // a header with a line of a later Codex: its status read, its text whole
        let later = "Chunk ID: 1\nProcess exited with code 2\nSandbox: on\nOutput:\nx";
        assert_eq!(out(later), (json!(later), true, Some(2)));
        assert_eq!(
            running("Chunk ID: 1\nProcess running with session ID 77670\nOutput:\n").as_deref(),
            Some("77670")
        );
        assert_eq!(
            running("Chunk ID: 1\nProcess running with session ID x\nOutput:\n"),
            None
        );
    }

    #[test]
    fn an_output_that_only_looks_headed_is_kept_whole() {
        for s in [
            "Output:\nx",
            "hello\nOutput:\nx",
            "Exit code: 0\nsomething else\nOutput:\nx",
            "Exit code: zero\nOutput:\nx",
            "Exit code: 0\nOutput: inline",
            "Command: ls\nOutput:\nx",
            "Wall time: 1 s\nno output line",
        ] {
            assert_eq!(header(s).and_then(|h| h.body), None, "{s:?}");
            assert_eq!(out(s).0, json!(s), "{s:?}");
        }
    }
}
