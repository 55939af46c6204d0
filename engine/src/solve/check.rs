//! A plain check of a claimed value, independent of the proving search: it
//! shares nothing with `search` or `table` but the rules (`legal_moves`,
//! the end-of-game rule), and memoizes only exact answers of one question:
//! whether a player forces a win within a number of plies. That answer is
//! monotone in the plies (a win within `k` is a win within `k + 1`), so the
//! memo keeps, per position and winner, the fewest plies known to be enough
//! and the most known not to be. The winner's moves are tried in the
//! proof's order when one is given, then those that leave the loser the
//! fewest legal replies first (an end he has lost before all).
//!
//! A win in `n` for the side to move is checked as two facts: the winner
//! forces an end within `n` plies, and not within `n - 1`. A loss in `n`
//! likewise for the other side. A draw is checked by retrograde analysis
//! when the reachable graph is small enough, else refused as unchecked.

use super::retro::Graph;
use super::Value;
use crate::board::Position;
use crate::gametree::{terminal_value, DRAW};
use crate::types::Side;
use std::sync::atomic::AtomicBool;

/// A key per child position and winner: the order in which a check tries
/// the winner's moves (lowest first).
pub(crate) type MoveOrder<'a> = &'a dyn Fn(&Position, Side) -> u32;

/// Called where the winner is to move with `plies` left and the order
/// knows none of his moves: a chance to learn an order for the moves of
/// `pos` (a fresh proof below it: `reprove::Reprover`), within the nodes
/// left of the check's budget (the last argument). Returns the nodes it
/// searched, which count against that budget.
pub(crate) type Prepare<'a> = &'a dyn Fn(&Position, Side, u32, u64) -> u64;

/// The memo's size when `with_memory` does not set it (bytes).
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// Whether `winner` forces the other player to an end he loses within
/// `plies` plies, by plain exhaustive recursion over every legal move.
pub struct Checker<'a> {
    memo: Memo,
    nodes: u64,
    budget: u64,
    /// The order in which the winner's moves are tried (lowest key first).
    order: Option<MoveOrder<'a>>,
    prepare: Option<Prepare<'a>>,
}

/// The checker's memo: 4-way buckets of two words, the key (the position's
/// hash, mixed with the winner) and `enough` (32 bits), `short` (24 bits,
/// a larger one kept as the most: a smaller `short` claims less) and the
/// log2 of the nodes its subtree cost plus one (8 bits, 0: an empty slot).
/// It doubles while it is three quarters full and within its bytes; at its
/// bytes, a new fact replaces the one of its bucket that cost the least.
struct Memo {
    slots: Vec<[u64; 2]>,
    used: usize,
    max_slots: usize,
}

const WAYS: usize = 4;
const SHORT_MAX: u32 = (1 << 24) - 1;

impl Memo {
    fn new(bytes: usize) -> Memo {
        let max_slots = (bytes / 16 / WAYS).max(1) * WAYS;
        let n = (1usize << 12).min(max_slots);
        Memo {
            slots: vec![[0; 2]; n],
            used: 0,
            max_slots,
        }
    }

    fn key(pos: &Position, winner: Side) -> u64 {
        pos.hash() ^ (winner.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn bucket(&self, key: u64) -> usize {
        let n = self.slots.len() / WAYS;
        ((key as u128 * n as u128) >> 64) as usize * WAYS
    }

    fn get(&self, key: u64) -> Known {
        let b = self.bucket(key);
        self.slots[b..b + WAYS]
            .iter()
            .find(|s| s[0] == key && s[1] >> 56 != 0)
            .map_or(Known::NONE, |s| Known {
                enough: s[1] as u32,
                short: (s[1] >> 32) as u32 & SHORT_MAX,
            })
    }

    /// Keep `k` for `key`, whose subtree cost `nodes` nodes.
    fn put(&mut self, key: u64, k: Known, nodes: u64) {
        if self.used * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let work = (65 - nodes.leading_zeros()).min(255) as u64;
        let b = self.bucket(key);
        let mut victim = b;
        let mut least = u64::MAX;
        for i in b..b + WAYS {
            let w = self.slots[i][1] >> 56;
            if w != 0 && self.slots[i][0] == key {
                victim = i;
                break;
            }
            if w < least {
                least = w;
                victim = i;
            }
        }
        let old = self.slots[victim];
        let old_work = old[1] >> 56;
        let work = if old_work == 0 {
            self.used += 1;
            work
        } else if old[0] == key {
            work.max(old_work)
        } else {
            work
        };
        self.slots[victim] = [
            key,
            k.enough as u64 | (k.short.min(SHORT_MAX) as u64) << 32 | work << 56,
        ];
    }

    /// Twice the slots (within `max_slots`), every fact kept that fits.
    fn grow(&mut self) {
        let n = (self.slots.len() * 2).min(self.max_slots);
        let old = std::mem::replace(&mut self.slots, vec![[0; 2]; n]);
        self.used = 0;
        for s in old {
            if s[1] >> 56 == 0 {
                continue;
            }
            let b = self.bucket(s[0]);
            if let Some(i) = (b..b + WAYS).find(|&i| self.slots[i][1] >> 56 == 0) {
                self.slots[i] = s;
                self.used += 1;
            }
        }
    }
}

/// What a check knows of one position and winner.
#[derive(Clone, Copy)]
struct Known {
    /// The fewest plies within which the winner is known to force a win
    /// (`u32::MAX`: none known).
    enough: u32,
    /// One more than the most plies within which he is known not to
    /// (0: none known).
    short: u32,
}

impl Known {
    const NONE: Known = Known {
        enough: u32::MAX,
        short: 0,
    };
}

/// Why a check did not confirm a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The value is wrong: what the check found instead.
    Wrong(String),
    /// The check ran out of its node budget.
    Budget,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Wrong(s) => write!(f, "wrong value: {s}"),
            CheckError::Budget => write!(f, "not checked: node budget exhausted"),
        }
    }
}

impl<'a> Checker<'a> {
    /// A checker that gives up after `budget` nodes, its memo at most
    /// `DEFAULT_MEMORY` bytes.
    pub fn new(budget: u64) -> Checker<'a> {
        Checker {
            memo: Memo::new(DEFAULT_MEMORY),
            nodes: 0,
            budget,
            order: None,
            prepare: None,
        }
    }

    /// Keep the memo within `bytes` (64 at least; the facts it keeps are
    /// emptied). It grows to that size only as the check needs it.
    pub fn with_memory(mut self, bytes: usize) -> Checker<'a> {
        self.memo = Memo::new(bytes);
        self
    }

    /// Where the winner moves and the order knows none of his moves, call
    /// `prepare` first (at each such visit; its nodes count).
    pub fn with_prepare(mut self, prepare: Prepare<'a>) -> Checker<'a> {
        self.prepare = Some(prepare);
        self
    }

    /// Try the winner's moves in the order of `key(child, winner)`, lowest
    /// first (a solver's proof: `Solver::proof_order`). The order changes
    /// how fast a check is, never its answer: a move is accepted only when
    /// the recursion below it shows the win, down to the ends.
    pub fn with_order(mut self, key: MoveOrder<'a>) -> Checker<'a> {
        self.order = Some(key);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether `winner` forces an end he wins within `plies` plies of `pos`.
    pub fn forces(&mut self, pos: &Position, winner: Side, plies: u32) -> Result<bool, CheckError> {
        let key = Memo::key(pos, winner);
        let known = self.memo.get(key);
        if plies >= known.enough {
            return Ok(true);
        }
        if plies < known.short {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(CheckError::Budget);
        }
        let start = self.nodes;
        let mut moves = pos.legal_moves();
        if pos.side_to_move() == winner && moves.len() > 1 {
            // Most promising first: the proof's order, then the replies
            // the loser is left with (fewest first). Only the speed of the
            // check depends on it. The replies are counted as legal moves,
            // not as holes with counters: an end where the loser has none
            // comes first, although a proof never stores it (df-pn settles
            // such a child without visiting it), and holes whose sowings
            // never end count for nothing. Counting holes sent a check of a
            // win in 1 down the wrong move with all its plies left: a
            // 133,489-node df-pn proof took the check past 150 M nodes.
            let order = self.order;
            let keys = |moves: &[(_, Position)]| -> Vec<(u32, usize)> {
                moves
                    .iter()
                    .map(|(_, c)| {
                        let known = order.map_or(u32::MAX, |key| key(c, winner));
                        if c.side_to_move() == winner {
                            return (known, 0);
                        }
                        let replies = c.legal_moves().len();
                        if replies == 0 && terminal_value(c, 0) != DRAW {
                            // The loser has lost: a win in 1, first.
                            return (0, 0);
                        }
                        (known, replies)
                    })
                    .collect()
            };
            let mut k = keys(&moves);
            if let Some(prepare) = self.prepare {
                if k.iter().all(|&(o, _)| o == u32::MAX) {
                    // Nothing known of his moves: learn an order, then key
                    // them again.
                    self.nodes += prepare(pos, winner, plies, self.budget - self.nodes);
                    if self.nodes > self.budget {
                        return Err(CheckError::Budget);
                    }
                    k = keys(&moves);
                }
            }
            let mut paired: Vec<_> = k.into_iter().zip(moves).collect();
            paired.sort_by_key(|(k, _)| *k);
            moves = paired.into_iter().map(|(_, m)| m).collect();
        }
        let b = if moves.is_empty() {
            terminal_value(pos, 0) != DRAW && pos.side_to_move() != winner
        } else if plies == 0 {
            false
        } else if pos.side_to_move() == winner {
            let mut any = false;
            for (_, c) in &moves {
                if self.forces(c, winner, plies - 1)? {
                    any = true;
                    break;
                }
            }
            any
        } else {
            let mut all = true;
            for (_, c) in &moves {
                if !self.forces(c, winner, plies - 1)? {
                    all = false;
                    break;
                }
            }
            all
        };
        // Read again: the recursion may have learnt or forgotten it.
        let mut k = self.memo.get(key);
        if b {
            k.enough = k.enough.min(plies);
        } else {
            k.short = k.short.max(plies + 1);
        }
        self.memo.put(key, k, self.nodes - start + 1);
        Ok(b)
    }

    /// Confirm that `value` (for the side to move) is the value of `pos`.
    /// Draws need the retrograde analysis to fit in `max_states` positions.
    pub fn check(
        &mut self,
        pos: &Position,
        value: Value,
        max_states: usize,
    ) -> Result<(), CheckError> {
        let me = pos.side_to_move();
        let (winner, n) = match value {
            Value::Win(n) => (me, n),
            Value::Loss(n) => (me.other(), n),
            Value::Draw => {
                let g = Graph::analyse(pos, max_states, &AtomicBool::new(false))
                    .map_err(|_| CheckError::Budget)?;
                return match g.root_value() {
                    Value::Draw => Ok(()),
                    v => Err(CheckError::Wrong(format!("{v}, not a draw"))),
                };
            }
        };
        if !self.forces(pos, winner, n)? {
            return Err(CheckError::Wrong(format!(
                "{winner} does not force a win within {n} plies"
            )));
        }
        if n > 0 && self.forces(pos, winner, n - 1)? {
            return Err(CheckError::Wrong(format!(
                "{winner} forces a win within {} plies",
                n - 1
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo grows to its bytes and no further, and what it answers is
    /// what was put for that key (or nothing, once forgotten).
    #[test]
    fn the_memo_stays_within_its_bytes_and_forgets_only() {
        let mut m = Memo::new(1 << 10);
        let mut g = crate::rng::Rng::new(3);
        let facts: Vec<(u64, Known)> = (0..10_000)
            .map(|i| {
                let k = Known {
                    enough: if i % 3 == 0 { u32::MAX } else { i % 100 },
                    short: i % 50,
                };
                (g.next_u64(), k)
            })
            .collect();
        for (i, &(key, k)) in facts.iter().enumerate() {
            m.put(key, k, i as u64);
            assert!(m.slots.len() * 16 <= 1 << 10);
        }
        assert_eq!(m.slots.len(), 64);
        let mut kept = 0;
        for &(key, k) in &facts {
            let got = m.get(key);
            if got.enough != u32::MAX || got.short != 0 {
                assert_eq!((got.enough, got.short), (k.enough, k.short));
                kept += 1;
            }
        }
        assert!(kept > 32, "{kept}");
    }
}
