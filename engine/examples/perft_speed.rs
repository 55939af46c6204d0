//! Perft speed on one thread: `cargo run --release --example perft_speed -- <code> <width> <depth> [pos]`.
//! Prints paths, unique, moves generated, drops and the rates (single-threaded walk).
use choro_engine::{perft, Position, Variant};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v: Variant = a[1].parse().unwrap();
    let w: u8 = a[2].parse().unwrap();
    let d: u32 = a[3].parse().unwrap();
    let pos = match a.get(4) {
        Some(s) => s.parse().unwrap(),
        None => Position::startpos(v, w).unwrap(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let t = std::time::Instant::now();
    let (c, s) = pool.install(|| perft::perft(&pos, d));
    let el = t.elapsed().as_secs_f64();
    println!(
        "{v} w{w} d{d}: paths {} unique {} moves {} laps {} drops {} | {:.3}s {:.2} Mmoves/s {:.1} Mdrops/s {:.1} Mlaps/s",
        c.paths, c.unique, s.moves, s.laps, s.drops, el, s.moves as f64 / el / 1e6, s.drops as f64 / el / 1e6, s.laps as f64 / el / 1e6
    );
}
