//! What a transcript is made of: items, in the order a person reads them.

use super::branch::Uuid;
use super::patch::{Hunk, ToolUseResult};
use super::stored::Text;
use super::usage::Usage;

/// The kind of a display row. One per content block (or per line for lines
/// that have no blocks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    User,
    Assistant,
    Thinking,
    ToolCall,
    ToolResult,
    System,
    Command,
    Meta,
    Compaction,
    Unknown,
    Unreadable,
}

impl Kind {
    /// Every kind, in a fixed order (a search index stores the position).
    pub const ALL: [Kind; 11] = [
        Kind::User,
        Kind::Assistant,
        Kind::Thinking,
        Kind::ToolCall,
        Kind::ToolResult,
        Kind::System,
        Kind::Command,
        Kind::Meta,
        Kind::Compaction,
        Kind::Unknown,
        Kind::Unreadable,
    ];

    /// The `kind` value of `ccv export --format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::User => "user",
            Kind::Assistant => "assistant",
            Kind::Thinking => "thinking",
            Kind::ToolCall => "tool_call",
            Kind::ToolResult => "tool_result",
            Kind::System => "system",
            Kind::Command => "command",
            Kind::Meta => "meta",
            Kind::Compaction => "compaction",
            Kind::Unknown => "unknown",
            Kind::Unreadable => "unreadable",
        }
    }

    /// The label of the text export and the TUI (`[User]`, `[Tool Call]`...).
    pub fn label(self) -> &'static str {
        match self {
            Kind::User => "User",
            Kind::Assistant => "Assistant",
            Kind::Thinking => "Thinking",
            Kind::ToolCall => "Tool Call",
            Kind::ToolResult => "Tool Result",
            Kind::System => "System",
            Kind::Command => "Command",
            Kind::Meta => "Meta",
            Kind::Compaction => "Compaction",
            Kind::Unknown => "Unknown",
            Kind::Unreadable => "Unreadable",
        }
    }
}

/// A stable identity for an item, kept across inserts and appends, so that
/// view state (expanded, selected) can refer to it.
pub type ItemId = u32;

#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// Tool error, API error, `level:"error"` system line.
    pub error: bool,
    /// `"thinking":""` with only a signature.
    pub thinking_hidden: bool,
    pub redacted: bool,
    /// A `<synthetic>` assistant line (API error shown to the user).
    pub synthetic: bool,
    /// This row shares an id it should not (see [`Collision`]).
    pub collision: Option<Collision>,
    /// A prompt typed while Claude was working (a `queued_command`
    /// attachment): Claude read it at its next step.
    pub queued: bool,
    /// A teammate's first prompt: its task, from the team lead.
    pub from_lead: bool,
}

/// Ids that should be unique and are not. Every such row is shown, and
/// `ccv check` and the viewer's marks name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collision {
    /// A tool call whose `id` an earlier call already has.
    ToolUseId,
    /// A tool result for a call that already has one.
    Result,
    /// A line whose `uuid` an earlier line with other content has.
    Uuid,
}

#[derive(Debug)]
pub struct Item {
    pub id: ItemId,
    pub kind: Kind,
    /// Index into `Session::sources` of the file this came from.
    pub source: u16,
    /// 1-based line in that file.
    pub line: u32,
    pub uuid: Option<Uuid>,
    pub parent_uuid: Option<Uuid>,
    /// Milliseconds since the Unix epoch.
    pub timestamp: Option<i64>,
    /// The content as read (not yet made safe for a terminal). A long
    /// answer or thinking of the viewer's session stays in the file.
    pub text: Text,
    pub flags: Flags,
    /// Index into `Transcript::messages` for assistant blocks.
    pub message: Option<u32>,
    /// The tool group this item belongs to (index into `Transcript::groups`).
    pub group: Option<u32>,
    /// On a branch the user left (rewind, edited prompt, retry): not on the
    /// chain from the newest leaf to the root. Shown folded.
    pub off_branch: bool,
    pub detail: Detail,
}

#[derive(Debug, Default)]
pub enum Detail {
    #[default]
    None,
    Call(Box<ToolCall>),
    /// A result whose call is not in the file.
    OrphanResult(Box<ToolResult>),
    System(Box<SystemInfo>),
    Command(Box<CommandInfo>),
    Prompt(Box<PromptInfo>),
}

#[derive(Debug)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The call's `input`, as raw JSON. A big one of the viewer's session
    /// stays in the file (see [`super::stored`]).
    pub input: Text,
    pub category: Category,
    // Its summary (the most telling argument: a path, command, pattern,
    // URL...) is its row's text, [`Item::call_summary`]: a copy here was
    // one string more a call (0.4 MB of a 100 MB session's viewer).
    pub result: Option<ToolResult>,
    /// Run by the API, not by Claude Code: `server_tool_use` (a web
    /// search), `mcp_tool_use` (a tool of the API's MCP connector).
    pub server: bool,
    /// The subagent this call started (index into `Session::agents`).
    pub agent: Option<u32>,
    /// A subagent's call: the prompt of its input, read once (matching it
    /// with each agent's first prompt read every call's input again, for
    /// every agent: 3,000 agents took a second).
    pub task_prompt: Option<Box<str>>,
}

#[derive(Debug, Default)]
pub struct ToolResult {
    /// The `tool_use_id` it answers: kept for a result read before its
    /// call or without one (empty for a result read onto its call, whose
    /// id is the call's).
    pub tool_use_id: String,
    pub source: u16,
    pub line: u32,
    pub uuid: Option<Uuid>,
    pub timestamp: Option<i64>,
    /// Held, or left in the session file by the viewer (read back when
    /// shown: see [`super::stored`]). An error's text is always held.
    pub text: Text,
    pub is_error: bool,
    pub images: Vec<Image>,
    /// What `toolUseResult` adds (patch, agent id, exit code...).
    pub extra: Option<Box<ToolUseResult>>,
}

impl ToolResult {
    /// What search reads of a result: its text as shown (of an output
    /// saved apart, the part Claude read, not the wrapper around it).
    pub fn search_text(&self) -> std::borrow::Cow<'_, str> {
        super::text::sanitize(shown_of_result(self.text.or_marker()))
    }

    pub fn patch(&self) -> Option<&[Hunk]> {
        self.extra.as_ref()?.structured_patch.as_deref()
    }

    /// The user declined the call (answered no to a permission prompt, or
    /// interrupted it): not a failure of the tool.
    pub fn rejected(&self) -> bool {
        let text = self.text.or_marker();
        self.is_error
            && (text.contains("The user doesn't want to proceed with this tool use")
                || text.contains("tool use was rejected")
                || text
                    .trim_start()
                    .starts_with("[Request interrupted by user for tool use]"))
    }

    /// The text a person reads: Claude Code wraps tool errors in
    /// `<tool_use_error>…</tool_use_error>`, which says nothing.
    pub fn message(&self) -> &str {
        unwrap_tool_use_error(self.text.or_marker())
    }
}

/// The part of a result's text its row shows: of an output saved apart
/// (see [`super::saved`]), the part Claude read.
pub fn shown_of_result(text: &str) -> &str {
    super::saved::saved_output(text).map_or(text, |s| s.preview)
}

/// A result's text without the `<tool_use_error>` wrapper (see
/// [`ToolResult::message`]).
pub fn unwrap_tool_use_error(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix("<tool_use_error>")
        .and_then(|r| r.strip_suffix("</tool_use_error>"))
        .map(str::trim)
        .unwrap_or(text)
}

/// What became of a tool call: the one answer the viewer, the exports and
/// `ccv check` share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallState {
    /// No result yet, in a session being written.
    Running,
    Done,
    Failed,
    /// The user declined it.
    Rejected,
    /// No result, and none is coming (the conversation went on, or the
    /// session is not being written).
    NoResult,
}

/// Longer than any tool call runs: a call without a result older than this
/// is not running any more (the session stopped before its result).
pub const RUNNING_AT_MOST_MS: i64 = 6 * 3600 * 1000;

/// The file a tool's input names (`file_path`, `notebook_path`, else
/// `path`): what `F` opens, `c p` copies and the HTML page highlights by.
pub fn named_file(input: &serde_json::Value) -> Option<&str> {
    ["file_path", "notebook_path", "path"]
        .iter()
        .find_map(|k| input.get(*k)?.as_str())
        .filter(|p| !p.is_empty())
}

impl ToolCall {
    /// The call's state. `lost`: the conversation went on without its
    /// result. `now`: the time, when the session is live (being written);
    /// `None` otherwise. `started`: the call's timestamp.
    pub fn state(&self, lost: bool, now: Option<i64>, started: Option<i64>) -> CallState {
        match &self.result {
            Some(r) if r.rejected() => CallState::Rejected,
            Some(r) if r.is_error => CallState::Failed,
            Some(_) => CallState::Done,
            None if lost => CallState::NoResult,
            None => match (now, started) {
                (None, _) => CallState::NoResult,
                (Some(now), Some(t)) if now - t > RUNNING_AT_MOST_MS => CallState::NoResult,
                _ => CallState::Running,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub media_type: String,
    /// Decoded size in bytes (estimated from the base64 length).
    pub bytes: u64,
}

impl Image {
    pub fn placeholder(&self) -> String {
        format!("[{} {}]", self.media_type, human_bytes(self.bytes))
    }
}

pub fn human_bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{} KB", (n + 512) / 1024)
    } else if n < 1 << 30 {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    } else {
        format!("{:.1} GB", n as f64 / (1024.0 * 1024.0 * 1024.0))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    Explore,
    Edit,
    Run,
    Subagent,
    Plan,
    Other,
}

impl Category {
    pub fn of(tool: &str) -> Category {
        match tool {
            "Read" | "Grep" | "Glob" | "LS" | "WebFetch" | "WebSearch" | "ToolSearch"
            | "web_search" => Category::Explore,
            "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => Category::Edit,
            "Bash" | "BashOutput" | "KillBash" | "KillShell" => Category::Run,
            "Task" | "Agent" => Category::Subagent,
            "TodoWrite" | "ExitPlanMode" | "EnterPlanMode" => Category::Plan,
            t if t.starts_with("Task") => Category::Plan,
            _ => Category::Other,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Explore => "explore",
            Category::Edit => "edit",
            Category::Run => "run",
            Category::Subagent => "subagent",
            Category::Plan => "plan",
            Category::Other => "other",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum SystemInfo {
    CompactBoundary {
        trigger: Option<String>,
        pre_tokens: Option<u64>,
        micro: bool,
    },
    TurnDuration {
        ms: u64,
    },
    ApiError {
        attempt: Option<u64>,
        max: Option<u64>,
        retry_in_ms: Option<f64>,
    },
    StopHooks {
        count: u64,
        errors: u64,
    },
    /// The conversation goes on in another session (`continued-in`).
    ContinuedIn {
        session_id: String,
    },
    /// `claude -p --output-format stream-json`: `system/init`.
    StreamInit {
        model: Option<String>,
        tools: usize,
        cwd: Option<String>,
    },
    /// stream-json `result`.
    StreamResult {
        cost_usd: Option<f64>,
        duration_ms: Option<f64>,
        turns: Option<u64>,
    },
    Other {
        subtype: Option<String>,
        level: Option<String>,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandInfo {
    /// `/model`, `!` for bash mode.
    pub name: String,
    pub args: String,
    /// `<local-command-stdout>` / `<bash-stdout>`, ANSI stripped.
    pub output: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptInfo {
    /// `@path` mentions.
    pub files: Vec<String>,
    pub images: Vec<Image>,
}

/// One assistant API response, possibly spread over several lines.
#[derive(Debug, Clone)]
pub struct Message {
    /// Shared with the index of messages by id.
    pub id: std::sync::Arc<str>,
    /// Shared with the message before when the same (most are).
    pub model: Option<std::sync::Arc<str>>,
    pub usage: Option<Usage>,
    /// When its first line was written (ms since the epoch): rates that
    /// changed on a date price it by this.
    pub at: Option<i64>,
    /// Index of its last block item, for merging lines that come later.
    pub last_item: usize,
}

/// A run of consecutive tool calls in one assistant turn (thinking blocks
/// between them belong to it). `first..=last` are item indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub first: usize,
    pub last: usize,
}

/// A user prompt and everything up to the next one.
#[derive(Debug, Clone)]
pub struct Turn {
    pub first_item: ItemId,
    pub duration_ms: Option<u64>,
}

impl Item {
    /// A tool call's one-line summary: its path, command, pattern, URL...
    /// (empty where the load reads none: see `Session::no_call_summaries`).
    pub fn call_summary(&self) -> &str {
        self.text.get().unwrap_or("")
    }

    /// What search reads in this row, as the row shows it (escape
    /// sequences gone): its text, and for a call its name, summary and the
    /// values of its input (not the keys). A call's result is searched as
    /// its own entry ([`ToolResult::search_text`]).
    pub fn search_text(&self) -> std::borrow::Cow<'_, str> {
        match self.raw_search_text() {
            std::borrow::Cow::Borrowed(b) => super::text::sanitize(b),
            std::borrow::Cow::Owned(o) => super::text::sanitize(&o).into_owned().into(),
        }
    }

    fn raw_search_text(&self) -> std::borrow::Cow<'_, str> {
        match &self.detail {
            Detail::Call(c) => {
                let mut s = String::with_capacity(c.input.len() + 64);
                // (the text is the summary)
                for part in [self.text.or_marker(), &c.name] {
                    if !part.is_empty() {
                        s.push_str(part);
                        s.push('\n');
                    }
                }
                // an input left in the file is searched on its own (see
                // `app::search::item_matches`)
                if let Some(input) = c.input.get() {
                    json_values(input, &mut s);
                }
                s.into()
            }
            Detail::OrphanResult(r) if self.text.is_empty() => {
                shown_of_result(r.text.or_marker()).into()
            }
            _ => self.text.or_marker().into(),
        }
    }
}

/// The string, number and boolean values of a JSON document, one per line
/// (what a person reads of a tool's input; keys are the tool's schema).
pub fn json_values(raw: &str, out: &mut String) {
    fn walk(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            serde_json::Value::Number(n) => {
                out.push_str(&n.to_string());
                out.push('\n');
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(v) => walk(&v, out),
        Err(_) => out.push_str(raw),
    }
}
/// `mcp__linear-server__get_issue` -> `get_issue`: the part that says
/// what the call does (the server goes into the summary).
pub fn display_name(tool: &str) -> &str {
    match tool.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
        Some((_, name)) if !name.is_empty() => name,
        _ => tool,
    }
}
