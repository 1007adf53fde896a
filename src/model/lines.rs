//! Splitting a byte stream into numbered lines, incrementally.
//!
//! Bytes arrive in arbitrary chunks (a live file grows by whatever the
//! writer flushed; a chunk may end mid-line or mid-UTF-8-sequence). The
//! splitter hands out every complete line once, with its 1-based number and
//! byte offset, and keeps the unfinished tail until its newline arrives.

use memchr::memchr;

#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    /// 1-based number of the next line to hand out.
    next_line: u32,
    /// Byte offset (in the whole stream) where `partial` starts.
    partial_offset: u64,
    /// The unfinished tail was already handed out tentatively (it parsed as
    /// complete JSON at EOF); how many of its bytes were consumed.
    tentative: Option<usize>,
}

/// One line handed out by the splitter.
#[derive(Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub number: u32,
    pub offset: u64,
    pub bytes: &'a [u8],
}

impl LineSplitter {
    pub fn new() -> Self {
        LineSplitter {
            next_line: 1,
            ..Default::default()
        }
    }

    /// Bytes consumed so far (complete lines plus the buffered tail).
    pub fn stream_len(&self) -> u64 {
        self.partial_offset + self.partial.len() as u64
    }

    /// Feeds bytes; calls `f` for every complete line, in order. A line's
    /// bytes exclude its `\n` (and a `\r` before it). If a tentative tail was
    /// handed out before, only the bytes after it are passed, with the same
    /// line number: the caller sees them as more objects on that line.
    pub fn feed(&mut self, mut data: &[u8], mut f: impl FnMut(Line<'_>)) {
        while !data.is_empty() {
            match memchr(b'\n', data) {
                None => {
                    self.partial.extend_from_slice(data);
                    return;
                }
                Some(nl) => {
                    let offset = self.partial_offset;
                    let before = self.partial.len();
                    let number = self.next_line;
                    let skip = self.tentative.take().unwrap_or(0);
                    if self.partial.is_empty() {
                        emit(&data[..nl], skip, number, offset, &mut f);
                    } else {
                        self.partial.extend_from_slice(&data[..nl]);
                        let line = std::mem::take(&mut self.partial);
                        emit(&line, skip, number, offset, &mut f);
                        // keep the allocation for the next partial line
                        self.partial = line;
                        self.partial.clear();
                    }
                    self.partial_offset = offset + (before + nl + 1) as u64;
                    self.next_line += 1;
                    data = &data[nl + 1..];
                }
            }
        }
    }

    /// The unfinished tail, if any, not counting bytes already handed out
    /// tentatively. Used at EOF: the caller decides whether it is a complete
    /// line (then calls [`Self::consume_tail`]) or a write in progress.
    pub fn tail(&self) -> Option<Line<'_>> {
        let skip = self.tentative.unwrap_or(0);
        (self.partial.len() > skip).then(|| Line {
            number: self.next_line,
            offset: self.partial_offset,
            bytes: &self.partial[skip..],
        })
    }

    /// Marks the tail as handed out. If more bytes later continue the same
    /// line, only those are passed on.
    pub fn consume_tail(&mut self) {
        if !self.partial.is_empty() {
            self.tentative = Some(self.partial.len());
        }
    }

    /// Number of complete lines handed out so far, plus a consumed tail.
    pub fn lines_seen(&self) -> u32 {
        self.next_line - 1 + u32::from(self.tentative.is_some())
    }
}

fn emit(line: &[u8], skip: usize, number: u32, offset: u64, f: &mut impl FnMut(Line<'_>)) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let bytes = line.get(skip..).unwrap_or(&[]);
    if skip > 0 && bytes.is_empty() {
        // the tentative tail was the whole line: nothing new
        return;
    }
    f(Line {
        number,
        offset,
        bytes,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(chunks: &[&[u8]]) -> Vec<(u32, Vec<u8>)> {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, |l| out.push((l.number, l.bytes.to_vec())));
        }
        if let Some(t) = s.tail() {
            out.push((t.number, t.bytes.to_vec()));
        }
        out
    }

    #[test]
    fn splits_at_every_position() {
        let text = b"{\"a\":1}\n\n{\"b\":\"\xc3\xa9\"}\r\nlast";
        let whole = collect(&[text]);
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[1], (2, vec![]));
        assert_eq!(whole[3], (4, b"last".to_vec()));
        for i in 0..=text.len() {
            assert_eq!(collect(&[&text[..i], &text[i..]]), whole, "split at {i}");
        }
    }

    #[test]
    fn offsets_are_stream_positions() {
        let mut s = LineSplitter::new();
        let mut offs = Vec::new();
        s.feed(b"ab\ncd", |l| offs.push(l.offset));
        s.feed(b"e\nf\n", |l| offs.push(l.offset));
        assert_eq!(offs, vec![0, 3, 7]);
        assert_eq!(s.stream_len(), 9);
    }

    #[test]
    fn tentative_tail_continues_on_same_line() {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        s.feed(b"{\"x\":1}", |l| out.push((l.number, l.bytes.to_vec())));
        let t = s.tail().expect("tail");
        assert_eq!((t.number, t.bytes), (1, &b"{\"x\":1}"[..]));
        s.consume_tail();
        assert!(s.tail().is_none());
        assert_eq!(s.lines_seen(), 1);
        s.feed(b"{\"y\":2}\n{\"z\":3}\n", |l| {
            out.push((l.number, l.bytes.to_vec()))
        });
        assert_eq!(
            out,
            vec![(1, b"{\"y\":2}".to_vec()), (2, b"{\"z\":3}".to_vec())]
        );
        // a bare newline after a tentative tail adds nothing
        let mut s = LineSplitter::new();
        s.feed(b"{}", |_| {});
        s.consume_tail();
        let mut n = 0;
        s.feed(b"\n", |_| n += 1);
        assert_eq!(n, 0);
        assert_eq!(s.lines_seen(), 1);
    }
}
