//! What a session is doing now, read from its last rows and how long ago
//! its files were written: running a tool, thinking or answering, waiting
//! for the user, stalled, interrupted, failed, idle. `ccv top` shows it.

use super::item::{CallState, Detail, Item, Kind, SystemInfo};
use super::session::Session;

/// A session's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Activity {
    /// A tool call without its result, with progress lately: the tool, its
    /// summary, and (a `Task`) what its subagent runs now.
    Running {
        tool: String,
        summary: String,
        agent_tool: Option<String>,
    },
    /// Claude's turn: a prompt or a tool result came last, or an answer is
    /// being written.
    Thinking,
    /// The turn ended: the user's turn.
    Waiting,
    /// A tool call without a result and without progress for a while: a
    /// permission prompt, or a slow tool (the file cannot tell which).
    Stalled { tool: String, summary: String },
    /// The user interrupted the last request.
    Interrupted,
    /// The last request failed (an API error).
    Failed { why: String },
    /// An API error that Claude Code retries (`retry 4/10`): still working.
    Retrying { why: String },
    /// Nothing written for a long while.
    Idle,
}

/// How long a call may go without progress before it is stalled, and how
/// long a session may go unwritten before it is idle.
#[derive(Debug, Clone, Copy)]
pub struct Thresholds {
    pub stalled_ms: i64,
    pub idle_ms: i64,
    /// An answer's last line is this old: it is finished (versions without
    /// `turn_duration` say nothing else).
    pub answered_ms: i64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            stalled_ms: 60_000,
            idle_ms: 15 * 60_000,
            answered_ms: 5_000,
        }
    }
}

impl Activity {
    pub fn name(&self) -> &'static str {
        match self {
            Activity::Running { .. } => "running",
            Activity::Thinking => "thinking",
            Activity::Waiting => "waiting for you",
            Activity::Stalled { .. } => "stalled",
            Activity::Interrupted => "interrupted",
            Activity::Failed { .. } => "failed",
            Activity::Retrying { .. } => "retrying",
            Activity::Idle => "idle",
        }
    }

    /// The user's attention is wanted (the order `ccv top` sorts in).
    pub fn rank(&self) -> u8 {
        match self {
            Activity::Waiting => 0,
            Activity::Stalled { .. } => 1,
            Activity::Failed { .. } => 2,
            Activity::Interrupted => 3,
            Activity::Retrying { .. } => 4,
            Activity::Running { .. } => 5,
            Activity::Thinking => 6,
            Activity::Idle => 7,
        }
    }

    /// What it is doing, in a few words, for a session of `format` (its
    /// agent's name: `None` for Claude Code's own).
    pub fn doing(&self, format: Option<&str>) -> String {
        match self {
            Activity::Running {
                tool,
                summary,
                agent_tool,
            } => {
                let mut s = format!("{tool} {summary}");
                if let Some(a) = agent_tool {
                    s.push_str(&format!(" → {a}"));
                }
                s
            }
            Activity::Stalled { tool, summary } => {
                format!("{tool} {summary}: a permission prompt or a slow tool")
            }
            Activity::Failed { why } | Activity::Retrying { why } => why.clone(),
            Activity::Thinking => {
                let mut agent = format.unwrap_or("claude").chars();
                match agent.next() {
                    Some(first) => format!("{}{} is working", first.to_uppercase(), agent.as_str()),
                    None => "working".into(),
                }
            }
            Activity::Waiting => "the turn ended".into(),
            Activity::Interrupted => "interrupted by the user".into(),
            Activity::Idle => String::new(),
        }
    }
}

/// Items that say nothing about whose turn it is.
fn neutral(item: &Item) -> bool {
    match item.kind {
        Kind::Meta | Kind::Unknown | Kind::Unreadable => !item
            .text
            .or_marker()
            .trim_start()
            .starts_with("[Request interrupted by user"),
        // (a note of level `error` ends a turn that failed: Codex's
        // `error`, after its retries)
        Kind::System => matches!(
            &item.detail,
            Detail::System(s) if matches!(&**s, SystemInfo::StopHooks { .. } | SystemInfo::CompactBoundary { .. })
                || matches!(&**s, SystemInfo::Other { level, .. } if level.as_deref() != Some("error"))
        ),
        _ => false,
    }
}

/// The state of `session`, whose files were last written at
/// `last_write_ms`, at `now_ms`.
pub fn of(session: &Session, now_ms: i64, last_write_ms: i64, th: Thresholds) -> Activity {
    let last = session.written_at(last_write_ms);
    let quiet = now_ms.saturating_sub(last);
    let t = &session.main;
    let Some(last) = t.items.iter().rev().find(|i| !neutral(i) && !i.off_branch) else {
        return if quiet > th.idle_ms {
            Activity::Idle
        } else {
            Activity::Thinking
        };
    };
    let state = match (&last.kind, &last.detail) {
        // an API error Claude Code writes as an assistant line of its own
        (Kind::System | Kind::Assistant, _) if last.flags.synthetic => Activity::Failed {
            why: first_line(last.text.or_marker()),
        },
        (Kind::System, Detail::System(s)) => match **s {
            SystemInfo::TurnDuration { .. } | SystemInfo::StreamResult { .. } => Activity::Waiting,
            // Claude Code retries on its own: the final failure is a
            // synthetic answer (above)
            SystemInfo::ApiError { attempt, max, .. }
                if attempt.is_none_or(|a| max.is_none_or(|m| a < m)) =>
            {
                Activity::Retrying {
                    why: first_line(last.text.or_marker()),
                }
            }
            SystemInfo::ApiError { .. } => Activity::Failed {
                why: first_line(last.text.or_marker()),
            },
            SystemInfo::Other { ref level, .. } if level.as_deref() == Some("error") => {
                Activity::Failed {
                    why: first_line(last.text.or_marker()),
                }
            }
            _ => Activity::Thinking,
        },
        (Kind::ToolCall, Detail::Call(c)) => match session.call_state(last, Some(now_ms)) {
            Some(CallState::Running) | None if c.result.is_none() => {
                let summary = first_line(last.call_summary());
                let tool = c.name.clone();
                if quiet > th.stalled_ms {
                    Activity::Stalled { tool, summary }
                } else {
                    let agent_tool = c.agent.and_then(|a| agent_doing(session, a));
                    Activity::Running {
                        tool,
                        summary,
                        agent_tool,
                    }
                }
            }
            Some(CallState::Rejected) => Activity::Interrupted,
            _ => Activity::Thinking,
        },
        (Kind::Assistant, _) if quiet >= th.answered_ms => Activity::Waiting,
        (Kind::Meta | Kind::Unknown | Kind::Unreadable, _) => Activity::Interrupted,
        _ => Activity::Thinking,
    };
    match state {
        Activity::Waiting | Activity::Thinking | Activity::Retrying { .. }
            if quiet > th.idle_ms =>
        {
            Activity::Idle
        }
        s => s,
    }
}

/// When the session came into its state: the time of the entry that put
/// it there (its last one that tells whose turn it is).
pub fn since(session: &Session) -> Option<i64> {
    session
        .main
        .items
        .iter()
        .rev()
        .find(|i| !neutral(i) && !i.off_branch)?
        .timestamp
}

/// The tool a running subagent calls now (its last call without a result).
fn agent_doing(session: &Session, agent: u32) -> Option<String> {
    let a = session.agents.get(agent as usize)?;
    let last = a.transcript.items.last()?;
    match &last.detail {
        Detail::Call(c)
            if matches!(
                session.call_state(last, None),
                Some(CallState::Running | CallState::NoResult)
            ) =>
        {
            Some(format!("{} {}", c.name, first_line(last.call_summary())))
        }
        _ => None,
    }
}

fn first_line(s: &str) -> String {
    let l = s
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let clean = super::text::term_line(l);
    clean.chars().take(120).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const T0: i64 = 1_767_261_600_000; // 2026-01-01T10:00:00Z

    fn at(s: u32) -> String {
        format!("2026-01-01T10:{:02}:{:02}.000Z", s / 60, s % 60)
    }

    fn session(lines: &[Value]) -> Session {
        let mut s = Session::new(None);
        for l in lines {
            s.feed(0, format!("{l}\n").as_bytes());
        }
        s.finish(0);
        s
    }

    fn user(u: &str, p: &str, s: u32, content: Value) -> Value {
        json!({"type":"user","uuid":u,"parentUuid":p,"sessionId":"s","timestamp":at(s),"message":{"role":"user","content":content}})
    }

    fn assistant(u: &str, p: &str, s: u32, content: Value) -> Value {
        json!({"type":"assistant","uuid":u,"parentUuid":p,"sessionId":"s","timestamp":at(s),"message":{"id":format!("m{u}"),"role":"assistant","model":"claude-opus-4-6","content":content,"stop_reason":null}})
    }

    fn prompt() -> Value {
        user("u1", "", 0, json!("fix the test"))
    }

    fn bash() -> Value {
        assistant(
            "a1",
            "u1",
            5,
            json!([{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}]),
        )
    }

    /// The state `quiet_s` seconds after the last line (written at 10:00:10).
    fn state(lines: &[Value], quiet_s: i64) -> Activity {
        let written = T0 + 10_000;
        of(
            &session(lines),
            written + quiet_s * 1000,
            written,
            Thresholds::default(),
        )
    }

    #[test]
    fn a_call_without_result_runs_then_stalls() {
        let running = state(&[prompt(), bash()], 2);
        assert!(
            matches!(&running, Activity::Running { tool, summary, .. } if tool == "Bash" && summary == "cargo test"),
            "{running:?}"
        );
        let stalled = state(&[prompt(), bash()], 120);
        assert!(matches!(stalled, Activity::Stalled { .. }), "{stalled:?}");
        assert!(
            stalled
                .doing(None)
                .contains("permission prompt or a slow tool")
        );
    }

    #[test]
    fn a_result_or_a_prompt_is_claudes_turn() {
        let result = user(
            "u2",
            "a1",
            8,
            json!([{"type":"tool_result","tool_use_id":"t1","content":"ok"}]),
        );
        assert_eq!(state(&[prompt(), bash(), result], 1), Activity::Thinking);
        assert_eq!(state(&[prompt()], 1), Activity::Thinking);
    }

    #[test]
    fn the_turn_ends_with_turn_duration_or_a_quiet_answer() {
        let answer = assistant("a2", "u1", 9, json!([{"type":"text","text":"Done."}]));
        assert_eq!(
            state(&[prompt(), answer.clone()], 1),
            Activity::Thinking,
            "still being written"
        );
        assert_eq!(state(&[prompt(), answer.clone()], 30), Activity::Waiting);
        let end = json!({"type":"system","subtype":"turn_duration","durationMs":9000,"uuid":"s1","parentUuid":"a2","sessionId":"s","timestamp":at(10)});
        assert_eq!(state(&[prompt(), answer, end], 0), Activity::Waiting);
    }

    #[test]
    fn interrupted_failed_and_idle() {
        let stop = user(
            "u3",
            "a1",
            9,
            json!([{"type":"text","text":"[Request interrupted by user]"}]),
        );
        assert_eq!(state(&[prompt(), stop], 1), Activity::Interrupted);
        let rejected = user(
            "u2",
            "a1",
            8,
            json!([{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"The user doesn't want to proceed with this tool use."}]),
        );
        assert_eq!(
            state(&[prompt(), bash(), rejected], 1),
            Activity::Interrupted
        );
        let api = json!({"type":"assistant","uuid":"a9","parentUuid":"u1","sessionId":"s","timestamp":at(9),"isApiErrorMessage":true,"message":{"id":"x","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error: 529 Overloaded"}]}});
        let failed = state(&[prompt(), api], 1);
        assert!(
            matches!(&failed, Activity::Failed { why } if why.contains("529")),
            "{failed:?}"
        );
        let answer = assistant("a2", "u1", 9, json!([{"type":"text","text":"Done."}]));
        assert_eq!(state(&[prompt(), answer], 3600), Activity::Idle);
    }
}
