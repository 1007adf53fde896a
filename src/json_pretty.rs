//! A call's input as `serde_json::to_string_pretty` writes it, re-indented
//! straight from the JSON as written. Reading it into a `Value` (a map per
//! object, a `String` per string) only to write it out again was a
//! twentieth of a big export. Only JSON that serde would write back token
//! for token (strings escaped as serde escapes them, plain integers, no
//! key twice in an object) is re-indented here; any other is not (`None`),
//! and goes through `Value` as before.

/// Deeper than serde_json reads (128): left to it, to fail as it fails.
const DEPTH: usize = 100;

/// More keys than this in one object are left to `Value`: a repeated key
/// is looked for among the keys before it.
const KEYS: usize = 64;

/// `raw` as `serde_json::to_string_pretty` writes the `Value` it reads
/// as, when that can be told without reading one.
pub fn pretty(raw: &str) -> Option<String> {
    let mut p = Pretty {
        b: raw.as_bytes(),
        i: 0,
        out: Vec::with_capacity(raw.len() + raw.len() / 4),
    };
    p.value(0)?;
    p.space();
    if p.i != p.b.len() {
        return None;
    }
    String::from_utf8(p.out).ok()
}

/// `raw` pretty-printed, by [`pretty`] when it can and through a `Value`
/// (keys kept in order) when not; `None` when it is not JSON.
pub fn pretty_any(raw: &str) -> Option<String> {
    pretty(raw).or_else(|| {
        let v: serde_json::Value = serde_json::from_str(raw).ok()?;
        serde_json::to_string_pretty(&v).ok()
    })
}

struct Pretty<'a> {
    b: &'a [u8],
    i: usize,
    out: Vec<u8>,
}

impl<'a> Pretty<'a> {
    fn space(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn next(&mut self) -> Option<u8> {
        self.space();
        let c = *self.b.get(self.i)?;
        self.i += 1;
        Some(c)
    }

    fn line(&mut self, depth: usize) {
        self.out.push(b'\n');
        for _ in 0..depth {
            self.out.extend_from_slice(b"  ");
        }
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        if depth > DEPTH {
            return None;
        }
        self.space();
        match *self.b.get(self.i)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => {
                let s = self.string()?;
                self.out.extend_from_slice(s);
                Some(())
            }
            b'-' | b'0'..=b'9' => self.integer(),
            _ => self.literal(),
        }
    }

    /// Past the bracket `open` at the cursor: written, and whether it
    /// closes at once (then written closed: `{}`, `[]`).
    fn opened(&mut self, open: u8, close: u8) -> bool {
        self.i += 1;
        self.space();
        self.out.push(open);
        let empty = self.b.get(self.i) == Some(&close);
        if empty {
            self.i += 1;
            self.out.push(close);
        }
        empty
    }

    /// After a member: whether `close` ends the list (else a comma
    /// follows, and another member).
    fn ends(&mut self, close: u8) -> Option<bool> {
        match self.next()? {
            b',' => Some(false),
            c => (c == close).then_some(true),
        }
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        if self.opened(b'{', b'}') {
            return Some(());
        }
        let mut keys: Vec<&[u8]> = Vec::new();
        loop {
            self.space();
            let key = self.string()?;
            // a string has one form serde writes: the same key is the
            // same bytes
            if keys.len() >= KEYS || keys.contains(&key) {
                return None;
            }
            keys.push(key);
            if keys.len() > 1 {
                self.out.push(b',');
            }
            self.line(depth + 1);
            self.out.extend_from_slice(key);
            self.out.extend_from_slice(b": ");
            if self.next()? != b':' {
                return None;
            }
            self.value(depth + 1)?;
            if self.ends(b'}')? {
                break;
            }
        }
        self.line(depth);
        self.out.push(b'}');
        Some(())
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        if self.opened(b'[', b']') {
            return Some(());
        }
        let mut first = true;
        loop {
            if !first {
                self.out.push(b',');
            }
            first = false;
            self.line(depth + 1);
            self.value(depth + 1)?;
            if self.ends(b']')? {
                break;
            }
        }
        self.line(depth);
        self.out.push(b']');
        Some(())
    }

    /// A string token (with its quotes) at the cursor, if serde writes its
    /// text so: its escapes are those serde writes (`\"`, `\\`, `\b`, `\f`,
    /// `\n`, `\r`, `\t`, and `\u00xx` in lower case for the other
    /// controls), and no other.
    fn string(&mut self) -> Option<&'a [u8]> {
        let b = self.b;
        let start = self.i;
        if b.get(start) != Some(&b'"') {
            return None;
        }
        let mut i = start + 1;
        loop {
            let at = i + memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
            i = at + 1;
            match b[at] {
                b'"' => break,
                b'\\' => match *b.get(i)? {
                    b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => i += 1,
                    b'u' => {
                        let hex = b.get(i + 1..i + 5)?;
                        // a control below 0x20, in lower case, that has no
                        // short escape (\b \t \n \f \r are 08 09 0a 0c 0d)
                        let control = matches!(hex, [b'0', b'0', b'0' | b'1', _]);
                        let lower = hex.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
                        let short =
                            matches!(hex, [b'0', b'0', b'0', b'8' | b'9' | b'a' | b'c' | b'd']);
                        if !control || !lower || short {
                            return None;
                        }
                        i += 5;
                    }
                    _ => return None,
                },
                _ => {}
            }
        }
        // a raw control is not JSON: serde would not have read it
        let token = b.get(start..i)?;
        if token.iter().any(|&c| c < 0x20) {
            return None;
        }
        self.i = i;
        Some(token)
    }

    /// A plain integer that both i64 and u64 hold: serde writes it back as
    /// written (a float or `-0` it writes in a form of its own).
    fn integer(&mut self) -> Option<()> {
        let b = self.b;
        let start = self.i;
        let digits = start + usize::from(b.get(start) == Some(&b'-'));
        let end = digits
            + b.get(digits..)?
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        let n = end - digits;
        if n == 0 || n > 18 || (b[digits] == b'0' && (n > 1 || digits > start)) {
            return None;
        }
        if matches!(b.get(end), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.out.extend_from_slice(&b[start..end]);
        self.i = end;
        Some(())
    }

    fn literal(&mut self) -> Option<()> {
        let rest = self.b.get(self.i..)?;
        let word: &[u8] = [b"true".as_slice(), b"false", b"null"]
            .into_iter()
            .find(|w| rest.starts_with(w))?;
        self.out.extend_from_slice(word);
        self.i += word.len();
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::pretty;

    fn serde_pretty(raw: &str) -> Option<String> {
        let v: serde_json::Value = serde_json::from_str(raw).ok()?;
        serde_json::to_string_pretty(&v).ok()
    }

    /// Where this writes anything, it is what serde writes.
    fn same(raw: &str) -> bool {
        match pretty(raw) {
            Some(p) => {
                assert_eq!(Some(p), serde_pretty(raw), "{raw:?}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn plain_input_is_reindented_as_serde_does() {
        for raw in [
            r#"{"command":"cargo test","description":"Run the tests"}"#,
            r#"{"file_path":"/a/b.rs","old_string":"fn a() {\n\t\"x\"\n}","new_string":"é👇\u001b[31m\u0000","replace_all":false}"#,
            r#" { "a" : [ 1 , -2 , 0 , [ ] , { } , null , true ] , "b" : { "c" : [ { "d" : "" } ] } } "#,
            r#"[]"#,
            r#""just a string""#,
            r#"123456789012345678"#,
            "{\"todos\":[{\"content\":\"a\",\"status\":\"pending\"},{\"content\":\"b\\\\c\",\"status\":\"done\"}]}",
            "{\"del\":\"\u{7f}\",\"c1\":\"\u{85}\u{202e}\"}",
        ] {
            assert!(same(raw), "not re-indented: {raw:?}");
        }
    }

    #[test]
    fn input_serde_writes_otherwise_is_left_to_it() {
        for raw in [
            r#"{"a":1,"a":2}"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":-0}"#,
            r#"{"a":12345678901234567890}"#,
            r#"{"a":"\/"}"#,
            r#"{"a":"\u0041"}"#,
            r#"{"a":"\u001B"}"#,
            r#"{"a":"\u000a"}"#,
            r#"{"a":"\u00e9"}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":1} x"#,
            r#"{"a":tru}"#,
            r#"{"a" 1}"#,
            r#"[1,]"#,
            r#"{"#,
            "",
        ] {
            assert_eq!(pretty(raw), None, "{raw:?}");
        }
        let deep = format!("{}{}", "[".repeat(150), "]".repeat(150));
        assert_eq!(pretty(&deep), None);
    }

    /// Random JSON of every kind of token, written compactly and spaced:
    /// each one re-indented is what serde writes.
    #[test]
    fn random_json_is_reindented_as_serde_does_or_left() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let pieces = [
            "a", "\\n", "\\\"", "\\\\", "\\t", "\\u001f", "\\u0000", "\\/", "\\u0041", "é", "👇",
            "\u{7f}", "\\r", "\\b", "\\f", " ", "\\u00e9", "\\u000A",
        ];
        fn value(rnd: &mut dyn FnMut(u64) -> u64, pieces: &[&str], depth: u32) -> String {
            let spaced = |s: String, rnd: &mut dyn FnMut(u64) -> u64| {
                if rnd(4) == 0 { format!(" \n{s}\t ") } else { s }
            };
            let s = match rnd(if depth > 4 { 4 } else { 6 }) {
                0 => {
                    let n = rnd(4);
                    let s: String = (0..n)
                        .map(|_| pieces[rnd(pieces.len() as u64) as usize])
                        .collect();
                    format!("\"{s}\"")
                }
                1 => [
                    "0",
                    "-7",
                    "42",
                    "1.5",
                    "-0",
                    "1e2",
                    "99999999999999999999",
                    "true",
                    "false",
                    "null",
                ][rnd(10) as usize]
                    .to_owned(),
                2 => format!("\"k{}\"", rnd(3)),
                3 => "[]".to_owned(),
                4 => {
                    let n = rnd(4);
                    let items: Vec<String> =
                        (0..n).map(|_| value(rnd, pieces, depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
                _ => {
                    let n = rnd(4);
                    let items: Vec<String> = (0..n)
                        .map(|_| format!("\"k{}\":{}", rnd(5), value(rnd, pieces, depth + 1)))
                        .collect();
                    format!("{{{}}}", items.join(","))
                }
            };
            spaced(s, rnd)
        }
        let mut reindented = 0;
        for _ in 0..20_000 {
            let raw = value(&mut rnd, &pieces, 0);
            if same(&raw) {
                reindented += 1;
            }
        }
        assert!(reindented > 3_000, "{reindented}");
    }
}
