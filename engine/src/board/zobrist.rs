//! Hash keys.
//!
//! The board part of the hash is *additive*: `sum(count[h] * KEY[h])` over
//! all holes (wrapping). A lap adds one counter to each hole of a stretch of
//! the loop, so the hash moves by the sum of that stretch's keys, which the
//! generators take from tables: O(1) per lap, where a XOR-Zobrist hash would
//! need one update per hole touched. For two different boards to collide, a
//! small integer combination of random 64-bit keys must vanish modulo 2^64,
//! which is as unlikely as a XOR collision. Side, phase, stores and
//! Adjiboto's opening history are mixed in once per position.

use crate::rng::splitmix64 as splitmix;
use crate::types::{Phase, Side, Variant};

/// Key of hole `h` of player `s`.
pub static HOLE: [[u64; 32]; 2] = {
    let mut k = [[0u64; 32]; 2];
    let mut s = 0;
    while s < 2 {
        let mut h = 0;
        while h < 32 {
            k[s][h] = splitmix((s * 32 + h) as u64 + 1) | 1;
            h += 1;
        }
        s += 1;
    }
    k
};

/// The non-board part of a position's hash.
pub fn meta(
    variant: Variant,
    width: u8,
    side: Side,
    phase: Phase,
    stores: [u8; 2],
    hist: [u32; 2],
) -> u64 {
    meta_fixed(variant, width, side, phase).wrapping_add(meta_counts(stores, hist))
}

/// The part of [`meta`] of the code, width, side and phase (the same for
/// every child of a position, so generators compute it once).
#[inline]
pub(crate) fn meta_fixed(variant: Variant, width: u8, side: Side, phase: Phase) -> u64 {
    let x = splitmix(0x5eed ^ (variant as u64) << 8 ^ width as u64);
    x.wrapping_add(SIDE[side as usize])
        .wrapping_add(splitmix(0xface ^ phase as u64))
}

/// The side's term of [`meta_fixed`], by side.
pub(crate) static SIDE: [u64; 2] = [splitmix(0x51de), splitmix(0x51de ^ 1)];

/// The part of [`meta`] of Adjiboto's stores and opening history.
#[inline]
pub(crate) fn meta_counts(stores: [u8; 2], hist: [u32; 2]) -> u64 {
    stores_key(stores).wrapping_add(hist_key(hist))
}

/// The stores' term of [`meta_counts`].
#[inline]
pub(crate) fn stores_key(stores: [u8; 2]) -> u64 {
    splitmix(0x5707e ^ (stores[0] as u64) << 8 ^ (stores[1] as u64) << 20)
}

/// The opening history's term of [`meta_counts`].
#[inline]
pub(crate) fn hist_key(hist: [u32; 2]) -> u64 {
    splitmix(0x4157 ^ (hist[0] as u64) << 24 ^ hist[1] as u64)
}
