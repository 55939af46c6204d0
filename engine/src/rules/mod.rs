//! The rules, a folder per code: `didinga/`, `lango_acholi/`,
//! `adjiboto/` and `race/` (the simultaneous opening) hold the generator
//! that `Position::generate` runs; `choro/` holds the plain reference
//! generator of the three Choro codes, shaped like RULES.md, which those
//! fast generators are tested against move for move, with a table of where
//! each clause is written. Outcomes in `outcome`.

pub(crate) mod adjiboto;
pub(crate) mod choro;
pub(crate) mod didinga;
pub(crate) mod lango_acholi;
mod outcome;
mod race;
pub use outcome::DEFAULT_DRAW_PLIES;

pub use outcome::{DrawReason, Game, Outcome};

use crate::board::Position;
use crate::types::moves::{Move, ParseMoveError, Token};
use std::fmt;

/// A path is legal only if its sowing ends within this many laps (RULINGS 2).
pub const LAP_BUDGET: u32 = 100_000;

/// What one call of the generator did.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenStats {
    /// Legal moves (complete paths) emitted.
    pub moves: u64,
    /// Paths cut as never-ending by Brent's cycle detection.
    pub cut_cycle: u64,
    /// Paths cut as never-ending by the lap budget.
    pub cut_budget: u64,
    /// Paths cut for reaching a decision point in a state it had before.
    pub cut_repeat: u64,
    /// Paths with more tokens than a `Move` holds (none seen; see RULES.md).
    pub cut_overflow: u64,
    /// Laps sown by the sower (all paths, cut ones too).
    pub laps: u64,
    /// Counters dropped by the sower (all paths, cut ones too).
    pub drops: u64,
}

impl GenStats {
    /// Paths cut as never-ending, by any of the three tests.
    pub fn never_ending(&self) -> u64 {
        self.cut_cycle + self.cut_budget + self.cut_repeat
    }

    /// Add the figures of `o` to these (several generator calls, one total).
    pub fn add(&mut self, o: &GenStats) {
        self.moves += o.moves;
        self.cut_cycle += o.cut_cycle;
        self.cut_budget += o.cut_budget;
        self.cut_repeat += o.cut_repeat;
        self.cut_overflow += o.cut_overflow;
        self.laps += o.laps;
        self.drops += o.drops;
    }
}

/// Per-move figures passed to the sink of [`Position::generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// Laps of this path, counted as RULINGS 2 counts them.
    pub laps: u32,
    /// Counters dropped along this path.
    pub drops: u32,
}

/// Why a path was found never-ending (a statistic: the verdict is the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cut {
    /// Brent's algorithm found the sowing back in an earlier state.
    Cycle,
    /// The path passed the lap budget.
    Budget,
    /// The path reached a decision point in a state it had before.
    Repeat,
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cut::Cycle => "cycle",
            Cut::Budget => "budget",
            Cut::Repeat => "repeat",
        })
    }
}

/// One lap of a traced move (Choro codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LapRecord {
    /// Driberg number of the hole of the first drop.
    pub first: u8,
    /// Counters sown.
    pub hand: u8,
    /// The lap's direction.
    pub dir: crate::types::Dir,
    /// Driberg number of the hole of the last drop (L).
    pub last: u8,
    /// Counters in L after the last drop.
    pub after: u8,
}

/// The board a traced lap leaves, after its last drop and before what
/// follows (capture, relay, end): each player's counters by loop position
/// (`[side][p]`, as [`Position::loop_count`]; Adjiboto: the ring in
/// `[0]`, stores not included).
pub type LapBoard = [[u8; 32]; 2];

/// One step of a traced race (the simultaneous opening): the racer whose
/// drop or lap start it was, whether it was a drop (else captures and lifts
/// before a lap, or a decision reached), and the board after it, as
/// [`LapBoard`]. The racers' hands are not on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceStep {
    /// The racer whose step it was.
    pub racer: crate::Side,
    /// Whether it was a drop (else captures and lifts before a lap, or a
    /// decision reached).
    pub drop: bool,
    /// The board after the step.
    pub board: LapBoard,
}

pub use race::RACE_TRACE_STEPS;

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in the move syntax.
    Malformed(ParseMoveError),
    /// Well formed, but a start or choice the position does not offer.
    Illegal(String),
    /// A proper prefix of legal moves: a choice is missing.
    Incomplete(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(e) => write!(f, "malformed move: {e}"),
            MoveError::Illegal(s) => write!(f, "illegal move {s}"),
            MoveError::Incomplete(s) => write!(f, "incomplete move {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Generate every legal move with its resulting position. The sink
    /// returns false to stop early. No heap allocation.
    pub fn generate<F>(&self, budget: u32, sink: F) -> GenStats
    where
        F: FnMut(&Move, &Position, MoveInfo) -> bool,
    {
        if self.phase.is_simultaneous() {
            race::generate(self, budget, sink)
        } else if self.variant == crate::Variant::Didinga {
            didinga::generate(self, budget, sink)
        } else if self.variant.is_choro() {
            lango_acholi::generate(self, budget, sink)
        } else {
            adjiboto::generate(self, sink)
        }
    }

    /// The mover's starts when each start is one move or none: Didinga and
    /// Adjiboto outside the simultaneous opening (no decisions in a turn).
    /// A mask for [`Position::generate_from`], bit `i` for one start; a
    /// start's turn may still be never-ending and so no move. `None` where a
    /// start can branch into several moves (Lango, Acholi, the race).
    pub fn single_move_starts(&self) -> Option<u32> {
        if self.phase.is_simultaneous() {
            None
        } else if self.variant == crate::Variant::Didinga {
            // In the opening only the back row starts (RULINGS 2).
            let m = self.movable[self.side.index()];
            Some(if self.phase.is_opening() {
                m & ((1u32 << self.width) - 1)
            } else {
                m
            })
        } else if self.variant.is_choro() {
            None
        } else {
            Some(adjiboto::playable(self))
        }
    }

    /// As [`Position::generate`], restricted to the starts `starts` (a
    /// subset of [`Position::single_move_starts`], which must be `Some`):
    /// the same moves, children, order and statistics as the full
    /// generation gives for those starts. What a random playout needs to
    /// play one start's turn without making every other child.
    pub fn generate_from<F>(&self, starts: u32, budget: u32, sink: F) -> GenStats
    where
        F: FnMut(&Move, &Position, MoveInfo) -> bool,
    {
        debug_assert!(self
            .single_move_starts()
            .is_some_and(|all| starts & !all == 0));
        // The generators take the mover's starts from `movable` and rebuild
        // the mover's masks in every child, so a copy whose `movable` keeps
        // only `starts` lists exactly those starts' moves.
        let mut p = *self;
        if self.variant == crate::Variant::Didinga {
            p.movable[self.side.index()] &= starts;
        } else {
            let shift = 5 * self.side.index() as u32;
            p.movable[0] &= !(0x1f << shift) | ((starts & 0x1f) << shift);
        }
        p.generate(budget, sink)
    }

    /// Call `f` with every legal move and the position it leads to.
    pub fn for_each_move(&self, mut f: impl FnMut(&Move, &Position)) {
        self.generate(LAP_BUDGET, |m, p, _| {
            f(m, p);
            true
        });
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.phase.is_simultaneous() {
            // A racer's decision needs no hole of his own; generate.
        } else if self.variant.is_choro() {
            // A liftable hole or a Lango start capture is needed; only then
            // can every path still turn out never-ending.
            if self.movable[self.side.index()] == 0
                && !(self.variant == crate::Variant::Lango
                    && self.phase == crate::Phase::Main
                    && self.occupied[self.side.index()]
                        & crate::types::geometry::front_mask(self.width)
                        != 0)
            {
                return false;
            }
        } else if adjiboto::playable(self) == 0 {
            return false;
        }
        let mut any = false;
        self.generate(LAP_BUDGET, |_, _, _| {
            any = true;
            false
        });
        any
    }

    /// The position after the legal move `m`.
    pub fn play(&self, m: &Move) -> Result<Position, MoveError> {
        if m.uses_letters() && !(self.variant.is_choro() && self.width == 8) {
            return Err(MoveError::Illegal(self.describe_illegal(m)));
        }
        let mut found = None;
        let mut prefix = false;
        self.generate(LAP_BUDGET, |mv, p, _| {
            if mv == m {
                found = Some(*p);
                return false;
            }
            prefix |= m.is_prefix_of(mv);
            true
        });
        match found {
            Some(p) => Ok(p),
            None if prefix => Err(MoveError::Incomplete(format!(
                "{m}: a choice is missing (see 'moves')"
            ))),
            None => Err(MoveError::Illegal(self.describe_illegal(m))),
        }
    }

    fn describe_illegal(&self, m: &Move) -> String {
        let letters_ok = self.variant.is_choro() && self.width == 8;
        if m.uses_letters() && !letters_ok {
            return format!("{m}: letters name holes only on 8-wide Choro boards; use numbers");
        }
        if m.max_hole() > self.holes_per_side() {
            return format!("{m}: no hole {} on this board", m.max_hole());
        }
        match m.token(0) {
            Some(Token::Hold) => {
                let left = if self.phase.is_simultaneous() {
                    self.race.racers[self.side.index()].holds()
                } else {
                    0
                };
                return format!(
                    "{m}: {} has no hold to take here ({left} left; a hold is chosen at a tick's start in a race with holds, RULES.md 8.10)",
                    self.side
                );
            }
            Some(Token::Drop) => {
                return format!(
                    "{m}: no tick's choice here (drop or hold is chosen at a tick's start in a race with holds, RULES.md 8.10)"
                );
            }
            _ => {}
        }
        format!("{m}: not a legal move here")
    }

    /// Parse a move string and play it.
    pub fn parse_move(&self, s: &str) -> Result<(Move, Position), MoveError> {
        let m: Move = s.parse().map_err(MoveError::Malformed)?;
        let p = self.play(&m)?;
        Ok((self.restyle(m), p))
    }

    /// The move written in this position's notation (letters on 8-wide boards).
    pub fn restyle(&self, m: Move) -> Move {
        m.with_letters(self.variant.is_choro() && self.width == 8)
    }

    /// The laps of the legal move `m`, in order (Choro codes; Adjiboto moves
    /// are one lap and give `None`). For tests, `d`-style explanations and
    /// debugging; allocates.
    pub fn trace(&self, m: &Move) -> Option<Vec<LapRecord>> {
        if !self.variant.is_choro() || self.phase.is_simultaneous() {
            return None;
        }
        choro::ChoroGen::new(self, LAP_BUDGET, |_, _, _| true).trace_of(m)
    }

    /// [`trace`](Self::trace) with the board each lap leaves, for people
    /// who want to see a move drop by drop; also Adjiboto's one lap. `None`
    /// for an illegal move and in the simultaneous opening. Allocates.
    pub fn trace_boards(&self, m: &Move) -> Option<Vec<(LapRecord, LapBoard)>> {
        if self.variant == crate::Variant::Adjiboto {
            return adjiboto::trace(self, m);
        }
        if self.phase.is_simultaneous() {
            return None;
        }
        choro::ChoroGen::new(self, LAP_BUDGET, |_, _, _| true).trace_boards_of(m)
    }

    /// The race the legal move `m` of the simultaneous opening sets off,
    /// drop by drop (the first [`RACE_TRACE_STEPS`] steps); empty for A's
    /// blind start. `None` outside the simultaneous opening and for an
    /// illegal move. Allocates.
    pub fn race_trace(&self, m: &Move) -> Option<Vec<RaceStep>> {
        if !self.phase.is_simultaneous() {
            return None;
        }
        race::trace(self, m)
    }

    /// Every never-ending path of the position: the start and decisions it
    /// had taken when it was cut, why, and the laps sown by then. Allocates.
    pub fn never_ending_paths(&self) -> Vec<(Move, Cut, u32)> {
        if !self.variant.is_choro() || self.phase.is_simultaneous() {
            return Vec::new();
        }
        choro::ChoroGen::new(self, LAP_BUDGET, |_, _, _| true).cuts_of()
    }

    /// The moves of [`for_each_move`](Self::for_each_move) collected. Allocates.
    pub fn legal_moves(&self) -> Vec<(Move, Position)> {
        let mut v = Vec::new();
        self.for_each_move(|m, p| v.push((*m, *p)));
        v
    }
}
