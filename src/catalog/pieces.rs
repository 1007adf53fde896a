//! A session file read in pieces of whole lines (a few MB each), so that
//! searching or indexing holds one piece, whatever the file's size. A
//! line longer than the cap is not held at all: it is skipped and counted
//! (lines that long are base64 blobs, not text a person searches).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Take};
use std::path::Path;

/// Longer lines are not searched.
pub const LINE_CAP: usize = 64 << 20;

pub struct Pieces {
    file: Take<File>,
    buf: Vec<u8>,
    /// Bytes read at a time.
    chunk: usize,
    /// File offset and line number of `buf[0]`.
    offset: u64,
    line: u32,
    /// Bytes at the front of `buf` given out by the last `next`.
    given: usize,
    given_lines: u32,
    eof: bool,
    /// Inside a line over the cap: dropping bytes until its end.
    skipping: bool,
    /// Read the file's last line even without its newline.
    tail: bool,
    piece: usize,
    cap: usize,
}

/// One run of whole lines.
pub struct Piece<'a> {
    pub bytes: &'a [u8],
    /// File offset of `bytes[0]`.
    pub offset: u64,
    /// 1-based number of its first line.
    pub line: u32,
}

impl Pieces {
    /// `len` bytes of `path` from `offset`, whose first line is `line`.
    pub fn open(
        path: &Path,
        offset: u64,
        line: u32,
        len: u64,
        piece: usize,
        tail: bool,
    ) -> io::Result<Pieces> {
        let mut f = crate::model::session::open_regular(path)?;
        f.seek(SeekFrom::Start(offset))?;
        // reads no bigger than a piece: a small piece wants a small buffer
        let chunk = piece.clamp(64 << 10, 1 << 20);
        Ok(Pieces {
            file: f.take(len),
            // a buffer has room for a piece and a read from the start
            // (grown by doubling, each growth copied what it held into
            // new pages: a twentieth of a first search); a spare one left
            // by a smaller file is not grown so
            buf: {
                let want = piece
                    .saturating_add(chunk)
                    .min((len as usize).saturating_add(1));
                SPARE
                    .try_with(|s| s.take())
                    .ok()
                    .flatten()
                    .filter(|b| b.capacity() >= want)
                    .unwrap_or_else(|| Vec::with_capacity(want))
            },
            chunk,
            offset,
            line,
            given: 0,
            given_lines: 0,
            eof: false,
            skipping: false,
            tail,
            piece,
            cap: LINE_CAP,
        })
    }

    /// Smaller reads and cap (for tests of long lines).
    pub fn with_limits(mut self, cap: usize, chunk: usize) -> Pieces {
        self.cap = cap;
        self.chunk = chunk.max(1);
        self
    }

    /// Where the whole lines given so far end: the offset and number of
    /// the next line.
    pub fn position(&self) -> (u64, u32) {
        (
            self.offset + self.given as u64,
            self.line + self.given_lines,
        )
    }

    pub fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>> {
        self.buf.drain(..self.given);
        self.offset += self.given as u64;
        self.line += self.given_lines;
        self.given = 0;
        self.given_lines = 0;
        loop {
            if !self.skipping && (self.buf.len() >= self.piece || self.eof) {
                let end = match memchr::memrchr(b'\n', &self.buf) {
                    Some(p) => Some(p + 1),
                    None if self.eof && self.tail && !self.buf.is_empty() => Some(self.buf.len()),
                    None => None,
                };
                if let Some(end) = end {
                    self.given = end;
                    self.given_lines = memchr::memchr_iter(b'\n', &self.buf[..end]).count() as u32;
                    if end == self.buf.len() && self.buf.last() != Some(&b'\n') {
                        self.given_lines += 1;
                    }
                    return Ok(Some(Piece {
                        bytes: &self.buf[..end],
                        offset: self.offset,
                        line: self.line,
                    }));
                }
                if self.eof {
                    return Ok(None);
                }
            }
            // read straight behind what is held (no copy from a chunk)
            let held = self.buf.len();
            let n = (&mut self.file)
                .take(self.chunk as u64)
                .read_to_end(&mut self.buf)?;
            if n == 0 {
                self.eof = true;
                if self.skipping {
                    return Ok(None);
                }
                continue;
            }
            if self.skipping {
                // (nothing is held while skipping: the bytes are all new)
                match memchr::memchr(b'\n', &self.buf[held..]) {
                    Some(p) => {
                        // the long line ends: it counts as one line
                        self.skipping = false;
                        self.offset += p as u64 + 1;
                        self.line += 1;
                        self.buf.drain(..held + p + 1);
                    }
                    None => {
                        self.offset += n as u64;
                        self.buf.truncate(held);
                    }
                }
                continue;
            }
            // a line over the cap, with no end in sight: drop what is held
            // of it (whole lines before it are kept)
            if self.buf.len() > self.cap {
                let start = memchr::memrchr(b'\n', &self.buf).map_or(0, |p| p + 1);
                if self.buf.len() - start > self.cap {
                    if start > 0 {
                        // give the lines before it first
                        self.skipping = false;
                        self.given = start;
                        self.given_lines =
                            memchr::memchr_iter(b'\n', &self.buf[..start]).count() as u32;
                        let piece = Piece {
                            bytes: &self.buf[..start],
                            offset: self.offset,
                            line: self.line,
                        };
                        return Ok(Some(piece));
                    }
                    self.offset += self.buf.len() as u64;
                    self.buf.clear();
                    self.skipping = true;
                }
            }
        }
    }
}

thread_local! {
    /// A buffer a finished reader leaves for the next one on this thread:
    /// a search or an index build reads thousands of files, and a fresh
    /// buffer for each (grown to a piece, its pages new) cost a fifth of
    /// a first search of real sessions.
    static SPARE: std::cell::Cell<Option<Vec<u8>>> = const { std::cell::Cell::new(None) };
}

impl Drop for Pieces {
    fn drop(&mut self) {
        // not one grown past a piece for an overlong line
        if self.buf.capacity() <= self.piece.saturating_mul(2).max(16 << 20) {
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            // (none when the thread is ending) the larger of the two kept:
            // a small file's buffer would not do for the next big one
            let _ = SPARE.try_with(|s| {
                let spare = s.take().filter(|s| s.capacity() > buf.capacity());
                s.set(Some(spare.unwrap_or(buf)));
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], piece: usize, tail: bool) -> Vec<(Vec<u8>, u64, u32)> {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("f");
        std::fs::write(&p, text).expect("write");
        let mut r = Pieces::open(&p, 0, 1, text.len() as u64, piece, tail)
            .expect("open")
            .with_limits(8, 3);
        let mut out = Vec::new();
        while let Some(x) = r.next_piece().expect("read") {
            out.push((x.bytes.to_vec(), x.offset, x.line));
        }
        out
    }

    #[test]
    fn whole_lines_with_their_offsets_and_numbers() {
        let got = all(b"aa\nbbb\ncc", 4, false);
        assert_eq!(
            got,
            vec![(b"aa\n".to_vec(), 0, 1), (b"bbb\n".to_vec(), 3, 2)]
        );
        let got = all(b"aa\nbbb\ncc", 4, true);
        assert_eq!(
            got.last().map(|x| (x.0.clone(), x.1, x.2)),
            Some((b"cc".to_vec(), 7, 3))
        );
    }

    #[test]
    fn a_line_over_the_cap_is_skipped_and_counted() {
        let mut text = b"aa\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 40));
        text.extend(b"\nbb\n");
        let got = all(&text, 4, false);
        let joined: Vec<(String, u64, u32)> = got
            .into_iter()
            .map(|(b, o, l)| (String::from_utf8_lossy(&b).into_owned(), o, l))
            .collect();
        assert!(
            joined.iter().all(|(b, _, _)| !b.contains('x')),
            "{joined:?}"
        );
        assert_eq!(
            joined.first().map(|x| (x.0.as_str(), x.1, x.2)),
            Some(("aa\n", 0, 1))
        );
        assert_eq!(
            joined.last().map(|x| (x.0.as_str(), x.1, x.2)),
            Some(("bb\n", 44, 3))
        );
    }

    /// A reader after another on the same thread (which leaves it its
    /// buffer) reads its own file as a first reader would, whatever the
    /// first left off in: a piece given, a long line being skipped.
    #[test]
    fn a_reader_after_another_reads_only_its_own_file() {
        let mut long = b"aa\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', 40));
        let second = b"one\ntwo\nthree".to_vec();
        let alone = all(&second, 4, true);
        for first in [&long[..], b"zz\nyy\n", b""] {
            let dir = tempfile::tempdir().expect("tempdir");
            let p = dir.path().join("f");
            std::fs::write(&p, first).expect("write");
            let mut r = Pieces::open(&p, 0, 1, first.len() as u64, 4, false)
                .expect("open")
                .with_limits(8, 3);
            // left mid-way
            let _ = r.next_piece().expect("read");
            drop(r);
            assert_eq!(all(&second, 4, true), alone);
        }
    }
}
