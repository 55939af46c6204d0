//! The workspace's seeded generator ([`choro_engine::rng::Rng`]): every
//! fuzz input and soak game is a function of one seed, so a run can be
//! repeated exactly.

pub use choro_engine::rng::Rng;

/// FNV-1a: a stable name for an input (findings are saved under it).
pub fn fingerprint(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
