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
/// position after each pair.
pub struct BlindGame {
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
            root,
            a_starts,
            b_starts,
            cells,
        })
    }
}

impl BlindGame {
    /// The `info string` of a solved game: its size, value for A (with
    /// `digits` decimals) and both strategies.
    pub(crate) fn report(&self, how: &str, eq: &Equilibrium, digits: usize) -> String {
        format!(
            "blind {}x{} {how}value {:.digits$} for A; A {}; B {}",
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
