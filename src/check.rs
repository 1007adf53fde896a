//! `ccv check PATH`: prints the model's findings as `PATH:LINE: message`
//! (or JSON lines) and turns them into an exit code.

use crate::model::check::Finding;
use crate::model::session::Session;
use crate::model::text::sanitize;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A file written to within this long may still have calls running.
const LIVE_WINDOW: Duration = Duration::from_secs(60);

/// Exit code: 0 clean, 1 findings, 2 I/O error.
pub fn run(path: &Path, json: bool, no_subagents: bool) -> i32 {
    let loaded = if no_subagents {
        Session::load(path)
    } else {
        crate::source::load_with_subagents(path)
    };
    let session = match loaded {
        Ok(s) => s,
        Err(e) => {
            crate::say_err!(
                "ccv: {}: {}",
                crate::model::text::term_path(path),
                crate::model::text::term_line(&e.to_string())
            );
            return 2;
        }
    };
    let findings = session.findings(recently_modified(path));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = write_findings(&session, &findings, json, &mut out).and_then(|_| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            crate::say_err!("ccv: {}", crate::model::text::term_line(&e.to_string()));
            return 2;
        }
    }
    // a person at a terminal hears of a clean file too, and of where every
    // line went; a script reads the exit status and the findings
    if !json && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        crate::say_err!(
            "ccv: {}: {}",
            crate::model::text::term_path(path),
            summary(&session, findings.len())
        );
    }
    if findings.is_empty() { 0 } else { 1 }
}

/// `no findings · 1,161 lines read: 832 shown, 329 hidden (295 progress,
/// 30 file-history-snapshot, 4 queue-operation), 0 unreadable`.
pub fn summary(session: &Session, findings: usize) -> String {
    use crate::model::text::thousands;
    let st = &session.stats;
    let found = match findings {
        0 => "no findings".to_owned(),
        1 => "1 finding".to_owned(),
        n => format!("{} findings", thousands(n as u64)),
    };
    let why: Vec<String> = st
        .hidden_most_first()
        .into_iter()
        .map(|(reason, n)| format!("{} {reason}", thousands(n)))
        .collect();
    let hidden = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    let repaired = if st.recovered > 0 {
        format!(", {} repaired", thousands(st.recovered))
    } else {
        String::new()
    };
    format!(
        "{found} · {} lines read: {} shown, {} hidden{hidden}, {} unreadable{repaired}",
        thousands(st.entries),
        thousands(st.shown),
        thousands(st.hidden),
        thousands(st.unreadable)
    )
}

fn recently_modified(path: &Path) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age < LIVE_WINDOW)
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    file: String,
    line: u32,
    kind: &'static str,
    message: &'a str,
}

pub fn write_findings(
    session: &Session,
    findings: &[Finding],
    json: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for f in findings {
        let file = session
            .sources
            .get(f.source as usize)
            .and_then(|s| s.path.as_deref())
            .map_or_else(|| "-".to_owned(), |p| p.display().to_string());
        if json {
            let j = JsonFinding {
                file,
                line: f.line,
                kind: f.kind.as_str(),
                message: &f.message,
            };
            crate::json_out::to_writer(&mut *out, &j)?;
            out.write_all(b"\n")?;
        } else {
            writeln!(
                out,
                "{}:{}: {}",
                sanitize(&file),
                f.line,
                sanitize(&f.message)
            )?;
        }
    }
    Ok(())
}
