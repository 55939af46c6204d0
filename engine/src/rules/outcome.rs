//! End of game (RULINGS 9 and 10): the no-legal-move loss, Adjiboto's
//! store-of-50 draw, and the engine's own repetition and ply-cap draws.

use crate::board::Position;
use crate::types::moves::Move;
use crate::types::Side;
use std::fmt;

/// Why a game was drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Adjiboto: the player who cannot move has 50 or more in his store.
    Store,
    /// The same position (board, side, phase) for the third time.
    Repetition,
    /// The game reached the ply cap.
    PlyCap,
    /// Simultaneous opening: a racer's opening move passed the lap budget.
    EndlessRace,
}

/// A finished game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won because the other player had no legal move.
    Win {
        /// The player who won.
        winner: Side,
    },
    /// A draw, and why.
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner } => {
                write!(f, "{winner} wins: {} has no legal move", winner.other())
            }
            Outcome::Draw(DrawReason::Store) => {
                write!(f, "draw: the player who cannot move has 50 in his store")
            }
            Outcome::Draw(DrawReason::Repetition) => write!(f, "draw by threefold repetition"),
            Outcome::Draw(DrawReason::PlyCap) => write!(f, "draw by the ply cap"),
            Outcome::Draw(DrawReason::EndlessRace) => write!(
                f,
                "draw: an opening move of the race never ends (it cycles, or passed {} laps)",
                super::LAP_BUDGET
            ),
        }
    }
}

impl Position {
    /// The outcome decided by the rules of the game alone (no legal move),
    /// without history: `None` while the side to move can move.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        Some(self.stalemate_outcome())
    }

    /// The result when the side to move has no legal move (RULINGS 9, 10).
    fn stalemate_outcome(&self) -> Outcome {
        let s = self.side;
        if self.phase == crate::Phase::RaceOver {
            return Outcome::Draw(DrawReason::EndlessRace);
        }
        if !self.variant.is_choro() && self.stores[s.index()] >= 50 {
            return Outcome::Draw(DrawReason::Store);
        }
        Outcome::Win { winner: s.other() }
    }

    /// Whether `winner` can force a win by the rules (the other player left
    /// without a legal move, not saved by Adjiboto's store) within `plies`
    /// plies. Exhaustive over every path, no table: for proving test
    /// positions, not for play.
    pub fn forced_win(&self, winner: Side, plies: u32) -> bool {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return self.stalemate_outcome() == Outcome::Win { winner };
        }
        if plies == 0 {
            return false;
        }
        if self.side == winner {
            moves.iter().any(|(_, c)| c.forced_win(winner, plies - 1))
        } else {
            moves.iter().all(|(_, c)| c.forced_win(winner, plies - 1))
        }
    }
}

/// Default ply cap for games (`DrawPlies`).
pub const DEFAULT_DRAW_PLIES: u32 = 1000;

/// A game: start position, moves played, and the history the draw rules need.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    hashes: Vec<u64>,
    positions: Vec<Position>,
    draw_plies: u32,
}

impl Game {
    /// A game from `start`, no moves played yet, with the default ply cap.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            pos: start,
            moves: Vec::new(),
            hashes: vec![start.hash()],
            positions: vec![start],
            draw_plies: DEFAULT_DRAW_PLIES,
        }
    }

    /// This game with the ply cap `n`.
    pub fn with_draw_plies(mut self, n: u32) -> Game {
        self.draw_plies = n;
        self
    }

    /// Change the ply cap of a game in progress (the `DrawPlies` option).
    pub fn set_draw_plies(&mut self, n: u32) {
        self.draw_plies = n;
    }

    /// The ply cap: a game not over before this many plies is drawn there.
    pub fn draw_plies(&self) -> u32 {
        self.draw_plies
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far, the first first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of every position of the game so far, the current one last.
    pub(crate) fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Play a legal move; the game is unchanged on error.
    pub fn play(&mut self, m: &Move) -> Result<(), super::MoveError> {
        let next = self.pos.play(m)?;
        self.push(self.pos.restyle(*m), next);
        Ok(())
    }

    /// Parse and play a move string; the game is unchanged on error.
    pub fn play_str(&mut self, s: &str) -> Result<Move, super::MoveError> {
        let (m, next) = self.pos.parse_move(s)?;
        self.push(m, next);
        Ok(m)
    }

    /// Record a move already known to lead to `next`.
    pub fn push(&mut self, m: Move, next: Position) {
        self.moves.push(m);
        self.hashes.push(next.hash());
        self.positions.push(next);
        self.pos = next;
    }

    /// How often the current position has occurred in this game.
    pub fn repetitions(&self) -> usize {
        let cur = &self.pos;
        self.positions
            .iter()
            .zip(&self.hashes)
            .filter(|(p, &h)| h == cur.hash() && p.same_state(cur))
            .count()
    }

    /// The game's result, if it is over: no legal move (and Adjiboto's store
    /// draw) first, then threefold repetition, then the ply cap.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.pos.outcome() {
            return Some(o);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if self.pos.ply() >= self.draw_plies {
            return Some(Outcome::Draw(DrawReason::PlyCap));
        }
        None
    }
}
