//! Runs of plain bytes in a text, found 16 at a time: where the next
//! escape of a JSON string is, and where the next byte is that may start
//! a character a terminal must not get. Tool output has a line break and
//! an escaped quote every few dozen bytes: finding each with a call to
//! `memchr` (made for long runs) cost more than the bytes between.

/// Appends `b[at..]` to `out` up to its next backslash, and returns where
/// that is (`b.len()` when there is none).
pub fn copy_to_backslash(b: &[u8], mut at: usize, out: &mut Vec<u8>) -> usize {
    while let Some(part) = b.get(at..).and_then(|r| r.first_chunk::<16>()) {
        let m = backslashes16(part);
        // the whole part is copied (one store), then what follows the
        // backslash is taken back
        let held = out.len();
        out.extend_from_slice(part);
        if m != 0 {
            let k = m.trailing_zeros() as usize;
            out.truncate(held + k);
            return at + k;
        }
        at += 16;
    }
    let rest = b.get(at..).unwrap_or(&[]);
    let k = memchr::memchr(b'\\', rest).unwrap_or(rest.len());
    out.extend_from_slice(&rest[..k]);
    at + k
}

/// The first byte of `b` from `at` that may start an unsafe character
/// (see `text::is_unsafe_char`): a control byte other than a line break
/// or a tab, DEL, or the first byte of the UTF-8 encodings that hold
/// such characters (0xc2, 0xd8, 0xe2, 0xef). Other text, `→` and accents
/// included, is passed over.
pub fn suspect(b: &[u8], mut at: usize) -> Option<usize> {
    while let Some(part) = b.get(at..).and_then(|r| r.first_chunk::<16>()) {
        let m = suspects16(part);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 16;
    }
    (at..b.len()).find(|&i| is_suspect(b[i]))
}

fn is_suspect(c: u8) -> bool {
    matches!(c, 0..=0x08 | 0x0b..=0x1f | 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef)
}

#[cfg(target_arch = "x86_64")]
fn backslashes16(part: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // SAFETY: `part` is 16 bytes long, which is what an unaligned load
    // reads; SSE2 is part of every x86_64
    unsafe {
        let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))) as u32
    }
}

#[cfg(target_arch = "x86_64")]
fn suspects16(part: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: `part` is 16 bytes long, which is what an unaligned load
    // reads; SSE2 is part of every x86_64
    unsafe {
        let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
        let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        // a byte is a control byte when the smaller of it and 0x1f is it
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let control = _mm_andnot_si128(_mm_or_si128(eq(b'\n'), eq(b'\t')), control);
        let leads = _mm_or_si128(
            _mm_or_si128(eq(0xc2), eq(0xd8)),
            _mm_or_si128(eq(0xe2), eq(0xef)),
        );
        let m = _mm_or_si128(_mm_or_si128(control, eq(0x7f)), leads);
        _mm_movemask_epi8(m) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn backslashes16(part: &[u8; 16]) -> u32 {
    bits(part, |c| c == b'\\')
}

#[cfg(not(target_arch = "x86_64"))]
fn suspects16(part: &[u8; 16]) -> u32 {
    bits(part, is_suspect)
}

#[cfg(any(test, not(target_arch = "x86_64")))]
fn bits(part: &[u8; 16], f: impl Fn(u8) -> bool) -> u32 {
    part.iter()
        .enumerate()
        .fold(0, |m, (i, &c)| if f(c) { m | 1 << i } else { m })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_bytes(rng: &mut crate::model::test_rng::Rng, len: usize, from: &[u8]) -> Vec<u8> {
        (0..len).map(|_| from[rng.below(from.len())]).collect()
    }

    /// The vector masks are those of each byte, for every byte value.
    #[test]
    fn the_masks_are_those_of_each_byte() {
        for c in 0..=255u8 {
            for at in 0..16 {
                let mut part = [b'a'; 16];
                part[at] = c;
                let want = |f: fn(u8) -> bool| super::bits(&part, f);
                assert_eq!(backslashes16(&part), want(|c| c == b'\\'), "{c:#x} at {at}");
                assert_eq!(suspects16(&part), want(is_suspect), "{c:#x} at {at}");
            }
        }
    }

    /// From every start, the copy and the search end where a byte loop
    /// does, in texts of every length around the 16-byte parts.
    #[test]
    fn runs_end_where_a_byte_loop_says() {
        let alphabet = b"ab \n\t\\\x1b\x7f\xc2\xd8\xe2\xef\x80\xff0";
        let mut rng = crate::model::test_rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        for round in 0..3000 {
            let len = round % 80;
            let b = random_bytes(&mut rng, len, alphabet);
            for at in 0..=len {
                let mut out = b"x".to_vec();
                let end = copy_to_backslash(&b, at, &mut out);
                let want = (at..len).find(|&i| b[i] == b'\\').unwrap_or(len);
                assert_eq!(end, want, "{b:?} from {at}");
                assert_eq!(out[1..], b[at..want]);
                let want = (at..len).find(|&i| is_suspect(b[i]));
                assert_eq!(suspect(&b, at), want, "{b:?} from {at}");
            }
        }
    }
}
