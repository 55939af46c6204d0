//! The simultaneous opening (RULINGS 8): blind starts, then the race.
//!
//! Both players choose an opening start without seeing the other's (phases
//! `s2` and `s1`: two plies, A's then B's). Then the two opening moves run
//! in lockstep, one drop per unfinished player per tick, A first in odd
//! ticks and B first in even ticks. Lifting takes no tick: both starts are
//! lifted before the first drops, and a relay hole is lifted in the step of
//! the drop that ends the lap. A lap end is resolved at once (RULINGS 2-6),
//! captures taking the opponent's holes as they stand at that instant. A
//! racer who reaches a decision stops the race there (phase `r`, the racer
//! to move): his choice is a ply of his own, and the race goes on from the
//! same instant. The first to finish moves first in the main phase. A racer
//! whose opening move passes the lap budget draws the game (`rx`).
//!
//! The race is played drop by drop on plain byte arrays: the other
//! player's drops and captures land between any two of a racer's drops, so
//! the lap-at-a-time sower of the other phases does not apply. Between
//! decisions a race is deterministic; Brent's algorithm on the whole state
//! at tick boundaries finds a race that cycles without waiting for the
//! budget (same verdict: a cycling race passes any budget).
//!
//! Clockwise options are judged on the board as it stands when they are
//! offered (the decider cannot see the future). A clockwise lap that, when
//! it ends, no longer captures (the other player's sowing changed the
//! board) ends like any lap: it stops in an empty hole, captures where a
//! counter-clockwise lap would, or relays (RULES.md, "Engine reading").

use super::{GenStats, MoveInfo, RaceStep, LAP_BUDGET};
use crate::board::race::{Race, RaceChoice, RaceLap, Racer, RacerState};
use crate::board::Position;
use crate::types::geometry::{self, facing};
use crate::types::moves::{Move, Token};
use crate::types::packed::Loop;
use crate::types::{Phase, Side, Variant};
use smallvec::SmallVec;

/// An option at a race decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Opt {
    Plus,
    Minus,
    /// Acholi: leave the increment in the attack hole, then this start.
    Leave(Token),
}

/// How a stretch of the race stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stop {
    /// A racer reached a decision with two or more options.
    Decision(Side),
    /// A tick begins in which a racer may hold (RULES.md 8.10): this one
    /// chooses first.
    Tick(Side),
    /// Both finished; this one first.
    Over(Side),
    /// A racer passed the lap budget.
    Drawn,
}

/// A race being played: the board as bytes, the racers, the clock.
#[derive(Clone)]
pub(crate) struct Sim {
    b: [[u8; 32]; 2],
    race: Race,
    variant: Variant,
    w: u8,
    len: u8,
    budget: u32,
    laps: u32,
    drops: u32,
    /// The choices of the tick at hand are made: play it (RULES.md 8.10).
    chosen: bool,
    /// When tracing, the board after each drop and each lap start.
    steps: Option<Vec<RaceStep>>,
}

/// Most steps a race trace records (a race may run to the lap budget).
pub const RACE_TRACE_STEPS: usize = 20_000;

impl Sim {
    fn new(pos: &Position, budget: u32) -> Sim {
        Sim {
            b: [pos.loops[0].to_bytes(), pos.loops[1].to_bytes()],
            race: pos.race,
            variant: pos.variant,
            w: pos.width,
            len: 2 * pos.width,
            budget,
            laps: 0,
            drops: 0,
            chosen: false,
            steps: None,
        }
    }

    /// Record the board as racer `s` left it, when tracing.
    #[cold]
    fn snap(&mut self, s: usize, drop: bool) {
        let board = self.b;
        if let Some(v) = &mut self.steps {
            if v.len() < RACE_TRACE_STEPS {
                v.push(RaceStep {
                    racer: side(s),
                    drop,
                    board,
                });
            }
        }
    }

    #[inline]
    fn next(&self, h: u8) -> u8 {
        geometry::next_pos(h, self.len)
    }

    #[inline]
    fn prev(&self, h: u8) -> u8 {
        geometry::prev_pos(h, self.len)
    }

    /// The opponent holes `s` takes if his lap ends in his occupied hole
    /// `l` (RULINGS 3, opening rules): `None` if `l` does not capture.
    fn capture_holes(&self, s: usize, l: u8, front: bool) -> Option<(u8, u8)> {
        let back_ok = self.variant != Variant::Lango && !front;
        if !geometry::is_front(l, self.w) && !back_ok {
            return None;
        }
        let (of, ob) = facing(l, self.w);
        let o = &self.b[1 - s];
        let takes = match self.variant {
            Variant::Lango => o[of as usize] > 0,
            _ => o[of as usize] > 0 && o[ob as usize] > 0,
        };
        takes.then_some((of, ob))
    }

    /// Whether a clockwise lap of `hand` counters by `s` from `first` would
    /// end in a capture on the board as it stands (how options are offered).
    fn cw_captures(&self, s: usize, first: u8, hand: u8, front: bool) -> bool {
        let mut own = self.b[s];
        let mut front = front;
        let mut h = first;
        for i in 0..hand {
            own[h as usize] += 1;
            front |= geometry::is_front(h, self.w);
            if i + 1 < hand {
                h = self.prev(h);
            }
        }
        // `capture_holes` reads only the opponent's holes.
        own[h as usize] >= 2 && self.capture_holes(s, h, front).is_some()
    }

    /// Begin a lap of racer `s`. False if it passes the lap budget.
    fn start_lap(&mut self, s: usize, first: u8, hand: u8, lap: RaceLap, origin: u8) -> bool {
        if self.steps.is_some() {
            self.snap(s, false);
        }
        let r = &mut self.race.racers[s];
        r.state = RacerState::Sowing(lap);
        r.hand = hand;
        r.at = first;
        r.origin = origin;
        r.single = false;
        r.laps += 1;
        self.laps += 1;
        r.laps <= self.budget
    }

    /// Lift hole `h` of `s` for a start (blind, or after an Acholi leave).
    fn start(&mut self, s: usize, t: Token) -> bool {
        match t {
            Token::Lift(n) => {
                let h = geometry::pos_of_number(n, self.w);
                let n = std::mem::take(&mut self.b[s][h as usize]);
                let first = self.next(h);
                self.start_lap(s, first, n, RaceLap::Ccw, h)
            }
            Token::Clockwise(n) => {
                let h = geometry::pos_of_number(n, self.w);
                let n = std::mem::take(&mut self.b[s][h as usize]);
                let first = self.prev(h);
                self.start_lap(s, first, n, RaceLap::Attack, h)
            }
            _ => unreachable!("a start is a lift or a clockwise lift"),
        }
    }

    /// Lango increment sowing (RULINGS 4) at capturing hole `l`.
    fn lango_sow(&mut self, s: usize, l: u8, k: u8, single: bool) -> bool {
        if single {
            let own = std::mem::take(&mut self.b[s][l as usize]);
            let first = self.next(l);
            self.start_lap(s, first, own + 1, RaceLap::Ccw, l)
        } else {
            self.start_lap(s, l, k, RaceLap::Ccw, l)
        }
    }

    fn decide(&mut self, s: usize, c: RaceChoice, hand: u8, at: u8, origin: u8, single: bool) {
        if self.steps.is_some() {
            self.snap(s, false);
        }
        let r = &mut self.race.racers[s];
        r.state = RacerState::Deciding(c);
        r.hand = hand;
        r.at = at;
        r.origin = origin;
        r.single = single;
    }

    /// One drop of racer `s`, and the end of his lap if it was his last
    /// counter. False if a new lap passed the budget.
    fn drop(&mut self, s: usize) -> bool {
        let r = self.race.racers[s];
        let RacerState::Sowing(lap) = r.state else {
            unreachable!("only a sowing racer drops")
        };
        let h = r.at;
        let c = self.b[s][h as usize];
        self.b[s][h as usize] = c + 1;
        self.drops += 1;
        if self.steps.is_some() {
            self.snap(s, true);
        }
        let front = r.front || geometry::is_front(h, self.w);
        let hand = r.hand - 1;
        let on = if lap.is_clockwise() {
            self.prev(h)
        } else {
            self.next(h)
        };
        {
            let r = &mut self.race.racers[s];
            r.front = front;
            r.hand = hand;
            if hand > 0 {
                r.at = on;
                return true;
            }
        }
        // The end of a lap (RULINGS 2): L = h held c before the drop.
        if c == 0 {
            // Finished: nothing of his move matters any more, and the
            // other's holds lapse: alone, a hold would change nothing.
            self.race.racers[s] = Racer::default();
            self.race.racers[1 - s].set_holds(0);
            return true;
        }
        let origin = r.origin;
        if let Some((of, ob)) = self.capture_holes(s, h, front) {
            let fr = std::mem::take(&mut self.b[1 - s][of as usize]);
            let bk = std::mem::take(&mut self.b[1 - s][ob as usize]);
            let k = fr + bk;
            let single = fr == 1 && bk == 0;
            return match (self.variant, lap) {
                (Variant::Lango, RaceLap::LangoCw) => {
                    if self.cw_captures(s, self.prev(origin), k, front) {
                        self.decide(s, RaceChoice::Again, k, h, origin, single);
                        true
                    } else {
                        self.lango_sow(s, h, k, single)
                    }
                }
                (Variant::Lango, _) => self.lango_sow(s, h, k, single),
                (Variant::Acholi, RaceLap::Attack) => {
                    self.decide(s, RaceChoice::Attack, k, h, origin, false);
                    true
                }
                // Didinga and Acholi: from the hole after the origin.
                _ => {
                    let first = self.next(origin);
                    self.start_lap(s, first, k, RaceLap::Ccw, origin)
                }
            };
        }
        // Relay: L is lifted in the same step.
        let n = std::mem::take(&mut self.b[s][h as usize]);
        let base = match self.variant {
            Variant::Lango => geometry::lango_base(self.w),
            Variant::Acholi => geometry::acholi_base(self.w),
            _ => 0,
        };
        if base >> h & 1 != 0 && self.cw_captures(s, self.prev(h), n, front) {
            self.decide(s, RaceChoice::Relay, n, h, h, false);
            return true;
        }
        let first = self.next(h);
        self.start_lap(s, first, n, RaceLap::Ccw, h)
    }

    /// Every opening start of `s` on the board as it stands, in notation
    /// order: back-row holes (Lango: a and b) with 2 or more, then the
    /// Acholi attack from k if it captures.
    fn starts(&self, s: usize) -> SmallVec<[Token; 20]> {
        let mut v = SmallVec::new();
        let w = self.w;
        for n in 1..=self.len {
            let h = geometry::pos_of_number(n, w);
            let ok = match self.variant {
                Variant::Lango => n <= 2,
                _ => !geometry::is_front(h, w),
            };
            if ok && self.b[s][h as usize] >= 2 {
                v.push(Token::Lift(n));
            }
        }
        if self.variant == Variant::Acholi {
            let k = geometry::K_POS;
            let n = self.b[s][k as usize];
            if n >= 2 {
                let mut t = self.clone();
                t.b[s][k as usize] = 0;
                if t.cw_captures(s, self.prev(k), n, self.race.racers[s].front) {
                    v.push(Token::Clockwise(geometry::number_of_pos(k, w)));
                }
            }
        }
        v
    }

    /// The options of the deciding racer `s`.
    fn options(&self, s: usize) -> SmallVec<[Opt; 20]> {
        let r = self.race.racers[s];
        let mut v = SmallVec::new();
        let RacerState::Deciding(c) = r.state else {
            return v;
        };
        let plus = match c {
            RaceChoice::Relay => self.cw_captures(s, self.prev(r.at), r.hand, r.front),
            RaceChoice::Again | RaceChoice::Attack => {
                self.cw_captures(s, self.prev(r.origin), r.hand, r.front)
            }
        };
        if plus {
            v.push(Opt::Plus);
        }
        v.push(Opt::Minus);
        if c == RaceChoice::Attack {
            let mut left = self.clone();
            left.b[s][r.origin as usize] += r.hand;
            for t in left.starts(s) {
                v.push(Opt::Leave(t));
            }
        }
        v
    }

    /// Take option `o` of the deciding racer `s`. False if the new lap
    /// passed the budget.
    fn apply(&mut self, s: usize, o: Opt) -> bool {
        let r = self.race.racers[s];
        let RacerState::Deciding(c) = r.state else {
            unreachable!("only a deciding racer chooses")
        };
        let cw = if self.variant == Variant::Lango {
            RaceLap::LangoCw
        } else {
            RaceLap::MidCw
        };
        match (c, o) {
            (RaceChoice::Relay, Opt::Plus) => {
                let first = self.prev(r.at);
                self.start_lap(s, first, r.hand, cw, r.at)
            }
            (RaceChoice::Relay, _) => {
                let first = self.next(r.at);
                self.start_lap(s, first, r.hand, RaceLap::Ccw, r.at)
            }
            (RaceChoice::Again, Opt::Plus) => {
                let first = self.prev(r.origin);
                self.start_lap(s, first, r.hand, RaceLap::LangoCw, r.origin)
            }
            (RaceChoice::Again, _) => self.lango_sow(s, r.at, r.hand, r.single),
            (RaceChoice::Attack, Opt::Plus) => {
                let first = self.prev(r.origin);
                self.start_lap(s, first, r.hand, RaceLap::Attack, r.origin)
            }
            (RaceChoice::Attack, Opt::Minus) => {
                let first = self.next(r.origin);
                self.start_lap(s, first, r.hand, RaceLap::Ccw, r.origin)
            }
            (RaceChoice::Attack, Opt::Leave(t)) => {
                self.b[s][r.origin as usize] += r.hand;
                self.start(s, t)
            }
        }
    }

    /// A whole-state comparison for Brent's algorithm: all but lap counts
    /// and the tick number (its parity kept).
    fn same_cycle_state(&self, o: &Sim) -> bool {
        self.b == o.b
            && self.race.stage == o.race.stage
            && self.race.tick & 1 == o.race.tick & 1
            && self.race.racers[0].same_but_laps(&o.race.racers[0])
            && self.race.racers[1].same_but_laps(&o.race.racers[1])
    }

    /// Who chooses first at the start of a tick (RULES.md 8.10): while both
    /// still sow, A if he has a hold left, else B if he has; `None` when
    /// neither may hold (the lockstep race).
    #[inline]
    fn chooser(&self) -> Option<Side> {
        let [a, b] = &self.race.racers;
        if a.holds() | b.holds() == 0 || a.is_done() || b.is_done() {
            return None;
        }
        if a.may_hold() {
            Some(Side::A)
        } else if b.may_hold() {
            Some(Side::B)
        } else {
            None
        }
    }

    /// Play the race on until a decision, a tick's choice, its end, or a
    /// draw.
    fn run(&mut self) -> Stop {
        if self.race.stage == 0 && !self.chosen {
            if let Some(s) = self.chooser() {
                return Stop::Tick(s);
            }
        }
        self.chosen = false;
        let mut saved = self.clone();
        let (mut power, mut lam) = (1u32, 0u32);
        loop {
            while self.race.stage < 2 {
                let s = Race::turn(self.race.tick, self.race.stage);
                self.race.stage += 1;
                let r = &self.race.racers[s];
                if r.is_done() || r.held() {
                    continue;
                }
                if !self.drop(s) {
                    return Stop::Drawn;
                }
                match self.race.racers[s].state {
                    RacerState::Done => {
                        if self.race.racers[1 - s].is_done() {
                            return Stop::Over(side(1 - s));
                        }
                    }
                    RacerState::Deciding(_) => {
                        let opts = self.options(s);
                        if opts.len() >= 2 {
                            return Stop::Decision(side(s));
                        }
                        if !self.apply(s, opts[0]) {
                            return Stop::Drawn;
                        }
                    }
                    RacerState::Sowing(_) => {}
                }
            }
            self.race.stage = 0;
            self.race.tick += 1;
            // A tick with holds: its holders drop again, and the next tick
            // may be chosen too (before Brent: a choice breaks a cycle).
            if self.race.racers[0].held() | self.race.racers[1].held() {
                self.race.racers[0].set_held(false);
                self.race.racers[1].set_held(false);
            }
            if let Some(s) = self.chooser() {
                return Stop::Tick(s);
            }
            // Brent: compare with the state at the last power-of-two checkpoint.
            if saved.same_cycle_state(self) {
                return Stop::Drawn;
            }
            lam += 1;
            if lam == power {
                saved = self.clone();
                power <<= 1;
                lam = 0;
            }
        }
    }

    /// The position where this stretch stopped, a child of `parent`.
    fn child(&self, parent: &Position, stop: Stop) -> Position {
        let mut loops = [Loop::default(); 2];
        for (s, l) in loops.iter_mut().enumerate() {
            for h in 0..self.len {
                l.set(h, self.b[s][h as usize]);
            }
        }
        let (side, phase, race) = match stop {
            Stop::Decision(s) | Stop::Tick(s) => (s, Phase::Race, self.race),
            Stop::Over(first) => (first, Phase::Main, Race::default()),
            Stop::Drawn => (parent.side, Phase::RaceOver, self.race),
        };
        let mut p = Position::assemble(
            self.variant,
            self.w,
            loops,
            side,
            phase,
            [0, 0],
            Default::default(),
            parent.ply + 1,
        );
        p.race = race;
        p.rehash();
        p
    }
}

#[inline]
fn side(i: usize) -> Side {
    if i == 0 {
        Side::A
    } else {
        Side::B
    }
}

fn one(t: Token, letters: bool) -> Move {
    let mut m = Move::empty(letters);
    m.push(t);
    m
}

/// The tick choices of a racer with a hold left: drop, then hold.
const TICK_CHOICES: [Token; 2] = [Token::Drop, Token::Hold];

impl Sim {
    /// Racer `s` takes his choice `t` (drop or hold) at the start of a
    /// tick. True when the tick's choices are all made and it can be
    /// played; false when B still chooses, not seeing A's choice.
    fn choose_tick(&mut self, s: usize, t: Token) -> bool {
        if t == Token::Hold {
            let r = &mut self.race.racers[s];
            r.set_holds(r.holds() - 1);
            r.set_held(true);
        }
        if s == 0 && self.race.racers[1].may_hold() {
            return false;
        }
        self.chosen = true;
        true
    }
}

/// The move of race option `o`.
fn opt_move(o: Opt, letters: bool) -> Move {
    match o {
        Opt::Plus => one(Token::Plus, letters),
        Opt::Minus => one(Token::Minus, letters),
        Opt::Leave(t) => {
            let mut m = one(Token::Leave, letters);
            m.push(t);
            m
        }
    }
}

/// The race that the legal move `m` of a position in the simultaneous
/// opening sets off, step by step (none for A's blind start, which only
/// chooses); `None` if `m` is not legal there. As [`generate`] plays it.
pub(crate) fn trace(pos: &Position, m: &Move) -> Option<Vec<RaceStep>> {
    let letters = pos.width == 8;
    let sim = Sim::new(pos, LAP_BUDGET);
    let me = pos.side.index();
    let mut run = sim.clone();
    run.steps = Some(Vec::new());
    match pos.phase {
        Phase::Blind2 => {
            let legal = sim.starts(me).into_iter().any(|t| one(t, letters) == *m);
            return legal.then(Vec::new);
        }
        Phase::Blind1 => {
            let a = pos.race.blind?;
            let t = sim
                .starts(me)
                .into_iter()
                .find(|&t| one(t, letters) == *m)?;
            run.race = Race {
                tick: 1,
                racers: pos.race.racers,
                ..Race::default()
            };
            if run.start(1 - me, a) && run.start(me, t) {
                run.run();
            }
        }
        Phase::Race if pos.race.stage == 0 => {
            let t = TICK_CHOICES.into_iter().find(|&t| one(t, letters) == *m)?;
            if !run.choose_tick(me, t) {
                // B chooses next: nothing is sown yet.
                return Some(Vec::new());
            }
            run.run();
        }
        Phase::Race => {
            let o = sim
                .options(me)
                .into_iter()
                .find(|&o| opt_move(o, letters) == *m)?;
            if run.apply(me, o) {
                run.run();
            }
        }
        _ => return None,
    }
    run.steps
}

/// Every legal move of a position in the simultaneous opening, with its
/// child: the blind starts (`s2`, `s1`), or the options of the racer to
/// move (`r`). A drawn race (`rx`) has none.
pub(crate) fn generate<F>(pos: &Position, budget: u32, mut sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    let mut stats = GenStats::default();
    let letters = pos.width == 8;
    let sim = Sim::new(pos, budget);
    let me = pos.side.index();
    let mut emit = |m: &Move, child: &Position, run: &Sim, stats: &mut GenStats| {
        stats.moves += 1;
        stats.laps += run.laps as u64;
        stats.drops += run.drops as u64;
        let info = MoveInfo {
            laps: run.laps,
            drops: run.drops,
        };
        sink(m, child, info)
    };
    match pos.phase {
        Phase::Blind2 => {
            for t in sim.starts(me) {
                let mut child = Position {
                    side: pos.side.other(),
                    phase: Phase::Blind1,
                    ply: pos.ply + 1,
                    ..*pos
                };
                child.race = Race {
                    blind: Some(t),
                    racers: pos.race.racers,
                    ..Race::default()
                };
                child.rehash();
                if !emit(&one(t, letters), &child, &sim, &mut stats) {
                    break;
                }
            }
        }
        Phase::Blind1 => {
            let Some(a) = pos.race.blind else {
                return stats;
            };
            for t in sim.starts(me) {
                let mut run = sim.clone();
                run.race = Race {
                    tick: 1,
                    racers: pos.race.racers,
                    ..Race::default()
                };
                let stop = if run.start(1 - me, a) && run.start(me, t) {
                    run.run()
                } else {
                    Stop::Drawn
                };
                let child = run.child(pos, stop);
                if !emit(&one(t, letters), &child, &run, &mut stats) {
                    break;
                }
            }
        }
        Phase::Race if pos.race.stage == 0 => {
            // A tick's choice (RULES.md 8.10): drop or hold.
            for t in TICK_CHOICES {
                let mut run = sim.clone();
                let stop = if !run.choose_tick(me, t) {
                    Stop::Tick(Side::B)
                } else {
                    run.run()
                };
                let child = run.child(pos, stop);
                if !emit(&one(t, letters), &child, &run, &mut stats) {
                    break;
                }
            }
        }
        Phase::Race => {
            for o in sim.options(me) {
                let mut run = sim.clone();
                let stop = if run.apply(me, o) {
                    run.run()
                } else {
                    Stop::Drawn
                };
                let child = run.child(pos, stop);
                if !emit(&opt_move(o, letters), &child, &run, &mut stats) {
                    break;
                }
            }
        }
        _ => {}
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn rng(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Every path of racer A's opening move when B has already finished,
    /// played decision by decision through the race: (path, final board).
    fn race_paths(
        sim: &Sim,
        path: Move,
        depth: usize,
        out: &mut BTreeMap<String, [Loop; 2]>,
        pos: &Position,
    ) {
        assert!(depth < 40, "runaway decisions at {path}");
        let mut run = sim.clone();
        match run.run() {
            Stop::Over(first) => {
                assert_eq!(first, Side::B, "B had finished first");
                out.insert(path.to_string(), run.child(pos, Stop::Over(first)).loops);
            }
            Stop::Drawn => panic!("{pos}: a drawn race where the sequential move ends"),
            Stop::Tick(_) => panic!("{pos}: a tick's choice in a race without holds"),
            Stop::Decision(s) => {
                assert_eq!(s, Side::A);
                for o in run.options(0) {
                    let mut next = run.clone();
                    let mut p = path;
                    match o {
                        Opt::Plus => p.push(Token::Plus),
                        Opt::Minus => p.push(Token::Minus),
                        Opt::Leave(t) => p.push(Token::Leave) && p.push(t),
                    };
                    assert!(next.apply(0, o));
                    race_paths(&next, p, depth + 1, out, pos);
                }
            }
        }
    }

    /// With the other player finished, a race is a plain opening move: the
    /// race's starts and decisions, played ply by ply, give exactly the
    /// sequential generator's paths and positions (no never-ending paths
    /// in the positions compared). Random boards of the three codes.
    #[test]
    fn a_lone_racer_plays_the_sequential_opening_move() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut compared = [0usize; 3];
        let mut decisions = 0;
        for (vi, v) in [Variant::Didinga, Variant::Lango, Variant::Acholi]
            .into_iter()
            .enumerate()
        {
            for _ in 0..3000 {
                let w = if v == Variant::Didinga {
                    8 + (rng(&mut x) % 9) as u8
                } else {
                    8
                };
                let mut rows = Vec::new();
                for _ in 0..4 {
                    let row: Vec<String> = (0..w)
                        .map(|_| {
                            let r = rng(&mut x) % 10;
                            (if r < 3 { 0 } else { r % 5 }).to_string()
                        })
                        .collect();
                    rows.push(row.join(","));
                }
                let s = format!("{v}:{w} {} a o2 0", rows.join("/"));
                let Ok(seq) = s.parse::<Position>() else {
                    continue; // more than 8W counters
                };
                let mut want = BTreeMap::new();
                let stats = seq.generate(crate::rules::LAP_BUDGET, |m, c, _| {
                    want.insert(m.to_string(), c.loops);
                    true
                });
                if stats.never_ending() > 0 || stats.cut_overflow > 0 {
                    continue;
                }
                let blind = seq.with_phase(Phase::Blind2);
                let mut got = BTreeMap::new();
                let base = Sim::new(&blind, crate::rules::LAP_BUDGET);
                for t in base.starts(0) {
                    let mut sim = base.clone();
                    sim.race.tick = 1;
                    assert!(sim.start(0, t));
                    let mut m = Move::empty(w == 8);
                    m.push(t);
                    race_paths(&sim, m, 0, &mut got, &blind);
                }
                // Sequential first laps that cannot end are cut there, but a
                // race start is a blind choice made before any lap is sown.
                assert_eq!(got, want, "{s}");
                compared[vi] += 1;
                decisions += want.keys().filter(|k| k.len() > 1).count();
            }
        }
        assert!(compared.iter().all(|&n| n > 1000), "{compared:?}");
        assert!(decisions > 1000, "{decisions}");
    }
}
