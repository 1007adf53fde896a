//! A line's hits: its entries decoded, checked against the query, and
//! each made a hit with its snippet; and the files a search reads lines
//! back from.

use super::extract::{self, Entry, entries};
use super::{Filter, Hit};
use crate::catalog::files::SearchFile;
use crate::model::query::Query;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;

/// The first lines of the files of a search in another format than
/// Claude Code's, read once each, for the lines read apart from them
/// (see [`crate::source::header_of`]).
#[derive(Default)]
pub(super) struct Headers(Mutex<HashMap<u64, Option<std::sync::Arc<[u8]>>>>);

impl Headers {
    /// `f`'s first line when it is in another format; `claude`: the file
    /// is known to be Claude Code's (nothing is read).
    pub(super) fn of(&self, f: &SearchFile, claude: bool) -> Option<std::sync::Arc<[u8]>> {
        if claude {
            return None;
        }
        if let Ok(m) = self.0.lock()
            && let Some(h) = m.get(&f.path_hash)
        {
            return h.clone();
        }
        let h: Option<std::sync::Arc<[u8]>> = crate::source::header_of(&f.path).map(Into::into);
        if let Ok(mut m) = self.0.lock() {
            m.insert(f.path_hash, h.clone());
        }
        h
    }

    /// `f`'s first line when its name says it may be in another format.
    pub(super) fn of_named(&self, f: &SearchFile) -> Option<std::sync::Arc<[u8]>> {
        self.of(f, !crate::source::may_be_other_format(&f.path))
    }
}

pub(super) fn newest_first(hits: &mut [Hit]) {
    hits.sort_by(|a, b| {
        b.timestamp
            .cmp(&a.timestamp)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
    });
}

/// Files opened to read lines back from, by id, a few at a time: a
/// search with a big `--limit` reaches thousands of files, more than a
/// process may hold open (with all of them kept, an indexed search of
/// 5,000 hits under `ulimit -n 128` found 945).
#[derive(Default)]
pub(super) struct OpenFiles {
    pub(super) open: HashMap<u64, std::fs::File>,
}

impl OpenFiles {
    pub(super) const MOST: usize = 64;

    /// The file `id` at `path`, opened if need be (only a regular file: one
    /// swapped for a FIFO since it was listed must not block).
    pub(super) fn get(&mut self, id: u64, path: &Path) -> Option<&mut std::fs::File> {
        if !self.open.contains_key(&id) {
            if self.open.len() >= Self::MOST {
                self.open.clear();
            }
            let f = crate::model::session::open_regular(path).ok()?;
            self.open.insert(id, f);
        }
        self.open.get_mut(&id)
    }
}

/// The entries of one line that match, each with its line's copy key.
pub(super) fn check_line(
    (bytes, header): (&[u8], Option<&[u8]>),
    line: u32,
    f: &SearchFile,
    query: &Query,
    filter: &Filter,
) -> Vec<(Hit, Option<extract::Copy>)> {
    check_decoded(
        (&extract::Unshown::new(bytes), header),
        line,
        f,
        query,
        filter,
    )
}

/// The hits of `line`, decoded without what no entry of it shows.
pub(super) fn check_decoded(
    (bytes, header): (&extract::Unshown<'_>, Option<&[u8]>),
    line: u32,
    f: &SearchFile,
    query: &Query,
    filter: &Filter,
) -> Vec<(Hit, Option<extract::Copy>)> {
    let mut found: Vec<Entry> = entries(&bytes.shown(), line, header)
        .into_iter()
        .filter(|e| e.line == line)
        .filter(|e| filter.keeps_kind(e.kind) && filter.keeps_time(e.timestamp))
        .collect();
    extract::add_saved_outputs(&mut found, &f.path);
    found
        .into_iter()
        .filter(|e| query.matches(&e.text))
        .map(|mut e| (hit(&e, f, query), e.copy.take()))
        .collect()
}

pub(super) fn hit(e: &Entry, f: &SearchFile, query: &Query) -> Hit {
    let (snippet, mark) = snippet(&e.text, query);
    let marks = all_marks(&snippet, &mark, query);
    Hit {
        file: f.path.clone(),
        session: f.session.clone(),
        line: e.line,
        kind: e.kind,
        timestamp: e.timestamp,
        snippet,
        mark,
        marks,
    }
}

/// The query's ranges in `snippet` with `first` (found in the whole text,
/// before white space was folded) among them.
fn all_marks(snippet: &str, first: &Range<usize>, query: &Query) -> Vec<Range<usize>> {
    let mut marks = query.ranges(snippet);
    if !first.is_empty()
        && !marks
            .iter()
            .any(|m| m.start <= first.start && first.end <= m.end)
    {
        marks.retain(|m| m.end <= first.start || first.end <= m.start);
        let at = marks.partition_point(|m| m.start < first.start);
        marks.insert(at, first.clone());
    }
    marks
}

/// One line of safe text around the first match: some words before, more
/// after, white space folded.
pub fn snippet(text: &str, query: &Query) -> (String, Range<usize>) {
    let Some(first) = query.first_range(text) else {
        return (one_line(&crate::model::text::fit_end(text, 100)), 0..0);
    };
    let before = &text[..first.start];
    let cut = before.char_indices().rev().nth(40).map_or(0, |(i, _)| i);
    let after_end = text[first.end..]
        .char_indices()
        .nth(80)
        .map_or(text.len(), |(i, _)| first.end + i);
    let lead = if cut > 0 { "…" } else { "" };
    let tail = if after_end < text.len() { "…" } else { "" };
    let a = one_line(&text[cut..first.start]);
    let m = one_line(&text[first.start..first.end]);
    let b = one_line(&text[first.end..after_end]);
    let a = format!("{lead}{}", a.trim_start());
    let start = a.len();
    (
        format!("{a}{m}{}{tail}", b.trim_end()),
        start..start + m.len(),
    )
}

pub(super) fn one_line(s: &str) -> String {
    let safe = crate::model::text::sanitize(s);
    let mut out = String::with_capacity(safe.len());
    let mut space = false;
    for c in safe.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}
