//! The workspace's one seeded generator, SplitMix64 (Vigna): MCTS
//! playouts, the `random` baseline, helper-thread diversity, the hash keys,
//! `choro match`'s random openings, the position generators of `bench/`,
//! the fuzzers and soak, and the tests' random positions. Our own, so a
//! seed gives the same numbers on every machine and with every dependency
//! version; every stream is a function of its seed alone.

/// The SplitMix64 increment (the golden ratio in 64 bits).
pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// One SplitMix64 output for the state `x`: `x + GAMMA`, mixed. Also a good
/// 64-bit hash of `x` (the hash keys are made with it at compile time).
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    #[inline]
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GAMMA);
        z
    }

    /// Uniform in `0..n` by multiply-shift (Lemire); 0 when `n` is 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..=hi` (`lo <= hi`).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + ((self.next_u64() as u128 * span) >> 64) as i128) as i64
    }

    /// True with probability `num / den` (`den > 0`).
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        (self.below(den as usize) as u32) < num
    }

    /// An element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference code).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(GAMMA), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_covers_the_range() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[r.below(5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn range_and_chance_stay_in_bounds() {
        let mut r = Rng::new(11);
        let (mut lo, mut hi) = (false, false);
        for _ in 0..2000 {
            let x = r.range(-3, 3);
            assert!((-3..=3).contains(&x), "{x}");
            lo |= x == -3;
            hi |= x == 3;
        }
        assert!(lo && hi);
        let full = r.range(i64::MIN, i64::MAX);
        let _ = full;
        let yes = (0..1000).filter(|_| r.chance(1, 4)).count();
        assert!((150..350).contains(&yes), "{yes}");
        assert!(!(0..100).any(|_| r.chance(0, 3)));
        assert!((0..100).all(|_| r.chance(3, 3)));
    }
}
