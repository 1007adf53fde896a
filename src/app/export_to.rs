//! `:export FILE`: the transcript as the viewer's filters show it, to a
//! file the user named. It never writes over a session's own files, and
//! over an existing file only when asked (`:export! FILE`).

use super::state::State;
use crate::export::{Format, Options};
use std::io::{self, Write};
use std::path::Path;

/// Writes the export; returns how many rows it holds. The file is new
/// (0600), or replaces the one there when `overwrite`; never a session
/// file, under any name (see [`crate::writes`]).
pub fn write(state: &State, path: &Path, format: Format, overwrite: bool) -> io::Result<usize> {
    let session = &state.session;
    crate::writes::protect_all(session.sources.iter().filter_map(|s| s.path.as_deref()));
    let exists = || io::Error::other("it exists (:export! FILE writes over it)");
    if !overwrite && std::fs::symlink_metadata(path).is_ok() {
        return Err(exists());
    }
    let mut rows = 0;
    crate::writes::write_file(path, overwrite, |out| {
        rows = write_to(state, format, out)?;
        Ok(())
    })
    .map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => exists(),
        _ => e,
    })?;
    Ok(rows)
}

fn write_to(state: &State, format: Format, out: &mut dyn Write) -> io::Result<usize> {
    let session = &state.session;
    let opts = Options {
        format,
        no_thinking: !state.filters.thinking,
        no_tools: !state.filters.tools,
        no_subagents: false,
        redact: state.settings.redact.copies(),
    };
    let filters = state.filters;
    if format == Format::Html {
        crate::html::write(session, &opts, filters, &mut *out)?;
        // counted as the other formats count theirs: rows of the one walk
        let mut rows = 0;
        let mut count = |_: crate::export::Row<'_>, _: Option<&str>| rows += 1;
        crate::walk::Walk::new(session, filters)
            .session(&mut crate::export::Flat::new(session, &mut count));
        return Ok(rows);
    }
    let text = crate::clipboard::copy_text(
        session,
        &crate::clipboard::CopyScope::Filtered {
            agent: None,
            filters,
        },
        format,
        &opts,
    );
    if format == Format::Markdown {
        out.write_all(crate::export::title_block(session, opts.redact).as_bytes())?;
    }
    out.write_all(text.text.as_bytes())?;
    Ok(text.rows)
}
