//! The state of a simultaneous opening (RULINGS 8) kept in a `Position`:
//! the first player's blind start while the second chooses, and, while the
//! two opening moves run in lockstep, each racer's hand, next hole, lap and
//! lap count, with the tick and who acts next in it.
//!
//! The rules that move a race on live in `rules::race`; this is data, with
//! its text form (`RULES.md`, "Position strings").

use crate::types::geometry;
use crate::types::moves::Token;
use crate::types::Variant;
use std::fmt;

/// A race is drawn when a racer's opening move passes this many laps: the
/// lap budget of RULINGS 2 (`rules::LAP_BUDGET`, which a test checks).
pub(crate) const MAX_LAPS: u32 = 100_000;

/// The most holds a racer may have (`RaceHolds`, RULES.md 8.10): 0 is the
/// lockstep race; a hold costs the holder a tick of his lead, and eight
/// already let a racer wait out most of the other's opening move.
pub const MAX_HOLDS: u8 = 8;

/// The kind of lap a racer is sowing. Counter-clockwise unless noted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum RaceLap {
    /// A counter-clockwise lap: first lift, relay or increment.
    #[default]
    Ccw,
    /// Lango: a clockwise lap from a turning-base hole (its origin).
    LangoCw,
    /// Acholi: a preliminary attack (or its clockwise-again) from its origin.
    Attack,
    /// Acholi: the clockwise relay lap from i or k during the move.
    MidCw,
}

impl RaceLap {
    pub(crate) fn is_clockwise(self) -> bool {
        self != RaceLap::Ccw
    }
    fn name(self) -> &'static str {
        match self {
            RaceLap::Ccw => "ccw",
            RaceLap::LangoCw => "cw",
            RaceLap::Attack => "attack",
            RaceLap::MidCw => "midcw",
        }
    }
    fn allowed(self, v: Variant) -> bool {
        match self {
            RaceLap::Ccw => true,
            RaceLap::LangoCw => v == Variant::Lango,
            RaceLap::Attack | RaceLap::MidCw => v == Variant::Acholi,
        }
    }
}

/// The decision a racer has reached: the counters in his hand are the relay
/// or the increment, not yet sown.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RaceChoice {
    /// His lap ended on an occupied turning-base hole that does not capture:
    /// he has lifted it and may sow clockwise (`+`) or on (`-`).
    Relay,
    /// Lango: a clockwise lap captured; the increment may be sown clockwise
    /// again (`+`) or by the normal Lango rule (`-`).
    Again,
    /// Acholi: a preliminary attack captured; again (`+`), counter-clockwise
    /// as the move proper (`-`), or leave it and start anew (`=start`).
    Attack,
}

impl RaceChoice {
    fn name(self) -> &'static str {
        match self {
            RaceChoice::Relay => "relay",
            RaceChoice::Again => "again",
            RaceChoice::Attack => "attack",
        }
    }
    fn allowed(self, v: Variant) -> bool {
        match self {
            RaceChoice::Relay => v != Variant::Didinga,
            RaceChoice::Again => v == Variant::Lango,
            RaceChoice::Attack => v == Variant::Acholi,
        }
    }
}

/// What a racer is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum RacerState {
    /// Finished his opening move (or not started, outside a race).
    #[default]
    Done,
    /// Sowing: `hand` counters left, next drop in `at`.
    Sowing(RaceLap),
    /// At a decision, `hand` counters lifted or captured, last drop in `at`.
    Deciding(RaceChoice),
}

/// One player's opening move in a race. Holes are the player's own loop
/// positions (`types::geometry`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Racer {
    /// Laps begun so far in this opening move (RULINGS 2 counts them).
    pub laps: u32,
    /// Where this racer is in his opening move.
    pub state: RacerState,
    /// Counters in his hand (left to sow in the current lap).
    pub hand: u8,
    /// Sowing: the hole of the next drop. Deciding: the hole of the last drop.
    pub at: u8,
    /// Where the counters of the current lap chain were lifted from (the
    /// hole after it receives a Didinga or Acholi increment; a clockwise
    /// lap's base hole).
    pub origin: u8,
    /// He has dropped a counter into his own front row this opening move.
    pub front: bool,
    /// Deciding `Again`: the increment is a single counter (RULINGS 4).
    pub single: bool,
    /// Holds left (`RaceHolds`, low 7 bits: ticks he may still let pass
    /// without dropping; 0 outside a race with holds and once he is done)
    /// and, in bit 7, whether he holds in the tick being played. One byte,
    /// so that a `Position` stays within its size.
    pub(crate) hold: u8,
}

impl Racer {
    pub(crate) fn is_done(&self) -> bool {
        self.state == RacerState::Done
    }
    /// Equal in everything but the lap count.
    pub(crate) fn same_but_laps(&self, o: &Racer) -> bool {
        Racer { laps: 0, ..*self } == Racer { laps: 0, ..*o }
    }
    pub(crate) fn key(&self) -> u64 {
        let st = match self.state {
            RacerState::Done => 0u64,
            RacerState::Sowing(l) => 1 + l as u64,
            RacerState::Deciding(c) => 8 + c as u64,
        };
        st | (self.hand as u64) << 8
            | (self.at as u64) << 16
            | (self.origin as u64) << 24
            | (self.front as u64) << 32
            | (self.single as u64) << 33
            | (self.hold as u64) << 34
    }

    /// Holds left.
    #[inline]
    pub fn holds(&self) -> u8 {
        self.hold & 0x7f
    }
    /// Whether he holds in the tick being played (chosen at its start).
    #[inline]
    pub fn held(&self) -> bool {
        self.hold & 0x80 != 0
    }
    #[inline]
    pub(crate) fn set_holds(&mut self, n: u8) {
        self.hold = self.hold & 0x80 | n & 0x7f;
    }
    #[inline]
    pub(crate) fn set_held(&mut self, b: bool) {
        self.hold = self.hold & 0x7f | (b as u8) << 7;
    }

    /// Whether he chooses drop or hold at the start of a tick: he still
    /// sows and has a hold left.
    #[inline]
    pub(crate) fn may_hold(&self) -> bool {
        self.holds() > 0 && matches!(self.state, RacerState::Sowing(_))
    }
}

/// A simultaneous opening in progress. Default (all zero) outside one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Race {
    /// A's and B's opening moves.
    pub racers: [Racer; 2],
    /// The tick being played, from 1; A drops first in odd ticks.
    pub tick: u32,
    /// How many of this tick's two turns to drop have been taken: 0 or 1
    /// while it runs; 1 or 2 at a decision (the decider's turn included).
    pub stage: u8,
    /// Phase `s1`: A's blind start, which B's engine must not look at.
    pub blind: Option<Token>,
}

impl Race {
    /// The racer who drops at this tick and stage: A first in odd ticks.
    #[inline]
    pub fn turn(tick: u32, stage: u8) -> usize {
        ((tick & 1 == 0) != (stage == 1)) as usize
    }

    /// The player who finished first, while the other still sows.
    pub fn first_finisher(&self) -> Option<crate::Side> {
        match (self.racers[0].is_done(), self.racers[1].is_done()) {
            (true, false) => Some(crate::Side::A),
            (false, true) => Some(crate::Side::B),
            _ => None,
        }
    }

    /// Hash of everything but the lap counts and the tick (its parity kept).
    pub(crate) fn key(&self) -> u64 {
        let mix = crate::rng::splitmix64;
        let blind = match self.blind {
            None => 0,
            Some(Token::Lift(n)) => 0x100 | n as u64,
            Some(Token::Clockwise(n)) => 0x200 | n as u64,
            Some(_) => 0x300,
        };
        mix(self.racers[0].key() ^ 0xa11ce)
            .wrapping_add(mix(self.racers[1].key() ^ 0xb0b << 40))
            .wrapping_add(mix(0x7ace
                ^ (self.tick as u64 & 1) << 20
                ^ (self.stage as u64) << 24
                ^ blind << 32))
    }
}

/// Text of a hole: a Driberg letter on 8-wide boards, a number otherwise.
pub(crate) fn hole_name(p: u8, w: u8) -> String {
    let n = geometry::number_of_pos(p, w);
    if w == 8 {
        ((b'a' + n - 1) as char).to_string()
    } else {
        n.to_string()
    }
}

fn parse_hole(s: &str, w: u8) -> Option<u8> {
    let n = if w == 8 && s.len() == 1 && s.as_bytes()[0].is_ascii_lowercase() {
        s.as_bytes()[0] - b'a' + 1
    } else {
        let n: u8 = s.parse().ok()?;
        if s.starts_with('+') || s.starts_with('0') {
            return None;
        }
        n
    };
    (1..=2 * w)
        .contains(&n)
        .then(|| geometry::pos_of_number(n, w))
}

/// A racer in a position string (`RULES.md`, "Position strings"):
/// `done`, `lap=K,hand=N,next=H,origin=H,front=F,laps=N` or
/// `decide=C,hand=N,at=H,origin=H,front=F,single=F,laps=N`, then, in a race
/// with holds, `,holds=N` (holds left, if any) and `,held=1` (he holds in
/// this tick), each written only when not zero.
pub(crate) struct RacerText<'a>(pub &'a Racer, pub u8);

impl fmt::Display for RacerText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, w) = (self.0, self.1);
        match r.state {
            RacerState::Done => write!(f, "done"),
            RacerState::Sowing(l) => write!(
                f,
                "lap={},hand={},next={},origin={},front={},laps={}",
                l.name(),
                r.hand,
                hole_name(r.at, w),
                hole_name(r.origin, w),
                r.front as u8,
                r.laps
            ),
            RacerState::Deciding(c) => write!(
                f,
                "decide={},hand={},at={},origin={},front={},single={},laps={}",
                c.name(),
                r.hand,
                hole_name(r.at, w),
                hole_name(r.origin, w),
                r.front as u8,
                r.single as u8,
                r.laps
            ),
        }?;
        if r.holds() > 0 && !r.is_done() {
            write!(f, ",holds={}", r.holds())?;
        }
        if r.held() {
            f.write_str(",held=1")?;
        }
        Ok(())
    }
}

/// Read a racer written by [`RacerText`]; the error names what is wrong.
pub(crate) fn parse_racer(s: &str, v: Variant, w: u8, budget: u32) -> Result<Racer, String> {
    if s == "done" {
        return Ok(Racer::default());
    }
    let mut parts: Vec<&str> = s.split(',').collect();
    // The items of a race with holds, at the end, each only when not zero.
    let mut r = Racer::default();
    if let Some(h) = parts.last().and_then(|p| p.strip_prefix("held=")) {
        if h != "1" {
            return Err(format!("bad held '{h}' (written only as held=1)"));
        }
        r.set_held(true);
        parts.pop();
    }
    if let Some(h) = parts.last().and_then(|p| p.strip_prefix("holds=")) {
        let n = h
            .parse()
            .ok()
            .filter(|n| (1..=MAX_HOLDS).contains(n))
            .ok_or_else(|| format!("bad holds '{h}' (1..{MAX_HOLDS}; 0 is left out)"))?;
        r.set_holds(n);
        parts.pop();
    }
    let deciding = s.starts_with("decide=");
    let keys: &[&str] = if deciding {
        &["decide", "hand", "at", "origin", "front", "single", "laps"]
    } else {
        &["lap", "hand", "next", "origin", "front", "laps"]
    };
    if parts.len() != keys.len() {
        return Err(format!(
            "expected {} items ({}[,holds=N][,held=1])",
            keys.len(),
            keys.join(",")
        ));
    }
    for (part, key) in parts.iter().zip(keys) {
        let val = part
            .strip_prefix(key)
            .and_then(|x| x.strip_prefix('='))
            .ok_or_else(|| format!("expected {key}=..., got '{part}'"))?;
        let bad = || format!("bad {key} '{val}'");
        match *key {
            "lap" => {
                let l = [
                    RaceLap::Ccw,
                    RaceLap::LangoCw,
                    RaceLap::Attack,
                    RaceLap::MidCw,
                ]
                .into_iter()
                .find(|l| l.name() == val)
                .filter(|l| l.allowed(v))
                .ok_or_else(bad)?;
                r.state = RacerState::Sowing(l);
            }
            "decide" => {
                let c = [RaceChoice::Relay, RaceChoice::Again, RaceChoice::Attack]
                    .into_iter()
                    .find(|c| c.name() == val)
                    .filter(|c| c.allowed(v))
                    .ok_or_else(bad)?;
                r.state = RacerState::Deciding(c);
            }
            "hand" => {
                r.hand = val.parse().ok().filter(|&h| h > 0).ok_or_else(bad)?;
            }
            "next" | "at" => r.at = parse_hole(val, w).ok_or_else(bad)?,
            "origin" => r.origin = parse_hole(val, w).ok_or_else(bad)?,
            "front" | "single" => {
                let b = match val {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad()),
                };
                if *key == "front" {
                    r.front = b;
                } else {
                    r.single = b;
                }
            }
            _ => {
                r.laps = val
                    .parse()
                    .ok()
                    .filter(|&n| (1..=budget).contains(&n))
                    .ok_or_else(bad)?;
            }
        }
    }
    // A single-counter increment (RULINGS 4) is one counter deciding
    // `again`: the rules sow it as one, so another hand would lose counters.
    if r.single && (r.state != RacerState::Deciding(RaceChoice::Again) || r.hand != 1) {
        return Err("single=1 only when deciding again with hand=1".into());
    }
    // A racer who holds in this tick has not dropped in it.
    if r.held() && deciding {
        return Err("held=1 only for a racer still sowing".into());
    }
    Ok(r)
}
