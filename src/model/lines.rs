//! Splitting a byte stream into numbered lines, incrementally.
//!
//! Bytes arrive in arbitrary chunks (a live file grows by whatever the
//! writer flushed; a chunk may end mid-line or mid-UTF-8-sequence). The
//! splitter hands out every complete line once, with its 1-based number and
//! byte offset, and keeps the unfinished tail until its newline arrives.

use memchr::memchr;

/// The pieces of `bytes` between newlines, as `bytes.split(|&b| b == b'\n')`
/// gives them, found with memchr: splitting byte by byte was a tenth of a
/// big load's decoding.
pub fn split_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', bytes)
        .chain(std::iter::once(bytes.len()))
        .map(move |end| {
            let piece = bytes.get(start..end).unwrap_or_default();
            start = end + 1;
            piece
        })
}

/// The longest line kept (256 MiB). Real lines reach a few MB (base64
/// images); a longer one is skipped without being held whole and reported
/// unreadable, so `/dev/zero` or a sparse file cannot exhaust memory.
pub const LINE_MAX: usize = 256 << 20;

/// The most a line's buffer keeps between lines (a few real lines of
/// images).
const KEEP: usize = 8 << 20;

#[derive(Debug)]
pub struct LineSplitter {
    partial: Vec<u8>,
    /// 1-based number of the next line to hand out.
    next_line: u32,
    /// Byte offset (in the whole stream) where `partial` starts.
    partial_offset: u64,
    /// The unfinished tail was already handed out tentatively (it parsed as
    /// complete JSON at EOF); how many of its bytes were consumed.
    tentative: Option<usize>,
    /// The current line passed `cap`: its bytes are dropped until its
    /// newline; this counts them.
    overlong: Option<u64>,
    cap: usize,
    /// Where the JSON of `partial` stands, up to `scanned` bytes of it: it
    /// is read on from there when asked, so "is the tail a whole object?"
    /// costs little per append, and the unfinished tails of a big load
    /// (every line that spans two chunks) are not read byte by byte unless
    /// asked about.
    scan: TailScan,
    scanned: usize,
}

impl Default for LineSplitter {
    fn default() -> Self {
        LineSplitter {
            partial: Vec::new(),
            next_line: 1,
            partial_offset: 0,
            tentative: None,
            overlong: None,
            cap: LINE_MAX,
            scan: TailScan::default(),
            scanned: 0,
        }
    }
}

/// Nesting and string state over the bytes of the unfinished line.
#[derive(Debug, Default, Clone, Copy)]
struct TailScan {
    depth: i64,
    in_str: bool,
    esc: bool,
    /// Index in `partial` just after the last byte that was not white
    /// space (kept as bytes are read: a tail of spaces that grows on every
    /// append is not read again each time).
    end: usize,
}

impl TailScan {
    /// Reads on over `bytes`, which start at `base` in `partial`.
    fn push(&mut self, bytes: &[u8], base: usize) {
        if let Some(last) = bytes.iter().rposition(|b| !b.is_ascii_whitespace()) {
            self.end = base + last + 1;
        }
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if self.esc {
                self.esc = false;
            } else if self.in_str {
                // strings are most of a line: on to their next quote or escape
                match memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                    None => return,
                    Some(j) => {
                        i += j;
                        match bytes.get(i) {
                            Some(b'\\') => self.esc = true,
                            _ => self.in_str = false,
                        }
                    }
                }
            } else {
                match b {
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => self.depth -= 1,
                    _ => {}
                }
            }
            i += 1;
        }
    }
}

/// One line handed out by the splitter.
#[derive(Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub number: u32,
    /// Where `bytes` start in the stream.
    pub offset: u64,
    pub bytes: &'a [u8],
    /// The line was longer than the cap and was skipped: how long it was
    /// (`bytes` is empty then).
    pub overlong: Option<u64>,
}

impl LineSplitter {
    pub fn new() -> Self {
        LineSplitter::default()
    }

    /// A splitter that skips lines longer than `cap` bytes (tests use a
    /// small cap).
    pub fn with_cap(cap: usize) -> Self {
        LineSplitter {
            cap,
            ..LineSplitter::default()
        }
    }

    /// Bytes consumed so far (complete lines plus the buffered tail).
    pub fn stream_len(&self) -> u64 {
        self.partial_offset + self.partial.len() as u64 + self.overlong.unwrap_or(0)
    }

    /// Feeds bytes; calls `f` for every complete line, in order. A line's
    /// bytes exclude its `\n` (and a `\r` before it). If a tentative tail was
    /// handed out before, only the bytes after it are passed, with the same
    /// line number: the caller sees them as more objects on that line.
    pub fn feed(&mut self, data: &[u8], f: impl FnMut(Line<'_>)) {
        self.feed_known(data, |_| None, f);
    }

    /// [`Self::feed`], told by `known` how long the line at a stream offset
    /// is (without its `\n` and a `\r`) when that is already known: a
    /// newline there is then taken as the line's end without looking for
    /// it. `known` must only name lines found in these same bytes (the
    /// lines a worker split a chunk into: looking for every newline again
    /// was a twentieth of the ingesting thread's time).
    pub fn feed_known(
        &mut self,
        mut data: &[u8],
        mut known: impl FnMut(u64) -> Option<usize>,
        mut f: impl FnMut(Line<'_>),
    ) {
        while !data.is_empty() {
            let fresh = self.partial.is_empty() && self.overlong.is_none();
            let ends = |len: usize| match data.get(len..len + 2) {
                Some([b'\n', _]) => Some(len),
                Some([b'\r', b'\n']) => Some(len + 1),
                _ => (data.get(len) == Some(&b'\n')).then_some(len),
            };
            let nl = match fresh.then(|| known(self.partial_offset)).flatten() {
                Some(len) => ends(len).or_else(|| memchr(b'\n', data)),
                None => memchr(b'\n', data),
            };
            debug_assert_eq!(nl, memchr(b'\n', data));
            let piece = &data[..nl.unwrap_or(data.len())];
            if let Some(skipped) = &mut self.overlong {
                *skipped += piece.len() as u64;
            } else if self.partial.len() + piece.len() > self.cap {
                // too long to hold: drop what is held and what follows
                self.overlong = Some((self.partial.len() + piece.len()) as u64);
                self.partial = Vec::new();
                self.scan = TailScan::default();
                self.scanned = 0;
                self.tentative = None;
            } else if nl.is_some() && self.partial.is_empty() {
                // the common case: a whole line in `data`, no copy
            } else {
                self.partial.extend_from_slice(piece);
            }
            let Some(nl) = nl else { return };
            let number = self.next_line;
            let offset = self.partial_offset;
            let line_len;
            if let Some(len) = self.overlong.take() {
                line_len = len;
                f(Line {
                    number,
                    offset,
                    bytes: &[],
                    overlong: Some(len),
                });
            } else if self.partial.is_empty() {
                line_len = nl as u64;
                let skip = self.tentative.take().unwrap_or(0);
                emit(&data[..nl], skip, number, offset, &mut f);
            } else {
                line_len = self.partial.len() as u64;
                let skip = self.tentative.take().unwrap_or(0);
                let mut line = std::mem::take(&mut self.partial);
                emit(&line, skip, number, offset, &mut f);
                // keep the allocation for the next partial line, but not
                // one a giant line grew (a line of 100 MB kept 128 MB
                // for as long as the session was open)
                if line.capacity() <= KEEP {
                    line.clear();
                    self.partial = line;
                }
            }
            self.scan = TailScan::default();
            self.scanned = 0;
            self.partial_offset = offset + line_len + 1;
            self.next_line += 1;
            data = &data[nl + 1..];
        }
    }

    /// The unfinished tail, if any, not counting bytes already handed out
    /// tentatively. Used at EOF: the caller decides whether it is a complete
    /// line (then calls [`Self::consume_tail`]) or a write in progress.
    pub fn tail(&self) -> Option<Line<'_>> {
        if let Some(len) = self.overlong {
            return Some(Line {
                number: self.next_line,
                offset: self.partial_offset,
                bytes: &[],
                overlong: Some(len),
            });
        }
        let skip = self.tentative.unwrap_or(0);
        let rest = self.partial.get(skip..).unwrap_or(&[]);
        let nothing_new = rest.is_empty() || skip > 0 && blank(rest);
        (!nothing_new).then(|| Line {
            number: self.next_line,
            offset: self.partial_offset + skip as u64,
            bytes: rest,
            overlong: None,
        })
    }

    /// Whether the tail may be whole JSON (its brackets close, it ends
    /// outside a string on `}` or `]`). Reads only the bytes that came
    /// since it was last asked: a write in progress is not decoded again on
    /// every append.
    pub fn tail_may_be_whole(&mut self) -> bool {
        if let Some(new) = self.partial.get(self.scanned..) {
            self.scan.push(new, self.scanned);
            self.scanned = self.partial.len();
        }
        let skip = self.tentative.unwrap_or(0);
        let t = &self.scan;
        self.overlong.is_none()
            && t.depth == 0
            && !t.in_str
            && t.end > skip
            && matches!(self.partial.get(t.end - 1), Some(b'}' | b']'))
    }

    /// Marks the tail as handed out. If more bytes later continue the same
    /// line, only those are passed on. An overlong tail is dropped.
    pub fn consume_tail(&mut self) {
        if let Some(len) = self.overlong.take() {
            // counted as a line; what follows starts a new one
            self.partial_offset += len;
            self.next_line += 1;
            return;
        }
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
    if skip > 0 && blank(bytes) {
        // the tentative tail was the whole line: nothing new
        return;
    }
    f(Line {
        number,
        offset: offset + skip as u64,
        bytes,
        overlong: None,
    });
}

/// Whether what followed a tail handed out tentatively is only white
/// space: the line read whole (`{…}\r`, `{…}  `) decodes to that tail
/// alone, so it is nothing new (handed on, it was an "empty line" the
/// whole read never reports). White space as the decoder skips it around
/// the line's objects (`str::trim`). Read from the start up to the first
/// byte of anything else, and no further than 4 KB (more white space
/// than that is handed on, an "empty line" again): asked at every
/// append, it must not read a long line coming in pieces each time.
fn blank(rest: &[u8]) -> bool {
    if rest.len() > 4096 {
        return false;
    }
    let mut at = 0;
    while let Some(&b) = rest.get(at) {
        if b.is_ascii() {
            if !b.is_ascii_whitespace() {
                return false;
            }
            at += 1;
            continue;
        }
        // a character of several bytes: white space of another kind?
        let window = rest.get(at..rest.len().min(at + 4)).unwrap_or_default();
        let valid = match std::str::from_utf8(window) {
            Ok(t) => t,
            Err(e) => window
                .get(..e.valid_up_to())
                .and_then(|w| std::str::from_utf8(w).ok())
                .unwrap_or_default(),
        };
        match valid.chars().next() {
            Some(c) if c.is_whitespace() => at += c.len_utf8(),
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_giant_line_is_not_held_after_it_is_handed_out() {
        let mut s = super::LineSplitter::new();
        let big = vec![b'x'; 3 * super::KEEP];
        let mut lens = Vec::new();
        // in two reads, so the splitter holds it whole
        s.feed(&big[..super::KEEP], |l| lens.push(l.bytes.len()));
        s.feed(&big[super::KEEP..], |l| lens.push(l.bytes.len()));
        s.feed(b"\nsmall\n", |l| lens.push(l.bytes.len()));
        assert_eq!(lens, [3 * super::KEEP, 5]);
        assert!(s.partial.capacity() <= super::KEEP);
    }

    #[test]
    fn split_lines_splits_as_slice_split_does() {
        for b in [
            &b""[..],
            b"\n",
            b"\n\n",
            b"a",
            b"a\n",
            b"\na",
            b"ab\ncd\n\nef",
            b"\r\n\r\n",
        ] {
            let fast: Vec<&[u8]> = super::split_lines(b).collect();
            let slow: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
            assert_eq!(fast, slow, "{b:?}");
        }
    }

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
        // nor does white space after it, ended or not: read whole, the
        // line decodes to that tail alone
        for rest in [&b"\r"[..], b" \t\r", "\u{a0} \u{2028}\u{3000}".as_bytes()] {
            let mut s = LineSplitter::new();
            s.feed(b"{}", |_| {});
            s.consume_tail();
            let mut n = 0;
            s.feed(rest, |_| n += 1);
            assert!(s.tail().is_none(), "{rest:?}");
            s.feed(b"\n{}\n", |l| {
                assert_eq!((l.number, l.bytes), (2, &b"{}"[..]));
                n += 1;
            });
            assert_eq!(n, 1, "{rest:?}");
        }
        // what is no white space is still a line of its own
        for rest in [&b" x"[..], "\u{a0}é".as_bytes(), b"\t\xff", b" \xe3\x80"] {
            let mut s = LineSplitter::new();
            s.feed(b"{}", |_| {});
            s.consume_tail();
            s.feed(rest, |_| {});
            assert_eq!(s.tail().map(|t| t.bytes), Some(rest), "{rest:?}");
        }
        assert!(super::blank(b""));
        assert!(super::blank(" \u{85}\u{feff}".as_bytes()) == " \u{85}\u{feff}".trim().is_empty());
    }

    #[test]
    fn an_overlong_line_is_skipped_without_being_held() {
        let mut s = LineSplitter::with_cap(10);
        let mut out = Vec::new();
        s.feed(b"{\"a\":1}\n0123456", |l| {
            out.push((l.number, l.bytes.to_vec(), l.overlong))
        });
        for _ in 0..1000 {
            s.feed(b"0123456789", |_| unreachable!());
            assert!(s.partial.capacity() <= 64, "not held");
        }
        s.feed(b"tail\n{}\n", |l| {
            out.push((l.number, l.bytes.to_vec(), l.overlong))
        });
        assert_eq!(out[0], (1, b"{\"a\":1}".to_vec(), None));
        assert_eq!(out[1], (2, vec![], Some(7 + 10_000 + 4)));
        assert_eq!(out[2], (3, b"{}".to_vec(), None));
        assert_eq!(s.stream_len(), 8 + 7 + 10_000 + 4 + 1 + 3);
        // at EOF, still inside one
        let mut s = LineSplitter::with_cap(4);
        s.feed(b"0123456789", |_| unreachable!());
        assert_eq!(s.tail().map(|t| t.overlong), Some(Some(10)));
        s.consume_tail();
        assert!(s.tail().is_none());
        assert_eq!(s.lines_seen(), 1);
    }

    #[test]
    fn the_tail_scan_knows_a_whole_object_without_decoding() {
        let mut s = LineSplitter::new();
        for (piece, whole) in [
            (&b"{\"a\":\"x}"[..], false),
            (b" \\\" }", false),
            (b"\"", false),
            (b",\"b\":[1,{}]", false),
            (b"} ", true),
            (b"{", false),
            (b"}", true),
        ] {
            s.feed(piece, |_| {});
            assert_eq!(
                s.tail_may_be_whole(),
                whole,
                "after {:?}",
                String::from_utf8_lossy(piece)
            );
        }
        s.consume_tail();
        assert!(!s.tail_may_be_whole());
    }

    /// Read in one piece or cut anywhere in two, read at once or asked
    /// about after each piece: the same answer.
    #[test]
    fn the_tail_scan_does_not_depend_on_where_bytes_are_cut() {
        let tails: [&[u8]; 8] = [
            b"{\"a\":\"x}\\\\\"}",
            b"{\"a\":\"\\\"}\"}",
            b"{\"a\":[\"]\",{\"b\":\"\\\\\"}]} \t",
            b"{\"a\":\"\\\\\\\"\"}",
            b"[1,2,{\"k\":\"{[\"}]",
            b"{\"a\":1}}",
            b"{\"a\":\"unterminated}",
            b"  {\"e\":\"\\u0041\"}\r",
        ];
        for tail in tails {
            let mut whole = LineSplitter::new();
            whole.feed(tail, |_| {});
            let expect = whole.tail_may_be_whole();
            for cut in 0..=tail.len() {
                for ask_between in [false, true] {
                    let mut s = LineSplitter::new();
                    s.feed(&tail[..cut], |_| {});
                    if ask_between {
                        s.tail_may_be_whole();
                    }
                    s.feed(&tail[cut..], |_| {});
                    assert_eq!(
                        s.tail_may_be_whole(),
                        expect,
                        "{:?} cut at {cut}",
                        String::from_utf8_lossy(tail)
                    );
                }
            }
        }
        // and what it says of these, read whole
        let says = |t: &[u8]| {
            let mut s = LineSplitter::new();
            s.feed(t, |_| {});
            s.tail_may_be_whole()
        };
        assert!(says(tails[0]));
        assert!(says(tails[1]));
        assert!(says(tails[2]));
        assert!(says(tails[3]));
        assert!(says(tails[4]));
        assert!(!says(tails[5]));
        assert!(!says(tails[6]));
        assert!(says(tails[7]));
    }
}
