//! Writes the lines of a `*.cells` file (positions/solved/README.md) from
//! a blind matrix as `choro solve` prints it: `cargo run --release -p
//! choro-engine --example make_cells -- <code> <width> < matrix.txt`. The
//! input's first line names B's starts (`A\B a b k ...`), each next line
//! one of A's starts and the cell values for A (`+1`, `0`, `-1`, or `?`
//! for an open cell, which is left out).

use choro_engine::blind::BlindGame;
use choro_engine::{Opening, Position, Side, Variant};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(code), Some(width)) = (args.first(), args.get(1)) else {
        eprintln!("usage: make_cells <code> <width> < matrix");
        return ExitCode::from(2);
    };
    let (Ok(variant), Ok(width)) = (code.parse::<Variant>(), width.parse::<u8>()) else {
        eprintln!("make_cells: bad code or width");
        return ExitCode::from(2);
    };
    let Ok(start) = Position::start(variant, width, Opening::Simultaneous) else {
        eprintln!("make_cells: no simultaneous start for {code} {width}");
        return ExitCode::from(2);
    };
    let Some(bg) = BlindGame::of(&start) else {
        eprintln!("make_cells: the start is not blind");
        return ExitCode::from(2);
    };
    let mut text = String::new();
    if std::io::stdin().read_to_string(&mut text).is_err() {
        eprintln!("make_cells: cannot read the matrix");
        return ExitCode::FAILURE;
    }
    let mut lines = text.lines().map(str::split_whitespace);
    let Some(head) = lines.next() else {
        eprintln!("make_cells: empty input");
        return ExitCode::FAILURE;
    };
    let cols: Vec<&str> = head.skip(1).collect();
    let find = |list: &[choro_engine::Move], w: &str| list.iter().position(|m| m.to_string() == w);
    for mut row in lines {
        let Some(a) = row.next() else { continue };
        let Some(i) = find(&bg.a_starts, a) else {
            eprintln!("make_cells: {a} is not a start of A");
            return ExitCode::FAILURE;
        };
        for (k, v) in row.enumerate() {
            let Some(j) = cols.get(k).and_then(|b| find(&bg.b_starts, b)) else {
                eprintln!("make_cells: column {} is not a start of B", k + 1);
                return ExitCode::FAILURE;
            };
            let for_a: i8 = match v {
                "+1" | "1" => 1,
                "0" => 0,
                "-1" => -1,
                "?" => continue,
                _ => {
                    eprintln!("make_cells: bad value {v}");
                    return ExitCode::FAILURE;
                }
            };
            let cell = bg.cells[i][j];
            let mine = if cell.side_to_move() == Side::A {
                for_a
            } else {
                -for_a
            };
            let word = match mine {
                1 => "win",
                -1 => "loss",
                _ => "draw",
            };
            println!("{}\t{word}", cell.with_ply(0));
        }
    }
    ExitCode::SUCCESS
}
