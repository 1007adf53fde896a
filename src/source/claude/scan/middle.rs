//! The middle of a big file, for its headline: title lines anywhere (a
//! custom title set mid-session, an ai-title the tail lacks), user lines
//! until the first prompt, and the lines a summary's leaf may be. Read by
//! the headline itself, or handed over by a reader that reads the whole
//! file anyway (a cold listing's figures): the answer is the same however
//! the lines come cut, which this module's test and `tests/list_scan.rs`
//! hold.

use super::{
    Found, LeafCheck, MIDDLE_CHUNK, absorb_title_line, is_title_line, scan_line, types_in,
};
use super::{TITLE, USER};
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

/// A middle line longer than this (with its newline) is output, not a
/// title or a prompt to show: passed over without being held whole.
const LONGEST: usize = 2 * MIDDLE_CHUNK;

/// What a file's ends said, and the middle they owe when they cannot name
/// the session.
pub struct Ends {
    pub(super) found: Found,
    pub(super) leaves: LeafCheck,
    exact: bool,
    size: u64,
    owed: Option<Owed>,
}

struct Owed {
    start: u64,
    end: u64,
    /// The windows, searched again for the leaf of a summary found in
    /// the middle.
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Summaries the ends held; those after were found in the middle.
    summaries_at_ends: usize,
}

impl Ends {
    pub(super) fn new(found: Found, leaves: LeafCheck, exact: bool, size: u64) -> Ends {
        Ends {
            found,
            leaves,
            exact,
            size,
            owed: None,
        }
    }

    pub(super) fn owe_middle(&mut self, start: u64, end: u64, head: Vec<u8>, tail: Vec<u8>) {
        if end > start {
            self.owed = Some(Owed {
                start,
                end,
                head,
                tail,
                summaries_at_ends: self.found.titles.summaries.len(),
            });
        }
    }

    /// The byte range of the middle owed, if any.
    pub fn middle(&self) -> Option<(u64, u64)> {
        self.owed.as_ref().map(|o| (o.start, o.end))
    }

    /// Whole lines of the file, from byte `offset`, in the file's order
    /// (each once): those of the middle owed are read, titles and prompts
    /// looked for outside the ranges `passed` (sorted, whole lines: what
    /// holds neither, see `figures::SeeLines`).
    pub fn middle_lines(&mut self, offset: u64, lines: &[u8], passed: &[Range<usize>]) {
        let Some((start, end)) = self.middle() else {
            return;
        };
        if offset >= end || offset + lines.len() as u64 <= start {
            return;
        }
        // all of them in the middle, none too long to hold: one run (no
        // walk of each line's end)
        if offset >= start && offset + lines.len() as u64 <= end && lines.len() <= LONGEST {
            self.region(lines, &outside(passed, 0..lines.len()));
            return;
        }
        // runs of lines wholly in the middle and not too long to hold
        let mut run_from = None;
        let mut at = 0;
        while at < lines.len() {
            let next = memchr::memchr(b'\n', &lines[at..]).map_or(lines.len(), |p| at + p + 1);
            let (line_start, line_end) = (offset + at as u64, offset + next as u64);
            let keep = line_start >= start && line_end <= end && next - at <= LONGEST;
            match (keep, run_from) {
                (true, None) => run_from = Some(at),
                (false, Some(from)) => {
                    self.region(&lines[from..at], &outside(passed, from..at));
                    run_from = None;
                }
                _ => {}
            }
            at = next;
        }
        if let Some(from) = run_from {
            self.region(&lines[from..], &outside(passed, from..lines.len()));
        }
    }

    /// Whole lines of the middle: titles and the first prompt, line by
    /// line, in the parts `looked` of it (whole lines, in order); then the
    /// leaves of every summary known, in all of it.
    fn region(&mut self, region: &[u8], looked: &[Range<usize>]) {
        let found = &mut self.found;
        let before = found.titles.summaries.len();
        for part in looked {
            let Some(part) = region.get(part.clone()) else {
                continue;
            };
            let mut at = 0;
            while found.titles.first_prompt.is_none() && at < part.len() {
                let next = memchr::memchr(b'\n', &part[at..]).map_or(part.len(), |p| at + p + 1);
                let line = part[at..next]
                    .strip_suffix(b"\n")
                    .unwrap_or(&part[at..next]);
                let types = types_in(line);
                if types & TITLE != 0 {
                    absorb_title_line(line, found);
                } else if types & USER != 0 && !super::super::figures::only_tool_results(line) {
                    // a line of tool results holds no prompt: it is not
                    // decoded whole to learn so (in real sessions whose
                    // head holds no prompt, the middle's first lines are
                    // outputs)
                    let mut one = Found::default();
                    scan_line(line, &mut one);
                    if found.titles.first_command.is_none() {
                        found.titles.first_command = one.titles.first_command;
                    }
                    found.titles.first_prompt = one.titles.first_prompt;
                }
                at = next;
            }
            title_hits(&part[at..], found);
        }
        self.leaves.search(region, &self.found.titles);
        if self.found.titles.summaries.len() > before
            && let Some(o) = &self.owed
        {
            // a summary found here: its leaf may be in the ends too
            self.leaves.search(&o.head, &self.found.titles);
            self.leaves.search(&o.tail, &self.found.titles);
        }
    }

    /// The leaf of a summary found in the middle may be in a part of it
    /// read before the summary: that part is read again, once, when one
    /// is still not found (rare: summaries sit at the top).
    pub(super) fn look_for_late_leaves(&mut self, path: &Path) -> io::Result<()> {
        let Some(o) = &self.owed else { return Ok(()) };
        let (start, end) = (o.start, o.end);
        let late = self
            .found
            .titles
            .summaries
            .get(o.summaries_at_ends..)
            .unwrap_or_default()
            .iter()
            .any(|(_, l)| l.as_ref().is_some_and(|l| !self.leaves.found.contains(l)));
        if !late {
            return Ok(());
        }
        let (leaves, titles) = (&mut self.leaves, &self.found.titles);
        read_middle(path, start, end, &mut |region| {
            leaves.search(region, titles)
        })
    }

    pub(super) fn parts(self) -> (Found, LeafCheck, bool, u64) {
        (self.found, self.leaves, self.exact, self.size)
    }
}

/// The parts of `run` (a range of whole lines) outside the sorted ranges
/// `passed`, relative to `run`'s start.
fn outside(passed: &[Range<usize>], run: Range<usize>) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut from = run.start;
    for p in passed {
        if p.end <= from {
            continue;
        }
        if p.start >= run.end {
            break;
        }
        if p.start > from {
            parts.push(from - run.start..p.start - run.start);
        }
        from = from.max(p.end);
    }
    if from < run.end {
        parts.push(from - run.start..run.end - run.start);
    }
    parts
}

/// The title lines of `region` (whole lines), in order, found by a byte
/// search for what they hold rather than line by line.
fn title_hits(region: &[u8], found: &mut Found) {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    // built once: a region may be a single line between answers
    static NEEDLES: LazyLock<[Finder<'static>; 2]> = LazyLock::new(|| {
        [
            Finder::new(b"title\""),
            Finder::new(b"\"type\":\"summary\""),
        ]
    });
    if region.is_empty() {
        return;
    }
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for needle in NEEDLES.iter() {
        let mut done_to = 0;
        for hit in needle.find_iter(region) {
            if hit < done_to {
                continue;
            }
            let start = memchr::memrchr(b'\n', &region[..hit]).map_or(0, |p| p + 1);
            let end = memchr::memchr(b'\n', &region[hit..]).map_or(region.len(), |p| hit + p);
            done_to = end;
            lines.push((start, end));
        }
    }
    // in the file's order, each line once: the later title wins
    lines.sort_unstable();
    lines.dedup();
    for (start, end) in lines {
        let line = &region[start..end];
        if is_title_line(line) {
            absorb_title_line(line, found);
        }
    }
}

/// The headline's own read of the middle `start..end` of `path`.
pub(super) fn scan_middle(path: &Path, start: u64, end: u64, ends: &mut Ends) -> io::Result<()> {
    read_middle(path, start, end, &mut |region| {
        ends.region(region, std::slice::from_ref(&(0..region.len())))
    })
}

/// Hands `on_region` the lines of `start..end` of `path` in runs of whole
/// lines, those longer than [`LONGEST`] left out.
fn read_middle(
    path: &Path,
    start: u64,
    end: u64,
    on_region: &mut dyn FnMut(&[u8]),
) -> io::Result<()> {
    if end <= start {
        return Ok(());
    }
    let mut file = crate::model::session::open_regular(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut reader = file.take(end - start);
    // one buffer, filled in place (no zeroing per read): this loop reads
    // the middle of every big file on a cold listing
    // (no bigger than the middle: zeroing 8 MB for a middle of 300 KB was
    // a tenth of a cold listing)
    let size = usize::try_from(end - start)
        .unwrap_or(usize::MAX)
        .saturating_add(1)
        .min(LONGEST);
    // and kept by the thread: zeroing a fresh one for every file was a
    // tenth of a listing's reading of heads and tails
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < size {
            b.resize(size, 0);
        }
        middle_through(&mut reader, &mut b[..size], on_region)
    })
}

/// [`read_middle`]'s loop, `buf` to read into.
fn middle_through(
    reader: &mut impl Read,
    buf: &mut [u8],
    on_region: &mut dyn FnMut(&[u8]),
) -> io::Result<()> {
    let mut filled = 0;
    // after a line too long to hold: skip to its end
    let mut first = false;
    loop {
        if filled == buf.len() {
            filled = 0;
            first = true;
        }
        let n = reader.read(&mut buf[filled..])?;
        filled += n;
        let at_end = n == 0;
        let data = &buf[..filled];
        // complete lines only; after an overlong line, from its end
        let mut from = 0;
        if first {
            match memchr::memchr(b'\n', data) {
                Some(p) => {
                    from = p + 1;
                    first = false;
                }
                None => from = data.len(),
            }
        }
        let pos = memchr::memrchr(b'\n', &data[from..]).map_or(from, |p| from + p + 1);
        if pos > from {
            on_region(&data[from..pos]);
        }
        buf.copy_within(pos..filled, 0);
        filled -= pos;
        if at_end {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{headline, read_ends};

    /// The middle handed over in pieces cut anywhere between lines names
    /// the file as the headline's own read of it does, with any lines but
    /// titles and prompts said to be passed over by the figures' read.
    #[test]
    fn the_middle_cut_anyhow_gives_the_headline_read_whole() {
        for titled in [true, false] {
            cut_anyhow(titled);
        }
    }

    fn cut_anyhow(titled: bool) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let pad = "y".repeat(1500);
        let mut text = String::new();
        for i in 0..400 {
            text += &match i {
                37 => r#"{"type":"system","content":"x","uuid":"leaf-a"}"#.to_owned(),
                90 if titled => {
                    r#"{"type":"custom-title","customTitle":"named","sessionId":"s"}"#.to_owned()
                }
                150 => {
                    r#"{"type":"user","message":{"role":"user","content":"the prompt"},"uuid":"p"}"#
                        .to_owned()
                }
                260 => r#"{"type":"summary","summary":"late","leafUuid":"leaf-a"}"#.to_owned(),
                300 if titled => r#"{"type":"ai-title","aiTitle":"ai","sessionId":"s"}"#.to_owned(),
                _ => {
                    format!(r#"{{"type":"assistant","message":{{"id":"m{i}","content":"{pad}"}}}}"#)
                }
            };
            text.push('\n');
        }
        std::fs::write(&path, &text).expect("write");
        let size = text.len() as u64;
        let whole = headline(&path, size).expect("headline");
        assert_eq!(whole.first_prompt, "the prompt");
        assert_eq!(whole.title, if titled { "named" } else { "late" });
        let starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|p| p + 1))
            .collect();
        let mut seed = 7u64;
        for _ in 0..20 {
            let mut ends = read_ends(&path, size).expect("ends");
            assert!(ends.middle().is_some());
            let mut from = 0;
            while from < text.len() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = starts.partition_point(|&s| s <= from) + (seed >> 33) as usize % 40;
                let to = starts.get(k).copied().unwrap_or(text.len()).max(from + 1);
                // lines the figures' read may pass over: any but a title,
                // a summary or a prompt (the summary's leaf line too)
                let mut passed: Vec<std::ops::Range<usize>> = Vec::new();
                for line in starts.partition_point(|&s| s < from)..k.min(starts.len()) {
                    let (start, end) = (starts[line], starts.get(line + 1).copied());
                    let end = end.unwrap_or(text.len()).min(to);
                    let bit = (seed >> (line % 31)) & 1 == 1;
                    if bit && ![90, 150, 260, 300].contains(&line) && start < end {
                        match passed.last_mut() {
                            Some(last) if last.end == start - from => last.end = end - from,
                            _ => passed.push(start - from..end - from),
                        }
                    }
                }
                ends.middle_lines(from as u64, &text.as_bytes()[from..to], &passed);
                from = to;
            }
            let cut = ends.finish(&path).expect("finish");
            assert_eq!(
                (cut.title, cut.first_prompt),
                (whole.title.clone(), whole.first_prompt.clone())
            );
        }
    }
}
