//! A line that starts in one chunk of a parallel load and ends in a later
//! one (see [`super::parallel`]): the chunk's worker reads on to its end
//! and decodes it, and the ingest feeds it to the splitter from that
//! read, whole, once the chunks it spans have shown the same bytes. The
//! splitter so never copies it piece by piece (a line of 50 MB was held
//! three times: read on, copied by the splitter, decoded).

use super::parallel::{Ahead, Chunk, Decodes, Line, ahead_of};
use crate::model::session::Session;
use crate::model::stored::fill_at;
use std::fs::File;

/// The longest line read past its chunk: a longer one is decoded by the
/// ingesting thread (as all were), not held twice here.
const SPANNING_MAX: usize = 64 << 20;

/// A line's bytes with its ending (`\n`, or `\r\n`): what the splitter is
/// fed. `len`: the line's own bytes, what is decoded.
pub struct LineBytes {
    bytes: Vec<u8>,
    len: usize,
}

self_cell::self_cell!(
    /// A line that starts in a chunk and ends past it, read on to its end
    /// and decoded by the chunk's worker, as the line's bytes it borrows
    /// from. Otherwise the ingesting thread decodes it, and the biggest
    /// lines are the likeliest to span two chunks: the 100 lines of a
    /// 100 MB session that span its 1 MB chunks are 2.7 MB.
    pub struct Spanning {
        owner: LineBytes,
        #[covariant]
        dependent: Decodes,
    }
);

impl Spanning {
    /// Where the line starts in the file.
    fn offset(&self) -> u64 {
        self.borrow_dependent()
            .lines
            .first()
            .map_or(0, |a| a.offset)
    }
}

/// The line `c` ends inside of, if it starts in `c` (after its last
/// newline, or at the file's start), read on from the file up to its
/// newline (before `size`) and decoded. `None` when the chunk ends on a
/// newline, the line ends past `size`, or it does not read cleanly.
pub(super) fn spanning_line(f: &File, size: u64, c: &Chunk) -> Option<Spanning> {
    let start = match memchr::memrchr(b'\n', &c.bytes) {
        Some(last) => last + 1,
        None if c.offset == 0 => 0,
        None => return None, // the line started in an earlier chunk
    };
    let head = c.bytes.get(start..).filter(|h| !h.is_empty())?;
    let from = c.offset + c.bytes.len() as u64;
    let rest = rest_len(f, size, from, SPANNING_MAX.saturating_sub(head.len()))?;
    // read into a buffer of its size at once: grown as it was read, a line
    // of 50 MB took 69 MB, and more while a growth copied it
    let mut bytes = Vec::with_capacity(head.len() + rest);
    bytes.extend_from_slice(head);
    bytes.resize(head.len() + rest, 0);
    let n = fill_at(f, bytes.get_mut(head.len()..)?, from).ok()?;
    if n != rest || bytes.last() != Some(&b'\n') {
        return None; // the file changed since its end was found
    }
    let mut len = bytes.len() - 1;
    if len > 0 && bytes.get(len - 1) == Some(&b'\r') {
        len -= 1;
    }
    let offset = c.offset + start as u64;
    let span = Spanning::new(LineBytes { bytes, len }, |owner| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let line = owner.bytes.get(..owner.len).unwrap_or_default();
            let mut d = Decodes::default();
            if let Some(entries) = ahead_of(Line::Bytes(line), c, &mut d) {
                d.lines.push(Ahead {
                    offset,
                    len: line.len(),
                    addr: line.as_ptr() as usize,
                    entries,
                });
            }
            d
        }))
        .unwrap_or_default()
    });
    (!span.borrow_dependent().lines.is_empty()).then_some(span)
}

/// How many bytes from `from` up to and with the next newline (before
/// `size`), at most `most`: found through a small buffer, so that the
/// line can then be read at once.
fn rest_len(f: &File, size: u64, from: u64, most: usize) -> Option<usize> {
    // the lines a chunk ends inside of are tens of KB on average: a first
    // read of 16 KB, growing
    let mut buf = vec![0u8; 16 << 10];
    let mut at = from;
    loop {
        let want = buf
            .len()
            .min(usize::try_from(size.saturating_sub(at)).ok()?);
        let seen = usize::try_from(at - from).ok()?;
        if want == 0 || seen > most {
            return None;
        }
        let n = fill_at(f, buf.get_mut(..want)?, at).ok()?;
        if n == 0 {
            return None;
        }
        if let Some(nl) = memchr::memchr(b'\n', buf.get(..n)?) {
            return Some(seen + nl + 1).filter(|&len| len <= most.saturating_add(1));
        }
        at += n as u64;
        if buf.len() < 1 << 20 {
            buf.resize(buf.len() * 2, 0);
        }
    }
}

/// The line the chunks fed last end inside of, decoded ahead, and how
/// much of it the chunks after its start have shown.
pub(super) struct Carry {
    line: Spanning,
    /// Bytes of the line (and its ending) the chunks showed that the
    /// splitter has not been fed: they are the line's, and it is fed
    /// whole from them when its end shows.
    held: usize,
}

impl Carry {
    /// `line`, which starts `head` bytes before the end of the chunk it
    /// was read from: those are held (they are its own first bytes).
    pub(super) fn new(line: Spanning, head: usize) -> Self {
        Carry { line, held: head }
    }

    /// The carry for a chunk that holds the start of `line` (`chunk`: its
    /// bytes, from `offset`): where the line starts in them, the bytes
    /// that then need feeding in order.
    pub(super) fn start_in(line: &Spanning, offset: u64, chunk: &[u8]) -> Option<usize> {
        let start = usize::try_from(line.offset().checked_sub(offset)?).ok()?;
        let head = chunk.get(start..)?;
        let whole = &line.borrow_owner().bytes;
        (whole.get(..head.len()) == Some(head)).then_some(start)
    }

    /// Whether the line's bytes are still held (not yet fed).
    pub(super) fn holding(&self) -> bool {
        self.held > 0
    }

    /// Takes the chunk `bytes` that come next in the file: how many of
    /// them are the held line's, when they are its next bytes (all of
    /// them, or up to its end, which feeds the line whole to `s` with its
    /// decoded objects). When they are not (the file changed between the
    /// reads), what was held is fed as it was shown, to be completed by
    /// these bytes as any line is, and 0 is taken.
    pub(super) fn take(&mut self, s: &mut Session, source: u16, bytes: &[u8]) -> usize {
        if self.held == 0 {
            return 0;
        }
        let whole = &self.line.borrow_owner().bytes;
        let (len, rest) = (whole.len(), whole.get(self.held..).unwrap_or_default());
        let n = rest.len().min(bytes.len());
        if rest.get(..n) != bytes.get(..n) {
            self.release(s, source);
            return 0;
        }
        self.held += n;
        if self.held == len {
            self.held = 0;
            self.line.with_dependent_mut(|owner, span| {
                let line = owner.bytes.get(..owner.len).unwrap_or_default();
                s.feed_decoded(
                    source,
                    &owner.bytes,
                    Some((line, span)),
                    &mut Default::default(),
                );
            });
        }
        n
    }

    /// Feeds what is held, as the chunks showed it (the load stops before
    /// the line's end: it is read on in order).
    pub(super) fn release(&mut self, s: &mut Session, source: u16) {
        let held = std::mem::take(&mut self.held);
        if held > 0 {
            let whole = &self.line.borrow_owner().bytes;
            s.feed(source, whole.get(..held).unwrap_or_default());
        }
    }

    /// `f` given the line's bytes and its objects, as a chunk after it is
    /// fed with them (see `Session::feed_decoded`).
    pub(super) fn with_line<R>(
        &mut self,
        f: impl for<'q> FnOnce(&'q [u8], &mut Decodes<'q>) -> R,
    ) -> R {
        self.line.with_dependent_mut(|owner, span| {
            f(owner.bytes.get(..owner.len).unwrap_or_default(), span)
        })
    }

    /// Whether the line ends at or before `end` (a stream offset).
    pub(super) fn ends_by(&self, end: u64) -> bool {
        self.line
            .borrow_dependent()
            .lines
            .first()
            .is_none_or(|a| a.offset + a.len as u64 <= end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{Format, Options, export};

    fn line(id: &str, text: &str) -> String {
        let m = serde_json::json!({"role": "user", "content": text});
        serde_json::json!({"type": "user", "uuid": id, "sessionId": "s", "message": m}).to_string()
    }

    fn outcome(s: &Session) -> String {
        let mut out = Vec::new();
        let opts = Options {
            format: Format::Json,
            ..Default::default()
        };
        export(s, &opts, &mut out).expect("export");
        let st = &s.stats;
        let counts = (st.entries, st.shown, st.hidden, st.unreadable, st.recovered);
        format!("{}\n{counts:?}", String::from_utf8_lossy(&out))
    }

    /// A line held from the chunk it starts in is fed whole when the
    /// chunks after show its bytes; as they show them when they do not
    /// (the file changed between the reads), or when they stop before its
    /// end: the session is then what a plain feed of the chunks makes.
    #[test]
    fn a_line_held_is_fed_as_the_chunks_show_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.jsonl");
        let long = "y".repeat(300_000);
        let file = format!(
            "{}\n{}\r\n{}\n",
            line("u1", "a"),
            line("u2", &long),
            line("u3", "b")
        );
        let file = file.into_bytes();
        std::fs::write(&path, &file).expect("write");
        let mut changed = file.clone();
        changed[file.len() / 2] = b'z';
        let mut broken = file.clone();
        broken[file.len() - 40] = b'{';
        let cases = [
            (&file, file.len()),
            (&changed, file.len()),
            (&broken, file.len()),
            (&file, 200_000),
        ];
        for (k, (shown, end)) in cases.into_iter().enumerate() {
            let f = File::open(&path).expect("open");
            let c = Chunk {
                offset: 0,
                bytes: file[..100_000].to_vec(),
                hold: false,
                summaries: true,
                read_ahead: None,
            };
            let line = spanning_line(&f, file.len() as u64, &c).expect("read on");
            let start = Carry::start_in(&line, 0, &c.bytes).expect("starts in the chunk");
            let mut s = Session::new(Some(path.clone()));
            s.feed(0, &c.bytes[..start]);
            let mut carry = Carry::new(line, c.bytes.len() - start);
            for piece in shown[100_000..end].chunks(65_536) {
                let n = carry.take(&mut s, 0, piece);
                s.feed(0, &piece[n..]);
            }
            carry.release(&mut s, 0);
            s.finish(0);
            let mut plain = Session::new(Some(path.clone()));
            plain.feed(0, &shown[..end]);
            plain.finish(0);
            assert_eq!(outcome(&s), outcome(&plain), "case {k}");
        }
    }
}
