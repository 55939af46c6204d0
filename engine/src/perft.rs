//! Perft over [`Position::generate`], with two counts per depth: `paths`,
//! every legal move as enumerated, and `unique`, children merged by
//! resulting position at every node. It checks the generator against the
//! files of `positions/perft/`; its speed is not a goal (BENCHMARKS.md):
//! search, the solver and playouts run the same generator.

use crate::board::Position;
use crate::rules::{GenStats, LAP_BUDGET};
use crate::types::moves::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Counts of one perft depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    /// Move paths to the depth: every legal move as enumerated.
    pub paths: u64,
    /// Children merged by position at each node (a move list's duplicates counted once).
    pub unique: u64,
}

/// The children of `pos`, those that are the same position merged into the
/// first, each with how many moves lead to it; what the generator did is
/// added to `stats`.
fn children(pos: &Position, budget: u32, stats: &mut GenStats) -> Vec<(Position, u64)> {
    let mut made = Vec::new();
    stats.add(&pos.generate(budget, |_, child, _| {
        made.push((*child, 1));
        true
    }));
    // Equal positions have equal hashes: compare within each run of equal
    // hashes only.
    made.sort_by_key(|c| c.0.hash());
    let mut merged: Vec<(Position, u64)> = Vec::with_capacity(made.len());
    for (child, n) in made {
        let h = child.hash();
        match merged
            .iter_mut()
            .rev()
            .take_while(|m| m.0.hash() == h)
            .find(|m| m.0.same_state(&child))
        {
            Some(m) => m.1 += n,
            None => merged.push((child, n)),
        }
    }
    merged
}

/// The children of `pos` counted in bulk: from their hashes alone when no
/// two are equal (then no two are the same position, and none need be
/// copied), else merged whole by [`children`].
fn last_depth(pos: &Position, budget: u32, stats: &mut GenStats) -> PerftCount {
    let mut hashes = Vec::new();
    let s = pos.generate(budget, |_, child, _| {
        hashes.push(child.hash());
        true
    });
    hashes.sort_unstable();
    if hashes.windows(2).any(|w| w[0] == w[1]) {
        let merged = children(pos, budget, stats);
        return PerftCount {
            paths: merged.iter().map(|c| c.1).sum(),
            unique: merged.len() as u64,
        };
    }
    stats.add(&s);
    // The sink never stops the generator: every child is a move.
    PerftCount {
        paths: s.moves,
        unique: s.moves,
    }
}

/// Perft of `pos` to `depth`; `None` once `stop` is set (read at every
/// node above the last depth).
fn walk(
    pos: &Position,
    depth: u32,
    budget: u32,
    stats: &mut GenStats,
    stop: &AtomicBool,
) -> Option<PerftCount> {
    match depth {
        0 => {
            return Some(PerftCount {
                paths: 1,
                unique: 1,
            })
        }
        1 => return Some(last_depth(pos, budget, stats)),
        _ => {}
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = PerftCount::default();
    for (child, n) in children(pos, budget, stats) {
        let c = walk(&child, depth - 1, budget, stats, stop)?;
        total.paths += n * c.paths;
        total.unique += c.unique;
    }
    Some(total)
}

/// [`perft_with_budget`] that gives up when `stop` is set, for a caller
/// that must be able to end a long count (the protocol's `perft`): the
/// same counts, or `None` when stopped. The flag is read at every node
/// above the last depth.
pub fn perft_until(
    pos: &Position,
    depth: u32,
    budget: u32,
    stop: &AtomicBool,
) -> Option<(PerftCount, GenStats)> {
    let mut stats = GenStats::default();
    if depth <= 1 {
        return Some((walk(pos, depth, budget, &mut stats, stop)?, stats));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let parts: Option<Vec<(PerftCount, GenStats)>> = children(pos, budget, &mut stats)
        .par_iter()
        .map(|(child, n)| {
            let mut s = GenStats::default();
            let c = walk(child, depth - 1, budget, &mut s, stop)?;
            Some((
                PerftCount {
                    paths: n * c.paths,
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

/// Perft of `pos` to `depth` with the given lap budget, the root's children
/// searched in parallel. Returns the counts and what the generator did.
pub fn perft_with_budget(pos: &Position, depth: u32, budget: u32) -> (PerftCount, GenStats) {
    perft_until(pos, depth, budget, &AtomicBool::new(false)).expect("a stop flag that nobody sets")
}

/// Perft with the rules' lap budget.
pub fn perft(pos: &Position, depth: u32) -> (PerftCount, GenStats) {
    perft_with_budget(pos, depth, LAP_BUDGET)
}

/// [`divide`] that gives up when `stop` is set (`None`), as
/// [`perft_until`] does.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, PerftCount)>> {
    pos.legal_moves()
        .par_iter()
        .map(|(m, child)| {
            perft_until(child, depth.saturating_sub(1), LAP_BUDGET, stop).map(|(c, _)| (*m, c))
        })
        .collect()
}

/// Perft below each root move (not merged at the root).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, PerftCount)> {
    divide_until(pos, depth, &AtomicBool::new(false)).expect("a stop flag that nobody sets")
}

#[cfg(test)]
mod until_tests {
    use super::*;
    use crate::types::{Opening, Variant};

    /// Divide's counts below each root move add up to perft's paths (no
    /// merging at the root), every code, both openings, a wide board.
    #[test]
    fn divide_adds_up_to_perft() {
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
            for d in 1..=3 {
                let whole = perft(pos, d).0;
                let parts: u64 = divide(pos, d).iter().map(|(_, c)| c.paths).sum();
                assert_eq!(parts, whole.paths, "{pos} depth {d}");
                assert!(whole.unique <= whole.paths, "{pos} depth {d}");
            }
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
