//! Perft with two counts per depth: `paths`, every legal move as enumerated,
//! and `unique`, children deduplicated by resulting position at every node.

use crate::board::Position;
use crate::rules::{GenStats, LAP_BUDGET};
use crate::types::moves::Move;
use rayon::prelude::*;

/// Counts of one perft depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    pub paths: u64,
    pub unique: u64,
}

/// Children of `pos` deduplicated, with how many moves lead to each.
fn children(pos: &Position, budget: u32, buf: &mut Vec<(Position, u64)>, stats: &mut GenStats) {
    buf.clear();
    let s = pos.generate(budget, |_, p, _| {
        buf.push((*p, 1));
        true
    });
    stats.add(&s);
    buf.sort_unstable_by_key(|(p, _)| p.hash());
    let mut w = 0;
    for r in 0..buf.len() {
        if w > 0 && buf[w - 1].0.same_state(&buf[r].0) {
            buf[w - 1].1 += 1;
        } else {
            buf[w] = buf[r];
            w += 1;
        }
    }
    buf.truncate(w);
}

fn walk(
    pos: &Position,
    depth: u32,
    budget: u32,
    bufs: &mut [Vec<(Position, u64)>],
    stats: &mut GenStats,
) -> PerftCount {
    if depth == 0 {
        return PerftCount {
            paths: 1,
            unique: 1,
        };
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per depth");
    children(pos, budget, buf, stats);
    if depth == 1 {
        return PerftCount {
            paths: buf.iter().map(|c| c.1).sum(),
            unique: buf.len() as u64,
        };
    }
    let mut total = PerftCount::default();
    // `buf` belongs to this depth; deeper levels use `rest`.
    for &(child, mult) in buf.iter() {
        let c = walk(&child, depth - 1, budget, rest, stats);
        total.paths += mult * c.paths;
        total.unique += c.unique;
    }
    total
}

/// Perft of `pos` to `depth` with the given lap budget, the root's children
/// searched in parallel. Returns the counts and what the generator did.
pub fn perft_with_budget(pos: &Position, depth: u32, budget: u32) -> (PerftCount, GenStats) {
    let mut stats = GenStats::default();
    if depth <= 1 {
        let mut bufs = vec![Vec::new(); depth as usize];
        let c = walk(pos, depth, budget, &mut bufs, &mut stats);
        return (c, stats);
    }
    let mut root = Vec::new();
    children(pos, budget, &mut root, &mut stats);
    let parts: Vec<(PerftCount, GenStats)> = root
        .par_iter()
        .map(|(child, mult)| {
            let mut s = GenStats::default();
            let mut bufs = vec![Vec::new(); depth as usize - 1];
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
