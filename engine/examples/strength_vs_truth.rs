//! Strength against the truth (BENCHMARKS.md "Strength against the truth"):
//! the share of moves with which `alphabeta` and `mcts` keep a position's
//! proven value.
//!
//! ```text
//! cargo run --release -p choro-engine --example strength_vs_truth -- build [per-code]
//! cargo run --release -p choro-engine --example strength_vs_truth -- measure [ms ...]
//! cargo run --release -p choro-engine --example strength_vs_truth -- measure-book FILE MIN [ms ...]
//! ```
//!
//! `measure-book` takes the positions of a book (positions/solved/) at
//! least MIN plies from the end: the long lines of best play of the solved
//! starts, harder than the suite's middle games.
//!
//! `build` makes the suite `positions/solved/suite.txt`: per code, middle
//! games of random play (sequential opening; Adjiboto from its start) at a
//! random ply (3..33; Adjiboto 40..90), kept when the solver proves them within 2 s and neither side
//! is to move in more than 60% of the code's kept positions; the suite's
//! lines are book lines (position, value, a value-keeping move).
//! `measure` searches every suite position with each algorithm for each
//! time (default 100 and 1000 ms, one thread, book off) and checks the move:
//! in a won position it keeps the win (the child is still won, at any
//! distance); in a lost one it keeps the longest resistance (the child's
//! distance is the position's less one). Each child is valued by the solver.

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl};
use choro_engine::solve::book::{Book, Entry};
use choro_engine::solve::{SolveConfig, SolveLimits, Solver, Value};
use choro_engine::Searcher;
use choro_engine::{Game, Position, Variant};
use std::time::Duration;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/solved/suite.txt");

fn solve(s: &Solver, p: &Position, secs: f64) -> Option<Value> {
    s.solve_within(
        p,
        &SolveLimits {
            time: Some(Duration::from_secs_f64(secs)),
            ..SolveLimits::default()
        },
    )
    .ok()
    .and_then(|x| x.value)
}

fn build(per_code: usize) {
    let solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: 512,
        ..SolveConfig::default()
    })
    .unwrap();
    let mut rng = choro_engine::rng::Rng::new(2026);
    let mut text = String::from(
        "# Strength-against-the-truth suite: middle games of random play, values proven by choro solve\n\
         # (engine/examples/strength_vs_truth.rs build); a book (positions/solved/README.md).\n",
    );
    for v in [
        Variant::Didinga,
        Variant::Lango,
        Variant::Acholi,
        Variant::Adjiboto,
    ] {
        let mut kept: Vec<(Position, Value, choro_engine::Move)> = Vec::new();
        let mut sides = [0usize; 2];
        let mut tries = 0;
        while kept.len() < per_code && tries < per_code * 40 {
            tries += 1;
            let mut p = Position::startpos(v, 8).unwrap();
            // Adjiboto's games are long (about 80 plies): its middle games
            // are taken later.
            let plies = if v.is_choro() {
                3 + rng.next_u64() % 30
            } else {
                40 + rng.next_u64() % 50
            };
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = moves[rng.below(moves.len())].1;
            }
            if !p.has_legal_move() || p.phase() != choro_engine::Phase::Main {
                continue;
            }
            let s = p.side_to_move().index();
            if sides[s] * 10 > per_code * 6 {
                continue;
            }
            if kept.iter().any(|(q, _, _)| q.same_state(&p)) {
                continue;
            }
            let Some(value) = solve(&solver, &p, 2.0) else {
                continue;
            };
            if value == Value::Draw || matches!(value, Value::Win(n) | Value::Loss(n) if n < 2) {
                continue;
            }
            let line = solver.solve_within(&p, &SolveLimits::default()).unwrap();
            let Some(&m) = line.pv.first() else { continue };
            sides[s] += 1;
            kept.push((p, value, m));
        }
        for (p, value, m) in &kept {
            text.push_str(&Book::line(&Entry {
                pos: p.with_ply(0),
                value: *value,
                best: Some(*m),
            }));
            text.push('\n');
        }
        eprintln!(
            "{v}: {} positions (A {} B {}) of {tries} tried",
            kept.len(),
            sides[0],
            sides[1]
        );
    }
    std::fs::write(SUITE, text).unwrap();
}

fn measure(path: &str, min_plies: u32, times: &[u64]) {
    let suite = Book::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: 512,
        ..SolveConfig::default()
    })
    .unwrap();
    println!("| code | algorithm | ms | won: keeps the win | lost: keeps the longest loss |");
    println!("|---|---|---|---|---|");
    for v in [
        Variant::Didinga,
        Variant::Lango,
        Variant::Acholi,
        Variant::Adjiboto,
    ] {
        let entries: Vec<&Entry> = suite
            .entries()
            .filter(|e| e.pos.variant() == v && e.best.is_some())
            .filter(|e| matches!(e.value, Value::Win(n) | Value::Loss(n) if n >= min_plies))
            .collect();
        if entries.is_empty() {
            continue;
        }
        for alg in [Algorithm::AlphaBeta, Algorithm::Mcts] {
            for &ms in times {
                let (mut won, mut won_kept, mut lost, mut lost_kept) = (0, 0, 0, 0);
                for e in &entries {
                    let mut s = Searcher::new(SearchConfig {
                        algorithm: alg,
                        threads: 1,
                        ..SearchConfig::default()
                    });
                    s.set_book(false);
                    let r = s.search(
                        &Game::new(e.pos),
                        &Limits {
                            movetime: Some(Duration::from_millis(ms)),
                            ..Limits::default()
                        },
                        &SearchControl::default(),
                        &mut |_| {},
                    );
                    let Some(m) = r.best else { continue };
                    let child = e.pos.play(&m).unwrap();
                    let cv = solve(&solver, &child, 60.0);
                    let same = child.side_to_move() == e.pos.side_to_move();
                    let mine = cv.map(|c| match (c, same) {
                        (Value::Win(n), true) | (Value::Loss(n), false) => Value::Win(n + 1),
                        (Value::Loss(n), true) | (Value::Win(n), false) => Value::Loss(n + 1),
                        (Value::Draw, _) => Value::Draw,
                    });
                    match e.value {
                        Value::Win(_) => {
                            won += 1;
                            won_kept += matches!(mine, Some(Value::Win(_))) as u32;
                        }
                        Value::Loss(n) => {
                            lost += 1;
                            lost_kept += (mine == Some(Value::Loss(n))) as u32;
                        }
                        Value::Draw => {}
                    }
                }
                let pct = |k: u32, n: u32| {
                    if n == 0 {
                        "-".to_string()
                    } else {
                        format!("{k}/{n} ({:.0}%)", 100.0 * k as f64 / n as f64)
                    }
                };
                println!(
                    "| {v} | {} | {ms} | {} | {} |",
                    alg.name(),
                    pct(won_kept, won),
                    pct(lost_kept, lost)
                );
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let times = |from: usize| -> Vec<u64> {
        let t: Vec<u64> = args[from.min(args.len())..]
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect();
        if t.is_empty() {
            vec![100, 1000]
        } else {
            t
        }
    };
    match args.first().map(String::as_str) {
        Some("build") => build(args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30)),
        Some("measure") => measure(SUITE, 0, &times(1)),
        // Any book, its positions at least `min` plies from the end.
        Some("measure-book") if args.len() >= 3 => {
            measure(&args[1], args[2].parse().unwrap_or(0), &times(3))
        }
        _ => eprintln!(
            "usage: strength_vs_truth build [per-code] | measure [ms ...] | measure-book FILE MIN [ms ...]"
        ),
    }
}
