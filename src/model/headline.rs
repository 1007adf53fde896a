//! What a quick read of a session file finds to list it by: what names
//! it, where it ran, its branch and model, when it was last active and
//! about how many messages it holds. A source's scan fills it.

#[derive(Debug, Default, Clone)]
pub struct Headline {
    /// The directory the session ran in, when a line records it.
    pub cwd: Option<String>,
    /// The id its lines carry (the file's name is the session's id).
    pub session_id: Option<String>,
    pub title: String,
    pub first_prompt: String,
    /// The newest entry's time.
    pub last_activity_ms: Option<i64>,
    pub message_count: u64,
    /// `false`: `message_count` was extrapolated from the head and tail.
    pub exact: bool,
    pub model: Option<String>,
    pub git_branch: Option<String>,
    /// Some line is not JSON: a damaged session.
    pub unreadable: bool,
    /// The agent that wrote the file when it is not Claude Code (`codex`).
    pub agent: Option<&'static str>,
    /// Tokens and cost, from a source that read the whole file to name
    /// it (so that a listing does not read it a second time).
    pub figures: Option<crate::model::figures::Figures>,
    /// The sessions read with this one as its sub-agents (a Codex
    /// sub-agent's or review's own rollout), by id.
    pub spawned: Vec<String>,
    /// Sub-agents counted from the file itself; `None`: the catalogue
    /// counts their files beside it.
    pub subagents: Option<u32>,
}
