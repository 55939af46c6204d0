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
use crate::types::AdjHistory;
use crate::types::{Phase, Side, Variant};

/// Key of hole `h` of player `s`.
pub(crate) static HOLE: [[u64; 32]; 2] = {
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
    stores_key_plain(stores)
}

/// The opening history's term of [`meta_counts`].
#[inline]
pub(crate) fn hist_key(hist: [u32; 2]) -> u64 {
    splitmix(hist_input(hist))
}

/// What [`hist_key`] mixes: side A's history above side B's, which start
/// at bit 24 and bit 0 (`HIST_SHIFT`), so that the Adjiboto generator can
/// swap one side's history in by a XOR; the count and holes of each
/// ([`AdjHistory::ENTRIES`]), not the set of holes kept beside them.
#[inline]
pub(crate) fn hist_input(hist: [u32; 2]) -> u64 {
    let e = |h: u32| (h & AdjHistory::ENTRIES) as u64;
    0x4157 ^ e(hist[0]) << HIST_SHIFT[0] ^ e(hist[1]) << HIST_SHIFT[1]
}

/// Where each side's history starts in [`hist_input`], by side.
pub(crate) const HIST_SHIFT: [u32; 2] = [24, 0];

/// [`hist_key`] of a [`hist_input`].
#[inline]
pub(crate) fn hist_key_of_input(x: u64) -> u64 {
    splitmix(x)
}

/// The most counters in an Adjiboto store (RULINGS 10: the game has 100).
const STORE_MAX: usize = 100;

/// [`stores_key`] for Adjiboto's stores, at [`stores_index`].
static STORES: [u64; (STORE_MAX + 1) * (STORE_MAX + 1)] = {
    let mut t = [0u64; (STORE_MAX + 1) * (STORE_MAX + 1)];
    let mut a = 0;
    while a <= STORE_MAX {
        let mut b = 0;
        while b <= STORE_MAX {
            t[stores_index([a as u8, b as u8])] = stores_key_plain([a as u8, b as u8]);
            b += 1;
        }
        a += 1;
    }
    t
};

/// Where Adjiboto's `stores` are in the table of their keys; a counter more
/// in side `s`'s store moves it by `STORES_STEP[s]`.
#[inline]
pub(crate) const fn stores_index(stores: [u8; 2]) -> usize {
    stores[0] as usize * (STORE_MAX + 1) + stores[1] as usize
}

/// See [`stores_index`].
pub(crate) const STORES_STEP: [usize; 2] = [STORE_MAX + 1, 1];

/// [`stores_key`] of the stores at `index` ([`stores_index`]), for stores
/// of at most 100 counters each (an Adjiboto game's; more panics).
#[inline]
pub(crate) fn stores_key_at(index: usize) -> u64 {
    STORES[index]
}

const fn stores_key_plain(stores: [u8; 2]) -> u64 {
    splitmix(0x5707e ^ (stores[0] as u64) << 8 ^ (stores[1] as u64) << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_table_is_the_key() {
        for a in 0..=STORE_MAX as u8 {
            for b in 0..=STORE_MAX as u8 {
                assert_eq!(
                    stores_key_at(stores_index([a, b])),
                    stores_key([a, b]),
                    "{a} {b}"
                );
                for s in 0..2 {
                    let mut more = [a, b];
                    more[s] += 1;
                    if more[s] as usize <= STORE_MAX {
                        let at = stores_index([a, b]) + STORES_STEP[s];
                        assert_eq!(stores_key_at(at), stores_key(more), "{a} {b} {s}");
                    }
                }
            }
        }
    }

    #[test]
    fn hist_input_swaps_one_side_by_xor() {
        // The key of the history pair with side `s`'s history replaced is
        // the key of the old input with the old history's count and holes
        // XORed out and the new one's in, at that side's shift; the values
        // are the splitmix of the documented input, which leaves out the
        // set of holes played that `push` keeps beside them.
        let of = |holes: &[u8]| holes.iter().fold(AdjHistory::default(), |h, &n| h.push(n));
        let hists = [of(&[]), of(&[3]), of(&[1, 2, 3, 4, 5]), of(&[3, 1, 4, 2])].map(|h| h.0);
        assert_eq!(hists[2], 5 | 0o54321 << 3 | 31 << AdjHistory::PLAYED);
        let entries = |h: u32| (h & AdjHistory::ENTRIES) as u64;
        for &a in &hists {
            for &b in &hists {
                let x = 0x4157 ^ entries(a) << 24 ^ entries(b);
                assert_eq!(hist_key([a, b]), splitmix(x));
                for &c in &hists {
                    let y = hist_input([a, b]) ^ entries(a ^ c) << HIST_SHIFT[0];
                    assert_eq!(hist_key_of_input(y), hist_key([c, b]));
                    let y = hist_input([a, b]) ^ entries(b ^ c) << HIST_SHIFT[1];
                    assert_eq!(hist_key_of_input(y), hist_key([a, c]));
                }
            }
        }
    }
}
