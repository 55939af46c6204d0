//! The solver: the game-theoretic value of a position (a win, loss or draw
//! for the side to move, with the distance in plies to the end under best
//! play), proven, or the bounds proven when a limit stops it first.
//!
//! What a value means is in RULES.md section 12. In short: values are those
//! of the game where a line that never ends is a draw (the engine's
//! repetition rule turns every such line into a draw, and the value does
//! not depend on which repetition it counts); wins and losses are proven by
//! finite trees that read no history (`search`), draws either by a finite
//! tree whose every line ends in a drawn end, or by the exhaustive
//! retrograde analysis of the whole reachable graph (`retro`), which is
//! also the second method that checks the first.
//!
//! The simultaneous opening's blind phases are a matrix game over the two
//! players' starts: every cell is solved, and the game of cell values (+1
//! a win for A, 0 a draw, -1 a loss) is solved exactly (`search::matrix`).

pub mod book;
pub mod check;
pub mod retro;
pub mod search;
pub mod store;
pub mod table;

use crate::board::Position;
use crate::search::blind::BlindGame;
use crate::search::matrix::{self, Equilibrium};
use crate::types::moves::Move;
use crate::types::Side;
use search::{Shared, Worker};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};
use store::Saved;
use table::{FactTable, Facts, MAX_PLIES};

/// A proven value, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies.
    Win(u32),
    /// The side to move loses after this many plies.
    Loss(u32),
    Draw,
}

impl Value {
    /// +1, 0 or -1.
    pub fn sign(self) -> i8 {
        match self {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            Value::Draw => 0,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win {n}"),
            Value::Loss(n) => write!(f, "loss {n}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// At most 40 characters of a field quoted in a message about a book or a
/// save file (a line may be any length), `...` after a cut.
pub(crate) fn clip(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// The value of a position with no legal move for its side to move: a loss
/// at distance 0, or a draw (Adjiboto's store, a drawn race).
pub fn end_value(pos: &Position) -> Value {
    if crate::search::common::terminal_value(pos, 0) == crate::search::common::DRAW {
        Value::Draw
    } else {
        Value::Loss(0)
    }
}

/// Settings of a solver.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    pub threads: usize,
    /// Size of the table of facts, in MiB.
    pub hash_mb: usize,
    /// The save file: facts are loaded from it and appended as proven.
    pub save: Option<PathBuf>,
    /// Comment lines written at the head of what this run appends.
    pub header: Vec<String>,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            threads: 1,
            hash_mb: 64,
            save: None,
            header: Vec::new(),
        }
    }
}

/// Where a solve stops if it has not proven the value before.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// The deepest iteration (plies); `None`: as deep as the table stores.
    pub plies: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

/// A progress report, made at a steady pace while a solve runs.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The iteration being searched (plies).
    pub plies: u32,
    pub nodes: u64,
    pub nps: u64,
    /// Positions whose win, loss or draw became known.
    pub proven: u64,
    pub hashfull: u32,
    pub elapsed: Duration,
    /// Proven so far: neither side wins within this many plies.
    pub bounds: u32,
    /// In a blind solve: the cell being solved (counted from 1, row by
    /// row) and the number of cells.
    pub cell: Option<(usize, usize)>,
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value, when proven.
    pub value: Option<Value>,
    /// The side to move cannot force a win within this many plies.
    pub nowin_within: u32,
    /// The other side cannot force a win within this many plies.
    pub noloss_within: u32,
    /// Best play when the value is a win or loss (the fastest win, the
    /// longest loss), to the end.
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub proven: u64,
    pub elapsed: Duration,
}

impl Solution {
    /// Nothing proven (a cell a limit kept the solver from).
    pub fn unknown() -> Solution {
        Solution {
            value: None,
            nowin_within: 0,
            noloss_within: 0,
            pv: Vec::new(),
            nodes: 0,
            proven: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// The value as a range from the side to move's point of view: (-1, 1)
    /// when nothing is proven.
    pub fn range(&self) -> (i8, i8) {
        match self.value {
            Some(v) => (v.sign(), v.sign()),
            None => (-1, 1),
        }
    }

    /// One line: the value, or the bounds proven.
    pub fn describe(&self) -> String {
        match self.value {
            Some(v) => v.to_string(),
            None => format!(
                "unknown: no win for the side to move within {} plies, no loss within {}",
                self.nowin_within, self.noloss_within
            ),
        }
    }
}

/// The result of solving a blind position (`s2`, `s1`).
#[derive(Clone, Debug)]
pub struct BlindSolution {
    pub a_starts: Vec<Move>,
    pub b_starts: Vec<Move>,
    /// `cells[i][j]`: the position after A's `a_starts[i]` and B's `b_starts[j]`.
    pub positions: Vec<Vec<Position>>,
    /// Each cell solved (values from that cell's side to move).
    pub cells: Vec<Vec<Solution>>,
    /// Each cell's value for A as a range: (lo, hi) in -1..=1.
    pub for_a: Vec<Vec<(i8, i8)>>,
    /// The matrix game's value for A: exact when every cell is proven.
    pub value_lo: f64,
    pub value_hi: f64,
    /// The exact equilibrium, when every cell is proven.
    pub equilibrium: Option<Equilibrium>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A solver: its table of facts lives as long as it does, so solving
/// several positions of one game (the cells of a blind matrix) shares it.
pub struct Solver {
    table: FactTable,
    saved: Option<Saved>,
    threads: usize,
}

/// Stack of a solver thread: the search recurses once per ply.
const STACK: usize = 256 << 20;

impl Solver {
    /// A solver with its table reserved and its save file loaded.
    pub fn new(config: &SolveConfig) -> Result<Solver, String> {
        if config.threads == 0 {
            return Err("threads must be at least 1".into());
        }
        let table = FactTable::try_new(config.hash_mb)
            .map_err(|_| format!("cannot reserve a table of {} MiB", config.hash_mb))?;
        let saved = match &config.save {
            Some(p) => Some(Saved::open(p, &config.header)?),
            None => None,
        };
        Ok(Solver {
            table,
            saved,
            threads: config.threads,
        })
    }

    /// Positions loaded from the save file.
    pub fn saved_positions(&self) -> usize {
        self.saved.as_ref().map_or(0, |s| s.len())
    }

    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// A write error of the save file, if one happened.
    pub fn save_error(&self) -> Option<String> {
        self.saved.as_ref().and_then(|s| s.error())
    }

    /// What the table and the save file know of `pos`.
    pub fn known(&self, pos: &Position) -> Facts {
        let t = self.table.probe(pos.hash()).unwrap_or_default();
        match self.saved.as_ref().and_then(|s| s.get(pos)) {
            Some(f) => t.merge(&f),
            None => t,
        }
    }

    /// Prove the value of `pos` (not in a blind phase), or the bounds the
    /// limits allow. `stop` ends it early from another thread; `progress` is
    /// called every `every` on the calling thread.
    pub fn solve(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, String> {
        self.solve_cell(pos, limits, stop, every, progress, None, Instant::now(), 0)
    }

    #[allow(clippy::too_many_arguments)]
    fn solve_cell(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
        cell: Option<(usize, usize)>,
        start: Instant,
        nodes_before: u64,
    ) -> Result<Solution, String> {
        if pos.phase().is_blind() {
            return Err("a blind phase (s2, s1) is a matrix game: use solve_blind".into());
        }
        if !pos.has_legal_move() {
            // The end itself: no iteration, the distance is 0.
            let value = end_value(pos);
            return Ok(Solution {
                value: Some(value),
                nowin_within: 0,
                noloss_within: 0,
                pv: Vec::new(),
                nodes: 0,
                proven: 0,
                elapsed: start.elapsed(),
            });
        }
        let max = limits.plies.unwrap_or(MAX_PLIES).min(MAX_PLIES);
        let known = self.known(pos);
        let from = known.nowin_ge.min(known.noloss_ge) + 1;
        let halt = AtomicBool::new(false);
        let node_limit = limits
            .nodes
            .map_or(u64::MAX, |n| n.saturating_sub(nodes_before));
        let sh = Shared::new(&self.table, self.saved.as_ref(), &halt, node_limit);
        if known.value().is_none() && from <= max && node_limit > 0 {
            std::thread::scope(|s| -> Result<(), String> {
                let mut handles = Vec::new();
                for id in 0..self.threads {
                    let sh = &sh;
                    let h = std::thread::Builder::new()
                        .stack_size(STACK)
                        .spawn_scoped(s, move || {
                            Worker::new(sh, id as u64).iterate(pos, from, max)
                        })
                        .map_err(|e| format!("cannot start a solver thread: {e}"))?;
                    handles.push(h);
                }
                let mut last = Instant::now();
                while !handles.iter().all(|h| h.is_finished()) {
                    std::thread::sleep(Duration::from_millis(10));
                    let out_of_time = limits.time.is_some_and(|t| start.elapsed() >= t);
                    if stop.load(Relaxed) || out_of_time {
                        halt.store(true, Relaxed);
                    }
                    if last.elapsed() >= every {
                        last = Instant::now();
                        let bounds = sh.finished().map_or(from - 1, |(d, _, _)| d);
                        progress(&self.progress(&sh, start, nodes_before, bounds, cell));
                    }
                }
                Ok(())
            })?;
        }
        let nodes = sh.nodes.load(Relaxed);
        let mut facts = known;
        if let Some((r, v, exact)) = sh.finished() {
            // Iteration r was begun only once r - 1 had shown neither side
            // winning (by this run, or by the facts it started from).
            facts = facts
                .merge(&Facts::from_result(r - 1, 0, -1, 1, false))
                .merge(&Facts::from_result(r, v, -1, 1, exact));
        }
        if let Some(s) = &self.saved {
            if facts != known && !facts.is_empty() {
                s.write(pos, &facts);
            }
        }
        let value = match facts.value() {
            Some((1, d)) => Some(Value::Win(d)),
            Some((-1, d)) => Some(Value::Loss(d)),
            Some(_) => Some(Value::Draw),
            None => None,
        };
        let pv = match value {
            Some(Value::Win(d)) | Some(Value::Loss(d)) => {
                let again = AtomicBool::new(false);
                let sh2 = Shared::new(&self.table, self.saved.as_ref(), &again, u64::MAX);
                let v = value.map_or(0, Value::sign);
                Worker::new(&sh2, 0).best_line(pos, v, d)
            }
            _ => Vec::new(),
        };
        Ok(Solution {
            value,
            nowin_within: if facts.win_le != table::NONE {
                facts.win_le - 1
            } else {
                facts.nowin_ge
            },
            noloss_within: if facts.loss_le != table::NONE {
                facts.loss_le - 1
            } else {
                facts.noloss_ge
            },
            pv,
            nodes,
            proven: sh.proven.load(Relaxed),
            elapsed: start.elapsed(),
        })
    }

    fn progress(
        &self,
        sh: &Shared,
        start: Instant,
        nodes_before: u64,
        bounds: u32,
        cell: Option<(usize, usize)>,
    ) -> Progress {
        let nodes = nodes_before + sh.nodes.load(Relaxed);
        let t = start.elapsed();
        Progress {
            plies: bounds + 1,
            nodes,
            nps: (nodes as f64 / t.as_secs_f64().max(1e-3)) as u64,
            proven: sh.proven.load(Relaxed),
            hashfull: self.table.hashfull(),
            elapsed: t,
            bounds,
            cell,
        }
    }

    /// Solve a blind position (`s2`, `s1`): every cell of the matrix of
    /// starts, then the matrix game of their values for A (+1, 0, -1).
    /// Limits apply to the whole; cells left unsolved keep the bounds they
    /// reached, and the game's value is then given as a range.
    pub fn solve_blind(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<BlindSolution, String> {
        let bg = BlindGame::of(pos).ok_or("not a blind phase (s2, s1)")?;
        if bg.a_starts.is_empty() || bg.b_starts.is_empty() {
            return Err("a player has no opening start".into());
        }
        let start = Instant::now();
        let n = bg.a_starts.len() * bg.b_starts.len();
        let mut nodes = 0;
        // The cells are deepened together, a ply at a time, so that a
        // limit leaves every cell with bounds rather than the first cells
        // solved and the rest untouched; the shared table carries each
        // cell's facts from one round to the next.
        let cols = bg.b_starts.len();
        let mut cells: Vec<Vec<Option<Solution>>> = vec![vec![None; cols]; bg.a_starts.len()];
        let max = limits.plies.unwrap_or(MAX_PLIES).min(MAX_PLIES);
        'deepen: for r in 1..=max {
            let mut open = false;
            for (i, row) in bg.cells.iter().enumerate() {
                for (j, c) in row.iter().enumerate() {
                    if cells[i][j].as_ref().is_some_and(|s| s.value.is_some()) {
                        continue;
                    }
                    let out_of_time = limits.time.is_some_and(|t| start.elapsed() >= t);
                    let out_of_nodes = limits.nodes.is_some_and(|l| nodes >= l);
                    if cells[i][j].is_some() && (stop.load(Relaxed) || out_of_time || out_of_nodes)
                    {
                        break 'deepen;
                    }
                    let round = SolveLimits {
                        plies: Some(r),
                        ..limits.clone()
                    };
                    let mut sol = self.solve_cell(
                        c,
                        &round,
                        stop,
                        every,
                        progress,
                        Some((i * cols + j + 1, n)),
                        start,
                        nodes,
                    )?;
                    nodes += sol.nodes;
                    if let Some(old) = &cells[i][j] {
                        sol.nodes += old.nodes;
                        sol.proven += old.proven;
                    }
                    open |= sol.value.is_none();
                    cells[i][j] = Some(sol);
                }
            }
            if !open {
                break;
            }
        }
        let cells: Vec<Vec<Solution>> = cells
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|c| c.unwrap_or_else(Solution::unknown))
                    .collect()
            })
            .collect();
        let for_a: Vec<Vec<(i8, i8)>> = cells
            .iter()
            .zip(&bg.cells)
            .map(|(row, ps)| {
                row.iter()
                    .zip(ps)
                    .map(|(s, p)| {
                        let (lo, hi) = s.range();
                        if p.side_to_move() == Side::A {
                            (lo, hi)
                        } else {
                            (-hi, -lo)
                        }
                    })
                    .collect()
            })
            .collect();
        let lo: Vec<Vec<f64>> = for_a
            .iter()
            .map(|r| r.iter().map(|c| c.0 as f64).collect())
            .collect();
        let hi: Vec<Vec<f64>> = for_a
            .iter()
            .map(|r| r.iter().map(|c| c.1 as f64).collect())
            .collect();
        let exact = for_a.iter().flatten().all(|c| c.0 == c.1);
        let eq_lo = matrix::solve(&lo);
        let value_hi = if exact {
            eq_lo.value
        } else {
            matrix::solve(&hi).value
        };
        Ok(BlindSolution {
            a_starts: bg.a_starts,
            b_starts: bg.b_starts,
            positions: bg.cells,
            cells,
            for_a,
            value_lo: eq_lo.value,
            value_hi,
            equilibrium: exact.then_some(eq_lo),
            nodes,
            elapsed: start.elapsed(),
        })
    }
}
