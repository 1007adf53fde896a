//! One followed file: reading what was appended since the last offset,
//! and noticing when the file was truncated, rewritten, replaced or
//! deleted.

use super::LiveEvent;
use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The most bytes one `Appended` carries (a 100 MB catch-up is 25 events).
const CHUNK: usize = 4 << 20;
/// Bytes before the offset compared again on growth, to notice a file
/// rewritten in place to a larger size.
const SIG: usize = 64;

/// A file identity: a rename over the path changes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId(u64, u64);

fn file_id(m: &std::fs::Metadata) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(FileId(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        None
    }
}

pub(super) struct Tracked {
    pub(super) source: u16,
    pub(super) path: PathBuf,
    file: Option<File>,
    id: Option<FileId>,
    pub(super) offset: u64,
    /// The last bytes read (up to `SIG`).
    pub(super) sig: Vec<u8>,
    deleted: bool,
    /// The path names something that is not a regular file.
    not_regular: bool,
}

impl Tracked {
    pub(super) fn new(source: u16, path: PathBuf, offset: u64) -> Self {
        Tracked {
            source,
            path,
            file: None,
            id: None,
            offset,
            sig: Vec::new(),
            deleted: false,
            not_regular: false,
        }
    }
}

pub(super) enum Outcome {
    Same,
    Grew,
    /// The session must be read again from the start.
    Restart,
}

impl Tracked {
    pub(super) fn check(&mut self, send: &mut dyn FnMut(LiveEvent) -> bool) -> Outcome {
        let source = self.source;
        let meta = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if !self.deleted && (self.id.is_some() || self.offset > 0) {
                    self.deleted = true;
                    self.file = None;
                    send(LiveEvent::Deleted { source });
                    return Outcome::Grew;
                }
                return Outcome::Same;
            }
            Err(_) => return Outcome::Same,
        };
        if !meta.is_file() {
            // replaced by a FIFO, a device or a symlink to one: reading it
            // would block or never end
            if !self.not_regular {
                self.not_regular = true;
                self.file = None;
                send(LiveEvent::Error(format!(
                    "{} is now {}: not followed",
                    self.path.display(),
                    crate::model::session::file_kind(&meta)
                )));
            }
            return Outcome::Same;
        }
        if std::mem::take(&mut self.not_regular) && (self.offset > 0 || self.id.is_some()) {
            // a regular file is back where the other thing was
            send(LiveEvent::Replaced { source });
            return Outcome::Restart;
        }
        let id = file_id(&meta);
        let read_before = self.offset > 0 || self.id.is_some();
        if self.deleted && read_before || (self.id.is_some() && id != self.id) {
            send(LiveEvent::Replaced { source });
            return Outcome::Restart;
        }
        self.deleted = false;
        if meta.len() < self.offset {
            send(LiveEvent::Truncated { source });
            return Outcome::Restart;
        }
        if meta.len() == self.offset && self.id.is_some() {
            return Outcome::Same;
        }
        if self.file.is_none() {
            match crate::model::session::open_regular(&self.path) {
                Ok(f) => {
                    // the identity of what we opened, not of the path
                    self.id = f.metadata().ok().as_ref().and_then(file_id).or(id);
                    self.file = Some(f);
                }
                Err(e) => {
                    let msg = format!("{}: {e}", self.path.display());
                    self.deleted = true;
                    send(LiveEvent::Error(msg));
                    return Outcome::Same;
                }
            }
        }
        self.read_new(send)
    }

    /// Reads from the offset to EOF, in chunks, after checking that the
    /// bytes before the offset are still the ones read.
    fn read_new(&mut self, send: &mut dyn FnMut(LiveEvent) -> bool) -> Outcome {
        let Some(f) = self.file.as_mut() else {
            return Outcome::Same;
        };
        let source = self.source;
        let back = self
            .sig
            .len()
            .min(usize::try_from(self.offset).unwrap_or(usize::MAX));
        if f.seek(SeekFrom::Start(self.offset - back as u64)).is_err() {
            return Outcome::Same;
        }
        let mut grew = false;
        let mut first = true;
        loop {
            let (mut chunk, more) = read_chunk(f);
            if first {
                first = false;
                if chunk.get(..back) != self.sig.get(self.sig.len() - back..) {
                    if chunk.len() < back {
                        // shrank after the stat: the next check sees it
                        return Outcome::Same;
                    }
                    // rewritten in place (same file, other bytes)
                    send(LiveEvent::Truncated { source });
                    return Outcome::Restart;
                }
                chunk.drain(..back);
            }
            if chunk.is_empty() {
                break;
            }
            self.offset += chunk.len() as u64;
            let keep = chunk.len().min(SIG);
            let excess = (self.sig.len() + keep).saturating_sub(SIG);
            self.sig.drain(..excess);
            self.sig.extend_from_slice(&chunk[chunk.len() - keep..]);
            grew = true;
            if !send(LiveEvent::Appended {
                source,
                bytes: chunk,
            }) {
                break;
            }
            if !more {
                break;
            }
        }
        if grew { Outcome::Grew } else { Outcome::Same }
    }
}

/// Up to `CHUNK` bytes from the file position; true if there may be more.
fn read_chunk(f: &mut File) -> (Vec<u8>, bool) {
    let mut chunk = Vec::new();
    let mut buf = [0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => return (chunk, false),
            Ok(n) => {
                chunk.extend_from_slice(&buf[..n]);
                if chunk.len() >= CHUNK {
                    return (chunk, true);
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return (chunk, false),
        }
    }
}

/// The bytes just before `offset`, to check later that they did not change.
pub(super) fn read_sig(path: &Path, offset: u64) -> Vec<u8> {
    let back = (SIG as u64).min(offset);
    let mut out = vec![0u8; back as usize];
    let ok = File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(offset - back))?;
            f.read_exact(&mut out)
        })
        .is_ok();
    if ok { out } else { Vec::new() }
}
