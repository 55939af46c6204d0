//! The two proving searches of `choro solve` on the same positions, one
//! after the other in one process (BENCHMARKS.md "Solver"): iterative-
//! deepening alpha-beta (`--algorithm ab`) against depth-first proof-number
//! search with alpha-beta for the exact distance (`--algorithm pns`).
//!
//! ```text
//! cargo run --release -p choro-engine --example solver_compare -- [NODES] [THREADS] [HASH_MB] [ONLY]
//! ```
//!
//! Every position gets a fresh solver per algorithm and at most NODES nodes
//! (default 10,000,000; node counts do not depend on the machine's load); ONLY keeps the rows whose name contains it (`suite`
//! for the suite alone, `suite lango` for one code of it). One row per position and algorithm: the value or
//! the bounds, nodes, wall time, positions the tables hold at the end, and
//! for pns when and after how many nodes the value's sign was known. The
//! suite (positions/solved/suite.txt, values proven earlier; a fifth of the
//! nodes each) is summed per code, and every value found is compared with the suite's.

use choro_engine::blind::BlindGame;
use choro_engine::solve::pns::Outcome;
use choro_engine::solve::{Algorithm, Solution, SolveConfig, SolveLimits, Solver};
use choro_engine::{Opening, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/solved/suite.txt");

struct Run {
    sol: Solution,
    stored: u64,
}

fn run(p: &Position, algorithm: Algorithm, nodes: u64, threads: usize, hash_mb: usize) -> Run {
    let solver = Solver::new(&SolveConfig {
        threads,
        hash_mb,
        algorithm,
        ..SolveConfig::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let sol = solver
        .solve(
            p,
            &SolveLimits {
                nodes: Some(nodes),
                ..SolveLimits::default()
            },
            &AtomicBool::new(false),
            Duration::from_secs(3600),
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("{p}: {e}"));
    Run {
        stored: solver.stored(),
        sol,
    }
}

fn outcome(o: Outcome) -> String {
    match o {
        Outcome::Proven(d) => format!("proven <={d}"),
        Outcome::Disproven => "disproven".into(),
        Outcome::Unknown => "open".into(),
    }
}

fn value(s: &Solution) -> String {
    match (s.value, s.win_within, s.loss_within) {
        (Some(v), _, _) => v.to_string(),
        (None, Some(n), _) => format!("win in {}..{n}", s.nowin_within + 1),
        (None, _, Some(n)) => format!("loss in {}..{n}", s.noloss_within + 1),
        _ => format!(
            "open (no win <={}, no loss <={})",
            s.nowin_within, s.noloss_within
        ),
    }
}

fn row(name: &str, algorithm: Algorithm, r: &Run) {
    let s = &r.sol;
    let sign = match &s.pns {
        Some(ph) => format!(
            "mover {}, other {}: {} nodes, {:.2} s",
            outcome(ph.mine),
            outcome(ph.theirs),
            ph.nodes,
            ph.elapsed.as_secs_f64()
        ),
        None => "-".into(),
    };
    println!(
        "| {name} | {algorithm} | {} | {} | {:.2} | {} | {sign} |",
        value(s),
        s.nodes,
        s.elapsed.as_secs_f64(),
        r.stored
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args.first().map_or(10_000_000, |a| a.parse().unwrap());
    let threads: usize = args.get(1).map_or(1, |a| a.parse().unwrap());
    let hash_mb: usize = args.get(2).map_or(1024, |a| a.parse().unwrap());
    let only = args.get(3).cloned().unwrap_or_default();
    let mut named: Vec<(String, Position)> = Vec::new();
    let lango =
        BlindGame::of(&Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap()).unwrap();
    for (i, a) in lango.a_starts.iter().enumerate() {
        for (j, b) in lango.b_starts.iter().enumerate() {
            named.push((format!("Lango cell {a} {b}"), lango.cells[i][j]));
        }
    }
    let seq = |v: Variant, w: u8| Position::startpos(v, w).unwrap();
    named.push(("Lango sequential".into(), seq(Variant::Lango, 8)));
    named.push(("Acholi sequential".into(), seq(Variant::Acholi, 8)));
    for w in [8, 9, 11, 10] {
        named.push((
            format!("Didinga 4x{w} sequential"),
            seq(Variant::Didinga, w),
        ));
    }
    let didinga =
        BlindGame::of(&Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap())
            .unwrap();
    named.push((
        format!(
            "Didinga 4x8 cell {} {}",
            didinga.a_starts[0], didinga.b_starts[0]
        ),
        didinga.cells[0][0],
    ));
    named.push(("Adjiboto start".into(), seq(Variant::Adjiboto, 5)));
    println!("| position | algorithm | value | nodes | wall s | positions stored | pns: value's sign known |");
    println!("|---|---|---|---|---|---|---|");
    for (name, p) in &named {
        if !name.contains(&only) {
            continue;
        }
        for alg in [Algorithm::Ab, Algorithm::Pns] {
            row(name, alg, &run(p, alg, nodes, threads, hash_mb));
        }
    }
    // The suite: each position gets a fifth of the nodes, sums per code.
    // From the source tree, or from the working directory (a binary run
    // elsewhere from the repository's root).
    let text = std::fs::read_to_string(SUITE)
        .or_else(|_| std::fs::read_to_string("positions/solved/suite.txt"))
        .unwrap();
    println!();
    println!(
        "| suite, code | algorithm | positions | solved | agree with the suite | nodes | wall s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for code in ["didinga", "lango", "acholi", "adjiboto"] {
        if !format!("suite {code}").contains(&only) {
            continue;
        }
        let lines: Vec<(Position, String)> = text
            .lines()
            .filter(|l| l.starts_with(code))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].parse().unwrap(), f[1].to_string())
            })
            .collect();
        for alg in [Algorithm::Ab, Algorithm::Pns] {
            let (mut solved, mut agree, mut spent, mut wall) = (0, 0, 0u64, 0.0);
            for (p, v) in &lines {
                let r = run(p, alg, nodes / 5, threads, hash_mb.min(256));
                spent += r.sol.nodes;
                wall += r.sol.elapsed.as_secs_f64();
                if let Some(x) = r.sol.value {
                    solved += 1;
                    if x.to_string() == *v {
                        agree += 1;
                    } else {
                        println!("DISAGREES: {p}: {x}, the suite {v}");
                    }
                }
            }
            println!(
                "| {code} | {alg} | {} | {solved} | {agree} | {spent} | {wall:.1} |",
                lines.len()
            );
        }
    }
}
