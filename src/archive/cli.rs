//! `ccv export --all DIR [ROOT]` on the command line: what it did, said on
//! stderr; exit 0, 1 when a session could not be made a page or the
//! archive could not be written.

use crate::model::text::counted;
use std::path::PathBuf;

pub struct Args {
    pub dir: PathBuf,
    pub root: PathBuf,
    pub since: Option<String>,
    pub project: Option<String>,
    pub redact: bool,
    pub script: bool,
}

pub fn run(a: &Args) -> i32 {
    use crate::model::text::{term_line, term_path};
    let since_ms = match a.since.as_deref().map(|s| {
        crate::model::time::parse_since(
            s,
            crate::model::time::now_ms(),
            &crate::model::time::local_tz(),
        )
    }) {
        None => None,
        Some(Ok(ms)) => Some(ms),
        Some(Err(e)) => {
            crate::say_err!("ccv: --since: {}", term_line(&e));
            return 1;
        }
    };
    if let Some(why) = crate::paths::not_a_root(&a.root) {
        crate::say_err!("ccv: {}: {why}", term_path(&a.root));
        return 1;
    }
    let started = std::time::Instant::now();
    let opts = super::Options {
        dir: a.dir.clone(),
        root: a.root.clone(),
        since_ms,
        project: a.project.clone(),
        redact: a.redact,
        script: a.script,
        threads: crate::catalog::threads(),
    };
    match super::build(&opts) {
        Ok(r) => {
            for (p, why) in &r.failed {
                crate::say_err!("ccv: {}: {}", term_path(p), term_line(why));
            }
            crate::say_err!(
                "ccv: {}: {}: {}, {} kept, {} removed, {} index page{} written ({:.2} s){}",
                term_path(&a.dir.join("index.html")),
                counted(r.sessions as u64, "session"),
                counted(r.rendered as u64, "page made"),
                r.kept,
                r.removed,
                r.index_pages,
                if r.index_pages == 1 { "" } else { "s" },
                started.elapsed().as_secs_f64(),
                if a.redact { " · secrets redacted" } else { "" }
            );
            i32::from(!r.failed.is_empty())
        }
        Err(e) => {
            crate::say_err!("ccv: {}: {}", term_path(&a.dir), term_line(&e.to_string()));
            1
        }
    }
}
