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
    // Sort small (hash, index) pairs, not the positions themselves.
    keys.clear();
    keys.extend(
        buf.iter()
            .enumerate()
            .map(|(i, (p, _))| (p.hash(), i as u32)),
    );
    keys.sort_unstable();
    let mut w = 0;
    for r in 0..keys.len() {
        let (h, i) = keys[r];
        if r > 0 {
            let (ph, pi) = keys[w - 1];
            if ph == h && buf[pi as usize].0.same_state(&buf[i as usize].0) {
                buf[pi as usize].1 += 1;
                continue;
            }
        }
        keys[w] = (h, i);
        w += 1;
    }
    if w == buf.len() {
        return;
    }
    // Keep the first of each group, in generation order.
    let mut keep = vec![false; buf.len()];
    for &(_, i) in &keys[..w] {
        keep[i as usize] = true;
    }
    let mut k = 0;
    buf.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

type Bufs = (Vec<(Position, u64)>, Vec<(u64, u32)>);

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
    let ((buf, keys), rest) = bufs.split_first_mut().expect("one buffer per depth");
    children(pos, budget, buf, keys, stats);
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
