//! The blind choice of the simultaneous opening (RULINGS 8, phases `s2` and
//! `s1`) as a zero-sum matrix game over A's and B's opening starts: the
//! game's cells (`BlindGame`) and its exact solution (`matrix`). Search
//! values the cells by alpha-beta, the solver proves them; both solve the
//! game of those values here.

pub(crate) mod matrix;

use crate::board::Position;
use crate::types::moves::Move;
use crate::types::{Phase, Side};
use matrix::Equilibrium;
use std::fmt::Write;

/// The matrix game of a blind position: A's starts, B's starts, and the
/// position after each pair. Also a tick's choice in a race with holds
/// (RULES.md 8.10): A's and B's drop `.` and hold `_`, a 2x2 game.
pub struct BlindGame {
    /// A tick's choice (drop or hold), not a blind start.
    pub tick: bool,
    /// The `s2` position of the same board: what both players see.
    pub root: Position,
    /// A's starts, in generation order (the matrix's rows).
    pub a_starts: Vec<Move>,
    /// B's starts, in generation order (the matrix's columns).
    pub b_starts: Vec<Move>,
    /// `cells[i][j]`: after A's `a_starts[i]` and B's `b_starts[j]`.
    pub cells: Vec<Vec<Position>>,
}

impl BlindGame {
    /// The game of a position in phase `s2` or `s1`, built from its board
    /// alone (at `s1`, A's held choice is not looked at).
    pub fn of(pos: &Position) -> Option<BlindGame> {
        if !pos.phase().is_blind() {
            return None;
        }
        let mut root = *pos;
        root.side = Side::A;
        let root = root.with_phase(Phase::Blind2);
        let mut a_starts = Vec::new();
        let mut cells = Vec::new();
        let mut b_starts = Vec::new();
        for (a, s1) in root.legal_moves() {
            let row = s1.legal_moves();
            if b_starts.is_empty() {
                b_starts = row.iter().map(|(m, _)| *m).collect();
            }
            a_starts.push(a);
            cells.push(row.into_iter().map(|(_, c)| c).collect());
        }
        Some(BlindGame {
            tick: false,
            root,
            a_starts,
            b_starts,
            cells,
        })
    }
}

impl BlindGame {
    /// The 2x2 game of a tick's choice in a race with holds (RULES.md
    /// 8.10), when both racers choose: built from the position before A's
    /// choice. At B's choice A's, which the position holds, is not looked
    /// at: it is undone (a hold given back) and both of A's choices are
    /// rows. `None` where only one racer chooses (his plain choice, which
    /// the ordinary search takes) or at no tick's choice.
    pub fn of_tick(pos: &Position) -> Option<BlindGame> {
        let race = pos.race()?;
        if pos.phase() != Phase::Race || race.stage != 0 {
            return None;
        }
        let mut root = *pos;
        if pos.side_to_move() == Side::B {
            let a = &mut root.race.racers[0];
            // A had a choice if he holds now or still has a hold.
            if !a.held() && !a.may_hold() {
                return None;
            }
            if a.held() {
                a.set_held(false);
                a.set_holds(a.holds() + 1);
            }
            root.side = Side::A;
            root.ply = root.ply.saturating_sub(1);
            root.rehash();
        }
        let mut a_moves = Vec::new();
        let mut b_moves = Vec::new();
        let mut cells = Vec::new();
        for (a, after) in root.legal_moves() {
            // B chooses next only if he has a hold too.
            if after.phase() != Phase::Race
                || after.side_to_move() != Side::B
                || after.race.stage != 0
            {
                return None;
            }
            let row = after.legal_moves();
            if b_moves.is_empty() {
                b_moves = row.iter().map(|(m, _)| *m).collect();
            }
            a_moves.push(a);
            cells.push(row.into_iter().map(|(_, c)| c).collect());
        }
        (a_moves.len() == 2 && b_moves.len() == 2).then_some(BlindGame {
            tick: true,
            root,
            a_starts: a_moves,
            b_starts: b_moves,
            cells,
        })
    }

    /// The word the game's lines begin with: `blind` or `tick`.
    pub fn word(&self) -> &'static str {
        if self.tick {
            "tick"
        } else {
            "blind"
        }
    }

    /// The `info string` of a solved game: its size, value for A (with
    /// `digits` decimals) and both strategies.
    pub(crate) fn report(&self, how: &str, eq: &Equilibrium, digits: usize) -> String {
        format!(
            "{} {}x{} {how}value {:.digits$} for A; A {}; B {}",
            self.word(),
            self.a_starts.len(),
            self.b_starts.len(),
            eq.value,
            strategy_text(&self.a_starts, &eq.row),
            strategy_text(&self.b_starts, &eq.col)
        )
    }
}

/// One line of strategy: `a:0.5000 b:0.5000`, zero entries left out.
pub(crate) fn strategy_text(moves: &[Move], p: &[f64]) -> String {
    let mut s = String::new();
    for (m, &x) in moves.iter().zip(p) {
        if x > 0.0 {
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "{m}:{x:.4}");
        }
    }
    s
}
