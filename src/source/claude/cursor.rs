//! A reading position in a line of JSON, for the questions asked of
//! every line of a big history (is it only tool results? when was it
//! written?): strings are skipped with `memchr`, nothing is unescaped or
//! allocated, and any doubt (a key twice, a shape not expected, a line
//! that does not read as JSON up to where it matters) is `None`, which
//! the callers take as "decode it".

pub(crate) struct Cursor<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) i: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Cursor { b, i: 0 }
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
        loop {
            let k = memchr::memchr2(b'"', b'\\', &self.b[self.i..])?;
            self.i += k;
            if self.b[self.i] == b'\\' {
                self.i += 2;
                continue;
            }
            let s = &self.b[start..self.i];
            self.i += 1;
            return Some(s);
        }
    }

    /// The members of an object, each handed to `member` at its value
    /// (which it must read or skip); a key twice is refused.
    pub(crate) fn object(
        &mut self,
        member: &mut dyn FnMut(&mut Cursor<'a>, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        let mut seen: Vec<&[u8]> = Vec::new();
        loop {
            let key = self.string()?;
            if seen.contains(&key) {
                return None;
            }
            seen.push(key);
            self.eat(b':')?;
            member(self, key)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Passes over one value of any kind.
    pub(crate) fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' => self.object(&mut |c, _| c.skip()),
            b'[' => {
                self.i += 1;
                if self.eat(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip()?;
                    match self.peek()? {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
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
}
