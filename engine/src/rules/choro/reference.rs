//! The plain reference generator of the three Choro codes (`ChoroGen`):
//! every complete decision path of a turn (RULINGS 2-7), depth first, with
//! no heap allocation, written clause by clause (the table in `choro`'s
//! module says which function holds which). `Position::trace`,
//! `trace_boards` and `never_ending_paths` run it; the fast generators of
//! `rules::didinga` and `rules::lango_acholi` are tested against it here.
//!
//! The turn runs deterministically from lap end to lap end until it ends or
//! reaches a decision point (two or more options). Inside a deterministic
//! stretch, Brent's algorithm on the packed state finds plain cycles; at
//! decision points the state is compared with the earlier decision points of
//! the path; every path is also cut at the lap budget. A cut path is not a
//! legal move.

use super::keys::{capture_sets, meta_hashes, run_keys};
use super::sower::{LapKind, Turn, NONE};
use super::{acholi, lango};
use crate::board::{zobrist, Position};
use crate::rules::{Cut, GenStats, LapBoard, LapRecord, MoveInfo};
use crate::types::geometry::{self, facing};
use crate::types::moves::{Move, Token, MAX_TOKENS};
use crate::types::packed::{Loop, Ring, Ring16};
use crate::types::{Dir, Variant};
use smallvec::SmallVec;

/// One option at a decision point.
enum Opt<R> {
    /// Take this token and go on from this lap end.
    Run(Token, Turn<R>),
    /// Acholi: leave the increment (already put in its hole) and start anew.
    Leave(Turn<R>),
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
    /// Lap-end states of the decision points of the current path, the
    /// mover's loop in loop order, with their keys (inline: a path has at
    /// most `MAX_TOKENS` decisions, and [`Self::decide`] refuses more).
    seen: SmallVec<[(u64, Turn<Loop>); MAX_TOKENS]>,
    pub(crate) stats: GenStats,
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
    /// Key sums of the mover's loop walked round (`keys::run_keys`).
    keys: &'static [u64; 256],
    /// The mover's hole keys.
    hole_keys: &'static [u64; 32],
    /// Every child but its board, and the non-board part of its hash.
    child: Position,
    child_meta: u64,
    /// The opponent's holes at the start of the turn (a turn only empties them).
    theirs: Loop,
    /// The mover's holes where a lap may turn clockwise (Lango and Acholi).
    cw_holes: u32,
}

impl<'p, F> ChoroGen<'p, F>
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    pub(crate) fn new(pos: &'p Position, budget: u32, sink: F) -> Self {
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
            seen: SmallVec::new(),
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
            hole_keys: &zobrist::HOLE[me],
            theirs: pos.loops[1 - me],
            cw_holes: match pos.variant {
                Variant::Lango => geometry::lango_base(w),
                Variant::Acholi => geometry::acholi_base(w),
                _ => 0,
            },
        }
    }

    /// Every never-ending path: the decisions it had taken when it was cut.
    pub(crate) fn cuts_of(mut self) -> Vec<(Move, Cut, u32)> {
        self.cuts = Some(Vec::new());
        self.go();
        self.cuts.unwrap_or_default()
    }

    #[cold]
    fn note_cut(&mut self, why: Cut, laps: u32) {
        if let Some(c) = &mut self.cuts {
            c.push((self.path, why, laps));
        }
    }

    /// The laps of move `m`, if it is legal.
    pub(crate) fn trace_of(mut self, m: &Move) -> Option<Vec<LapRecord>> {
        self.target = Some(*m);
        self.go();
        self.found
    }

    /// The laps of move `m` with the board each leaves, if it is legal.
    pub(crate) fn trace_boards_of(mut self, m: &Move) -> Option<Vec<(LapRecord, LapBoard)>> {
        self.trace_boards = Some(Vec::new());
        self.target = Some(*m);
        self.go();
        let boards = std::mem::take(&mut self.found_boards);
        self.found
            .map(|laps| laps.into_iter().zip(boards).collect())
    }

    /// Every path from the position's start, on the ring type of its loops.
    fn go(&mut self) {
        let board = self.prepare();
        if self.len == 16 {
            let t = Self::fresh_turn::<Ring16>(self.pos, board);
            self.starts(&t);
        } else {
            let t = Self::fresh_turn::<Loop>(self.pos, board);
            self.starts(&t);
        }
    }

    /// The turn before its first lap; `board` is the board part of the hash.
    fn fresh_turn<R: Ring>(pos: &Position, board: u64) -> Turn<R> {
        let (opp, w) = (1 - pos.side.index(), pos.width);
        let caps = if pos.variant == Variant::Lango {
            (lango::facing_front(pos.occupied[opp], w), 0)
        } else {
            let (front, back) = capture_sets(pos.occupied[opp], w);
            // Back-row captures only in the opening (until the front row is reached).
            (front, if pos.phase.is_opening() { back } else { 0 })
        };
        Turn {
            caps,
            mine: R::load(&pos.loops[pos.side.index()], 2 * w),
            opp_occ: pos.occupied[opp],
            hash: board,
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

    /// The child template and its hash part, before the first move; returns
    /// the board part of the position's hash.
    fn prepare(&mut self) -> u64 {
        let pos = self.pos;
        self.child = Position {
            ply: pos.ply + 1,
            side: pos.side.other(),
            phase: pos.phase.next(),
            ..*pos
        };
        let (meta, child_meta) = meta_hashes(pos);
        self.child_meta = child_meta;
        pos.hash.wrapping_sub(meta)
    }

    /// The general generator, which handles every code (the specialised
    /// ones are checked against it).
    #[cfg(test)]
    fn run_general(&mut self) -> GenStats {
        self.go();
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
    fn lap<R: Ring>(&mut self, t: &mut Turn<R>, first: u8, hand: u8, dir: Dir) {
        self.stats.drops += hand as u64;
        self.stats.laps += 1;
        t.lap(self.len, self.front, self.keys, first, hand, dir);
    }

    /// The opponent's holes the mover captures from if the lap ended at `t.last`
    /// in an occupied hole (RULINGS 3): `None` if it is not a capturing hole.
    #[inline]
    fn capture_holes<R: Ring>(&self, t: &Turn<R>) -> Option<(u8, u8)> {
        t.captures().then(|| facing(t.last, self.w))
    }

    #[inline]
    fn ends_in_capture<R: Ring>(&self, t: &Turn<R>) -> bool {
        t.at_last(self.len) >= 2 && self.capture_holes(t).is_some()
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
    fn starts<R: Ring>(&mut self, t: &Turn<R>) {
        let (occupied, movable) = R::masks(&t.mine_loop());
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
                let caps = lango::start_captures(occupied, t.opp_occ, self.w);
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

    fn with_token<R: Ring>(&mut self, tok: Token, t: Turn<R>) {
        let mark = self.path.len();
        if self.path.push(tok) {
            self.run(t);
            self.path.truncate(mark);
        } else {
            self.stats.cut_overflow += 1;
        }
    }

    fn start_ccw<R: Ring>(&mut self, t: &Turn<R>, h: u8) {
        // Lifting `h` and sowing from the next hole is a relay from `h`.
        let mut c = *t;
        c.mine.seek(c.last, h);
        c.last = h;
        let n = c.at_last(self.len);
        self.stats.drops += n as u64;
        self.stats.laps += 1;
        c.relay(self.hole_keys, self.len, self.front, self.keys, n);
        self.with_token(Token::Lift(self.number(h)), c);
    }

    /// A clockwise first lap from a base hole, offered only if it captures.
    fn start_cw<R: Ring>(&mut self, t: &Turn<R>, h: u8, kind: LapKind) {
        let mut c = *t;
        let n = c.take(self.me, h, self.len);
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
    fn start_capture<R: Ring>(&mut self, t: &Turn<R>, f: u8) {
        let mut c = *t;
        let (of, ob) = facing(f, self.w);
        let fr = c.take_opp(self.opp, &self.theirs, of);
        let bk = c.take_opp(self.opp, &self.theirs, ob);
        c.took_column(f, self.len);
        self.lango_sow(&mut c, f, fr, bk);
        self.with_token(Token::StartCapture(self.number(f)), c);
    }

    /// Lango increment sowing (RULINGS 4): from the capturing hole `l`
    /// itself, or, for a single counter, with all of `l` from the next hole.
    fn lango_sow<R: Ring>(&mut self, t: &mut Turn<R>, l: u8, fr: u8, bk: u8) {
        t.kind = LapKind::Normal;
        t.base = NONE;
        t.origin = l;
        if fr == 1 && bk == 0 {
            let own = t.take(self.me, l, self.len);
            let first = self.next(l);
            self.lap(t, first, own + 1, Dir::Ccw);
        } else {
            self.lap(t, l, fr + bk, Dir::Ccw);
        }
    }

    /// Run the turn from a lap end until it ends, is cut, or branches.
    /// The relays (most laps) run here with the turn in registers; captures
    /// and laps ending on a clockwise hole go to [`Self::branch`].
    fn run<R: Ring>(&mut self, mut t: Turn<R>) {
        if self.stop {
            return;
        }
        let (hole_keys, len, front, keys) = (self.hole_keys, self.len, self.front, self.keys);
        let (budget, cw_holes, tracing) = (self.budget, self.cw_holes, self.target.is_some());
        // Laps and drops of the relays run here, added to the statistics on the way out.
        let (mut relays, mut relay_drops) = (0u64, 0u64);
        // Brent: `saved` is the state at the last power-of-two checkpoint.
        let mut saved = t;
        let (mut power, mut lam) = (1u32, 0u32);
        loop {
            if t.laps > budget {
                self.stats.cut_budget += 1;
                self.note_cut(Cut::Budget, t.laps);
                break;
            }
            let v = t.at_last(len);
            if tracing {
                let r = t;
                self.record(&r);
            }
            if v == 1 {
                let e = t;
                self.emit(&e);
                break;
            }
            if t.captures() || cw_holes >> t.last & 1 != 0 {
                match self.branch(t, v) {
                    Some(next) => t = next,
                    None => break,
                }
            } else {
                // The common case: a relay in place.
                relays += 1;
                relay_drops += v as u64;
                t.relay(hole_keys, len, front, keys, v);
            }
            if t.hash == saved.hash && t.same_state(&saved) {
                self.stats.cut_cycle += 1;
                self.note_cut(Cut::Cycle, t.laps);
                break;
            }
            lam += 1;
            if lam == power {
                saved = t;
                power <<= 1;
                lam = 0;
            }
        }
        self.stats.laps += relays;
        self.stats.drops += relay_drops;
    }

    /// A lap end at a capturing hole, or at a clockwise hole of Lango or
    /// Acholi, holding `v` counters (at least 2): the turn after the next
    /// lap, or `None` where a decision point took over (or cut the path).
    #[inline]
    fn branch<R: Ring>(&mut self, mut t: Turn<R>, v: u8) -> Option<Turn<R>> {
        let (me, opp) = (self.me, self.opp);
        let l = t.last;
        if let Some((of, ob)) = self.capture_holes(&t) {
            // `pre` is the lap-end state, kept only where a decision may follow.
            let pre = if matches!(t.kind, LapKind::LangoCw | LapKind::AcholiAttack) {
                Some(t)
            } else {
                None
            };
            let fr = t.take_opp(opp, &self.theirs, of);
            let bk = t.take_opp(opp, &self.theirs, ob);
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
                        return None;
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
                    left.put(me, o, k, self.len);
                    self.decide(
                        &pre.unwrap_or(t),
                        [
                            again,
                            Some(Opt::Run(Token::Minus, ccw)),
                            Some(Opt::Leave(left)),
                        ],
                    );
                    return None;
                }
                _ => {
                    // Didinga and Acholi: from the hole after the origin, which is kept.
                    t.kind = LapKind::Normal;
                    let first = self.next(t.origin);
                    self.lap(&mut t, first, k, Dir::Ccw);
                }
            }
        } else {
            // A clockwise hole: the relay, or a clockwise lap from it if that
            // captures. The clockwise lap counts in the statistics whether
            // it is offered or not; it is sown only if it is.
            self.stats.drops += v as u64;
            self.stats.laps += 1;
            let offered = t.cw_relay_captures(self.len, self.front, v);
            let mut relay = t;
            self.stats.drops += v as u64;
            self.stats.laps += 1;
            relay.relay(self.hole_keys, self.len, self.front, self.keys, v);
            if offered {
                let mut cw = t;
                let n = cw.take(me, l, self.len);
                cw.origin = l;
                cw.base = l;
                cw.kind = if self.variant == Variant::Lango {
                    LapKind::LangoCw
                } else {
                    LapKind::AcholiMidCw
                };
                let first = self.prev(l);
                cw.lap(self.len, self.front, self.keys, first, n, Dir::Cw);
                debug_assert!(self.ends_in_capture(&cw));
                self.decide(
                    &t,
                    [
                        Some(Opt::Run(Token::Plus, cw)),
                        Some(Opt::Run(Token::Minus, relay)),
                        None,
                    ],
                );
                return None;
            }
            t = relay;
        }
        Some(t)
    }

    /// A decision point at lap-end state `pre`: branch into each option,
    /// unless this state already occurred at a decision point of the path.
    fn decide<R: Ring>(&mut self, pre: &Turn<R>, opts: [Option<Opt<R>>; 3]) {
        let key = pre.key();
        let pre = pre.unrotated();
        if self
            .seen
            .iter()
            .any(|(k, seen)| *k == key && seen.same_state(&pre))
        {
            self.stats.cut_repeat += 1;
            self.note_cut(Cut::Repeat, pre.laps);
            return;
        }
        if self.seen.len() == MAX_TOKENS {
            self.stats.cut_overflow += 1;
            return;
        }
        self.seen.push((key, pre));
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
        self.seen.pop();
    }

    #[cold]
    fn record<R: Ring>(&mut self, t: &Turn<R>) {
        let i = t.laps as usize - 1;
        self.trace.truncate(i);
        self.trace.push(LapRecord {
            first: self.number(t.lap_first),
            hand: t.lap_hand,
            dir: t.dir,
            last: self.number(t.last),
            after: t.at_last(self.len),
        });
        if let Some(boards) = &mut self.trace_boards {
            boards.truncate(i);
            let mut loops = [Loop::default(); 2];
            loops[self.me] = t.mine_loop();
            loops[self.opp] = self.theirs.keep(t.opp_occ);
            let mut b = [[0u8; 32]; 2];
            for (s, row) in b.iter_mut().enumerate() {
                for (p, c) in row.iter_mut().enumerate().take(self.len as usize) {
                    *c = loops[s].get(p as u8);
                }
            }
            boards.push(b);
        }
    }

    fn emit<R: Ring>(&mut self, t: &Turn<R>) {
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
        let (me, opp) = (self.me, self.opp);
        let child = &mut self.child;
        child.loops[me] = t.mine_loop();
        (child.occupied[me], child.movable[me]) = R::masks(&child.loops[me]);
        // Captures only empty the opponent's holes.
        let pos = self.pos;
        if t.opp_occ == pos.occupied[opp] {
            child.loops[opp] = pos.loops[opp];
            child.occupied[opp] = pos.occupied[opp];
            child.movable[opp] = pos.movable[opp];
        } else {
            child.loops[opp] = self.theirs.keep(t.opp_occ);
            child.occupied[opp] = t.opp_occ;
            child.movable[opp] = pos.movable[opp] & t.opp_occ;
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
        // The specialised generator is the one `Position::generate` runs
        // (the reference imports no fast generator, so no circle of modules).
        let stats = if general {
            ChoroGen::new(pos, budget, sink).run_general()
        } else {
            assert!(!pos.phase.is_simultaneous(), "{pos}");
            pos.generate(budget, sink)
        };
        (v, stats)
    }

    fn rng(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// The specialised generator against the general one on `p`: the same
    /// moves in the same order, the same children, per-move figures and
    /// statistics. Returns the moves and adds the statistics to `cuts`.
    fn check(p: &Position, budget: u32, cuts: &mut GenStats) -> Vec<(String, Position, MoveInfo)> {
        let fast = list(p, budget, false);
        let general = list(p, budget, true);
        assert_eq!(fast.1, general.1, "{p} budget {budget}: statistics");
        assert_eq!(fast.0, general.0, "{p} budget {budget}: moves");
        cuts.add(&fast.1);
        fast.0
    }

    /// A random game of up to 150 plies from `p`, every position checked by
    /// `each` (which returns its moves) with a budget of 3000, or of 1 to 40
    /// when `small`. Returns how many positions were checked.
    fn random_game(
        mut p: Position,
        small: bool,
        x: &mut u64,
        mut each: impl FnMut(&Position, u32) -> Vec<(String, Position, MoveInfo)>,
    ) -> usize {
        for n in 0..150 {
            let budget = if small {
                1 + (rng(x) % 40) as u32
            } else {
                3000
            };
            let kids = each(&p, budget);
            if kids.is_empty() {
                return n + 1;
            }
            p = kids[(rng(x) % kids.len() as u64) as usize].1;
        }
        150
    }

    /// `check` on each position under every budget from 0 to the rules'.
    fn check_budgets(positions: &[&str], cuts: &mut GenStats) {
        for s in positions {
            let p: Position = s.parse().unwrap();
            for budget in [0, 1, 5, 500, 4000, crate::rules::LAP_BUDGET] {
                check(&p, budget, cuts);
            }
        }
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
        for w in 8..=16u8 {
            for game in 0..12 {
                let p = Position::startpos(Variant::Didinga, w).unwrap();
                checked += random_game(p, game % 3 == 0, &mut x, |p, budget| {
                    check(p, budget, &mut cuts)
                });
            }
        }
        check_budgets(
            &[
            "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28",
            "didinga:8 1,1,0,3,1,0,0,0/0,0,0,0,0,0,0,1/0,12,8,3,2,3,0,1/10,6,1,6,2,1,0,2 a m 174",
            "didinga:8 1,2,0,1,3,1,2,1/0,2,0,1,1,4,0,0/1,5,0,5,1,8,3,0/3,0,1,2,1,5,4,6 b m 33",
            "didinga:8 0,5,0,1,1,1,4,0/7,0,7,0,4,0,2,1/0,3,0,3,3,0,6,1/3,2,0,3,0,1,0,6 a m 12",
            "didinga:8 2,4,5,0,1,0,1,14/1,4,8,1,2,1,0,11/0,0,3,0,0,0,1,0/2,0,0,1,0,1,1,0 b m 45",
            ],
            &mut cuts,
        );
        assert!(checked > 5000, "{checked}");
        assert!(cuts.cut_cycle >= 4 && cuts.cut_budget >= 100, "{cuts:?}");
    }

    /// The same for Lango's and Acholi's generator: random games from the
    /// start, in the opening and from the main phase, every board of the
    /// main phase also under the opening's rules, with small budgets in a
    /// third of them, and the positions of BENCHMARKS.md with the most
    /// moves, the most decisions in one move, and never-ending paths (cycle
    /// and budget cuts, some after decisions; no repeated decision point was
    /// met in 100,000 random games of each code from the main-phase start,
    /// so none is here).
    #[test]
    fn lango_and_acholi_generator_matches_the_general_one() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        let mut cuts = GenStats::default();
        for v in [Variant::Lango, Variant::Acholi] {
            for game in 0..120 {
                let mut p = Position::startpos(v, 8).unwrap();
                if game % 2 == 1 {
                    // Lango's sequential opening mostly ends the game.
                    p = p.with_phase(crate::types::Phase::Main);
                }
                checked += random_game(p, game % 3 == 0, &mut x, |p, budget| {
                    if !p.phase.is_opening() {
                        // The opening's rules on a board of the main phase.
                        let o = p.with_phase(crate::types::Phase::Opening2);
                        check(&o, budget, &mut cuts);
                    }
                    check(p, budget, &mut cuts)
                });
            }
        }
        check_budgets(
            &[
                "acholi:8 0,2,1,0,0,2,2,2/1,1,4,1,4,4,6,3/1,2,1,2,1,4,1,2/2,1,1,2,5,1,2,3 b m 15",
                "acholi:8 2,2,1,1,1,1,1,1/1,3,2,3,2,1,1,1/2,1,10,0,0,5,1,4/7,6,1,0,1,0,2,0 a m 8",
                "acholi:8 1,1,0,0,0,1,1,0/0,0,2,0,0,0,0,2/5,0,11,0,3,11,1,2/4,0,6,1,6,1,2,3 a m 4",
                "acholi:8 0,6,0,1,0,1,2,1/1,7,2,9,0,5,6,0/1,1,7,3,4,5,0,2/0,0,0,0,0,0,0,0 b m 5",
                "acholi:8 0,1,1,0,0,0,0,0/0,0,0,0,1,1,0,0/4,5,0,3,0,1,2,13/12,0,1,7,4,3,1,4 a m 4",
                "lango:8 5,1,5,1,0,1,0,1/12,1,2,4,6,0,2,2/1,2,2,2,2,2,1,0/1,2,2,0,2,1,1,0 a m 62",
                "lango:8 1,2,3,1,2,1,1,4/1,1,3,6,0,2,16,5/3,0,0,0,0,0,0,1/3,1,0,2,0,3,0,2 a m 22",
                "lango:8 7,3,1,2,5,2,0,1/0,6,1,6,5,2,0,7/0,1,1,1,1,1,2,0/2,0,1,0,1,3,2,0 b m 47",
                "lango:8 1,2,3,2,7,1,0,3/0,9,6,2,1,2,3,2/0,0,0,0,0,1,1,1/2,0,5,6,2,0,1,1 b m 59",
                "lango:8 0,0,1,1,0,0,1,0/0,4,1,2,0,1,3,0/1,1,0,1,0,0,1,1/0,1,0,4,1,0,1,0 a m 7",
            ],
            &mut cuts,
        );
        assert!(checked > 3000, "{checked}");
        assert!(cuts.cut_cycle >= 4 && cuts.cut_budget >= 100, "{cuts:?}");
    }
}
