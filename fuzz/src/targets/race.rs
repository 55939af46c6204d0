//! The simultaneous opening's own inputs: position strings of phases `s2`,
//! `s1:<start>`, `r` and `rx` (the race, with its tick, stage and two racer
//! fields) and race decisions (moves of choices only: `+`, `-`, `=<start>`),
//! in races with holds too (`s2,holds=N`, a racer's `holds=`/`held=1`, a
//! tick's choice at stage 0 with its moves `.` and `_`; RULES.md 8.10).
//!
//! An input is a position string on its first line and, on the lines after
//! it, move strings to play there. Generated strings come from random play
//! of the Choro codes from the simultaneous start, stopped in the opening;
//! mutations edit one racer's `key=value` fields (kind of lap or decision,
//! hand, holes, front row, single, laps near the 100,000-lap cap), the
//! tick and stage, `r` and `rx`, or the board (counters moved, so totals
//! hold). Checks: a rejected string gives a short typed error; an accepted
//! one satisfies every invariant of the position target (round trip, fixed
//! point, a plain reading of the board) and of the makemove target (each
//! decision's child round-trips, is re-played through its string in both
//! hole forms, outcome and move list agree, counters in the hands
//! included); the side of a race position is its racer to decide; every
//! move string given either is rejected or names a listed move and its
//! child.

use super::makemove::{check_moves, shuffle_counts, MakeMoveTarget};
use super::position::{check_accepted, flip_field};
use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro_engine::{Opening, Phase, Position, RacerState, Variant};

pub const DICT: &[&str] = &[
    "r",
    "rx",
    "s2",
    "s1:a",
    "s1:~k",
    "s1:p",
    "s1:17",
    "done",
    "lap=ccw",
    "lap=cw",
    "lap=attack",
    "lap=midcw",
    "decide=relay",
    "decide=again",
    "decide=attack",
    "hand=0",
    "hand=255",
    "next=a",
    "at=p",
    "origin=16",
    "front=1",
    "single=1",
    "laps=100000",
    "laps=100001",
    "1.1",
    "0.0",
    "4294967295.2",
    "+",
    "-",
    "=",
    "=~k",
    "+-",
    ",",
    "=,",
    "s2,holds=2",
    ",holds=1",
    ",holds=8",
    ",holds=9",
    ",held=1",
    "3.0",
    ".",
    "_",
];

#[derive(Default)]
pub struct RaceTarget {
    /// The make-move checks and their counters.
    pub moves: MakeMoveTarget,
    pub accepted: u64,
    pub rejected: u64,
    /// Accepted positions per phase: `s2`, `s1`, `r`, `rx`, other.
    pub phases: [u64; 5],
    pub strings_tried: u64,
    pub strings_played: u64,
}

impl Target for RaceTarget {
    fn name(&self) -> &'static str {
        "race"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        2048
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        let pos = opening_position(rng);
        let mut s = pos.to_string();
        if rng.chance(1, 3) {
            s = racer_edit(rng, &s);
        }
        for _ in 0..rng.below(4) {
            s.push('\n');
            s.push_str(&decision(rng, &pos));
        }
        s.into_bytes()
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(base);
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let edited = match rng.below(10) {
            0..=5 => racer_edit(rng, first),
            6 => shuffle_counts(rng, first),
            7 => flip_field(rng, first),
            8 => {
                // Another decision string for the same position.
                let mut s = text.to_string();
                s.push('\n');
                match first.parse::<Position>() {
                    Ok(p) => s.push_str(&decision(rng, &p)),
                    Err(_) => s.push_str(&gen::move_string(rng)),
                }
                return s.into_bytes();
            }
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                return d;
            }
        };
        let mut s = edited;
        if !rest.is_empty() {
            s.push('\n');
            s.push_str(rest);
        }
        s.into_bytes()
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(input);
        let mut lines = text.split('\n');
        let first = lines.next().unwrap_or("");
        let pos = match first.parse::<Position>() {
            Ok(p) => p,
            Err(e) => {
                self.rejected += 1;
                let msg = e.to_string();
                if msg.len() > 160 {
                    return Err(format!("error message of {} bytes: {msg}", msg.len()));
                }
                return Ok(());
            }
        };
        self.accepted += 1;
        self.phases[match pos.phase() {
            Phase::Blind2 => 0,
            Phase::Blind1 => 1,
            Phase::Race => 2,
            Phase::RaceOver => 3,
            _ => 4,
        }] += 1;
        check_accepted(first, &pos)?;
        check_moves(&pos, &mut self.moves).map_err(|e| format!("{e}\n  in {pos}"))?;
        let legal = pos.legal_moves();
        if let (Phase::Race, Some(race)) = (pos.phase(), pos.race()) {
            let mover = race.racers[pos.side_to_move().index()];
            // A tick's choice (stage 0): the mover sows, with a hold left.
            let tick_choice = race.stage == 0 && mover.holds() > 0 && !mover.held();
            if !tick_choice && !matches!(mover.state, RacerState::Deciding(_)) {
                return Err(format!(
                    "race position whose side to move is not deciding ({:?}): {pos}",
                    mover.state
                ));
            }
        }
        for ms in lines {
            self.strings_tried += 1;
            if let Ok((m, child)) = pos.parse_move(ms) {
                self.strings_played += 1;
                if !legal.iter().any(|(x, c)| *x == m && *c == child) {
                    return Err(format!("'{ms}' played as {m}, not a listed move, in {pos}"));
                }
            }
        }
        Ok(())
    }

    fn stats(&self) -> String {
        format!(
            "accepted {} (s2 {} s1 {} r {} rx {} other {}) rejected {} move strings {} played {}; {}",
            self.accepted,
            self.phases[0],
            self.phases[1],
            self.phases[2],
            self.phases[3],
            self.phases[4],
            self.rejected,
            self.strings_tried,
            self.strings_played,
            self.moves.stats()
        )
    }
}

/// A position of random play from the simultaneous start of a Choro code,
/// taken while the opening lasts: mostly one at a race decision when the
/// game had any, else a blind choice or the race's end.
pub fn opening_position(rng: &mut Rng) -> Position {
    let v = *rng.pick(&[Variant::Didinga, Variant::Lango, Variant::Acholi]);
    let w = gen::width(rng, v);
    let Ok(mut pos) = Position::start(v, w, Opening::Simultaneous) else {
        return gen::any_position(rng);
    };
    // A race with holds, a third of the time (RULES.md 8.10).
    if rng.chance(1, 3) {
        let n = 1 + rng.below(3) as u8;
        pos = pos.with_race_holds(n).unwrap_or(pos);
    }
    let mut seen = vec![pos];
    while pos.phase().is_simultaneous() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos = legal[rng.below(legal.len())].1;
        seen.push(pos);
    }
    let races: Vec<Position> = seen
        .iter()
        .filter(|p| matches!(p.phase(), Phase::Race | Phase::RaceOver))
        .copied()
        .collect();
    if !races.is_empty() && rng.chance(3, 4) {
        races[rng.below(races.len())]
    } else {
        seen[rng.below(seen.len())]
    }
}

/// A race decision string: usually one of the legal ones spoiled a little,
/// else choices from the notation's tokens.
fn decision(rng: &mut Rng, pos: &Position) -> String {
    let legal = pos.legal_moves();
    if !legal.is_empty() && rng.chance(2, 3) {
        let mut s = pos.restyle(legal[rng.below(legal.len())].0).to_string();
        match rng.below(5) {
            0 => s.push(*rng.pick(&['+', '-', '='])),
            1 => {
                s.pop();
            }
            2 => s = s.to_uppercase(),
            _ => {}
        }
        return s;
    }
    let mut s = String::new();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 => s.push('+'),
            1 => s.push('-'),
            4 => s.push(*rng.pick(&['.', '_'])),
            2 => {
                s.push('=');
                if rng.chance(1, 3) {
                    s.push('~');
                }
                s.push_str(&gen::hole(rng, pos.width() == 8));
            }
            _ => {
                let letters = rng.chance(1, 2);
                s.push_str(&gen::hole(rng, letters));
            }
        }
    }
    s
}

/// The values one racer field key may take, in range and out.
fn value_for(rng: &mut Rng, key: &str, letters: bool) -> String {
    match key {
        "lap" => rng
            .pick(&["ccw", "cw", "attack", "midcw", "CCW", "up"])
            .to_string(),
        "decide" => rng
            .pick(&["relay", "again", "attack", "stop", ""])
            .to_string(),
        "hand" => match rng.below(4) {
            0 => rng.pick(mutate::EDGE_NUMBERS).to_string(),
            _ => rng.below(40).to_string(),
        },
        "next" | "at" | "origin" => gen::hole(rng, letters),
        "front" | "single" => rng.range(-1, 2).to_string(),
        "laps" => match rng.below(5) {
            0 => rng.pick(mutate::EDGE_NUMBERS).to_string(),
            1 => (99_998 + rng.below(5)).to_string(),
            _ => (1 + rng.below(30)).to_string(),
        },
        _ => rng.pick(mutate::EDGE_NUMBERS).to_string(),
    }
}

const KEYS: &[&str] = &[
    "lap", "decide", "hand", "next", "at", "origin", "front", "single", "laps",
];

/// Edit the race fields of a position string: a racer's `key=value`, the
/// tick and stage, the phase, or the side.
fn racer_edit(rng: &mut Rng, s: &str) -> String {
    let mut f: Vec<String> = s.split(' ').map(str::to_string).collect();
    if f.len() < 4 {
        return flip_field(rng, s);
    }
    let letters = f[0].ends_with(":8") || !f[0].contains(':');
    let racing = matches!(f[3].as_str(), "r" | "rx");
    if !racing || rng.chance(1, 10) {
        // Into the race (or out of it): the phase and its fields.
        f[3] = rng.pick(&["r", "rx", "s2", "s1:a", "m"]).to_string();
        if matches!(f[3].as_str(), "r" | "rx") && f.len() < 7 {
            let ply = f.pop().unwrap_or_default();
            f.push(format!("{}.{}", 1 + rng.below(30), rng.below(3)));
            for _ in 0..2 {
                f.push(random_racer(rng, letters));
            }
            f.push(ply);
        }
        return f.join(" ");
    }
    match rng.below(8) {
        0 => f[2] = if f[2] == "a" { "b".into() } else { "a".into() },
        1 => {
            // A racing phase may stand without its tick (a malformed input
            // the mutator made itself): nothing to edit then.
            if let Some(tick) = f.get_mut(4) {
                *tick = match rng.below(3) {
                    0 => format!("{}.{}", rng.pick(mutate::EDGE_NUMBERS), rng.range(-1, 3)),
                    _ => format!("{}.{}", 1 + rng.below(60), rng.below(4)),
                }
            }
        }
        2 => f[3] = if f[3] == "r" { "rx".into() } else { "r".into() },
        3 => {
            let k = 5 + rng.below(2);
            if k < f.len() {
                f[k] = random_racer(rng, letters);
            }
        }
        _ => {
            let k = 5 + rng.below(2);
            if k < f.len() {
                f[k] = edit_racer(rng, &f[k], letters);
            }
        }
    }
    f.join(" ")
}

/// A racer field of a random kind, mostly well formed.
fn random_racer(rng: &mut Rng, letters: bool) -> String {
    let keys: &[&str] = match rng.below(4) {
        0 => return "done".into(),
        1 => &["decide", "hand", "at", "origin", "front", "single", "laps"],
        _ => &["lap", "hand", "next", "origin", "front", "laps"],
    };
    keys.iter()
        .map(|k| format!("{k}={}", value_for(rng, k, letters)))
        .collect::<Vec<_>>()
        .join(",")
}

/// One `key=value` of a racer field changed, dropped, repeated or added.
fn edit_racer(rng: &mut Rng, racer: &str, letters: bool) -> String {
    if racer == "done" {
        return random_racer(rng, letters);
    }
    let mut kv: Vec<String> = racer.split(',').map(str::to_string).collect();
    let i = rng.below(kv.len());
    let key = kv[i].split('=').next().unwrap_or("").to_string();
    match rng.below(6) {
        0 => {
            kv.remove(i);
        }
        1 => {
            let d = kv[i].clone();
            kv.insert(i, d);
        }
        2 => {
            let k = *rng.pick(KEYS);
            kv.insert(i, format!("{k}={}", value_for(rng, k, letters)));
        }
        _ => kv[i] = format!("{key}={}", value_for(rng, &key, letters)),
    }
    kv.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_a_racing_phase_without_its_tick_does_not_panic() {
        // CI finding race-c7ed2ff6a67e273d: an earlier mutation left the
        // phase `r` with no tick after it, and the tick edit indexed past
        // the end of the fields.
        let s = "acholi:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a r";
        for seed in 0..1000 {
            let out = racer_edit(&mut Rng::new(seed), s);
            assert!(out.starts_with("acholi:8 "), "{out}");
        }
    }
}
