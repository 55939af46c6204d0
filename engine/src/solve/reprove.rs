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

/// Fresh df-pn proofs below the positions a check asks for (module doc).
#[derive(Default)]
pub struct Reprover {
    searches: RefCell<Vec<Pns>>,
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
    /// plies are left), within `most` nodes, keeping the search for
    /// `order`; the nodes searched.
    pub fn prepare(&self, pos: &Position, winner: Side, plies: u32, most: u64) -> u64 {
        if plies <= SHALLOW {
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
                    break;
                }
                // No win to follow: the check finds that out itself.
                Outcome::Disproven => break,
                Outcome::Unknown => {}
            }
        }
        self.nodes.set(self.nodes.get() + spent);
        spent
    }

    /// Fresh searches that proved their position, and the nodes of all.
    pub fn searched(&self) -> (u64, u64) {
        (self.proofs.get(), self.nodes.get())
    }
}
