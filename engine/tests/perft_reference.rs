//! The perft files' shallow lines recomputed with the test-only reference
//! sower (and its race reference for the simultaneous opening): the counts
//! in `positions/perft` do not rest on the fast generator alone.

mod common;
mod reference;

use common::perft_file::read_all;
use std::collections::BTreeMap;

/// Children of `fen` by the reference: resulting position -> number of moves.
fn children(fen: &str) -> BTreeMap<String, u64> {
    let pos: choro_engine::Position = fen.parse().unwrap();
    let moves = if pos.phase().is_simultaneous() {
        // The race reference: blind choices and racers' decisions.
        reference::race::race_moves(fen, choro_engine::LAP_BUDGET).unwrap()
    } else {
        reference::reference_moves(fen, choro_engine::LAP_BUDGET)
            .unwrap()
            .0
    };
    let mut m = BTreeMap::new();
    for (_, child) in moves {
        *m.entry(child).or_insert(0) += 1;
    }
    m
}

fn reference_perft(fen: &str, depth: u32) -> (u64, u64) {
    if depth == 0 {
        return (1, 1);
    }
    let mut paths = 0;
    let mut unique = 0;
    for (child, mult) in children(fen) {
        let (p, u) = reference_perft(&child, depth - 1);
        paths += mult * p;
        unique += u;
    }
    (paths, unique)
}

#[test]
fn perft_files_agree_with_the_reference_sower() {
    let mut checked = 0;
    let mut race_lines = 0;
    for c in read_all() {
        for &(d, paths, unique) in &c.lines {
            if paths > 4_000 || d > 4 {
                continue;
            }
            assert_eq!(
                reference_perft(&c.pos, d),
                (paths, unique),
                "{} {} depth {d}",
                c.file,
                c.id
            );
            checked += 1;
            race_lines += (c.file.contains("simultaneous")) as usize;
        }
    }
    assert!(checked >= 80, "{checked}");
    assert!(race_lines >= 30, "{race_lines} lines of simultaneous.perft");
}

/// Writes `positions/perft/holds.perft` from the reference alone (RULES.md
/// 8.10): the simultaneous starts with 1 and 2 holds a racer, each depth
/// until the count passes `MAX` paths. Run with
/// `cargo test -p choro-engine --test perft_reference -- --ignored --nocapture make_holds_perft`
/// and copy its output between the `---` lines.
#[test]
#[ignore = "writes the holds perft file from the reference"]
fn make_holds_perft() {
    const MAX: u64 = 300_000;
    let full = |w: usize| vec!["2"; w].join(",");
    println!("---");
    println!(
        "# Perft of the simultaneous opening with holds (RaceHolds, RULES.md 8.10): `perft D PATHS"
    );
    println!(
        "# UNIQUE` as in simultaneous.perft; a tick's choice (`.` drop, `_` hold) is a ply of each"
    );
    println!(
        "# racer who has a hold left. Every count here was made by the test-only race reference,"
    );
    println!("# not by the engine: `cargo test -p choro-engine --test perft_reference --");
    println!(
        "# --ignored --nocapture make_holds_perft` (engine/tests/reference/race.rs, written from"
    );
    println!("# RULINGS 8 and RULES.md 8.10). engine/tests/perft_files.rs checks the engine against every");
    println!("# line, and perft_reference.rs checks the lines of at most 4,000 paths again.");
    for (code, w) in [("didinga", 8), ("lango", 8), ("acholi", 8), ("didinga", 12)] {
        for holds in [1, 2] {
            let row = full(w);
            let pos = format!("{code}:{w} {row}/{row}/{row}/{row} a s2,holds={holds} 0");
            println!();
            let holds_text = if holds == 1 { "1 hold" } else { "2 holds" };
            println!("# Start position, {w} wide, simultaneous opening, {holds_text} a racer.");
            println!("id {code}-{w}-holds-{holds}-start");
            println!("pos {pos}");
            for d in 1.. {
                let t = std::time::Instant::now();
                let (paths, unique) = reference_perft(&pos, d);
                println!("perft {d} {paths} {unique}");
                eprintln!("{code} {w} holds {holds} depth {d}: {:?}", t.elapsed());
                if paths > MAX || t.elapsed().as_secs() > 20 {
                    break;
                }
            }
        }
    }
    println!("---");
}
