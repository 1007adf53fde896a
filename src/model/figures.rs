//! A session's usage in numbers: tokens, cost, prompts and tool calls, in
//! total and sliced by quarter hour and model, so that `ccv stats` can sum
//! them by day (in any time zone), project or model without reading the
//! session again. Computed from a loaded [`Session`], so the figures are
//! the viewer's own: tokens counted once per message, agents included.

pub use super::breakdown::{Breakdown, Detail};
use super::price::{Cost, ModelsMet, PriceTable};
use super::session::Session;
use super::transcript::Transcript;
use super::usage::Usage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Slices are this long: 15 minutes divide every time zone's offset, so a
/// slice falls on one local day wherever the user is.
pub const SLICE_MS: i64 = 15 * 60 * 1000;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cache_creation: u64,
    pub cache_read: u64,
}

/// More tokens than any history of sessions holds (a billion a day for
/// 2,700 years): a figure past it was not counted but damaged.
pub const MAX_TOTAL_TOKENS: u64 = 1 << 60;

impl Tokens {
    pub fn add_usage(&mut self, u: &Usage) {
        self.input = self.input.saturating_add(u.input_tokens);
        self.output = self.output.saturating_add(u.output_tokens);
        self.cache_creation = self
            .cache_creation
            .saturating_add(u.cache_creation_input_tokens);
        self.cache_read = self.cache_read.saturating_add(u.cache_read_input_tokens);
    }

    pub fn sub_usage(&mut self, u: &Usage) {
        self.input = self.input.saturating_sub(u.input_tokens);
        self.output = self.output.saturating_sub(u.output_tokens);
        self.cache_creation = self
            .cache_creation
            .saturating_sub(u.cache_creation_input_tokens);
        self.cache_read = self.cache_read.saturating_sub(u.cache_read_input_tokens);
    }

    pub fn add(&mut self, o: &Tokens) {
        self.input = self.input.saturating_add(o.input);
        self.output = self.output.saturating_add(o.output);
        self.cache_creation = self.cache_creation.saturating_add(o.cache_creation);
        self.cache_read = self.cache_read.saturating_add(o.cache_read);
    }

    pub fn total(&self) -> u64 {
        self.input
            .saturating_add(self.output)
            .saturating_add(self.cache_creation)
            .saturating_add(self.cache_read)
    }
}

/// What one model did in one quarter hour of a session. Cached as a
/// plain array: a listing holds ~15 of them per session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "SliceRow", into = "SliceRow")]
pub struct Slice {
    /// Start of the quarter hour, in ms since the epoch.
    pub at_ms: i64,
    /// The model, or empty for a prompt nothing answered.
    pub model: String,
    pub cost: Cost,
    pub tokens: Tokens,
    pub prompts: u32,
    pub tool_calls: u32,
}

impl Slice {
    /// Whether a slice read back can be true: its cost finite and not
    /// negative, its tokens possible, its model's name short.
    pub fn is_sane(&self) -> bool {
        self.cost.usd.is_finite()
            && self.cost.usd >= 0.0
            && self.tokens.total() < MAX_TOTAL_TOKENS
            && self.model.len() <= super::breakdown::MAX_NAME
    }
}

/// A row's slices read back into a list of exactly their number: a list
/// grown as they are read was grown 4, 8, 16… and copied each time (a
/// sixth of a warm listing's fresh pages, 10,000 rows).
pub(super) fn slices_exact<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Slice>, D::Error> {
    struct Exact;
    impl<'de> serde::de::Visitor<'de> for Exact {
        type Value = Vec<Slice>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of slices")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Vec<Slice>, A::Error> {
            thread_local! {
                static READ: std::cell::Cell<Vec<Slice>> = const { std::cell::Cell::new(Vec::new()) };
            }
            let mut read = READ.take();
            read.clear();
            let mut got = Ok(());
            loop {
                match seq.next_element() {
                    Ok(Some(s)) => read.push(s),
                    Ok(None) => break,
                    Err(e) => {
                        got = Err(e);
                        break;
                    }
                }
            }
            // moved into a list of their number (taking the list itself
            // would keep its spare room)
            let mut exact = Vec::with_capacity(read.len());
            exact.append(&mut read);
            // a list for the next row, unless a huge one grew it
            if read.capacity() <= 4096 {
                READ.set(read);
            }
            got.map(|()| exact)
        }
    }
    d.deserialize_seq(Exact)
}

/// `[at_ms, model, usd, unpriced, input, output, cache_creation,
/// cache_read, prompts, tool_calls]`.
#[derive(Serialize, Deserialize)]
struct SliceRow(i64, String, f64, u32, u64, u64, u64, u64, u32, u32);

impl From<SliceRow> for Slice {
    fn from(r: SliceRow) -> Slice {
        Slice {
            at_ms: r.0,
            model: r.1,
            cost: Cost {
                usd: r.2,
                unpriced: r.3,
            },
            tokens: Tokens {
                input: r.4,
                output: r.5,
                cache_creation: r.6,
                cache_read: r.7,
            },
            prompts: r.8,
            tool_calls: r.9,
        }
    }
}

impl From<Slice> for SliceRow {
    fn from(s: Slice) -> SliceRow {
        let t = s.tokens;
        SliceRow(
            s.at_ms,
            s.model,
            s.cost.usd,
            s.cost.unpriced,
            t.input,
            t.output,
            t.cache_creation,
            t.cache_read,
            s.prompts,
            s.tool_calls,
        )
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Main conversation and subagents together.
    pub tokens: Tokens,
    pub cost: Cost,
    /// The subagents' part of `tokens` and `cost`.
    pub agent_tokens: Tokens,
    pub agent_cost: Cost,
    pub prompts: u32,
    pub tool_calls: u32,
    /// Calls by tool, and the slices (`tools` and `slices` in JSON).
    #[serde(flatten)]
    pub detail: Detail,
    /// A hash of the main conversation's first priced message (id and
    /// usage): a
    /// session resumed into another file starts with the same one (the
    /// copies are counted once across sessions, see `ccv stats`).
    #[serde(default)]
    pub first_message: Option<u64>,
}

impl Figures {
    /// The figures of a loaded session. `fallback_ms` dates what carries
    /// no timestamp (the file's last activity).
    pub fn of(session: &Session, fallback_ms: i64) -> Figures {
        let mut sum = FiguresSum::default();
        sum.add(session, fallback_ms);
        sum.finish()
    }

    /// Whether figures read back from a cache can be true: costs finite
    /// and not negative, token counts possible, lists of a bounded size.
    /// A cache that says otherwise was damaged or written by someone else.
    pub fn is_sane(&self) -> bool {
        let cost = |c: &Cost| c.usd.is_finite() && c.usd >= 0.0;
        let tokens = |t: &Tokens| t.total() < MAX_TOTAL_TOKENS;
        cost(&self.cost)
            && cost(&self.agent_cost)
            && tokens(&self.tokens)
            && tokens(&self.agent_tokens)
            // packed, it was checked as it was read (see [`Detail::packed`])
            && (self.detail.packed_bytes().is_some() || self.detail.get().is_sane())
    }

    /// `cost_usd` for JSON: what the priced messages cost (rounded to a
    /// millionth), `None` only when nothing at all was priced.
    pub fn cost_usd(&self) -> Option<f64> {
        self.cost.priced_usd()
    }

    /// The tokens and cost of only the messages `keep` accepts (by id), in
    /// a session and its agents: what copies of another session's
    /// messages add (no prompts or calls counted); with the unpriced
    /// item each of `agents` (subagents named here, not found here, whose
    /// transcript another session holds) added to the session's figure.
    pub fn of_messages<'a>(
        session: &Session,
        fallback_ms: i64,
        keep: &dyn Fn(&str, &Usage) -> bool,
        agents: impl IntoIterator<Item = &'a str>,
    ) -> Figures {
        let mut sum = FiguresSum {
            keep: Some(keep),
            ..FiguresSum::default()
        };
        sum.add_transcript(&session.main, fallback_ms, false);
        for a in &session.agents {
            sum.add_transcript(&a.transcript, fallback_ms, true);
        }
        // (named and never answered: `finish` counts them where `add`
        // counted them, at the session's time)
        sum.agents_named.extend(agents.into_iter().map(Box::from));
        sum.last_ms = fallback_ms;
        sum.finish()
    }

    /// Takes `other`'s tokens and cost out of these figures (slice by
    /// slice): a session's part that another session already counts.
    pub fn subtract(&mut self, other: &Figures) {
        let sub_cost = |c: &mut Cost, o: &Cost| {
            c.usd = (c.usd - o.usd).max(0.0);
            c.unpriced = c.unpriced.saturating_sub(o.unpriced);
        };
        let sub_tokens = |t: &mut Tokens, o: &Tokens| {
            t.input = t.input.saturating_sub(o.input);
            t.output = t.output.saturating_sub(o.output);
            t.cache_creation = t.cache_creation.saturating_sub(o.cache_creation);
            t.cache_read = t.cache_read.saturating_sub(o.cache_read);
        };
        sub_tokens(&mut self.tokens, &other.tokens);
        sub_cost(&mut self.cost, &other.cost);
        sub_tokens(&mut self.agent_tokens, &other.agent_tokens);
        sub_cost(&mut self.agent_cost, &other.agent_cost);
        let theirs = other.detail.get();
        let slices = &mut self.detail.get_mut().slices;
        for o in &theirs.slices {
            if let Some(s) = slices
                .iter_mut()
                .find(|s| s.at_ms == o.at_ms && s.model == o.model)
            {
                sub_tokens(&mut s.tokens, &o.tokens);
                sub_cost(&mut s.cost, &o.cost);
            }
        }
    }

    /// Messages with no price, by model, from the slices.
    pub fn unpriced_models(&self) -> BTreeMap<String, u32> {
        self.detail.unpriced_models()
    }
}

/// Figures summed over a session read in parts (a file too big to hold
/// as one model): a message split over two parts is counted once, with
/// the usage of its last line, as the model counts it.
/// Which messages (by id and usage) figures count.
pub type KeepMessage<'k> = &'k dyn Fn(&str, &Usage) -> bool;

#[derive(Default)]
pub struct FiguresSum<'k> {
    f: Figures,
    /// Only these messages (by id and usage) are counted, when set.
    keep: Option<KeepMessage<'k>>,
    /// By quarter hour and model, looked up by borrowed name (a key made
    /// a string per call and message), put in order at the end (two maps
    /// in order, quarters then models, were three lookups a call).
    slices: hashbrown::HashTable<Slice>,
    /// Each message counted: its usage, model, slice and whether an agent's.
    counted: rustc_hash::FxHashMap<Arc<str>, Counted>,
    /// The subagents a tool result names, those that answered (in any
    /// part), and when the last part added was written: one named and
    /// never answered was not found, and counts as unpriced.
    agents_named: std::collections::BTreeSet<Box<str>>,
    agents_answered: rustc_hash::FxHashSet<Box<str>>,
    last_ms: i64,
    /// Parts of one file, in order (see [`FiguresSum::of_parts`]).
    parts: bool,
    /// The time of the last prompt of the part added last, when no
    /// answer in that part named a model: its answer may open the next.
    waiting: Option<i64>,
    /// The main conversation's last time in the parts added: a row the
    /// next part opens on without a time of its own is dated by it.
    main_last: Option<i64>,
}

#[derive(Debug)]
struct Counted {
    usage: Usage,
    model: Option<Arc<str>>,
    at: i64,
    agent: bool,
}

impl std::fmt::Debug for FiguresSum<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FiguresSum").field("f", &self.f).finish()
    }
}

impl FiguresSum<'_> {
    /// A sum of the parts of one file, added in order: a prompt at the end
    /// of one part counts under the model of the answer that opens the
    /// next, as a read of the whole file counts it (not under none).
    pub fn of_parts() -> Self {
        FiguresSum {
            parts: true,
            ..FiguresSum::default()
        }
    }

    /// Adds a session (or a part of one): its main conversation and agents.
    pub fn add(&mut self, session: &Session, fallback_ms: i64) {
        let main = &session.main;
        if self.f.first_message.is_none()
            && let Some(m) = main.messages.iter().find(|m| m.usage.is_some())
        {
            self.f.first_message = m.usage.map(|u| message_hash(&m.id, &u));
        }
        self.add_transcript(main, fallback_ms, false);
        self.f.prompts += main.turns.len() as u32;
        let starts: Vec<usize> = main
            .turns
            .iter()
            .filter_map(|t| main.index_of(t.first_item))
            .collect();
        let model_of = |m: u32| main.messages.get(m as usize)?.model.as_deref();
        if let Some(at) = self.waiting.take() {
            // its answer: among the rows before this part's first prompt
            let opening = starts.first().copied().unwrap_or(main.items.len());
            let model = main
                .items
                .get(..opening)
                .unwrap_or_default()
                .iter()
                .find_map(|it| model_of(it.message?));
            match model {
                None if starts.is_empty() => self.waiting = Some(at),
                m => slice(&mut self.slices, at, m.unwrap_or("")).prompts += 1,
            }
        }
        for (n, &i) in starts.iter().enumerate() {
            let at = main.items[i].timestamp.unwrap_or(fallback_ms);
            // a prompt counts under the model that answered it: its first
            // row of a message that names one, an item or a lean row
            let end = starts.get(n + 1).copied().unwrap_or(main.items.len());
            let item = main
                .items
                .get(i..end.max(i))
                .unwrap_or_default()
                .iter()
                .find_map(|it| Some((it.id, model_of(it.message?)?)));
            let lean = main
                .lean
                .as_deref()
                .and_then(|l| l.turn_model(n))
                .and_then(|(row, m)| Some((row, model_of(m)?)));
            let model = match (item, lean) {
                (Some(a), Some(b)) => Some(if a.0 < b.0 { a.1 } else { b.1 }),
                (a, b) => a.or(b).map(|(_, model)| model),
            };
            match model {
                None if self.parts && n + 1 == starts.len() => self.waiting = Some(at),
                m => slice(&mut self.slices, at, m.unwrap_or("")).prompts += 1,
            }
        }
        for a in &session.agents {
            self.add_transcript(&a.transcript, fallback_ms, true);
        }
        let (named, answered) = session.agents_named_and_answered();
        self.agents_named.extend(named.into_iter().map(Box::from));
        self.agents_answered
            .extend(answered.into_iter().map(Box::from));
        self.last_ms = self.last_ms.max(fallback_ms);
    }

    pub fn finish(mut self) -> Figures {
        if let Some(at) = self.waiting.take() {
            // no part after it named a model either
            slice(&mut self.slices, at, "").prompts += 1;
        }
        let lost = self
            .agents_named
            .iter()
            .filter(|id| !self.agents_answered.contains(*id))
            .count() as u32;
        if lost > 0 {
            // (see `Session::cost`)
            self.f.cost.unpriced += lost;
            self.f.agent_cost.unpriced += lost;
            let model = crate::model::session::AGENT_NOT_FOUND;
            slice(&mut self.slices, self.last_ms, model).cost.unpriced += lost;
        }
        let mut slices: Vec<Slice> = self.slices.into_iter().collect();
        slices.sort_unstable_by(|a, b| (a.at_ms, &a.model).cmp(&(b.at_ms, &b.model)));
        self.f.detail.get_mut().slices = slices;
        self.f
    }

    fn add_transcript(&mut self, t: &Transcript, fallback_ms: i64, agent: bool) {
        let prices = PriceTable::active();
        let mut models = ModelsMet::default();
        let f = &mut self.f;
        let tools = &mut f.detail.get_mut().tools;
        // a message is dated by its first block; a block or call written
        // without a time takes the time of the conversation before it,
        // not of a tool's output (which a read for figures leaves out:
        // see `source::claude::figures`)
        // (and by the row that dated it: a lean row of the message may
        // come before it, see `super::lean_rows`)
        let mut dated: Vec<Option<(i64, super::item::ItemId)>> = vec![None; t.messages.len()];
        let mut last_ts = self.main_last.filter(|_| self.parts && !agent);
        let lean = t.lean.as_deref();
        let mut lean_times = lean.map_or(&[][..], |l| &l.times).iter().peekable();
        for (i, it) in t.items.iter().enumerate() {
            while let Some(&&(before, at)) = lean_times.peek()
                && before <= i
            {
                last_ts = Some(at);
                lean_times.next();
            }
            if it.kind != super::item::Kind::ToolResult {
                last_ts = it.timestamp.or(last_ts);
            }
            if let Some(m) = it.message
                && let Some(d) = dated.get_mut(m as usize)
                && d.is_none()
            {
                *d = it.timestamp.or(last_ts).map(|at| (at, it.id));
            }
            if let super::item::Detail::Call(c) = &it.detail {
                let at = it.timestamp.or(last_ts).unwrap_or(fallback_ms);
                let model = message_model(t, it.message);
                count_call(
                    (tools, &mut f.tool_calls, &mut self.slices),
                    &c.name,
                    model,
                    at,
                );
            }
        }
        if self.parts && !agent {
            self.main_last = last_ts;
        }
        if let Some(l) = lean {
            for &(m, row, at) in &l.firsts {
                if let Some(d) = dated.get_mut(m as usize)
                    && d.is_none_or(|(_, by)| by > row)
                {
                    *d = Some((at, row));
                }
            }
            for c in &l.calls {
                let name = l.names.get(c.name as usize).map_or("?", |n| &**n);
                let model = message_model(t, c.message);
                count_call(
                    (tools, &mut f.tool_calls, &mut self.slices),
                    name,
                    model,
                    c.at,
                );
            }
        }
        for (m, at) in t.messages.iter().zip(dated) {
            let at = at.map(|(at, _)| at);
            let Some(u) = &m.usage else { continue };
            if self.keep.is_some_and(|keep| !keep(&m.id, u)) {
                continue;
            }
            // seen in an earlier part: its later line's usage replaces it
            if let Some(old) = self.counted.remove(&*m.id) {
                let c = prices.cost(old.model.as_deref(), &old.usage, Some(old.at));
                f.tokens.sub_usage(&old.usage);
                f.cost.sub(c);
                if old.agent {
                    f.agent_tokens.sub_usage(&old.usage);
                    f.agent_cost.sub(c);
                }
                let model = old.usage.counted_as(old.model.as_deref());
                let s = slice(&mut self.slices, old.at, model.unwrap_or(""));
                s.tokens.sub_usage(&old.usage);
                s.cost.sub(c);
            }
            // a message with no row of its own (a Codex token count) is
            // dated by its line
            let at = at.or(m.at).unwrap_or(fallback_ms);
            let c = models.cost(prices, m.model.as_ref(), u, Some(at));
            f.tokens.add_usage(u);
            f.cost.add(c);
            if agent {
                f.agent_tokens.add_usage(u);
                f.agent_cost.add(c);
            }
            let s = slice(
                &mut self.slices,
                at,
                u.counted_as(m.model.as_deref()).unwrap_or(""),
            );
            s.tokens.add_usage(u);
            s.cost.add(c);
            self.counted.insert(
                m.id.clone(),
                Counted {
                    usage: *u,
                    model: m.model.clone(),
                    at,
                    agent,
                },
            );
        }
    }
}

/// A message's hash, as [`Figures::first_message`] keeps it: its id and
/// usage (a copy carries both; two sessions of made-up ids do not).
pub fn message_hash(id: &str, u: &Usage) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(id.as_bytes());
    for n in [
        u.input_tokens,
        u.output_tokens,
        u.cache_creation_input_tokens,
        u.cache_read_input_tokens,
    ] {
        h.write_u64(n);
    }
    h.finish()
}

/// A slice's hash: its quarter hour and model.
fn slice_hash(at_ms: i64, model: &str) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    at_ms.hash(&mut h);
    model.hash(&mut h);
    h.finish()
}

/// The model of message `m` of `t` (`""`: none, or not named).
fn message_model(t: &Transcript, m: Option<u32>) -> &str {
    m.and_then(|m| t.messages.get(m as usize)?.model.as_deref())
        .unwrap_or("")
}

/// A call of tool `name` made at `at` by `model`: counted by tool, in
/// all, and in its slice.
fn count_call(
    (tools, calls, slices): (
        &mut std::collections::BTreeMap<String, u32>,
        &mut u32,
        &mut hashbrown::HashTable<Slice>,
    ),
    name: &str,
    model: &str,
    at: i64,
) {
    match tools.get_mut(name) {
        Some(n) => *n += 1,
        None => {
            tools.insert(name.to_owned(), 1);
        }
    }
    *calls += 1;
    slice(slices, at, model).tool_calls += 1;
}

fn slice<'a>(slices: &'a mut hashbrown::HashTable<Slice>, at: i64, model: &str) -> &'a mut Slice {
    let at_ms = at.div_euclid(SLICE_MS) * SLICE_MS;
    slices
        .entry(
            slice_hash(at_ms, model),
            |s| s.at_ms == at_ms && s.model == model,
            |s| slice_hash(s.at_ms, &s.model),
        )
        .or_insert_with(|| Slice {
            at_ms,
            model: model.to_owned(),
            ..Slice::default()
        })
        .into_mut()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(v: serde_json::Value) -> String {
        format!("{v}\n")
    }

    #[test]
    fn counts_each_message_once_and_slices_by_quarter_hour() {
        let mut s = Session::new(None);
        let usage = serde_json::json!({"input_tokens": 1000, "output_tokens": 100});
        let mut text = String::new();
        text += &line(
            serde_json::json!({"type":"user","uuid":"u1","timestamp":"2026-01-01T10:00:00Z",
            "message":{"role":"user","content":"hi"}}),
        );
        for (i, block) in [
            serde_json::json!({"type":"text","text":"a"}),
            serde_json::json!({"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}),
        ]
        .into_iter()
        .enumerate()
        {
            text += &line(
                serde_json::json!({"type":"assistant","uuid":format!("a{i}"),
                "timestamp":"2026-01-01T10:01:00Z",
                "message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5-20250929",
                "content":[block],"usage":usage}}),
            );
        }
        text += &line(
            serde_json::json!({"type":"assistant","uuid":"b","timestamp":"2026-01-01T10:20:00Z",
            "message":{"id":"m2","role":"assistant","model":"mystery-model",
            "content":[{"type":"text","text":"b"}],"usage":usage}}),
        );
        s.feed(super::super::session::MAIN, text.as_bytes());
        s.finish(super::super::session::MAIN);
        let f = Figures::of(&s, 0);
        assert_eq!(f.tokens.input, 2000, "m1 counted once, m2 once");
        assert_eq!(f.prompts, 1);
        assert_eq!(f.tool_calls, 1);
        assert_eq!(f.detail.get().tools.get("Bash"), Some(&1));
        assert_eq!(f.cost.unpriced, 1);
        assert_eq!(
            f.cost_usd(),
            Some(0.0045),
            "the priced part; the unknown model is counted apart"
        );
        assert_eq!(
            f.unpriced_models(),
            BTreeMap::from([("mystery-model".to_owned(), 1)])
        );
        // sonnet 4.5: $3/M in, $15/M out
        assert!((f.cost.usd - (0.003 + 0.0015)).abs() < 1e-9);
        let detail = f.detail.get();
        let quarters: Vec<_> = detail
            .slices
            .iter()
            .map(|s| (s.at_ms, s.model.as_str()))
            .collect();
        let ten = 1_767_261_600_000;
        assert_eq!(
            quarters,
            [
                (ten, "claude-sonnet-4-5-20250929"),
                (ten + SLICE_MS, "mystery-model")
            ]
        );
        let sum: u64 = detail.slices.iter().map(|s| s.tokens.total()).sum();
        assert_eq!(sum, f.tokens.total());
    }
}
