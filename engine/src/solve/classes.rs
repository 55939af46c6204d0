//! Retrograde tables of Adjiboto's main phase by counters in play: the
//! exact value (win, loss or draw, with the distance of RULES.md 12) of
//! every main-phase position with at most K counters on the board, either
//! side to move, every split of the rest between the stores.
//!
//! A class is the positions with k counters on the board. A move that
//! captures leaves the class for a smaller one; a move that does not keeps
//! both k and the stores. So the tables are built from k = 0 upwards, and
//! within a class each split of the stores is a graph of its own (the
//! board's 10 holes and the side to move), whose moves out of it lead to
//! positions already valued. Each graph is labelled backwards from its
//! ends and its exits, in order of distance, as `retro` does for one root:
//! a position is a win in `n + 1` when some child is lost in `n`, a loss in
//! `n + 1` when every child is won, the last of them in `n`; what is never
//! labelled is a draw (play without end, or a drawn end that neither side
//! can avoid, RULES.md 12.2).
//!
//! The stores enter a value only at an end: a player who cannot move draws
//! if his store holds 50 or more (RULES.md 10.7). With k counters in play
//! and A's store at s (B's at 100 - k - s), every s up to 49 - k is alike
//! (A can never reach 50, B is there already), and so is every s from 51 up
//! (A is there, B can never reach it): a class has k + 3 store classes.
//!
//! The moves are the engine's own (`gametree::children`, merged as search
//! merges them); the tests check the tables against the retrograde
//! analysis of each position's reachable graph (`retro`), which shares
//! none of this code but the rules.

use super::Value;
use crate::board::Position;
use crate::gametree::{children, terminal_value, Child, DRAW};
use crate::{Phase, Side, Variant};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Holes on the board.
const HOLES: usize = 10;

/// The largest class the tables may be asked for: 40 counters (about 10^11
/// positions) is beyond any machine; the bound keeps the index in `u64`
/// and a store class in the stores' range.
pub const MAX_COUNTERS: u32 = 40;

/// What a table entry holds: 0 a draw, `1 + n` a win in n, `LOSS | n` a
/// loss in n.
const LOSS: u16 = 0x8000;

/// The longest distance a table can hold.
const MAX_DIST: u32 = 0x7FFE;

/// C(n, r) for the board's ranks, small arguments only.
fn binom(n: u64, r: u64) -> u64 {
    if r > n {
        return 0;
    }
    let r = r.min(n - r);
    let mut x = 1u64;
    for i in 0..r {
        x = x * (n - i) / (i + 1);
    }
    x
}

/// Ways to put `m` counters into `j` holes (`j` >= 1).
fn compositions(m: u32, j: u32) -> u64 {
    binom((m + j - 1) as u64, (j - 1) as u64)
}

/// The boards of k counters, numbered in lexicographic order of their
/// holes (A1..A5, B1..B5 in the loop's order).
struct Boards {
    k: u32,
    /// `ways[j][m]`: compositions of m counters into j holes.
    ways: Vec<Vec<u64>>,
}

impl Boards {
    fn new(k: u32) -> Boards {
        let ways = (0..=HOLES as u32 + 1)
            .map(|j| {
                (0..=k)
                    .map(|m| if j == 0 { 0 } else { compositions(m, j) })
                    .collect()
            })
            .collect();
        Boards { k, ways }
    }

    fn len(&self) -> u64 {
        self.ways[HOLES][self.k as usize]
    }

    /// The number of a board of k counters.
    fn rank(&self, holes: &[u8; HOLES]) -> u64 {
        let mut rank = 0;
        let mut rest = self.k as usize;
        for (i, &c) in holes.iter().enumerate().take(HOLES - 1) {
            // Boards with this prefix and fewer counters here: the holes
            // from i on take `rest`, of which this one less than c.
            let j = HOLES - i;
            rank += self.ways[j][rest] - self.ways[j][rest - c as usize];
            rest -= c as usize;
        }
        rank
    }

    /// The board numbered `rank`.
    fn unrank(&self, mut rank: u64) -> [u8; HOLES] {
        let mut holes = [0u8; HOLES];
        let mut rest = self.k as usize;
        for (i, h) in holes.iter_mut().enumerate().take(HOLES - 1) {
            let rest_holes = HOLES - i - 1;
            let mut c = 0;
            loop {
                let n = self.ways[rest_holes][rest - c];
                if rank < n {
                    break;
                }
                rank -= n;
                c += 1;
            }
            *h = c as u8;
            rest -= c;
        }
        holes[HOLES - 1] = rest as u8;
        holes
    }
}

/// The lowest store of A that is a class of its own with k in play.
fn low_store(k: u32) -> i32 {
    49 - k as i32
}

/// The store class of A's store `s` with k counters in play (0..k+3).
fn store_class(k: u32, s: u32) -> usize {
    (s as i32)
        .clamp(low_store(k), 51)
        .wrapping_sub(low_store(k)) as usize
}

/// One class: every board of k counters, every store class, either side.
struct Class {
    boards: Boards,
    /// By (store class, board, side): see `LOSS`.
    values: Vec<u16>,
}

/// What building one class found (the side to move's values).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    /// Counters in play.
    pub k: u32,
    /// Positions in the class: boards x store classes x 2 sides.
    pub positions: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions drawn.
    pub draws: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The longest loss, in plies.
    pub longest_loss: u32,
    /// Positions whose side to move has no move (ends).
    pub ends: u64,
    /// Moves inside the class (the graph's edges).
    pub moves_within: u64,
    /// Moves out of it (captures).
    pub captures: u64,
    /// Wall time of the class.
    pub elapsed: Duration,
}

/// A main-phase position with `k` counters in play (at most 100) at random,
/// for samples of a class: each counter in one of the 10 holes, A's store
/// uniform over 0..=100 - k (B's the rest), either side to move. Draws
/// from `rng`, in order: the k holes, the store, the side.
pub fn random_position(k: u32, rng: &mut crate::rng::Rng) -> Position {
    let k = k.min(100);
    let mut holes = [0u32; HOLES];
    for _ in 0..k {
        holes[rng.below(HOLES)] += 1;
    }
    let a = rng.below((101 - k) as usize) as u32;
    let side = if rng.below(2) == 0 { "a" } else { "b" };
    let row = |h: &[u32]| {
        h.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "adjiboto {}/{} {side} 12345/12345 {a}/{}",
        row(&holes[5..]),
        row(&holes[..5]),
        100 - k - a
    )
    .parse()
    .expect("a class position parses")
}

/// The tables of classes 0..=K.
pub struct Tables {
    classes: Vec<Class>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tables(at most {} counters in play)",
            self.max_counters()
        )
    }
}

/// A main-phase position of k counters: A's holes `holes[0..5]`, B's
/// `holes[5..]`, A's store `s`.
fn position(template: &Position, holes: &[u8; HOLES], side: Side, k: u32, s: u32) -> Position {
    let mut p = *template;
    for (i, &c) in holes.iter().enumerate() {
        p.loops[0].set(i as u8, c);
    }
    p.stores = [s as u8, (100 - k - s) as u8];
    p.side = side;
    p.rehash();
    p.refresh_masks();
    p
}

/// A's store that stands for store class `c` of k in play.
fn store_of_class(k: u32, c: usize) -> u32 {
    // Below 49 - k the class is any store up to it; 0 is one when k <= 49.
    (low_store(k) + c as i32).max(0) as u32
}

/// `v` seen by the other player.
fn other(v: Value) -> Value {
    match v {
        Value::Win(d) => Value::Loss(d),
        Value::Loss(d) => Value::Win(d),
        Value::Draw => Value::Draw,
    }
}

/// The position every table position is made from: the main phase (both
/// opening histories complete), the board and stores set by `position`.
fn template() -> Position {
    "adjiboto 0,0,0,0,0/0,0,0,0,0 a 12345/12345 50/50"
        .parse()
        .expect("the template parses")
}

fn decode(e: u16) -> Value {
    if e == 0 {
        Value::Draw
    } else if e & LOSS != 0 {
        Value::Loss((e & !LOSS) as u32)
    } else {
        Value::Win(e as u32 - 1)
    }
}

/// The board of an Adjiboto position, in the loop's order.
fn holes_of(p: &Position) -> [u8; HOLES] {
    std::array::from_fn(|i| p.loops[0].get(i as u8))
}

impl Tables {
    /// Build the tables of every class up to `max_k` counters in play,
    /// calling `report` after each class. Fails when `stop` is set.
    pub fn build(
        max_k: u32,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ClassStats),
    ) -> Result<Tables, String> {
        if max_k > MAX_COUNTERS {
            return Err(format!(
                "at most {MAX_COUNTERS} counters in play, not {max_k}"
            ));
        }
        let template = template();
        let mut t = Tables {
            classes: Vec::new(),
        };
        for k in 0..=max_k {
            let (class, stats) = t.build_class(k, &template, stop)?;
            t.classes.push(class);
            report(&stats);
        }
        Ok(t)
    }

    /// The largest class held.
    pub fn max_counters(&self) -> u32 {
        self.classes.len() as u32 - 1
    }

    /// The value of `p` for its side to move, if it is an Adjiboto
    /// main-phase position (both opening histories complete, RULES.md 10.6)
    /// with all 100 counters (a position string may name fewer) and few
    /// enough of them in play.
    pub fn value(&self, p: &Position) -> Option<Value> {
        if p.variant() != Variant::Adjiboto
            || p.phase() != Phase::Main
            || p.history(Side::A).len() < 5
            || p.history(Side::B).len() < 5
        {
            return None;
        }
        let holes = holes_of(p);
        let k: u32 = holes.iter().map(|&c| c as u32).sum();
        let [a, b] = p.stores();
        if k + a as u32 + b as u32 != 100 {
            return None;
        }
        let class = self.classes.get(k as usize)?;
        let b = class.boards.rank(&holes);
        let c = store_class(k, p.stores()[0] as u32);
        let i = (c as u64 * class.boards.len() + b) * 2 + p.side_to_move().index() as u64;
        Some(decode(class.values[i as usize]))
    }

    /// The value of a child reached by a capture (a smaller class), as seen
    /// by the child's side to move.
    fn known(&self, c: &Position) -> Value {
        self.value(c).expect("a smaller class is built")
    }

    fn build_class(
        &self,
        k: u32,
        template: &Position,
        stop: &AtomicBool,
    ) -> Result<(Class, ClassStats), String> {
        let started = Instant::now();
        let boards = Boards::new(k);
        let nb = boards.len();
        let stores = (k + 3) as u64;
        let n = nb * 2;
        if n > u32::MAX as u64 / 2 {
            return Err(format!("class {k} has too many boards ({nb})"));
        }
        let mut values = vec![0u16; (n * stores) as usize];
        // The store classes are graphs of their own: one task each, on
        // rayon's threads (the values are the same on any number).
        let parts: Vec<Result<ClassStats, String>> = values
            .par_chunks_mut(n as usize)
            .enumerate()
            .map(|(sc, out)| self.build_store_class(k, sc, &boards, template, stop, out))
            .collect();
        let mut stats = ClassStats {
            k,
            positions: n * stores,
            ..ClassStats::default()
        };
        for p in parts {
            let p = p?;
            stats.wins += p.wins;
            stats.losses += p.losses;
            stats.draws += p.draws;
            stats.ends += p.ends;
            stats.moves_within += p.moves_within;
            stats.captures += p.captures;
            stats.longest_win = stats.longest_win.max(p.longest_win);
            stats.longest_loss = stats.longest_loss.max(p.longest_loss);
        }
        stats.elapsed = started.elapsed();
        Ok((Class { boards, values }, stats))
    }

    /// Store class `sc` of class `k`: its values into `out` (by board and
    /// side), and what it holds.
    fn build_store_class(
        &self,
        k: u32,
        sc: usize,
        boards: &Boards,
        template: &Position,
        stop: &AtomicBool,
        out: &mut [u16],
    ) -> Result<ClassStats, String> {
        let nb = boards.len();
        let n = out.len();
        let mut stats = ClassStats::default();
        let mut buf: Vec<Child> = Vec::new();
        let mut hashes: Vec<u64> = Vec::new();
        let mut unknown = vec![0u32; n];
        let mut best_win = vec![u32::MAX; n];
        let mut max_win = vec![0u32; n];
        let mut blocked = vec![false; n];
        let mut done = vec![false; n];
        let mut pred_start = vec![0u32; n + 1];
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let s = store_of_class(k, sc);
        // Buckets of (node, is a win) by distance.
        let mut buckets: Vec<Vec<(u32, bool)>> = vec![Vec::new()];
        let push = |buckets: &mut Vec<Vec<(u32, bool)>>, d: u32, e: (u32, bool)| {
            if buckets.len() <= d as usize {
                buckets.resize(d as usize + 1, Vec::new());
            }
            buckets[d as usize].push(e);
        };
        for b in 0..nb {
            if b % 65536 == 0 && stop.load(Relaxed) {
                return Err("stopped".into());
            }
            let holes = boards.unrank(b);
            for side in [Side::A, Side::B] {
                let node = (b * 2) as usize + side.index();
                let p = position(template, &holes, side, k, s);
                children(&p, &mut buf, &mut hashes);
                if buf.is_empty() {
                    stats.ends += 1;
                    if terminal_value(&p, 0) == DRAW {
                        // A drawn end: never labelled.
                        done[node] = true;
                    } else {
                        push(&mut buckets, 0, (node as u32, false));
                    }
                    continue;
                }
                for c in &buf {
                    let same = c.pos.side_to_move() == side;
                    let ch = holes_of(&c.pos);
                    let kc: u32 = ch.iter().map(|&x| x as u32).sum();
                    if kc == k {
                        debug_assert_eq!(c.pos.stores(), p.stores());
                        debug_assert!(!same, "Adjiboto alternates");
                        stats.moves_within += 1;
                        let j = (boards.rank(&ch) * 2) as usize + c.pos.side_to_move().index();
                        unknown[node] += 1;
                        edges.push((j as u32, node as u32));
                        continue;
                    }
                    stats.captures += 1;
                    let v = self.known(&c.pos);
                    let v = if same { v } else { other(v) };
                    // `v` is the child's value for this node's mover.
                    match v {
                        Value::Win(d) => best_win[node] = best_win[node].min(d + 1),
                        Value::Loss(d) => max_win[node] = max_win[node].max(d),
                        Value::Draw => blocked[node] = true,
                    }
                }
                if best_win[node] != u32::MAX {
                    push(&mut buckets, best_win[node], (node as u32, true));
                } else if unknown[node] == 0 && !blocked[node] {
                    push(&mut buckets, max_win[node] + 1, (node as u32, false));
                }
            }
        }
        // The predecessors of each node, by counting sort.
        for &(to, _) in &edges {
            pred_start[to as usize + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut preds = vec![0u32; edges.len()];
        {
            let mut fill: Vec<u32> = pred_start[..n].to_vec();
            for &(to, from) in &edges {
                preds[fill[to as usize] as usize] = from;
                fill[to as usize] += 1;
            }
        }
        let mut d = 0usize;
        while d < buckets.len() {
            let level = std::mem::take(&mut buckets[d]);
            for (node, win) in level {
                let node = node as usize;
                if done[node] {
                    continue;
                }
                done[node] = true;
                let dist = d as u32;
                if dist > MAX_DIST {
                    return Err(format!("class {k}: a distance over {MAX_DIST}"));
                }
                out[node] = if win {
                    stats.wins += 1;
                    stats.longest_win = stats.longest_win.max(dist);
                    1 + dist as u16
                } else {
                    stats.losses += 1;
                    stats.longest_loss = stats.longest_loss.max(dist);
                    LOSS | dist as u16
                };
                for &q in &preds[pred_start[node] as usize..pred_start[node + 1] as usize] {
                    let q = q as usize;
                    if done[q] {
                        continue;
                    }
                    if !win {
                        // q's mover wins by moving here.
                        push(&mut buckets, dist + 1, (q as u32, true));
                    } else {
                        unknown[q] -= 1;
                        max_win[q] = max_win[q].max(dist);
                        if unknown[q] == 0 && !blocked[q] && best_win[q] == u32::MAX {
                            push(&mut buckets, max_win[q] + 1, (q as u32, false));
                        }
                    }
                }
            }
            d += 1;
        }
        // What was never labelled is a draw (0 already).
        stats.draws += out.iter().filter(|&&e| e == 0).count() as u64;
        Ok(stats)
    }

    /// Every position of the tables, checked against its children: a win in
    /// n has a child lost in n - 1 and none lost sooner, a loss in n only
    /// children won, the longest in n - 1 (an end: no child, distance 0), a
    /// draw no child lost and, unless it is a drawn end, a child drawn.
    /// The first position that breaks this (in the tables' order: class,
    /// store, board, side), or `None`. The boards of a class are checked in
    /// blocks on rayon's threads.
    pub fn verify(&self, stop: &AtomicBool) -> Result<Option<String>, String> {
        const BLOCK: u64 = 1 << 12;
        let template = template();
        for (k, class) in self.classes.iter().enumerate() {
            let k = k as u32;
            let nb = class.boards.len();
            let blocks = nb.div_ceil(BLOCK);
            let found = (0..(k as u64 + 3) * blocks)
                .into_par_iter()
                .map_init(
                    || (Vec::new(), Vec::new()),
                    |(buf, hashes), i| {
                        if stop.load(Relaxed) {
                            return Some(Err("stopped".to_string()));
                        }
                        let s = store_of_class(k, (i / blocks) as usize);
                        let first = (i % blocks) * BLOCK;
                        (first..(first + BLOCK).min(nb)).find_map(|b| {
                            let holes = class.boards.unrank(b);
                            [Side::A, Side::B].into_iter().find_map(|side| {
                                let p = position(&template, &holes, side, k, s);
                                self.wrong(&p, buf, hashes).map(Ok)
                            })
                        })
                    },
                )
                .find_map_first(|x| x);
            if let Some(f) = found {
                return f.map(Some);
            }
        }
        Ok(None)
    }

    /// Why `p`'s value in the tables does not follow from its children's
    /// (`verify`), or `None` when it does.
    fn wrong(&self, p: &Position, buf: &mut Vec<Child>, hashes: &mut Vec<u64>) -> Option<String> {
        let side = p.side_to_move();
        let v = self.value(p).expect("in the tables");
        children(p, buf, hashes);
        // Each child's value for p's mover, distance as the child's.
        let kids: Vec<Value> = buf
            .iter()
            .map(|c| {
                let v = self.value(&c.pos).expect("a child has no more counters");
                if c.pos.side_to_move() == side {
                    v
                } else {
                    other(v)
                }
            })
            .collect();
        let ok = if kids.is_empty() {
            v == if terminal_value(p, 0) == DRAW {
                Value::Draw
            } else {
                Value::Loss(0)
            }
        } else {
            let fastest = kids
                .iter()
                .filter_map(|v| match v {
                    Value::Win(d) => Some(d + 1),
                    _ => None,
                })
                .min();
            let all_lost = kids.iter().all(|v| matches!(v, Value::Loss(_)));
            match v {
                Value::Win(n) => fastest == Some(n),
                Value::Loss(n) => {
                    all_lost
                        && kids
                            .iter()
                            .map(|v| match v {
                                Value::Loss(d) => d + 1,
                                _ => 0,
                            })
                            .max()
                            == Some(n)
                }
                Value::Draw => fastest.is_none() && !all_lost,
            }
        };
        (!ok).then(|| format!("{p}: table says {v}, children {kids:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_rank_and_unrank_both_ways() {
        for k in [0, 1, 3, 7] {
            let b = Boards::new(k);
            assert_eq!(b.len(), binom(k as u64 + 9, 9));
            let mut last: Option<[u8; HOLES]> = None;
            for r in 0..b.len() {
                let h = b.unrank(r);
                assert_eq!(h.iter().map(|&c| c as u32).sum::<u32>(), k);
                assert_eq!(b.rank(&h), r);
                if let Some(l) = last {
                    assert!(l < h, "numbered in lexicographic order");
                }
                last = Some(h);
            }
        }
    }

    #[test]
    fn store_classes_cover_what_the_end_can_tell_apart() {
        // k = 4: A's store 0..=45 below, 46..=50 one each, 51..=96 above.
        assert_eq!(store_class(4, 0), 0);
        assert_eq!(store_class(4, 45), 0);
        assert_eq!(store_class(4, 46), 1);
        assert_eq!(store_class(4, 50), 5);
        assert_eq!(store_class(4, 51), 6);
        assert_eq!(store_class(4, 96), 6);
        assert_eq!(store_of_class(4, 0), 45);
        assert_eq!(store_of_class(4, 6), 51);
        for k in 0..=MAX_COUNTERS {
            for c in 0..(k + 3) as usize {
                assert_eq!(store_class(k, store_of_class(k, c)), c);
            }
        }
    }

    #[test]
    fn verify_finds_a_planted_wrong_value() {
        let stop = AtomicBool::new(false);
        let mut t = Tables::build(5, &stop, &mut |_| {}).unwrap();
        assert_eq!(t.verify(&stop).unwrap(), None);
        // Turn a win of class 5 into a draw, then a loss in 2 into a loss in 4.
        let v = &mut t.classes[5].values;
        let win = v.iter().position(|&e| e != 0 && e & LOSS == 0).unwrap();
        v[win] = 0;
        assert!(t.verify(&stop).unwrap().is_some());
        t.classes[5].values[win] =
            Tables::build(5, &stop, &mut |_| {}).unwrap().classes[5].values[win];
        assert_eq!(t.verify(&stop).unwrap(), None);
        let v = &mut t.classes[5].values;
        let loss = v.iter().position(|&e| e == LOSS | 2).unwrap();
        v[loss] = LOSS | 4;
        assert!(t.verify(&stop).unwrap().is_some());
    }

    /// With values planted wrong in several blocks of a class, `verify`
    /// names the same position - the first in the tables' order - on one
    /// thread and on several, and it is one whose check fails.
    #[test]
    fn verify_names_the_first_wrong_position_on_any_number_of_threads() {
        let stop = AtomicBool::new(false);
        let mut t = Tables::build(7, &stop, &mut |_| {}).unwrap();
        assert!(t.classes[7].boards.len() > 2 * 4096, "one block only");
        let v = &mut t.classes[7].values;
        let n = v.len();
        for i in [n - 5, n / 2, n / 3 + 1] {
            let e = (i..n).find(|&j| v[j] != 0).unwrap();
            v[e] = 0;
        }
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| t.verify(&stop).unwrap())
        };
        let first = on(1).expect("a wrong value found");
        for threads in [2, 3, 8] {
            assert_eq!(
                on(threads).as_deref(),
                Some(first.as_str()),
                "{threads} threads"
            );
        }
        let pos: Position = first.split(": table says").next().unwrap().parse().unwrap();
        let (mut buf, mut hashes) = (Vec::new(), Vec::new());
        assert_eq!(
            t.wrong(&pos, &mut buf, &mut hashes).as_deref(),
            Some(first.as_str())
        );
    }
}
