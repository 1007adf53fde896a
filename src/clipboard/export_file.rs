//! `e` in the TUI: the transcript, as filtered, to a new markdown file.

use super::files::{slug, timestamp};
use super::scope::{CopyScope, copy_text};
use crate::export::{Format, Options};
use crate::model::session::Session;
use crate::model::text::sanitize;
use crate::walk::Filters;
use std::io;
use std::path::{Path, PathBuf};

/// Where `e` writes: `$XDG_STATE_HOME/ccv/exports` (`~/.local/state/ccv/
/// exports`; the platform's local data directory elsewhere). Never the
/// current directory: that may be a git repository.
pub fn exports_dir() -> Option<PathBuf> {
    Some(crate::paths::state_dir()?.join("exports"))
}

/// Writes the transcript (as `filters` show it) as markdown to a new file
/// (mode 0600; secrets replaced when `redact`, in the name too) named
/// after the session's title or id and the time, in `dir`
/// (default: [`exports_dir`], created 0700) or, if that cannot be written
/// or is where the session's files live, the temp dir. Never opens an
/// existing file.
pub fn export_markdown_file(
    session: &Session,
    filters: Filters,
    dir: Option<&Path>,
    redact: bool,
) -> io::Result<PathBuf> {
    let opts = Options {
        format: Format::Markdown,
        redact,
        ..Options::default()
    };
    let body = copy_text(
        session,
        &CopyScope::Filtered {
            agent: None,
            filters,
        },
        Format::Markdown,
        &opts,
    );
    // the file's name carries no secret the page would not
    let title = session.title().map(|t| {
        let t = sanitize(t).split_whitespace().collect::<Vec<_>>().join(" ");
        if redact {
            crate::redact::set_row(None);
            crate::redact::active().redact(&t).into_owned()
        } else {
            t
        }
    });
    let id = session_id(session);
    let name = match (&title, &id) {
        (Some(t), _) if !slug(t, 40).is_empty() => slug(t, 40),
        (_, Some(id)) => slug(id, 40),
        _ => "session".to_owned(),
    };
    let stem = format!("ccv-{name}-{}", timestamp());
    let mut content = crate::export::title_block(session, redact);
    content.push_str(&body.text);

    let first = match dir {
        Some(d) => Some(d.to_owned()),
        None => exports_dir().filter(|d| crate::writes::private_dir(d).is_ok()),
    };
    let mut last_err = io::Error::other("no directory to write to");
    for d in first.into_iter().chain([std::env::temp_dir()]) {
        if holds_session_files(session, &d) {
            continue;
        }
        match crate::writes::write_unique(&d, &stem, "md", content.as_bytes()) {
            Ok(path) => return Ok(path),
            Err(e) => last_err = e,
        }
    }
    Err(last_err)
}

fn session_id(session: &Session) -> Option<String> {
    if let Some(id) = session.meta.session_ids.first() {
        return Some(id.clone());
    }
    let path = session.sources.first()?.path.as_deref()?;
    Some(path.file_stem()?.to_string_lossy().into_owned())
}

/// `dir` is (or is inside) the directory of one of the session's files.
fn holds_session_files(session: &Session, dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    session
        .sources
        .iter()
        .filter_map(|s| s.path.as_deref()?.parent()?.canonicalize().ok())
        .any(|p| dir.starts_with(p))
}
