//! Test-only reference for the simultaneous opening of the Choro codes
//! ("the race", RULINGS 8), for differential testing of the engine.
//!
//! Written from `shared/RULINGS.md` and the readings of the test brief only,
//! reusing the plain geometry of the sequential reference (`super::Geo`,
//! drop by drop on a `[row][column]` board). It favours plainness: the race is
//! run one drop at a time, each racer's opening move in a small record, and a
//! race that never ends is simply run to the lap budget.
//!
//! The readings implemented:
//! - phases `s2` (A chooses his start blind), `s1:<start>` (B chooses his;
//!   A's is held), `r` (paused at a decision of the side to move), `rx` (the
//!   drawn race, no moves), then the main phase `m`;
//! - blind starts, both judged on the board of the `s2`/`s1` position: a
//!   back-row hole with 2 or more (Lango: only a or b), in Driberg order, then
//!   Acholi's `~k` when that clockwise lap, sown on the board as it stands,
//!   ends in a capture;
//! - both chosen holes are lifted before tick 1; in each tick each unfinished
//!   racer drops one counter, A first in odd ticks, B first in even ticks; the
//!   last counter of a hand ends the lap at once (RULINGS 2-6 on the board as
//!   it stands at that instant, opening capture rules with the racer's own
//!   "front row reached" flag);
//! - a decision exists where two or more options are offered; the racer is
//!   then the side to move, his choice (one ply) starts the new lap at once,
//!   and the race goes on at the same instant of the same tick;
//! - the first racer to finish moves first in the main phase; the ply count
//!   goes up by one per blind choice and per decision;
//! - a racer who begins lap `budget + 1` draws the race (`rx`): the board as
//!   it stands (counters in hand are off the board) and both racers as they
//!   are, that lap begun. The engine may draw a never-ending race earlier,
//!   where it finds the cycle; `race_drawn_at` gives the reference's state at
//!   that instant for the comparison.
//!
//! - holds (`RaceHolds`, RULES.md 8.10): each racer starts with N holds
//!   (`s2,holds=N`, `s1:<start>,holds=N`). At the start of every tick in
//!   which both racers still sow and either has a hold left, the tick's
//!   choice: A (if he has a hold) chooses drop `.` or hold `_`, one ply; then
//!   B (if he has one), one ply, not told A's choice (the position carries
//!   it, `held=1`, as `s1` carries A's start). A racer with no hold left
//!   drops without a ply. Holders skip their drop of that tick; a tick both
//!   hold passes with no drop (the parity turns). When a racer finishes, the
//!   other's holds lapse (alone, a hold changes nothing). In the string:
//!   `,holds=N` and `,held=1` after a racer, each only when not zero; a
//!   tick's choice is stage 0 of phase `r`.
//!
//! Not rules but the engine's conventions, matched here: the side written in
//! an `rx` position is the side to move of the position the move was made
//! from; a racer's `origin` after a Lango increment sown from L is L.
#![allow(dead_code)]

use super::{join_counts, parse_count, Board, Code, Dir, Geo, Hole, Player};
use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    static EVENTS: RefCell<BTreeMap<&'static str, u64>> = const { RefCell::new(BTreeMap::new()) };
}

/// Count a rare situation met while running races (this thread only).
fn note(event: &'static str) {
    EVENTS.with(|e| *e.borrow_mut().entry(event).or_insert(0) += 1);
}

/// The rare situations met so far by this thread's races (`note`), so the
/// tests can show which readings they exercised.
pub fn events() -> BTreeMap<&'static str, u64> {
    EVENTS.with(|e| e.borrow().clone())
}

/// The kind of lap a racer sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lap {
    /// Counter-clockwise: first lift, relay, increment.
    Ccw,
    /// Lango clockwise lap from a turning-base hole (its origin).
    LangoCw,
    /// Acholi preliminary attack or its clockwise-again, from its origin.
    Attack,
    /// Acholi mid-move clockwise relay from i or k.
    MidCw,
}

impl Lap {
    fn dir(self) -> Dir {
        match self {
            Lap::Ccw => Dir::Ccw,
            _ => Dir::Cw,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Lap::Ccw => "ccw",
            Lap::LangoCw => "cw",
            Lap::Attack => "attack",
            Lap::MidCw => "midcw",
        }
    }
}

/// The decision a racer has reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A lap ended on an occupied, non-capturing base hole, now lifted:
    /// clockwise (`+`) or on (`-`).
    Relay,
    /// Lango: a clockwise lap captured; the increment clockwise again (`+`)
    /// or by the Lango rule (`-`).
    Again,
    /// Acholi: an attack captured; again (`+`), move proper (`-`), or leave
    /// it in the attack hole and start anew (`=start`).
    Attack,
}

impl Choice {
    fn name(self) -> &'static str {
        match self {
            Choice::Relay => "relay",
            Choice::Again => "again",
            Choice::Attack => "attack",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Done,
    Sowing(Lap),
    Deciding(Choice),
}

/// One racer's opening move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Racer {
    state: State,
    /// Counters still to drop (sowing) or lifted / captured (deciding).
    hand: u64,
    /// Sowing: next drop. Deciding: last drop (the lap's end L).
    at: Hole,
    /// Where the lap chain's counters were lifted from (base of a clockwise
    /// lap; the hole before the first drop of a Didinga/Acholi increment).
    origin: Hole,
    /// Dropped into his own front row during this opening move.
    front: bool,
    /// Deciding `Again`: the increment is a single counter.
    single: bool,
    /// Laps begun in this opening move.
    laps: u64,
    /// Holds left.
    holds: u64,
    /// Holds in the tick being played.
    held: bool,
}

const DONE: Racer = Racer {
    state: State::Done,
    hand: 0,
    at: (0, 0),
    origin: (0, 0),
    front: false,
    single: false,
    laps: 0,
    holds: 0,
    held: false,
};

/// An opening start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Lift this hole and sow counter-clockwise.
    Hole(Hole),
    /// Acholi: attack clockwise from this hole (k).
    Attack(Hole),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    S2,
    S1(Start),
    R,
    Rx,
    M,
}

/// A position of the simultaneous opening (or the position right after it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacePos {
    code: Code,
    w: usize,
    board: Board,
    side: Player,
    phase: Phase,
    tick: u64,
    stage: u8,
    racers: [Racer; 2],
    ply: u64,
    /// Phases `s2`, `s1`: each racer's holds (the racers are not yet out).
    holds: u64,
}

fn idx(p: Player) -> usize {
    match p {
        Player::A => 0,
        Player::B => 1,
    }
}

/// One option at a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    Plus,
    Minus,
    Leave(Start),
}

// ---------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------

/// The race as it runs: board, racers, clock.
#[derive(Clone, Debug)]
struct Sim {
    code: Code,
    w: usize,
    board: Board,
    racers: [Racer; 2],
    tick: u64,
    stage: u8,
    /// The racer who finished first, once one has.
    first: Option<Player>,
    budget: u64,
    /// The side to move in the position the race runs from.
    mover: Player,
    /// Stop the race at this tick and stage (`race_drawn_at`).
    watch: Option<(u64, u8)>,
    /// The choices of this tick are made.
    chosen: bool,
}

/// Where a run of the race stopped.
enum Stop {
    Decide(Player),
    /// A tick's choice, this racer first.
    Tick(Player),
    Over,
    Drawn,
    /// At the watched instant.
    Watched,
}

fn go(ok: bool) -> Step {
    if ok {
        Step::Go
    } else {
        Step::Drawn
    }
}

/// What resolving a lap end led to.
enum Step {
    Go,
    Decide,
    Finished,
    Drawn,
}

impl Sim {
    fn geo(&self, p: Player) -> Geo {
        Geo { w: self.w, me: p }
    }

    /// RULINGS 3, opening rules: is L (which held counters before the last
    /// drop) a capturing hole for `p`, his front flag being `front`?
    fn captures(&self, board: &Board, p: Player, l: Hole, front: bool) -> bool {
        let g = self.geo(p);
        let f = board[g.opp_front_row()][l.1];
        let b = board[g.opp_back_row()][l.1];
        let facing = match self.code {
            Code::Lango => f >= 1,
            Code::Didinga | Code::Acholi => f >= 1 && b >= 1,
        };
        if l.0 == g.front_row() {
            facing
        } else {
            self.code != Code::Lango && !front && facing
        }
    }

    /// Would a lap of `hand` counters, first drop in `first`, going `dir`,
    /// sown on `board` as it stands, end in a capture? (Tried on a copy.)
    fn lap_captures(
        &self,
        board: &Board,
        p: Player,
        first: Hole,
        dir: Dir,
        hand: u64,
        front: bool,
    ) -> bool {
        let g = self.geo(p);
        let mut b = board.clone();
        let mut front = front;
        let mut h = first;
        let mut left = hand;
        loop {
            let c = b[h.0][h.1];
            b[h.0][h.1] += 1;
            if h.0 == g.front_row() {
                front = true;
            }
            left -= 1;
            if left == 0 {
                return c >= 1 && self.captures(&b, p, h, front);
            }
            h = g.next(h, dir);
        }
    }

    /// The opening starts of `p` on `board` (his front flag `front`), in
    /// order: back-row holes (Lango: a, b) in Driberg order, then `~k`.
    fn starts(&self, board: &Board, p: Player, front: bool) -> Vec<Start> {
        let g = self.geo(p);
        let holes: Vec<Hole> = match self.code {
            Code::Lango => vec![g.hole(1), g.hole(2)],
            Code::Didinga | Code::Acholi => g
                .holes()
                .into_iter()
                .filter(|h| h.0 == g.back_row())
                .collect(),
        };
        let mut v: Vec<Start> = holes
            .into_iter()
            .filter(|h| board[h.0][h.1] >= 2)
            .map(Start::Hole)
            .collect();
        if self.code == Code::Acholi {
            let k = g.base_k();
            let n = board[k.0][k.1];
            if n >= 2 && self.lap_captures(board, p, g.next_cw(k), Dir::Cw, n, front) {
                v.push(Start::Attack(k));
            }
        }
        v
    }

    /// Take the increment facing `at`: the opponent's front and back holes.
    fn take(&mut self, p: Player, at: Hole) -> u64 {
        let g = self.geo(p);
        let (f, b) = (g.opp_front_row(), g.opp_back_row());
        let n = self.board[f][at.1] + self.board[b][at.1];
        self.board[f][at.1] = 0;
        self.board[b][at.1] = 0;
        n
    }

    fn lift(&mut self, h: Hole) -> u64 {
        let n = self.board[h.0][h.1];
        self.board[h.0][h.1] = 0;
        n
    }

    /// Begin a new lap of `p`; false when it is one lap more than the
    /// budget allows (the race is drawn, with this lap begun).
    fn begin(&mut self, p: Player, lap: Lap, hand: u64, first: Hole, origin: Hole) -> bool {
        let r = &mut self.racers[idx(p)];
        r.laps += 1;
        r.state = State::Sowing(lap);
        r.hand = hand;
        r.at = first;
        r.origin = origin;
        r.single = false;
        r.laps <= self.budget
    }

    /// Lift a start hole and sow it (`begin` counts the lap).
    fn start(&mut self, p: Player, s: Start) -> bool {
        let g = self.geo(p);
        match s {
            Start::Hole(h) => {
                let n = self.lift(h);
                self.begin(p, Lap::Ccw, n, g.next_ccw(h), h)
            }
            Start::Attack(k) => {
                let n = self.lift(k);
                self.begin(p, Lap::Attack, n, g.next_cw(k), k)
            }
        }
    }

    /// RULINGS 4, Lango: an increment of `n` taken opposite L is sown from L
    /// itself; a single counter goes with all of L, sown from after L.
    fn lango_increment(&mut self, p: Player, l: Hole, n: u64) -> bool {
        let g = self.geo(p);
        if n == 1 {
            note("Lango single-counter increment");
            let hand = self.lift(l) + 1;
            self.begin(p, Lap::Ccw, hand, g.next_ccw(l), l)
        } else {
            self.begin(p, Lap::Ccw, n, l, l)
        }
    }

    /// The options of `p`, who is at a decision.
    fn options(&self, p: Player) -> Vec<Opt> {
        let g = self.geo(p);
        let r = self.racers[idx(p)];
        let State::Deciding(choice) = r.state else {
            panic!("{p:?} is not at a decision");
        };
        let first_cw = match choice {
            Choice::Relay => g.next_cw(r.at),
            Choice::Again | Choice::Attack => g.next_cw(r.origin),
        };
        let mut v = Vec::new();
        if self.lap_captures(&self.board, p, first_cw, Dir::Cw, r.hand, r.front) {
            v.push(Opt::Plus);
        }
        v.push(Opt::Minus);
        if choice == Choice::Attack {
            let mut b = self.board.clone();
            b[r.origin.0][r.origin.1] += r.hand;
            for s in self.starts(&b, p, r.front) {
                v.push(Opt::Leave(s));
            }
        }
        v
    }

    /// Take option `o` at `p`'s decision: the new lap begins at once.
    fn choose(&mut self, p: Player, o: Opt) -> bool {
        let g = self.geo(p);
        let r = self.racers[idx(p)];
        let State::Deciding(choice) = r.state else {
            panic!("{p:?} is not at a decision");
        };
        match (choice, o) {
            (Choice::Relay, Opt::Plus) => {
                let lap = match self.code {
                    Code::Lango => Lap::LangoCw,
                    _ => Lap::MidCw,
                };
                self.begin(p, lap, r.hand, g.next_cw(r.at), r.at)
            }
            (Choice::Relay, Opt::Minus) => self.begin(p, Lap::Ccw, r.hand, g.next_ccw(r.at), r.at),
            (Choice::Again, Opt::Plus) => {
                self.begin(p, Lap::LangoCw, r.hand, g.next_cw(r.origin), r.origin)
            }
            (Choice::Again, Opt::Minus) => self.lango_increment(p, r.at, r.hand),
            (Choice::Attack, Opt::Plus) => {
                self.begin(p, Lap::Attack, r.hand, g.next_cw(r.origin), r.origin)
            }
            (Choice::Attack, Opt::Minus) => {
                self.begin(p, Lap::Ccw, r.hand, g.next_ccw(r.origin), r.origin)
            }
            (Choice::Attack, Opt::Leave(s)) => {
                self.board[r.origin.0][r.origin.1] += r.hand;
                self.start(p, s)
            }
            _ => panic!("option {o:?} at a {choice:?} decision"),
        }
    }

    /// Stop at a decision (two or more options) or take the only option.
    fn decide(&mut self, p: Player, choice: Choice, hand: u64, at: Hole, origin: Hole) -> Step {
        let i = idx(p);
        self.racers[i].state = State::Deciding(choice);
        self.racers[i].hand = hand;
        self.racers[i].at = at;
        self.racers[i].origin = origin;
        self.racers[i].single = choice == Choice::Again && hand == 1;
        let opts = self.options(p);
        if opts.len() >= 2 {
            let other = self.racers[idx(p.other())].state;
            if other == State::Done {
                note("a decision after the other racer finished");
            } else if self.stage == 1 {
                note("a decision before the other racer's drop of the tick");
            }
            return Step::Decide;
        }
        note("a decision point with one option, taken at once");
        go(self.choose(p, opts[0]))
    }

    /// The end of `p`'s lap at L, which held `c` before the last drop
    /// (RULINGS 2 to 6, on the board as it stands now).
    fn resolve(&mut self, p: Player, l: Hole, c: u64) -> Step {
        let g = self.geo(p);
        let r = self.racers[idx(p)];
        let State::Sowing(lap) = r.state else {
            panic!("{p:?} is not sowing");
        };
        if c == 0 {
            return Step::Finished;
        }
        let capture = self.captures(&self.board, p, l, r.front);
        if lap != Lap::Ccw && !capture {
            note("a clockwise lap ends without a capture");
        }
        if capture {
            if l.0 == g.back_row() {
                note("back-row capture");
            }
            let o = self.racers[idx(p.other())];
            if matches!(o.state, State::Sowing(_))
                && o.at.1 == l.1
                && self.board[o.at.0][o.at.1] > 0
            {
                note("a capture empties the hole of the other racer's next drop");
            }
            let n = self.take(p, l);
            return match (self.code, lap) {
                (Code::Lango, Lap::LangoCw) => self.decide(p, Choice::Again, n, l, r.origin),
                (Code::Lango, _) => {
                    let ok = self.lango_increment(p, l, n);
                    go(ok)
                }
                (_, Lap::Attack) => self.decide(p, Choice::Attack, n, l, r.origin),
                _ => {
                    let ok = self.begin(p, Lap::Ccw, n, g.next_ccw(r.origin), r.origin);
                    go(ok)
                }
            };
        }
        // Relay: L is lifted in the same step.
        let hand = self.lift(l);
        let base = match self.code {
            Code::Didinga => false,
            Code::Lango => [g.base_i(), g.base_j(), g.base_k(), g.base_l()].contains(&l),
            Code::Acholi => l == g.base_i() || l == g.base_k(),
        };
        if base {
            self.decide(p, Choice::Relay, hand, l, l)
        } else {
            let ok = self.begin(p, Lap::Ccw, hand, g.next_ccw(l), l);
            go(ok)
        }
    }

    /// Run the race until a decision, its end, or its draw.
    fn run(&mut self) -> Stop {
        loop {
            if self.racers.iter().all(|r| r.state == State::Done) {
                return Stop::Over;
            }
            if self.watch == Some((self.tick, self.stage)) {
                return Stop::Watched;
            }
            if self.stage >= 2 {
                self.tick += 1;
                self.stage = 0;
                self.chosen = false;
                for r in self.racers.iter_mut() {
                    r.held = false;
                }
                if self.watch == Some((self.tick, self.stage)) {
                    return Stop::Watched;
                }
            }
            // A tick's choice: both still sow and one has a hold left.
            let sowing = |r: &Racer| matches!(r.state, State::Sowing(_));
            if self.stage == 0
                && !self.chosen
                && self.racers.iter().all(sowing)
                && self.racers.iter().any(|r| r.holds > 0)
            {
                let first = if self.racers[0].holds > 0 {
                    Player::A
                } else {
                    Player::B
                };
                return Stop::Tick(first);
            }
            // A first in odd ticks, B first in even ticks.
            let odd = self.tick % 2 == 1;
            let p = if odd == (self.stage == 0) {
                Player::A
            } else {
                Player::B
            };
            self.stage += 1;
            let i = idx(p);
            let r = self.racers[i];
            if r.held {
                note("a hold");
                continue;
            }
            let lap = match r.state {
                State::Done => continue,
                State::Sowing(lap) => lap,
                State::Deciding(_) => panic!("{p:?} drops while deciding"),
            };
            let g = self.geo(p);
            let h = r.at;
            let c = self.board[h.0][h.1];
            self.board[h.0][h.1] += 1;
            let racer = &mut self.racers[i];
            if h.0 == g.front_row() {
                racer.front = true;
            }
            racer.hand -= 1;
            if racer.hand > 0 {
                racer.at = g.next(h, lap.dir());
                continue;
            }
            match self.resolve(p, h, c) {
                Step::Go => {}
                Step::Decide => return Stop::Decide(p),
                Step::Drawn => return Stop::Drawn,
                Step::Finished => {
                    self.racers[i] = DONE;
                    // Alone, the other could only wait: his holds lapse.
                    self.racers[1 - i].holds = 0;
                    if self.first.is_none() {
                        self.first = Some(p);
                    }
                }
            }
        }
    }

    /// The position where the race stopped.
    fn position(&self, stop: Stop, ply: u64) -> RacePos {
        let (side, phase) = match stop {
            Stop::Decide(p) | Stop::Tick(p) => (p, Phase::R),
            Stop::Over => (self.first.expect("someone finished first"), Phase::M),
            // Who is "to move" in a drawn race is no rule; the reference
            // follows the engine's convention (see `rx_side`).
            Stop::Drawn | Stop::Watched => (rx_side(self), Phase::Rx),
        };
        let keep = phase != Phase::M;
        RacePos {
            code: self.code,
            w: self.w,
            board: self.board.clone(),
            side,
            phase,
            tick: if keep { self.tick } else { 0 },
            stage: if keep { self.stage } else { 0 },
            racers: if keep { self.racers } else { [DONE; 2] },
            ply,
            holds: 0,
        }
    }
}

/// The side written in an `rx` position: who made the move (a convention,
/// no rule: the drawn race has no moves).
fn rx_side(sim: &Sim) -> Player {
    sim.mover
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

fn sim_of(pos: &RacePos, budget: u64) -> Sim {
    let first = match (pos.racers[0].state, pos.racers[1].state) {
        (State::Done, State::Done) => None,
        (State::Done, _) => Some(Player::A),
        (_, State::Done) => Some(Player::B),
        _ => None,
    };
    Sim {
        code: pos.code,
        w: pos.w,
        board: pos.board.clone(),
        racers: pos.racers,
        tick: pos.tick,
        stage: pos.stage,
        first,
        budget,
        mover: pos.side,
        watch: None,
        chosen: false,
    }
}

fn start_name(g: &Geo, s: Start) -> String {
    match s {
        Start::Hole(h) => g.name(h),
        Start::Attack(h) => format!("~{}", g.name(h)),
    }
}

/// A move of the simultaneous opening.
#[derive(Clone, Copy, Debug)]
enum Action {
    /// A blind start (phase `s2` or `s1`).
    Blind(Start),
    /// An option at a race decision (phase `r`).
    Race(Opt),
    /// A tick's choice (phase `r`, stage 0): hold (true) or drop.
    Tick(bool),
}

/// The moves of a position, in the order the rules list them.
fn moves_of(pos: &RacePos, budget: u64) -> Vec<(String, Action)> {
    let sim = sim_of(pos, budget);
    let g = sim.geo(pos.side);
    match pos.phase {
        Phase::S2 | Phase::S1(_) => sim
            .starts(&pos.board, pos.side, false)
            .into_iter()
            .map(|s| (start_name(&g, s), Action::Blind(s)))
            .collect(),
        Phase::R if pos.stage == 0 => vec![
            (".".to_string(), Action::Tick(false)),
            ("_".to_string(), Action::Tick(true)),
        ],
        Phase::R => sim
            .options(pos.side)
            .into_iter()
            .map(|o| {
                let name = match o {
                    Opt::Plus => "+".to_string(),
                    Opt::Minus => "-".to_string(),
                    Opt::Leave(s) => format!("={}", start_name(&g, s)),
                };
                (name, Action::Race(o))
            })
            .collect(),
        Phase::Rx | Phase::M => Vec::new(),
    }
}

/// The child of a move. With `watch`, the race is stopped (as a drawn race)
/// at that instant, tick and stage (`None` if it does not get there).
fn play(pos: &RacePos, a: Action, budget: u64, watch: Option<(u64, u8)>) -> Option<RacePos> {
    let mut run = sim_of(pos, budget);
    run.watch = watch;
    let ply = pos.ply + 1;
    let ok = match (pos.phase, a) {
        (Phase::S2, Action::Blind(s)) => {
            return Some(RacePos {
                side: Player::B,
                phase: Phase::S1(s),
                ply,
                ..pos.clone()
            })
        }
        (Phase::S1(a_start), Action::Blind(s)) => {
            // Both lifted before the first tick; each is one lap (a budget of
            // at least one lap lets them begin).
            run.racers = [DONE; 2];
            run.racers[0].holds = pos.holds;
            run.racers[1].holds = pos.holds;
            assert!(run.start(Player::A, a_start));
            assert!(run.start(Player::B, s));
            run.tick = 1;
            run.stage = 0;
            true
        }
        (Phase::R, Action::Race(o)) => run.choose(pos.side, o),
        (Phase::R, Action::Tick(hold)) => {
            let i = idx(pos.side);
            if hold {
                run.racers[i].holds -= 1;
                run.racers[i].held = true;
            }
            if pos.side == Player::A && run.racers[1].holds > 0 {
                // B chooses next, not told A's choice.
                return Some(RacePos {
                    side: Player::B,
                    racers: run.racers,
                    ply,
                    ..pos.clone()
                });
            }
            run.chosen = true;
            true
        }
        _ => panic!("{a:?} in phase {:?}", pos.phase),
    };
    let stop = if ok { run.run() } else { Stop::Drawn };
    match (watch, stop) {
        (Some(_), Stop::Watched) => Some(run.position(Stop::Drawn, ply)),
        (Some(_), _) => None,
        (None, stop) => Some(run.position(stop, ply)),
    }
}

/// The moves of a position of the simultaneous opening, in order, each
/// with its child.
pub fn children(pos: &RacePos, budget: u32) -> Vec<(String, RacePos)> {
    moves_of(pos, budget as u64)
        .into_iter()
        .map(|(m, a)| {
            let child = play(pos, a, budget as u64, None).expect("a child");
            (m, child)
        })
        .collect()
}

/// The moves (in order) and children of a position string in phase `s2`,
/// `s1`, `r` or `rx` (none), under a lap budget.
pub fn race_moves(position: &str, budget: u32) -> Result<Vec<(String, String)>, String> {
    let pos = parse(position)?;
    if pos.phase == Phase::M {
        return Err("not a position of the simultaneous opening".into());
    }
    Ok(children(&pos, budget)
        .into_iter()
        .map(|(m, c)| (m, format(&c)))
        .collect())
}

/// A never-ending race may be drawn where the engine's cycle detector finds
/// the cycle, not at the lap budget (RULINGS 2: which detector caught it is a
/// statistic). This is the race after move `mv` of `position` stopped as a
/// drawn race at `tick`.`stage` (in the `rx` form: side to move as in
/// `position`), or `None` if the race does not run that long.
pub fn race_drawn_at(
    position: &str,
    mv: &str,
    budget: u32,
    tick: u64,
    stage: u8,
) -> Result<Option<String>, String> {
    let pos = parse(position)?;
    let (_, a) = moves_of(&pos, budget as u64)
        .into_iter()
        .find(|(m, _)| m == mv)
        .ok_or_else(|| format!("no move {mv} in {position}"))?;
    Ok(play(&pos, a, budget as u64, Some((tick, stage))).map(|c| format(&c)))
}

// ---------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------

fn racer_text(r: &Racer, g: &Geo) -> String {
    let mut t = racer_text_plain(r, g);
    if r.holds > 0 && r.state != State::Done {
        t += &format!(",holds={}", r.holds);
    }
    if r.held {
        t += ",held=1";
    }
    t
}

fn racer_text_plain(r: &Racer, g: &Geo) -> String {
    match r.state {
        State::Done => "done".to_string(),
        State::Sowing(lap) => format!(
            "lap={},hand={},next={},origin={},front={},laps={}",
            lap.name(),
            r.hand,
            g.name(r.at),
            g.name(r.origin),
            r.front as u8,
            r.laps
        ),
        State::Deciding(c) => format!(
            "decide={},hand={},at={},origin={},front={},single={},laps={}",
            c.name(),
            r.hand,
            g.name(r.at),
            g.name(r.origin),
            r.front as u8,
            r.single as u8,
            r.laps
        ),
    }
}

/// The position string (`RULES.md`, "Position strings"); phases `r` and
/// `rx` carry `<tick>.<stage> <racer A> <racer B>`.
pub fn format(p: &RacePos) -> String {
    let ga = Geo {
        w: p.w,
        me: Player::A,
    };
    let gb = Geo {
        w: p.w,
        me: Player::B,
    };
    let race = || {
        format!(
            "{}.{} {} {}",
            p.tick,
            p.stage,
            racer_text(&p.racers[0], &ga),
            racer_text(&p.racers[1], &gb)
        )
    };
    let holds = if p.holds > 0 {
        format!(",holds={}", p.holds)
    } else {
        String::new()
    };
    let phase = match p.phase {
        Phase::S2 => format!("s2{holds}"),
        Phase::S1(s) => format!("s1:{}{holds}", start_name(&ga, s)),
        Phase::R => format!("r {}", race()),
        Phase::Rx => format!("rx {}", race()),
        Phase::M => "m".to_string(),
    };
    format!(
        "{}:{} {}/{}/{}/{} {} {} {}",
        p.code.name(),
        p.w,
        join_counts(&p.board[3]),
        join_counts(&p.board[2]),
        join_counts(&p.board[1]),
        join_counts(&p.board[0]),
        p.side.letter(),
        phase,
        p.ply
    )
}

fn parse_hole(g: &Geo, s: &str) -> Result<Hole, String> {
    let n = if g.w == 8 {
        let b = s.as_bytes();
        if b.len() != 1 || !b[0].is_ascii_lowercase() {
            return Err(format!("bad hole {s:?}"));
        }
        (b[0] - b'a' + 1) as usize
    } else {
        parse_count(s)? as usize
    };
    if n < 1 || n > 2 * g.w {
        return Err(format!("no hole {s:?}"));
    }
    Ok(g.hole(n))
}

fn parse_start(g: &Geo, s: &str) -> Result<Start, String> {
    match s.strip_prefix('~') {
        Some(h) => Ok(Start::Attack(parse_hole(g, h)?)),
        None => Ok(Start::Hole(parse_hole(g, s)?)),
    }
}

fn parse_racer(g: &Geo, s: &str) -> Result<Racer, String> {
    if s == "done" {
        return Ok(DONE);
    }
    let kv: Vec<(&str, &str)> = s
        .split(',')
        .map(|x| x.split_once('=').ok_or_else(|| format!("bad item {x:?}")))
        .collect::<Result<_, _>>()?;
    let get = |k: &str| -> Result<&str, String> {
        kv.iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| *v)
            .ok_or_else(|| format!("no {k} in {s:?}"))
    };
    let flag = |k: &str| -> Result<bool, String> {
        match get(k)? {
            "0" => Ok(false),
            "1" => Ok(true),
            v => Err(format!("bad {k} {v:?}")),
        }
    };
    let state = if let Ok(l) = get("lap") {
        State::Sowing(
            [Lap::Ccw, Lap::LangoCw, Lap::Attack, Lap::MidCw]
                .into_iter()
                .find(|x| x.name() == l)
                .ok_or_else(|| format!("bad lap {l:?}"))?,
        )
    } else {
        let c = get("decide")?;
        State::Deciding(
            [Choice::Relay, Choice::Again, Choice::Attack]
                .into_iter()
                .find(|x| x.name() == c)
                .ok_or_else(|| format!("bad decision {c:?}"))?,
        )
    };
    let deciding = matches!(state, State::Deciding(_));
    Ok(Racer {
        state,
        hand: parse_count(get("hand")?)?,
        at: parse_hole(g, get(if deciding { "at" } else { "next" })?)?,
        origin: parse_hole(g, get("origin")?)?,
        front: flag("front")?,
        single: if deciding { flag("single")? } else { false },
        laps: parse_count(get("laps")?)?,
        holds: get("holds").map_or(Ok(0), parse_count)?,
        held: get("held").is_ok(),
    })
}

/// Read a Choro position string of any phase the race can produce.
pub fn parse(s: &str) -> Result<RacePos, String> {
    let f: Vec<&str> = s.split(' ').collect();
    if f.len() < 5 {
        return Err(format!("too few fields in {s:?}"));
    }
    let (code_s, w_s) = f[0]
        .split_once(':')
        .ok_or_else(|| format!("bad code field {:?}", f[0]))?;
    let code = match code_s {
        "didinga" => Code::Didinga,
        "lango" => Code::Lango,
        "acholi" => Code::Acholi,
        _ => return Err(format!("unknown code {code_s:?}")),
    };
    let w = parse_count(w_s)? as usize;
    let rows: Vec<&str> = f[1].split('/').collect();
    if rows.len() != 4 {
        return Err("expected 4 rows".into());
    }
    let mut board: Board = vec![vec![0; w]; 4];
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != w {
            return Err(format!("row {i} has {} holes", cells.len()));
        }
        for (c, cell) in cells.iter().enumerate() {
            board[3 - i][c] = parse_count(cell)?;
        }
    }
    let side = match f[2] {
        "a" => Player::A,
        "b" => Player::B,
        x => return Err(format!("bad side {x:?}")),
    };
    let ga = Geo { w, me: Player::A };
    let gb = Geo { w, me: Player::B };
    let mut pos = RacePos {
        code,
        w,
        board,
        side,
        phase: Phase::M,
        tick: 0,
        stage: 0,
        racers: [DONE; 2],
        ply: 0,
        holds: 0,
    };
    let rest = if f[3] == "r" || f[3] == "rx" {
        if f.len() != 8 {
            return Err(format!("phase r wants 8 fields: {s:?}"));
        }
        let (t, st) = f[4]
            .split_once('.')
            .ok_or_else(|| format!("bad tick {:?}", f[4]))?;
        pos.tick = parse_count(t)?;
        pos.stage = parse_count(st)? as u8;
        pos.racers = [parse_racer(&ga, f[5])?, parse_racer(&gb, f[6])?];
        pos.phase = if f[3] == "r" { Phase::R } else { Phase::Rx };
        &f[7..]
    } else {
        let (ph, holds) = match f[3].split_once(",holds=") {
            Some((ph, n)) => (ph, parse_count(n)?),
            None => (f[3], 0),
        };
        pos.holds = holds;
        pos.phase = match ph {
            "s2" => Phase::S2,
            "m" => Phase::M,
            x => match x.strip_prefix("s1:") {
                Some(st) => Phase::S1(parse_start(&ga, st)?),
                None => return Err(format!("bad phase {x:?}")),
            },
        };
        &f[4..]
    };
    if rest.len() != 1 {
        return Err(format!("bad field count in {s:?}"));
    }
    pos.ply = parse_count(rest[0])?;
    Ok(pos)
}

// ---------------------------------------------------------------------------
// Unit tests (cheap): hand-traced races.
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(pos: &str) -> Vec<(String, String)> {
        race_moves(pos, 100_000).expect("position parses")
    }

    #[test]
    fn round_trip() {
        for s in [
            "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a s2 0",
            "acholi:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 b s1:~k 1",
            "didinga:10 2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2 b s1:13 1",
            "lango:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 b r 3.2 lap=ccw,hand=2,next=c,origin=b,front=0,laps=1 decide=relay,hand=3,at=j,origin=j,front=1,single=0,laps=2 4",
        ] {
            assert_eq!(format(&parse(s).unwrap()), s);
        }
    }

    /// The blind starts of the three codes from the start position.
    #[test]
    fn blind_starts() {
        let full = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
        let names = |s: String| -> Vec<String> { moves(&s).into_iter().map(|m| m.0).collect() };
        assert_eq!(
            names(format!("didinga:8 {full} a s2 0")),
            ["a", "b", "k", "l", "m", "n", "o", "p"]
        );
        assert_eq!(names(format!("lango:8 {full} a s2 0")), ["a", "b"]);
        assert_eq!(
            names(format!("acholi:8 {full} b s1:a 1")),
            ["a", "b", "k", "l", "m", "n", "o", "p", "~k"]
        );
    }

    /// A race on a small board, traced by hand. A: a 2 (row 0 col 6);
    /// B: a 2 (row 3 col 1). Each lifts a and sows b, c, both empty: tick 1
    /// A drops in b, then B in b; tick 2 B first: c (empty: B finishes
    /// first), then A: c, ends. B moves first in the main phase.
    #[test]
    fn simple_race_first_finisher() {
        let pos =
            "didinga:8 0,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 b s1:a 1";
        assert_eq!(
            moves(pos),
            vec![(
                "a".to_string(),
                "didinga:8 1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1 b m 2"
                    .to_string()
            )]
        );
    }

    /// A Lango decision traced by hand. A, at 3.1 (B done), has relayed i
    /// (2 lifted); clockwise h, g would end on g (1) facing B's f (1): `+`
    /// and `-` are offered.
    /// `+`: tick 4 h, tick 5 g captures B's f (1, back empty): clockwise
    /// again (1 into h, facing nothing) is not offered, so the single-counter
    /// rule: g's 2 + 1 sown h, i, j (ticks 6, 7, 8); j was empty: done.
    /// `-`: j, k (ticks 4, 5), both empty: done. B finished first.
    #[test]
    fn lango_decision_by_hand() {
        let pos = "lango:8 0,0,0,0,0,0,0,0/0,0,0,1,0,0,0,0/0,0,0,1,0,0,0,0/0,0,0,0,0,0,0,0 a r 3.1 decide=relay,hand=2,at=i,origin=i,front=1,single=0,laps=4 done 9";
        assert_eq!(
            moves(pos),
            vec![
                (
                    "+".to_string(),
                    "lango:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,2,0,0,0,0,0/0,0,0,0,0,0,0,0 b m 10"
                        .to_string()
                ),
                (
                    "-".to_string(),
                    "lango:8 0,0,0,0,0,0,0,0/0,0,0,1,0,0,0,0/1,0,0,1,0,0,0,0/1,0,0,0,0,0,0,0 b m 10"
                        .to_string()
                ),
            ]
        );
    }
}
