//! Perft speed on one thread (rayon pool of 1), the median of several runs.
//!
//! ```text
//! cargo run --release --example perft_speed -- <code> <width> <depth> [position] [--runs N]
//! cargo run --release --example perft_speed -- table [--runs N]
//! cargo run --release --example perft_speed -- movegen [--runs N]
//! ```
//! The first form runs one perft; `table` runs the set of BENCHMARKS.md
//! ("Speed") and prints it as a Markdown table; `movegen` generates every
//! legal move (making every child) of every position of each code's perft
//! file, over and over for about half a second a run, and prints a Markdown
//! row per code. Each run prints paths,
//! unique, moves generated, laps, drops (counters sown, cut paths included)
//! and the rates; the last line is the median run by time.
use choro_engine::{perft, Position, Variant};
use std::time::Instant;

struct Run {
    secs: f64,
    paths: u64,
    unique: u64,
    moves: u64,
    laps: u64,
    drops: u64,
}

fn measure(pos: &Position, depth: u32, runs: usize, verbose: bool) -> Run {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let mut all: Vec<Run> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let (c, s) = pool.install(|| perft::perft(pos, depth));
            let r = Run {
                secs: t.elapsed().as_secs_f64(),
                paths: c.paths,
                unique: c.unique,
                moves: s.moves,
                laps: s.laps,
                drops: s.drops,
            };
            if verbose {
                print_run("run", pos, depth, &r);
            }
            r
        })
        .collect();
    all.sort_by(|a, b| a.secs.total_cmp(&b.secs));
    all.swap_remove(runs / 2)
}

fn print_run(label: &str, pos: &Position, depth: u32, r: &Run) {
    println!(
        "{label} {} w{} d{depth}: paths {} unique {} moves {} laps {} drops {} | {:.3}s {:.2} Mmoves/s {:.1} Mdrops/s {:.1} Mlaps/s",
        pos.variant(),
        pos.width(),
        r.paths,
        r.unique,
        r.moves,
        r.laps,
        r.drops,
        r.secs,
        r.moves as f64 / r.secs / 1e6,
        r.drops as f64 / r.secs / 1e6,
        r.laps as f64 / r.secs / 1e6
    );
}

/// A block of `positions/perft/<code>.perft`: its position and the paths
/// of each depth.
fn perft_block(code: &str, id: &str) -> (Position, Vec<(u32, u64)>) {
    let path = format!(
        "{}/../positions/perft/{code}.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("perft file");
    let mut lines = text
        .lines()
        .skip_while(|l| *l != format!("id {id}"))
        .skip(1);
    let pos = lines
        .next()
        .and_then(|l| l.strip_prefix("pos "))
        .expect("pos line");
    let counts = lines
        .map_while(|l| l.strip_prefix("perft "))
        .map(|l| {
            let n: Vec<u64> = l.split(' ').map(|x| x.parse().expect("number")).collect();
            (n[0] as u32, n[1])
        })
        .collect();
    (pos.parse().expect("position"), counts)
}

/// The perft table of BENCHMARKS.md ("Speed"): blocks of the perft files,
/// each count checked against its file.
fn table(runs: usize) {
    let rows = [
        ("didinga", "didinga-8-start", 7),
        ("didinga", "didinga-8-start", 8),
        ("didinga", "didinga-random-5", 8),
        ("didinga", "didinga-random-9", 8),
        ("didinga", "didinga-12-start", 6),
        ("didinga", "didinga-16-start", 5),
        ("lango", "lango-8-start", 11),
        ("lango", "lango-random-1", 9),
        ("acholi", "acholi-8-start", 6),
        ("acholi", "acholi-random-7", 7),
        ("adjiboto", "adjiboto-random-1", 10),
    ];
    println!(
        "| perft block | depth | paths | moves | laps | drops | time (s) | moves/s | drops/s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (code, id, d) in rows {
        let (pos, counts) = perft_block(code, id);
        let r = measure(&pos, d, runs, false);
        let want = counts.iter().find(|c| c.0 == d).expect("depth in file").1;
        assert_eq!(r.paths, want, "{id} depth {d}");
        println!(
            "| {id} | {d} | {} | {} | {} | {} | {:.3} | {:.1} M | {:.0} M |",
            r.paths,
            r.moves,
            r.laps,
            r.drops,
            r.secs,
            r.moves as f64 / r.secs / 1e6,
            r.drops as f64 / r.secs / 1e6
        );
    }
}

/// Every position of `positions/perft/<code>.perft` with its move count.
fn perft_file_positions(code: &str) -> Vec<(Position, u64)> {
    let path = format!(
        "{}/../positions/perft/{code}.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("perft file");
    let mut out = Vec::new();
    let mut pos: Option<Position> = None;
    for l in text.lines() {
        if let Some(p) = l.strip_prefix("pos ") {
            pos = Some(p.parse().expect("position"));
        } else if let Some(rest) = l.strip_prefix("perft 1 ") {
            let n = rest.split(' ').next().expect("paths");
            out.push((
                pos.take().expect("pos before perft"),
                n.parse().expect("number"),
            ));
        }
    }
    out
}

/// Moves generated per second over every position of each code's perft
/// file (each count checked against the file), median of `runs`.
fn movegen(runs: usize) {
    println!("| code | positions | moves per pass | passes a run | moves/s |");
    println!("|---|---|---|---|---|");
    for code in ["didinga", "lango", "acholi", "adjiboto"] {
        let list = perft_file_positions(code);
        let per_pass: u64 = list.iter().map(|p| p.1).sum();
        let pass = || {
            let mut n = 0u64;
            for (p, _) in &list {
                std::hint::black_box(p).generate(choro_engine::LAP_BUDGET, |m, c, _| {
                    std::hint::black_box((m, c));
                    n += 1;
                    true
                });
            }
            assert_eq!(n, per_pass, "{code}");
        };
        // Calibrate the passes of a run to about half a second.
        let t = Instant::now();
        let mut passes = 0u64;
        while t.elapsed().as_secs_f64() < 0.1 {
            pass();
            passes += 1;
        }
        let passes = (passes * 5).max(1);
        let mut rates: Vec<f64> = (0..runs.max(1))
            .map(|_| {
                let t = Instant::now();
                for _ in 0..passes {
                    pass();
                }
                (passes * per_pass) as f64 / t.elapsed().as_secs_f64()
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        println!(
            "| {code} | {} | {per_pass} | {passes} | {:.1} M |",
            list.len(),
            rates[rates.len() / 2] / 1e6
        );
    }
}

fn main() {
    let mut a: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 5;
    if let Some(i) = a.iter().position(|s| s == "--runs") {
        runs = a[i + 1].parse().expect("--runs N");
        a.drain(i..i + 2);
    }
    if a.first().map(String::as_str) == Some("table") {
        return table(runs);
    }
    if a.first().map(String::as_str) == Some("movegen") {
        return movegen(runs);
    }
    let v: Variant = a[0].parse().expect("code");
    let w: u8 = a[1].parse().expect("width");
    let d: u32 = a[2].parse().expect("depth");
    let pos = match a.get(3) {
        Some(s) => s.parse().expect("position"),
        None => Position::startpos(v, w).expect("width"),
    };
    let r = measure(&pos, d, runs, true);
    print_run("median", &pos, d, &r);
}
