//! The index's directory: ccv uses it only when it is ccv's, and never
//! deletes a file it did not write there.
//!
//! Ours means: a real directory (not a symlink), owned by this user,
//! holding only the names tantivy and ccv write (segment files named by a
//! 32-digit hex id, `meta.json`, `.managed.json`, locks, ccv's
//! `files.json` and temporary files). Anything else there and the index
//! is left alone: searches read the files instead, and say so. Changes
//! (create, update, throw away) happen under `ccv.lock`, so concurrent
//! builders wait for each other instead of failing.

use std::fs;
use std::io;
use std::path::Path;

/// What is in the directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Nothing there yet.
    Missing,
    /// ccv's index (maybe empty, maybe damaged: tantivy says).
    Ours,
    /// Not ccv's: why, for the user.
    Foreign(String),
}

const LOCK: &str = "ccv.lock";
const SEGMENT_EXTS: &[&str] = &["idx", "pos", "term", "store", "fast", "fieldnorm"];

fn is_hex32(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A segment file of tantivy's: `<id>.idx`, `<id>.store.temp`, `<id>.7.del`.
fn is_segment_file(name: &str) -> bool {
    let Some((id, ext)) = name.split_once('.') else {
        return false;
    };
    is_hex32(id)
        && (SEGMENT_EXTS.contains(&ext)
            || ext == "store.temp"
            || ext
                .strip_suffix(".del")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
}

/// A name that tantivy or ccv writes in the index directory.
pub fn is_known_name(name: &str) -> bool {
    matches!(
        name,
        "meta.json" | ".managed.json" | ".tantivy-meta.lock" | ".tantivy-writer.lock"
    ) || name == super::state::STATE
        || name == super::state::OLD_STATE
        || name == super::checked::CHECKED
        || name == LOCK
        || is_segment_file(name)
        // temporary files: tantivy's atomic writes and ccv's (crate::writes)
        || name.strip_prefix(".tmp").is_some_and(|r| r.len() == 6 && r.bytes().all(|b| b.is_ascii_alphanumeric()))
        || (name.starts_with(".ccv-") && name.ends_with(".tmp") && !name.contains('/'))
}

/// Looks at `dir` without changing anything.
pub fn inspect(dir: &Path) -> Found {
    let shown = crate::model::text::term_path(dir);
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Found::Missing,
        Err(e) => return Found::Foreign(format!("{shown}: {e}")),
    };
    if meta.file_type().is_symlink() {
        return Found::Foreign(format!("{shown} is a symlink"));
    }
    if !meta.is_dir() {
        return Found::Foreign(format!("{shown} is not a directory"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: getuid has no preconditions and cannot fail
        let me = unsafe { libc::getuid() };
        if meta.uid() != me {
            return Found::Foreign(format!("{shown} belongs to another user"));
        }
    }
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => return Found::Foreign(format!("{shown}: {e}")),
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if !regular || !is_known_name(&name) {
            return Found::Foreign(format!(
                "{shown} holds {} that ccv did not write",
                crate::model::text::term_line(&name)
            ));
        }
    }
    Found::Ours
}

/// Whether tantivy's list of the files it manages names only files of
/// this directory (its garbage collector deletes what the list names).
pub fn managed_list_is_sound(dir: &Path) -> bool {
    let Ok(bytes) = fs::read(dir.join(".managed.json")) else {
        // none yet, or unreadable: tantivy starts a new one
        return true;
    };
    match serde_json::from_slice::<Vec<String>>(&bytes) {
        Ok(names) => names.iter().all(|n| {
            is_known_name(n)
                && n != super::state::STATE
                && n != super::state::OLD_STATE
                && n != LOCK
                && !n.contains(['/', '\\'])
        }),
        Err(_) => false,
    }
}

/// Makes the directory (0700) when it is not there; one of ours made by
/// an older ccv (0755) is made 0700.
pub fn make(dir: &Path) -> io::Result<()> {
    crate::writes::private_dir(dir)?;
    #[cfg(unix)]
    if inspect(dir) == Found::Ours {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o700));
        private_files(dir);
    }
    Ok(())
}

/// Makes the files tantivy wrote in `dir` 0600, as ccv's own are: it
/// creates them with the process's umask (0644 for most users). The
/// directory is 0700, so no one else could read them meanwhile. Regular
/// files with known names only, never through a link.
pub fn private_files(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if inspect(dir) != Found::Ours {
            return;
        }
        let Ok(rd) = fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let Ok(m) = fs::symlink_metadata(e.path()) else {
                continue;
            };
            if m.is_file()
                && m.permissions().mode() & 0o077 != 0
                && is_known_name(&e.file_name().to_string_lossy())
            {
                let _ = fs::set_permissions(e.path(), fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Removes what tantivy and ccv wrote in `dir` (an index to rebuild):
/// regular files with known names only, never through a link, and never
/// the lock.
pub fn wipe(dir: &Path) {
    if inspect(dir) != Found::Ours {
        return;
    }
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name != LOCK && is_known_name(&name) && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Empties the indexes of earlier versions beside `dir` (`search-v2`
/// beside `search-v3`), once this one is built: under their own lock,
/// only when they are ccv's, and only the files ccv wrote (as [`wipe`]);
/// the folder goes when nothing else is left in it. An older ccv that
/// runs again builds its own again.
pub fn empty_older(dir: &Path, version: u32) {
    // only for an index of ccv's own name (not a folder the user gave)
    let Some(parent) = dir.parent().filter(|_| {
        dir.file_name()
            .is_some_and(|n| *n == *format!("search-v{version}"))
    }) else {
        return;
    };
    for v in 1..version {
        let old = parent.join(format!("search-v{v}"));
        if inspect(&old) != Found::Ours {
            continue;
        }
        if let Ok(Some(held)) = lock(&old, false) {
            wipe(&old);
            let _ = fs::remove_file(old.join(LOCK));
            drop(held);
            let _ = fs::remove_dir(&old);
        }
    }
}

/// Held while the index is created, updated or thrown away.
pub struct DirLock {
    _file: fs::File,
}

/// Takes the directory's lock: waiting for it when `wait`, else `None`
/// when another ccv holds it.
pub fn lock(dir: &Path, wait: bool) -> io::Result<Option<DirLock>> {
    let mut o = fs::OpenOptions::new();
    o.read(true).write(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let file = o.open(dir.join(LOCK))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let op = if wait {
            libc::LOCK_EX
        } else {
            libc::LOCK_EX | libc::LOCK_NB
        };
        loop {
            // SAFETY: flock on a descriptor this function owns
            let r = unsafe { libc::flock(file.as_raw_fd(), op) };
            if r == 0 {
                break;
            }
            let e = io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::EWOULDBLOCK) => return Ok(None),
                _ => return Err(e),
            }
        }
    }
    Ok(Some(DirLock { _file: file }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_tantivy_and_ccv() {
        let id = "0123456789abcdef0123456789abcdef";
        for ok in [
            format!("{id}.idx"),
            format!("{id}.store.temp"),
            format!("{id}.12.del"),
            "meta.json".into(),
            ".managed.json".into(),
            ".tmpAb12Cd".into(),
            "files.json".into(),
        ] {
            assert!(is_known_name(&ok), "{ok}");
        }
        for bad in [
            "notes.txt",
            "../meta.json",
            "/etc/passwd",
            &format!("{id}.exe"),
            &format!("{id}..del"),
            "0123.idx",
        ] {
            assert!(!is_known_name(bad), "{bad}");
        }
    }

    #[test]
    fn older_indexes_of_ccv_are_emptied_and_others_kept() {
        let d = tempfile::tempdir().expect("tempdir");
        let id = "0123456789abcdef0123456789abcdef";
        let old = d.path().join("search-v2");
        make(&old).expect("mkdir");
        for f in [
            "meta.json",
            ".managed.json",
            "files.json",
            &format!("{id}.idx"),
        ] {
            fs::write(old.join(f), "x").expect("write");
        }
        drop(lock(&old, false).expect("lock"));
        let stranger = d.path().join("search-v1");
        fs::create_dir(&stranger).expect("mkdir");
        fs::write(stranger.join("notes.txt"), "mine").expect("write");
        // a folder the user named: nothing beside it is touched
        empty_older(&d.path().join("my-index"), 3);
        assert!(old.join("meta.json").exists());
        let new = d.path().join("search-v3");
        make(&new).expect("mkdir");
        empty_older(&new, 3);
        assert!(!old.exists(), "the older index is gone");
        assert!(
            stranger.join("notes.txt").exists(),
            "a folder not ccv's is kept"
        );
        assert!(new.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_or_a_stranger_file_is_not_ours_and_is_kept() {
        let d = tempfile::tempdir().expect("tempdir");
        let target = d.path().join("precious");
        fs::create_dir(&target).expect("mkdir");
        fs::write(target.join("thesis.tex"), "x").expect("write");
        let link = d.path().join("search-v3");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        assert!(matches!(inspect(&link), Found::Foreign(_)));
        wipe(&link);
        assert!(target.join("thesis.tex").exists());
        assert!(matches!(inspect(&target), Found::Foreign(_)));
        wipe(&target);
        assert!(target.join("thesis.tex").exists());
    }

    #[test]
    fn a_managed_list_naming_other_places_is_unsound() {
        let d = tempfile::tempdir().expect("tempdir");
        assert!(managed_list_is_sound(d.path()));
        fs::write(d.path().join(".managed.json"), r#"["meta.json"]"#).expect("w");
        assert!(managed_list_is_sound(d.path()));
        for bad in [
            r#"["/etc/passwd"]"#,
            r#"["../x"]"#,
            "{",
            r#"["files.json"]"#,
        ] {
            fs::write(d.path().join(".managed.json"), bad).expect("w");
            assert!(!managed_list_is_sound(d.path()), "{bad}");
        }
    }
}
