//! Search: the contract between the searchers and their callers (protocol,
//! bench, match runner). `Searcher::search` runs on the caller's thread and
//! spawns helper threads itself; it polls `SearchControl::stop`.
//!
//! The searchers live in their own files: `alphabeta` (with the table in
//! `tt`), `mcts`, the `baseline`s; `time` allocates thinking time and
//! `common` holds the score scale and the terminal and draw rules as search
//! sees them.

pub mod alphabeta;
mod baseline;
pub mod blind;
pub mod common;
pub mod matrix;
pub mod mcts;
mod time;
pub mod tt;

/// The seedable generator of playouts and baselines, for tools that play
/// random games (`choro playouts`).
pub use crate::rng::Rng;
pub use alphabeta::AbOptions;
pub use common::{to_score, INF, MATE, MATE_BOUND};
pub use mcts::MctsOptions;

use crate::board::Position;
use crate::eval::{Eval, Evaluator, Weights};
use crate::rules::Game;
use crate::solve::table::{FactTable, ReservedFacts};
use crate::solve::{SolveLimits, Solver, Value};
use crate::types::moves::Move;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    let v = common::terminal_value(pos, 0);
    SearchResult {
        best: None,
        ponder: None,
        score: Some(to_score(v)),
        depth: 0,
        nodes: 0,
    }
}

/// The book's move where the book knows the position: a move that keeps the
/// proven value (the fastest win, the longest loss), reported as the score.
fn book_result(game: &Game, limits: &Limits, info: &mut dyn FnMut(&Info)) -> Option<SearchResult> {
    let pos = game.position();
    let e = crate::solve::book::builtin().get(pos)?;
    let best = e.best?;
    if !limits.searchmoves.is_empty() && !limits.searchmoves.contains(&best) {
        return None;
    }
    let proof = Proof {
        value: e.value,
        pv: vec![best],
        nodes: 0,
        time: Duration::ZERO,
        source: "book",
    };
    proof.report(game, info)
}

/// The least share of a move's time worth a solve: below it (fast games)
/// the solver's threads cost more than it proves.
const MIN_SOLVE_TIME: Duration = Duration::from_millis(20);

/// A proven value and a move that keeps it, from the book or the solver.
struct Proof {
    value: Value,
    /// Its first move keeps the value; the rest, where known, is best play.
    pv: Vec<Move>,
    nodes: u64,
    time: Duration,
    source: &'static str,
}

impl Proof {
    /// Report it (`score win N` / `loss N`, 0 for a draw) and answer it;
    /// `None` when the game's ply cap (`DrawPlies`) comes before the end the
    /// value promises, so that the game's own result differs from it.
    fn report(self, game: &Game, info: &mut dyn FnMut(&Info)) -> Option<SearchResult> {
        let pos = game.position();
        if let Value::Win(n) | Value::Loss(n) = self.value {
            if pos.ply() as u64 + n as u64 > game.draw_plies() as u64 {
                return None;
            }
        }
        let (score, n) = match self.value {
            Value::Win(n) => (Score::Win(n), n),
            Value::Loss(n) => (Score::Loss(n), n),
            Value::Draw => (Score::Cp(0), 0),
        };
        let best = self.pv[0];
        info(&Info {
            depth: Some(n.max(1)),
            score: Some(score),
            nodes: Some(self.nodes),
            time_ms: Some(self.time.as_millis() as u64),
            pv: self.pv,
            string: Some(format!(
                "{}: {} for the side to move",
                self.source, self.value
            )),
            ..Info::default()
        });
        Some(SearchResult {
            best: Some(pos.restyle(best)),
            ponder: None,
            score: Some(score),
            depth: n.max(1),
            nodes: self.nodes,
        })
    }
}

/// What a configuration keeps between searches, in MiB: alpha-beta's table
/// or MCTS's tree, each of the whole `Hash`; the baselines keep neither.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Sizes {
    table_mb: usize,
    tree_mb: usize,
    facts_mb: usize,
}

/// A searcher's memory, reserved but not yet written.
type Reserved = (tt::Reserved, mcts::Tree, ReservedFacts);

impl Sizes {
    fn of(c: &SearchConfig) -> Sizes {
        let hash = match c.algorithm {
            Algorithm::AlphaBeta | Algorithm::Mcts => c.hash_mb,
            Algorithm::Random | Algorithm::Greedy => 0,
        };
        // The solver's facts take an eighth of `Hash` (at least 1 MiB) when
        // it has a share of the time; the rest is the algorithm's.
        let facts_mb = if c.solve_share > 0 && hash >= 2 {
            (hash / 8).max(1)
        } else {
            0
        };
        let (table_mb, tree_mb) = match c.algorithm {
            Algorithm::AlphaBeta => (hash - facts_mb, 0),
            Algorithm::Mcts => (0, hash - facts_mb),
            Algorithm::Random | Algorithm::Greedy => (0, 0),
        };
        Sizes {
            table_mb,
            tree_mb,
            facts_mb,
        }
    }

    /// The memory, reserved but not written.
    fn try_reserve(self) -> Result<Reserved, TryReserveError> {
        Ok((
            tt::Table::try_reserve(self.table_mb)?,
            mcts::Tree::try_new(self.tree_mb)?,
            FactTable::try_reserve(self.facts_mb)?,
        ))
    }
}

/// Keeps the searcher's memory and settings between searches. The memory
/// follows `Hash` and the algorithm: alpha-beta's transposition table or the
/// MCTS tree has the whole `Hash`, and the one the algorithm does not use is
/// not kept (one bucket, an empty arena).
pub struct Searcher {
    config: SearchConfig,
    tt: tt::Table,
    tree: mcts::Tree,
    eval: Eval,
    ab: AbOptions,
    mcts: MctsOptions,
    /// Blind choices made so far: mixed into the draw of each (with `Seed`).
    blind_count: u64,
    /// Play from the book of solved positions (`OwnBook`).
    book: bool,
    /// The exact solver run first for `solve_share` of a timed move; its
    /// facts stay from move to move (they are true of a position whatever
    /// the path to it) until `clear`.
    solver: Solver,
}

impl Searcher {
    /// A searcher; aborts, as a failed allocation does, when the memory for
    /// `Hash` cannot be had ([`try_new`](Self::try_new) returns an error).
    pub fn new(config: SearchConfig) -> Searcher {
        let sizes = Sizes::of(&config);
        let mut tree = mcts::Tree::new(sizes.tree_mb);
        tree.commit();
        let facts = FactTable::new(sizes.facts_mb);
        Searcher {
            tt: tt::Table::new(sizes.table_mb),
            tree,
            solver: Solver::with_table(facts),
            config,
            eval: Eval::default(),
            ab: AbOptions::default(),
            mcts: MctsOptions::default(),
            blind_count: 0,
            book: true,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// [`new`](Self::new), or an error when the memory cannot be reserved.
    pub fn try_new(config: SearchConfig) -> Result<Searcher, TryReserveError> {
        let mut s = Searcher::new(SearchConfig {
            hash_mb: 0,
            ..config.clone()
        });
        s.try_set_config(config)?;
        Ok(s)
    }

    /// [`set_config`](Self::set_config), or an error, with the settings
    /// unchanged, when the memory the new ones need cannot be reserved.
    pub fn try_set_config(&mut self, config: SearchConfig) -> Result<(), TryReserveError> {
        let (now, next) = (Sizes::of(&self.config), Sizes::of(&config));
        if next != now {
            // Reserve the new memory before freeing the old, so that a refusal
            // changes nothing. Where the two do not fit together, free the old
            // first, and take it back if the new does not fit alone either.
            let memory = match next.try_reserve() {
                Ok(m) => m,
                Err(_) => {
                    self.free();
                    match next.try_reserve() {
                        Ok(m) => m,
                        Err(e) => {
                            if let Ok(m) = now.try_reserve() {
                                self.install(m);
                            }
                            return Err(e);
                        }
                    }
                }
            };
            self.install(memory);
        }
        self.config = config;
        Ok(())
    }

    /// Apply new settings: the memory follows `Hash` and the algorithm. Aborts
    /// when the memory cannot be had (see [`try_set_config`](Self::try_set_config)).
    pub fn set_config(&mut self, config: SearchConfig) {
        let next = Sizes::of(&config);
        if next != Sizes::of(&self.config) {
            self.free();
            self.tt = tt::Table::new(next.table_mb);
            self.tree = mcts::Tree::new(next.tree_mb);
            self.tree.commit();
            self.solver = Solver::with_table(FactTable::new(next.facts_mb));
        }
        self.config = config;
    }

    fn free(&mut self) {
        self.tt = tt::Table::new(0);
        self.tree = mcts::Tree::new(0);
        self.solver = Solver::with_table(FactTable::new(0));
    }

    /// Free the old memory, then write the new.
    fn install(&mut self, (table, mut tree, facts): Reserved) {
        self.free();
        self.tt = table.fill();
        tree.commit();
        self.tree = tree;
        self.solver = Solver::with_table(facts.fill());
    }

    /// Bytes of the table, the tree's arena and the solver's facts: about
    /// `Hash` MiB for alpha-beta and MCTS, next to nothing for the baselines.
    pub fn memory_bytes(&self) -> usize {
        self.tt.bytes() + self.tree.bytes() + self.solver.table_bytes()
    }

    /// Forget everything learned (`ucinewgame`); the memory is kept.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tree.forget();
        self.solver.clear();
    }

    /// Fill in permille of the table, or of the tree under MCTS.
    pub fn hashfull(&self) -> u32 {
        match self.config.algorithm {
            Algorithm::Mcts => self.tree.hashfull(),
            _ => self.tt.hashfull(),
        }
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.eval.weights
    }

    pub fn set_weights(&mut self, w: Weights) {
        self.eval.weights = w;
    }

    /// Whether the searcher plays from the book of solved positions
    /// (`solve::book::builtin`); on by default.
    pub fn book(&self) -> bool {
        self.book
    }

    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// The exact solver, run first for `solve_share` percent of a timed
    /// move's time (movetime or clock; never under depth, nodes, mate,
    /// infinite, searchmoves or while pondering, so that fixed-depth runs
    /// stay as they were): a value it proves is played and reported as a
    /// book value is. Its facts stay for the next moves.
    fn solve_first(
        &self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let pos = game.position();
        let share = self.config.solve_share.min(100);
        let fixed = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || limits.infinite
            || !limits.searchmoves.is_empty();
        if share == 0
            || fixed
            || Sizes::of(&self.config).facts_mb == 0
            || pos.phase().is_blind()
            || control.pondering.load(Ordering::Relaxed)
        {
            return None;
        }
        let start = limits.start.unwrap_or_else(Instant::now);
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        let (soft, hard) = time::allocate(limits, overhead, pos.side_to_move());
        let budget = (soft.or(hard)? * share / 100).checked_sub(start.elapsed())?;
        if budget < MIN_SOLVE_TIME {
            return None;
        }
        let solve_limits = SolveLimits {
            time: Some(budget),
            ..SolveLimits::default()
        };
        let sol = self
            .solver
            .solve(
                pos,
                &solve_limits,
                &control.stop,
                Duration::MAX,
                &mut |_| {},
            )
            .ok()?;
        let value = sol.value?;
        let pv = match value {
            Value::Draw => {
                // A drawn position has no line to its end: keep the draw
                // with a child whose draw the solver proved too.
                let (mv, _) = pos
                    .legal_moves()
                    .into_iter()
                    .find(|(_, c)| self.solver.known(c).value().is_some_and(|(v, _)| v == 0))?;
                vec![mv]
            }
            _ => sol.pv,
        };
        if pv.is_empty() {
            return None;
        }
        let proof = Proof {
            value,
            pv,
            nodes: sol.nodes,
            time: start.elapsed(),
            source: "solved",
        };
        proof.report(game, info)
    }

    /// Alpha-beta refinements (all on by default).
    pub fn ab_options(&self) -> &AbOptions {
        &self.ab
    }

    pub fn set_ab_options(&mut self, o: AbOptions) {
        self.ab = o;
    }

    pub fn mcts_options(&self) -> &MctsOptions {
        &self.mcts
    }

    pub fn set_mcts_options(&mut self, o: MctsOptions) {
        self.mcts = o;
    }

    /// Search the game's current position. `info` receives each report.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let eval = self.eval.clone();
        self.search_with(game, limits, control, info, &eval)
    }

    /// [`search`](Self::search) with another evaluator (tests, tuning).
    pub fn search_with<E: Evaluator>(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        info: &mut dyn FnMut(&Info),
        eval: &E,
    ) -> SearchResult {
        if self.book {
            if let Some(r) = book_result(game, limits, info) {
                return r;
            }
        }
        if let Some(r) = self.solve_first(game, limits, control, info) {
            return r;
        }
        if game.position().phase().is_blind()
            && matches!(
                self.config.algorithm,
                Algorithm::AlphaBeta | Algorithm::Mcts
            )
        {
            return self.search_blind(game, limits, control, info, eval);
        }
        let start = limits.start.unwrap_or_else(Instant::now);
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        match self.config.algorithm {
            Algorithm::AlphaBeta => {
                self.tt.new_search();
                let run = alphabeta::AbRun {
                    tt: &self.tt,
                    opts: self.ab,
                    threads: self.config.threads,
                    multipv: self.config.multipv,
                    move_overhead: overhead,
                    start,
                };
                alphabeta::run(&run, game, limits, control, info, eval)
            }
            Algorithm::Mcts => {
                // What is left of the hard limit bounds the subtree's reuse
                // (pondering: no limit until ponderhit).
                let side = game.position().side_to_move();
                let budget = if control.pondering.load(Ordering::Relaxed) {
                    None
                } else {
                    let hard = time::allocate(limits, overhead, side).1;
                    hard.map(|h| h.saturating_sub(start.elapsed()))
                };
                self.tree.prepare(game, budget);
                let run = mcts::MctsRun {
                    opts: &self.mcts,
                    threads: self.config.threads,
                    multipv: self.config.multipv,
                    seed: self.config.seed,
                    move_overhead: overhead,
                    start,
                };
                mcts::run(&run, &self.tree, game, limits, control, info, eval)
            }
            Algorithm::Random | Algorithm::Greedy => baseline::run(
                game,
                limits,
                self.config.algorithm == Algorithm::Greedy,
                self.config.seed,
                info,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searcher_moves_to_a_search_thread() {
        fn send<T: Send>() {}
        fn sync<T: Sync>() {}
        send::<Searcher>();
        sync::<SearchControl>();
    }

    #[test]
    fn memory_follows_hash_and_the_algorithm() {
        let mib = 1 << 20;
        let about = |s: &Searcher, mb: usize| {
            let b = s.memory_bytes();
            assert!(
                b <= mb * mib + 256 && b + 256 >= mb * mib,
                "{b} for {mb} MiB"
            );
        };
        let mut s = Searcher::try_new(SearchConfig {
            hash_mb: 8,
            ..SearchConfig::default()
        })
        .unwrap();
        about(&s, 8);
        for (algorithm, mb) in [
            (Algorithm::Mcts, 8),
            (Algorithm::Random, 0),
            (Algorithm::Greedy, 0),
            (Algorithm::Mcts, 8),
            (Algorithm::AlphaBeta, 8),
        ] {
            s.set_config(SearchConfig {
                algorithm,
                ..s.config().clone()
            });
            about(&s, mb);
        }
        // With a share of the time for the solver, its facts take an
        // eighth of the same Hash.
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
            s.set_config(SearchConfig {
                algorithm,
                solve_share: 10,
                ..s.config().clone()
            });
            about(&s, 8);
            assert_eq!(s.solver.table_bytes(), mib);
        }
        // The baselines keep nothing, so they take a Hash no searcher could
        // have; a searcher that needs it is refused and nothing changes.
        let huge = SearchConfig {
            hash_mb: usize::MAX >> 21,
            algorithm: Algorithm::Random,
            ..SearchConfig::default()
        };
        let mut s = Searcher::try_new(huge.clone()).unwrap();
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
            let c = SearchConfig {
                algorithm,
                ..huge.clone()
            };
            assert!(s.try_set_config(c).is_err(), "{algorithm:?}");
            assert_eq!(s.config(), &huge);
        }
        let game = Game::new(Position::startpos(crate::Variant::Adjiboto, 5).unwrap());
        let r = s.search(
            &game,
            &Limits::default(),
            &SearchControl::default(),
            &mut |_| {},
        );
        assert!(r.best.is_some());
    }

    #[test]
    fn a_table_too_big_to_reserve_is_refused_and_nothing_changes() {
        let mut s = Searcher::try_new(SearchConfig::default()).unwrap();
        let huge = SearchConfig {
            hash_mb: usize::MAX >> 21,
            ..SearchConfig::default()
        };
        assert!(s.try_set_config(huge.clone()).is_err());
        assert_eq!(s.config(), &SearchConfig::default());
        assert!(Searcher::try_new(huge).is_err());
        let two = SearchConfig {
            hash_mb: 2,
            ..SearchConfig::default()
        };
        s.try_set_config(two.clone()).unwrap();
        assert_eq!(s.config(), &two);
    }
}
