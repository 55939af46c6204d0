//! `Position::generate_from`, one start at a time, against the whole
//! generation: for every start of `single_move_starts`, the moves it lists
//! are the whole list's moves from that start, with the same children and
//! statistics, and together they are the whole list. Random positions of
//! Didinga (several widths, both phases, crowded boards whose paths are cut
//! as never-ending) and Adjiboto (its opening's distinct-hole rule
//! included).

mod common;
use choro_engine::{GenStats, Opening, Position, Variant};
use common::*;

type Listed = Vec<(String, String, u32, u32)>;

fn listed(p: &Position, starts: Option<u32>, budget: u32) -> (Listed, GenStats) {
    let mut v = Vec::new();
    let sink = |m: &choro_engine::Move, c: &Position, info: choro_engine::MoveInfo| {
        v.push((m.to_string(), c.to_string(), info.laps, info.drops));
        true
    };
    let stats = match starts {
        None => p.generate(budget, sink),
        Some(s) => p.generate_from(s, budget, sink),
    };
    (v, stats)
}

/// Checks `p`; returns how many paths were cut as never-ending: by a cycle,
/// by the budget.
fn check(p: &Position, budget: u32) -> (u64, u64) {
    let Some(starts) = p.single_move_starts() else {
        panic!("{p}: Didinga and Adjiboto have single-move starts");
    };
    let (mut all, whole) = listed(p, None, budget);
    let mut got = Vec::new();
    let mut sum = GenStats::default();
    let mut s = starts;
    while s != 0 {
        let bit = s & s.wrapping_neg();
        s &= s - 1;
        let (one, stats) = listed(p, Some(bit), budget);
        assert!(one.len() <= 1, "{p}: start {bit:#x} lists {one:?}");
        sum.add(&stats);
        got.extend(one);
    }
    assert_eq!(sum, whole, "{p}: statistics start by start");
    all.sort();
    got.sort();
    assert_eq!(got, all, "{p}: moves start by start");
    (whole.cut_cycle, whole.cut_budget)
}

#[test]
fn one_start_at_a_time_is_the_whole_generation() {
    let mut rng = Rng::new(20261124);
    let (mut cycles, mut cut) = (0, 0);
    let mut positions = 0;
    for (variant, width) in [
        (Variant::Didinga, 8),
        (Variant::Didinga, 9),
        (Variant::Didinga, 12),
        (Variant::Didinga, 16),
        (Variant::Adjiboto, 5),
    ] {
        for i in 0..150 {
            let p = random_game_position(variant, width, i % 50, &mut rng);
            cycles += check(&p, 20_000).0;
            positions += 1;
        }
    }
    // Crowded Didinga boards with a small budget (10 laps): many paths are cut.
    for i in 0..300 {
        let width = [8, 10, 13][i % 3];
        let side = if i % 2 == 0 {
            choro_engine::Side::A
        } else {
            choro_engine::Side::B
        };
        let phase = ["m", "m", "o2", "o1"][i % 4];
        let total = width as u32 * (4 + (i as u32 % 4));
        let p = scattered(Variant::Didinga, width, total, phase, side, &mut rng);
        let (c, b) = check(&p, 10);
        cycles += c;
        cut += b;
        positions += 1;
    }
    // The never-ending positions of BENCHMARKS.md: paths cut by a cycle
    // (the full budget) and by the budget.
    for fen in [
        "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28",
        "didinga:8 1,1,0,3,1,0,0,0/0,0,0,0,0,0,0,1/0,12,8,3,2,3,0,1/10,6,1,6,2,1,0,2 a m 174",
        "didinga:8 1,2,0,1,3,1,2,1/0,2,0,1,1,4,0,0/1,5,0,5,1,8,3,0/3,0,1,2,1,5,4,6 b m 33",
        "didinga:8 0,5,0,1,1,1,4,0/7,0,7,0,4,0,2,1/0,3,0,3,3,0,6,1/3,2,0,3,0,1,0,6 a m 12",
        "didinga:8 2,4,5,0,1,0,1,14/1,4,8,1,2,1,0,11/0,0,3,0,0,0,1,0/2,0,0,1,0,1,1,0 b m 45",
    ] {
        let p: Position = fen.parse().unwrap();
        for budget in [choro_engine::LAP_BUDGET, 500] {
            let (c, b) = check(&p, budget);
            cycles += c;
            cut += b;
            positions += 1;
        }
    }
    eprintln!("{positions} positions, {cycles} paths cut by a cycle, {cut} by the budget");
    assert!(
        cut > 100,
        "only {cut} paths cut by the budget in {positions} positions"
    );
}

#[test]
fn branching_codes_and_the_race_have_none() {
    for v in [Variant::Lango, Variant::Acholi] {
        let p = Position::start(v, 8, Opening::Sequential).unwrap();
        assert_eq!(p.single_move_starts(), None, "{v}");
    }
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let p = Position::start(v, 8, Opening::Simultaneous).unwrap();
        assert_eq!(p.single_move_starts(), None, "{v} race");
    }
    let p = Position::start(Variant::Didinga, 8, Opening::Sequential).unwrap();
    // The opening lifts from the back row only.
    assert_eq!(p.single_move_starts(), Some(0xff));
}
