//! Reading a session for its figures only (tokens, cost, prompts, calls):
//! the lines that cannot change them are passed over without being
//! decoded. They are the bulk of a session: a user line holding nothing
//! but tool results (file contents, command output) is three fifths of
//! the bytes of real sessions, and none of it is a prompt, a message or a
//! call; nor is a command's or a hook's progress (a quarter of their
//! lines). Whether a line is one is read off its structure (strings are
//! skipped a block at a time, nothing is unescaped or allocated); anything
//! else, or anything unusual about it, goes to the model as usual, so the
//! figures are the model's own (`tests/figures_fast.rs` holds them equal
//! on every corpus file, and on sessions bent at random). A line the
//! model needs for the lines after it is never left out: a sidechain's
//! (its uuid routes its chain), or any before the main file says whether
//! it is an agent's own. An answer of the common shape is read for what
//! the figures need (`super::answer`, which reads a line only where serde
//! would, and into the same fields; any other goes to serde) and taken in
//! lean (see `super::lean`).

use super::cursor::Cursor;
use super::decode::Guess;
use crate::model::Session;
use std::borrow::Cow;
use std::io::Read;
use std::ops::Range;

/// Sees a file's lines as they are read: whole lines, from a byte offset,
/// and what the read made of them.
pub type SeeLines<'a> = &'a mut dyn FnMut(u64, &[u8], &LinesRead<'_>);

/// What the figures' read made of a run of lines (see [`SeeLines`]).
#[derive(Default)]
pub struct LinesRead<'a> {
    /// The ranges of the lines (whole lines, in order) read without the
    /// model: answers read by their own reader and the lines left out
    /// (tool results, progress). The model is handed every other line,
    /// so no title, summary or prompt is in them: a reader of titles need
    /// not look there (they are most of the bytes).
    pub passed: Vec<Range<usize>>,
    /// The answers among them, in order, with what a headline takes from
    /// each, when asked for (see [`feed_seeing`]).
    pub answers: Vec<AnswerRead<'a>>,
}

/// An answer read by the answer reader (`super::answer`, which reads a
/// line only where serde reads it, into the same values): where its line
/// starts, and the members of its entry a headline reads.
pub struct AnswerRead<'a> {
    pub start: usize,
    pub kind: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub cwd: Option<Cow<'a, str>>,
    pub session_id: Option<Cow<'a, str>>,
    pub git_branch: Option<Cow<'a, str>>,
    pub is_sidechain: Option<bool>,
    /// Its message's model, when it has a message.
    pub message: Option<Option<Cow<'a, str>>>,
}

/// Feeds `source` from `r`, leaving out the lines [`only_tool_results`]
/// recognises, then finishes it. Returns how many lines were left out.
pub fn feed_for_figures(s: &mut Session, source: u16, r: &mut impl Read) -> std::io::Result<u64> {
    feed_seeing(s, source, r, &mut |_, _, _| {}, false)
}

/// [`feed_for_figures`], handing `see` every line read (all but lines
/// longer than the 16 MB held at once), in order: what else wants the
/// file's bytes gets them from this one read; with what each answer read
/// holds when `answers` (see [`LinesRead::answers`]).
pub fn feed_seeing(
    s: &mut Session,
    source: u16,
    r: &mut impl Read,
    see: SeeLines<'_>,
    answers: bool,
) -> std::io::Result<u64> {
    // one buffer per thread, kept: a listing reads thousands of files
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = Default::default();
    }
    BUF.with(|b| {
        let buf = &mut *b.borrow_mut();
        // one batch for the whole file: the branches' full pass waits for
        // its end (a pass at the end of every read was a tenth of the
        // figures of a 30 MB session, and no figure depends on branches)
        let out = s.in_batch(|s| feed_with(s, source, r, (buf, see, answers)));
        // a huge line's buffer is not kept for ever
        if buf.len() > 8 << 20 {
            *buf = Vec::new();
        }
        out
    })
}

// one caller: left to the build, where it split the crate decided
// whether it was inlined there (a change elsewhere moved a listing by 2%)
#[inline(always)]
fn feed_with(
    s: &mut Session,
    source: u16,
    r: &mut impl Read,
    (buf, see, answers): (&mut Vec<u8>, SeeLines<'_>, bool),
) -> std::io::Result<u64> {
    const READ: usize = 256 << 10;
    if buf.len() < 2 * READ {
        buf.resize(2 * READ, 0);
    }
    // a line held past this without its end goes to the session as it
    // comes (which bounds what it holds of one), not through the check
    const HOLD: usize = 16 << 20;
    let mut filled = 0;
    // the file's offset of `buf[0]`
    let mut base = 0u64;
    let mut skipped = 0u64;
    let mut passing = false;
    loop {
        // room for a read; a line longer than the buffer makes it grow
        if buf.len() - filled < READ {
            buf.resize(buf.len() * 2, 0);
        }
        let n = loop {
            match r.read(&mut buf[filled..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        filled += n;
        let eof = n == 0;
        if passing {
            // the rest of a line too long to hold, up to its end
            let end = memchr::memchr(b'\n', &buf[..filled]).map_or(filled, |i| i + 1);
            s.feed(source, &buf[..end]);
            passing = end == filled && buf[..end].last() != Some(&b'\n');
            buf.copy_within(end..filled, 0);
            filled -= end;
            base += end as u64;
            if eof {
                break;
            }
        }
        // whole lines only (at EOF, the last one as it is)
        let upto = if eof {
            filled
        } else {
            match memchr::memrchr(b'\n', &buf[..filled]) {
                Some(i) => i + 1,
                None if filled >= HOLD => {
                    s.feed(source, &buf[..filled]);
                    base += filled as u64;
                    filled = 0;
                    passing = true;
                    continue;
                }
                None => continue,
            }
        };
        // the lines kept go to the session in runs, from the buffer (a
        // copy of them was a twentieth of a cold listing)
        let mut read = LinesRead::default();
        let mut facts = answers.then_some(&mut read.answers);
        let passed = &mut read.passed;
        let mut run = 0;
        let mut at = 0;
        while at < upto {
            let end = memchr::memchr(b'\n', &buf[at..upto]).map_or(upto, |i| at + i + 1);
            let line = &buf[at..end];
            // an answer says so in its head (its message's role comes
            // before its content): it is read at once, without the
            // searches of the whole line for results and progress. A line
            // whose head does not goes to the model, as the decoder leaves
            // it to serde (no answer of the corpus says it later: searched
            // for in the whole of every other line, it was 3% of a listing)
            let head = &line[..line.len().min(super::decode::HEAD)];
            let guess = Guess::of(head);
            let tried = s.lean_lines.is_some() && guess.may_answer(head);
            // the lines before it go in first (but before a note, which
            // is never left out): what the model made of them decides
            // what may be done with this one. A result names a subagent
            // only when its call was read, which may be among them: left
            // in the run, such a call let its result be passed over.
            if run < at && guess != Guess::Note {
                s.feed(source, &buf[run..at]);
                run = at;
            }
            if tried && lean_read(s, source, (line, at), facts.as_deref_mut()) {
                pass(passed, at..end);
                run = end;
            } else if skippable(s, source, line, guess) {
                skipped += 1;
                pass(passed, at..end);
                run = end;
            } else if tried {
                // an answer of another shape than the reader's, by serde
                run = if lean_decoded(s, source, line) {
                    end
                } else {
                    at
                };
            }
            at = end;
        }
        if run < upto {
            s.feed(source, &buf[run..upto]);
        }
        see(base, &buf[..upto], &read);
        buf.copy_within(upto..filled, 0);
        filled -= upto;
        base += upto as u64;
        if eof {
            break;
        }
    }
    s.finish(source);
    Ok(skipped)
}

/// Notes the line `line` as read without the model, joined to the range
/// before it when they meet.
fn pass(passed: &mut Vec<Range<usize>>, line: Range<usize>) {
    match passed.last_mut() {
        Some(last) if last.end == line.start => last.end = line.end,
        _ => passed.push(line),
    }
}

/// Whether a line of tool results or side progress can be left out
/// without changing what the model makes of the lines after it: not
/// while the main file has not said whether it is an agent's own (its
/// first conversation line decides), and never a sidechain's line of the
/// main file, whose uuid routes its chain's next lines to their agent (an
/// old session's subagent lines are inline). A subagent's own file is
/// all sidechain lines, routed by their file: its lines of results (a
/// tenth of a history's bytes, each decoded whole for that) are left out
/// as the main file's are. The entry's own `"isSidechain": false`,
/// met while reading it (Claude Code writes it near the start), says so;
/// else every `"isSidechain"` in the line must be followed by `false` (a
/// key written with escapes is not looked for: Claude Code writes none).
fn passable(s: &Session, source: u16, line: &[u8], read: Walked) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static SIDECHAIN: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"isSidechain\""));
    if !known_whose(s, source) {
        return false;
    }
    if s.sources
        .get(source as usize)
        .is_some_and(|src| src.agent.is_some())
    {
        return true;
    }
    read.not_sidechain
        || SIDECHAIN.find_iter(line).all(|at| {
            let mut c = Cursor::at(line, at + b"\"isSidechain\"".len());
            // anything but `: false` is doubt
            c.eat(b':').is_some() && c.at_false()
        })
}

/// Whether `line` can be left out: tool results, an agent's mirrored
/// results or side progress (see each), when the session can do without
/// it. A line that names an agent's progress is only asked whether it is
/// one (its kind is last in its data: the question whether it is side
/// progress read it all, for no).
/// `guess`: what its head says of its kind (a line of one kind is not
/// searched whole for the marks of the other, a note for neither's).
fn skippable(s: &Session, source: u16, line: &[u8], guess: Guess) -> bool {
    let user = guess == Guess::User;
    if guess == Guess::Note {
        return false;
    }
    if guess != Guess::Progress
        && let Some(read) = tool_results(line, user, Some(&s.agent_call_ids))
    {
        return passable(s, source, line, read);
    }
    if user {
        return false;
    }
    // (an agent's id is read only where some agent has a file of its own)
    let recorded = || !s.recorded_apart.is_empty() || s.agents.iter().any(|a| a.has_record);
    match agent_copy(line, recorded) {
        Some(copy) => {
            known_whose(s, source)
                && copy.is_some_and(|c| c.of_results() || recorded_agent(s, source, &c))
        }
        None => side_progress(line).is_some_and(|read| passable(s, source, line, read)),
    }
}

/// Whether an agent's progress (a copy of one of its lines, its
/// answers' usage with them) is of an agent whose own file is read too,
/// and not a sidechain's line of the main file (whose uuid routes its
/// chain). The model hides such a copy (see `Session::agent_progress`:
/// the agent's lines are read from its file, known before the main
/// file), after threading it as side progress, which no figure counts;
/// decoding it, then the line it copies, was a tenth of a cold listing of
/// real sessions with agents. A key written with escapes is doubt.
fn recorded_agent(s: &Session, source: u16, copy: &AgentCopy<'_>) -> bool {
    let own_file = s
        .sources
        .get(source as usize)
        .is_some_and(|src| src.agent.is_some());
    !copy.escaped
        && (own_file || !copy.side)
        && copy.agent.is_some_and(|id| {
            std::str::from_utf8(id).is_ok_and(|id| {
                s.recorded_apart.contains(id)
                    || s.agent_by_id(id)
                        .and_then(|a| s.agents.get(a as usize))
                        .is_some_and(|a| a.has_record)
            })
        })
}

/// Whether the lines of `source` may be left out yet: not while the main
/// file has not said whether it is an agent's own (its first
/// conversation line decides).
fn known_whose(s: &Session, source: u16) -> bool {
    source != crate::model::session::MAIN || s.lone_agent.is_some()
}

/// Whether `line` is a file's own Claude Code line, read as it is: a
/// file in another format is translated line by line, and a redacted
/// line is decoded once redacted.
fn own_line(s: &Session, source: u16) -> bool {
    matches!(s.sources.get(source as usize),
        Some(src) if src.sniffed && src.translator.is_none() && !s.redacting)
}

/// The number the model gives the next line of `source`.
fn next_number(s: &Session, source: u16) -> u32 {
    s.sources
        .get(source as usize)
        .map_or(0, |src| src.lines() + 1)
}

/// Takes in `line` (at `start` of the run read) for its figures when it
/// is an answer of the common shape (`super::answer`, no serde) that
/// `lean` keeps, noting what it holds in `facts` when given; `false`:
/// nothing done.
fn lean_read<'a>(
    s: &mut Session,
    source: u16,
    (line, start): (&'a [u8], usize),
    facts: Option<&mut Vec<AnswerRead<'a>>>,
) -> bool {
    if !own_line(s, source) || inline_sidechain(s, source, line) {
        return false;
    }
    let number = next_number(s, source);
    let Ok(text) = simdutf8::basic::from_utf8(line) else {
        return false;
    };
    let mut e = super::raw::RawEntry::default();
    if !(super::answer::read_into(text, &mut e) && s.ingest_lean(source, number, &e)) {
        return false;
    }
    if let Some(facts) = facts {
        facts.push(AnswerRead {
            start,
            kind: e.kind.clone(),
            timestamp: e.timestamp.clone(),
            cwd: e.cwd.clone(),
            session_id: e.session_id.clone(),
            git_branch: e.git_branch.clone(),
            is_sidechain: e.is_sidechain,
            message: e.message.as_ref().map(|m| m.model.clone()),
        });
    }
    true
}

/// Whether `line` is a subagent's answer written in the main file (before
/// 2.1), as its first bytes say (`"isSidechain":true`, which Claude Code
/// writes after the parent's uuid): the model routes it by its chain, so
/// `lean` would refuse it after the answer reader read it whole, and serde
/// read it again (a twentieth of the answers of the 1 GB sample, each
/// read twice). A wrong guess costs only that: serde's read goes on to
/// `lean` as this one would. (Looked for in the whole head, the search
/// cost more than the reads it saved.)
fn inline_sidechain(s: &Session, source: u16, line: &[u8]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static SIDECHAIN: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(b"\"isSidechain\":true"));
    s.sources
        .get(source as usize)
        .is_some_and(|src| src.agent.is_none())
        && SIDECHAIN.find(&line[..line.len().min(96)]).is_some()
}

/// Takes in `line`, decoded by serde, for its figures when it is an
/// answer of the shape `lean` keeps, else hands its entries to the model;
/// the lines before it went in already. `false`: it does not read
/// cleanly (the model reads and reports it).
fn lean_decoded(s: &mut Session, source: u16, line: &[u8]) -> bool {
    if !own_line(s, source) {
        return false;
    }
    let number = next_number(s, source);
    let mut entries = Vec::with_capacity(1);
    if !super::decode::decode_clean(line, &mut entries) {
        return false;
    }
    if let [(entry, _)] = entries.as_slice()
        && s.ingest_lean(source, number, entry)
    {
        return true;
    }
    s.ingest_decoded(source, number, &mut entries);
    true
}

/// Whether `line` is a progress entry of another kind than an agent's:
/// `{"type": "progress", "data": {"type": "bash_progress", …}, …}` (a
/// command's or a hook's output as it runs, a search's state), a quarter
/// of the lines of real sessions. The model hides them and makes nothing
/// of them but a side branch of their parent, which no figure counts; an
/// agent's progress carries its lines (and their usage) and is kept. Any
/// doubt says no.
pub fn only_side_progress(line: &[u8]) -> bool {
    side_progress(line).is_some()
}

fn side_progress(line: &[u8]) -> Option<Walked> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static PROGRESS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"progress\""));
    PROGRESS.find(line)?;
    entry_whose(line, b"progress", b"data", |c| c.side_data())
}

/// Whether `line` is a subagent's line of tool results mirrored into the
/// main file (see [`AgentCopy::of_results`]).
pub fn only_agent_results(line: &[u8]) -> bool {
    agent_copy(line, || false).is_some_and(|c| c.is_some_and(|c| c.of_results()))
}

/// An agent's progress line, read once: `{"type": "progress", "data":
/// {"type": "agent_progress", "message": …, "agentId": …, …}, …}` in any
/// key order, read as JSON to its end.
struct AgentCopy<'a> {
    /// Its copy is a user line of tool results (see [`Self::of_results`]).
    results: bool,
    /// The agent it names, written plainly.
    agent: Option<&'a [u8]>,
    /// Its own `isSidechain` is anything but `false`.
    side: bool,
    /// A key of its entry is written with escapes.
    escaped: bool,
}

impl AgentCopy<'_> {
    /// Whether it is a subagent's line of tool results mirrored into the
    /// main file: `{"type": "progress", "data": {"type": "agent_progress",
    /// "message": {"type": "user", "message": {"content": [{"type":
    /// "tool_result", …}, …]}, …}, …}, …}`, not itself a sidechain's. Like
    /// a main line of tool results it makes no prompt, message or call of
    /// the agent's (the agent's prompt and answers, on lines of their own,
    /// make it and link it to its call); it was a tenth of a cold listing
    /// of real sessions, decoded twice (the progress line, then the line
    /// it mirrors).
    fn of_results(&self) -> bool {
        self.results && !self.side
    }
}

/// `line` read as an agent's progress (see [`AgentCopy`]). `None`: the
/// line does not name an agent's progress; `Some(None)`: doubt (another
/// shape, a key twice, a line that does not read as JSON to its end, a
/// compaction summary anywhere in it). Unless `ids` says an agent's id is
/// wanted, a copy that is not of tool results is doubt as soon as that is
/// known (its agent's id, after it, is not read).
fn agent_copy(line: &[u8], ids: impl FnOnce() -> bool) -> Option<Option<AgentCopy<'_>>> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static AGENT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"agent_progress\""));
    static COMPACT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"isCompactSummary"));
    AGENT.find(line)?;
    if COMPACT.find(line).is_some() {
        return Some(None);
    }
    let ids = ids();
    let mut c = Cursor::new(line);
    let (mut progress, mut data, mut side, mut escaped) = (false, None, false, false);
    let read = c.object(&mut |c, k| {
        match k {
            b"type" => {
                // another entry: no need to read on
                (c.string()? == b"progress").then_some(())?;
                progress = true;
            }
            b"data" => data = Some(c.progress_data(ids)?),
            b"isSidechain" => {
                // anything but `false` is doubt
                side = !c.at_false();
                c.skip()?;
            }
            _ => {
                escaped |= k.contains(&b'\\');
                c.skip()?;
            }
        }
        Some(())
    });
    c.ws();
    let whole = read.is_some() && c.i == line.len() && progress;
    Some(
        data.filter(|_| whole)
            .and_then(|(agent_progress, results, agent)| {
                agent_progress.then_some(AgentCopy {
                    results,
                    agent,
                    side,
                    escaped,
                })
            }),
    )
}

/// Whether `line` is a user entry whose message holds tool results and
/// nothing else: `{"type": "user", "message": {"content": [{"type":
/// "tool_result", …}, …]}, …}` in any key order, not a compaction
/// summary. Such a line makes no prompt, message or call. Any doubt
/// (another shape, a key twice, a line that does not read as JSON up to
/// where it matters) says no.
pub fn only_tool_results(line: &[u8]) -> bool {
    tool_results(line, false, None).is_some()
}

/// [`only_tool_results`], each result's content text: a string, a list
/// of blocks or none. A content of another shape is shown as its JSON,
/// keys and all (see `raw::Content`), so such a line's rows show keys.
pub fn only_text_results(line: &[u8]) -> bool {
    only_tool_results(line)
        && entry_whose(line, b"user", b"message", |c| {
            c.member(b"content", |c| c.only_text_results())?
        })
        .is_some()
}

/// `user`: the line's head names it a user's (no need to search it for
/// the word).
/// `agent_calls`: the ids of the session's calls of a subagent, whose
/// result names it (the search for its name is made only in theirs).
fn tool_results(
    line: &[u8],
    user: bool,
    agent_calls: Option<&rustc_hash::FxHashSet<Box<str>>>,
) -> Option<Walked> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static RESULT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tool_result\""));
    static USER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"user\""));
    static COMPACT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"isCompactSummary"));
    // a subagent named by the result of a subagent's call (`agentId`,
    // `agent_id`: a key of its `toolUseResult`, looked for in the whole
    // line, whatever the order of its keys), which the figures need (see
    // `Session::agents_not_found`); a key is written unescaped
    static AGENT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"agent"));
    if RESULT.find(line).is_none() || (!user && USER.find(line).is_none()) {
        return None;
    }
    let mut of_agent = false;
    let read = match agent_calls.filter(|calls| !calls.is_empty()) {
        Some(calls) => entry_whose(line, b"user", b"message", |c| {
            c.message_of_results_to(&mut |id| {
                // (an id written with escapes: doubt)
                of_agent |= std::str::from_utf8(id).map_or(true, |id| calls.contains(id))
                    || id.contains(&b'\\');
            })
        })?,
        None => entry_whose(line, b"user", b"message", |c| c.message_of_results())?,
    };
    // a compaction summary says so in a key of its entry's: among those
    // read, or after them (the message's own text is a tool's output,
    // which may say anything)
    let after = &line[read.upto..];
    (!read.compact && COMPACT.find(after).is_none() && !(of_agent && AGENT.find(line).is_some()))
        .then_some(read)
}

/// What reading a line's entry met before it knew enough.
#[derive(Clone, Copy)]
struct Walked {
    /// Its own `"isSidechain": false`.
    not_sidechain: bool,
    /// Its own `"isCompactSummary"`, of any value.
    compact: bool,
    /// Where the reading stopped.
    upto: usize,
}

/// Whether `line` is an entry of type `kind` whose member `key`, after
/// it, passes `check`. Once both are known the rest is not read (a tool
/// result's `toolUseResult` holds the output again): what follows is the
/// caller's to look at, from [`Walked::upto`]. A key read that is written
/// with escapes (which may be any key) is doubt.
fn entry_whose<'a>(
    line: &'a [u8],
    kind: &[u8],
    key: &[u8],
    mut check: impl FnMut(&mut Cursor<'a>) -> Option<bool>,
) -> Option<Walked> {
    let mut c = Cursor::new(line);
    let (mut is_kind, mut passes, mut not_sidechain, mut compact) = (false, false, false, false);
    c.object(&mut |c, k| {
        if k == b"type" {
            if c.string()? != kind {
                // another entry: no need to read on
                return None;
            }
            is_kind = true;
        } else if k == key {
            // the kind first, as Claude Code writes it: a check may stop
            // inside the member's value (`side_data` does), after which
            // nothing of the line is read
            is_kind.then_some(())?;
            // a member that fails it fails the line: no need to read on
            check(c)?.then_some(())?;
            passes = true;
        } else if k == b"isSidechain" {
            not_sidechain = c.at_false();
            c.skip()?;
        } else if k.contains(&b'\\') {
            // a key written with escapes may be any of them
            return None;
        } else {
            compact |= k == b"isCompactSummary";
            c.skip()?;
        }
        if is_kind && passes { None } else { Some(()) }
    });
    // what was read is one entry's: another joined to it is after
    (is_kind && passes && !super::cursor::joined(line, c.i)).then_some(Walked {
        not_sidechain,
        compact,
        upto: c.i,
    })
}

impl<'a> Cursor<'a> {
    /// Whether the value here is `false` (anything else, a sidechain's
    /// `true` included, is doubt to the callers).
    fn at_false(&mut self) -> bool {
        self.peek() == Some(b'f') && self.b[self.i..].starts_with(b"false")
    }

    /// `{"type": "…_progress", …}` of another kind than `agent_progress`
    /// (`None`: not that shape, or unreadable).
    /// Read up to the kind only (the data's first member, before a
    /// command's whole output): a second `"type"` after it makes the model
    /// refuse the line, which then makes nothing either.
    fn side_data(&mut self) -> Option<bool> {
        let mut side = false;
        self.object(&mut |c, k| {
            if k != b"type" {
                return c.skip();
            }
            let kind = c.string()?;
            side = kind != b"agent_progress" && !kind.contains(&b'\\');
            // known: read no further
            None
        });
        side.then_some(true)
    }

    /// An object's `"type"` (`Some(None)`: it has none).
    fn type_of_object(&mut self) -> Option<Option<&[u8]>> {
        self.member(b"type", |c| c.string())
    }

    /// A progress line's data: whether it is an agent's, whether its
    /// copy is a user line of tool results ([`Self::user_results`]), and
    /// its agent's id when written plainly (`None`: unreadable, or, without
    /// `ids`, a copy of another shape).
    fn progress_data(&mut self, ids: bool) -> Option<(bool, bool, Option<&'a [u8]>)> {
        let (mut kind, mut results, mut id, mut escaped) = (false, false, None, false);
        self.object(&mut |c, k| {
            match k {
                b"type" => kind = c.string()? == b"agent_progress",
                b"message" => {
                    // a copy of another shape is no doubt about the line
                    // when its agent's id is wanted
                    let mut probe = c.fork();
                    match probe.user_results() {
                        Some(r) => {
                            results = r;
                            *c = probe;
                        }
                        None if ids => c.skip()?,
                        None => return None,
                    }
                }
                b"agentId" => {
                    let v = c.string()?;
                    id = (!v.contains(&b'\\')).then_some(v);
                }
                _ => {
                    // (which may be any of them)
                    escaped |= k.contains(&b'\\');
                    c.skip()?;
                }
            }
            Some(())
        })?;
        Some((kind, results, id.filter(|_| !escaped)))
    }

    /// `{"content": [tool results], …}`: whether it holds at least one and
    /// nothing else (`None`: not that shape, or unreadable).
    fn message_of_results(&mut self) -> Option<bool> {
        self.member(b"content", |c| c.only_results())?
    }

    /// `{"type": kind, "message": …, …}` whose message passes `message`
    /// (`None`: not that shape, or unreadable): an agent's progress
    /// (`agent_progress`) mirrors its line (`user`) in its message.
    fn typed_with_message(
        &mut self,
        kind: &[u8],
        message: fn(&mut Self) -> Option<bool>,
    ) -> Option<bool> {
        let (mut typed, mut passes) = (false, false);
        self.object(&mut |c, k| {
            match k {
                b"type" => typed = c.string()? == kind,
                b"message" => passes = message(c)?,
                _ => c.skip()?,
            }
            Some(())
        })?;
        Some(typed && passes)
    }

    /// `{"type": "user", "message": {"content": [tool results]}, …}`.
    fn user_results(&mut self) -> Option<bool> {
        self.typed_with_message(b"user", Cursor::message_of_results)
    }

    /// [`Self::only_results`], each result's content a string, a list or
    /// `null` (`false` for any other).
    fn only_text_results(&mut self) -> Option<bool> {
        self.all_of(|c| {
            let (mut result, mut text) = (false, true);
            c.object(&mut |c, k| {
                match k {
                    b"type" => result = c.string()? == b"tool_result",
                    b"content" => {
                        text = matches!(c.peek()?, b'"' | b'[' | b'n');
                        c.skip()?;
                    }
                    _ => c.skip()?,
                }
                Some(())
            })?;
            Some(result && text)
        })
    }

    fn only_results(&mut self) -> Option<bool> {
        self.all_of(|c| Some(c.type_of_object()? == Some(b"tool_result".as_slice())))
    }

    /// [`Self::message_of_results`], each result's `tool_use_id` handed
    /// to `id` as written.
    fn message_of_results_to(&mut self, id: &mut impl FnMut(&'a [u8])) -> Option<bool> {
        self.member(b"content", |c| {
            c.all_of(|c| {
                let mut result = false;
                c.object(&mut |c, k| {
                    match k {
                        b"type" => result = c.string()? == b"tool_result",
                        b"tool_use_id" => id(c.string()?),
                        _ => c.skip()?,
                    }
                    Some(())
                })?;
                Some(result)
            })
        })?
    }

    /// A list of one element or more, each passing `test`.
    fn all_of(&mut self, mut test: impl FnMut(&mut Self) -> Option<bool>) -> Option<bool> {
        self.eat(b'[')?;
        if self.eat(b']').is_some() {
            return Some(false);
        }
        let mut all = true;
        loop {
            all &= test(self)?;
            if self.ended(b']')? {
                return Some(all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::only_side_progress as side;
    use super::only_tool_results as only;

    /// `super::skippable`, the line's kind guessed as the read guesses it.
    fn skippable(s: &crate::model::session::Session, source: u16, line: &[u8]) -> bool {
        let head = &line[..line.len().min(super::super::decode::HEAD)];
        super::skippable(s, source, line, super::Guess::of(head))
    }

    /// An agent's progress is passed over when the agent's own file is
    /// read, and only then: not a sidechain's line of the main file, nor
    /// another shape, nor a key written with escapes, nor lines joined.
    #[test]
    fn an_agents_copies_are_passed_over_when_its_file_is_read() {
        use crate::model::session::{MAIN, Session};
        let mut s = Session::new(None);
        let copy = |agent: &str, side: &str| {
            format!(
                r#"{{"parentUuid":"p","isSidechain":{side},"type":"progress","data":{{"message":{{"type":"assistant","message":{{"usage":{{"input_tokens":9}}}}}},"type":"agent_progress","agentId":"{agent}"}},"uuid":"u"}}"#
            ) + "\n"
        };
        // not while the main file has not said whose it is
        assert!(!skippable(&s, MAIN, copy("a1", "false").as_bytes()));
        s.feed(
            MAIN,
            br#"{"type":"user","uuid":"m0","message":{"role":"user","content":"go"}}
"#,
        );
        s.add_agent_source("agent-a1.jsonl".into(), "a1");
        let agent = s.sources.len() as u16 - 1;
        let yes = |line: &str| skippable(&s, MAIN, line.as_bytes());
        assert!(yes(&copy("a1", "false")));
        assert!(!yes(&copy("a2", "false")), "no file of its own");
        assert!(!yes(&copy("a1", "true")), "a sidechain's");
        assert!(skippable(&s, agent, copy("a1", "true").as_bytes()));
        for bent in [
            copy("a1", "false").replace(r#""type":"progress""#, r#""type":"user""#),
            copy("a1", "false").replace(r#""uuid":"u""#, r#""\u0074ype":"user""#),
            copy("a1", "false").replace(r#""agentId":"a1""#, r#""agentId":"a\u0031""#),
            copy("a1", "false").replace(r#""message""#, r#""\u006dessage""#),
            copy("a1", "false")
                .replace(r#""agentId":"a1""#, r#""agentId":"a1","agent\u0049d":"a2""#),
            copy("a1", "false").replace(r#","agentId":"a1""#, ""),
            copy("a1", "false").trim_end().to_owned() + r#" {"type":"assistant"}"#,
            copy("a1", "false")[..60].to_owned(),
        ] {
            assert!(!yes(&bent), "{bent}");
        }
    }

    #[test]
    fn side_progress_lines_and_the_others() {
        let line = |data: &str| {
            format!(
                r#"{{"parentUuid":"p","isSidechain":false,"type":"progress","data":{data},"toolUseID":"t","uuid":"u","timestamp":"2026-01-01T00:00:00Z"}}"#
            )
        };
        for kind in [
            "bash_progress",
            "hook_progress",
            "mcp_progress",
            "query_update",
        ] {
            let l = line(&format!(
                r#"{{"output":"a \"progress\" }}","type":"{kind}"}}"#
            ));
            assert!(side(l.as_bytes()), "{kind}");
        }
        // an agent's progress carries its lines; other entries; doubt
        let agent = line(
            r#"{"type":"agent_progress","message":{"type":"assistant","message":{"usage":{}}}}"#,
        );
        assert!(!side(agent.as_bytes()));
        let escaped = line(r#"{"type":"agent\u005fprogress"}"#);
        assert!(!side(escaped.as_bytes()));
        assert!(!side(line(r#"{"output":"x"}"#).as_bytes()));
        assert!(!side(line(r#""bash_progress""#).as_bytes()));
        let user =
            line(r#"{"type":"bash_progress"}"#).replace(r#""type":"progress""#, r#""type":"user""#);
        assert!(!side(user.as_bytes()));
        // a kind twice is read as the first (only the kind is read, not
        // the output after it): the model makes no row of such a line
        let twice = line(r#"{"type":"bash_progress","type":"agent_progress"}"#);
        assert!(side(twice.as_bytes()));
        let mut s = crate::model::session::Session::new(None);
        s.feed(crate::model::session::MAIN, twice.as_bytes());
        s.finish(crate::model::session::MAIN);
        assert!(s.main.items.is_empty() && s.agents.is_empty());
        let cut = line(r#"{"type":"bash_progress"}"#);
        assert!(!side(&cut.as_bytes()[..cut.find("data").unwrap_or(0) + 10]));
        // the data before the kind is doubt: its kind is read, not the
        // rest of it, which must not be read as the line's own members
        let first = r#"{"data":{"type":"bash_progress","type":"progress"},"type":"assistant","message":{"usage":{}}}"#;
        assert!(!side(first.as_bytes()));
        let first = r#"{"data":{"type":"bash_progress"},"type":"progress"}"#;
        assert!(!side(first.as_bytes()));
    }

    /// A line of results or side progress joined to another entry is not
    /// one (the model reads the other too), in any white space; braces in
    /// a text, even a text that ends in `} {`, do not make it one.
    #[test]
    fn entries_joined_on_a_line_are_not_passed_over() {
        let results = |text: &str| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t","content":"{text}"}}]}},"toolUseResult":{{"stdout":"{text}"}}}}"#
            )
        };
        let progress =
            r#"{"type":"progress","data":{"type":"bash_progress","output":"x"},"uuid":"g"}"#;
        let answer = r#"{"type":"assistant","message":{"usage":{"input_tokens":9}}}"#;
        for between in ["", " ", "\t", "\r ", "\u{a0}", "\u{3000}", "{}", " {} "] {
            let joined = format!("{}{between}{answer}", results("x"));
            assert!(!only(joined.as_bytes()), "{between:?}");
            let joined = format!("{progress}{between}{answer}");
            assert!(!side(joined.as_bytes()), "{between:?}");
        }
        for text in [
            "struct{}{}",
            r#"interface{}{\"a\": 1}"#,
            "} {",
            "}{",
            r#"x} {\""#,
            "{}",
        ] {
            assert!(only(results(text).as_bytes()), "{text}");
            assert!(only(format!("{} \n", results(text)).as_bytes()), "{text}");
        }
        // a line that ends in something else than white space
        assert!(!only(format!("{}x", results("} {")).as_bytes()));
    }

    #[test]
    fn tool_result_lines_and_the_others() {
        let r =
            r#"{"tool_use_id":"t1","type":"tool_result","content":"a \"quoted\" {x} ] text\\"}"#;
        let line = |content: &str| {
            format!(
                r#"{{"parentUuid":"p","type":"user","message":{{"role":"user","content":[{content}]}},"uuid":"u"}}"#
            )
        };
        assert!(only(line(r).as_bytes()));
        assert!(only(line(&format!("{r},{r}")).as_bytes()));
        // results of text, and one whose content shows its keys (JSON)
        let text = |c: &str| super::only_text_results(line(c).as_bytes());
        assert!(text(r));
        assert!(text(
            r#"{"type":"tool_result","content":[{"type":"text","text":"x"}]}"#
        ));
        assert!(text(r#"{"type":"tool_result","content":null}"#));
        for odd in [r#"{"k":"v"}"#, "42", "true"] {
            let result = format!(r#"{{"type":"tool_result","content":{odd}}}"#);
            assert!(only(line(&result).as_bytes()), "{odd}");
            assert!(!text(&result), "{odd}");
            assert!(!text(&format!("{r},{result}")), "{odd}");
        }
        // a prompt beside a result, an image, a text: kept
        assert!(!only(
            line(&format!(r#"{r},{{"type":"text","text":"and this"}}"#)).as_bytes()
        ));
        assert!(!only(
            line(r#"{"type":"text","text":"\"tool_result\""}"#).as_bytes()
        ));
        assert!(!only(line("").as_bytes()));
        // the message before the kind (Claude Code writes none) or a key
        // twice before both are known is doubt
        let later = format!(r#"{{"message":{{"content":[{r}]}},"type":"user"}}"#);
        assert!(!only(later.as_bytes()));
        let twice = format!(
            r#"{{"type":"user","message":{{"content":"x"}},"message":{{"content":[{r}]}}}}"#
        );
        assert!(!only(twice.as_bytes()));
        // not a user line, a compaction summary, a string content, broken
        let asst = line(r).replace(r#""type":"user""#, r#""type":"assistant""#);
        assert!(!only(asst.as_bytes()));
        let compact = line(r).replace(r#""uuid":"u""#, r#""uuid":"u","isCompactSummary":true"#);
        assert!(!only(compact.as_bytes()));
        // a compaction summary's key before the message, of any value,
        // or a key written with escapes (which may be that one): doubt
        for key in [
            r#""isCompactSummary":false,"#,
            r#""isCompact\u0053ummary":true,"#,
            r#""\u0074ype":"user","#,
        ] {
            let before = line(r).replace(r#""type":"user","#, &format!(r#""type":"user",{key}"#));
            assert!(!only(before.as_bytes()), "{before}");
        }
        // the word in a tool's output says nothing of the line
        let said =
            r#"{"tool_use_id":"t1","type":"tool_result","content":"\"isCompactSummary\":true"}"#;
        assert!(only(line(said).as_bytes()));
        assert!(!only(
            br#"{"type":"user","message":{"content":"tool_result"}}"#
        ));
        let cut = line(r);
        assert!(!only(&cut.as_bytes()[..40]));
        // a result whose own content is blocks
        let nested = r#"{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"},{"type":"image","source":{}}]}"#;
        assert!(only(line(nested).as_bytes()));
    }
}
