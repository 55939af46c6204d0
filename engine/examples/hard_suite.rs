//! The hard strength suite (positions/strength/, BENCHMARKS.md "The hard
//! suite"): positions whose value is proven and in which few moves keep it,
//! the yardstick of search changes.
//!
//! ```text
//! cargo run --release -p choro-engine --example hard_suite -- build CODE [per-code] [seconds] [seed] [FILE] [easy-in]
//! cargo run --release -p choro-engine --example hard_suite -- measure [ms ...]
//! ```
//!
//! `build` writes `positions/strength/CODE.txt` (or FILE). Candidates come from
//! three sources, taken in turn: the main phase of random games of the
//! sequential opening at ply 4 to 43 (Didinga 20 to 79, on 4x8 two times in three, else 4x9 to 4x11; Adjiboto from its start),
//! the sequential opening's two starts (`o2`, `o1`), and the race of the
//! simultaneous opening (both blind starts at random, then 0 to 8 random
//! decisions; the Choro codes only). A candidate is dropped if a shipped
//! book or cells file knows it (`solve::book::builtin`), if it has fewer
//! than two legal moves or more than 48, or if the solver does not prove its value within
//! the node budget. Lost positions are dropped (every move keeps a loss).
//! Every child is then proven (same budget); the position is kept when at
//! most a quarter of its legal moves, or exactly one, keep its value (a win:
//! the child is still won; a draw: the child is still drawn). Then, to
//! prefer hard positions, `alphabeta` searches it for 10 ms (the probe): a
//! position whose value it keeps is kept only one time in four (`easy-in`,
//! default 4; `probe` in
//! the file says which). The main phase's games are played by `alphabeta`
//! at depth 2, with a random move one time in three (random play leaves
//! one side far ahead, with many winning moves).
//! Neither side is to move in more than 60% of a code's positions.
//!
//! `measure` searches every position of every code's file with `alphabeta`
//! and `mcts` (one thread, book off, no solver, `MoveOverhead` 0) for each
//! `movetime` (default 10, 100 and 1000 ms) and counts the moves that are
//! among the position's keeping moves.

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl};
use choro_engine::solve::book;
use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
use choro_engine::{Game, Opening, Phase, Position, Searcher, Variant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/strength");

/// Nodes the solver may spend on a position or on each child.
const NODES: u64 = 150_000;

/// Most legal moves of a kept position (every child is proven).
const MAX_MOVES: usize = 48;

/// The proven sign of `p` for its side to move and the depth of its proof
/// (a win or loss within that many plies), or `None` if not proven.
fn sign(s: &Solver, p: &Position) -> Option<(i8, Option<u32>, u64)> {
    let sol = s
        .solve(
            p,
            &SolveLimits {
                plies: Some(1),
                nodes: Some(NODES),
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

fn build(v: Variant, per_code: usize, secs: u64, seed: u64, out: &str, easy_in: u32) {
    let mut solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: 256,
        ..SolveConfig::default()
    })
    .unwrap();
    let books = book::builtin();
    let mut rng = choro_engine::rng::Rng::new(seed);
    let start = Instant::now();
    let sources: &[usize] = if v.is_choro() { &[0, 1, 2] } else { &[0] };
    let mut kept: Vec<Kept> = Vec::new();
    let mut seen: Vec<Position> = Vec::new();
    let (mut tried, mut unproven, mut easy) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while kept.len() < per_code && start.elapsed().as_secs() < secs {
        let src = sources[i % sources.len()];
        i += 1;
        let Some(p) = candidate(v, src, &mut rng) else {
            continue;
        };
        if books.sign(&p).is_some() || seen.iter().any(|q| q.same_state(&p)) {
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
        if tried % 20 == 0 {
            eprintln!(
                "{v}: {tried} tried, {unproven} unproven, {easy} easy, {} kept, {} s",
                kept.len(),
                start.elapsed().as_secs()
            );
        }
        // The solver's table is cleared now and then: positions of
        // different games share little.
        let Some((value, depth, nodes)) = sign(&solver, &p) else {
            unproven += 1;
            continue;
        };
        if value < 0 {
            continue;
        }
        // The probe: `alphabeta` for 10 ms. A position whose probe keeps the
        // value is kept one time in four, and decided before its other
        // children are proven.
        let probe = search(Algorithm::AlphaBeta, &p, 10).and_then(|m| {
            let c = p.play(&m).unwrap();
            let (cv, _, _) = sign(&solver, &c)?;
            Some((if c.side_to_move() == me { cv } else { -cv }) == value)
        });
        let Some(probe) = probe else {
            unproven += 1;
            continue;
        };
        if probe && !rng.chance(1, easy_in) {
            easy += 1;
            continue;
        }
        let limit = (moves.len() / 4).max(1);
        let mut keep = Vec::new();
        let mut nodes = nodes;
        let mut ok = true;
        for (m, c) in &moves {
            let Some((cv, _, n)) = sign(&solver, c) else {
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
        write(
            v,
            &kept,
            (per_code, secs, seed, out, easy_in),
            (tried, unproven, easy),
        );
        if tried % 50 == 0 {
            solver.clear();
        }
    }
    eprintln!(
        "{v}: {} kept of {tried} tried ({unproven} unproven, {easy} easy) in {} s",
        kept.len(),
        start.elapsed().as_secs()
    );
}

/// Write the suite file of `v`.
fn write(
    v: Variant,
    kept: &[Kept],
    (per_code, secs, seed, out, easy_in): (usize, u64, u64, &str, u32),
    (tried, unproven, easy): (usize, usize, usize),
) {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let mut text = format!(
        "# The hard strength suite, {v}: proven positions in which few moves keep the value\n\
         # (positions/strength/README.md). Built {date} at commit {commit} by\n\
         # `cargo run --release -p choro-engine --example hard_suite -- build {v} {per_code} {secs} {seed} FILE {easy_in}`\n\
         # ({} positions tried, {unproven} not proven within {NODES} nodes each, {easy} left out as\n\
         # kept by alphabeta at 10 ms: such a position is kept one time in {easy_in}). Columns: position, value (win or draw for the side to\n\
         # move), the moves that keep it, legal moves, phase, proof depth (plies; - for a draw),\n\
         # solver nodes for the position and its children, probe (alphabeta at 10 ms kept it).\n",
        tried
    );
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
    std::fs::write(out, text).unwrap();
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
            build(
                v,
                n(2, 30) as usize,
                n(3, 900),
                n(4, 2026),
                &out,
                n(6, 4) as u32,
            );
        }
        Some("measure") => {
            let t: Vec<u64> = args[1..].iter().filter_map(|s| s.parse().ok()).collect();
            measure(if t.is_empty() { &[10, 100, 1000] } else { &t });
        }
        _ => {
            eprintln!("usage: hard_suite build CODE [per-code] [seconds] [seed] [FILE] [easy-in] | measure [ms ...]")
        }
    }
}
