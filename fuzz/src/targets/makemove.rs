//! Make-move on arbitrary legal positions of every code (random boards and
//! positions of random play): counters are conserved, every child's string
//! round-trips to the same position (hash and masks included), each move
//! played through its string gives the same child, in letters and in
//! numbers, moves are never listed twice, a proper prefix of a move is
//! incomplete, `has_legal_move` and `outcome` agree with the list.

use super::position::{flip_field, DICT};
use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro_engine::board::{MAX_PLY, MAX_TICK};
use choro_engine::{Move, MoveError, Position, PositionError, Side, Variant};
use std::collections::HashSet;

/// Moves per position whose string is re-played (each re-play generates
/// the position's moves again).
const REPLAY_SAMPLE: usize = 48;

#[derive(Default)]
pub struct MakeMoveTarget {
    pub positions: u64,
    pub rejected: u64,
    pub children: u64,
    pub replayed: u64,
    pub no_move: u64,
}

impl Target for MakeMoveTarget {
    fn name(&self) -> &'static str {
        "makemove"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        1024
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        let v = *rng.pick(&Variant::ALL);
        if rng.chance(1, 2) {
            gen::board_string(rng, v).into_bytes()
        } else {
            gen::random_play(rng, v, 120).1.to_string().into_bytes()
        }
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        let s = String::from_utf8_lossy(base);
        match rng.below(8) {
            // Move a few counters between holes: still a legal board.
            0..=5 => shuffle_counts(rng, &s).into_bytes(),
            6 => flip_field(rng, &s).into_bytes(),
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                d
            }
        }
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let s = String::from_utf8_lossy(input);
        let Ok(pos) = s.parse::<Position>() else {
            self.rejected += 1;
            return Ok(());
        };
        self.positions += 1;
        let r = check_moves(&pos, self);
        r.map_err(|e| format!("{e}\n  in {pos}"))
    }

    fn stats(&self) -> String {
        format!(
            "positions {} (strings rejected {}) children {} replayed {} without a move {}",
            self.positions, self.rejected, self.children, self.replayed, self.no_move
        )
    }
}

/// Move counters between holes of a position string, keeping the totals.
pub fn shuffle_counts(rng: &mut Rng, s: &str) -> String {
    let mut f: Vec<String> = s.split(' ').map(str::to_string).collect();
    let Some(board) = f.get(1) else {
        return s.to_string();
    };
    let mut cells: Vec<u32> = board
        .split(['/', ','])
        .map(|c| c.parse().unwrap_or(0))
        .collect();
    let seps: Vec<char> = board.chars().filter(|&c| c == '/' || c == ',').collect();
    for _ in 0..1 + rng.below(6) {
        let (a, b) = (rng.below(cells.len()), rng.below(cells.len()));
        let n = rng.below(cells[a] as usize + 1) as u32;
        cells[a] -= n;
        // A mutated base may hold a count at the edge of the range.
        cells[b] = cells[b].saturating_add(n);
    }
    let mut out = cells[0].to_string();
    for (c, sep) in cells[1..].iter().zip(seps) {
        out.push(sep);
        out.push_str(&c.to_string());
    }
    f[1] = out;
    if rng.chance(1, 4) && f.len() > 2 {
        f[2] = if f[2] == "a" { "b".into() } else { "a".into() };
    }
    f.join(" ")
}

/// Every invariant of make-move on `pos`.
pub fn check_moves(pos: &Position, st: &mut MakeMoveTarget) -> Result<(), String> {
    let total = pos.total_counters();
    let moves = pos.legal_moves();
    let letters = pos.variant().is_choro() && pos.width() == 8;
    if pos.has_legal_move() == moves.is_empty() {
        return Err(format!(
            "has_legal_move {} with {} moves",
            pos.has_legal_move(),
            moves.len()
        ));
    }
    match pos.outcome() {
        Some(_) if !moves.is_empty() => return Err("an outcome with legal moves".into()),
        None if moves.is_empty() => return Err("no outcome without a legal move".into()),
        _ => {}
    }
    if moves.is_empty() {
        st.no_move += 1;
    }
    let mut seen = HashSet::new();
    for (i, (m, child)) in moves.iter().enumerate() {
        st.children += 1;
        let shown = pos.restyle(*m);
        if !seen.insert(*m) {
            return Err(format!("move {shown} listed twice"));
        }
        if shown.uses_letters() != letters {
            return Err(format!("move {shown} not in the position's style"));
        }
        if child.total_counters() != total {
            return Err(format!(
                "move {shown}: {} counters after, {total} before",
                child.total_counters()
            ));
        }
        let split = child.material(Side::A) + child.material(Side::B);
        let stores = child.stores();
        if split + stores[0] as u32 + stores[1] as u32 != total {
            return Err(format!(
                "move {shown}: material and stores do not add up to {total}"
            ));
        }
        if pos.variant().is_choro() && stores != [0, 0] {
            return Err(format!("move {shown}: a Choro position with stores"));
        }
        let before = pos.stores();
        if stores[0] < before[0] || stores[1] < before[1] {
            return Err(format!("move {shown}: a store shrank"));
        }
        if child.variant() != pos.variant() || child.width() != pos.width() {
            return Err(format!("move {shown}: code or width changed"));
        }
        if child.ply() != pos.ply() + 1 {
            return Err(format!(
                "move {shown}: ply {} after {}",
                child.ply(),
                pos.ply()
            ));
        }
        let text = child.to_string();
        if child.race().is_some_and(|r| r.tick > MAX_TICK) {
            // The parser bounds the race's tick as it does the ply.
            match text.parse::<Position>() {
                Err(PositionError::Race(m)) if m.starts_with("bad tick") => continue,
                other => {
                    return Err(format!(
                        "move {shown}: child '{text}' past MAX_TICK: {other:?}"
                    ))
                }
            }
        }
        if child.ply() > MAX_PLY {
            // The parser bounds the ply; only a child of a position at the
            // bound passes it.
            match text.parse::<Position>() {
                Err(PositionError::Ply(_)) => continue,
                other => {
                    return Err(format!(
                        "move {shown}: child '{text}' past MAX_PLY: {other:?}"
                    ))
                }
            }
        }
        let back: Position = text
            .parse()
            .map_err(|e| format!("move {shown}: child string '{text}' rejected: {e}"))?;
        if back != *child {
            return Err(format!(
                "move {shown}: child string '{text}' reads back differently \
                 (hash or masks kept incrementally differ from a fresh position)"
            ));
        }
        if back.to_string() != text {
            return Err(format!("move {shown}: child string not a fixed point"));
        }
        // Re-play through the move string (sampled: each re-play generates
        // the moves again).
        if i < REPLAY_SAMPLE || i % (moves.len() / REPLAY_SAMPLE + 1) == 0 {
            st.replayed += 1;
            for form in [shown, m.with_letters(false)] {
                let ms = form.to_string();
                match pos.parse_move(&ms) {
                    Ok((m2, c2)) => {
                        if m2 != *m || c2 != *child {
                            return Err(format!("'{ms}' re-played gives {m2} and another child"));
                        }
                        if m2.to_string() != shown.to_string() {
                            return Err(format!("'{ms}' re-played is written '{m2}'"));
                        }
                    }
                    Err(e) => return Err(format!("'{ms}' of the move list rejected: {e}")),
                }
            }
            // Proper prefixes are incomplete (or moves of their own).
            for k in 1..m.len() {
                let mut p: Move = *m;
                p.truncate(k);
                match pos.play(&p) {
                    Err(MoveError::Incomplete(_)) => {}
                    Ok(c) if seen_or_listed(&moves, &p, &c) => {}
                    other => {
                        return Err(format!(
                            "prefix {} of {shown}: {other:?}, expected incomplete",
                            pos.restyle(p)
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

fn seen_or_listed(moves: &[(Move, Position)], m: &Move, c: &Position) -> bool {
    moves.iter().any(|(x, p)| x == m && p == c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffling_counts_at_the_edge_of_the_range_does_not_overflow() {
        // A base that an earlier mutation left with a count of u32::MAX.
        let s = "acholi:8 4294967295,4294967295,1/2,3 b m 14";
        for seed in 0..1000 {
            let out = shuffle_counts(&mut Rng::new(seed), s);
            assert!(out.starts_with("acholi:8 "), "{out}");
        }
    }
}
