//! Where a JSON string ends, every byte and escape of it checked as
//! serde checks them, many bytes at a time: the answer reader's (see
//! `super::answer`) way through a string. Read a run of plain bytes at a
//! time, a text that escapes a newline every few dozen bytes (code, a
//! command) cost a restart for each, and the reader's strings were a
//! seventh of a cold listing. Here a block's quotes, backslashes and
//! control bytes are masks, which bytes are escaped is worked out for
//! the whole block at once (as `super::string_end` does), and only the
//! escaped bytes are looked at one by one.

use super::string_end::{escaped, specials16};

/// Bytes looked at together.
const BLOCK: usize = 64;

/// The index in `b` of the quote that ends the string whose first byte
/// (past its opening quote) is at `from`, and whether the string holds
/// an escape; `None` when serde would refuse it (a control byte, an
/// escape of another letter, half of a surrogate pair written as an
/// escape: decoding checks those, and the reader leaves them to serde)
/// or it does not end in `b`.
#[inline]
pub(crate) fn checked_end(b: &[u8], from: usize) -> Option<(usize, bool)> {
    // most strings are ids, times, names and paths: plain, and ended
    // within a few looks at 16 bytes
    let mut at = from;
    for _ in 0..3 {
        let Some(part) = b.get(at..).and_then(|r| r.first_chunk::<16>()) else {
            break;
        };
        let m = specials16(part);
        if m != 0 {
            // (of the 16 bytes looked at: in range, with no check)
            let n = m.trailing_zeros() as usize & 15;
            let first = at + n;
            return match part[n] {
                b'"' => Some((first, false)),
                b'\\' => blocks(b, first),
                _ => None,
            };
        }
        at += 16;
    }
    // (no special byte before `at`: none escapes a byte from there)
    blocks(b, at)
}

fn blocks(b: &[u8], from: usize) -> Option<(usize, bool)> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2
        return unsafe { blocks_avx2(b, from) };
    }
    blocks_plain(b, from)
}

/// The loop over a string's blocks, with the function that makes a
/// block's masks (written once, compiled for each kind of vector).
macro_rules! blocks {
    ($b:expr, $from:expr, $masks:expr) => {{
        let (b, mut at, mut carry) = ($b, $from, 0u64);
        let mut any = false;
        loop {
            let rest = b.get(at..)?;
            let (quote, backslash, control) = match rest.first_chunk::<BLOCK>() {
                Some(whole) => $masks(whole),
                None => {
                    // the last bytes, padded with plain ones
                    let mut block = [b'a'; BLOCK];
                    block[..rest.len()].copy_from_slice(rest);
                    $masks(&block)
                }
            };
            let escaped = escaped(backslash, &mut carry);
            let ends = quote & !escaped;
            // the bytes of the string in this block: up to its end
            let inside = if ends == 0 {
                u64::MAX
            } else {
                (ends & ends.wrapping_neg()) - 1
            };
            // (an escaped control byte is no escape serde knows either)
            if control & inside != 0 {
                return None;
            }
            let mut letters = escaped & inside;
            any |= letters != 0;
            while letters != 0 {
                escape_ok(b, at + letters.trailing_zeros() as usize)?;
                letters &= letters - 1;
            }
            if ends != 0 {
                return Some((at + ends.trailing_zeros() as usize, any));
            }
            if rest.len() <= BLOCK {
                return None;
            }
            at += BLOCK;
        }
    }};
}

fn blocks_plain(b: &[u8], from: usize) -> Option<(usize, bool)> {
    blocks!(b, from, masks_bytes)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocks_avx2(b: &[u8], from: usize) -> Option<(usize, bool)> {
    blocks!(b, from, masks_avx2)
}

/// Whether the letter at `at`, escaped by the backslash before it, makes
/// an escape serde takes: `\uXXXX` with four hex digits, not half of a
/// surrogate pair (which decoding checks: the reader leaves it to serde).
#[inline(always)]
fn escape_ok(b: &[u8], at: usize) -> Option<()> {
    match *b.get(at)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(()),
        b'u' => {
            let hex = b.get(at + 1..at + 5)?;
            let code = hex
                .iter()
                .try_fold(0u32, |n, &h| Some(n * 16 + (h as char).to_digit(16)?))?;
            (!(0xD800..0xE000).contains(&code)).then_some(())
        }
        _ => None,
    }
}

/// The bits of the bytes of a block equal to `"`, to `\`, and below a
/// space.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn masks_avx2(block: &[u8; BLOCK]) -> (u64, u64, u64) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_set1_epi8,
    };
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let below = _mm256_set1_epi8(0x1f);
    let (mut q, mut b, mut c) = (0u64, 0u64, 0u64);
    for (n, part) in block.chunks_exact(32).enumerate() {
        // SAFETY: `part` is 32 bytes long, which is what an unaligned
        // load reads
        let v = unsafe { _mm256_loadu_si256(part.as_ptr().cast::<__m256i>()) };
        let bits = |m: __m256i| u64::from(_mm256_movemask_epi8(m) as u32) << (32 * n);
        q |= bits(_mm256_cmpeq_epi8(v, quote));
        b |= bits(_mm256_cmpeq_epi8(v, backslash));
        // a control byte is the smaller of it and 0x1f
        c |= bits(_mm256_cmpeq_epi8(_mm256_min_epu8(v, below), v));
    }
    (q, b, c)
}

/// [`masks_avx2`] a byte at a time: where there are no vectors (and what
/// the tests hold the vectors to).
fn masks_bytes(block: &[u8; BLOCK]) -> (u64, u64, u64) {
    let (mut q, mut b, mut c) = (0u64, 0u64, 0u64);
    for (n, &x) in block.iter().enumerate() {
        q |= u64::from(x == b'"') << n;
        b |= u64::from(x == b'\\') << n;
        c |= u64::from(x < 0x20) << n;
    }
    (q, b, c)
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, blocks_plain, checked_end, masks_bytes};

    /// The string read a byte at a time as serde reads it.
    fn by_bytes(b: &[u8], from: usize) -> Option<(usize, bool)> {
        let (mut i, mut any) = (from, false);
        loop {
            match *b.get(i)? {
                b'"' => return Some((i, any)),
                0..0x20 => return None,
                b'\\' => {
                    any = true;
                    super::escape_ok(b, i + 1)?;
                    i += if b[i + 1] == b'u' { 6 } else { 2 };
                }
                _ => i += 1,
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_masks_are_those_of_each_byte() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = crate::model::test_rng::Rng::new(11);
        let bytes = [b'"', b'\\', b'a', 0, 0x1f, 0x20, 0x7f, 0x80, 0xff];
        for _ in 0..2000 {
            let mut block = [0u8; BLOCK];
            for c in block.iter_mut() {
                *c = bytes[(rng.next_u64() % bytes.len() as u64) as usize];
            }
            // SAFETY: the CPU has AVX2
            assert_eq!(unsafe { super::masks_avx2(&block) }, masks_bytes(&block));
        }
    }

    /// Strings of quotes, backslashes, escape letters, hex digits and
    /// control bytes, of every length around the blocks' edges, from
    /// several starts: what serde's way reads, byte by byte.
    #[test]
    fn the_end_and_the_checks_are_those_of_a_byte_at_a_time() {
        let mut rng = crate::model::test_rng::Rng::new(0x5EED_0F5E);
        let mut next = || rng.next_u64();
        let letters = b"\"\\/bfnrtuxU0d8Dc9eA";
        for round in 0..20_000 {
            let len = (next() % 300) as usize;
            // rare quotes, escapes of every kind, now and then a control
            let odds = 1 + next() % 40;
            let line: Vec<u8> = (0..len)
                .map(|_| match next() % (odds + 8) {
                    0 => b'"',
                    1 | 2 => b'\\',
                    3 => letters[(next() % letters.len() as u64) as usize],
                    4 if next() % 8 == 0 => (next() % 0x20) as u8,
                    5 => 0xE2,
                    _ => b'a',
                })
                .collect();
            for from in [0, 1, 15, 16, 47, 48, 63, 64, 65, len / 2, len] {
                if from > len {
                    continue;
                }
                let want = by_bytes(&line, from);
                assert_eq!(
                    checked_end(&line, from),
                    want,
                    "{round} from {from}: {line:?}"
                );
                assert_eq!(blocks_plain(&line, from), want, "{round} {from}");
            }
        }
        // escapes of every kind across every edge
        for esc in [
            &b"\\n"[..],
            b"\\\\",
            b"\\\"",
            b"\\u00e9",
            b"\\uD800",
            b"\\x",
            b"\\u12",
        ] {
            for at in 0..140 {
                let mut line = vec![b'a'; at];
                line.extend_from_slice(esc);
                line.extend(b"bc\"x");
                assert_eq!(checked_end(&line, 0), by_bytes(&line, 0), "{esc:?} at {at}");
            }
        }
    }
}
