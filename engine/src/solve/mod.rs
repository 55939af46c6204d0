//! The solver: the game-theoretic value of a position (a win, loss or draw
//! for the side to move, with the distance in plies to the end under best
//! play), proven, or the bounds proven when a limit stops it first.
//!
//! What a value means is in RULES.md section 12. In short: values are those
//! of the game where a line that never ends is a draw (the engine's
//! repetition rule turns every such line into a draw, and the value does
//! not depend on which repetition it counts); wins and losses are proven by
//! finite trees that read no history (`search`, or `pns` whose proofs never
//! use a repetition, the exact distance then by `search`), draws by a finite
//! tree whose every line ends in a drawn end, by both players' proof-number
//! searches failing (`pns`, sound despite graph-history interaction: its
//! module says why), or by the exhaustive retrograde analysis of the whole
//! reachable graph (`retro`), which is also the second method that checks
//! the others, with the plain checker (`check`).
//!
//! The simultaneous opening's blind phases are a matrix game over the two
//! players' starts: every cell is solved, and the game of cell values (+1
//! a win for A, 0 a draw, -1 a loss) is solved exactly (`blind::matrix`).
//! With holds (RULES.md 8.10) every cell is a race whose ticks are 2x2
//! games: `holds` values it exactly, a fraction, from leaves this solver
//! proves.

pub mod book;
pub mod check;
pub mod classes;
pub mod frac;
pub mod holds;
pub mod pns;
pub mod reprove;
pub mod retro;
pub(crate) mod search;
pub mod store;
pub mod table;

use crate::blind::matrix::{self, Equilibrium};
use crate::blind::BlindGame;
use crate::board::Position;
use crate::threads::Crew;
use crate::types::moves::Move;
use crate::types::Side;
use pns::Pns;
use search::{Shared, Worker};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use store::Saved;
use table::{FactTable, Facts, MAX_PLIES, NONE};

/// A proven value, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies.
    Win(u32),
    /// The side to move loses after this many plies.
    Loss(u32),
    /// Neither side can force a win: the game is drawn with best play.
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

/// The proving search a solver runs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// Iterative-deepening alpha-beta over win/draw/loss (`search`): the
    /// value and its exact distance together.
    Ab,
    /// Depth-first proof-number search (`pns`) for the value, one search
    /// per attacker (draws by cycles included), then the alpha-beta search
    /// for the exact distance, from the proof's facts. The default: on the
    /// same positions it proves values tens of times faster, and values
    /// alpha-beta does not reach (BENCHMARKS.md "Solver").
    #[default]
    Pns,
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Algorithm, String> {
        match s {
            "ab" => Ok(Algorithm::Ab),
            "pns" => Ok(Algorithm::Pns),
            _ => Err(format!("unknown algorithm '{s}' (ab, pns)")),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::Ab => "ab",
            Algorithm::Pns => "pns",
        })
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
pub(crate) fn end_value(pos: &Position) -> Value {
    if crate::gametree::terminal_value(pos, 0) == crate::gametree::DRAW {
        Value::Draw
    } else {
        Value::Loss(0)
    }
}

/// Settings of a solver.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Search threads.
    pub threads: usize,
    /// Memory of the solver's tables, in MiB: all of it the table of facts
    /// with `Ab`; with `Pns` half of it, and a quarter each the two
    /// proof-number tables.
    pub hash_mb: usize,
    /// Which proof algorithm runs.
    pub algorithm: Algorithm,
    /// The save file and the code it is made for (positions of another
    /// code are refused): facts are loaded from it and appended as proven.
    pub save: Option<(PathBuf, store::Code)>,
    /// Comment lines written at the head of what this run appends.
    pub header: Vec<String>,
    /// Adjiboto's retrograde tables (`classes`): the proof-number search
    /// settles every position they hold by its value (`Pns::with_tables`).
    pub tables: Option<std::sync::Arc<classes::Tables>>,
    /// With `Pns`: prove only this player's win, every thread on it. The
    /// other player's win is not sought, so where this player does not win
    /// the value stays a range (he does not win); `None` (the default):
    /// both players' wins, each on half of the threads.
    pub attacker: Option<Side>,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            threads: 1,
            hash_mb: 64,
            algorithm: Algorithm::default(),
            save: None,
            header: Vec::new(),
            tables: None,
            attacker: None,
        }
    }
}

/// Where a solve stops if it has not proven the value before.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// The deepest iteration (plies); `None`: as deep as the table stores.
    pub plies: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub time: Option<Duration>,
}

/// A progress report, made at a steady pace while a solve runs.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The iteration being searched (plies).
    pub plies: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes a second so far.
    pub nps: u64,
    /// Positions whose win, loss or draw became known.
    pub proven: u64,
    /// How full the table of facts is, in permille.
    pub hashfull: u32,
    /// Time since the solve began.
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
    /// The side to move forces a win within this many plies (known when
    /// the win is proven, its exact distance perhaps not).
    pub win_within: Option<u32>,
    /// The other side forces a win within this many plies.
    pub loss_within: Option<u32>,
    /// With `Pns`: what the proof-number searches did before the
    /// alpha-beta search took over the distance.
    pub pns: Option<PnsPhase>,
    /// Best play when the value is a win or loss (the fastest win, the
    /// longest loss), to the end.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Positions whose win, loss or draw became known.
    pub proven: u64,
    /// Time the solve took.
    pub elapsed: Duration,
}

impl Solution {
    /// Nothing proven (a cell a limit kept the solver from).
    pub fn unknown() -> Solution {
        Solution {
            value: None,
            nowin_within: 0,
            noloss_within: 0,
            win_within: None,
            loss_within: None,
            pns: None,
            pv: Vec::new(),
            nodes: 0,
            proven: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// The value as a range from the side to move's point of view: (-1, 1)
    /// when nothing is proven; a win or loss whose distance is not exact
    /// yet counts as proven.
    pub fn range(&self) -> (i8, i8) {
        match (self.value, self.win_within, self.loss_within) {
            (Some(v), _, _) => (v.sign(), v.sign()),
            (None, Some(_), _) => (1, 1),
            (None, _, Some(_)) => (-1, -1),
            _ => (-1, 1),
        }
    }

    /// One line: the value, or the bounds proven.
    pub fn describe(&self) -> String {
        match (self.value, self.win_within, self.loss_within) {
            (Some(v), _, _) => v.to_string(),
            (None, Some(n), _) => format!(
                "win within {n} plies, not within {}: distance not exact",
                self.nowin_within
            ),
            (None, _, Some(n)) => format!(
                "loss within {n} plies, not within {}: distance not exact",
                self.noloss_within
            ),
            _ => format!(
                "unknown: no win for the side to move within {} plies, no loss within {}",
                self.nowin_within, self.noloss_within
            ),
        }
    }
}

impl Solution {
    /// The solution of `pos` from those of all its children (`legal_moves`
    /// order, each from its own side to move): the best value for the side
    /// to move, a ply further from the end, and the line through the child
    /// that gives it. A win is exact when no other child can give a faster
    /// one (its bounds say so); a draw or a loss needs every child proven.
    /// Otherwise the bounds of the children give the bounds of `pos`.
    /// `choro merge` puts subtrees solved apart together with it; values
    /// read no history (RULES.md 12), so this is what a search of `pos`
    /// itself proves.
    pub fn of_children(pos: &Position, children: &[(Move, Position, Solution)]) -> Solution {
        let me = pos.side_to_move();
        // For each child: its value for the side to move at `pos`, and
        // the plies within which that side cannot win, and cannot lose.
        let mine: Vec<(Option<Value>, u32, u32)> = children
            .iter()
            .map(|(_, p, s)| {
                let same = p.side_to_move() == me;
                let v = s.value.map(|v| match v {
                    Value::Win(n) if !same => Value::Loss(n),
                    Value::Loss(n) if !same => Value::Win(n),
                    v => v,
                });
                let (nowin, noloss) = match v {
                    Some(Value::Win(n)) => (n.saturating_sub(1), MAX_PLIES),
                    Some(Value::Loss(n)) => (MAX_PLIES, n.saturating_sub(1)),
                    Some(Value::Draw) => (MAX_PLIES, MAX_PLIES),
                    None if same => (s.nowin_within, s.noloss_within),
                    None => (s.noloss_within, s.nowin_within),
                };
                (v, nowin, noloss)
            })
            .collect();
        let up = |n: u32| n.saturating_add(1).min(MAX_PLIES);
        let mut best: Option<(Value, usize)> = None;
        for (k, (v, _, _)) in mine.iter().enumerate() {
            if let Some(v) = *v {
                let v = match v {
                    Value::Win(n) => Value::Win(n + 1),
                    Value::Loss(n) => Value::Loss(n + 1),
                    Value::Draw => Value::Draw,
                };
                if best.is_none_or(|(b, _)| rank(v) > rank(b)) {
                    best = Some((v, k));
                }
            }
        }
        let all = mine.iter().all(|c| c.0.is_some());
        let nowin = mine.iter().map(|c| c.1).min().map_or(0, up);
        let noloss = mine.iter().map(|c| c.2).max().map_or(0, up);
        let exact = match best {
            // No child gives a win faster than in n - 1 plies from it.
            Some((Value::Win(n), _)) => mine.iter().all(|c| c.1 + 2 >= n),
            Some(_) => all,
            None => false,
        };
        let mut s = Solution {
            value: None,
            nowin_within: nowin,
            noloss_within: noloss,
            win_within: match best {
                Some((Value::Win(n), _)) => Some(n),
                _ => None,
            },
            loss_within: match best {
                Some((Value::Loss(n), _)) if all => Some(n),
                _ => None,
            },
            pns: None,
            pv: Vec::new(),
            nodes: children.iter().map(|c| c.2.nodes).sum(),
            proven: children.iter().map(|c| c.2.proven).sum(),
            elapsed: children.iter().map(|c| c.2.elapsed).sum(),
        };
        if let (true, Some((v, k))) = (exact, best) {
            let (m, _, child) = &children[k];
            s.value = Some(v);
            match v {
                Value::Win(n) => s.nowin_within = n - 1,
                Value::Loss(n) => s.noloss_within = n - 1,
                Value::Draw => {}
            }
            if v != Value::Draw {
                s.pv = std::iter::once(*m)
                    .chain(child.pv.iter().copied())
                    .collect();
            }
        }
        s
    }
}

/// Order of values for the side that has them: the fastest win first,
/// then a draw, then the longest loss.
fn rank(v: Value) -> i64 {
    match v {
        Value::Win(n) => i64::MAX - n as i64,
        Value::Draw => 0,
        Value::Loss(n) => i64::MIN + n as i64,
    }
}

/// The proof-number part of a solve.
#[derive(Copy, Clone, Debug)]
pub struct PnsPhase {
    /// Nodes of both attackers' searches.
    pub nodes: u64,
    /// Elapsed when they ended (since the solve began).
    pub elapsed: Duration,
    /// The side to move's search ("he wins") and the other side's.
    pub mine: pns::Outcome,
    /// The other side's search ("he wins").
    pub theirs: pns::Outcome,
}

/// The result of solving a blind position (`s2`, `s1`).
#[derive(Clone, Debug)]
pub struct BlindSolution {
    /// A's starts (the matrix's rows).
    pub a_starts: Vec<Move>,
    /// B's starts (the matrix's columns).
    pub b_starts: Vec<Move>,
    /// `cells[i][j]`: the position after A's `a_starts[i]` and B's `b_starts[j]`.
    pub positions: Vec<Vec<Position>>,
    /// Each cell solved (values from that cell's side to move).
    pub cells: Vec<Vec<Solution>>,
    /// Each cell's value for A as a range: (lo, hi) in -1..=1.
    pub for_a: Vec<Vec<(i8, i8)>>,
    /// The matrix game's value for A: exact when every cell is proven.
    pub value_lo: f64,
    /// The matrix game's value for A: its upper bound (equal to `value_lo` when exact).
    pub value_hi: f64,
    /// The exact equilibrium, when every cell is proven.
    pub equilibrium: Option<Equilibrium>,
    /// Nodes over every cell.
    pub nodes: u64,
    /// Time the solve took.
    pub elapsed: Duration,
}

impl BlindSolution {
    /// The matrix game of solved cells: each cell's value for A, and the
    /// game's value (exact, with its equilibrium, when every cell is
    /// proven). `choro merge` builds it from cells solved in separate runs.
    pub fn of_cells(
        a_starts: Vec<Move>,
        b_starts: Vec<Move>,
        positions: Vec<Vec<Position>>,
        cells: Vec<Vec<Solution>>,
        nodes: u64,
        elapsed: Duration,
    ) -> BlindSolution {
        let for_a: Vec<Vec<(i8, i8)>> = cells
            .iter()
            .zip(&positions)
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
        BlindSolution {
            a_starts,
            b_starts,
            positions,
            cells,
            for_a,
            value_lo: eq_lo.value,
            value_hi,
            equilibrium: exact.then_some(eq_lo),
            nodes,
            elapsed,
        }
    }
}

/// A solver: its table of facts lives as long as it does, so solving
/// several positions of one game (the cells of a blind matrix) shares it.
pub struct Solver {
    table: FactTable,
    saved: Option<Saved>,
    threads: usize,
    /// Runs on the calling thread, starting none (the searchers' solve
    /// within a move): threads started for each move left their memory
    /// behind them (RELIABILITY.md finding 17).
    inline: bool,
    algorithm: Algorithm,
    /// With `Pns`: the one player whose win is sought (`SolveConfig`).
    attacker: Option<Side>,
    /// With `Pns`: the proof-number searches, one per attacker (A, B),
    /// their tables kept from one solve to the next.
    pns: Vec<Mutex<Pns>>,
    /// Their counters, read for progress while they run.
    live: Vec<Arc<pns::Live>>,
    /// When the last progress report was made: kept across the solves of
    /// one run (cells, rounds), so that many short ones still report at
    /// the steady pace asked for.
    reported: Mutex<Instant>,
}

/// How often the calling thread looks at the clock and the stop flag: a
/// short time limit (a solve within a move's time) is kept to about a
/// twentieth of itself.
fn poll_every(limits: &SolveLimits) -> Duration {
    limits.time.map_or(Duration::from_millis(10), |t| {
        (t / 20).clamp(Duration::from_millis(1), Duration::from_millis(10))
    })
}

/// Stack of a solver thread: the search recurses once per ply.
const STACK: usize = 256 << 20;
/// The first node budget of a proof-number round on one thread; each next
/// round doubles it.
const PNS_ROUND: u64 = 1 << 14;

/// What every step of one solve is run under: its limits, the caller's
/// stop, the progress reports, the cell of a blind matrix it belongs to,
/// when it started and the nodes counted before it (the limits and the
/// reports are of the whole).
struct Run<'r> {
    limits: &'r SolveLimits,
    stop: &'r AtomicBool,
    every: Duration,
    progress: &'r mut dyn FnMut(&Progress),
    cell: Option<(usize, usize)>,
    start: Instant,
    nodes_before: u64,
}

/// What one run of the alpha-beta iterations found.
struct Deepened {
    nodes: u64,
    proven: u64,
    /// The deepest finished iteration: `(plies, value, exact)`.
    finished: Option<(u32, i8, bool)>,
}

impl Solver {
    /// A solver with its tables reserved and its save file loaded.
    pub fn new(config: &SolveConfig) -> Result<Solver, String> {
        if config.threads == 0 {
            return Err("threads must be at least 1".into());
        }
        let facts_mb = match config.algorithm {
            Algorithm::Ab => config.hash_mb,
            Algorithm::Pns => config.hash_mb / 2,
        };
        let table = FactTable::try_new(facts_mb)
            .map_err(|_| format!("cannot reserve a table of {} MiB", config.hash_mb))?;
        if config.attacker.is_some() && config.algorithm != Algorithm::Pns {
            return Err("one attacker is for the proof-number search (pns): alpha-beta proves both sides' wins at once".into());
        }
        // Each search's threads are set at each call (`prove_pns`). With
        // one attacker its table has both quarters, the other's the least.
        let pns = match config.algorithm {
            Algorithm::Ab => Vec::new(),
            Algorithm::Pns => [Side::A, Side::B]
                .into_iter()
                .map(|who| {
                    let mb = match config.attacker {
                        None => config.hash_mb / 4,
                        Some(a) if a == who => config.hash_mb / 2,
                        Some(_) => 1,
                    };
                    Ok(Mutex::new(
                        Pns::new(who, mb)?.with_tables(config.tables.clone()),
                    ))
                })
                .collect::<Result<_, String>>()?,
        };
        let saved = match &config.save {
            Some((p, code)) => Some(Saved::open(p, code, &config.header)?),
            None => None,
        };
        let live = pns.iter().map(|p| lock(p).live()).collect();
        Ok(Solver {
            table,
            saved,
            threads: config.threads,
            inline: false,
            algorithm: config.algorithm,
            attacker: config.attacker,
            pns,
            live,
            reported: Mutex::new(Instant::now()),
        })
    }

    /// A solver over a table reserved by its owner (the searcher's share of
    /// `Hash`), with no save file, that runs on the calling thread and
    /// starts none. Alpha-beta: the searcher's solve must keep to a move's
    /// time, and its memory is that one table.
    pub fn with_table(table: FactTable) -> Solver {
        Solver {
            table,
            saved: None,
            threads: 1,
            inline: true,
            algorithm: Algorithm::Ab,
            attacker: None,
            pns: Vec::new(),
            live: Vec::new(),
            reported: Mutex::new(Instant::now()),
        }
    }

    /// Forget every fact of the table (the save file is kept).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Positions loaded from the save file.
    pub fn saved_positions(&self) -> usize {
        self.saved.as_ref().map_or(0, |s| s.len())
    }

    /// Positions the tables hold (a scan of the whole table of facts).
    pub fn stored(&self) -> u64 {
        self.table.len() + self.pns.iter().map(|p| lock(p).table().len()).sum::<u64>()
    }

    /// How close the tables say `pos` is to a win of `winner`: the depth of
    /// a proof (a proof-number proof, or a fact "wins within N"), `u32::MAX`
    /// when they know none. The order of a plain check (`check::Checker::
    /// with_order`) of a solved value.
    pub fn proof_order(&self, pos: &Position, winner: Side) -> u32 {
        let mut best = u32::MAX;
        if let Some(p) = self.pns.get(winner.index()) {
            if let pns::Outcome::Proven(d) = lock(p).known(pos) {
                best = d;
            }
        }
        let f = self.known(pos);
        let fact = if pos.side_to_move() == winner {
            f.win_le
        } else {
            f.loss_le
        };
        if fact != NONE {
            best = best.min(fact);
        }
        best
    }

    /// Memory of the tables.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
            + self
                .pns
                .iter()
                .map(|p| lock(p).table().bytes())
                .sum::<usize>()
    }

    /// A write error of the save file, if one happened.
    pub fn save_error(&self) -> Option<String> {
        self.saved.as_ref().and_then(|s| s.error())
    }

    /// What loading the save file had to say (a torn last line dropped).
    pub fn save_note(&self) -> Option<&str> {
        self.saved.as_ref().and_then(|s| s.note())
    }

    /// An error when `pos` is not of the code the save file is made for.
    fn check_code(&self, pos: &Position) -> Result<(), String> {
        match &self.saved {
            Some(s) if !s.code().holds(pos) => Err(format!(
                "the save file is made for {}, not for this position",
                s.code().name()
            )),
            _ => Ok(()),
        }
    }

    /// What the table and the save file know of `pos`.
    pub fn known(&self, pos: &Position) -> Facts {
        let t = self.table.probe(pos.hash()).unwrap_or_default();
        match self.saved.as_ref().and_then(|s| s.get(pos)) {
            Some(f) => t.merge(&f),
            None => t,
        }
    }

    /// [`Solver::solve`] with no way to stop it from outside and no progress
    /// reports: what a test, an example or a one-off check wants.
    pub fn solve_within(&self, pos: &Position, limits: &SolveLimits) -> Result<Solution, String> {
        self.solve(
            pos,
            limits,
            &AtomicBool::new(false),
            Duration::MAX,
            &mut |_| {},
        )
    }

    /// Prove the value of `pos` (not in a blind phase), or the bounds the
    /// limits allow. `stop` ends it early from another thread; `progress` is
    /// called every `every` on the calling thread.
    ///
    /// ```
    /// use choro_engine::solve::{SolveConfig, SolveLimits, Solver, Value};
    /// use choro_engine::Position;
    /// use std::sync::atomic::AtomicBool;
    /// use std::time::Duration;
    ///
    /// let solver = Solver::new(&SolveConfig { hash_mb: 1, ..SolveConfig::default() }).unwrap();
    /// let pos: Position =
    ///     "didinga:8 0,0,0,0,0,0,0,1/0,0,0,0,0,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 a m"
    ///         .parse()
    ///         .unwrap();
    /// let stop = AtomicBool::new(false);
    /// let limits = SolveLimits::default();
    /// let sol = solver.solve(&pos, &limits, &stop, Duration::MAX, &mut |_| {}).unwrap();
    /// assert_eq!(sol.value, Some(Value::Win(1)));
    /// assert_eq!(sol.pv.len(), 1);
    /// ```
    pub fn solve(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, String> {
        self.check_code(pos)?;
        let mut run = Run {
            limits,
            stop,
            every,
            progress,
            cell: None,
            start: Instant::now(),
            nodes_before: 0,
        };
        self.solve_cell(pos, &mut run, false)
    }

    fn solve_cell(
        &self,
        pos: &Position,
        run: &mut Run,
        sign_only: bool,
    ) -> Result<Solution, String> {
        let (limits, stop, start) = (run.limits, run.stop, run.start);
        if pos.phase().is_blind() {
            return Err("a blind phase (s2, s1) is a matrix game: use solve_blind".into());
        }
        if !pos.has_legal_move() {
            // The end itself: no iteration, the distance is 0.
            return Ok(Solution {
                value: Some(end_value(pos)),
                elapsed: start.elapsed(),
                ..Solution::unknown()
            });
        }
        let max = limits.plies.unwrap_or(MAX_PLIES).min(MAX_PLIES);
        let known = self.known(pos);
        let node_limit = limits
            .nodes
            .map_or(u64::MAX, |n| n.saturating_sub(run.nodes_before));
        let (mut nodes, mut proven) = (0, 0);
        let mut facts = known;
        let mut phase = None;
        let signed = known.win_le != NONE || known.loss_le != NONE || known.draw;
        if self.algorithm == Algorithm::Pns && !signed {
            let (n, p, f, o) = self.prove_pns(pos, node_limit, run)?;
            nodes += n;
            proven += p;
            facts = facts.merge(&f);
            phase = Some(PnsPhase {
                nodes: n,
                elapsed: start.elapsed(),
                mine: o[0],
                theirs: o[1],
            });
        }
        // The alpha-beta iterations: the whole proof with `Ab`; with `Pns`
        // the exact distance of a win or loss proven, from the first depth
        // not yet ruled out up to the proof's depth.
        let run_ab = match self.algorithm {
            Algorithm::Ab => true,
            Algorithm::Pns => !sign_only && (facts.win_le != NONE || facts.loss_le != NONE),
        };
        let from = facts.nowin_ge.min(facts.noloss_ge) + 1;
        let to = match self.algorithm {
            Algorithm::Ab => max,
            Algorithm::Pns => max.min(facts.win_le.min(facts.loss_le)),
        };
        if run_ab && facts.value().is_none() && from <= to && nodes < node_limit {
            let d = self.deepen(pos, from, to, node_limit - nodes, run, nodes)?;
            nodes += d.nodes;
            proven += d.proven;
            if let Some((r, v, exact)) = d.finished {
                // Iteration r was begun only once r - 1 had shown neither side
                // winning (by this run, or by the facts it started from).
                facts = facts
                    .merge(&Facts::from_result(r - 1, 0, -1, 1, false))
                    .merge(&Facts::from_result(r, v, -1, 1, exact));
            }
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
                // The line is searched again from the table, under the same
                // time limit and stop: cut short, it is the part found.
                let again = AtomicBool::new(false);
                let sh2 = Shared::new(&self.table, self.saved.as_ref(), &again, u64::MAX);
                let v = value.map_or(0, Value::sign);
                if self.inline {
                    let sh2 = sh2.watching(stop, limits.time.map(|t| start + t));
                    Worker::new(&sh2, 0).best_line(pos, v, d)
                } else {
                    let done = Done::new(1, poll_every(limits));
                    std::thread::scope(|s| {
                        let h = std::thread::Builder::new()
                            .stack_size(STACK)
                            .spawn_scoped(s, || {
                                let _ended = done.guard();
                                Worker::new(&sh2, 0).best_line(pos, v, d)
                            })
                            .map_err(|e| format!("cannot start a solver thread: {e}"))?;
                        watch(&done, limits, start, stop, &again, None, &mut || {});
                        h.join().map_err(|_| "a solver thread panicked".to_string())
                    })?
                }
            }
            _ => Vec::new(),
        };
        Ok(Solution {
            value,
            nowin_within: match value {
                Some(Value::Win(d)) => d - 1,
                _ => facts.nowin_ge,
            },
            noloss_within: match value {
                Some(Value::Loss(d)) => d - 1,
                _ => facts.noloss_ge,
            },
            win_within: (facts.win_le != NONE).then_some(facts.win_le),
            loss_within: (facts.loss_le != NONE).then_some(facts.loss_le),
            pns: phase,
            pv,
            nodes,
            proven,
            elapsed: start.elapsed(),
        })
    }

    /// Run the alpha-beta iterations `from..=to` on every thread (Lazy SMP)
    /// until the root is decided, a limit, or a stop; `earlier` nodes of
    /// this position's solve came before.
    fn deepen(
        &self,
        pos: &Position,
        from: u32,
        to: u32,
        node_limit: u64,
        run: &mut Run,
        earlier: u64,
    ) -> Result<Deepened, String> {
        let (limits, stop, start) = (run.limits, run.stop, run.start);
        let halt = AtomicBool::new(false);
        let sh = Shared::new(&self.table, self.saved.as_ref(), &halt, node_limit);
        if self.inline {
            let sh = sh.watching(stop, limits.time.map(|t| start + t));
            Worker::new(&sh, 0).iterate(pos, from, to);
            return Ok(Deepened {
                nodes: sh.nodes.load(Relaxed),
                proven: sh.proven.load(Relaxed),
                finished: sh.finished(),
            });
        }
        let done = Done::new(self.threads, poll_every(limits));
        std::thread::scope(|s| -> Result<(), String> {
            // Joined when the scope's closure returns, an early one too.
            let mut crew = Crew::new();
            for id in 0..self.threads {
                let (sh, done) = (&sh, &done);
                let spawned =
                    std::thread::Builder::new()
                        .stack_size(STACK)
                        .spawn_scoped(s, move || {
                            let _ended = done.guard();
                            Worker::new(sh, id as u64).iterate(pos, from, to)
                        });
                match spawned {
                    Ok(h) => crew.push(h),
                    Err(e) => {
                        halt.store(true, Relaxed);
                        return Err(format!("cannot start a solver thread: {e}"));
                    }
                }
            }
            let pace = Some((&self.reported, run.every));
            watch(&done, limits, start, stop, &halt, pace, &mut || {
                let bounds = sh.finished().map_or(from - 1, |(d, _, _)| d);
                let nodes = run.nodes_before + earlier + sh.nodes.load(Relaxed);
                let proven = sh.proven.load(Relaxed);
                let p = self.progress(nodes, proven, start, bounds + 1, bounds, run.cell);
                (run.progress)(&p);
            });
            crew.join();
            Ok(())
        })?;
        Ok(Deepened {
            nodes: sh.nodes.load(Relaxed),
            proven: sh.proven.load(Relaxed),
            finished: sh.finished(),
        })
    }

    /// The proof-number searches of both attackers on `pos`: at once when
    /// the solver has two threads or more (each search on half of them, and
    /// on all of them once the other's is disproven), else by turns on one
    /// thread with doubling node budgets, until one proves, both disprove,
    /// or a limit. What they
    /// settled goes into the table of facts (for the alpha-beta search that
    /// finds the distance); returns the nodes, the positions settled and
    /// the root's facts.
    fn prove_pns(
        &self,
        pos: &Position,
        node_limit: u64,
        run: &mut Run,
    ) -> Result<(u64, u64, Facts, [pns::Outcome; 2]), String> {
        let (limits, stop, start) = (run.limits, run.stop, run.start);
        let halt = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let base: Vec<u64> = self.live.iter().map(|l| l.nodes.load(Relaxed)).collect();
        let outcomes = Mutex::new([pns::Outcome::Unknown; 2]);
        let me = pos.side_to_move();
        // Set to make an attacker's search return, to be called again on
        // every thread when the other's was disproven.
        let leave = [AtomicBool::new(false), AtomicBool::new(false)];
        // A proof by either attacker settles the root: the other stops.
        let attack = |who: Side, budget: u64, threads: usize| -> pns::Outcome {
            let mut p = lock(&self.pns[who.index()]);
            p.set_threads(threads);
            let before = p.nodes();
            let o = p.prove_or_leave(pos, budget, &halt, &leave[who.index()]);
            nodes.fetch_add(p.nodes() - before, Relaxed);
            if matches!(o, pns::Outcome::Proven(_)) {
                halt.store(true, Relaxed);
            }
            lock(&outcomes)[who.index()] = o;
            o
        };
        let open = |o: &[pns::Outcome; 2]| {
            !o.iter().any(|x| matches!(x, pns::Outcome::Proven(_)))
                && o.contains(&pns::Outcome::Unknown)
        };
        let both = self.attacker.is_none() && self.threads >= 2;
        let done = Done::new(if both { 2 } else { 1 }, poll_every(limits));
        std::thread::scope(|s| -> Result<(), String> {
            // Joined when the scope's closure returns, an early one too.
            let mut crew = Crew::new();
            if let Some(who) = self.attacker {
                // One attacker, on every thread; the other's outcome stays
                // unknown.
                let (attack, done, threads) = (&attack, &done, self.threads);
                let h = std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let _ended = done.guard();
                        attack(who, node_limit, threads);
                    })
                    .map_err(|e| format!("cannot start a solver thread: {e}"))?;
                crew.push(h);
            } else if both {
                // Each attacker on half of the threads; when one is
                // disproven (and the root not yet settled), the other is
                // called again on all of them, with what is left of the
                // nodes.
                let (all, half) = (self.threads, (self.threads / 2).max(1));
                for who in [me, me.other()] {
                    let (attack, done, leave, halt, nodes) =
                        (&attack, &done, &leave, &halt, &nodes);
                    let spawned =
                        std::thread::Builder::new()
                            .stack_size(STACK)
                            .spawn_scoped(s, move || {
                                let _ended = done.guard();
                                let mut o = attack(who, node_limit / 2, half);
                                while o == pns::Outcome::Unknown
                                    && leave[who.index()].swap(false, Relaxed)
                                    && !halt.load(Relaxed)
                                {
                                    let left = node_limit.saturating_sub(nodes.load(Relaxed));
                                    o = attack(who, left, all);
                                }
                                if o == pns::Outcome::Disproven && !halt.load(Relaxed) {
                                    leave[who.other().index()].store(true, Relaxed);
                                }
                            });
                    match spawned {
                        Ok(h) => crew.push(h),
                        Err(e) => {
                            halt.store(true, Relaxed);
                            return Err(format!("cannot start a solver thread: {e}"));
                        }
                    }
                }
            } else {
                let (attack, nodes, halt, outcomes) = (&attack, &nodes, &halt, &outcomes);
                let done = &done;
                let h = std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let _ended = done.guard();
                        let mut budget = PNS_ROUND;
                        while open(&lock(outcomes)) && !halt.load(Relaxed) {
                            for who in [me, me.other()] {
                                let left = node_limit.saturating_sub(nodes.load(Relaxed));
                                if lock(outcomes)[who.index()] == pns::Outcome::Unknown {
                                    attack(who, budget.min(left), 1);
                                }
                            }
                            if nodes.load(Relaxed) >= node_limit {
                                break;
                            }
                            budget = budget.saturating_mul(2);
                        }
                    })
                    .map_err(|e| format!("cannot start a solver thread: {e}"))?;
                crew.push(h);
            }
            let pace = Some((&self.reported, run.every));
            watch(&done, limits, start, stop, &halt, pace, &mut || {
                let running: u64 = self
                    .live
                    .iter()
                    .zip(&base)
                    .map(|(l, b)| l.nodes.load(Relaxed).saturating_sub(*b))
                    .sum();
                let p = self.progress(run.nodes_before + running, 0, start, 0, 0, run.cell);
                (run.progress)(&p);
            });
            crew.join();
            Ok(())
        })?;
        // Everything settled goes to the table of facts, from the side to
        // move's point of view.
        let mut settled = 0;
        for p in &self.pns {
            let p = lock(p);
            for e in p.table().settled() {
                let f = settled_facts(&e);
                self.table.store(e.key, &f);
                settled += 1;
            }
        }
        let o = *lock(&outcomes);
        let mut f = Facts::default();
        for who in [me, me.other()] {
            let mut g = settled_facts(&pns::Settled {
                key: pos.hash(),
                attacker_moves: true,
                proof: match o[who.index()] {
                    pns::Outcome::Proven(d) => Some(d),
                    pns::Outcome::Disproven => None,
                    pns::Outcome::Unknown => continue,
                },
            });
            if who != me {
                // The other attacker's facts, turned to the side to move's.
                std::mem::swap(&mut g.win_le, &mut g.loss_le);
                std::mem::swap(&mut g.nowin_ge, &mut g.noloss_ge);
            }
            f = f.merge(&g);
        }
        if o == [pns::Outcome::Disproven; 2] {
            // Neither side forces an end: a draw (RULES.md 12.2).
            f.draw = true;
        }
        self.table.store(pos.hash(), &f);
        let ours = [o[me.index()], o[me.other().index()]];
        Ok((nodes.load(Relaxed), settled, f, ours))
    }

    fn progress(
        &self,
        nodes: u64,
        proven: u64,
        start: Instant,
        plies: u32,
        bounds: u32,
        cell: Option<(usize, usize)>,
    ) -> Progress {
        let t = start.elapsed();
        // The proof-number searches are read through their live counters:
        // their locks are held while they run.
        let hashfull = match self.algorithm {
            Algorithm::Ab => self.table.hashfull(),
            Algorithm::Pns => self
                .live
                .iter()
                .map(|l| (l.stored.load(Relaxed) * 1000 / l.capacity.max(1)) as u32)
                .max()
                .unwrap_or(0),
        };
        Progress {
            plies,
            nodes,
            nps: (nodes as f64 / t.as_secs_f64().max(1e-3)) as u64,
            proven,
            hashfull,
            elapsed: t,
            bounds,
            cell,
        }
    }

    /// Solve a blind position (`s2`, `s1`): every cell of the matrix of
    /// starts, then the matrix game of their values for A (+1, 0, -1).
    /// Limits apply to the whole; cells left unsolved keep the bounds they
    /// reached (the whole range for a cell that a stop or the time limit
    /// left unsearched), and the game's value is then given as a range.
    pub fn solve_blind(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<BlindSolution, String> {
        self.check_code(pos)?;
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
        // The rounds: depths for alpha-beta (`--plies` bounds them); for pns
        // node budgets, `--plies` bounding only each cell's distance search.
        let max = match self.algorithm {
            Algorithm::Ab => limits.plies.unwrap_or(MAX_PLIES).min(MAX_PLIES),
            Algorithm::Pns => MAX_PLIES,
        };
        'deepen: for r in 1..=max {
            let mut open = false;
            // With pns, the signs of every cell first (all the matrix game
            // needs), then the distances.
            let sign_only = self.algorithm == Algorithm::Pns
                && cells.iter().flatten().any(|c| {
                    c.as_ref().is_none_or(|s| {
                        let (lo, hi) = s.range();
                        lo != hi
                    })
                });
            for (i, row) in bg.cells.iter().enumerate() {
                for (j, c) in row.iter().enumerate() {
                    if cells[i][j].as_ref().is_some_and(|s| {
                        let (lo, hi) = s.range();
                        s.value.is_some() || sign_only && lo == hi
                    }) {
                        continue;
                    }
                    // A stop or the time limit ends the solve at once: a
                    // cell not yet searched keeps the whole range. The node
                    // limit first gives every cell its first round, so that
                    // what a node-bounded solve finds does not depend on
                    // the order of the cells alone.
                    let out_of_time = limits.time.is_some_and(|t| start.elapsed() >= t);
                    let out_of_nodes = limits.nodes.is_some_and(|l| nodes >= l);
                    if stop.load(Relaxed) || out_of_time || cells[i][j].is_some() && out_of_nodes {
                        break 'deepen;
                    }
                    // A round is a depth for the alpha-beta search; for the
                    // proof-number search a node budget that doubles.
                    let round = match self.algorithm {
                        Algorithm::Ab => SolveLimits {
                            plies: Some(r),
                            ..limits.clone()
                        },
                        Algorithm::Pns => SolveLimits {
                            nodes: Some(
                                nodes
                                    .saturating_add(PNS_ROUND << r.min(40))
                                    .min(limits.nodes.unwrap_or(u64::MAX)),
                            ),
                            ..limits.clone()
                        },
                    };
                    let mut run = Run {
                        limits: &round,
                        stop,
                        every,
                        progress: &mut *progress,
                        cell: Some((i * cols + j + 1, n)),
                        start,
                        nodes_before: nodes,
                    };
                    let mut sol = self.solve_cell(c, &mut run, sign_only)?;
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
        Ok(BlindSolution::of_cells(
            bg.a_starts,
            bg.b_starts,
            bg.cells,
            cells,
            nodes,
            start.elapsed(),
        ))
    }
}

/// How many of a solve's threads have ended: each thread holds a
/// [`Ended`] guard that counts it when dropped (a panic included), and
/// [`watch`] wakes at once when the last one ends, not at its next poll.
struct Done {
    /// The threads to wait for.
    threads: usize,
    /// How often the watcher looks at the stop, the clock and the reports.
    every: Duration,
    ended: Mutex<usize>,
    woken: Condvar,
}

impl Done {
    fn new(threads: usize, every: Duration) -> Done {
        Done {
            threads,
            every,
            ended: Mutex::new(0),
            woken: Condvar::new(),
        }
    }

    /// The guard a solver thread holds for as long as it runs.
    fn guard(&self) -> Ended<'_> {
        Ended(self)
    }
}

/// Counts its thread as ended when dropped.
struct Ended<'a>(&'a Done);

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        *lock(&self.0.ended) += 1;
        self.0.woken.notify_all();
    }
}

/// Wait until `done`'s solver threads have ended, setting
/// `halt` at a stop or when the time limit is up, and calling `tick`
/// whenever `pace`'s interval has passed since the time it holds (the last
/// report of the whole run, which this call's ticks move on). The stop, the
/// clock and the reports are looked at every `done.every`; the threads'
/// end wakes it at once, so a solve of a few nodes (a blind cell)
/// does not wait out a poll.
fn watch(
    done: &Done,
    limits: &SolveLimits,
    start: Instant,
    stop: &AtomicBool,
    halt: &AtomicBool,
    pace: Option<(&Mutex<Instant>, Duration)>,
    tick: &mut dyn FnMut(),
) {
    loop {
        let next = Instant::now() + done.every;
        let mut ended = lock(&done.ended);
        while *ended < done.threads {
            let now = Instant::now();
            if now >= next {
                break;
            }
            ended = done
                .woken
                .wait_timeout(ended, next - now)
                .map_or_else(|e| e.into_inner().0, |(g, _)| g);
        }
        if *ended >= done.threads {
            return;
        }
        drop(ended);
        let out_of_time = limits.time.is_some_and(|t| start.elapsed() >= t);
        if stop.load(Relaxed) || out_of_time {
            halt.store(true, Relaxed);
        }
        if pace.is_some_and(|(reported, every)| due(reported, every)) {
            tick();
        }
    }
}

/// Whether `every` has passed since the time `reported` holds; if so, it
/// now holds this moment.
fn due(reported: &Mutex<Instant>, every: Duration) -> bool {
    let mut last = lock(reported);
    let now = Instant::now();
    if now.duration_since(*last) >= every {
        *last = now;
        true
    } else {
        false
    }
}

/// A lock that a panicked holder does not poison for the others.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a settled proof-number entry says, as facts of the side to move:
/// a proof by the attacker is a win within its depth when the attacker
/// moves, a loss within it when the other player does; a disproof is no
/// win (no loss) at any depth the table stores.
fn settled_facts(e: &pns::Settled) -> Facts {
    let mut f = Facts::default();
    match (e.proof, e.attacker_moves) {
        (Some(d), true) if d < MAX_PLIES => f.win_le = d,
        (Some(d), false) if d < MAX_PLIES => f.loss_le = d,
        (Some(_), _) => {}
        (None, true) => f.nowin_ge = MAX_PLIES,
        (None, false) => f.noloss_ge = MAX_PLIES,
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports fall due by the time since the last report of the run, not
    /// since the start of each solve (a cell, a round of a blind solve):
    /// solves shorter than the interval, one after another, still report.
    #[test]
    fn progress_keeps_its_pace_across_short_solves() {
        let reported = Mutex::new(Instant::now());
        let (every, hour) = (Duration::from_millis(30), Duration::from_secs(3600));
        assert!(!due(&reported, hour));
        for _ in 0..3 {
            // Three "solves" of 12 ms each: the third passes the interval.
            std::thread::sleep(Duration::from_millis(12));
        }
        assert!(due(&reported, every));
        assert!(!due(&reported, hour), "the report moved the time on");
    }

    /// The watcher wakes when its threads end, not at its next poll: with a
    /// poll of an hour it still returns as soon as the thread has ended
    /// (the 60 s are only there so that a broken wake-up fails the test
    /// instead of hanging it).
    #[test]
    fn the_watcher_wakes_when_its_threads_end() {
        let (tx, rx) = std::sync::mpsc::channel();
        let watcher = std::thread::spawn(move || {
            let done = Done::new(2, Duration::from_secs(3600));
            let (stop, halt) = (AtomicBool::new(false), AtomicBool::new(false));
            let limits = SolveLimits::default();
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(|| {
                        let _ended = done.guard();
                        // Still running when the watcher starts waiting.
                        std::thread::sleep(Duration::from_millis(50));
                    });
                }
                watch(
                    &done,
                    &limits,
                    Instant::now(),
                    &stop,
                    &halt,
                    None,
                    &mut || {},
                );
                tx.send(halt.load(Relaxed)).unwrap();
            });
        });
        let halted = rx.recv_timeout(Duration::from_secs(60));
        assert_eq!(
            halted,
            Ok(false),
            "the watcher slept through its threads' end"
        );
        watcher.join().unwrap();
    }

    /// A thread that panics is counted as ended too, so the watcher does not
    /// wait for it for ever.
    #[test]
    fn a_panicking_thread_counts_as_ended() {
        let done = Done::new(1, Duration::from_secs(3600));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ended = done.guard();
            panic!("a solver thread's fault");
        }));
        assert!(r.is_err());
        assert_eq!(*lock(&done.ended), 1);
    }

    const A_MOVES: &str =
        "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
    const B_MOVES: &str =
        "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 b m";

    fn child(value: Option<Value>, nowin: u32, noloss: u32) -> Solution {
        Solution {
            value,
            nowin_within: nowin,
            noloss_within: noloss,
            ..Solution::unknown()
        }
    }

    /// The solution of a position with A to move from children where B
    /// (true) or A again (false) is to move.
    fn of(children: &[(bool, Solution)]) -> Solution {
        let root: Position = A_MOVES.parse().unwrap();
        let (m, _) = root.legal_moves()[0];
        let list: Vec<(Move, Position, Solution)> = children
            .iter()
            .map(|(b, s)| {
                let p: Position = if *b { B_MOVES } else { A_MOVES }.parse().unwrap();
                (m, p, s.clone())
            })
            .collect();
        Solution::of_children(&root, &list)
    }

    #[test]
    fn a_win_is_exact_only_when_no_other_child_can_be_faster() {
        // B to move and lost in 4 after the first move: A wins in 5, unless
        // the other child might hold a win for A in fewer than 4 plies.
        let lost = (true, child(Some(Value::Loss(4)), 3, 3));
        let bounded = |plies| (true, child(None, 0, plies));
        assert_eq!(of(&[lost.clone(), bounded(3)]).value, Some(Value::Win(5)));
        let open = of(&[lost.clone(), bounded(2)]);
        assert_eq!(open.value, None);
        assert_eq!((open.nowin_within, open.noloss_within), (3, MAX_PLIES));
        // The same side to move again: the child's own win counts as it is.
        let again = (false, child(Some(Value::Win(2)), 1, MAX_PLIES));
        assert_eq!(of(&[again, bounded(9)]).value, Some(Value::Win(3)));
    }

    #[test]
    fn a_loss_or_a_draw_needs_every_child() {
        let b_wins = |n| (true, child(Some(Value::Win(n)), 0, 0));
        let s = of(&[b_wins(3), b_wins(7)]);
        assert_eq!(s.value, Some(Value::Loss(8)), "the longest loss");
        let draw = (true, child(Some(Value::Draw), 0, 0));
        assert_eq!(of(&[b_wins(3), draw.clone()]).value, Some(Value::Draw));
        let open = (true, child(None, 5, 5));
        let s = of(&[b_wins(3), draw, open]);
        assert_eq!(s.value, None);
        assert_eq!((s.nowin_within, s.noloss_within), (6, MAX_PLIES));
    }
}

/// The result of solving a position with holds (RULES.md 8.10): a blind
/// start, whose cells are races with holds, or a race position itself (one
/// cell, no starts).
#[derive(Clone, Debug)]
pub struct HoldsSolution {
    /// A's starts (the matrix's rows); empty for a race position.
    pub a_starts: Vec<Move>,
    /// B's starts (the matrix's columns); empty for a race position.
    pub b_starts: Vec<Move>,
    /// `positions[i][j]`: the cell's race after both starts (`[[pos]]` for
    /// a race position).
    pub positions: Vec<Vec<Position>>,
    /// Each cell's race valued (for A).
    pub cells: Vec<Vec<holds::RaceCell>>,
    /// The value for A: its lower bound (the matrix game of the cells'
    /// lower ends), and its upper bound; equal when every cell is exact.
    pub value_lo: f64,
    /// The value's upper bound.
    pub value_hi: f64,
    /// The blind game's equilibrium, when every cell is exact.
    pub equilibrium: Option<Equilibrium>,
    /// The value and both strategies in fractions, certified exactly: the
    /// row strategy guarantees the value against every column, the column
    /// strategy concedes no more against every row (`exact_game`).
    pub exact: Option<ExactGame>,
    /// Every leaf the races met, proven or open (the `--check` of each).
    pub leaves: Vec<holds::Leaf>,
    /// Race nodes valued.
    pub race_nodes: u64,
    /// Solver nodes over every leaf.
    pub nodes: u64,
    /// Time the solve took.
    pub elapsed: Duration,
}

/// A matrix game's value and strategies in fractions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactGame {
    /// The value for the row player (A).
    pub value: frac::Frac,
    /// The row player's strategy.
    pub row: Vec<frac::Frac>,
    /// The column player's strategy.
    pub col: Vec<frac::Frac>,
}

/// The closest fraction to `x` with a denominator of at most `max_den`
/// (continued fractions), if one is within `1e-9`.
fn rationalize(x: f64, max_den: i128) -> Option<frac::Frac> {
    let (mut h0, mut h1, mut k0, mut k1) = (0i128, 1i128, 1i128, 0i128);
    let mut y = x;
    for _ in 0..64 {
        let a = y.floor();
        if !a.is_finite() || a.abs() > 1e12 {
            break;
        }
        let ai = a as i128;
        let (h2, k2) = (ai * h1 + h0, ai * k1 + k0);
        if k2 > max_den {
            break;
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        if (x - h1 as f64 / k1 as f64).abs() < 1e-12 || y - a == 0.0 {
            break;
        }
        y = 1.0 / (y - a);
    }
    let f = frac::Frac::new(h1, k1).ok()?;
    ((x - f.to_f64()).abs() <= 1e-9).then_some(f)
}

/// The exact solution of the game `a` (fractions) near the float
/// equilibrium `eq`: its strategies read as fractions, then certified
/// exactly (each a distribution; the row strategy's worst column equals
/// the column strategy's worst row, which is then the value). `None` if
/// the fractions do not certify (a strategy not near a small fraction).
pub fn exact_game(a: &[Vec<frac::Frac>], eq: &Equilibrium) -> Option<ExactGame> {
    let read = |p: &[f64]| -> Option<Vec<frac::Frac>> {
        let v: Vec<frac::Frac> = p
            .iter()
            .map(|&x| rationalize(x, 1_000_000))
            .collect::<Option<_>>()?;
        let mut sum = frac::Frac::ZERO;
        for x in &v {
            if *x < frac::Frac::ZERO {
                return None;
            }
            sum = sum.checked_add(*x).ok()?;
        }
        (sum == frac::Frac::ONE).then_some(v)
    };
    let row = read(&eq.row)?;
    let col = read(&eq.col)?;
    let n = a.first()?.len();
    let mut guarantee: Option<frac::Frac> = None;
    for j in 0..n {
        let mut s = frac::Frac::ZERO;
        for (p, r) in row.iter().zip(a) {
            s = s.checked_add(p.checked_mul(*r.get(j)?).ok()?).ok()?;
        }
        guarantee = Some(guarantee.map_or(s, |g| g.min(s)));
    }
    let mut concession: Option<frac::Frac> = None;
    for r in a {
        let mut s = frac::Frac::ZERO;
        for (x, q) in r.iter().zip(&col) {
            s = s.checked_add(x.checked_mul(*q).ok()?).ok()?;
        }
        concession = Some(concession.map_or(s, |c| c.max(s)));
    }
    let value = guarantee?;
    (Some(value) == concession).then_some(ExactGame { value, row, col })
}

impl Solver {
    /// Prove the value of a position with holds (RULES.md 8.10): at a
    /// blind start every cell's race (`holds`), then the matrix game of
    /// the cells; at a race position its race. Under limits, open leaves
    /// leave ranges. Also takes positions without holds (each cell then
    /// one leaf, as `solve_blind` proves it).
    pub fn solve_holds(
        &self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &AtomicBool,
        every: Duration,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<HoldsSolution, String> {
        self.check_code(pos)?;
        let start = Instant::now();
        let (a_starts, b_starts, positions) = if pos.phase().is_blind() {
            let bg = BlindGame::of(pos).ok_or("not a blind phase (s2, s1)")?;
            if bg.a_starts.is_empty() || bg.b_starts.is_empty() {
                return Err("a player has no opening start".into());
            }
            (bg.a_starts, bg.b_starts, bg.cells)
        } else if holds::is_race_node(pos) {
            (Vec::new(), Vec::new(), vec![vec![*pos]])
        } else {
            return Err("neither a blind start nor a race with holds".into());
        };
        let n = positions.iter().map(Vec::len).sum();
        let cols = positions[0].len();
        let mut races = holds::Races::new(self);
        let mut cells = Vec::new();
        for (i, row) in positions.iter().enumerate() {
            let mut out = Vec::new();
            for (j, c) in row.iter().enumerate() {
                let mut run = Run {
                    limits,
                    stop,
                    every,
                    progress: &mut *progress,
                    cell: Some((i * cols + j + 1, n)),
                    start,
                    nodes_before: races.nodes,
                };
                out.push(races.cell(c, &mut run)?);
            }
            cells.push(out);
        }
        let lo: Vec<Vec<f64>> = cells
            .iter()
            .map(|r| r.iter().map(|c| c.range.lo.to_f64()).collect())
            .collect();
        let hi: Vec<Vec<f64>> = cells
            .iter()
            .map(|r| r.iter().map(|c| c.range.hi.to_f64()).collect())
            .collect();
        let exact_cells: Option<Vec<Vec<frac::Frac>>> = cells
            .iter()
            .map(|r| r.iter().map(|c| c.range.value()).collect())
            .collect();
        let eq_lo = matrix::solve(&lo);
        let value_hi = match exact_cells {
            Some(_) => eq_lo.value,
            None => matrix::solve(&hi).value,
        };
        let exact = exact_cells.as_ref().and_then(|a| exact_game(a, &eq_lo));
        Ok(HoldsSolution {
            a_starts,
            b_starts,
            positions,
            cells,
            value_lo: eq_lo.value,
            value_hi,
            equilibrium: exact_cells.is_some().then_some(eq_lo),
            exact,
            leaves: races.leaves,
            race_nodes: races.race_nodes,
            nodes: races.nodes,
            elapsed: start.elapsed(),
        })
    }
}
