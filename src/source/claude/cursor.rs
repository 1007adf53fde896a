//! A reading position in a line of JSON, for the questions asked of
//! every line of a big history (is it only tool results? when was it
//! written?): strings are skipped a block of bytes at a time (see
//! `string_end`), nothing is unescaped or allocated, and any doubt (a key
//! twice, a shape not expected, a line that does not read as JSON up to
//! where it matters) is `None`, which the callers take as "decode it".

pub(crate) struct Cursor<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) i: usize,
    /// Objects and arrays open around the position.
    depth: u32,
}

/// Nesting deeper than this is doubt. Each level is a frame of the stack
/// here, and a line of 200,000 brackets overflowed it and aborted a
/// listing. Serde refuses a line nested deeper than 128 anyway, so such
/// a line is reported as unreadable.
const DEEPEST: u32 = 128;

impl<'a> Cursor<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Cursor::at(b, 0)
    }

    /// A cursor at byte `i` of `b`, as if outside any object.
    pub(crate) fn at(b: &'a [u8], i: usize) -> Self {
        Cursor { b, i, depth: 0 }
    }

    /// Another cursor at the same place, to read ahead with.
    pub(crate) fn fork(&self) -> Cursor<'a> {
        Cursor {
            b: self.b,
            i: self.i,
            depth: self.depth,
        }
    }

    /// One level deeper, unless that is too deep.
    fn enter(&mut self) -> Option<()> {
        (self.depth < DEEPEST).then(|| self.depth += 1)
    }

    pub(crate) fn ws(&mut self) {
        while self
            .b
            .get(self.i)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        {
            self.i += 1;
        }
    }

    pub(crate) fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    /// A string's raw bytes (escapes left in): keys and the values looked
    /// at are plain words, which never hold one.
    pub(crate) fn string(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        let end = super::string_end::string_end(self.b, start)?;
        self.i = end + 1;
        Some(&self.b[start..end])
    }

    /// The members of an object, each handed to `member` at its value
    /// (which it must read or skip); a key twice is refused.
    pub(crate) fn object(
        &mut self,
        member: &mut impl FnMut(&mut Cursor<'a>, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.enter()?;
        let read = self.members(member);
        self.depth -= 1;
        read
    }

    fn members(
        &mut self,
        member: &mut impl FnMut(&mut Cursor<'a>, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        // the keys so far, without allocating for the few of most
        // objects (a tool's output may have more)
        let mut seen: [&[u8]; 32] = [&[]; 32];
        let mut more: Vec<&[u8]> = Vec::new();
        let mut n = 0;
        loop {
            let key = self.string()?;
            if holds(&seen[..n], key) || (!more.is_empty() && holds(&more, key)) {
                return None;
            }
            match seen.get_mut(n) {
                Some(slot) => {
                    *slot = key;
                    n += 1;
                }
                None => more.push(key),
            }
            self.eat(b':')?;
            member(self, key)?;
            if self.ended(b'}')? {
                return Some(());
            }
        }
    }

    /// After a member or an element: past a comma (`false`) or the
    /// closing `close` (`true`); anything else is `None`.
    pub(crate) fn ended(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.i += 1;
                Some(false)
            }
            c if c == close => {
                self.i += 1;
                Some(true)
            }
            _ => None,
        }
    }

    /// The value of an object's member `name`, read by `read`, the other
    /// members passed over (`Some(None)`: it has none).
    pub(crate) fn member<T>(
        &mut self,
        name: &[u8],
        mut read: impl FnMut(&mut Cursor<'a>) -> Option<T>,
    ) -> Option<Option<T>> {
        let mut value = None;
        self.object(&mut |c, key| {
            if key == name {
                value = Some(read(c)?);
                Some(())
            } else {
                c.skip()
            }
        })?;
        Some(value)
    }

    /// Passes over one value of any kind.
    pub(crate) fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' => self.object(&mut |c, _| c.skip()),
            b'[' => self.array(&mut |c| c.skip()),
            _ => {
                // a number, true, false or null: up to what ends it
                let start = self.i;
                while self.b.get(self.i).is_some_and(|c| {
                    !matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
                }) {
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    /// The elements of an array, each handed to `element` at its start
    /// (which it must read or skip).
    pub(crate) fn array(
        &mut self,
        element: &mut impl FnMut(&mut Cursor<'a>) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'[')?;
        self.enter()?;
        let read = self.each_element(element);
        self.depth -= 1;
        read
    }

    fn each_element(
        &mut self,
        element: &mut impl FnMut(&mut Cursor<'a>) -> Option<()>,
    ) -> Option<()> {
        if self.eat(b']').is_some() {
            return Some(());
        }
        loop {
            element(self)?;
            if self.ended(b']')? {
                return Some(());
            }
        }
    }
}

/// Whether `line` may hold an entry joined to another (`}{"`, a writer
/// that never wrote its newline: the model reads both, and the second may
/// be an answer or a newer line), after byte `from`, up to which it was
/// read as one entry. The questions asked of a line (see `figures`,
/// `line_time`) stop reading once they know the answer, before its end:
/// where an object with a key may follow an object (see [`after_object`]),
/// the line is walked to the end of its entry, which must be the line's.
pub(crate) fn joined(line: &[u8], from: usize) -> bool {
    let rest = line.get(from..).unwrap_or_default();
    if !memchr::memchr_iter(b'{', rest).any(|at| after_object(line, from + at)) {
        return false;
    }
    let mut c = Cursor::new(line);
    c.skip().is_none()
        || std::str::from_utf8(&line[c.i..]).map_or(true, |rest| !rest.trim().is_empty())
}

/// Whether the `{` at `at` begins an object with a key (white space, then
/// `"`) right after one that ended (a `}`, then white space). Inside a
/// JSON string a `"` is escaped, so there only a string that ends with
/// `}{` is one (Go's `struct{}{}` and `interface{}{\"a\"…` are not).
fn after_object(line: &[u8], at: usize) -> bool {
    let key = line[at + 1..]
        .iter()
        .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
    if key != Some(&b'"') {
        return false;
    }
    let mut before = &line[..at];
    loop {
        match before.last() {
            Some(b'}') => return true,
            Some(&c) if c < 0x80 && char::from(c).is_whitespace() => {
                before = &before[..before.len() - 1];
            }
            // the model passes over Unicode's white space between
            // entries, of more than one byte too
            Some(c) if *c >= 0x80 => {
                let start = (1..=4.min(before.len()))
                    .map(|n| before.len() - n)
                    .find(|&i| before[i] & 0xC0 != 0x80);
                let ch = start
                    .and_then(|i| std::str::from_utf8(&before[i..]).ok())
                    .and_then(|s| s.chars().next());
                match (start, ch) {
                    (Some(i), Some(ch)) if ch.is_whitespace() => before = &before[..i],
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
}

/// Whether `keys` holds `key` (an object's keys so far): on every member
/// of every line a listing or an index walks, and a call to `contains`
/// when the build put it in another unit than its caller.
#[inline(always)]
#[allow(clippy::manual_contains)] // `contains` is the call this is not
fn holds(keys: &[&[u8]], key: &[u8]) -> bool {
    keys.iter().any(|k| *k == key)
}

#[cfg(test)]
mod tests {
    use super::Cursor;

    #[test]
    fn a_line_cut_after_a_backslash_is_doubt_not_a_crash() {
        for line in [&b"\"abc\\"[..], b"\"\\", b"\"a\\\\\\", b"\"\\\"", b"\""] {
            assert_eq!(Cursor::new(line).string(), None, "{line:?}");
        }
        let line = br#"{"type":"user","x":"tool_result\"#;
        assert!(!super::super::figures::only_tool_results(line));
        assert_eq!(super::super::line_time::own_time(line), None);
    }

    /// An object of many keys is walked (a key twice in it is still
    /// refused), however many there are.
    #[test]
    fn an_object_of_many_keys_is_walked_and_a_key_twice_refused() {
        for n in [1, 31, 32, 33, 100] {
            let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\":{i}")).collect();
            let line = format!("{{{}}}", keys.join(","));
            assert_eq!(Cursor::new(line.as_bytes()).skip(), Some(()), "{n}");
            let twice = format!("{{{},\"k0\":1}}", keys.join(","));
            assert_eq!(Cursor::new(twice.as_bytes()).skip(), None, "{n}");
        }
    }

    /// Nesting of any depth is an answer or doubt, never an overflow of
    /// the stack: up to 128 levels is read, deeper is doubt.
    #[test]
    fn deep_nesting_is_doubt_not_a_crash() {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let nested = |n: usize| format!("{}1{}", open.repeat(n), close.repeat(n));
            assert_eq!(Cursor::new(nested(128).as_bytes()).skip(), Some(()));
            assert_eq!(Cursor::new(nested(129).as_bytes()).skip(), None);
            assert_eq!(Cursor::new(nested(200_000).as_bytes()).skip(), None);
            let line = format!(
                r#"{{"type":"user","x":{},"message":{{"content":[{{"type":"tool_result"}}]}}}}"#,
                nested(200_000)
            );
            assert!(!super::super::figures::only_tool_results(line.as_bytes()));
            assert_eq!(super::super::line_time::own_time(line.as_bytes()), None);
            assert_eq!(
                super::super::unshown::tool_use_result(line.as_bytes()),
                None
            );
        }
    }

    /// Every line cut at every byte, as a file being written or a crash
    /// leaves its last one: an answer or doubt, never a panic.
    #[test]
    fn every_cut_of_a_line_is_answered() {
        let lines = [
            r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"a\\\"b\\\\\"\n{x}"}]},"uuid":"u","timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"type":"progress","data":{"type":"bash_progress","output":"\\\"\u0022"},"timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"assistant","message":{"content":[{"type":"text","text":"\\"}]}}"#,
        ];
        for line in lines {
            let b = line.as_bytes();
            for cut in 0..=b.len() {
                let part = &b[..cut];
                let _ = super::super::figures::only_tool_results(part);
                let _ = super::super::figures::only_side_progress(part);
                let _ = super::super::line_time::own_time(part);
            }
            // whole, each is read for what it is
            assert!(
                super::super::figures::only_tool_results(b)
                    || super::super::figures::only_side_progress(b)
                    || super::super::line_time::own_time(b).is_some(),
                "{line}"
            );
        }
    }
}
