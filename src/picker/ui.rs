//! The picker screen: sessions grouped by project, newest first, filtered
//! as you type. Keys become `Action`s; `perform_action` is the one place
//! the state changes; `draw` only reads it (and does no I/O).

use super::list::{ScanEvent, SortBy};
use super::scan::SessionInfo;
use crate::paths::tilde;
use crate::prompt::{EditOp, Kind, LineEdit};
use crate::style::theme;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

mod draw;
pub use draw::draw;
pub(crate) use draw::shown;

/// What the caller should do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerOutcome {
    None,
    Open(PathBuf),
    /// Open a session at a search hit.
    OpenAt(super::found::Jump),
    /// Search every session for this (the full-text mode's query changed).
    Search(String),
    Quit,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    FilterPush(char),
    FilterPop,
    /// Readline's keys in the filter (or the full-text query).
    Edit(crate::prompt::EditOp),
    /// Esc: clears the filter, or quits when it is empty.
    Back,
    Open,
    Quit,
    /// Rows from the background scan.
    Merge(Vec<SessionInfo>),
    ScanDone,
    FiguresDone,
    /// Tab: newest first, then dearest first, then largest first.
    CycleSort,
    /// Shift-Tab: every agent's sessions, then each agent's alone.
    CycleAgent,
    /// Ctrl-F: into the full-text mode (with the filter as its query), or
    /// back to the list.
    FullText,
    SearchPush(char),
    SearchPop,
    /// What a search found for a query.
    Found(String, Result<crate::search::Found, String>),
    /// A left click on screen line `y` at `at_ms`: selects the session
    /// there; a second click on it within [`DOUBLE_CLICK_MS`] opens it.
    Click {
        y: u16,
        at_ms: i64,
    },
}

/// How close two clicks on a row are to open it.
pub const DOUBLE_CLICK_MS: i64 = 400;

/// One line of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Row {
    /// A project path header.
    Project(String),
    /// Index into `sessions`.
    Session(usize),
}

pub struct PickerState {
    sessions: Vec<SessionInfo>,
    filter: LineEdit,
    rows: Vec<Row>,
    /// Index into `rows`; always a `Row::Session` when set.
    selected: Option<usize>,
    scroll: usize,
    /// Still receiving rows from the background scan.
    pub loading: bool,
    /// Still reading sessions whole for their cost.
    pub pricing: bool,
    pub sort: SortBy,
    /// "Now" for relative times; the caller refreshes it on ticks.
    pub now_ms: i64,
    /// Height of the list as last drawn, for paging.
    page: Cell<usize>,
    matcher: Matcher,
    /// Where the filter matches each session's title (char indices), to
    /// highlight them.
    title_hits: HashMap<usize, Vec<u32>>,
    /// Distinct projects over all sessions (for the title bar).
    project_count: usize,
    /// Shown in the status line until the next key (e.g. why a session
    /// could not be opened).
    pub message: Option<String>,
    /// The user moved the selection since the filter last changed: keep
    /// their session selected as rows arrive (else the first row is).
    moved: bool,
    /// The full-text mode, while it is on.
    pub full_text: Option<super::found::FullText>,
    /// The first row the last frame showed, and the screen line the
    /// picker starts on (clicks land relative to them).
    drawn_scroll: Cell<usize>,
    drawn_y: Cell<u16>,
    /// The row and time of the last click (for a double click).
    last_click: Option<(usize, i64)>,
    /// The filters and full-text queries opened before (the loop saves them).
    pub histories: crate::prompt::Histories,
    /// Where the sessions are looked for (said when there are none).
    pub root: Option<PathBuf>,
    /// Only this agent's sessions (`claude`, `codex`); `None`: all.
    pub agent: Option<String>,
    /// The keys (see [`super::keys`]), a config's changes in.
    pub keys: std::rc::Rc<crate::viewer::key::KeyTable<Action>>,
    /// The agents whose sessions are listed, in [`crate::source::AGENTS`]'
    /// order.
    agents: Vec<&'static str>,
    /// Sessions listed under the session that spawned them, not counted.
    folded: usize,
}

impl PickerState {
    pub fn new(now_ms: i64) -> PickerState {
        PickerState {
            sessions: Vec::new(),
            filter: LineEdit::default(),
            rows: Vec::new(),
            selected: None,
            scroll: 0,
            loading: true,
            pricing: true,
            sort: SortBy::default(),
            now_ms,
            page: Cell::new(20),
            matcher: Matcher::new(Config::DEFAULT),
            title_hits: HashMap::new(),
            project_count: 0,
            message: None,
            moved: false,
            full_text: None,
            drawn_scroll: Cell::new(0),
            drawn_y: Cell::new(0),
            last_click: None,
            histories: Default::default(),
            root: None,
            agent: None,
            agents: Vec::new(),
            folded: 0,
            keys: std::rc::Rc::new(super::keys::defaults()),
        }
    }

    /// A picker over a complete list (no background scan).
    pub fn with_sessions(sessions: Vec<SessionInfo>, now_ms: i64) -> PickerState {
        let mut s = PickerState::new(now_ms);
        s.merge(sessions);
        s.loading = false;
        s.pricing = false;
        s
    }

    pub fn filter(&self) -> &str {
        self.filter.as_str()
    }

    pub fn sessions(&self) -> &[SessionInfo] {
        &self.sessions
    }

    /// Sessions shown under the current filter, in display order.
    pub fn visible_sessions(&self) -> impl Iterator<Item = &SessionInfo> {
        self.rows.iter().filter_map(|r| match r {
            Row::Session(i) => self.sessions.get(*i),
            Row::Project(_) => None,
        })
    }

    pub fn selected_session(&self) -> Option<&SessionInfo> {
        match self.rows.get(self.selected?)? {
            Row::Session(i) => self.sessions.get(*i),
            Row::Project(_) => None,
        }
    }

    /// Feeds a background-scan event (see `spawn_scan`).
    pub fn apply(&mut self, event: ScanEvent) {
        let action = match event {
            ScanEvent::Sessions(v) => Action::Merge(v),
            ScanEvent::Done { skipped, .. } => {
                if skipped.total() > 0 {
                    self.message = Some(match skipped.total() {
                        1 => format!(
                            "skipped 1 entry that is not a readable session: {}",
                            skipped.describe()
                        ),
                        n => format!(
                            "skipped {n} entries that are not readable sessions: {}",
                            skipped.describe()
                        ),
                    });
                }
                Action::ScanDone
            }
            ScanEvent::FiguresDone => Action::FiguresDone,
        };
        perform_action(self, action);
    }

    /// Adds or replaces rows (by path), keeping the selected session.
    fn merge(&mut self, rows: Vec<SessionInfo>) {
        if rows.is_empty() {
            return;
        }
        // Row indices go stale below; remember the selection by path.
        let keep = self.selected_session().map(|s| s.path.clone());
        let mut by_path: HashMap<PathBuf, usize> = self
            .sessions
            .iter()
            .enumerate()
            .map(|(i, s)| (s.path.clone(), i))
            .collect();
        for r in rows {
            match by_path.get(&r.path) {
                Some(&i) => {
                    if let Some(slot) = self.sessions.get_mut(i) {
                        *slot = r;
                    }
                }
                None => {
                    by_path.insert(r.path.clone(), self.sessions.len());
                    self.sessions.push(r);
                }
            }
        }
        self.sort.apply(&mut self.sessions);
        self.agents = crate::source::AGENTS
            .into_iter()
            .filter(|a| self.sessions.iter().any(|s| s.agent() == *a))
            .collect();
        self.project_count = self
            .sessions
            .iter()
            .map(|s| s.project.as_str())
            .collect::<HashSet<_>>()
            .len();
        self.rebuild_keeping(keep);
    }

    /// Recomputes the visible rows from sessions + filter, keeping the
    /// selected session when it is still visible.
    fn rebuild(&mut self) {
        let keep = self.selected_session().map(|s| s.path.clone());
        self.rebuild_keeping(keep);
    }

    fn rebuild_keeping(&mut self, keep: Option<PathBuf>) {
        let ranked = self.ranked();
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        let mut group_of: HashMap<&str, usize> = HashMap::new();
        for i in ranked {
            let Some(s) = self.sessions.get(i) else {
                continue;
            };
            let g = *group_of.entry(s.project.as_str()).or_insert_with(|| {
                groups.push((s.project.clone(), Vec::new()));
                groups.len() - 1
            });
            if let Some((_, v)) = groups.get_mut(g) {
                v.push(i);
            }
        }
        self.rows.clear();
        for (project, members) in groups {
            self.rows.push(Row::Project(project));
            self.rows.extend(members.into_iter().map(Row::Session));
        }
        // Until the user moves, the first row (the newest session, or the
        // best match) stays selected while rows stream in.
        let keep = keep.filter(|_| self.moved);
        let found = keep.and_then(|p| {
            self.rows.iter().position(|r| matches!(r, Row::Session(i) if self.sessions.get(*i).is_some_and(|s| s.path == p)))
        });
        self.selected = found.or_else(|| self.first_session_row(0, 1));
        self.ensure_visible();
    }

    /// Indices of the sessions the filter lets through, best first: a
    /// match in the title or first prompt outranks one in the project or
    /// id (short queries match almost any id), ties go to the newer
    /// session. Groups by project follow the order of their best member.
    fn ranked(&mut self) -> Vec<usize> {
        self.title_hits.clear();
        let agent = self.agent.as_deref();
        // a sub-agent's own rollout is read with its session, when listed
        let read_with: HashSet<&str> = self
            .sessions
            .iter()
            .flat_map(|s| s.spawned.iter().map(String::as_str))
            .collect();
        self.folded = self
            .sessions
            .iter()
            .filter(|s| read_with.contains(s.session_id.as_str()))
            .count();
        let shown = |s: &SessionInfo| {
            agent.is_none_or(|a| s.agent() == a) && !read_with.contains(s.session_id.as_str())
        };
        if self.filter.as_str().trim().is_empty() {
            return (0..self.sessions.len())
                .filter(|&i| shown(&self.sessions[i]))
                .collect();
        }
        let pattern = Pattern::parse(
            self.filter.as_str(),
            CaseMatching::Smart,
            Normalization::Smart,
        );
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, usize)> = Vec::new();
        let m = &mut self.matcher;
        for (i, s) in self.sessions.iter().enumerate() {
            if !shown(s) {
                continue;
            }
            let mut score = |hay: &str| pattern.score(Utf32Str::new(hay, &mut buf), m);
            let text = [score(&s.title), score(&s.first_prompt)]
                .into_iter()
                .flatten()
                .max()
                .map(|x| x.saturating_mul(4));
            let other = [score(&s.project), score(&s.session_id)]
                .into_iter()
                .flatten()
                .max();
            let best = text.max(other).or_else(|| {
                // words spread over several fields still match, ranked last
                let hay = format!(
                    "{} {} {} {}",
                    s.title, s.first_prompt, s.project, s.session_id
                );
                score(&hay).map(|_| 0)
            });
            if let Some(best) = best {
                scored.push((best, i));
                let mut hits = Vec::new();
                if pattern
                    .indices(Utf32Str::new(&s.title, &mut buf), m, &mut hits)
                    .is_some()
                {
                    hits.sort_unstable();
                    hits.dedup();
                    self.title_hits.insert(i, hits);
                }
            }
        }
        // sessions are newest first: a stable sort keeps that among ties
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        let mut group_rank: HashMap<&str, usize> = HashMap::new();
        for (n, &(_, i)) in scored.iter().enumerate() {
            if let Some(s) = self.sessions.get(i) {
                group_rank.entry(s.project.as_str()).or_insert(n);
            }
        }
        let mut order: Vec<(usize, usize, usize)> = scored
            .iter()
            .enumerate()
            .filter_map(|(n, &(_, i))| {
                let g = *group_rank.get(self.sessions.get(i)?.project.as_str())?;
                Some((g, n, i))
            })
            .collect();
        order.sort_unstable();
        order.into_iter().map(|(_, _, i)| i).collect()
    }

    /// The first session row from `from` going in direction `step`.
    fn first_session_row(&self, from: usize, step: isize) -> Option<usize> {
        let mut i = from as isize;
        while i >= 0 && (i as usize) < self.rows.len() {
            if matches!(self.rows.get(i as usize), Some(Row::Session(_))) {
                return Some(i as usize);
            }
            i += step;
        }
        None
    }

    fn move_by(&mut self, delta: isize) {
        let Some(cur) = self.selected else { return };
        let step = delta.signum();
        let mut target = cur;
        for _ in 0..delta.unsigned_abs() {
            let next = (target as isize + step).max(0) as usize;
            match self.first_session_row(next, step) {
                Some(n) if n != target => target = n,
                _ => break,
            }
        }
        self.selected = Some(target);
        self.ensure_visible();
    }

    fn ensure_visible(&mut self) {
        let h = self.page.get().max(1);
        let Some(sel) = self.selected else {
            self.scroll = 0;
            return;
        };
        // Show the project header above the first session of a group.
        let top = if sel > 0 && matches!(self.rows.get(sel - 1), Some(Row::Project(_))) {
            sel - 1
        } else {
            sel
        };
        if top < self.scroll {
            self.scroll = top;
        } else if sel >= self.scroll + h {
            self.scroll = sel + 1 - h;
        }
        self.scroll = self.scroll.min(self.rows.len().saturating_sub(1));
    }
}

/// The action a key asks for: the table's (see [`super::keys`]: the list
/// moves on arrows, Ctrl-J / Ctrl-K and Ctrl-N / Ctrl-P, as in fzf), else
/// the filter's. Printable keys type into the filter, and the filter edits
/// as a shell line does (Ctrl-W, Ctrl-U, Ctrl-A...); its history is on
/// Alt-P / Alt-N (and Alt-↑ / Alt-↓).
pub fn key_action(keys: &crate::viewer::key::KeyTable<Action>, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    if !alt && let Some(a) = keys.action(key.code, ctrl) {
        return Some(a);
    }
    Some(match key.code {
        KeyCode::Char(c) if !ctrl && !alt && !c.is_control() => Action::FilterPush(c),
        KeyCode::Backspace if !ctrl && !alt => Action::FilterPop,
        KeyCode::Up => Action::Edit(crate::prompt::EditOp::Older),
        KeyCode::Down => Action::Edit(crate::prompt::EditOp::Newer),
        _ => Action::Edit(crate::prompt::op_of(&key)?),
    })
}

pub fn perform_action(state: &mut PickerState, action: Action) -> PickerOutcome {
    if let Some(outcome) = full_text_action(state, &action) {
        return outcome;
    }
    let page = state.page.get().max(2) as isize - 1;
    let rows = state.rows.len() as isize;
    let move_by = |state: &mut PickerState, d: isize| {
        state.moved = true;
        state.move_by(d);
    };
    match action {
        Action::Up => move_by(state, -1),
        Action::Down => move_by(state, 1),
        Action::PageUp => move_by(state, -page),
        Action::PageDown => move_by(state, page),
        Action::Top => move_by(state, -rows),
        Action::Bottom => move_by(state, rows),
        Action::FilterPush(c) => edit_filter(state, EditOp::Insert(c)),
        Action::FilterPop => edit_filter(state, EditOp::Backspace),
        // with no filter to edit, Home / End go to the list's ends
        Action::Edit(EditOp::Home) if state.filter.is_empty() => move_by(state, -rows),
        Action::Edit(EditOp::End) if state.filter.is_empty() => move_by(state, rows),
        Action::Edit(op) => edit_filter(state, op),
        Action::Back if state.filter.is_empty() => return PickerOutcome::Quit,
        Action::Back => {
            state.filter = LineEdit::default();
            state.moved = false;
            state.rebuild();
        }
        Action::Open => {
            if let Some(s) = state.selected_session() {
                let path = s.path.clone();
                state.histories.add(Kind::Filter, state.filter.as_str());
                return PickerOutcome::Open(path);
            }
        }
        Action::Quit => return PickerOutcome::Quit,
        Action::Merge(rows) => state.merge(rows),
        Action::ScanDone => state.loading = false,
        Action::FiguresDone => state.pricing = false,
        Action::FullText | Action::SearchPush(_) | Action::SearchPop | Action::Found(..) => {}
        Action::Click { y, at_ms } => {
            // the list starts under the title and its rule
            let Some(i) = (y as usize)
                .checked_sub(state.drawn_y.get() as usize + 2)
                .filter(|&i| i < state.page.get())
                .map(|i| state.drawn_scroll.get() + i)
                .filter(|&i| matches!(state.rows.get(i), Some(Row::Session(_))))
            else {
                return PickerOutcome::None;
            };
            let double = state
                .last_click
                .is_some_and(|(r, t)| r == i && (0..=DOUBLE_CLICK_MS).contains(&(at_ms - t)));
            state.selected = Some(i);
            state.moved = true;
            if double {
                state.last_click = None;
                return perform_action(state, Action::Open);
            }
            state.last_click = Some((i, at_ms));
        }
        Action::CycleAgent => {
            // all, then each agent listed; nothing to cycle with one
            let next = match state.agent.as_deref() {
                None => state.agents.first(),
                Some(a) => {
                    let i = state.agents.iter().position(|x| *x == a);
                    i.and_then(|i| state.agents.get(i + 1))
                }
            };
            state.agent = next
                .filter(|_| state.agents.len() > 1)
                .map(|a| a.to_string());
            state.moved = false;
            state.rebuild();
        }
        Action::CycleSort => {
            state.sort = state.sort.next();
            let keep = state.selected_session().map(|s| s.path.clone());
            state.sort.apply(&mut state.sessions);
            state.rebuild_keeping(keep);
        }
    }
    PickerOutcome::None
}

/// The filter edited by `op`: the list follows when its text changed.
fn edit_filter(state: &mut PickerState, op: EditOp) {
    if state.filter.apply(op, state.histories.get(Kind::Filter)) {
        state.moved = false;
        state.rebuild();
    }
}

/// Keys in the full-text mode: typing edits the query, Esc or Ctrl-F
/// goes back to the list.
pub fn full_text_key_action(
    keys: &crate::viewer::key::KeyTable<Action>,
    key: KeyEvent,
) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    // the list's Back (Esc) leaves the mode, as its search key does
    let back = keys.action(key.code, ctrl) == Some(Action::Back);
    Some(match key.code {
        _ if back => Action::FullText,
        _ => match key_action(keys, key)? {
            Action::FilterPush(c) => Action::SearchPush(c),
            Action::FilterPop => Action::SearchPop,
            Action::Back | Action::CycleSort | Action::CycleAgent => return None,
            other => other,
        },
    })
}

/// The actions of the full-text mode; `None` for the list's own.
fn full_text_action(state: &mut PickerState, action: &Action) -> Option<PickerOutcome> {
    use super::found::FullText;
    let page = state.page.get().max(2) as isize - 1;
    let search = |ft: &mut FullText| {
        ft.busy = !ft.query.as_str().trim().is_empty();
        PickerOutcome::Search(ft.query.as_str().to_owned())
    };
    let hist = &state.histories.get(Kind::FullText).to_vec();
    match (action, &mut state.full_text) {
        (Action::FullText, None) => {
            let mut ft = FullText::new(state.filter.as_str().to_owned());
            let out = search(&mut ft);
            state.full_text = Some(ft);
            Some(out)
        }
        (Action::FullText, Some(_)) => {
            state.full_text = None;
            Some(PickerOutcome::None)
        }
        (Action::Found(q, found), Some(ft)) => {
            ft.apply(q, found.clone());
            Some(PickerOutcome::None)
        }
        (Action::Found(..), None) => Some(PickerOutcome::None),
        (_, None) => None,
        (Action::SearchPush(c), Some(ft)) => Some(edit_query(ft, EditOp::Insert(*c), hist)),
        (Action::SearchPop, Some(ft)) => Some(edit_query(ft, EditOp::Backspace, hist)),
        (Action::Edit(op), Some(ft)) => Some(edit_query(ft, *op, hist)),
        (Action::Up, Some(ft)) => Some(moved(ft, -1)),
        (Action::Down, Some(ft)) => Some(moved(ft, 1)),
        (Action::PageUp | Action::Top, Some(ft)) => Some(moved(ft, -page)),
        (Action::PageDown | Action::Bottom, Some(ft)) => Some(moved(ft, page)),
        (Action::Open, Some(ft)) => {
            let jump = ft.jump();
            if jump.is_some() {
                state.histories.add(Kind::FullText, ft.query.as_str());
            }
            Some(jump.map_or(PickerOutcome::None, PickerOutcome::OpenAt))
        }
        (Action::Quit, Some(_)) => Some(PickerOutcome::Quit),
        (_, Some(_)) => None,
    }
}

/// The full-text query edited by `op`: searched again when it changed.
fn edit_query(ft: &mut super::found::FullText, op: EditOp, history: &[String]) -> PickerOutcome {
    if !ft.query.apply(op, history) {
        return PickerOutcome::None;
    }
    ft.busy = !ft.query.as_str().trim().is_empty();
    PickerOutcome::Search(ft.query.as_str().to_owned())
}

fn moved(ft: &mut super::found::FullText, d: isize) -> PickerOutcome {
    ft.move_by(d);
    PickerOutcome::None
}

/// The mouse in the picker: the wheel moves the selection, a click selects,
/// a double click opens.
pub fn handle_mouse(
    state: &mut PickerState,
    m: crossterm::event::MouseEvent,
    now_ms: i64,
) -> PickerOutcome {
    use crossterm::event::{MouseButton, MouseEventKind};
    let action = match m.kind {
        MouseEventKind::ScrollDown => Action::Down,
        MouseEventKind::ScrollUp => Action::Up,
        MouseEventKind::Down(MouseButton::Left) if state.full_text.is_none() => Action::Click {
            y: m.row,
            at_ms: now_ms,
        },
        _ => return PickerOutcome::None,
    };
    let steps = if matches!(action, Action::Click { .. }) {
        1
    } else {
        3
    };
    let mut out = PickerOutcome::None;
    for _ in 0..steps {
        out = perform_action(state, action.clone());
    }
    out
}

pub fn handle_key(state: &mut PickerState, key: KeyEvent) -> PickerOutcome {
    state.message = None;
    let action = if state.full_text.is_some() {
        full_text_key_action(&state.keys, key)
    } else {
        key_action(&state.keys, key)
    };
    match action {
        Some(a) => perform_action(state, a),
        None => PickerOutcome::None,
    }
}
