//! A fuzz target for the line splitter, the decoder and the ingest path:
//! lines built from real ones (the fixture, and the corpus when present)
//! and hostile fragments, fed in random pieces. It checks that nothing
//! panics, that any split of the bytes gives the same rows, that every
//! entry is accounted for, and that the splitter's cheap "is the tail a
//! whole object" never says no to a tail that decodes cleanly.
//!
//! Small by default; `CCV_FUZZ_ROUNDS=200000 cargo test --release --test
//! suite fuzz_decoder::` runs it long (`CCV_FUZZ_SEED` picks another
//! sequence).

use ccv::model::Session;
use ccv::model::lines::LineSplitter;
use ccv::source::claude::decode::decode_line;

use crate::common;

use common::Rng;

const FRAGMENTS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"\\\"",
    b",",
    b":",
    b"}{",
    b"\n",
    b"\r\n",
    b"\r",
    b"\\ud83d",
    b"\\udc00",
    b"\xc3",
    b"\xff",
    b"\x00",
    b"\x1b]2;x\x07",
    b"\x1b[",
    b"\xc2\x9b",
    b"null",
    b"true",
    b"1e999",
    b"-0",
    b"\"type\":\"user\"",
    b"\"uuid\":\"u1\"",
    b"\"tool_use_id\":\"t1\"",
    b"\"content\":[",
    b"{\"type\":\"tool_result\"}",
];

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn seed_lines() -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = common::fixtures()
        .split(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    if let Some(files) = common::corpus_files() {
        // a few lines of each real file keep the budget small
        for f in files.iter().take(40) {
            let Ok(b) = std::fs::read(f) else { continue };
            lines.extend(
                b.split(|&c| c == b'\n')
                    .filter(|l| l.len() < 20_000)
                    .take(6)
                    .map(<[u8]>::to_vec),
            );
        }
    }
    lines
}

fn mutate(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut b = line.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(4) {
            0 => {
                let f = FRAGMENTS[rng.below(FRAGMENTS.len())];
                b.splice(at..at, f.iter().copied());
            }
            1 if !b.is_empty() => {
                let end = (at + rng.below(16)).min(b.len());
                b.drain(at.min(end)..end);
            }
            2 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            _ => b.truncate(at),
        }
    }
    b
}

#[test]
fn decoder_and_splitter_hold_against_random_input() {
    let rounds = env_num("CCV_FUZZ_ROUNDS", 1500);
    let mut rng = Rng(env_num("CCV_FUZZ_SEED", 0x5eed_f00d) | 1);
    let seeds = seed_lines();
    for round in 0..rounds {
        let mut bytes = Vec::new();
        for _ in 0..=rng.below(6) {
            let line = &seeds[rng.below(seeds.len())];
            let line = if rng.below(3) == 0 {
                line.clone()
            } else {
                mutate(&mut rng, line)
            };
            bytes.extend_from_slice(&line);
            if rng.below(8) != 0 {
                bytes.push(b'\n');
            }
        }
        // one piece, then random pieces with the follower's tail check
        let mut whole = Session::new(None);
        whole.feed(0, &bytes);
        whole.finish(0);
        let mut pieces = Session::new(None);
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let n = 1 + rng.below(rest.len().min(64));
            pieces.feed(0, &rest[..n]);
            pieces.flush_tail(0);
            rest = &rest[n..];
        }
        pieces.finish(0);
        let (a, b) = (common::rows(&whole), common::rows(&pieces));
        if a != b {
            let first = a
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            panic!(
                "round {round}: rows differ at {first}: {:?} vs {:?}",
                a.get(first)
                    .map(|t| t.chars().take(200).collect::<String>()),
                b.get(first)
                    .map(|t| t.chars().take(200).collect::<String>())
            );
        }
        let st = &whole.stats;
        assert_eq!(
            st.shown + st.hidden + st.unreadable,
            st.entries,
            "round {round}"
        );
        // a tail the decoder reads cleanly is one the splitter offers
        let mut sp = LineSplitter::new();
        sp.feed(&bytes, |_| {});
        let whole = sp.tail_may_be_whole();
        if let Some(t) = sp.tail() {
            let clean = decode_line(t.number, t.bytes, |_, _| {})
                .iter()
                .all(|p| p.recovered);
            if clean {
                assert!(
                    whole,
                    "round {round}: {:?}",
                    String::from_utf8_lossy(t.bytes)
                );
            }
        }
    }
}
