//! What the catalogue knows about one session file: its row, made from
//! what the file's source finds in its head and tail
//! ([`crate::source::headline`]). A session file can be 60 MB; the picker
//! must list 2,000 of them in a blink.

use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};

/// One row of the session list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// The session's working directory (the `cwd` of its lines, else a
    /// best-effort decode of the project directory name).
    pub project: String,
    pub session_id: String,
    #[serde(with = "crate::json_out::os_path")]
    pub path: PathBuf,
    pub title: String,
    pub first_prompt: String,
    /// Milliseconds since the epoch: last timestamp in the file, else mtime.
    pub last_activity_ms: i64,
    pub message_count: u64,
    /// `false`: `message_count` was extrapolated from the head and tail.
    pub message_count_exact: bool,
    pub size: u64,
    pub model: Option<String>,
    pub git_branch: Option<String>,
    pub subagents: u32,
    /// The `<session>/subagents/` folder as last counted: its mtime (ns)
    /// and how many transcripts it held. A folder's mtime moves with every
    /// file added, taken away or renamed in it, so a warm listing counts
    /// again only a folder that changed (reading 2,300 folders was half of
    /// the system calls of a warm listing of 10,000 sessions). Kept only
    /// when the count was taken well after the folder last changed (a
    /// coarse clock could give two changes one mtime).
    #[serde(skip)]
    pub subagent_files: Option<(i64, u32)>,
    /// File mtime in nanoseconds (cache key, liveness).
    pub mtime_ns: i64,
    /// Written recently: probably still running. Recomputed on every listing.
    #[serde(default)]
    pub live: bool,
    /// Some line is not JSON: a damaged session, listed even when no
    /// message could be read.
    #[serde(default)]
    pub unreadable: bool,
    /// Tokens, cost, prompts and calls, from a full read of the session
    /// and its subagents; `None` until that read (see `ScanOptions`).
    #[serde(default)]
    pub figures: Option<Box<crate::model::figures::Figures>>,
    /// The agent that wrote it when not Claude Code (`codex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The sessions read with this one as its sub-agents (a Codex
    /// sub-agent's or review's own rollout): listed under it, not on their
    /// own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spawned: Vec<String>,
}

/// The title of a file with no message and lines that are not JSON.
pub const UNREADABLE_TITLE: &str = "(no line reads as a session's: ccv check says why)";
/// The title of a file with messages and no prompt, title or summary.
pub const NO_PROMPT_TITLE: &str = "(no prompt in this file)";

/// How recently a file must have been written to count as live.
pub const LIVE_WINDOW_MS: i64 = 60_000;

impl SessionInfo {
    /// The agent that wrote the session: `claude` or another's name.
    pub fn agent(&self) -> &str {
        self.agent.as_deref().unwrap_or(crate::source::CLAUDE)
    }

    /// The title as the picker and `ccv list` show it: a file listed for
    /// its unreadable lines alone, which has none, says so (blank, it
    /// looked like a session still starting).
    pub fn shown_title(&self) -> std::borrow::Cow<'_, str> {
        match (self.title.is_empty(), self.message_count, self.unreadable) {
            (false, _, _) => self.title.as_str().into(),
            (true, 0, true) => UNREADABLE_TITLE.into(),
            // answers and results only: a file that starts mid-session (a
            // copy cut from a longer one), or whose prompts are all gone
            (true, 1.., _) => NO_PROMPT_TITLE.into(),
            (true, 0, false) => "".into(),
        }
    }

    /// Whether a row read back from the cache can be true (see
    /// [`crate::model::figures::Figures::is_sane`]).
    /// Whether the file holds a conversation (a user or assistant
    /// message): a file of summary or snapshot lines is no session.
    pub fn has_conversation(&self) -> bool {
        self.message_count > 0 || self.unreadable
    }

    pub fn is_sane(&self) -> bool {
        const TEXT: usize = 1 << 20;
        [
            &self.project,
            &self.session_id,
            &self.title,
            &self.first_prompt,
        ]
        .iter()
        .all(|s| s.len() <= TEXT)
            && self.model.as_ref().is_none_or(|m| m.len() <= TEXT)
            && self.git_branch.as_ref().is_none_or(|b| b.len() <= TEXT)
            && self.message_count < 1 << 40
            && self.figures.as_ref().is_none_or(|f| f.is_sane())
    }

    /// Recomputes `live` against `now_ms`.
    /// Live: the file was written lately, and so was its newest entry (a
    /// file copied or restored today, or an old session Claude Code
    /// appended a summary to, is not running).
    pub fn refresh_live(&mut self, now_ms: i64) {
        use crate::model::time::within;
        self.live = within(now_ms, self.mtime_ns / 1_000_000, LIVE_WINDOW_MS)
            && within(now_ms, self.last_activity_ms, LIVE_WINDOW_MS);
    }
}

/// Reads what names and counts `path` (its head and tail, the middle only
/// when the ends cannot name it: see the source's scanner), as a row of
/// the catalogue. `size`/`mtime_ns` from its metadata; `fallback_project`
/// when no line records a directory.
pub fn scan_file(
    path: &Path,
    size: u64,
    mtime_ns: i64,
    fallback_project: &str,
) -> io::Result<SessionInfo> {
    let h = crate::source::headline(path, size)?;
    Ok(row_of(path, size, mtime_ns, fallback_project, h))
}

/// [`scan_file`] with the session's figures, from one read of the file
/// where the row needs more than its ends (see
/// [`crate::source::headline_and_figures`]). No figures when the file
/// could not be read whole (they are then read apart).
pub fn scan_file_with_figures(
    path: &Path,
    size: u64,
    mtime_ns: i64,
    fallback_project: &str,
) -> io::Result<SessionInfo> {
    let (h, session) = crate::source::headline_and_figures(path, size)?;
    let mut row = row_of(path, size, mtime_ns, fallback_project, h);
    if let Some(s) = session {
        row.figures = Some(Box::new(crate::model::figures::Figures::of(
            &s,
            row.last_activity_ms,
        )));
    }
    Ok(row)
}

/// The time a row is dated and sorted by: its newest entry's, unless that
/// is later than its file's last write by more than a clock's skew (a
/// clock set wrong where it was written, a damaged time: it was "just
/// now" and first in the list for ever), then the file's; the file's when
/// no entry has a time. (A file system that keeps whole seconds, or a
/// copy's time set by hand, puts a file's time a little before its last
/// entry's: that entry's time stands.)
pub(super) fn last_activity(entry_ms: Option<i64>, mtime_ns: i64) -> i64 {
    use crate::model::time::SKEW_MS;
    let file_ms = mtime_ns / 1_000_000;
    match entry_ms {
        // (a file's time of 0 or before: none known)
        Some(t) if file_ms > 0 && t > file_ms.saturating_add(SKEW_MS) => file_ms,
        Some(t) => t,
        None => file_ms,
    }
}

fn row_of(
    path: &Path,
    size: u64,
    mtime_ns: i64,
    fallback_project: &str,
    h: crate::model::headline::Headline,
) -> SessionInfo {
    // the file's name is the session's id: a file that starts with lines
    // copied from an earlier session carries that session's id in them
    let session_id = crate::source::session_id_of(path)
        .or(h.session_id)
        .unwrap_or_default();
    SessionInfo {
        project: h.cwd.unwrap_or_else(|| fallback_project.to_owned()),
        session_id,
        path: path.to_path_buf(),
        title: h.title,
        first_prompt: h.first_prompt,
        last_activity_ms: last_activity(h.last_activity_ms, mtime_ns),
        message_count: h.message_count,
        message_count_exact: h.exact,
        size,
        model: h.model,
        git_branch: h.git_branch,
        subagent_files: None,
        subagents: h.subagents.unwrap_or(0),
        mtime_ns,
        live: false,
        unreadable: h.unreadable,
        figures: h.figures.map(Box::new),
        agent: h.agent.map(str::to_owned),
        spawned: h.spawned,
    }
}
