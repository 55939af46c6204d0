//! The hard strength suite (positions/strength/, BENCHMARKS.md "The hard
//! suite"): positions whose value is proven and in which few moves keep it,
//! the yardstick of search changes.
//!
//! ```text
//! cargo run --release -p choro-engine --example hard_suite -- build CODE [per-code] [seconds] [seed] [FILE] [easy-in] [nodes] [sources] [probe-ms]
//! cargo run --release -p choro-engine --example hard_suite -- fresh CODE [nodes]
//! cargo run --release -p choro-engine --example hard_suite -- measure [ms ...]
//! ```
//!
//! `build` writes `positions/strength/CODE.txt` (or FILE). `nodes` is the
//! solver's budget for the position and for each child (150,000 by
//! default); `sources` names the sources of candidates, taken in turn
//! (`main,opening,race` by default; `line`: along proof lines, `Lines`;
//! `blunder`: positions in which a searcher at 5 to 30 ms gave the value
//! away in a game against another, `Blunders`: a selection on today's
//! searchers' mistakes; `wide`: along the proof lines of the blind cells of
//! Didinga 4x9 and 4x10, each root proven within `WIDE_ROOT_NODES`;
//! `endgame`: Adjiboto's guided games down to `ENDGAME_K` counters in play,
//! the position and its children valued by the retrograde tables).
//! `probe-ms` is the probe's budget (below).
//! The first three sources: the main phase of random games of the
//! sequential opening at ply 4 to 43 (Didinga 20 to 79, on 4x8 two times in three, else 4x9 to 4x11; Adjiboto from its start),
//! the sequential opening (every `o2` and `o1` position, taken first and
//! kept whatever the probe says; Didinga on 4x8 to 4x11), and the race of
//! the simultaneous opening (both blind starts at random, then 0 to 8
//! random decisions; the Choro codes only). A candidate is dropped if a
//! shipped book or cells file knows it (`solve::book::builtin`), if it has
//! fewer than two legal moves or more than 48, if the tables already know
//! more than a quarter of its children as won, or if the solver does not
//! prove its value within the node budget. Lost positions are dropped
//! (every move keeps a loss).
//! To prefer hard positions, `alphabeta` searches it for `probe-ms` (10 ms by
//! default: the probe): a position whose value it keeps goes on only one time in `easy-in`
//! (default 4), before its other children are proven (`probe` in
//! the file says which). The main phase's games are played by `alphabeta`
//! at depth 2, with a random move one time in three (random play leaves
//! one side far ahead, with many winning moves). Every child is then
//! proven (same budget); the position is kept when at most a quarter of its
//! legal moves, or exactly one, keep its value (a win: the child is still
//! won; a draw: the child is still drawn). Neither side is to move in more than 60% of a code's positions.
//!
//! `fresh` re-proves every position of a code's file and every child, each
//! position with a fresh solver (6 M nodes by default), checks the value and
//! the keeping moves, and writes that solver's node count into the file.
//!
//! `measure` searches every position of every code's file with `alphabeta`
//! and `mcts` (one thread, book off, no solver, `MoveOverhead` 0) for each
//! `movetime` (default 10, 100 and 1000 ms) and counts the moves that are
//! among the position's keeping moves.

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl};
use choro_engine::solve::book;
use choro_engine::solve::classes::Tables;
use choro_engine::solve::Value;
use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
use choro_engine::{Game, Opening, Phase, Position, Searcher, Side, Variant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/strength");

/// Nodes the solver may spend on a position or on each child, unless the
/// command gives another budget (the first runs used this one).
const NODES: u64 = 150_000;

/// Nodes the solver may spend on the root of a proof line (source `line`).
const ROOT_NODES: u64 = 32_000_000;

/// The sources of candidates, by name, in the order `candidate` numbers
/// them.
const SOURCES: [&str; 7] = [
    "main", "opening", "race", "line", "blunder", "wide", "endgame",
];

/// The largest class of Adjiboto's retrograde tables (`solve::classes`)
/// that source `endgame` builds: every main-phase position with at most
/// this many counters in play, valued exactly (about 2 minutes).
const ENDGAME_K: u32 = 16;

/// Nodes the solver may spend on the root of a proof line of source
/// `wide` (a blind cell of Didinga 4x9 or 4x10): a quarter of `ROOT_NODES`,
/// since about half of these cells are not proven within 60 M nodes and a
/// failed root costs its whole budget.
const WIDE_ROOT_NODES: u64 = ROOT_NODES / 4;

/// Most legal moves of a kept position (every child is proven).
const MAX_MOVES: usize = 48;

/// The proven sign of `p` for its side to move and the depth of its proof
/// (a win or loss within that many plies), or `None` if not proven.
fn sign(s: &Solver, p: &Position, nodes: u64) -> Option<(i8, Option<u32>, u64)> {
    let sol = s
        .solve(
            p,
            &SolveLimits {
                plies: Some(1),
                nodes: Some(nodes),
                time: None,
            },
            &AtomicBool::new(false),
            Duration::from_secs(3600),
            &mut |_| {},
        )
        .ok()?;
    let (lo, hi) = sol.range();
    (lo == hi).then_some((lo, sol.win_within.or(sol.loss_within), sol.nodes))
}

/// As `sign`, but from Adjiboto's retrograde tables where they hold `p`
/// (exact: the depth is the distance, and no solver node is spent).
fn valued(
    tables: Option<&Tables>,
    s: &Solver,
    p: &Position,
    nodes: u64,
) -> Option<(i8, Option<u32>, u64)> {
    match tables.and_then(|t| t.value(p)) {
        Some(Value::Win(d)) => Some((1, Some(d), 0)),
        Some(Value::Loss(d)) => Some((-1, Some(d), 0)),
        Some(Value::Draw) => Some((0, None, 0)),
        None => sign(s, p, nodes),
    }
}

/// The move `alg` chooses in `p` within `ms`.
fn search(alg: Algorithm, p: &Position, ms: u64) -> Option<choro_engine::Move> {
    searched(
        alg,
        p,
        &Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        },
    )
}

/// The move `alg` chooses in `p` within `limits`.
fn searched(alg: Algorithm, p: &Position, limits: &Limits) -> Option<choro_engine::Move> {
    let mut s = Searcher::new(SearchConfig {
        algorithm: alg,
        threads: 1,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    });
    s.set_book(false);
    s.search(
        &Game::new(*p),
        limits,
        &SearchControl::default(),
        &mut |_| {},
    )
    .best
}

/// A candidate of source `src` (0 main, 1 sequential opening, 2 race).
fn candidate(v: Variant, src: usize, rng: &mut choro_engine::rng::Rng) -> Option<Position> {
    // Didinga: 4x8 two times in three, else 4x9 to 4x11 (slower to prove).
    let width = if v == Variant::Didinga && rng.chance(1, 3) {
        9 + rng.below(3) as u8
    } else {
        v.default_width()
    };
    // Games in which each move is, one time in three, a random one, else
    // `alphabeta`'s at depth 2: both sides play about evenly, so that the
    // winning moves are fewer than after random play.
    let walk = |mut p: Position, plies: usize, rng: &mut choro_engine::rng::Rng| {
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let guided = (!p.phase().is_blind() && !rng.chance(1, 3))
                .then(|| {
                    let limits = Limits {
                        depth: Some(2),
                        ..Limits::default()
                    };
                    searched(Algorithm::AlphaBeta, &p, &limits)
                })
                .flatten();
            p = match guided {
                Some(m) => p.play(&m).unwrap(),
                None => moves[rng.below(moves.len())].1,
            };
        }
        p
    };
    let p = match src {
        0 => {
            // Didinga's guided games last long: its middle games are
            // taken later, where the solver proves more of them.
            let plies = if v == Variant::Didinga {
                20 + rng.below(60)
            } else if v.is_choro() {
                4 + rng.below(40)
            } else {
                20 + rng.below(90)
            };
            let p = walk(Position::startpos(v, width).ok()?, plies, rng);
            (p.phase() == Phase::Main).then_some(p)?
        }
        1 => {
            let p = Position::startpos(v, width).ok()?;
            walk(p, rng.below(2), rng)
        }
        6 => {
            // Adjiboto's endgame: the guided game goes on until at most
            // `ENDGAME_K` counters are in play, then 0 to 5 plies more.
            let mut p = Position::startpos(v, width).ok()?;
            for _ in 0..600 {
                let in_play: u32 = (0..2)
                    .flat_map(|r| (0..5).map(move |c| (r, c)))
                    .map(|(r, c)| p.at(r, c) as u32)
                    .sum();
                if in_play <= ENDGAME_K && p.history(Side::B).len() == 5 {
                    break;
                }
                if !p.has_legal_move() {
                    return None;
                }
                p = walk(p, 1, rng);
            }
            walk(p, rng.below(6), rng)
        }
        _ => {
            let mut p = Position::start(v, width, Opening::Simultaneous).ok()?;
            p = walk(p, 2, rng);
            for _ in 0..rng.below(9) {
                let moves = p.legal_moves();
                if p.phase() != Phase::Race || moves.is_empty() {
                    break;
                }
                p = moves[rng.below(moves.len())].1;
            }
            p
        }
    };
    (!p.phase().is_blind() && p.has_legal_move()).then_some(p.with_ply(0))
}

/// The roots of source `wide`: every blind cell of Didinga 4x9 and 4x10
/// (181 cells; none for the other codes).
fn wide_roots(v: Variant) -> Vec<Position> {
    let mut out = Vec::new();
    if v != Variant::Didinga {
        return out;
    }
    for w in [9, 10] {
        let s = Position::start(v, w, Opening::Simultaneous).unwrap();
        for (_, a) in s.legal_moves() {
            for (_, c) in a.legal_moves() {
                out.push(c);
            }
        }
    }
    out
}

/// The roots of the proof lines of `v` (source `line`): positions far from
/// the end whose proofs are big. Every blind cell of the simultaneous
/// opening (Didinga on 4x8: the 64 whose signs df-pn decides in 4 to 18 M
/// nodes each, SOLVED.md), and for Didinga the sequential starts of 4x10
/// and 4x11 (won by A in 19 and 15 plies, proofs 127 and more deep).
/// Adjiboto has none: its start is not solved.
fn roots(v: Variant) -> Vec<Position> {
    let mut out = Vec::new();
    if !v.is_choro() {
        return out;
    }
    let s = Position::start(v, v.default_width(), Opening::Simultaneous).unwrap();
    for (_, a) in s.legal_moves() {
        for (_, c) in a.legal_moves() {
            out.push(c);
        }
    }
    if v == Variant::Didinga {
        for w in [10, 11] {
            out.push(Position::startpos(v, w).unwrap());
        }
    }
    out
}

/// The proof lines: their roots, each proven once (the winner, or `None`
/// when the root budget did not prove it), and the root walked now.
struct Lines {
    roots: Vec<Position>,
    winner: Vec<Option<Option<Side>>>,
    /// The root in use and the candidates still to take from it.
    current: Option<(usize, usize)>,
    root_nodes: u64,
}

impl Lines {
    fn new(v: Variant, root_nodes: u64) -> Lines {
        Lines::of(v, roots(v), root_nodes)
    }

    fn of(v: Variant, roots: Vec<Position>, root_nodes: u64) -> Lines {
        let races = roots.iter().filter(|p| p.phase() == Phase::Race).count();
        eprintln!("{v}: {} roots, {races} of them in the race", roots.len());
        let winner = vec![None; roots.len()];
        Lines {
            roots,
            winner,
            current: None,
            root_nodes,
        }
    }

    /// A position along the proof line of a root, `plies` (0 to 24) in,
    /// with the winner to move. Each root gives eight candidates in turn.
    /// At the winner's turn the line takes a child the proof-number tables
    /// know as won (the shallowest proof two times in three, else any); at
    /// the loser's, a child they know as lost (the deepest proof two times
    /// in three, else any): the loser's best defence, far from the end.
    fn next(&mut self, solver: &Solver, rng: &mut choro_engine::rng::Rng) -> Option<Position> {
        if self.roots.is_empty() {
            return None;
        }
        let (r, left) = match self.current {
            Some((r, left)) if left > 0 => (r, left),
            _ => (rng.below(self.roots.len()), 8),
        };
        self.current = Some((r, left - 1));
        let root = self.roots[r];
        // The root's proof is made once; the tables keep most of it, and a
        // root proven again finds the rest in the table of facts.
        let winner = match self.winner[r] {
            Some(w) => w?,
            None => {
                let w = sign(solver, &root, self.root_nodes).and_then(|(v, _, n)| {
                    eprintln!("root {r} proven: {v} in {n} nodes");
                    match v {
                        1 => Some(root.side_to_move()),
                        -1 => Some(root.side_to_move().other()),
                        _ => None,
                    }
                });
                self.winner[r] = Some(w);
                if w.is_none() {
                    eprintln!("root {r}: not proven, or a draw");
                }
                w?
            }
        };
        // Prove it again (free when the tables still hold it) so that the
        // line's positions are known.
        sign(solver, &root, self.root_nodes)?;
        let plies = rng.below(25);
        let mut p = root;
        for _ in 0..plies {
            let mut known: Vec<(Position, u32)> = p
                .legal_moves()
                .into_iter()
                .map(|(_, c)| (c, solver.proof_order(&c, winner)))
                .filter(|&(_, d)| d != u32::MAX)
                .collect();
            if known.is_empty() {
                break;
            }
            known.sort_by_key(|&(_, d)| d);
            let pick = if !rng.chance(2, 3) {
                rng.below(known.len())
            } else if p.side_to_move() == winner {
                0
            } else {
                known.len() - 1
            };
            p = known[pick].0;
        }
        if p.side_to_move() != winner {
            // One more winning move, so that the winner is to move.
            let c = p
                .legal_moves()
                .into_iter()
                .map(|(_, c)| (solver.proof_order(&c, winner), c))
                .filter(|&(d, _)| d != u32::MAX)
                .min_by_key(|&(d, _)| d)?;
            p = c.1;
        }
        (p.side_to_move() == winner && !p.phase().is_blind() && p.has_legal_move())
            .then_some(p.with_ply(0))
    }
}

/// Most plies of a game of the source `blunder`.
const GAME_PLIES: usize = 200;

/// Unproven positions in a row, walking a game of the source `blunder`
/// back from its end, after which the rest of the game is left unchecked
/// (the earlier positions are harder to prove still).
const UNPROVEN_RUN: usize = 3;

/// The source `blunder`: games of today's searchers against each other at
/// short budgets, and the positions in which the move played gave the
/// value away. Each game pits `alphabeta` (one thread, book off) at 5 to 30
/// ms a move against `alphabeta` or (one game in two) `mcts` at 5 to 30 ms,
/// sides at random, for at most `GAME_PLIES` plies or until a position
/// repeats. The starts: for the Choro codes every blind cell of the
/// simultaneous opening on 4x8 (all pairs of blind starts, taken at
/// random), and one game in four the sequential start; for Didinga one game
/// in two on 4x9 to 4x16 instead, the sequential or the simultaneous
/// opening (blind starts at random); for Adjiboto its start and 0 to 6
/// random plies. After the game the solver (df-pn, `--plies 1`, the run's
/// node budget for each position and child) walks it back from its end:
/// a position whose mover's value was a win and whose child after the move
/// played is not won for him, or a draw whose child is lost, is a blunder
/// and a candidate. The walk stops at `UNPROVEN_RUN` unproven positions in
/// a row.
struct Blunders {
    cells: Vec<Position>,
    queue: Vec<Position>,
    games: usize,
    plies: usize,
    found: usize,
    /// The games in which `mcts` played one side.
    mcts_games: usize,
}

impl Blunders {
    fn new(v: Variant) -> Blunders {
        let mut cells = Vec::new();
        if v.is_choro() {
            let s = Position::start(v, v.default_width(), Opening::Simultaneous).unwrap();
            for (_, a) in s.legal_moves() {
                for (_, c) in a.legal_moves() {
                    cells.push(c);
                }
            }
        }
        Blunders {
            cells,
            queue: Vec::new(),
            games: 0,
            plies: 0,
            found: 0,
            mcts_games: 0,
        }
    }

    /// The start of a game (see the struct's doc).
    fn start(&self, v: Variant, rng: &mut choro_engine::rng::Rng) -> Option<Position> {
        let mut p = if !v.is_choro() {
            let mut p = Position::startpos(v, v.default_width()).ok()?;
            for _ in 0..rng.below(7) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = moves[rng.below(moves.len())].1;
            }
            p
        } else if v == Variant::Didinga && rng.chance(1, 2) {
            let w = 9 + rng.below(8) as u8;
            if rng.chance(1, 2) {
                Position::startpos(v, w).ok()?
            } else {
                Position::start(v, w, Opening::Simultaneous).ok()?
            }
        } else if rng.chance(1, 4) || self.cells.is_empty() {
            Position::startpos(v, v.default_width()).ok()?
        } else {
            *rng.pick(&self.cells)
        };
        while p.phase().is_blind() {
            let moves = p.legal_moves();
            if moves.is_empty() {
                return None;
            }
            p = moves[rng.below(moves.len())].1;
        }
        Some(p)
    }

    /// The next blunder, or `None` when a game gave none.
    fn next(
        &mut self,
        v: Variant,
        solver: &Solver,
        nodes: u64,
        rng: &mut choro_engine::rng::Rng,
    ) -> Option<Position> {
        if let Some(p) = self.queue.pop() {
            return Some(p);
        }
        let mut p = self.start(v, rng)?;
        let ab = 5 + rng.below(26) as u64;
        let other = 5 + rng.below(26) as u64;
        let mcts = rng.chance(1, 2);
        let ab_side = if rng.chance(1, 2) { Side::A } else { Side::B };
        self.games += 1;
        self.mcts_games += mcts as usize;
        // The game: each position with two moves or more and the move played.
        let mut line: Vec<(Position, choro_engine::Move)> = Vec::new();
        let mut met: Vec<Position> = vec![p];
        for _ in 0..GAME_PLIES {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if moves.len() == 1 {
                moves[0].0
            } else if p.side_to_move() == ab_side || !mcts {
                let ms = if p.side_to_move() == ab_side {
                    ab
                } else {
                    other
                };
                search(Algorithm::AlphaBeta, &p, ms)?
            } else {
                search(Algorithm::Mcts, &p, other)?
            };
            if moves.len() >= 2 {
                line.push((p.with_ply(0), m));
            }
            p = p.play(&m).ok()?;
            self.plies += 1;
            if met.iter().any(|q| q.same_state(&p)) {
                break;
            }
            met.push(p);
        }
        // Back from the end: the later positions are the cheaper proofs, and
        // their proofs help the earlier ones.
        let mut unproven = 0;
        for (p, m) in line.iter().rev() {
            let Some((value, _, _)) = sign(solver, p, nodes) else {
                unproven += 1;
                if unproven >= UNPROVEN_RUN {
                    break;
                }
                continue;
            };
            unproven = 0;
            if value < 0 {
                continue;
            }
            let c = p.play(m).unwrap();
            let Some((cv, _, _)) = sign(solver, &c, nodes) else {
                continue;
            };
            let mine = if c.side_to_move() == p.side_to_move() {
                cv
            } else {
                -cv
            };
            if mine < value {
                self.found += 1;
                self.queue.push(*p);
            }
        }
        // The queue holds the latest blunder first: the earliest is taken
        // first.
        eprintln!(
            "{v}: game {} ({} plies, alphabeta {ab} ms vs {} {other} ms): {} blunders, {} in all",
            self.games,
            line.len(),
            if mcts { "mcts" } else { "alphabeta" },
            self.queue.len(),
            self.found
        );
        self.queue.pop()
    }
}

/// One kept position.
struct Kept {
    pos: Position,
    value: i8,
    depth: Option<u32>,
    keep: Vec<String>,
    legal: usize,
    nodes: u64,
    probe: bool,
}

/// What one `build` run is asked for (its command's arguments).
struct Ask {
    per_code: usize,
    secs: u64,
    seed: u64,
    out: String,
    easy_in: u32,
    /// The solver's budget for a position and for each child.
    nodes: u64,
    /// The sources, by index in `SOURCES`.
    sources: Vec<usize>,
    /// The probe's budget: `alphabeta`'s `movetime`, in milliseconds.
    probe_ms: u64,
    /// The checkout's commit when the run started (`cargo run` builds it
    /// then; read at the end, it would name any commit made meanwhile).
    commit: String,
}

fn build(v: Variant, ask: &Ask) {
    let (per_code, secs, easy_in, budget) = (ask.per_code, ask.secs, ask.easy_in, ask.nodes);
    let mut solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: if budget > NODES { 1024 } else { 256 },
        ..SolveConfig::default()
    })
    .unwrap();
    let books = book::builtin();
    let mut rng = choro_engine::rng::Rng::new(ask.seed);
    let start = Instant::now();
    let mut lines = Lines::new(v, ROOT_NODES);
    let mut wide = Lines::of(v, wide_roots(v), WIDE_ROOT_NODES);
    let mut blunders = Blunders::new(v);
    // Adjiboto has no opening, race or proof line.
    let sources: Vec<usize> = ask
        .sources
        .iter()
        .copied()
        .filter(|&s| v.is_choro() || s == 0 || s == 4 || s == 6)
        .filter(|&s| v == Variant::Didinga || s != 5)
        .filter(|&s| v == Variant::Adjiboto || s != 6)
        .collect();
    if sources.is_empty() {
        eprintln!("{v}: none of the sources named has positions of this code");
        return;
    }
    let tables = sources.contains(&6).then(|| {
        let t = Tables::build(ENDGAME_K, &AtomicBool::new(false), &mut |c| {
            eprintln!("{v}: table of {} counters in play built", c.k)
        })
        .unwrap();
        eprintln!("{v}: tables up to {ENDGAME_K} counters built");
        t
    });
    let tables = tables.as_ref();
    let mut kept: Vec<Kept> = Vec::new();
    let mut seen: Vec<Position> = Vec::new();
    let (mut tried, mut unproven, mut easy, mut many) = (0usize, 0usize, 0usize, 0usize);
    // The sequential opening has few positions: with the source `opening`
    // every one is tried first (the start `o2` and its children `o1`, on
    // every width of Didinga from 4x8 to 4x11), whatever the probe says.
    let mut openings: Vec<Position> = Vec::new();
    if sources.contains(&1) {
        let widths: &[u8] = if v == Variant::Didinga {
            &[8, 9, 10, 11]
        } else {
            &[v.default_width()]
        };
        for &w in widths {
            let s = Position::startpos(v, w).unwrap();
            openings.push(s);
            openings.extend(s.legal_moves().into_iter().map(|(_, c)| c));
        }
        openings.retain(|p| matches!(p.phase(), Phase::Opening2 | Phase::Opening1));
        openings.reverse();
    }
    let mut i = 0;
    while kept.len() < per_code && start.elapsed().as_secs() < secs {
        let whole = !openings.is_empty();
        let src = sources[i % sources.len()];
        let p = if let Some(p) = openings.pop() {
            Some(p.with_ply(0))
        } else if src == 3 {
            i += 1;
            lines.next(&solver, &mut rng)
        } else if src == 4 {
            i += 1;
            blunders.next(v, &solver, budget, &mut rng)
        } else if src == 5 {
            i += 1;
            wide.next(&solver, &mut rng)
        } else {
            i += 1;
            candidate(v, src, &mut rng)
        };
        let Some(p) = p else {
            continue;
        };
        if books.get(&p).is_some()
            || books.sign(&p).is_some()
            || seen.iter().any(|q| q.same_state(&p))
        {
            continue;
        }
        seen.push(p);
        let moves = p.legal_moves();
        if moves.len() < 2 || moves.len() > MAX_MOVES {
            continue;
        }
        let me = p.side_to_move();
        let sides = kept.iter().filter(|k| k.pos.side_to_move() == me).count();
        if sides * 10 >= per_code * 6 {
            continue;
        }
        tried += 1;
        // The tables may already know more won children than a kept
        // position may have (free to ask): such a position is left out
        // before any search.
        let limit = (moves.len() / 4).max(1);
        let won = moves
            .iter()
            .filter(|(_, c)| solver.proof_order(c, me) != u32::MAX)
            .count();
        if won > limit {
            many += 1;
            continue;
        }
        if tried % 20 == 0 {
            eprintln!(
                "{v}: {tried} tried, {unproven} unproven, {easy} easy, {many} many, {} kept, {} s",
                kept.len(),
                start.elapsed().as_secs()
            );
        }
        // The solver's table is cleared now and then: positions of
        // different games share little.
        let Some((value, depth, nodes)) = valued(tables, &solver, &p, budget) else {
            unproven += 1;
            continue;
        };
        if value < 0 {
            continue;
        }
        // The probe: `alphabeta` for `probe_ms`. A position whose probe keeps
        // the value is kept one time in `easy_in`, and decided before its
        // other children are proven.
        let probe = search(Algorithm::AlphaBeta, &p, ask.probe_ms).and_then(|m| {
            let c = p.play(&m).unwrap();
            let (cv, _, _) = valued(tables, &solver, &c, budget)?;
            Some((if c.side_to_move() == me { cv } else { -cv }) == value)
        });
        let Some(probe) = probe else {
            unproven += 1;
            continue;
        };
        if probe && !whole && !rng.chance(1, easy_in) {
            easy += 1;
            continue;
        }
        let mut keep = Vec::new();
        let mut nodes = nodes;
        let mut ok = true;
        for (m, c) in &moves {
            let Some((cv, _, n)) = valued(tables, &solver, c, budget) else {
                unproven += 1;
                ok = false;
                break;
            };
            nodes += n;
            let mine = if c.side_to_move() == me { cv } else { -cv };
            assert!(mine <= value, "{p}: child {m} better than the position");
            if mine == value {
                keep.push(m.to_string());
                if keep.len() > limit {
                    many += 1;
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        assert!(!keep.is_empty(), "{p}: no child keeps the value");
        eprintln!(
            "{v} {:>3} {:>5}s {} {} keep {}/{} depth {:?} nodes {nodes} probe {probe}: {p}",
            kept.len() + 1,
            start.elapsed().as_secs(),
            phase_word(p.phase()),
            if value > 0 { "win" } else { "draw" },
            keep.len(),
            moves.len(),
            depth
        );
        kept.push(Kept {
            pos: p,
            value,
            depth,
            keep,
            legal: moves.len(),
            nodes,
            probe,
        });
        write(v, &kept, ask, (tried, unproven, easy, many), &blunders);
        if tried % 50 == 0 {
            solver.clear();
        }
    }
    // The head's counts as at the end of the run.
    if !kept.is_empty() {
        write(v, &kept, ask, (tried, unproven, easy, many), &blunders);
    }
    eprintln!(
        "{v}: {} kept of {tried} tried ({unproven} unproven, {easy} easy, {many} many) in {} s",
        kept.len(),
        start.elapsed().as_secs()
    );
}

/// Write the suite file of `v`.
fn write(
    v: Variant,
    kept: &[Kept],
    ask: &Ask,
    (tried, unproven, easy, many): (usize, usize, usize, usize),
    blunders: &Blunders,
) {
    let (per_code, secs, seed, easy_in, nodes, probe) = (
        ask.per_code,
        ask.secs,
        ask.seed,
        ask.easy_in,
        ask.nodes,
        ask.probe_ms,
    );
    let sources: Vec<&str> = ask.sources.iter().map(|&i| SOURCES[i]).collect();
    let sources = sources.join(",");
    let commit = &ask.commit;
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let mut text = format!(
        "# The hard strength suite, {v}: proven positions in which few moves keep the value\n\
         # (positions/strength/README.md). Built {date} at commit {commit} by\n\
         # `cargo run --release -p choro-engine --example hard_suite -- build {v} {per_code} {secs} {seed} FILE {easy_in} {nodes} {sources} {probe}`\n\
         # ({} positions tried, {unproven} not proven within {nodes} nodes each, {easy} left out as\n\
         # kept by alphabeta at {probe} ms: such a position is kept one time in {easy_in}; {many} with more\n\
         # than a quarter of the moves keeping the value). Columns: position, value (win or draw for the side to\n\
         # move), the moves that keep it, legal moves, phase, proof depth (plies; - for a draw),\n\
         # solver nodes for the position and its children, probe (alphabeta at {probe} ms kept it).\n",
        tried
    );
    if ask.sources.contains(&4) {
        text.push_str(&format!(
            "# Source blunder: {} games ({} plies; mcts played one side in {}), {} blunders found\n\
             # (a position whose value the move played gave away), each a candidate as above.\n",
            blunders.games, blunders.plies, blunders.mcts_games, blunders.found
        ));
    }
    for k in kept {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            k.pos,
            if k.value > 0 { "win" } else { "draw" },
            k.keep.join(" "),
            k.legal,
            phase_word(k.pos.phase()),
            k.depth.map_or("-".to_string(), |d| d.to_string()),
            k.nodes,
            if k.probe { "kept" } else { "lost" },
        ));
    }
    std::fs::write(&ask.out, text).unwrap();
}

/// One suite line: the position and the children of its keeping moves.
fn parse(line: &str) -> (Position, Vec<Position>) {
    let f: Vec<&str> = line.split('\t').collect();
    let p: Position = f[0].parse().unwrap();
    let keep = f[2]
        .split(' ')
        .map(|m| p.parse_move(m).unwrap().1)
        .collect();
    (p, keep)
}

/// Re-prove every position of `v`'s file and every child with a fresh
/// solver each (`nodes` a position or child), check the value and the
/// keeping moves, and write the fresh solver's node count into the nodes
/// column: a position taken along a proof line was proven from tables
/// that held most of its proof, and its run counted only what was left.
fn fresh(v: Variant, nodes: u64) {
    let path = format!("{DIR}/{v}.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut f: Vec<String> = line.split('\t').map(str::to_string).collect();
        let p: Position = f[0].parse().unwrap();
        let solver = Solver::new(&SolveConfig {
            threads: 1,
            hash_mb: 1024,
            ..SolveConfig::default()
        })
        .unwrap();
        let value = if f[1] == "win" { 1 } else { 0 };
        let (pv, _, mut n) = sign(&solver, &p, nodes).unwrap_or_else(|| panic!("{p}: not proven"));
        assert_eq!(pv, value, "{p}: value");
        let keep: Vec<Position> = f[2]
            .split(' ')
            .map(|m| p.parse_move(m).unwrap().1)
            .collect();
        for (m, c) in p.legal_moves() {
            let (cv, _, cn) =
                sign(&solver, &c, nodes).unwrap_or_else(|| panic!("{p}: {m} not proven"));
            n += cn;
            let mine = if c.side_to_move() == p.side_to_move() {
                cv
            } else {
                -cv
            };
            let listed = keep.iter().any(|k| k.same_state(&c));
            assert_eq!(mine == value, listed, "{p}: {m}");
        }
        eprintln!("{v}: {} -> {n} nodes: {p}", f[6]);
        f[6] = n.to_string();
        out.push_str(&f.join("\t"));
        out.push('\n');
    }
    std::fs::write(&path, out).unwrap();
}

fn measure(times: &[u64]) {
    let algs = [Algorithm::AlphaBeta, Algorithm::Mcts];
    // tally[alg][time] = (kept, positions)
    let mut tally = vec![vec![(0usize, 0usize); times.len()]; algs.len()];
    let mut rows = Vec::new();
    for v in Variant::ALL {
        let Ok(text) = std::fs::read_to_string(format!("{DIR}/{v}.txt")) else {
            continue;
        };
        let suite: Vec<(Position, Vec<Position>)> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(parse)
            .collect();
        for (a, &alg) in algs.iter().enumerate() {
            let mut cells = Vec::new();
            for (t, &ms) in times.iter().enumerate() {
                let mut k = 0;
                for (p, keep) in &suite {
                    let c = search(alg, p, ms).map(|m| p.play(&m).unwrap());
                    k += c.is_some_and(|c| keep.iter().any(|d| d.same_state(&c))) as usize;
                }
                tally[a][t].0 += k;
                tally[a][t].1 += suite.len();
                cells.push(pct(k, suite.len()));
            }
            rows.push(format!("| {v} | {} | {} |", alg.name(), cells.join(" | ")));
            eprintln!("{}", rows.last().unwrap());
        }
    }
    let head: Vec<String> = times.iter().map(|t| format!("{t} ms")).collect();
    println!("| code | algorithm | {} |", head.join(" | "));
    println!("|---|---|{}", "---|".repeat(times.len()));
    for r in rows {
        println!("{r}");
    }
    for (a, alg) in algs.iter().enumerate() {
        let cells: Vec<String> = tally[a].iter().map(|&(k, n)| pct(k, n)).collect();
        println!("| all | {} | {} |", alg.name(), cells.join(" | "));
    }
}

/// The suite's word for a phase.
fn phase_word(p: Phase) -> &'static str {
    match p {
        Phase::Opening2 | Phase::Opening1 => "opening",
        Phase::Race => "race",
        _ => "main",
    }
}

fn pct(k: usize, n: usize) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{k}/{n} ({:.0}%)", 100.0 * k as f64 / n as f64)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("build") if args.len() >= 2 => {
            let v: Variant = match Variant::ALL.iter().find(|v| v.name() == args[1]) {
                Some(&v) => v,
                None => return eprintln!("unknown code {}", args[1]),
            };
            let n = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
            let out = args
                .get(5)
                .cloned()
                .unwrap_or_else(|| format!("{DIR}/{v}.txt"));
            let sources = match args.get(8) {
                Some(list) => {
                    let mut s = Vec::new();
                    for name in list.split(',') {
                        match SOURCES.iter().position(|&x| x == name) {
                            Some(i) => s.push(i),
                            None => return eprintln!("unknown source {name}"),
                        }
                    }
                    s
                }
                None => vec![0, 1, 2],
            };
            build(
                v,
                &Ask {
                    per_code: n(2, 30) as usize,
                    secs: n(3, 900),
                    seed: n(4, 2026),
                    out,
                    easy_in: n(6, 4) as u32,
                    nodes: n(7, NODES),
                    sources,
                    probe_ms: n(9, 10).max(1),
                    commit: std::process::Command::new("git")
                        .args(["rev-parse", "--short", "HEAD"])
                        .output()
                        .ok()
                        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                        .unwrap_or_default(),
                },
            );
        }
        Some("fresh") if args.len() >= 2 => {
            match Variant::ALL.iter().find(|v| v.name() == args[1]) {
                Some(&v) => fresh(
                    v,
                    args.get(2)
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(6_000_000),
                ),
                None => eprintln!("unknown code {}", args[1]),
            }
        }
        Some("measure") => {
            let t: Vec<u64> = args[1..].iter().filter_map(|s| s.parse().ok()).collect();
            measure(if t.is_empty() { &[10, 100, 1000] } else { &t });
        }
        _ => {
            eprintln!("usage: hard_suite build CODE [per-code] [seconds] [seed] [FILE] [easy-in] [nodes] [sources] [probe-ms] | fresh CODE [nodes] | measure [ms ...]")
        }
    }
}
