//! The one channel into the event loop. Add a variant for new background
//! work (live follow: `Live`, clipboard: `Copied`) and handle it in
//! `run::handle_event`.

use crate::model::Session;

#[derive(Debug)]
pub enum AppEvent {
    /// A terminal event (key, mouse, resize).
    Term(crossterm::event::Event),
    /// The end of a large session, parsed first so the first frame is fast.
    Preview(Box<Session>),
    /// The whole session; replaces the preview.
    Loaded(Box<Session>),
    /// Loading failed.
    LoadFailed(String),
    /// SIGTERM / SIGINT / SIGHUP: restore the terminal and leave.
    Signal(i32),
    /// Session listing rows for the picker, as the background scan finds them.
    Scan(crate::picker::ScanEvent),
}
