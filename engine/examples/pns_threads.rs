//! One proof-number search on one thread and on several (BENCHMARKS.md
//! "Parallel df-pn"): the winner's search (`solve::pns::Pns`) of each
//! position, with a fresh table of HASH_MB MiB, run to its proof once per
//! thread count given.
//!
//! ```text
//! cargo run --release -p choro-engine --example pns_threads -- [THREADS,...] [HASH_MB] [ONLY]
//! ```
//!
//! THREADS defaults to `1,2`, HASH_MB to 256; ONLY keeps the rows whose name
//! contains it. The positions: the df-pn rows of `bench/solver-set` and
//! four blind cells of Didinga 4x9 and 4x10 (SOLVED.md "On a cluster"),
//! each with the side whose win was proven. One row per position and
//! thread count: the proof's depth, the nodes of all threads together, the
//! wall time and the speed-up over the first thread count of the row's
//! position. A run that does not prove the win stops the program.

use choro_engine::blind::BlindGame;
use choro_engine::solve::pns::{Outcome, Pns};
use choro_engine::{Opening, Position, Side, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A cell of a Didinga blind matrix, counted from 1 row by row.
fn cell(columns: u8, k: usize) -> Position {
    let start = Position::start(Variant::Didinga, columns, Opening::Simultaneous).expect("a board");
    let bg = BlindGame::of(&start).expect("a blind start");
    let w = bg.b_starts.len();
    bg.cells[(k - 1) / w][(k - 1) % w]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads: Vec<usize> = args
        .first()
        .map_or("1,2", |s| s.as_str())
        .split(',')
        .map(|t| t.parse().expect("THREADS: numbers separated by commas"))
        .collect();
    let mb: usize = args.get(1).map_or(256, |s| s.parse().expect("HASH_MB"));
    let only = args.get(2).cloned().unwrap_or_default();
    let pos = |s: &str| s.parse::<Position>().expect("a position");
    let rows: Vec<(&str, Position, Side)> = vec![
        (
            "didinga10-seq",
            Position::start(Variant::Didinga, 10, Opening::Sequential).expect("a board"),
            Side::A,
        ),
        (
            "didinga8 cell a a",
            pos("didinga:8 0,1,0,0,0,1,0,1/8,7,2,6,1,3,1,1/1,1,3,1,6,2,7,8/1,0,1,0,0,0,1,0 b m 0"),
            Side::B,
        ),
        (
            "didinga8 cell",
            pos("didinga:8 5,0,2,0,2,2,0,0/5,4,0,0,3,3,1,0/0,2,1,4,4,4,4,0/0,2,0,2,0,5,5,4 b m 0"),
            Side::B,
        ),
        (
            "acholi cell, loss",
            pos("acholi:8 2,1,0,2,3,1,2,3/1,2,8,0,4,9,7,3/2,0,2,0,3,0,0,0/0,0,5,0,0,0,0,4 a m 0"),
            Side::B,
        ),
        (
            "acholi cell, win",
            pos("acholi:8 4,5,5,0,2,2,0,0/0,3,3,3,0,3,1,1/1,1,3,0,3,3,3,0/0,0,2,2,0,5,5,4 a m 0"),
            Side::A,
        ),
        ("didinga10 cell 1", cell(10, 1), Side::A),
        ("didinga10 cell 26", cell(10, 26), Side::B),
        ("didinga10 cell 76", cell(10, 76), Side::A),
        ("didinga9 cell 81", cell(9, 81), Side::B),
    ];
    println!("threads {threads:?}, {mb} MiB a table");
    println!("| position | threads | proven within | nodes | wall s | speed-up |");
    println!("|---|---:|---:|---:|---:|---:|");
    let (mut total, mut first_total) = (vec![0.0; threads.len()], 0.0);
    let mut nodes = vec![0u64; threads.len()];
    for (name, p, winner) in &rows {
        if !name.contains(only.as_str()) {
            continue;
        }
        let mut base = None;
        for (k, &t) in threads.iter().enumerate() {
            let mut s = Pns::new(*winner, mb)
                .unwrap_or_else(|e| panic!("{e}"))
                .with_threads(t);
            let clock = Instant::now();
            let o = s.prove(p, u64::MAX, &AtomicBool::new(false));
            let secs = clock.elapsed().as_secs_f64();
            let Outcome::Proven(d) = o else {
                panic!("{name}: {winner} not proven on {t} threads: {o:?}");
            };
            let b = *base.get_or_insert(secs);
            total[k] += secs;
            nodes[k] += s.nodes();
            if k == 0 {
                first_total += secs;
            }
            println!(
                "| {name} | {t} | {d} | {} | {secs:.2} | {:.2} |",
                s.nodes(),
                b / secs
            );
        }
    }
    for (k, t) in threads.iter().enumerate() {
        println!(
            "all rows, {t} threads: {} nodes, {:.2} s, speed-up {:.2}",
            nodes[k],
            total[k],
            first_total / total[k]
        );
    }
}
