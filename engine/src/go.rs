//! What `go` runs, above both `search` and `solve`: the book of solved
//! positions, then the exact solver for its share of a timed move, then
//! the searcher the configuration names. `Searcher` keeps the memory of all
//! three (the table or the tree, and the solver's facts) between moves.

use crate::blind::BlindGame;
use crate::eval::{Eval, Evaluator, Weights};
use crate::rules::Game;
use crate::search::alphabeta::{self, AbOptions};
use crate::search::mcts::{self, MctsOptions};
use crate::search::{
    baseline, blind, time, tt, Algorithm, Info, Limits, Score, SearchConfig, SearchControl,
    SearchResult, EVAL_MAX,
};
use crate::solve::table::{FactTable, ReservedFacts};
use crate::solve::{book, SolveLimits, Solver, Value};
use crate::types::moves::Move;
use std::collections::TryReserveError;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The book's move where the book knows the position: a move that keeps the
/// proven value (the fastest win, the longest loss), reported as the score.
fn book_result(game: &Game, limits: &Limits, info: &mut dyn FnMut(&Info)) -> Option<SearchResult> {
    let pos = game.position();
    let e = book::builtin().get(pos)?;
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
///
/// ```
/// use choro_engine::search::{Limits, Score, SearchConfig, SearchControl};
/// use choro_engine::{Game, Searcher};
///
/// let pos = "didinga:8 0,0,0,0,0,0,0,1/0,0,0,0,0,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 a m";
/// let game = Game::new(pos.parse().unwrap());
/// let mut searcher = Searcher::new(SearchConfig::default());
/// let limits = Limits { depth: Some(4), ..Limits::default() };
/// let mut reports = 0;
/// let r = searcher.search(&game, &limits, &SearchControl::default(), &mut |_| reports += 1);
/// assert_eq!(r.score, Some(Score::Win(1)));
/// assert_eq!(r.best, Some(game.position().legal_moves()[0].0));
/// assert!(reports > 0);
/// ```
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

    /// The settings.
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

    /// Whether the searcher plays from the book of solved positions
    /// (`solve::book::builtin`); on by default.
    pub fn book(&self) -> bool {
        self.book
    }

    /// Play from the book of solved positions, or not (`OwnBook`).
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
            || pos.race_holds() > 0
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

    /// MCTS proved the root won or lost but not its distance (it reports
    /// `Cp(±EVAL_MAX)`): its choice among proven losses then rests on
    /// bounds, and it could pick a shorter resistance than the longest
    /// loss (or a slower win). The exact solver settles the distance with
    /// what the move has left (the rest of a timed move's hard limit; under
    /// `nodes` that many nodes again; under `depth`, as many nodes as the
    /// tree searched) and its proof is played; unsettled in that budget,
    /// the tree's move stands. Not under `infinite`, `mate`, `searchmoves`,
    /// `MultiPV` above 1 or while pondering.
    fn settle(
        &self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        info: &mut dyn FnMut(&Info),
        r: SearchResult,
    ) -> SearchResult {
        let inexact = matches!(r.score, Some(Score::Cp(c)) if c.abs() == EVAL_MAX);
        if !inexact
            || limits.infinite
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty()
            || self.config.multipv > 1
            || Sizes::of(&self.config).facts_mb == 0
            || control.pondering.load(Ordering::Relaxed)
            || control.stop.load(Ordering::Relaxed)
        {
            return r;
        }
        let pos = game.position();
        let start = limits.start.unwrap_or_else(Instant::now);
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        let solve_limits = if let Some(n) = limits.nodes {
            SolveLimits {
                nodes: Some(n),
                ..SolveLimits::default()
            }
        } else if let Some(hard) = time::allocate(limits, overhead, pos.side_to_move()).1 {
            match hard.checked_sub(start.elapsed()) {
                Some(left) if left >= MIN_SOLVE_TIME => SolveLimits {
                    time: Some(left),
                    ..SolveLimits::default()
                },
                _ => return r,
            }
        } else {
            SolveLimits {
                nodes: Some(r.nodes.max(1)),
                ..SolveLimits::default()
            }
        };
        let Ok(sol) = self.solver.solve(
            pos,
            &solve_limits,
            &control.stop,
            Duration::MAX,
            &mut |_| {},
        ) else {
            return r;
        };
        match sol.value {
            Some(value @ (Value::Win(_) | Value::Loss(_))) if !sol.pv.is_empty() => {
                let proof = Proof {
                    value,
                    pv: sol.pv,
                    nodes: r.nodes + sol.nodes,
                    time: start.elapsed(),
                    source: "solved",
                };
                proof.report(game, info).unwrap_or(r)
            }
            _ => r,
        }
    }

    /// Replace the alpha-beta refinements.
    pub fn set_ab_options(&mut self, o: AbOptions) {
        self.ab = o;
    }

    /// The tree search's constants.
    pub fn mcts_options(&self) -> &MctsOptions {
        &self.mcts
    }

    /// Replace the tree search's constants.
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
        // The book answers before the searchers only (PROTOCOL.md): the
        // baselines play as they are, so that matches against them measure
        // them.
        let searching = matches!(
            self.config.algorithm,
            Algorithm::AlphaBeta | Algorithm::Mcts
        );
        if self.book && searching {
            if let Some(r) = book_result(game, limits, info) {
                return r;
            }
        }
        if let Some(r) = self.solve_first(game, limits, control, info) {
            return r;
        }
        let matrix =
            game.position().phase().is_blind() || BlindGame::of_tick(game.position()).is_some();
        if matrix
            && matches!(
                self.config.algorithm,
                Algorithm::AlphaBeta | Algorithm::Mcts
            )
        {
            let book = self.book;
            let known = |bg: &BlindGame| {
                if book {
                    book::builtin().blind_known(bg)
                } else {
                    Vec::new()
                }
            };
            let mut run = blind::BlindRun {
                tt: &mut self.tt,
                opts: self.ab,
                threads: self.config.threads,
                seed: self.config.seed,
                move_overhead: Duration::from_millis(self.config.move_overhead_ms),
                known: &known,
            };
            return blind::run(
                &mut run,
                &mut self.blind_count,
                game,
                limits,
                control,
                info,
                eval,
            );
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
                let r = mcts::run(&run, &self.tree, game, limits, control, info, eval);
                self.settle(game, limits, control, info, r)
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
    use crate::board::Position;

    /// Where the book proves some of a blind start's cells but not all,
    /// the proven values replace the searched ones in every round (the
    /// shipped books prove every cell of the starts they hold, so this
    /// hides row `a` of Didinga's proven cells).
    #[test]
    fn proven_cells_replace_searched_ones_where_some_are_proven() {
        use crate::types::{Opening, Variant};
        let start = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
        let mut s = Searcher::new(SearchConfig::default());
        let known = |bg: &BlindGame| {
            let mut k = book::builtin().blind_known(bg);
            k[0].iter_mut().for_each(|v| *v = None);
            k
        };
        let eval = s.eval.clone();
        let mut run = blind::BlindRun {
            tt: &mut s.tt,
            opts: s.ab,
            threads: 1,
            seed: 1,
            move_overhead: Duration::ZERO,
            known: &known,
        };
        let mut lines = Vec::new();
        let r = blind::run(
            &mut run,
            &mut s.blind_count,
            &Game::new(start),
            &Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &SearchControl::default(),
            &mut |i: &Info| lines.extend(i.string.clone()),
            &eval,
        );
        assert_eq!(
            lines[0],
            "blind 56 of 64 cells from the book of solved cells, the rest searched"
        );
        // The matrix of every round mixes searched and proven values: it
        // is never reported as the exact game of the book.
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains("8x8 value"))
            .unwrap();
        assert!(!last.contains("from the book"), "{last}");
        assert!(r.best.is_some());
    }

    /// MCTS that proves a root lost without the distance leaves the choice
    /// among the losses to the exact solver, which plays the longest. At
    /// `go nodes 200000` the tree alone played a loss in 8 (10 in the
    /// book) in both Lango positions and a loss in 10 (12) in Didinga's
    /// (the commit before the fix).
    #[test]
    fn mcts_plays_the_longest_loss_of_a_root_it_proved_lost() {
        let cases = [
            (
                "lango:8 1,1,0,2,0,1,2,0/0,0,0,0,0,0,0,0/2,12,10,8,3,0,1,3/1,0,7,3,1,3,0,3 b m 0",
                10,
            ),
            (
                "lango:8 1,1,0,2,0,2,0,7/0,0,0,0,0,0,0,0/0,15,0,7,13,6,0,0/2,1,3,0,2,0,1,1 b m 0",
                10,
            ),
            (
                "didinga:8 2,5,0,0,0,0,2,0/2,0,0,4,1,1,2,0/3,1,8,0,1,8,2,6/1,2,1,2,7,0,1,2 b m 0",
                12,
            ),
        ];
        let solver = Solver::new(&crate::solve::SolveConfig {
            threads: 1,
            hash_mb: 64,
            ..crate::solve::SolveConfig::default()
        })
        .unwrap();
        for (fen, d) in cases {
            let pos: Position = fen.parse().unwrap();
            let mut s = Searcher::new(SearchConfig {
                algorithm: Algorithm::Mcts,
                hash_mb: 64,
                solve_share: 10,
                ..SearchConfig::default()
            });
            s.set_book(false);
            let limits = Limits {
                nodes: Some(200_000),
                ..Limits::default()
            };
            let r = s.search(
                &Game::new(pos),
                &limits,
                &SearchControl::default(),
                &mut |_| {},
            );
            assert_eq!(r.score, Some(Score::Loss(d)), "{fen}");
            let child = pos.play(&r.best.unwrap()).unwrap();
            let v = solver
                .solve_within(&child, &SolveLimits::default())
                .unwrap()
                .value;
            assert_eq!(v, Some(Value::Win(d - 1)), "{fen}: {:?}", r.best);
        }
    }

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
