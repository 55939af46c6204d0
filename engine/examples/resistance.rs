//! Resistance in lost positions against fallible opponents (issue 30,
//! item 6; BENCHMARKS.md "Resistance in lost positions"): how often the
//! lost side escapes (wins or draws) when it plays the book's longest loss
//! and when it plays the heuristic search instead.
//!
//! ```text
//! cargo run --release -p choro-engine --example resistance -- [MS] [GAMES] [MIN]
//! ```
//!
//! Positions: every position of the built-in books (positions/solved/*.book)
//! whose side to move is proven lost in MIN plies or more (default 5). From
//! each, the lost side plays with one policy and the winning side with one
//! opponent, to the game's end (draw rules as `choro`: repetition and
//! `DrawPlies` 1000):
//!
//! - policies of the lost side, `alphabeta` at MS ms a move (default 20):
//!   `longest`, the engine as shipped (the book's longest loss where the book
//!   has the position, and the solver's share of the move, which plays the
//!   longest loss it proves); `heuristic`, the book and the solver off (the
//!   evaluation's best chances);
//! - opponents: `random`, `greedy` (GAMES games each, default 4, seeds 1..),
//!   and `alphabeta` at 5 ms with the book and the solver off (GAMES games;
//!   its seed changes its move order only where the time cuts it).
//!
//! It prints, per policy and opponent, the lost side's wins, draws, losses
//! and the mean plies it survived.
//!
//! ```text
//! cargo run --release -p choro-engine --example resistance -- mcts NODES|MSms [MIN]
//! ```
//!
//! counts the lost book positions (loss in MIN plies or more, default 4) in
//! which `mcts` (book off, `SolveShare` 10, `Hash` 64) at `go nodes NODES`
//! or `go movetime MS` plays a move that loses sooner than the longest
//! loss, each chosen move's child valued by the solver.

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl};
use choro_engine::solve::book;
use choro_engine::solve::Value;
use choro_engine::{Game, Outcome, Searcher};
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
enum Policy {
    Longest,
    Heuristic,
}

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    Greedy,
    AlphaBeta,
}

fn searcher(algorithm: Algorithm, seed: u64, book: bool, solve_share: u32) -> Searcher {
    let mut s = Searcher::new(SearchConfig {
        algorithm,
        threads: 1,
        hash_mb: 16,
        seed,
        solve_share,
        ..SearchConfig::default()
    });
    s.set_book(book);
    s
}

/// One game from `start` (the lost side to move); the lost side's result
/// (1 win, 0 draw, -1 loss) and the plies played.
fn game(
    start: &choro_engine::Position,
    policy: Policy,
    opp: Opponent,
    seed: u64,
    ms: u64,
) -> (i32, u32) {
    let lost = start.side_to_move();
    let mut me = match policy {
        Policy::Longest => searcher(Algorithm::AlphaBeta, seed, true, 10),
        Policy::Heuristic => searcher(Algorithm::AlphaBeta, seed, false, 0),
    };
    let (mut them, their_ms) = match opp {
        Opponent::Random => (searcher(Algorithm::Random, seed, false, 0), 1),
        Opponent::Greedy => (searcher(Algorithm::Greedy, seed, false, 0), 1),
        Opponent::AlphaBeta => (searcher(Algorithm::AlphaBeta, seed, false, 0), 5),
    };
    let mut g = Game::new(*start);
    let mut plies = 0;
    loop {
        if let Some(o) = g.outcome() {
            let r = match o {
                Outcome::Win { winner, .. } if winner == lost => 1,
                Outcome::Win { .. } => -1,
                _ => 0,
            };
            return (r, plies);
        }
        let mine = g.position().side_to_move() == lost;
        let limits = Limits {
            movetime: Some(Duration::from_millis(if mine { ms } else { their_ms })),
            ..Limits::default()
        };
        let s = if mine { &mut me } else { &mut them };
        let r = s.search(&g, &limits, &SearchControl::default(), &mut |_| {});
        let Some(m) = r.best else {
            panic!("no move in {}", g.position());
        };
        g.play(&m).expect("the searcher's move is legal");
        plies += 1;
    }
}

/// The `mcts` mode: lost book positions where `mcts` loses sooner than it
/// must.
fn mcts_losses(limit: &str, min: u32) {
    use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
    let limits = match limit.strip_suffix("ms") {
        Some(ms) => Limits {
            movetime: Some(Duration::from_millis(ms.parse().expect("MSms"))),
            ..Limits::default()
        },
        None => Limits {
            nodes: Some(limit.parse().expect("NODES")),
            ..Limits::default()
        },
    };
    let solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: 256,
        ..SolveConfig::default()
    })
    .expect("the solver's tables");
    let (mut short, mut n) = (0, 0);
    for e in book::builtin().entries() {
        let Value::Loss(d) = e.value else { continue };
        if d < min {
            continue;
        }
        n += 1;
        let mut s = Searcher::new(SearchConfig {
            algorithm: Algorithm::Mcts,
            hash_mb: 64,
            solve_share: 10,
            ..SearchConfig::default()
        });
        s.set_book(false);
        let r = s.search(
            &Game::new(e.pos),
            &limits,
            &SearchControl::default(),
            &mut |_| {},
        );
        let m = r.best.expect("a lost position with moves");
        let child = e.pos.play(&m).expect("legal");
        let v = solver
            .solve_within(&child, &SolveLimits::default())
            .ok()
            .and_then(|x| x.value);
        let ok = v == Some(Value::Win(d - 1));
        if !ok {
            short += 1;
        }
        println!(
            "{}\tloss {d}\tplayed {m}\tchild {v:?}{}",
            e.pos,
            if ok { "" } else { "\tSHORTER" }
        );
    }
    println!("{short} of {n} lost positions: a loss shorter than the longest");
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("mcts") {
        let limit = raw.get(1).map_or("200000", String::as_str);
        let min = raw.get(2).map_or(4, |m| m.parse().expect("MIN"));
        return mcts_losses(limit, min);
    }
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: MS GAMES MIN"))
        .collect();
    let ms = args.first().copied().unwrap_or(20);
    let games = args.get(1).copied().unwrap_or(4);
    let min = args.get(2).copied().unwrap_or(5) as u32;
    let starts: Vec<_> = book::builtin()
        .entries()
        .filter(|e| matches!(e.value, Value::Loss(d) if d >= min))
        .map(|e| e.pos)
        .collect();
    println!(
        "{} lost positions (loss in {min} plies or more) from the built-in books; \
         the lost side's alphabeta at {ms} ms a move; {games} games per position and opponent",
        starts.len()
    );
    println!("| opponent | policy | wins | draws | losses | escapes | mean plies |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for opp in [Opponent::Random, Opponent::Greedy, Opponent::AlphaBeta] {
        for policy in [Policy::Longest, Policy::Heuristic] {
            let (mut w, mut d, mut l, mut plies) = (0, 0, 0, 0u64);
            for p in &starts {
                for seed in 1..=games {
                    let (r, n) = game(p, policy, opp, seed, ms);
                    match r {
                        1 => w += 1,
                        0 => d += 1,
                        _ => l += 1,
                    }
                    plies += n as u64;
                }
            }
            let n = (w + d + l) as f64;
            println!(
                "| {opp:?} | {policy:?} | {w} | {d} | {l} | {:.1}% | {:.1} |",
                100.0 * (w + d) as f64 / n,
                plies as f64 / n
            );
        }
    }
}
