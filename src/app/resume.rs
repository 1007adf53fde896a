//! `R`: leaving ccv for `claude --resume`, in the session's directory.

use std::path::{Path, PathBuf};

/// A program on `PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Replaces ccv with `claude --resume ID`, in the session's directory when
/// it still exists.
pub fn resume_in_claude(program: &Path, id: &str, cwd: Option<&str>) -> anyhow::Result<()> {
    let mut cmd = std::process::Command::new(program);
    cmd.arg("--resume").arg(id);
    if let Some(d) = cwd.filter(|d| Path::new(d).is_dir()) {
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

    #[test]
    fn quoting_survives_quotes_and_spaces() {
        assert_eq!(shell_quote("/a b/it's"), "'/a b/it'\\''s'");
    }

    #[test]
    fn a_missing_program_is_not_found() {
        assert_eq!(find_program("surely-not-a-program-ccv-knows"), None);
    }
}
