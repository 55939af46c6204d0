//! Differential test: the fast bitpacked generator against the plain,
//! drop-by-drop reference sower written only for the tests
//! (`tests/reference`), on thousands of random positions of every code and
//! several widths. Both must list exactly the same moves (decision paths) with
//! exactly the same resulting position strings, under the same lap budget.

mod common;
mod reference;

use choro_engine::{Position, Side, Variant};
use common::*;

/// A budget small enough that never-ending moves stay cheap in the slow
/// reference; a move needing more laps is cut by both.
const BUDGET: u32 = 3_000;

fn engine_moves(p: &Position, budget: u32) -> Vec<(String, String)> {
    let mut v = Vec::new();
    p.generate(budget, |m, c, _| {
        v.push((m.to_string(), c.to_string()));
        true
    });
    v.sort();
    v
}

fn compare(p: &Position, budget: u32) -> usize {
    let fen = p.to_string();
    let (mut want, _) = reference::reference_moves(&fen, budget)
        .unwrap_or_else(|e| panic!("reference rejects {fen}: {e}"));
    want.sort();
    let got = engine_moves(p, budget);
    if got != want {
        let only_engine: Vec<_> = got.iter().filter(|m| !want.contains(m)).collect();
        let only_ref: Vec<_> = want.iter().filter(|m| !got.contains(m)).collect();
        panic!("{fen}\nonly engine: {only_engine:#?}\nonly reference: {only_ref:#?}");
    }
    got.len()
}

fn run_code(v: Variant, widths: &[u8], games: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    let mut moves = 0;
    for g in 0..games {
        let w = widths[(g % widths.len() as u64) as usize];
        let mut p = Position::startpos(v, w).unwrap();
        if v == Variant::Lango && g % 2 == 1 {
            // Lango's sequential opening usually ends the game at once; half
            // the games start from the full board in the main phase.
            p = p.to_string().replace(" o2 ", " m ").parse().unwrap();
        }
        for _ in 0..200 {
            let n = compare(&p, BUDGET);
            positions += 1;
            moves += n;
            let kids = {
                let mut k = Vec::new();
                p.generate(BUDGET, |_, c, _| {
                    k.push(*c);
                    true
                });
                k
            };
            if kids.is_empty() {
                break;
            }
            p = kids[rng.below(kids.len())];
        }
    }
    assert!(positions >= 1000, "{v}: only {positions} positions");
    assert!(moves > positions, "{v}: {moves} moves");
}

#[test]
fn didinga_matches_the_reference_on_random_games() {
    run_code(Variant::Didinga, &[8, 9, 12, 16], 40, 1);
}

#[test]
fn lango_matches_the_reference_on_random_games() {
    run_code(Variant::Lango, &[8], 200, 2);
}

#[test]
fn acholi_matches_the_reference_on_random_games() {
    run_code(Variant::Acholi, &[8], 60, 3);
}

#[test]
fn adjiboto_matches_the_reference_on_random_games() {
    run_code(Variant::Adjiboto, &[5], 40, 4);
}

/// Boards far from any game: random counts, both sides, both phases.
#[test]
fn scattered_boards_match_the_reference() {
    let mut rng = Rng::new(5);
    for i in 0..3000u64 {
        let (v, w) = match i % 5 {
            0 => (Variant::Didinga, 8),
            1 => (Variant::Didinga, 8 + (rng.below(9) as u8)),
            2 => (Variant::Lango, 8),
            _ => (Variant::Acholi, 8),
        };
        let total = 4 + rng.below(8 * w as usize - 3) as u32;
        let side = if rng.below(2) == 0 { Side::A } else { Side::B };
        let phase = ["m", "m", "o2", "o1"][rng.below(4)];
        let p = scattered(v, w, total, phase, side, &mut rng);
        compare(&p, BUDGET);
    }
}

/// With the rules' own budget on positions whose moves run long.
#[test]
fn full_budget_matches_on_a_few_positions() {
    let mut rng = Rng::new(6);
    for i in 0..60u64 {
        let v = [Variant::Didinga, Variant::Lango, Variant::Acholi][(i % 3) as usize];
        let p = scattered(v, 8, 40 + rng.below(25) as u32, "m", Side::A, &mut rng);
        compare(&p, choro_engine::LAP_BUDGET);
    }
}
