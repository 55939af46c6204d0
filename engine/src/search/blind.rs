//! The blind choice of the simultaneous opening (RULINGS 8, phases `s2` and
//! `s1`): a zero-sum matrix game over A's and B's opening starts.
//!
//! Each cell (A's start i, B's start j) is the position after both choices
//! (a race stopped at a decision, the main phase, or a drawn race), valued
//! by an alpha-beta search of it, from A's point of view. The game is
//! solved exactly (`matrix::solve`, a linear program), and the mover draws
//! his start from his equilibrium strategy with the `Seed`. At `s1`, B's
//! engine builds the same matrix from the board alone: A's choice, which
//! the position holds, is never read.
//!
//! The cells are deepened together: depth 1 for every cell, solve, report;
//! then depth 2, and so on, until the depth, node or time limit (an
//! iteration that the clock or `stop` cuts short is thrown away, except
//! the first, which always completes). Cells are valued by alpha-beta
//! whatever the `Algorithm`: a matrix of noisy values (MCTS) would make a
//! noisy equilibrium.

use super::alphabeta::{self, AbRun, MAX_DEPTH};
use super::common::MATE;
use super::matrix::{self, Equilibrium};
use super::{time, to_score, Info, Limits, Score, SearchControl, SearchResult, Searcher};
use crate::board::Position;
use crate::eval::Evaluator;
use crate::rng::Rng;
use crate::rules::Game;
use crate::types::moves::Move;
use crate::types::{Phase, Side};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// A searched cell value as a number from A's point of view.
fn numeric(score: Option<Score>, side: Side) -> f64 {
    let v = match score {
        Some(Score::Cp(v)) => v,
        Some(Score::Win(n)) => MATE - n as i32,
        Some(Score::Loss(n)) => -(MATE - n as i32),
        None => 0,
    };
    if side == Side::A {
        v as f64
    } else {
        -v as f64
    }
}

/// The matrix game of a blind position: A's starts, B's starts, and the
/// position after each pair.
pub struct BlindGame {
    /// The `s2` position of the same board: what both players see.
    pub root: Position,
    pub a_starts: Vec<Move>,
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

/// The mover's strategies left out by `searchmoves`: worse for him than
/// any result (`hopeless`), so that the solver never plays them.
fn exclude(values: &mut [Vec<f64>], allowed: &[bool], me: Side, hopeless: f64) {
    for (k, _) in allowed.iter().enumerate().filter(|(_, ok)| !**ok) {
        if me == Side::A {
            values[k].iter_mut().for_each(|v| *v = -hopeless);
        } else {
            values.iter_mut().for_each(|row| row[k] = hopeless);
        }
    }
}

impl BlindGame {
    /// The `info string` of a solved game: its size, value for A (with
    /// `digits` decimals) and both strategies.
    fn report(&self, how: &str, eq: &Equilibrium, digits: usize) -> String {
        format!(
            "blind {}x{} {how}value {:.digits$} for A; A {}; B {}",
            self.a_starts.len(),
            self.b_starts.len(),
            eq.value,
            strategy_text(&self.a_starts, &eq.row),
            strategy_text(&self.b_starts, &eq.col)
        )
    }

    /// The matrix of proven cell values for A (+1 a win, 0 a draw, -1 a
    /// loss), when the book of solved positions has every cell.
    pub fn book_values(&self) -> Option<Vec<Vec<f64>>> {
        let book = crate::solve::book::builtin();
        self.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| {
                        let v = book.get(c)?.value.sign() as f64;
                        Some(if c.side_to_move() == Side::A { v } else { -v })
                    })
                    .collect()
            })
            .collect()
    }
}

/// One line of strategy: `a:0.5000 b:0.5000`, zero entries left out.
fn strategy_text(moves: &[Move], p: &[f64]) -> String {
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

impl Searcher {
    /// Search a blind position (`s2`, `s1`) as a matrix game.
    pub(super) fn search_blind<E: Evaluator>(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        info: &mut dyn FnMut(&Info),
        eval: &E,
    ) -> SearchResult {
        let start = limits.start.unwrap_or_else(Instant::now);
        let pos = *game.position();
        let me = pos.side_to_move();
        let Some(bg) = BlindGame::of(&pos) else {
            return super::no_move_result(&pos);
        };
        // The mover's own strategies, restricted by `searchmoves`.
        let mine = if me == Side::A {
            &bg.a_starts
        } else {
            &bg.b_starts
        };
        let allowed: Vec<bool> = mine
            .iter()
            .map(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        if bg.a_starts.is_empty() || bg.b_starts.is_empty() || !allowed.contains(&true) {
            // No start for the mover (he loses), or none for the other
            // player: the ordinary search handles such positions.
            return super::no_move_result(&pos);
        }
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        // The clock as the other searches keep it: nothing counts while
        // pondering, and it starts at `ponderhit`.
        let tm = time::TimeManager::new(limits, overhead, me, control, start);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        self.tt.new_search();
        let mut nodes = 0u64;
        let mut best: Option<(u32, Equilibrium)> = None;
        // Every cell solved in the book: the exact game of proven values.
        if let Some(values) = self.book.then(|| bg.book_values()).flatten() {
            let mut values = values;
            exclude(&mut values, &allowed, me, 2.0);
            let eq = matrix::solve(&values);
            info(&Info {
                string: Some(bg.report("from the book of solved cells: ", &eq, 4)),
                ..Info::default()
            });
            best = Some((1, eq));
        }
        // With the exact game in hand there is nothing to deepen.
        let max_depth = if best.is_some() { 0 } else { max_depth };
        'deepen: for depth in 1..=max_depth {
            let mut values = vec![vec![0.0; bg.b_starts.len()]; bg.a_starts.len()];
            for (i, row) in bg.cells.iter().enumerate() {
                for (j, cell) in row.iter().enumerate() {
                    let out_of_time = tm.hard_exceeded(control);
                    let out_of_nodes = limits.nodes.is_some_and(|n| nodes >= n);
                    if best.is_some() && (control.stopped() || out_of_time || out_of_nodes) {
                        break 'deepen;
                    }
                    let cell_limits = Limits {
                        depth: Some(depth),
                        nodes: match (best.is_some(), limits.nodes) {
                            (true, Some(n)) => Some(n - nodes),
                            _ => None,
                        },
                        // What is left of the move's time (while pondering,
                        // all of it, counted from `ponderhit` by the cell's
                        // own clock).
                        movetime: match best {
                            Some(_) => tm.hard_left(control).map(|left| left + overhead),
                            None => None,
                        },
                        ..Limits::default()
                    };
                    let run = AbRun {
                        tt: &self.tt,
                        opts: self.ab,
                        threads: self.config.threads,
                        multipv: 1,
                        move_overhead: overhead,
                        start: Instant::now(),
                    };
                    let cell_game = Game::new(*cell).with_draw_plies(game.draw_plies());
                    // The first iteration always completes: it must not
                    // stop on the caller's flag before there is a value.
                    let quiet = SearchControl::default();
                    let ctl = if best.is_some() { control } else { &quiet };
                    let r = alphabeta::run(&run, &cell_game, &cell_limits, ctl, &mut |_| {}, eval);
                    nodes += r.nodes;
                    values[i][j] = numeric(r.score, cell.side_to_move());
                }
            }
            if best.is_some() && (control.stopped() || tm.hard_exceeded(control)) {
                break;
            }
            exclude(&mut values, &allowed, me, 2.0 * MATE as f64);
            let eq = matrix::solve(&values);
            let value = if me == Side::A { eq.value } else { -eq.value };
            info(&Info {
                score: Some(to_score(value.round() as i32)),
                string: Some(bg.report("", &eq, 2)),
                ..Info::progress(depth, nodes, start.elapsed())
            });
            best = Some((depth, eq));
            // As alpha-beta: no new iteration past 60% of a clock's target.
            let soft_done = tm.soft_exceeded(control, 60);
            let nodes_done = limits.nodes.is_some_and(|n| nodes >= n);
            if soft_done || nodes_done {
                break;
            }
            // Nothing left to learn: every cell is a proven result.
            if values
                .iter()
                .flatten()
                .all(|v| v.abs() >= super::MATE_BOUND as f64)
            {
                break;
            }
        }
        let Some((depth, eq)) = best else {
            return super::no_move_result(&pos);
        };
        let strategy = if me == Side::A { &eq.row } else { &eq.col };
        self.blind_count += 1;
        let mut rng = Rng::new(
            self.config.seed ^ bg.root.hash() ^ self.blind_count.wrapping_mul(crate::rng::GAMMA),
        );
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let k = matrix::sample(strategy, u);
        let chosen = mine[k];
        let value = if me == Side::A { eq.value } else { -eq.value };
        info(&Info::text(format!(
            "blind choice {chosen} with probability {:.4} (strategy {}; value {:.2} for {me})",
            strategy[k],
            strategy_text(mine, strategy),
            value
        )));
        SearchResult::chosen(
            pos.restyle(chosen),
            Some(to_score(value.round() as i32)),
            depth,
            nodes,
        )
    }
}
