//! Self-tests of the test-only reference implementation (`tests/reference`).
//! The worked examples live in `reference/mod.rs`; here are cheap property
//! checks over random playouts: counters are conserved, move strings are
//! unique and well formed, results parse again, and the lap budget only
//! removes moves (a move legal under a small budget is legal, with the same
//! result, under the real one).

mod reference;

use choro_engine::rng::Rng;
use reference::{reference_moves, RefStats};
use std::collections::{BTreeMap, HashSet};

/// All counters of a position: board, plus stores for Adjiboto.
fn total(pos: &str) -> u64 {
    let fields: Vec<&str> = pos.split(' ').collect();
    let board: u64 = fields[1]
        .split(['/', ','])
        .map(|x| x.parse::<u64>().unwrap())
        .sum();
    if pos.starts_with("adjiboto") {
        board
            + fields[4]
                .split('/')
                .map(|x| x.parse::<u64>().unwrap())
                .sum::<u64>()
    } else {
        board
    }
}

fn well_formed_move(code: &str, w: usize, m: &str) -> bool {
    let hole = if code == "adjiboto" {
        "[1-5]"
    } else if w == 8 {
        "[a-p]"
    } else {
        "[0-9]+"
    };
    // A tiny hand-written check instead of a regex engine.
    let is_hole_char = |c: char| match hole {
        "[1-5]" => ('1'..='5').contains(&c),
        "[a-p]" => ('a'..='p').contains(&c),
        _ => c.is_ascii_digit(),
    };
    !m.is_empty()
        && m.chars().all(|c| is_hole_char(c) || "~x+-=".contains(c))
        && m.chars()
            .next()
            .is_some_and(|c| is_hole_char(c) || c == '~' || c == 'x')
}

fn check_position(pos: &str, budget: u32) -> Vec<(String, String)> {
    let (moves, _stats): (Vec<(String, String)>, RefStats) =
        reference_moves(pos, budget).expect("position parses");
    let code = pos.split([':', ' ']).next().unwrap();
    let w = if code == "adjiboto" {
        5
    } else {
        pos.split(' ')
            .next()
            .unwrap()
            .split(':')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    let mut names = HashSet::new();
    for (m, after) in &moves {
        assert!(names.insert(m.clone()), "{}: move {} listed twice", pos, m);
        assert!(
            well_formed_move(code, w, m),
            "{}: odd move string {:?}",
            pos,
            m
        );
        assert_eq!(total(pos), total(after), "{} {} -> {}", pos, m, after);
        reference_moves(after, 1).expect("result parses");
    }
    moves
}

fn random_playouts(start: &str, games: usize, plies: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut pos = start.to_string();
        for _ in 0..plies {
            let small = check_position(&pos, 300);
            let big: BTreeMap<String, String> = check_position(&pos, 5_000).into_iter().collect();
            for (m, after) in &small {
                assert_eq!(
                    big.get(m),
                    Some(after),
                    "{}: {} differs between budgets",
                    pos,
                    m
                );
            }
            if big.is_empty() {
                break;
            }
            let list: Vec<&String> = big.values().collect();
            pos = list[rng.below(list.len())].clone();
        }
    }
}

#[test]
fn didinga_playouts() {
    random_playouts(
        "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0",
        4,
        60,
        1,
    );
    random_playouts(
        "didinga:13 2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2 b o2 0",
        2,
        60,
        2,
    );
}

#[test]
fn lango_playouts() {
    random_playouts(
        "lango:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a m 0",
        4,
        60,
        3,
    );
    random_playouts(
        "lango:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0",
        2,
        10,
        4,
    );
}

#[test]
fn acholi_playouts() {
    random_playouts(
        "acholi:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0",
        3,
        40,
        5,
    );
}

#[test]
fn adjiboto_playouts() {
    random_playouts(
        "adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0",
        10,
        200,
        6,
    );
}

/// In the opening every Didinga move starts from the back row, and every
/// Lango move from a or b.
#[test]
fn opening_starts() {
    let all2 = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
    for side in ["a", "b"] {
        let (mv, _) = reference_moves(&format!("lango:8 {} {} o2 0", all2, side), 1000).unwrap();
        assert!(!mv.is_empty());
        assert!(
            mv.iter()
                .all(|(m, _)| m.starts_with('a') || m.starts_with('b')),
            "{:?}",
            mv
        );
        let (mv, _) = reference_moves(&format!("didinga:8 {} {} o1 1", all2, side), 1000).unwrap();
        let mut names: Vec<String> = mv.into_iter().map(|(m, _)| m).collect();
        names.sort();
        assert_eq!(names, vec!["a", "b", "k", "l", "m", "n", "o", "p"]);
    }
}
