//! The retrograde tables of Adjiboto's main phase (`solve::classes`)
//! against the retrograde analysis of each position's own reachable graph
//! (`solve::retro`), which shares none of the tables' code but the rules:
//! the same value, distances included, on random positions of every class.

use choro_engine::solve::classes::Tables;
use choro_engine::solve::retro::Graph;
use choro_engine::solve::{SolveConfig, SolveLimits, Solver, Value};
use choro_engine::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A main-phase position with `k` counters at random on the board, the
/// other 100 - k split at random between the stores.
fn random_position(k: u32, rng: &mut choro_engine::rng::Rng) -> Position {
    let mut holes = [0u32; 10];
    for _ in 0..k {
        holes[rng.below(10)] += 1;
    }
    // Stores near the 50 of a drawn end half the time.
    let a = if rng.chance(1, 2) {
        (46 + rng.below(6) as u32).min(100 - k)
    } else {
        rng.below((101 - k) as usize) as u32
    };
    let side = if rng.chance(1, 2) { "a" } else { "b" };
    let row = |h: &[u32]| {
        h.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "adjiboto {}/{} {side} 31524/12345 {a}/{}",
        row(&holes[5..]),
        row(&holes[..5]),
        100 - k - a
    )
    .parse()
    .unwrap()
}

#[test]
fn tables_agree_with_the_retrograde_analysis_of_each_position() {
    let stop = AtomicBool::new(false);
    let mut classes = Vec::new();
    let tables = Tables::build(8, &stop, &mut |s| classes.push(s.clone())).unwrap();
    assert_eq!(tables.max_counters(), 8);
    assert_eq!(classes.len(), 9);
    for s in &classes {
        assert_eq!(s.wins + s.losses + s.draws, s.positions, "class {}", s.k);
    }
    let mut rng = choro_engine::rng::Rng::new(27);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for k in 0..=8 {
        for _ in 0..60 {
            let p = random_position(k, &mut rng);
            let want = Graph::analyse(&p, 2_000_000, &stop).unwrap().root_value();
            assert_eq!(tables.value(&p), Some(want), "{p}");
            match want {
                Value::Win(_) => wins += 1,
                Value::Loss(_) => losses += 1,
                Value::Draw => draws += 1,
            }
        }
    }
    // The sample meets every kind of value.
    assert!(
        wins > 50 && losses > 50 && draws > 50,
        "{wins} {losses} {draws}"
    );
    assert_eq!(tables.verify(&stop).unwrap(), None);
}

#[test]
fn tables_answer_only_the_main_phase_with_every_counter() {
    let tables = Tables::build(4, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let main: Position = "adjiboto 0,0,1,0,0/0,2,0,0,1 a 12345/12345 60/36"
        .parse()
        .unwrap();
    assert!(tables.value(&main).is_some());
    // An opening history not complete: the opening's rule still binds.
    let opening: Position = "adjiboto 0,0,1,0,0/0,2,0,0,1 a 1234/12345 60/36"
        .parse()
        .unwrap();
    assert_eq!(tables.value(&opening), None);
    // Fewer than 100 counters in all.
    let short: Position = "adjiboto 0,0,1,0,0/0,2,0,0,1 a 12345/12345 60/30"
        .parse()
        .unwrap();
    assert_eq!(tables.value(&short), None);
    // More counters in play than the tables hold.
    let big: Position = "adjiboto 0,3,1,0,0/0,2,0,0,1 a 12345/12345 57/36"
        .parse()
        .unwrap();
    assert_eq!(tables.value(&big), None);
    let choro = Position::startpos(choro_engine::Variant::Lango, 8).unwrap();
    assert_eq!(tables.value(&choro), None);
}

/// The solver's value of `p` (df-pn, then alpha-beta for the distance)
/// with or without tables.
fn solved(p: &Position, tables: Option<Arc<Tables>>) -> Option<Value> {
    let solver = Solver::new(&SolveConfig {
        threads: 1,
        hash_mb: 16,
        tables,
        ..SolveConfig::default()
    })
    .unwrap();
    solver
        .solve(
            p,
            &SolveLimits {
                nodes: Some(2_000_000),
                ..SolveLimits::default()
            },
            &AtomicBool::new(false),
            std::time::Duration::from_secs(3600),
            &mut |_| {},
        )
        .unwrap()
        .value
}

#[test]
fn the_solver_reading_small_tables_agrees_with_large_ones() {
    let stop = AtomicBool::new(false);
    // The truth for 9 counters in play, and tables of up to 5 for the solver.
    let truth = Tables::build(9, &stop, &mut |_| {}).unwrap();
    let small = Arc::new(Tables::build(5, &stop, &mut |_| {}).unwrap());
    let mut rng = choro_engine::rng::Rng::new(1929);
    let mut finished = 0;
    for _ in 0..40 {
        let p = random_position(9, &mut rng);
        let want = truth.value(&p).unwrap();
        if let Some(v) = solved(&p, Some(small.clone())) {
            assert_eq!(v, want, "{p}: with tables");
            finished += 1;
        }
        if let Some(v) = solved(&p, None) {
            assert_eq!(v, want, "{p}: without tables");
        }
    }
    assert!(
        finished >= 30,
        "the solver with tables finished {finished} of 40"
    );
}
