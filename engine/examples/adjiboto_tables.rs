//! Retrograde tables of Adjiboto's main phase by counters in play
//! (`solve::classes`, SOLVED.md "Adjiboto by counters in play"): every
//! main-phase position with at most K counters on the board solved, with
//! what each class holds.
//!
//! ```text
//! cargo run --release -p choro-engine --example adjiboto_tables -- K [verify] [samples]
//! ```
//!
//! `verify` then checks every position of the tables against its children
//! (`Tables::verify`). `samples` (default 0) compares that many random
//! positions per class with the proving solver (df-pn, then alpha-beta for
//! the distance, 2 s each): the same value, distances included, wherever
//! the solver finishes.

use choro_engine::solve::classes::{self, Tables};
use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let k: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let verify = args.iter().any(|a| a == "verify");
    let samples: usize = args
        .iter()
        .skip(1)
        .find_map(|s| s.parse().ok())
        .unwrap_or(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    println!("| counters in play | positions | side to move wins / loses / draws | ends | longest win | longest loss | moves within / captures | time |");
    println!("|---|---|---|---|---|---|---|---|");
    let tables = Tables::build(k, &stop, &mut |s| {
        println!(
            "| {} | {} | {} / {} / {} | {} | {} | {} | {} / {} | {:.1} s |",
            s.k,
            s.positions,
            s.wins,
            s.losses,
            s.draws,
            s.ends,
            s.longest_win,
            s.longest_loss,
            s.moves_within,
            s.captures,
            s.elapsed.as_secs_f64()
        );
    })
    .unwrap();
    println!("built in {:.1} s", started.elapsed().as_secs_f64());
    if verify {
        let t = Instant::now();
        match tables.verify(&stop).unwrap() {
            None => println!(
                "verify: every position agrees with its children ({:.1} s)",
                t.elapsed().as_secs_f64()
            ),
            Some(e) => {
                println!("verify: WRONG: {e}");
                std::process::exit(1);
            }
        }
    }
    if samples > 0 {
        let mut rng = choro_engine::rng::Rng::new(1929);
        let (mut same, mut unfinished) = (0, 0);
        for kk in 1..=k {
            for _ in 0..samples {
                let p = classes::random_position(kk, &mut rng);
                let want = tables.value(&p).unwrap();
                let solver = Solver::new(&SolveConfig {
                    threads: 1,
                    hash_mb: 64,
                    ..SolveConfig::default()
                })
                .unwrap();
                let sol = solver
                    .solve(
                        &p,
                        &SolveLimits {
                            time: Some(Duration::from_secs(2)),
                            ..SolveLimits::default()
                        },
                        &stop,
                        Duration::from_secs(3600),
                        &mut |_| {},
                    )
                    .unwrap();
                match sol.value {
                    Some(v) if v == want => same += 1,
                    Some(v) => {
                        println!("solver: DISAGREES at {p}: table {want}, solver {v}");
                        std::process::exit(1);
                    }
                    None => unfinished += 1,
                }
            }
        }
        println!("solver: {same} positions the same, {unfinished} not finished in 2 s");
    }
}
