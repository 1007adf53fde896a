//! Search over everything a row can show once expanded: text, thinking,
//! a call's name, input and result, subagent transcripts.

use super::rows::SessionExt;
use crate::model::{Detail, Item, Session};

/// A match: (transcript, item index).
pub type Hit = (Option<u32>, usize);

#[derive(Debug, Default, Clone)]
pub struct Search {
    /// The prompt being typed, while it is open.
    pub editing: Option<String>,
    /// The last submitted query (what is highlighted).
    pub query: String,
    pub hits: Vec<Hit>,
    /// Index into `hits` of the current match.
    pub current: Option<usize>,
}

/// Case-insensitive search of `query` over every item of the session, in
/// reading order of the main transcript (a subagent's items come right
/// after the call that started it).
pub fn find_all(session: &Session, query: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    if query.is_empty() {
        return hits;
    }
    let q = query.to_lowercase();
    walk(session, None, &q, &mut hits, 0);
    hits
}

fn walk(session: &Session, agent: Option<u32>, q: &str, hits: &mut Vec<Hit>, depth: u8) {
    let Some(t) = session.transcript_checked(agent) else {
        return;
    };
    for (i, item) in t.items.iter().enumerate() {
        if item_matches(item, q) {
            hits.push((agent, i));
        }
        if let Detail::Call(c) = &item.detail {
            if let Some(a) = c.agent.filter(|&a| Some(a) != agent && depth < 8) {
                walk(session, Some(a), q, hits, depth + 1);
            }
        }
    }
}

pub fn contains_ci(hay: &str, q: &str) -> bool {
    if hay.is_ascii() && q.is_ascii() {
        let (h, n) = (hay.as_bytes(), q.as_bytes());
        return n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    hay.to_lowercase().contains(q)
}

fn item_matches(item: &Item, q: &str) -> bool {
    if contains_ci(&item.text, q) {
        return true;
    }
    match &item.detail {
        Detail::Call(c) => {
            contains_ci(&c.name, q)
                || contains_ci(&c.summary, q)
                || contains_ci(c.input.get(), q)
                || c.result.as_ref().is_some_and(|r| contains_ci(&r.text, q))
        }
        Detail::OrphanResult(r) => contains_ci(&r.text, q),
        _ => false,
    }
}
