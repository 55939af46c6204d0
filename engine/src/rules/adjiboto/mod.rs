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

/// What the lap of `hand` counters lifted from ring index `h` does (RULINGS
/// 10: the first drop goes into the lifted hole), by `[h][hand]`: `add` is
/// added to the ring (hole `i` in byte `i`, as [`Loop::low16`]): the lifted
/// hole emptied, `hand / 10` into every hole and one more into the `hand %
/// 10` holes from `h` (exact as an integer, so the wrapping terms cancel);
/// `hash` to the board hash. `next` is the hole after the last drop, and
/// that hole holds `q` plus the count the parent had in hole `probe`
/// (which is 10, a byte that stays 0, when the laps were whole: `next` is
/// then the lifted hole).
#[derive(Clone, Copy)]
struct Lap {
    add: u128,
    hash: u64,
    next: u8,
    probe: u8,
    q: u8,
}

impl Lap {
    /// Whether the hole after the last drop will hold 1, 3 or 5 on the ring
    /// whose counts are `counts` (that of the lap's parent), the first
    /// condition of a capture.
    #[inline(always)]
    fn may_capture(&self, counts: &[u8; 16]) -> bool {
        // (`probe` is at most 10: the mask only spares the bounds check.)
        matches!(counts[(self.probe & 15) as usize] + self.q, 1 | 3 | 5)
    }
}

/// The capture from ring index `from` of a ring whose counts are `bytes`:
/// the run of holes holding 1, 3 or 5 from there on, at most 9 (never back
/// round to where it started), each emptied and given to `take` with its
/// count.
#[inline(always)]
fn capture_run(bytes: &mut [u8; 16], from: usize, mut take: impl FnMut(usize, u8)) {
    debug_assert!(from < RING);
    let mut j = from & 15;
    for _ in 1..RING {
        let c = bytes[j];
        if !matches!(c, 1 | 3 | 5) {
            break;
        }
        bytes[j] = 0;
        take(j, c);
        j = if j == RING - 1 { 0 } else { j + 1 };
    }
}

/// The biggest capture each side (by `Side::index`) could make with one
/// sowing from a hole of two counters or more, ignoring the opening's
/// distinct-hole rule (none on the game's first move): `eval::adj_best_capture`.
/// Only the holes [`capture_candidates`] names are sown, by the lap table,
/// and their captures walked.
pub(crate) fn best_captures(pos: &Position) -> [u32; 2] {
    let mut best = [0; 2];
    if pos.hist[0].is_empty() && pos.hist[1].is_empty() {
        return best;
    }
    let ring = pos.loops[0].low16();
    let mut m = capture_candidates(ring);
    if m == 0 {
        return best;
    }
    let counts = ring.to_le_bytes();
    while m != 0 {
        let h = m.trailing_zeros() as usize;
        m &= m - 1;
        let lap = &LAPS[h & 15][counts[h & 15] as usize];
        // A hole of 10 or more is only a candidate: its laps go round.
        if counts[h & 15] as usize >= RING && !lap.may_capture(&counts) {
            continue;
        }
        let mut took = 0u32;
        let mut after = ring.wrapping_add(lap.add).to_le_bytes();
        capture_run(&mut after, lap.next as usize, |_, c| took += c as u32);
        let side = usize::from(h >= RING / 2);
        best[side] = best[side].max(took);
    }
    best
}

#[cfg(target_arch = "x86_64")]
mod sse2;
#[cfg(target_arch = "x86_64")]
use sse2::capture_candidates;

/// [`capture_candidates`] without SSE2: hole by hole.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn capture_candidates(ring: u128) -> u32 {
    capture_candidates_plain(ring)
}

/// [`capture_candidates`] hole by hole, by the lap table (the code where
/// SSE2 is missing; tested against it where it is not).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn capture_candidates_plain(ring: u128) -> u32 {
    let counts = ring.to_le_bytes();
    let mut m = 0;
    for h in 0..RING {
        let hand = counts[h] as usize;
        if hand >= RING || hand >= 2 && LAPS[h][hand].may_capture(&counts) {
            m |= 1 << h;
        }
    }
    m
}

const RING: usize = ADJ_HOLES as usize;

/// Counters in an Adjiboto game (RULINGS 10; the FEN parser refuses more),
/// so a hand is at most this.
const COUNTERS: usize = 100;

static LAPS: [[Lap; COUNTERS + 1]; RING] = {
    let empty = Lap {
        add: 0,
        hash: 0,
        next: 0,
        probe: 0,
        q: 0,
    };
    let mut t = [[empty; COUNTERS + 1]; RING];
    let key = &zobrist::HOLE[0];
    let mut h = 0;
    while h < RING {
        let mut hand = 0;
        while hand <= COUNTERS {
            let (q, r) = (hand / RING, hand % RING);
            let (mut add, mut hash) = (0u128, 0u64);
            let mut i = 0;
            while i < RING {
                let drops = q + ((i + RING - h) % RING < r) as usize;
                add = add.wrapping_add((drops as u128) << (8 * i));
                hash = hash.wrapping_add(key[i].wrapping_mul(drops as u64));
                i += 1;
            }
            t[h][hand] = Lap {
                add: add.wrapping_sub((hand as u128) << (8 * h)),
                hash: hash.wrapping_sub(key[h].wrapping_mul(hand as u64)),
                next: ((h + r) % RING) as u8,
                probe: if r == 0 {
                    RING as u8
                } else {
                    ((h + r) % RING) as u8
                },
                q: q as u8,
            };
            hand += 1;
        }
        h += 1;
    }
    t
};

/// Where [`generate_into`] builds each move's child, and what is done with
/// it once built.
pub(crate) trait ChildOut {
    /// Whether each slot is a fresh copy of the parent (the side and ply
    /// then written for every move), not the last move's child.
    const FRESH: bool;
    /// Where the next move's child is built: a position equal to the parent
    /// in every field but side, ply, stores, ring, masks, history and hash,
    /// which the generator writes (the side and ply once, unless `FRESH`).
    fn slot(&mut self) -> &mut Position;
    /// The child built in the last slot is reached by `mv`; false stops.
    fn made(&mut self, mv: &Move, info: MoveInfo) -> bool;
}

/// [`ChildOut`] for [`generate`]: one child aside, rewritten by each move
/// and handed to the sink.
struct Aside<'c, F> {
    child: &'c mut Position,
    sink: F,
}

impl<F: FnMut(&Move, &Position, MoveInfo) -> bool> ChildOut for Aside<'_, F> {
    const FRESH: bool = false;
    #[inline(always)]
    fn slot(&mut self) -> &mut Position {
        self.child
    }
    #[inline(always)]
    fn made(&mut self, mv: &Move, info: MoveInfo) -> bool {
        (self.sink)(mv, self.child, info)
    }
}

pub(crate) fn generate<F>(pos: &Position, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    // One child, of which each move rewrites what a move changes.
    let mut child = *pos;
    generate_into(
        pos,
        &mut Aside {
            child: &mut child,
            sink,
        },
    )
}

/// What a move of side `s`, whose history is `hist` (its bits), does to
/// that history and to the history key's input.
#[derive(Clone, Copy)]
struct HistStep {
    /// The history has fewer than five entries, so the move is one more.
    grows: bool,
    /// The history with one more entry, the hole not yet in it.
    next: u32,
    /// Where the hole goes in `next`.
    slot: u32,
    /// The input's change for the count: `(hist ^ next) << HIST_SHIFT[s]`.
    swap: u64,
    /// Where the hole goes in the input: `slot + HIST_SHIFT[s]`.
    entry: u32,
}

#[inline(always)]
fn hist_step(hist: u32, s: usize) -> HistStep {
    let len = hist & 7;
    let next = (hist & !7) | (len + 1);
    let slot = 3 + 3 * len;
    let shift = zobrist::HIST_SHIFT[s];
    HistStep {
        grows: len < 5,
        next,
        slot,
        swap: ((hist ^ next) as u64) << shift,
        entry: slot + shift,
    }
}

/// [`generate`], each move's child built where `out` says (the searchers'
/// children list writes it straight into the list).
#[inline(always)]
pub(crate) fn generate_into<C: ChildOut>(pos: &Position, out: &mut C) -> GenStats {
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
    // The child's history is `next_hist` with the hole in the free entry
    // at `slot` (a history's entries past its length are 0, as `push`
    // leaves them) and in the set of holes played; the history key's input
    // (which leaves that set out) is then the parent's with this side's
    // history swapped, `others ^ n << entry`.
    let HistStep {
        grows,
        next: next_hist,
        slot,
        swap,
        entry,
    } = hist_step(hist, s);
    debug_assert!(!grows || (hist & AdjHistory::ENTRIES) >> slot == 0);
    let input0 = zobrist::hist_input([pos.hist[0].0, pos.hist[1].0]);
    let others = input0 ^ swap;
    let hist0 = if grows {
        zobrist::hist_key_of_input(input0)
    } else {
        0
    };
    let ring0 = pos.loops[0].low16();
    let counts = ring0.to_le_bytes();
    let (side, ply) = (pos.side.other(), pos.ply + 1);
    // The stores' key of a capture's child is `taken` steps on from the
    // parent's in the table.
    let (stores_at, step) = (zobrist::stores_index(pos.stores), zobrist::STORES_STEP[s]);
    if !C::FRESH {
        let child = out.slot();
        child.side = side;
        child.ply = ply;
    }
    let mut mv = Move::empty(false);
    let (mut made, mut drops) = (0u64, 0u64);
    let mut m = playable(pos);
    while m != 0 {
        let n = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let h = adj_pos(pos.side, n);
        let hand = counts[h as usize];
        let lap = &LAPS[h as usize][hand as usize];
        let mut ring = ring0.wrapping_add(lap.add);
        let mut hash = base.wrapping_add(lap.hash);
        let child = out.slot();
        if C::FRESH {
            child.side = side;
            child.ply = ply;
        }
        child.stores = pos.stores;
        // A capture takes the run of holes of 1, 3 or 5 from the one after
        // the last drop, at most 9 (not the last hole); none on the game's
        // first move.
        if !first_move && lap.may_capture(&counts) {
            let mut taken = 0u8;
            let mut bytes = ring.to_le_bytes();
            capture_run(&mut bytes, lap.next as usize, |j, c| {
                taken += c;
                hash = hash.wrapping_sub((c as u64).wrapping_mul(zobrist::HOLE[0][j]));
            });
            ring = u128::from_le_bytes(bytes);
            let mut stores = pos.stores;
            stores[s] += taken;
            child.stores = stores;
            hash = hash
                .wrapping_add(zobrist::stores_key_at(stores_at + taken as usize * step))
                .wrapping_sub(zobrist::stores_key_at(stores_at));
        }
        child.loops[0] = Loop::from_low16(ring);
        (child.occupied[0], child.movable[0]) = masks_low16(ring);
        if grows {
            let h = next_hist | (n as u32) << slot | 1 << (AdjHistory::PLAYED - 1 + n as u32);
            child.hist[s] = AdjHistory(h);
            let key = zobrist::hist_key_of_input(others ^ (n as u64) << entry);
            hash = hash.wrapping_add(key).wrapping_sub(hist0);
        }
        child.hash = hash;
        debug_assert_eq!(child.hist[s], pos.hist[s].push(n));
        debug_assert_eq!(child.hash, {
            let mut c = *child;
            c.refresh_masks();
            c.rehash();
            c.hash
        });
        debug_assert_eq!((child.occupied, child.movable), {
            let mut c = *child;
            c.refresh_masks();
            (c.occupied, c.movable)
        });
        made += 1;
        drops += hand as u64;
        mv.truncate(0);
        mv.push(Token::Lift(n));
        let info = MoveInfo {
            laps: 1,
            drops: hand as u32,
        };
        if !out.made(&mv, info) {
            break;
        }
    }
    GenStats {
        moves: made,
        laps: made,
        drops,
        ..GenStats::default()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A ring of at most 100 counters in its 10 holes: mostly small counts
    /// (where the hands of 2 to 9 are), sometimes a few big ones.
    fn random_ring(rng: &mut Rng) -> u128 {
        let mut counts = [0u8; 16];
        let mut left = 100u32;
        let small = rng.chance(3, 4);
        for c in counts.iter_mut().take(RING) {
            let most = if small { left.min(11) } else { left };
            let n = rng.below(most as usize + 1) as u32;
            *c = n as u8;
            left -= n;
        }
        u128::from_le_bytes(counts)
    }

    #[test]
    fn capture_candidates_match_the_lap_table() {
        let mut rng = Rng::new(0xcab7);
        let mut seen = 0u32;
        for _ in 0..200_000 {
            let ring = random_ring(&mut rng);
            let m = capture_candidates(ring);
            assert_eq!(
                m,
                capture_candidates_plain(ring),
                "{:x?}",
                ring.to_le_bytes()
            );
            seen |= m;
        }
        // Every hole is a candidate somewhere.
        assert_eq!(seen, (1 << RING) - 1);
    }

    #[test]
    fn candidates_are_the_holes_a_sowing_captures_from() {
        // Hole by hole: the hole after the last drop of a plain sowing
        // holds 1, 3 or 5 exactly where a hole of 2 to 9 is a candidate.
        let mut rng = Rng::new(0x5eed);
        for _ in 0..20_000 {
            let ring = random_ring(&mut rng);
            let counts = ring.to_le_bytes();
            let m = capture_candidates(ring);
            for h in 0..RING {
                let hand = counts[h] as usize;
                let mut r = counts;
                r[h] = 0;
                for k in 0..hand {
                    r[(h + k) % RING] += 1;
                }
                let after = r[(h + hand) % RING];
                let may = hand >= 2 && matches!(after, 1 | 3 | 5);
                if hand < RING {
                    assert_eq!(m >> h & 1 != 0, may, "{counts:?} {h}");
                } else {
                    assert!(m >> h & 1 != 0, "{counts:?} {h}");
                }
            }
        }
    }
}
