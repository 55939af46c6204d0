//! The blind choice of the simultaneous opening (RULINGS 8, phases `s2` and
//! `s1`): a zero-sum matrix game over A's and B's opening starts. Also a
//! tick's choice of a race with holds (RULES.md 8.10; `BlindGame::of_tick`):
//! the 2x2 game of both racers' drop and hold, solved the same way.
//!
//! A cell that is itself a tick's choice of both racers is valued as that
//! 2x2 game, one level deep; deeper ticks inside a cell's alpha-beta tree
//! are plies in turn (B's ply sees A's choice), an approximation that a
//! solver of holds must not make.
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

use super::alphabeta::{self, AbOptions, AbRun, MAX_DEPTH};
use super::tt::Table;
use super::{no_move_result, time, to_score, Info, Limits, Score, SearchControl, SearchResult};
use crate::blind::matrix::{self, Equilibrium};
use crate::blind::{strategy_text, BlindGame};
use crate::board::Position;
use crate::eval::Evaluator;
use crate::gametree::{MATE, MATE_BOUND};
use crate::rng::Rng;
use crate::rules::Game;
use crate::types::Side;
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

/// What a blind search takes from the searcher that runs it.
pub(crate) struct BlindRun<'a> {
    pub tt: &'a mut Table,
    pub opts: AbOptions,
    pub threads: usize,
    pub seed: u64,
    pub move_overhead: Duration,
    /// The proven cell values for A (+1, 0, -1; `None` where a cell is
    /// not proven), from the book of solved positions and cells when it
    /// is on; an empty matrix when it is off.
    pub known: &'a dyn Fn(&BlindGame) -> Vec<Vec<Option<f64>>>,
}

/// Search a blind position (`s2`, `s1`) as a matrix game. `blind_count`
/// counts the blind choices made so far, mixed into the draw of each.
pub(crate) fn run<E: Evaluator>(
    blind: &mut BlindRun,
    blind_count: &mut u64,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    info: &mut dyn FnMut(&Info),
    eval: &E,
) -> SearchResult {
    let start = limits.start.unwrap_or_else(Instant::now);
    let pos = *game.position();
    let me = pos.side_to_move();
    let Some(bg) = BlindGame::of(&pos).or_else(|| BlindGame::of_tick(&pos)) else {
        return no_move_result(&pos);
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
        return no_move_result(&pos);
    }
    let overhead = blind.move_overhead;
    // The clock as the other searches keep it: nothing counts while
    // pondering, and it starts at `ponderhit`.
    let tm = time::TimeManager::new(limits, overhead, me, control, start);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    blind.tt.new_search();
    let mut nodes = 0u64;
    let mut best: Option<(u32, Equilibrium)> = None;
    // The cells the book proves: every one gives the exact game of proven
    // values; some replace their searched values in every round.
    let known = (blind.known)(&bg);
    let proven = |i: usize, j: usize| known.get(i).and_then(|r| r.get(j)).copied().flatten();
    let count = known.iter().flatten().filter(|v| v.is_some()).count();
    let cells = bg.a_starts.len() * bg.b_starts.len();
    let exact: Option<Vec<Vec<f64>>> = (count == cells).then(|| {
        known
            .iter()
            .map(|r| r.iter().map(|v| v.unwrap_or(0.0)).collect())
            .collect()
    });
    if count > 0 && count < cells {
        info(&Info::text(format!(
            "{} {count} of {cells} cells from the book of solved cells, the rest searched",
            bg.word()
        )));
    }
    if let Some(values) = exact {
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
                // A proven cell: a win or loss at the edge of the proven
                // range (its distance is not known), or a draw.
                if let Some(v) = proven(i, j) {
                    values[i][j] = v * MATE_BOUND as f64;
                    continue;
                }
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
                    tt: &*blind.tt,
                    opts: blind.opts,
                    // The first iteration, which `stop` cannot cut, on one
                    // thread: its cells are shallow, and starting and
                    // joining `Threads` helpers for each of them made a
                    // `stop` with `Threads` 256 wait 0.7-1.7 s at
                    // Didinga's blind start (RELIABILITY.md finding 39).
                    threads: if best.is_some() { blind.threads } else { 1 },
                    multipv: 1,
                    move_overhead: overhead,
                    start: Instant::now(),
                };
                // The first iteration always completes: it must not
                // stop on the caller's flag before there is a value.
                let quiet = SearchControl::default();
                let ctl = if best.is_some() { control } else { &quiet };
                let mut value_of = |p: &Position| {
                    let g = Game::new(*p).with_draw_plies(game.draw_plies());
                    let r = alphabeta::run(&run, &g, &cell_limits, ctl, &mut |_| {}, eval);
                    nodes += r.nodes;
                    numeric(r.score, p.side_to_move())
                };
                // A cell that stops at a tick's choice of both racers (a
                // race with holds, RULES.md 8.10) is valued as that 2x2
                // game, its own cells searched, so that neither racer's
                // value rests on seeing the other's choice of the tick.
                values[i][j] = match BlindGame::of_tick(cell) {
                    Some(t) => {
                        let sub: Vec<Vec<f64>> = t
                            .cells
                            .iter()
                            .map(|row| row.iter().map(&mut value_of).collect())
                            .collect();
                        matrix::solve(&sub).value
                    }
                    None => value_of(cell),
                };
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
        let settled =
            |i: usize, j: usize| proven(i, j).is_some() || values[i][j].abs() >= MATE_BOUND as f64;
        if (0..values.len()).all(|i| (0..values[i].len()).all(|j| settled(i, j))) {
            break;
        }
    }
    let Some((depth, eq)) = best else {
        return no_move_result(&pos);
    };
    let strategy = if me == Side::A { &eq.row } else { &eq.col };
    *blind_count += 1;
    let mut rng =
        Rng::new(blind.seed ^ bg.root.hash() ^ blind_count.wrapping_mul(crate::rng::GAMMA));
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let k = matrix::sample(strategy, u);
    let chosen = mine[k];
    let value = if me == Side::A { eq.value } else { -eq.value };
    info(&Info::text(format!(
        "{} choice {chosen} with probability {:.4} (strategy {}; value {:.2} for {me})",
        bg.word(),
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
