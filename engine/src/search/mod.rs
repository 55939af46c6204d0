//! Search: the contract between the searchers and their callers (protocol,
//! bench, match runner). `Searcher::search` runs on the caller's thread and
//! spawns helper threads itself; it polls `SearchControl::stop`.

use crate::board::Position;
use crate::rules::Game;
use crate::types::moves::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Which searcher `go` uses (the `Algorithm` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    AlphaBeta,
    Mcts,
    Random,
    Greedy,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [
        Algorithm::AlphaBeta,
        Algorithm::Mcts,
        Algorithm::Random,
        Algorithm::Greedy,
    ];
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
    pub threads: usize,
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub multipv: usize,
    pub seed: u64,
    pub move_overhead_ms: u64,
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
        }
    }
}

/// Limits of one `go`. Times are for the side to move unless stated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining clock time of A and B (wtime/btime or p1time/p2time).
    pub time: [Option<Duration>; 2],
    /// Increments of A and B.
    pub inc: [Option<Duration>; 2],
    pub movestogo: Option<u32>,
    /// Search for a win in at most this many moves of the side to move.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
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
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<usize>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time_ms: Option<u64>,
    pub pv: Vec<Move>,
    pub currmove: Option<Move>,
    pub currmovenumber: Option<usize>,
    pub string: Option<String>,
}

/// What a search returns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
}

/// Keeps the transposition table, MCTS tree and settings between searches.
pub struct Searcher {
    config: SearchConfig,
}

impl Searcher {
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher { config }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Apply new settings (resizes the table when `hash_mb` changed).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Forget everything learned (`ucinewgame`).
    pub fn clear(&mut self) {}

    /// Table fill in permille.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Search the game's current position. `info` receives each report.
    /// Placeholder until the searchers land: the first legal move.
    pub fn search(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _control: &SearchControl,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let pos: &Position = game.position();
        let mut best = None;
        pos.generate(crate::rules::LAP_BUDGET, |m, _, _| {
            best = Some(*m);
            false
        });
        info(&Info {
            depth: Some(1),
            string: Some("placeholder search".into()),
            ..Info::default()
        });
        SearchResult {
            best,
            ponder: None,
            score: None,
            depth: 1,
            nodes: 1,
        }
    }
}
