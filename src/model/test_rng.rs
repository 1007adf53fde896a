//! Numbers that look random and are the same on every run (xorshift): for
//! the tests that hold a fast path to a plain one on random inputs.

pub(crate) struct Rng(u64);

impl Rng {
    /// (xorshift stays at 0 from 0)
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which is not 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
