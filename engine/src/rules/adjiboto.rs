//! Adjiboto (RULINGS 10): sow from the lifted hole itself, capture runs of
//! 1, 3 or 5 after the last hole, opening of five distinct holes.

use super::{GenStats, LapBoard, LapRecord, MoveInfo};
use crate::board::{zobrist, AdjHistory, Position};
use crate::types::geometry::{adj_pos, ADJ_HOLES};
use crate::types::moves::{Move, Token};
use crate::types::packed::{masks_low16, Loop};

/// Holes (bit n-1 for hole n) the mover may play.
pub(crate) fn playable(pos: &Position) -> u32 {
    let s = pos.side.index();
    let movable = (pos.movable[0] >> (5 * s)) & 0x1f;
    let h = pos.hist[s];
    if h.len() < 5 {
        let fresh = movable & !h.played();
        if fresh != 0 {
            return fresh;
        }
    }
    movable
}

/// What a lap of `hand = 10 q + r` counters lifted from ring index `h` does
/// (RULINGS 10: the first drop goes into the lifted hole), by `[h][r]`: the
/// ring (hole `i` in byte `i`, as [`Loop::low16`]) becomes `ring + q * qadd +
/// add` (the lifted hole emptied, `q` into every hole and one more into the
/// `r` holes from `h`; exact as integers, so the wrapping terms cancel), and
/// the board hash moves by `q * qhash + hash`. `next` is the hole after the
/// last drop.
#[derive(Clone, Copy)]
struct Lap {
    qadd: u128,
    add: u128,
    qhash: u64,
    hash: u64,
    next: u8,
}

const RING: usize = ADJ_HOLES as usize;

static LAPS: [[Lap; RING]; RING] = {
    let empty = Lap {
        qadd: 0,
        add: 0,
        qhash: 0,
        hash: 0,
        next: 0,
    };
    let mut t = [[empty; RING]; RING];
    let key = &zobrist::HOLE[0];
    let mut ones = 0u128;
    let mut all = 0u64;
    let mut i = 0;
    while i < RING {
        ones |= 1 << (8 * i);
        all = all.wrapping_add(key[i]);
        i += 1;
    }
    let mut h = 0;
    while h < RING {
        let lifted = 1u128 << (8 * h);
        let mut r = 0;
        while r < RING {
            let (mut add, mut hash) = (0u128, 0u64);
            let mut k = 0;
            while k < r {
                let j = (h + k) % RING;
                add += 1 << (8 * j);
                hash = hash.wrapping_add(key[j]);
                k += 1;
            }
            t[h][r] = Lap {
                qadd: ones.wrapping_sub(lifted.wrapping_mul(RING as u128)),
                add: add.wrapping_sub(lifted.wrapping_mul(r as u128)),
                qhash: all.wrapping_sub(key[h].wrapping_mul(RING as u64)),
                hash: hash.wrapping_sub(key[h].wrapping_mul(r as u64)),
                next: ((h + r) % RING) as u8,
            };
            r += 1;
        }
        h += 1;
    }
    t
};

/// Ring holes (bit `i` for index `i`) holding 1, 3 or 5 counters.
#[cfg(target_arch = "x86_64")]
#[inline]
fn capturable(ring: u128) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; these only compute.
    unsafe {
        let v = _mm_set_epi64x((ring >> 64) as i64, ring as i64);
        // Bit 0 of every byte, moved to its top bit.
        let odd = _mm_movemask_epi8(_mm_slli_epi16(v, 7)) as u32;
        let small = _mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_subs_epu8(v, _mm_set1_epi8(5)),
            _mm_setzero_si128(),
        )) as u32;
        odd & small & ((1 << RING) - 1)
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn capturable(ring: u128) -> u32 {
    (0..RING).fold(0, |m, i| {
        m | (matches!((ring >> (8 * i)) as u8, 1 | 3 | 5) as u32) << i
    })
}

pub(crate) fn generate<F>(pos: &Position, mut sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    let mut stats = GenStats::default();
    let s = pos.side.index();
    let first_move = pos.hist[0].is_empty() && pos.hist[1].is_empty();
    // The child's hash is the parent's, moved by the lap, the captures and
    // the meta terms that change: the side always, the stores after a
    // capture, the history in the opening (the same values as a rehash).
    let base = pos
        .hash
        .wrapping_add(zobrist::SIDE[1 - s])
        .wrapping_sub(zobrist::SIDE[s]);
    let hist = pos.hist[s].0;
    let hist_len = hist & 7;
    let grows = hist_len < 5;
    let hist0 = zobrist::hist_key([pos.hist[0].0, pos.hist[1].0]);
    let ring0 = pos.loops[0].low16();
    let counts = ring0.to_le_bytes();
    // One child, of which each move rewrites what a move changes.
    let mut child = *pos;
    child.side = pos.side.other();
    child.ply = pos.ply + 1;
    let mut mv = Move::empty(false);
    let mut m = playable(pos);
    while m != 0 {
        let n = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let h = adj_pos(pos.side, n);
        let hand = counts[h as usize];
        let (q, r) = (hand / ADJ_HOLES, hand % ADJ_HOLES);
        let lap = &LAPS[h as usize][r as usize];
        let mut ring = ring0
            .wrapping_add((q as u128).wrapping_mul(lap.qadd))
            .wrapping_add(lap.add);
        let mut hash = base
            .wrapping_add((q as u64).wrapping_mul(lap.qhash))
            .wrapping_add(lap.hash);
        let mut taken = 0u8;
        if !first_move {
            // The run of holes of 1, 3 or 5 from the one after the last
            // drop, at most 9 (the last hole is not taken).
            let c = capturable(ring);
            let next = lap.next as u32;
            let run = ((!((c | c << RING) >> next)).trailing_zeros()).min(RING as u32 - 1);
            if run != 0 {
                let cap = ((1u32 << run) - 1) << next;
                let mut m = (cap | cap >> RING) & ((1 << RING) - 1);
                let mut bytes = ring.to_le_bytes();
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let c = std::mem::take(&mut bytes[j]);
                    taken += c;
                    hash = hash.wrapping_sub((c as u64).wrapping_mul(zobrist::HOLE[0][j]));
                }
                ring = u128::from_le_bytes(bytes);
            }
        }
        child.loops[0] = Loop::from_low16(ring);
        (child.occupied[0], child.movable[0]) = masks_low16(ring);
        child.stores[s] = pos.stores[s] + taken;
        if taken != 0 {
            hash = hash
                .wrapping_add(zobrist::stores_key(child.stores))
                .wrapping_sub(zobrist::stores_key(pos.stores));
        }
        if grows {
            child.hist[s] =
                AdjHistory((hist & !7) | (n as u32) << (3 + 3 * hist_len) | (hist_len + 1));
            hash = hash
                .wrapping_add(zobrist::hist_key([child.hist[0].0, child.hist[1].0]))
                .wrapping_sub(hist0);
        }
        child.hash = hash;
        debug_assert_eq!(child.hist[s], pos.hist[s].push(n));
        debug_assert_eq!(child.hash, {
            let mut c = child;
            c.refresh_masks();
            c.rehash();
            c.hash
        });
        debug_assert_eq!((child.occupied, child.movable), {
            let mut c = child;
            c.refresh_masks();
            (c.occupied, c.movable)
        });
        stats.moves += 1;
        stats.laps += 1;
        stats.drops += hand as u64;
        mv.truncate(0);
        mv.push(Token::Lift(n));
        let info = MoveInfo {
            laps: 1,
            drops: hand as u32,
        };
        if !sink(&mv, &child, info) {
            break;
        }
    }
    stats
}

/// The one lap of Adjiboto move `m`, with the ring it leaves before the
/// captures (`first` and `last` are ring indices here), if `m` is legal.
pub(crate) fn trace(pos: &Position, m: &Move) -> Option<Vec<(LapRecord, LapBoard)>> {
    let n = match (m.len(), m.token(0)) {
        (1, Some(Token::Lift(n))) if (1..=5).contains(&n) && playable(pos) >> (n - 1) & 1 != 0 => n,
        _ => return None,
    };
    let h = adj_pos(pos.side, n);
    let mut ring = [0u8; 32];
    for (i, c) in ring.iter_mut().enumerate().take(ADJ_HOLES as usize) {
        *c = pos.loops[0].get(i as u8);
    }
    let hand = std::mem::take(&mut ring[h as usize]);
    let mut at = h as usize;
    for k in 0..hand {
        if k > 0 {
            at = (at + 1) % ADJ_HOLES as usize;
        }
        ring[at] += 1;
    }
    let lap = LapRecord {
        first: h,
        hand,
        dir: crate::types::Dir::Ccw,
        last: at as u8,
        after: ring[at],
    };
    Some(vec![(lap, [ring, [0; 32]])])
}
