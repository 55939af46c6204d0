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
//! alternate. Children are published through a `OnceLock`, so threads share
//! the tree without locks on the hot path; a thread that loses a race to
//! expand the same node throws its work away.
//!
//! Memory: nodes stay within the `Hash` budget. Once it is spent, leaves are
//! still valued but no longer expanded.

use super::common::{
    children, move_to, no_move_cheap, root_children, Child, RepHistory, EVAL_MAX, MAX_PLY,
};
use super::rng::Rng;
use super::time::TimeManager;
use super::{Info, Limits, Score, SearchControl, SearchResult};
use crate::board::Position;
use crate::eval::Evaluator;
use crate::rules::{Game, LAP_BUDGET};
use crate::types::moves::Move;
use crate::types::Side;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicU8, AtomicUsize};
use std::sync::OnceLock;
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
/// Fixed-point scale of the value sums.
const SCALE: f64 = 65536.0;
const MAX_PV: usize = 32;

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
    /// the longest loss (written before `proven`).
    dist: AtomicU32,
    kids: OnceLock<Box<[Node]>>,
}

// The tree budget is counted in nodes of this size (16 MiB: about 100,000).
const _: () = assert!(std::mem::size_of::<Node>() <= 168);

impl Node {
    fn new(pos: Position, prior: f32, proven: u8) -> Node {
        Node {
            pos,
            prior,
            visits: AtomicU32::new(0),
            vloss: AtomicU32::new(0),
            wsum: AtomicI64::new(0),
            proven: AtomicU8::new(proven),
            dist: AtomicU32::new(0),
            kids: OnceLock::new(),
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
    let d = k.dist.load(Relaxed) as i64;
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
    if super::common::terminal_value(pos, 0) == 0 {
        DRAWN
    } else {
        LOSS
    }
}

/// The search tree, kept by the `Searcher` between moves.
pub struct Tree {
    root: Node,
    used: AtomicUsize,
    capacity: usize,
}

impl Tree {
    pub fn new(pos: Position, capacity: usize) -> Tree {
        Tree {
            root: Node::new(pos, 1.0, UNKNOWN),
            used: AtomicUsize::new(1),
            capacity: capacity.max(1),
        }
    }

    /// Nodes that fit in `mb` mebibytes.
    pub fn capacity_for(mb: usize) -> usize {
        mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>()
    }

    pub fn hashfull(&self) -> u32 {
        (self.used.load(Relaxed).min(self.capacity) * 1000 / self.capacity) as u32
    }

    pub fn root_visits(&self) -> u32 {
        self.root.visits.load(Relaxed)
    }

    /// The subtree of the game's current position, when this tree's root is
    /// an earlier position of the same game and the moves since are in it.
    pub fn reuse(mut self, game: &Game, capacity: usize) -> Option<Tree> {
        let target = *game.position();
        let hashes = game.hashes();
        let back = target.ply().checked_sub(self.root.pos.ply())? as usize;
        let from = hashes.len().checked_sub(back + 1)?;
        if hashes[from] != self.root.pos.hash() {
            return None;
        }
        let mut node = &mut self.root;
        for &h in &hashes[from + 1..] {
            let kids = node.kids.get_mut()?;
            node = kids.iter_mut().find(|k| k.pos.hash() == h)?;
        }
        if node.pos != target {
            return None;
        }
        let root = std::mem::replace(node, Node::new(target, 0.0, UNKNOWN));
        drop(self);
        let mut used = 1;
        let mut stack = vec![&root];
        while let Some(n) = stack.pop() {
            if let Some(k) = n.kids.get() {
                used += k.len();
                stack.extend(k.iter());
            }
        }
        Some(Tree {
            root,
            used: AtomicUsize::new(used),
            capacity: capacity.max(1),
        })
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
}

/// Per-thread scratch.
struct Scratch<'t> {
    path: Vec<&'t Node>,
    kids: Vec<Child>,
    hashes: Vec<u64>,
    evals: Vec<(f32, u8)>,
    rng: Rng,
}

impl Scratch<'_> {
    fn new(seed: u64) -> Self {
        Scratch {
            path: Vec::with_capacity(MAX_PLY),
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
        let root = &self.tree.root.pos;
        let m = match self.root_paths.get(i) {
            Some(m) => *m,
            None => move_to(root, &self.tree.root.kids.get()?[i].pos),
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
    fn expand(&self, node: &Node, ply: usize, s: &mut Scratch<'_>, force: bool) -> (f32, bool) {
        let pos = node.pos;
        if no_move_cheap(&pos) {
            let code = terminal_code(&pos);
            node.proven.store(code, Relaxed);
            return (code_value(code), true);
        }
        children(&pos, &mut s.kids, &mut s.hashes);
        if s.kids.is_empty() {
            let code = terminal_code(&pos);
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
        let room = self.tree.used.load(Relaxed) + s.kids.len() <= self.tree.capacity;
        if !(force || (room && ply < self.max_depth)) {
            s.evals = evals;
            return (value, false);
        }
        // Priors: a softmax of the children's evaluations for the mover.
        let t = self.opts.prior_temperature.max(1.0);
        let top = best.min(EVAL_MAX as f32);
        let mut sum = 0.0;
        for (e, _) in evals.iter_mut() {
            *e = ((e.min(EVAL_MAX as f32) - top) / t).exp();
            sum += *e;
        }
        let kids: Box<[Node]> = s
            .kids
            .iter()
            .zip(&evals)
            .map(|(c, &(w, code))| Node::new(c.pos, w / sum, code))
            .collect();
        s.evals = evals;
        let n = kids.len();
        if node.kids.set(kids).is_ok() {
            self.tree.used.fetch_add(n, Relaxed);
            if self.update_proof(node, ply == 0) {
                let code = node.proven.load(Relaxed);
                return (code_value(code), true);
            }
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
        let Some(kids) = node.kids.get() else {
            return false;
        };
        let side = node.side();
        let mut best = UNKNOWN;
        let mut all = true;
        let mut win_dist = u32::MAX;
        let mut dist = 0;
        for (i, k) in kids.iter().enumerate() {
            if root && !self.allowed(i) {
                continue;
            }
            let r = code_for(k.proven.load(Acquire), k.side(), side);
            let d = k.dist.load(Relaxed) + 1;
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
        node.dist.store(dist, Relaxed);
        node.proven.store(code, Release);
        true
    }

    fn iteration<'t>(&self, s: &mut Scratch<'t>)
    where
        'a: 't,
    {
        s.path.clear();
        let root: &'t Node = &self.tree.root;
        let mut node = root;
        let mut mover = root.side();
        s.path.push(node);
        let (value, vside, mut proved) = loop {
            let ply = s.path.len() - 1;
            let proven = node.proven.load(Relaxed);
            if proven != UNKNOWN {
                break (code_value(proven), node.side(), ply > 0);
            }
            if ply > 0 {
                let key = node.pos.hash();
                let repeated = s.path[..ply].iter().any(|n| n.pos.hash() == key)
                    || self.history.third_time(key);
                if repeated || ply >= MAX_PLY - 1 {
                    break (0.0, node.side(), false);
                }
                if node.pos.ply() >= self.draw_plies {
                    if no_move_cheap(&node.pos) || !node.pos.has_legal_move() {
                        let code = terminal_code(&node.pos);
                        node.proven.store(code, Relaxed);
                        break (code_value(code), node.side(), true);
                    }
                    break (0.0, node.side(), false);
                }
            }
            let kids: &'t [Node] = match node.kids.get() {
                Some(k) => k,
                None => {
                    let (v, p) = self.expand(node, ply, s, false);
                    break (v, node.side(), p);
                }
            };
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
        let Some(kids) = self.tree.root.kids.get() else {
            return Vec::new();
        };
        let side = self.tree.root.side();
        let mut order: Vec<usize> = (0..kids.len()).filter(|&i| self.allowed(i)).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(rank(&kids[i], side)));
        order
    }

    /// Positions of the principal variation from the root.
    fn pv_nodes(&self, first: usize) -> Vec<&Node> {
        let mut out = Vec::new();
        let Some(kids) = self.tree.root.kids.get() else {
            return out;
        };
        let mut node = &kids[first];
        out.push(node);
        while out.len() < MAX_PV {
            let Some(kids) = node.kids.get() else { break };
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
        let kids = self.tree.root.kids.get().map(|k| &k[..]).unwrap_or(&[]);
        let k = &kids[first];
        let side = self.tree.root.side();
        let plies = k.dist.load(Relaxed) + 1;
        match code_for(k.proven.load(Acquire), k.side(), side) {
            WIN => Score::Win(plies),
            LOSS => Score::Loss(plies),
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
        let ms = start.elapsed().as_millis() as u64;
        let mut out = Vec::new();
        for (k, first) in self.ranked().into_iter().take(multipv.max(1)).enumerate() {
            let mut pv = Vec::new();
            let mut parent = self.tree.root.pos;
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
            out.push(Info {
                depth: Some(pv.len().max(1) as u32),
                seldepth: Some(self.seldepth.load(Relaxed).max(1) as u32),
                multipv: Some(k + 1),
                score: Some(self.score_of(first)),
                nodes: Some(iters),
                nps: Some(iters * 1000 / ms.max(1)),
                hashfull: Some(self.tree.hashfull()),
                time_ms: Some(ms),
                pv,
                ..Info::default()
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
    let start = Instant::now();
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
    };
    let reused = tree.root_visits();
    if reused > 0 {
        info(&Info {
            string: Some(format!("mcts reuses a subtree of {reused} visits")),
            ..Info::default()
        });
    }
    if tree.root.kids.get().is_none() && tree.root.proven.load(Relaxed) == UNKNOWN {
        let (v, _) = ctx.expand(&tree.root, 0, &mut Scratch::new(cfg.seed), true);
        tree.root.wsum.fetch_add((v as f64 * SCALE) as i64, Relaxed);
        tree.root.visits.fetch_add(1, Relaxed);
    }
    let Some(kids) = tree.root.kids.get() else {
        return super::no_move_result(&root);
    };
    // Root children reached by a `searchmoves` path, when any is legal. The
    // tree's children are merged by position with their first paths, so
    // each allowed child is matched with a listed path of its own.
    let (mut listed, mut hs) = (Vec::new(), Vec::new());
    root_children(&root, &limits.searchmoves, &mut listed, &mut hs);
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
        for id in 1..threads {
            sc.spawn(move || {
                let seed = cfg.seed ^ (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                worker_loop(ctx, &mut Scratch::new(seed), None);
            });
        }
        let mut scratch = Scratch::new(cfg.seed);
        worker_loop(ctx, &mut scratch, Some((&tm, start, &mut *info)));
        while (limits.infinite || control.pondering.load(Relaxed)) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        ctx.abort.store(true, Relaxed);
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
        if ctx.tree.root.proven.load(Relaxed) != UNKNOWN {
            ctx.abort.store(true, Relaxed);
            break;
        }
        if let Some((tm, start, report)) = main.as_mut() {
            if local & 63 == 0 {
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
