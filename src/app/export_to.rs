//! `:export FILE`: the transcript as the viewer's filters show it, to a
//! file the user named. It never writes over a session's own files, and
//! over an existing file only when asked (`:export! FILE`).

use super::state::State;
use crate::export::{Format, Options};
use std::io::{self, Write};
use std::path::Path;

/// Writes the export; returns how many rows it holds.
pub fn write(state: &State, path: &Path, format: Format, overwrite: bool) -> io::Result<usize> {
    let session = &state.session;
    let target = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .canonicalize()?
        .join(
            path.file_name()
                .ok_or_else(|| io::Error::other("not a file name"))?,
        );
    let is_source = session.sources.iter().any(|s| {
        s.path
            .as_deref()
            .and_then(|p| p.canonicalize().ok())
            .is_some_and(|p| p == target)
    });
    if is_source {
        return Err(io::Error::other("that is the session's own file"));
    }
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    if overwrite {
        open.create(true).truncate(true);
    } else {
        open.create_new(true);
    }
    let file = open.open(&target).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => {
            io::Error::other("it exists (:export! FILE writes over it)")
        }
        _ => e,
    })?;
    let opts = Options {
        format,
        no_thinking: !state.filters.thinking,
        no_tools: !state.filters.tools,
        no_subagents: false,
        redact: state.settings.redact.copies(),
    };
    let filters = state.filters;
    let keep = move |i: &crate::model::Item| filters.keeps(i);
    if format == Format::Html {
        let mut out = io::BufWriter::new(file);
        crate::html::write(session, &opts, &keep, &mut out)?;
        out.flush()?;
        let rows = session.main.items.iter().filter(|i| keep(i)).count();
        return Ok(rows);
    }
    let text = crate::clipboard::copy_text(
        session,
        &crate::clipboard::CopyScope::Filtered {
            agent: None,
            keep: &keep,
        },
        format,
        &opts,
    );
    let mut out = io::BufWriter::new(file);
    if format == Format::Markdown {
        out.write_all(crate::export::markdown_title_block(session).as_bytes())?;
    }
    out.write_all(text.text.as_bytes())?;
    out.flush()?;
    Ok(text.rows)
}
