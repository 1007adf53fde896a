//! `ccv top | …`: one snapshot of the overview as a table (or what a
//! script reads), made by the same state and rules as the screen.

use super::{TopEvent, TopState};
use crate::model::text::term_line;
use std::io::Write;

/// `redact`: secrets in titles, projects and what each is doing replaced
/// (`ccv --redact ROOT | …`, as the screen shows them).
pub fn run(root: &std::path::Path, window_ms: i64, redact: bool) -> i32 {
    let now = crate::model::time::now_ms();
    let mut top = TopState::new(root.to_owned(), window_ms, now);
    let found = std::cell::RefCell::new(Vec::new());
    super::watch::scan(&crate::catalog::files::scope(root), &|e| {
        found.borrow_mut().push(e);
        true
    });
    // newest first: the ones past the cap are not read at all
    let mut found = found.into_inner();
    found.sort_by_key(|e| match e {
        TopEvent::Candidate { mtime_ms, .. } => std::cmp::Reverse(*mtime_ms),
        _ => std::cmp::Reverse(i64::MIN),
    });
    for e in found {
        for f in top.apply(e) {
            if let super::Follow::Start(path) = f
                && let Ok(s) = crate::source::load_with_subagents(&path)
            {
                top.set_session(&path, s);
            }
        }
    }
    top.apply(TopEvent::Scanned);
    let _ = top.tick(now);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = writeln!(out, "STATE\tFOR\tTITLE\tPROJECT\tDOING\tTURNS\tCOST\tFILE") {
        return crate::say::printed(Err(e));
    }
    for w in &top.rows {
        let c = w.cost();
        let cost = match (c.priced_usd(), c.unpriced) {
            (None, _) => "?".to_owned(),
            (Some(usd), 0) => format!("{usd:.2}"),
            (Some(usd), _) => format!("{usd:.2}+?"),
        };
        let clean = |t: &str| -> String {
            if redact {
                crate::redact::active().redact(t).into_owned()
            } else {
                t.to_owned()
            }
        };
        let line = format!(
            "{}\t{}s\t{}\t{}\t{}\t{}\t{}\t{}",
            w.activity.name(),
            (now - w.since_ms).max(0) / 1000,
            term_line(&clean(w.session.title().unwrap_or(""))),
            clean(&w.project),
            term_line(&clean(&w.doing())),
            w.turns(),
            cost,
            crate::model::text::term_path(&w.path),
        );
        if let Err(e) = writeln!(out, "{line}") {
            return crate::say::printed(Err(e));
        }
    }
    0
}
