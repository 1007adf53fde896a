//! Finding and loading a session's files: the session itself and its
//! subagents (`<session>/subagents/agent-*.jsonl` and, for the agents of a
//! Workflow run, `<session>/subagents/workflows/<run>/agent-*.jsonl`; or
//! `agent-*.jsonl` next to the session for 2.0.74-2.0.76, matched by the
//! `sessionId` inside).

use crate::model::agents::AgentMeta;
use crate::model::session::Session;
use std::path::{Path, PathBuf};

/// Subagent files of a session file, with their agent ids: the
/// `<session>/subagents/` folder (2.1.x) and its Workflow runs' folders.
pub fn subagent_files(session_path: &Path) -> Vec<(PathBuf, String)> {
    let Some(stem) = session_path.file_stem().and_then(|s| s.to_str()) else {
        return Vec::new();
    };
    let Some(dir) = session_path.parent() else {
        return Vec::new();
    };
    agent_files_under(&dir.join(stem).join("subagents"))
}

/// The folder of a subagents folder that holds one folder per Workflow
/// run, each with its agents' `agent-<id>.jsonl` (and a `journal.jsonl`
/// of the run's steps, which is no transcript).
pub const WORKFLOWS: &str = "workflows";

/// The folders of a session's Workflow runs (`subagents/workflows/*/`),
/// by path: real folders only (a link is not followed, so no loop of
/// links is walked).
pub fn run_folders(subagents: &Path) -> Vec<PathBuf> {
    let runs = subagents.join(WORKFLOWS);
    if !std::fs::symlink_metadata(&runs).is_ok_and(|m| m.is_dir()) {
        return Vec::new();
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&runs)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs
}

/// The folders under a session's `subagents/` whose changes tell of a
/// transcript come or gone: it, its `workflows/` folder (a run started)
/// and each run's folder.
pub fn agent_folders(subagents: &Path) -> Vec<PathBuf> {
    let mut out = vec![subagents.to_path_buf()];
    let runs = subagents.join(WORKFLOWS);
    // (watched empty too: the first run's folder comes in it)
    if std::fs::symlink_metadata(&runs).is_ok_and(|m| m.is_dir()) {
        out.push(runs);
        out.extend(run_folders(subagents));
    }
    out
}

/// A mark of a session's `subagents/` folder whose own mtime is `own_ns`
/// that changes when a transcript comes or goes: the latest mtime of it
/// and of the folders of its Workflow runs (a transcript added to a run's
/// folder changes that folder's mtime only). One `lstat` when the session
/// ran no Workflow.
pub fn agents_mark(subagents: &Path, own_ns: i64) -> i64 {
    let is_dir = |p: &Path| std::fs::symlink_metadata(p).ok().filter(|m| m.is_dir());
    let runs = subagents.join(WORKFLOWS);
    let Some(m) = is_dir(&runs) else {
        return own_ns;
    };
    let ns = |m: std::fs::Metadata| {
        m.modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
    };
    run_folders(subagents)
        .iter()
        .filter_map(|d| is_dir(d).map(ns))
        .fold(own_ns.max(ns(m)), i64::max)
}

/// The `agent-<id>.jsonl` files of a session's `subagents/` folder and
/// of its Workflow runs' folders, with their ids, by path.
pub fn agent_files_under(subagents: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![subagents.to_path_buf()];
    dirs.extend(run_folders(subagents));
    for dir in dirs {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if let Some(id) = agent_id_of(&p) {
                out.push((p, id));
            }
        }
    }
    out.sort();
    out
}

/// Project-level `agent-<id>.jsonl` files next to the session (2.0.74 to
/// 2.0.76) whose lines carry one of `session_ids` (the parent's id).
pub fn project_agent_files(session_path: &Path, session_ids: &[String]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    if agent_id_of(session_path).is_some() {
        return out; // an agent file opened on its own
    }
    let dir = match session_path.parent() {
        Some(d) if d.as_os_str().is_empty() => Path::new("."),
        Some(d) => d,
        None => return out,
    };
    for (p, id) in agent_files_in(dir).iter() {
        if p.is_file() && names_session(p, session_ids) {
            out.push((p.clone(), id.clone()));
        }
    }
    out.sort();
    out
}

/// The `agent-<id>.jsonl` names of a folder, read again only when the
/// folder changed: a listing asks once per session of the folder, and
/// reading a folder of hundreds of sessions for each was a twentieth of
/// a cold listing.
fn agent_files_in(dir: &Path) -> std::sync::Arc<Vec<(PathBuf, String)>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    type Seen = HashMap<PathBuf, (std::time::SystemTime, Arc<Vec<(PathBuf, String)>>)>;
    static SEEN: Mutex<Option<Seen>> = Mutex::new(None);
    // a folder changed in the last seconds may change again within its
    // mtime's tick (a second on some file systems): not remembered
    let settled = |t: &std::time::SystemTime| t.elapsed().is_ok_and(|d| d.as_secs() >= 2);
    let mtime = std::fs::metadata(dir)
        .and_then(|m| m.modified())
        .ok()
        .filter(settled);
    if let Some(t) = mtime
        && let Ok(seen) = SEEN.lock()
        && let Some((at, files)) = seen.as_ref().and_then(|s| s.get(dir))
        && *at == t
    {
        return files.clone();
    }
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name();
        if name.as_encoded_bytes().starts_with(b"agent-") {
            let p = e.path();
            if let Some(id) = agent_id_of(&p) {
                files.push((p, id));
            }
        }
    }
    let files = Arc::new(files);
    if let Some(t) = mtime
        && let Ok(mut seen) = SEEN.lock()
    {
        seen.get_or_insert_with(HashMap::new)
            .insert(dir.to_owned(), (t, files.clone()));
    }
    files
}

/// Whether the first lines of an agent file carry one of the session ids.
/// The first line is often a "Warmup" with an id of its own, so a few lines
/// are read.
fn names_session(p: &Path, session_ids: &[String]) -> bool {
    use std::io::Read;
    let Ok(f) = crate::model::session::open_regular(p) else {
        return false;
    };
    let mut head = Vec::new();
    if f.take(256 * 1024).read_to_end(&mut head).is_err() {
        return false;
    }
    let lines: Vec<&[u8]> = head.split(|&b| b == b'\n').take(8).collect();
    session_ids.iter().any(|sid| {
        let needle = format!("\"sessionId\":\"{sid}\"");
        lines
            .iter()
            .any(|l| memchr::memmem::find(l, needle.as_bytes()).is_some())
    })
}

/// The session a project-level `agent-<id>.jsonl` (2.0.74 to 2.0.76)
/// belongs to: the first `sessionId` of its first lines that names a
/// session file beside it (the first line is often a "Warmup" with an id
/// of its own), else the first one. The picker and search count it there.
pub fn parent_session_id(agent_file: &Path) -> Option<String> {
    use std::io::Read;
    let f = crate::model::session::open_regular(agent_file).ok()?;
    let mut head = Vec::new();
    f.take(256 * 1024).read_to_end(&mut head).ok()?;
    let key = b"\"sessionId\":\"";
    let ids: Vec<String> = head
        .split(|&b| b == b'\n')
        .take(8)
        .filter_map(|l| {
            let p = memchr::memmem::find(l, key)? + key.len();
            let end = memchr::memchr(b'"', &l[p..])?;
            let id = std::str::from_utf8(&l[p..p + end]).ok()?;
            crate::model::session::is_session_id(id).then(|| id.to_owned())
        })
        .collect();
    let dir = agent_file.parent()?;
    ids.iter()
        .find(|id| dir.join(format!("{id}.jsonl")).is_file())
        .or(ids.first())
        .cloned()
}

/// `agent-<id>.jsonl` -> `<id>`.
pub fn agent_id_of(p: &Path) -> Option<String> {
    let name = p.file_name()?.to_str()?;
    let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
    (!id.is_empty()).then(|| id.to_owned())
}

/// What Claude Code wrote of a subagent beside its transcript `path`
/// (`agent-<id>.meta.json`): read up to 64 KB, a regular file only;
/// a field of another type, or a file that is no JSON object, is none.
pub fn agent_meta(path: &Path) -> Option<AgentMeta> {
    use std::io::Read;
    let id = agent_id_of(path)?;
    let meta = path.with_file_name(format!("agent-{id}.meta.json"));
    let mut text = String::new();
    crate::model::session::open_regular(&meta)
        .ok()?
        .take(64 * 1024)
        .read_to_string(&mut text)
        .ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    // one line of a few hundred characters at most: it is a label
    let field = |k: &str| {
        let t = v.get(k)?.as_str()?.lines().next()?.trim();
        let t = crate::model::title::words_upto(t, 200);
        (!t.is_empty()).then_some(t)
    };
    Some(AgentMeta {
        agent_type: field("agentType"),
        description: field("description"),
        call: field("toolUseId"),
    })
}

/// A subagent's file opened on its own: the `description` of the call that
/// started it, from its meta file.
fn agent_description(path: &Path) -> Option<String> {
    agent_meta(path)?.description
}

/// Loads a session file and every subagent file that belongs to it.
pub fn load_with_subagents(path: &Path) -> std::io::Result<Session> {
    load(path, true, false, &mut |_, _| {})
}

/// [`load_with_subagents`] for an export, which reads each text once,
/// in order: the long ones are left in the files and read back as they
/// are written out (see `model::stored`). `summaries`: the export shows
/// calls by their summaries (HTML) rather than only by their inputs.
pub fn load_for_export(path: &Path, summaries: bool) -> std::io::Result<Session> {
    let mut s = Session::new(Some(path.to_owned()));
    // nothing an export writes is marked: keeping the viewer's marks up to
    // date (a table of every line's first row) was a twentieth of the
    // ingest of a big session
    s.keep_no_marks();
    // made from each call's input (parsed again), summaries were ~7% of a
    // 100 MB JSON export's CPU, for nothing written
    if !summaries {
        s.keep_no_call_summaries();
    }
    load_into(
        s,
        path,
        Reading::Whole { text_in_file: true },
        &mut |_, _| {},
    )
}

/// [`load_with_subagents`] for its figures only (tokens, cost, prompts,
/// calls): lines that cannot change them are not decoded (see
/// [`super::figures`]), nor are marks and call summaries kept.
pub fn load_for_figures(path: &Path) -> std::io::Result<Session> {
    load_for_figures_seeing(path, &mut |_, _, _| {})
}

/// [`load_for_figures`], handing `see` the lines of the session's own
/// file as they are read (see [`super::figures::feed_seeing`]).
pub fn load_for_figures_seeing(
    path: &Path,
    see: super::figures::SeeLines<'_>,
) -> std::io::Result<Session> {
    load_figures(path, (see, false), Given::Path)
}

/// [`load_for_figures_seeing`] of a session file opened and read up to
/// its first `head` bytes (the headline's head): read on from there, so
/// that its bytes are read once.
pub fn load_for_figures_after(
    path: &Path,
    (head, file): (&[u8], &std::fs::File),
    see: super::figures::SeeLines<'_>,
) -> std::io::Result<Session> {
    load_figures(path, (see, false), Given::Headed(head, file))
}

/// [`load_for_figures`] of a session file whose bytes were read already
/// (a small file read whole for its headline), handing `see` its lines
/// and its answers read (see [`super::figures::feed_seeing`]); its
/// subagents' files are read as usual.
pub fn load_for_figures_from(
    path: &Path,
    bytes: &[u8],
    see: super::figures::SeeLines<'_>,
) -> std::io::Result<Session> {
    load_figures(path, (see, true), Given::Bytes(bytes))
}

/// What a read for figures reads of the session's own file: the file at
/// its path, its bytes read already, or the file opened with its first
/// bytes read (and the rest to read).
#[derive(Clone, Copy)]
enum Given<'a> {
    Path,
    Bytes(&'a [u8]),
    Headed(&'a [u8], &'a std::fs::File),
}

fn load_figures(
    path: &Path,
    (see, answers): (super::figures::SeeLines<'_>, bool),
    bytes: Given<'_>,
) -> std::io::Result<Session> {
    let fresh = |lean: bool| {
        let mut s = Session::new(Some(path.to_owned()));
        s.keep_no_marks();
        s.keep_no_call_summaries();
        s.keep_no_totals();
        s.keep_no_result_texts();
        if lean {
            s.take_lean_lines();
        }
        s
    };
    let mut s = load_into(
        fresh(true),
        path,
        Reading::Figures(see, answers, bytes),
        &mut |_, _| {},
    )?;
    if s.lean_lines_hold() {
        return Ok(s);
    }
    // a uuid met twice among the answers taken in lean: read again with
    // every line threaded (the lines were seen already; a file read on
    // from its head is read again from its path)
    let bytes = match bytes {
        Given::Headed(..) => Given::Path,
        given => given,
    };
    load_into(
        fresh(false),
        path,
        Reading::Figures(&mut |_, _, _| {}, false, bytes),
        &mut |_, _| {},
    )
}

/// As [`load_with_subagents`], for a file that may be being written: a
/// last line without its newline waits for the follower to bring the rest
/// (instead of showing as unreadable).
pub fn load_to_follow(path: &Path) -> std::io::Result<Session> {
    load(path, false, false, &mut |_, _| {})
}

/// [`load_to_follow`] for the viewer: tool output is left in the files and
/// read back when shown (see `model::stored`), and `progress` hears (bytes
/// read, size) as the main file is read.
pub fn load_to_view(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> std::io::Result<Session> {
    load(path, false, true, progress)
}

fn load(
    path: &Path,
    complete: bool,
    text_in_file: bool,
    progress: &mut dyn FnMut(u64, u64),
) -> std::io::Result<Session> {
    let reading = if complete {
        Reading::Whole { text_in_file }
    } else {
        Reading::Following { text_in_file }
    };
    load_into(Session::new(Some(path.to_owned())), path, reading, progress)
}

/// How the files of a session are read.
enum Reading<'a> {
    /// To the end, each file finished (an unfinished last line shown).
    Whole { text_in_file: bool },
    /// As far as they are written: a last line without its newline waits.
    Following { text_in_file: bool },
    /// Whole, for the figures only (see [`super::figures`]); the main
    /// file's lines are shown to the function (with its answers read, when
    /// asked), and are these bytes when given (read by the caller).
    Figures(super::figures::SeeLines<'a>, bool, Given<'a>),
}

fn load_into(
    mut s: Session,
    path: &Path,
    mut reading: Reading<'_>,
    progress: &mut dyn FnMut(u64, u64),
) -> std::io::Result<Session> {
    let text_in_file = match reading {
        Reading::Whole { text_in_file } | Reading::Following { text_in_file } => text_in_file,
        // the bytes fed are not the file's: no text can be read back
        Reading::Figures(..) => false,
    };
    // the viewer holds as little as it can while it loads
    s.lean = matches!(reading, Reading::Following { .. });
    let text_in_file = text_in_file && path != Path::new("-");
    s.sources[0].text_in_file = text_in_file;
    let read = |reading: &mut Reading<'_>,
                s: &mut Session,
                src: u16,
                f: &std::fs::File,
                progress: &mut dyn FnMut(u64, u64)| {
        match reading {
            Reading::Figures(see, answers, _) if src == crate::model::session::MAIN => {
                super::figures::feed_seeing(s, src, &mut &*f, *see, *answers)?;
            }
            Reading::Figures(..) => {
                super::figures::feed_for_figures(s, src, &mut &*f)?;
            }
            Reading::Whole { .. } => {
                s.read_file_available(src, f, progress)?;
                s.finish(src);
            }
            Reading::Following { .. } => s.read_file_available(src, f, progress)?,
        }
        Ok::<(), std::io::Error>(())
    };
    // the `subagents/` folder is known before the main file is read: its
    // agents' `agent_progress` copies there are then duplicates
    let folder = if path == Path::new("-") {
        Vec::new()
    } else {
        subagent_files(path)
            .into_iter()
            .map(|(p, id)| {
                let src = s.add_agent_source(p.clone(), &id);
                s.sources[src as usize].text_in_file = text_in_file;
                (src, p)
            })
            .collect()
    };
    if path == Path::new("-") {
        s.read_all(crate::model::session::MAIN, &mut std::io::stdin().lock())?;
    } else {
        match &mut reading {
            // read already (see `load_for_figures_from`)
            Reading::Figures(see, answers, Given::Bytes(bytes)) => {
                let main = crate::model::session::MAIN;
                super::figures::feed_seeing(&mut s, main, bytes, *see, *answers)?;
            }
            Reading::Figures(see, answers, Given::Headed(head, f)) => {
                let main = crate::model::session::MAIN;
                let mut rest = std::io::Read::chain(*head, *f);
                super::figures::feed_seeing(&mut s, main, &mut rest, *see, *answers)?;
            }
            _ => {
                let f = crate::model::session::open_regular(path)?;
                read(
                    &mut reading,
                    &mut s,
                    crate::model::session::MAIN,
                    &f,
                    progress,
                )?;
            }
        }
    }
    if let Some(d) = agent_description(path) {
        s.meta.titles.agent = Some(d);
    }
    if path != Path::new("-") {
        let mut ids = s.meta.session_ids.clone();
        if let Some(stem) = path.file_stem().and_then(|s| s.to_str())
            && !ids.iter().any(|i| i == stem)
        {
            ids.push(stem.to_owned());
        }
        let mut files = folder;
        let spawned = crate::source::spawned_agent_files(path, &s);
        for (p, id) in project_agent_files(path, &ids).into_iter().chain(spawned) {
            let src = s.add_agent_source(p.clone(), &id);
            s.sources[src as usize].text_in_file = text_in_file;
            files.push((src, p));
        }
        for (src, p) in &files {
            match crate::model::session::open_regular(p) {
                Ok(f) => read(&mut reading, &mut s, *src, &f, &mut |_, _| {})?,
                Err(_) => continue,
            }
        }
        // what their meta files say, once every call is read (the figures
        // need none of it)
        if !matches!(reading, Reading::Figures(..)) {
            let metas = files
                .iter()
                .filter_map(|(src, p)| {
                    let agent = s.sources.get(usize::from(*src))?.agent?;
                    Some((agent, agent_meta(p)?))
                })
                .collect();
            s.apply_agent_metas(metas);
        }
    }
    Ok(s)
}
