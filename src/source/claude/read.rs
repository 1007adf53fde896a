//! Reading Claude Code's JSONL into a [`Session`]: bytes split into lines
//! (any split: mid-line, mid-UTF-8), each line decoded ([`super::decode`])
//! and its entries ingested ([`super::ingest`]); unreadable lines kept as
//! rows with their line numbers; a run of garbage held as one row.

use super::decode::{Problem, decode_line};
use super::parallel::Decodes;
use super::raw::RawEntry;
use crate::model::item::*;
use crate::model::lines::LineSplitter;
use crate::model::session::{
    Document, GARBAGE_RUN, MAIN, Outcome, Session, Source, Target, Translated, open_regular,
};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where a line is in its file, for texts left there (`model::stored`):
/// its entries were decoded from the line's bytes at address `addr`.
fn place(
    base: u64,
    line: &crate::model::lines::Line<'_>,
    addr: usize,
) -> Option<crate::model::stored::LinePlace> {
    Some(crate::model::stored::LinePlace {
        at: base + line.offset,
        mem: (addr, line.bytes.len()),
    })
}

impl Session {
    /// Reads a whole file (or stdin for `-`) into a session.
    pub fn load(path: &Path) -> std::io::Result<Session> {
        let mut s = Session::new(Some(path.to_owned()));
        if path == Path::new("-") {
            s.read_all(MAIN, &mut std::io::stdin().lock())?;
        } else {
            s.read_file_available(MAIN, &open_regular(path)?, &mut |_, _| {})?;
            s.finish(MAIN);
        }
        Ok(s)
    }

    /// Feeds everything `r` yields into `source`, then flushes its tail.
    pub fn read_all(&mut self, source: u16, r: &mut impl Read) -> std::io::Result<()> {
        self.read_available(source, r)?;
        self.finish(source);
        Ok(())
    }

    /// Feeds everything `r` yields so far into `source`. A last line
    /// without its newline stays buffered unless it is already whole (see
    /// [`Self::flush_tail`]): a file being written may end mid-line, and its
    /// follower brings the rest.
    pub fn read_available(&mut self, source: u16, r: &mut impl Read) -> std::io::Result<()> {
        super::parallel::read_sequential(self, source, r, &mut |_| {})?;
        self.flush_tail(source);
        Ok(())
    }

    /// [`Self::read_available`] for a file, from its start: a big one is
    /// decoded on every core (see `model::parallel`). `progress` hears
    /// (bytes read, size) as it goes.
    pub fn read_file_available(
        &mut self,
        source: u16,
        f: &std::fs::File,
        progress: &mut dyn FnMut(u64, u64),
    ) -> std::io::Result<()> {
        if self.redacting {
            // each line is redacted before it is decoded: read in place
            let size = f.metadata().map_or(0, |m| m.len());
            let mut r = f;
            super::parallel::read_sequential(self, source, &mut r, &mut |n| progress(n, size))?;
        } else {
            super::parallel::read_file(self, source, f, progress)?;
        }
        self.flush_tail(source);
        Ok(())
    }

    /// The bytes fed to `source` from now on start at `offset` of its file,
    /// whose tool output is left there (the preview of a big file's end).
    pub fn view_file_from(&mut self, source: u16, offset: u64) {
        if let Some(s) = self.sources.get_mut(source as usize) {
            s.base = offset;
            s.text_in_file = s.path.is_some();
        }
    }

    /// Registers a subagent's own file (`agent-<id>.jsonl`).
    pub fn add_agent_source(&mut self, path: PathBuf, agent_id: &str) -> u16 {
        let a = self.agent_for_id(agent_id);
        if agent_id.starts_with("acompact") {
            self.agents[a as usize].compact = true;
        }
        self.agents[a as usize].has_record = true;
        self.sources.push(Source::new(Some(path), Some(a)));
        (self.sources.len() - 1) as u16
    }

    /// Appended bytes of `source`. Complete lines are ingested; an unfinished
    /// last line waits for its newline (or for [`Self::flush_tail`]).
    pub fn feed(&mut self, source: u16, bytes: &[u8]) {
        self.feed_decoded(source, bytes, None, &mut Decodes::default());
    }

    /// [`Self::feed`], with lines already decoded on another thread
    /// (`ahead`, in stream order): a line the splitter hands out whole at
    /// the offset and length of one of them is ingested from it. So is a
    /// line that began in an earlier read and was read on to its end
    /// (`spanning`: its bytes and objects), if its bytes are the ones the
    /// splitter put together. Any other (a tentative tail, a line that
    /// does not read cleanly) is decoded here.
    pub(super) fn feed_decoded(
        &mut self,
        source: u16,
        bytes: &[u8],
        spanning: Option<(&[u8], &mut Decodes<'_>)>,
        ahead: &mut Decodes<'_>,
    ) {
        self.in_batch(|s| s.feed_lines(source, bytes, spanning, ahead));
    }

    /// Runs `f` as one batch of lines: the full passes over the branch
    /// structure that its lines owe are made once, at its end (a whole
    /// load is one batch: with a pass per chunk, the viewer's small chunks
    /// made passes a load's main cost).
    pub(super) fn in_batch<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> T {
        // a subagent's threads join the batch when a line first reaches
        // them (`thread_line`): each file of a session with thousands of
        // subagents began and ended every one of them, which made its
        // listing quadratic
        if self.batching == 0 {
            self.main.begin_batch();
        }
        self.batching += 1;
        let out = f(self);
        self.batching -= 1;
        if self.batching == 0 {
            let mut rebuilt = self.main.end_batch();
            for a in std::mem::take(&mut self.batched_agents) {
                if let Some(a) = self.agents.get_mut(a as usize) {
                    rebuilt |= a.transcript.end_batch();
                }
            }
            if rebuilt {
                self.changes.rebuilt = true;
            }
        }
        out
    }

    fn feed_lines(
        &mut self,
        source: u16,
        bytes: &[u8],
        mut spanning: Option<(&[u8], &mut Decodes<'_>)>,
        ahead: &mut Decodes<'_>,
    ) {
        let mut none = Decodes::default();
        let ahead = if self.redacting {
            // a line is redacted before it is decoded (see `ingest_line`)
            spanning = None;
            &mut none
        } else {
            ahead
        };
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        let mut next = 0;
        // the lines decoded ahead were split from these same bytes
        let mut hint = 0;
        let lines = std::mem::take(&mut ahead.lines);
        let known = |offset: u64| {
            while lines.get(hint).is_some_and(|a| a.offset < offset) {
                hint += 1;
            }
            lines
                .get(hint)
                .filter(|a| a.offset == offset)
                .map(|a| a.len)
        };
        splitter.feed_known(bytes, known, |line| {
            if let Some(len) = line.overlong {
                return self.ingest_overlong(source, line.number, len);
            }
            while lines.get(next).is_some_and(|a| a.offset < line.offset) {
                next += 1;
            }
            let this = lines
                .get(next)
                .filter(|a| a.offset == line.offset && a.len == line.bytes.len());
            // a line read on past its chunk: its bytes were read apart
            // from these, so they must be these
            let mut spanned = spanning.as_mut().filter(|(bytes, d)| {
                *bytes == line.bytes && d.lines.first().is_some_and(|a| a.offset == line.offset)
            });
            let read = match (&mut spanned, this) {
                (Some((_, d)), _) => d.take_read(0),
                (None, Some(a)) => {
                    let read = ahead.read.get_mut(a.entries.clone());
                    read.and_then(|r| r.first_mut()).map(std::mem::take)
                }
                (None, None) => None,
            };
            if self.translated(source, line.number, line.bytes, read) {
                return;
            }
            let decoded = this.filter(|a| !a.entries.is_empty()).and_then(|a| {
                let entries = ahead.entries.get_mut(a.entries.clone())?;
                Some((a.addr, entries))
            });
            let spanned = spanned.and_then(|(_, d)| {
                let addr = d.lines.first().filter(|a| !a.entries.is_empty())?.addr;
                Some((addr, d.entries_of(0)?))
            });
            match (spanned, decoded) {
                (Some((addr, entries)), _) => {
                    self.line_at = place(base, &line, addr);
                    self.ingest_decoded(source, line.number, entries)
                }
                (None, Some((addr, entries))) => {
                    self.line_at = place(base, &line, addr);
                    self.ingest_decoded(source, line.number, entries)
                }
                (None, None) => {
                    self.line_at = place(base, &line, line.bytes.as_ptr() as usize);
                    self.ingest_line(source, line.number, line.bytes)
                }
            }
            self.line_at = None;
        });
        ahead.lines = lines;
        self.sources[source as usize].splitter = splitter;
    }

    /// At EOF of a live file: if the unfinished last line is already a
    /// complete JSON object (files often lack a final newline), show it now.
    /// A write in progress stays buffered.
    pub fn flush_tail(&mut self, source: u16) {
        self.flush_garbage(source);
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        // (a document's line waits for its end: it is never decoded, and
        // one that looked whole (`{}`) may go on (`{},`))
        let whole = splitter.tail_may_be_whole()
            && self.sources[source as usize].garbage.document.is_none();
        if let Some(tail) = splitter.tail().filter(|_| whole) {
            let clean = decode_line(tail.number, tail.bytes, |_, _| {})
                .iter()
                .all(|p| p.recovered);
            if clean {
                // read here, as its own format or as Claude Code's: either
                // way it is read, and the newline that ends it later hands
                // nothing on (a Codex line read here was read again then)
                if !self.translated(source, tail.number, tail.bytes, None) {
                    self.line_at = place(base, &tail, tail.bytes.as_ptr() as usize);
                    self.ingest_line(source, tail.number, tail.bytes);
                    self.line_at = None;
                }
                splitter.consume_tail();
            }
        }
        self.sources[source as usize].splitter = splitter;
    }

    /// The input is complete: the unfinished last line is read as it is,
    /// and reported if it cannot be.
    pub fn finish(&mut self, source: u16) {
        let mut splitter = std::mem::take(&mut self.sources[source as usize].splitter);
        let base = self.sources[source as usize].base;
        if let Some(tail) = splitter.tail() {
            match tail.overlong {
                Some(len) => self.ingest_overlong(source, tail.number, len),
                None if self.translated(source, tail.number, tail.bytes, None) => {}
                None => {
                    self.line_at = place(base, &tail, tail.bytes.as_ptr() as usize);
                    self.ingest_line(source, tail.number, tail.bytes);
                    self.line_at = None;
                }
            }
            splitter.consume_tail();
        }
        self.sources[source as usize].splitter = splitter;
        self.flush_garbage(source);
        if let Some(mut t) = self.sources[source as usize].translator.take() {
            let line = self.sources[source as usize].lines();
            for l in t.finish() {
                self.ingest_line(source, line, l.as_bytes());
            }
            self.sources[source as usize].translator = Some(t);
        }
    }

    /// Lines longer than the cap skip their source's splitter: for tests.
    #[doc(hidden)]
    pub fn set_line_cap(&mut self, source: u16, cap: usize) {
        if let Some(s) = self.sources.get_mut(source as usize) {
            s.splitter = LineSplitter::with_cap(cap);
        }
    }

    /// A line over [`crate::model::lines::LINE_MAX`], skipped unread.
    fn ingest_overlong(&mut self, source: u16, line: u32, len: u64) {
        let message = format!(
            "line of {} skipped: longer than the {} a line may hold",
            crate::model::item::human_bytes(len),
            crate::model::item::human_bytes(crate::model::lines::LINE_MAX as u64)
        );
        let p = Problem {
            line,
            message,
            recovered: false,
        };
        self.push_unreadable(source, &p, &mut None);
        self.problems.push((source, p));
    }

    /// A line of a source that is one JSON document (see
    /// [`crate::model::session::Garbage::document`]): counted unreadable
    /// and held, not decoded.
    fn hold_document_line(&mut self, source: u16, line: u32, bytes: &[u8]) {
        let g = &mut self.sources[source as usize].garbage;
        // Gemini CLI's file names its project by a hash, in its head
        if g.document == Some(Document::Json)
            && line <= 8
            && bytes.trim_ascii_start().starts_with(b"\"projectHash\":")
        {
            g.document = Some(Document::Gemini);
        }
        let held = g.held.get_or_insert((line, line, 0));
        held.1 = line;
        held.2 += 1;
        self.stats.entries += 1;
        self.stats.unreadable += 1;
    }

    /// The unreadable lines held back in a row become one row. A
    /// document's stay held: its one row grows with them.
    fn flush_garbage(&mut self, source: u16) {
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        let g = &mut self.sources[source as usize].garbage;
        let held = match g.document {
            Some(Document::Json | Document::Gemini) => g.held,
            _ => g.held.take(),
        };
        let Some((first, last, n)) = held else {
            return;
        };
        let lines = match n {
            1 => format!("line {first}"),
            _ => format!("lines {first} to {last}"),
        };
        let what = match g.document {
            None => format!(
                "{n} unreadable lines in a row, {first} to {last}, shown as one: the input does not look like a session"
            ),
            Some(Document::Damaged) => format!("{lines}: not JSON Lines, before lines that are"),
            Some(Document::Gemini) => format!(
                "{lines}: one JSON document written over many lines, not JSON Lines: a Gemini CLI session, which ccv does not read (it reads Claude Code's and Codex's)"
            ),
            Some(Document::Json) => format!(
                "{lines}: one JSON document written over many lines, not JSON Lines: not a session of Claude Code's or Codex's"
            ),
        };
        let p = Problem {
            line: first,
            message: what,
            recovered: false,
        };
        match (g.document, g.document_row) {
            (Some(_), Some((id, at))) => {
                let t = self.transcript_mut(target);
                if let Some(item) = t.index_of(id).and_then(|i| t.items.get_mut(i)) {
                    item.text = format!("unreadable line {}: {}", p.line, p.message).into();
                    crate::model::session::push_unique(&mut self.changes.updated, id);
                }
                if let Some(slot) = self.problems.get_mut(at) {
                    slot.1 = p;
                }
            }
            (document, _) => {
                // counted line by line as they came
                let mut row = None;
                self.push_unreadable_row(source, &p, &mut row);
                self.problems.push((source, p));
                if let (Some(_), Some(id)) = (document, row) {
                    self.sources[source as usize].garbage.document_row =
                        Some((id, self.problems.len() - 1));
                }
            }
        }
    }

    /// An unreadable row for `p`; the line's findings show on its first
    /// such row (`row`).
    fn push_unreadable(&mut self, source: u16, p: &Problem, row: &mut Option<ItemId>) {
        self.stats.entries += 1;
        self.stats.unreadable += 1;
        self.push_unreadable_row(source, p, row);
    }

    fn push_unreadable_row(&mut self, source: u16, p: &Problem, row: &mut Option<ItemId>) {
        let target = match self.sources[source as usize].agent {
            Some(a) => Target::Agent(a),
            None => Target::Main,
        };
        let mut item = self.new_item(Kind::Unreadable, source, p.line);
        item.text = format!("unreadable line {}: {}", p.line, p.message).into();
        item.flags.error = true;
        let id = *row.get_or_insert(item.id);
        self.push(target, None, item);
        let agent = self.sources[source as usize].agent;
        self.mark_tracker
            .unreadable(&mut self.marks, agent, id, p.line);
    }

    /// Reads the lines fed next to `source` as lines of a file whose first
    /// line is `first_line`, read apart from it (a search's hits): a line
    /// of a file in another format is told by its first line, which an
    /// older Codex file's bare items do not say themselves.
    pub fn read_apart_after(&mut self, source: u16, first_line: &[u8]) {
        let Some(s) = self.sources.get_mut(source as usize) else {
            return;
        };
        s.sniffed = true;
        s.translator = crate::source::translator_for(first_line);
        if let Some(t) = s.translator.as_mut() {
            t.apart_after(first_line);
        }
    }

    /// A line of a file in another format (its first line decides, see
    /// [`crate::source::translator_for`]): read as the lines it stands
    /// for, held in memory (they are not the file's bytes). `false`: the
    /// file is in the native format. `read`: the line as read ahead (see
    /// [`crate::model::session::Translate::read_ahead`]).
    fn translated(
        &mut self,
        source: u16,
        line: u32,
        bytes: &[u8],
        read: Option<serde_json::Value>,
    ) -> bool {
        let s = &mut self.sources[source as usize];
        if !s.sniffed && !bytes.trim_ascii().is_empty() {
            s.sniffed = true;
            s.translator = crate::source::translator_for(bytes);
            if s.translator.is_none() && matches!(bytes.trim_ascii(), b"{" | b"[") {
                s.garbage.document = Some(Document::Json);
            }
        }
        if s.garbage.document.is_some() {
            // an object opened on its line is no part of a document written
            // over many lines (which puts each `{` last on its line)
            if !bytes.trim_ascii_start().starts_with(b"{\"") {
                self.hold_document_line(source, line, bytes);
                return true;
            }
            s.garbage.document = Some(Document::Damaged);
            self.flush_garbage(source);
            let g = &mut self.sources[source as usize].garbage;
            (g.document, g.document_row) = (None, None);
        }
        let Some(mut t) = self.sources[source as usize].translator.take() else {
            return false;
        };
        self.line_at = None;
        let translated = match read {
            Some(read) => t.translate_read(bytes, read),
            None => t.translate(bytes),
        };
        match translated {
            Translated::Lines(lines) => {
                for l in &lines {
                    self.ingest_line(source, line, l.as_bytes());
                }
            }
            Translated::Hidden(reason) => {
                self.stats.entries += 1;
                self.stats.hidden += 1;
                *self.stats.hidden_by_reason.entry(reason).or_default() += 1;
            }
            Translated::Raw => self.ingest_line(source, line, bytes),
        }
        self.sources[source as usize].translator = Some(t);
        true
    }

    fn ingest_line(&mut self, source: u16, line: u32, bytes: &[u8]) {
        // redacting keeps a line valid JSON (see `crate::redact`)
        let redacted;
        let bytes = if self.redacting {
            redacted = crate::redact::active()
                .redact_json(&String::from_utf8_lossy(bytes))
                .into_owned();
            redacted.as_bytes()
        } else {
            bytes
        };
        if self.sources[source as usize].garbage.held.is_some() {
            // the held run ends before a readable line: its row goes first
            // (decoding twice only the first line after a run of garbage)
            let mut readable = false;
            decode_line(line, bytes, |_, _| readable = true);
            if readable {
                self.flush_garbage(source);
            }
        }
        // a line that reads cleanly is decoded into its place (an entry is
        // 1.6 KB: handed out by the decoder it was moved twice), as a line
        // decoded ahead is; any other is read and reported below
        let mut clean = Vec::with_capacity(1);
        let read = if self.copies_left_out || self.lean_lines.is_some() {
            super::decode::decode_clean_without_copies(bytes, &mut clean)
        } else {
            super::decode::decode_clean(bytes, &mut clean)
        };
        if read {
            return self.ingest_decoded(source, line, &mut clean);
        }
        let before = self.stats.entries;
        let problems = decode_line(line, bytes, |mut entry, raw| {
            self.count_entry(source, line, &mut entry, raw)
        });
        self.after_line(source, line, before, problems);
    }

    /// A line decoded ahead without a problem (see [`Self::feed_decoded`]).
    pub(super) fn ingest_decoded(
        &mut self,
        source: u16,
        line: u32,
        entries: &mut [(RawEntry<'_>, &str)],
    ) {
        if self.sources[source as usize].garbage.held.is_some() {
            // the held run ends before this readable line: its row goes first
            self.flush_garbage(source);
        }
        let before = self.stats.entries;
        // by reference: an entry is 1.7 KB, and copies of it were a tenth
        // of a load's time
        for (entry, raw) in entries {
            self.count_entry(source, line, entry, raw);
        }
        self.after_line(source, line, before, Vec::new());
    }

    fn count_entry(&mut self, source: u16, line: u32, entry: &mut RawEntry<'_>, raw: &str) {
        self.stats.entries += 1;
        // a time that reads as none: the entry is shown without one, and
        // is ordered and dated by the lines around it
        if let Some(t) = entry.timestamp.as_deref()
            && super::ingest::time_of(entry).is_none()
        {
            let t: String = t.chars().take(40).collect();
            self.stats.recovered += 1;
            self.problems.push((
                source,
                Problem {
                    line,
                    message: format!(
                        "timestamp \"{}\" is not a time (shown without one)",
                        crate::model::text::sanitize(&t)
                    ),
                    recovered: true,
                },
            ));
        }
        match self.ingest_entry(source, line, entry, raw) {
            Outcome::Shown => self.stats.shown += 1,
            Outcome::Hidden(reason) => {
                self.stats.hidden += 1;
                *self.stats.hidden_by_reason.entry(reason).or_default() += 1;
            }
        }
    }

    /// What follows the entries of a line: the run of unreadable lines it
    /// ends or extends, and its problems.
    fn after_line(&mut self, source: u16, line: u32, before: u64, problems: Vec<Problem>) {
        let read_some = self.stats.entries > before;
        let g = &mut self.sources[source as usize].garbage;
        if read_some {
            g.run = 0;
            self.flush_garbage(source);
        } else if problems.iter().any(|p| !p.recovered) {
            g.run = g.run.saturating_add(1);
            if g.run > GARBAGE_RUN {
                let held = g.held.get_or_insert((line, line, 0));
                held.1 = line;
                held.2 += 1;
                self.stats.entries += 1;
                self.stats.unreadable += 1;
                return;
            }
        }
        // Findings of a line show on its first unreadable row.
        let mut unreadable_row = None;
        for p in problems {
            if p.recovered {
                self.stats.recovered += 1;
            } else {
                self.push_unreadable(source, &p, &mut unreadable_row);
            }
            self.problems.push((source, p));
        }
    }
}
