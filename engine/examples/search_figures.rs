//! The figures of BENCHMARKS.md's `## Search` section, and the search's
//! determinism signature.
//!
//! ```text
//! cargo run --release -p choro-engine --example search_figures -- <mode> [runs]
//! ```
//! Modes:
//! - `signature`: fixed positions at fixed depths, one thread, a fresh table
//!   each; prints `N nodes M nps` (N must not change unless search does);
//! - `nps`: alpha-beta nodes per second, one thread;
//! - `smp`: time to a fixed depth with 1 and 2 threads;
//! - `mcts`: MCTS iterations per second, one thread;
//! - `depth`: the depth alpha-beta completes in 1 s;
//! - `duel`: short matches between searchers, per code (a sanity check of
//!   strength, and the way to try evaluation weights);
//! - `all`: every figure but the duels.
//!
//! Every figure is the median of `runs` runs (default 3). Positions per code:
//! `start` (the start position, sequential opening), `main` (the full board,
//! 2 counters a hole, main phase, A to move; Adjiboto: its start) and two
//! middle-game positions `mid1`, `mid2` taken from random games, where a
//! depth-9 search finds no win (the sequential openings and the full board
//! are decided within a few plies in several codes).

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl, SearchResult};
use choro_engine::Searcher;
use choro_engine::{Game, Position, Variant};
use std::time::{Duration, Instant};

fn start(v: Variant) -> Position {
    Position::startpos(v, v.default_width()).unwrap()
}

fn main_phase(v: Variant) -> Position {
    if !v.is_choro() {
        return start(v);
    }
    let row = ["2"; 8].join(",");
    format!("{v}:8 {row}/{row}/{row}/{row} a m")
        .parse()
        .unwrap()
}

fn middle_games(v: Variant) -> [(&'static str, Position); 2] {
    let [a, b] = match v {
        Variant::Didinga => [
            "didinga:8 0,2,0,3,0,1,3,0/6,3,2,0,7,5,3,2/2,0,2,0,1,1,8,2/2,2,0,1,4,1,1,0 a m 12",
            "didinga:8 1,3,2,0,1,1,1,3/1,0,0,6,3,2,0,3/1,7,2,1,2,2,1,10/1,4,4,0,0,1,0,1 b m 11",
        ],
        Variant::Lango => [
            "lango:8 0,0,3,1,2,2,5,9/0,0,0,0,0,2,8,1/7,6,6,2,0,0,0,0/3,0,2,1,1,1,1,1 b m 11",
            "lango:8 0,0,4,2,2,0,0,3/0,0,0,6,2,0,0,9/0,5,0,4,1,3,9,1/2,3,3,1,0,2,1,1 b m 15",
        ],
        Variant::Acholi => [
            "acholi:8 0,0,0,2,2,2,2,2/0,2,0,2,0,4,4,2/0,8,3,4,0,3,1,6/1,0,2,1,6,3,1,1 b m 15",
            "acholi:8 0,0,0,1,1,1,0,3/0,4,0,4,1,4,13,3/1,2,2,0,9,0,0,7/5,0,0,0,0,1,0,2 a m 8",
        ],
        Variant::Adjiboto => [
            "adjiboto 8,1,13,10,12/17,9,1,14,9 a 14253/13254 3/3 12",
            "adjiboto 13,15,6,5,3/12,16,4,13,8 a 24153/45231 0/5 10",
        ],
    };
    [("mid1", a.parse().unwrap()), ("mid2", b.parse().unwrap())]
}

/// Every benchmark position of `v`, named (Adjiboto has no separate `main`).
fn all_positions(v: Variant) -> Vec<(&'static str, Position)> {
    let mut out = vec![("start", start(v))];
    if v.is_choro() {
        out.push(("main", main_phase(v)));
    }
    out.extend(middle_games(v));
    out
}

/// One search on a new searcher; the time excludes allocating the table.
fn search(
    p: &Position,
    algorithm: Algorithm,
    threads: usize,
    limits: &Limits,
) -> (SearchResult, Duration) {
    let mut s = Searcher::new(SearchConfig {
        algorithm,
        threads,
        hash_mb: 64,
        ..SearchConfig::default()
    });
    let game = Game::new(*p);
    let t = Instant::now();
    let r = s.search(&game, limits, &SearchControl::default(), &mut |_| {});
    (r, t.elapsed())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Fixed depths: about a second per middle-game position on one thread.
fn bench_depth(v: Variant) -> u32 {
    match v {
        Variant::Didinga => 20,
        Variant::Lango => 23,
        Variant::Acholi => 14,
        Variant::Adjiboto => 18,
    }
}

fn signature() {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for v in Variant::ALL {
        for (_, p) in all_positions(v) {
            let d = bench_depth(v) - 4;
            let (r, t) = search(&p, Algorithm::AlphaBeta, 1, &depth(d));
            let mv = r.best.map(|m| m.to_string()).unwrap_or_default();
            println!("{v:9} depth {d:2} {:>9} nodes  {mv:6}  {p}", r.nodes);
            nodes += r.nodes;
            time += t;
        }
    }
    let nps = (nodes as f64 / time.as_secs_f64()) as u64;
    println!("{nodes} nodes {nps} nps");
}

fn nps(runs: usize) {
    println!("| code | position | depth | nodes | time (s) | nodes/s |");
    println!("|---|---|---|---|---|---|");
    for v in Variant::ALL {
        for (name, p) in middle_games(v) {
            let d = bench_depth(v);
            let mut n = 0;
            let times: Vec<f64> = (0..runs)
                .map(|_| {
                    let (r, t) = search(&p, Algorithm::AlphaBeta, 1, &depth(d));
                    n = r.nodes;
                    t.as_secs_f64()
                })
                .collect();
            let t = median(times);
            println!(
                "| {v} | {name} | {d} | {n} | {t:.3} | {:.0} |",
                n as f64 / t
            );
        }
    }
}

fn smp(runs: usize) {
    println!("| code | position | depth | 1 thread (s) | 2 threads (s) | speed-up |");
    println!("|---|---|---|---|---|---|");
    for v in Variant::ALL {
        for (name, p) in middle_games(v) {
            let d = bench_depth(v);
            let time = |threads| {
                median(
                    (0..runs)
                        .map(|_| {
                            search(&p, Algorithm::AlphaBeta, threads, &depth(d))
                                .1
                                .as_secs_f64()
                        })
                        .collect(),
                )
            };
            let (t1, t2) = (time(1), time(2));
            println!(
                "| {v} | {name} | {d} | {t1:.3} | {t2:.3} | {:.2} |",
                t1 / t2
            );
        }
    }
}

fn mcts(runs: usize) {
    println!("| code | position | iterations | time (s) | iterations/s |");
    println!("|---|---|---|---|---|");
    for v in Variant::ALL {
        for (name, p) in all_positions(v) {
            let limits = Limits {
                movetime: Some(Duration::from_millis(2000)),
                ..Limits::default()
            };
            let mut iters = Vec::new();
            let mut secs = Vec::new();
            for _ in 0..runs {
                let (r, t) = search(&p, Algorithm::Mcts, 1, &limits);
                iters.push(r.nodes as f64);
                secs.push(t.as_secs_f64());
            }
            let rates: Vec<f64> = iters.iter().zip(&secs).map(|(i, s)| i / s).collect();
            println!(
                "| {v} | {name} | {:.0} | {:.3} | {:.0} |",
                median(iters),
                median(secs),
                median(rates)
            );
        }
    }
}

fn depth_in_1s(runs: usize) {
    println!("| code | position | depth in 1 s | score |");
    println!("|---|---|---|---|");
    for v in Variant::ALL {
        for (name, p) in all_positions(v) {
            let limits = Limits {
                movetime: Some(Duration::from_millis(1000)),
                ..Limits::default()
            };
            let mut score = None;
            let depths: Vec<f64> = (0..runs)
                .map(|_| {
                    let (r, _) = search(&p, Algorithm::AlphaBeta, 1, &limits);
                    score = r.score;
                    r.depth as f64
                })
                .collect();
            println!(
                "| {v} | {name} | {} | {:?} |",
                median(depths),
                score.unwrap()
            );
        }
    }
}

/// A player of `duel`: a searcher and its limits.
struct Player {
    name: &'static str,
    searcher: Searcher,
    limits: Limits,
}

fn player(name: &'static str, algorithm: Algorithm, limits: Limits) -> Player {
    Player {
        name,
        searcher: Searcher::new(SearchConfig {
            algorithm,
            hash_mb: 16,
            seed: 7,
            ..SearchConfig::default()
        }),
        limits,
    }
}

/// Play `a` against `b` from `openings`, each twice with the sides swapped;
/// returns a's (wins, draws, losses).
fn play(a: &mut Player, b: &mut Player, openings: &[Position]) -> (u32, u32, u32) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for (k, o) in openings.iter().enumerate() {
        for a_is_first in [true, false] {
            let mut game = Game::new(*o).with_draw_plies(o.ply() + 300);
            a.searcher.clear();
            b.searcher.clear();
            let outcome = loop {
                if let Some(out) = game.outcome() {
                    break out;
                }
                let a_moves = (game.position().side_to_move() == o.side_to_move()) == a_is_first;
                let p = if a_moves { &mut *a } else { &mut *b };
                let r = p
                    .searcher
                    .search(&game, &p.limits, &SearchControl::default(), &mut |_| {});
                game.play(&r.best.unwrap()).unwrap();
            };
            match outcome {
                choro_engine::Outcome::Win { winner } => {
                    if (winner == o.side_to_move()) == a_is_first {
                        w += 1
                    } else {
                        l += 1
                    }
                }
                choro_engine::Outcome::Draw(_) => d += 1,
            }
            let _ = k;
        }
    }
    (w, d, l)
}

/// Openings for duels: `n` positions after 4 to 12 random plies from the
/// main-phase position (Adjiboto: the start), each with 3 moves or more and
/// no win or loss in sight of a depth-7 search, so that play decides.
fn openings(v: Variant, n: usize) -> Vec<Position> {
    let mut x = 0x2545_f491_4f6c_dd1du64 ^ v as u64;
    let mut rand = |k: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % k as u64) as usize
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = main_phase(v);
        for _ in 0..4 + rand(9) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = moves[rand(moves.len())].1;
        }
        if p.legal_moves().len() < 3 {
            continue;
        }
        let (r, _) = search(&p, Algorithm::AlphaBeta, 1, &depth(7));
        if matches!(r.score, Some(choro_engine::search::Score::Cp(c)) if c.abs() < 2000) {
            out.push(p);
        }
    }
    out
}

fn duel() {
    let ab = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let nodes = |n| Limits {
        nodes: Some(n),
        ..Limits::default()
    };
    println!("| code | player | opponent | wins | draws | losses |");
    println!("|---|---|---|---|---|---|");
    for v in Variant::ALL {
        let open = openings(v, 10);
        let pairs = [
            (
                player("alphabeta d6", Algorithm::AlphaBeta, ab(6)),
                player("greedy", Algorithm::Greedy, Limits::default()),
            ),
            (
                player("greedy", Algorithm::Greedy, Limits::default()),
                player("random", Algorithm::Random, Limits::default()),
            ),
            (
                player("mcts 5k", Algorithm::Mcts, nodes(5000)),
                player("random", Algorithm::Random, Limits::default()),
            ),
            (
                player("mcts 5k", Algorithm::Mcts, nodes(5000)),
                player("greedy", Algorithm::Greedy, Limits::default()),
            ),
            (
                player("alphabeta 20k nodes", Algorithm::AlphaBeta, nodes(20_000)),
                player("mcts 5k", Algorithm::Mcts, nodes(5000)),
            ),
        ];
        for (mut a, mut b) in pairs {
            let (w, d, l) = play(&mut a, &mut b, &open);
            println!("| {v} | {} | {} | {w} | {d} | {l} |", a.name, b.name);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("signature");
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    match mode {
        "signature" => signature(),
        "nps" => nps(runs),
        "smp" => smp(runs),
        "mcts" => mcts(runs),
        "depth" => depth_in_1s(runs),
        "duel" => duel(),
        "all" => {
            signature();
            nps(runs);
            smp(runs);
            mcts(runs);
            depth_in_1s(runs);
        }
        m => eprintln!("unknown mode {m}: signature, nps, smp, mcts, depth, duel, all"),
    }
}
