//! Hash keys.
//!
//! The board part of the hash is *additive*: `sum(count[h] * KEY[h])` over
//! all holes (wrapping). A lap adds one counter to each hole of a stretch of
//! the loop, so the hash moves by a difference of two prefix sums: O(1) per
//! lap, where a XOR-Zobrist hash would need one update per hole touched. For
//! two different boards to collide, a small integer combination of random
//! 64-bit keys must vanish modulo 2^64, which is as unlikely as a XOR
//! collision. Side, phase, stores and Adjiboto's opening history are mixed in
//! once per position.

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

/// `PREFIX[s][i]` = sum of `HOLE[s][..i]`.
pub static PREFIX: [[u64; 33]; 2] = {
    let mut p = [[0u64; 33]; 2];
    let mut s = 0;
    while s < 2 {
        let mut h = 0;
        while h < 32 {
            p[s][h + 1] = p[s][h].wrapping_add(HOLE[s][h]);
            h += 1;
        }
        s += 1;
    }
    p
};

/// Sum of the keys of the `r` holes from `start` (wrapping) of a loop of `len`.
#[inline]
pub fn range_sum(s: usize, start: u8, r: u8, len: u8) -> u64 {
    let p = &PREFIX[s];
    let (a, e) = (start as usize, start as usize + r as usize);
    let len = len as usize;
    if e <= len {
        p[e].wrapping_sub(p[a])
    } else {
        p[len].wrapping_sub(p[a]).wrapping_add(p[e - len])
    }
}

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
    x.wrapping_add(splitmix(0x51de ^ side as u64))
        .wrapping_add(splitmix(0xface ^ phase as u64))
}

/// The part of [`meta`] of Adjiboto's stores and opening history.
#[inline]
pub(crate) fn meta_counts(stores: [u8; 2], hist: [u32; 2]) -> u64 {
    splitmix(0x5707e ^ (stores[0] as u64) << 8 ^ (stores[1] as u64) << 20)
        .wrapping_add(splitmix(0x4157 ^ (hist[0] as u64) << 24 ^ hist[1] as u64))
}
