//! The one channel into the event loop. Background work (loading, live
//! follow, the clipboard, the picker's scan) sends here; `run` applies.

use crate::model::Session;

#[derive(Debug)]
pub enum AppEvent {
    /// A terminal event (key, mouse, resize).
    Term(crossterm::event::Event),
    /// The loader of a session. `generation` names the load: events of a
    /// session the user has left are dropped.
    Load { generation: u64, event: LoadEvent },
    /// What the follower of the current session saw. `generation` names
    /// the load it follows: events of a session the user left are dropped.
    Live {
        generation: u64,
        event: crate::live::LiveEvent,
    },
    /// The outcome of a copy (status message, maybe OSC 52 bytes to write).
    Copied(crate::clipboard::CopyOutcome),
    /// A second passed while a running tool call is on screen.
    Tick,
    /// A big code block was highlighted in the background: redraw.
    Highlighted,
    /// SIGTERM / SIGINT / SIGHUP: restore the terminal and leave.
    Signal(i32),
    /// Session listing rows for the picker, as the background scan finds them.
    Scan(crate::catalog::ScanEvent),
    /// What a search across sessions found for a query (the picker's
    /// full-text mode).
    Found(String, Result<crate::search::Found, String>),
    /// `ccv top`: a session to watch, or what a watched one appended.
    Top(crate::top::TopEvent),
}

#[derive(Debug)]
pub enum LoadEvent {
    /// The end of a large session, parsed first so the first frame is fast.
    Preview(Box<Session>),
    /// How far the full load has read the session file (bytes, size).
    Progress(u64, u64),
    /// The whole session; replaces the preview.
    Loaded(Box<Session>),
    /// Loading failed.
    Failed(String),
}
