//! What a tool group's heading says, in one place for the screen, the
//! exports and the HTML page: its calls by tool, how many failed (a call
//! the user declined is not a failure), are declined, still run or got no
//! result, and how long the group took. A call's state is
//! [`Session::call_state`]'s, the one answer to "is this call running".

use super::item::{CallState, Detail, display_name};
use super::session::Session;
use super::transcript::Transcript;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GroupSummary {
    pub calls: usize,
    /// Tool names (as displayed) in the order they first appear, with
    /// how many calls each.
    pub tools: Vec<(String, usize)>,
    pub failed: usize,
    pub declined: usize,
    pub running: usize,
    pub no_result: usize,
    /// From the first call to the last result.
    pub duration_ms: Option<u64>,
}

impl Session {
    /// The summary of group `group` of transcript `t`; `now` while the
    /// session is followed live.
    pub fn group_summary(&self, t: &Transcript, group: usize, now: Option<i64>) -> GroupSummary {
        let mut s = GroupSummary::default();
        let Some(g) = t.groups.get(group) else {
            return s;
        };
        let items = t
            .items
            .get(g.first..=g.last.min(t.items.len().saturating_sub(1)))
            .unwrap_or(&[]);
        let (mut start, mut end) = (None::<i64>, None::<i64>);
        for it in items {
            let Detail::Call(c) = &it.detail else {
                continue;
            };
            s.calls += 1;
            let name = display_name(&c.name).to_owned();
            match s.tools.iter_mut().find(|(n, _)| *n == name) {
                Some(e) => e.1 += 1,
                None => s.tools.push((name, 1)),
            }
            match self.call_state(it, now) {
                Some(CallState::Failed) => s.failed += 1,
                Some(CallState::Rejected) => s.declined += 1,
                Some(CallState::Running) => s.running += 1,
                Some(CallState::NoResult) => s.no_result += 1,
                _ => {}
            }
            if let Some(r) = &c.result {
                end = end.max(r.timestamp);
            }
            start = match (start, it.timestamp) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        if let (Some(a), Some(b)) = (start, end)
            && b > a
        {
            s.duration_ms = Some((b - a) as u64);
        }
        s
    }
}
