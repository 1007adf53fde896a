//! Keeping the reader's place across a reload: an item named by what
//! survives re-reading (uuid, kind, line), not by its `ItemId`.

use crate::model::{ItemId, Kind, Session};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// The agent (by `agentId`) whose transcript holds the item; `None` for
    /// the main transcript.
    pub agent: Option<String>,
    pub uuid: Option<crate::model::Uuid>,
    pub kind: Kind,
    /// 1-based line of the item in its file.
    pub line: u32,
    /// The item came from the session file itself (not a subagent file).
    pub from_main_file: bool,
}

/// Where an anchor is after a reload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolve {
    /// Its line has not been read again yet: ask again after more events.
    Pending,
    /// Found: (agent index or `None` for main, item).
    Found(Option<u32>, ItemId),
    /// Read past its line and not there: the file really changed.
    Gone,
}

impl Anchor {
    /// The anchor of an item of `agent`'s transcript (`None`: main).
    pub fn of_item(session: &Session, agent: Option<u32>, id: ItemId) -> Option<Anchor> {
        let (t, agent_id) = match agent {
            None => (&session.main, None),
            Some(a) => {
                let ag = session.agents.get(a as usize)?;
                (&ag.transcript, Some(ag.id.clone()))
            }
        };
        let item = t.items.get(t.index_of(id)?)?;
        Some(Anchor {
            agent: agent_id,
            uuid: item.uuid.clone(),
            kind: item.kind,
            line: item.line,
            from_main_file: item.source == crate::model::session::MAIN,
        })
    }

    /// The last item of the main transcript.
    pub fn last(session: &Session) -> Option<Anchor> {
        let id = session.main.items.last()?.id;
        Anchor::of_item(session, None, id)
    }

    /// Looks for the item in a session being re-read. Cheap while
    /// `Pending` (no search until its line has been read).
    pub fn resolve(&self, session: &Session) -> Resolve {
        let agent = match &self.agent {
            None => None,
            Some(id) => match session.agent_by_id(id) {
                Some(a) => Some(a),
                None => return self.pending_or_gone(session, None),
            },
        };
        let lines_read = self.lines_read(session, agent);
        if lines_read < self.line {
            return Resolve::Pending;
        }
        match self.find(session) {
            Some((a, id)) => Resolve::Found(a, id),
            None => Resolve::Gone,
        }
    }

    /// Looks for the item now (e.g. at `Applied::Reloaded`), wherever the
    /// reading is.
    pub fn find(&self, session: &Session) -> Option<(Option<u32>, ItemId)> {
        let agent = match &self.agent {
            None => None,
            Some(id) => Some(session.agent_by_id(id)?),
        };
        let t = session.transcript(agent);
        t.items
            .iter()
            .rev()
            .find(|i| self.matches(i))
            .map(|i| (agent, i.id))
    }

    fn matches(&self, i: &crate::model::Item) -> bool {
        match &self.uuid {
            Some(u) => i.uuid.as_deref() == Some(u) && i.kind == self.kind,
            None => i.line == self.line && i.kind == self.kind,
        }
    }

    fn pending_or_gone(&self, session: &Session, agent: Option<u32>) -> Resolve {
        if self.lines_read(session, agent) < self.line {
            Resolve::Pending
        } else {
            Resolve::Gone
        }
    }

    fn lines_read(&self, session: &Session, agent: Option<u32>) -> u32 {
        let src = if self.from_main_file {
            session.sources.first()
        } else {
            session
                .sources
                .iter()
                .find(|s| s.agent.is_some() && s.agent == agent)
        };
        src.map_or(0, |s| s.lines())
    }
}
