//! The whole of an output Claude Code saved apart (see
//! [`crate::model::saved`]), read from a regular file only (a link in a
//! session's folder is not followed): `c o` copies it, `F` opens it, and
//! a search looks in it.

use std::io::Read;

/// What is read of a saved output at most (a copy of more says so).
pub const MOST: u64 = 64 << 20;

/// A saved output as read.
#[derive(Debug, PartialEq, Eq)]
pub struct Saved {
    /// Its bytes as UTF-8 (a bad byte as U+FFFD), [`MOST`] at most (or
    /// what [`read_saved_upto`] was given).
    pub text: String,
    /// The file's size when it was opened.
    pub size: u64,
    /// All of it was read (else its first [`MOST`] bytes).
    pub whole: bool,
}

/// The whole of an output Claude Code saved apart: a regular file in a
/// real folder (neither a link), its first [`MOST`] bytes.
pub fn read_saved(file: &std::path::Path) -> Option<Saved> {
    read_saved_upto(file, MOST)
}

/// [`read_saved`], its first `most` bytes at most.
pub fn read_saved_upto(file: &std::path::Path, most: u64) -> Option<Saved> {
    let f = open_saved(file)?;
    let size = f.metadata().ok()?.len();
    // room for all of it at once (grown as it is read, it was copied
    // each time it doubled)
    let mut bytes = Vec::with_capacity(size.min(most) as usize + 1);
    f.take(most).read_to_end(&mut bytes).ok()?;
    let whole = bytes.len() as u64 >= size;
    if !whole {
        // its first part ends where a line (else a word) does: a key cut
        // at the byte limit would be one no rule knows, and its head
        // would be left in a redacted copy
        let end = memchr::memrchr(b'\n', &bytes)
            .or_else(|| bytes.iter().rposition(u8::is_ascii_whitespace));
        if let Some(end) = end {
            bytes.truncate(end + 1);
        }
    }
    Some(Saved {
        whole,
        text: super::text::string_of_bytes(bytes),
        size,
    })
}

/// The output of call `call_id` saved apart beside the session file
/// `session_file` (where [`crate::model::saved::saved_file`] says), its
/// first `most` bytes: what `c o`, `F` and a search each read.
pub fn whole_output(session_file: &std::path::Path, call_id: &str, most: u64) -> Option<Saved> {
    read_saved_upto(&super::saved::saved_file(session_file, call_id)?, most)
}

/// A saved output opened for reading: a regular file in a real folder
/// (neither a link, see [`plain_file`]), checked once open.
pub fn open_saved(file: &std::path::Path) -> Option<std::fs::File> {
    if !plain_file(file) {
        return None;
    }
    let f = open_no_link(file)?;
    f.metadata().ok().filter(|m| m.is_file()).map(|_| f)
}

/// `file` opened for reading where it is no link (a check of it before
/// could be raced by a swap for one), without waiting on a FIFO.
fn open_no_link(file: &std::path::Path) -> Option<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    o.open(file).ok()
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
    use super::{MOST, read_saved};

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("t.txt");
        std::fs::write(&file, b"whole \xff output").expect("write");
        let read = read_saved(&file).expect("read");
        assert_eq!(read.text, "whole \u{fffd} output");
        assert!(read.whole);
        assert_eq!(read.size, 14);
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

    /// An output over what is read says it was cut, and its size.
    #[test]
    fn an_output_over_the_most_read_is_said_cut() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("big.txt");
        let f = std::fs::File::create(&file).expect("create");
        f.set_len(MOST + 10).expect("grow");
        let read = read_saved(&file).expect("read");
        assert!(!read.whole);
        assert_eq!(read.size, MOST + 10);
        assert_eq!(read.text.len() as u64, MOST);
        f.set_len(MOST).expect("shrink");
        assert!(read_saved(&file).expect("read").whole);
    }

    /// A first part ends where a line does, else a word: a key cut at
    /// the limit would leave its head in a redacted copy.
    #[test]
    fn a_first_part_ends_at_a_line_or_a_word() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("o.txt");
        std::fs::write(&file, "one line\ntoken ghp_abcdefghij\n").expect("write");
        let read = super::read_saved_upto(&file, 22).expect("read");
        assert_eq!((read.text.as_str(), read.whole), ("one line\n", false));
        std::fs::write(&file, "aaa bbb cccccc").expect("write");
        let read = super::read_saved_upto(&file, 10).expect("read");
        assert_eq!(read.text, "aaa bbb ");
        assert!(super::read_saved_upto(&file, 20).expect("read").whole);
    }
}
