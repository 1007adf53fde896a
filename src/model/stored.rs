//! Long texts left in the session file.
//!
//! Tool output and input, answers, thinking and prompts are most of a
//! session's bytes. The viewer and the export keep the long ones where
//! they are: a text records where it is written in its line (a string's
//! token, or a call's input as JSON), how long that is and a hash of it,
//! and is read back (`pread`, then that string decoded) when its row is
//! drawn, searched, copied or exported. Such a string is never decoded
//! while the file loads (see `model::json_str`). A file rewritten or cut
//! short under the viewer cannot show another text in its place: a short
//! read, bytes that are not a string or a hash that differs all say so in
//! its place ([`read_back`]). No mmap: a file truncated under a map kills
//! the reader with SIGBUS; a `pread` past the end reads less. The other
//! commands hold every text: they read each once, and most read them all.

use super::json_str::{JsonStr, written_as_json_out_writes};
use std::borrow::Cow;
use std::fs::File;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// Texts shorter than this stay in memory: a boxed [`Stored`] is 48 bytes
/// and a read costs a system call.
pub const STORE_MIN: usize = 256;

/// Where a text is in its source file, as written, and what those bytes
/// must be (length and hash) to be the ones that were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    /// Offset in the file of the text as written.
    pub at: u64,
    /// Its length as written.
    pub len: u32,
    /// Written as a JSON value kept as it is (a call's input), not a
    /// string to decode.
    pub value: bool,
    /// [`check`] of the bytes (a string's without its quotes).
    pub check: u64,
}

/// The text of a row or of a tool result: held, or in the session file
/// (see the module). As small as a `String`: rows hold one or three.
#[derive(Debug, Clone)]
pub enum Text {
    Held(String),
    InFile(Box<InFile>),
}

/// A text in the file, and its copy while it is read back.
#[derive(Debug, Clone)]
pub struct InFile {
    pub stored: Stored,
    loaded: String,
}

impl Default for Text {
    fn default() -> Self {
        Text::Held(String::new())
    }
}

impl Text {
    pub fn held(text: String) -> Self {
        Text::Held(text)
    }

    pub fn in_file(stored: Stored) -> Self {
        Text::InFile(Box::new(InFile {
            stored,
            loaded: String::new(),
        }))
    }

    /// The text, unless it is in the file and not read back.
    pub fn get(&self) -> Option<&str> {
        match self {
            Text::Held(t) => Some(t),
            Text::InFile(f) if f.loaded.is_empty() => None,
            Text::InFile(f) => Some(&f.loaded),
        }
    }

    /// The text, or a marker where it was not read back. Only sessions
    /// loaded for the viewer leave text in the file, and the viewer reads
    /// it back before a command shows it: the marker is a bug made visible.
    pub fn or_marker(&self) -> &str {
        self.get()
            .unwrap_or("[text not read from the session file]")
    }

    /// The text, or `…` where it is still in the file: what a frame draws
    /// before the app reads it back (see `view::list::row_lines`).
    pub fn shown(&self) -> &str {
        self.get().unwrap_or("…")
    }

    /// In the file (read back or not).
    pub fn stored(&self) -> Option<Stored> {
        match self {
            Text::Held(_) => None,
            Text::InFile(f) => Some(f.stored),
        }
    }

    /// In the file and not read back.
    pub fn missing(&self) -> bool {
        self.get().is_none()
    }

    /// Its length in bytes; for a text in the file, as written there
    /// (escapes undecoded): what sizes a buffer.
    pub fn len(&self) -> usize {
        match self {
            Text::Held(t) => t.len(),
            Text::InFile(f) => f.stored.len as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Blank (only whitespace). A text left in the file never is.
    pub fn is_blank(&self) -> bool {
        matches!(self, Text::Held(t) if t.trim().is_empty())
    }

    /// Gives a text in the file its read-back copy.
    pub fn fill(&mut self, text: String) {
        if let Text::InFile(f) = self {
            f.loaded = text;
        }
    }

    /// Lets go of a read-back copy. Returns the bytes freed.
    pub fn release(&mut self) -> usize {
        match self {
            Text::Held(_) => 0,
            Text::InFile(f) => std::mem::take(&mut f.loaded).len(),
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::held(text)
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::held(text.to_owned())
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.get() == Some(*other)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.or_marker())
    }
}

/// The hash a stored text is checked with: of its length, its first and
/// last 512 bytes and 32 of every KB between, so that checking a long
/// text costs little. A rewritten file that kept a text's place and
/// length and changed only bytes between those sampled would show the
/// text as it is now, not another one.
pub fn check(bytes: &[u8]) -> u64 {
    const ENDS: usize = 512;
    let mut h = rustc_hash::FxHasher::default();
    h.write_usize(bytes.len());
    if bytes.len() <= 4 * ENDS {
        h.write(bytes);
    } else {
        let (head, rest) = bytes.split_at(ENDS);
        let (middle, tail) = rest.split_at(rest.len() - ENDS);
        h.write(head);
        for piece in middle.chunks(1024) {
            h.write(&piece[..piece.len().min(32)]);
        }
        h.write(tail);
    }
    h.finish()
}

/// The text `stored` describes, from `bytes` (what is at its place in the
/// file now), if they are still what was read there.
pub fn text_of(bytes: &[u8], stored: &Stored) -> Option<String> {
    let s = simdutf8::basic::from_utf8(bytes).ok()?;
    if stored.value {
        return (check(bytes) == stored.check).then(|| s.to_owned());
    }
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    if check(inner.as_bytes()) != stored.check {
        return None;
    }
    Some(JsonStr::Token(s).into_text().into_owned())
}

/// Reads lines of a session's files back: one open file per source, and a
/// window of the file kept so that reading lines in order (a search, an
/// export) costs one system call per window, not one per line.
#[derive(Debug, Default)]
pub struct LineReader {
    files: Vec<Option<(PathBuf, File)>>,
    /// The bytes read are its first `filled`; the rest were read before
    /// (the buffer is not zeroed again for each read).
    window: Vec<u8>,
    filled: usize,
    /// (source, offset) of `window`.
    window_at: Option<(u16, u64)>,
    /// A line a little before the window, read on its own so that the
    /// window, which the next lines read on from, is kept: an export's
    /// rows follow the transcript, which steps back now and then (the
    /// blocks of a message kept together), and reading the window again
    /// after each such step was a sixth of what a 100 MB export read back.
    side: Vec<u8>,
    /// (source, offset) of `side`, which holds exactly what was read.
    side_at: Option<(u16, u64)>,
}

/// Bytes read at once when a line fits.
const WINDOW: usize = 512 * 1024;

/// Files a reader keeps open at most.
const OPEN_FILES: usize = 16;

/// Bytes read at once for a line read on its own (the rows of a frame).
const SMALL_WINDOW: usize = 16 * 1024;

impl LineReader {
    /// The line at `at` (`len` bytes) of `source`, whose file is `path`.
    /// `None` when the file cannot be opened or is shorter now.
    pub fn line(&mut self, source: u16, path: &Path, at: u64, len: u32) -> Option<&[u8]> {
        if self.holds(source, at, len)
            && let Some((_, w)) = self.window_at
        {
            let from = (at - w) as usize;
            return self.window.get(from..from + len as usize);
        }
        let len = len as usize;
        if let Some((s, w)) = self.side_at
            && s == source
            && at >= w
            && at + len as u64 <= w + self.side.len() as u64
        {
            let from = (at - w) as usize;
            return self.side.get(from..from + len);
        }
        let i = source as usize;
        self.open(source, path)?;
        let (_, f) = self.files.get(i)?.as_ref()?;
        let behind = self
            .window_at
            .is_some_and(|(s, w)| s == source && at < w && w - at <= 2 * WINDOW as u64);
        if behind {
            self.side_at = None;
            let want = len.max(SMALL_WINDOW);
            if self.side.capacity() > 4 * want {
                self.side = Vec::new(); // not held after a long text
            }
            self.side.resize(want, 0);
            let n = fill_at(f, &mut self.side, at).ok()?;
            self.side.truncate(n);
            self.side_at = Some((source, at));
            return self.side.get(..len);
        }
        // reading on from the last window (a search, an export): a big
        // one; else (the rows of a frame) a small one, not held long
        let onward = self
            .window_at
            .is_some_and(|(s, w)| s == source && at >= w && at - w <= 2 * WINDOW as u64);
        let size = if onward { WINDOW } else { SMALL_WINDOW };
        let want = len.max(size);
        if !onward && self.window.len() > want {
            self.window.truncate(want);
            self.window.shrink_to_fit();
        }
        if self.window.len() < want {
            self.window.resize(want, 0);
        }
        // a text that starts in the window and ends past it: what the
        // window holds of it is kept, and only the rest is read (reading
        // on in an export read each such stretch twice)
        let kept = match self.window_at {
            Some((s, w)) if onward && s == source && at < w + self.filled as u64 => {
                let from = (at - w) as usize;
                self.window.copy_within(from..self.filled, 0);
                self.filled - from
            }
            _ => 0,
        };
        self.window_at = None;
        let n = fill_at(f, &mut self.window[kept..want], at + kept as u64).ok()?;
        self.filled = kept + n;
        self.window_at = Some((source, at));
        self.window
            .get(..len.min(self.filled))
            .filter(|l| l.len() == len)
    }

    /// Whether the window holds the `len` bytes at `at` of `source`.
    fn holds(&self, source: u16, at: u64, len: u32) -> bool {
        self.window_at.is_some_and(|(s, w)| {
            s == source && at >= w && at + u64::from(len) <= w + self.filled as u64
        })
    }

    /// The file of `source` (`path`), opened once.
    pub(super) fn open(&mut self, source: u16, path: &Path) -> Option<&File> {
        let i = source as usize;
        if self.files.len() <= i {
            self.files.resize_with(i + 1, || None);
        }
        if !matches!(&self.files[i], Some((p, _)) if p == path) {
            // a session with hundreds of subagent files must not run out
            // of file descriptors: past a few open, the others are closed
            if self.files.iter().flatten().count() >= OPEN_FILES {
                self.files.iter_mut().for_each(|f| *f = None);
            }
            let f = super::session::open_regular(path).ok()?;
            self.files[i] = Some((path.to_owned(), f));
        }
        self.files.get(i)?.as_ref().map(|(_, f)| f)
    }

    /// Forgets the bytes read (they may no longer be the file's).
    pub fn forget_window(&mut self) {
        self.window_at = None;
        self.side_at = None;
    }

    /// Lets go of a window a text of megabytes grew, once that text is
    /// decoded: the viewer reads nothing more until a row needs it, and
    /// held its 100 MB prompt twice, as bytes and as text.
    fn let_go_of_a_big_window(&mut self) {
        if self.window.capacity() > 4 * WINDOW {
            self.window = Vec::new();
            self.window_at = None;
            self.filled = 0;
        }
    }
}

/// What a text that is no longer in its file says in its place.
const CHANGED: &str = "[this text changed on disk since it was read";

/// Reads back `text`, of line `line` of `source`, from `path`: the text,
/// or what says it is no longer there. `None` for a held text.
pub fn read_back(
    reader: &mut LineReader,
    path: Option<&Path>,
    (source, line): (u16, u32),
    text: &Text,
) -> Option<String> {
    let stored = text.stored()?;
    let changed = || format!("{CHANGED}: line {line} of the file is not what it was]");
    let Some(path) = path else {
        return Some(changed());
    };
    // a text of megabytes is decoded as it is read, held once (unless a
    // read of its bytes just now, a JSON export's, left them in the window)
    if stored.len as usize >= super::read_in_parts::IN_PARTS
        && !reader.holds(source, stored.at, stored.len)
    {
        reader.let_go_of_a_big_window();
        let text = reader
            .open(source, path)
            .and_then(|f| super::read_in_parts::text_of_file(f, &stored));
        return Some(text.unwrap_or_else(changed));
    }
    // a window read before the file changed is read again once
    for _ in 0..2 {
        let text = reader
            .line(source, path, stored.at, stored.len)
            .and_then(|bytes| text_of(bytes, &stored));
        reader.let_go_of_a_big_window();
        if let Some(t) = text {
            return Some(t);
        }
        reader.forget_window();
    }
    Some(changed())
}

/// The bytes a stored text is written as (for a search to rule a text out
/// before decoding it, and for a JSON export to copy it as written).
pub fn raw_text<'r>(
    reader: &'r mut LineReader,
    path: Option<&Path>,
    source: u16,
    text: &Text,
) -> Option<&'r [u8]> {
    let stored = text.stored()?;
    reader.line(source, path?, stored.at, stored.len)
}

/// Where the line being ingested is: its offset in the file, and the
/// address and length of the bytes its entries were decoded from.
#[derive(Debug, Clone, Copy)]
pub struct LinePlace {
    pub at: u64,
    pub mem: (usize, usize),
}

/// A string of the line at `place`, as [`Text`] holds it: in the file
/// when the string is long and still where it was written, else held.
pub fn text_at(text: JsonStr<'_>, place: Option<LinePlace>) -> Text {
    let written = |p: LinePlace| {
        let inner = match &text {
            JsonStr::Token(t) => t.get(1..t.len().saturating_sub(1))?,
            JsonStr::Text(t) => t,
        };
        let (off, len) = text.token_in(p.mem)?;
        Some(Stored {
            at: p.at + off as u64,
            len: u32::try_from(len).ok()?,
            value: false,
            check: check(inner.as_bytes()),
        })
    };
    let long = |t: &JsonStr<'_>| match t {
        // as written: escapes make it no shorter than its text
        JsonStr::Token(t) => t.len() >= STORE_MIN + 2,
        JsonStr::Text(t) => t.len() >= STORE_MIN,
    };
    match place
        .filter(|_| long(&text) && !text.is_blank())
        .and_then(written)
    {
        Some(stored) => Text::in_file(stored),
        None => Text::held(text.into_text().into_owned()),
    }
}

/// A JSON value of the line at `place` (a call's input), kept as written:
/// in the file when long, else held.
pub fn json_at(raw: &str, place: Option<LinePlace>) -> Text {
    let written = |p: LinePlace| {
        let off = (raw.as_ptr() as usize).checked_sub(p.mem.0)?;
        (off + raw.len() <= p.mem.1).then_some(())?;
        Some(Stored {
            at: p.at + off as u64,
            len: u32::try_from(raw.len()).ok()?,
            value: true,
            check: check(raw.as_bytes()),
        })
    };
    match place.filter(|_| raw.len() >= STORE_MIN).and_then(written) {
        Some(stored) => Text::in_file(stored),
        None => Text::held(raw.to_owned()),
    }
}

/// The readers of a session's files, one per thread that reads them (the
/// viewer's, a search's, each of an export's writers), so that each reads
/// on in its own window.
#[derive(Debug, Default)]
pub struct Readers {
    readers: std::sync::Mutex<Vec<(std::thread::ThreadId, LineReader)>>,
    /// Texts read back that were no longer in their file.
    changed: std::sync::atomic::AtomicUsize,
}

/// Readers kept at most (each holds a window and open files).
const READERS: usize = 8;

impl Readers {
    fn take(&self) -> LineReader {
        let me = std::thread::current().id();
        let mut all = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        match all.iter().position(|(id, _)| *id == me) {
            Some(i) => all.swap_remove(i).1,
            None => LineReader::default(),
        }
    }

    fn put(&self, reader: LineReader) {
        let mut all = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() >= READERS {
            all.remove(0);
        }
        all.push((std::thread::current().id(), reader));
    }
}

/// Read-back copies held at most (bytes); past it the oldest go.
const FILLED_MAX: usize = 16 * 1024 * 1024;

/// What the viewer read back: to let the oldest go past [`FILLED_MAX`].
#[derive(Debug, Default)]
pub struct Filled {
    order: std::collections::VecDeque<(Option<u32>, super::ItemId, Part)>,
    bytes: usize,
}

/// Which text of a row: its own, its call's input or its call's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Item,
    Input,
    Result,
}

impl super::Session {
    /// A string of the line being read, left in its file when this file
    /// is read so and the string is long (see [`text_at`]).
    pub(crate) fn text_in_file(&self, source: u16, text: JsonStr<'_>) -> Text {
        text_at(text, self.place_in_file(source))
    }

    /// A JSON value of the line being read (a call's input), left in its
    /// file as [`Self::text_in_file`] leaves strings.
    pub(crate) fn json_in_file(&self, source: u16, raw: &str) -> Text {
        json_at(raw, self.place_in_file(source))
    }

    fn place_in_file(&self, source: u16) -> Option<LinePlace> {
        let in_file = !self.redacting
            && self
                .sources
                .get(source as usize)
                .is_some_and(|s| s.text_in_file);
        self.line_at.filter(|_| in_file)
    }

    /// A result's text, read back from its file when it was left there.
    /// Whoever reads a text to print or search it goes through here (or
    /// [`Self::item_text`]); the view does not: it draws what
    /// [`Self::fill_texts`] read before.
    pub fn result_text<'a>(&'a self, r: &'a super::ToolResult) -> Cow<'a, str> {
        self.text_back((r.source, r.line), &r.text)
    }

    /// A row's text, read back from its file when it was left there.
    pub fn item_text<'a>(&'a self, item: &'a super::Item) -> Cow<'a, str> {
        self.text_back((item.source, item.line), &item.text)
    }

    /// The `input` of the call `item` is (raw JSON), read back when left
    /// in the file; empty when `item` is no call.
    pub fn call_input<'a>(&'a self, item: &'a super::Item) -> Cow<'a, str> {
        match &item.detail {
            super::Detail::Call(c) => self.text_back((item.source, item.line), &c.input),
            _ => Cow::Borrowed(""),
        }
    }

    /// `text`, of line `line` of `source`, read back when left in the file.
    pub fn text_back<'a>(&'a self, at: (u16, u32), text: &'a Text) -> Cow<'a, str> {
        if let Some(t) = text.get() {
            return Cow::Borrowed(t);
        }
        let mut reader = self.readers.take();
        let back = self.text_back_in(&mut reader, at, text);
        self.readers.put(reader);
        back
    }

    /// A reader of this session's files for this thread (its window read
    /// on where it left off): give it back with [`Self::put_reader`].
    pub fn take_reader(&self) -> LineReader {
        self.readers.take()
    }

    pub fn put_reader(&self, reader: LineReader) {
        self.readers.put(reader)
    }

    /// How many texts read back so far were no longer in their file (it
    /// was rewritten or cut short since it was loaded).
    pub fn texts_changed(&self) -> usize {
        self.readers
            .changed
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The string `text` is, as written in its file, when it is still
    /// there and `crate::json_out` writes its text so: what a JSON export
    /// copies rather than decode it and escape it again.
    pub fn written_json<'r>(
        &self,
        reader: &'r mut LineReader,
        source: u16,
        text: &Text,
    ) -> Option<&'r str> {
        let stored = text.stored().filter(|s| !s.value && text.missing())?;
        let bytes = raw_text(reader, self.source_path(source), source, text)?;
        let s = simdutf8::basic::from_utf8(bytes).ok()?;
        let inner = s.strip_prefix('"')?.strip_suffix('"')?;
        (check(inner.as_bytes()) == stored.check && written_as_json_out_writes(s)).then_some(s)
    }

    /// [`Self::text_back`] with a reader of the caller's (a search thread).
    pub fn text_back_in<'a>(
        &'a self,
        reader: &mut LineReader,
        (source, line): (u16, u32),
        text: &'a Text,
    ) -> Cow<'a, str> {
        if let Some(t) = text.get() {
            return Cow::Borrowed(t);
        }
        let back = read_back(reader, self.source_path(source), (source, line), text);
        if back.as_deref().is_some_and(|b| b.starts_with(CHANGED)) {
            self.readers
                .changed
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Cow::Owned(back.unwrap_or_default())
    }

    /// [`super::ToolResult::message`], read back when left in the file.
    pub fn result_message<'a>(&'a self, r: &'a super::ToolResult) -> Cow<'a, str> {
        match self.result_text(r) {
            Cow::Borrowed(t) => Cow::Borrowed(super::item::unwrap_tool_use_error(t)),
            Cow::Owned(t) => Cow::Owned(super::item::unwrap_tool_use_error(&t).to_owned()),
        }
    }

    /// `f` on the bytes a text left in the file (of `source`) is written
    /// as (a JSON string, or a call's input), read with `reader`; `None`
    /// when the text is held, read back, or its file unreadable.
    pub fn with_raw_text<T>(
        &self,
        reader: &mut LineReader,
        source: u16,
        text: &Text,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Option<T> {
        if !text.missing() {
            return None;
        }
        raw_text(reader, self.source_path(source), source, text).map(f)
    }

    fn source_path(&self, source: u16) -> Option<&Path> {
        self.sources.get(source as usize)?.path.as_deref()
    }

    /// Reads back the texts of these rows and of their calls' results
    /// (rows about to be drawn), letting the oldest read-back copies go
    /// past a budget. Returns the items whose text was read.
    pub fn fill_texts(&mut self, rows: &[(Option<u32>, super::ItemId)]) -> Vec<super::ItemId> {
        let mut done = Vec::new();
        for &(agent, id) in rows {
            for part in [Part::Item, Part::Input, Part::Result] {
                let text = match self.text_ref(agent, id, part) {
                    Some((at, t)) if t.missing() => self.text_back(at, t).into_owned(),
                    _ => continue,
                };
                let n = text.len();
                if let Some(t) = self.text_mut(agent, id, part) {
                    t.fill(text);
                    self.filled.order.push_back((agent, id, part));
                    self.filled.bytes += n;
                    done.push(id);
                }
            }
        }
        while self.filled.bytes > FILLED_MAX && self.filled.order.len() > 3 * rows.len() {
            let Some((agent, id, part)) = self.filled.order.pop_front() else {
                break;
            };
            let freed = self.text_mut(agent, id, part).map_or(0, Text::release);
            self.filled.bytes = self.filled.bytes.saturating_sub(freed);
        }
        done
    }

    /// Lets go of every read-back copy (a bench measures reading them).
    pub fn forget_read_texts(&mut self) {
        for (agent, id, part) in std::mem::take(&mut self.filled.order) {
            if let Some(t) = self.text_mut(agent, id, part) {
                t.release();
            }
        }
        self.filled.bytes = 0;
    }

    fn text_ref(
        &self,
        agent: Option<u32>,
        id: super::ItemId,
        part: Part,
    ) -> Option<((u16, u32), &Text)> {
        let t = match agent {
            None => &self.main,
            Some(a) => &self.agents.get(a as usize)?.transcript,
        };
        let item = t.items.get(t.index_of(id)?)?;
        match (part, &item.detail) {
            (Part::Item, _) => Some(((item.source, item.line), &item.text)),
            (Part::Input, super::Detail::Call(c)) => Some(((item.source, item.line), &c.input)),
            (Part::Result, super::Detail::Call(c)) => {
                let r = c.result.as_ref()?;
                Some(((r.source, r.line), &r.text))
            }
            _ => None,
        }
    }

    fn text_mut(&mut self, agent: Option<u32>, id: super::ItemId, part: Part) -> Option<&mut Text> {
        let t = match agent {
            None => &mut self.main,
            Some(a) => &mut self.agents.get_mut(a as usize)?.transcript,
        };
        let i = t.index_of(id)?;
        let item = t.items.get_mut(i)?;
        match (part, &mut item.detail) {
            (Part::Item, _) => Some(&mut item.text),
            (Part::Input, super::Detail::Call(c)) => Some(&mut c.input),
            (Part::Result, super::Detail::Call(c)) => c.result.as_mut().map(|r| &mut r.text),
            _ => None,
        }
    }
}

#[cfg(unix)]
pub fn read_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, at)
}

#[cfg(windows)]
pub fn read_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, at)
}

/// Reads at `at` until `buf` is full or the file ends; how much was read.
pub fn fill_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match read_at(f, &mut buf[n..], at + n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::{LineReader, SMALL_WINDOW};

    /// Lines read on, then a step back, then on again: each is the file's
    /// bytes, and the step back leaves the window the reading goes on in.
    #[test]
    fn a_step_back_keeps_the_window() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let bytes: Vec<u8> = (0..400_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        let mut r = LineReader::default();
        let expect = |at: u64, len: u32| &bytes[at as usize..at as usize + len as usize];
        let read = |r: &mut LineReader, at: u64, len: u32| {
            assert_eq!(
                r.line(0, &path, at, len),
                Some(expect(at, len)),
                "{at}+{len}"
            );
        };
        read(&mut r, 100_000, 50);
        read(&mut r, 100_100, 50); // on: the big window
        let window = r.window_at;
        read(&mut r, 99_000, 3_000); // back, and past the window's start
        read(&mut r, 90_000, 20);
        assert_eq!(r.window_at, window);
        read(&mut r, 100_200, 50); // on again, from the window
        assert_eq!(r.window_at, window);
        read(&mut r, 90_010, 5); // the step back's own bytes
        read(&mut r, 100_300, 70_000); // on, past the window
        // far back: a new window
        read(&mut r, 1_000, 10);
        assert_ne!(r.window_at, window);
        // a text longer than the small window, behind
        read(&mut r, 500, 2 * SMALL_WINDOW as u32);
        // past the end of the file
        assert_eq!(r.line(0, &path, 399_990, 20), None);
    }

    /// A text of megabytes is read through a window as big, let go of
    /// once the text is decoded.
    #[test]
    fn a_big_window_is_let_go_of() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let text = "x".repeat(3 << 20);
        let line = format!("{{\"t\":\"{text}\"}}\n");
        std::fs::write(&path, &line).expect("write");
        let mut r = LineReader::default();
        let read = |r: &mut LineReader| r.line(0, &path, 0, line.len() as u32 - 1).map(<[u8]>::len);
        assert_eq!(read(&mut r), Some(line.len() - 1));
        assert!(r.window.capacity() >= 3 << 20);
        r.let_go_of_a_big_window();
        assert_eq!(r.window.capacity(), 0);
        assert_eq!(read(&mut r), Some(line.len() - 1), "read again whole");
    }
}
