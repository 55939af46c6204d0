//! Perft with two counts per depth: `paths`, every legal move as enumerated,
//! and `unique`, children deduplicated by resulting position at every node.

use crate::board::Position;
use crate::rules::choro::{generate_branching_as, CHILD_BOARDS};
use crate::rules::{GenStats, LAP_BUDGET};
use crate::types::moves::Move;
use crate::types::Variant;
use rayon::prelude::*;

/// Counts of one perft depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    pub paths: u64,
    pub unique: u64,
}

/// Above this many children, duplicates are found by sorting hashes rather
/// than by comparing each child with the ones kept before it.
const PAIRWISE_MAX: usize = 24;

/// Children of `pos` deduplicated, with how many moves lead to each. The
/// first child of each group is kept, in generation order.
fn children(
    pos: &Position,
    budget: u32,
    buf: &mut Vec<(Position, u64)>,
    keys: &mut Vec<(u64, u32)>,
    stats: &mut GenStats,
) {
    buf.clear();
    let s = pos.generate(budget, |_, p, _| {
        buf.push((*p, 1));
        true
    });
    stats.add(&s);
    if buf.len() < 2 {
        return;
    }
    if buf.len() <= PAIRWISE_MAX {
        dedupe_pairwise(buf);
    } else {
        dedupe_sorted(buf, keys);
    }
}

/// Few children (the common case): compare each with those kept so far.
/// A 64-bit filter of the kept hashes skips the scan for most new children.
fn dedupe_pairwise(buf: &mut Vec<(Position, u64)>) {
    let mut filter = 0u64;
    let mut w = 0;
    'next: for r in 0..buf.len() {
        let h = buf[r].0.hash();
        let bit = 1u64 << (h >> 58);
        if filter & bit != 0 {
            for j in 0..w {
                if buf[j].0.hash() == h && buf[j].0.same_state(&buf[r].0) {
                    buf[j].1 += buf[r].1;
                    continue 'next;
                }
            }
        }
        filter |= bit;
        if w != r {
            buf[w] = buf[r];
        }
        w += 1;
    }
    buf.truncate(w);
}

/// Many children: sort small (hash, index) pairs, not the positions.
fn dedupe_sorted(buf: &mut Vec<(Position, u64)>, keys: &mut Vec<(u64, u32)>) {
    keys.clear();
    keys.extend(
        buf.iter()
            .enumerate()
            .map(|(i, (p, _))| (p.hash(), i as u32)),
    );
    keys.sort_unstable();
    // Within a run of equal hashes, each child joins the first earlier child
    // with the same state (runs are short: a longer one means a collision).
    let mut keep = vec![true; buf.len()];
    let mut start = 0;
    while start < keys.len() {
        let h = keys[start].0;
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == h {
            end += 1;
        }
        for r in start + 1..end {
            let i = keys[r].1 as usize;
            if let Some(j) = keys[start..r]
                .iter()
                .map(|&(_, j)| j as usize)
                .find(|&j| keep[j] && buf[j].0.same_state(&buf[i].0))
            {
                buf[j].1 += buf[i].1;
                keep[i] = false;
            }
        }
        start = end;
    }
    let mut k = 0;
    buf.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

/// The last depth from the children's hashes alone, so that no child is
/// copied: when no two hashes are equal, every child differs from every
/// other. `None` when two are (nearly always a repeated child), for the
/// comparison of whole positions; its statistics are then not counted.
fn leaves(
    pos: &Position,
    budget: u32,
    keys: &mut Vec<u64>,
    stats: &mut GenStats,
) -> Option<PerftCount> {
    keys.clear();
    let s = pos.generate_hashes(budget, |_, p, _| {
        keys.push(p.hash());
        true
    });
    if keys.len() <= PAIRWISE_MAX {
        // The filter's bit of each hash, tested and set in one pass, by
        // index (the loop keeps one counter and reads each hash by a
        // scaled index; with an enumerated iterator it kept a pointer too).
        let mut filter = 0u64;
        for r in 0..keys.len() {
            let h = keys[r];
            let old = filter;
            filter |= 1 << (h >> 58);
            if old >> (h >> 58) & 1 != 0 && keys[..r].contains(&h) {
                return None;
            }
        }
    } else {
        keys.sort_unstable();
        if keys.windows(2).any(|p| p[0] == p[1]) {
            return None;
        }
    }
    stats.add(&s);
    let n = keys.len() as u64;
    Some(PerftCount {
        paths: n,
        unique: n,
    })
}

/// A last-depth child of an 8-wide position ([`last_depth_by_loops`]): its
/// hash, the first 16 holes of the mover's loop in two words (an 8-wide
/// loop has no others), the opponent's occupied holes (a turn only empties
/// them, so that they tell the opponent's loop among siblings), and the
/// link of its chain of hashes there.
type Leaf = (u64, [u64; 2], u32, u32);

/// How many chains of hashes [`Leaves`] keeps (by the hash's top bits).
const CHAINS: usize = 256;

/// The last depth's children as [`Leaf`]s ([`last_depth_by_loops`]), each
/// found among the earlier ones of its node with the same hash through
/// chains by the hash's top bits, kept from node to node (while the vector
/// has room for [`Leaves::ROOM`] more) so that the chains' heads need no
/// clearing at each node: a node's leaves are those past `base`, and a head
/// or link at or below `base` ends its chain there. (Cleared at each node,
/// 64 heads cost 16 stores a node, and at about 20,000 of Acholi perft 5's
/// 185,000 last-depth children the chain held other children of the node
/// alone.)
#[derive(Clone)]
struct Leaves {
    leaves: Vec<Leaf>,
    /// One more than the index of the last leaf of each chain, 0 for none.
    head: [u32; CHAINS],
    base: u32,
}

impl Default for Leaves {
    fn default() -> Leaves {
        Leaves {
            leaves: Vec::new(),
            head: [0; CHAINS],
            base: 0,
        }
    }
}

impl Leaves {
    /// With less room than this left, a node starts the leaves again (and
    /// clears the heads), with room for twice as many.
    const ROOM: usize = 256;

    /// Begin a node's leaves.
    #[inline(always)]
    fn begin(&mut self) {
        if self.leaves.capacity() < self.leaves.len() + Self::ROOM {
            self.leaves.clear();
            self.leaves.reserve(2 * Self::ROOM);
            self.head = [0; CHAINS];
        }
        self.base = self.leaves.len() as u32;
    }

    /// Add a child unless the node has it already. Pushed first, and taken
    /// back if its chain holds it.
    #[inline(always)]
    fn add(&mut self, h: u64, holes: [u64; 2], occ: u32) {
        let chain = (h >> (64 - CHAINS.trailing_zeros())) as usize;
        self.leaves.push((h, holes, occ, self.head[chain]));
        if self.head[chain] > self.base && in_chain(&self.leaves, self.base) {
            self.leaves.pop();
        } else {
            self.head[chain] = self.leaves.len() as u32;
        }
    }

    /// The node's distinct children.
    #[inline(always)]
    fn count(&self) -> u64 {
        self.leaves.len() as u64 - self.base as u64
    }
}

/// One depth's buffers: its children with their multiplicities, the
/// children's (hash, index) keys, the children walked as they came (hash,
/// index in generation order, paths below), the last depth's children as
/// [`Leaf`]s, and the last depth's children's hashes alone (for [`leaves`]).
type Bufs = (
    Vec<(Position, u64)>,
    Vec<(u64, u32)>,
    Vec<(u64, u32, u64)>,
    Leaves,
    Vec<u64>,
);

fn walk(
    pos: &Position,
    depth: u32,
    budget: u32,
    bufs: &mut [Bufs],
    stats: &mut GenStats,
) -> PerftCount {
    if depth == 0 {
        return PerftCount {
            paths: 1,
            unique: 1,
        };
    }
    // Acholi's turns merge paths (its perft 5 from the start: 257,412 paths
    // to 164,808 positions), so nearly every node of its last depth has
    // equal hashes and would be generated twice by `last_depth` (388 M
    // instructions instead of 272 M), and a child walked as made would
    // often be made again to be compared: its children are compared at
    // once, by their loops at the last depth, whole above it.
    if pos.variant() == Variant::Adjiboto {
        return crate::rules::adjiboto::perft(pos, depth, stats);
    }
    if pos.variant() != Variant::Acholi {
        if depth == 1 {
            return last_depth(pos, budget, bufs, stats);
        } else {
            return walk_as_made(pos, depth, budget, bufs, stats);
        }
    }
    if depth == 1 && !pos.phase.is_simultaneous() {
        let (_, _, _, leaves, _) = &mut bufs[0];
        return last_depth_by_loops(pos, budget, leaves, stats);
    }
    let ((buf, keys, _, _, _), rest) = bufs.split_first_mut().expect("one buffer per depth");
    children(pos, budget, buf, keys, stats);
    if depth == 1 {
        return counted(buf);
    }
    let mut total = PerftCount::default();
    // `buf` belongs to this depth; deeper levels use `rest`.
    for &(ref child, mult) in buf.iter() {
        // The last depth straight from here (`walk`'s tests above are the
        // parent's: the code is Acholi's), one call a node fewer.
        let c = if depth == 2 && !child.phase.is_simultaneous() {
            let (_, _, _, leaves, _) = &mut rest[0];
            last_depth_by_loops(child, budget, leaves, stats)
        } else {
            walk(child, depth - 1, budget, rest, stats)
        };
        total.paths += mult * c.paths;
        total.unique += c.unique;
    }
    total
}

/// `walk` at the last depth for the codes other than Acholi: from the
/// hashes alone when they differ.
fn last_depth(pos: &Position, budget: u32, bufs: &mut [Bufs], stats: &mut GenStats) -> PerftCount {
    let (buf, keys, _, _, hashes) = &mut bufs[0];
    if let Some(c) = leaves(pos, budget, hashes, stats) {
        return c;
    }
    children(pos, budget, buf, keys, stats);
    counted(buf)
}

/// `walk` at the last depth for Acholi outside the simultaneous opening,
/// whose paths merge so often that most of its last-depth nodes have
/// repeated children: each child is kept as its hash, the mover's loop and
/// the opponent's occupied holes (a [`Leaf`]: Acholi is played 8 wide
/// only; the generator writes no more of it), which is all that tells
/// siblings apart there (every child of such a position has the same side,
/// phase, ply, stores, history and race state, and the masks follow from the
/// loops; checked in debug builds; in the simultaneous opening the race
/// state differs), instead of being copied whole for `children`.
fn last_depth_by_loops(
    pos: &Position,
    budget: u32,
    leaves: &mut Leaves,
    stats: &mut GenStats,
) -> PerftCount {
    debug_assert!(pos.width <= 8, "a leaf keeps 16 holes a loop");
    // Each child against the earlier distinct ones with the same hash as it
    // comes (kept only if it is new).
    leaves.begin();
    #[cfg(debug_assertions)]
    let mut first: Option<Position> = None;
    // Straight to the Lango and Acholi generator (the tests of the phase
    // and the code that `Position`'s generators make are the caller's).
    let s = generate_branching_as::<_, CHILD_BOARDS>(pos, budget, |_, p, _| {
        #[cfg(debug_assertions)]
        {
            let f = *first.get_or_insert(*p);
            let q = Position {
                loops: f.loops,
                occupied: f.occupied,
                movable: f.movable,
                hash: f.hash,
                ..*p
            };
            debug_assert!(
                q.with_ply(0) == f.with_ply(0),
                "siblings differ off the board"
            );
            for l in &p.loops {
                debug_assert!(
                    crate::types::packed::Loop::from_low16(l.low16()) == *l,
                    "a hole past 16"
                );
            }
        }
        // The child's side is the mover's opponent.
        let opp = p.side.index();
        let a = p.loops[1 - opp].low16();
        leaves.add(p.hash, [a as u64, (a >> 64) as u64], p.occupied[opp]);
        true
    });
    stats.add(&s);
    // Every child is a move (the sink never stops the generator).
    PerftCount {
        paths: s.moves,
        unique: leaves.count(),
    }
}

/// Whether the chain of the last of `leaves` (its last field) holds a
/// leaf with its hash, holes and opponent's holes, above `base`. Out of
/// line, so that the sink of [`last_depth_by_loops`] stays small enough to
/// be inlined in the generator.
#[inline(never)]
fn in_chain(leaves: &[Leaf], base: u32) -> bool {
    let (&(h, ref holes, occ, mut j), earlier) = leaves.split_last().expect("a leaf");
    while j > base {
        let (k, ref other, other_occ, before) = earlier[j as usize - 1];
        if k == h && other == holes && other_occ == occ {
            return true;
        }
        j = before;
    }
    false
}

/// The counts of a last depth's children, merged by `children`.
fn counted(buf: &[(Position, u64)]) -> PerftCount {
    PerftCount {
        paths: buf.iter().map(|c| c.1).sum(),
        unique: buf.len() as u64,
    }
}

/// `walk` for the codes whose paths rarely merge: each child is walked as
/// the generator makes it, none copied. A child whose hash equals that of a
/// child walked before it is compared whole with that one (made again), and
/// if they are the same position it adds that one's paths and nothing to
/// the unique count, as `children` would have merged them.
fn walk_as_made(
    pos: &Position,
    depth: u32,
    budget: u32,
    bufs: &mut [Bufs],
    stats: &mut GenStats,
) -> PerftCount {
    let ((_, _, walked, _, _), rest) = bufs.split_first_mut().expect("one buffer per depth");
    walked.clear();
    let mut total = PerftCount::default();
    let mut filter = 0u64;
    let mut index = 0u32;
    // Inlined into the generator's loop (a call a move cost Adjiboto's
    // perft about 4% of its instructions).
    let s = pos.generate(
        budget,
        #[inline(always)]
        |_, child, _| {
            let h = child.hash();
            let bit = 1u64 << (h >> 58);
            if filter & bit != 0 {
                if let Some(paths) = walked_before(pos, budget, walked, child) {
                    total.paths += paths;
                    index += 1;
                    return true;
                }
            }
            filter |= bit;
            let c = if depth == 2 {
                last_depth(child, budget, rest, stats)
            } else {
                walk_as_made(child, depth - 1, budget, rest, stats)
            };
            walked.push((h, index, c.paths));
            index += 1;
            total.paths += c.paths;
            total.unique += c.unique;
            true
        },
    );
    stats.add(&s);
    total
}

/// The paths below the child of `pos` walked before that is the same
/// position as `child`, if there is one.
#[cold]
fn walked_before(
    pos: &Position,
    budget: u32,
    walked: &[(u64, u32, u64)],
    child: &Position,
) -> Option<u64> {
    walked
        .iter()
        .filter(|w| w.0 == child.hash())
        .find(|&&(_, i, _)| {
            let mut k = 0;
            let mut same = false;
            pos.generate(budget, |_, p, _| {
                if k < i {
                    k += 1;
                    return true;
                }
                same = p.same_state(child);
                false
            });
            same
        })
        .map(|w| w.2)
}

/// Perft of `pos` to `depth` with the given lap budget, the root's children
/// searched in parallel. Returns the counts and what the generator did.
pub fn perft_with_budget(pos: &Position, depth: u32, budget: u32) -> (PerftCount, GenStats) {
    let mut stats = GenStats::default();
    if depth <= 1 {
        let mut bufs = vec![Bufs::default(); depth as usize];
        let c = walk(pos, depth, budget, &mut bufs, &mut stats);
        return (c, stats);
    }
    let mut root = Vec::new();
    children(pos, budget, &mut root, &mut Vec::new(), &mut stats);
    let parts: Vec<(PerftCount, GenStats)> = root
        .par_iter()
        .map(|(child, mult)| {
            let mut s = GenStats::default();
            let mut bufs = vec![Bufs::default(); depth as usize - 1];
            let c = walk(child, depth - 1, budget, &mut bufs, &mut s);
            (
                PerftCount {
                    paths: mult * c.paths,
                    unique: c.unique,
                },
                s,
            )
        })
        .collect();
    let mut total = PerftCount::default();
    for (c, s) in parts {
        total.paths += c.paths;
        total.unique += c.unique;
        stats.add(&s);
    }
    (total, stats)
}

/// Perft with the rules' lap budget.
pub fn perft(pos: &Position, depth: u32) -> (PerftCount, GenStats) {
    perft_with_budget(pos, depth, LAP_BUDGET)
}

/// Perft below each root move (not deduplicated at the root).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, PerftCount)> {
    let mut moves = Vec::new();
    pos.for_each_move(|m, p| moves.push((*m, *p)));
    moves
        .par_iter()
        .map(|(m, child)| (*m, perft(child, depth.saturating_sub(1)).0))
        .collect()
}
