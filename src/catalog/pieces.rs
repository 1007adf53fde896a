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
    chunk: Vec<u8>,
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
        Ok(Pieces {
            file: f.take(len),
            buf: Vec::new(),
            chunk: vec![0u8; 1 << 20],
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
        self.chunk = vec![0u8; chunk.max(1)];
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
            let n = self.file.read(&mut self.chunk)?;
            if n == 0 {
                self.eof = true;
                if self.skipping {
                    return Ok(None);
                }
                continue;
            }
            let new = &self.chunk[..n];
            if self.skipping {
                match memchr::memchr(b'\n', new) {
                    Some(p) => {
                        // the long line ends: it counts as one line
                        self.skipping = false;
                        self.offset += p as u64 + 1;
                        self.line += 1;
                        self.buf.extend_from_slice(&new[p + 1..]);
                    }
                    None => self.offset += n as u64,
                }
                continue;
            }
            self.buf.extend_from_slice(new);
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
}
