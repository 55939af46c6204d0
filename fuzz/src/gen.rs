//! Generators of well-formed material that the mutations then spoil:
//! position strings of every code (random boards and positions reached by
//! random play), move strings, and their parts.

use crate::rng::Rng;
use choro_engine::{Opening, Position, Variant};

/// A random width for `v`.
pub fn width(rng: &mut Rng, v: Variant) -> u8 {
    let w = v.widths();
    *w.start() + rng.below((*w.end() - *w.start()) as usize + 1) as u8
}

/// `n` counters thrown into `holes` holes, each counter into a random one,
/// sometimes into a few holes only (long relay chains need big holes).
fn throw(rng: &mut Rng, holes: usize, n: u32) -> Vec<u32> {
    let mut c = vec![0u32; holes];
    let spread = if rng.chance(1, 4) {
        1 + rng.below(holes)
    } else {
        holes
    };
    let offset = rng.below(holes);
    for _ in 0..n {
        c[(offset + rng.below(spread)) % holes] += 1;
    }
    c
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// A random board of any code as a position string in the canonical form
/// (every field written, ply included). The parser must accept it.
pub fn board_string(rng: &mut Rng, v: Variant) -> String {
    let side = if rng.chance(1, 2) { "a" } else { "b" };
    let ply = if rng.chance(1, 2) {
        rng.below(60)
    } else {
        rng.below(2000)
    };
    if v.is_choro() {
        let w = width(rng, v) as usize;
        let max = 8 * w as u32;
        let n = match rng.below(4) {
            0 => rng.below(max as usize + 1) as u32,
            1 => max,
            _ => max - rng.below(max as usize / 2) as u32,
        };
        let c = throw(rng, 4 * w, n);
        let rows: Vec<String> = c.chunks(w).map(join).collect();
        let phase = *rng.pick(&["m", "m", "m", "o1", "o2"]);
        format!("{v}:{w} {} {side} {phase} {ply}", rows.join("/"))
    } else {
        let n = if rng.chance(1, 3) {
            100
        } else {
            rng.below(101) as u32
        };
        let c = throw(rng, 12, n);
        let hist = |rng: &mut Rng, k: usize| -> String {
            if k == 0 {
                return "-".into();
            }
            // Mostly distinct holes as play gives; sometimes any.
            let mut holes: Vec<u32> = (1..=5).collect();
            let mut s = String::new();
            for i in 0..k {
                let h = if rng.chance(4, 5) {
                    let j = i + rng.below(5 - i);
                    holes.swap(i, j);
                    holes[i]
                } else {
                    1 + rng.below(5) as u32
                };
                s.push_str(&h.to_string());
            }
            s
        };
        // Lengths the side to move can follow (the players alternate;
        // either may have begun): equal, or the one not to move once more.
        let ka = rng.below(6);
        let kb = match (side, rng.chance(1, 2)) {
            (_, false) => ka,
            ("a", true) => (ka + 1).min(5),
            (_, true) => ka.saturating_sub(1),
        };
        let (ha, hb) = (hist(rng, ka), hist(rng, kb));
        format!(
            "adjiboto {}/{} {side} {ha}/{hb} {}/{} {ply}",
            join(&c[0..5]),
            join(&c[5..10]),
            c[10],
            c[11]
        )
    }
}

/// A position reached by up to `max_plies` random legal moves from the
/// start of `v`, with the moves played (in the position's own notation).
pub fn random_play(
    rng: &mut Rng,
    v: Variant,
    max_plies: usize,
) -> (Position, Position, Vec<String>) {
    let w = width(rng, v);
    // Either opening: the simultaneous one's blind choices and races too.
    let opening = if rng.chance(1, 2) {
        Opening::Simultaneous
    } else {
        Opening::Sequential
    };
    let start = Position::start(v, w, opening).unwrap_or_else(|_| unreachable_start());
    let (pos, moves) = legal_line(rng, start, max_plies);
    (start, pos, moves)
}

/// Up to `max` (a random number of) uniformly random legal moves from
/// `from`: where they lead, and the moves in the position's own notation.
pub fn legal_line(rng: &mut Rng, from: Position, max: usize) -> (Position, Vec<String>) {
    let mut pos = from;
    let mut moves = Vec::new();
    for _ in 0..rng.below(max + 1) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let (m, next) = legal[rng.below(legal.len())];
        moves.push(pos.restyle(m).to_string());
        pos = next;
    }
    (pos, moves)
}

fn unreachable_start() -> Position {
    // `width` only returns widths the code allows.
    Position::startpos(Variant::Didinga, 8).unwrap_or_else(|e| panic!("start position: {e}"))
}

/// A position of any code: a random board or a position from random play.
pub fn any_position(rng: &mut Rng) -> Position {
    let v = *rng.pick(&Variant::ALL);
    if rng.chance(1, 2) {
        random_play(rng, v, 80).1
    } else {
        let s = board_string(rng, v);
        s.parse()
            .unwrap_or_else(|e| panic!("generated board rejected: {s}: {e}"))
    }
}

/// A hole as the notation writes it, in range or not.
pub fn hole(rng: &mut Rng, letters: bool) -> String {
    if letters {
        let c = if rng.chance(9, 10) {
            b'a' + rng.below(16) as u8
        } else {
            b'a' + rng.below(26) as u8
        };
        let c = if rng.chance(1, 5) {
            c.to_ascii_uppercase()
        } else {
            c
        };
        (c as char).to_string()
    } else {
        match rng.below(10) {
            0 => "0".into(),
            1 => format!("{}", 33 + rng.below(100)),
            2 => format!("0{}", 1 + rng.below(32)),
            _ => format!("{}", 1 + rng.below(32)),
        }
    }
}

/// A move string built from the notation's tokens: usually well formed,
/// sometimes with a token out of place, mixed forms or too many tokens.
pub fn move_string(rng: &mut Rng) -> String {
    let letters = rng.chance(1, 2);
    let mut s = String::new();
    let tokens = match rng.below(8) {
        0 => 55 + rng.below(15),
        1 | 2 => 1,
        _ => 1 + rng.below(10),
    };
    let mut want_start = true;
    for _ in 0..tokens {
        if want_start || rng.chance(1, 30) {
            match rng.below(6) {
                0 => s.push('~'),
                1 => s.push(if rng.chance(1, 2) { 'x' } else { 'X' }),
                _ => {}
            }
            let l = if rng.chance(1, 20) { !letters } else { letters };
            s.push_str(&hole(rng, l));
            want_start = false;
        } else {
            match rng.below(7) {
                0 | 1 => s.push('+'),
                2 | 3 => s.push('-'),
                4 | 5 => {
                    s.push('=');
                    want_start = true;
                }
                _ => s.push(*rng.pick(&['=', '+', '~', 'x', '!', ' ', 'é', '\0'])),
            }
        }
    }
    s
}
