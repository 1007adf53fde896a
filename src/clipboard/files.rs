//! Files ccv writes on request (copy fallback, `e` export): always new
//! files, never next to or over a session file.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// `20250131-142233`, local time.
pub fn timestamp() -> String {
    jiff::Zoned::now().strftime("%Y%m%d-%H%M%S").to_string()
}

/// Creates `dir/stem.ext`, or `dir/stem-2.ext`... if taken: never opens an
/// existing file. `private` files are readable by the owner only (copied
/// transcripts may land in a shared temp dir).
pub fn create_unique(
    dir: &Path,
    stem: &str,
    ext: &str,
    private: bool,
) -> io::Result<(File, PathBuf)> {
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        let path = dir.join(name);
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        match opts.open(&path) {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("too many {stem}.* files in {}", dir.display()),
    ))
}

/// A file-name-safe slug: `fix-the-login-bug`.
pub fn slug(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.chars().count() >= max {
            break;
        }
    }
    out.trim_end_matches('-').to_owned()
}
