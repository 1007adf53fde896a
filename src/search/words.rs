//! How the search index splits text into words: at anything that is not
//! a letter or digit, each word lowercased, words of [`MAX_WORD`] bytes or
//! more (encoded blobs, long hashes) cut to their head ([`long_head`]).
//! The very words of tantivy's `SimpleTokenizer` and `LowerCaser` in a
//! row, long ones cut (the tests hold them equal), found in one pass that
//! tells ASCII by its byte: the index's writer, one thread and the
//! build's critical path, spent a quarter of its time in those three,
//! decoding and testing every character. An entry's words are now found on the threads that read
//! the files and handed to the writer listed, each once
//! ([`list_words`], which finds them 64 bytes at a time:
//! `super::word_blocks`); queries are split by [`Words`].

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Words of this many bytes or more (encoded blobs, long hashes) are
/// listed by their head ([`long_head`]).
pub const MAX_WORD: usize = 100;

/// How much of a long word is listed: a query that starts such a word
/// finds it by these bytes (left out whole, a hash or a blob was found by
/// a search without the index and not by one with it).
pub const LONG_HEAD: usize = 64;

/// The head of a word (lowercased) the index lists for a long one: its
/// first [`LONG_HEAD`] bytes at most, whole characters.
pub fn long_head(word: &str) -> &str {
    let mut end = word.len().min(LONG_HEAD);
    while !word.is_char_boundary(end) {
        end -= 1;
    }
    word.get(..end).unwrap_or_default()
}

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
        let Some(Word {
            start,
            end,
            after,
            ascii,
            upper,
        }) = next_word::<false>(self.text, self.at)
        else {
            self.at = self.text.len();
            return false;
        };
        self.at = after;
        // as `SimpleTokenizer` counts
        self.token.position = self.token.position.wrapping_add(1);
        let Some(word) = self.text.get(start..end) else {
            return false;
        };
        if end - start >= MAX_WORD {
            lower_head(word, ascii, upper, &mut self.token.text);
        } else {
            lower_into(word, ascii, upper, &mut self.token.text);
        }
        self.token.offset_from = start;
        self.token.offset_to = end;
        true
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// Appends `word` lowercased to `out`, told by its scan whether it is
/// ASCII and has a capital.
fn lower_into(word: &str, ascii: bool, upper: bool, out: &mut String) {
    if ascii {
        let from = out.len();
        out.push_str(word);
        if upper && let Some(pushed) = out.get_mut(from..) {
            pushed.make_ascii_lowercase();
        }
    } else {
        // (Unicode's tables only for the characters beyond ASCII)
        for c in word.chars() {
            if c.is_ascii() {
                out.push(c.to_ascii_lowercase());
            } else {
                fold_into(c, out);
            }
        }
    }
}

/// [`long_head`] of `word` lowercased, appended to `out`: only its first
/// bytes lowercased (a character lowercases to a third of its bytes at
/// least: the Kelvin sign, U+212A, to `k`).
fn lower_head(word: &str, ascii: bool, upper: bool, out: &mut String) {
    let mut end = word.len().min(3 * LONG_HEAD);
    while !word.is_char_boundary(end) {
        end -= 1;
    }
    let from = out.len();
    lower_into(word.get(..end).unwrap_or_default(), ascii, upper, out);
    let head = out.get(from..).map_or(0, |w| long_head(w).len());
    out.truncate(from + head);
}

/// `c` lowercased, then folded as a search that ignores case folds it
/// (see [`fold_char`]).
fn fold_into(c: char, out: &mut String) {
    out.extend(c.to_lowercase().map(fold_char));
}

/// The letter a search that ignores case takes a lowercase letter for
/// (the files' scan matches so): a few fold to another, a final sigma to
/// σ (`ΣΊΣΥΦΟΣ` and `σίσυφος` are one word), the micro sign to μ, the
/// long s to s. Any other is itself.
pub fn fold_char(c: char) -> char {
    match c {
        'ς' => 'σ',
        'µ' => 'μ',
        'ſ' => 's',
        'ϐ' => 'β',
        'ϑ' => 'θ',
        'ϕ' => 'φ',
        'ϖ' => 'π',
        'ϰ' => 'κ',
        'ϱ' => 'ρ',
        'ϵ' => 'ε',
        'ẛ' => 'ṡ',
        '\u{1fbe}' => 'ι',
        c => c,
    }
}

/// Which words an entry's list holds: each its place in the list (start,
/// length), found by its hash.
#[derive(Default)]
pub struct Seen {
    table: hashbrown::HashTable<Listing>,
    /// A word with capitals or beyond ASCII, lowercased.
    lower: String,
    /// The pairs listed (see [`list_pair`]), by their words' places.
    pairs: std::collections::HashSet<u128, rustc_hash::FxBuildHasher>,
    /// A pair of words being listed.
    pair: String,
}

/// A word of a list: where it is (start, length) and its first 8 bytes,
/// which tell most words apart without reading the list (a comparison of
/// the list's bytes was a call to `memcmp` for every word of a build).
#[derive(Clone, Copy)]
struct Listing {
    at: u32,
    len: u32,
    head: u64,
}

/// A word's first 8 bytes (zeros after a shorter word's end) and its hash.
fn head_and_hash(word: &[u8]) -> (u64, u64) {
    // a multiply folded back on itself, a round for each 8 bytes
    let fold = |x: u64, k: u64| {
        let m = u128::from(x ^ k) * 0x9E37_79B9_7F4A_7C15;
        (m as u64) ^ ((m >> 64) as u64)
    };
    let (head, rest) = match word.split_first_chunk::<8>() {
        Some((first, rest)) => (u64::from_le_bytes(*first), rest),
        None => (short(word), &[][..]),
    };
    let mut h = fold(head, word.len() as u64);
    let mut chunks = rest.chunks_exact(8);
    for c in &mut chunks {
        h = fold(h, c.first_chunk().map_or(0, |c| u64::from_le_bytes(*c)));
    }
    if !chunks.remainder().is_empty() {
        h = fold(h, short(chunks.remainder()));
    }
    (head, h)
}

/// The bytes of `c` (8 at most) as a little-endian number (what
/// `u64::from_le_bytes` makes of them followed by zeros), read in two
/// overlapping loads: a copy of a length not known was a call, and a loop
/// a byte at a time a seventh of listing a word.
#[inline(always)]
fn short(c: &[u8]) -> u64 {
    let n = c.len();
    let four = |at: usize| {
        c.get(at..at + 4).map_or(0, |b| {
            u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        })
    };
    let one = |at: usize| c.get(at).map_or(0, |&b| u64::from(b));
    match n {
        0 => 0,
        1..=3 => one(0) | one(n / 2) << (8 * (n / 2)) | one(n - 1) << (8 * (n - 1)),
        // (the bytes the two loads share are the same in both)
        _ => four(0) | four(n - 4) << (8 * (n - 4)),
    }
}

/// `text`'s words for the index: each word [`Words`] makes of it, once, in
/// the order first met, with a space between, into `out` (emptied first).
/// The index records which entries hold a word, not how often or where,
/// so the list makes the same index as the text; and its writer, one
/// thread and the build's critical path, only splits it ([`Listed`])
/// where it found, lowercased and recorded every word of every entry (a
/// word on each line of a tool's output was recorded for each line). This
/// runs on the threads that read the files.
pub fn list_words(text: &str, out: &mut String, seen: &mut Seen) {
    start_list(out, seen);
    list_more_words(text, out, seen);
}

/// Empties a list and what it has seen, for [`list_more_words`].
pub fn start_list(out: &mut String, seen: &mut Seen) {
    out.clear();
    // emptied, or dropped when an entry of many more words grew it: its
    // emptying writes every slot
    if seen.table.capacity() > 4 * seen.table.len().max(256) {
        seen.table = hashbrown::HashTable::new();
    } else {
        seen.table.clear();
    }
    if seen.pairs.capacity() > 4 * seen.pairs.len().max(256) {
        seen.pairs = Default::default();
    } else {
        seen.pairs.clear();
    }
}

/// Adds `text`'s words not yet in `out` to it (see [`list_words`]): the
/// words of several entries in one list.
pub fn list_more_words(text: &str, out: &mut String, seen: &mut Seen) {
    list_in::<false>(text, out, seen);
}

/// [`list_more_words`] of a JSON string's content as the line writes it,
/// which holds no `\u`, `\b` or `\f` escape: each other escape (`\n`,
/// `\"`, `\\`...) stands for a character that is no letter or digit, and
/// is read as one. Undoing the escapes first copied every tool output.
pub fn list_more_json_words(raw: &str, out: &mut String, seen: &mut Seen) {
    list_in::<true>(raw, out, seen);
}

fn list_in<const JSON: bool>(text: &str, out: &mut String, seen: &mut Seen) {
    let b = text.as_bytes();
    // the word before (where it is in `out`, where it ended in `text`),
    // while it is listed and may pair
    let mut before: Option<(Listing, usize)> = None;
    super::word_blocks::each_word::<JSON>(text, |w| {
        let listed = list_word(text, &w, out, seen);
        if let Some(now) = listed
            && let Some((then, end)) = before
            && pairs_head(now)
            && let Some(joint) = joiner(b, end, w.start)
        {
            list_pair((then, joint, now), out, seen);
        }
        before = listed.filter(|&l| pairs_head(l)).map(|l| (l, w.end));
    });
}

/// What joins two words into a pair the index lists as well (see
/// [`pair_of`]): the bytes of `text` from `end` (the first word's) to
/// `start` (the second's), by its number (the same in a JSON string as in
/// its text: none is escaped).
#[inline(always)]
fn joiner(text: &[u8], end: usize, start: usize) -> Option<u8> {
    match (start.saturating_sub(end), text.get(end)?) {
        (1, b'_') => Some(0),
        (1, b'.') => Some(1),
        (1, b'-') => Some(2),
        (1, b':') => Some(3),
        (2, b':') if text.get(end + 1) == Some(&b':') => Some(4),
        _ => None,
    }
}

/// The joiners, by their numbers (see [`joiner`]).
const JOINTS: [&str; 5] = ["_", ".", "-", ":", "::"];

/// Whether a word (as [`Words`] makes it) may be half of a pair: one that
/// starts with an ASCII letter (numbers, versions, times and ids would
/// double the index's words, and are not what is looked for this way).
fn pairs(word: &[u8]) -> bool {
    word.first().is_some_and(u8::is_ascii_alphabetic)
}

/// [`pairs`] of a listed word, told by its first byte.
#[inline(always)]
fn pairs_head(l: Listing) -> bool {
    (l.head as u8).is_ascii_alphabetic()
}

/// The pair the index lists for two words written `before`, `between`,
/// `after` in a text (each word as [`Words`] makes it), when `between`
/// joins them: an identifier's parts (`resolve_layout`, `Session::new`,
/// `main.rs`, `dry-run`). The index records which spans hold a word, not
/// where, so a query of common words that must be in a row
/// (`resolve_layout`) found every span holding both, and read each; the
/// pair finds the spans where they are joined. (Paths are left out: a
/// pair for each `/` of every listing of files was a fifth more words.)
pub fn pair_of(before: &str, between: &str, after: &str) -> Option<String> {
    let joint = joiner(between.as_bytes(), 0, between.len())?;
    let joint = JOINTS.get(usize::from(joint))?;
    (pairs(before.as_bytes()) && pairs(after.as_bytes())).then(|| format!("{before}{joint}{after}"))
}

/// Lists the pair of the listed words `then` and `now` joined by `joint`
/// unless it is there already, when they pair (see [`pair_of`]). A pair
/// is known by its words' places in the list (a word is there once), so
/// one met again is not built and hashed as a text.
fn list_pair((then, joint, now): (Listing, u8, Listing), out: &mut String, seen: &mut Seen) {
    let key = u128::from(then.at) << 40 | u128::from(now.at) << 8 | u128::from(joint);
    if !seen.pairs.insert(key) {
        return;
    }
    let word = |l: Listing| out.get(l.at as usize..(l.at + l.len) as usize);
    let (Some(first), Some(second), Some(joint)) =
        (word(then), word(now), JOINTS.get(usize::from(joint)))
    else {
        return;
    };
    let mut pair = std::mem::take(&mut seen.pair);
    pair.clear();
    pair.push_str(first);
    pair.push_str(joint);
    pair.push_str(second);
    out.push(' ');
    out.push_str(&pair);
    seen.pair = pair;
}

/// Adds the word `w` of `text` to `out` unless it is there already
/// (a long one by its head); where it is in `out`, `None` for a long
/// one, which pairs with no word.
#[inline(always)]
fn list_word(text: &str, w: &Word, out: &mut String, seen: &mut Seen) -> Option<Listing> {
    let raw = text.get(w.start..w.end)?;
    if w.end - w.start >= MAX_WORD {
        // its head, which pairs with no word (see `long_head`)
        seen.lower.clear();
        lower_head(raw, w.ascii, w.upper, &mut seen.lower);
        list_term(&seen.lower, out, &mut seen.table);
        return None;
    }
    // the word as `Words` makes it: most are already
    if w.ascii && !w.upper {
        list_term(raw, out, &mut seen.table)
    } else {
        seen.lower.clear();
        lower_into(raw, w.ascii, w.upper, &mut seen.lower);
        list_term(&seen.lower, out, &mut seen.table)
    }
}

/// Adds `word` to `out` unless `table` says it is there already; where
/// it is (`None` past 4 GB).
#[inline(always)]
fn list_term(
    word: &str,
    out: &mut String,
    table: &mut hashbrown::HashTable<Listing>,
) -> Option<Listing> {
    let (head, hash) = head_and_hash(word.as_bytes());
    let same = |l: &Listing| {
        l.head == head
            && l.len as usize == word.len()
            && (word.len() <= 8
                || out
                    .as_bytes()
                    .get(l.at as usize + 8..(l.at + l.len) as usize)
                    == word.as_bytes().get(8..))
    };
    if let Some(l) = table.find(hash, same) {
        return Some(*l);
    }
    if !out.is_empty() {
        out.push(' ');
    }
    let (Ok(at), Ok(len)) = (u32::try_from(out.len()), u32::try_from(word.len())) else {
        // (an entry of 4 GB: its words past that are listed twice)
        out.push_str(word);
        return None;
    };
    out.push_str(word);
    let l = Listing { at, len, head };
    table.insert_unique(hash, l, |l| {
        let word = out.as_bytes().get(l.at as usize..(l.at + l.len) as usize);
        head_and_hash(word.unwrap_or_default()).1
    });
    Some(l)
}

/// The index's tokenizer of a list of words ([`list_words`]): each word
/// between spaces, as it is (a word holds no space: it is letters and
/// digits).
#[derive(Clone, Default)]
pub struct Listed {
    token: Token,
}

pub struct ListedStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
}

impl Tokenizer for Listed {
    type TokenStream<'a> = ListedStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ListedStream<'a> {
        self.token.reset();
        ListedStream {
            text,
            at: 0,
            token: &mut self.token,
        }
    }
}

impl TokenStream for ListedStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        let b = self.text.as_bytes();
        while self.at < b.len() {
            let start = self.at;
            // (words are short: a loop, not a search)
            let end = b[start..]
                .iter()
                .position(|&c| c == b' ')
                .map_or(b.len(), |p| start + p);
            self.at = end + 1;
            let Some(word) = self.text.get(start..end).filter(|w| !w.is_empty()) else {
                continue;
            };
            self.token.text.push_str(word);
            self.token.position = self.token.position.wrapping_add(1);
            self.token.offset_from = start;
            self.token.offset_to = end;
            return true;
        }
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
#[derive(Clone, Copy)]
pub(super) struct Word {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) after: usize,
    /// No character beyond ASCII.
    pub(super) ascii: bool,
    /// Some ASCII capital.
    pub(super) upper: bool,
}

/// The next run of letters and digits (`char::is_alphanumeric`, the
/// analyzer's rule) from byte `at` of `text`, and where to look for the
/// next one (past the character that ended it, which is not looked at
/// twice).
pub(super) fn next_word<const JSON: bool>(text: &str, mut at: usize) -> Option<Word> {
    let b = text.as_bytes();
    // an escape's two bytes are one character (see `list_more_json_words`)
    let step = |at: usize| if JSON && b[at] == b'\\' { 2 } else { 1 };
    let (start, first, mut seen) = loop {
        match CLASS[usize::from(*b.get(at)?)] {
            c @ (ALNUM | UPPER) => break (at, 1, c),
            OTHER => at += step(at),
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
            OTHER => return Some(word(end, end + step(end), seen)),
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
pub(super) fn char_at(text: &str, at: usize) -> Option<(bool, usize)> {
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
    use super::{Listed, MAX_WORD, Seen, Words, list_words};
    use tantivy::tokenizer::{LowerCaser, SimpleTokenizer, TextAnalyzer, Token};

    fn tantivys() -> TextAnalyzer {
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .build()
    }

    /// A word of the text long enough to be listed by its head.
    fn long(t: &Token) -> bool {
        t.offset_to - t.offset_from >= MAX_WORD
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
        // tantivy lowercases; ours folds the few letters that fold apart
        let mut folded = tokens(&mut theirs, text);
        for t in &mut folded {
            t.text = t.text.chars().map(super::fold_char).collect();
            if long(t) {
                t.text = super::long_head(&t.text).to_owned();
            }
        }
        assert_eq!(tokens(&mut ours, text), folded, "{text:?}");
        listed_as_found(text);
    }

    #[test]
    fn a_short_word_read_as_a_number_is_its_bytes_in_order() {
        let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37 + 11) as u8).collect();
        for at in 0..bytes.len() - 8 {
            for n in 0..=8 {
                let c = &bytes[at..at + n];
                let want = c.iter().rev().fold(0u64, |v, &b| (v << 8) | u64::from(b));
                assert_eq!(super::short(c), want, "{c:?}");
            }
        }
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
            "emoji 😀 mixed😀words ΣΑΣ σας µs μs ſ",
            "     1→fn main() {\n     2→    ─── ▶ ←x→ “q” ‘a’ …\n",
            &"y".repeat(MAX_WORD - 1),
            &long,
            &format!("{long} short {long}y é{long}"),
            &"Ⱥ".repeat(40),
            &"é".repeat(60),
            // long runs of ASCII letters and digits, capitals among them
            "abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "abcdefghijklmnoP abcdefghijklmnopQ abcdefghijklmnopqrstuvwxyZ@",
            "abcdefghijklmnopqrstuvwxyzé abcdefghijklmnop\u{1b}[0m x0123456789abcdefÉcole",
            "[abcdefghijklmnop]`abcdefghijklmnop{abcdefghijklmnop/0123456789012345:",
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

    /// The list of a text's words, split by the index's tokenizer: every
    /// word the text's tokens hold, once, in the order first met.
    fn listed_as_found(text: &str) {
        let mut want: Vec<String> = Vec::new();
        let mut before: Option<Token> = None;
        for t in tokens(&mut TextAnalyzer::from(Words::default()), text) {
            // (a long word pairs with none)
            let pair = before
                .as_ref()
                .filter(|b| !long(b) && !long(&t))
                .and_then(|b| super::pair_of(&b.text, &text[b.offset_to..t.offset_from], &t.text));
            for w in std::iter::once(t.text.clone()).chain(pair) {
                if !want.contains(&w) {
                    want.push(w);
                }
            }
            before = Some(t);
        }
        // a list and its map left from another text are emptied first
        let (mut list, mut seen) = (String::from("stale words"), Seen::default());
        list_words("stale words again", &mut list, &mut seen);
        list_words(text, &mut list, &mut seen);
        let got: Vec<String> = tokens(&mut TextAnalyzer::from(Listed::default()), &list)
            .into_iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(got, want, "{text:?} listed as {list:?}");
    }

    /// Words joined by `_`, `.`, `-`, `:` or `::` are listed as a pair
    /// too (both starting with a letter), once each, whatever the case.
    #[test]
    fn joined_words_are_listed_as_pairs() {
        let list = |t: &str| {
            let (mut list, mut seen) = (String::new(), Seen::default());
            list_words(t, &mut list, &mut seen);
            list
        };
        assert_eq!(
            list("call self.resolve_layout(x) then Resolve_Layout"),
            "call self resolve self.resolve layout resolve_layout x then"
        );
        assert_eq!(
            list("std::io::Read a:b a-b-c"),
            "std io std::io read io::read a b a:b a-b c b-c"
        );
        // numbers, versions, ids, paths and spaced words make none
        assert_eq!(list("v1.2 x_1 1_x a/b a _b a__b"), "v1 2 x 1 a b");
        for t in [
            "a_b", "a.b", "a-b", "a:b", "a::b", "a:::b", "a/b", "a b", "a_1", "1_a", "é_a", "a__b",
            "a._b",
        ] {
            listed_as_found(t);
        }
        assert_eq!(
            super::pair_of("resolve", "_", "layout").as_deref(),
            Some("resolve_layout")
        );
        assert_eq!(super::pair_of("resolve", "__", "layout"), None);
        assert_eq!(super::pair_of("v1", ".", "2"), None);
    }

    #[test]
    fn an_entrys_words_are_listed_once_each() {
        for t in [
            "",
            " , ",
            "the cat and THE dog and the Cat",
            "İstanbul istanbul İSTANBUL i\u{307}stanbul",
            "error: Error ERROR error_code errors",
            "日本 日本語 日本",
        ] {
            listed_as_found(t);
        }
        let many: String = (0..5000).map(|i| format!("w{} ", i % 700)).collect();
        listed_as_found(&many);
    }

    /// A JSON string's content read with its escapes in lists the words
    /// of the string it writes: each escape is a character that is no
    /// letter or digit (`\nfoo` is `foo`, `\\nfoo` is `nfoo`).
    #[test]
    fn words_read_through_escapes_are_the_texts() {
        let parts = [
            "a", "Word", "\n", "\t", "\r", "\"", "\\", "/", "n", "t", "é", "ß", "→", " ", "_", "9",
            ".", "-", ":", "::",
        ];
        let mut rng = crate::model::test_rng::Rng::new(7);
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..rng.below(12) {
                text.push_str(parts[rng.below(parts.len())]);
            }
            let json = serde_json::to_string(&text).expect("JSON");
            let escaped = &json[1..json.len() - 1];
            let (mut want, mut got) = (String::new(), String::new());
            list_words(&text, &mut want, &mut Seen::default());
            let mut seen = Seen::default();
            super::start_list(&mut got, &mut seen);
            super::list_more_json_words(escaped, &mut got, &mut seen);
            assert_eq!(got, want, "{escaped}");
        }
    }
}
