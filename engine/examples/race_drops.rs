//! Drops and laps of the races from each code's simultaneous start (every
//! blind pair): min, median, max (BENCHMARKS.md, "Speed of the race").
use choro_engine::{Opening, Position, Variant, LAP_BUDGET};
fn main() {
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let start = Position::start(v, 8, Opening::Simultaneous).unwrap();
        let mut drops = Vec::new();
        for (_, s1) in start.legal_moves() {
            s1.generate(LAP_BUDGET, |_, _, i| {
                drops.push((i.drops, i.laps));
                true
            });
        }
        drops.sort();
        let n = drops.len();
        println!(
            "{v}: {n} races to their first stop; drops min {} median {} max {}; laps max {}",
            drops[0].0,
            drops[n / 2].0,
            drops[n - 1].0,
            drops.iter().map(|d| d.1).max().unwrap()
        );
    }
}
