//! What to copy: the text of one item, a tool group, a selection, or the
//! transcript as filtered, in the labelled format of `ccv export`.

use crate::export::{Flat, Format, Options, RowWriter};
use crate::model::item::ItemId;
use crate::model::session::Session;
use crate::model::transcript::Transcript;
use crate::walk::{Filters, Walk};

/// The part of a session to copy. `agent` is the subagent whose transcript
/// the items belong to (`None`: the main transcript), as in
/// [`Session::transcript`].
#[derive(Clone, Copy)]
pub enum CopyScope {
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
    /// The whole transcript as `filters` show it, at every depth. With
    /// `agent: None`, subagents no call links to follow the main
    /// transcript, as in `ccv export`.
    Filtered {
        agent: Option<u32>,
        filters: Filters,
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
/// options apply to all but a filtered scope). Session text is sanitized
/// by the export formatter.
pub fn copy_text(session: &Session, scope: &CopyScope, format: Format, opts: &Options) -> CopyText {
    let mut buf = Vec::new();
    let mut w = RowWriter::new(session, format, &mut buf).redacting(opts.redact);
    let mut write = |r, a| w.row(r, a);
    let mut flat = Flat::new(session, &mut write);
    let walk = Walk::new(session, opts.filters());
    match *scope {
        CopyScope::Item { agent, id } => {
            if let Some(i) = transcript(session, agent).and_then(|t| t.index_of(id)) {
                // The user pointed at this item: copy it even when the
                // options would hide its kind.
                let filters = Filters {
                    subagents: !opts.no_subagents,
                    ..Filters::all()
                };
                Walk::new(session, filters).one(agent, i, &mut flat);
            }
        }
        CopyScope::Group { agent, group } => {
            if let Some(g) = transcript(session, agent).and_then(|t| t.groups.get(group)) {
                walk.part(agent, g.first..g.last + 1, &mut flat);
            }
        }
        CopyScope::Range { agent, from, to } => {
            if let Some(t) = transcript(session, agent)
                && let (Some(a), Some(b)) = (t.index_of(from), t.index_of(to))
            {
                walk.part(agent, a.min(b)..a.max(b) + 1, &mut flat);
            }
        }
        CopyScope::Filtered { agent, filters } => {
            let walk = Walk::new(session, filters);
            match agent {
                None => walk.session(&mut flat),
                Some(_) => walk.part(agent, 0..usize::MAX, &mut flat),
            }
        }
    }
    // Writing to a Vec cannot fail.
    let rows = w.finish().unwrap_or(0);
    let text = String::from_utf8_lossy(&buf).into_owned();
    if opts.redact {
        crate::redact::count_shown_markers(&text);
    }
    CopyText { text, rows }
}

/// The transcript of `agent`.
fn transcript(session: &Session, agent: Option<u32>) -> Option<&Transcript> {
    match agent {
        None => Some(&session.main),
        Some(a) => session.agents.get(a as usize).map(|s| &s.transcript),
    }
}
