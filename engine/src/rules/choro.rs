//! Move generation for the three Choro codes: every complete decision path
//! of a turn (RULINGS 2-7), depth first, with no heap allocation.
//!
//! The turn runs deterministically from lap end to lap end until it ends or
//! reaches a decision point (two or more options). Inside a deterministic
//! stretch, Brent's algorithm on the packed state finds plain cycles; at
//! decision points the state is compared with the earlier decision points of
//! the path; every path is also cut at the lap budget. A cut path is not a
//! legal move.

mod didinga;
pub(crate) use didinga::generate as generate_didinga;
use didinga::meta_hashes;
pub(crate) use didinga::run_keys;

use super::sower::{LapKind, Turn};
use super::{acholi, lango, Cut, GenStats, LapBoard, LapRecord, MoveInfo};
use crate::board::Position;
use crate::types::geometry::{self, facing};
use crate::types::moves::{Move, Token, MAX_TOKENS};
use crate::types::{Dir, Variant};
use std::mem::MaybeUninit;

const NONE: u8 = 0xff;

/// One option at a decision point.
enum Opt {
    /// Take this token and go on from this lap end.
    Run(Token, Turn),
    /// Acholi: leave the increment (already put in its hole) and start anew.
    Leave(Turn),
}

pub(crate) struct ChoroGen<'p, F> {
    pos: &'p Position,
    me: usize,
    opp: usize,
    w: u8,
    len: u8,
    front: u32,
    variant: Variant,
    opening: bool,
    budget: u32,
    path: Move,
    depth: usize,
    /// Lap-end states of the decision points of the current path; only the
    /// first `depth` are written (left uninitialised: a generator is made
    /// per node, and Didinga never reads them).
    seen: [MaybeUninit<Turn>; MAX_TOKENS],
    seen_key: [MaybeUninit<u64>; MAX_TOKENS],
    pub stats: GenStats,
    sink: F,
    stop: bool,
    /// Tracing: the laps of the current path, and the move whose laps are wanted.
    trace: Vec<LapRecord>,
    /// With `trace`, each lap's board when boards are wanted (`trace_boards_of`).
    trace_boards: Option<Vec<LapBoard>>,
    target: Option<Move>,
    found: Option<Vec<LapRecord>>,
    found_boards: Vec<LapBoard>,
    /// When set, every cut path is recorded: its decisions so far, why, and its laps.
    cuts: Option<Vec<(Move, Cut, u32)>>,
    /// Key sums of the mover's loop walked round (`didinga::run_keys`).
    keys: &'static [u64; 256],
    /// Every child but its board, and the non-board part of its hash.
    child: Position,
    child_meta: u64,
}

impl<'p, F> ChoroGen<'p, F>
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    pub fn new(pos: &'p Position, budget: u32, sink: F) -> Self {
        let me = pos.side.index();
        let w = pos.width;
        ChoroGen {
            pos,
            me,
            opp: 1 - me,
            w,
            len: 2 * w,
            front: geometry::front_mask(w),
            variant: pos.variant,
            opening: pos.phase.is_opening(),
            budget,
            path: Move::empty(w == 8),
            depth: 0,
            seen: [const { MaybeUninit::uninit() }; MAX_TOKENS],
            seen_key: [const { MaybeUninit::uninit() }; MAX_TOKENS],
            stats: GenStats::default(),
            sink,
            stop: false,
            trace: Vec::new(),
            trace_boards: None,
            target: None,
            found: None,
            found_boards: Vec::new(),
            cuts: None,
            // Set by `prepare` (the Didinga generator has its own).
            child: *pos,
            child_meta: 0,
            keys: run_keys(pos.side.index(), 2 * w),
        }
    }

    /// Every never-ending path: the decisions it had taken when it was cut.
    pub fn cuts_of(mut self) -> Vec<(Move, Cut, u32)> {
        self.cuts = Some(Vec::new());
        self.prepare();
        let t = Self::fresh_turn(self.pos);
        self.starts(&t);
        self.cuts.unwrap_or_default()
    }

    #[cold]
    fn note_cut(&mut self, why: Cut, laps: u32) {
        if let Some(c) = &mut self.cuts {
            c.push((self.path, why, laps));
        }
    }

    /// The laps of move `m`, if it is legal.
    pub fn trace_of(mut self, m: &Move) -> Option<Vec<LapRecord>> {
        self.target = Some(*m);
        self.prepare();
        let t = Self::fresh_turn(self.pos);
        self.starts(&t);
        self.found
    }

    /// The laps of move `m` with the board each leaves, if it is legal.
    pub fn trace_boards_of(mut self, m: &Move) -> Option<Vec<(LapRecord, LapBoard)>> {
        self.trace_boards = Some(Vec::new());
        self.target = Some(*m);
        self.prepare();
        let t = Self::fresh_turn(self.pos);
        self.starts(&t);
        let boards = std::mem::take(&mut self.found_boards);
        self.found
            .map(|laps| laps.into_iter().zip(boards).collect())
    }

    fn fresh_turn(pos: &Position) -> Turn {
        let (opp, w) = (1 - pos.side.index(), pos.width);
        let caps = if pos.variant == Variant::Lango {
            // Lango: front row only, the facing front hole alone decides.
            let rev = pos.occupied[opp].reverse_bits() >> (32 - 2 * w);
            ((rev & ((1 << w) - 1)) << w, 0)
        } else {
            didinga::capture_sets(pos.occupied[opp], w)
        };
        Turn {
            caps,
            loops: pos.loops,
            hash: pos.hash.wrapping_sub(meta_hashes(pos).0),
            last: 0,
            origin: 0,
            base: NONE,
            kind: LapKind::Normal,
            dir: Dir::Ccw,
            front_reached: false,
            laps: 0,
            drops: 0,
            lap_first: 0,
            lap_hand: 0,
        }
    }

    /// The child template and its hash part, before the first move.
    fn prepare(&mut self) {
        let pos = self.pos;
        self.child = Position {
            ply: pos.ply + 1,
            side: pos.side.other(),
            phase: pos.phase.next(),
            ..*pos
        };
        self.child_meta = meta_hashes(pos).1;
    }

    /// Run the generator. By reference, so that the generator (with its
    /// decision frames, several kB) is never moved.
    pub fn run_all(&mut self) -> GenStats {
        if self.variant == Variant::Didinga {
            return didinga::generate(self.pos, self.budget, &mut self.sink);
        }
        self.run_general()
    }

    /// The general generator, which handles Didinga too (the specialised
    /// one is checked against it).
    fn run_general(&mut self) -> GenStats {
        self.prepare();
        let t = Self::fresh_turn(self.pos);
        self.starts(&t);
        self.stats
    }

    #[inline]
    fn next(&self, h: u8) -> u8 {
        geometry::next_pos(h, self.len)
    }

    #[inline]
    fn prev(&self, h: u8) -> u8 {
        geometry::prev_pos(h, self.len)
    }

    #[inline]
    fn number(&self, h: u8) -> u8 {
        geometry::number_of_pos(h, self.w)
    }

    #[inline]
    fn lap(&mut self, t: &mut Turn, first: u8, hand: u8, dir: Dir) {
        self.stats.drops += hand as u64;
        self.stats.laps += 1;
        t.lap(self.me, self.len, self.front, self.keys, first, hand, dir);
    }

    /// The opponent's holes the mover captures from if the lap ended at `t.last`
    /// in an occupied hole (RULINGS 3): `None` if it is not a capturing hole.
    #[inline]
    fn capture_holes(&self, t: &Turn) -> Option<(u8, u8)> {
        let caps = if self.opening && !t.front_reached {
            t.caps.0 | t.caps.1
        } else {
            t.caps.0
        };
        (caps >> t.last & 1 != 0).then(|| facing(t.last, self.w))
    }

    #[inline]
    fn ends_in_capture(&self, t: &Turn) -> bool {
        t.loops[self.me].get(t.last) >= 2 && self.capture_holes(t).is_some()
    }

    /// Calls `f` with each hole of `mask`, in Driberg order (a, b, c, ...).
    #[inline]
    fn each_hole(&mut self, mask: u32, mut f: impl FnMut(&mut Self, u8)) {
        let shift = self.w - 2;
        let full = geometry::loop_mask(self.len) as u64;
        let m = mask as u64;
        let mut rot = ((m >> shift) | (m << (self.len - shift))) & full;
        while rot != 0 && !self.stop {
            let i = rot.trailing_zeros() as u8;
            rot &= rot - 1;
            let h = (i + shift) % self.len;
            f(self, h);
        }
    }

    /// Every way to begin the turn (or, in Acholi, to go on after a leave).
    fn starts(&mut self, t: &Turn) {
        let movable = t.loops[self.me].movable();
        let back = (1u32 << self.w) - 1;
        match self.variant {
            Variant::Didinga => {
                let holes = if self.opening {
                    movable & back
                } else {
                    movable
                };
                self.each_hole(holes, |g, h| g.start_ccw(t, h));
            }
            Variant::Lango => {
                if self.opening {
                    let ab = 1 << geometry::pos_of_number(1, self.w)
                        | 1 << geometry::pos_of_number(2, self.w);
                    self.each_hole(movable & ab, |g, h| g.start_ccw(t, h));
                    return;
                }
                let caps = lango::start_captures(t, self.me, self.w);
                if caps != 0 {
                    self.each_hole(caps, |g, f| g.start_capture(t, f));
                    return;
                }
                self.each_hole(movable, |g, h| g.start_ccw(t, h));
                let base = geometry::lango_base(self.w);
                self.each_hole(movable & base, |g, h| g.start_cw(t, h, LapKind::LangoCw));
            }
            Variant::Acholi => {
                let ccw = if self.opening {
                    movable & back
                } else {
                    movable
                };
                self.each_hole(ccw, |g, h| g.start_ccw(t, h));
                let att = movable & acholi::attack_holes(self.w, self.opening);
                self.each_hole(att, |g, h| g.start_cw(t, h, LapKind::AcholiAttack));
            }
            Variant::Adjiboto => unreachable!("Adjiboto has its own generator"),
        }
    }

    fn with_token(&mut self, tok: Token, t: Turn) {
        let mark = self.path.len();
        if self.path.push(tok) {
            self.run(t);
            self.path.truncate(mark);
        } else {
            self.stats.cut_overflow += 1;
        }
    }

    fn start_ccw(&mut self, t: &Turn, h: u8) {
        let mut c = *t;
        let n = c.take(self.me, h);
        c.origin = h;
        c.base = NONE;
        c.kind = LapKind::Normal;
        let first = self.next(h);
        self.lap(&mut c, first, n, Dir::Ccw);
        self.with_token(Token::Lift(self.number(h)), c);
    }

    /// A clockwise first lap from a base hole, offered only if it captures.
    fn start_cw(&mut self, t: &Turn, h: u8, kind: LapKind) {
        let mut c = *t;
        let n = c.take(self.me, h);
        c.origin = h;
        c.base = h;
        c.kind = kind;
        let first = self.prev(h);
        self.lap(&mut c, first, n, Dir::Cw);
        if self.ends_in_capture(&c) {
            self.with_token(Token::Clockwise(self.number(h)), c);
        }
    }

    /// Lango's compulsory start capture at front hole `f` (RULINGS 5).
    fn start_capture(&mut self, t: &Turn, f: u8) {
        let mut c = *t;
        let (of, ob) = facing(f, self.w);
        let fr = c.take(self.opp, of);
        let bk = c.take(self.opp, ob);
        c.took_column(f, self.len);
        self.lango_sow(&mut c, f, fr, bk);
        self.with_token(Token::StartCapture(self.number(f)), c);
    }

    /// Lango increment sowing (RULINGS 4): from the capturing hole `l`
    /// itself, or, for a single counter, with all of `l` from the next hole.
    fn lango_sow(&mut self, t: &mut Turn, l: u8, fr: u8, bk: u8) {
        t.kind = LapKind::Normal;
        t.base = NONE;
        t.origin = l;
        if fr == 1 && bk == 0 {
            let own = t.take(self.me, l);
            let first = self.next(l);
            self.lap(t, first, own + 1, Dir::Ccw);
        } else {
            self.lap(t, l, fr + bk, Dir::Ccw);
        }
    }

    /// Run the turn from a lap end until it ends, is cut, or branches.
    fn run(&mut self, mut t: Turn) {
        let (me, opp) = (self.me, self.opp);
        // Brent: `saved` is the state at the last power-of-two checkpoint.
        let mut saved = t;
        let mut saved_key = t.key();
        let (mut power, mut lam) = (1u32, 0u32);
        loop {
            if self.stop {
                return;
            }
            if t.laps > self.budget {
                self.stats.cut_budget += 1;
                self.note_cut(Cut::Budget, t.laps);
                return;
            }
            let l = t.last;
            let v = t.loops[me].get(l);
            if self.target.is_some() {
                self.record(&t);
            }
            if v == 1 {
                self.emit(&t);
                return;
            }
            if let Some((of, ob)) = self.capture_holes(&t) {
                // `pre` is the lap-end state, kept only where a decision may follow.
                let pre = if matches!(t.kind, LapKind::LangoCw | LapKind::AcholiAttack) {
                    Some(t)
                } else {
                    None
                };
                let fr = t.take(opp, of);
                let bk = t.take(opp, ob);
                t.took_column(l, self.len);
                let k = fr + bk;
                match (self.variant, t.kind) {
                    (Variant::Lango, LapKind::LangoCw) => {
                        let mut again = t;
                        let first = self.prev(t.base);
                        self.lap(&mut again, first, k, Dir::Cw);
                        if self.ends_in_capture(&again) {
                            let mut normal = t;
                            self.lango_sow(&mut normal, l, fr, bk);
                            self.decide(
                                &pre.unwrap_or(t),
                                [
                                    Some(Opt::Run(Token::Plus, again)),
                                    Some(Opt::Run(Token::Minus, normal)),
                                    None,
                                ],
                            );
                            return;
                        }
                        self.lango_sow(&mut t, l, fr, bk);
                    }
                    (Variant::Lango, _) => self.lango_sow(&mut t, l, fr, bk),
                    (Variant::Acholi, LapKind::AcholiAttack) => {
                        let o = t.origin;
                        let mut again = t;
                        let first = self.prev(o);
                        self.lap(&mut again, first, k, Dir::Cw);
                        let again = self
                            .ends_in_capture(&again)
                            .then_some(Opt::Run(Token::Plus, again));
                        let mut ccw = t;
                        ccw.kind = LapKind::Normal;
                        let first = self.next(o);
                        self.lap(&mut ccw, first, k, Dir::Ccw);
                        let mut left = t;
                        left.put(me, o, k);
                        self.decide(
                            &pre.unwrap_or(t),
                            [
                                again,
                                Some(Opt::Run(Token::Minus, ccw)),
                                Some(Opt::Leave(left)),
                            ],
                        );
                        return;
                    }
                    _ => {
                        // Didinga and Acholi: from the hole after the origin, which is kept.
                        t.kind = LapKind::Normal;
                        let first = self.next(t.origin);
                        self.lap(&mut t, first, k, Dir::Ccw);
                    }
                }
            } else {
                let cw_holes = match self.variant {
                    Variant::Lango => geometry::lango_base(self.w),
                    Variant::Acholi => geometry::acholi_base(self.w),
                    _ => 0,
                };
                if cw_holes & (1 << l) != 0 {
                    let mut relay = t;
                    let n = relay.take(me, l);
                    relay.origin = l;
                    relay.base = NONE;
                    relay.kind = LapKind::Normal;
                    let mut cw = relay;
                    cw.base = l;
                    cw.kind = if self.variant == Variant::Lango {
                        LapKind::LangoCw
                    } else {
                        LapKind::AcholiMidCw
                    };
                    let first = self.prev(l);
                    self.lap(&mut cw, first, n, Dir::Cw);
                    let first = self.next(l);
                    self.lap(&mut relay, first, n, Dir::Ccw);
                    if self.ends_in_capture(&cw) {
                        self.decide(
                            &t,
                            [
                                Some(Opt::Run(Token::Plus, cw)),
                                Some(Opt::Run(Token::Minus, relay)),
                                None,
                            ],
                        );
                        return;
                    }
                    t = relay;
                } else {
                    // The common case: relay in place, no copy of the turn.
                    let n = t.take(me, l);
                    t.origin = l;
                    t.base = NONE;
                    t.kind = LapKind::Normal;
                    let first = self.next(l);
                    self.lap(&mut t, first, n, Dir::Ccw);
                }
            }
            let key = t.key();
            if key == saved_key && t.same_state(&saved) {
                self.stats.cut_cycle += 1;
                self.note_cut(Cut::Cycle, t.laps);
                return;
            }
            lam += 1;
            if lam == power {
                saved = t;
                saved_key = key;
                power <<= 1;
                lam = 0;
            }
        }
    }

    /// A decision point at lap-end state `pre`: branch into each option,
    /// unless this state already occurred at a decision point of the path.
    fn decide(&mut self, pre: &Turn, opts: [Option<Opt>; 3]) {
        let key = pre.key();
        for i in 0..self.depth {
            // SAFETY: `seen[..depth]` and `seen_key[..depth]` were written
            // below before `depth` grew.
            let (seen, seen_key) = unsafe {
                (
                    self.seen[i].assume_init_ref(),
                    self.seen_key[i].assume_init(),
                )
            };
            if seen_key == key && seen.same_state(pre) {
                self.stats.cut_repeat += 1;
                self.note_cut(Cut::Repeat, pre.laps);
                return;
            }
        }
        if self.depth == MAX_TOKENS {
            self.stats.cut_overflow += 1;
            return;
        }
        self.seen[self.depth] = MaybeUninit::new(*pre);
        self.seen_key[self.depth] = MaybeUninit::new(key);
        self.depth += 1;
        for opt in opts.into_iter().flatten() {
            if self.stop {
                break;
            }
            match opt {
                Opt::Run(tok, t) => self.with_token(tok, t),
                Opt::Leave(t) => {
                    let mark = self.path.len();
                    if self.path.push(Token::Leave) {
                        self.starts(&t);
                        self.path.truncate(mark);
                    } else {
                        self.stats.cut_overflow += 1;
                    }
                }
            }
        }
        self.depth -= 1;
    }

    #[cold]
    fn record(&mut self, t: &Turn) {
        let i = t.laps as usize - 1;
        self.trace.truncate(i);
        self.trace.push(LapRecord {
            first: self.number(t.lap_first),
            hand: t.lap_hand,
            dir: t.dir,
            last: self.number(t.last),
            after: t.loops[self.me].get(t.last),
        });
        if let Some(boards) = &mut self.trace_boards {
            boards.truncate(i);
            let mut b = [[0u8; 32]; 2];
            for (s, row) in b.iter_mut().enumerate() {
                for (p, c) in row.iter_mut().enumerate().take(self.len as usize) {
                    *c = t.loops[s].get(p as u8);
                }
            }
            boards.push(b);
        }
    }

    fn emit(&mut self, t: &Turn) {
        if let Some(m) = self.target {
            if m == self.path {
                self.found = Some(self.trace.clone());
                if let Some(b) = &self.trace_boards {
                    self.found_boards = b.clone();
                }
                self.stop = true;
            }
            return;
        }
        let child = &mut self.child;
        child.loops = t.loops;
        for s in 0..2 {
            (child.occupied[s], child.movable[s]) = t.loops[s].masks(self.len);
        }
        child.hash = t.hash.wrapping_add(self.child_meta);
        self.stats.moves += 1;
        let info = MoveInfo {
            laps: t.laps,
            drops: t.drops,
        };
        if !(self.sink)(&self.path, &self.child, info) {
            self.stop = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MoveInfo;

    type Listing = (Vec<(String, Position, MoveInfo)>, GenStats);

    fn list(pos: &Position, budget: u32, general: bool) -> Listing {
        let mut v = Vec::new();
        let sink = |m: &Move, p: &Position, i: MoveInfo| {
            v.push((m.to_string(), *p, i));
            true
        };
        let mut g = ChoroGen::new(pos, budget, sink);
        let stats = if general {
            g.run_general()
        } else {
            g.run_all()
        };
        (v, stats)
    }

    fn rng(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// The Didinga generator lists the same moves, in the same order, with
    /// the same children, per-move figures and statistics (cuts, laps and
    /// drops of cut paths included) as the general one: on random games of
    /// every width, on scattered boards with small budgets (budget cuts), and
    /// on the never-ending positions of BENCHMARKS.md (cycle and budget cuts).
    #[test]
    fn didinga_generator_matches_the_general_one() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        let mut cuts = GenStats::default();
        let check = |p: &Position, budget: u32, cuts: &mut GenStats| {
            let fast = list(p, budget, false);
            let general = list(p, budget, true);
            assert_eq!(fast.1, general.1, "{p} budget {budget}: statistics");
            assert_eq!(fast.0, general.0, "{p} budget {budget}: moves");
            cuts.add(&fast.1);
            fast.0
        };
        for w in 8..=16u8 {
            for game in 0..12 {
                let mut p = Position::startpos(Variant::Didinga, w).unwrap();
                for _ in 0..150 {
                    let budget = if game % 3 == 0 {
                        1 + (rng(&mut x) % 40) as u32
                    } else {
                        3000
                    };
                    let kids = check(&p, budget, &mut cuts);
                    checked += 1;
                    if kids.is_empty() {
                        break;
                    }
                    p = kids[(rng(&mut x) % kids.len() as u64) as usize].1;
                }
            }
        }
        for s in [
            "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28",
            "didinga:8 1,1,0,3,1,0,0,0/0,0,0,0,0,0,0,1/0,12,8,3,2,3,0,1/10,6,1,6,2,1,0,2 a m 174",
            "didinga:8 1,2,0,1,3,1,2,1/0,2,0,1,1,4,0,0/1,5,0,5,1,8,3,0/3,0,1,2,1,5,4,6 b m 33",
            "didinga:8 0,5,0,1,1,1,4,0/7,0,7,0,4,0,2,1/0,3,0,3,3,0,6,1/3,2,0,3,0,1,0,6 a m 12",
            "didinga:8 2,4,5,0,1,0,1,14/1,4,8,1,2,1,0,11/0,0,3,0,0,0,1,0/2,0,0,1,0,1,1,0 b m 45",
        ] {
            let p: Position = s.parse().unwrap();
            for budget in [0, 1, 5, 500, 4000, crate::rules::LAP_BUDGET] {
                check(&p, budget, &mut cuts);
            }
        }
        assert!(checked > 5000, "{checked}");
        assert!(cuts.cut_cycle >= 4 && cuts.cut_budget >= 100, "{cuts:?}");
    }
}
