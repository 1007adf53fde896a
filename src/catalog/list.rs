//! Finding every session under a projects root, with the cache and the
//! worker threads. `list_sessions` blocks; `spawn_scan` streams rows to the
//! picker over a channel as they are read.

use super::cache::Cache;
use super::candidates::{Candidate, find_candidates};
use super::scan::{SessionInfo, scan_file};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::UNIX_EPOCH;

#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// Cache file; `None` disables the cache.
    pub cache: Option<PathBuf>,
    /// Worker threads; 0 = one per core (at most 8).
    pub threads: usize,
    /// Also read each session whole for its tokens and cost (cached like
    /// the rest; only new or changed files are read).
    pub figures: bool,
}

impl ScanOptions {
    /// The default cache file (`$XDG_CACHE_HOME/ccv/sessions-v6.bin`,
    /// else the platform cache dir) and one thread per core.
    pub fn standard() -> ScanOptions {
        ScanOptions {
            cache: super::cache::default_cache_file(),
            threads: 0,
            figures: true,
        }
    }
}

/// What the background scan sends to the picker.
#[derive(Debug)]
pub enum ScanEvent {
    /// More sessions (cached ones arrive first, in one batch).
    Sessions(Vec<SessionInfo>),
    /// The scan is over; `errors` files could not be read, `skipped`
    /// entries are not sessions that can be read (FIFOs, devices...).
    Done { errors: usize, skipped: Skipped },
    /// Every session's figures are in (they come as `Sessions` again).
    FiguresDone,
}

/// Entries of the tree that look like sessions (or project directories)
/// but cannot be read as one, counted by why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skipped(pub std::collections::BTreeMap<&'static str, usize>);

impl Skipped {
    pub(super) fn add(&mut self, why: &'static str) {
        *self.0.entry(why).or_default() += 1;
    }

    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    /// `2 FIFOs, 1 unreadable directory`.
    pub fn describe(&self) -> String {
        self.0
            .iter()
            .map(|(why, n)| format!("{n} × {why}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A file's mtime in nanoseconds (0 when unknown): half of every cache key.
pub fn mtime_ns(meta: &fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

/// Whether a folder last changed at `mtime_ns` can be trusted to show a
/// later change by another mtime: it changed more than two seconds ago
/// (a clock of coarse steps, or one change in the same tick as a count,
/// would give a changed folder the mtime of the count's).
pub(super) fn settled(mtime_ns: i64) -> bool {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    mtime_ns != 0 && mtime_ns < now.saturating_sub(2_000_000_000)
}

fn scan_candidate(c: &Candidate) -> Option<SessionInfo> {
    let mut info = scan_file(&c.path, c.size, c.mtime_ns, &c.fallback_project).ok()?;
    count_subagents(&mut info, c);
    Some(info)
}

/// [`scan_candidate`] with its figures when the file is read whole for
/// them (see [`with_figures`]): one job, one read of a big file whose ends
/// do not name it (the headline's read of its middle was a third of the
/// bytes a cold listing read).
fn scan_candidate_with_figures(c: &Candidate) -> Option<SessionInfo> {
    if c.size > WHOLE {
        return scan_candidate(c);
    }
    let mut info =
        super::scan::scan_file_with_figures(&c.path, c.size, c.mtime_ns, &c.fallback_project)
            .ok()?;
    count_subagents(&mut info, c);
    Some(info)
}

/// A session's sub-agents: the files beside it (Claude Code's layout:
/// its `subagents/` folder counted again when it changed); a file filed
/// by date counts its own.
fn count_subagents(info: &mut SessionInfo, c: &Candidate) {
    if crate::source::filed_by_project(&c.path) {
        let (in_dir, keep) = match &c.agents_dir {
            Some((dir, ns)) => super::candidates::agents_in(dir, *ns, info.subagent_files),
            None => (0, None),
        };
        info.subagent_files = keep;
        info.subagents = c.subagents + in_dir;
    }
}

/// Takes out the rows of sub-agents whose session is listed (they are
/// read with it, and counted in its figures); a sub-agent whose session
/// is gone stays a row of its own.
pub fn fold_spawned(rows: &mut Vec<SessionInfo>) {
    let read_with: std::collections::HashSet<String> = rows
        .iter()
        .flat_map(|r| r.spawned.iter().cloned())
        .collect();
    if !read_with.is_empty() {
        rows.retain(|r| !read_with.contains(&r.session_id));
    }
}

/// Splits candidates into cache hits (returned, taken out of the cache:
/// whoever saves it puts back what it keeps) and files to read.
fn split_cached(cands: Vec<Candidate>, cache: &mut Cache) -> (Vec<SessionInfo>, Vec<Candidate>) {
    let mut hits = Vec::with_capacity(cands.len());
    let mut misses = Vec::new();
    for c in cands {
        match cache.take(&c.path, c.size, c.mtime_ns) {
            Some(mut info) => {
                let before = (info.subagents, info.subagent_files);
                count_subagents(&mut info, &c);
                // its subagents' folder changed (a transcript came or went,
                // the session file as it was): its figures, which count
                // them, are read again
                if (info.subagents, info.subagent_files) == before {
                    hits.push(info);
                } else {
                    misses.push(c);
                }
            }
            None => misses.push(c),
        }
    }
    (hits, misses)
}

fn thread_count(opts: &ScanOptions, jobs: usize) -> usize {
    let n = if opts.threads == 0 {
        super::threads()
    } else {
        opts.threads
    };
    n.clamp(1, jobs.max(1))
}

/// Runs `work` over `jobs` on worker threads, calling `sink` with each
/// result. Returns how many jobs gave none. A job that panics gives none:
/// one file ccv fails to read costs its row, not the listing (nor the
/// picker's scan).
pub(super) fn parallel<T: Sync, R>(
    jobs: &[T],
    threads: usize,
    work: impl Fn(&T) -> Option<R> + Sync,
    sink: &(dyn Fn(R) + Sync),
) -> usize {
    let next = AtomicUsize::new(0);
    let errors = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    match crate::contain::contain(|| work(job)).ok().flatten() {
                        Some(r) => sink(r),
                        None => {
                            errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    errors.into_inner()
}

/// Reads `misses` on worker threads, calling `sink` with each session read.
/// Returns how many could not be read.
fn scan_parallel(
    misses: &[Candidate],
    threads: usize,
    sink: &(dyn Fn(SessionInfo) + Sync),
) -> usize {
    parallel(misses, threads, scan_candidate, sink)
}

/// The session read whole (with its subagents) for its figures. A file
/// that cannot be read keeps none.
pub fn with_figures(mut info: SessionInfo) -> SessionInfo {
    info.figures = if info.size <= WHOLE {
        crate::source::load_for_figures(&info.path).ok().map(|s| {
            Box::new(crate::model::figures::Figures::of(
                &s,
                info.last_activity_ms,
            ))
        })
    } else {
        figures_in_parts(&info.path, info.last_activity_ms, PART)
            .ok()
            .map(Box::new)
    };
    info
}

/// The project a session file's folder names (`-home-bob-app`), for a
/// session whose lines record no directory; none for a file not filed
/// by project (Codex's, one elsewhere).
fn project_of_folder(path: &Path) -> String {
    if !crate::source::filed_by_project(path) {
        return String::new();
    }
    path.parent()
        .and_then(|d| d.file_name())
        .map(|n| crate::source::project_of_dir(&n.to_string_lossy()))
        .unwrap_or_default()
}

/// The row of one session file with its figures (`ccv stats FILE`),
/// read now: no cache is read or written. Regular files only (a FIFO
/// would block the read).
pub fn row_with_figures(path: &Path) -> Result<SessionInfo, String> {
    let m = fs::metadata(path).map_err(|e| e.to_string())?;
    if !m.is_file() {
        return Err("not a session file".to_owned());
    }
    let mut row = scan_file(path, m.len(), mtime_ns(&m), &project_of_folder(path))
        .map_err(|e| e.to_string())?;
    // its subagents, as its folder's listing counts them (a file not filed
    // by project has none there: its folder is not read)
    if crate::source::filed_by_project(path)
        && let Some(c) = super::candidates::candidate_of(path)
    {
        count_subagents(&mut row, &c);
    }
    let row = if row.figures.is_some() {
        row
    } else {
        with_figures(row)
    };
    if !row.has_conversation() {
        return Err(if row.size == 0 {
            "an empty file".to_owned()
        } else {
            "no conversation in this file (as in ccv list, which leaves it out)".to_owned()
        });
    }
    if row.figures.is_none() {
        return Err("could not be read whole for its figures".to_owned());
    }
    Ok(row)
}

/// Sessions up to this size are read as one model for their figures;
/// bigger ones in parts, so that pricing a 1 GB session in the background
/// holds a part of it, not all of it.
const WHOLE: u64 = 128 << 20;
const PART: usize = 8 << 20;

/// The figures of a session read in parts of `part` bytes (whole lines),
/// with its subagents' files, as a whole read makes them.
pub fn figures_in_parts(
    path: &Path,
    fallback_ms: i64,
    part: usize,
) -> std::io::Result<crate::model::figures::Figures> {
    use crate::model::Session;
    use crate::model::session::MAIN;
    let mut sum = crate::model::figures::FiguresSum::of_parts();
    let size = fs::metadata(path)?.len();
    // the subagents' own files first, as a whole read reads them: the
    // main file's copies of their lines (`agent_progress`) are then left
    // out, in every part (counted too, they counted each call twice)
    let mut agents = Session::new(None);
    for (p, id) in crate::source::subagent_files(path) {
        let src = agents.add_agent_source(p.clone(), &id);
        if let Ok(mut f) = crate::model::session::open_regular(&p) {
            crate::source::feed_for_figures(&mut agents, src, &mut f)?;
        }
    }
    let mut recorded: rustc_hash::FxHashSet<Box<str>> = agents
        .agents
        .iter()
        .filter(|a| a.has_record)
        .map(|a| a.id.as_str().into())
        .collect();
    // counted now, and not held beside the parts (thousands of subagents
    // held while a big file was read were a third more memory)
    sum.add(&agents, fallback_ms);
    drop(agents);
    let mut parts = crate::catalog::pieces::Pieces::open(path, 0, 1, size, part, true)?;
    let mut ids = Vec::new();
    // the calls of subagents read so far: a result names its subagent
    // only when its call was read (see `Session::agents_not_found`), and
    // a subagent runs for minutes, its call and result often parts apart
    let mut calls = Default::default();
    // and whether the file is an agent's own, which its first line says
    // (a part that opens on an agent's line in the main file took the
    // file for that agent's, and its lines for the main conversation's)
    let mut lone = None;
    // and a file in another format goes on being translated as it began
    // (a Codex session's token counts run on from line to line, its model
    // is named once a turn)
    let mut format = (false, None);
    while let Some(p) = parts.next_piece()? {
        let mut s = Session::new(Some(path.to_owned()));
        s.agent_call_ids = calls;
        s.lone_agent = lone;
        if let Some(src) = s.sources.get_mut(MAIN as usize) {
            (src.sniffed, src.translator) = format;
        }
        // (made as each is met: thousands made for every part were a
        // third more memory)
        s.recorded_apart = std::mem::take(&mut recorded);
        crate::source::feed_for_figures(&mut s, MAIN, &mut &*p.bytes)?;
        sum.add(&s, fallback_ms);
        calls = std::mem::take(&mut s.agent_call_ids);
        recorded = std::mem::take(&mut s.recorded_apart);
        lone = s.lone_agent.take();
        format = s
            .sources
            .get_mut(MAIN as usize)
            .map_or((false, None), |src| (src.sniffed, src.translator.take()));
        for id in &s.meta.session_ids {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
    }
    // and the agents' files of the project that name this session
    let mut agents = Session::new(None);
    for (p, id) in crate::source::project_agent_files(path, &ids) {
        let src = agents.add_agent_source(p.clone(), &id);
        if let Ok(mut f) = crate::model::session::open_regular(&p) {
            crate::source::feed_for_figures(&mut agents, src, &mut f)?;
        }
    }
    sum.add(&agents, fallback_ms);
    Ok(sum.finish())
}

/// Fills the figures of the rows that have none, on worker threads.
fn figures_parallel(rows: &mut [SessionInfo], threads: usize) {
    let todo: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].figures.is_none())
        .collect();
    let done = Mutex::new(Vec::with_capacity(todo.len()));
    let sink = |r: (usize, SessionInfo)| {
        if let Ok(mut v) = done.lock() {
            v.push(r);
        }
    };
    let threads = threads.clamp(1, todo.len().max(1));
    parallel(
        &todo,
        threads,
        |&i| Some((i, with_figures(rows[i].clone()))),
        &sink,
    );
    for (i, r) in done.into_inner().unwrap_or_default() {
        rows[i] = r;
    }
}

/// The orders the picker offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortBy {
    #[default]
    Newest,
    /// Dearest first; sessions not yet priced go last.
    Cost,
    Size,
}

impl SortBy {
    pub fn next(self) -> SortBy {
        match self {
            SortBy::Newest => SortBy::Cost,
            SortBy::Cost => SortBy::Size,
            SortBy::Size => SortBy::Newest,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SortBy::Newest => "newest",
            SortBy::Cost => "cost",
            SortBy::Size => "size",
        }
    }

    /// Sorts `v`; ties go to the newer session, then by path.
    pub fn apply(self, v: &mut [SessionInfo]) {
        sort_newest_first(v);
        match self {
            SortBy::Newest => {}
            SortBy::Cost => v.sort_by(|a, b| {
                let usd = |s: &SessionInfo| s.figures.as_ref().map_or(-1.0, |f| f.cost.usd);
                usd(b).total_cmp(&usd(a))
            }),
            SortBy::Size => v.sort_by_key(|s| std::cmp::Reverse(s.size)),
        }
    }
}

/// Newest first; ties by path so the order is stable (two rows of one
/// path are one file's: which goes first does not show). Sorted in place:
/// a stable sort's buffer of half the rows was fresh pages for nothing.
pub fn sort_newest_first(v: &mut [SessionInfo]) {
    v.sort_unstable_by(|a, b| {
        b.last_activity_ms
            .cmp(&a.last_activity_ms)
            .then_with(|| a.path.cmp(&b.path))
    });
}

/// Lists every session under `root`, newest first, using and refreshing
/// the cache.
pub fn list_sessions(root: &Path, opts: &ScanOptions) -> Vec<SessionInfo> {
    list_sessions_counting(root, opts).0
}

/// [`list_sessions`], and what was skipped.
pub fn list_sessions_counting(root: &Path, opts: &ScanOptions) -> (Vec<SessionInfo>, Skipped) {
    let scope = super::files::scope(root);
    // the folders are walked while the cache is read: one waits on the
    // file system, the other parses
    let (mut cache, (cands, skipped)) = std::thread::scope(|s| {
        let found = s.spawn(|| find_candidates(&scope));
        let cache = opts.cache.as_deref().map(Cache::load).unwrap_or_default();
        let found = found.join().unwrap_or_else(|_| find_candidates(&scope));
        (cache, found)
    });
    // rows of files gone since are worth dropping: counted before the
    // hits are taken out
    let cached = cache.count_in(&scope);
    let (mut all, mut misses) = split_cached(cands, &mut cache);
    // the biggest files first: one read last would keep a core busy while
    // the others wait (a 59 MB session takes a tenth of a second)
    misses.sort_by_key(|c| std::cmp::Reverse(c.size));
    let fresh = Mutex::new(Vec::with_capacity(misses.len()));
    let sink = |info: SessionInfo| {
        if let Ok(mut v) = fresh.lock() {
            v.push(info);
        }
    };
    // a listing that prices every session reads each new file once for
    // both (the picker shows rows first and prices them after)
    let job = if opts.figures {
        scan_candidate_with_figures
    } else {
        scan_candidate
    };
    parallel(&misses, thread_count(opts, misses.len()), job, &sink);
    let fresh = fresh.into_inner().unwrap_or_default();
    let mut changed = !fresh.is_empty() || cached != all.len();
    all.extend(fresh);
    if opts.figures {
        let missing = all.iter().filter(|s| s.figures.is_none()).count();
        changed |= missing > 0;
        figures_parallel(&mut all, thread_count(opts, missing));
    }
    if let Some(file) = opts.cache.as_deref()
        && changed
    {
        let _ = cache.save_replacing(file, &scope, &all);
    }
    let now = crate::model::time::now_ms();
    for s in &mut all {
        s.refresh_live(now);
    }
    let mut skipped = skipped;
    all.retain(|s| {
        let keep = s.has_conversation();
        if !keep {
            skipped.add(NO_CONVERSATION);
        }
        keep
    });
    fold_spawned(&mut all);
    sort_newest_first(&mut all);
    (all, skipped)
}

/// The rows of these session files only (a search's hits): from the
/// cache where a file has not changed, else read; the cache is not
/// written. A file that cannot be read has no row.
pub fn rows_of(paths: &[PathBuf], opts: &ScanOptions) -> Vec<SessionInfo> {
    let mut cache = opts
        .cache
        .as_deref()
        .map(|f| Cache::load_only(f, paths))
        .unwrap_or_default();
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        // regular files only (a FIFO would block the read)
        let Some(m) = fs::metadata(p).ok().filter(fs::Metadata::is_file) else {
            continue;
        };
        let (size, mtime) = (m.len(), mtime_ns(&m));
        if let Some(row) = cache.take(p, size, mtime) {
            out.push(row);
            continue;
        }
        if let Ok(row) = scan_file(p, size, mtime, &project_of_folder(p)) {
            out.push(row);
        }
    }
    out
}

/// A listed session's words with their secrets replaced: its title, first
/// prompt, project and branch (what a session's text can put there), and
/// its file's path and id (a folder named after a working directory).
/// The row is then one to print: its path may no longer be the file's.
pub(crate) fn redact_row(s: &mut SessionInfo) {
    if let Some(p) = crate::redact::path(&s.path) {
        s.path = p;
    }
    let r = crate::redact::active();
    let clean = |t: &mut String| {
        if let std::borrow::Cow::Owned(red) = r.redact(t) {
            *t = red;
        }
    };
    clean(&mut s.title);
    clean(&mut s.first_prompt);
    clean(&mut s.project);
    clean(&mut s.session_id);
    if let Some(b) = s.git_branch.as_mut() {
        clean(b);
    }
}

/// Why a file is not a session although it is where sessions are: the
/// rule `ccv list`, `ccv stats`, the picker and `ccv top` share.
pub const NO_CONVERSATION: &str = "file with no conversation (summary or snapshot lines only)";

/// Lists `root` on a background thread. Cached rows arrive first in one
/// batch, then each file as it is read, then `Done`. Dropping the receiver
/// stops nothing already running but is harmless.
pub fn spawn_scan(root: PathBuf, opts: ScanOptions) -> mpsc::Receiver<ScanEvent> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut cache = opts.cache.as_deref().map(Cache::load).unwrap_or_default();
        let scope = super::files::scope(&root);
        let (cands, skipped) = find_candidates(&scope);
        let cached = cache.count_in(&scope);
        let (mut hits, misses) = split_cached(cands, &mut cache);
        let now = crate::model::time::now_ms();
        for s in &mut hits {
            s.refresh_live(now);
        }
        let shown = hits.iter().filter(|s| s.has_conversation()).cloned();
        let _ = tx.send(ScanEvent::Sessions(shown.collect()));
        let fresh = Mutex::new(Vec::new());
        let tx_workers = Mutex::new(tx.clone());
        let sink = |mut info: SessionInfo| {
            info.refresh_live(now);
            // kept in the cache, not shown
            if info.has_conversation()
                && let Ok(tx) = tx_workers.lock()
            {
                let _ = tx.send(ScanEvent::Sessions(vec![info.clone()]));
            }
            if let Ok(mut v) = fresh.lock() {
                v.push(info);
            }
        };
        let errors = scan_parallel(&misses, thread_count(&opts, misses.len()), &sink);
        let fresh = fresh.into_inner().unwrap_or_default();
        if let Some(file) = opts.cache.as_deref()
            && (!fresh.is_empty() || cached != hits.len())
        {
            cache.replace_root(&scope, hits.iter().chain(&fresh));
            let _ = cache.save(file);
        }
        let _ = tx.send(ScanEvent::Done { errors, skipped });
        if opts.figures {
            // figures for the sessions shown; the other files stay cached
            let (mut rows, quiet): (Vec<SessionInfo>, Vec<SessionInfo>) = hits
                .into_iter()
                .chain(fresh)
                .partition(SessionInfo::has_conversation);
            send_figures(&mut rows, &opts, &tx);
            if let Some(file) = opts.cache.as_deref() {
                cache.replace_root(&scope, rows.iter().chain(&quiet));
                let _ = cache.save(file);
            }
        }
        let _ = tx.send(ScanEvent::FiguresDone);
    });
    rx
}

/// The figures pass of the background scan: the newest sessions first
/// (the ones on screen), sent in batches so the picker re-sorts rarely.
fn send_figures(rows: &mut [SessionInfo], opts: &ScanOptions, tx: &mpsc::Sender<ScanEvent>) {
    sort_newest_first(rows);
    let todo: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].figures.is_none())
        .collect();
    if todo.is_empty() {
        return;
    }
    let batch = Mutex::new((Vec::new(), std::time::Instant::now()));
    let done = Mutex::new(Vec::with_capacity(todo.len()));
    let sink = |(i, info): (usize, SessionInfo)| {
        if let Ok(mut b) = batch.lock() {
            b.0.push(info.clone());
            if b.1.elapsed() >= std::time::Duration::from_millis(100) {
                let _ = tx.send(ScanEvent::Sessions(std::mem::take(&mut b.0)));
                b.1 = std::time::Instant::now();
            }
        }
        if let Ok(mut v) = done.lock() {
            v.push((i, info));
        }
    };
    let now = crate::model::time::now_ms();
    // a core is left for the screen and for opening a session meanwhile
    let threads = thread_count(opts, todo.len()).saturating_sub(1).max(1);
    parallel(
        &todo,
        threads,
        |&i| {
            let mut info = with_figures(rows[i].clone());
            info.refresh_live(now);
            Some((i, info))
        },
        &sink,
    );
    if let Ok((rest, _)) = batch.into_inner()
        && !rest.is_empty()
    {
        let _ = tx.send(ScanEvent::Sessions(rest));
    }
    for (i, r) in done.into_inner().unwrap_or_default() {
        rows[i] = r;
    }
}

/// `ccv list`: the table or JSON Lines for `root` on `out`; `agent`: only
/// the sessions of that agent (`claude`, `codex`).
pub fn print_list(
    root: &Path,
    json: bool,
    agent: Option<&str>,
    redact: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let (mut sessions, skipped) = if root.is_file() {
        // one session file: its own row, read now, as `ccv stats FILE` reads it
        let row = row_with_figures(root)
            .map_err(|why| std::io::Error::new(std::io::ErrorKind::InvalidData, why))?;
        (vec![row], Skipped::default())
    } else {
        if let Some(why) = crate::paths::not_a_root(root) {
            return Err(std::io::Error::new(std::io::ErrorKind::NotFound, why));
        }
        list_sessions_counting(root, &ScanOptions::standard())
    };
    if let Some(a) = agent {
        sessions.retain(|s| s.agent() == a);
    }
    if redact {
        sessions.iter_mut().for_each(redact_row);
    }
    if skipped.total() > 0 {
        crate::say_err!(
            "ccv: {}: skipped {} entr{} that cannot be read as sessions: {}",
            crate::model::text::sanitize(&root.display().to_string()),
            skipped.total(),
            if skipped.total() == 1 { "y" } else { "ies" },
            skipped.describe()
        );
    }
    if sessions.is_empty() {
        crate::say_err!(
            "ccv: no sessions in {} (CLAUDE_CONFIG_DIR or a ROOT argument looks elsewhere)",
            crate::model::text::term_path(root)
        );
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
    if json {
        super::json_rows::write_json_lines(&mut w, &sessions)?;
    } else {
        match crate::columns::terminal_width() {
            Some(width) => {
                super::format::write_table(&mut w, &sessions, crate::model::time::now_ms(), width)?
            }
            None => super::format::write_tsv(&mut w, &sessions)?,
        }
    }
    // the command ends here: its rows go with the process, not freed one
    // by one (10,000 of them took longer than writing them out)
    std::mem::forget(sessions);
    w.flush()
}

#[cfg(test)]
mod tests {
    /// A job that panics is a job that gave nothing; the others go on.
    #[test]
    fn a_panicking_job_costs_its_own_result() {
        let jobs: Vec<u32> = (0..50).collect();
        for threads in [1, 2, 4] {
            let got = std::sync::Mutex::new(Vec::new());
            let sink = |r: u32| got.lock().expect("lock").push(r);
            let failed = super::parallel(
                &jobs,
                threads,
                |&j| {
                    assert!(j % 10 != 3, "job {j} fails");
                    Some(j)
                },
                &sink,
            );
            assert_eq!(failed, 5);
            let mut got = got.into_inner().expect("lock");
            got.sort_unstable();
            assert_eq!(
                got,
                jobs.iter()
                    .copied()
                    .filter(|j| j % 10 != 3)
                    .collect::<Vec<_>>()
            );
        }
    }
}
