//! `R`: leaving ccv for the session's own program (`claude --resume ID`,
//! as `crate::source::resume_command` says), in the session's directory.

use std::path::{Path, PathBuf};

/// A program on `PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    find_program_in(name, &std::env::var_os("PATH")?)
}

/// `name` in the directories of `path` (a PATH value).
fn find_program_in(name: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Replaces ccv with the program that resumes session `id` (found at
/// `program`), in `cwd` (the session's directory, which the caller made
/// sure exists) or the current one.
pub fn resume_in_claude(
    program: &Path,
    id: &str,
    cwd: Option<&str>,
    format: Option<&str>,
) -> anyhow::Result<()> {
    let Some((_, args)) = crate::source::resume_command(id, format) else {
        anyhow::bail!("not a session id its program can resume");
    };
    let mut cmd = std::process::Command::new(program);
    cmd.args(args);
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = cmd.exec();
        Err(anyhow::anyhow!("running {}: {e}", program.display()))
    }
    #[cfg(not(unix))]
    {
        let status = cmd.status()?;
        anyhow::ensure!(
            status.success(),
            "{} exited with {status}",
            program.display()
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::is_resumable_id;

    #[test]
    fn only_a_uuid_is_resumed() {
        assert!(is_resumable_id("0c6f1b2e-8d1a-4c51-9a7e-3b5f2d9e8a10"));
        for bad in [
            "--dangerously-skip-permissions",
            "-0c6f1b2e-8d1a-4c51-9a7e-3b5f2d9e8a1",
            "0c6f1b2e8d1a4c519a7e3b5f2d9e8a10",
            "0c6f1b2e-8d1a-4c51-9a7e-3b5f2d9e8a1g",
            "",
        ] {
            assert!(!is_resumable_id(bad), "{bad}");
        }
    }

    #[test]
    fn quoting_survives_quotes_and_spaces() {
        assert_eq!(shell_quote("/a b/it's"), "'/a b/it'\\''s'");
    }

    #[test]
    fn a_program_is_found_in_path_and_a_missing_one_is_not() {
        // a PATH of the test's own (the real one reaches into the home)
        let dir = tempfile::tempdir().expect("tempdir");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).expect("mkdir");
        std::fs::create_dir_all(b.join("claude")).expect("mkdir");
        std::fs::write(a.join("claude"), "").expect("write");
        let path = std::env::join_paths([&b, &a]).expect("path");
        // a directory of that name is no program
        assert_eq!(find_program_in("claude", &path), Some(a.join("claude")));
        assert_eq!(
            find_program_in("surely-not-a-program-ccv-knows", &path),
            None
        );
    }
}
