//! What holds across sessions, for `ccv stats`: a session resumed into a
//! new file starts with copies of the messages of the one it continues
//! (the same `message.id`s), which are counted once; and subagent files
//! whose session file is gone are counted too, not dropped.

use crate::catalog::SessionInfo;
use crate::model::figures::{Figures, FiguresSum, message_hash};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Takes out of each session's figures the messages an older session
/// already counts. Sessions are grouped by their first priced message
/// (a resumed file starts with the history it continues); only groups
/// of two or more are read again. Each session's own figure elsewhere
/// (`ccv list`, the viewer) keeps them: it is what that file shows.
pub fn count_copies_once(sessions: &mut [SessionInfo]) -> usize {
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, s) in sessions.iter().enumerate() {
        if let Some(h) = s.figures.as_ref().and_then(|f| f.first_message) {
            groups.entry(h).or_default().push(i);
        }
    }
    let mut taken = 0;
    for mut members in groups.into_values().filter(|g| g.len() > 1) {
        // the oldest holds the original messages
        members.sort_by_key(|&i| (sessions[i].last_activity_ms, sessions[i].path.clone()));
        // a copy has the same id and the same usage
        let mut seen: HashSet<u64> = HashSet::new();
        // subagents whose transcript an older member holds: a copy of
        // the call that ran one names it, without its folder
        let mut answered: HashSet<String> = HashSet::new();
        for &i in &members {
            let Ok(session) = crate::source::load_with_subagents(&sessions[i].path) else {
                continue;
            };
            let ids: Vec<u64> = std::iter::once(&session.main)
                .chain(session.agents.iter().map(|a| &a.transcript))
                .flat_map(|t| t.messages.iter())
                .filter_map(|m| Some(message_hash(&m.id, m.usage.as_ref()?)))
                .collect();
            let elsewhere = session
                .agents_not_found()
                .filter(|id| answered.contains(*id));
            let copies = Figures::of_messages(
                &session,
                sessions[i].last_activity_ms,
                &|id, u| seen.contains(&message_hash(id, u)),
                elsewhere,
            );
            if let Some(f) = sessions[i].figures.as_mut()
                && (copies.tokens.total() > 0 || copies.cost.unpriced > 0)
            {
                f.subtract(&copies);
                taken += 1;
            }
            seen.extend(ids);
            let (_, here) = session.agents_named_and_answered();
            answered.extend(here.into_iter().map(str::to_owned));
        }
    }
    taken
}

/// Subagent transcripts whose session file is gone: one row per missing
/// session, with what its agents did (the project from the folder).
pub fn orphan_agents(root: &Path) -> Vec<SessionInfo> {
    let mut by_session: BTreeMap<(PathBuf, String), Vec<PathBuf>> = BTreeMap::new();
    let Some(projects) = crate::catalog::files::project_folders(root) else {
        return Vec::new();
    };
    for dir in projects {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                // <session>/subagents/agent-*.jsonl
                if dir.join(format!("{name}.jsonl")).exists() {
                    continue;
                }
                let sub = e.path().join("subagents");
                let mut files = jsonl_files(&sub);
                files.extend(
                    crate::source::agent_files_under(&sub)
                        .into_iter()
                        .map(|(p, _)| p)
                        .filter(|p| p.parent() != Some(&sub) && p.is_file()),
                );
                if !files.is_empty() {
                    by_session
                        .entry((dir.clone(), name))
                        .or_default()
                        .extend(files);
                }
            } else if name.starts_with("agent-") && name.ends_with(".jsonl") {
                let Some(parent) = crate::source::parent_session_id(&e.path()) else {
                    continue;
                };
                if !dir.join(format!("{parent}.jsonl")).exists() {
                    by_session
                        .entry((dir.clone(), parent))
                        .or_default()
                        .push(e.path());
                }
            }
        }
    }
    by_session
        .into_iter()
        .filter_map(|((dir, id), files)| orphan_row(&dir, &id, &files))
        .collect()
}

fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "jsonl")
                        && std::fs::metadata(p).is_ok_and(|m| m.is_file())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn orphan_row(dir: &Path, id: &str, files: &[PathBuf]) -> Option<SessionInfo> {
    let mut sum = FiguresSum::default();
    let mut last = 0i64;
    let mut size = 0u64;
    let mut cwd = None;
    for f in files {
        let Ok(s) = crate::model::Session::load(f) else {
            continue;
        };
        let fallback = s.meta.last_activity.unwrap_or(0);
        last = last.max(fallback);
        size += std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
        cwd = cwd.or_else(|| s.meta.cwd.clone());
        sum.add(&s, fallback);
    }
    let mut figures = sum.finish();
    // all of it is agents' work
    figures.agent_tokens = figures.tokens;
    figures.agent_cost = figures.cost;
    figures.first_message = None;
    figures.prompts = 0;
    let project = cwd.unwrap_or_else(|| {
        crate::source::project_of_dir(
            &dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        )
    });
    Some(SessionInfo {
        project,
        session_id: id.to_owned(),
        path: dir.join(format!("{id}.jsonl")),
        title: format!(
            "(subagents of a deleted session, {})",
            crate::model::text::counted(files.len() as u64, "file")
        ),
        first_prompt: String::new(),
        last_activity_ms: last,
        message_count: 0,
        message_count_exact: true,
        size,
        model: None,
        git_branch: None,
        subagents: files.len() as u32,
        subagent_files: None,
        mtime_ns: 0,
        live: false,
        unreadable: false,
        figures: Some(Box::new(figures)),
        agent: None,
        spawned: Vec::new(),
    })
}
