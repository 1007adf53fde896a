//! A Codex line as the entries ccv's session reads: each line of the file
//! becomes zero or more of them, in order, chained one after another
//! (Codex files have no tree), carrying the line's time, the session's id,
//! directory, branch and version.
//!
//! Codex writes most things twice: the model's items (`response_item`)
//! and a copy for its UI (`event_msg`). The items are read; the copies
//! only where no item follows them (an answer cut off by an abort).

use super::parse::parse;
use super::tools;
use crate::model::session::{Translate, Translated};
use serde_json::{Map, Value, json};
use std::collections::{HashSet, VecDeque};

#[derive(Default)]
pub struct Translator {
    session_id: Option<String>,
    cwd: Option<String>,
    version: Option<String>,
    branch: Option<String>,
    model: Option<String>,
    /// The requests are served at the priority ("fast") tier.
    fast: bool,
    /// The newest line's time: lines without one take it.
    time: Option<String>,
    /// The last entry made: the next one's parent.
    parent: Option<String>,
    /// Entries made, for their uuids.
    made: u64,
    /// Answers the UI was told of that no item has carried yet.
    pending: VecDeque<(String, Option<String>)>,
    /// The session's running token total at the last count.
    total: Option<[u64; 3]>,
    /// `session_meta` lines seen (a second one is a fork's copy).
    metas: u32,
    /// Calls made, by `call_id`.
    calls: HashSet<String>,
    /// `exec_command` calls, by `call_id`: one whose output says its
    /// process runs on started that process (a `write_stdin` names it).
    starts: HashSet<String>,
    /// A review under way: its call's id and the time it began.
    review: Option<(String, Option<i64>)>,
}

impl Translate for Translator {
    fn translate(&mut self, line: &[u8]) -> Translated {
        self.translate_read(line, parse(line))
    }

    fn read_ahead(&self) -> Option<crate::model::session::ReadAhead> {
        Some(parse)
    }

    fn translate_read(&mut self, _line: &[u8], read: Value) -> Translated {
        let Value::Object(o) = read else {
            return Translated::Raw;
        };
        if let Some(t) = o.get("timestamp").and_then(Value::as_str) {
            self.time = Some(t.to_owned());
        }
        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
        let out = match (kind, o.get("payload")) {
            (_, Some(Value::Object(p))) => self.enveloped(kind, p),
            (_, Some(_)) => Err("codex: a line without its payload"),
            ("", _) if o.contains_key("record_type") => Err("codex: state"),
            ("", _) if o.contains_key("instructions") => {
                self.legacy_header(&o);
                Err("codex: session header")
            }
            // the older layout: bare response items
            _ => self.item(&o),
        };
        match out {
            Ok(lines) if lines.is_empty() => Translated::Hidden("codex: nothing to show"),
            Ok(lines) => Translated::Lines(lines.iter().map(line_of).collect()),
            Err(why) => Translated::Hidden(why),
        }
    }

    fn finish(&mut self) -> Vec<String> {
        // lines read apart from their file (a search's hits) hold no turn
        // to end: an answer told the UI is shown by its message line
        if self.metas == 0 && self.session_id.is_none() {
            return Vec::new();
        }
        self.flush().iter().map(line_of).collect()
    }

    fn format(&self) -> &'static str {
        super::FORMAT
    }

    fn apart_after(&mut self, first_line: &[u8]) {
        // the bare items of the older layout carry no time: theirs is
        // their header's (a later layout's lines carry their own)
        let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(first_line) else {
            return;
        };
        if o.contains_key("instructions") && !o.contains_key("payload") {
            self.time = o
                .get("timestamp")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
    }
}

type Out = Result<Vec<Value>, &'static str>;

/// An entry as the line the session reads. Written straight into its
/// bytes: `Value`'s `Display` goes through a formatter a piece at a time,
/// twice as slow (a value of string keys always serializes).
fn line_of(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn str_of<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

/// The texts of a message's content parts (`input_text`, `output_text`).
fn texts(content: Option<&Value>) -> Vec<String> {
    match content {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.clone()),
                Value::Object(m) => str_of(m, "text").map(str::to_owned),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Text Codex puts in a user message itself: context, instructions and
/// markers, not what the user typed.
const INJECTED: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<permissions instructions>",
    "<collaboration_mode>",
    "<skills_instructions>",
    "<apps_instructions>",
    "<plugins_instructions>",
    "<model_switch>",
    "<turn_aborted>",
    "<user_shell_command>",
    "<environment_context ",
];

pub fn is_injected(text: &str) -> bool {
    let t = text.trim_start();
    INJECTED.iter().any(|p| t.starts_with(p))
}

/// VS Code's context before the request: `(context, request)`.
fn ide_request(text: &str) -> Option<(&str, &str)> {
    if !text.trim_start().starts_with("# Context from my IDE setup") {
        return None;
    }
    const MARK: &str = "## My request for Codex:";
    let at = text.find(MARK)?;
    Some((&text[..at], text[at + MARK.len()..].trim_start()))
}

impl Translator {
    /// An entry of ccv's session: `kind` (`user`, `assistant`, `system`)
    /// with `fields`, chained after the one before.
    fn entry(&mut self, kind: &str, fields: Value) -> Value {
        self.made += 1;
        let uuid = format!("codex-{}", self.made);
        let mut e = json!({
            "type": kind,
            "uuid": uuid,
            "parentUuid": self.parent,
            "isSidechain": false,
            "userType": "external",
            "sessionId": self.session_id,
            "timestamp": self.time,
            "cwd": self.cwd,
            "version": self.version,
            "gitBranch": self.branch,
        });
        if let (Value::Object(e), Value::Object(f)) = (&mut e, fields) {
            e.extend(f);
        }
        self.parent = Some(uuid);
        e
    }

    fn user(&mut self, content: Value, meta: bool) -> Value {
        let mut f = json!({"message": {"role": "user", "content": content}});
        if meta {
            f["isMeta"] = json!(true);
        }
        self.entry("user", f)
    }

    fn assistant(&mut self, blocks: Value, usage: Option<Value>) -> Value {
        let mut m = json!({
            "id": format!("codex-msg-{}", self.made + 1),
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": blocks,
        });
        if let Some(u) = usage {
            m["usage"] = u;
        }
        self.entry("assistant", json!({ "message": m }))
    }

    fn system(&mut self, subtype: &str, text: &str, level: &str) -> Value {
        self.entry(
            "system",
            json!({"subtype": subtype, "content": text, "level": level}),
        )
    }

    fn legacy_header(&mut self, o: &Map<String, Value>) {
        self.session_id = str_of(o, "id").map(str::to_owned);
        if let Some(b) = o
            .get("git")
            .and_then(|g| g.get("branch"))
            .and_then(Value::as_str)
        {
            self.branch = Some(b.to_owned());
        }
    }

    fn enveloped(&mut self, kind: &str, p: &Map<String, Value>) -> Out {
        match kind {
            "session_meta" => {
                self.metas += 1;
                // the running token total starts again (0.36)
                self.total = None;
                if self.metas == 1 {
                    self.session_id = str_of(p, "id").map(str::to_owned);
                    self.cwd = str_of(p, "cwd").map(str::to_owned);
                    self.version = str_of(p, "cli_version").map(str::to_owned);
                    self.branch = p
                        .get("git")
                        .and_then(|g| g.get("branch"))
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                }
                Err("codex: session meta")
            }
            "turn_context" => {
                if let Some(m) = str_of(p, "model") {
                    self.model = Some(m.to_owned());
                }
                if let Some(c) = str_of(p, "cwd") {
                    self.cwd = Some(c.to_owned());
                }
                if let Some(t) = str_of(p, "service_tier") {
                    self.fast = matches!(t, "priority" | "fast");
                }
                Err("codex: turn context")
            }
            "response_item" => self.item(p),
            "event_msg" => self.event(p),
            "compacted" => {
                let mut out = self.flush();
                out.push(self.system("compact_boundary", "", "info"));
                if let Some(m) = str_of(p, "message").filter(|m| !m.trim().is_empty()) {
                    let mut f = json!({"message": {"role": "user", "content": m}});
                    f["isCompactSummary"] = json!(true);
                    f["isMeta"] = json!(true);
                    out.push(self.entry("user", f));
                }
                Ok(out)
            }
            _ => Err("codex: unknown line type"),
        }
    }

    /// Answers the UI was told of and no item carried: shown where the
    /// turn ends.
    fn flush(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some((text, time)) = self.pending.pop_front() {
            let now = std::mem::replace(&mut self.time, time);
            out.push(self.assistant(json!([{"type": "text", "text": text}]), None));
            self.time = now;
        }
        out
    }

    fn item(&mut self, p: &Map<String, Value>) -> Out {
        let t = str_of(p, "type").unwrap_or("");
        match t {
            "message" => self.message(p),
            "reasoning" => {
                let mut summary: Vec<String> = p
                    .get("summary")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|s| s.get("text")?.as_str())
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                // raw reasoning (a model not OpenAI's, in the older layout)
                summary.extend(texts(p.get("content")));
                summary.retain(|s| !s.trim().is_empty());
                if !summary.is_empty() {
                    let text = summary.join("\n\n");
                    return Ok(vec![self.assistant(
                        json!([{"type": "thinking", "thinking": text, "signature": ""}]),
                        None,
                    )]);
                }
                // what the model kept encrypted nobody can read: a row for
                // it said `redacted thinking` before nearly every answer and
                // call of some sessions (Codex's own screen shows nothing)
                if p.get("encrypted_content").is_some_and(|e| !e.is_null()) {
                    return Err("codex: reasoning kept encrypted");
                }
                Err("codex: empty reasoning")
            }
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                let id = str_of(p, "call_id")
                    .or_else(|| str_of(p, "id"))
                    .map_or_else(|| format!("codex-call-{}", self.made + 1), str::to_owned);
                self.calls.insert(id.clone());
                if str_of(p, "name") == Some("exec_command") {
                    self.starts.insert(id.clone());
                }
                let (name, input) = tools::call(p);
                Ok(vec![self.assistant(
                    json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
                    None,
                )])
            }
            "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
                let Some(id) = str_of(p, "call_id").map(str::to_owned) else {
                    return Err("codex: an output of no call");
                };
                let out = tools::output(p.get("output"));
                let mut line = self.user(
                    json!([{"type": "tool_result", "tool_use_id": id, "content": out.content, "is_error": out.failed}]),
                    false,
                );
                // a sub-agent's thread: the model links its rollout to the call
                if let Some(agent) = tools::spawned_agent(p.get("output")) {
                    line["toolUseResult"] = json!({ "agentId": agent });
                } else if let Some(code) = out.code {
                    // as Claude Code's own: the row says `exit 1`
                    line["toolUseResult"] = json!({ "exitCode": code });
                } else if let Some(process) = out.running {
                    // as a background command's: `still running`, and a
                    // later wait for its output names what it runs
                    line["toolUseResult"] = if self.starts.contains(&id) {
                        json!({ "backgroundTaskId": process, "status": "running" })
                    } else {
                        json!({ "status": "running" })
                    };
                }
                Ok(vec![line])
            }
            "web_search_call" => {
                let id = format!("codex-search-{}", self.made + 1);
                let input = tools::web_search(p);
                let status = str_of(p, "status").unwrap_or("done").to_owned();
                let call = self.assistant(
                    json!([{"type": "tool_use", "id": id, "name": "WebSearch", "input": input}]),
                    None,
                );
                let result = self.user(
                    json!([{"type": "tool_result", "tool_use_id": id, "content": status, "is_error": false}]),
                    false,
                );
                Ok(vec![call, result])
            }
            "ghost_snapshot" => Err("codex: undo snapshot"),
            "compaction" | "compaction_summary" => Err("codex: compaction"),
            _ => Err("codex: unknown item"),
        }
    }

    fn message(&mut self, p: &Map<String, Value>) -> Out {
        let role = str_of(p, "role").unwrap_or("");
        let parts = texts(p.get("content"));
        match role {
            "assistant" => {
                let text = parts.join("");
                if text.trim().is_empty() {
                    return Err("codex: empty answer");
                }
                // the UI's copy of it came first
                self.pending.pop_front();
                Ok(vec![
                    self.assistant(json!([{"type": "text", "text": text}]), None),
                ])
            }
            "user" => {
                let mut out = Vec::new();
                let mut typed = Vec::new();
                for t in parts {
                    if is_injected(&t) {
                        out.push(self.user(json!(t), true));
                    } else if let Some((context, request)) = ide_request(&t) {
                        out.push(self.user(json!(context), true));
                        typed.push(json!({"type": "text", "text": request}));
                    } else if !t.trim().is_empty() {
                        typed.push(json!({"type": "text", "text": t}));
                    }
                }
                typed.extend(tools::images(p.get("content")));
                if !typed.is_empty() {
                    // a prompt starts a turn: what the last one left is shown
                    let mut flushed = self.flush();
                    flushed.append(&mut out);
                    out = flushed;
                    out.push(self.user(Value::Array(typed), false));
                }
                Ok(out)
            }
            // developer and system messages: instructions Codex sends
            _ => {
                let text = parts.join("\n");
                if text.trim().is_empty() {
                    return Err("codex: empty instructions");
                }
                Ok(vec![self.user(json!(text), true)])
            }
        }
    }

    fn event(&mut self, p: &Map<String, Value>) -> Out {
        let kind = str_of(p, "type").unwrap_or("");
        match kind {
            "token_count" => self.usage(p),
            "agent_message" => {
                if let Some(m) = str_of(p, "message").filter(|m| !m.trim().is_empty()) {
                    self.pending.push_back((m.to_owned(), self.time.clone()));
                }
                Err("codex: a copy for the UI")
            }
            "user_message" | "agent_reasoning" | "agent_reasoning_raw_content" => {
                Err("codex: a copy for the UI")
            }
            "turn_aborted" => {
                let mut out = self.flush();
                out.push(self.user(json!("[Request interrupted by user]"), false));
                Ok(out)
            }
            "task_complete" | "task_started" => {
                let out = self.flush();
                if out.is_empty() {
                    Err("codex: turn start or end")
                } else {
                    Ok(out)
                }
            }
            // the turn failed (after Codex's retries); a stream's error is
            // a retry's notice, and the turn goes on
            "error" | "stream_error" => {
                let m = str_of(p, "message").unwrap_or("error").to_owned();
                let level = if kind == "error" { "error" } else { "warning" };
                Ok(vec![self.system("codex_error", &m, level)])
            }
            "thread_rolled_back" => {
                let n = p.get("num_turns").and_then(Value::as_u64).unwrap_or(0);
                let text = format!("Rolled back {n} turn{}", if n == 1 { "" } else { "s" });
                Ok(vec![self.system("rollback", &text, "info")])
            }
            // a review runs as a thread of its own (a rollout whose meta
            // says `subagent: review` and names no parent): shown as a
            // sub-agent's call, its thread found by when it began
            "entered_review_mode" => {
                let hint = str_of(p, "user_facing_hint").unwrap_or("").to_owned();
                let id = format!("codex-review-{}", self.made + 1);
                // the thread is named by this time as ccv writes it (ms),
                // never by the file's own text
                let at = self
                    .time
                    .as_deref()
                    .and_then(crate::model::time::parse_timestamp);
                let input = json!({"description": format!("Review {hint}").trim_end(), "prompt": hint, "subagent_type": "review"});
                self.review = Some((id.clone(), at));
                Ok(vec![self.assistant(
                    json!([{"type": "tool_use", "id": id, "name": "Agent", "input": input}]),
                    None,
                )])
            }
            "exited_review_mode" => {
                let text = tools::review_text(p.get("review_output"));
                let Some((id, at)) = self.review.take() else {
                    return Ok(vec![self.system("review", &text, "info")]);
                };
                let mut line = self.user(
                    json!([{"type": "tool_result", "tool_use_id": id, "content": text, "is_error": false}]),
                    false,
                );
                if let Some(at) = at {
                    line["toolUseResult"] = json!({ "agentId": format!("{}{at}", super::REVIEW) });
                }
                Ok(vec![line])
            }
            "exec_command_end"
                if str_of(p, "source") == Some("user_shell")
                    && str_of(p, "call_id").is_none_or(|c| !self.calls.contains(c)) =>
            {
                let (command, output) = tools::user_shell(p);
                let text = format!(
                    "<bash-input>{command}</bash-input><bash-stdout>{output}</bash-stdout><bash-stderr></bash-stderr>"
                );
                Ok(vec![self.user(json!(text), false)])
            }
            "context_compacted" => Err("codex: compaction event"),
            _ => Err("codex: an event shown by its item"),
        }
    }

    /// A request's tokens, from `last_token_usage`: counted once (the same
    /// count is often written twice; the running total says so). A figure
    /// that is no count (a string, a negative or fractional number, a
    /// `null`) is handed on as written, in its place: the entry's reader
    /// leaves it out, names it, and counts the request as unpriced, where
    /// priced from the figures left it would cost too little, said nowhere.
    fn usage(&mut self, p: &Map<String, Value>) -> Out {
        let Some(info) = p.get("info").filter(|i| i.is_object()) else {
            return Err("codex: token count without figures");
        };
        const KEYS: [&str; 3] = ["input_tokens", "cached_input_tokens", "output_tokens"];
        // each figure, or the value that is no count
        let read = |v: Option<&Value>| {
            KEYS.map(|k| match v.and_then(|u| u.get(k)) {
                None => Ok(0),
                Some(x) => x.as_u64().ok_or_else(|| x.clone()),
            })
        };
        let total = info.get("total_token_usage");
        let now = read(total).map(|f| f.unwrap_or(0));
        if total.is_some() && self.total == Some(now) {
            return Err("codex: token count repeated");
        }
        let last = info.get("last_token_usage");
        let figures = match (last, self.total) {
            (Some(_), _) => read(last),
            // no per-request figures: what the total grew by
            (None, Some(before)) if now.iter().zip(before).all(|(a, b)| *a >= b) => {
                let grown = [now[0] - before[0], now[1] - before[1], now[2] - before[2]];
                let mut figures = read(total);
                for (f, g) in figures.iter_mut().zip(grown) {
                    if f.is_ok() {
                        *f = Ok(g);
                    }
                }
                figures
            }
            (None, _) => read(total),
        };
        if total.is_some() {
            self.total = Some(now);
        }
        let [input, cached, output] = figures;
        if matches!((&input, &output), (Ok(0), Ok(0))) {
            return Err("codex: token count of nothing");
        }
        let (input, cached) = match (input, cached) {
            (Ok(i), Ok(c)) => (json!(i - c.min(i)), json!(c.min(i))),
            (i, c) => (
                i.map_or_else(|v| v, |i| json!(i)),
                c.map_or_else(|v| v, |c| json!(c)),
            ),
        };
        let mut usage = json!({
            "input_tokens": input,
            "cache_read_input_tokens": cached,
            "cache_creation_input_tokens": 0,
            "output_tokens": output.map_or_else(|v| v, |o| json!(o)),
        });
        if self.fast {
            usage["speed"] = json!("fast");
        }
        Ok(vec![self.assistant(json!([]), Some(usage))])
    }
}
