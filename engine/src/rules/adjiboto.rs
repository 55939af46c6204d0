//! Adjiboto (RULINGS 10): sow from the lifted hole itself, capture runs of
//! 1, 3 or 5 after the last hole, opening of five distinct holes.

use super::{GenStats, LapBoard, LapRecord, MoveInfo};
use crate::board::{zobrist, Position};
use crate::types::geometry::{adj_pos, ADJ_HOLES};
use crate::types::moves::{Move, Token};
use crate::types::packed::range_bits;

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

pub(crate) fn generate<F>(pos: &Position, mut sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    let mut stats = GenStats::default();
    let s = pos.side.index();
    let first_move = pos.hist[0].is_empty() && pos.hist[1].is_empty();
    // The board part of the hash, and the children's meta keys less their
    // stores and history, are the same for every move.
    let board0 = pos.hash.wrapping_sub(pos.meta_hash());
    let child_fixed = zobrist::meta_fixed(pos.variant, pos.width, pos.side.other(), pos.phase);
    // One child, of which each move rewrites what a move changes.
    let mut child = *pos;
    child.side = pos.side.other();
    child.ply = pos.ply + 1;
    let mut m = playable(pos);
    while m != 0 {
        let n = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let h = adj_pos(pos.side, n);
        child.loops[0] = pos.loops[0];
        child.stores = pos.stores;
        let ring = &mut child.loops[0];
        let hand = ring.take(h);
        let mut hash = board0;
        hash = hash.wrapping_sub((hand as u64).wrapping_mul(zobrist::HOLE[0][h as usize]));
        let (q, r) = (hand / ADJ_HOLES, hand % ADJ_HOLES);
        let bits = if r == 0 {
            0
        } else {
            range_bits(h, r, ADJ_HOLES)
        };
        ring.add_masked(bits, (1 << ADJ_HOLES) - 1, q);
        hash = hash
            .wrapping_add((q as u64).wrapping_mul(zobrist::PREFIX[0][ADJ_HOLES as usize]))
            .wrapping_add(zobrist::range_sum(0, h, r, ADJ_HOLES));
        let last = (h as u32 + hand as u32 - 1) % ADJ_HOLES as u32;
        if !first_move {
            for i in 1..ADJ_HOLES as u32 {
                let j = ((last + i) % ADJ_HOLES as u32) as u8;
                let c = ring.get(j);
                if !matches!(c, 1 | 3 | 5) {
                    break;
                }
                ring.set(j, 0);
                child.stores[s] += c;
                hash = hash.wrapping_sub((c as u64).wrapping_mul(zobrist::HOLE[0][j as usize]));
            }
        }
        child.hist[s] = pos.hist[s].push(n);
        // Only the ring of loops[0] changed (Adjiboto leaves loops[1] empty).
        (child.occupied[0], child.movable[0]) = child.loops[0].masks(16);
        child.hash = hash
            .wrapping_add(child_fixed)
            .wrapping_add(zobrist::meta_counts(
                child.stores,
                [child.hist[0].0, child.hist[1].0],
            ));
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
        let mut mv = Move::empty(false);
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
