//! Prints the position strings of a simultaneous opening from each code's
//! start: the blind phases and the first races that stop at a decision
//! (for RULES.md and PROTOCOL.md).
use choro_engine::{Opening, Phase, Position, Variant};
fn main() {
    for v in [Variant::Lango, Variant::Acholi] {
        let start = Position::start(v, 8, Opening::Simultaneous).unwrap();
        'outer: for (a, s1) in start.legal_moves() {
            for (b, p) in s1.legal_moves() {
                if p.phase() == Phase::Race {
                    println!("{start}\n{a} -> {s1}\n{b} -> {p}");
                    for (m, c) in p.legal_moves() {
                        println!("  {m} -> {c}");
                    }
                    break 'outer;
                }
            }
        }
    }
}
