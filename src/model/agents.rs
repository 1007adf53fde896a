//! Subagents: their runs, and how each is linked to the call that started
//! it (by `agentId`, by prompt for inline sidechains) or to the compaction
//! it summarised.

use super::item::*;
use super::session::{MAIN, Session, Target, push_unique};
use super::transcript::Transcript;
use rustc_hash::FxHashMap as HashMap;
use serde_json::value::RawValue;

/// A subagent run (Task/Agent tool, an inline sidechain, or the compaction
/// summariser).
#[derive(Debug, Default)]
pub struct Agent {
    /// `agentId`, or `sidechain-N` for inline sidechains that have none.
    pub id: String,
    pub transcript: Transcript,
    /// The Task/Agent call that started it.
    pub call: Option<CallRef>,
    /// Its first prompt, used to link inline sidechains to their call.
    pub prompt: Option<String>,
    pub agent_type: Option<String>,
    /// What its call was for, as the file Claude Code writes beside its
    /// transcript says (see [`AgentMeta`]).
    pub description: Option<String>,
    /// The compaction summariser (`agent-acompact-*`).
    pub compact: bool,
    /// Its lines have a record of their own (its file, or inline sidechain
    /// lines): the `agent_progress` copies in the main file are duplicates.
    pub has_record: bool,
    /// Its rows come from `agent_progress` copies (a copied session without
    /// its `subagents/` folder).
    pub mirrored: bool,
}

/// What Claude Code writes of a subagent beside its transcript
/// (`agent-<id>.meta.json`: `agentType`, `description`, `toolUseId`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AgentMeta {
    pub agent_type: Option<String>,
    pub description: Option<String>,
    /// The id of the call that started it.
    pub call: Option<String>,
}

/// A tool call, wherever it is: the transcript that holds it and its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallRef {
    pub holder: Target,
    pub item: ItemId,
}

impl Agent {
    /// `general-purpose`, `Explore`...: from the call's `subagent_type`,
    /// else the result's `agentType`.
    pub fn subagent_type<'a>(&'a self, session: &'a Session) -> Option<&'a str> {
        if let Some(t) = self.agent_type.as_deref() {
            return Some(t);
        }
        let call = self.call_of(session)?;
        call.result
            .as_ref()
            .and_then(|r| r.extra.as_ref())
            .and_then(|x| x.agent_type.as_deref())
    }

    /// The Task/Agent call that started this agent.
    pub fn call_of<'a>(&self, session: &'a Session) -> Option<&'a ToolCall> {
        let CallRef { holder, item: id } = self.call?;
        let t = session.transcript(holder);
        match &t.items.get(t.index_of(id)?)?.detail {
            Detail::Call(c) => Some(c),
            _ => None,
        }
    }

    /// Tool calls the agent made (its own transcript; mirrored
    /// `agent_progress` lines are not counted).
    pub fn tool_calls(&self) -> usize {
        self.transcript
            .items
            .iter()
            .filter(|i| i.kind == Kind::ToolCall)
            .count()
    }

    /// Wall time in ms: the result's `totalDurationMs`, else first to last
    /// timestamp of its own lines.
    pub fn duration_ms(&self, session: &Session) -> Option<u64> {
        let reported = self
            .call_of(session)
            .and_then(|c| c.result.as_ref())
            .and_then(|r| r.extra.as_ref())
            .and_then(|x| x.total_duration_ms.get());
        if reported.is_some() {
            return reported;
        }
        let mut ts = self.transcript.items.iter().filter_map(|i| i.timestamp);
        let first = ts.next()?;
        let (lo, hi) = ts.fold((first, first), |(lo, hi), t| (lo.min(t), hi.max(t)));
        Some((hi - lo).max(0) as u64)
    }

    /// The throw-away "Warmup" run of 2.0.7x (no call starts it).
    pub fn is_warmup(&self) -> bool {
        self.call.is_none() && self.prompt.as_deref().is_some_and(|p| p.trim() == "Warmup")
    }

    /// `subagent general-purpose · 14 tool calls · 2m31s`
    pub fn label(&self, session: &Session) -> String {
        let mut s = String::from("subagent");
        // the type the run reported, else the one its call asked for
        let asked = || {
            let c = self.call_of(session)?;
            let v: serde_json::Value = serde_json::from_str(c.input.shown()).ok()?;
            Some(v.get("subagent_type")?.as_str()?.to_owned())
        };
        if self.compact {
            s.push_str(" compaction");
        } else if let Some(t) = self
            .subagent_type(session)
            .map(str::to_owned)
            .or_else(asked)
        {
            s.push(' ');
            s.push_str(&t);
        }
        // what it was for, where no call's row says it
        if self.call.is_none()
            && let Some(d) = &self.description
        {
            s.push_str(" · ");
            s.push_str(d);
        }
        let n = self.tool_calls();
        s.push_str(&format!(
            " · {n} tool call{}",
            if n == 1 { "" } else { "s" }
        ));
        if let Some(ms) = self.duration_ms(session) {
            s.push_str(&format!(" · {}", super::time::human_duration(ms)));
        }
        if let Some(c) = self.transcript.cost.describe(&self.transcript.unpriced) {
            s.push_str(&format!(" · {c}"));
        }
        s
    }
}

impl Session {
    /// Agents that no call links to, in order of appearance. Compaction
    /// summarisers that belong to a compaction (see [`Self::compaction_of`])
    /// and throw-away "Warmup" runs are left out.
    pub fn unlinked_agents(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.agents.len() as u32).filter(|&a| {
            let ag = &self.agents[a as usize];
            ag.call.is_none() && !ag.is_warmup() && self.compaction_of(a).is_none()
        })
    }

    /// The compaction item (compact_boundary, else the summary) of the main
    /// transcript that a compaction summariser (`agent-acompact-*`) ran for:
    /// the first one after the line its first `parentUuid` names.
    pub fn compaction_of(&self, agent: u32) -> Option<ItemId> {
        let ag = self.agents.get(agent as usize)?;
        if !ag.compact {
            return None;
        }
        let first = ag.transcript.threads.parent_uuid(0)?;
        let parent = self.main.threads.node(first)?;
        let after = self.main.threads.nodes.get(parent as usize)?.line;
        let is_compaction = |i: &&Item| {
            i.kind == Kind::Compaction
                || matches!(&i.detail, Detail::System(s) if matches!(**s, SystemInfo::CompactBoundary { micro: false, .. }))
        };
        self.main
            .items
            .iter()
            .filter(|i| i.source == MAIN && i.line > after)
            .find(is_compaction)
            .map(|i| i.id)
    }

    /// Compaction summarisers that belong to this compaction item.
    pub fn agents_of_compaction(&self, item: ItemId) -> impl Iterator<Item = u32> + '_ {
        (0..self.agents.len() as u32).filter(move |&a| {
            self.agents[a as usize].compact && self.compaction_of(a) == Some(item)
        })
    }

    pub(crate) fn agent_for_id(&mut self, id: &str) -> u32 {
        if let Some(&a) = self.agent_index.get(id) {
            return a;
        }
        let a = self.agents.len() as u32;
        self.agents.push(Agent {
            id: id.to_owned(),
            compact: id.starts_with("acompact"),
            has_record: self.recorded_apart.contains(id),
            ..Default::default()
        });
        self.agent_index.insert(id.to_owned(), a);
        a
    }

    pub fn agent_by_id(&self, id: &str) -> Option<u32> {
        self.agent_index.get(id).copied()
    }

    // --- linking subagents to the calls that started them -------------

    pub(crate) fn link(&mut self, agent: u32, holder: Target, call: ItemId) {
        if holder == Target::Agent(agent) || self.agents[agent as usize].call.is_some() {
            return;
        }
        self.agents[agent as usize].call = Some(CallRef { holder, item: call });
        let t = self.transcript_mut(holder);
        let mut kind = None;
        if let Some(idx) = t.index_of(call)
            && let Detail::Call(c) = &mut t.items[idx].detail
        {
            c.agent = Some(agent);
            kind = input_str(c.input.or_marker(), "subagent_type").or_else(|| {
                Some(
                    c.result
                        .as_ref()?
                        .extra
                        .as_ref()?
                        .agent_type
                        .as_deref()?
                        .into(),
                )
            });
        }
        let a = &mut self.agents[agent as usize];
        if a.agent_type.is_none() {
            a.agent_type = kind;
        }
        push_unique(&mut self.changes.updated, call);
        self.changes.rebuilt = true;
    }

    pub(crate) fn link_agent_to_tool(&mut self, agent: u32, tool_use_id: &str) {
        if self.agents[agent as usize].call.is_some() {
            return;
        }
        if let Some(idx) = self.main.tool_call_index(tool_use_id) {
            let id = self.main.items[idx].id;
            self.link(agent, Target::Main, id);
        }
    }

    /// Takes in what an agent's meta file says: its type and what it was
    /// for, and the call that started it, linked to when nothing else
    /// linked the agent (a call in the main transcript or in another
    /// agent's, for an agent an agent started). One agent's (a follower
    /// found it): its call looked up in each transcript.
    pub fn apply_agent_meta(&mut self, agent: u32, meta: AgentMeta) {
        let Some(call) = self.take_meta(agent, meta) else {
            return;
        };
        let holders = std::iter::once(Target::Main).chain(
            (0..self.agents.len() as u32)
                .filter(|&b| b != agent)
                .map(Target::Agent),
        );
        let found = holders
            .filter_map(|t| {
                let tr = self.transcript(t);
                let idx = tr.tool_call_index(&call)?;
                Some((t, tr.items.get(idx)?))
            })
            .find(|(_, it)| starts_agents(it))
            .map(|(t, it)| (t, it.id));
        if let Some((holder, item)) = found {
            self.link(agent, holder, item);
        }
    }

    /// [`Self::apply_agent_meta`] for every agent of a load at once: the
    /// calls they name found in one pass over the transcripts (looked up
    /// in each for each agent, thousands of agents naming calls that are
    /// nowhere took a lookup per pair).
    pub fn apply_agent_metas(&mut self, metas: Vec<(u32, AgentMeta)>) {
        let mut wanted: HashMap<String, u32> = HashMap::default();
        for (agent, meta) in metas {
            if let Some(call) = self.take_meta(agent, meta) {
                wanted.entry(call).or_insert(agent);
            }
        }
        if wanted.is_empty() {
            return;
        }
        let holders =
            std::iter::once(Target::Main).chain((0..self.agents.len() as u32).map(Target::Agent));
        let mut found = Vec::new();
        for t in holders {
            for it in &self.transcript(t).items {
                if let Detail::Call(c) = &it.detail
                    && starts_agents(it)
                    && let Some(&agent) = wanted.get(&c.id)
                    && t != Target::Agent(agent)
                {
                    found.push((agent, t, it.id));
                }
            }
        }
        // (the first call of an id wins; `link` keeps an agent's first)
        for (agent, holder, item) in found {
            self.link(agent, holder, item);
        }
    }

    /// The type and description of `meta` onto `agent` (where it has none),
    /// and the call it names when the agent is linked to none yet.
    fn take_meta(&mut self, agent: u32, meta: AgentMeta) -> Option<String> {
        let redacting = self.redacting;
        let a = self.agents.get_mut(agent as usize)?;
        if a.agent_type.is_none() {
            a.agent_type = meta.agent_type;
        }
        if a.description.is_none() {
            // shown as read while the screen is redacted, as every text is
            a.description = match meta.description {
                Some(d) if redacting => Some(crate::redact::active().redact(&d).into_owned()),
                d => d,
            };
        }
        meta.call.filter(|_| a.call.is_none())
    }

    /// An inline sidechain's first prompt names its Task call's prompt.
    pub(crate) fn link_by_prompt(&mut self, agent: u32) {
        if self.agents[agent as usize].call.is_some() {
            return;
        }
        let Some(prompt) = self.agents[agent as usize].prompt.clone() else {
            return;
        };
        let found = self
            .main
            .items
            .iter()
            .rev()
            .take(5000)
            .find_map(|it| match &it.detail {
                Detail::Call(c) if c.category == Category::Subagent && c.agent.is_none() => {
                    (c.task_prompt.as_deref() == Some(prompt.as_str())).then_some(it.id)
                }
                _ => None,
            });
        if let Some(id) = found {
            self.link(agent, Target::Main, id);
        }
    }

    /// A Task call written after its sidechain (rare): link by prompt too.
    pub(crate) fn link_call_by_prompt(&mut self, target: Target, idx: usize) {
        let t = match target {
            Target::Main => &self.main,
            Target::Agent(_) => return,
        };
        let Detail::Call(c) = &t.items[idx].detail else {
            return;
        };
        if c.category != Category::Subagent {
            return;
        }
        let Some(p) = c.task_prompt.as_deref() else {
            return;
        };
        let id = t.items[idx].id;
        let found = self
            .agents
            .iter()
            .position(|a| a.call.is_none() && a.prompt.as_deref() == Some(p));
        if let Some(a) = found {
            self.link(a as u32, Target::Main, id);
        }
    }
}

/// Whether `it` is a subagent's call no agent is linked to yet (a
/// Workflow's call starts many agents: they stay rows of their own).
fn starts_agents(it: &Item) -> bool {
    matches!(&it.detail, Detail::Call(c) if c.agent.is_none() && c.category == Category::Subagent)
}

/// The prompt of a subagent's call's input (`None`: it has none).
pub(crate) fn task_prompt(input: &str) -> Option<Box<str>> {
    input_str(input, "prompt").map(Into::into)
}

/// A string field of a tool call's input.
fn input_str(input: &str, key: &str) -> Option<String> {
    let v: HashMap<String, &RawValue> = serde_json::from_str(input).ok()?;
    serde_json::from_str::<String>(v.get(key)?.get()).ok()
}
