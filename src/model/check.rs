//! `ccv check`: what is structurally wrong or unfinished in a session's
//! files, with the line to look at. Pure: it reads a loaded [`Session`].

use super::item::{Collision, Detail, ItemId, Kind};
use super::session::Session;
use super::transcript::Transcript;

pub use super::finding::{Finding, FindingKind};

/// Every finding, ordered by source and line.
pub fn check(session: &Session, live: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    for (source, p) in &session.problems {
        out.push(if p.recovered {
            Finding {
                source: *source,
                line: p.line,
                kind: FindingKind::Repaired,
                message: format!("line read after a repair: {}", p.message),
                item_id: None,
            }
        } else {
            Finding {
                source: *source,
                line: p.line,
                kind: FindingKind::Unreadable,
                message: format!("unreadable line: {}", p.message),
                item_id: unreadable_item(session, *source, p.line),
            }
        });
    }
    // subagents named and not found, looked up on each call's result
    let lost: std::collections::HashSet<&str> = session.agents_not_found().collect();
    let seen = (session, &lost);
    check_transcript(seen, &session.main, None, live, &mut out);
    for (a, agent) in session.agents.iter().enumerate() {
        check_transcript(seen, &agent.transcript, Some(a as u32), live, &mut out);
    }
    if session.session_id_lines.len() > 1 {
        let first = session
            .session_id_lines
            .first()
            .map(|s| s.id.as_str())
            .unwrap_or("");
        for at in session.session_id_lines.iter().skip(1) {
            out.push(Finding {
                source: at.source,
                line: at.line,
                kind: FindingKind::SeveralSessions,
                message: format!(
                    "sessionId changes from {first} to {} (a resumed session?)",
                    at.id
                ),
                item_id: None,
            });
        }
    }
    out.sort_by_key(|f| (f.source, f.line, f.kind as u8));
    out
}

fn check_transcript(
    (session, lost): (&Session, &std::collections::HashSet<&str>),
    t: &Transcript,
    agent: Option<u32>,
    live: bool,
    out: &mut Vec<Finding>,
) {
    for item in &t.items {
        if let Detail::Call(c) = &item.detail
            && let Some(r) = &c.result
            && let Some(id) = r.extra.as_ref().and_then(|x| x.agent_id.as_deref())
            && lost.contains(id)
        {
            out.push(Finding {
                source: item.source,
                line: r.line,
                kind: FindingKind::AgentNotFound,
                message: format!(
                    "tool call {} {} names subagent {}, whose transcript is not here \
                     (no subagents/agent-{}.jsonl, no copies of its lines): its cost is not counted",
                    clean(&c.name),
                    clean(&c.id),
                    clean(id),
                    clean(id)
                ),
                // (no row to mark: the call's row is as it is)
                item_id: None,
            });
        }
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
            Detail::OrphanResult(r)
                if item.kind == Kind::ToolResult && item.flags.collision.is_none() =>
            {
                out.push(Finding {
                    source: item.source,
                    line: item.line,
                    kind: FindingKind::ResultWithoutCall,
                    message: format!(
                        "tool result {} without its call (the file may start mid-session)",
                        clean(&r.tool_use_id)
                    ),
                    item_id: Some(item.id),
                })
            }
            _ => {}
        }
        match (item.flags.collision, &item.detail) {
            (Some(Collision::ToolUseId), Detail::Call(c)) => out.push(Finding {
                source: item.source,
                line: item.line,
                kind: FindingKind::RepeatedToolUseId,
                message: format!(
                    "tool call {} reuses the id {} of an earlier call",
                    clean(&c.name),
                    clean(&c.id)
                ),
                item_id: Some(item.id),
            }),
            (Some(Collision::Result), Detail::OrphanResult(r)) => out.push(Finding {
                source: item.source,
                line: item.line,
                kind: FindingKind::RepeatedResult,
                message: format!("a second result for tool call {}", clean(&r.tool_use_id)),
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
    for (n, parent) in threads.dangling() {
        let parent: &str = parent;
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
        let Some((n, uuid)) = threads
            .nodes
            .get(c as usize)
            .and_then(|n| Some((n, threads.uuid_of(n)?)))
        else {
            continue;
        };
        out.push(Finding {
            source: n.source,
            line: n.line,
            kind: FindingKind::Cycle,
            message: format!("parentUuid links of {} form a cycle", clean(uuid)),
            item_id: item_of(n.source, n.line),
        });
    }
    // a line with other content under a used uuid is shown: its first row
    // carries the finding (one pass, not one per repeat)
    let mut reused: std::collections::HashMap<(u16, u32), ItemId> = Default::default();
    for i in t
        .items
        .iter()
        .filter(|i| i.flags.collision == Some(Collision::Uuid))
    {
        reused.entry((i.source, i.line)).or_insert(i.id);
    }
    for r in &threads.repeats {
        let shown = reused.get(&(r.source, r.line)).copied();
        out.push(Finding {
            source: r.source,
            line: r.line,
            kind: FindingKind::RepeatedUuid,
            message: format!(
                "uuid {} was already used on line {}",
                clean(&r.uuid),
                r.first_line
            ),
            item_id: shown,
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
