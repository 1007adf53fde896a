//! The head-and-tail scan the catalogue lists Claude Code sessions with:
//! what names a session, its directory, branch, model, last activity and
//! an estimate of its messages, without reading a big file whole.

use super::figures::AnswerRead;
use crate::model::headline::Headline;
use crate::model::time::parse_timestamp;
use crate::model::title::TitleFacts;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// Bytes read from each end of a file. Titles (`ai-title`, `summary`) sit
/// at the top or are re-appended after every turn, so both ends matter.
pub const WINDOW: u64 = 64 * 1024;
/// Bytes read at a time from the middle of a big file.
const MIDDLE_CHUNK: usize = 4 << 20;

/// What the head/tail reader found.
#[derive(Default, Debug)]
struct Found {
    cwd: Option<String>,
    session_id: Option<String>,
    branch: Option<String>,
    model: Option<String>,
    titles: TitleFacts,
    last_ts: Option<i64>,
    messages: u64,
    /// Messages of sidechain lines (a subagent's transcript): the count of
    /// a file that holds nothing else.
    side_messages: u64,
    /// Bytes of complete lines parsed (for extrapolating the count).
    parsed_bytes: u64,
    /// A line that is not JSON.
    unreadable: bool,
}

mod lean;
mod middle;
pub use middle::Ends;

/// Reads the head and tail of `path` (`size` from its metadata), the
/// middle only when the ends cannot name the session.
pub fn headline(path: &Path, size: u64) -> io::Result<Headline> {
    let mut ends = read_ends(path, size)?;
    if let Some((start, end)) = ends.middle() {
        middle::scan_middle(path, start, end, &mut ends)?;
    }
    ends.finish(path)
}

/// What the head and tail of `path` say (all of a small file). A big
/// file's middle is owed when they cannot name the session ([`Ends::middle`]):
/// read by [`headline`], or handed line by line by a reader that reads
/// the whole file anyway (a listing's figures).
pub fn read_ends(path: &Path, size: u64) -> io::Result<Ends> {
    let mut file = crate::model::session::open_regular(path)?;
    if size <= SMALL {
        let mut buf = Vec::with_capacity(size as usize + 1);
        file.read_to_end(&mut buf)?;
        return Ok(ends_of_whole(&buf));
    }
    let head = read_head(&mut file)?;
    ends_from(&file, HeadSeen::of(head), size)
}

/// The first [`WINDOW`] bytes of a big file (its head, and the first line
/// that tells its format).
pub fn read_head(file: &mut std::fs::File) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; WINDOW as usize];
    file.read_exact(&mut head)?;
    Ok(head)
}

/// [`read_ends`] of a big file whose head was read ([`read_head`]): its
/// tail is read where it is, in one read (fewer bytes at the end of a file
/// that shrank), and the file is left where the head ends (a read of the
/// whole file for figures reads on from there).
pub fn ends_from(file: &std::fs::File, head: HeadSeen, size: u64) -> io::Result<Ends> {
    Ok(head.with_tail(read_tail(file, size)?, size))
}

/// The last [`WINDOW`] bytes of a file of `size` bytes, however far it was
/// read.
fn read_tail(file: &std::fs::File, size: u64) -> io::Result<Vec<u8>> {
    let from = size.saturating_sub(WINDOW);
    let mut tail = vec![0u8; (size - from) as usize];
    let n = crate::model::stored::fill_at(file, &mut tail, from)?;
    tail.truncate(n);
    Ok(tail)
}

/// The last [`WINDOW`] bytes of a big file of `size` bytes, taken from a
/// read of the whole file as it passes them ([`TailWindow::see`]): a
/// listing reads each file once for its figures and headline (reading its
/// tail apart opened it twice and copied a window's bytes again).
pub struct TailWindow {
    from: u64,
    to: u64,
    bytes: Vec<u8>,
}

impl TailWindow {
    pub fn new(size: u64) -> TailWindow {
        TailWindow {
            from: size.saturating_sub(WINDOW),
            to: size,
            bytes: Vec::new(),
        }
    }

    /// Bytes of the file from offset `at`, in order (a run that skips
    /// some leaves the window to be read from the file).
    pub fn see(&mut self, at: u64, run: &[u8]) {
        let want = self.from + self.bytes.len() as u64;
        let end = at + run.len() as u64;
        if want >= self.to || at > want || end <= want {
            return;
        }
        let (start, stop) = ((want - at) as usize, (end.min(self.to) - at) as usize);
        if let Some(b) = run.get(start..stop) {
            if self.bytes.is_empty() {
                self.bytes.reserve_exact((self.to - self.from) as usize);
            }
            self.bytes.extend_from_slice(b);
        }
    }

    /// The window's bytes: as seen, or read from `file` where they were
    /// not all seen (as [`ends_from`] reads them: fewer at the end of a
    /// file that shrank).
    pub fn bytes(self, file: &std::fs::File) -> io::Result<Vec<u8>> {
        if self.bytes.len() as u64 == self.to - self.from {
            return Ok(self.bytes);
        }
        read_tail(file, self.to)
    }
}

/// What the head window of a big file says, before its tail is read.
pub struct HeadSeen {
    head: Vec<u8>,
    found: Found,
}

impl HeadSeen {
    pub fn of(head: Vec<u8>) -> HeadSeen {
        let mut found = Found::default();
        scan_head(&window_lines(&head, false, false), &mut found);
        HeadSeen { head, found }
    }

    /// The head's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.head
    }

    /// Whether the head names the session whatever the tail says: it
    /// holds a first prompt and no summary (whose leaf the middle may
    /// have to be read for, see [`Self::with_tail`]).
    pub fn names_session(&self) -> bool {
        self.found.titles.first_prompt.is_some() && self.found.titles.summaries.is_empty()
    }

    /// What the head and the `tail` window of a file of `size` bytes say.
    pub fn with_tail(self, tail: Vec<u8>, size: u64) -> Ends {
        let HeadSeen { head, mut found } = self;
        let mut leaves = LeafCheck::default();
        scan_tail(&window_lines(&tail, true, true), &mut found);
        leaves.search(&head, &found.titles);
        leaves.search(&tail, &found.titles);
        let mut ends = Ends::new(found, leaves, false, size);
        // The middle is read only when the ends cannot name the session:
        // no first prompt in the head (a session that opens with long tool
        // output), or a summary that would title it whose leaf is not in
        // the ends. Reading every middle costs a cold listing of 1 GB more
        // than a `cat` of it. Lines cut by a window's edge are read whole.
        let t = &ends.found.titles;
        let unresolved = t
            .summaries
            .iter()
            .any(|(_, l)| l.as_ref().is_some_and(|l| !ends.leaves.found.contains(l)));
        if t.first_prompt.is_none()
            || (t.custom_title.is_none() && t.ai_title.is_none() && unresolved)
        {
            let start = memchr::memrchr(b'\n', &head).map_or(0, |p| p + 1) as u64;
            let end = size.saturating_sub(WINDOW)
                + memchr::memchr(b'\n', &tail).map_or(0, |p| p + 1) as u64;
            ends.owe_middle(start, end, head, tail);
        }
        ends
    }
}

/// Files up to this size are read whole for their headline.
pub const SMALL: u64 = 2 * WINDOW;

/// [`ends_of_whole`] read as the figures' read hands over a small file's
/// lines (see `source::headline_and_figures`): an answer that read took
/// in is not read a second time (the answer reader reads a line only
/// where serde reads it, into the same values, so the headline takes the
/// same from it). Two reads of every answer of every small file were a
/// twentieth of a cold listing of 1 GB.
#[derive(Default)]
pub struct WholeSeen {
    found: Found,
    /// Bytes handed over so far.
    seen: usize,
}

impl WholeSeen {
    /// The next whole lines of the file, with the answers read among them.
    pub fn lines(&mut self, lines: &[u8], answers: &[AnswerRead<'_>]) {
        let mut answers = answers.iter().peekable();
        let mut start = 0;
        while start < lines.len() {
            let (line, next) = match memchr::memchr(b'\n', &lines[start..]) {
                Some(p) => (&lines[start..start + p], start + p + 1),
                None => (&lines[start..], lines.len()),
            };
            self.found.parsed_bytes += (next - start) as u64;
            while answers.next_if(|a| a.start < start).is_some() {}
            match answers.next_if(|a| a.start == start) {
                Some(a) => absorb(answer_line(a), &mut self.found),
                None => scan_line(line, &mut self.found),
            }
            start = next;
        }
        self.seen += lines.len();
    }

    /// The ends of the file `buf` once all of it was handed over (`None`:
    /// some was not).
    pub fn ends(self, buf: &[u8]) -> Option<Ends> {
        (self.seen == buf.len()).then(|| {
            let mut leaves = LeafCheck::default();
            leaves.search(buf, &self.found.titles);
            Ends::new(self.found, leaves, true, buf.len() as u64)
        })
    }
}

/// An answer the figures' read took in, as serde reads it into a
/// [`ScanLine`] (an answer holds no title, and its text is no prompt).
fn answer_line<'a>(a: &AnswerRead<'a>) -> ScanLine<'a> {
    ScanLine {
        kind: a.kind.clone(),
        cwd: a.cwd.clone(),
        session_id: a.session_id.clone(),
        git_branch: a.git_branch.clone(),
        timestamp: a.timestamp.clone(),
        is_sidechain: a.is_sidechain,
        message: a.message.clone().map(|model| ScanMessage {
            model,
            content: None,
        }),
        ..ScanLine::default()
    }
}

/// [`read_ends`] of a small file's bytes, read whole: it owes no middle.
pub fn ends_of_whole(buf: &[u8]) -> Ends {
    let mut found = Found::default();
    let mut leaves = LeafCheck::default();
    scan_lines(buf, false, true, &mut found);
    leaves.search(buf, &found.titles);
    Ends::new(found, leaves, true, buf.len() as u64)
}

impl Ends {
    /// The headline, once the middle owed (if any) was handed over.
    pub fn finish(mut self, path: &Path) -> io::Result<Headline> {
        self.look_for_late_leaves(path)?;
        let (found, leaves, exact, size) = self.parts();
        Ok(headline_of(found, leaves, exact, size))
    }
}

fn headline_of(mut found: Found, leaves: LeafCheck, exact: bool, size: u64) -> Headline {
    let messages = if found.messages == 0 {
        found.side_messages
    } else {
        found.messages
    };
    let message_count = if exact || found.parsed_bytes == 0 {
        messages
    } else {
        // Same density of messages per byte as the parts we read.
        ((messages as f64) * (size as f64) / (found.parsed_bytes as f64)).round() as u64
    };
    let first_prompt = found.titles.first_prompt.clone().unwrap_or_default();
    let title = found
        .titles
        .title(|leaf| leaves.found.iter().any(|l| l == leaf))
        .unwrap_or_default()
        .to_owned();
    Headline {
        cwd: found.cwd.take(),
        session_id: found.session_id.take(),
        title,
        first_prompt,
        last_activity_ms: found.last_ts,
        message_count,
        exact,
        model: found.model,
        git_branch: found.branch.filter(|b| !b.is_empty()),
        unreadable: found.unreadable,
        agent: None,
        figures: None,
        spawned: Vec::new(),
        subagents: None,
    }
}

/// Parses the complete lines of `buf`. `skip_first`: the buffer starts
/// mid-file, so its first line is probably partial. `at_eof`: the last line
/// is complete even without a newline.
fn scan_lines(buf: &[u8], skip_first: bool, at_eof: bool, found: &mut Found) {
    let mut start = 0;
    if skip_first {
        match memchr::memchr(b'\n', buf) {
            Some(p) => start = p + 1,
            None => return,
        }
    }
    while start < buf.len() {
        let (line, next) = match memchr::memchr(b'\n', &buf[start..]) {
            Some(p) => (&buf[start..start + p], start + p + 1),
            None if at_eof => (&buf[start..], buf.len()),
            None => break,
        };
        found.parsed_bytes += (next - start) as u64;
        scan_line(line, found);
        start = next;
    }
}

/// The complete lines of a window (see `scan_lines`).
fn window_lines(buf: &[u8], skip_first: bool, at_eof: bool) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    if skip_first {
        match memchr::memchr(b'\n', buf) {
            Some(p) => start = p + 1,
            None => return out,
        }
    }
    while start < buf.len() {
        match memchr::memchr(b'\n', &buf[start..]) {
            Some(p) => {
                out.push(&buf[start..start + p]);
                start += p + 1;
            }
            None if at_eof => {
                out.push(&buf[start..]);
                break;
            }
            None => break,
        }
    }
    out
}

// Big files: only the lines that can carry what the list shows are parsed
// (the first prompt at the top, the newest facts at the bottom, title
// lines anywhere); the rest are only classified by a byte search, for the
// message-count estimate. This keeps a cold listing of 1 GB well under a
// second of CPU.

fn scan_head(lines: &[&[u8]], found: &mut Found) {
    for line in lines {
        found.parsed_bytes += line.len() as u64 + 1;
        if found.titles.first_prompt.is_none() || found.cwd.is_none() {
            scan_line(line, found);
        } else {
            skim_line(line, found);
        }
    }
}

fn scan_tail(lines: &[&[u8]], found: &mut Found) {
    for line in lines {
        found.parsed_bytes += line.len() as u64 + 1;
        skim_line(line, found);
    }
    // Newest facts: walk back from the end until each is found.
    let (mut ts, mut model, mut branch) = (None, None, None);
    for line in lines.iter().rev() {
        let mut one = Found::default();
        scan_line(line, &mut one);
        ts = ts.or(one.last_ts);
        model = model.or(one.model);
        branch = branch.or(one.branch);
        if found.cwd.is_none() {
            found.cwd = one.cwd;
        }
        if found.session_id.is_none() {
            found.session_id = one.session_id;
        }
        if ts.is_some() && model.is_some() && branch.is_some() {
            break;
        }
    }
    if let Some(t) = ts {
        found.last_ts = Some(found.last_ts.map_or(t, |old| old.max(t)));
    }
    found.model = model.or(found.model.take());
    found.branch = branch.or(found.branch.take());
}

/// Which `"type":"…"` values a line holds anywhere (bits of [`TITLE`],
/// [`USER`], [`ASSISTANT`], [`PROGRESS`]): one pass over the line, where
/// a search for each was six (lines of the head, tail and middle of every
/// file of a cold listing are looked at).
fn types_in(line: &[u8]) -> u8 {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static TYPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"type\":\""));
    let mut bits = 0;
    for at in TYPE.find_iter(line) {
        let rest = &line[at + 8..];
        for (value, bit) in [
            (&b"ai-title\""[..], TITLE),
            (b"custom-title\"", TITLE),
            (b"summary\"", TITLE),
            (b"user\"", USER),
            (b"assistant\"", ASSISTANT),
            (b"progress\"", PROGRESS),
        ] {
            if rest.starts_with(value) {
                bits |= bit;
            }
        }
    }
    bits
}

const TITLE: u8 = 1;
const USER: u8 = 2;
const ASSISTANT: u8 = 4;
const PROGRESS: u8 = 8;

fn is_title_line(line: &[u8]) -> bool {
    types_in(line) & TITLE != 0
}

/// Which summary leaves are lines of the file (`"uuid":"<leaf>"`): a
/// summary whose leaf is elsewhere describes another session.
#[derive(Default)]
struct LeafCheck {
    found: Vec<String>,
}

impl LeafCheck {
    /// Notes the leaves of `titles`' summaries not found yet that are a
    /// line's own uuid in `buf` (`"uuid":"…"`, with or without a space),
    /// not one naming it as its parent or leaf. Two leaves or more: one
    /// pass for the key, each of its hits (one a line) looked at (a
    /// resumed session's summaries name leaves in another file, which the
    /// whole middle is read for; a pass for each leaf was three fifths of
    /// what the middle of real sessions cost).
    fn search(&mut self, buf: &[u8], titles: &TitleFacts) {
        use memchr::memmem::Finder;
        use std::sync::LazyLock;
        static KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"uuid\":"));
        let mut wanted: Vec<&str> = Vec::new();
        for (_, leaf) in &titles.summaries {
            if let Some(leaf) = leaf.as_deref()
                && !self.found.iter().any(|f| f == leaf)
                && !wanted.contains(&leaf)
            {
                wanted.push(leaf);
            }
        }
        match wanted.as_slice() {
            [] => return,
            // one leaf: a pass for it finds no more than it (where a
            // pass for the key stops at every line); not an empty one,
            // which every byte would match
            [leaf] if !leaf.is_empty() => {
                let leaf = *leaf;
                let own = memchr::memmem::find_iter(buf, leaf.as_bytes()).any(|at| {
                    let key = &buf[..at];
                    (key.ends_with(b"\"uuid\":\"") || key.ends_with(b"\"uuid\": \""))
                        && buf.get(at + leaf.len()) == Some(&b'"')
                });
                if own {
                    self.found.push(leaf.to_owned());
                }
                return;
            }
            _ => {}
        }
        for at in KEY.find_iter(buf) {
            let mut v = at + b"\"uuid\":".len();
            if buf.get(v) == Some(&b' ') {
                v += 1;
            }
            let Some(value) = buf.get(v..).and_then(|r| r.strip_prefix(b"\"")) else {
                continue;
            };
            wanted.retain(|leaf| {
                let own =
                    value.starts_with(leaf.as_bytes()) && value.get(leaf.len()) == Some(&b'"');
                if own {
                    self.found.push((*leaf).to_owned());
                }
                !own
            });
            if wanted.is_empty() {
                return;
            }
        }
    }
}

/// A title line (`ai-title`, `custom-title`, `summary`) read into `found`:
/// the later wins, summaries are all kept (their leaves decide).
fn absorb_title_line(line: &[u8], found: &mut Found) {
    let mut one = Found::default();
    scan_line(line, &mut one);
    let t = one.titles;
    if let Some(x) = t.custom_title {
        found.titles.custom_title = Some(x);
    }
    if let Some(x) = t.ai_title {
        found.titles.ai_title = Some(x);
    }
    found.titles.summaries.extend(t.summaries);
}

/// Title lines are parsed; other lines only counted as messages or not.
fn skim_line(line: &[u8], found: &mut Found) {
    let types = types_in(line);
    if types & TITLE != 0 {
        absorb_title_line(line, found);
    }
    let message = types & (USER | ASSISTANT) != 0 && types & PROGRESS == 0;
    found.messages += u64::from(message);
}

fn scan_line(line: &[u8], found: &mut Found) {
    let lossy;
    let text = match simdutf8::basic::from_utf8(line) {
        Ok(text) => text,
        Err(_) => {
            // read as the viewer reads it, with replacement characters: the
            // first prompt, or the only answer, may be on such a line
            lossy = String::from_utf8_lossy(line);
            &lossy
        }
    };
    let text = super::decode::line_json(text);
    // past the first prompt no message's text is read: the common shape
    // without serde (see `lean`)
    if found.titles.first_prompt.is_some()
        && let Some(e) = lean::read(text)
    {
        absorb(e, found);
        return;
    }
    // `}{` concatenations: take every object on the line.
    let stream = serde_json::Deserializer::from_str(text).into_iter::<ScanLine<'_>>();
    for (k, entry) in stream.enumerate() {
        match entry {
            Ok(e) => absorb(e, found),
            Err(_) => {
                found.unreadable |= k == 0 && !text.trim().is_empty();
                break;
            }
        }
    }
}

fn absorb(e: ScanLine<'_>, found: &mut Found) {
    let kind = e.kind.as_deref().unwrap_or("");
    match kind {
        "ai-title" => found.titles.set_ai(e.ai_title.as_deref().unwrap_or("")),
        "custom-title" => found
            .titles
            .set_custom(e.custom_title.as_deref().unwrap_or("")),
        "summary" => found
            .titles
            .add_summary(e.summary.as_deref().unwrap_or(""), e.leaf_uuid.as_deref()),
        _ => {}
    }
    if !matches!(
        kind,
        "user" | "assistant" | "system" | "progress" | "attachment"
    ) {
        return;
    }
    if let Some(ts) = e.timestamp.as_deref().and_then(parse_timestamp) {
        found.last_ts = Some(found.last_ts.map_or(ts, |t| t.max(ts)));
    }
    if e.is_sidechain == Some(true) {
        found.side_messages += u64::from(matches!(kind, "user" | "assistant"));
        return;
    }
    if found.cwd.is_none() {
        found.cwd = e.cwd.filter(|c| !c.is_empty()).map(Cow::into_owned);
    }
    if found.session_id.is_none() {
        found.session_id = e.session_id.map(Cow::into_owned);
    }
    // `""` means "not a repository" at that moment; keep the last real branch.
    if let Some(b) = e.git_branch.filter(|b| !b.is_empty()) {
        found.branch = Some(b.into_owned());
    }
    match kind {
        "user" => {
            found.messages += 1;
            if found.titles.first_prompt.is_none()
                && e.is_meta != Some(true)
                && e.is_compact_summary != Some(true)
                && let Some(PromptText {
                    text,
                    images,
                    tool_result: false,
                }) = e.message.as_ref().and_then(|m| m.content.as_ref())
            {
                found
                    .titles
                    .note_user(text.as_deref().unwrap_or(""), *images);
            }
        }
        "assistant" => {
            found.messages += 1;
            if let Some(m) = e
                .message
                .and_then(|m| m.model)
                .filter(|m| m != "<synthetic>" && !m.is_empty())
            {
                found.model = Some(m.into_owned());
            }
        }
        _ => {}
    }
}

/// Best-effort inverse of Claude Code's directory naming (every
/// non-alphanumeric char became `-`): `-home-bob--config-x` becomes
/// `/home/bob/.config/x`. Lossy: `my_project` comes back as `my/project`.
pub fn decode_project_dir(name: &str) -> String {
    if !name.starts_with('-') {
        return name.to_owned();
    }
    name.replace("--", "/.").replace('-', "/")
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ScanLine<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    cwd: Option<Cow<'a, str>>,
    #[serde(borrow)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    git_branch: Option<Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    is_meta: Option<bool>,
    is_sidechain: Option<bool>,
    is_compact_summary: Option<bool>,
    #[serde(borrow)]
    message: Option<ScanMessage<'a>>,
    #[serde(borrow)]
    ai_title: Option<Cow<'a, str>>,
    #[serde(borrow)]
    custom_title: Option<Cow<'a, str>>,
    #[serde(borrow)]
    summary: Option<Cow<'a, str>>,
    #[serde(borrow)]
    leaf_uuid: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ScanMessage<'a> {
    #[serde(borrow)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    content: Option<PromptText<'a>>,
}

/// The typed text of a user message: a string, or the first `text` block of
/// an array, and how many images it holds. Tool output is skipped without
/// being copied.
#[derive(Default)]
struct PromptText<'a> {
    text: Option<Cow<'a, str>>,
    images: usize,
    tool_result: bool,
}

#[derive(Deserialize)]
struct ScanBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    #[allow(dead_code)]
    content: Option<IgnoredAny>,
}

fn as_json<'a>(v: &serde_json::Value) -> PromptText<'a> {
    PromptText {
        text: Some(Cow::Owned(v.to_string())),
        ..PromptText::default()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for PromptText<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = PromptText<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("message content")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(PromptText {
                    text: Some(Cow::Borrowed(v)),
                    ..PromptText::default()
                })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(PromptText {
                    text: Some(Cow::Owned(v.to_owned())),
                    ..PromptText::default()
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = PromptText::default();
                while let Some(b) = seq.next_element::<Option<ScanBlock<'a>>>()? {
                    let Some(b) = b else { continue };
                    match b.kind.as_deref() {
                        Some("tool_result") => out.tool_result = true,
                        Some("image") => out.images += 1,
                        // (an IDE's context is a block of its own, before
                        // the prompt: see `classify_user_text`)
                        Some("text")
                            if out.text.is_none()
                                && !b.text.as_deref().is_some_and(only_ide_context) =>
                        {
                            out.text = b.text
                        }
                        _ => {}
                    }
                }
                Ok(out)
            }
            // a content of another shape is its JSON, as the model
            // shows it (see `raw::Content`)
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(as_json(&v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(PromptText::default())
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(as_json(&v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(as_json(&v.into()))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A text that is an IDE's context and nothing else.
fn only_ide_context(t: &str) -> bool {
    super::classify::after_ide_context(t).is_some_and(|rest| rest.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leaf is found where it is a line's own uuid (with or without a
    /// space after the key), not as a parent, a summary's leaf, a longer
    /// uuid's start or text; several in one pass, each once.
    #[test]
    fn leaves_are_lines_own_uuids() {
        let mut titles = crate::model::title::TitleFacts::default();
        for leaf in ["aa", "bb", "cc", "dd", "aa", ""] {
            titles.summaries.push(("s".into(), Some(leaf.into())));
        }
        titles.summaries.push(("none".into(), None));
        let buf = br#"{"parentUuid":"cc","uuid":"x"}
{"type":"summary","leafUuid":"dd","uuid":"aabb"}
{"text":"\"uuid\":\"dd","uuid": "bb"}
{"uuid":"aa"}
"#;
        let mut leaves = LeafCheck::default();
        leaves.search(buf, &titles);
        assert_eq!(leaves.found, ["bb", "aa"]);
        // found once; an empty leaf is a line whose uuid is empty
        leaves.search(b"{\"uuid\":\"aa\"}\n{\"uuid\":\"\"}", &titles);
        assert_eq!(leaves.found, ["bb", "aa", ""]);
        // one leaf (looked for alone, but for an empty one)
        for leaf in ["x1", ""] {
            let mut one = crate::model::title::TitleFacts::default();
            one.summaries.push(("s".into(), Some(leaf.into())));
            let mut leaves = LeafCheck::default();
            leaves.search(br#"{"parentUuid":"x1","uuid":"x12"}"#, &one);
            assert!(leaves.found.is_empty(), "{leaf:?}");
            leaves.search(format!(r#"{{"uuid": "{leaf}"}}"#).as_bytes(), &one);
            assert_eq!(leaves.found, [leaf]);
        }
    }

    /// A file's last window is taken from the runs of a read as they
    /// pass (in any cuts, past what the file had when measured), read
    /// from the file where a run was skipped or the file shrank.
    #[test]
    fn a_tail_window_is_the_files_last_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let bytes: Vec<u8> = (0..WINDOW * 3).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        let file = std::fs::File::open(&path).expect("open");
        let size = WINDOW * 2 + 77;
        let want = &bytes[(size - WINDOW) as usize..size as usize];
        for cut in [1, 1000, 65_536, 100_000, bytes.len()] {
            let mut tail = TailWindow::new(size);
            for (i, run) in bytes.chunks(cut).enumerate() {
                tail.see((i * cut) as u64, run);
            }
            assert_eq!(tail.bytes, want, "runs of {cut}");
            assert_eq!(tail.bytes(&file).expect("tail"), want, "runs of {cut}");
        }
        // a run left out: read from the file
        let mut tail = TailWindow::new(size);
        for (i, run) in bytes.chunks(1000).enumerate() {
            if i != 100 {
                tail.see((i * 1000) as u64, run);
            }
        }
        assert!(tail.bytes.len() < WINDOW as usize);
        assert_eq!(tail.bytes(&file).expect("tail"), want);
        // a file shorter than measured: what is there, as `ends_from` reads it
        let tail = TailWindow::new(WINDOW * 4);
        assert_eq!(
            tail.bytes(&file).expect("tail"),
            &bytes[(WINDOW * 3) as usize..]
        );
    }

    /// A big file's tail is read where it is: the file stays where its
    /// head ends, for the figures' read to go on from there (a file that
    /// shrank gives what it has).
    #[test]
    fn the_tail_is_read_without_moving_the_file() {
        use std::io::Read;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let bytes: Vec<u8> = (0..WINDOW * 3 + 5).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        let mut file = std::fs::File::open(&path).expect("open");
        let size = bytes.len() as u64;
        assert_eq!(
            read_head(&mut file).expect("head"),
            &bytes[..WINDOW as usize]
        );
        let tail = read_tail(&file, size).expect("tail");
        assert_eq!(tail, &bytes[(size - WINDOW) as usize..]);
        assert_eq!(
            read_tail(&file, size + 10).expect("tail"),
            &bytes[(size + 10 - WINDOW) as usize..]
        );
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).expect("rest");
        assert_eq!(rest, &bytes[WINDOW as usize..]);
    }

    /// A big file's headline and figures read in one pass are those of
    /// its ends read apart and its figures read whole.
    #[test]
    fn a_big_files_headline_is_the_same_read_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir
            .path()
            .join("0b1d7c1e-3b1a-4a52-9a3e-4f3c2d1b0a99.jsonl");
        let mut text = String::new();
        let mut parent = String::from("null");
        for i in 0..400 {
            let (u, a) = (format!("u{i}"), format!("a{i}"));
            text.push_str(&format!(
                r#"{{"type":"user","uuid":"{u}","parentUuid":{parent},"sessionId":"s","cwd":"/w","timestamp":"2025-01-01T00:{:02}:00Z","message":{{"role":"user","content":"prompt {i} {}"}}}}"#,
                i % 60,
                "x".repeat(300)
            ));
            text.push('\n');
            text.push_str(&format!(
                r#"{{"type":"assistant","uuid":"{a}","parentUuid":"{u}","sessionId":"s","timestamp":"2025-01-01T00:{:02}:30Z","message":{{"id":"m{i}","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"answer {i}"}}],"usage":{{"input_tokens":10,"output_tokens":5}}}}}}"#,
                i % 60
            ));
            text.push('\n');
            parent = format!("\"{a}\"");
        }
        std::fs::write(&path, &text).expect("write");
        let size = text.len() as u64;
        assert!(size > SMALL);
        let (once, session) = crate::source::headline_and_figures(&path, size).expect("read");
        let apart = headline(&path, size).expect("headline");
        assert_eq!(format!("{once:?}"), format!("{apart:?}"));
        assert_eq!(
            once.first_prompt.split(' ').take(2).collect::<Vec<_>>(),
            ["prompt", "0"]
        );
        let session = session.expect("figures");
        let whole = crate::source::load_for_figures(&path).expect("figures");
        let figures =
            |s: &crate::model::Session| format!("{:?}", crate::model::figures::Figures::of(s, 0));
        assert_eq!(figures(&session), figures(&whole));
    }

    #[test]
    fn decodes_dir_names() {
        assert_eq!(
            decode_project_dir("-home-bob--config-x"),
            "/home/bob/.config/x"
        );
        assert_eq!(decode_project_dir("-tmp-ccv"), "/tmp/ccv");
    }

    #[test]
    fn prompt_rules() {
        let mut f = Found::default();
        for l in [
            r#"{"type":"user","isMeta":true,"message":{"content":"<local-command-caveat>x</local-command-caveat>"}}"#,
            r#"{"type":"user","message":{"content":"<command-name>/clear</command-name>"}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"big"}]}}"#,
            r#"{"type":"user","message":{"content":"<system-reminder>r</system-reminder>"}}"#,
            r#"{"type":"user","message":{"content":[{"type":"text","text":"Fix the\nbug"},{"type":"image"}]}}"#,
            r#"{"type":"user","message":{"content":"later"}}"#,
        ] {
            scan_line(l.as_bytes(), &mut f);
        }
        assert_eq!(f.titles.first_prompt.as_deref(), Some("Fix the bug"));
        assert_eq!(f.titles.first_command.as_deref(), Some("/clear"));
        assert_eq!(f.messages, 6);
        // a content of another shape names the session as the viewer
        // shows it: its JSON
        let line =
            r#"{"type":"user","uuid":"u0","message":{"role":"user","content":{"note":"x"}}}"#;
        let mut f = Found::default();
        scan_line(line.as_bytes(), &mut f);
        assert_eq!(f.titles.first_prompt.as_deref(), Some(r#"{"note":"x"}"#));
        let mut s = crate::model::Session::new(None);
        s.feed(0, format!("{line}\n").as_bytes());
        s.finish(0);
        assert_eq!(s.title(), f.titles.first_prompt.as_deref());
    }
}
