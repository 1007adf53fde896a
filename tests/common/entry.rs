//! The one builder of session lines for the tests: an entry of a kind,
//! with the fields a test cares about set by name and the rest left out.
//!
//! ```ignore
//! use crate::common::entry::{user, text_answer, call, result};
//! user("u1", "fix the build").root().session("s").at(T0).line();
//! call("a1", "m1", "t1", "Bash", json!({"command": "make"})).parent("u1").json();
//! result("r1", "t1", "ok").parent("a1").error().line();
//! ```

use serde_json::{Value, json};

/// A session line being built.
#[derive(Debug, Clone)]
pub struct Entry(Value);

/// A user line whose content is `content` (a string, or blocks).
pub fn user(uuid: &str, content: impl Into<Value>) -> Entry {
    Entry(
        json!({"type": "user", "uuid": uuid, "message": {"role": "user", "content": content.into()}}),
    )
}

/// An assistant line of message `msg` holding `blocks`.
pub fn assistant(uuid: &str, msg: &str, blocks: Value) -> Entry {
    Entry(json!({"type": "assistant", "uuid": uuid,
        "message": {"id": msg, "role": "assistant", "content": blocks}}))
}

/// An assistant line of message `msg` saying `text`.
pub fn text_answer(uuid: &str, msg: &str, text: &str) -> Entry {
    assistant(uuid, msg, json!([{"type": "text", "text": text}]))
}

/// An assistant line of message `msg` calling tool `name` (call id `id`).
pub fn call(uuid: &str, msg: &str, id: &str, name: &str, input: Value) -> Entry {
    assistant(
        uuid,
        msg,
        json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
    )
}

/// A user line holding the result of call `id`.
pub fn result(uuid: &str, id: &str, content: impl Into<Value>) -> Entry {
    user(
        uuid,
        json!([{"type": "tool_result", "tool_use_id": id, "content": content.into()}]),
    )
}

/// A line of `kind` with these fields.
pub fn other(kind: &str, uuid: &str, fields: Value) -> Entry {
    Entry(json!({"type": kind, "uuid": uuid})).with(fields)
}

impl Entry {
    /// `parentUuid`.
    pub fn parent(self, p: &str) -> Entry {
        self.set("parentUuid", json!(p))
    }

    /// `parentUuid: null`: the first line of a thread.
    pub fn root(self) -> Entry {
        self.set("parentUuid", Value::Null)
    }

    /// `parentUuid` when given, `null` when not.
    pub fn parent_or_root(self, p: Option<&str>) -> Entry {
        match p {
            Some(p) => self.parent(p),
            None => self.root(),
        }
    }

    /// `timestamp`.
    pub fn at(self, ts: &str) -> Entry {
        self.set("timestamp", json!(ts))
    }

    /// `sessionId`.
    pub fn session(self, id: &str) -> Entry {
        self.set("sessionId", json!(id))
    }

    /// `cwd`.
    pub fn cwd(self, dir: &str) -> Entry {
        self.set("cwd", json!(dir))
    }

    /// The message's `model` (an assistant line's).
    pub fn model(mut self, m: &str) -> Entry {
        self.0["message"]["model"] = json!(m);
        self
    }

    /// The message's `usage`.
    pub fn usage(mut self, u: Value) -> Entry {
        self.0["message"]["usage"] = u;
        self
    }

    /// The result marked as an error (a result line's every block).
    pub fn error(mut self) -> Entry {
        if let Some(blocks) = self.0["message"]["content"].as_array_mut() {
            for b in blocks {
                b["is_error"] = json!(true);
            }
        }
        self
    }

    /// These fields, over what is set.
    pub fn with(mut self, fields: Value) -> Entry {
        if let (Some(o), Value::Object(f)) = (self.0.as_object_mut(), fields) {
            o.extend(f);
        }
        self
    }

    /// Any other field.
    pub fn set(mut self, key: &str, v: Value) -> Entry {
        self.0[key] = v;
        self
    }

    pub fn json(self) -> Value {
        self.0
    }

    /// The line, without its newline.
    pub fn line(self) -> String {
        self.0.to_string()
    }

    /// The line with its newline.
    pub fn line_nl(self) -> String {
        format!("{}\n", self.0)
    }
}

/// A row of the session list (what `ccv list` and the picker show), with
/// plain values a test changes as it needs: a 3.25 MB session of 240
/// messages by Opus on `main`, last active at `last_ms`, no figures yet.
pub fn session_row(
    project: &str,
    id: &str,
    title: &str,
    last_ms: i64,
) -> ccv::catalog::SessionInfo {
    ccv::catalog::SessionInfo {
        project: project.into(),
        session_id: id.into(),
        path: std::path::PathBuf::from(format!("{project}/{id}.jsonl")),
        title: title.into(),
        first_prompt: title.into(),
        last_activity_ms: last_ms,
        message_count: 240,
        message_count_exact: true,
        size: 3_250_000,
        model: Some("claude-opus-4-6".into()),
        git_branch: Some("main".into()),
        subagents: 0,
        subagent_files: None,
        mtime_ns: 0,
        live: false,
        unreadable: false,
        figures: None,
        agent: None,
        spawned: Vec::new(),
    }
}
