//! Perft with two counts per depth: `paths`, every legal move as enumerated,
//! and `unique`, children deduplicated by resulting position at every node.

use crate::board::Position;
use crate::rules::choro::{
    generate_branching_as, generate_didinga, CHILD_BOARDS, CHILD_FULL, CHILD_HASH,
};
use crate::rules::{GenStats, MoveInfo, LAP_BUDGET};
use crate::types::moves::Move;
use crate::types::Variant;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// The last depth's children's hashes as they come, for [`leaves`]: each
/// hash whose top 6 bits no earlier sibling's had is kept in `first`, by
/// those bits (a bit of `filter` each; the other entries are stale), and
/// the others (`more`, few) are first compared with the ones kept, so that
/// no pass over the children is left for after the generator.
#[derive(Clone)]
struct LastHashes {
    filter: u64,
    first: [u64; 64],
    more: Vec<u64>,
    /// Whether a child's hash was an earlier sibling's.
    repeated: bool,
}

impl Default for LastHashes {
    fn default() -> Self {
        LastHashes {
            filter: 0,
            first: [0; 64],
            more: Vec::new(),
            repeated: false,
        }
    }
}

impl LastHashes {
    /// A child's hash `h`: a filter bit and a store where its top bits are
    /// new (the common case: about 24 children in 25 in Lango's perft).
    #[inline(always)]
    fn add(&mut self, h: u64) {
        let top = (h >> 58) as usize;
        if self.filter >> top & 1 == 0 {
            self.filter |= 1 << top;
            self.first[top] = h;
        } else {
            self.add_more(h);
        }
    }

    /// `h` with top bits that an earlier sibling's hash had: the earlier
    /// hashes with those bits are the one in `first` and some of `more`.
    #[inline(never)]
    fn add_more(&mut self, h: u64) {
        if self.first[(h >> 58) as usize] == h || self.more.contains(&h) {
            self.repeated = true;
        } else {
            self.more.push(h);
        }
    }
}

/// The last depth from the children's hashes alone, so that no child is
/// copied: when no two hashes are equal, every child differs from every
/// other. `None` when two are (nearly always a repeated child), for the
/// comparison of whole positions; its statistics are then not counted.
fn leaves(
    pos: &Position,
    budget: u32,
    hashes: &mut LastHashes,
    stats: &mut GenStats,
) -> Option<PerftCount> {
    hashes.filter = 0;
    hashes.more.clear();
    hashes.repeated = false;
    let s = generate_by::<_, CHILD_HASH>(pos, budget, |_, p, _| {
        hashes.add(p.hash());
        true
    });
    if hashes.repeated {
        return None;
    }
    stats.add(&s);
    // Every child is a move (the sink never stops the generator).
    Some(PerftCount {
        paths: s.moves,
        unique: s.moves,
    })
}

/// The code's generator for [`leaves`] (`CHILD`: [`CHILD_HASH`]) and
/// [`walk_as_made`] ([`CHILD_FULL`]), Lango's or Didinga's: straight to it
/// outside the simultaneous opening, as `Position::generate_hashes` and
/// `Position::generate` call it (their tests, and the race's generator
/// inlined in them, gave their callers a larger frame and more tests), the
/// race's out of line. (Calling them instead, with the race's generator out
/// of line in `Position::generate_by`, was measured: `perft_speed lango 8 9`
/// 27.19 M -> 27.29 M, `didinga 8 7` 195.67 M -> 196.18 M.)
#[inline(always)]
fn generate_by<F, const CHILD: u8>(pos: &Position, budget: u32, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    debug_assert!(matches!(pos.variant(), Variant::Lango | Variant::Didinga));
    if pos.phase.is_simultaneous() {
        race_by::<F, CHILD>(pos, budget, sink)
    } else if pos.variant() == Variant::Didinga {
        generate_didinga(pos, budget, sink)
    } else {
        generate_branching_as::<F, CHILD>(pos, budget, sink)
    }
}

/// [`generate_by`] in the simultaneous opening.
#[inline(never)]
fn race_by<F, const CHILD: u8>(pos: &Position, budget: u32, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    if CHILD == CHILD_HASH {
        pos.generate_hashes(budget, sink)
    } else {
        pos.generate(budget, sink)
    }
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
/// index in generation order, paths below), Acholi's last depth's children
/// as [`Leaves`], and the other codes' last depth's children's hashes
/// alone ([`LastHashes`], for [`leaves`]).
type Bufs = (
    Vec<(Position, u64)>,
    Vec<(u64, u32)>,
    Vec<(u64, u32, u64)>,
    Leaves,
    LastHashes,
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
    let (_, _, _, _, hashes) = &mut bufs[0];
    if let Some(c) = leaves(pos, budget, hashes, stats) {
        return c;
    }
    last_depth_compared(pos, budget, bufs, stats)
}

/// [`last_depth`] where two children's hashes are equal: the children
/// compared whole (rare; out of line).
#[cold]
#[inline(never)]
fn last_depth_compared(
    pos: &Position,
    budget: u32,
    bufs: &mut [Bufs],
    stats: &mut GenStats,
) -> PerftCount {
    let (buf, keys, _, _, _) = &mut bufs[0];
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
    // The counts so far, the filter of the hashes walked and the next
    // child's index, which the sink reaches through one pointer, and the
    // sink's other captures moved into it (by reference, each was a
    // pointer loaded at each use).
    let mut acc = (PerftCount::default(), 0u64, 0u32);
    let made = &mut acc;
    let deeper = &mut *stats;
    // Inlined into the generator's loop (a call a move cost Adjiboto's
    // perft about 4% of its instructions).
    let s = generate_by::<_, CHILD_FULL>(
        pos,
        budget,
        #[inline(always)]
        move |_, child, _| {
            let (total, filter, index) = &mut *made;
            let h = child.hash();
            let bit = 1u64 << (h >> 58);
            if *filter & bit != 0 {
                if let Some(paths) = walked_before(pos, budget, walked, child) {
                    total.paths += paths;
                    *index += 1;
                    return true;
                }
            }
            *filter |= bit;
            let c = if depth == 2 {
                last_depth(child, budget, rest, deeper)
            } else {
                walk_as_made(child, depth - 1, budget, rest, deeper)
            };
            walked.push((h, *index, c.paths));
            *index += 1;
            total.paths += c.paths;
            total.unique += c.unique;
            true
        },
    );
    stats.add(&s);
    acc.0
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

/// Plies left at which [`perft_until`] hands a node to [`walk`], which runs
/// to the leaves without looking at the stop flag: two plies, a few
/// milliseconds from most positions (about a second from the widest Acholi
/// ones, with thousands of moves a node).
const UNSTOPPED: u32 = 2;

/// [`walk`] above [`UNSTOPPED`] plies: each node's children merged as
/// `walk` merges them (the same counts: a repeated child adds its paths
/// once per move to it and no unique leaves), `stop` read at each node.
/// `None` once it is set.
fn walk_until(
    pos: &Position,
    depth: u32,
    budget: u32,
    bufs: &mut [Bufs],
    stats: &mut GenStats,
    stop: &AtomicBool,
) -> Option<PerftCount> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPED {
        return Some(walk(pos, depth, budget, bufs, stats));
    }
    let mut buf = Vec::new();
    children(pos, budget, &mut buf, &mut Vec::new(), stats);
    let mut total = PerftCount::default();
    for (child, mult) in &buf {
        let c = walk_until(child, depth - 1, budget, bufs, stats, stop)?;
        total.paths += mult * c.paths;
        total.unique += c.unique;
    }
    Some(total)
}

/// [`perft_with_budget`] that gives up when `stop` is set, for a caller
/// that must be able to end a long count (the protocol's `perft`): the
/// same counts, or `None` when stopped. The flag is read at every node
/// more than [`UNSTOPPED`] plies above the leaves.
pub fn perft_until(
    pos: &Position,
    depth: u32,
    budget: u32,
    stop: &AtomicBool,
) -> Option<(PerftCount, GenStats)> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPED {
        return Some(perft_with_budget(pos, depth, budget));
    }
    let mut stats = GenStats::default();
    let mut root = Vec::new();
    children(pos, budget, &mut root, &mut Vec::new(), &mut stats);
    let parts: Option<Vec<(PerftCount, GenStats)>> = root
        .par_iter()
        .map(|(child, mult)| {
            let mut s = GenStats::default();
            let mut bufs = vec![Bufs::default(); UNSTOPPED as usize];
            let c = walk_until(child, depth - 1, budget, &mut bufs, &mut s, stop)?;
            Some((
                PerftCount {
                    paths: mult * c.paths,
                    unique: c.unique,
                },
                s,
            ))
        })
        .collect();
    let mut total = PerftCount::default();
    for (c, s) in parts? {
        total.paths += c.paths;
        total.unique += c.unique;
        stats.add(&s);
    }
    Some((total, stats))
}

/// [`divide`] that gives up when `stop` is set (`None`), as
/// [`perft_until`] does.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, PerftCount)>> {
    let mut moves = Vec::new();
    pos.for_each_move(|m, p| moves.push((*m, *p)));
    moves
        .par_iter()
        .map(|(m, child)| {
            perft_until(child, depth.saturating_sub(1), LAP_BUDGET, stop).map(|(c, _)| (*m, c))
        })
        .collect()
}

#[cfg(test)]
mod until_tests {
    use super::*;
    use crate::types::Opening;

    /// The interruptible count is the count: every code, both openings,
    /// and positions from the perft files' kinds (races, Acholi's merging
    /// paths, Adjiboto), at depths that go through its own levels.
    #[test]
    fn perft_until_counts_as_perft() {
        let never = AtomicBool::new(false);
        let mut starts = Vec::new();
        for v in [
            Variant::Didinga,
            Variant::Lango,
            Variant::Acholi,
            Variant::Adjiboto,
        ] {
            for o in [Opening::Sequential, Opening::Simultaneous] {
                starts.push(Position::start(v, 8, o).unwrap());
            }
        }
        starts.push(Position::start(Variant::Didinga, 12, Opening::Sequential).unwrap());
        for pos in &starts {
            let depth = match pos.variant() {
                Variant::Acholi => 4,
                _ => 5,
            };
            for d in 0..=depth {
                let want = perft(pos, d);
                let got = perft_until(pos, d, LAP_BUDGET, &never).unwrap();
                assert_eq!(got.0, want.0, "{pos} depth {d}");
                assert_eq!(got.1.moves, want.1.moves, "{pos} depth {d}");
            }
            let want = divide(pos, 4);
            assert_eq!(divide_until(pos, 4, &never).unwrap(), want, "{pos}");
        }
    }

    /// A set flag ends the count, however deep.
    #[test]
    fn perft_until_stops() {
        let stop = AtomicBool::new(true);
        let pos = Position::start(Variant::Lango, 8, Opening::Sequential).unwrap();
        assert_eq!(perft_until(&pos, 64, LAP_BUDGET, &stop), None);
        assert_eq!(divide_until(&pos, 64, &stop), None);
        // Set from another thread while the count runs.
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            assert_eq!(perft_until(&pos, 64, LAP_BUDGET, &stop), None);
        });
    }
}
