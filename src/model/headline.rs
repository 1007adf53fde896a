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
}
