//! Where a JSON string ends, looked for many bytes at a time. The
//! questions asked of every line of a history pass over its strings
//! (a tool's output, an answer's text): most of a line's bytes. Tool
//! output escapes a quote every few dozen bytes, so a search for the next
//! quote, restarted after each escaped one, cost more in its restarts
//! than in its search; here a block's quotes and backslashes are masks,
//! and which quotes are escaped is worked out for the whole block at once
//! (simdjson's way: a quote is escaped when an odd run of backslashes
//! ends right before it).

/// Bytes looked at together.
const BLOCK: usize = 64;

/// The loop over a string's blocks, with the function that makes a
/// block's masks (written once, compiled for each kind of vector).
macro_rules! blocks {
    ($b:expr, $from:expr, $masks:expr) => {{
        let (b, mut at, mut carry) = ($b, $from, 0u64);
        loop {
            let rest = b.get(at..)?;
            let (quote, backslash) = match rest.first_chunk::<BLOCK>() {
                Some(whole) => $masks(whole),
                None => {
                    // the last bytes, padded with bytes that are neither
                    let mut block = [0u8; BLOCK];
                    block[..rest.len()].copy_from_slice(rest);
                    $masks(&block)
                }
            };
            let ends = quote & !escaped(backslash, &mut carry);
            if ends != 0 {
                return Some(at + ends.trailing_zeros() as usize);
            }
            if rest.len() <= BLOCK {
                return None;
            }
            at += BLOCK;
        }
    }};
}

/// The index in `b` of the quote that ends the string whose first byte
/// (past its opening quote) is at `from`; `None` when it does not end in
/// `b` (a line cut inside a string).
// (offered to every codegen unit: in one only, whether the cursor's
// string read inlined it followed where the build split the crate, and
// an unrelated change elsewhere cost a listing 1% more instructions)
#[inline]
pub(crate) fn string_end(b: &[u8], from: usize) -> Option<usize> {
    // most strings are keys, ids, times and paths, ended within 48 bytes
    // and with no backslash before their end (a uuid took the blocks'
    // way, whose setup cost more than its look)
    let mut at = from;
    for _ in 0..3 {
        let Some(part) = b.get(at..).and_then(|r| r.first_chunk::<16>()) else {
            break;
        };
        let (quote, backslash) = masks16(part);
        if quote != 0 && quote.trailing_zeros() < backslash.trailing_zeros() {
            return Some(at + quote.trailing_zeros() as usize);
        }
        if backslash != 0 {
            break;
        }
        at += 16;
    }
    // (no backslash before `at`: none escapes a byte from there)
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2
        return unsafe { blocks_avx2(b, at) };
    }
    blocks_plain(b, at)
}

fn blocks_plain(b: &[u8], from: usize) -> Option<usize> {
    blocks!(b, from, masks)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocks_avx2(b: &[u8], from: usize) -> Option<usize> {
    blocks!(b, from, masks_avx2)
}

/// The bits of the bytes of a block equal to `"` and to `\`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn masks_avx2(block: &[u8; BLOCK]) -> (u64, u64) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    };
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let (mut q, mut b) = (0u64, 0u64);
    for (n, part) in block.chunks_exact(32).enumerate() {
        // SAFETY: `part` is 32 bytes long, which is what an unaligned
        // load reads
        let v = unsafe { _mm256_loadu_si256(part.as_ptr().cast::<__m256i>()) };
        q |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) as u32) << (32 * n);
        b |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) as u32) << (32 * n);
    }
    (q, b)
}

#[cfg(target_arch = "x86_64")]
fn masks(block: &[u8; BLOCK]) -> (u64, u64) {
    let (mut q, mut b) = (0u64, 0u64);
    for (n, part) in block.chunks_exact(16).enumerate() {
        let (q16, b16) = masks16(part.first_chunk().unwrap_or(&[0; 16]));
        q |= q16 << (16 * n);
        b |= b16 << (16 * n);
    }
    (q, b)
}

/// The bits of 16 bytes equal to `"` and to `\`.
#[cfg(target_arch = "x86_64")]
fn masks16(part: &[u8; 16]) -> (u64, u64) {
    // SAFETY: SSE2 is part of every x86_64
    unsafe { masks16_sse2(part) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn masks16_sse2(part: &[u8; 16]) -> (u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // SAFETY: `part` is 16 bytes long, which is what an unaligned load
    // reads
    let v = unsafe { _mm_loadu_si128(part.as_ptr().cast::<__m128i>()) };
    let quote = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8)));
    let backslash = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)));
    (u64::from(quote as u16), u64::from(backslash as u16))
}

#[cfg(not(target_arch = "x86_64"))]
use masks_bytes as masks;

/// [`masks`] a byte at a time: where there are no vectors (and what the
/// tests hold the vectors to).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn masks_bytes(block: &[u8; BLOCK]) -> (u64, u64) {
    let (mut q, mut b) = (0u64, 0u64);
    for (n, &c) in block.iter().enumerate() {
        q |= u64::from(c == b'"') << n;
        b |= u64::from(c == b'\\') << n;
    }
    (q, b)
}

#[cfg(not(target_arch = "x86_64"))]
fn masks16(part: &[u8; 16]) -> (u64, u64) {
    let mut block = [0u8; BLOCK];
    block[..16].copy_from_slice(part);
    masks_bytes(&block)
}

/// The bits of the bytes escaped by a backslash (the byte after each
/// escaping one), given the block's backslashes and whether its first
/// byte is escaped by the last of the block before (`carry`, updated).
pub(crate) fn escaped(backslash: u64, carry: &mut u64) -> u64 {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    if backslash == 0 {
        return std::mem::take(carry);
    }
    // a backslash escaped by the last one before is no escape itself
    let starts = backslash & !*carry;
    // runs of backslashes that start on an even bit, marked by the sum's
    // carry: an escape is every other backslash of a run from its start
    let codes = ((starts << 1) | ODD).wrapping_sub(starts) ^ ODD;
    let escaped = codes ^ (backslash | *carry);
    let escapes = codes & backslash;
    *carry = escapes >> 63;
    escaped
}

/// The first `"`, `\` or control byte of `b` from `at` (what ends a run
/// of plain bytes in a JSON string), 16 bytes at a time.
#[cfg(target_arch = "x86_64")]
pub(crate) fn special(b: &[u8], at: usize) -> Option<usize> {
    // SAFETY: SSE2 is part of every x86_64
    unsafe { special_sse2(b, at) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn special_sse2(b: &[u8], mut at: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let quote = _mm_set1_epi8(b'"' as i8);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let below = _mm_set1_epi8(0x1f);
    while let Some(part) = b.get(at..).and_then(|r| r.first_chunk::<16>()) {
        // SAFETY: `part` is 16 bytes long, which is what an unaligned
        // load reads
        let v = unsafe { _mm_loadu_si128(part.as_ptr().cast::<__m128i>()) };
        // a byte is a control byte when the smaller of it and 0x1f is it
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, below), v);
        let hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
            control,
        );
        let m = _mm_movemask_epi8(hits);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 16;
    }
    special_bytes(b, at)
}

/// [`special`] within the 16 bytes from `at` only (`None`: none there,
/// or fewer than 16 bytes left), in the caller's code: a key ends within
/// them, and a call for each cost more than the look. (The loop above
/// keeps its own copy of the test: built from this one, the listing of
/// generated sessions took 0.7% more instructions.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn special_near(b: &[u8], at: usize) -> Option<usize> {
    let m = specials16(b.get(at..)?.first_chunk::<16>()?);
    (m != 0).then(|| at + m.trailing_zeros() as usize)
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn special_near(_: &[u8], _: usize) -> Option<usize> {
    None
}

/// The bits of 16 bytes that are `"`, `\` or a control byte.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn specials16(part: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: `part` is 16 bytes long, which is what an unaligned load
    // reads; SSE2 is part of every x86_64
    unsafe {
        let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn specials16(part: &[u8; 16]) -> u32 {
    part.iter().enumerate().fold(0, |m, (n, &x)| {
        m | u32::from(matches!(x, b'"' | b'\\' | 0..0x20)) << n
    })
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn special(b: &[u8], at: usize) -> Option<usize> {
    special_bytes(b, at)
}

fn special_bytes(b: &[u8], at: usize) -> Option<usize> {
    (at..b.len()).find(|&i| matches!(b[i], b'"' | b'\\' | 0..0x20))
}

#[cfg(test)]
mod tests {
    use super::{
        BLOCK, blocks_plain, masks, masks_bytes, masks16, special, special_bytes, special_near,
        string_end,
    };

    /// Every kind of vector makes the masks a byte at a time makes.
    #[test]
    fn the_masks_are_those_of_each_byte() {
        let bytes = [b'"', b'\\', b'a', 0, 0x80, 0xff, b'"', b'\\'];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut block = [0u8; BLOCK];
            for c in block.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *c = bytes[(seed >> 61) as usize];
            }
            let want = masks_bytes(&block);
            assert_eq!(masks(&block), want);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2
                assert_eq!(unsafe { super::masks_avx2(&block) }, want);
            }
            let first: [u8; 16] = block[..16].try_into().unwrap_or_default();
            assert_eq!(masks16(&first), (want.0 & 0xffff, want.1 & 0xffff));
        }
    }

    /// The end as read one byte at a time: a quote after an even run of
    /// backslashes.
    fn end_by_bytes(b: &[u8], from: usize) -> Option<usize> {
        let mut i = from;
        while i < b.len() {
            match b[i] {
                b'"' => return Some(i),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        None
    }

    /// Strings of quotes, backslashes and other bytes, of every length
    /// around the blocks' edges, from every start: the same end as read
    /// byte by byte.
    #[test]
    fn the_end_is_found_as_byte_by_byte() {
        let mut rng = crate::model::test_rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next_u64();
        for round in 0..4000 {
            let len = (next() % 300) as usize;
            // few quotes, many backslashes, in runs
            let line: Vec<u8> = (0..len)
                .map(|_| match next() % 16 {
                    0 => b'"',
                    1..=6 => b'\\',
                    7 => 0,
                    8 => 0xE2,
                    _ => b'a',
                })
                .collect();
            for from in [0, 1, 2, 63, 64, 65, 127, 128, len / 2, len] {
                if from > len {
                    continue;
                }
                let end = end_by_bytes(&line, from);
                assert_eq!(
                    string_end(&line, from),
                    end,
                    "{round} from {from}: {line:?}"
                );
                assert_eq!(
                    blocks_plain(&line, from),
                    end,
                    "{round} from {from}: {line:?}"
                );
            }
        }
        // runs of backslashes across a block's edge, of every length
        for run in 0..140 {
            for at in 0..140 {
                let mut line = vec![b'a'; at];
                line.extend(std::iter::repeat_n(b'\\', run));
                line.extend(b"\"x\"");
                let end = end_by_bytes(&line, 0);
                assert_eq!(string_end(&line, 0), end, "{run} at {at}");
                assert_eq!(blocks_plain(&line, 0), end, "{run} at {at}");
            }
        }
    }

    #[test]
    fn the_first_special_byte_is_found_as_byte_by_byte() {
        let bytes = [b'a', b'"', b'\\', 0, 0x1f, 0x20, 0x7f, 0x80, 0xff, b'z'];
        for len in 0..70 {
            for (k, &c) in bytes.iter().enumerate() {
                for at in 0..len {
                    let mut line = vec![b'x'; len];
                    line[at] = c;
                    if k % 3 == 0 && at + 1 < len {
                        line[at + 1] = b'"';
                    }
                    for from in [0, at / 2, at] {
                        let first = special_bytes(&line, from);
                        assert_eq!(special(&line, from), first);
                        // within the 16 bytes from `from`, when there are 16
                        let near = first.filter(|&f| f < from + 16 && from + 16 <= len);
                        #[cfg(target_arch = "x86_64")]
                        assert_eq!(special_near(&line, from), near, "{len} {at} {from}");
                        #[cfg(not(target_arch = "x86_64"))]
                        assert_eq!(special_near(&line, from), None, "{near:?}");
                    }
                }
            }
        }
    }
}
