//! Search over everything a row can show once expanded: text, thinking,
//! a call's name, input and result, subagent transcripts.

use super::state::State;
use crate::model::query::Query;
use crate::model::stored::{LineReader, Text};
use crate::model::{Detail, Item, Kind, Session};
use crate::rows::{self, Fold, Row, RowKind, SessionExt};
use std::borrow::Cow;

/// A match: (transcript, item index).
pub type Hit = (Option<u32>, usize);

#[derive(Debug, Default, Clone)]
pub struct Search {
    /// The last submitted query (what is highlighted).
    pub query: String,
    pub hits: Vec<Hit>,
    /// Index into `hits` of the current match.
    pub current: Option<usize>,
    /// A search still going through a big session (see [`State::search_step`]).
    pub job: Option<Job>,
    /// How many times a match was gone to: the list scrolls a tall row to
    /// its match once for each.
    pub shown: u64,
}

/// Where a search has got to: it goes on between frames, a slice of items
/// at a time, so no key waits for it and its matches come in as found.
#[derive(Debug, Clone)]
pub struct Job {
    q: Query,
    /// The next main-transcript item to search.
    next: usize,
    /// A search made again after the rows changed under it: it neither
    /// moves the selection to a match nor says how far it has got.
    quiet: bool,
}

impl Job {
    /// The main-transcript items before this one are searched.
    pub fn reached(&self) -> usize {
        self.next
    }
}

/// Main-transcript items searched between two looks at the clock.
const SLICE: usize = 4096;

/// Every row matching `query` (see [`Query`]: words in any order, quoted
/// phrases, smart case), in reading order of the main transcript (a
/// subagent's items come right after the call that started it).
pub fn find_all(session: &Session, query: &str) -> Vec<Hit> {
    let mut hits = find_from(session, query, 0);
    in_screen_order(session, &mut hits);
    hits
}

/// Where a hit is on screen, as a path from the main transcript down:
/// `[k]` for main item `k`, `[k, a, j]` for item `j` of subagent `a` shown
/// under main item `k` (its call, or the compaction it summarised),
/// `[MAX, a, j]` for a subagent shown after the transcript. Compared as
/// sequences, these sort as the rows do.
pub fn screen_key(session: &Session, (agent, i): Hit) -> Vec<usize> {
    let mut key = vec![i];
    let mut agent = agent;
    for _ in 0..=rows::MAX_DEPTH {
        let Some(a) = agent else {
            key.reverse();
            return key;
        };
        key.push(a as usize);
        let ag = session.agents.get(a as usize);
        let under = match ag.and_then(|x| x.call) {
            Some(c) => session
                .transcript_checked(c.holder.agent())
                .and_then(|t| t.index_of(c.item))
                .map(|k| (c.holder.agent(), k)),
            None => session
                .compaction_of(a)
                .and_then(|id| session.main.index_of(id))
                .map(|k| (None, k)),
        };
        match under {
            Some((holder, k)) if holder != Some(a) => {
                key.push(k);
                agent = holder;
            }
            _ => {
                key.push(usize::MAX);
                key.reverse();
                return key;
            }
        }
    }
    key.push(usize::MAX);
    key.reverse();
    key
}

/// The main-transcript item whose rows hold item `id`'s: its own index,
/// or that of the call (or compaction) its subagent hangs from, up
/// through subagents started by subagents. `None` for an item of a
/// subagent that hangs from nothing (shown after the transcript).
fn hanging_from(session: &Session, id: crate::model::ItemId) -> Option<usize> {
    if let Some(i) = session.main.index_of(id) {
        return Some(i);
    }
    let mut agent = (0..session.agents.len() as u32)
        .find(|&a| session.agents[a as usize].transcript.index_of(id).is_some())?;
    for _ in 0..=rows::MAX_DEPTH {
        let ag = session.agents.get(agent as usize)?;
        let (holder, item) = match ag.call {
            Some(c) => (c.holder.agent(), c.item),
            None => (None, session.compaction_of(agent)?),
        };
        match holder {
            None => return session.main.index_of(item),
            Some(b) if b != agent => agent = b,
            Some(_) => return None,
        }
    }
    None
}

/// Sorts `hits` as their rows are on screen (`n` goes down the screen).
pub fn in_screen_order(session: &Session, hits: &mut [Hit]) {
    if hits.is_sorted_by_key(|&(a, i)| (a.is_some(), i)) && hits.iter().all(|h| h.0.is_none()) {
        return;
    }
    hits.sort_by_cached_key(|&h| screen_key(session, h));
}

/// The matches among main-transcript items from `from` on (and their
/// subagents): what an append adds, without searching the rest again.
pub fn find_from(session: &Session, query: &str, from: usize) -> Vec<Hit> {
    let mut hits = Vec::new();
    if let Ok(q) = Query::parse(query, false)
        && !q.is_empty()
    {
        // appended items: the subagents no call links to were searched
        let len = session.main.items.len();
        find_range(session, &q, (from, len), from == 0, &mut hits);
    }
    hits
}

/// Items searched by one thread at least: fewer are not worth a thread.
const PER_THREAD: usize = 1024;

/// The matches among main-transcript items `from..to` (and their
/// subagents), then, with `unhung`, in the subagents no call links to.
fn find_range(
    session: &Session,
    q: &Query,
    (from, to): (usize, usize),
    unhung: bool,
    hits: &mut Vec<Hit>,
) {
    let to = to.min(session.main.items.len());
    find_main(session, q, from, to, hits);
    if unhung {
        // the subagents no call links to, whose rows follow the transcript
        // (or hang by their compaction)
        let mut reader = LineReader::default();
        for a in unhung_agents(session) {
            let mut keep = |it: &Item| item_matches(session, &mut reader, it, q);
            walk(session, Some(a), 0, &mut keep, hits, 1);
        }
    }
}

/// Subagents no call links to: a compaction's summariser, and those shown
/// at the end of the transcript.
fn unhung_agents(session: &Session) -> impl Iterator<Item = u32> + '_ {
    (0..session.agents.len() as u32).filter(|&a| {
        let ag = &session.agents[a as usize];
        ag.call.is_none() && !ag.is_warmup()
    })
}

/// [`find_range`] over the main transcript and the subagents its calls
/// started, the range shared out among the cores: texts left in the file
/// are read and ruled out on every core, each with a reader of its own,
/// and their matches come back in order.
fn find_main(session: &Session, q: &Query, from: usize, to: usize, hits: &mut Vec<Hit>) {
    let cores = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let parts = ((to.saturating_sub(from)) / PER_THREAD).clamp(1, cores);
    if parts == 1 {
        return find_part(session, q, from, to, hits);
    }
    let step = (to - from).div_ceil(parts);
    let found: Vec<Vec<Hit>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..parts)
            .map(|k| {
                let (a, b) = (from + k * step, (from + (k + 1) * step).min(to));
                scope.spawn(move || {
                    let mut part = Vec::new();
                    find_part(session, q, a, b, &mut part);
                    part
                })
            })
            .collect();
        // a part whose thread failed is searched here
        handles
            .into_iter()
            .enumerate()
            .map(|(k, h)| {
                h.join().unwrap_or_else(|_| {
                    let mut part = Vec::new();
                    let (a, b) = (from + k * step, (from + (k + 1) * step).min(to));
                    find_part(session, q, a, b, &mut part);
                    part
                })
            })
            .collect()
    });
    hits.extend(found.into_iter().flatten());
}

/// [`find_range`] on one thread.
fn find_part(session: &Session, q: &Query, from: usize, to: usize, hits: &mut Vec<Hit>) {
    let mut reader = LineReader::default();
    let t = &session.main;
    for (i, item) in t.items.iter().enumerate().take(to).skip(from) {
        if item_matches(session, &mut reader, item, q) {
            hits.push((None, i));
        }
        if let Detail::Call(c) = &item.detail
            && let Some(a) = c.agent
        {
            walk(
                session,
                Some(a),
                0,
                &mut |it| item_matches(session, &mut reader, it, q),
                hits,
                1,
            );
        }
    }
}

/// The rows that are errors (a failed call, an API error, an unreadable
/// line...), in reading order, subagents after their call.
pub fn find_errors(session: &Session) -> Vec<Hit> {
    let mut hits = Vec::new();
    walk(
        session,
        None,
        0,
        &mut crate::model::label::is_error,
        &mut hits,
        0,
    );
    for a in unhung_agents(session) {
        walk(
            session,
            Some(a),
            0,
            &mut crate::model::label::is_error,
            &mut hits,
            1,
        );
    }
    hits
}

fn walk(
    session: &Session,
    agent: Option<u32>,
    from: usize,
    keep: &mut dyn FnMut(&Item) -> bool,
    hits: &mut Vec<Hit>,
    depth: u8,
) {
    let Some(t) = session.transcript_checked(agent) else {
        return;
    };
    for (i, item) in t.items.iter().enumerate().skip(from) {
        if keep(item) {
            hits.push((agent, i));
        }
        if let Detail::Call(c) = &item.detail
            && let Some(a) = c.agent.filter(|&a| Some(a) != agent && depth < 8)
        {
            walk(session, Some(a), 0, keep, hits, depth + 1);
        }
    }
}

/// The row matches: every term in the row's text, a call's name, input
/// values or result (what the row shows once expanded). A text left in
/// the session file is read back, with `reader`, only when a term may be
/// in its line.
fn item_matches(session: &Session, reader: &mut LineReader, item: &Item, q: &Query) -> bool {
    // a row no filter shows is no match: `n` could not go to it
    if crate::walk::never_shown(item) {
        return false;
    }
    let at = (item.source, item.line);
    let own = searched(session, reader, at, &item.text, q, || item.search_text());
    // and what the row adds to a call's summary (a task's subject, what a
    // background task was started for)
    let own = match &item.detail {
        Detail::Call(c) if crate::model::call_facts::summary_adds(session, item, c) => {
            let more = crate::model::call_facts::summary(session, item, c);
            Cow::Owned(format!("{own}\n{}", crate::model::text::sanitize(&more)))
        }
        _ => own,
    };
    // the values of an input left in the file (the held ones are in `own`)
    let input = match &item.detail {
        Detail::Call(c) if c.input.missing() => {
            let raw = searched(session, reader, at, &c.input, q, || "".into());
            let mut values = String::new();
            if !raw.is_empty() {
                crate::model::item::json_values(&raw, &mut values);
            }
            crate::model::text::sanitize(&values).into_owned()
        }
        _ => String::new(),
    };
    let result = match &item.detail {
        Detail::Call(c) => c.result.as_ref(),
        Detail::OrphanResult(r) => Some(&**r),
        _ => None,
    };
    match result {
        Some(r) => {
            let at = (r.source, r.line);
            let out = searched(session, reader, at, &r.text, q, || {
                crate::model::text::sanitize(r.text.or_marker())
            });
            // what its row shows of it, as `search_text` says
            let shown = crate::model::item::shown_of_result(&out);
            q.matches_any_of(&[&own, &input, shown]) || {
                let call = match &item.detail {
                    Detail::Call(c) => Some(c.id.as_str()),
                    _ => None,
                };
                saved_whole(session, r, call, &out)
                    .is_some_and(|whole| q.matches_any_of(&[&own, &input, &whole]))
            }
        }
        None => q.matches_any_of(&[&own, &input]),
    }
}

/// The whole of an output Claude Code saved apart (its result's `text`
/// holds the preview), as it lies beside its session's file, made safe:
/// `F` opens it and `c o` copies it, so `n` goes to its row. Read only
/// when the row's own texts miss a term.
fn saved_whole(
    session: &Session,
    r: &crate::model::ToolResult,
    call: Option<&str>,
    text: &str,
) -> Option<String> {
    let saved = crate::model::saved::saved_output(text)?;
    let id = call.or_else(|| saved.call_id())?;
    let path = session.sources.get(r.source as usize)?.path.as_deref()?;
    let read = crate::model::saved_read::whole_output(path, id, crate::model::saved_read::MOST)?;
    // (most outputs need no change: kept as read, not copied)
    let changed = match crate::model::text::sanitize(&read.text) {
        Cow::Owned(safe) => Some(safe),
        Cow::Borrowed(_) => None,
    };
    let text = changed.unwrap_or(read.text);
    // as the session's own texts are held when secrets are hidden
    Some(if session.redacting {
        crate::redact::active().redact(&text).into_owned()
    } else {
        text
    })
}

/// What search reads of a text: `held()` when it is held; when it is in
/// the file, nothing if no term may be in its bytes as written, else the text read
/// back (made safe as held texts are).
fn searched<'a>(
    session: &Session,
    reader: &mut LineReader,
    at: (u16, u32),
    text: &Text,
    q: &Query,
    held: impl FnOnce() -> Cow<'a, str>,
) -> Cow<'a, str> {
    if !text.missing() {
        return held();
    }
    // (a result saved apart is read back whatever it holds: the whole
    // output may hold what its preview does not)
    let may = session
        .with_raw_text(reader, at.0, text, |raw| {
            q.may_occur_in_json(raw) || memchr::memmem::find(raw, b"<persisted-output>").is_some()
        })
        .unwrap_or(true);
    if !may {
        return Cow::Borrowed("");
    }
    let back = session.text_back_in(reader, at, text);
    Cow::Owned(crate::model::text::sanitize(&back).into_owned())
}

/// Going to a match: open what hides it, select its row.
impl State {
    /// Starts searching for `query` (submitted in the prompt): the first
    /// slice now, the rest by [`Self::search_step`] between frames.
    pub(crate) fn start_search(&mut self, query: String) {
        if self.begin_search(query) {
            self.search_step(std::time::Duration::from_millis(30));
        }
    }

    /// Sets up a search for `query` without running it; false when there
    /// is nothing to search for (the prompt says so).
    pub fn begin_search(&mut self, query: String) -> bool {
        self.search.hits.clear();
        self.search.current = None;
        let mut refused = None;
        self.search.job = match Query::parse(&query, false) {
            Ok(q) if !q.is_empty() => Some(Job {
                q,
                next: 0,
                quiet: false,
            }),
            Ok(_) => None,
            Err(e) => {
                refused = Some(e);
                None
            }
        };
        self.search.query = if refused.is_some() {
            String::new()
        } else {
            query
        };
        if self.search.job.is_none() {
            self.goto_match(true);
            if let Some(e) = refused {
                self.message = Some(format!("search: {}", crate::model::text::term_line(&e)));
            }
            return false;
        }
        true
    }

    /// The search made again from the start, its matches found between
    /// frames as a submitted one's are: after the rows were built again
    /// (an item put among others, a subagent linked to its call, the
    /// session read again), where the matches' places may have moved. A
    /// whole search of a big session takes a second at 1 GB: done at
    /// once, it held up the screen at each such change. Its first slice
    /// is searched here (a session of fewer items is done). The selection
    /// stays where it is, unless the search was still looking for its
    /// first match.
    pub(crate) fn search_again(&mut self) {
        let quiet =
            self.search.current.is_some() || self.search.job.as_ref().is_none_or(|j| j.quiet);
        self.search.hits.clear();
        self.search.current = None;
        self.search.job = match Query::parse(&self.search.query, false) {
            Ok(q) if !q.is_empty() => Some(Job { q, next: 0, quiet }),
            _ => None,
        };
        if self.search.job.is_some() {
            self.search_step(std::time::Duration::ZERO);
        }
    }

    /// The matches of the rows `updated` in place searched again: those of
    /// the main-transcript item each hangs from (itself, or the call of
    /// the subagent it is in) before `from` (the items from `from` on are
    /// searched as new), and of the subagents no call links to when one
    /// of them grew (unless `unhung_searched`: they are searched anyway).
    pub(crate) fn search_updated(
        &mut self,
        updated: &[crate::model::ItemId],
        from: usize,
        unhung_searched: bool,
    ) {
        if updated.is_empty() {
            return;
        }
        let Ok(q) = Query::parse(&self.search.query, false) else {
            return;
        };
        let session = &self.session;
        let mut tops: Vec<usize> = Vec::new();
        let mut unhung = false;
        for &id in updated {
            match hanging_from(session, id) {
                Some(top) if top < from => tops.push(top),
                Some(_) => {}
                None => unhung = true,
            }
        }
        unhung &= !unhung_searched;
        if tops.is_empty() && !unhung {
            return;
        }
        tops.sort_unstable();
        tops.dedup();
        let first = |&(agent, i): &Hit| match agent {
            None => i,
            Some(_) => screen_key(session, (agent, i))
                .first()
                .copied()
                .unwrap_or(usize::MAX),
        };
        self.search.hits.retain(|h| {
            let top = first(h);
            !(tops.binary_search(&top).is_ok() || (unhung && top == usize::MAX))
        });
        let mut found = Vec::new();
        for &top in &tops {
            find_range(session, &q, (top, top + 1), false, &mut found);
        }
        if unhung {
            let len = session.main.items.len();
            find_range(session, &q, (len, len), true, &mut found);
        }
        self.search.hits.extend(found);
        self.sort_hits();
    }

    /// Goes on with the search for about `budget` (a slice at least);
    /// true while there is more to do. Goes to the first match past the
    /// selection as soon as one is found.
    pub fn search_step(&mut self, budget: std::time::Duration) -> bool {
        let Some(mut job) = self.search.job.take() else {
            return false;
        };
        let start = std::time::Instant::now();
        let len = self.session.main.items.len();
        // (a slice at least: with no main items, the subagents no call
        // links to are still searched)
        let mut done = false;
        while !done {
            let end = (job.next + SLICE).min(len);
            done = end == len;
            find_range(
                &self.session,
                &job.q,
                (job.next, end),
                done,
                &mut self.search.hits,
            );
            job.next = end;
            if start.elapsed() >= budget {
                break;
            }
        }
        self.sort_hits();
        if self.search.current.is_none() && !job.quiet {
            let here = self.selection_key();
            let past = self
                .search
                .hits
                .iter()
                .any(|&h| screen_key(&self.session, h) >= here);
            if past || done {
                self.goto_match(true);
            } else {
                self.message = Some(format!(
                    "searching… {}% · {} found",
                    job.next * 100 / len.max(1),
                    self.search.hits.len()
                ));
            }
        }
        if !done {
            self.search.job = Some(job);
        }
        !done
    }

    /// Expands whatever hides a match and selects its row. A row that was
    /// not wholly on the screen is put near its head, under a few lines of
    /// what came before: moved only as far as needed, a match came up on
    /// the last line with what followed it out of sight.
    pub(crate) fn reveal(&mut self, hit: Hit) {
        let shown_at = self.row_of(hit).filter(|&p| self.wholly_on_screen(p));
        self.open_path(hit, true);
        if let Some(Kind::Thinking) = self.item_kind(hit) {
            self.filters.thinking = true;
        }
        if let Some(Kind::ToolCall | Kind::ToolResult) = self.item_kind(hit) {
            self.filters.tools = true;
        }
        if let Some(Kind::Meta | Kind::System) = self.item_kind(hit) {
            self.filters.meta = true;
        }
        self.follow = false;
        self.rebuild();
        if let Some(p) = self.row_of(hit) {
            self.select(p);
            if shown_at != Some(p) {
                self.redraw.pin = Some(super::Pin::Near);
            }
        }
    }

    /// The row of `hit`: its own, else one it is folded into.
    fn row_of(&self, (agent, index): Hit) -> Option<usize> {
        let at = |r: &Row| r.agent == agent && r.index as usize == index;
        let own = |r: &Row| {
            matches!(
                r.kind,
                RowKind::Item | RowKind::Call { .. } | RowKind::Member { .. }
            )
        };
        self.rows
            .iter()
            .position(|r| at(r) && own(r))
            .or_else(|| self.rows.iter().position(at))
    }

    /// Whether the last frame showed all of row `p`.
    fn wholly_on_screen(&self, p: usize) -> bool {
        self.viewport.visible.iter().any(|r| r.row == p && r.whole)
    }

    /// Goes to the row of `line` in `file` (a search hit: the session's
    /// file or a subagent's), with `query` as the session's search so
    /// that `n` / `N` go on through its matches. False when no row of the
    /// session is at that line.
    pub fn jump_to(&mut self, file: &std::path::Path, line: u32, query: &str) -> bool {
        let sources: Vec<u16> = (0..self.session.sources.len() as u16)
            .filter(|&i| self.session.sources[i as usize].path.as_deref() == Some(file))
            .collect();
        // the row of that line, else the row nearest to it (an earlier one
        // on a tie: a progress or hook line follows what it is about)
        let mut best: Option<(u32, Hit, u32)> = None;
        let transcripts =
            std::iter::once(None).chain((0..self.session.agents.len() as u32).map(Some));
        for agent in transcripts {
            let Some(t) = self.session.transcript_checked(agent) else {
                continue;
            };
            for (i, it) in t.items.iter().enumerate() {
                let result = match &it.detail {
                    Detail::Call(c) => c.result.as_ref().map(|r| (r.source, r.line)),
                    _ => None,
                };
                for (source, l) in std::iter::once((it.source, it.line)).chain(result) {
                    if !sources.contains(&source) {
                        continue;
                    }
                    let d = l.abs_diff(line);
                    let better = best.is_none_or(|(bd, _, bl)| d < bd || (d == bd && l < bl));
                    if better {
                        best = Some((d, (agent, i), l));
                    }
                }
            }
            if best.is_some_and(|b| b.0 == 0) {
                break;
            }
        }
        let found = best.map(|b| b.1);
        let nearest = best.filter(|b| b.0 != 0).map(|b| b.2);
        if !query.is_empty() {
            self.search.query = query.to_owned();
            // (a search still going, of this query or another, is done:
            // its next slices would add their matches to these)
            self.search.job = None;
            self.search.hits = find_all(&self.session, query);
            self.search.current = found.and_then(|h| self.search.hits.iter().position(|&x| x == h));
        }
        let Some(hit) = found else {
            self.message = Some(format!("line {line}: this file has no rows"));
            return false;
        };
        // the row whole, so the match is not folded away in a long output
        if let Some(id) = self
            .session
            .transcript_checked(hit.0)
            .and_then(|t| t.items.get(hit.1))
            .map(|it| it.id)
        {
            self.expanded.insert(Fold::Full(id));
        }
        self.reveal(hit);
        self.search.shown += 1;
        self.message = Some(match (self.search.current, nearest) {
            (Some(c), _) => format!(
                "match {}/{} · n / N for the others",
                c + 1,
                self.search.hits.len()
            ),
            (None, Some(near)) => {
                // (the most lines of the sources of `file` read so far)
                let lines = sources
                    .iter()
                    .filter_map(|&i| self.session.sources.get(usize::from(i)))
                    .map(|s| s.lines())
                    .max()
                    .unwrap_or(0);
                let why = match line {
                    0 => "lines start at 1".to_owned(),
                    l if l > lines => format!("the file has {lines} lines"),
                    _ => "not a row (hidden or unreadable)".to_owned(),
                };
                format!("line {line}: {why}: nearest is line {near}")
            }
            (None, None) => format!("line {line}"),
        });
        true
    }

    fn item_kind(&self, (agent, i): Hit) -> Option<Kind> {
        Some(self.session.transcript_checked(agent)?.items.get(i)?.kind)
    }

    fn open_path(&mut self, (agent, i): Hit, open_item: bool) {
        let Some(t) = self.session.transcript_checked(agent) else {
            return;
        };
        let Some(item) = t.items.get(i) else { return };
        let mut add = Vec::new();
        if item.off_branch {
            add.push(Fold::Branch(t.items[rows::unit_start(t, i)].id));
        }
        if let Some(g) = item.group.and_then(|g| t.groups.get(g as usize))
            && let Some(first) = t.items.get(g.first)
        {
            add.push(Fold::Group(first.id));
        }
        if open_item && (item.kind == Kind::ToolCall || rows::foldable(item)) {
            add.push(Fold::Item(item.id));
        }
        let parent = agent.and_then(|a| {
            let c = self.session.agents.get(a as usize)?.call?;
            let holder = c.holder.agent();
            let idx = self.session.transcript_checked(holder)?.index_of(c.item)?;
            Some((a, (holder, idx)))
        });
        self.expanded.extend(add);
        if let (None, Some(a)) = (parent, agent) {
            // a subagent no call links to: its own row opens
            self.expanded.insert(Fold::Agent(a));
        }
        if let Some((a, hit)) = parent {
            self.expanded.insert(Fold::Agent(a));
            if hit.0 != agent {
                self.open_path(hit, false);
            }
        }
    }

    /// The selected row's place, as [`screen_key`] gives a hit's.
    fn selection_key(&self) -> Vec<usize> {
        self.rows.get(self.selected).map_or_else(Vec::new, |r| {
            screen_key(&self.session, (r.agent, r.index as usize))
        })
    }

    /// Whether the selected row is the one of `hit`.
    fn selected_is(&self, hit: Hit) -> bool {
        self.rows
            .get(self.selected)
            .is_some_and(|r| (r.agent, r.index as usize) == hit)
    }

    /// Keeps the hits in screen order (a search in slices and appends add
    /// some out of it), the current one still current.
    pub(crate) fn sort_hits(&mut self) {
        let current = self
            .search
            .current
            .and_then(|c| self.search.hits.get(c).copied());
        in_screen_order(&self.session, &mut self.search.hits);
        if let Some(h) = current {
            self.search.current = self.search.hits.iter().position(|&x| x == h);
        }
    }

    /// `x` / `X`: the next / previous error row after the selection,
    /// opened wherever it is folded.
    pub(crate) fn goto_error(&mut self, forward: bool) {
        let mut errors = find_errors(&self.session);
        if errors.is_empty() {
            self.message = Some("no errors in this session".into());
            return;
        }
        in_screen_order(&self.session, &mut errors);
        let keys: Vec<Vec<usize>> = errors
            .iter()
            .map(|&h| screen_key(&self.session, h))
            .collect();
        let (pick, wrapped) = step(&keys, &self.selection_key(), forward);
        self.message = Some(format!(
            "error {}/{}{}",
            pick + 1,
            errors.len(),
            wrap_note(wrapped, forward)
        ));
        if let Some(&hit) = errors.get(pick) {
            self.reveal(hit);
        }
    }

    /// `n` / `N`: the next / previous match down the screen from the
    /// selection (from the current match when it is selected), saying
    /// when the search wraps.
    pub(crate) fn goto_match(&mut self, forward: bool) {
        let n = self.search.hits.len();
        if n == 0 {
            if !self.search.query.is_empty() {
                self.message = Some(format!("no match for \"{}\"", self.search.query));
            }
            return;
        }
        let current = self.search.current.filter(|&c| {
            self.search
                .hits
                .get(c)
                .is_some_and(|&h| self.selected_is(h))
        });
        let (next, wrapped) = match current {
            Some(c) if forward => ((c + 1) % n, c + 1 == n),
            Some(c) => ((c + n - 1) % n, c == 0),
            None => {
                let keys: Vec<Vec<usize>> = self
                    .search
                    .hits
                    .iter()
                    .map(|&h| screen_key(&self.session, h))
                    .collect();
                let here = self.selection_key();
                // the first search goes to a match on the selected row itself
                match keys.iter().position(|k| *k == here) {
                    Some(p) if self.search.current.is_none() && forward => (p, false),
                    _ => step(&keys, &here, forward),
                }
            }
        };
        self.search.current = Some(next);
        self.message = Some(format!(
            "match {}/{}{}",
            next + 1,
            n,
            wrap_note(wrapped && n > 1, forward)
        ));
        if let Some(&hit) = self.search.hits.get(next) {
            self.show_whole_if_deep(hit);
            self.reveal(hit);
            self.search.shown += 1;
        }
    }

    /// Opens the hit's row whole when the match may be past the lines a
    /// folded output shows (`… N more lines`), or past the head of a long
    /// text: the match is then on screen.
    fn show_whole_if_deep(&mut self, (agent, i): Hit) {
        let Ok(q) = Query::parse(&self.search.query, false) else {
            return;
        };
        let Some(item) = self
            .session
            .transcript_checked(agent)
            .and_then(|t| t.items.get(i))
        else {
            return;
        };
        let mut reader = LineReader::default();
        let mut texts = vec![(item.source, item.line, &item.text)];
        match &item.detail {
            Detail::Call(c) => {
                texts.push((item.source, item.line, &c.input));
                if let Some(r) = &c.result {
                    texts.push((r.source, r.line, &r.text));
                }
            }
            Detail::OrphanResult(r) => texts.push((r.source, r.line, &r.text)),
            _ => {}
        }
        let deep = texts.into_iter().any(|(source, line, text)| {
            let t = self.session.text_back_in(&mut reader, (source, line), text);
            let t = crate::model::text::sanitize(&t);
            q.first_range(&t).is_some_and(|r| {
                // (or past the head of a long text a row draws)
                r.start >= crate::rows::clip::budget(false).1
                    || memchr::memchr_iter(b'\n', &t.as_bytes()[..r.start]).count()
                        >= crate::rows::OUTPUT_FOLD / 2
            })
        });
        if deep {
            self.expanded.insert(Fold::Full(item.id));
        }
    }
}

/// The place in `keys` (sorted) after / before `here`, and whether it
/// wrapped round the end.
fn step(keys: &[Vec<usize>], here: &[usize], forward: bool) -> (usize, bool) {
    let n = keys.len();
    if forward {
        match keys.iter().position(|k| k.as_slice() > here) {
            Some(p) => (p, false),
            None => (0, true),
        }
    } else {
        match keys.iter().rposition(|k| k.as_slice() < here) {
            Some(p) => (p, false),
            None => (n.saturating_sub(1), true),
        }
    }
}

fn wrap_note(wrapped: bool, forward: bool) -> &'static str {
    match (wrapped, forward) {
        (false, _) => "",
        (true, true) => " · search wrapped to top",
        (true, false) => " · search wrapped to bottom",
    }
}
