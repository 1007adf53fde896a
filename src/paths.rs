//! Where things are on this machine: the projects root and the home
//! directory, decided once for the CLI, the picker and the viewer.

use std::path::PathBuf;

/// `$CLAUDE_CONFIG_DIR/projects`, else `$HOME/.claude/projects` (an empty
/// variable counts as unset).
pub fn projects_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("projects"));
    }
    Some(home()?.join(".claude").join("projects"))
}

/// `$CODEX_HOME`, else `~/.codex`: where OpenAI's Codex CLI keeps its
/// sessions.
pub fn codex_home() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CODEX_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    Some(home()?.join(".codex"))
}

/// Codex's session folders: `sessions/` and `archived_sessions/`.
pub fn codex_sessions_roots() -> Vec<PathBuf> {
    codex_home()
        .map(|h| vec![h.join("sessions"), h.join("archived_sessions")])
        .unwrap_or_default()
}

/// `$HOME`, else the account's home directory.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(dirs::home_dir)
}

/// An XDG base directory: `$var` when it is an absolute path (the spec
/// ignores relative ones), else `fallback`.
fn xdg(var: &str, fallback: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(fallback)
}

/// `$XDG_CACHE_HOME/ccv`, else the platform's cache directory: the
/// listing cache and the search index, both rebuilt if deleted.
pub fn cache_dir() -> Option<PathBuf> {
    Some(xdg("XDG_CACHE_HOME", dirs::cache_dir)?.join("ccv"))
}

/// `$XDG_CONFIG_HOME/ccv`, else `~/.config/ccv` (on every platform: where
/// terminal users look).
pub fn config_dir() -> Option<PathBuf> {
    Some(xdg("XDG_CONFIG_HOME", || Some(home()?.join(".config")))?.join("ccv"))
}

/// `$XDG_STATE_HOME/ccv` (`~/.local/state/ccv`), else the platform's local
/// data directory: exports and copies that could not reach a clipboard.
pub fn state_dir() -> Option<PathBuf> {
    Some(
        xdg("XDG_STATE_HOME", || {
            dirs::state_dir().or_else(dirs::data_local_dir)
        })?
        .join("ccv"),
    )
}

/// `~/src/ccv` for paths under the home directory; at a `/` boundary only
/// (`/home/bobby` is not under `/home/bob`).
pub fn tilde(path: &str) -> String {
    tilde_under(path, home().map(|h| h.to_string_lossy().into_owned()))
}

/// [`tilde`] with the home given (its tests use one of their own, not the
/// machine's).
fn tilde_under(path: &str, home: Option<String>) -> String {
    if let Some(home) = home.filter(|h| h.len() > 1)
        && let Some(rest) = path.strip_prefix(home.trim_end_matches('/'))
        && (rest.is_empty() || rest.starts_with('/'))
    {
        return format!("~{rest}");
    }
    path.to_owned()
}

/// `~/x` and `~` as the home directory (what a user types in a config or
/// at `:export`); anything else as it is.
pub fn expand_tilde(path: &str) -> PathBuf {
    match (path.strip_prefix('~'), home()) {
        (Some(""), Some(h)) => h,
        (Some(rest), Some(h)) if rest.starts_with('/') => h.join(rest.trim_start_matches('/')),
        _ => PathBuf::from(path),
    }
}

/// Why `root` cannot be read as a folder of sessions (`None`: it can):
/// a path that is not there is said so, not called "not a directory".
pub fn not_a_root(root: &std::path::Path) -> Option<String> {
    match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => None,
        Ok(_) => Some("not a directory".to_owned()),
        Err(e) => Some(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tilde_only_at_a_path_boundary() {
        // a home of the test's own: the machine's is neither read nor used
        for home in ["/home/bob", "/home/bob/"] {
            let tilde = |p: &str| super::tilde_under(p, Some(home.to_owned()));
            assert_eq!(tilde("/home/bob/src/ccv"), "~/src/ccv");
            assert_eq!(tilde("/home/bob"), "~");
            assert_eq!(tilde("/home/bobby/x"), "/home/bobby/x");
            assert_eq!(tilde("/srv/x"), "/srv/x");
        }
        // no home, or `/` as the home: nothing is shortened
        assert_eq!(super::tilde_under("/home/bob/x", None), "/home/bob/x");
        assert_eq!(super::tilde_under("/x", Some("/".into())), "/x");
    }
}
