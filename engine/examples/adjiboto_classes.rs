//! How the cost of solving Adjiboto grows with the counters left in play
//! (SOLVED.md "Adjiboto by counters in play").
//!
//! ```text
//! cargo run --release -p choro-engine --example adjiboto_classes -- [seconds] [per-class] [k ...] [tables=K]
//! ```
//!
//! For each k, `per-class` random main-phase positions with k counters on
//! the board (both opening histories complete, the other 100 - k counters
//! split between the stores at random, either side to move), each solved
//! with a limit of `seconds`: the share proven, wins, losses and draws, and
//! the median nodes and time of the proven ones. With `tables=K` the solver
//! reads the retrograde tables of up to K counters in play
//! (`solve::classes`, as `choro solve --tables K`), built first.

use choro_engine::solve::classes::{self, Tables};
use choro_engine::solve::{SolveConfig, SolveLimits, Solver, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let secs: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let per: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let ks: Vec<u32> = args.iter().skip(2).filter_map(|s| s.parse().ok()).collect();
    let tables = args
        .iter()
        .find_map(|a| a.strip_prefix("tables=")?.parse::<u32>().ok())
        .map(|k| Arc::new(Tables::build(k, &AtomicBool::new(false), &mut |_| {}).unwrap()));
    let ks = if ks.is_empty() {
        vec![6, 8, 10, 12, 15, 20, 25, 30, 40]
    } else {
        ks
    };
    let mut rng = choro_engine::rng::Rng::new(1929);
    println!("| counters in play | positions | proven | side to move wins / loses / draws | median nodes | median time |");
    println!("|---|---|---|---|---|---|");
    for k in ks {
        let (mut proven, mut w, mut l, mut d) = (0, 0, 0, 0);
        let mut nodes = Vec::new();
        let mut times = Vec::new();
        let mut n = 0;
        while n < per {
            let p = classes::random_position(k, &mut rng);
            if !p.has_legal_move() {
                continue;
            }
            n += 1;
            let solver = Solver::new(&SolveConfig {
                threads: 1,
                hash_mb: 256,
                tables: tables.clone(),
                ..SolveConfig::default()
            })
            .unwrap();
            let sol = solver
                .solve(
                    &p,
                    &SolveLimits {
                        time: Some(Duration::from_secs_f64(secs)),
                        ..SolveLimits::default()
                    },
                    &AtomicBool::new(false),
                    Duration::from_secs(3600),
                    &mut |_| {},
                )
                .unwrap();
            if let Some(v) = sol.value {
                proven += 1;
                match v {
                    Value::Win(_) => w += 1,
                    Value::Loss(_) => l += 1,
                    Value::Draw => d += 1,
                }
                nodes.push(sol.nodes);
                times.push(sol.elapsed.as_secs_f64());
            }
        }
        nodes.sort_unstable();
        times.sort_by(f64::total_cmp);
        let med_n = nodes.get(nodes.len() / 2).copied().unwrap_or(0);
        let med_t = times.get(times.len() / 2).copied().unwrap_or(0.0);
        println!(
            "| {k} | {n} | {proven} ({:.0}%) | {w} / {l} / {d} | {med_n} | {med_t:.2} s |",
            100.0 * proven as f64 / n as f64
        );
    }
}
