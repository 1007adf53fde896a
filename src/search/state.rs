//! What the search index knows of each file (its id, session, size,
//! mtime, how far it is indexed, a hash of its head), read at every
//! search: `files.bin`, in bytes ([`crate::packed`]). The list of 20,000
//! files was 6 MB of JSON, a sixth of an indexed search of 10,000
//! sessions to parse; `files.json`, the form before, is not read (it
//! had no check: an index that has only it is made again) and is taken
//! away at the next write.

use crate::packed::{self, Bytes};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The state's file, and the one before it.
pub(super) const STATE: &str = "files.bin";
pub(super) const OLD_STATE: &str = "files.json";
/// The file's first bytes (then the index's version). Form 2 checks its
/// head and each file (see [`packed::check`]): a bit flipped in form 1
/// gave a file another's id or its lines another's place, believed, and
/// a search listed other hits than its files hold.
const MAGIC: &[u8] = b"ccv search files 2\n";
/// A state past this size was not written by ccv.
const MAX_FILE: u64 = 256 << 20;

/// What the index knows of one file.
#[derive(Debug, Clone)]
pub struct FileState {
    pub id: u64,
    /// (Written once when it is the file itself.)
    pub session: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    /// Indexed through this byte (the end of the last complete line).
    pub bytes: u64,
    /// Lines indexed.
    pub lines: u32,
    /// Hash of the first 4 KB: a file rewritten in place is read again.
    pub head: u64,
}

#[derive(Debug, Default)]
pub(super) struct State {
    pub version: u32,
    pub next_id: u64,
    /// A list: a search goes through it; an update looks files up in a
    /// [`FileMap`] made of it.
    pub files: Vec<(PathBuf, FileState)>,
}

/// Every file the index holds, by path, while an update looks them up
/// (paths are not attacker's keys: hashed fast).
pub(super) type FileMap = std::collections::HashMap<PathBuf, FileState, rustc_hash::FxBuildHasher>;

impl State {
    /// The state in `dir` when it reads whole and is of this version.
    pub fn read(dir: &Path) -> Option<State> {
        let file = crate::model::session::open_regular(&dir.join(STATE)).ok();
        let state = match file {
            Some(mut f) => {
                let len = f.metadata().ok()?.len();
                (len <= MAX_FILE)
                    .then(|| from_reader(&mut f, len))
                    .flatten()
            }
            // (the form before, `files.json`, is of indexes before
            // version 7: never believed in one of this version, it had no
            // check; the index is made again)
            None => None,
        };
        state.filter(|s| s.version == super::index::VERSION)
    }

    /// Writes the state in `dir` (atomically: a crash leaves the one
    /// before), and takes away the form before if it is there.
    pub fn save(&self, dir: &Path) -> io::Result<()> {
        let bytes = self.to_bytes();
        crate::writes::write_file(&dir.join(STATE), true, |w| io::Write::write_all(w, &bytes))?;
        let old = dir.join(OLD_STATE);
        if fs::symlink_metadata(&old).is_ok_and(|m| m.is_file()) {
            let _ = fs::remove_file(old);
        }
        Ok(())
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.files.len() * 160);
        out.extend_from_slice(MAGIC);
        let head = out.len();
        packed::u32(&mut out, self.version);
        packed::u64(&mut out, self.next_id);
        packed::count(&mut out, self.files.len());
        let sum = packed::check(&out[head..]);
        packed::u64(&mut out, sum);
        for (p, f) in &self.files {
            let row = out.len();
            packed::path(&mut out, p);
            // a file that is its own session (most are) names it once
            let other = f.session != *p;
            packed::flag(&mut out, other);
            if other {
                packed::path(&mut out, &f.session);
            }
            packed::u64(&mut out, f.id);
            packed::u64(&mut out, f.size);
            packed::i64(&mut out, f.mtime_ns);
            packed::u64(&mut out, f.bytes);
            packed::u32(&mut out, f.lines);
            packed::u64(&mut out, f.head);
            let sum = packed::check(&out[row..]);
            packed::u64(&mut out, sum);
        }
        out
    }
}

/// A state read back whole, or none: anything [`Bytes`] does not
/// believe, or a byte left over, and the index is read again from the
/// files.
#[cfg(test)]
fn from_bytes(b: &[u8]) -> Option<State> {
    from_reader(&mut &*b, b.len() as u64)
}

/// [`from_bytes`] of the `len` bytes of `r`, read through a window of
/// 64 KB (read whole, the list of 20,000 files, 4 MB, was a fifth of the
/// fresh pages of an indexed search).
fn from_reader(r: &mut impl io::Read, len: u64) -> Option<State> {
    let mut w = Window {
        r,
        buf: Vec::with_capacity(2 * WINDOW),
        at: 0,
        eof: false,
    };
    let (version, next_id, n) = w.parse(|r| {
        r.0 = r.0.strip_prefix(MAGIC)?;
        checked(r, |r| Some((r.u32()?, r.u64()?, r.u32()?)))
    })?;
    // a path, a flag, six numbers and a check: at least 53 bytes a file
    let n = usize::try_from(n).ok()?;
    if n as u64 > len / 53 {
        return None;
    }
    let mut files = Vec::with_capacity(n);
    for _ in 0..n {
        files.push(w.parse(file)?);
    }
    w.at_end().then_some(State {
        version,
        next_id,
        files,
    })
}

/// What `read` reads of `r`, when the check written after its bytes is
/// theirs.
fn checked<'a, T>(r: &mut Bytes<'a>, read: impl FnOnce(&mut Bytes<'a>) -> Option<T>) -> Option<T> {
    let from = r.0;
    let t = read(r)?;
    let used = from.get(..from.len() - r.0.len())?;
    (r.u64()? == packed::check(used)).then_some(t)
}

/// One file of the state, when its check holds.
fn file(r: &mut Bytes<'_>) -> Option<(PathBuf, FileState)> {
    checked(r, file_fields)
}

fn file_fields(r: &mut Bytes<'_>) -> Option<(PathBuf, FileState)> {
    let path = r.path()?;
    let session = if r.flag()? { r.path()? } else { path.clone() };
    let f = FileState {
        id: r.u64()?,
        session,
        size: r.u64()?,
        mtime_ns: r.i64()?,
        bytes: r.u64()?,
        lines: r.u32()?,
        head: r.u64()?,
    };
    Some((path, f))
}

/// How much of the state is read at a time.
const WINDOW: usize = 64 << 10;
/// More than a file of the state takes (two paths of `PATH_MAX` and its
/// numbers): one that does not read within it is damaged.
const MAX_PIECE: usize = 64 << 10;

/// The bytes of a reader, a window at a time.
struct Window<'r, R> {
    r: &'r mut R,
    buf: Vec<u8>,
    /// The first byte not parsed yet.
    at: usize,
    eof: bool,
}

impl<R: io::Read> Window<'_, R> {
    /// `f` of the bytes not parsed yet, more read while it runs out of
    /// them (none when they end, or pass [`MAX_PIECE`], first).
    fn parse<T>(&mut self, f: impl Fn(&mut Bytes<'_>) -> Option<T>) -> Option<T> {
        loop {
            let mut b = Bytes(self.buf.get(self.at..)?);
            if let Some(t) = f(&mut b) {
                self.at = self.buf.len() - b.0.len();
                return Some(t);
            }
            if self.eof || self.buf.len() - self.at > MAX_PIECE {
                return None;
            }
            self.more()?;
        }
    }

    /// Reads up to a window more (after dropping what was parsed).
    fn more(&mut self) -> Option<()> {
        self.buf.drain(..self.at);
        self.at = 0;
        let got = io::Read::read_to_end(
            &mut io::Read::take(&mut *self.r, WINDOW as u64),
            &mut self.buf,
        )
        .ok()?;
        self.eof = got == 0;
        Some(())
    }

    /// Whether every byte was parsed, and none is left to read.
    fn at_end(&mut self) -> bool {
        while self.at == self.buf.len() && !self.eof {
            if self.more().is_none() {
                return false;
            }
        }
        self.at == self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(id: u64, session: &str) -> FileState {
        FileState {
            id,
            session: PathBuf::from(session),
            size: id * 10,
            mtime_ns: -1,
            bytes: 3,
            lines: 2,
            head: u64::MAX,
        }
    }

    fn state() -> State {
        let mut state = State {
            version: super::super::index::VERSION,
            next_id: 3,
            ..State::default()
        };
        state
            .files
            .push(("/p/s.jsonl".into(), file(1, "/p/s.jsonl")));
        state
            .files
            .push(("/p/s/subagents/agent-a.jsonl".into(), file(2, "/p/s.jsonl")));
        state
    }

    fn same(a: &State, b: &State) {
        assert_eq!(
            (a.version, a.next_id, a.files.len()),
            (b.version, b.next_id, b.files.len())
        );
        for (p, f) in &a.files {
            let (_, g) = b.files.iter().find(|(q, _)| q == p).expect("every file");
            assert_eq!(
                (
                    g.id, &g.session, g.size, g.mtime_ns, g.bytes, g.lines, g.head
                ),
                (
                    f.id, &f.session, f.size, f.mtime_ns, f.bytes, f.lines, f.head
                )
            );
        }
    }

    /// The state reads back what it wrote, a file's session named only
    /// when it is another file; cut anywhere or with a byte more it reads
    /// as none, and any byte changed never crashes it.
    #[test]
    fn the_state_reads_back_what_it_wrote() {
        let state = state();
        let b = state.to_bytes();
        same(&from_bytes(&b).expect("read"), &state);
        let trickled = from_reader(&mut Trickle(&b, 1), b.len() as u64).expect("read");
        same(&trickled, &state);
        for cut in 0..b.len() {
            assert!(from_bytes(&b[..cut]).is_none(), "cut at {cut}");
        }
        let mut more = b.clone();
        more.push(0);
        assert!(from_bytes(&more).is_none());
        // any bit flipped is seen: no state, never another one
        for at in 0..b.len() {
            for bit in 0..8 {
                let mut bad = b.clone();
                bad[at] ^= 1 << bit;
                assert!(from_bytes(&bad).is_none(), "bit {bit} of byte {at}");
            }
        }
    }

    /// A reader that hands out a few bytes at a time.
    struct Trickle<'a>(&'a [u8], usize);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// A state of many files, longer than the window many times over,
    /// reads back whole however its bytes come (a few at a time, or a
    /// window's worth), and cut anywhere it reads as none.
    #[test]
    fn a_state_longer_than_its_window_reads_back() {
        let mut state = state();
        for i in 0..2000u64 {
            let long = format!("/p/{}/{i}.jsonl", "d".repeat((i % 300) as usize));
            state.files.push((long.clone().into(), file(i + 3, &long)));
        }
        let b = state.to_bytes();
        assert!(b.len() > 4 * WINDOW);
        for step in [61, 4096, usize::MAX] {
            let read = from_reader(&mut Trickle(&b, step), b.len() as u64).expect("read");
            same(&read, &state);
        }
        for cut in [b.len() - 1, b.len() / 2, WINDOW, WINDOW + 1, 40] {
            assert!(from_bytes(&b[..cut]).is_none(), "cut at {cut}");
        }
        let mut more = b.clone();
        more.extend_from_slice(&[0; 100_000]);
        assert!(from_bytes(&more).is_none());
    }

    /// A list in the form before (JSON, unchecked) is no list: the index
    /// is made again; a list of another version is none either.
    #[test]
    fn the_form_before_and_another_version_are_no_state() {
        let dir = tempfile::tempdir().expect("tempdir");
        let v = super::super::index::VERSION;
        let older = format!(
            r#"{{"version":{v},"next_id":3,"files":[["/p/s.jsonl",{{"id":1,"size":10,"mtime_ns":-1,"bytes":3,"lines":2,"head":18446744073709551615}}],["/p/s/subagents/agent-a.jsonl",{{"id":2,"session":"/p/s.jsonl","size":20,"mtime_ns":-1,"bytes":3,"lines":2,"head":18446744073709551615}}]]}}"#
        );
        fs::write(dir.path().join(OLD_STATE), &older).expect("write");
        assert!(State::read(dir.path()).is_none());
        state().save(dir.path()).expect("save");
        assert!(!dir.path().join(OLD_STATE).exists());
        let again = State::read(dir.path()).expect("read");
        same(&again, &state());
        let mut other = state();
        other.version += 1;
        other.save(dir.path()).expect("save");
        assert!(State::read(dir.path()).is_none());
    }
}
