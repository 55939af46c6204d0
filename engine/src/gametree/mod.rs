//! The game tree that every searcher and the solver walk: a position's
//! children (paths to the same position merged, RULINGS 7), the value of a
//! position without a move, and the score scale those values are on
//! (RULINGS 9 and 10). It sits below `search` and `solve`, which both use it.

mod slot;

use crate::board::Position;
use crate::rules::{adjiboto, MoveInfo, LAP_BUDGET};
use crate::types::geometry::{facing, front_mask};
use crate::types::moves::Move;
use crate::types::{Phase, Variant};

/// Deepest ply any search reaches from its root.
pub(crate) const MAX_PLY: usize = 128;
/// Beyond every score.
pub const INF: i32 = 32_000;
/// A win at the root itself; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Evaluations are clamped to this, well clear of the win/loss range; MCTS
/// reports a proof whose distance is not exact as this score.
pub const EVAL_MAX: i32 = 20_000;
/// A draw's score.
pub(crate) const DRAW: i32 = 0;

/// True only when the side to move certainly has no legal move, decided
/// without generating: no hole with 2 or more, and no Lango start capture (an
/// occupied front hole facing an occupied front hole). A side whose every
/// path is never-ending is found out only when its moves are generated.
#[inline]
pub fn no_move_cheap(pos: &Position) -> bool {
    if pos.phase().is_simultaneous() {
        // A racer's decision needs no hole of his own; a drawn race has no move.
        return pos.phase() == Phase::RaceOver;
    }
    let s = pos.side_to_move();
    if pos.movable_mask(s) != 0 {
        return false;
    }
    if pos.variant() != Variant::Lango || pos.phase() != Phase::Main {
        return true;
    }
    let w = pos.width();
    let mut front = pos.occupied_mask(s) & front_mask(w);
    while front != 0 {
        let p = front.trailing_zeros() as u8;
        front &= front - 1;
        if pos.loop_count(s.other(), facing(p, w).0) > 0 {
            return false;
        }
    }
    true
}

/// Score of a position whose side to move has no legal move, `ply` plies
/// from the root: a loss, or a draw (Adjiboto with 50 in the store, a drawn race).
#[inline]
pub fn terminal_value(pos: &Position, ply: usize) -> i32 {
    if pos.phase() == Phase::RaceOver
        || !pos.variant().is_choro() && pos.stores()[pos.side_to_move().index()] >= 50
    {
        DRAW
    } else {
        -(MATE - ply as i32)
    }
}

/// A legal move and the position it leads to.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Child {
    /// The move (the first path in generation order to the child).
    pub(crate) mv: Move,
    /// The position it leads to.
    pub(crate) pos: Position,
}

/// Every legal move of `pos` into `buf` (cleared first), in generation
/// order, keeping only the first of several paths that end in the same
/// position (RULINGS 7 lets search merge them). `hashes` is scratch space.
/// Neither vector allocates once it has grown to the largest node's size.
pub(crate) fn children(pos: &Position, buf: &mut Vec<Child>, hashes: &mut Vec<u64>) {
    buf.clear();
    hashes.clear();
    if !pos.variant().is_choro() {
        // Adjiboto: at most five children, each made in its list slot.
        slot::adjiboto_children(pos, buf);
        return;
    }
    let mut seen = 0u64;
    pos.generate(LAP_BUDGET, |m, p, _| {
        push_new(buf, hashes, &mut seen, m, p);
        true
    });
}

/// Write to `out` the first child of `pos` in generation order whose
/// hash's low 32 bits are `want` (a table move), with its move; false, and
/// `out` left as the generation left it, where no child has them. The
/// generation stops at that child. Adjiboto's generator builds its children
/// in `out` itself (no child aside to copy out).
#[inline(always)]
pub(crate) fn table_child(pos: &Position, want: u32, out: &mut Child) -> bool {
    if !pos.variant().is_choro() {
        out.pos.set_from(pos);
        let mut seek = Seek {
            slot: out,
            want,
            found: false,
        };
        adjiboto::generate_into(pos, &mut seek);
        return seek.found;
    }
    let mut found = false;
    pos.generate(LAP_BUDGET, |m, p, _| {
        if p.hash() as u32 == want {
            out.mv = *m;
            out.pos.set_from(p);
            found = true;
            return false;
        }
        true
    });
    found
}

/// [`adjiboto::ChildOut`] for [`table_child`]: every move's child is built
/// in the one slot, over the last one (the generator rewrites all a move
/// changes), until one has the hash wanted; its move is then written.
struct Seek<'a> {
    slot: &'a mut Child,
    want: u32,
    found: bool,
}

impl adjiboto::ChildOut for Seek<'_> {
    const FRESH: bool = false;
    #[inline(always)]
    fn slot(&mut self) -> &mut Position {
        &mut self.slot.pos
    }

    #[inline(always)]
    fn made(&mut self, mv: &Move, _: MoveInfo) -> bool {
        if self.slot.pos.hash() as u32 != self.want {
            return true;
        }
        self.slot.mv = *mv;
        self.found = true;
        false
    }
}

/// Add the child `p` reached by `m` unless an equal child (same state) is
/// in `buf` already; `hashes` holds the hashes of `buf`'s children, and bit
/// `h >> 58` of `seen` is set for each of their hashes `h`, so that the
/// hashes are scanned only when that bit of `p`'s is set.
#[inline]
fn push_new(buf: &mut Vec<Child>, hashes: &mut Vec<u64>, seen: &mut u64, m: &Move, p: &Position) {
    let h = p.hash();
    let bit = 1u64 << (h >> 58);
    let dup = *seen & bit != 0
        && hashes
            .iter()
            .enumerate()
            .any(|(j, &k)| k == h && buf[j].pos.same_state(p));
    if !dup {
        *seen |= bit;
        hashes.push(h);
        slot::push_child(buf, m, p);
    }
}

/// The root's children for a search restricted to `searchmoves`: as
/// [`children`], but each merged child is named by the first path *in the
/// list* that reaches it, and only children some listed path reaches are
/// kept. Merging first and filtering after would drop a child whose first
/// path is not listed although a later one is, and name a kept child by a
/// path the caller did not allow. No listed path legal (or an empty list):
/// every child, as [`children`] gives them.
pub(crate) fn root_children(
    pos: &Position,
    searchmoves: &[Move],
    buf: &mut Vec<Child>,
    hashes: &mut Vec<u64>,
) {
    buf.clear();
    hashes.clear();
    if !searchmoves.is_empty() {
        let mut seen = 0u64;
        pos.generate(LAP_BUDGET, |m, p, _| {
            if !searchmoves.contains(m) {
                return true;
            }
            push_new(buf, hashes, &mut seen, m, p);
            true
        });
    }
    if buf.is_empty() {
        children(pos, buf, hashes);
    }
}

/// The first legal move of `parent` that leads to `child`'s state.
pub(crate) fn move_to(parent: &Position, child: &Position) -> Option<Move> {
    let mut found = None;
    parent.generate(LAP_BUDGET, |m, p, _| {
        if p.same_state(child) {
            found = Some(*m);
            return false;
        }
        true
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjiboto_children_in_their_slots_match_the_generator() {
        // The list built in place against the generator's children kept by
        // `push_new`, along random games, the same list reused throughout
        // so that stale slots from other parents would show.
        let mut rng = crate::rng::Rng::new(0xad1);
        let (mut buf, mut hs) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for _ in 0..200 {
            let mut p = Position::startpos(Variant::Adjiboto, 5).unwrap();
            for _ in 0..60 {
                children(&p, &mut buf, &mut hs);
                let (mut want, mut wh, mut seen) = (Vec::new(), Vec::new(), 0u64);
                p.generate(LAP_BUDGET, |m, q, _| {
                    push_new(&mut want, &mut wh, &mut seen, m, q);
                    true
                });
                assert_eq!(buf.len(), want.len(), "{p}");
                for (c, w) in buf.iter().zip(&want) {
                    assert_eq!((c.mv, c.pos), (w.mv, w.pos), "{p}");
                }
                checked += buf.len();
                if buf.is_empty() {
                    break;
                }
                p = buf[rng.below(buf.len())].pos;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn table_child_is_the_first_child_with_that_hash() {
        // Every child's low hash asked for (and one no child has), against
        // the first generated child with it, one slot reused throughout so
        // that a field left from another parent or an earlier move shows.
        let mut rng = crate::rng::Rng::new(0x7ab1e);
        let start = Position::startpos(Variant::Didinga, 8).unwrap();
        let mut slot = Child {
            mv: Move::empty(false),
            pos: start,
        };
        let mut checked = 0;
        let mut starts: Vec<Position> = (0..150)
            .map(|_| Position::startpos(Variant::Adjiboto, 5).unwrap())
            .collect();
        starts.push(Position::startpos(Variant::Didinga, 8).unwrap());
        starts.push(Position::startpos(Variant::Acholi, 8).unwrap());
        for mut p in starts {
            for _ in 0..60 {
                let all = p.legal_moves();
                if all.is_empty() {
                    break;
                }
                let mut wants: Vec<u32> = all.iter().map(|(_, q)| q.hash() as u32).collect();
                wants.push(
                    (0..)
                        .map(|k| 0x5eed + k)
                        .find(|w| !wants.contains(w))
                        .unwrap(),
                );
                for want in wants {
                    let first = all.iter().find(|(_, q)| q.hash() as u32 == want);
                    let found = table_child(&p, want, &mut slot);
                    assert_eq!(found, first.is_some(), "{p} {want:#x}");
                    if let Some((m, q)) = first {
                        assert_eq!((slot.mv, slot.pos), (*m, *q), "{p}");
                        checked += 1;
                    }
                }
                p = all[rng.below(all.len())].1;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn merged_children_are_unique_and_first_in_order() {
        let p = Position::startpos(Variant::Acholi, 8).unwrap();
        let all = p.legal_moves();
        let (mut buf, mut hs) = (Vec::new(), Vec::new());
        children(&p, &mut buf, &mut hs);
        assert!(buf.len() < all.len(), "Acholi's start has merging paths");
        for (i, c) in buf.iter().enumerate() {
            let first = all.iter().find(|(_, q)| q.same_state(&c.pos)).unwrap();
            assert_eq!(first.0, c.mv);
            assert!(buf[..i].iter().all(|d| !d.pos.same_state(&c.pos)));
            assert_eq!(move_to(&p, &c.pos), Some(c.mv));
        }
    }

    #[test]
    fn cheap_no_move_test_agrees_with_the_generator_when_it_answers() {
        let dead: Position =
            "didinga:8 2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,1 a m"
                .parse()
                .unwrap();
        assert!(no_move_cheap(&dead));
        assert!(!dead.has_legal_move());
        let live = Position::startpos(Variant::Didinga, 8).unwrap();
        assert!(!no_move_cheap(&live));
        // Lango: singletons only, but one faces an occupied front hole.
        let take: Position =
            "lango:8 0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0 a m"
                .parse()
                .unwrap();
        assert!(!no_move_cheap(&take) && take.has_legal_move());
        let stuck: Position =
            "lango:8 0,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/1,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0 a m"
                .parse()
                .unwrap();
        assert!(no_move_cheap(&stuck) && !stuck.has_legal_move());
        assert_eq!(terminal_value(&dead, 3), -(MATE - 3));
    }
}
