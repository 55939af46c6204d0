//! Monte-Carlo tree search: PUCT with the evaluation as prior and as value,
//! tree parallelism with virtual loss, a light MCTS-solver for proven wins
//! and losses, and reuse of the subtree between moves.
//!
//! Each node stores its position, so descending never regenerates moves; a
//! node's children are created together when it is first reached (one
//! generation, one evaluation per child for the priors). The value of a new
//! leaf is its best child's evaluation (a one-ply search that the expansion
//! pays for anyway), or a random playout when `playout_plies` is set.
//!
//! Values are kept from the point of view of the player who moved into a
//! node; a node's side to move is read from its position, never assumed to
//! alternate. Children are published by one atomic store in their parent, so
//! threads share the tree without locks on the hot path; a thread that loses
//! a race to expand the same node throws its work away.
//!
//! Memory: every node but the root lives in one arena of `Hash` MiB (the
//! tree is all the memory MCTS keeps; the `Searcher` holds no table beside
//! it). The arena is reserved, fallibly, when MCTS is chosen, written once
//! before any search, and given back in one piece. Once it
//! is full, leaves are still valued but no longer expanded. Reusing a subtree
//! slides it to the front of the arena, so a game's moves do not leak it.

mod arena;

pub use arena::Tree;

use super::common::RepHistory;
use super::time::TimeManager;
use super::{Info, Limits, Score, SearchControl, SearchResult};
use crate::board::Position;
use crate::eval::Evaluator;
use crate::gametree::{children, move_to, no_move_cheap, root_children, Child, EVAL_MAX, MAX_PLY};
use crate::rng::Rng;
use crate::rules::{Game, LAP_BUDGET};
use crate::threads::Crew;
use crate::types::moves::Move;
use crate::types::Side;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize,
};
use std::time::{Duration, Instant};

/// Tunable constants of the tree search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// Exploration weight of PUCT.
    pub cpuct: f32,
    /// Unvisited children start at the parent's value less this.
    pub fpu_reduction: f32,
    /// Softmax temperature of the priors, in centi-counters.
    pub prior_temperature: f32,
    /// Centi-counters per unit of `atanh(value)`.
    pub value_scale: f32,
    /// 0: value leaves by evaluation; n: by a random playout of up to n plies.
    pub playout_plies: u32,
    /// Iterations when `go` gives no node, time or infinite limit.
    pub default_iterations: u64,
}

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            cpuct: 1.5,
            fpu_reduction: 0.3,
            prior_temperature: 150.0,
            value_scale: 300.0,
            playout_plies: 0,
            default_iterations: 100_000,
        }
    }
}

const UNKNOWN: u8 = 0;
const LOSS: u8 = 1;
const DRAWN: u8 = 2;
const WIN: u8 = 3;
/// The bit of `Node::dist` that says the distance is exact: every child
/// was proven, each with an exact distance (a finished game's is 0). A
/// win found through one child is otherwise only a bound: an unproven
/// child may win sooner.
const EXACT: u16 = 1 << 15;
/// Fixed-point scale of the value sums.
const SCALE: f64 = 65536.0;
const MAX_PV: usize = 32;
/// Iterations between two looks at the clock: at 130,000 a second (Acholi),
/// 0.12 ms.
const POLL: u64 = 16;
/// A generous cost of moving one node when a reused subtree is compacted
/// (measured: about 45 ns).
const COMPACT_NS_PER_NODE: u64 = 100;

/// One node: a position reached by a move, with its statistics.
pub struct Node {
    pos: Position,
    prior: f32,
    visits: AtomicU32,
    vloss: AtomicU32,
    /// Sum of values for the player who moved into this node, times `SCALE`.
    wsum: AtomicI64,
    /// Proven result for this node's side to move (`UNKNOWN`, `LOSS`, ...).
    proven: AtomicU8,
    /// Plies from this node to the end of its proof: the shortest win found,
    /// the longest loss (written before `proven`), and [`EXACT`] when that
    /// is the game's distance under best play, not only a bound. A proof is
    /// no longer than the tree is deep, at most `MAX_PLY` plies.
    dist: AtomicU16,
    /// The children: a group of the arena, `start << 32 | len`; 0 until the
    /// node is expanded.
    kids: AtomicU64,
    /// The value `leaf` holds when this is the number of the search that
    /// wrote it (written after `leaf`; 0 for none).
    leaf_search: AtomicU32,
    /// A leaf's value for its side to move (`f32` bits), kept when the search
    /// could not expand it (the arena full, or the depth limit): it cannot
    /// be expanded for the rest of that search, so every later visit would
    /// make and evaluate the same children for the same value.
    leaf: AtomicU32,
}

// The arena holds `Hash` MiB of nodes of this size (16 MiB: 91,180 nodes).
// The size decides how many nodes a `Hash` holds, so where the arena fills
// and what the search finds: it is kept at 184 bytes.
const _: () = assert!(std::mem::size_of::<Node>() == 184);
const _: () = assert!(MAX_PLY < EXACT as usize);
// Nodes are moved bitwise within the arena and never dropped.
const _: () = assert!(!std::mem::needs_drop::<Node>());

impl Node {
    fn new(pos: Position, prior: f32, proven: u8) -> Node {
        Node {
            pos,
            prior,
            visits: AtomicU32::new(0),
            vloss: AtomicU32::new(0),
            wsum: AtomicI64::new(0),
            proven: AtomicU8::new(proven),
            // A node made proven is a finished game: 0 plies, exact.
            dist: AtomicU16::new(if proven == UNKNOWN { 0 } else { EXACT }),
            kids: AtomicU64::new(0),
            leaf_search: AtomicU32::new(0),
            leaf: AtomicU32::new(0),
        }
    }

    /// A copy of the node as it is now (the tree is not being searched).
    fn copy(&self) -> Node {
        Node {
            pos: self.pos,
            prior: self.prior,
            visits: AtomicU32::new(self.visits.load(Relaxed)),
            vloss: AtomicU32::new(self.vloss.load(Relaxed)),
            wsum: AtomicI64::new(self.wsum.load(Relaxed)),
            proven: AtomicU8::new(self.proven.load(Relaxed)),
            dist: AtomicU16::new(self.dist.load(Relaxed)),
            kids: AtomicU64::new(self.kids.load(Relaxed)),
            leaf_search: AtomicU32::new(self.leaf_search.load(Relaxed)),
            leaf: AtomicU32::new(self.leaf.load(Relaxed)),
        }
    }

    fn side(&self) -> Side {
        self.pos.side_to_move()
    }

    /// Mean value for the player who moved into this node.
    fn q(&self) -> f32 {
        let n = self.visits.load(Relaxed);
        if n == 0 {
            0.0
        } else {
            (self.wsum.load(Relaxed) as f64 / SCALE / n as f64) as f32
        }
    }
}

/// `code` (for `from`'s side to move) seen by `side`.
#[inline]
fn code_for(code: u8, from: Side, side: Side) -> u8 {
    if code == UNKNOWN || from == side {
        code
    } else {
        4 - code
    }
}

#[inline]
fn code_value(code: u8) -> f32 {
    match code {
        WIN => 1.0,
        LOSS => -1.0,
        _ => 0.0,
    }
}

/// How good child `k` is for `side`, the player choosing it: proven wins
/// first (the nearest first), then the most visited, then the best valued,
/// proven draws, and proven losses last (the farthest first).
fn rank(k: &Node, side: Side) -> (u8, i64, u32, i64) {
    let d = (k.dist.load(Relaxed) & !EXACT) as i64;
    let (class, reach) = match code_for(k.proven.load(Acquire), k.side(), side) {
        WIN => (3, -d),
        LOSS => (0, d),
        DRAWN => (1, 0),
        _ => (2, 0),
    };
    (class, reach, k.visits.load(Relaxed), (k.q() * 1e6) as i64)
}

/// Result of a position with no legal move, for its side to move.
fn terminal_code(pos: &Position) -> u8 {
    if crate::gametree::terminal_value(pos, 0) == 0 {
        DRAWN
    } else {
        LOSS
    }
}

struct Ctx<'a, E> {
    tree: &'a Tree,
    opts: &'a MctsOptions,
    eval: &'a E,
    control: &'a SearchControl,
    abort: AtomicBool,
    iters: AtomicU64,
    limit: u64,
    draw_plies: u32,
    history: RepHistory,
    max_depth: usize,
    /// Under `searchmoves`, per root child: the first listed path that
    /// reaches it, `None` for a child no listed path reaches. Empty when the
    /// root is not restricted.
    root_paths: Vec<Option<Move>>,
    seldepth: AtomicUsize,
    multipv: usize,
    /// This search's number (see `Node::leaf_search`).
    search: u32,
}

/// Words of `Scratch::on_path`: a filter of 1,024 bits.
const PATH_WORDS: usize = 16;

/// The bit of `key` in `Scratch::on_path`: word, mask.
#[inline]
fn path_bit(key: u64) -> (usize, u64) {
    ((key >> 6) as usize % PATH_WORDS, 1 << (key & 63))
}

/// Per-thread scratch.
struct Scratch<'t> {
    path: Vec<&'t Node>,
    /// Bit `path_bit(h)` set for the hash `h` of every node of `path` but
    /// its last: a repetition is looked for on the path only where the bit
    /// of the key is set. Cleared when an iteration starts.
    on_path: [u64; PATH_WORDS],
    kids: Vec<Child>,
    hashes: Vec<u64>,
    evals: Vec<(f32, u8)>,
    rng: Rng,
}

impl Scratch<'_> {
    fn new(seed: u64) -> Self {
        Scratch {
            path: Vec::with_capacity(MAX_PLY),
            on_path: [0; PATH_WORDS],
            kids: Vec::new(),
            hashes: Vec::new(),
            evals: Vec::new(),
            rng: Rng::new(seed),
        }
    }
}

impl<'a, E: Evaluator> Ctx<'a, E> {
    fn allowed(&self, i: usize) -> bool {
        !matches!(self.root_paths.get(i), Some(None))
    }

    /// The move to report for root child `i`: a listed path under
    /// `searchmoves` (the child's first path may not be listed).
    fn root_move(&self, i: usize) -> Option<Move> {
        let root = &self.tree.root().pos;
        let m = match self.root_paths.get(i) {
            Some(m) => *m,
            None => move_to(root, &self.tree.kids(self.tree.root())?[i].pos),
        };
        m.map(|m| root.restyle(m))
    }

    fn value_of_cp(&self, cp: i32) -> f32 {
        (cp as f32 / self.opts.value_scale).tanh()
    }

    fn select(&self, node: &Node, mover: Side, kids: &[Node], root: bool) -> usize {
        let side = node.side();
        let n_parent = node.visits.load(Relaxed) + node.vloss.load(Relaxed);
        let sqrt_n = (n_parent.max(1) as f32).sqrt();
        let parent_q = if mover == side { node.q() } else { -node.q() };
        let fpu = parent_q - self.opts.fpu_reduction;
        let mut best = f32::NEG_INFINITY;
        let mut best_i = 0;
        for (i, k) in kids.iter().enumerate() {
            if root && !self.allowed(i) {
                continue;
            }
            let proven = code_for(k.proven.load(Relaxed), k.side(), side);
            if proven == WIN {
                return i;
            }
            let vl = k.vloss.load(Relaxed);
            let n = k.visits.load(Relaxed) + vl;
            let q = match proven {
                LOSS => -10.0,
                DRAWN => 0.0,
                _ if n == 0 => fpu,
                _ => ((k.wsum.load(Relaxed) as f64 / SCALE - vl as f64) / n as f64) as f32,
            };
            let u = self.opts.cpuct * k.prior * sqrt_n / (1 + n) as f32;
            if q + u > best {
                best = q + u;
                best_i = i;
            }
        }
        best_i
    }

    /// Value a new leaf for its side to move, creating its children when the
    /// budget allows. Returns the value and whether the node got proven.
    fn expand(&self, node: &Node, ply: usize, s: &mut Scratch<'_>) -> (f32, bool) {
        if node.leaf_search.load(Acquire) == self.search {
            return (f32::from_bits(node.leaf.load(Relaxed)), false);
        }
        let pos = node.pos;
        if no_move_cheap(&pos) {
            let code = terminal_code(&pos);
            node.dist.store(EXACT, Relaxed);
            node.proven.store(code, Relaxed);
            return (code_value(code), true);
        }
        children(&pos, &mut s.kids, &mut s.hashes);
        if s.kids.is_empty() {
            let code = terminal_code(&pos);
            node.dist.store(EXACT, Relaxed);
            node.proven.store(code, Relaxed);
            return (code_value(code), true);
        }
        let side = pos.side_to_move();
        let mut evals = std::mem::take(&mut s.evals);
        evals.clear();
        let mut best = f32::NEG_INFINITY;
        for c in &s.kids {
            let (e, code) = if no_move_cheap(&c.pos) {
                let code = terminal_code(&c.pos);
                let mine = code_for(code, c.pos.side_to_move(), side);
                (code_value(mine) * EVAL_MAX as f32, code)
            } else {
                let e = self.eval.evaluate(&c.pos).clamp(-EVAL_MAX, EVAL_MAX) as f32;
                let e = if c.pos.side_to_move() == side { e } else { -e };
                (e, UNKNOWN)
            };
            best = best.max(e);
            evals.push((e, code));
        }
        let value = if self.opts.playout_plies > 0 {
            self.playout(&pos, &mut s.rng)
        } else if best.abs() >= EVAL_MAX as f32 {
            best.signum()
        } else {
            self.value_of_cp(best as i32)
        };
        let claimed = if ply < self.max_depth {
            self.tree.claim(s.kids.len())
        } else {
            None
        };
        let Some(start) = claimed else {
            s.evals = evals;
            // Within a search the arena only fills and the node's depth is
            // fixed, so it is never expanded: its next visits take the value
            // kept (a playout's value differs from one visit to the next).
            if self.opts.playout_plies == 0 {
                node.leaf.store(value.to_bits(), Relaxed);
                node.leaf_search.store(self.search, Release);
            }
            return (value, false);
        };
        // Priors: a softmax of the children's evaluations for the mover.
        let t = self.opts.prior_temperature.max(1.0);
        let top = best.min(EVAL_MAX as f32);
        let mut sum = 0.0;
        for (e, _) in evals.iter_mut() {
            *e = ((e.min(EVAL_MAX as f32) - top) / t).exp();
            sum += *e;
        }
        let kids = s
            .kids
            .iter()
            .zip(&evals)
            .map(|(c, &(w, code))| Node::new(c.pos, w / sum, code));
        let published = self.tree.publish(node, start, kids);
        s.evals = evals;
        if published && self.update_proof(node, ply == 0) {
            let code = node.proven.load(Relaxed);
            return (code_value(code), true);
        }
        (value, false)
    }

    /// A random game of up to `playout_plies` plies from `start`, valued for
    /// `start`'s side to move.
    fn playout(&self, start: &Position, rng: &mut Rng) -> f32 {
        let mut p = *start;
        for _ in 0..self.opts.playout_plies {
            let mut chosen = None;
            let mut k = 0;
            if !no_move_cheap(&p) {
                p.generate(LAP_BUDGET, |_, c, _| {
                    k += 1;
                    if rng.below(k) == 0 {
                        chosen = Some(*c);
                    }
                    true
                });
            }
            match chosen {
                Some(c) => p = c,
                None => {
                    let v = code_value(terminal_code(&p));
                    return if p.side_to_move() == start.side_to_move() {
                        v
                    } else {
                        -v
                    };
                }
            }
            if p.ply() >= self.draw_plies {
                return 0.0;
            }
        }
        let v = self.value_of_cp(self.eval.evaluate(&p).clamp(-EVAL_MAX, EVAL_MAX));
        if p.side_to_move() == start.side_to_move() {
            v
        } else {
            -v
        }
    }

    /// Prove `node` from its children if they allow: a child that wins for
    /// the side to move (the nearest such), or every child proven (the
    /// loser takes the longest way).
    fn update_proof(&self, node: &Node, root: bool) -> bool {
        if node.proven.load(Acquire) != UNKNOWN {
            return false;
        }
        let Some(kids) = self.tree.kids(node) else {
            return false;
        };
        let side = node.side();
        let mut best = UNKNOWN;
        let mut all = true;
        let mut win_dist = u32::MAX;
        let mut dist = 0;
        // Whether every child proven so far has an exact distance.
        let mut exact = true;
        for (i, k) in kids.iter().enumerate() {
            if root && !self.allowed(i) {
                continue;
            }
            let r = code_for(k.proven.load(Acquire), k.side(), side);
            let kd = k.dist.load(Relaxed);
            let d = u32::from(kd & !EXACT) + 1;
            if r != UNKNOWN {
                exact &= kd & EXACT != 0;
            }
            if r == WIN {
                win_dist = win_dist.min(d);
            } else if r == UNKNOWN {
                all = false;
            } else {
                if r > best || (r == best && r == LOSS && d > dist) {
                    dist = d;
                }
                best = best.max(r);
            }
        }
        let (code, dist) = if win_dist != u32::MAX {
            (WIN, win_dist)
        } else if all && best != UNKNOWN {
            (best, dist)
        } else {
            return false;
        };
        // The shortest win and the longest loss are the game's distance only
        // when every child is proven with its own exact distance.
        let exact = if all && exact { EXACT } else { 0 };
        // At most the tree's depth (see `dist`).
        node.dist.store(dist as u16 | exact, Relaxed);
        node.proven.store(code, Release);
        true
    }

    fn iteration<'t>(&self, s: &mut Scratch<'t>)
    where
        'a: 't,
    {
        s.path.clear();
        s.on_path = [0; PATH_WORDS];
        let root: &'t Node = self.tree.root();
        let mut node = root;
        let mut mover = root.side();
        s.path.push(node);
        let (value, vside, mut proved) = loop {
            let ply = s.path.len() - 1;
            let proven = node.proven.load(Relaxed);
            if proven != UNKNOWN {
                break (code_value(proven), node.side(), ply > 0);
            }
            let key = node.pos.hash();
            let (word, bit) = path_bit(key);
            if ply > 0 {
                let repeated = (s.on_path[word] & bit != 0
                    && s.path[..ply].iter().any(|n| n.pos.hash() == key))
                    || self.history.third_time(key);
                if repeated || ply >= MAX_PLY - 1 {
                    break (0.0, node.side(), false);
                }
                if node.pos.ply() >= self.draw_plies {
                    if no_move_cheap(&node.pos) || !node.pos.has_legal_move() {
                        let code = terminal_code(&node.pos);
                        node.dist.store(EXACT, Relaxed);
                        node.proven.store(code, Relaxed);
                        break (code_value(code), node.side(), true);
                    }
                    break (0.0, node.side(), false);
                }
            }
            let kids: &'t [Node] = match self.tree.kids(node) {
                Some(k) => k,
                None => {
                    let (v, p) = self.expand(node, ply, s);
                    break (v, node.side(), p);
                }
            };
            s.on_path[word] |= bit;
            let i = self.select(node, mover, kids, ply == 0);
            let next = &kids[i];
            next.vloss.fetch_add(1, Relaxed);
            mover = node.side();
            node = next;
            s.path.push(node);
        };
        self.seldepth.fetch_max(s.path.len() - 1, Relaxed);
        let root_side = root.side();
        for k in (0..s.path.len()).rev() {
            let n = s.path[k];
            let m = if k == 0 {
                root_side
            } else {
                s.path[k - 1].side()
            };
            let v = if m == vside { value } else { -value };
            n.wsum.fetch_add((v as f64 * SCALE) as i64, Relaxed);
            n.visits.fetch_add(1, Release);
            if k > 0 {
                n.vloss.fetch_sub(1, Relaxed);
            }
            if proved && k + 1 < s.path.len() {
                proved = self.update_proof(n, k == 0);
            }
        }
    }

    /// Root children best first (see `rank`), only those `searchmoves`
    /// allows.
    fn ranked(&self) -> Vec<usize> {
        let Some(kids) = self.tree.kids(self.tree.root()) else {
            return Vec::new();
        };
        let side = self.tree.root().side();
        let mut order: Vec<usize> = (0..kids.len()).filter(|&i| self.allowed(i)).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(rank(&kids[i], side)));
        order
    }

    /// Positions of the principal variation from the root.
    fn pv_nodes(&self, first: usize) -> Vec<&Node> {
        let mut out = Vec::new();
        let Some(kids) = self.tree.kids(self.tree.root()) else {
            return out;
        };
        let mut node = &kids[first];
        out.push(node);
        while out.len() < MAX_PV {
            let Some(kids) = self.tree.kids(node) else {
                break;
            };
            let side = node.side();
            let next = kids.iter().max_by_key(|k| rank(k, side));
            match next {
                Some(k) if k.visits.load(Relaxed) > 0 || k.proven.load(Relaxed) != UNKNOWN => {
                    node = k;
                    out.push(node);
                }
                _ => break,
            }
        }
        out
    }

    /// Score of root child `first`; a proven result counts the plies of
    /// its proof.
    fn score_of(&self, first: usize) -> Score {
        let kids = self.tree.kids(self.tree.root()).unwrap_or(&[]);
        let k = &kids[first];
        let side = self.tree.root().side();
        let d = k.dist.load(Relaxed);
        let plies = u32::from(d & !EXACT) + 1;
        let exact = d & EXACT != 0;
        // A proven win or loss is claimed with its distance only when that
        // is exact; otherwise it is the strongest score short of a claim
        // (`EVAL_MAX`, the top of the evaluation's range).
        match code_for(k.proven.load(Acquire), k.side(), side) {
            WIN if exact => Score::Win(plies),
            LOSS if exact => Score::Loss(plies),
            WIN => Score::Cp(EVAL_MAX),
            LOSS => Score::Cp(-EVAL_MAX),
            DRAWN => Score::Cp(0),
            _ => {
                let q = k.q().clamp(-0.999, 0.999);
                Score::Cp((q.atanh() * self.opts.value_scale) as i32)
            }
        }
    }

    /// One report per line (`multipv` of them), best first, and the best
    /// line's move and ponder move.
    fn report(&self, start: Instant, multipv: usize) -> (Vec<Info>, Option<Move>, Option<Move>) {
        let iters = self.iters.load(Relaxed).min(self.limit);
        let elapsed = start.elapsed();
        let mut out = Vec::new();
        for (k, first) in self.ranked().into_iter().take(multipv.max(1)).enumerate() {
            let mut pv = Vec::new();
            let mut parent = self.tree.root().pos;
            for (ply, n) in self.pv_nodes(first).into_iter().enumerate() {
                let m = if ply == 0 {
                    self.root_move(first)
                } else {
                    move_to(&parent, &n.pos).map(|m| parent.restyle(m))
                };
                match m {
                    Some(m) => pv.push(m),
                    None => break,
                }
                parent = n.pos;
            }
            let depth = pv.len().max(1) as u32;
            out.push(Info {
                seldepth: Some(self.seldepth.load(Relaxed).max(1) as u32),
                multipv: Some(k + 1),
                score: Some(self.score_of(first)),
                hashfull: Some(self.tree.hashfull()),
                pv,
                ..Info::progress(depth, iters, elapsed)
            });
        }
        let best = out.first().and_then(|i| i.pv.first().copied());
        let ponder = out.first().and_then(|i| i.pv.get(1).copied());
        (out, best, ponder)
    }
}

/// Everything one tree search needs from the `Searcher`.
pub struct MctsRun<'a> {
    pub opts: &'a MctsOptions,
    pub threads: usize,
    pub multipv: usize,
    pub seed: u64,
    pub move_overhead: Duration,
    /// When the move's time started (see `Limits::start`).
    pub start: Instant,
}

/// Search the game's position with MCTS, in `tree` (kept for the next move).
pub fn run<E: Evaluator>(
    cfg: &MctsRun<'_>,
    tree: &Tree,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    info: &mut dyn FnMut(&Info),
    eval: &E,
) -> SearchResult {
    let start = cfg.start;
    let root = *game.position();
    let tm = TimeManager::new(
        limits,
        cfg.move_overhead,
        root.side_to_move(),
        control,
        start,
    );
    let unlimited = limits.nodes.is_none() && !tm.is_timed() && !limits.infinite;
    let limit = match limits.nodes {
        Some(n) => n.max(1),
        None if unlimited => cfg.opts.default_iterations.max(1),
        None => u64::MAX,
    };
    let mut ctx = Ctx {
        tree,
        opts: cfg.opts,
        eval,
        control,
        abort: AtomicBool::new(false),
        iters: AtomicU64::new(0),
        limit,
        draw_plies: game.draw_plies(),
        history: RepHistory::new(game),
        max_depth: limits
            .depth
            .map_or(MAX_PLY, |d| (d as usize).clamp(1, MAX_PLY)),
        root_paths: Vec::new(),
        seldepth: AtomicUsize::new(0),
        multipv: cfg.multipv.max(1),
        search: tree.next_search(),
    };
    let reused = tree.root_visits();
    if reused > 0 {
        info(&Info::text(format!(
            "mcts reuses a subtree of {reused} visits"
        )));
    }
    if tree.kids(tree.root()).is_none() && tree.root().proven.load(Relaxed) == UNKNOWN {
        let (v, _) = ctx.expand(tree.root(), 0, &mut Scratch::new(cfg.seed));
        tree.root()
            .wsum
            .fetch_add((v as f64 * SCALE) as i64, Relaxed);
        tree.root().visits.fetch_add(1, Relaxed);
    }
    // Root children reached by a `searchmoves` path, when any is legal. The
    // tree's children are merged by position with their first paths, so
    // each allowed child is matched with a listed path of its own.
    let (mut listed, mut hs) = (Vec::new(), Vec::new());
    root_children(&root, &limits.searchmoves, &mut listed, &mut hs);
    let Some(kids) = tree.kids(tree.root()) else {
        if listed.is_empty() {
            return super::no_move_result(&root);
        }
        // The arena cannot hold the root's children (thousands of moves in a
        // small Hash): the child the evaluation likes best.
        info(&Info::text(format!(
            "mcts: {} root moves do not fit in Hash; the best by evaluation",
            listed.len()
        )));
        return one_ply(&root, &listed, eval, info);
    };
    if listed.iter().any(|c| limits.searchmoves.contains(&c.mv)) {
        ctx.root_paths = kids
            .iter()
            .map(|k| {
                listed
                    .iter()
                    .find(|c| c.pos.same_state(&k.pos))
                    .map(|c| c.mv)
            })
            .collect();
    }
    let fallback = ctx
        .ranked()
        .first()
        .and_then(|&i| ctx.root_move(i))
        .or_else(|| listed.first().map(|c| root.restyle(c.mv)));
    let ctx = &ctx;
    let threads = cfg.threads.max(1);
    std::thread::scope(|sc| {
        let mut helpers = Crew::new();
        for id in 1..threads {
            helpers.push(sc.spawn(move || {
                let seed = cfg.seed ^ (id as u64).wrapping_mul(crate::rng::GAMMA);
                worker_loop(ctx, &mut Scratch::new(seed), None);
            }));
        }
        let mut scratch = Scratch::new(cfg.seed);
        worker_loop(ctx, &mut scratch, Some((&tm, start, &mut *info)));
        while (limits.infinite || control.pondering.load(Relaxed)) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        ctx.abort.store(true, Relaxed);
        helpers.join();
    });
    let (lines, best, ponder) = ctx.report(start, ctx.multipv);
    for l in &lines {
        info(l);
    }
    let first = lines.first();
    SearchResult {
        best: best.or(fallback),
        ponder,
        score: first.and_then(|l| l.score),
        depth: first.and_then(|l| l.depth).unwrap_or(0),
        nodes: ctx.iters.load(Relaxed).min(ctx.limit),
    }
}

/// The child of `root` among `kids` (not empty) the evaluation values best
/// for the side to move.
fn one_ply<E: Evaluator>(
    root: &Position,
    kids: &[Child],
    eval: &E,
    info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let side = root.side_to_move();
    let value = |c: &Child| {
        if no_move_cheap(&c.pos) {
            let code = code_for(terminal_code(&c.pos), c.pos.side_to_move(), side);
            code_value(code) as i32 * EVAL_MAX
        } else {
            let e = eval.evaluate(&c.pos).clamp(-EVAL_MAX, EVAL_MAX);
            if c.pos.side_to_move() == side {
                e
            } else {
                -e
            }
        }
    };
    let mut best = (value(&kids[0]), kids[0].mv);
    for c in &kids[1..] {
        let v = value(c);
        if v > best.0 {
            best = (v, c.mv);
        }
    }
    let mv = root.restyle(best.1);
    super::one_ply_answer(mv, Some(Score::Cp(best.0)), kids.len() as u64, info)
}

type MainDuty<'m> = (&'m TimeManager, Instant, &'m mut dyn FnMut(&Info));

fn worker_loop<'a, 't, E: Evaluator>(
    ctx: &'t Ctx<'a, E>,
    s: &mut Scratch<'t>,
    mut main: Option<MainDuty<'_>>,
) where
    'a: 't,
{
    let mut next_report = 1000u64;
    let mut local = 0u64;
    loop {
        if ctx.abort.load(Relaxed) || ctx.control.stopped() {
            break;
        }
        if ctx.iters.fetch_add(1, Relaxed) >= ctx.limit {
            ctx.abort.store(true, Relaxed);
            break;
        }
        ctx.iteration(s);
        local += 1;
        if ctx.tree.root().proven.load(Relaxed) != UNKNOWN {
            ctx.abort.store(true, Relaxed);
            break;
        }
        if let Some((tm, start, report)) = main.as_mut() {
            if local & (POLL - 1) == 0 {
                let over = if tm.is_clock() {
                    tm.soft_exceeded(ctx.control, 100) || tm.hard_exceeded(ctx.control)
                } else {
                    tm.hard_exceeded(ctx.control)
                };
                if over {
                    ctx.abort.store(true, Relaxed);
                    break;
                }
                let ms = start.elapsed().as_millis() as u64;
                if ms >= next_report {
                    next_report = ms + 1000;
                    for i in ctx.report(*start, ctx.multipv).0 {
                        report(&i);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;
    use crate::types::Variant;

    fn searched(tree: &mut Tree, game: &Game, iterations: u64) -> SearchResult {
        tree.prepare(game, None);
        let opts = MctsOptions::default();
        let cfg = MctsRun {
            opts: &opts,
            threads: 1,
            multipv: 1,
            seed: 1,
            move_overhead: Duration::ZERO,
            start: Instant::now(),
        };
        let limits = Limits {
            nodes: Some(iterations),
            ..Limits::default()
        };
        let control = SearchControl::default();
        run(
            &cfg,
            tree,
            game,
            &limits,
            &control,
            &mut |_| {},
            &Eval::default(),
        )
    }

    /// Every node below `node`, depth first: hash, visits, value sum,
    /// children.
    fn shape(tree: &Tree, node: &Node, out: &mut Vec<(u64, u32, i64, usize)>) {
        let kids = tree.kids(node).unwrap_or(&[]);
        out.push((
            node.pos.hash(),
            node.visits.load(Relaxed),
            node.wsum.load(Relaxed),
            kids.len(),
        ));
        for k in kids {
            shape(tree, k, out);
        }
    }

    /// The game two plies on along the most visited line, as in a game (the
    /// searcher's move, the reply), and the node it reaches.
    fn two_plies_on<'t>(tree: &'t Tree, game: &mut Game) -> &'t Node {
        let mut node = tree.root();
        for _ in 0..2 {
            let kids = tree.kids(node).unwrap();
            node = kids.iter().max_by_key(|k| k.visits.load(Relaxed)).unwrap();
            let m = move_to(game.position(), &node.pos).unwrap();
            game.play(&m).unwrap();
        }
        node
    }

    #[test]
    fn reuse_keeps_the_subtree_and_compacts_the_arena() {
        let mut game = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        let mut tree = Tree::try_with_capacity(24_000).unwrap();
        for _ in 0..3 {
            searched(&mut tree, &game, 4000);
            let used = tree.used.load(Relaxed);
            assert!(used > tree.capacity() / 2, "{used}: compaction is due");
            let mut before = Vec::new();
            shape(&tree, two_plies_on(&tree, &mut game), &mut before);
            tree.prepare(&game, None);
            let mut after = Vec::new();
            shape(&tree, tree.root(), &mut after);
            assert_eq!(before, after);
            assert!(before.len() > 100, "a subtree worth keeping");
            // Exactly the kept nodes are left (the root is outside the arena).
            let kept = tree.used.load(Relaxed);
            assert_eq!(kept, after.len() - 1);
            assert!(kept < used, "{kept} of {used}");
        }
        // A position outside the tree starts an empty one.
        let other = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        tree.prepare(&other, None);
        assert_eq!(tree.used.load(Relaxed), 0);
        assert!(tree.kids(tree.root()).is_none());
    }

    #[test]
    fn compaction_waits_for_a_half_full_arena_and_fits_the_time() {
        let start = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        // Half empty: the subtree is taken as it lies.
        let (mut game, mut tree) = (start.clone(), Tree::try_with_capacity(100_000).unwrap());
        searched(&mut tree, &game, 1000);
        let used = tree.used.load(Relaxed);
        assert!(used < tree.capacity() / 2);
        let visits = two_plies_on(&tree, &mut game).visits.load(Relaxed);
        tree.prepare(&game, Some(Duration::from_micros(1)));
        assert_eq!(tree.used.load(Relaxed), used);
        assert_eq!(tree.root_visits(), visits);
        assert!(visits > 0);
        // More than half full, and no time to compact: a fresh tree.
        let (mut game, mut tree) = (start.clone(), Tree::try_with_capacity(6_000).unwrap());
        searched(&mut tree, &game, 4000);
        assert!(tree.used.load(Relaxed) > tree.capacity() / 2);
        two_plies_on(&tree, &mut game);
        tree.prepare(&game, Some(Duration::from_micros(1)));
        assert_eq!((tree.used.load(Relaxed), tree.root_visits()), (0, 0));
    }

    /// The leaves below `node` that the search numbered `search` could not
    /// expand and kept the value of, each with the side that moved into it.
    fn kept_leaves<'t>(
        tree: &'t Tree,
        node: &'t Node,
        mover: Side,
        search: u32,
        out: &mut Vec<(&'t Node, Side)>,
    ) {
        match tree.kids(node) {
            Some(kids) => {
                for k in kids {
                    kept_leaves(tree, k, node.side(), search, out);
                }
            }
            None if node.leaf_search.load(Relaxed) == search => out.push((node, mover)),
            None => {}
        }
    }

    #[test]
    fn a_leaf_the_full_arena_cannot_hold_keeps_its_value_for_that_search_only() {
        let mut game = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        let mut tree = Tree::try_with_capacity(3_000).unwrap();
        searched(&mut tree, &game, 4000);
        let first = tree.searches.load(Relaxed);
        let root = tree.root();
        let mut kept = Vec::new();
        kept_leaves(&tree, root, root.side(), first, &mut kept);
        assert!(kept.len() > 50, "{} leaves kept", kept.len());
        // The value kept is the expansion's value, made again in an arena
        // with no room (so by generating and evaluating), and every visit
        // of the leaf counted it.
        let (opts, eval, control) = (
            MctsOptions::default(),
            Eval::default(),
            SearchControl::default(),
        );
        let empty = Tree::try_with_capacity(0).unwrap();
        let fresh = Ctx {
            tree: &empty,
            opts: &opts,
            eval: &eval,
            control: &control,
            abort: AtomicBool::new(false),
            iters: AtomicU64::new(0),
            limit: 1,
            draw_plies: game.draw_plies(),
            history: RepHistory::new(&game),
            max_depth: MAX_PLY,
            root_paths: Vec::new(),
            seldepth: AtomicUsize::new(0),
            multipv: 1,
            search: 1,
        };
        let mut scratch = Scratch::new(1);
        let mut revisited = 0;
        for &(leaf, mover) in &kept {
            let (v, proved) = fresh.expand(&Node::new(leaf.pos, 1.0, UNKNOWN), 1, &mut scratch);
            assert!(!proved);
            assert_eq!(
                f32::from_bits(leaf.leaf.load(Relaxed)).to_bits(),
                v.to_bits()
            );
            let mine = if mover == leaf.side() { v } else { -v };
            let visits = leaf.visits.load(Relaxed);
            let per_visit = (mine as f64 * SCALE) as i64;
            assert_eq!(leaf.wsum.load(Relaxed), visits as i64 * per_visit);
            revisited += usize::from(visits > 1);
        }
        assert!(revisited > 10, "{revisited} leaves visited again");
        // The next search (two plies on, the arena compacted) expands the
        // leaves that now fit instead of taking the kept values.
        two_plies_on(&tree, &mut game);
        searched(&mut tree, &game, 4000);
        assert_eq!(tree.searches.load(Relaxed), first + 1);
        let mut stack = vec![tree.root()];
        let mut expanded = 0;
        while let Some(n) = stack.pop() {
            if let Some(kids) = tree.kids(n) {
                expanded += usize::from(n.leaf_search.load(Relaxed) == first);
                stack.extend(kids);
            }
        }
        assert!(
            expanded > 10,
            "{expanded} leaves of the first search expanded"
        );
    }

    #[test]
    fn a_position_met_again_on_the_path_is_a_drawn_leaf() {
        // A tree made by hand: p -> q -> r -> (q, p), the last two repeating
        // the path (a node deep in it, and the root).
        let game = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        let p = *game.position();
        let q = p.legal_moves()[0].1;
        let r = q.legal_moves()[0].1;
        let mut tree = Tree::try_with_capacity(1000).unwrap();
        tree.reset(p);
        let mut parent = tree.root();
        for kids in [vec![q], vec![r], vec![q, p]] {
            let start = tree.claim(kids.len()).unwrap();
            let nodes = kids.iter().map(|&k| Node::new(k, 0.5, UNKNOWN));
            assert!(tree.publish(parent, start, nodes));
            parent = &tree.kids(parent).unwrap()[0];
        }
        searched(&mut tree, &game, 200);
        let r_node = &tree.kids(&tree.kids(tree.root()).unwrap()[0]).unwrap()[0];
        assert_eq!(r_node.pos, r);
        for again in tree.kids(r_node).unwrap() {
            assert!(
                tree.kids(again).is_none(),
                "a repeated position is not expanded"
            );
            assert!(again.visits.load(Relaxed) > 10);
            assert_eq!(again.wsum.load(Relaxed), 0, "and valued as a draw");
        }
    }

    #[test]
    fn a_full_arena_still_answers() {
        let game = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
        let legal = |m: Option<Move>| game.position().play(&m.unwrap()).is_ok();
        // Room for the root's children and a few more: leaves are valued,
        // not expanded.
        let mut tree = Tree::try_with_capacity(12).unwrap();
        let r = searched(&mut tree, &game, 500);
        assert!(legal(r.best));
        assert_eq!(tree.hashfull(), 1000 * 10 / 12);
        // No room even for the root's children: the best by evaluation.
        let mut tree = Tree::try_with_capacity(1).unwrap();
        let r = searched(&mut tree, &game, 500);
        assert!(legal(r.best));
        assert_eq!(r.depth, 1);
    }

    #[test]
    fn arena_bytes_follow_the_size() {
        let t = Tree::try_new(4).unwrap();
        assert!(t.bytes() <= 4 << 20 && t.bytes() > (4 << 20) - 256);
        assert_eq!(Tree::try_new(0).unwrap().bytes(), 0);
        assert!(Tree::try_new(usize::MAX >> 21).is_err());
    }
}
