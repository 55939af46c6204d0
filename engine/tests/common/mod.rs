//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod perft_file;

use choro_engine::types::geometry::{pos_of_number, row_col};
use choro_engine::{Move, Position, Side, Variant};

/// A Choro position on an 8-wide board from Driberg letters: `a` lists
/// player A's holes (capitals in the texts), `b` player B's (small letters).
pub fn choro(
    variant: Variant,
    mover: Side,
    phase: &str,
    a: &[(char, u8)],
    b: &[(char, u8)],
) -> Position {
    let w = 8u8;
    let mut rows = [[0u8; 8]; 4];
    for (side, list) in [(Side::A, a), (Side::B, b)] {
        for &(c, n) in list {
            let num = c.to_ascii_lowercase() as u8 - b'a' + 1;
            let (r, col) = row_col(side, pos_of_number(num, w), w);
            rows[r as usize][col as usize] = n;
        }
    }
    let rows: Vec<String> = (0..4)
        .rev()
        .map(|r| {
            rows[r]
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let s = format!(
        "{}:8 {} {} {} 0",
        variant,
        rows.join("/"),
        mover.letter(),
        phase
    );
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Counters in `side`'s hole named by Driberg letter `c`.
pub fn at(p: &Position, side: Side, c: char) -> u8 {
    p.count(side, c as u8 - b'a' + 1)
}

/// All of `side`'s holes as (letter, count) for the non-empty ones.
pub fn holes(p: &Position, side: Side) -> Vec<(char, u8)> {
    (1..=16u8)
        .map(|n| ((b'a' + n - 1) as char, p.count(side, n)))
        .filter(|&(_, c)| c > 0)
        .collect()
}

/// The legal moves as strings, sorted.
pub fn move_strings(p: &Position) -> Vec<String> {
    let mut v = Vec::new();
    p.for_each_move(|m, _| v.push(m.to_string()));
    v.sort();
    v
}

pub fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

pub use choro_engine::rng::Rng;

/// A position reached by `plies` uniformly random moves from the start
/// (fewer if the game ends first), or `None` if it ended at once.
pub fn random_game_position(variant: Variant, width: u8, plies: u32, rng: &mut Rng) -> Position {
    let mut p = Position::startpos(variant, width).unwrap();
    for _ in 0..plies {
        let mut kids: Vec<Position> = Vec::new();
        p.generate(20_000, |_, c, _| {
            kids.push(*c);
            true
        });
        if kids.is_empty() {
            break;
        }
        p = kids[rng.below(kids.len())];
    }
    p
}

/// Scatter `total` counters at random over the board of a Choro position
/// (for positions far from the start), keeping side and phase.
pub fn scattered(
    variant: Variant,
    width: u8,
    total: u32,
    phase: &str,
    side: Side,
    rng: &mut Rng,
) -> Position {
    let w = width as usize;
    let mut cells = vec![0u32; 4 * w];
    for _ in 0..total {
        let i = rng.below(4 * w);
        cells[i] += 1;
    }
    let rows: Vec<String> = (0..4)
        .rev()
        .map(|r| {
            cells[r * w..(r + 1) * w]
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!(
        "{}:{} {} {} {} 0",
        variant,
        width,
        rows.join("/"),
        side.letter(),
        phase
    )
    .parse()
    .unwrap()
}
