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
        while let Some(Word {
            start,
            end,
            after,
            ascii,
            upper,
        }) = next_word(self.text, self.at)
        {
            self.at = after;
            // as `SimpleTokenizer` counts: every word, kept or not
            self.token.position = self.token.position.wrapping_add(1);
            if end - start >= MAX_WORD {
                continue;
            }
            let Some(word) = self.text.get(start..end) else {
                return false;
            };
            if ascii {
                self.token.text.push_str(word);
                if upper {
                    self.token.text.make_ascii_lowercase();
                }
            } else {
                // (Unicode's tables only for the characters beyond ASCII)
                for c in word.chars() {
                    if c.is_ascii() {
                        self.token.text.push(c.to_ascii_lowercase());
                    } else {
                        self.token.text.extend(c.to_lowercase());
                    }
                }
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

/// A run of letters and digits: where it starts and ends, where to look
/// for the next one, and what its bytes were (known from the scan, not
/// tested again per word: that, and lowercasing every word, was a quarter
/// of the words' instructions).
struct Word {
    start: usize,
    end: usize,
    after: usize,
    /// No character beyond ASCII.
    ascii: bool,
    /// Some ASCII capital.
    upper: bool,
}

/// The next run of letters and digits (`char::is_alphanumeric`, the
/// analyzer's rule) from byte `at` of `text`, and where to look for the
/// next one (past the character that ended it, which is not looked at
/// twice).
fn next_word(text: &str, mut at: usize) -> Option<Word> {
    let b = text.as_bytes();
    let (start, first, mut seen) = loop {
        match CLASS[usize::from(*b.get(at)?)] {
            c @ (ALNUM | UPPER) => break (at, 1, c),
            OTHER => at += 1,
            _ => {
                let (alphanumeric, len) = char_at(text, at)?;
                if alphanumeric {
                    break (at, len, NOT_ASCII);
                }
                at += len;
            }
        }
    };
    let mut end = start + first;
    let word = |end: usize, after: usize, seen: u8| Word {
        start,
        end,
        after,
        ascii: seen & NOT_ASCII == 0,
        upper: seen & UPPER == UPPER,
    };
    loop {
        let Some(&byte) = b.get(end) else {
            return Some(word(end, end, seen));
        };
        match CLASS[usize::from(byte)] {
            OTHER => return Some(word(end, end + 1, seen)),
            c @ (ALNUM | UPPER) => {
                seen |= c;
                end += 1;
            }
            _ => {
                seen |= NOT_ASCII;
                match char_at(text, end) {
                    Some((true, len)) => end += len,
                    Some((false, len)) => return Some(word(end, end + len, seen)),
                    None => return Some(word(end, end, seen)),
                }
            }
        }
    }
}

// (bits: a word's classes are or-ed together)
const OTHER: u8 = 0;
const ALNUM: u8 = 1;
const NOT_ASCII: u8 = 2;
const UPPER: u8 = 4 | ALNUM;

/// Each byte's class: an ASCII letter or digit (a capital apart), other
/// ASCII, or a byte of a longer character (decoded and tested).
static CLASS: [u8; 256] = {
    let mut t = [NOT_ASCII; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = if (i as u8).is_ascii_uppercase() {
            UPPER
        } else if (i as u8).is_ascii_alphanumeric() {
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
        let mut rng = crate::model::test_rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        for round in 0..4000 {
            let seed = rng.next_u64();
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
