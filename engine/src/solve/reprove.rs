//! Fresh proofs for a plain check whose proof order was lost.
//!
//! A long df-pn run fills its table, and the table keeps the proofs whose
//! subtrees cost the most: the small proofs near the ends are overwritten.
//! A check that follows the proof (`check::Checker::with_order`) then finds
//! no order below a point and tries the winner's moves blind, each to its
//! full depth: Didinga 4x12 sequential, a 931 M-node proof, took its check
//! past 500 M nodes that way. A `Reprover` gives the check an order again:
//! where the winner moves and nothing is known of his moves, it runs a
//! fresh df-pn from that position (a small table, a budget), and keeps the
//! last few such searches to order the moves below. The check still shows
//! every move it accepts down to the ends; an order, right or wrong,
//! changes only how many nodes that takes.

use super::pns::{Outcome, Pns};
use crate::board::Position;
use crate::types::Side;
use fxhash::FxHashSet;
use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicBool;

/// The fresh searches kept for ordering (the newest first).
const KEPT: usize = 4;

/// The tries of one fresh proof: nodes and table (MiB), the next only when
/// the one before neither proved nor disproved it.
const TRIES: [(u64, usize); 2] = [(1 << 20, 32), (1 << 23, 256)];

/// Positions with at most this many plies left are not reproved: a check
/// finds their win faster than a search.
const SHALLOW: u32 = 6;

/// The most positions remembered as searched without a proof (then
/// forgotten all at once).
const FAILED_MAX: usize = 1 << 20;

/// Fresh df-pn proofs below the positions a check asks for (module doc).
#[derive(Default)]
pub struct Reprover {
    searches: RefCell<Vec<Pns>>,
    /// Positions and winners searched without a proof: not searched again
    /// when the check comes back to them with other plies.
    failed: RefCell<FxHashSet<(u64, u8)>>,
    proofs: Cell<u64>,
    nodes: Cell<u64>,
}

impl Reprover {
    /// A reprover that has searched nothing.
    pub fn new() -> Reprover {
        Reprover::default()
    }

    /// The depth of a proof that `winner` wins `pos` in one of the kept
    /// searches, `u32::MAX` when none knows one (an order key).
    pub fn order(&self, pos: &Position, winner: Side) -> u32 {
        self.searches
            .borrow()
            .iter()
            .filter(|s| s.attacker() == winner)
            .find_map(|s| match s.known(pos) {
                Outcome::Proven(d) => Some(d),
                _ => None,
            })
            .unwrap_or(u32::MAX)
    }

    /// Search `pos` afresh for a win of `winner` (when more than `SHALLOW`
    /// plies are left, and no search of it failed before), within `most`
    /// nodes, keeping the search for `order`; the nodes searched.
    pub fn prepare(&self, pos: &Position, winner: Side, plies: u32, most: u64) -> u64 {
        let key = (pos.hash(), winner.index() as u8);
        if plies <= SHALLOW || self.failed.borrow().contains(&key) {
            return 0;
        }
        let stop = AtomicBool::new(false);
        let mut spent = 0;
        for (nodes, mb) in TRIES {
            let nodes = nodes.min(most.saturating_sub(spent));
            if nodes == 0 {
                break;
            }
            let Ok(mut s) = Pns::new(winner, mb) else {
                break;
            };
            // On a thread of its own: the search recurses once per ply, and
            // the check may run on a small stack.
            let outcome = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(super::STACK)
                    .spawn_scoped(scope, || s.prove(pos, nodes, &stop))
                    .ok()
                    .and_then(|h| h.join().ok())
            });
            let Some(outcome) = outcome else {
                break;
            };
            spent += s.nodes();
            match outcome {
                Outcome::Proven(_) => {
                    let mut kept = self.searches.borrow_mut();
                    kept.insert(0, s);
                    kept.truncate(KEPT);
                    self.proofs.set(self.proofs.get() + 1);
                    self.nodes.set(self.nodes.get() + spent);
                    return spent;
                }
                // No win to follow: the check finds that out itself.
                Outcome::Disproven => break,
                Outcome::Unknown => {}
            }
        }
        let mut failed = self.failed.borrow_mut();
        if failed.len() >= FAILED_MAX {
            failed.clear();
        }
        failed.insert(key);
        self.nodes.set(self.nodes.get() + spent);
        spent
    }

    /// Fresh searches that proved their position, and the nodes of all.
    pub fn searched(&self) -> (u64, u64) {
        (self.proofs.get(), self.nodes.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that finds no win is not run again for the same position
    /// and winner, whatever the plies; one that proves is kept and orders.
    #[test]
    fn a_failed_search_is_not_repeated_and_a_proof_orders() {
        // A wins in this Lango leaf (engine/tests/solve.rs).
        let pos: Position =
            "lango:8 3,0,2,2,0,2,2,1/4,3,3,4,0,3,4,1/1,3,3,1,4,3,0,4/0,2,2,0,2,2,0,3 a m 22"
                .parse()
                .unwrap();
        let r = Reprover::new();
        assert!(r.prepare(&pos, Side::B, 40, u64::MAX) > 0);
        assert_eq!(r.prepare(&pos, Side::B, 41, u64::MAX), 0);
        assert_eq!(r.searched().0, 0);
        assert_eq!(r.prepare(&pos, Side::A, 5, u64::MAX), 0, "shallow");
        assert!(r.prepare(&pos, Side::A, 40, u64::MAX) > 0);
        assert_eq!(r.searched().0, 1);
        assert_ne!(r.order(&pos, Side::A), u32::MAX);
        assert_eq!(r.order(&pos, Side::B), u32::MAX);
    }
}
