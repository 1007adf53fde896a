//! What to copy: the text of one item, a tool group, a selection, or the
//! transcript as filtered, in the labelled format of `ccv export`.

use crate::export::{self, Format, Options, RowWriter};
use crate::model::item::{Item, ItemId};
use crate::model::session::Session;
use crate::model::transcript::Transcript;

/// The part of a session to copy. `agent` is the subagent whose transcript
/// the items belong to (`None`: the main transcript), as in
/// [`Session::transcript`].
#[derive(Clone, Copy)]
pub enum CopyScope<'a> {
    /// One item; a tool call brings its result and its subagent.
    Item { agent: Option<u32>, id: ItemId },
    /// A tool group (`Transcript::groups[group]`): all its calls, their
    /// results, and the thinking between them.
    Group { agent: Option<u32>, group: usize },
    /// A visual selection: the items from `from` to `to` inclusive, in
    /// transcript order (either end may come first).
    Range {
        agent: Option<u32>,
        from: ItemId,
        to: ItemId,
    },
    /// The whole transcript as filtered: items `keep` rejects are left out,
    /// at every depth. With `agent: None`, subagents no call links to follow
    /// the main transcript, as in `ccv export`.
    Filtered {
        agent: Option<u32>,
        keep: &'a dyn Fn(&Item) -> bool,
    },
}

/// The text to put on the clipboard, and how many rows it holds (for the
/// status message). `rows == 0` means there was nothing to copy.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CopyText {
    pub text: String,
    pub rows: usize,
}

/// The text of `scope` in `format` (`opts.format` is ignored; the other
/// options apply). Session text is sanitized by the export formatter.
pub fn copy_text(
    session: &Session,
    scope: &CopyScope<'_>,
    format: Format,
    opts: &Options,
) -> CopyText {
    let mut buf = Vec::new();
    let mut w = RowWriter::new(session, format, &mut buf).redacting(opts.redact);
    match *scope {
        CopyScope::Item { agent, id } => {
            if let Some((t, name)) = transcript(session, agent)
                && let Some(item) = t.index_of(id).and_then(|i| t.items.get(i))
            {
                // The user pointed at this item: copy it even when the
                // options would hide its kind.
                let opts = Options {
                    no_thinking: false,
                    no_tools: false,
                    ..*opts
                };
                export::visit_item(session, item, name, &opts, &mut |r, a| w.row(r, a));
            }
        }
        CopyScope::Group { agent, group } => {
            if let Some((t, name)) = transcript(session, agent)
                && let Some(items) = t
                    .groups
                    .get(group)
                    .and_then(|g| t.items.get(g.first..=g.last))
            {
                visit(session, items, name, opts, &|_| true, &mut w);
            }
        }
        CopyScope::Range { agent, from, to } => {
            if let Some((t, name)) = transcript(session, agent)
                && let (Some(a), Some(b)) = (t.index_of(from), t.index_of(to))
                && let Some(items) = t.items.get(a.min(b)..=a.max(b))
            {
                visit(session, items, name, opts, &|_| true, &mut w);
            }
        }
        CopyScope::Filtered { agent, keep } => {
            if let Some((t, name)) = transcript(session, agent) {
                visit(session, &t.items, name, opts, keep, &mut w);
                if agent.is_none() && !opts.no_subagents {
                    for a in session.unlinked_agents() {
                        if let Some(sub) = session.agents.get(a as usize) {
                            visit(
                                session,
                                &sub.transcript.items,
                                Some(&sub.id),
                                opts,
                                keep,
                                &mut w,
                            );
                        }
                    }
                }
            }
        }
    }
    // Writing to a Vec cannot fail.
    let rows = w.finish().unwrap_or(0);
    CopyText {
        text: String::from_utf8_lossy(&buf).into_owned(),
        rows,
    }
}

fn visit<'a>(
    session: &'a Session,
    items: &'a [Item],
    agent: Option<&'a str>,
    opts: &Options,
    keep: &dyn Fn(&Item) -> bool,
    w: &mut RowWriter<'_, '_>,
) {
    export::visit_rows_kept(session, items, agent, opts, keep, &mut |r, a| w.row(r, a));
}

/// The transcript of `agent` and the name its rows are labelled with.
fn transcript(session: &Session, agent: Option<u32>) -> Option<(&Transcript, Option<&str>)> {
    match agent {
        None => Some((&session.main, None)),
        Some(a) => session
            .agents
            .get(a as usize)
            .map(|s| (&s.transcript, Some(s.id.as_str()))),
    }
}
