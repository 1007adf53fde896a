//! Transcript formats: each a folder that turns its files into the model's
//! own types (a [`crate::model::Session`] of items, usage, titles), which
//! nothing above the source looks behind. The model never imports a
//! source; a source uses the model. The rest of ccv reads sessions through
//! the functions here, which pick the format of a file; a new format is a
//! folder beside `claude/` and an arm in each of them.

pub mod claude;
pub mod codex;

/// Claude Code's name among the agents (`--agent claude`).
pub const CLAUDE: &str = "claude";

/// Every agent whose sessions ccv reads, by the name `--agent` takes.
pub const AGENTS: [&str; 2] = [CLAUDE, codex::FORMAT];

use crate::model::Session;
use std::path::{Path, PathBuf};

/// A session file with its subagents' files, whole.
pub fn load_with_subagents(path: &Path) -> std::io::Result<Session> {
    readable(path)?;
    claude::loader::load_with_subagents(path)
}

/// A session file (with its subagents' files) read for its figures only:
/// tokens, cost, prompts and calls are the whole load's, the rest of the
/// model is not to be relied on (see `claude::figures`).
///
/// Pieces of a big file, and subagents' files, go through
/// [`feed_for_figures`] the same way.
pub fn load_for_figures(path: &Path) -> std::io::Result<Session> {
    // (another agent's lines are never left out: none is a Claude user line)
    readable(path)?;
    claude::loader::load_for_figures(path)
}

pub use claude::figures::feed_for_figures;

/// Whether a line makes no entry at all: a command's or a hook's
/// progress as it runs, which the model hides (see
/// [`claude::figures::only_side_progress`]). A search passes it over
/// undecoded. A Codex line is never one.
pub fn makes_no_entry(line: &[u8]) -> bool {
    claude::figures::only_side_progress(line)
}

/// Whether `line` is a user line of tool results of text and nothing
/// else, or a subagent's line of tool results mirrored into the main file
/// (see [`claude::figures::only_text_results`] and
/// [`claude::figures::only_agent_results`]): its rows show the results'
/// text, values of the line and nothing of its keys. A Codex line is
/// never one.
pub fn only_tool_results(line: &[u8]) -> bool {
    claude::figures::only_text_results(line) || claude::figures::only_agent_results(line)
}

/// Where in a line a value is that no entry of the line shows (see
/// [`claude::unshown::tool_use_result`] and
/// [`claude::unshown::agent_prompt`]): a word found only there is no
/// hit. A Codex line never has one.
pub fn unshown_span(line: &[u8]) -> Option<std::ops::Range<usize>> {
    claude::unshown::tool_use_result(line).or_else(|| claude::unshown::agent_prompt(line))
}

/// When a line of a session was written, read without decoding it (see
/// [`claude::line_time::own_time`]; a Codex line of the later layout by
/// `own_time_enveloped`).
pub use claude::line_time::{own_time, own_time_enveloped};

/// The texts a user or assistant line's rows may show, read off its bytes
/// (see [`claude::shown_text`]).
pub use claude::shown_text::{Shape as ShownShape, Text as ShownText, shown_texts};

/// A session file for an export: long texts left in the file and read back
/// as they are written out (`summaries`: tool-call summaries kept).
pub fn load_for_export(path: &Path, summaries: bool) -> std::io::Result<Session> {
    readable(path)?;
    claude::loader::load_for_export(path, summaries)
}

/// A session file as the viewer holds it, `progress` told as it reads.
pub fn load_to_view(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> std::io::Result<Session> {
    readable(path)?;
    claude::loader::load_to_view(path, progress)
}

/// An error saying why, for a file in a layout ccv does not read (a
/// document rather than lines: only a `.json` file can be one).
fn readable(path: &Path) -> std::io::Result<()> {
    if path.extension().is_some_and(|e| e == "json")
        && let Some(why) = unsupported(path)
    {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
    }
    Ok(())
}

/// The files of a session's subagents, with each agent's id (a Codex
/// session's: the sub-agents' rollouts beside it that name it).
pub fn subagent_files(session_path: &Path) -> Vec<(PathBuf, String)> {
    if codex::files::is_rollout(session_path) {
        return codex::files::children_beside(session_path);
    }
    claude::loader::subagent_files(session_path)
}

/// The folder of a session's subagents' files
/// (`<session>/subagents/`, Claude Code's layout; a Codex rollout has
/// none).
pub fn subagents_folder(session_path: &Path) -> Option<PathBuf> {
    // as the session's loader finds it (see `claude::loader`)
    let stem = session_path.file_stem()?.to_str()?;
    subagents_folder_in(session_path.parent()?, stem)
}

/// [`subagents_folder`] of the session `<dir>/<stem>.jsonl`, made at its
/// length (a search makes one for every session folder of the tree).
pub fn subagents_folder_in(dir: &Path, stem: &str) -> Option<PathBuf> {
    if codex::files::is_rollout(Path::new(&format!("{stem}.jsonl"))) {
        return None;
    }
    let len = dir.as_os_str().len() + stem.len() + "/subagents".len() + 1;
    let mut p = PathBuf::with_capacity(len);
    p.push(dir);
    p.push(stem);
    p.push("subagents");
    Some(p)
}

pub use claude::loader::{
    WORKFLOWS, agent_files_under, agent_folders, agent_meta, agents_mark, run_folders,
};

/// Subagent files beside the sessions (an older layout) of these session ids.
pub fn project_agent_files(session_path: &Path, session_ids: &[String]) -> Vec<(PathBuf, String)> {
    claude::loader::project_agent_files(session_path, session_ids)
}

/// The files of sub-agents a session read from `path` names by id but
/// its folder does not hold (a Codex sub-agent's own rollout, found by
/// the thread id its spawning call returned).
pub fn spawned_agent_files(path: &Path, s: &Session) -> Vec<(PathBuf, String)> {
    if s.format() != Some(codex::FORMAT) {
        return Vec::new();
    }
    let wanted = s
        .agents
        .iter()
        .filter(|a| a.call.is_some() && !a.has_record);
    let (reviews, ids): (Vec<String>, Vec<String>) = wanted
        .map(|a| a.id.clone())
        .partition(|id| id.starts_with(codex::REVIEW));
    let mut files = codex::files::thread_files(path, &ids);
    for id in reviews {
        let Ok(began) = id[codex::REVIEW.len()..].parse::<i64>() else {
            continue;
        };
        if let Some(p) = codex::files::review_file(path, began, s.meta.cwd.as_deref()) {
            files.push((p, id));
        }
    }
    files
}

/// The session a subagent's own file belongs to.
pub fn parent_session_id(agent_file: &Path) -> Option<String> {
    claude::loader::parent_session_id(agent_file)
}

/// A subagent's id, from its file's name.
pub fn agent_id_of(path: &Path) -> Option<String> {
    claude::loader::agent_id_of(path)
}

/// An id the agent's own program resumes (and nothing it would take for
/// an option).
pub fn is_resumable_id(id: &str) -> bool {
    claude::resume::is_resumable_id(id)
}

/// What names and counts a session file, from a quick read of it.
pub fn headline(path: &Path, size: u64) -> std::io::Result<crate::model::headline::Headline> {
    match format_of(path) {
        Some("codex") => codex::scan::headline(path),
        _ => claude::scan::headline(path, size),
    }
}

/// [`headline`] and the session read for its figures ([`load_for_figures`]),
/// reading the file as few times as they allow: a small file is read once
/// for its format, headline and figures; a big one has its format told by
/// the head its headline reads, and, when its ends do not name it, its
/// middle seen by the figures' read rather than read again. The session
/// is `None` when the file could not be read for its figures, or is of
/// another format (whose headline may bring figures of its own).
pub fn headline_and_figures(
    path: &Path,
    size: u64,
) -> std::io::Result<(crate::model::headline::Headline, Option<Session>)> {
    let mut size = size;
    let mut bytes = Vec::new();
    if size <= claude::scan::SMALL {
        // one read: its format, headline and figures from the same bytes
        // (no more than a small file holds: one grown since is read as a
        // big one)
        bytes.reserve(size as usize + 1);
        let file = crate::model::session::open_regular(path)?;
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, claude::scan::SMALL + 1),
            &mut bytes,
        )?;
        size = bytes.len() as u64;
        if size > claude::scan::SMALL {
            size = std::fs::metadata(path)?.len();
        }
    }
    if size <= claude::scan::SMALL {
        let first = memchr::memchr(b'\n', &bytes).map_or(&bytes[..], |n| &bytes[..=n]);
        if translator_for(first).is_some() {
            return Ok((headline(path, size)?, None));
        }
        // its headline from the lines as the figures' read sees them
        let mut whole = claude::scan::WholeSeen::default();
        let session = readable(path)
            .and_then(|()| {
                claude::loader::load_for_figures_from(path, &bytes, &mut |_, lines, read| {
                    whole.lines(lines, &read.answers)
                })
            })
            .ok();
        // (a read that failed or stopped short: the headline's own)
        let ends = session
            .as_ref()
            .and_then(|_| whole.ends(&bytes))
            .unwrap_or_else(|| claude::scan::ends_of_whole(&bytes));
        return Ok((ends.finish(path)?, session));
    }
    // the format from the head the headline reads (a first line longer
    // than the head is read apart)
    let mut file = crate::model::session::open_regular(path)?;
    let head = claude::scan::read_head(&mut file)?;
    let other = match memchr::memchr(b'\n', &head) {
        Some(n) => translator_for(&head[..=n]).is_some(),
        None => format_of(path).is_some(),
    };
    if other {
        return Ok((headline(path, size)?, None));
    }
    let head = claude::scan::HeadSeen::of(head);
    if !head.names_session() {
        // its tail read where it is, then the rest read on from the head
        // for the figures, the middle (when owed) seen as it passes: the
        // file is opened once, its head and middle read once (all such
        // files of the 1 GB sample owe their middle: opened and read
        // again, they were a third of its big files)
        let head_bytes = head.bytes().to_vec();
        let mut ends = claude::scan::ends_from(&file, head, size)?;
        let owed = ends.middle().is_some();
        let read = readable(path).and_then(|()| {
            claude::loader::load_for_figures_after(
                path,
                (&head_bytes, &file),
                &mut |at, lines, read| ends.middle_lines(at, lines, &read.passed),
            )
        });
        return match read {
            Ok(s) => Ok((ends.finish(path)?, Some(s))),
            Err(_) if !owed => Ok((ends.finish(path)?, None)),
            // the middle was not all seen: the headline reads it
            Err(_) => Ok((headline(path, size)?, None)),
        };
    }
    // read on from the head for the figures, the tail window taken as it
    // passes: the file is opened and read once
    let mut tail = claude::scan::TailWindow::new(size);
    let session = readable(path).and_then(|()| {
        claude::loader::load_for_figures_after(path, (head.bytes(), &file), &mut |at, run, _| {
            tail.see(at, run)
        })
    });
    let mut ends = head.with_tail(tail.bytes(&file)?, size);
    if ends.middle().is_none() {
        return Ok((ends.finish(path)?, session.ok()));
    }
    // a summary in the tail whose leaf is not in the ends: read again, its
    // middle seen by the figures' read
    let read = readable(path).and_then(|()| {
        claude::loader::load_for_figures_seeing(path, &mut |at, lines, read| {
            ends.middle_lines(at, lines, &read.passed)
        })
    });
    match read {
        Ok(s) => Ok((ends.finish(path)?, Some(s))),
        // the middle was not all seen: the headline reads it
        Err(_) => Ok((headline(path, size)?, None)),
    }
}

/// How a file in a format other than Claude Code's is read, from its
/// first line; `None`: Claude Code's own (or nothing known).
pub fn translator_for(first_line: &[u8]) -> Option<Box<dyn crate::model::session::Translate>> {
    if codex::sniff(first_line) {
        return Some(Box::<codex::translate::Translator>::default());
    }
    None
}

/// The format of a file other than Claude Code's (`codex`), from its
/// first line.
pub fn format_of(path: &Path) -> Option<&'static str> {
    use std::io::BufRead;
    let f = crate::model::session::open_regular(path).ok()?;
    let mut first = Vec::new();
    // a Codex file opens with its `session_meta` (a few KB, with its
    // instructions); a first line past this is not one
    std::io::Read::take(std::io::BufReader::new(f), 256 << 10)
        .read_until(b'\n', &mut first)
        .ok()?;
    translator_for(&first).map(|t| t.format())
}

/// Whether a file's name says it may be in another format than Claude
/// Code's (Codex's `rollout-…`): a search reads the first line of those
/// only, for lines it reads apart (see [`header_of`]).
pub fn may_be_other_format(path: &Path) -> bool {
    codex::files::is_rollout(path)
}

/// What a line read apart from the file at `path` is read after (see
/// `Session::read_apart_after`) when the file is in another format than
/// Claude Code's: its first line, cut to what such a line needs; `None`
/// for Claude Code's own. Read up to 256 KB, as [`format_of`] reads it.
pub fn header_of(path: &Path) -> Option<Vec<u8>> {
    use std::io::BufRead;
    let f = crate::model::session::open_regular(path).ok()?;
    let mut first = Vec::new();
    std::io::Read::take(std::io::BufReader::new(f), 256 << 10)
        .read_until(b'\n', &mut first)
        .ok()?;
    codex::header_for_apart(&first)
}

/// Where the sessions of every known agent are kept, those that exist
/// (Claude Code's projects root comes from the caller).
pub fn other_roots() -> Vec<PathBuf> {
    codex::files::roots()
}

/// The session files of a folder laid out as another agent keeps them
/// (Codex's `sessions/YYYY/MM/DD/rollout-*.jsonl`); `None` for a Claude
/// Code projects root.
pub fn sessions_under(root: &Path) -> Option<Vec<PathBuf>> {
    codex::files::is_root(root).then(|| {
        let mut v = Vec::new();
        codex::files::rollouts(root, 3, &mut v);
        v.retain(|p| !codex::files::is_single_json(p));
        v.sort();
        v
    })
}

/// Files in such a folder that are sessions in a layout ccv does not read,
/// each with why (to be counted, not shown as damaged sessions).
pub fn unsupported_under(root: &Path) -> Vec<(PathBuf, &'static str)> {
    if !codex::files::is_root(root) {
        return Vec::new();
    }
    let mut v = Vec::new();
    codex::files::rollouts(root, 3, &mut v);
    v.into_iter()
        .filter(|p| codex::files::is_single_json(p))
        .map(|p| (p, codex::UNSUPPORTED_JSON))
        .collect()
}

/// Why ccv cannot read `path` as a session, when it is one in a layout
/// it does not follow (from its first bytes).
pub fn unsupported(path: &Path) -> Option<&'static str> {
    use std::io::Read;
    let mut head = [0u8; 512];
    let mut f = crate::model::session::open_regular(path).ok()?;
    let n = f.read(&mut head).ok()?;
    codex::is_single_json(&head[..n]).then_some(codex::UNSUPPORTED_JSON)
}

/// Whether a session file sits in a folder of its project (Claude Code's
/// `projects/<project>/`), not of its date (Codex's `YYYY/MM/DD/`).
pub fn filed_by_project(path: &Path) -> bool {
    !codex::files::is_rollout(path)
}

/// A session's id from its file's name: Claude Code names a file by its
/// session, Codex puts the id at the end (`rollout-<time>-<id>.jsonl`).
pub fn session_id_of(path: &Path) -> Option<String> {
    if codex::files::is_rollout(path) {
        return codex::files::id_of(path);
    }
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
}

/// The directory a project folder's name stands for (`-home-bob-app` is
/// `/home/bob/app`), for sessions whose lines record none.
pub fn project_of_dir(name: &str) -> String {
    claude::scan::decode_project_dir(name)
}

/// How to resume session `id` in its agent (`format`, as
/// [`Session::format`] says): the program and its arguments; `None` for
/// an id it would not take.
pub fn resume_command(id: &str, format: Option<&str>) -> Option<(&'static str, Vec<String>)> {
    if !is_resumable_id(id) {
        return None;
    }
    Some(match format {
        Some("codex") => (codex::PROGRAM, codex::resume_args(id)),
        _ => (claude::resume::PROGRAM, claude::resume::args(id)),
    })
}
