//! `ccv check`: what is structurally wrong or unfinished in a session's
//! files, with the line to look at. Pure: it reads a loaded [`Session`].

use super::item::{Detail, ItemId, Kind};
use super::session::Session;
use super::transcript::Transcript;
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
    /// More than one `sessionId` in the session's own file.
    SeveralSessions,
    /// A line that is not a JSON object.
    Unreadable,
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
            FindingKind::SeveralSessions => "several_sessions",
            FindingKind::Unreadable => "unreadable",
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

/// Every finding, ordered by source and line.
pub fn check(session: &Session, live: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    for (source, p) in &session.problems {
        if !p.recovered {
            out.push(Finding {
                source: *source,
                line: p.line,
                kind: FindingKind::Unreadable,
                message: format!("unreadable line: {}", p.message),
                item_id: unreadable_item(session, *source, p.line),
            });
        }
    }
    check_transcript(session, &session.main, None, live, &mut out);
    for (a, agent) in session.agents.iter().enumerate() {
        check_transcript(session, &agent.transcript, Some(a as u32), live, &mut out);
    }
    if session.session_id_lines.len() > 1 {
        let first = session
            .session_id_lines
            .first()
            .map(|(s, _, _)| s.as_str())
            .unwrap_or("");
        for (sid, source, line) in session.session_id_lines.iter().skip(1) {
            out.push(Finding {
                source: *source,
                line: *line,
                kind: FindingKind::SeveralSessions,
                message: format!("sessionId changes from {first} to {sid} (a resumed session?)"),
                item_id: None,
            });
        }
    }
    out.sort_by_key(|f| (f.source, f.line, f.kind as u8));
    out
}

fn check_transcript(
    session: &Session,
    t: &Transcript,
    agent: Option<u32>,
    live: bool,
    out: &mut Vec<Finding>,
) {
    for item in &t.items {
        match &item.detail {
            Detail::Call(c) if c.result.is_none() && !c.server => {
                let (kind, what) = if live {
                    (FindingKind::StillRunning, "still running")
                } else {
                    (FindingKind::NoResult, "no result")
                };
                out.push(Finding {
                    source: item.source,
                    line: item.line,
                    kind,
                    message: format!("tool call {} {} ({what})", clean(&c.name), clean(&c.id)),
                    item_id: Some(item.id),
                });
            }
            Detail::OrphanResult(_) if item.kind == Kind::ToolResult => out.push(Finding {
                source: item.source,
                line: item.line,
                kind: FindingKind::ResultWithoutCall,
                message: "tool result without its call (the file may start mid-session)".into(),
                item_id: Some(item.id),
            }),
            _ => {}
        }
    }
    let item_of = |source: u16, line: u32| {
        t.items
            .iter()
            .find(|i| i.source == source && i.line == line)
            .map(|i| i.id)
    };
    let threads = &t.threads;
    for n in threads.dangling() {
        let parent = n.parent_uuid.as_deref().unwrap_or("");
        // A subagent file's first line may point into the session file
        // (the compaction summariser does).
        if agent.is_some() && session.main.threads.node(parent).is_some() {
            continue;
        }
        let why = match agent.map(|a| &session.agents[a as usize]) {
            Some(a) if a.compact => "the compaction summariser's parent is in the session file",
            _ => "a resumed session, a copy that starts mid-session, or a compaction",
        };
        out.push(Finding {
            source: n.source,
            line: n.line,
            kind: FindingKind::DanglingParent,
            message: format!("parentUuid {} is not in the file ({why})", clean(parent)),
            item_id: item_of(n.source, n.line),
        });
    }
    for c in threads.cycles() {
        let Some(n) = threads.nodes.get(c as usize) else {
            continue;
        };
        out.push(Finding {
            source: n.source,
            line: n.line,
            kind: FindingKind::Cycle,
            message: format!("parentUuid links of {} form a cycle", clean(&n.uuid)),
            item_id: item_of(n.source, n.line),
        });
    }
    for r in &threads.repeats {
        out.push(Finding {
            source: r.source,
            line: r.line,
            kind: FindingKind::RepeatedUuid,
            message: format!(
                "uuid {} was already used on line {}",
                clean(&r.uuid),
                r.first_line
            ),
            item_id: None,
        });
    }
}

fn unreadable_item(session: &Session, source: u16, line: u32) -> Option<ItemId> {
    std::iter::once(&session.main)
        .chain(session.agents.iter().map(|a| &a.transcript))
        .flat_map(|t| t.items.iter())
        .find(|i| i.kind == Kind::Unreadable && i.source == source && i.line == line)
        .map(|i| i.id)
}

/// Ids and names come from the file: keep them on one short line.
fn clean(s: &str) -> String {
    let s = super::text::sanitize(s).replace(['\n', '\r'], " ");
    super::text::truncate(&s, 80).into_owned()
}

/// What the viewer marks: the rows findings name, with a short reason
/// each. Built once per change of the session (see [`Session::marks`]).
#[derive(Debug, Default)]
pub struct Marks {
    items: rustc_hash::FxHashMap<ItemId, Vec<Mark>>,
    /// Subagents with a marked row (their folded row is marked too).
    agents: rustc_hash::FxHashSet<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub kind: FindingKind,
    pub line: u32,
}

impl Mark {
    /// One short line for the viewer (the full message is `ccv check`'s).
    pub fn explain(&self) -> String {
        let what = match self.kind {
            FindingKind::StillRunning => "still running",
            FindingKind::NoResult => "no result for this tool call",
            FindingKind::ResultWithoutCall => "no tool call for this result",
            FindingKind::DanglingParent => "parent uuid not found (resumed or copied session?)",
            FindingKind::Cycle => "parentUuid links form a cycle",
            FindingKind::RepeatedUuid => "uuid used twice",
            FindingKind::SeveralSessions => "sessionId changes here",
            FindingKind::Unreadable => "unreadable line",
        };
        format!("line {}: {what}", self.line)
    }
}

impl Marks {
    pub fn of(&self, id: ItemId) -> &[Mark] {
        self.items.get(&id).map_or(&[], Vec::as_slice)
    }

    pub fn agent(&self, agent: u32) -> bool {
        self.agents.contains(&agent)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// The marks of a session. A call without a result is only marked when the
/// conversation went on without it (a later assistant message): one at
/// the end may still be running, in a live file or not.
pub fn marks(session: &Session) -> Marks {
    let mut gone = rustc_hash::FxHashSet::default();
    for t in std::iter::once(&session.main).chain(session.agents.iter().map(|a| &a.transcript)) {
        lost_calls(t, &mut gone);
    }
    let mut owner = rustc_hash::FxHashMap::default();
    for (a, agent) in session.agents.iter().enumerate() {
        for i in &agent.transcript.items {
            owner.insert(i.id, a as u32);
        }
    }
    let mut m = Marks::default();
    for f in check(session, true) {
        let Some(id) = f.item_id else { continue };
        let kind = match f.kind {
            FindingKind::StillRunning if gone.contains(&id) => FindingKind::NoResult,
            FindingKind::StillRunning => continue,
            k => k,
        };
        if let Some(&a) = owner.get(&id) {
            m.agents.insert(a);
        }
        let v = m.items.entry(id).or_default();
        if !v.iter().any(|x| x.kind == kind) {
            v.push(Mark { kind, line: f.line });
        }
    }
    m
}

/// Calls without results that an assistant message of a later request
/// follows: their results were never written.
fn lost_calls(t: &Transcript, out: &mut rustc_hash::FxHashSet<ItemId>) {
    let by_model = |k: Kind| matches!(k, Kind::Assistant | Kind::Thinking | Kind::ToolCall);
    let Some((last, msg)) = t
        .items
        .iter()
        .enumerate()
        .rev()
        .find_map(|(n, i)| Some((n, i.message?)).filter(|_| by_model(i.kind)))
    else {
        return;
    };
    for i in t.items.get(..last).unwrap_or(&[]) {
        if let Detail::Call(c) = &i.detail {
            if c.result.is_none() && !c.server && i.message != Some(msg) {
                out.insert(i.id);
            }
        }
    }
}
