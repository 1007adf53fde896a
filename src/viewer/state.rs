//! The viewer's state and the one function that changes it. No terminal
//! here: tests drive it directly.

use super::action::{Action, Pending};
use super::keymap::Keymap;
use super::search::{self, Search};
use crate::model::{Changes, Detail, ItemId, Kind, Session};
use crate::prompt::EditOp;
use crate::rows::{self, Ctx, Filters, Fold, Row, RowKind, SessionExt};
use std::collections::HashSet;

pub struct State {
    pub session: Session,
    pub rows: Vec<Row>,
    pub selected: usize,
    pub expanded: HashSet<Fold>,
    pub filters: Filters,
    pub search: Search,
    /// Keep the last row selected as rows arrive.
    pub follow: bool,
    /// Rows that arrived while not following.
    pub unseen: usize,
    /// What keys do now: normal, the search prompt, a visual range, help.
    pub mode: Mode,
    pub message: Option<String>,
    pub quit: bool,
    /// Only the end of the session is loaded so far.
    pub partial: bool,
    /// While `partial`: how far the full load has read (bytes, size).
    pub load_progress: Option<(u64, u64)>,
    /// Lines of the selected row scrolled off when it is taller than the
    /// screen (so a long message can be read line by line).
    pub sel_offset: usize,
    /// Lines of the help or info overlay scrolled off (a short terminal).
    pub help_scroll: usize,
    /// `i`: the session's figures, as the info overlay shows them (taken
    /// when it opens and when the session changes under it).
    pub info: super::info::Overlay,
    /// What the last frame showed, as the view reports it.
    pub viewport: super::Viewport,
    /// Rows the view must render again.
    pub redraw: super::Redraw,
    pub tz: jiff::tz::TimeZone,
    /// Live follow: what the follower said, the newer session, the way back.
    pub live: super::live::LiveStatus,
    /// The format `y`/`Y`/`v` copy in.
    pub copy_format: crate::export::Format,
    /// What the state asks the loop to do (I/O it does not do itself).
    pub requests: Vec<Request>,
    /// The keys, where `e` writes, whether the mouse is captured: from the
    /// config, kept from session to session.
    pub settings: Settings,
    /// What the last copy's redaction replaced (`2 redacted: 1 github…`).
    pub redacted: Option<String>,
    /// The rows the last copy was made of, when the user chose several
    /// (`4 rows`): said with the entries the copy holds.
    pub copying: Option<String>,
    /// `m{a-z}`: rows to come back to with `'{a-z}` (this session only).
    pub marks: std::collections::HashMap<char, Mark>,
}

/// A marked row: its transcript, item and kind (a group's header and its
/// first call are one item).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub agent: Option<u32>,
    pub id: ItemId,
    pub kind: RowKind,
}

/// What the user set up (the config, `M`), carried across sessions.
#[derive(Debug, Clone)]
pub struct Settings {
    pub keys: std::rc::Rc<Keymap>,
    /// Where `e` writes (default: the state directory's `exports`).
    pub export_dir: Option<std::path::PathBuf>,
    /// Mouse capture on: the wheel scrolls ccv, a click selects.
    pub mouse: bool,
    /// `#`: secrets left out of copies and exports, and of the screen.
    pub redact: Redaction,
    /// What was typed in `/` and `:` before (the loop saves it).
    pub histories: crate::prompt::Histories,
}

/// What `#` redacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Redaction {
    #[default]
    Off,
    /// Copies and exports made from the viewer.
    Copies,
    /// Those and the screen (for sharing it).
    Screen,
}

impl Redaction {
    pub fn copies(self) -> bool {
        self != Redaction::Off
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            keys: Default::default(),
            export_dir: None,
            mouse: true,
            redact: Redaction::Off,
            histories: Default::default(),
        }
    }
}

/// A row found again after the rows are derived anew: the item it shows,
/// what kind of row, and where its top-level unit starts.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    agent: Option<u32>,
    id: ItemId,
    kind: std::mem::Discriminant<RowKind>,
    top: u32,
}

/// The viewer's modes, one at a time: each decides what keys do.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Normal,
    /// The search prompt is open, holding what has been typed.
    Search(crate::prompt::LineEdit),
    /// `v`: the rows from `anchor` to the selection.
    Visual { anchor: usize },
    /// The help overlay (its scroll is the view's: `ListView::help_scroll`).
    Help,
    /// `i`: the session in figures (`State::info`), scrolled as the help.
    Info,
    /// `:`: the command line, holding what has been typed.
    Command(crate::prompt::LineEdit),
    /// A key waits for the next (`m` a, `'` a, `c` o).
    Pending(Pending),
}

/// Work for the event loop, which owns the terminal, the clipboard and the
/// loaders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Open another session (a newer one of the project, or back).
    Open(std::path::PathBuf),
    /// Put this text on the clipboard.
    Copy(crate::clipboard::CopyText),
    /// Write the transcript, as filtered, to a markdown file.
    ExportMarkdown,
    /// Leave and run `claude --resume ID` in `cwd`.
    Resume {
        id: String,
        cwd: Option<String>,
        /// The session's format when not Claude Code's (`codex`).
        format: Option<&'static str>,
    },
    /// `:export PATH`: the transcript as filtered, in `format`;
    /// `overwrite` when the command said `!`.
    Export {
        path: std::path::PathBuf,
        format: crate::export::Format,
        overwrite: bool,
    },
    /// Open `file` at `line` (or where `find` is in it) in the user's
    /// editor; read-only for the session itself.
    Edit {
        file: std::path::PathBuf,
        line: u32,
        find: Option<String>,
        read_only: bool,
    },
    /// Open the whole of a result Claude Code saved apart, read-only:
    /// `file` where it lies on this machine (none when the call's id
    /// could name no file), `recorded` where the session says it was.
    EditSaved {
        file: Option<std::path::PathBuf>,
        recorded: std::path::PathBuf,
    },
    /// Copy the whole of a result Claude Code saved apart (`file`, as for
    /// [`Request::EditSaved`]), or `read`, what Claude read, when it is
    /// not on this machine.
    CopySaved {
        file: Option<std::path::PathBuf>,
        read: String,
    },
    /// Turn the terminal's mouse reporting on or off.
    Mouse(bool),
    /// Read the session again (the screen's redaction changed).
    Reload,
}

impl State {
    pub fn new(session: Session) -> State {
        let mut s = State {
            session,
            rows: Vec::new(),
            selected: 0,
            expanded: HashSet::new(),
            filters: Filters::default(),
            search: Search::default(),
            follow: true,
            unseen: 0,
            mode: Mode::Normal,
            message: None,
            quit: false,
            partial: false,
            load_progress: None,
            sel_offset: 0,
            help_scroll: 0,
            info: Default::default(),
            viewport: Default::default(),
            // a list drawn for another state keeps nothing of it
            redraw: super::viewport::Redraw {
                all: true,
                ..Default::default()
            },
            tz: crate::model::time::local_tz(),
            live: Default::default(),
            copy_format: crate::export::Format::Text,
            requests: Vec::new(),
            settings: Settings::default(),
            marks: Default::default(),
            redacted: None,
            copying: None,
        };
        s.rebuild();
        s.select_last();
        s
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            session: &self.session,
            expanded: &self.expanded,
            filters: self.filters,
        }
    }

    /// Re-derives every row, keeping the selected row selected.
    pub fn rebuild(&mut self) {
        let anchor = self.anchor();
        let mut rows = Vec::with_capacity(self.rows.len().max(self.session.main.items.len()));
        rows::derive_main(&self.ctx(), 0, usize::MAX, &mut rows);
        self.rows = rows;
        self.restore(anchor);
    }

    /// The session's id: the last `sessionId` of its lines (a resumed
    /// session continues under a new one), else the file's name.
    pub fn session_id(&self) -> Option<String> {
        let valid = crate::model::session::is_session_id;
        if let Some(id) = self.session.meta.session_ids.last().filter(|i| valid(i)) {
            return Some(id.clone());
        }
        let path = self.session.sources.first()?.path.as_deref()?;
        let stem = path.file_stem()?.to_str()?;
        valid(stem).then(|| stem.to_owned())
    }

    /// `R`: resume the session in claude, in its directory; asks first
    /// when that directory is gone, and never for an id that is not a
    /// UUID (it would reach `claude` as an option).
    fn resume(&mut self) {
        let Some(id) = self.session_id() else {
            self.message = Some("no session id to resume".into());
            return;
        };
        if !crate::source::is_resumable_id(&id) {
            self.message =
                Some("this session's id is not one its program can resume (not a UUID)".into());
            return;
        }
        let cwd = self.session.meta.cwd.clone();
        if cwd
            .as_deref()
            .is_some_and(|d| !std::path::Path::new(d).is_dir())
        {
            self.mode = Mode::Pending(Pending::ConfirmResume);
            return;
        }
        let format = self.session.format();
        self.requests.push(Request::Resume { id, cwd, format });
    }

    /// The help overlay's lines (keys, what they do), from the key table.
    pub fn help_lines(&self) -> Vec<(String, &'static str)> {
        self.settings.keys.help()
    }

    /// The status bar's key hints in three lengths, longest first.
    pub fn key_hints(&self) -> [String; 3] {
        self.settings.keys.hints()
    }

    /// The file of the session this one is continued in (a `continued-in`
    /// line): beside this one, named by its id.
    pub fn continuation(&self) -> Option<std::path::PathBuf> {
        let id = self.session.meta.continued_in.as_deref()?;
        let path = self.session.sources.first()?.path.as_deref()?;
        Some(path.with_file_name(format!("{id}.jsonl")))
    }

    /// The id of the item a row shows.
    pub(crate) fn item_id(&self, r: &Row) -> Option<ItemId> {
        let t = self.session.transcript_checked(r.agent)?;
        Some(t.items.get(r.index as usize)?.id)
    }

    /// The selected row's identity.
    fn anchor(&self) -> Option<Anchor> {
        let r = self.rows.get(self.selected)?;
        Some(Anchor {
            agent: r.agent,
            id: self.item_id(r)?,
            kind: std::mem::discriminant(&r.kind),
            top: r.top,
        })
    }

    fn restore(&mut self, anchor: Option<Anchor>) {
        if self.follow {
            self.select_last();
            return;
        }
        let Some(Anchor {
            agent,
            id,
            kind,
            top,
        }) = anchor
        else {
            self.selected = self.selected.min(self.rows.len().saturating_sub(1));
            return;
        };
        let found = self.rows.iter().position(|r| {
            r.agent == agent
                && std::mem::discriminant(&r.kind) == kind
                && self
                    .session
                    .transcript_checked(agent)
                    .and_then(|t| t.items.get(r.index as usize))
                    .map(|i| i.id)
                    == Some(id)
        });
        self.selected = match found {
            Some(p) => p,
            // filtered away: the nearest row at or after it
            None => self
                .rows
                .iter()
                .position(|r| r.top >= top)
                .unwrap_or(self.rows.len().saturating_sub(1)),
        };
    }

    pub fn select_last(&mut self) {
        self.selected = self.rows.len().saturating_sub(1);
        self.unseen = 0;
    }

    /// Applies what the model reports after new bytes were fed.
    pub fn apply_changes(&mut self, changes: Changes) {
        if changes.restyled {
            self.redraw.everything();
        }
        for id in &changes.updated {
            self.redraw.item(*id);
            // the group header counts results and errors, and a folded
            // unit (a group, a run of an earlier branch) is marked when
            // anything in it is
            let t = &self.session.main;
            let Some(i) = t.index_of(*id) else {
                continue;
            };
            let first = t
                .items
                .get(i)
                .and_then(|it| it.group)
                .and_then(|g| t.groups.get(g as usize));
            let unit = t.items.get(rows::unit_start(t, i)).map(|it| it.id);
            if let Some(first) = first.and_then(|g| t.items.get(g.first)) {
                self.redraw.item(first.id);
            }
            if let Some(unit) = unit.filter(|u| u != id) {
                self.redraw.item(unit);
            }
        }
        if changes.rebuilt {
            // (what a row shows may have changed with the structure: a
            // turn split by a prompt put among its rows counts less)
            self.redraw.everything();
            let before = self.rows.len();
            self.rebuild();
            self.note_new(before);
            return;
        }
        // a subagent grew: its rows hang under its call's unit
        let t = &self.session.main;
        let mut units: Vec<usize> = changes
            .updated
            .iter()
            .filter_map(|id| {
                let i = t.index_of(*id)?;
                matches!(&t.items.get(i)?.detail, Detail::Call(c) if c.agent.is_some())
                    .then(|| rows::unit_start(t, i))
            })
            .collect();
        units.sort_unstable();
        units.dedup();
        for u in units.into_iter().rev() {
            let anchor = self.anchor();
            self.rederive_unit(u);
            self.restore(anchor);
        }
        let Some(from) = changes.appended_from else {
            return;
        };
        let t = &self.session.main;
        // a group the new items joined counts them in its header
        let mut joined: Vec<ItemId> = Vec::new();
        for it in t.items.get(from..).unwrap_or(&[]) {
            if let Some(first) = it
                .group
                .and_then(|g| t.groups.get(g as usize))
                .and_then(|g| t.items.get(g.first))
                && joined.last() != Some(&first.id)
            {
                joined.push(first.id);
            }
        }
        for id in joined {
            self.redraw.item(id);
        }
        let t = &self.session.main;
        let start = match from.checked_sub(1).and_then(|p| t.items.get(p)) {
            Some(prev) if prev.group.is_some() || prev.off_branch => rows::unit_start(t, from - 1),
            _ => from,
        };
        let before = self.rows.len();
        let keep = self
            .rows
            .iter()
            .rposition(|r| (r.top as usize) < start)
            .map_or(0, |p| p + 1);
        let anchor = (self.selected >= keep).then(|| self.anchor()).flatten();
        self.rows.truncate(keep);
        let mut tail = Vec::new();
        rows::derive_main(&self.ctx(), start, usize::MAX, &mut tail);
        self.rows.extend(tail);
        if anchor.is_some() {
            self.restore(anchor);
        }
        self.note_new(before);
    }

    /// Re-derives the rows after the main transcript: subagents no call
    /// links to. Their files grow (or appear, or get linked) without the
    /// main transcript changing.
    pub(crate) fn refresh_end_rows(&mut self) {
        let end = self.session.main.items.len();
        let keep = self.rows.partition_point(|r| (r.top as usize) < end);
        let mut tail = Vec::new();
        rows::derive_main(&self.ctx(), end, usize::MAX, &mut tail);
        // their labels count what they hold, which may have grown
        for r in &tail {
            if let Some(id) = self.item_id(r) {
                self.redraw.item(id);
            }
        }
        if self.rows.get(keep..) == Some(&tail[..]) {
            return;
        }
        let before = self.rows.len();
        let anchor = (self.selected >= keep).then(|| self.anchor()).flatten();
        self.rows.truncate(keep);
        self.rows.extend(tail);
        if anchor.is_some() {
            self.restore(anchor);
        } else {
            self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        }
        self.note_new(before);
    }

    fn note_new(&mut self, before: usize) {
        if self.follow {
            self.select_last();
        } else {
            self.unseen += self.rows.len().saturating_sub(before);
        }
    }

    /// Replaces the session (the whole file after a preview of its end).
    pub fn replace_session(&mut self, session: Session) {
        let keys = super::live::fold_keys(&self.session, &self.expanded);
        self.session = session;
        self.expanded = super::live::folds_from_keys(&self.session, &keys);
        self.redraw.everything();
        self.partial = false;
        self.rebuild();
        self.refresh_info();
        if !self.search.query.is_empty() {
            self.search_again();
        }
    }

    /// Keeps search hits in step with appends: only new items are searched,
    /// and the rows `updated` in place (a call given its result, a
    /// subagent grown, an answer given a block) again.
    pub(crate) fn update_search_from(
        &mut self,
        from: Option<usize>,
        rebuilt: bool,
        updated: &[crate::model::ItemId],
    ) {
        if self.search.query.is_empty() {
            return;
        }
        if rebuilt {
            self.search_again();
            return;
        }
        // what the search still going has not reached it reaches itself,
        // the subagents no call links to at its end
        let searched = match &self.search.job {
            Some(job) => job.reached(),
            None => self.session.main.items.len(),
        };
        let new = from.filter(|&f| self.search.job.is_none() && f < searched);
        let unhung_searched = self.search.job.is_some() || new == Some(0);
        self.search_updated(updated, new.unwrap_or(searched), unhung_searched);
        if let Some(from) = new {
            let new = search::find_from(&self.session, &self.search.query, from);
            if from == 0 {
                // every item is new: the search is made whole (the matches
                // kept were in the subagents no call links to, searched
                // again with them)
                let current = self
                    .search
                    .current
                    .and_then(|c| self.search.hits.get(c).copied());
                self.search.hits = new;
                self.search.current =
                    current.and_then(|h| self.search.hits.iter().position(|&x| x == h));
            } else {
                self.search.hits.extend(new);
            }
            self.sort_hits();
        }
    }

    pub(crate) fn select(&mut self, i: usize) {
        let i = i.min(self.rows.len().saturating_sub(1));
        if i != self.selected {
            self.sel_offset = 0;
        }
        self.selected = i;
        self.follow = self.selected + 1 >= self.rows.len();
        if self.follow {
            self.unseen = 0;
        }
    }

    /// Moves down `rows` rows, or `lines` lines inside a selected row that
    /// is taller than the screen.
    fn down(&mut self, rows: usize, lines: usize) {
        if self.head_under_row_before() {
            // (into it from there, as the wheel goes: moved to fill the
            // screen, it jumped)
            return self.wheel(lines as isize);
        }
        let over = self.viewport.sel_overflow;
        if self.sel_offset < over && !(self.follow && self.selected + 1 >= self.rows.len()) {
            self.sel_offset = (self.sel_offset + lines).min(over);
            return;
        }
        self.select(self.selected.saturating_add(rows));
    }

    fn up(&mut self, rows: usize, lines: usize) {
        let over = self.viewport.sel_overflow;
        if over > 0 && self.end_over_rows_after() {
            return self.wheel(-(lines as isize));
        }
        if self.follow && self.selected + 1 >= self.rows.len() && over > 0 {
            // a tall last row is shown by its end while following
            self.sel_offset = over;
            self.follow = false;
        }
        if self.sel_offset > 0 {
            self.sel_offset = self.sel_offset.saturating_sub(lines);
            self.follow = false;
            return;
        }
        self.select(self.selected.saturating_sub(rows));
    }

    /// A page on: the row at the foot of the screen goes to its head,
    /// selected, so a page turned moves a screen of lines whatever the
    /// rows hold (moving by as many rows as the screen showed, a tall row
    /// on it made a page a few lines). Inside a row taller than the
    /// screen, its next screen.
    fn page_down(&mut self) {
        let lines = self.viewport.list_height as usize;
        let Some((head, foot)) = self.screen_ends() else {
            return self.down(self.page(), lines);
        };
        let over = self.viewport.sel_overflow;
        let inside =
            self.sel_offset < over && !(self.follow && self.selected + 1 >= self.rows.len());
        if self.head_under_row_before() {
            // on from the line under the screen, as the wheel goes
            return self.wheel(lines as isize);
        }
        if inside || self.redraw.pin.is_some() {
            // (a page turned since the last frame: what it showed is stale)
            return self.down(self.page(), lines);
        }
        let to = if foot.row == head.row {
            self.selected + 1
        } else {
            foot.row
        };
        self.select(to);
        if to < self.rows.len() {
            // (past it, the end is on screen: the last row is selected)
            self.redraw.pin = Some(super::Pin::Top);
        }
    }

    /// A page back: the row at the head of the screen goes to its foot,
    /// selected (shown by its end when it is taller than the screen).
    fn page_up(&mut self) {
        let lines = self.viewport.list_height as usize;
        let Some((head, foot)) = self.screen_ends() else {
            return self.up(self.page(), lines);
        };
        let at_end = self.follow && self.selected + 1 >= self.rows.len();
        if self.end_over_rows_after() {
            // back from the line over the screen, as the wheel goes
            return self.wheel(-(lines as isize));
        }
        if self.sel_offset > 0
            || (at_end && self.viewport.sel_overflow > 0)
            || self.redraw.pin.is_some()
        {
            return self.up(self.page(), lines);
        }
        let to = match (foot.row == head.row, self.selected.checked_sub(1)) {
            (false, _) => head.row,
            (true, Some(above)) => above,
            // the start is on screen
            (true, None) => return,
        };
        self.select(to);
        self.redraw.pin = Some(super::Pin::Bottom);
    }

    /// The mouse wheel: the screen moves `lines` lines, and the selection
    /// with it only when it would leave the screen (moved by rows, a
    /// wheel turned over a tall row leapt past its text).
    fn wheel(&mut self, lines: isize) {
        let Some((head, foot)) = self.screen_ends() else {
            return;
        };
        // the screen as the last frame drew it, in lines from its top;
        // turns since then add up
        let height = self.viewport.list_height as isize;
        let d = self.redraw.scroll + lines;
        let span = |v: &super::Visible| {
            let a = v.y as isize - head.y as isize;
            (a, a + v.lines as isize)
        };
        let at_line = |line: isize| {
            self.viewport.visible.iter().find(|v| {
                let (a, b) = span(v);
                a <= line && line < b
            })
        };
        let sel = self
            .viewport
            .visible
            .iter()
            .find(|v| v.row == self.selected);
        let over = self.viewport.sel_overflow as isize;
        let to = match sel {
            // a row taller than the screen fills it: past its end (or its
            // start) the next row is selected
            Some(_) if over > 0 && head.row == self.selected => {
                // (its end may be above the foot already: the wheel
                // stopped between it and the rows after it)
                let offset = self.viewport.head_skip as isize;
                if d > 0 && d > over - offset {
                    Some(self.selected + 1)
                } else if offset + d < 0 {
                    self.selected.checked_sub(1)
                } else {
                    None
                }
            }
            Some(v) if d > 0 && span(v).1 <= d => {
                Some(at_line(d).unwrap_or(&foot).row.max(self.selected))
            }
            Some(v) if d < 0 && span(v).0 >= d + height => Some(
                at_line(d + height - 1)
                    .unwrap_or(&head)
                    .row
                    .min(self.selected),
            ),
            _ => None,
        };
        if let Some(to) = to {
            self.select(to);
        }
        if d < 0 {
            self.follow = false;
        }
        self.redraw.scroll = d;
    }

    /// Whether the wheel left the selected row, taller than the screen,
    /// with its head under the end of the row before it.
    fn head_under_row_before(&self) -> bool {
        let Some((head, foot)) = self.screen_ends() else {
            return false;
        };
        self.viewport.sel_overflow > 0
            && self.sel_offset == 0
            && self.redraw.pin.is_none()
            && head.row != self.selected
            && foot.row == self.selected
    }

    /// Whether the wheel left the selected row with its end over the rows
    /// after it (past where it fills the screen).
    fn end_over_rows_after(&self) -> bool {
        let Some((head, _)) = self.screen_ends() else {
            return false;
        };
        head.row == self.selected
            && self.viewport.head_skip > self.viewport.sel_overflow
            && self.redraw.pin.is_none()
    }

    /// The first and the last row the last frame showed.
    fn screen_ends(&self) -> Option<(super::Visible, super::Visible)> {
        let v = &self.viewport.visible;
        Some((*v.first()?, *v.last()?))
    }

    fn half_page(&self) -> isize {
        (self.viewport.list_height as isize / 2).max(1)
    }

    fn page(&self) -> usize {
        self.viewport.visible.len().max(1)
    }

    fn toggle(&mut self, fold: Fold) {
        if self.expanded.remove(&fold) {
            // collapsed: the row is short again, show it from its start
            self.sel_offset = 0;
        } else {
            self.expanded.insert(fold);
        }
        let follow = self.follow;
        self.follow = false;
        match self.rows.get(self.selected) {
            Some(r) => self.rederive_unit(r.top as usize),
            None => self.rebuild(),
        }
        self.follow = follow && self.selected + 1 >= self.rows.len();
    }

    /// Re-derives the rows of one top-level unit in place: a toggle costs
    /// what the unit holds, not what the session holds.
    fn rederive_unit(&mut self, top: usize) {
        let a = self.rows.partition_point(|r| (r.top as usize) < top);
        let b = self.rows.partition_point(|r| (r.top as usize) <= top);
        let end = rows::unit_end(&self.session.main, top, true);
        let mut fresh = Vec::new();
        rows::derive_main(&self.ctx(), top, end, &mut fresh);
        self.rows.splice(a..b, fresh);
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }

    fn jump_prompt(&mut self, forward: bool) {
        let is_prompt = |r: &Row| {
            r.agent.is_none()
                && r.kind == RowKind::Item
                && self
                    .session
                    .main
                    .items
                    .get(r.index as usize)
                    .is_some_and(|i| i.kind == Kind::User)
        };
        let found = if forward {
            self.rows
                .iter()
                .skip(self.selected + 1)
                .position(is_prompt)
                .map(|p| p + self.selected + 1)
        } else {
            self.rows[..self.selected.min(self.rows.len())]
                .iter()
                .rposition(is_prompt)
        };
        if let Some(p) = found {
            self.select(p);
            // at the head of the screen, with its turn below it: shown as
            // little as it took, it stood at the foot with its turn unseen
            self.redraw.pin = Some(super::Pin::Top);
        }
    }
}

/// The one place where actions change the state. A jump (G, gg, a
/// search, `n`, a mark, `:LINE`...) leaves the mark `'` where it started,
/// so that `''` goes back, as in less and vim.
pub fn perform_action(s: &mut State, action: Action) {
    let searching = matches!(s.mode, Mode::Search(_));
    let jump = match &action {
        Action::Top
        | Action::Bottom
        | Action::NextMatch
        | Action::PrevMatch
        | Action::NextError
        | Action::PrevError
        | Action::PrevPrompt
        | Action::NextPrompt => true,
        Action::PromptSubmit => matches!(s.mode, Mode::Search(_) | Mode::Command(_)),
        Action::PendingKey(_) => s.mode == Mode::Pending(Pending::GotoMark),
        _ => false,
    };
    let from = if jump { s.mark_here() } else { None };
    act(s, action);
    // a search goes on between frames: where it started is the way back
    if let Some(m) = from
        && (searching || s.mark_here() != Some(m))
    {
        s.marks.insert('\'', m);
    }
}

/// The overlay scrolls; the view behind it stays put. Whether `action`
/// was one that scrolls.
fn scroll_overlay(scroll: &mut usize, action: &Action) -> bool {
    match action {
        Action::Up(n) => *scroll = scroll.saturating_sub(*n),
        Action::Down(n) => *scroll += n,
        Action::ScrollUp => *scroll = scroll.saturating_sub(3),
        Action::ScrollDown => *scroll += 3,
        Action::PageUp | Action::HalfPageUp => *scroll = scroll.saturating_sub(10),
        Action::PageDown | Action::HalfPageDown => *scroll += 10,
        _ => return false,
    }
    true
}

fn act(s: &mut State, action: Action) {
    if !matches!(
        action,
        Action::Resize(..)
            | Action::PromptInput(_)
            | Action::PromptBackspace
            | Action::PromptEdit(_)
    ) {
        s.message = None;
    }
    if matches!(s.mode, Mode::Help | Mode::Info) && scroll_overlay(&mut s.help_scroll, &action) {
        return;
    }
    match action {
        Action::Up(n) => s.up(n, n),
        Action::Down(n) => s.down(n, n),
        Action::ScrollUp => s.wheel(-3),
        Action::ScrollDown => s.wheel(3),
        Action::Top => s.select(0),
        Action::Bottom | Action::Follow => {
            s.select_last();
            s.follow = true;
        }
        Action::PageDown => s.page_down(),
        Action::PageUp => s.page_up(),
        // half a screen of lines, as the wheel moves it
        Action::HalfPageDown => s.wheel(s.half_page()),
        Action::HalfPageUp => s.wheel(-s.half_page()),
        Action::PrevPrompt => s.jump_prompt(false),
        Action::NextPrompt => s.jump_prompt(true),
        Action::Toggle => {
            if let Some(f) = s.rows.get(s.selected).and_then(|r| r.fold(&s.session)) {
                s.toggle(f);
            }
        }
        Action::ShowAll => s.show_all(),
        Action::Click(y) => s.click(y),
        Action::ExpandAll => s.expand_all(),
        Action::CollapseAll => {
            s.expanded.clear();
            s.rebuild();
        }
        Action::SearchStart => s.mode = Mode::Search(Default::default()),
        Action::CommandStart => s.mode = Mode::Command(Default::default()),
        Action::PromptInput(c) => s.edit_prompt(EditOp::Insert(c)),
        Action::PromptBackspace => match &s.mode {
            // backspace on an empty command line closes it, as in vim
            Mode::Command(q) if q.is_empty() => s.mode = Mode::Normal,
            _ => s.edit_prompt(EditOp::Backspace),
        },
        Action::PromptEdit(op) => s.edit_prompt(op),
        Action::PromptCancel => s.mode = Mode::Normal,
        Action::PromptSubmit => match std::mem::take(&mut s.mode) {
            Mode::Command(c) => {
                s.settings
                    .histories
                    .add(crate::prompt::Kind::Command, c.as_str());
                s.run_command(c.as_str());
            }
            other => {
                s.mode = other;
                s.submit_search();
            }
        },
        Action::Pending(p) => s.mode = Mode::Pending(p),
        Action::PendingKey(c) => match std::mem::take(&mut s.mode) {
            Mode::Pending(Pending::SetMark) => s.set_mark(c),
            Mode::Pending(Pending::GotoMark) => s.goto_mark(c),
            Mode::Pending(Pending::CopyPart) => s.copy_part(c),
            Mode::Pending(Pending::ConfirmResume) => match s.session_id() {
                Some(id) if c == 'y' || c == 'Y' => {
                    let format = s.session.format();
                    s.requests.push(Request::Resume {
                        id,
                        cwd: None,
                        format,
                    })
                }
                _ => s.message = Some("not resumed".into()),
            },
            other => s.mode = other,
        },
        Action::ToggleErrors => s.toggle_errors(),
        Action::ToggleRedact => s.toggle_redact(),
        Action::EditLine => s.edit_line(),
        Action::EditFile => s.edit_file(),
        Action::ToggleMouse => {
            s.settings.mouse = !s.settings.mouse;
            s.requests.push(Request::Mouse(s.settings.mouse));
            s.message = Some(if s.settings.mouse {
                "mouse on: the wheel scrolls, a click selects".into()
            } else {
                "mouse off: the terminal selects text (M turns it back on)".into()
            });
        }
        Action::NextMatch => s.goto_match(true),
        Action::NextError => s.goto_error(true),
        Action::PrevError => s.goto_error(false),
        Action::PrevMatch => s.goto_match(false),
        Action::ToggleTools => s.set_filters(|f| f.tools = !f.tools),
        Action::ToggleThinking => s.set_filters(|f| f.thinking = !f.thinking),
        Action::ToggleMeta => s.set_filters(|f| f.meta = !f.meta),
        Action::Copy => s.copy_selection(),
        Action::CopyAll => s.copy_filtered(),
        Action::Visual => {
            s.mode = match s.mode {
                Mode::Visual { .. } => Mode::Normal,
                _ if s.rows.is_empty() => Mode::Normal,
                _ => Mode::Visual { anchor: s.selected },
            };
        }
        Action::ExportMarkdown => s.requests.push(Request::ExportMarkdown),
        Action::OpenNewer => match s.live.newer.clone().or_else(|| s.continuation()) {
            Some(p) => s.requests.push(Request::Open(p)),
            None => s.message = Some("no newer session".into()),
        },
        Action::GoBack => match s.live.back.clone() {
            Some(p) => s.requests.push(Request::Open(p)),
            None => s.message = Some("no session to go back to".into()),
        },
        Action::Resume => s.resume(),
        Action::Info => s.toggle_info(),
        Action::Help => {
            s.mode = match s.mode {
                Mode::Help => Mode::Normal,
                _ => {
                    s.help_scroll = 0;
                    Mode::Help
                }
            };
        }
        // a mode closes first; the viewer after
        Action::Back => match s.mode {
            Mode::Normal => s.quit = true,
            _ => s.mode = Mode::Normal,
        },
        // Esc puts away a search's highlights before it leaves the viewer
        Action::Dismiss if s.mode == Mode::Normal && !s.search.query.is_empty() => {
            s.search = Default::default();
        }
        Action::Dismiss => perform_action(s, Action::Back),
        Action::Quit => s.quit = true,
        Action::Resize(w, h) => {
            s.viewport.width = w;
            s.viewport.height = h;
        }
    }
}

impl State {
    /// `z`: the selected item shown whole (no folding), or folded again;
    /// a message that is never folded, more of it when it is long (see
    /// `view::call::drawn`), or its head again.
    fn show_all(&mut self) {
        let Some(row) = self.rows.get(self.selected).copied() else {
            return;
        };
        match row.fold(&self.session) {
            Some(Fold::Item(id)) if !self.expanded.remove(&Fold::Full(id)) => {
                self.expanded.insert(Fold::Full(id));
                if !self.expanded.contains(&Fold::Item(id)) {
                    self.toggle(Fold::Item(id));
                }
            }
            None if matches!(row.kind, RowKind::Item | RowKind::Member { .. }) => {
                if let Some(id) = self.item_id(&row)
                    && !self.expanded.remove(&Fold::Full(id))
                {
                    self.expanded.insert(Fold::Full(id));
                } else {
                    self.sel_offset = 0;
                }
            }
            _ => {}
        }
    }

    /// A click on screen line `y`: selects the row there and opens it.
    fn click(&mut self, y: u16) {
        let hit = self
            .viewport
            .visible
            .iter()
            .find(|v| y >= v.y && y < v.y + v.lines)
            .map(|v| v.row);
        if let Some(r) = hit {
            self.select(r);
            perform_action(self, Action::Toggle);
        }
    }

    /// `o`: every tool group open.
    fn expand_all(&mut self) {
        let t = &self.session.main;
        let ids: Vec<Fold> = t
            .groups
            .iter()
            .filter_map(|g| t.items.get(g.first).map(|i| Fold::Group(i.id)))
            .collect();
        self.expanded.extend(ids);
        self.rebuild();
    }

    /// A key of readline's in the open prompt; Up / Down browse the
    /// prompt's history.
    fn edit_prompt(&mut self, op: EditOp) {
        use crate::prompt::Kind;
        let h = &self.settings.histories;
        match &mut self.mode {
            Mode::Search(q) => {
                q.apply(op, h.get(Kind::Search));
            }
            Mode::Command(q) => {
                q.apply(op, h.get(Kind::Command));
            }
            _ => {}
        }
    }

    /// Enter in the search prompt: find every match and go to the first;
    /// an empty search repeats the last one.
    fn submit_search(&mut self) {
        let q = match std::mem::take(&mut self.mode) {
            Mode::Search(q) => q.as_str().to_owned(),
            other => {
                self.mode = other;
                return;
            }
        };
        self.settings.histories.add(crate::prompt::Kind::Search, &q);
        if q.is_empty() {
            // an empty search repeats the last one
            self.goto_match(true);
        } else {
            self.start_search(q);
        }
    }

    fn set_filters(&mut self, change: impl FnOnce(&mut Filters)) {
        change(&mut self.filters);
        self.rebuild();
    }
}
