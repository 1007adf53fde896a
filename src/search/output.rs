//! `ccv search` and `ccv index`: arguments to a search, hits to the
//! terminal (grouped by session, newest first, the match marked) or to
//! JSON Lines.

use super::{Filter, Found, Hit, Options, Via};
use crate::catalog::SessionInfo;
use crate::model::Kind;
use crate::model::query::Query;
use crate::model::text::{term_line, term_path};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub struct Args {
    pub query: String,
    pub root: PathBuf,
    pub json: bool,
    pub project: Option<String>,
    pub since: Option<String>,
    pub kinds: Vec<String>,
    pub regex: bool,
    pub limit: usize,
    /// Secrets in snippets and titles replaced (a hit so changed is
    /// printed unmarked: its marks were where the secret was written).
    pub redact: bool,
}

/// `user`, `assistant`, `thinking`, `tool` (calls and results),
/// `tool_call`, `tool_result`, `system`, `command`, `meta`, `compaction`.
pub fn parse_kinds(names: &[String]) -> Result<Vec<Kind>, String> {
    let mut out = Vec::new();
    for n in names.iter().flat_map(|n| n.split(',')).map(str::trim) {
        match n {
            "" => {}
            "tool" => out.extend([Kind::ToolCall, Kind::ToolResult]),
            n => match Kind::ALL.iter().find(|k| k.as_str() == n) {
                Some(k) => out.push(*k),
                None => {
                    return Err(format!(
                        "unknown kind {n:?} (user, assistant, thinking, tool, tool_call, tool_result, system, command, meta, compaction)"
                    ));
                }
            },
        }
    }
    Ok(out)
}

/// `ccv search`: exit 0 with hits, 1 without, 2 on a bad query or root.
pub fn run(a: &Args) -> i32 {
    let query = match Query::words(&a.query, a.regex) {
        Ok(q) if !q.is_empty() => q,
        Ok(_) => {
            crate::say_err!("ccv: search: the query is empty");
            return 2;
        }
        Err(e) => {
            crate::say_err!("ccv: search: {}", term_line(&e));
            return 2;
        }
    };
    if let Some(why) = crate::paths::not_a_root(&a.root) {
        crate::say_err!("ccv: {}: {why}", term_path(&a.root));
        return 2;
    }
    let mut filter = Filter::default();
    match parse_kinds(&a.kinds) {
        Ok(k) => filter.kinds = k,
        Err(e) => {
            crate::say_err!("ccv: search: {}", term_line(&e));
            return 2;
        }
    }
    if let Some(s) = &a.since {
        let tz = crate::model::time::local_tz();
        match crate::model::time::parse_since(s, crate::model::time::now_ms(), &tz) {
            Ok(ms) => filter.since_ms = Some(ms),
            Err(e) => {
                crate::say_err!("ccv: --since: {}", term_line(&e));
                return 2;
            }
        }
    }
    let opts = crate::catalog::ScanOptions {
        figures: false,
        ..crate::catalog::ScanOptions::standard()
    };
    // the whole listing only to choose sessions by project; else the rows
    // of the sessions hit, after the search (a listing of 10,000 sessions
    // was most of a query's time)
    let mut sessions = match &a.project {
        Some(_) => crate::catalog::list_sessions(&a.root, &opts),
        None => Vec::new(),
    };
    if let Some(p) = &a.project {
        let p = p.to_lowercase();
        filter.sessions = Some(
            sessions
                .iter()
                .filter(|s| s.project.to_lowercase().contains(&p))
                .map(|s| s.path.clone())
                .collect(),
        );
    }
    let search_opts = Options {
        limit: a.limit,
        ..Options::standard()
    };
    if a.redact {
        // the lines hit are read through the redactor, as the picker's
        // are: a snippet is cut from text already redacted (redacted after
        // the cut, a secret cut in two at its edge was no longer found)
        crate::redact::set_screen(true);
    }
    let mut found = match super::search(&a.root, &query, &filter, &search_opts) {
        Ok(f) => f,
        Err(e) => {
            crate::say_err!("ccv: search: {}", term_line(&e.to_string()));
            return 2;
        }
    };
    if let Some(n) = &found.note {
        crate::say_err!("ccv: search: {}", term_line(n));
    }
    // (the index is built after the hits are printed: its process, started
    // before, took a core from this one's last steps)
    let index_after = found.via == Via::Scan && !query.is_regex && search_opts.index.is_some();
    if a.project.is_none() {
        let mut hit: Vec<std::path::PathBuf> =
            found.hits.iter().map(|h| h.session.clone()).collect();
        hit.sort();
        hit.dedup();
        sessions = crate::catalog::list::rows_of(&hit, &opts);
    }
    if a.redact {
        redact_hits(&mut found, &mut sessions);
    }
    let by_path: HashMap<&Path, &SessionInfo> =
        sessions.iter().map(|s| (s.path.as_path(), s)).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let r = if a.json {
        write_json(&mut out, &found, &by_path)
    } else {
        write_text(&mut out, &found, &by_path)
    };
    let r = r.and_then(|_| out.flush());
    drop(out);
    if index_after {
        spawn_indexer(&a.root);
    }
    match r {
        Ok(()) | Err(_) if found.hits.is_empty() => 1,
        Ok(()) => {
            if found.more {
                let shown = match found.hits.len() {
                    1 => "the newest hit".to_owned(),
                    n => format!("the newest {n} hits"),
                };
                crate::say_err!("ccv: search: showing {shown}; --limit N shows more");
            }
            0
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            crate::say_err!("ccv: {}", term_line(&e.to_string()));
            2
        }
    }
}

/// Set for the `ccv index` that [`spawn_indexer`] starts: it yields the
/// cores (see [`crate::priority::background`]).
const BACKGROUND: &str = "CCV_INDEX_IN_BACKGROUND";

/// Builds the index in a process of its own, so that the next search is
/// instant; a second one finds the index locked and leaves.
fn spawn_indexer(root: &Path) {
    if std::env::var_os("CCV_NO_BACKGROUND_INDEX").is_some() {
        return;
    }
    if let Ok(exe) = std::env::current_exe() {
        let _ = std::process::Command::new(exe)
            .env(BACKGROUND, "1")
            .arg("index")
            .arg("--quiet")
            .arg(root)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
}

/// `ccv index`: builds or updates the index; exit 0, 1 on failure.
pub fn run_index(root: &Path, quiet: bool) -> i32 {
    let Some(dir) = super::index::default_dir() else {
        crate::say_err!("ccv: index: no cache directory (set XDG_CACHE_HOME)");
        return 1;
    };
    if std::env::var_os(BACKGROUND).is_some() {
        crate::priority::background();
    }
    let t = std::time::Instant::now();
    match super::update_index(root, &dir, Options::standard().threads) {
        Ok(u) => {
            if !quiet {
                let size = super::index::SearchIndex::open_existing(&dir)
                    .ok()
                    .flatten()
                    .map_or(0, |i| i.disk_size());
                // (a closed pipe ends the line, not the build: it is done)
                let _ = crate::say!(
                    "indexed {} ({}) in {:.1}s, dropped {}; the index takes {} in {}",
                    crate::model::text::counted(u.files_read as u64, "file"),
                    crate::model::item::human_bytes(u.bytes_read),
                    t.elapsed().as_secs_f64(),
                    u.files_dropped,
                    crate::model::item::human_bytes(size),
                    term_path(&dir)
                );
            }
            0
        }
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
            if !quiet {
                crate::say_err!("ccv: index: another ccv is updating it");
            }
            0
        }
        Err(e) => {
            crate::say_err!("ccv: index: {}", term_line(&e.to_string()));
            1
        }
    }
}

/// Hits of one session together, sessions by their newest hit.
fn grouped(found: &Found) -> Vec<(&Path, Vec<&Hit>)> {
    let mut groups: Vec<(&Path, Vec<&Hit>)> = Vec::new();
    let mut at: HashMap<&Path, usize> = HashMap::new();
    for h in &found.hits {
        let g = *at.entry(h.session.as_path()).or_insert_with(|| {
            groups.push((h.session.as_path(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(h);
    }
    groups
}

/// The hits' snippets (already cut from redacted text: a second pass
/// for what a redaction of the whole text could not see) and their
/// sessions' rows with their secrets replaced; a snippet so changed
/// loses its marks.
fn redact_hits(found: &mut Found, sessions: &mut [SessionInfo]) {
    let r = crate::redact::active();
    for h in &mut found.hits {
        if let std::borrow::Cow::Owned(red) = r.redact(&h.snippet) {
            h.snippet = red;
            h.marks.clear();
            h.mark = 0..0;
        }
        // (as `redact_row` redacts the rows these are looked up in)
        for p in [&mut h.file, &mut h.session] {
            if let Some(red) = crate::redact::path(p) {
                *p = red;
            }
        }
    }
    sessions
        .iter_mut()
        .for_each(crate::catalog::list::redact_row);
}

/// The columns of a session's title above its hits.
const TITLE_COLUMNS: usize = 80;

fn write_text(
    out: &mut dyn Write,
    found: &Found,
    sessions: &HashMap<&Path, &SessionInfo>,
) -> io::Result<()> {
    use std::io::IsTerminal;
    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let (bold, mark, dim, off) = if color {
        ("\x1b[1m", "\x1b[1;7m", "\x1b[2m", "\x1b[0m")
    } else {
        ("", "»", "", "")
    };
    let mark_off = if color { off } else { "«" };
    for (session, hits) in grouped(found) {
        let info = sessions.get(session);
        // a title may be a whole first prompt (kilobytes): its head names
        // the session, the rest would wrap over the hits it heads
        let title = info.map_or("", |s| s.title.as_str());
        let project = info.map_or_else(String::new, |s| crate::paths::tilde(&s.project));
        let id = info.map_or_else(
            || {
                session
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            },
            |s| s.session_id.clone(),
        );
        let date = info
            .map(|s| crate::model::time::format_iso(s.last_activity_ms))
            .unwrap_or_default();
        writeln!(
            out,
            "{bold}{}{off} {dim}· {} · {} · {}{off}",
            crate::model::text::fit_end(&term_line(title), TITLE_COLUMNS),
            term_line(&project),
            date.get(..16).unwrap_or(&date).replace('T', " "),
            term_line(&id)
        )?;
        for h in hits {
            // the whole path (`~` for home), to paste into a shell
            let shown = crate::paths::tilde(&h.file.to_string_lossy());
            // every term marked, as grep marks each match
            let s = &h.snippet;
            let mut line = String::with_capacity(s.len() + 16);
            let mut at = 0;
            for m in &h.marks {
                let (Some(before), Some(hit)) = (s.get(at..m.start), s.get(m.clone())) else {
                    continue;
                };
                line.push_str(before);
                line.push_str(mark);
                line.push_str(hit);
                line.push_str(mark_off);
                at = m.end;
            }
            line.push_str(s.get(at..).unwrap_or(""));
            writeln!(
                out,
                "  {dim}{}:{}{off} {:<11} {line}",
                term_line(&shown),
                h.line,
                h.kind.as_str(),
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn write_json(
    out: &mut dyn Write,
    found: &Found,
    sessions: &HashMap<&Path, &SessionInfo>,
) -> io::Result<()> {
    for h in &found.hits {
        let info = sessions.get(h.session.as_path());
        let chars = |b: usize| h.snippet.get(..b).map_or(0, |s| s.chars().count());
        let mut obj = serde_json::json!({
            "session_id": info.map(|s| s.session_id.clone()),
            "title": info.map(|s| s.title.clone()),
            "project": info.map(|s| s.project.clone()),
            "line": h.line,
            "kind": h.kind.as_str(),
            "timestamp": h.timestamp.map(crate::model::time::format_iso),
            "snippet": h.snippet,
            // (none in a snippet redacted)
            "match": (!h.marks.is_empty()).then(|| [chars(h.mark.start), chars(h.mark.end)]),
            "matches": h.marks.iter().map(|m| [chars(m.start), chars(m.end)]).collect::<Vec<_>>(),
        });
        if let Some(o) = obj.as_object_mut() {
            crate::json_out::path_fields(o, "path", &h.file);
            crate::json_out::path_fields(o, "session_path", &h.session);
        }
        crate::json_out::to_writer(&mut *out, &obj)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
