//! Perft speed on one thread (rayon pool of 1), the median of several runs.
//!
//! ```text
//! cargo run --release --example perft_speed -- <code> <width> <depth> [position] [--runs N]
//! cargo run --release --example perft_speed -- table [--runs N]
//! ```
//! The first form runs one perft; `table` runs the set of BENCHMARKS.md
//! ("Speed") and prints it as a Markdown table. Each run prints paths,
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
