//! The solver's values of races with holds (RULES.md 8.10,
//! `Solver::solve_holds`) checked by a second method: a plain recursion
//! written here over the reference race of the tests (`reference::race`,
//! which shares nothing with the engine's race but the rules), with every
//! leaf (a position without a hold left: the lockstep rest of a race, the
//! main phase, a drawn race) valued by the retrograde analysis and
//! confirmed by the plain checker (`solve::check`). A tick both racers
//! choose at is a 2x2 game valued here in floats by the textbook formula,
//! unpruned; the solver's exact fractions must agree to 1e-9.

mod reference;

use choro_engine::solve::check::{CheckError, Checker};
use choro_engine::solve::frac::Frac;
use choro_engine::solve::retro::Graph;
use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
use choro_engine::{Phase, Position, Side};
use reference::race;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const BUDGET: u32 = choro_engine::rules::LAP_BUDGET;

/// The leaf's value for A: retrograde analysis, confirmed by the checker;
/// `None` when its graph is too large for the test.
fn leaf(p: &Position) -> Option<f64> {
    let g = Graph::analyse(p, 20_000, &AtomicBool::new(false)).ok()?;
    let v = g.root_value();
    match Checker::new(2_000_000).check(p, v, 20_000) {
        Ok(()) => {}
        Err(CheckError::Budget) => return None,
        Err(e) => panic!("{p} {v}: {e}"),
    }
    let s = v.sign() as f64;
    Some(if p.side_to_move() == Side::A { s } else { -s })
}

fn is_node(p: &Position) -> bool {
    p.phase() == Phase::Race && p.race_holds() > 0
}

/// A's value of a 2x2 game: a saddle point, else the mixed formula.
fn game(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let maximin = a.min(b).max(c.min(d));
    let minimax = a.max(c).min(b.max(d));
    if maximin >= minimax - 1e-12 {
        maximin
    } else {
        (a * d - b * c) / (a + d - b - c)
    }
}

fn children(s: &str) -> Vec<(String, String)> {
    race::race_moves(s, BUDGET).unwrap_or_else(|e| panic!("reference rejects {s}: {e}"))
}

/// The plain value for A of a position (its string), every node expanded;
/// `None` when a leaf is too large.
fn plain(s: &str, memo: &mut HashMap<String, f64>, leaves: &mut u64) -> Option<f64> {
    if let Some(&v) = memo.get(s) {
        return Some(v);
    }
    let p: Position = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
    let v = if !is_node(&p) {
        *leaves += 1;
        leaf(&p)?
    } else {
        let kids = children(s);
        let parsed: Vec<Position> = kids.iter().map(|(_, c)| c.parse().unwrap()).collect();
        let r = p.race().unwrap();
        let both = r.stage == 0
            && p.side_to_move() == Side::A
            && parsed.len() == 2
            && parsed.iter().all(|c| {
                c.phase() == Phase::Race
                    && c.side_to_move() == Side::B
                    && c.race().unwrap().stage == 0
            });
        if both {
            let mut m = [[0.0; 2]; 2];
            for (i, (_, b)) in kids.iter().enumerate() {
                let g = children(b);
                assert_eq!(g.len(), 2, "{b}");
                for (j, (_, c)) in g.iter().enumerate() {
                    m[i][j] = plain(c, memo, leaves)?;
                }
            }
            game(m[0][0], m[0][1], m[1][0], m[1][1])
        } else {
            let mut vals = Vec::new();
            for (_, c) in &kids {
                vals.push(plain(c, memo, leaves)?);
            }
            let vals = vals.into_iter();
            if p.side_to_move() == Side::A {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
    };
    memo.insert(s.to_string(), v);
    Some(v)
}

fn solver() -> Solver {
    Solver::new(&SolveConfig {
        hash_mb: 16,
        ..SolveConfig::default()
    })
    .unwrap()
}

fn rng(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// A sparse random board of `code` at `s2` with `holds` a racer: few
/// counters, so that every leaf's reachable graph is small.
fn sparse(code: &str, holds: u8, x: &mut u64) -> Option<Position> {
    let rows: Vec<String> = (0..4)
        .map(|_| {
            (0..8)
                .map(|_| match rng(x) % 16 {
                    0..=12 => "0".to_string(),
                    13 => "1".to_string(),
                    14 => "2".to_string(),
                    _ => "3".to_string(),
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let s = format!("{code}:8 {} a s2,holds={holds} 0", rows.join("/"));
    let p: Position = s.parse().ok()?;
    if p.total_counters() > 14 {
        return None;
    }
    let bg = choro_engine::blind::BlindGame::of(&p)?;
    (!bg.a_starts.is_empty() && !bg.b_starts.is_empty()).then_some(p)
}

/// Every cell of random sparse blind starts with 1 and 2 holds: the
/// solver's exact value equals the plain recursion's, and so does the
/// blind game's value where the cells make a 2x2 or smaller game.
#[test]
fn race_values_agree_with_the_plain_recursion() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut cells = 0;
    let mut mixed = 0;
    let mut leaves = 0;
    let mut holds_used = 0;
    for code in ["lango", "acholi", "didinga"] {
        for holds in [1u8, 2] {
            let mut done = 0;
            let mut tries = 0;
            while done < 25 && tries < 4000 {
                tries += 1;
                let Some(pos) = sparse(code, holds, &mut x) else {
                    continue;
                };
                let h = solver()
                    .solve_holds(
                        &pos,
                        &SolveLimits::default(),
                        &AtomicBool::new(false),
                        Duration::from_secs(3600),
                        &mut |_| {},
                    )
                    .unwrap_or_else(|e| panic!("{pos}: {e}"));
                let mut memo = HashMap::new();
                let mut n = 0;
                let Some(want) = h
                    .positions
                    .iter()
                    .flatten()
                    .map(|c| plain(&c.to_string(), &mut memo, &mut n))
                    .collect::<Option<Vec<f64>>>()
                else {
                    continue; // a leaf too large for the retrograde analysis
                };
                leaves += n;
                let mut want = want.into_iter();
                for (i, row) in h.positions.iter().enumerate() {
                    for (j, c) in row.iter().enumerate() {
                        let want = want.next().unwrap();
                        let cell = &h.cells[i][j];
                        let got = cell.range.value().unwrap_or_else(|| panic!("{c}: open"));
                        assert!(
                            (got.to_f64() - want).abs() < 1e-9,
                            "{pos} cell {} {}: solver {got}, plain {want}",
                            h.a_starts[i],
                            h.b_starts[j]
                        );
                        cells += 1;
                        mixed += !got.is_integer() as u32;
                        holds_used +=
                            cell.line.iter().any(|s| {
                                matches!(s, choro_engine::solve::holds::LineStep::Hold { .. })
                            }) as u32;
                    }
                }
                let exact = h.exact.as_ref().expect("every cell exact");
                assert!((exact.value.to_f64() - h.value_lo).abs() < 1e-9, "{pos}");
                done += 1;
            }
            eprintln!("{code} {holds}: {done} boards of {tries}");
            assert!(done >= 2, "{code} {holds}: only {done} boards");
        }
    }
    eprintln!(
        "{cells} cells, {mixed} mixed, {holds_used} with a hold on the line, {leaves} leaves"
    );
    assert!(cells > 30, "{cells}");
    assert!(leaves > 100, "{leaves}");
}

/// The 2x2 games of ticks in fractions: mixed values, a saddle point.
#[test]
fn tick_games_in_fractions() {
    // Matching pennies in ticks: the 2x2 game of [[+1, -1], [-1, +1]] is
    // worth 0 with drops at 1/2 each; [[1, 0], [0, 1]] 1/2, at 1/2.
    let f = |n, d| Frac::new(n, d).unwrap();
    let (v, p, q) = choro_engine::solve::holds::tick_game([
        [Frac::ONE, Frac::MINUS_ONE],
        [Frac::MINUS_ONE, Frac::ONE],
    ])
    .unwrap();
    assert_eq!((v, p, q), (Frac::ZERO, f(1, 2), f(1, 2)));
    let (v, p, q) =
        choro_engine::solve::holds::tick_game([[Frac::ONE, Frac::ZERO], [Frac::ZERO, Frac::ONE]])
            .unwrap();
    assert_eq!((v, p, q), (f(1, 2), f(1, 2), f(1, 2)));
    // A saddle: [[0, 1], [-1, 0]]: A drops, B drops, 0.
    let (v, p, q) = choro_engine::solve::holds::tick_game([
        [Frac::ZERO, Frac::ONE],
        [Frac::MINUS_ONE, Frac::ZERO],
    ])
    .unwrap();
    assert_eq!((v, p, q), (Frac::ZERO, Frac::ONE, Frac::ONE));
    // Fractions inside: [[1/3, -1], [-1/2, 1]]: den 1/3 + 1 + 1 + 1/2 = 17/6,
    // v = (1/3 - 1/2) / (17/6) = -1/17, p = 3/2 / (17/6) = 9/17,
    // q = 2 / (17/6) = 12/17.
    let (v, p, q) =
        choro_engine::solve::holds::tick_game([[f(1, 3), Frac::MINUS_ONE], [f(-1, 2), Frac::ONE]])
            .unwrap();
    assert_eq!((v, p, q), (f(-1, 17), f(9, 17), f(12, 17)));
}

/// RaceHolds 0 through the race values reproduces the published Lango
/// value (SOLVED.md): every cell a leaf, +1 each, the game +1 exactly
/// (release-sized: `cargo test -p choro-engine --test holds_solve --
/// --ignored`).
#[test]
#[ignore = "the whole Lango blind solve, about 8 M nodes"]
fn lango_without_holds_through_the_race_values() {
    let start = Position::start(
        choro_engine::Variant::Lango,
        8,
        choro_engine::Opening::Simultaneous,
    )
    .unwrap();
    let s = Solver::new(&SolveConfig {
        threads: 2,
        hash_mb: 256,
        ..SolveConfig::default()
    })
    .unwrap();
    let h = s
        .solve_holds(
            &start,
            &SolveLimits::default(),
            &AtomicBool::new(false),
            Duration::from_secs(3600),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(h.race_nodes, 0);
    assert_eq!(h.leaves.len(), 4);
    for c in h.cells.iter().flatten() {
        assert_eq!(c.range.value(), Some(Frac::ONE));
    }
    let x = h.exact.expect("exact");
    assert_eq!(x.value, Frac::ONE);
}
