//! Alpha-beta: iterative-deepening negamax with principal-variation search,
//! aspiration windows, a shared transposition table, move ordering (table
//! move, captures by size, killers, history) and Lazy SMP.
//!
//! A move is a whole turn, and the generator yields each move with the
//! position it leads to, so a node generates its children once into a
//! per-ply buffer and never unmakes. Generation is the expensive part (a
//! never-ending path costs up to 100,000 laps), which is why the table is
//! probed before it and why merged children (RULINGS 7) are searched once.
//!
//! Scores are from the side to move's point of view at every node. The side
//! to move is read from each position, never assumed to alternate: a child
//! with the same side to move is searched with the same window and its score
//! is not negated.
//!
//! Every refinement here keeps the fixed-depth root value of plain negamax
//! (with the same leaf and terminal rules), and `tests/search_differential.rs`
//! checks that on random positions. Two things are path-dependent and so
//! switchable for that test: repetition draws, and table cutoffs from deeper
//! drafts (a deeper result is a better value, not the plain one).

use super::common::{to_score, RepHistory};
use super::time::TimeManager;
use super::tt::{Bound, Table};
use super::{Info, Limits, SearchControl, SearchResult};
use crate::board::Position;
use crate::eval::Evaluator;
use crate::gametree::{
    children, no_move_cheap, root_children, table_child, terminal_value, Child, DRAW, EVAL_MAX,
    INF, MATE, MATE_BOUND, MAX_PLY,
};
use crate::rng::Rng;
use crate::rules::Game;
use crate::threads::Crew;
use crate::types::moves::{Move, Token};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
const ASPIRATION_MIN_DEPTH: u32 = 4;
const ASPIRATION_DELTA: i32 = 30;
const HIST_SLOTS: usize = 128;
const HIST_MAX: i32 = 1 << 20;
const KEY_TT: i32 = 1 << 30;
const KEY_CAPTURE: i32 = 1 << 26;
const KEY_KILLER: i32 = 1 << 24;
/// Nodes between two looks at the clock and the stop flags: at 400,000
/// nodes a second (Acholi), 0.16 ms.
const POLL: u64 = 64;

/// Switches for the refinements, all on by default. The differential test
/// turns them on one at a time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AbOptions {
    /// Probe and store the transposition table (cutoffs and the table move).
    pub table: bool,
    /// Cut off on table entries of exactly the node's draft only, not deeper
    /// ones: the search then returns plain negamax's value (for tests).
    pub exact_draft: bool,
    /// Captures by size, killers and history. Off: generation order.
    pub ordering: bool,
    /// Principal-variation search (null windows after the first move).
    pub pvs: bool,
    /// Aspiration windows from depth 4.
    pub aspiration: bool,
    /// Repetition draws (twofold in the search path, threefold with the game).
    pub repetition: bool,
}

impl Default for AbOptions {
    fn default() -> Self {
        AbOptions {
            table: true,
            exact_draft: false,
            ordering: true,
            pvs: true,
            aspiration: true,
            repetition: true,
        }
    }
}

impl AbOptions {
    /// Every refinement off: plain alpha-beta with iterative deepening.
    pub fn plain() -> AbOptions {
        AbOptions {
            table: false,
            exact_draft: false,
            ordering: false,
            pvs: false,
            aspiration: false,
            repetition: true,
        }
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    pos: Position,
    score: i32,
    prev: i32,
    pv: Vec<Move>,
    seldepth: u32,
}

#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

struct Shared<'a> {
    tt: &'a Table,
    control: &'a SearchControl,
    /// Set by the main thread when it is done, or by any thread at a limit.
    abort: AtomicBool,
    nodes: Vec<Counter>,
    opts: AbOptions,
    draw_plies: u32,
    history: RepHistory,
    node_limit: Option<u64>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Relaxed)).sum()
    }
}

/// The last completed result of the main thread.
#[derive(Clone)]
struct Best {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    depth: u32,
}

struct Worker<'a, E> {
    sh: &'a Shared<'a>,
    eval: &'a E,
    id: usize,
    tm: Option<&'a TimeManager>,
    nodes: u64,
    stopped: bool,
    seldepth: usize,
    root: Position,
    roots: Vec<RootMove>,
    /// Per ply, the children and their order: handed down the search as a
    /// slice whose first element is the node's own (taken out of the worker
    /// for each root search), so that a node borrows its buffers where they
    /// lie.
    plies: Vec<Ply>,
    scratch: Vec<u64>,
    path: [u64; MAX_PLY + 1],
    /// How many of the positions being searched (the root and the inner
    /// nodes on the path to the current node) have each value of
    /// [`filter_slot`] of their key: a key whose count is 0 is not on the
    /// path, which spares the scan of `path` at nearly every node.
    on_path: Box<[u8; FILTER_SLOTS]>,
    pv: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    history: Box<[[i32; HIST_SLOTS]; 2]>,
    /// A new best root move of the running iteration, for a stop mid-way.
    partial: Option<Best>,
}

/// One ply's buffers: its node's children, and their ordering keys (see
/// [`order_key`]).
#[derive(Default)]
struct Ply {
    kids: Vec<Child>,
    order: Vec<u64>,
    /// Where [`table_child`] writes the table move's child (made at the
    /// ply's first use, then rewritten).
    found: Option<Child>,
}

/// Slots of the path filter ([`Worker::is_repetition`]).
const FILTER_SLOTS: usize = 1024;

/// A key's slot in the path filter: its top bits.
#[inline(always)]
fn filter_slot(key: u64) -> usize {
    (key >> (64 - FILTER_SLOTS.trailing_zeros())) as usize
}

/// A child's place in the move order as one integer: its ordering key in
/// the high 32 bits (biased, so that unsigned order is the keys' order),
/// its index, complemented, in the next 16, and its gain (see [`gain`]) in
/// the low 16, which never decide the order since the indices differ: the
/// greatest integer is the child with the highest key, and of equal keys
/// the first generated.
#[inline(always)]
fn order_key(key: i32, index: usize, gain: u16) -> u64 {
    debug_assert!(index <= 0xffff);
    (u64::from(key as u32 ^ 0x8000_0000) << 32) | (0xffff - index as u64) << 16 | u64::from(gain)
}

/// The child index of an [`order_key`].
#[inline(always)]
fn key_index(k: u64) -> usize {
    0xffff - (k >> 16 & 0xffff) as usize
}

/// The gain of an [`order_key`]'s child.
#[inline(always)]
fn key_gain(k: u64) -> u16 {
    k as u16
}

/// Puts the `n`-th child of the move order at `order[n]`, given that
/// `order[..n]` holds the first `n` in order: the first is selected alone,
/// since a cut-off often comes before the rest are needed; at the second
/// the remainder is sorted once. (Selecting the first two or three one at a
/// time cost more instructions in `choro bench`.)
#[inline(always)]
fn next_in_order(order: &mut [u64], n: usize) {
    const SELECT: usize = 1;
    if n < SELECT {
        let rest = &mut order[n..];
        let mut best = 0;
        for j in 1..rest.len() {
            if rest[j] > rest[best] {
                best = j;
            }
        }
        rest.swap(0, best);
    } else if n == SELECT {
        order[n..].sort_unstable_by(|a, b| b.cmp(a));
    }
}

/// History slot of a move: its start (hole and kind).
#[inline]
fn slot(m: &Move) -> usize {
    match m.first_code() {
        Some(b) => SLOT_OF_CODE[b as usize] as usize,
        None => 0,
    }
}

/// The history slot of a start token.
const fn token_slot(t: Token) -> usize {
    let s = match t {
        Token::Lift(n) => n as usize,
        Token::Clockwise(n) => 33 + n as usize,
        Token::StartCapture(n) => 66 + n as usize,
        _ => 0,
    };
    s & (HIST_SLOTS - 1)
}

/// [`token_slot`] of each token byte code: [`slot`] without decoding.
static SLOT_OF_CODE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = token_slot(Token::decode(b as u8)) as u8;
        b += 1;
    }
    t
};

/// Counters the mover takes with this move.
#[inline]
fn gain(parent: &Position, child: &Position) -> u16 {
    Gain::of(parent).to(child)
}

/// What [`gain`] compares each child of one parent with, taken once: the
/// opponent's counters (Choro) or the mover's store (Adjiboto) before.
#[derive(Copy, Clone)]
struct Gain {
    choro: bool,
    me: crate::Side,
    before: u32,
}

impl Gain {
    #[inline]
    fn of(parent: &Position) -> Gain {
        let me = parent.side_to_move();
        let choro = parent.variant().is_choro();
        let before = if choro {
            parent.material(me.other())
        } else {
            parent.stores()[me.index()] as u32
        };
        Gain { choro, me, before }
    }

    #[inline]
    fn to(self, child: &Position) -> u16 {
        if self.choro {
            self.before.saturating_sub(child.material(self.me.other())) as u16
        } else {
            (child.stores()[self.me.index()] as u32).saturating_sub(self.before) as u16
        }
    }
}

#[inline]
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline]
fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// Lazy SMP skipping (after Stockfish 9): helper `i` skips some depths so the
/// threads spread over two or three iterations at once.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

fn skip_depth(id: usize, depth: u32) -> bool {
    if id == 0 {
        return false;
    }
    let i = (id - 1) % 20;
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) & 1 != 0
}

impl<'a, E: Evaluator> Worker<'a, E> {
    fn new(
        sh: &'a Shared<'a>,
        eval: &'a E,
        id: usize,
        tm: Option<&'a TimeManager>,
        root: Position,
        mut roots: Vec<RootMove>,
    ) -> Self {
        if id > 0 && roots.len() > 2 {
            // Helpers try the root moves after the first in their own order,
            // so that they fill the table with different subtrees.
            let mut rng = Rng::new(id as u64);
            for i in (2..roots.len()).rev() {
                let j = 1 + rng.below(i);
                roots.swap(i, j);
            }
        }
        Worker {
            sh,
            eval,
            id,
            tm,
            nodes: 0,
            stopped: false,
            seldepth: 0,
            root,
            roots,
            plies: (0..MAX_PLY).map(|_| Ply::default()).collect(),
            scratch: Vec::new(),
            path: [0; MAX_PLY + 1],
            on_path: Box::new([0; FILTER_SLOTS]),
            pv: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            killers: vec![[Move::empty(false); 2]; MAX_PLY],
            history: Box::new([[0; HIST_SLOTS]; 2]),
            partial: None,
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.sh.abort.store(true, Relaxed);
    }

    /// Whether to stop. Node limits are exact with one thread; everything
    /// else is looked at every `POLL` nodes.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.sh.nodes.len() == 1 {
            if let Some(l) = self.sh.node_limit {
                if self.nodes >= l {
                    self.stop_all();
                    return true;
                }
            }
        }
        if self.nodes & (POLL - 1) == 0 {
            self.sh.nodes[self.id].0.store(self.nodes, Relaxed);
            if self.sh.abort.load(Relaxed) || self.sh.control.stopped() {
                self.stopped = true;
            } else if self.tm.is_some_and(|t| t.hard_exceeded(self.sh.control))
                || (self.id == 0
                    && self
                        .sh
                        .node_limit
                        .is_some_and(|l| self.sh.total_nodes() >= l))
            {
                self.stop_all();
            }
        }
        self.stopped
    }

    fn is_repetition(&self, key: u64, ply: usize) -> bool {
        (self.on_path[filter_slot(key)] != 0 && self.path[..ply].contains(&key))
            || self.sh.history.third_time(key)
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        stack: &mut [Ply],
        child: &Position,
        same_side: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if same_side {
            self.search(stack, child, depth, alpha, beta, ply, pv_node)
        } else {
            -self.search(stack, child, depth, -beta, -alpha, ply, pv_node)
        }
    }

    #[inline(always)]
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        if no_move_cheap(pos) {
            return terminal_value(pos, ply);
        }
        if pos.ply() >= self.sh.draw_plies {
            return DRAW;
        }
        self.eval.evaluate(pos).clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// Negamax with alpha-beta (fail-soft) at `ply` plies from the root;
    /// `stack` holds the buffers of this ply and the deeper ones.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        stack: &mut [Ply],
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash();
        self.path[ply] = key;
        let opts = self.sh.opts;
        if opts.repetition && self.is_repetition(key, ply) {
            return DRAW;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf(pos, ply);
        }
        let Some((here, below)) = stack.split_first_mut() else {
            return self.leaf(pos, ply);
        };
        // The node is on the path of its descendants while they are searched.
        let slot = filter_slot(key);
        self.on_path[slot] += 1;
        let v = self.inner(here, below, pos, key, depth, alpha, beta, ply, pv_node);
        self.on_path[slot] -= 1;
        v
    }

    /// [`Worker::search`] at an inner node, after the repetition test.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn inner(
        &mut self,
        here: &mut Ply,
        below: &mut [Ply],
        pos: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let opts = self.sh.opts;
        // Mate distance: no result here beats a win on the next ply or is
        // worse than losing now.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let cap = self.sh.draw_plies;
        if pos.ply() >= cap {
            return if no_move_cheap(pos) || !pos.has_legal_move() {
                terminal_value(pos, ply)
            } else {
                DRAW
            };
        }
        // Below the ply cap's reach the value does not depend on the ply
        // count, which the key leaves out.
        let use_tt = opts.table && (pos.ply() as u64 + depth as u64) < cap as u64;
        let mut tt_move = 0u32;
        if use_tt {
            if let Some(e) = self.sh.tt.probe(key) {
                tt_move = e.mv;
                let draft_ok = if opts.exact_draft {
                    e.depth as i32 == depth
                } else {
                    e.depth as i32 >= depth
                };
                if draft_ok && !pv_node {
                    let s = from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }

        let mover = pos.side_to_move();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_hash = 0u32;

        // Staged generation: at a null-window node the table move usually
        // refutes, so generate only up to it and try it first; the rest of
        // the generation is paid only when it does not cut off.
        let Ply { kids, order, found } = here;
        let mut tried: Option<&Position> = None;
        let aside = found.get_or_insert_with(|| Child {
            mv: Move::empty(false),
            pos: *pos,
        });
        if tt_move != 0 && !pv_node && table_child(pos, tt_move, aside) {
            let c = &*aside;
            let same = c.pos.side_to_move() == mover;
            let v = self.child_value(below, &c.pos, same, depth - 1, alpha, beta, ply + 1, false);
            if self.stopped {
                return 0;
            }
            best = v;
            best_hash = tt_move;
            if v >= beta {
                if opts.ordering && gain(pos, &c.pos) == 0 {
                    self.reward_quiet(&c.mv, &[], depth, ply, mover);
                }
                if use_tt {
                    self.sh
                        .tt
                        .store(key, depth as u8, Bound::Lower, to_tt(v, ply), tt_move);
                }
                return v;
            }
            alpha = alpha.max(v);
            tried = Some(&c.pos);
        }

        children(pos, kids, &mut self.scratch);
        if kids.is_empty() {
            return terminal_value(pos, ply);
        }
        self.order_moves(pos, kids, order, tt_move, ply);
        if let Some(t) = tried {
            order.retain(|&k| !kids[key_index(k)].pos.same_state(t));
        }

        let first = usize::from(tried.is_some());
        for n in 0..order.len() {
            next_in_order(order, n);
            let i = key_index(order[n]);
            let child = &kids[i].pos;
            let same = child.side_to_move() == mover;
            let d = depth - 1;
            let v = if n + first == 0 || !opts.pvs {
                self.child_value(below, child, same, d, alpha, beta, ply + 1, pv_node)
            } else {
                let v = self.child_value(below, child, same, d, alpha, alpha + 1, ply + 1, false);
                if v > alpha && v < beta && !self.stopped {
                    self.child_value(below, child, same, d, alpha, beta, ply + 1, true)
                } else {
                    v
                }
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                best_hash = child.hash() as u32;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(kids[i].mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if v >= beta {
                        if opts.ordering && key_gain(order[n]) == 0 {
                            let mv = kids[i].mv;
                            let quiet_before = order[..n]
                                .iter()
                                .filter(|&&k| key_gain(k) == 0)
                                .map(|&k| slot(&kids[key_index(k)].mv));
                            let before: smallvec::SmallVec<[usize; 32]> = quiet_before.collect();
                            self.reward_quiet(&mv, &before, depth, ply, mover);
                        }
                        break;
                    }
                }
            }
        }
        let stopped = self.stopped;
        if use_tt && !stopped {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let mv = if bound == Bound::Upper { 0 } else { best_hash };
            self.sh
                .tt
                .store(key, depth as u8, bound, to_tt(best, ply), mv);
        }
        if stopped {
            0
        } else {
            best
        }
    }

    /// Fill `order` with the children's ordering keys ([`order_key`]), in
    /// generation order; [`next_in_order`] brings them out best first, ties
    /// in generation order, so that the search is deterministic.
    #[inline(always)]
    fn order_moves(
        &self,
        pos: &Position,
        kids: &[Child],
        order: &mut Vec<u64>,
        tt_move: u32,
        ply: usize,
    ) {
        order.clear();
        let side = pos.side_to_move().index();
        let on = self.sh.opts.ordering;
        let killers = &self.killers[ply];
        let gain = Gain::of(pos);
        // Room made once; a push a child (safe: the keys written to the
        // spare capacity and counted with `set_len` saved 0.3-0.8% of
        // `choro bench`'s instructions, under the 2% `unsafe` must pay).
        order.reserve(kids.len());
        for (i, c) in kids.iter().enumerate() {
            let g = gain.to(&c.pos);
            let key = if tt_move != 0 && c.pos.hash() as u32 == tt_move {
                KEY_TT
            } else if !on {
                0
            } else if g > 0 {
                KEY_CAPTURE + 1024 * g as i32
            } else if c.mv == killers[0] {
                KEY_KILLER + 1
            } else if c.mv == killers[1] {
                KEY_KILLER
            } else {
                self.history[side][slot(&c.mv)]
            };
            order.push(order_key(key, i, g));
        }
    }

    /// A quiet move caused a cutoff: make it a killer, raise its history and
    /// lower the history of the quiet moves (by slot) tried before it.
    fn reward_quiet(
        &mut self,
        mv: &Move,
        before: &[usize],
        depth: i32,
        ply: usize,
        mover: crate::Side,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != *mv {
            k[1] = k[0];
            k[0] = *mv;
        }
        let bonus = (depth * depth).min(400);
        let h = &mut self.history[mover.index()];
        let s = slot(mv);
        h[s] += bonus - h[s] * bonus / HIST_MAX;
        for &s in before {
            h[s] -= bonus + h[s] * bonus / HIST_MAX;
        }
    }

    /// One pass over the root moves `pv_idx..` with window (alpha, beta).
    fn root_search(&mut self, depth: u32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        self.nodes += 1;
        self.pv[0].clear();
        self.path[0] = self.root.hash();
        let root_slot = filter_slot(self.path[0]);
        self.on_path[root_slot] += 1;
        let side = self.root.side_to_move();
        let pvs = self.sh.opts.pvs;
        let d = depth as i32 - 1;
        let mut best = -INF;
        let mut plies = std::mem::take(&mut self.plies);
        let below = &mut plies[1..];
        for i in pv_idx..self.roots.len() {
            let child = self.roots[i].pos;
            let same = child.side_to_move() == side;
            self.seldepth = 0;
            let v = if i == pv_idx || !pvs {
                self.child_value(below, &child, same, d, alpha, beta, 1, true)
            } else {
                let v = self.child_value(below, &child, same, d, alpha, alpha + 1, 1, false);
                if v > alpha && v < beta && !self.stopped {
                    self.child_value(below, &child, same, d, alpha, beta, 1, true)
                } else {
                    v
                }
            };
            if self.stopped {
                break;
            }
            let seldepth = self.seldepth as u32;
            let rm = &mut self.roots[i];
            if i == pv_idx || v > alpha {
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(rm.mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INF;
            }
            best = best.max(v);
            if v > alpha {
                alpha = v;
                if pv_idx == 0 {
                    self.partial = Some(Best {
                        mv: rm.mv,
                        score: v,
                        pv: rm.pv.clone(),
                        depth,
                    });
                }
                if v >= beta {
                    break;
                }
            }
        }
        self.plies = plies;
        self.on_path[root_slot] -= 1;
        best
    }

    fn sort_roots(&mut self, from: usize) {
        self.roots[from..].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// Iterative deepening. The main thread reports and returns its result.
    fn iterate(
        &mut self,
        max_depth: u32,
        multipv: usize,
        limits: &Limits,
        start: Instant,
        mut report: Option<&mut dyn FnMut(&Info)>,
    ) -> Option<Best> {
        let opts = self.sh.opts;
        let multipv = multipv.clamp(1, self.roots.len());
        let mut best: Option<Best> = None;
        for depth in 1..=max_depth {
            if skip_depth(self.id, depth) {
                continue;
            }
            for rm in &mut self.roots {
                rm.prev = rm.score;
            }
            self.partial = None;
            for pv_idx in 0..multipv {
                let prev = self.roots[pv_idx].prev;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) = if opts.aspiration
                    && depth >= ASPIRATION_MIN_DEPTH
                    && prev.abs() < MATE_BOUND
                {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let v = self.root_search(depth, alpha, beta, pv_idx);
                    self.sort_roots(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = if v <= -MATE_BOUND {
                            -INF
                        } else {
                            (v - delta).max(-INF)
                        };
                    } else if v >= beta {
                        beta = if v >= MATE_BOUND {
                            INF
                        } else {
                            (v + delta).min(INF)
                        };
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                if self.stopped {
                    break;
                }
                self.roots[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                if self.id == 0 {
                    if let Some(p) = self.partial.take() {
                        best = Some(p);
                    }
                }
                break;
            }
            if self.id != 0 {
                continue;
            }
            let r = &self.roots[0];
            best = Some(Best {
                mv: r.mv,
                score: r.score,
                pv: r.pv.clone(),
                depth,
            });
            if let Some(report) = report.as_mut() {
                self.sh.nodes[0].0.store(self.nodes, Relaxed);
                let nodes = self.sh.total_nodes();
                let elapsed = start.elapsed();
                for (k, rm) in self.roots[..multipv].iter().enumerate() {
                    report(&Info {
                        seldepth: Some(rm.seldepth.max(1)),
                        multipv: Some(k + 1),
                        score: Some(to_score(rm.score)),
                        hashfull: Some(self.sh.tt.hashfull()),
                        pv: rm.pv.clone(),
                        ..Info::progress(depth, nodes, elapsed)
                    });
                }
            }
            if self.done_after(depth, limits) {
                break;
            }
        }
        best
    }

    /// Main thread, after a completed iteration: whether to start another.
    fn done_after(&self, depth: u32, limits: &Limits) -> bool {
        let score = self.roots[0].score;
        if let Some(m) = limits.mate {
            if score >= MATE_BOUND && ((MATE - score) as u32) < 2 * m.max(1) {
                return true;
            }
        }
        let Some(tm) = self.tm else { return false };
        if !tm.is_clock() {
            return false;
        }
        let control = self.sh.control;
        if tm.soft_exceeded(control, 60) {
            return true;
        }
        // Under a clock, a single move or a proven result needs no more time
        // (while pondering these wait for ponderhit like everything else).
        let decided = self.roots.len() == 1
            || (score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth);
        decided && !control.pondering.load(Relaxed)
    }
}

/// The root moves, merged, restricted to `searchmoves` when any of them is
/// legal (each named by a listed path), ordered by capture size and then
/// generation order.
fn root_moves(root: &Position, searchmoves: &[Move]) -> Vec<RootMove> {
    let (mut kids, mut scratch) = (Vec::new(), Vec::new());
    root_children(root, searchmoves, &mut kids, &mut scratch);
    let mut roots: Vec<(u16, RootMove)> = kids
        .iter()
        .map(|c| {
            (
                gain(root, &c.pos),
                RootMove {
                    mv: root.restyle(c.mv),
                    pos: c.pos,
                    score: -INF,
                    prev: -INF,
                    pv: Vec::new(),
                    seldepth: 0,
                },
            )
        })
        .collect();
    roots.sort_by_key(|r| std::cmp::Reverse(r.0));
    roots.into_iter().map(|(_, r)| r).collect()
}

/// Everything one alpha-beta search needs from the `Searcher`.
pub(crate) struct AbRun<'a> {
    /// The shared transposition table.
    pub(crate) tt: &'a Table,
    /// Which refinements run.
    pub(crate) opts: AbOptions,
    /// Search threads (1: the main thread only).
    pub(crate) threads: usize,
    /// How many best root moves are searched and reported (MultiPV).
    pub(crate) multipv: usize,
    /// Time kept back from each move's budget for the transport (UCI's
    /// `Move Overhead`).
    pub(crate) move_overhead: Duration,
    /// When the move's time started (see `Limits::start`).
    pub(crate) start: Instant,
}

/// Search the game's position with alpha-beta under `limits`.
pub(crate) fn run<E: Evaluator>(
    cfg: &AbRun<'_>,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    info: &mut dyn FnMut(&Info),
    eval: &E,
) -> SearchResult {
    let start = cfg.start;
    let root = *game.position();
    let roots = root_moves(&root, &limits.searchmoves);
    if roots.is_empty() {
        return super::no_move_result(&root);
    }
    let tm = TimeManager::new(
        limits,
        cfg.move_overhead,
        root.side_to_move(),
        control,
        start,
    );
    let threads = cfg.threads.max(1);
    let shared = Shared {
        tt: cfg.tt,
        control,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| Counter::default()).collect(),
        opts: cfg.opts,
        draw_plies: game.draw_plies(),
        history: if cfg.opts.repetition {
            RepHistory::new(game)
        } else {
            RepHistory::default()
        },
        node_limit: limits.nodes,
    };
    let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    if let (Some(m), None) = (limits.mate, limits.depth) {
        // A win in m moves ends on ply 2m - 1; one ply more generates the
        // loser's moves there, which finds every way of being left without.
        max_depth = (2 * m.max(1)).min(MAX_DEPTH);
    }
    let first = roots[0].mv;
    let (best, main_nodes) = std::thread::scope(|s| {
        let mut helpers = Crew::new();
        for id in 1..threads {
            let (shared, roots) = (&shared, roots.clone());
            helpers.push(s.spawn(move || {
                let mut w = Worker::new(shared, eval, id, None, root, roots);
                w.iterate(max_depth, 1, limits, start, None);
                shared.nodes[id].0.store(w.nodes, Relaxed);
            }));
        }
        let tm_ref = tm.is_timed().then_some(&tm);
        let mut w = Worker::new(&shared, eval, 0, tm_ref, root, roots);
        let best = w.iterate(max_depth, cfg.multipv, limits, start, Some(info));
        // `infinite` and pondering hold the answer until `stop` (or ponderhit).
        while (limits.infinite || control.pondering.load(Relaxed)) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.abort.store(true, Relaxed);
        helpers.join();
        (best, w.nodes)
    });
    shared.nodes[0].0.store(main_nodes, Relaxed);
    let nodes = shared.total_nodes();
    match best {
        Some(b) => SearchResult {
            ponder: b.pv.get(1).copied(),
            ..SearchResult::chosen(b.mv, Some(to_score(b.score)), b.depth, nodes)
        },
        // Stopped before the first iteration ended: the first root move.
        None => SearchResult::chosen(first, None, 0, nodes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The slot table gives each start token's slot: every byte code a move
    /// can start with, and the empty move.
    #[test]
    fn slots_from_the_table_are_the_tokens_slots() {
        assert_eq!(slot(&Move::empty(false)), 0);
        for b in 0..=255u8 {
            let t = Token::decode(b);
            let mut m = Move::empty(false);
            m.push(t);
            m.push(Token::Plus);
            let want = match t {
                Token::Lift(n) => n as usize,
                Token::Clockwise(n) => 33 + n as usize,
                Token::StartCapture(n) => 66 + n as usize,
                _ => 0,
            } % HIST_SLOTS;
            assert_eq!(slot(&m), want, "{b:#x}");
        }
    }

    proptest! {
        /// The children come out of `next_in_order` as a stable sort by key,
        /// highest first, would give them: ties in generation order, whatever
        /// the gains packed below the indices; each key gives back its
        /// child's index and gain.
        #[test]
        fn order_is_a_stable_sort_by_key(
            keys in proptest::collection::vec(
                (prop_oneof![Just(KEY_TT), Just(KEY_KILLER), Just(0), -HIST_MAX..HIST_MAX,
                             KEY_CAPTURE..KEY_CAPTURE + (1 << 26)],
                 prop_oneof![Just(0u16), Just(u16::MAX), any::<u16>()]),
                0..40,
            ),
        ) {
            let mut order: Vec<u64> =
                keys.iter().enumerate().map(|(i, &(k, g))| order_key(k, i, g)).collect();
            for n in 0..order.len() {
                next_in_order(&mut order, n);
            }
            let got: Vec<usize> = order.iter().map(|&k| key_index(k)).collect();
            let mut want: Vec<usize> = (0..keys.len()).collect();
            want.sort_by_key(|&i| std::cmp::Reverse(keys[i].0));
            prop_assert_eq!(got, want);
            for &k in &order {
                prop_assert_eq!(key_gain(k), keys[key_index(k)].1);
            }
        }
    }

    #[test]
    fn table_scores_count_wins_from_the_stored_node() {
        // A win 3 plies below a node at ply 5 is stored as "win in 3"...
        let at_root = MATE - 8;
        let stored = to_tt(at_root, 5);
        assert_eq!(stored, MATE - 3);
        // ...and read back at ply 2 it is a win in 5 from the root.
        assert_eq!(from_tt(stored, 2), MATE - 5);
        assert_eq!(from_tt(to_tt(-(MATE - 9), 4), 4), -(MATE - 9));
        assert_eq!(to_tt(123, 7), 123);
    }

    #[test]
    fn helpers_skip_alternate_depths() {
        assert!((1..20).all(|d| !skip_depth(0, d)));
        let helper: Vec<bool> = (1..7).map(|d| skip_depth(1, d)).collect();
        assert_eq!(helper, [true, false, true, false, true, false]);
    }
}
