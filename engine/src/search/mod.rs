//! Search: the contract between the searchers and their callers (`go`,
//! bench, match runner): settings, limits, reports and results. Each
//! searcher runs on the caller's thread and spawns helper threads itself;
//! it polls `SearchControl::stop`.
//!
//! The searchers live in their own files: `alphabeta` (with the table in
//! `tt`), `mcts` (with its arena), the `baseline`s, and `blind` (the blind
//! opening's matrix game valued by alpha-beta); `time` allocates thinking
//! time and `common` holds the protocol's view of a score and the
//! repetition rule. The game tree they walk is `crate::gametree`; what `go`
//! runs around them (the book, the solver's share) is `crate::go`.

pub(crate) mod alphabeta;
pub(crate) mod baseline;
pub(crate) mod blind;
pub(crate) mod common;
pub(crate) mod mcts;
pub(crate) mod time;
pub(crate) mod tt;

pub use crate::gametree::{EVAL_MAX, INF, MATE, MATE_BOUND};
/// The seedable generator of playouts and baselines, for tools that play
/// random games (`choro playouts`).
pub use crate::rng::Rng;
pub use alphabeta::AbOptions;
pub use common::to_score;
pub use mcts::MctsOptions;

use crate::board::Position;
use crate::types::moves::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which searcher `go` uses (the `Algorithm` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Alpha-beta with a transposition table (the default).
    AlphaBeta,
    /// Monte-Carlo tree search.
    Mcts,
    /// A uniformly random legal move (a baseline).
    Random,
    /// The move the evaluation likes best one ply ahead (a baseline).
    Greedy,
}

impl Algorithm {
    /// Every algorithm, in the order the protocol lists them.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::AlphaBeta,
        Algorithm::Mcts,
        Algorithm::Random,
        Algorithm::Greedy,
    ];
    /// The name the `Algorithm` option takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
            Algorithm::Random => "random",
            Algorithm::Greedy => "greedy",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown algorithm '{s}' (alphabeta, mcts, random, greedy)"))
    }
}

/// Settings that persist between searches (protocol options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Search threads (`Threads`).
    pub threads: usize,
    /// Memory of the table or tree (and the solver's facts), MiB (`Hash`).
    pub hash_mb: usize,
    /// The searcher (`Algorithm`).
    pub algorithm: Algorithm,
    /// Lines reported (`MultiPV`).
    pub multipv: usize,
    /// Seed of every random choice (`Seed`): the same seed, the same game.
    pub seed: u64,
    /// Time kept back from each move for the transport, ms (`MoveOverhead`).
    pub move_overhead_ms: u64,
    /// Percent of a timed move's time given first to the exact solver
    /// (`solve`), which then holds an eighth of `Hash` for its facts; 0: no
    /// solver (the default here; the protocol's `SolveShare` sets it).
    pub solve_share: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            hash_mb: 16,
            algorithm: Algorithm::AlphaBeta,
            multipv: 1,
            seed: 0,
            move_overhead_ms: 10,
            solve_share: 0,
        }
    }
}

/// Limits of one `go`. Times are for the side to move unless stated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies deep at most.
    pub depth: Option<u32>,
    /// Search this many nodes at most.
    pub nodes: Option<u64>,
    /// Search this long exactly (`movetime`).
    pub movetime: Option<Duration>,
    /// Remaining clock time of A and B (wtime/btime or p1time/p2time).
    pub time: [Option<Duration>; 2],
    /// Increments of A and B.
    pub inc: [Option<Duration>; 2],
    /// Moves of the side to move until the next time control.
    pub movestogo: Option<u32>,
    /// Search for a win in at most this many moves of the side to move.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// When the move's time started: the protocol gives the moment it read
    /// `go`, so that what comes before the search proper is on the clock.
    /// `None`: when `search` is called.
    pub start: Option<Instant>,
}

/// Shared flags between the protocol's reading thread and the search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set by `stop` (and `quit`): every search thread returns soon.
    pub stop: AtomicBool,
    /// True while pondering: time limits do not apply until `ponderhit`.
    pub pondering: AtomicBool,
}

impl SearchControl {
    /// Whether `stop` was set.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-counters (evaluation units).
    Cp(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

/// One `info` report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// The iteration's depth, plies.
    pub depth: Option<u32>,
    /// The deepest ply reached.
    pub seldepth: Option<u32>,
    /// The line's rank (1 the best).
    pub multipv: Option<usize>,
    /// The line's score.
    pub score: Option<Score>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Nodes a second.
    pub nps: Option<u64>,
    /// Fill of the table or tree, permille.
    pub hashfull: Option<u32>,
    /// Time since the search began, ms.
    pub time_ms: Option<u64>,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The root move being searched.
    pub currmove: Option<Move>,
    /// Its number among the root moves (from 1).
    pub currmovenumber: Option<usize>,
    /// Free text (`info string`).
    pub string: Option<String>,
}

/// What a search returns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The best move's score.
    pub score: Option<Score>,
    /// The last finished depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl Info {
    /// A report at `depth` after `nodes` nodes and `elapsed` since the
    /// search began, with the speed worked out the same way for every
    /// searcher; the caller adds the rest (score, pv, ...).
    pub(crate) fn progress(depth: u32, nodes: u64, elapsed: Duration) -> Info {
        let ms = elapsed.as_millis() as u64;
        Info {
            depth: Some(depth),
            nodes: Some(nodes),
            nps: Some(nodes * 1000 / ms.max(1)),
            time_ms: Some(ms),
            ..Info::default()
        }
    }

    /// An `info string` report.
    pub(crate) fn text(s: String) -> Info {
        Info {
            string: Some(s),
            ..Info::default()
        }
    }
}

impl SearchResult {
    /// The answer `best`, without a ponder move.
    pub(crate) fn chosen(best: Move, score: Option<Score>, depth: u32, nodes: u64) -> SearchResult {
        SearchResult {
            best: Some(best),
            ponder: None,
            score,
            depth,
            nodes,
        }
    }
}

/// A move chosen from the root's children alone (the baselines, MCTS when
/// the root's children do not fit in Hash): reported as a depth-1 line
/// of that move over the `children` looked at, and returned.
fn one_ply_answer(
    mv: Move,
    score: Option<Score>,
    children: u64,
    info: &mut dyn FnMut(&Info),
) -> SearchResult {
    info(&Info {
        depth: Some(1),
        nodes: Some(children),
        score,
        pv: vec![mv],
        ..Info::default()
    });
    SearchResult::chosen(mv, score, 1, children)
}

/// The result when the side to move has no legal move.
fn no_move_result(pos: &Position) -> SearchResult {
    let v = crate::gametree::terminal_value(pos, 0);
    SearchResult {
        best: None,
        ponder: None,
        score: Some(to_score(v)),
        depth: 0,
        nodes: 0,
    }
}
