//! Every line of `positions/perft/*.perft`: the default run checks the lines
//! with up to `FAST_PATHS` paths; `--ignored` checks every line.

mod common;
use choro_engine::{perft, Position};
use common::perft_file::read_all;

const FAST_PATHS: u64 = 300_000;

fn check(all: bool) {
    let cases = read_all();
    assert!(
        cases.len() >= 44,
        "expected starts and 10 random positions per code"
    );
    let mut checked = 0;
    for c in &cases {
        let pos: Position = c
            .pos
            .parse()
            .unwrap_or_else(|e| panic!("{} {}: {e}", c.file, c.id));
        assert_eq!(
            pos.to_string(),
            c.pos,
            "{}: position string is not canonical",
            c.id
        );
        for &(d, paths, unique) in &c.lines {
            if !all && paths > FAST_PATHS {
                continue;
            }
            let (got, _) = perft::perft(&pos, d);
            assert_eq!(
                (got.paths, got.unique),
                (paths, unique),
                "{} {} depth {d}",
                c.file,
                c.id
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn perft_files_shallow_lines() {
    check(false);
}

#[test]
#[ignore = "deep perft: run with --ignored (CI runs it in release)"]
fn perft_files_every_line() {
    check(true);
}
