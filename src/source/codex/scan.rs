//! A Codex session's headline for the catalogue. Codex files are read
//! whole (they are small next to Claude's: the corpus' largest is 2 MB),
//! through the same translation the viewer reads them by, so the list and
//! the viewer agree on the title, the prompts and the directory.

use crate::model::headline::Headline;
use crate::model::item::Kind;
use crate::model::session::Session;
use std::io;
use std::path::Path;

pub fn headline(path: &Path) -> io::Result<Headline> {
    let s = crate::source::claude::loader::load_with_subagents(path)?;
    let mut h = of_session(&s);
    // the file is read whole already: its figures too (dated by the file's
    // time where a line has none, as the catalogue's own pass does)
    let fallback = h.last_activity_ms.unwrap_or_else(|| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as i64)
    });
    h.figures = Some(crate::model::figures::Figures::of(&s, fallback));
    h.subagents = Some(s.agents.len() as u32);
    h.spawned = s
        .sources
        .iter()
        .skip(1)
        .filter_map(|src| super::files::id_of(src.path.as_deref()?))
        .collect();
    Ok(h)
}

pub fn of_session(s: &Session) -> Headline {
    let prompts = s.main.items.iter().filter(|i| i.kind == Kind::User).count() as u64;
    let first = s
        .main
        .items
        .iter()
        .find(|i| i.kind == Kind::User)
        .map(|i| s.item_text(i).trim().to_owned())
        .unwrap_or_default();
    // whole words: a key cut short would be one no rule knows
    let first_line = crate::model::title::words_upto(
        first.lines().find(|l| !l.trim().is_empty()).unwrap_or(""),
        200,
    );
    Headline {
        cwd: s.meta.cwd.clone(),
        session_id: s.meta.session_ids.first().cloned(),
        title: s
            .title()
            .map(str::to_owned)
            .unwrap_or_else(|| first_line.clone()),
        first_prompt: first_line,
        last_activity_ms: s.meta.last_activity,
        message_count: prompts.max(u64::from(!s.main.items.is_empty()))
            + s.main.messages.len() as u64,
        exact: true,
        model: s.meta.model.clone(),
        git_branch: s.meta.git_branch.clone(),
        unreadable: s.stats.unreadable > 0,
        agent: Some(super::FORMAT),
        figures: None,
        spawned: Vec::new(),
        subagents: None,
    }
}
