//! Writes positions/perft/<code>.perft: the start positions and random
//! mid-game positions of one code with their perft counts.
//!
//! cargo run --release --example make_perft -- <code> <seed> <max-seconds-per-position>
//! cargo run --release --example make_perft -- simultaneous <seed> <max-seconds-per-position>
//!
//! `simultaneous` writes positions/perft/simultaneous.perft: the starts of
//! the simultaneous opening (phase `s2`) of the three Choro codes, and
//! positions inside it (`s1`, races stopped at a decision) reached by
//! random blind choices and decisions.
//!
//! Random positions: uniformly random legal moves from the start (Lango: from
//! the start board in the main phase, since its sequential opening usually
//! ends the game at once) for 4..40 plies, skipping finished games.

use choro_engine::rng::Rng;
use choro_engine::{perft, Opening, Phase, Position, Variant};
use std::time::Instant;

fn lines(pos: &Position, max_secs: f64, max_depth: u32) -> Vec<String> {
    let mut out = Vec::new();
    for d in 1..=max_depth {
        let t = Instant::now();
        let (c, _) = perft::perft(pos, d);
        out.push(format!("perft {d} {} {}", c.paths, c.unique));
        if c.paths == 0 || t.elapsed().as_secs_f64() * 8.0 > max_secs {
            break;
        }
    }
    out
}

fn simultaneous(seed: u64, max_secs: f64) {
    let mut rng = Rng::new(seed);
    println!("# Perft of the simultaneous opening (RULINGS 8): `perft D PATHS UNIQUE` as in the");
    println!(
        "# other files; the two blind choices are two plies and every decision of a racer is a"
    );
    println!("# ply. Made by `cargo run --release --example make_perft -- simultaneous {seed} {max_secs}`;");
    println!(
        "# every line is checked by engine/tests/perft_files.rs (deep lines with --ignored), and"
    );
    println!("# the lines of at most 4,000 paths by the test-only race reference in");
    println!("# engine/tests/perft_reference.rs.");
    println!();
    let starts = [
        (Variant::Didinga, 8),
        (Variant::Didinga, 12),
        (Variant::Didinga, 16),
        (Variant::Lango, 8),
        (Variant::Acholi, 8),
    ];
    for (v, w) in starts {
        let p = Position::start(v, w, Opening::Simultaneous).unwrap();
        println!("# Start position, {w} wide, simultaneous opening.");
        println!("id {v}-{w}-simultaneous-start");
        println!("pos {p}");
        for l in lines(&p, max_secs, 12) {
            println!("{l}");
        }
        println!();
    }
    // Positions inside the opening: B's blind choice, and races stopped at
    // a decision (Lango and Acholi, whose races have decisions).
    let mut made = 0;
    let mut tries = 0;
    while made < 12 && tries < 10_000 {
        tries += 1;
        let (v, w) = starts[(rng.next_u64() % starts.len() as u64) as usize];
        let want_race = made >= 3;
        if want_race && v == Variant::Didinga {
            continue;
        }
        let mut p = Position::start(v, w, Opening::Simultaneous).unwrap();
        let plies = 1 + rng.next_u64() % 6;
        for _ in 0..plies {
            let kids = p.legal_moves();
            if kids.is_empty() || !p.phase().is_simultaneous() {
                break;
            }
            let next = kids[(rng.next_u64() % kids.len() as u64) as usize].1;
            if !next.phase().is_simultaneous() {
                break;
            }
            p = next;
        }
        let ok = if want_race {
            p.phase() == Phase::Race
        } else {
            p.phase() == Phase::Blind1
        };
        if !ok {
            continue;
        }
        made += 1;
        println!("# Random walk into the simultaneous opening (seed {seed}, #{made}).");
        println!("id {v}-{w}-opening-{made}");
        println!("pos {p}");
        for l in lines(&p, max_secs, 12) {
            println!("{l}");
        }
        println!();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "simultaneous" {
        let seed: u64 = args[2].parse().expect("seed");
        let max_secs: f64 = args[3].parse().expect("seconds");
        return simultaneous(seed, max_secs);
    }
    let v: Variant = args[1].parse().expect("code");
    let seed: u64 = args[2].parse().expect("seed");
    let max_secs: f64 = args[3].parse().expect("seconds");
    let mut rng = Rng::new(seed);
    println!("# Perft of {v}: `perft D PATHS UNIQUE` = legal moves as enumerated (decision paths)");
    println!("# and children deduplicated by resulting position at every node, to depth D.");
    println!("# Made by `cargo run --release --example make_perft -- {v} {seed} {max_secs}`;");
    println!("# every line is checked by engine/tests/perft_files.rs (deep lines with --ignored),");
    println!("# and every line of at most 4,000 paths (depth <= 4) is recomputed by the test-only reference sower");
    println!("# (engine/tests/reference) in engine/tests/perft_reference.rs.");
    println!();
    let widths: Vec<u8> = match v {
        Variant::Didinga => vec![8, 12, 16],
        _ => vec![v.default_width()],
    };
    for &w in &widths {
        let p = Position::startpos(v, w).unwrap();
        println!("# Start position, {} wide, sequential opening.", w);
        println!("id {v}-{w}-start");
        println!("pos {p}");
        for l in lines(&p, max_secs, 12) {
            println!("{l}");
        }
        println!();
    }
    let mut made = 0;
    while made < 10 {
        let w = widths[(rng.next_u64() % widths.len() as u64) as usize];
        let mut p = Position::startpos(v, w).unwrap();
        if v == Variant::Lango {
            p = p.to_string().replace(" o2 ", " m ").parse().unwrap();
        }
        let plies = 4 + rng.next_u64() % 37;
        let mut ok = true;
        for _ in 0..plies {
            let kids = p.legal_moves();
            if kids.is_empty() {
                ok = false;
                break;
            }
            p = kids[(rng.next_u64() % kids.len() as u64) as usize].1;
        }
        if !ok || !p.has_legal_move() {
            continue;
        }
        made += 1;
        println!("# Random game: {plies} random plies from the start (seed {seed}, #{made}).");
        println!("id {v}-random-{made}");
        println!("pos {p}");
        for l in lines(&p, max_secs, 12) {
            println!("{l}");
        }
        println!();
    }
}
