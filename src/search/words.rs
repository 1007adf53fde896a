//! How the search index splits text into words: at anything that is not
//! a letter or digit, each word lowercased, words of [`MAX_WORD`] bytes or
//! more (encoded blobs) left out. The very words of tantivy's
//! `SimpleTokenizer`, `RemoveLongFilter` and `LowerCaser` in a row (the
//! tests hold them equal), found in one pass that tells ASCII by its byte:
//! the index's writer, one thread and the build's critical path, spent a
//! quarter of its time in those three, decoding and testing every
//! character.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Words of this many bytes or more are left out.
pub const MAX_WORD: usize = 100;

#[derive(Clone, Default)]
pub struct Words {
    token: Token,
}

pub struct WordStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
}

impl Tokenizer for Words {
    type TokenStream<'a> = WordStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream<'a> {
        self.token.reset();
        WordStream {
            text,
            at: 0,
            token: &mut self.token,
        }
    }
}

impl TokenStream for WordStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        while let Some((start, end, after)) = next_word(self.text, self.at) {
            self.at = after;
            // as `SimpleTokenizer` counts: every word, kept or not
            self.token.position = self.token.position.wrapping_add(1);
            if end - start >= MAX_WORD {
                continue;
            }
            let Some(word) = self.text.get(start..end) else {
                return false;
            };
            if word.is_ascii() {
                self.token.text.push_str(word);
                self.token.text.make_ascii_lowercase();
            } else {
                self.token
                    .text
                    .extend(word.chars().flat_map(char::to_lowercase));
            }
            self.token.offset_from = start;
            self.token.offset_to = end;
            return true;
        }
        self.at = self.text.len();
        false
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// The next run of letters and digits (`char::is_alphanumeric`, the
/// analyzer's rule) from byte `at` of `text`: where it starts and ends,
/// and where to look for the next one (past the character that ended it,
/// which is not looked at twice).
fn next_word(text: &str, mut at: usize) -> Option<(usize, usize, usize)> {
    let b = text.as_bytes();
    let (start, first) = loop {
        match CLASS[usize::from(*b.get(at)?)] {
            ALNUM => break (at, 1),
            OTHER => at += 1,
            _ => {
                let (alphanumeric, len) = char_at(text, at)?;
                if alphanumeric {
                    break (at, len);
                }
                at += len;
            }
        }
    };
    let mut end = start + first;
    loop {
        let Some(&byte) = b.get(end) else {
            return Some((start, end, end));
        };
        match CLASS[usize::from(byte)] {
            ALNUM => end += 1,
            OTHER => return Some((start, end, end + 1)),
            _ => match char_at(text, end) {
                Some((true, len)) => end += len,
                Some((false, len)) => return Some((start, end, end + len)),
                None => return Some((start, end, end)),
            },
        }
    }
}

const OTHER: u8 = 0;
const ALNUM: u8 = 1;
const NOT_ASCII: u8 = 2;

/// Each byte's class: an ASCII letter or digit, other ASCII, or a byte of
/// a longer character (decoded and tested).
static CLASS: [u8; 256] = {
    let mut t = [NOT_ASCII; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = if (i as u8).is_ascii_alphanumeric() {
            ALNUM
        } else {
            OTHER
        };
        i += 1;
    }
    t
};

/// Whether the character at byte `at` is a letter or digit, and its
/// length; `None` at the end. ASCII is told by its byte, and so are the
/// arrows, box drawing and punctuation tool output is full of (the Read
/// tool puts `→` on every line), whose test was a search of Unicode's
/// tables each.
fn char_at(text: &str, at: usize) -> Option<(bool, usize)> {
    let b = *text.as_bytes().get(at)?;
    if b.is_ascii() {
        return Some((b.is_ascii_alphanumeric(), 1));
    }
    let c = text.get(at..)?.chars().next()?;
    if NEITHER.iter().any(|r| r.contains(&c)) {
        return Some((false, c.len_utf8()));
    }
    Some((c.is_alphanumeric(), c.len_utf8()))
}

/// Blocks that hold no letter or digit (a test reads every character).
const NEITHER: [std::ops::RangeInclusive<char>; 3] = [
    // General Punctuation
    '\u{2000}'..='\u{206f}',
    // Arrows, Mathematical Operators, Miscellaneous Technical
    '\u{2190}'..='\u{23ff}',
    // Box Drawing, Block Elements, Geometric Shapes
    '\u{2500}'..='\u{25ff}',
];

#[cfg(test)]
mod tests {
    use super::{MAX_WORD, Words};
    use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, Token};

    fn tantivys() -> TextAnalyzer {
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(MAX_WORD))
            .filter(LowerCaser)
            .build()
    }

    fn tokens(a: &mut TextAnalyzer, text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        let mut s = a.token_stream(text);
        while s.advance() {
            out.push(s.token().clone());
        }
        out
    }

    fn agree(text: &str) {
        let (mut theirs, mut ours) = (tantivys(), TextAnalyzer::from(Words::default()));
        assert_eq!(
            tokens(&mut ours, text),
            tokens(&mut theirs, text),
            "{text:?}"
        );
    }

    #[test]
    fn no_letter_or_digit_in_the_blocks_told_by_their_range() {
        for r in super::NEITHER {
            for c in r {
                assert!(!c.is_alphanumeric(), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn the_words_of_tantivys_analyzer() {
        let long = "x".repeat(MAX_WORD);
        for t in [
            "",
            "   ",
            "Hello, hello HELLO world! wOrLd",
            "resolve_layout(x) -> Resolve-Layout; 42 4.2",
            "Straße STRASSE ẞ İstanbul ǅemal Ⱥ ⱥ",
            "ÉCOLE école e\u{301}cole 日本語のテキスト",
            "٣٤ ١٢ ④ Ⅻ ½ ²",
            "tab\there\nnew\rline\u{0}nul\u{1b}[31mred\u{1b}[0m",
            "emoji 😀 mixed😀words ΣΑΣ σας",
            "     1→fn main() {\n     2→    ─── ▶ ←x→ “q” ‘a’ …\n",
            &"y".repeat(MAX_WORD - 1),
            &long,
            &format!("{long} short {long}y é{long}"),
            &"Ⱥ".repeat(40),
            &"é".repeat(60),
        ] {
            agree(t);
        }
    }

    /// Random texts over letters of several scripts, marks, digits and
    /// separators, long words among them.
    #[test]
    fn random_texts_agree() {
        let alphabet: Vec<char> = "aAzZ09 _-.,\n\tßẞİıǅΣσςⱥȺé\u{301}日😀٣Ⅻ½\u{0}\u{1b}→─…⁰"
            .chars()
            .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % if round % 10 == 0 { 400 } else { 60 }) as usize;
            let text: String = (0..len)
                .map(|i| {
                    let r = seed.rotate_left((i % 64) as u32) ^ (i as u64).wrapping_mul(0x9e37);
                    // long runs of one letter now and then
                    if round % 7 == 0 && i % 50 != 0 {
                        'q'
                    } else {
                        alphabet[(r as usize) % alphabet.len()]
                    }
                })
                .collect();
            agree(&text);
        }
    }
}
