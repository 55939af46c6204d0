//! The position string (RULES.md, "Position string").
//!
//! Choro: `<code>:<W> <row3>/<row2>/<row1>/<row0> <side> <phase> [<ply>]`
//! Adjiboto: `adjiboto <north>/<south> <side> <histA>/<histB> <storeA>/<storeB> [<ply>]`
//! Rows are listed north to south, holes west to east, counts separated by commas.

use super::error::{PositionError, MAX_PLY, MAX_TICK};
use super::position::Position;
use super::race::{self, Race, RacerState, RacerText};
use crate::types::geometry;
use crate::types::moves::Token;
use crate::types::packed::Loop;
use crate::types::AdjHistory;
use crate::types::{Phase, Side, Variant};
use std::fmt;
use std::str::FromStr;

/// The lines of a data file of `positions/` that hold data, each with its
/// 1-based number, trimmed: blank lines and comment lines (the first
/// non-blank character `#`) are left out. A `#` later in a line is no
/// comment: a harness sends a position file's lines as they are.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A position list (`positions/openings/*.txt`): one complete position
/// string on each data line ([`data_lines`]). Each position comes with its
/// line number; an error gives the number of the first bad line.
pub fn parse_list(text: &str) -> Result<Vec<(usize, Position)>, (usize, PositionError)> {
    data_lines(text)
        .map(|(n, l)| l.parse().map(|p| (n, p)).map_err(|e| (n, e)))
        .collect()
}

fn parse_rows(s: &str, rows: usize, len: usize) -> Result<Vec<Vec<u8>>, PositionError> {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != rows {
        return Err(PositionError::Rows(rows, parts.len()));
    }
    parts
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let cells: Vec<&str> = row.split(',').collect();
            if cells.len() != len {
                return Err(PositionError::RowLength(r + 1, len, cells.len()));
            }
            cells
                .iter()
                .enumerate()
                .map(|(h, c)| {
                    c.parse::<u8>().map_err(|_| {
                        PositionError::Count(r + 1, h + 1, c.chars().take(20).collect())
                    })
                })
                .collect()
        })
        .collect()
}

fn parse_side(s: &str) -> Result<Side, PositionError> {
    match s {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(PositionError::Side(s.chars().take(20).collect())),
    }
}

fn parse_hist(s: &str) -> Result<AdjHistory, PositionError> {
    let mut h = AdjHistory::default();
    if s == "-" {
        return Ok(h);
    }
    if s.is_empty() || s.len() > 5 {
        return Err(PositionError::History(s.chars().take(20).collect()));
    }
    for c in s.bytes() {
        if !(b'1'..=b'5').contains(&c) {
            return Err(PositionError::History(s.chars().take(20).collect()));
        }
        h = h.push(c - b'0');
    }
    Ok(h)
}

/// Whether Adjiboto's opening histories fit `side` to move. The players
/// alternate, so they have played equally often, or the one not to move
/// once more (either may have begun: a position string may give B the
/// game's first move); a history keeps only the first five moves (10.6),
/// so two full ones fit either side. (`11111/-` or `12/1234` with A to move
/// are no position of a game.)
fn turns_fit(hist: [AdjHistory; 2], side: Side) -> bool {
    let (a, b) = (hist[0].len(), hist[1].len());
    match side {
        _ if a == 5 && b == 5 => true,
        Side::A => b == a || b == a + 1,
        Side::B => a == b || a == b + 1,
    }
}

/// A's blind start in phase `s1`: a start he could choose on this board.
fn parse_blind(s: &str, v: Variant, w: u8, a: &Loop) -> Result<Token, PositionError> {
    let bad = |why: &str| {
        PositionError::Race(format!(
            "blind start '{}': {why}",
            s.chars().take(20).collect::<String>()
        ))
    };
    let m: crate::types::moves::Move = s.parse().map_err(|_| bad("not a start"))?;
    let (tok, n) = match (m.len(), m.token(0)) {
        (1, Some(t @ Token::Lift(n))) => (t, n),
        (1, Some(t @ Token::Clockwise(n))) if v == Variant::Acholi => (t, n),
        _ => return Err(bad("not an opening start of this code")),
    };
    if m.uses_letters() && w != 8 {
        return Err(bad("letters name holes only on 8-wide boards"));
    }
    if n > 2 * w {
        return Err(bad("no such hole"));
    }
    let h = geometry::pos_of_number(n, w);
    let ok = match tok {
        Token::Clockwise(_) => h == geometry::K_POS,
        _ if v == Variant::Lango => n <= 2,
        _ => !geometry::is_front(h, w),
    };
    if !ok {
        return Err(bad("not an opening start of this code"));
    }
    if a.get(h) < 2 {
        return Err(bad("the hole holds fewer than 2 counters"));
    }
    Ok(tok)
}

/// The race fields of phases `r` and `rx` (`over`): `<tick>.<stage> <racer
/// A> <racer B>`. At `r` the side to move is the racer at a decision; at
/// `rx` a racer has begun one lap more than the budget allows, or the race
/// was found to cycle.
fn parse_race(
    f: &[&str],
    v: Variant,
    w: u8,
    side: Side,
    over: bool,
) -> Result<Race, PositionError> {
    let err = |s: String| PositionError::Race(s);
    let tick = f[0]
        .split_once('.')
        .and_then(|(t, s)| Some((t.parse::<u32>().ok()?, s.parse::<u8>().ok()?)))
        // The tick is bounded as the ply is: a race from any accepted
        // state ends (lap cap, cycle) long before its tick count overflows.
        .filter(|&(t, s)| (1..=MAX_TICK).contains(&t) && s <= 2);
    let bad_tick = || {
        err(format!(
            "bad tick '{}' (expected <tick>.<stage>: tick 1..{MAX_TICK}, stage 1 or 2, or 0 in a drawn race)",
            f[0].chars().take(20).collect::<String>()
        ))
    };
    let (tick, stage) = tick.ok_or_else(bad_tick)?;
    // Stage 0 outside a drawn race is a tick's choice (RULES.md 8.10),
    // which only a race with holds has.
    let holding = |r: &str| r.contains(",holds=") || r.contains(",held=");
    if stage == 0 && !over && !holding(f[1]) && !holding(f[2]) {
        return Err(bad_tick());
    }
    let mut racers = [race::Racer::default(); 2];
    for (i, r) in racers.iter_mut().enumerate() {
        *r = race::parse_racer(f[1 + i], v, w, race::MAX_LAPS + over as u32)
            .map_err(|e| err(format!("racer {}: {e}", if i == 0 { 'A' } else { 'B' })))?;
    }
    if racers.iter().any(|r| r.held()) && !over && stage == 0 && side == Side::A {
        return Err(err(
            "at a tick's choice A chooses first: nobody holds yet".into()
        ));
    }
    if over {
        if racers.iter().all(|r| r.is_done()) {
            return Err(err("a drawn race has a racer still sowing".into()));
        }
        return Ok(Race {
            racers,
            tick,
            stage,
            blind: None,
        });
    }
    let me = &racers[side.index()];
    if stage == 0 {
        // A tick's choice (RULES.md 8.10): both still sow, the side to move
        // has a hold left and has not chosen; B chooses after A, if A had
        // a choice, without seeing it.
        if racers
            .iter()
            .any(|r| !matches!(r.state, RacerState::Sowing(_)))
        {
            return Err(err(format!(
                "at a tick's choice ({tick}.0) both racers still sow"
            )));
        }
        if !me.may_hold() || me.held() {
            return Err(err(format!(
                "{side}, to move at a tick's choice ({tick}.0), has no hold left to choose"
            )));
        }
        return Ok(Race {
            racers,
            tick,
            stage,
            blind: None,
        });
    }
    if !matches!(me.state, RacerState::Deciding(_)) {
        return Err(err(format!("{side}, to move, is not at a decision")));
    }
    if matches!(racers[1 - side.index()].state, RacerState::Deciding(_)) {
        return Err(err("only the side to move can be at a decision".into()));
    }
    if Race::turn(tick, stage - 1) != side.index() {
        return Err(err(format!("{side} does not drop at tick {tick}.{stage}")));
    }
    Ok(Race {
        racers,
        tick,
        stage,
        blind: None,
    })
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Position, PositionError> {
        let f: Vec<&str> = s.split_whitespace().collect();
        if f.is_empty() {
            return Err(PositionError::Empty);
        }
        let (vname, wtext) = match f[0].split_once(':') {
            Some((v, w)) => (v, Some(w)),
            None => (f[0], None),
        };
        let variant: Variant = vname
            .parse()
            .map_err(|_| PositionError::Variant(vname.chars().take(20).collect()))?;
        let width = match wtext {
            Some(w) => w
                .parse::<u8>()
                .map_err(|_| PositionError::BadWidth(w.chars().take(20).collect()))?,
            None => variant.default_width(),
        };
        if !variant.widths().contains(&width) {
            return Err(PositionError::Width(variant, width));
        }
        // Too many fields: say so only if the string is complete without
        // the extra words (with or without its optional ply); otherwise
        // the fault is in the fields themselves, and the first one is named.
        let most = match variant {
            Variant::Adjiboto => 6,
            _ if matches!(f.get(3), Some(&"r") | Some(&"rx")) => 8,
            _ => 5,
        };
        if f.len() > most {
            let complete = f[..most].join(" ").parse::<Position>();
            let cut = match complete {
                Ok(_) => most,
                Err(_) if f[..most - 1].join(" ").parse::<Position>().is_ok() => most - 1,
                Err(e) => return Err(e),
            };
            let extra = f[cut..].join(" ");
            let clipped: String = extra.chars().take(40).collect();
            let more = if clipped.len() < extra.len() {
                "..."
            } else {
                ""
            };
            return Err(PositionError::Trailing(cut, format!("{clipped}{more}")));
        }
        let ply = |i: usize| -> Result<u32, PositionError> {
            match f.get(i) {
                None => Ok(0),
                Some(t) => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= MAX_PLY)
                    .ok_or_else(|| PositionError::Ply(t.chars().take(20).collect())),
            }
        };
        let mut loops = [Loop::default(); 2];
        if variant.is_choro() {
            let racing = matches!(f.get(3), Some(&"r") | Some(&"rx"));
            let fields = if racing { [7, 8] } else { [4, 5] };
            if !fields.contains(&f.len()) {
                return Err(PositionError::Fields(fields[1], f.len()));
            }
            let rows = parse_rows(f[1], 4, width as usize)?;
            let total: u32 = rows.iter().flatten().map(|&c| c as u32).sum();
            if total > 8 * width as u32 {
                return Err(PositionError::TooMany(total, 8 * width as u32));
            }
            for (i, row) in rows.iter().enumerate() {
                let r = 3 - i as u8;
                for (c, &n) in row.iter().enumerate() {
                    let (side, p) = geometry::hole_at(r, c as u8, width);
                    loops[side.index()].set(p, n);
                }
            }
            let side = parse_side(f[2])?;
            let mut race = Race::default();
            // `s2,holds=N` and `s1:<start>,holds=N`: a race with holds
            // (RULES.md 8.10, 11.4); left out, no holds.
            let (ptok, holds) = match f[3].split_once(",holds=") {
                Some((p, h)) if p == "s2" || p.starts_with("s1:") => {
                    let n = h
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=race::MAX_HOLDS).contains(n))
                        .ok_or_else(|| {
                            PositionError::Race(format!(
                                "bad holds '{}' (1..{}; 0 is left out)",
                                h.chars().take(20).collect::<String>(),
                                race::MAX_HOLDS
                            ))
                        })?;
                    (p, n)
                }
                _ => (f[3], 0),
            };
            race.racers[0].set_holds(holds);
            race.racers[1].set_holds(holds);
            let phase = match ptok {
                "o2" => Phase::Opening2,
                "o1" => Phase::Opening1,
                "m" => Phase::Main,
                "s2" => Phase::Blind2,
                t @ ("r" | "rx") => {
                    let over = t == "rx";
                    race = parse_race(&f[4..7], variant, width, side, over)?;
                    let hands: u32 = race.racers.iter().map(|r| r.hand as u32).sum();
                    if total + hands > 8 * width as u32 {
                        return Err(PositionError::TooMany(total + hands, 8 * width as u32));
                    }
                    if over {
                        Phase::RaceOver
                    } else {
                        Phase::Race
                    }
                }
                t => match t.strip_prefix("s1:") {
                    Some(start) => {
                        race.blind = Some(parse_blind(start, variant, width, &loops[0])?);
                        Phase::Blind1
                    }
                    None => return Err(PositionError::Phase(t.chars().take(20).collect())),
                },
            };
            let wants = match phase {
                Phase::Blind2 => Some(Side::A),
                Phase::Blind1 => Some(Side::B),
                _ => None,
            };
            if wants.is_some_and(|w| w != side) {
                return Err(PositionError::Race(format!(
                    "phase {} is {}'s choice, not {}'s",
                    phase.token(),
                    wants.unwrap_or(side),
                    side
                )));
            }
            let mut p = Position::assemble(
                variant,
                width,
                loops,
                side,
                phase,
                [0, 0],
                [AdjHistory::default(); 2],
                ply(if racing { 7 } else { 4 })?,
            );
            p.race = race;
            p.rehash();
            Ok(p)
        } else {
            if f.len() != 5 && f.len() != 6 {
                return Err(PositionError::Fields(6, f.len()));
            }
            let rows = parse_rows(f[1], 2, 5)?;
            for c in 0..5u8 {
                loops[0].set(9 - c, rows[0][c as usize]);
                loops[0].set(c, rows[1][c as usize]);
            }
            let side = parse_side(f[2])?;
            let (ha, hb) = f[3]
                .split_once('/')
                .ok_or_else(|| PositionError::History(f[3].chars().take(20).collect()))?;
            let hist = [parse_hist(ha)?, parse_hist(hb)?];
            if !turns_fit(hist, side) {
                return Err(PositionError::Turns(f[3].chars().take(20).collect(), side));
            }
            let stores = f[4]
                .split_once('/')
                .and_then(|(a, b)| Some([a.parse::<u8>().ok()?, b.parse::<u8>().ok()?]))
                .ok_or_else(|| PositionError::Stores(f[4].chars().take(20).collect()))?;
            // Summed from the rows: `Loop::total` holds only for a board's
            // 100 counters at most.
            let total = rows.iter().flatten().map(|&c| c as u32).sum::<u32>()
                + stores[0] as u32
                + stores[1] as u32;
            if total > 100 {
                return Err(PositionError::TooMany(total, 100));
            }
            Ok(Position::assemble(
                variant,
                width,
                loops,
                side,
                Phase::Main,
                stores,
                hist,
                ply(5)?,
            ))
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |f: &mut fmt::Formatter<'_>, r: u8, n: u8| -> fmt::Result {
            for c in 0..n {
                if c > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", self.at(r, c))?;
            }
            Ok(())
        };
        if self.variant.is_choro() {
            write!(f, "{}:{} ", self.variant, self.width)?;
            for r in (0..4).rev() {
                row(f, r, self.width)?;
                if r > 0 {
                    f.write_str("/")?;
                }
            }
            write!(f, " {} {}", self.side.letter(), self.phase.token())?;
            match (self.phase, self.race.blind) {
                (Phase::Blind1, Some(t)) => {
                    let mut m = crate::types::moves::Move::empty(self.width == 8);
                    m.push(t);
                    write!(f, ":{m}")?;
                    if self.race.racers[0].holds() > 0 {
                        write!(f, ",holds={}", self.race.racers[0].holds())?;
                    }
                }
                (Phase::Blind2, _) if self.race.racers[0].holds() > 0 => {
                    write!(f, ",holds={}", self.race.racers[0].holds())?;
                }
                (Phase::Race | Phase::RaceOver, _) => {
                    let r = &self.race;
                    write!(
                        f,
                        " {}.{} {} {}",
                        r.tick,
                        r.stage,
                        RacerText(&r.racers[0], self.width),
                        RacerText(&r.racers[1], self.width)
                    )?;
                }
                _ => {}
            }
            write!(f, " {}", self.ply)
        } else {
            f.write_str("adjiboto ")?;
            row(f, 1, 5)?;
            f.write_str("/")?;
            row(f, 0, 5)?;
            write!(f, " {} ", self.side.letter())?;
            for (i, h) in self.hist.iter().enumerate() {
                if i == 1 {
                    f.write_str("/")?;
                }
                if h.is_empty() {
                    f.write_str("-")?;
                }
                for k in 0..h.len() {
                    write!(f, "{}", h.get(k))?;
                }
            }
            write!(f, " {}/{} {}", self.stores[0], self.stores[1], self.ply)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for v in Variant::ALL {
            for w in v.widths() {
                let p = Position::startpos(v, w).unwrap();
                let s = p.to_string();
                let q: Position = s.parse().unwrap();
                assert_eq!(p, q, "{s}");
                assert_eq!(q.to_string(), s);
            }
        }
        assert_eq!(
            Position::startpos(Variant::Didinga, 8).unwrap().to_string(),
            "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0"
        );
        assert_eq!(
            Position::startpos(Variant::Adjiboto, 5)
                .unwrap()
                .to_string(),
            "adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0"
        );
    }

    /// The ply of a child of any accepted string is counted without
    /// overflow (u32::MAX was accepted and wrapped to 0, a panic under
    /// overflow checks; found by the makemove fuzz target).
    #[test]
    fn the_ply_count_is_bounded() {
        let board = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
        let p: Position = format!("didinga:8 {board} a m {MAX_PLY}").parse().unwrap();
        assert_eq!(p.ply(), MAX_PLY);
        p.for_each_move(|_, c| assert_eq!(c.ply(), MAX_PLY + 1));
        for bad in ["1000000001", "4294967295", "4294967296"] {
            assert_eq!(
                format!("didinga:8 {board} a m {bad}").parse::<Position>(),
                Err(PositionError::Ply(bad.into()))
            );
        }
    }

    #[test]
    fn the_race_tick_is_bounded() {
        // Fuzz finding (race target): tick 4294967295 was accepted, and the
        // race's next tick overflowed.
        let race = |tick: u64| {
            format!(
                "lango:8 0,2,2,0,2,2,0,1/0,4,3,0,4,5,0,5/5,2,4,0,1,1,6,4/2,0,3,0,1,1,0,1 a r {tick}.1 \
                 decide=again,hand=3,at=j,origin=l,front=1,single=0,laps=9 done 5"
            )
        };
        for bad in [MAX_TICK as u64 + 1, u32::MAX as u64, 0] {
            let e = race(bad).parse::<Position>().unwrap_err();
            assert!(
                matches!(&e, PositionError::Race(m) if m.starts_with("bad tick")),
                "{bad}: {e}"
            );
        }
        // Near the bound (odd: A drops first) every decision plays on; a
        // child whose race went past the bound is written but, as a child
        // past MAX_PLY, not read back.
        let p: Position = race(MAX_TICK as u64 - 1).parse().unwrap();
        let moves = p.legal_moves();
        assert!(!moves.is_empty());
        let mut past = 0;
        for (_, child) in moves {
            match child.race().map(|r| r.tick) {
                Some(t) if t > MAX_TICK => {
                    past += 1;
                    let e = child.to_string().parse::<Position>().unwrap_err();
                    assert!(matches!(&e, PositionError::Race(m) if m.starts_with("bad tick")));
                }
                _ => assert_eq!(child.to_string().parse::<Position>().unwrap(), child),
            }
        }
        assert!(past > 0);
    }

    #[test]
    fn a_single_increment_is_one_counter_deciding_again() {
        // Fuzz finding (race target): single=1 with hand=3 was accepted, and
        // the decision `-` sowed one counter of the three: 62 counters of 64.
        let board =
            "lango:8 0,2,2,0,2,2,0,1/0,4,3,0,4,5,0,5/5,2,2,0,1,1,6,4/2,0,3,0,1,1,0,3 a r 31.1";
        let racer = |d: &str, hand: u8, single: u8| {
            format!(
                "{board} decide={d},hand={hand},at=j,origin=l,front=1,single={single},laps=9 done 5"
            )
        };
        for (d, hand) in [("again", 3), ("relay", 1)] {
            let e = racer(d, hand, 1).parse::<Position>().unwrap_err();
            assert!(
                e.to_string()
                    .contains("single=1 only when deciding again with hand=1"),
                "{e}"
            );
        }
        for (hand, single) in [(1, 1), (3, 0), (1, 0)] {
            let p: Position = racer("again", hand, single).parse().unwrap();
            for (m, child) in p.legal_moves() {
                assert_eq!(child.total_counters(), p.total_counters(), "{m} in {p}");
            }
        }
    }

    #[test]
    fn a_list_has_one_complete_string_a_line() {
        let a = "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0";
        let b = "adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0";
        let text = format!("# two positions\n\n{a}\n   # indented remark\n  {b}  \n");
        let list = parse_list(&text).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].0, list[0].1.to_string()), (3, a.to_string()));
        assert_eq!((list[1].0, list[1].1.to_string()), (5, b.to_string()));
        // A remark after the string is trailing text, not a comment.
        let e = parse_list(&format!("{a}\n{b} # remark\n")).unwrap_err();
        assert_eq!(e, (2, PositionError::Trailing(6, "# remark".into())));
        assert_eq!(parse_list("# nothing\n\n").unwrap(), vec![]);
    }

    #[test]
    fn names_trailing_text_after_a_complete_string() {
        let empty = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0";
        let race = "lango:8 0,2,2,0,2,2,0,2/3,4,3,0,4,3,1,3/3,1,3,4,0,3,4,3/0,0,2,2,0,2,2,0 a r 11.1 \
             decide=relay,hand=3,at=k,origin=k,front=1,single=0,laps=3 lap=ccw,hand=1,next=k,origin=g,front=1,laps=3";
        let long = "x".repeat(60);
        let cases = [
            (
                format!("didinga:8 {empty} a m 4 # a comment"),
                5,
                "# a comment",
            ),
            (format!("didinga:8 {empty} a m junk 7"), 4, "junk 7"),
            (format!("{race} 2 # tick 11"), 8, "# tick 11"),
            (format!("{race} moves a"), 7, "moves a"),
            (
                "adjiboto 1,1,1,1,1/1,1,1,1,1 a -/- 0/0 3 ;".to_string(),
                6,
                ";",
            ),
            (format!("didinga:8 {empty} a m 0 {long}"), 5, &long[..40]),
        ];
        for (text, fields, extra) in cases {
            let e = text.parse::<Position>().unwrap_err();
            let more = if extra.len() == 40 { "..." } else { "" };
            assert_eq!(
                e,
                PositionError::Trailing(fields, format!("{extra}{more}")),
                "{text}"
            );
            assert!(e.to_string().starts_with("trailing text '"), "{e}");
        }
        // Too many fields but not complete without them: the bad field is named.
        let e = format!("didinga:8 {empty} c m 0 junk")
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e, PositionError::Side("c".into()));
        let e = "didinga:8 1/1/1/1 a m 0 junk"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e, PositionError::RowLength(1, 8, 1));
        // One word in the place of the optional ply is read as the ply.
        let e = format!("didinga:8 {empty} a m junk")
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e, PositionError::Ply("junk".into()));
    }

    #[test]
    fn rejects_each_bad_field() {
        let bad = [
            ("", PositionError::Empty),
            ("foo 1", PositionError::Variant("foo".into())),
            ("lango:9 x a m", PositionError::Width(Variant::Lango, 9)),
            ("didinga:x", PositionError::BadWidth("x".into())),
            ("didinga:8 1/1/1/1", PositionError::Fields(5, 2)),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m",
                PositionError::Rows(4, 3),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m",
                PositionError::RowLength(3, 8, 7),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,y a m",
                PositionError::Count(4, 8, "y".into()),
            ),
            (
                "didinga:8 99,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m",
                PositionError::TooMany(99, 64),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 c m",
                PositionError::Side("c".into()),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a o3",
                PositionError::Phase("o3".into()),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m -1",
                PositionError::Ply("-1".into()),
            ),
            (
                "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m 1000000001",
                PositionError::Ply("1000000001".into()),
            ),
            (
                "adjiboto 1,1,1,1,1/1,1,1,1,1 a 6/- 0/0",
                PositionError::History("6".into()),
            ),
            (
                "adjiboto 1,1,1,1,1/1,1,1,1,1 a -/- 0",
                PositionError::Stores("0".into()),
            ),
            // The players alternate (RELIABILITY.md finding 36).
            (
                "adjiboto 10,10,10,10,10/10,10,10,10,10 a 11111/- 0/0",
                PositionError::Turns("11111/-".into(), Side::A),
            ),
            (
                "adjiboto 10,10,10,10,10/10,10,10,10,10 a 12/1234 0/0",
                PositionError::Turns("12/1234".into(), Side::A),
            ),
            (
                "adjiboto 10,10,10,10,10/10,10,10,10,10 b 1/123 0/0",
                PositionError::Turns("1/123".into(), Side::B),
            ),
            (
                "adjiboto 10,10,10,10,10/10,10,10,10,10 a 12345/1234 0/0",
                PositionError::Turns("12345/1234".into(), Side::A),
            ),
            (
                "adjiboto 10,10,10,10,10/10,10,10,10,10 b 1234/12345 0/0",
                PositionError::Turns("1234/12345".into(), Side::B),
            ),
        ];
        for (s, e) in bad {
            assert_eq!(s.parse::<Position>(), Err(e), "{s}");
        }
    }
}
