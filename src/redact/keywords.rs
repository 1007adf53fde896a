//! Finding every rule keyword in a text, in one pass: an Aho-Corasick DFA
//! (ASCII case ignored), walked over four quarters of the text at once.
//!
//! A DFA walk waits on each step's table load: one stream does ~600 MB/s
//! whatever the keywords. Four independent streams in one loop keep four
//! loads in flight (30 MB of session text: 50 ms with one, 28-37 ms with
//! four); each quarter starts a keyword's length early, so a keyword
//! across a border is found by the stream it ends in, once.

use aho_corasick::automaton::Automaton;
use aho_corasick::automaton::StateID;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};

pub struct Keywords {
    dfa: DFA,
    start: StateID,
    /// The longest keyword, in bytes.
    longest: usize,
    lens: Vec<usize>,
}

/// Texts shorter than this are walked by one stream.
const SPLIT: usize = 128;
/// Texts at least this long are walked by [`STREAMS`] streams, shorter
/// ones by four.
const WIDE: usize = 4096;
/// Streams walked at once.
const STREAMS: usize = 8;

impl Keywords {
    pub fn new(words: &[String]) -> Result<Keywords, String> {
        let dfa = DFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .prefilter(false)
            .build(words)
            .map_err(|e| e.to_string())?;
        let start = dfa.start_state(Anchored::No).map_err(|e| e.to_string())?;
        Ok(Keywords {
            dfa,
            start,
            longest: words.iter().map(String::len).max().unwrap_or(1).max(1),
            lens: words.iter().map(String::len).collect(),
        })
    }

    /// The longest keyword, in bytes.
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// The length of keyword `k`, in bytes.
    pub fn len_of(&self, k: u32) -> usize {
        self.lens.get(k as usize).copied().unwrap_or(0)
    }

    /// Every occurrence of every keyword (overlapping ones too), as (where
    /// it starts, which keyword), sorted by where it starts.
    pub fn find_all(&self, b: &[u8], out: &mut Vec<(usize, u32)>) {
        out.clear();
        if b.len() < SPLIT {
            // one stream reports in order of the keywords' ends
            self.walk(b, 0, b.len(), 0, out);
            if !out.is_sorted() {
                out.sort_unstable();
            }
        } else if b.len() < WIDE {
            self.walk_n::<4>(b, out);
            out.sort_unstable();
        } else {
            self.walk_n::<STREAMS>(b, out);
            out.sort_unstable();
        }
    }

    fn report(&self, sid: StateID, end: usize, out: &mut Vec<(usize, u32)>) {
        for i in 0..self.dfa.match_len(sid) {
            let p = self.dfa.match_pattern(sid, i);
            let len = self.lens.get(p.as_usize()).copied().unwrap_or(0);
            out.push((end.saturating_sub(len), p.as_u32()));
        }
    }

    /// One stream over `b[from..to]`, reporting keywords that end after
    /// `after`.
    fn walk(&self, b: &[u8], from: usize, to: usize, after: usize, out: &mut Vec<(usize, u32)>) {
        let mut sid = self.start;
        for (p, &x) in b[from..to].iter().enumerate() {
            sid = self.dfa.next_state(Anchored::No, sid, x);
            if self.dfa.is_special(sid) && self.dfa.is_match(sid) && from + p + 1 > after {
                self.report(sid, from + p + 1, out);
            }
        }
    }

    // the parts are walked in lockstep by one index: that is the point
    #[allow(clippy::needless_range_loop)]
    fn walk_n<const N: usize>(&self, b: &[u8], out: &mut Vec<(usize, u32)>) {
        let n = b.len();
        let q = n / N;
        let back = (self.longest - 1).min(q);
        // part k: its bytes are [k*q, (k+1)*q); it is walked from a
        // keyword's length before, and reports what ends inside it
        let border: [usize; N] = std::array::from_fn(|k| k * q);
        let from: [usize; N] = std::array::from_fn(|k| if k == 0 { 0 } else { k * q - back });
        let to: [usize; N] = std::array::from_fn(|k| if k + 1 == N { n } else { (k + 1) * q });
        let steps = (0..N).map(|k| to[k] - from[k]).min().unwrap_or(0);
        let parts: [&[u8]; N] = std::array::from_fn(|k| &b[from[k]..from[k] + steps]);
        let d = &self.dfa;
        let mut sid = [self.start; N];
        for i in 0..steps {
            let mut special = false;
            for k in 0..N {
                sid[k] = d.next_state(Anchored::No, sid[k], parts[k][i]);
                special |= d.is_special(sid[k]);
            }
            // special states (matches among them) are rare: one test for all
            if special {
                for k in 0..N {
                    if d.is_match(sid[k]) {
                        let end = from[k] + i + 1;
                        if k == 0 || end > border[k] {
                            self.report(sid[k], end, out);
                        }
                    }
                }
            }
        }
        // what is left of each part
        for k in 0..N {
            let mut s = sid[k];
            let rest = from[k] + steps;
            for (p, &x) in b[rest..to[k]].iter().enumerate() {
                let p = rest + p;
                s = d.next_state(Anchored::No, s, x);
                if d.is_special(s) && d.is_match(s) && (k == 0 || p + 1 > border[k]) {
                    self.report(s, p + 1, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_streams_find_what_one_finds() {
        let words: Vec<String> = ["key", "token", "ey", "=", "password", "sk_live"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let k = Keywords::new(&words).expect("keywords");
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(&format!(
                "line {i} KEY=x Token pass{i}word sk_live_{i} password\n"
            ));
        }
        let b = text.as_bytes();
        let mut four = Vec::new();
        k.find_all(b, &mut four);
        let mut one = Vec::new();
        k.walk(b, 0, b.len(), 0, &mut one);
        one.sort_unstable();
        assert_eq!(four, one);
        assert!(four.len() > 2000);
        // a keyword across every border
        for cut in [SPLIT, SPLIT + 1, 1000, 1001, 1002] {
            let mut t = "x".repeat(cut);
            t.push_str("password");
            t.push_str(&"y".repeat(cut));
            let mut found = Vec::new();
            k.find_all(t.as_bytes(), &mut found);
            assert_eq!(found.iter().filter(|(_, p)| *p == 4).count(), 1, "{cut}");
        }
    }
}
