//! A text's words (see `super::words`) found 64 bytes at a time: a
//! block's letters and digits, capitals, bytes beyond ASCII and
//! backslashes are masks made with vector compares, and its words are
//! the runs of the mask of word bytes. The byte-at-a-time scan tested
//! and branched on every byte: it was a quarter of an index build's
//! instructions, most of them on tool output. A character beyond ASCII
//! is still decoded and tested (only those), and a JSON escape's letter
//! (`\n`) is taken out of the mask as simdjson finds escaped quotes.

use super::words::{Word, char_at};

/// Bytes looked at together.
const BLOCK: usize = 64;

/// The masks of a block's bytes (bit `i` for byte `i`).
struct Masks {
    /// ASCII letters and digits.
    alnum: u64,
    /// ASCII capitals.
    upper: u64,
    /// Bytes beyond ASCII.
    high: u64,
    backslash: u64,
}

/// Bits `0..n` (all of them from 64 on).
fn low(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1u64 << n) - 1 }
}

/// Calls `f` with each run of letters and digits of `text` (as
/// `words::next_word` finds them, its `after` left at the run's end), in
/// order; with `JSON`, `text` is a JSON string's content as a line writes
/// it (no `\u`, `\b` or `\f`) and each escape is one character that is no
/// letter or digit.
pub(super) fn each_word<const JSON: bool>(text: &str, mut f: impl FnMut(Word)) {
    let b = text.as_bytes();
    let mut at = 0;
    // whether the block's first byte is escaped by the block before
    let mut carry = 0u64;
    // a word still going at the end of the block before: its start, and
    // whether it met a byte beyond ASCII and a capital so far
    let mut open: Option<(usize, bool, bool)> = None;
    while let Some(rest) = b.get(at..).filter(|r| !r.is_empty()) {
        let mut padded = [0u8; BLOCK];
        let block = match rest.first_chunk::<BLOCK>() {
            Some(whole) => whole,
            None => {
                // the last bytes, padded with bytes that are no letters
                padded[..rest.len()].copy_from_slice(rest);
                &padded
            }
        };
        let m = masks(block);
        let mut len = rest.len().min(BLOCK);
        let mut word = m.alnum;
        if m.high != 0 {
            let (letters, upto) = beyond_ascii(text, at, m.high, len);
            word |= letters;
            len = upto;
        }
        let keep = low(len);
        word &= keep;
        if JSON && (m.backslash | carry) != 0 {
            let e = crate::source::claude::escaped(m.backslash & keep, &mut carry);
            if len < BLOCK {
                // (the bits past the block were made from no backslash)
                carry = (e >> len) & 1;
            }
            word &= !e;
        }
        let flags = |bits: u64| (m.high & bits != 0, m.upper & bits != 0);
        let mut runs = word;
        if let Some((start, high, upper)) = open.take() {
            // the word goes on through the block's first bytes
            let n = (!word).trailing_zeros() as usize;
            let (h, u) = flags(low(n));
            if n >= len {
                open = Some((start, high | h, upper | u));
                at += len;
                continue;
            }
            f(found_word(start, at + n, high | h, upper | u));
            runs &= !low(n);
        }
        while runs != 0 {
            // the lowest run's bits: adding its lowest bit carries
            // through it (to nothing when it ends the block)
            let next = runs.wrapping_add(runs & runs.wrapping_neg());
            let bits = runs & !next;
            runs &= next;
            let (s, end) = (
                bits.trailing_zeros() as usize,
                64 - bits.leading_zeros() as usize,
            );
            let (h, u) = flags(bits);
            if end >= len {
                open = Some((at + s, h, u));
                break;
            }
            f(found_word(at + s, at + end, h, u));
        }
        at += len;
    }
    if let Some((start, high, upper)) = open {
        f(found_word(start, b.len(), high, upper));
    }
}

/// The run `start..end`, whether it met a byte beyond ASCII and a
/// capital (called in place: through a pointer, the caller's work on
/// each word could not be inlined).
fn found_word(start: usize, end: usize, high: bool, upper: bool) -> Word {
    Word {
        start,
        end,
        after: end,
        ascii: !high,
        upper,
    }
}

/// The mask of the bytes of the characters beyond ASCII from byte `at`
/// of `text` (`high` their bytes, `len` the block's length) that are
/// letters or digits, and how far the block goes: up to a character it
/// holds only part of, which the next block starts with.
fn beyond_ascii(text: &str, at: usize, mut high: u64, len: usize) -> (u64, usize) {
    let mut letters = 0;
    while high != 0 {
        let p = high.trailing_zeros() as usize;
        if p >= len {
            break;
        }
        let Some((alphanumeric, n)) = char_at(text, at + p) else {
            // (not a character's start: no letter)
            high &= !low(p + 1);
            continue;
        };
        if p + n > len {
            return (letters, p);
        }
        let bits = low(p + n) & !low(p);
        if alphanumeric {
            letters |= bits;
        }
        high &= !bits;
    }
    (letters, len)
}

#[cfg(target_arch = "x86_64")]
fn masks(block: &[u8; BLOCK]) -> Masks {
    // SAFETY: SSE2 is part of every x86_64
    unsafe { masks_sse2(block) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn masks_sse2(block: &[u8; BLOCK]) -> Masks {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    // a byte is in `lo..=hi` when, moved so that `lo` is the least i8,
    // it is below the least i8 plus the range's size (one compare)
    let shift = |lo: u8| _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8);
    let below = |lo: u8, hi: u8| _mm_set1_epi8(i8::MIN.wrapping_add((hi - lo + 1) as i8));
    let (digit_shift, digit_below) = (shift(b'0'), below(b'0', b'9'));
    let (lower_shift, lower_below) = (shift(b'a'), below(b'a', b'z'));
    let (upper_shift, upper_below) = (shift(b'A'), below(b'A', b'Z'));
    let case = _mm_set1_epi8(0x20);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let mut m = Masks {
        alnum: 0,
        upper: 0,
        high: 0,
        backslash: 0,
    };
    for (n, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: `part` is 16 bytes long, which is what an unaligned
        // load reads
        let v = unsafe { _mm_loadu_si128(part.as_ptr().cast::<__m128i>()) };
        let digit = _mm_cmplt_epi8(_mm_add_epi8(v, digit_shift), digit_below);
        let letter = _mm_cmplt_epi8(
            _mm_add_epi8(_mm_or_si128(v, case), lower_shift),
            lower_below,
        );
        let upper = _mm_cmplt_epi8(_mm_add_epi8(v, upper_shift), upper_below);
        let bits = |x: __m128i| u64::from(_mm_movemask_epi8(x) as u16) << (16 * n);
        m.alnum |= bits(_mm_or_si128(digit, letter));
        m.upper |= bits(upper);
        m.high |= bits(v);
        m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
use masks_bytes as masks;

/// [`masks`] a byte at a time: where there are no vectors (and what the
/// tests hold the vectors to).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn masks_bytes(block: &[u8; BLOCK]) -> Masks {
    let mut m = Masks {
        alnum: 0,
        upper: 0,
        high: 0,
        backslash: 0,
    };
    for (n, &c) in block.iter().enumerate() {
        m.alnum |= u64::from(c.is_ascii_alphanumeric()) << n;
        m.upper |= u64::from(c.is_ascii_uppercase()) << n;
        m.high |= u64::from(!c.is_ascii()) << n;
        m.backslash |= u64::from(c == b'\\') << n;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::super::words::next_word;
    use super::{BLOCK, each_word, masks, masks_bytes};

    /// The runs found (start, end, a capital), each told ASCII exactly
    /// (the byte scan tells a run ended by a character beyond ASCII not
    /// ASCII: a slower lowercasing, the same word).
    fn found<const JSON: bool>(text: &str) -> Vec<(usize, usize, bool)> {
        let mut out = Vec::new();
        each_word::<JSON>(text, |w| {
            let ascii = text.get(w.start..w.end).is_some_and(|t| t.is_ascii());
            assert_eq!(w.ascii, ascii, "{text:?} at {}", w.start);
            out.push((w.start, w.end, w.upper));
        });
        out
    }

    fn one_at_a_time<const JSON: bool>(text: &str) -> Vec<(usize, usize, bool)> {
        let (mut out, mut at) = (Vec::new(), 0);
        while let Some(w) = next_word::<JSON>(text, at) {
            at = w.after;
            out.push((w.start, w.end, w.upper));
        }
        out
    }

    #[test]
    fn every_byte_has_its_class() {
        for first in (0..=255u8).step_by(BLOCK) {
            let block: [u8; BLOCK] = std::array::from_fn(|i| first.wrapping_add(i as u8));
            let (v, b) = (masks(&block), masks_bytes(&block));
            assert_eq!(
                (v.alnum, v.upper, v.high, v.backslash),
                (b.alnum, b.upper, b.high, b.backslash)
            );
        }
    }

    /// Random texts of letters, capitals, digits, separators, escapes
    /// and characters of two to four bytes, long and short words among
    /// them, every length around a block's: the runs found by blocks are
    /// the byte-at-a-time scan's.
    #[test]
    fn runs_found_by_blocks_are_the_byte_scans() {
        let parts = [
            "a",
            "Q",
            "7",
            " ",
            "_",
            "\\n",
            "\\\\",
            "\\\"",
            "\\t",
            "n",
            "é",
            "É",
            "→",
            "日",
            "😀",
            "─",
            "xyzzy",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop",
            "\\\\\\",
            "\u{301}",
        ];
        let mut rng = crate::model::test_rng::Rng::new(41);
        for round in 0..6000 {
            let mut text = String::new();
            let target = if round % 3 == 0 {
                rng.below(300)
            } else {
                rng.below(140)
            };
            while text.len() < target {
                text.push_str(parts[rng.below(parts.len())]);
            }
            assert_eq!(
                found::<false>(&text),
                one_at_a_time::<false>(&text),
                "{text:?}"
            );
            // a JSON string's content: the text written with its escapes
            let json = serde_json::to_string(&text).expect("JSON");
            let content = &json[1..json.len() - 1];
            assert_eq!(
                found::<true>(content),
                one_at_a_time::<true>(content),
                "{content:?}"
            );
            // and as it is, backslashes in runs of any length (before
            // ASCII: an escape of another character is no JSON)
            let ascii: String = text.chars().filter(char::is_ascii).collect();
            assert_eq!(
                found::<true>(&ascii),
                one_at_a_time::<true>(&ascii),
                "{ascii:?}"
            );
        }
    }

    #[test]
    fn words_across_blocks() {
        for lead in 0..(2 * BLOCK + 3) {
            for t in ["é", "日", "😀", "→", "\\n", "\\\\n", "word", "Wörd"] {
                let text = format!("{}{t}{}", "x".repeat(lead), "y".repeat(lead % 7));
                assert_eq!(
                    found::<true>(&text),
                    one_at_a_time::<true>(&text),
                    "{text:?}"
                );
                let text = format!("{}{t}z", " ".repeat(lead));
                assert_eq!(
                    found::<true>(&text),
                    one_at_a_time::<true>(&text),
                    "{text:?}"
                );
                assert_eq!(
                    found::<false>(&text),
                    one_at_a_time::<false>(&text),
                    "{text:?}"
                );
            }
        }
    }
}
