//! The proving search: iterative deepening over the number of plies, each
//! iteration a three-valued alpha-beta (win within `r` plies, loss within
//! `r`, neither) on the table of facts, run by every thread at once on one
//! shared table (Lazy SMP).
//!
//! The search to `r` plies computes a pure function of the position: the
//! value of the game cut off after `r` plies, where a cut-off line counts
//! as neither side's win. It reads no history and no evaluation (the
//! evaluation only orders moves), so every result is a fact about the
//! position and may be stored and reused anywhere (see `table`). The first
//! iteration whose root value is a win or a loss gives the distance to the
//! end exactly: the previous one proved that neither side wins sooner.

use super::store::Saved;
use super::table::{FactTable, Facts, Known};
use crate::board::Position;
use crate::eval::{Eval, Evaluator};
use crate::gametree::{children, no_move_cheap, terminal_value, Child, DRAW};
use crate::types::moves::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Nodes between two looks at the stop flag and the node limit.
const POLL: u64 = 1024;
/// The same when the solve runs on its caller's thread and watches its own
/// stop and time (as the searchers' clocks do, every 64 nodes).
const SELF_POLL: u64 = 64;
/// Facts of subtrees that cost at least 2^this many nodes are written to
/// the save file (when there is one).
pub(crate) const SAVE_WORK: u32 = 14;
/// The save file is consulted only this many plies or more from the leaves.
const SAVED_MIN_PLIES: u32 = 3;

/// What the threads of one solve share.
pub struct Shared<'a> {
    pub table: &'a FactTable,
    pub saved: Option<&'a Saved>,
    /// Set by the caller (stop, time) or by a thread (proven, node limit).
    pub stop: &'a AtomicBool,
    pub node_limit: u64,
    pub nodes: AtomicU64,
    pub proven: AtomicU64,
    /// The deepest iteration finished by any thread, with the root's
    /// result: `(plies, value, exact)`.
    pub done: Mutex<Option<(u32, i8, bool)>>,
    /// Looked at by the threads themselves when no watcher runs beside them
    /// (see [`watching`](Self::watching)): the caller's stop, and the end
    /// of the time.
    outer: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    poll: u64,
}

impl<'a> Shared<'a> {
    pub fn new(
        table: &'a FactTable,
        saved: Option<&'a Saved>,
        stop: &'a AtomicBool,
        node_limit: u64,
    ) -> Shared<'a> {
        Shared {
            table,
            saved,
            stop,
            node_limit,
            nodes: AtomicU64::new(0),
            proven: AtomicU64::new(0),
            done: Mutex::new(None),
            outer: None,
            deadline: None,
            poll: POLL,
        }
    }

    /// The threads watch the caller's `outer` stop and the `deadline`
    /// themselves, every 64 nodes, and set `stop` at either: for a solve
    /// that runs on its caller's thread, with no watcher.
    pub fn watching(mut self, outer: &'a AtomicBool, deadline: Option<Instant>) -> Shared<'a> {
        self.outer = Some(outer);
        self.deadline = deadline;
        self.poll = SELF_POLL;
        self
    }

    /// The deepest finished iteration.
    pub fn finished(&self) -> Option<(u32, i8, bool)> {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One solver thread.
pub struct Worker<'s, 'a> {
    sh: &'s Shared<'a>,
    /// 0 for the main thread; the others vary their move order with it.
    id: u64,
    eval: Eval,
    bufs: Vec<Vec<Child>>,
    hashes: Vec<u64>,
    orders: Vec<Vec<(i32, u32)>>,
    local_nodes: u64,
    /// Every node this thread visited (the cost of its subtrees).
    count: u64,
    aborted: bool,
}

/// The value at a position with no legal move: a loss for the side to
/// move, or a draw (Adjiboto's store, a drawn race).
fn terminal(pos: &Position) -> i8 {
    if terminal_value(pos, 0) == DRAW {
        0
    } else {
        -1
    }
}

/// `child`'s value as seen from `parent`'s side to move.
#[inline]
fn seen(parent: &Position, child: &Position, v: i8) -> i8 {
    if parent.side_to_move() == child.side_to_move() {
        v
    } else {
        -v
    }
}

impl<'s, 'a> Worker<'s, 'a> {
    pub fn new(sh: &'s Shared<'a>, id: u64) -> Worker<'s, 'a> {
        Worker {
            sh,
            id,
            eval: Eval::default(),
            bufs: Vec::new(),
            hashes: Vec::new(),
            orders: Vec::new(),
            local_nodes: 0,
            count: 0,
            aborted: false,
        }
    }

    fn count_node(&mut self) {
        self.local_nodes += 1;
        self.count += 1;
        if self.local_nodes >= self.sh.poll {
            let n = self.sh.nodes.fetch_add(self.local_nodes, Relaxed) + self.local_nodes;
            self.local_nodes = 0;
            if n >= self.sh.node_limit
                || self.sh.outer.is_some_and(|o| o.load(Relaxed))
                || self.sh.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.sh.stop.store(true, Relaxed);
            }
            if self.sh.stop.load(Relaxed) {
                self.aborted = true;
            }
        }
    }

    /// Add the nodes counted since the last poll to the shared count.
    pub fn flush(&mut self) {
        self.sh.nodes.fetch_add(self.local_nodes, Relaxed);
        self.local_nodes = 0;
    }

    fn facts(&self, pos: &Position, r: u32) -> Option<Facts> {
        let f = self.sh.table.probe(pos.hash());
        if r >= SAVED_MIN_PLIES {
            if let Some(s) = self.sh.saved.and_then(|s| s.get(pos)) {
                return Some(f.map_or(s, |f| f.merge(&s)));
            }
        }
        f
    }

    /// Run the iterations `from..=to` on `root`, publishing each finished
    /// one, until the root is decided, the limit, or a stop.
    pub(crate) fn iterate(&mut self, root: &Position, from: u32, to: u32) {
        for r in from..=to {
            if let Some((d, v, ex)) = self.sh.finished() {
                if v != 0 || ex {
                    break;
                }
                if d >= r {
                    continue;
                }
            }
            let (v, exact) = self.search(root, r, -1, 1, 0);
            self.flush();
            if self.aborted {
                return;
            }
            let mut done = self.sh.done.lock().unwrap_or_else(|e| e.into_inner());
            if done.is_none_or(|(d, _, _)| d < r) {
                *done = Some((r, v, exact));
            }
            drop(done);
            if v != 0 || exact {
                self.sh.stop.store(true, Relaxed);
                return;
            }
        }
    }

    /// The value of `pos` within `r` plies in the window `(alpha, beta)`
    /// (values -1, 0, 1; fail-soft), and whether it is the value at every
    /// depth. Meaningless once `aborted` is set.
    pub fn search(
        &mut self,
        pos: &Position,
        r: u32,
        mut alpha: i8,
        mut beta: i8,
        ply: usize,
    ) -> (i8, bool) {
        self.count_node();
        if self.aborted {
            return (0, false);
        }
        let mut hint = 0;
        if let Some(f) = self.facts(pos, r) {
            match f.at(r) {
                Known::Value { v, exact } => return (v, exact),
                Known::Bounds { lo, hi } => {
                    if lo >= beta {
                        return (lo, false);
                    }
                    if hi <= alpha {
                        return (hi, false);
                    }
                    alpha = alpha.max(lo);
                    beta = beta.min(hi);
                }
            }
            hint = f.best;
        }
        if r == 0 {
            return if no_move_cheap(pos) || !pos.has_legal_move() {
                (terminal(pos), true)
            } else {
                (0, false)
            };
        }
        let nodes_before = self.count;
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, Vec::new);
            self.orders.resize_with(ply + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        children(pos, &mut buf, &mut self.hashes);
        if buf.is_empty() {
            self.bufs[ply] = buf;
            return (terminal(pos), true);
        }
        // Order: the stored best child, then children the table already
        // calls good for the mover, then by the evaluation. Helper threads
        // shuffle near-equal children so that they search other lines first.
        let mut order = std::mem::take(&mut self.orders[ply]);
        order.clear();
        for (i, c) in buf.iter().enumerate() {
            // Within three plies of the horizon only an end can decide:
            // the child that leaves its mover least (an end is a side with
            // no move) first, by a count instead of the whole evaluation,
            // which cost half the solver's time there and ordered little
            // better (BENCHMARKS.md, "Solver").
            let mut key = if r > 3 {
                self.eval.evaluate(&c.pos)
            } else {
                let me = c.pos.side_to_move();
                c.pos.material(me) as i32 - c.pos.material(me.other()) as i32
            };
            if c.pos.side_to_move() != pos.side_to_move() {
                key = -key;
            }
            if let Some(f) = self.sh.table.probe(c.pos.hash()) {
                match f.at(r - 1) {
                    Known::Value { v, exact } => {
                        let v = seen(pos, &c.pos, v);
                        if v == 1 {
                            // A known win: no need to look further.
                            self.bufs[ply] = buf;
                            self.orders[ply] = order;
                            let f = Facts {
                                best: i as u32 + 1,
                                ..Facts::from_result(r, 1, alpha, beta, true)
                            };
                            self.record(pos, &f, nodes_before);
                            return (1, true);
                        }
                        key += 1_000_000 * v as i32 + exact as i32;
                    }
                    Known::Bounds { lo, hi } => {
                        let (lo, hi) = if pos.side_to_move() == c.pos.side_to_move() {
                            (lo, hi)
                        } else {
                            (-hi, -lo)
                        };
                        key += 500_000 * (lo + hi) as i32;
                    }
                }
            }
            if i as u32 + 1 == hint {
                key = i32::MAX;
            } else if self.id != 0 {
                let noise = (c.pos.hash() ^ self.id.wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 58;
                key += noise as i32 * 8;
            }
            order.push((key, i as u32));
        }
        order.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -2i8;
        let mut best_i = 0;
        let mut all_exact = true;
        let mut cut = false;
        for (rank, &(_, i)) in order.iter().enumerate() {
            let c = buf[i as usize].pos;
            let (v, ex) = if c.side_to_move() == pos.side_to_move() {
                self.search(&c, r - 1, alpha, beta, ply + 1)
            } else {
                let (v, ex) = self.search(&c, r - 1, -beta, -alpha, ply + 1);
                (-v, ex)
            };
            if self.aborted {
                self.bufs[ply] = buf;
                self.orders[ply] = order;
                return (0, false);
            }
            all_exact &= ex;
            if v > best {
                best = v;
                best_i = i + 1;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                cut = rank + 1 < order.len();
                break;
            }
        }
        self.bufs[ply] = buf;
        self.orders[ply] = order;
        let exact = best != 0 || (all_exact && !cut);
        let f = Facts {
            best: best_i,
            ..Facts::from_result(r, best, alpha0, beta0, exact)
        };
        self.record(pos, &f, nodes_before);
        (best, exact)
    }

    /// Store what a node proved, and write it to the save file when its
    /// subtree was costly.
    fn record(&mut self, pos: &Position, f: &Facts, nodes_before: u64) {
        let spent = self.count - nodes_before;
        let f = Facts {
            work: 64 - spent.max(1).leading_zeros() - 1,
            ..*f
        };
        if self.sh.table.store(pos.hash(), &f) {
            self.sh.proven.fetch_add(1, Relaxed);
        }
        if f.work >= SAVE_WORK {
            if let Some(s) = self.sh.saved {
                s.write(pos, &f);
            }
        }
    }

    /// A line of best play from `root`, whose value within `d` plies is the
    /// decided `v` (1 or -1): the winner takes a move that keeps the win
    /// at the shortest distance, the loser one that loses at the longest.
    pub(crate) fn best_line(&mut self, root: &Position, v: i8, d: u32) -> Vec<Move> {
        let mut line = Vec::new();
        let (mut pos, mut v, mut d) = (*root, v, d);
        let mut buf = Vec::new();
        let mut hashes = Vec::new();
        while d > 0 && !self.aborted {
            children(&pos, &mut buf, &mut hashes);
            let mut next = None;
            for c in &buf {
                let within = |w: &mut Self, r: u32| {
                    let (cv, _) = w.search(&c.pos, r, -1, 1, 1);
                    seen(&pos, &c.pos, cv)
                };
                let keeps = if v == 1 {
                    within(self, d - 1) == 1
                } else {
                    d == 1 || within(self, d - 2) != -1
                };
                if keeps {
                    next = Some(*c);
                    break;
                }
            }
            // A search cut short by a stop says nothing: keep the line so far.
            if self.aborted {
                break;
            }
            let Some(c) = next else { break };
            line.push(c.mv);
            v = seen(&pos, &c.pos, v);
            pos = c.pos;
            d -= 1;
        }
        self.flush();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// Plain depth-limited negamax over the same three values.
    fn plain(pos: &Position, r: u32) -> i8 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return terminal(pos);
        }
        if r == 0 {
            return 0;
        }
        moves
            .iter()
            .map(|(_, c)| seen(pos, c, plain(c, r - 1)))
            .max()
            .unwrap_or(-1)
    }

    #[test]
    fn search_equals_plain_negamax_at_each_depth() {
        let table = FactTable::try_new(1).unwrap();
        let stop = AtomicBool::new(false);
        let sh = Shared::new(&table, None, &stop, u64::MAX);
        let mut w = Worker::new(&sh, 0);
        let pos: Position =
            "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m"
                .parse()
                .unwrap();
        for r in 0..7 {
            assert_eq!(w.search(&pos, r, -1, 1, 0).0, plain(&pos, r), "r={r}");
        }
        let start = Position::startpos(Variant::Lango, 8).unwrap();
        assert_eq!(w.search(&start, 2, -1, 1, 0).0, plain(&start, 2));
    }
}
