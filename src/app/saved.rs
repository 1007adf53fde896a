//! The whole of an output Claude Code saved apart (see
//! [`crate::model::saved`]): `c o` copies it and `F` opens it, from a
//! regular file only (a link in a session's folder is not followed).

/// The whole of an output Claude Code saved apart: a regular file (not a
/// link), up to 64 MB, its bytes as UTF-8 (a bad byte as U+FFFD).
pub fn read_saved(file: &std::path::Path) -> Option<String> {
    if !plain_file(file) {
        return None;
    }
    let bytes = crate::model::session::read_regular(file, 64 << 20)?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A regular file in a real folder (`tool-results/`): neither is a link,
/// so a session's folder cannot send `F` or `c o` elsewhere.
pub fn plain_file(file: &std::path::Path) -> bool {
    let real = |p: &std::path::Path, dir: bool| {
        std::fs::symlink_metadata(p).is_ok_and(|m| if dir { m.is_dir() } else { m.is_file() })
    };
    real(file, false) && file.parent().is_some_and(|d| real(d, true))
}

#[cfg(test)]
mod tests {
    use super::read_saved;

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("t.txt");
        std::fs::write(&file, b"whole \xff output").expect("write");
        assert_eq!(read_saved(&file).as_deref(), Some("whole \u{fffd} output"));
        let link = dir.path().join("l.txt");
        std::os::unix::fs::symlink(&file, &link).expect("link");
        assert_eq!(read_saved(&link), None);
        assert_eq!(read_saved(dir.path()), None);
        assert_eq!(read_saved(&dir.path().join("gone.txt")), None);
        // a linked folder of outputs
        let linked = dir.path().join("tool-results");
        std::os::unix::fs::symlink(dir.path(), &linked).expect("link");
        assert_eq!(read_saved(&linked.join("t.txt")), None);
        let fifo = dir.path().join("f.txt");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(read_saved(&fifo), None);
        }
    }
}
