//! `ccv export --all DIR [ROOT]`: every session as a static site. An index
//! of every project and its sessions (title, date, duration, prompts, tool
//! calls, tokens, cost, newest first) with per-day totals, a page per
//! project, and a page per session (the HTML export with links up, a table
//! of contents and, unless `--no-script`, an inline script allowed by its
//! hash). Kept up to date: a second run renders again only the sessions
//! whose file changed (size and mtime, as the listing cache keys them),
//! rewrites an index page only when its text changed, and removes the pages
//! of sessions that are gone. Nothing is written in a projects folder
//! (`crate::writes` refuses it).

pub mod cli;
mod manifest;
mod pages;

use crate::catalog::SessionInfo;
use crate::html::Nav;
use crate::model::figures::{Figures, Tokens};
use crate::model::price::Cost;
use manifest::{Entry, Manifest};
use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What to put in the archive and how.
#[derive(Debug, Clone)]
pub struct Options {
    pub dir: PathBuf,
    pub root: PathBuf,
    /// Only sessions active since (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Only projects whose directory holds this (any case).
    pub project: Option<String>,
    pub redact: bool,
    /// The inline script (search, filter by kind, expand all).
    pub script: bool,
    /// Worker threads: 0 = one per core.
    pub threads: usize,
}

/// What a run did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    pub sessions: usize,
    pub rendered: usize,
    pub kept: usize,
    pub removed: usize,
    /// Index and project pages written (their text had changed).
    pub index_pages: usize,
    /// Sessions that could not be read, with why.
    pub failed: Vec<(PathBuf, String)>,
}

/// Whether the archive may be written in `dir`: a folder not there yet,
/// one with nothing in it but hidden entries (a `.git`, a `.DS_Store`:
/// ccv writes no name that starts with a dot but its manifest), or one
/// of ccv's (it holds [`manifest::FILE`]). Any other folder is refused
/// before anything is written: its files are not ccv's, and a page or an
/// index could replace one of the same name (a site's own `index.html`).
fn claim(dir: &Path) -> io::Result<()> {
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(io::Error::other("not a directory: nothing written"));
    }
    let inside = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // (made below; anything else there is said by the making)
        Err(_) => return Ok(()),
    };
    let ours = std::fs::symlink_metadata(dir.join(manifest::FILE)).is_ok_and(|m| m.is_file());
    let hidden = |e: &std::fs::DirEntry| e.file_name().as_encoded_bytes().starts_with(b".");
    if ours || inside.flatten().all(|e| hidden(&e)) {
        return Ok(());
    }
    Err(io::Error::other(format!(
        "holds files that are not an archive of ccv's (it has no {}): nothing written; give a new or empty folder",
        manifest::FILE
    )))
}

/// A project's folder in the archive: its directory's name under the
/// root (or, for an agent that files sessions by date, the directory the
/// session ran in), made safe for a path.
fn slug(info: &SessionInfo, redact: bool) -> String {
    let name = if crate::source::filed_by_project(&info.path) {
        info.path
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "project".into())
    } else {
        info.project.replace(['/', '\\', ':'], "-")
    };
    let name = shown(&name, redact);
    let s = crate::html::nav::id(&name);
    let s = s.trim_matches('_').trim_start_matches('-');
    if s.is_empty() || s == "assets" {
        "project".into()
    } else {
        s.chars().take(120).collect()
    }
}

/// A session's page name: its id when it is one, else a name made of it.
fn page_name(info: &SessionInfo, redact: bool) -> String {
    let id = shown(&info.session_id, redact);
    if crate::model::session::is_session_id(&id) {
        format!("{id}.html")
    } else {
        format!("{}.html", crate::html::nav::id(&id))
    }
}

/// A name as the archive shows it: with its secrets replaced when
/// redacting (a folder named after a working directory that held a
/// token would name the project's folder, its page and its links).
fn shown(name: &str, redact: bool) -> std::borrow::Cow<'_, str> {
    match redact {
        true => crate::redact::active().redact(name),
        false => name.into(),
    }
}

/// A session's key in the manifest: its file's path, or when redacting a
/// hash of it (the manifest is in the folder shared, and a path can hold a
/// token as a project's folder's name).
fn key(path: &Path, redact: bool) -> String {
    let path = path.to_string_lossy();
    if !redact {
        return path.into_owned();
    }
    use sha2::Digest;
    sha2::Sha256::digest(path.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Builds or updates the archive of `opts.root` in `opts.dir`.
pub fn build(opts: &Options) -> io::Result<Report> {
    claim(&opts.dir)?;
    crate::writes::private_dir(&opts.dir)?;
    let (sessions, _) = crate::catalog::list::list_sessions_counting(
        &opts.root,
        &crate::catalog::ScanOptions {
            figures: false,
            ..crate::catalog::ScanOptions::standard()
        },
    );
    let wanted: Vec<SessionInfo> = sessions
        .into_iter()
        .filter(|s| opts.since_ms.is_none_or(|t| s.last_activity_ms >= t))
        .filter(|s| {
            opts.project
                .as_deref()
                .is_none_or(|p| s.project.to_lowercase().contains(&p.to_lowercase()))
        })
        .collect();
    let old = Manifest::load(&opts.dir, opts);
    // two sessions of one project with one id (copies) get pages of their own
    let mut taken: HashSet<String> = HashSet::new();
    let mut plan: Vec<(SessionInfo, String, Option<Entry>)> = Vec::new();
    for s in wanted {
        let dir = slug(&s, opts.redact);
        let name = page_name(&s, opts.redact);
        let mut page = format!("{dir}/{name}");
        let mut n = 2;
        while !taken.insert(page.clone()) {
            page = format!("{dir}/{}-{n}.html", name.trim_end_matches(".html"));
            n += 1;
        }
        let key = key(&s.path, opts.redact);
        let kept = old
            .sessions
            .get(&key)
            .filter(|e| e.size == s.size && e.mtime_ns == s.mtime_ns && e.page == page)
            // the same number of subagents, and the same mark of their
            // folders when it was known (a folder changed in the two
            // seconds before the run has none: its count says)
            .filter(|e| {
                let (n, mark) = e.agents;
                n == s.subagents && mark.is_none_or(|m| Some(m) == s.subagent_files)
            })
            .filter(|e| opts.dir.join(&e.page).is_file())
            .cloned()
            .map(|mut e| {
                e.agents = (s.subagents, s.subagent_files);
                e
            });
        plan.push((s, page, kept));
    }
    let mut report = Report {
        sessions: plan.len(),
        ..Report::default()
    };
    let todo: Vec<usize> = (0..plan.len()).filter(|&i| plan[i].2.is_none()).collect();
    let rendered = render_all(opts, &plan, &todo, &mut report);
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    for (i, (s, _, kept)) in plan.iter().enumerate() {
        let e = match (kept, rendered.get(&i)) {
            (Some(e), _) => {
                report.kept += 1;
                e.clone()
            }
            (None, Some(e)) => e.clone(),
            (None, None) => continue,
        };
        entries.insert(key(&s.path, opts.redact), e);
    }
    report.rendered = rendered.len();
    // pages of sessions gone (or moved): only ours, named in the manifest
    for (key, e) in &old.sessions {
        if entries.get(key).is_none_or(|n| n.page != e.page) && remove_ours(&opts.dir, &e.page) {
            report.removed += 1;
        }
    }
    let mut new = Manifest::new(opts);
    new.sessions = entries;
    report.index_pages = pages::write_indexes(&opts.dir, &new, &old)?;
    new.save(&opts.dir)?;
    Ok(report)
}

/// Removes `page` under `dir` when it is a regular file (never through a
/// link: neither the page nor its project folder may be one); its project
/// folder too when that is left empty.
fn remove_ours(dir: &Path, page: &str) -> bool {
    let path = dir.join(page);
    let folder_linked = path
        .parent()
        .is_some_and(|p| p != dir && crate::writes::is_link(p));
    let ours =
        !folder_linked && std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
    if !ours || std::fs::remove_file(&path).is_err() {
        return false;
    }
    if let Some(parent) = path.parent().filter(|p| *p != dir) {
        let _ = std::fs::remove_dir(parent);
    }
    true
}

/// Renders the sessions `todo` (indices into `plan`) on every core; their
/// entries by index.
fn render_all(
    opts: &Options,
    plan: &[(SessionInfo, String, Option<Entry>)],
    todo: &[usize],
    report: &mut Report,
) -> BTreeMap<usize, Entry> {
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    }
    .clamp(1, todo.len().max(1));
    let next = AtomicUsize::new(0);
    let done = Mutex::new(BTreeMap::new());
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(k) else { break };
                    let (info, page, _) = &plan[i];
                    // a session that breaks its page is named, not the run
                    let r = crate::contain::contain(|| render_one(opts, info, page))
                        .unwrap_or_else(|why| Err(io::Error::other(why)));
                    match r {
                        Ok(e) => {
                            if let Ok(mut d) = done.lock() {
                                d.insert(i, e);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failed.lock() {
                                f.push((info.path.clone(), e.to_string()));
                            }
                        }
                    }
                }
            });
        }
    });
    report.failed = failed.into_inner().unwrap_or_default();
    done.into_inner().unwrap_or_default()
}

/// One session's page, and what the indexes say of it.
fn render_one(opts: &Options, info: &SessionInfo, page: &str) -> io::Result<Entry> {
    let session = crate::source::load_for_export(&info.path, true)?;
    let export = crate::export::Options {
        format: crate::export::Format::Html,
        redact: opts.redact,
        ..crate::export::Options::default()
    };
    let project_name = crate::paths::tilde(&shown(&info.project, opts.redact));
    let nav = Nav {
        up: vec![
            ("../index.html".into(), "All projects".into()),
            ("index.html".into(), project_name),
        ],
        script: opts.script,
    };
    let path = opts.dir.join(page);
    if let Some(parent) = path.parent() {
        crate::writes::own_dir(parent)?;
    }
    crate::writes::write_file(&path, true, |w| {
        crate::html::write_page(&session, &export, export.filters(), &nav, w)
    })?;
    let fig = Figures::of(&session, info.last_activity_ms);
    let title = session
        .title()
        .map(str::to_owned)
        .unwrap_or_else(|| info.title.clone());
    let title = if opts.redact {
        crate::redact::active().redact(&title).into_owned()
    } else {
        title
    };
    let mut entry = Entry::new(info, page, title, &fig);
    entry.project = shown(&entry.project, opts.redact).into_owned();
    Ok(entry)
}

/// Sums of some sessions (a day's, a project's, all).
#[derive(Debug, Default, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sums {
    pub sessions: u32,
    pub prompts: u32,
    pub tool_calls: u32,
    pub tokens: Tokens,
    pub cost: Cost,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.sessions += o.sessions;
        self.prompts += o.prompts;
        self.tool_calls += o.tool_calls;
        self.tokens.add(&o.tokens);
        self.cost.usd += o.cost.usd;
        self.cost.unpriced = self.cost.unpriced.saturating_add(o.cost.unpriced);
    }
}
