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
use fxhash::FxHashMap;
use std::sync::atomic::AtomicBool;

/// A key per child position and winner: the order in which a check tries
/// the winner's moves (lowest first).
pub(crate) type MoveOrder<'a> = &'a dyn Fn(&Position, Side) -> u32;

/// Whether `winner` forces the other player to an end he loses within
/// `plies` plies, by plain exhaustive recursion over every legal move.
pub struct Checker<'a> {
    memo: FxHashMap<(u64, u8), Known>,
    nodes: u64,
    budget: u64,
    /// The order in which the winner's moves are tried (lowest key first).
    order: Option<MoveOrder<'a>>,
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
    /// A checker that gives up after `budget` nodes.
    pub fn new(budget: u64) -> Checker<'a> {
        Checker {
            memo: FxHashMap::default(),
            nodes: 0,
            budget,
            order: None,
        }
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
        let key = (pos.hash(), winner.index() as u8);
        let known = self.memo.get(&key).copied().unwrap_or(Known {
            enough: u32::MAX,
            short: 0,
        });
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
            moves.sort_by_cached_key(|(_, c)| {
                if c.side_to_move() == winner {
                    return (order.map_or(u32::MAX, |key| key(c, winner)), 0);
                }
                let replies = c.legal_moves().len();
                if replies == 0 && terminal_value(c, 0) != DRAW {
                    // The loser has lost: a win in 1, first.
                    return (0, 0);
                }
                (order.map_or(u32::MAX, |key| key(c, winner)), replies)
            });
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
        let k = self.memo.entry(key).or_insert(Known {
            enough: u32::MAX,
            short: 0,
        });
        if b {
            k.enough = k.enough.min(plies);
        } else {
            k.short = k.short.max(plies + 1);
        }
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
