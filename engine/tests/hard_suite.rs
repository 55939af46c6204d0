//! The hard strength suite (positions/strength/*.txt,
//! `examples/hard_suite.rs`): every line parses and is consistent, no
//! position is one the engine's books answer, and the recorded values are
//! re-proven by the solver (the cheapest few here; all of them, with every
//! child, in the ignored test).

use choro_engine::solve::book;
use choro_engine::solve::{SolveConfig, SolveLimits, Solver};
use choro_engine::{Phase, Position, Side, Variant};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One line of a suite file.
struct Line {
    pos: Position,
    /// 1 a win, 0 a draw, for the side to move.
    value: i8,
    keep: Vec<String>,
    legal: usize,
    phase: String,
    nodes: u64,
}

fn suite(v: Variant) -> Vec<Line> {
    let path = format!(
        "{}/../positions/strength/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        v.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        text.lines()
            .any(|l| l.starts_with("# ") && l.contains("commit")),
        "{path}: no provenance"
    );
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 8, "{path}:{}: 8 columns", i + 1);
            let pos: Position = f[0]
                .parse()
                .unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1));
            assert_eq!(pos.to_string(), f[0], "{path}:{}: not as written", i + 1);
            assert_eq!(pos.variant(), v, "{path}:{}", i + 1);
            let value = match f[1] {
                "win" => 1,
                "draw" => 0,
                x => panic!("{path}:{}: value {x}", i + 1),
            };
            Line {
                pos,
                value,
                keep: f[2].split(' ').map(str::to_string).collect(),
                legal: f[3].parse().unwrap(),
                phase: f[4].to_string(),
                nodes: f[6].parse().unwrap(),
            }
        })
        .collect()
}

/// The proven sign of `p` for its side to move.
fn sign(s: &Solver, p: &Position, nodes: u64) -> Option<i8> {
    let sol = s
        .solve(
            p,
            &SolveLimits {
                plies: Some(1),
                nodes: Some(nodes),
                time: None,
            },
            &AtomicBool::new(false),
            Duration::from_secs(3600),
            &mut |_| {},
        )
        .unwrap();
    let (lo, hi) = sol.range();
    (lo == hi).then_some(lo)
}

/// The value of `c` for the side to move at `p`.
fn mine(p: &Position, c: &Position, v: i8) -> i8 {
    if c.side_to_move() == p.side_to_move() {
        v
    } else {
        -v
    }
}

#[test]
fn every_line_is_consistent() {
    let mut sides = [0; 2];
    let mut phases = HashSet::new();
    for v in Variant::ALL {
        let lines = suite(v);
        assert!(!lines.is_empty(), "{v}: no position");
        let mut seen = HashSet::new();
        for l in &lines {
            let p = &l.pos;
            assert!(seen.insert(p.hash()), "{p}: twice");
            assert!(!p.phase().is_blind(), "{p}: a blind phase");
            let moves = p.legal_moves();
            assert_eq!(moves.len(), l.legal, "{p}: legal moves");
            assert!(moves.len() >= 2, "{p}: a forced move");
            let k = l.keep.len();
            assert!(
                k == 1 || 4 * k <= moves.len(),
                "{p}: {k} of {} keep",
                l.legal
            );
            // Two moves may lead to the same position (and both keep).
            let mut written = HashSet::new();
            for m in &l.keep {
                p.parse_move(m).unwrap_or_else(|e| panic!("{p}: {m}: {e}"));
                assert!(written.insert(m), "{p}: {m} twice");
            }
            let word = match p.phase() {
                Phase::Opening2 | Phase::Opening1 => "opening",
                Phase::Race => "race",
                _ => "main",
            };
            assert_eq!(l.phase, word, "{p}");
            phases.insert(word);
            sides[p.side_to_move().index()] += 1;
        }
    }
    // Both sides to move; the main phase, the race and the sequential
    // opening.
    assert!(
        sides[Side::A.index()] > 0 && sides[Side::B.index()] > 0,
        "{sides:?}"
    );
    assert!(
        phases.contains("main") && phases.contains("race") && phases.contains("opening"),
        "{phases:?}"
    );
}

#[test]
fn no_position_is_a_book_position() {
    let books = book::builtin();
    for v in Variant::ALL {
        for l in suite(v) {
            assert!(books.get(&l.pos).is_none(), "{}: in a book", l.pos);
            assert!(books.sign(&l.pos).is_none(), "{}: a book's cell", l.pos);
        }
    }
    // And so for every shipped book line, read apart from `builtin`.
    for text in book::BUILTIN {
        let b = book::Book::parse(text).unwrap();
        for v in Variant::ALL {
            for l in suite(v) {
                assert!(b.get(&l.pos).is_none(), "{}: in a book", l.pos);
            }
        }
    }
    for text in book::BUILTIN_CELLS {
        let cells = book::parse_cells(text).unwrap();
        for v in Variant::ALL {
            for l in suite(v) {
                assert!(
                    !cells.iter().any(|(c, _)| c.same_state(&l.pos)),
                    "{}: a book's cell",
                    l.pos
                );
            }
        }
    }
}

/// Re-prove the value of `l` and of every child: the keeping moves are
/// exactly those whose child keeps the value.
fn reprove(s: &Solver, l: &Line, nodes: u64) {
    let p = &l.pos;
    assert_eq!(sign(s, p, nodes), Some(l.value), "{p}: value");
    for (m, c) in p.legal_moves() {
        let cv = sign(s, &c, nodes).unwrap_or_else(|| panic!("{p}: {m} not proven"));
        let keeps = mine(p, &c, cv) == l.value;
        let listed = l
            .keep
            .iter()
            .any(|k| p.parse_move(k).unwrap().1.same_state(&c));
        assert_eq!(keeps, listed, "{p}: {m}");
    }
}

#[test]
fn the_cheapest_values_are_re_proven() {
    let s = Solver::new(&SolveConfig {
        hash_mb: 16,
        ..SolveConfig::default()
    })
    .unwrap();
    for v in Variant::ALL {
        let mut lines = suite(v);
        lines.sort_by_key(|l| l.nodes);
        for l in lines.iter().take(1).filter(|l| l.nodes <= 30_000) {
            reprove(&s, l, 4 * l.nodes + 10_000);
        }
    }
}

/// Every value and every child (tens of minutes in release:
/// `cargo test --release -p choro-engine --test hard_suite -- --ignored`).
/// The later runs gave the solver 2,000,000 nodes for a position and for
/// each child; a fresh solver gets three times that.
#[test]
#[ignore]
fn every_value_is_re_proven() {
    for v in Variant::ALL {
        for l in suite(v) {
            let s = Solver::new(&SolveConfig {
                hash_mb: 1024,
                ..SolveConfig::default()
            })
            .unwrap();
            reprove(&s, &l, 6_000_000);
        }
    }
}
