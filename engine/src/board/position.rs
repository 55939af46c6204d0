//! `Position`: a small `Copy` struct, counts packed per loop, with occupancy
//! masks and an incrementally maintained hash.

use super::error::PositionError;
use super::race::Race;
use super::zobrist;
use crate::types::geometry;
use crate::types::packed::Loop;
use crate::types::{AdjHistory, Opening, Phase, Side, Variant};

/// A game position. For the Choro codes `loops[s]` holds player `s`'s `2W`
/// holes in his counter-clockwise loop order (see `types::geometry`); for
/// Adjiboto `loops[0]` holds the ring of 10 holes (A's 0..5, B's 5..10).
///
/// A position is read from and written as its string (PROTOCOL.md); its
/// legal moves are generated without allocating (`for_each_move`,
/// `generate`) or collected (`legal_moves`), and `play` makes one:
///
/// ```
/// use choro_engine::{Move, Position, Side};
///
/// let pos: Position =
///     "didinga:8 0,0,0,0,0,0,0,1/0,0,0,0,0,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 a m"
///         .parse()
///         .unwrap();
/// assert_eq!(pos.side_to_move(), Side::A);
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 1, "A's only move: the 2 in his back hole");
/// let (mv, after) = moves[0];
/// assert_eq!(pos.play(&mv), Ok(after));
/// // B holds singletons only: no move, the game is over.
/// assert!(!after.has_legal_move());
/// let back: Position = after.to_string().parse().unwrap();
/// assert!(back.same_state(&after));
/// // Any other start is refused.
/// let other = ["a", "b"]
///     .iter()
///     .map(|s| s.parse::<Move>().unwrap())
///     .find(|m| m.to_string() != mv.to_string())
///     .unwrap();
/// assert!(pos.play(&other).is_err());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) loops: [Loop; 2],
    pub(crate) hash: u64,
    pub(crate) occupied: [u32; 2],
    pub(crate) movable: [u32; 2],
    pub(crate) ply: u32,
    pub(crate) hist: [AdjHistory; 2],
    pub(crate) stores: [u8; 2],
    pub(crate) variant: Variant,
    pub(crate) width: u8,
    pub(crate) side: Side,
    pub(crate) phase: Phase,
    /// The simultaneous opening's state (phases `s1` and `r`); zero otherwise.
    pub(crate) race: Race,
}

const _: () = assert!(std::mem::size_of::<Position>() <= 144);

impl Position {
    /// The start position of `variant` on a board `width` wide (ignored for
    /// Adjiboto) with the given opening (ignored for Adjiboto): phase `s2`
    /// for the simultaneous opening, `o2` for the sequential one.
    pub fn start(variant: Variant, width: u8, opening: Opening) -> Result<Position, PositionError> {
        let p = Position::startpos(variant, width)?;
        Ok(match opening {
            Opening::Simultaneous if variant.is_choro() => p.with_phase(Phase::Blind2),
            _ => p,
        })
    }

    /// The same board, side and ply in another phase (no race state; a
    /// blind phase keeps the racers' holds).
    pub(crate) fn with_phase(mut self, phase: Phase) -> Position {
        let holds = self.race_holds();
        self.phase = phase;
        self.race = Race::default();
        if phase.is_blind() {
            self.race.racers[0].set_holds(holds);
            self.race.racers[1].set_holds(holds);
        }
        self.rehash();
        self
    }

    /// The same blind position (`s2` or `s1`) with `n` holds for each
    /// racer (`RaceHolds`, RULES.md 8.10); `None` in another phase or for
    /// more than [`MAX_HOLDS`](crate::board::race::MAX_HOLDS).
    pub fn with_race_holds(mut self, n: u8) -> Option<Position> {
        if !self.phase.is_blind() || n > crate::board::race::MAX_HOLDS {
            return None;
        }
        self.race.racers[0].set_holds(n);
        self.race.racers[1].set_holds(n);
        self.rehash();
        Some(self)
    }

    /// The most holds a racer has left in this position (`RaceHolds`,
    /// RULES.md 8.10): at `s2`/`s1` both racers' holds, in a race the
    /// larger of the two, held ticks included; 0 in other phases.
    pub fn race_holds(&self) -> u8 {
        if !self.phase.is_simultaneous() {
            return 0;
        }
        self.race
            .racers
            .iter()
            .map(|r| r.holds() + r.held() as u8)
            .max()
            .unwrap_or(0)
    }

    /// Recompute the hash from scratch.
    pub(crate) fn rehash(&mut self) {
        self.hash = self.board_hash().wrapping_add(self.meta_hash());
    }

    /// The start position of `variant` with the *sequential* opening (phase
    /// `o2`), the one the perft files and most tests use; see
    /// [`start`](Self::start) for the simultaneous one, the rules' default.
    /// Errors if the width is not allowed for the code.
    pub fn startpos(variant: Variant, width: u8) -> Result<Position, PositionError> {
        let width = if variant == Variant::Adjiboto {
            5
        } else {
            width
        };
        if !variant.widths().contains(&width) {
            return Err(PositionError::Width(variant, width));
        }
        let mut loops = [Loop::default(); 2];
        if variant == Variant::Adjiboto {
            for h in 0..geometry::ADJ_HOLES {
                loops[0].set(h, 10);
            }
        } else {
            for l in &mut loops {
                for h in 0..2 * width {
                    l.set(h, 2);
                }
            }
        }
        let phase = if variant.is_choro() {
            Phase::Opening2
        } else {
            Phase::Main
        };
        Ok(Position::assemble(
            variant,
            width,
            loops,
            Side::A,
            phase,
            [0, 0],
            [AdjHistory::default(); 2],
            0,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        variant: Variant,
        width: u8,
        loops: [Loop; 2],
        side: Side,
        phase: Phase,
        stores: [u8; 2],
        hist: [AdjHistory; 2],
        ply: u32,
    ) -> Position {
        let mut p = Position {
            loops,
            hash: 0,
            occupied: [0; 2],
            movable: [0; 2],
            ply,
            hist,
            stores,
            variant,
            width,
            side,
            phase,
            race: Race::default(),
        };
        p.hash = p.board_hash().wrapping_add(p.meta_hash());
        p.refresh_masks();
        p
    }

    /// Recompute the occupancy masks from the counts.
    #[inline]
    pub(crate) fn refresh_masks(&mut self) {
        for s in 0..2 {
            self.occupied[s] = self.loops[s].occupied();
            self.movable[s] = self.loops[s].movable();
        }
    }

    /// Board part of the hash, computed from scratch.
    pub(crate) fn board_hash(&self) -> u64 {
        let mut h = 0u64;
        for s in 0..2 {
            for i in 0..32u8 {
                h = h.wrapping_add(
                    (self.loops[s].get(i) as u64).wrapping_mul(zobrist::HOLE[s][i as usize]),
                );
            }
        }
        h
    }

    #[inline]
    pub(crate) fn meta_hash(&self) -> u64 {
        let m = zobrist::meta(
            self.variant,
            self.width,
            self.side,
            self.phase,
            self.stores,
            [self.hist[0].0, self.hist[1].0],
        );
        if self.phase.is_simultaneous() {
            m.wrapping_add(self.race.key())
        } else {
            m
        }
    }

    /// The simultaneous opening's state: A's blind start in phase `s1`, the
    /// racers in phases `r` and `rx`; `None` in other phases.
    pub fn race(&self) -> Option<&Race> {
        matches!(self.phase, Phase::Blind1 | Phase::Race | Phase::RaceOver).then_some(&self.race)
    }

    /// Counters in `side`'s hand: a racer's lifted or captured counters.
    #[inline]
    pub fn hand(&self, side: Side) -> u32 {
        if matches!(self.phase, Phase::Race | Phase::RaceOver) {
            self.race.racers[side.index()].hand as u32
        } else {
            0
        }
    }

    /// The rule code played.
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// Board width W (columns); 5 for Adjiboto.
    pub fn width(&self) -> u8 {
        self.width
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    /// The phase of the game: an opening (sequential or simultaneous),
    /// the race, or the main phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Turns played since the start (for the ply-cap draw).
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// The same position with another ply count.
    pub fn with_ply(mut self, ply: u32) -> Position {
        self.ply = ply;
        self
    }
    /// Hash of everything but the ply count.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// A copy of `self`, built field by field (safe code: the former
    /// two-part raw copy saved 0.66% of Didinga's `choro bench`
    /// instructions, under the 2% that `unsafe` must pay, and nothing in the
    /// other codes).
    #[inline(always)]
    pub(crate) fn copied(&self) -> Position {
        Position {
            loops: self.loops,
            hash: self.hash,
            occupied: self.occupied,
            movable: self.movable,
            ply: self.ply,
            hist: self.hist,
            stores: self.stores,
            variant: self.variant,
            width: self.width,
            side: self.side,
            phase: self.phase,
            race: self.race,
        }
    }

    /// Make `self` a copy of `src`, field by field as [`Position::copied`]
    /// builds one (an assignment of the whole is a `memcpy` call).
    #[inline(always)]
    pub(crate) fn set_from(&mut self, src: &Position) {
        let Position {
            loops,
            hash,
            occupied,
            movable,
            ply,
            hist,
            stores,
            variant,
            width,
            side,
            phase,
            race,
        } = self;
        *loops = src.loops;
        *hash = src.hash;
        *occupied = src.occupied;
        *movable = src.movable;
        *ply = src.ply;
        *hist = src.hist;
        *stores = src.stores;
        *variant = src.variant;
        *width = src.width;
        *side = src.side;
        *phase = src.phase;
        *race = src.race;
    }

    /// Equal in everything but the ply count.
    #[inline]
    pub fn same_state(&self, other: &Position) -> bool {
        // Every field but the ply, as the derived equality compares them
        // (without copying both positions to clear their plies).
        let Position {
            loops,
            hash,
            occupied,
            movable,
            ply: _,
            hist,
            stores,
            variant,
            width,
            side,
            phase,
            race,
        } = self;
        *hash == other.hash
            && *loops == other.loops
            && *occupied == other.occupied
            && *movable == other.movable
            && *hist == other.hist
            && *stores == other.stores
            && *variant == other.variant
            && *width == other.width
            && *side == other.side
            && *phase == other.phase
            && *race == other.race
    }
    /// Adjiboto stores (A, B); zero for Choro.
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }
    /// Adjiboto opening history of `side`.
    pub fn history(&self, side: Side) -> AdjHistory {
        self.hist[side.index()]
    }

    /// Holes per player: 2W for Choro, 5 for Adjiboto.
    pub fn holes_per_side(&self) -> u8 {
        if self.variant.is_choro() {
            2 * self.width
        } else {
            5
        }
    }

    /// Counters in `side`'s hole with Driberg number `n` (1-based; Adjiboto 1..=5).
    pub fn count(&self, side: Side, n: u8) -> u8 {
        if self.variant.is_choro() {
            self.loops[side.index()].get(geometry::pos_of_number(n, self.width))
        } else {
            self.loops[0].get(geometry::adj_pos(side, n))
        }
    }

    /// Counters at board (row, column). Choro rows 0..4 (0 = A's back),
    /// Adjiboto rows 0 (A, south) and 1 (B, north).
    pub fn at(&self, row: u8, col: u8) -> u8 {
        if self.variant.is_choro() {
            let (s, p) = geometry::hole_at(row, col, self.width);
            self.loops[s.index()].get(p)
        } else if row == 0 {
            self.loops[0].get(col)
        } else {
            self.loops[0].get(9 - col)
        }
    }

    /// Counters on `side`'s holes (not counting the store), and in a race
    /// those in his hand, which he will sow into his own holes.
    pub fn material(&self, side: Side) -> u32 {
        if self.variant.is_choro() {
            self.loops[side.index()].total() + self.hand(side)
        } else {
            crate::types::packed::byte_sum128(self.loops[0].row(5 * side.index() as u8, 5))
        }
    }

    /// Counters on the board, in the stores and in racers' hands together.
    pub fn total_counters(&self) -> u32 {
        self.loops[0].total()
            + self.loops[1].total()
            + self.hand(Side::A)
            + self.hand(Side::B)
            + self.stores[0] as u32
            + self.stores[1] as u32
    }

    /// Bitmask of `side`'s holes with one counter or more, by loop position
    /// (Adjiboto: bit n-1 for hole n).
    pub fn occupied_mask(&self, side: Side) -> u32 {
        self.side_mask(&self.occupied, side)
    }

    /// Bitmask of `side`'s holes with two counters or more (liftable).
    pub fn movable_mask(&self, side: Side) -> u32 {
        self.side_mask(&self.movable, side)
    }

    #[inline]
    fn side_mask(&self, m: &[u32; 2], side: Side) -> u32 {
        if self.variant.is_choro() {
            m[side.index()]
        } else {
            (m[0] >> (5 * side.index())) & 0x1f
        }
    }

    /// Counters at `side`'s loop position `p` (Choro) or ring index (Adjiboto).
    pub fn loop_count(&self, side: Side, p: u8) -> u8 {
        if self.variant.is_choro() {
            self.loops[side.index()].get(p)
        } else {
            self.loops[0].get(p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AdjHistory;
    use super::Position;
    use crate::types::{Opening, Variant};

    /// `same_state` is equality of the positions with their plies cleared:
    /// over every pair of children (merging paths included) of positions of
    /// every code along random games, both openings, and against copies with
    /// another ply or one field changed.
    #[test]
    fn same_state_is_equality_but_for_the_ply() {
        let mut rng = crate::rng::Rng::new(17);
        let mut pairs = 0;
        let mut equal = 0;
        for v in Variant::ALL {
            for o in [Opening::Sequential, Opening::Simultaneous] {
                let mut p = Position::start(v, v.default_width(), o).unwrap();
                for _ in 0..30 {
                    let kids: Vec<Position> = p.legal_moves().into_iter().map(|(_, c)| c).collect();
                    if kids.is_empty() {
                        break;
                    }
                    for a in &kids {
                        assert_eq!(a.copied(), *a, "the field-wise copy is the position");
                        let mut b = kids[0];
                        b.set_from(a);
                        assert_eq!(b, *a, "the field-wise copy is the position");
                        let later = a.with_ply(a.ply + 7);
                        assert!(a.same_state(&later));
                        let mut other = *a;
                        other.race.tick ^= 1;
                        assert_eq!(a.same_state(&other), a.with_ply(0) == other.with_ply(0));
                        for b in &kids {
                            let want = a.with_ply(0) == b.with_ply(0);
                            assert_eq!(a.same_state(b), want, "{a} {b}");
                            pairs += 1;
                            equal += usize::from(want);
                        }
                    }
                    p = kids[rng.below(kids.len())];
                }
            }
        }
        assert!(pairs > 10_000 && equal > pairs / 100, "{pairs} {equal}");
    }

    #[test]
    fn played_is_the_set_of_holes_pushed() {
        // Every history of up to five holes 1..=5, repeats included.
        let mut all = vec![AdjHistory::default()];
        let mut i = 0;
        while i < all.len() {
            let h = all[i];
            if h.len() < 5 {
                all.extend((1..=5).map(|n| h.push(n)));
            }
            i += 1;
        }
        assert_eq!(all.len(), 1 + 5 + 25 + 125 + 625 + 3125);
        for h in all {
            let want = (0..h.len()).fold(0, |m, i| m | 1 << (h.get(i) - 1));
            assert_eq!(h.played(), want, "{h:?}");
        }
    }
}
