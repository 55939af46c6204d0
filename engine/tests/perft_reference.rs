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
