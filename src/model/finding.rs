//! What `ccv check` finds, and what the viewer marks: one finding names a
//! line and says what is wrong there. A leaf, so that the check and the
//! viewer's incremental marks share it without importing each other.

use super::item::ItemId;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// A tool call with no result while the file is still being written.
    StillRunning,
    /// A tool call with no result in a file that is no longer written.
    NoResult,
    /// A tool result whose call is not in the file.
    ResultWithoutCall,
    /// A `parentUuid` that names no line of the file.
    DanglingParent,
    /// `parentUuid` links that lead back to themselves.
    Cycle,
    /// A `uuid` written by two lines.
    RepeatedUuid,
    /// A tool call whose id an earlier call has.
    RepeatedToolUseId,
    /// A second result for one tool call.
    RepeatedResult,
    /// More than one `sessionId` in the session's own file.
    SeveralSessions,
    /// A line that is not a JSON object.
    Unreadable,
    /// A line shown after a repair: a byte that is no UTF-8, a field of
    /// another type left out. What is shown is not all the line says.
    Repaired,
    /// A subagent a call's result names whose transcript is not here:
    /// its rows and its cost are missing.
    AgentNotFound,
}

impl FindingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::StillRunning => "still_running",
            FindingKind::NoResult => "no_result",
            FindingKind::ResultWithoutCall => "result_without_call",
            FindingKind::DanglingParent => "dangling_parent",
            FindingKind::Cycle => "cycle",
            FindingKind::RepeatedUuid => "repeated_uuid",
            FindingKind::RepeatedToolUseId => "repeated_tool_use_id",
            FindingKind::RepeatedResult => "repeated_result",
            FindingKind::SeveralSessions => "several_sessions",
            FindingKind::Unreadable => "unreadable",
            FindingKind::Repaired => "repaired",
            FindingKind::AgentNotFound => "agent_not_found",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Index into `Session::sources`.
    pub source: u16,
    /// 1-based line in that source.
    pub line: u32,
    pub kind: FindingKind,
    pub message: String,
    /// The row it concerns, when there is one (for the TUI to mark).
    pub item_id: Option<ItemId>,
}
