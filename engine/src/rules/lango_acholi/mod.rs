//! Lango's and Acholi's generator, on their 8-wide boards. Their turns
//! branch at decision points (clockwise options, Acholi's leaves, Lango's
//! start captures), so it walks a tree of paths, but between decisions a
//! turn runs alone, as a Didinga turn does: the lap state (the mover's loop
//! in loop order as a [`Loop16`], the hash, the last hole and the origin,
//! the drops, the front-row flag) stays in the locals of one loop, where a
//! relay is two word adds, one hash add and the front-row flag's `or` from
//! one table a side by (lifted hole, hand) ([`RelayTable`], which also
//! holds the sowings that lift no hole), and the decision state (base,
//! kind, direction, capture sets, the opponent's holes) is written only
//! where a clockwise hole whose clockwise lap captures (a decision), a
//! capture after a clockwise lap or an attack, a cycle test or a cut leaves
//! that loop; a start's first lap (a lift, Lango's start capture) and a
//! clockwise decision's relay option are sown on the loop's locals, its
//! clockwise option on the stretch's state from the decision point's (in
//! Lango on the loop's locals too, with the capture that lap ends in), and
//! a capture after a relay by an out-of-line `capture`, which also updates
//! the opponent's holes and the capture sets (the facing column's counts
//! read as bytes). A Brent checkpoint keeps the hash and the step alone
//! (in Acholi, from the stretch's 64th step on, its whole state too); the
//! whole state is found again by running the stretch from its start when a
//! lap's hash equals it.
//! It lists the same moves, in the same order, with the same children and
//! statistics as the reference generator (`rules::choro::reference`'s
//! `ChoroGen`, whose tests compare them). The rules' hole sets are in
//! `lango` (the facing front hole, the start captures) and `acholi` (the
//! attack holes), which the reference uses too.

use crate::board::{zobrist, Position};
use crate::rules::choro::keys::{capture_sets, meta_pair};
use crate::rules::choro::sower::{state_key, LapKind, NONE};
use crate::rules::choro::{acholi, lango};
use crate::rules::{GenStats, MoveInfo};
use crate::types::geometry::{self, facing};
use crate::types::moves::{Move, Token, MAX_TOKENS};
use crate::types::packed::{Loop, Loop16, LOOP16_RELAY};
use crate::types::{Dir, Phase, Variant};
use smallvec::SmallVec;

/// The width of every Lango and Acholi board, and its loop length.
const W: u8 = 8;
const LEN: u8 = 16;

/// The next and the previous loop position.
#[inline(always)]
const fn next(h: u8) -> u8 {
    (h + 1) & 15
}

#[inline(always)]
fn prev(h: u8) -> u8 {
    h.wrapping_sub(1) & 15
}

/// Whether `hand > 0` counters sown from loop position `start` (in loop
/// order) reach the mover's front row, positions 8 to 15: they do unless
/// they all fall in the back row before it.
#[inline(always)]
const fn reaches_front(start: u8, hand: u8) -> bool {
    start as u32 + hand as u32 > W as u32
}

/// Whether a clockwise lap of the `v` counters of the mover's hole `l`
/// would end in a capture, `count(h)` being the count of hole `h`, with the
/// front row reached or not and the capture sets `caps` (front row, back
/// row) of the state at that lap end.
#[inline(always)]
fn cw_captures(
    l: u8,
    v: u8,
    count: impl Fn(u8) -> u8,
    front_reached: bool,
    caps: (u32, u32),
) -> bool {
    let (q, r) = (v >> 4, v & 15);
    let last = l.wrapping_sub(r) & (LEN - 1);
    let reached = front_reached || reaches_front(last, v);
    let caps = caps.0 | if reached { 0 } else { caps.1 };
    // The capture sets first: most clockwise holes fail them.
    caps >> last & 1 != 0 && (if r == 0 { q } else { count(last) + q + 1 }) >= 2
}

/// [`cw_captures`] from a relay table's [`RelayTable::cw`] entry `e` for
/// the hole and its count: the lap's last hole (bits 0 to 3), whether the
/// lap reaches the front row (bit 4), whether it ends in at least 2
/// counters whatever that hole holds (bit 5) or if that hole holds any
/// (bit 6); the capture sets' test first, which most clockwise holes fail.
#[inline(always)]
fn cw_captures_at(e: u8, count: impl Fn(u8) -> u8, front_reached: bool, caps: (u32, u32)) -> bool {
    let last = e & 15;
    let reached = front_reached || e & 16 != 0;
    let caps = caps.0 | if reached { 0 } else { caps.1 };
    caps >> last & 1 != 0 && (e & 32 != 0 || e & 64 != 0 && count(last) != 0)
}

/// The opponent's front and back holes facing each of the mover's holes.
const FACING: [[u8; 2]; LEN as usize] = {
    let mut t = [[0; 2]; LEN as usize];
    let mut l = 0;
    while l < LEN {
        let (f, b) = facing(l, W);
        t[l as usize] = [f, b];
        l += 1;
    }
    t
};

/// Lango's capture set ([`lango::facing_front`]) by the opponent's front
/// row (his holes 8 to 15): hole `8 + k` of the mover faces his `15 - k`.
const FACING_FRONT: [u16; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = ((b as u8).reverse_bits() as u16) << W;
        b += 1;
    }
    t
};

/// What a capture at each of the mover's holes keeps: the opponent's holes
/// but the two facing it, and the mover's holes but the two facing that
/// column (bit masks; [`State::take_column`]).
const COLUMN: [[u32; 2]; LEN as usize] = {
    let mut t = [[0; 2]; LEN as usize];
    let mut l = 0;
    while l < LEN {
        let [f, b] = FACING[l as usize];
        t[l as usize] = [!(1 << f | 1 << b), !(1 << l | 1 << (LEN - 1 - l))];
        l += 1;
    }
    t
};

/// A relay on the 16-hole loop of one side, by `l << 8 | v` (the lifted
/// loop position `l` and its `v` counters; a column for every `u8`, so that
/// a count indexes it without a test): the words it adds to the loop
/// (`LOOP16_RELAY`'s), the board hash's change (Didinga's `relay_keys`),
/// whether its sowing reaches the front row, and its step: its drops `v`
/// in the low word, and in the high word 1 if its sowing reaches the front
/// row (so that Acholi's relay loop adds the drops and counts the front
/// row's reaches in one register). One table a side, so that
/// the relay loop keeps one base register for all four. Beside it, by
/// `first << 8 | hand`, a sowing of `hand` counters from loop position
/// `first` that lifts no hole (a capture's, a clockwise lap's): the words
/// it adds and the hash's change. And by `l << 8 | v`, the clockwise lap
/// of the `v` counters of hole `l` for [`cw_captures_at`]. And the
/// opponent's hole keys, so that a capture's hash change needs no pointer of
/// its own beside the table's (the relay loop's registers).
struct RelayTable {
    lo: [u64; 4096],
    hi: [u64; 4096],
    key: [u64; 4096],
    step: [u64; 4096],
    sow_lo: [u64; 4096],
    sow_hi: [u64; 4096],
    sow_key: [u64; 4096],
    front: [bool; 4096],
    cw: [u8; 4096],
    opp_keys: [u64; 32],
}

impl RelayTable {
    /// The relay of the `v` counters of loop position `l` (taken modulo
    /// 16): the loop's two words, the hash's change, the step (`v`, and
    /// `1 << 32` if the front row is reached), the front row reached.
    #[inline(always)]
    fn at(&self, l: usize, v: usize) -> (u64, u64, u64, u64, bool) {
        self.at_index((l & 15) << 8 | (v & 255))
    }

    /// [`Self::at`] by the index `l << 8 | v` (below 4096).
    #[inline(always)]
    fn at_index(&self, i: usize) -> (u64, u64, u64, u64, bool) {
        (
            self.lo[i],
            self.hi[i],
            self.key[i],
            self.step[i],
            self.front[i],
        )
    }

    /// Sow `hand` counters on `b` from loop position `first` (taken
    /// modulo 16), returning what the hash gains.
    #[inline(always)]
    fn sow(&self, b: &mut Loop16, first: u8, hand: u8) -> u64 {
        let i = (first as usize & 15) << 8 | hand as usize;
        b.add(self.sow_lo[i], self.sow_hi[i]);
        self.sow_key[i]
    }
}

static RELAY: [RelayTable; 2] = {
    const EMPTY: RelayTable = RelayTable {
        lo: [0; 4096],
        hi: [0; 4096],
        key: [0; 4096],
        step: [0; 4096],
        sow_lo: [0; 4096],
        sow_hi: [0; 4096],
        sow_key: [0; 4096],
        front: [false; 4096],
        cw: [0; 4096],
        opp_keys: [0; 32],
    };
    let mut t = [EMPTY, EMPTY];
    let mut s = 0;
    while s < 2 {
        t[s].opp_keys = zobrist::HOLE[1 - s];
        // `run[i]`: the sum of the keys of the first `i` holes walked
        // round the loop.
        let mut run = [0u64; 16 + 257];
        let mut i = 1;
        while i < run.len() {
            run[i] = run[i - 1].wrapping_add(zobrist::HOLE[s][(i - 1) % 16]);
            i += 1;
        }
        let mut l = 0;
        while l < 16 {
            let mut v = 0;
            while v < 256 {
                let i = l << 8 | v;
                t[s].lo[i] = LOOP16_RELAY[0][i];
                t[s].hi[i] = LOOP16_RELAY[1][i];
                t[s].key[i] = run[l + 1 + v]
                    .wrapping_sub(run[l + 1])
                    .wrapping_sub((v as u64).wrapping_mul(zobrist::HOLE[s][l]));
                t[s].front[i] = reaches_front(next(l as u8), v as u8);
                t[s].step[i] = v as u64 | (t[s].front[i] as u64) << 32;
                let (q, r) = (v >> 4, v & 15);
                let last = (l + 16 - r) % 16;
                let any = if r == 0 { q >= 2 } else { q >= 1 };
                let occupied = r != 0 && q == 0;
                t[s].cw[i] = last as u8
                    | (reaches_front(last as u8, v as u8) as u8) << 4
                    | (any as u8) << 5
                    | (occupied as u8) << 6;
                // A sowing from `l`: a relay from the hole before it, which
                // keeps its counters.
                let before = (l + 15) % 16;
                let j = before << 8 | v;
                let back = (v as u64) << (8 * (before % 8));
                let (lo, hi) = if before < 8 { (back, 0) } else { (0, back) };
                t[s].sow_lo[i] = LOOP16_RELAY[0][j].wrapping_add(lo);
                t[s].sow_hi[i] = LOOP16_RELAY[1][j].wrapping_add(hi);
                t[s].sow_key[i] = run[l + v].wrapping_sub(run[l]);
                v += 1;
            }
            l += 1;
        }
        s += 1;
    }
    t
};

/// The state of a turn at the end of a lap: the general generator's
/// `sower::Turn` on a [`Loop16`] (the mover's loop in loop order), without
/// the trace-only fields.
#[derive(Copy, Clone)]
struct State {
    mine: Loop16,
    hash: u64,
    /// The opponent's holes still holding what they held at the turn's start.
    opp_occ: u32,
    /// The mover's capturing holes: front row, back row (Acholi's opening,
    /// until the front row is reached; empty otherwise).
    caps: (u32, u32),
    last: u8,
    origin: u8,
    base: u8,
    kind: LapKind,
    dir: Dir,
    front_reached: bool,
    laps: u32,
    drops: u32,
}

impl State {
    /// `sower::Turn::key`: equal states have equal keys.
    #[inline]
    fn key(&self) -> u64 {
        state_key(
            self.hash,
            [self.last, self.origin, self.base],
            self.kind,
            self.dir,
            self.front_reached,
        )
    }

    /// `sower::Turn::same_state`.
    #[inline]
    fn same_state(&self, o: &State) -> bool {
        self.hash == o.hash
            && self.last == o.last
            && self.origin == o.origin
            && self.base == o.base
            && self.kind == o.kind
            && self.dir == o.dir
            && self.front_reached == o.front_reached
            && self.opp_occ == o.opp_occ
            && self.mine == o.mine
    }

    /// Whether the last lap was a counter-clockwise one of kind `Normal`
    /// with no base (a relay, a capture's sowing after one): at its end, a
    /// capture sows counter-clockwise and a clockwise hole only decides
    /// where its clockwise lap captures, as in the relay loop of
    /// [`Gen::run`].
    #[inline(always)]
    fn plain(&self) -> bool {
        self.kind == LapKind::Normal && self.base == NONE && self.dir == Dir::Ccw
    }

    #[inline(always)]
    fn at_last(&self) -> u8 {
        self.mine.get(self.last as usize)
    }

    /// Whether the last hole captures; `back`: whether the back row may
    /// (else `caps.1` is empty from the turn's start, and is not read).
    #[inline(always)]
    fn captures(&self, back: bool) -> bool {
        debug_assert!(back || self.caps.1 == 0);
        let caps = self.caps.0 | if back { self.caps.1 } else { 0 };
        caps >> self.last & 1 != 0
    }

    #[inline(always)]
    fn ends_in_capture(&self, back: bool) -> bool {
        self.at_last() >= 2 && self.captures(back)
    }

    #[inline(always)]
    fn reach(&mut self, start: u8, hand: u8) {
        if !self.front_reached && reaches_front(start, hand) {
            self.front_reached = true;
            self.caps.1 = 0;
        }
    }

    /// A relay: lift the `v` counters of the hole of the last drop and sow
    /// them counter-clockwise from the next hole.
    #[inline(always)]
    fn relay(&mut self, relay: &RelayTable, v: u8) {
        let l = self.last & 15;
        let (lo, hi, key, _, _) = relay.at(l as usize, v as usize);
        self.mine.add(lo, hi);
        self.hash = self.hash.wrapping_add(key);
        self.reach(next(l), v);
        self.last = l.wrapping_add(v) & 15;
        self.origin = l;
        self.base = NONE;
        self.kind = LapKind::Normal;
        self.dir = Dir::Ccw;
        self.laps += 1;
        self.drops += v as u32;
    }

    /// `sower::Turn::lap` on the 16-hole loop.
    #[inline(always)]
    fn lap(&mut self, relay: &RelayTable, first: u8, hand: u8, dir: Dir) {
        let r = hand & 15;
        let (start, last) = match dir {
            Dir::Ccw => (first, (first + if r == 0 { 15 } else { r - 1 }) & 15),
            Dir::Cw if r == 0 => (first, next(first)),
            Dir::Cw => {
                let s = (first + LEN + 1 - r) & 15;
                (s, s)
            }
        };
        self.hash = self
            .hash
            .wrapping_add(relay.sow(&mut self.mine, start, hand));
        self.reach(start, hand);
        self.last = last;
        self.dir = dir;
        self.laps += 1;
        self.drops += hand as u32;
    }

    /// Whether a clockwise lap of the `v` counters of the hole of the last
    /// drop would end in a capture (`sower::Turn::cw_relay_captures`).
    /// `back`: as for [`State::captures`].
    #[inline]
    fn cw_relay_captures(&self, v: u8, back: bool) -> bool {
        let l = self.last;
        debug_assert!(back || self.caps.1 == 0);
        cw_captures(
            l,
            v,
            |h| self.mine.get(h as usize),
            self.front_reached,
            (self.caps.0, if back { self.caps.1 } else { 0 }),
        )
    }

    /// Empty the mover's hole `h`, returning its counters.
    #[inline(always)]
    fn take(&mut self, hole_keys: &[u64; 32], h: u8) -> u8 {
        let n = self.mine.get(h as usize);
        self.mine.set(h as usize, 0);
        self.hash = self
            .hash
            .wrapping_sub((n as u64).wrapping_mul(hole_keys[(h & 31) as usize]));
        n
    }

    /// Empty the opponent's holes facing the mover's capturing hole `l`,
    /// returning their counters (front, back): each capture empties its
    /// column and drops both the mover's holes facing it from the capture
    /// sets, so a capturing hole faces holes that still hold what they held
    /// at the turn's start (`their16`). Neither of the mover's holes facing
    /// that column captures any more. The hash is left to the caller: it
    /// returns what to take from it.
    /// `back`: whether the back row may capture (Acholi's opening; else
    /// `caps.1` is empty from the turn's start and is left alone).
    #[inline(always)]
    fn take_column(
        &mut self,
        their16: &Loop16,
        opp_keys: &[u64; 32],
        l: u8,
        back: bool,
    ) -> (u8, u8, u64) {
        let mut side = Targets {
            opp_occ: self.opp_occ,
            caps: self.caps,
        };
        let taken = side.take_column(their16, opp_keys, l, back);
        (self.opp_occ, self.caps) = (side.opp_occ, side.caps);
        taken
    }

    /// Add `n` counters to the mover's hole `h` (rare: an Acholi leave).
    #[inline]
    fn put(&mut self, hole_keys: &[u64; 32], h: u8, n: u8) {
        self.mine.set(h as usize, self.mine.get(h as usize) + n);
        self.hash = self
            .hash
            .wrapping_add((n as u64).wrapping_mul(hole_keys[(h & 31) as usize]));
    }
}

/// The part of a [`State`] that captures change: the opponent's holes
/// still holding what they held at the turn's start, and the mover's
/// capture sets. The relay loop of [`Gen::stretch`] keeps it apart from its
/// state, so that a stretch that sows its first lap on the loop's locals
/// (a lift's) neither copies nor writes the entry state.
#[derive(Copy, Clone)]
struct Targets {
    opp_occ: u32,
    caps: (u32, u32),
}

impl Targets {
    /// [`State::take_column`].
    #[inline(always)]
    fn take_column(
        &mut self,
        their16: &Loop16,
        opp_keys: &[u64; 32],
        l: u8,
        back: bool,
    ) -> (u8, u8, u64) {
        let [of, ob] = FACING[(l & 15) as usize];
        let [opp, column] = COLUMN[(l & 15) as usize];
        let (fr, bk) = (their16.get(of as usize), their16.get(ob as usize));
        debug_assert!(self.opp_occ >> of & 1 != 0 || fr == 0);
        debug_assert!(self.opp_occ >> ob & 1 != 0 || bk == 0);
        self.opp_occ &= opp;
        self.caps.0 &= column;
        debug_assert!(back || self.caps.1 == 0);
        if back {
            self.caps.1 &= column;
        }
        let taken = (fr as u64)
            .wrapping_mul(opp_keys[of as usize])
            .wrapping_add((bk as u64).wrapping_mul(opp_keys[ob as usize]));
        (fr, bk, taken)
    }
}

impl Targets {
    /// The opponent's holes and the capture sets of `s`.
    #[inline(always)]
    fn of(s: &State) -> Self {
        Targets {
            opp_occ: s.opp_occ,
            caps: s.caps,
        }
    }
}

/// Where a stretch starts ([`Gen::stretch`]): at its entry state, or with
/// a first lap it sows on the relay loop's locals from the entry: a lift,
/// or Lango's start capture; or with a first lap it sows on its state: a
/// clockwise decision's clockwise lap. Every caller names a constant, and
/// the stretch is inlined in it: each caller's code has one arm.
#[derive(Copy, Clone, PartialEq, Eq)]
enum First {
    /// The entry state itself.
    Entry,
    /// The lap end after lifting hole `h` of the entry (a relay from it).
    Lift,
    /// The lap end after Lango's start capture (or a capture's increment
    /// sowing) at the entry's hole `h`.
    Capture,
    /// The lap end after the clockwise lap of the entry's clockwise hole
    /// `h` (Lango: sown on the relay loop's locals with the capture it ends
    /// in).
    Cw,
    /// Lango: with the again-clockwise lap of a capture after a clockwise
    /// lap, sown on the relay loop's locals from that capture's lap end (the
    /// entry), with the capture it ends in.
    Again,
}

/// A stretch's start ([`Gen::stretch`]): its entry state and hole `h`, and
/// the first lap they give ([`First`]); the turn's laps and drops at its
/// step 0.
#[derive(Copy, Clone)]
struct Start<'e> {
    first: First,
    entry: &'e State,
    h: u8,
    laps: u32,
    drops: u32,
}

/// The step of a stretch from which its Brent checkpoints keep their
/// whole state ([`Gen::stretch`]).
const FAR: u32 = 64;

/// Brent's cycle test of a stretch ([`Gen::stretch`]): the checkpoint is
/// the state after `saved` steps of the stretch (0: its start), of which
/// only the hash is kept; the next one is taken after [`Brent::event`]
/// steps (1, 3, 7, 15, ...), or the budget cuts there (`cut_at`). `left`
/// counts the steps down to it. From step `far` on (Acholi's [`FAR`]), a
/// checkpoint also keeps its whole state in `snap` (such long stretches
/// are rare), so that a hash match there is checked without replaying the
/// stretch: the events from `far` on take the slow way (the budget's cut
/// or a whole checkpoint). Lango's turns are seldom that long: it keeps
/// the replay alone (`far` is its `cut_at`).
#[derive(Copy, Clone)]
struct Brent {
    saved: u32,
    hash: u64,
    event: u32,
    left: u32,
    cut_at: u32,
    far: u32,
    snap: Option<State>,
}

impl Brent {
    /// The test of a stretch whose start has hash `hash`, cut by the
    /// budget after `cut_at` steps.
    #[inline(always)]
    fn new(hash: u64, cut_at: u32, lango: bool) -> Self {
        Brent {
            saved: 0,
            hash,
            event: 1,
            left: 1,
            cut_at,
            far: if lango { cut_at } else { cut_at.min(FAR) },
            snap: None,
        }
    }

    /// The step of the next checkpoint. Acholi's follows from `saved` (as
    /// a variable of its own it kept a copy in the relay loop, one
    /// instruction a relay); Lango keeps it in `event` (its relay loops
    /// lost registers without it).
    #[inline(always)]
    fn event(&self, lango: bool) -> u32 {
        if lango {
            self.event
        } else {
            (2 * self.saved + 1).min(self.cut_at)
        }
    }

    /// The steps of the stretch so far.
    #[inline(always)]
    fn step(&self, lango: bool) -> u32 {
        self.event(lango) - self.left
    }

    /// The checkpoint at step `step`, with hash `hash`.
    #[inline(always)]
    fn save(&mut self, step: u32, hash: u64, lango: bool) {
        self.saved = step;
        self.hash = hash;
        self.event = (2 * step + 1).min(self.cut_at);
        self.left = self.event(lango) - step;
    }
}

/// The relay loop's locals that live in registers ([`Gen::stretch`]):
/// the relay table, the hash, the lap end `last` and its count `v` (a
/// word), the origin, the drops and the front-row flag, and the holes
/// where a lap end leaves the relay loop (`exits`: [`Gen::exits`]). All
/// its methods are inlined. The mover's loop (in loop order, no rotation a
/// lap) and the opponent's holes and capture sets ([`Targets`]) are locals
/// of their own beside it: the loop is read at a variable hole and
/// Acholi's out-of-line capture takes the capture sets by reference, and
/// in a struct either kept the whole struct in memory (every field stored
/// at each relay: 5% more instructions on `choro bench`).
#[derive(Copy, Clone)]
struct Walk {
    relay: &'static RelayTable,
    hash: u64,
    last: usize,
    v: usize,
    /// The drops (low word) and the relays that reached the front row
    /// (high word, with 1 if it was reached before) in one register, to
    /// which a relay adds its table's step. (Lango once kept the two
    /// apart, when its search's relay loop had lost its table's base
    /// register to the one; with the later loops the two apart put the
    /// drops on the stack.)
    df: u64,
    /// The origin in bits 8 to 11 (after a relay, its table index: the
    /// lifted hole and its count, so that the relay loop keeps no copy of
    /// the hole).
    origin: usize,
    exits: u32,
}

impl Walk {
    /// The locals of lap end `s` (its last hole `last`, holding `v`), with
    /// `exits` for its capture sets, on the relay table `relay`.
    #[inline(always)]
    fn at(relay: &'static RelayTable, s: &State, last: u8, v: u8, exits: u32) -> Self {
        Walk {
            relay,
            hash: s.hash,
            last: last as usize & 15,
            v: v as usize,
            df: s.drops as u64 | (s.front_reached as u64) << 32,
            origin: (s.origin as usize) << 8,
            exits,
        }
    }

    /// The drops of the turn so far.
    #[inline(always)]
    fn drops(&self) -> u32 {
        self.df as u32
    }

    /// Whether the turn reached the front row.
    #[inline(always)]
    fn front(&self) -> bool {
        self.df >> 32 != 0
    }

    /// A lap of `hand` counters that reaches the front row if `reached`.
    #[inline(always)]
    fn add_lap(&mut self, hand: u8, reached: bool) {
        self.df += hand as u64 | (reached as u64) << 32;
    }

    /// A counter-clockwise lap of `hand` counters from loop position
    /// `first`, sown already: its drops and its last hole.
    #[inline(always)]
    fn sown(&mut self, first: u8, hand: u8) {
        self.add_lap(hand, reaches_front(first, hand));
        self.last = (first as usize + hand as usize - 1) & 15;
    }

    /// A relay of the `v` counters of `last` (below 16) on the loop `b`:
    /// whether it is the turn's first lap to reach the front row.
    #[inline(always)]
    fn relay(&mut self, b: &mut Loop16) -> bool {
        let i = self.last << 8 | (self.v & 255);
        let (lo, hi, key, step, _) = self.relay.at_index(i);
        b.add(lo, hi);
        self.hash = self.hash.wrapping_add(key);
        let reached = !self.front() && step >> 32 != 0;
        self.df += step;
        self.origin = i;
        self.last = (self.last + self.v) & 15;
        reached
    }

    /// The state at the current lap end, with the loop `b` and the
    /// opponent's holes and capture sets `side`, the turn's laps being
    /// `laps`.
    #[inline(always)]
    fn state(&self, b: &Loop16, side: &Targets, laps: u32) -> State {
        State {
            mine: *b,
            hash: self.hash,
            opp_occ: side.opp_occ,
            caps: (side.caps.0, if self.front() { 0 } else { side.caps.1 }),
            last: self.last as u8,
            origin: (self.origin >> 8) as u8,
            base: NONE,
            kind: LapKind::Normal,
            dir: Dir::Ccw,
            front_reached: self.front(),
            laps,
            drops: self.drops(),
        }
    }
}

/// One option at an Acholi clockwise decision ([`Gen::decide`]).
#[derive(Copy, Clone)]
enum Opt {
    /// Take this token and sow the counters of the decision point's last
    /// hole clockwise (a clockwise decision's capturing lap), from the
    /// decision point's state (Acholi's; Lango's need no array).
    Cw(Token),
    /// Take this token and relay the counters of the decision point's last
    /// hole: the stretch's first lap, sown on its locals from the decision
    /// point's state.
    Relay(Token),
}

/// A decision point's lap-end state on the current path, and its key
/// ([`State::key`]), for [`Gen::enter`]'s repetition test.
#[derive(Copy, Clone)]
struct Seen {
    key: u64,
    state: State,
}

/// The generator of one position: `LANGO` or Acholi, `OPEN` in the opening.
struct Gen<'p, F, const LANGO: bool, const OPEN: bool> {
    pos: &'p Position,
    budget: u32,
    path: Move,
    /// Lap-end states of the decision points of the current path, with
    /// their keys (inline: a path has at most `MAX_TOKENS` decisions, and
    /// [`Self::enter`] refuses more, so it never spills to the heap; it is
    /// written only as the path grows, not cleared a position).
    seen: SmallVec<[Seen; MAX_TOKENS]>,
    stats: GenStats,
    sink: F,
    stop: bool,
    /// Every child but its board, and the non-board part of its hash.
    child: Position,
    child_meta: u64,
    /// The opponent's holes still full in `child` (its opponent's loop and
    /// masks are written only when a child's differ from these).
    child_opp: u32,
    /// The opponent's holes at the start of the turn (a turn only empties
    /// them), also one byte a hole.
    theirs: Loop,
    their16: Loop16,
    hole_keys: &'static [u64; 32],
    relay: &'static RelayTable,
}

/// Every legal move of a Lango or Acholi position (8 wide, sequential
/// phases), as `Position::generate`.
pub(crate) fn generate<F>(pos: &Position, budget: u32, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    debug_assert!(pos.width == W && matches!(pos.variant, Variant::Lango | Variant::Acholi));
    match (pos.variant == Variant::Lango, pos.phase.is_opening()) {
        (true, false) => run::<F, true, false>(pos, budget, sink),
        (true, true) => run::<F, true, true>(pos, budget, sink),
        (false, false) => run::<F, false, false>(pos, budget, sink),
        (false, true) => run::<F, false, true>(pos, budget, sink),
    }
}

/// One instance a code and phase, each a function of its own (the sink
/// inlined in it).
#[inline(never)]
fn run<F, const LANGO: bool, const OPEN: bool>(pos: &Position, budget: u32, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    let (me, opp) = (pos.side.index(), 1 - pos.side.index());
    debug_assert!(OPEN || pos.phase == Phase::Main);
    let (meta, child_meta) = if LANGO {
        meta_pair::<{ Variant::Lango as usize }>(pos)
    } else {
        meta_pair::<{ Variant::Acholi as usize }>(pos)
    };
    let mut g = Gen::<F, LANGO, OPEN> {
        pos,
        budget,
        path: Move::empty(true),
        seen: SmallVec::new(),
        stats: GenStats::default(),
        sink,
        stop: false,
        // Outside the opening the phase is `Main`, and so is the child's
        // (`Phase::next` is a match of several instructions a node).
        child: Position {
            ply: pos.ply + 1,
            side: pos.side.other(),
            phase: if OPEN { pos.phase.next() } else { pos.phase },
            ..*pos
        },
        child_meta,
        child_opp: pos.occupied[opp],
        theirs: pos.loops[opp],
        their16: Loop16::load(&pos.loops[opp]),
        hole_keys: &zobrist::HOLE[me],
        relay: &RELAY[me],
    };
    let opp_occ = pos.occupied[opp];
    let caps = if LANGO {
        let front = FACING_FRONT[(opp_occ >> W) as usize & 255] as u32;
        debug_assert_eq!(front, lango::facing_front(opp_occ, W));
        (front, 0)
    } else {
        let (front, back) = capture_sets(opp_occ, W);
        (front, if OPEN { back } else { 0 })
    };
    let s = State {
        mine: Loop16::load(&pos.loops[me]),
        hash: pos.hash.wrapping_sub(meta),
        opp_occ,
        caps,
        last: 0,
        origin: 0,
        base: NONE,
        kind: LapKind::Normal,
        dir: Dir::Ccw,
        front_reached: false,
        laps: 0,
        drops: 0,
    };
    g.starts(&s);
    g.stats
}

impl<F, const LANGO: bool, const OPEN: bool> Gen<'_, F, LANGO, OPEN>
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    /// Calls `f` with each hole of `mask` and its Driberg number, in
    /// Driberg order (a, b, c, ...: loop position W-2 first).
    #[inline(always)]
    fn each_hole(&mut self, mask: u32, mut f: impl FnMut(&mut Self, u8, u8)) {
        let m = mask & 0xffff;
        let mut rot = (m >> (W - 2) | m << (LEN - (W - 2))) & 0xffff;
        while rot != 0 && !self.stop {
            let i = rot.trailing_zeros() as u8;
            rot &= rot - 1;
            f(self, (i + W - 2) & 15, i + 1);
        }
    }

    /// A lap of the general generator's statistics (every lap sown counts,
    /// offered or not).
    #[inline(always)]
    fn lap(&mut self, s: &mut State, first: u8, hand: u8, dir: Dir) {
        self.count_lap(hand);
        s.lap(self.relay, first, hand, dir);
    }

    /// Every way to begin the turn (or, in Acholi, to go on after a leave).
    fn starts(&mut self, s: &State) {
        let (occupied, movable) = s.mine.masks();
        // Every start's stretch begins after one lap: the budget's cut is
        // the same for all of them.
        let cut_at = Self::cut_at(self.budget, s.laps + 1);
        if LANGO {
            if OPEN {
                let ab = 1 << geometry::pos_of_number(1, W) | 1 << geometry::pos_of_number(2, W);
                self.each_hole(movable & ab, |g, h, n| g.start_ccw(s, h, n, cut_at));
                return;
            }
            // A Lango turn starts here alone (no leaves): the capture set
            // is the turn's start's, the front holes facing the opponent's
            // occupied front holes.
            let caps = occupied & s.caps.0;
            debug_assert_eq!(caps, lango::start_captures(occupied, s.opp_occ, W));
            if caps != 0 {
                self.each_hole(caps, |g, f, n| g.start_capture(s, f, n, cut_at));
                return;
            }
            self.each_hole(movable, |g, h, n| g.start_ccw(s, h, n, cut_at));
            let base = geometry::lango_base(W);
            self.each_hole(movable & base, |g, h, n| {
                g.start_cw(s, h, n, LapKind::LangoCw, cut_at)
            });
        } else {
            let ccw = if OPEN { movable & 0xff } else { movable };
            self.each_hole(ccw, |g, h, n| g.start_ccw(s, h, n, cut_at));
            let att = movable & acholi::attack_holes(W, OPEN);
            self.each_hole(att, |g, h, n| {
                g.start_cw(s, h, n, LapKind::AcholiAttack, cut_at)
            });
        }
    }

    /// The budget cuts at the top of the step where the turn's laps pass
    /// it: after this many steps of a stretch that starts after
    /// `start_laps` laps (0: at once).
    #[inline(always)]
    fn cut_at(budget: u32, start_laps: u32) -> u32 {
        budget.saturating_add(1).saturating_sub(start_laps)
    }

    /// Run the turn from lap end `s` with `tok` on the path through
    /// [`Self::run`] (an option).
    #[inline(always)]
    fn with_token(&mut self, tok: Token, s: &State) {
        self.on_path(tok, |g| g.run(s));
    }

    /// `f` with `tok` on the path (a path too long is cut).
    #[inline(always)]
    fn on_path(&mut self, tok: Token, f: impl FnOnce(&mut Self)) {
        self.on_path_or(tok, f, |_| {});
    }

    /// [`Self::on_path`], with `cut` run too where the path is cut.
    #[inline(always)]
    fn on_path_or(&mut self, tok: Token, f: impl FnOnce(&mut Self), cut: impl FnOnce(&mut Self)) {
        let mark = self.path.len();
        if self.path.push(tok) {
            f(self);
            self.path.truncate(mark);
        } else {
            self.stats.cut_overflow += 1;
            cut(self);
        }
    }

    /// Count a lap of `hand` counters in the statistics.
    #[inline(always)]
    fn count_lap(&mut self, hand: u8) {
        self.stats.laps += 1;
        self.stats.drops += hand as u64;
    }

    /// Lift hole `h` (Driberg number `n`): a relay from it, the stretch's
    /// first lap, sown on its locals and counted with the stretch's laps.
    #[inline]
    fn start_ccw(&mut self, s: &State, h: u8, n: u8, cut_at: u32) {
        self.on_path_or(
            Token::Lift(n),
            |g| g.stretch(s, h, cut_at, First::Lift, true),
            |g| g.count_lap(s.mine.get(h as usize)),
        );
    }

    /// The lap end after lifting hole `h` of `s` (a start's first lap).
    #[cold]
    fn lifted(&self, s: &State, h: u8) -> State {
        let mut e = *s;
        e.last = h;
        let v = e.at_last();
        e.relay(self.relay, v);
        e
    }

    /// A clockwise first lap from a base hole, offered only if it captures.
    #[inline]
    fn start_cw(&mut self, s: &State, h: u8, n: u8, kind: LapKind, cut_at: u32) {
        let mut c = *s;
        let v = c.take(self.hole_keys, h);
        c.origin = h;
        c.base = h;
        c.kind = kind;
        self.lap(&mut c, prev(h), v, Dir::Cw);
        if c.ends_in_capture(Self::BACK) {
            self.on_path(Token::Clockwise(n), |g| {
                g.stretch(&c, 0, cut_at, First::Entry, false)
            });
        }
    }

    /// Lango's compulsory start capture at front hole `f` (RULINGS 5): the
    /// stretch's first lap, sown on its locals and counted with the
    /// stretch's laps.
    #[inline]
    fn start_capture(&mut self, s: &State, f: u8, n: u8, cut_at: u32) {
        self.on_path_or(
            Token::StartCapture(n),
            |g| g.stretch(s, f, cut_at, First::Capture, true),
            |g| {
                let [of, ob] = FACING[f as usize & 15];
                let (fr, bk) = (g.their16.get(of as usize), g.their16.get(ob as usize));
                g.count_lap(Self::capture_hand(s, f, fr, bk));
            },
        );
    }

    /// The hand of Lango's increment sowing at the mover's hole `l` of `s`
    /// after a capture of `fr` and `bk` counters (front and back).
    #[inline(always)]
    fn capture_hand(s: &State, l: u8, fr: u8, bk: u8) -> u8 {
        if fr == 1 && bk == 0 {
            s.mine.get(l as usize) + 1
        } else {
            fr + bk
        }
    }

    /// The lap end after Lango's start capture at front hole `f` of `s`.
    #[cold]
    fn captured(&self, s: &State, f: u8) -> State {
        let mut c = *s;
        let (fr, bk, taken) = c.take_column(&self.their16, &self.relay.opp_keys, f, Self::BACK);
        c.hash = c.hash.wrapping_sub(taken);
        self.lango_sow(&mut c, f, fr, bk);
        c
    }

    /// Lango increment sowing (RULINGS 4): from the capturing hole `l`
    /// itself, or, for a single counter, with all of `l` from the next hole.
    /// Not counted in the statistics: where it starts a path of its own
    /// (a start, an option), its caller counts it ([`Self::count_lap`]).
    #[inline(always)]
    fn lango_sow(&self, s: &mut State, l: u8, fr: u8, bk: u8) {
        s.kind = LapKind::Normal;
        s.base = NONE;
        s.origin = l;
        if fr == 1 && bk == 0 {
            let own = s.take(self.hole_keys, l);
            s.lap(self.relay, next(l), own + 1, Dir::Ccw);
        } else {
            s.lap(self.relay, l, fr + bk, Dir::Ccw);
        }
    }

    /// The mover's holes where a lap end leaves the relay loop: capturing
    /// holes and clockwise holes.
    #[inline(always)]
    fn exits(caps: (u32, u32)) -> u32 {
        let cw = if LANGO {
            geometry::lango_base(W)
        } else {
            geometry::acholi_base(W)
        };
        let back = if Self::BACK { caps.1 } else { 0 };
        caps.0 | back | cw
    }

    /// Run the turn from lap end `entry` until it ends, is cut, or
    /// branches. Relays run on locals (the loop, the hash, the last hole
    /// and the origin, the drops, the front-row flag), and so do the
    /// captures after a plain lap (kind `Normal`, through [`Self::capture`])
    /// and the clockwise holes whose clockwise lap would not capture; the
    /// state is written back into `s` only where the stretch leaves them: a
    /// clockwise hole whose lap captures, which goes to [`Self::branch`]
    /// for its decision, a Brent hash match, a cut. A capture or clockwise
    /// hole after a lap that is not plain ([`State::plain`]: a clockwise
    /// lap, an attack) goes to [`Self::branch`] on the state in `s`. Every
    /// step is one lap of the turn, so its lap count is `entry.laps` plus
    /// the steps.
    #[inline(never)]
    fn run(&mut self, entry: &State) {
        let cut_at = Self::cut_at(self.budget, entry.laps);
        self.stretch(entry, 0, cut_at, First::Entry, false);
    }

    /// [`Self::run`] from the lap end after relaying the counters of the
    /// last hole of `entry` (whose lap the caller counted in the
    /// statistics), that relay sown on the stretch's locals.
    #[inline(never)]
    fn run_relay(&mut self, entry: &State) {
        let cut_at = Self::cut_at(self.budget, entry.laps + 1);
        self.stretch(entry, entry.last, cut_at, First::Lift, false);
    }

    /// [`Self::run`] from the lap end after sowing the counters of the
    /// last hole of `entry` clockwise (whose lap the caller counted in the
    /// statistics), that lap sown on the stretch's state (Lango's, with
    /// the capture it ends in, on the relay loop's locals; where the budget
    /// cuts by that capture, from the lap end through [`Self::run`]).
    #[inline(never)]
    fn run_cw(&mut self, entry: &State) {
        let cut_at = Self::cut_at(self.budget, entry.laps + 1);
        if LANGO && cut_at <= 1 {
            self.run(&self.cw_lapped(entry, entry.last));
            return;
        }
        self.stretch(entry, entry.last, cut_at, First::Cw, false);
    }

    /// Lango: [`Self::run`] from the lap end after the again-clockwise lap
    /// of the capture at lap end `entry` (kind `LangoCw`, whose column that
    /// lap sows; the caller counted it in the statistics), sown on the
    /// relay loop's locals with the capture it ends in, as [`Self::run_cw`]
    /// sows its clockwise lap.
    #[inline(never)]
    fn run_again(&mut self, entry: &State) {
        let cut_at = Self::cut_at(self.budget, entry.laps + 1);
        if cut_at <= 1 {
            self.run(&self.again_lapped(entry));
            return;
        }
        self.stretch(entry, entry.last, cut_at, First::Again, false);
    }

    /// Lango: [`Self::run`] from the lap end after the increment sowing of
    /// the capture at lap end `entry` (whose lap the caller counted in the
    /// statistics), sown on the relay loop's locals as a start capture is.
    #[inline(never)]
    fn run_capture(&mut self, entry: &State) {
        let cut_at = Self::cut_at(self.budget, entry.laps + 1);
        self.stretch(entry, entry.last, cut_at, First::Capture, false);
    }

    /// Whether the back row may capture: in Acholi's opening alone (until
    /// the front row is reached); elsewhere `caps.1` is empty from the
    /// turn's start.
    const BACK: bool = !LANGO && OPEN;

    /// The kind of a clockwise lap from a clockwise hole at a lap end.
    const CW_KIND: LapKind = if LANGO {
        LapKind::LangoCw
    } else {
        LapKind::AcholiMidCw
    };

    /// `s` after the clockwise lap of its hole `l` from a clockwise hole
    /// (not counted in the statistics): the hand it sowed.
    #[inline(always)]
    fn cw_lap(&self, s: &mut State, l: u8) -> u8 {
        let n = s.take(self.hole_keys, l);
        s.origin = l;
        s.base = l;
        s.kind = Self::CW_KIND;
        s.lap(self.relay, prev(l), n, Dir::Cw);
        debug_assert!(s.ends_in_capture(Self::BACK));
        n
    }

    /// The lap end after the clockwise lap of hole `l` of `s` (a clockwise
    /// decision's stretch's start).
    #[cold]
    fn cw_lapped(&self, s: &State, l: u8) -> State {
        let mut c = *s;
        self.cw_lap(&mut c, l);
        c
    }

    /// Lango: the lap end after the again-clockwise lap of the capture at
    /// lap end `s` (kind `LangoCw`), the column taken.
    #[cold]
    fn again_lapped(&self, s: &State) -> State {
        let mut c = *s;
        let (fr, bk, taken) =
            c.take_column(&self.their16, &self.relay.opp_keys, s.last, Self::BACK);
        c.hash = c.hash.wrapping_sub(taken);
        c.lap(self.relay, prev(s.base), fr + bk, Dir::Cw);
        c
    }

    /// Lango: where the again-clockwise lap of the `k` counters of a
    /// capture after a clockwise lap from base `base` ends (the base for a
    /// multiple of 16, else the first hole it sows), and whether it ends in
    /// a capture there (which makes that capture a decision, as
    /// [`Self::branch`] tells it): the loop `b` and the front capture set
    /// `caps` being the capture's, after its column is taken (Lango's back
    /// row never captures).
    #[inline(always)]
    fn again_captures(b: &Loop16, base: u8, k: u8, caps: u32) -> (bool, u8) {
        let (q, r) = (k >> 4, k & 15);
        let last = if r == 0 { base } else { (base + LEN - r) & 15 };
        let after = b.get(last as usize) + q + (r != 0) as u8;
        (after >= 2 && caps >> last & 1 != 0, last)
    }

    /// [`Self::run`], inlined. `first`: where the stretch's start (step 0)
    /// is ([`First`]): `entry`, or the lap end after lifting hole `h` of
    /// `entry` or after Lango's start capture at its front hole `h`, that
    /// lap sown here on the relay loop's locals, or after the clockwise lap
    /// of its clockwise hole `h`, sown on the stretch's state (Lango's: on
    /// the relay loop's locals, with the capture it ends in, at a `cut_at`
    /// above 1). `own_first`: that lap counted in the statistics here with
    /// the stretch's laps (a start's), else by the caller. `cut_at`: the
    /// budget's cut for a stretch that starts where this one does
    /// ([`Self::cut_at`]).
    #[inline(always)]
    fn stretch(&mut self, entry: &State, h: u8, cut_at: u32, first: First, own_first: bool) {
        debug_assert!(!Self::lango_cw(first) || cut_at > 1);
        // The state at the top of a step, where the stretch does not sow
        // its first lap on the relay loop's locals (else never written nor
        // passed on, so that the entry is not copied); the opponent's holes
        // and the capture sets, which captures change (locals of the relay
        // loop, and of a first lap sown there).
        let mut s = *entry;
        let mut side = Targets::of(entry);
        let (hand, column) = self.first_lap(first, entry, h, &mut s, &mut side);
        let start = Start {
            first,
            entry,
            h,
            laps: entry.laps + (first != First::Entry) as u32,
            drops: entry.drops + hand as u32,
        };
        // Where the statistics count from.
        let (stat_laps, stat_drops) = if own_first {
            (entry.laps, entry.drops)
        } else {
            (start.laps, start.drops)
        };
        let (end_laps, end_drops) = if self.stop || cut_at == 0 {
            if !self.stop {
                self.stats.cut_budget += 1;
            }
            (start.laps, start.drops)
        } else {
            self.steps(&start, s, side, hand, column, cut_at)
        };
        self.stats.laps += (end_laps - stat_laps) as u64;
        self.stats.drops += (end_drops - stat_drops) as u64;
    }

    /// Lango's clockwise option or again-clockwise lap: that lap (step 0)
    /// and the capture it ends in (step 1) sown on the relay loop's locals.
    #[inline(always)]
    fn lango_cw(first: First) -> bool {
        LANGO && matches!(first, First::Cw | First::Again)
    }

    /// The first lap of a stretch from `first` at `entry` and hole `h`:
    /// its hand (0 at the entry), and a capture's counters and hash change
    /// (Lango's start capture, the again-clockwise lap's capture at the
    /// entry), the capture sets and the opponent's holes after it being in
    /// `side` from here on. Acholi's clockwise lap is sown on `s` here; the
    /// other laps on the relay loop's locals ([`Self::steps`]).
    #[inline(always)]
    fn first_lap(
        &self,
        first: First,
        entry: &State,
        h: u8,
        s: &mut State,
        side: &mut Targets,
    ) -> (u8, (u8, u8, u64)) {
        match first {
            First::Lift => (entry.mine.get(h as usize), (0, 0, 0)),
            First::Capture => {
                let (fr, bk, taken) =
                    side.take_column(&self.their16, &self.relay.opp_keys, h, Self::BACK);
                (Self::capture_hand(entry, h, fr, bk), (fr, bk, taken))
            }
            First::Cw if LANGO => (entry.mine.get(h as usize), (0, 0, 0)),
            First::Again => {
                // The capture at the entry: its counters are the lap's hand.
                let (fr, bk, taken) =
                    side.take_column(&self.their16, &self.relay.opp_keys, h, Self::BACK);
                (fr + bk, (fr, bk, taken))
            }
            First::Cw => (self.cw_lap(s, h), (0, 0, 0)),
            First::Entry => (0, (0, 0, 0)),
        }
    }

    /// The stretch's start state (step 0), for a replay (cold).
    #[inline(always)]
    fn start_state(&self, start: &Start) -> State {
        let (entry, h) = (start.entry, start.h);
        match start.first {
            First::Lift => self.lifted(entry, h),
            First::Capture => self.captured(entry, h),
            First::Cw => self.cw_lapped(entry, h),
            First::Again => self.again_lapped(entry),
            First::Entry => *entry,
        }
    }

    /// The state at Brent's checkpoint: kept whole (Acholi's, from step
    /// `FAR` on), else the stretch replayed from its start.
    #[inline(always)]
    fn checkpoint(&mut self, br: &Brent, start: &Start) -> State {
        if !LANGO {
            if let Some(at) = br.snap {
                debug_assert!(
                    self.replay(&self.start_state(start), br.saved)
                        .same_state(&at),
                    "a whole checkpoint that its replay does not give"
                );
                return at;
            }
        }
        self.replay(&self.start_state(start), br.saved)
    }

    /// The stretch's steps, from its start: the steps on the state `s`
    /// (a capture or a clockwise hole after a lap that is not plain), then
    /// the relay loop on the locals until the turn ends, is cut or decides.
    /// Returns the turn's laps and drops at the stretch's end.
    #[inline(always)]
    fn steps(
        &mut self,
        start: &Start,
        mut s: State,
        mut side: Targets,
        hand: u8,
        column: (u8, u8, u64),
        cut_at: u32,
    ) -> (u32, u32) {
        let lift = start.first == First::Lift;
        let sown = lift || start.first == First::Capture || Self::lango_cw(start.first);
        let mut br = Brent::new(s.hash, cut_at, LANGO);
        let mut exits = Self::exits(side.caps);
        // The count at the top of a step (a lift's: its lifted hole's).
        let mut v = hand;
        if !sown {
            loop {
                v = s.at_last();
                if v == 1 {
                    self.emit(s.mine, s.hash, s.opp_occ, s.laps, s.drops);
                    return (s.laps, s.drops);
                }
                // A lap end that may decide: a capture or a clockwise hole
                // after a lap that is not a counter-clockwise one of kind
                // `Normal` (a clockwise lap, a lap of its own kind, one
                // that keeps a base).
                if exits >> s.last & 1 == 0 || s.plain() {
                    break;
                }
                if let Some(end) = self.branch_step(&mut s, v, &mut exits, &mut br, start) {
                    return end;
                }
            }
            side = Targets::of(&s);
        }
        // Laps on locals, until the turn ends, is cut or decides. `s` is
        // kept as it was at the top of this step (plain, or not at a
        // capture or clockwise hole, so that its next lap is a relay).
        let last = if lift { start.h } else { s.last };
        let mut w = Walk::at(self.relay, &s, last, v, exits);
        let mut b = s.mine;
        let first = if Self::lango_cw(start.first) {
            self.lango_cw_laps(&mut w, &mut b, &mut side, &mut br, start, hand, column)
        } else if sown {
            self.sown_lap(&mut w, &mut b, &side, &mut br, start, column)
        } else {
            None
        };
        if let Some(end) = first {
            return end;
        }
        // Every lap end is a loop position, below 16: this mask, once a
        // stretch, bounds the relay table's index, which each relay
        // ([`Walk::relay`]) then computes without one (with one there,
        // Acholi's relay loop took two more instructions a relay).
        w.last &= 15;
        loop {
            // The lap end `last` holding `v >= 2`: its next lap, then the
            // end of the step.
            if let Some(end) = self.next_lap(&mut w, &mut b, &mut side, &br, start) {
                return end;
            }
            let state = |step| w.state(&b, &side, start.laps + step);
            if let Some(end) = self.end_step(&mut br, start, w.hash, state) {
                return end;
            }
            w.v = b.get(w.last) as usize;
            if w.v == 1 {
                let laps = start.laps + br.step(LANGO);
                self.emit(b, w.hash, side.opp_occ, laps, w.drops());
                return (laps, w.drops());
            }
        }
    }

    /// A step on the stretch's state `s` at a lap end holding `v` that may
    /// decide ([`Self::branch`]), then the end of the step; `exits` follows
    /// the capture sets. The turn's laps and drops where the stretch ends
    /// here.
    #[inline(always)]
    fn branch_step(
        &mut self,
        s: &mut State,
        v: u8,
        exits: &mut u32,
        br: &mut Brent,
        start: &Start,
    ) -> Option<(u32, u32)> {
        if !self.branch(s, v) {
            return Some((s.laps, s.drops));
        }
        *exits = Self::exits(s.caps);
        let t = *s;
        self.end_step(br, start, t.hash, |_| t)
    }

    /// The end of a step at a lap end with hash `hash`, whose state after
    /// `step` steps of the stretch `state` gives: Brent's cycle test
    /// against the checkpoint, and the next checkpoint where one falls here
    /// (or the budget's cut). The turn's laps and drops where the stretch
    /// ends here.
    #[inline(always)]
    fn end_step(
        &mut self,
        br: &mut Brent,
        start: &Start,
        hash: u64,
        state: impl Fn(u32) -> State,
    ) -> Option<(u32, u32)> {
        br.left -= 1;
        if hash == br.hash {
            let t = state(br.step(LANGO));
            if self.checkpoint(br, start).same_state(&t) {
                self.stats.cut_cycle += 1;
                return Some((t.laps, t.drops));
            }
        }
        if br.left == 0 {
            let step = br.event(LANGO);
            if step >= br.far {
                let t = state(step);
                if step == br.cut_at {
                    self.stats.cut_budget += 1;
                    return Some((t.laps, t.drops));
                }
                br.snap = Some(t);
            }
            br.save(step, hash, LANGO);
        }
        None
    }

    /// A relay on the relay loop's locals: in Acholi's opening, the first
    /// to reach the front row ends the back row's captures.
    #[inline(always)]
    fn relay_lap(w: &mut Walk, b: &mut Loop16, side: &Targets) {
        if w.relay(b) && Self::BACK {
            // The back row no longer captures.
            w.exits = Self::exits((side.caps.0, 0));
        }
    }

    /// The lap from lap end `w.last` holding `w.v >= 2`, on the relay
    /// loop's locals: a capture after a lap of kind `Normal`, which decides
    /// nothing; a clockwise hole's decision where its clockwise lap
    /// captures (which ends the stretch: the turn's laps and drops); else a
    /// relay.
    #[inline(always)]
    fn next_lap(
        &mut self,
        w: &mut Walk,
        b: &mut Loop16,
        side: &mut Targets,
        br: &Brent,
        start: &Start,
    ) -> Option<(u32, u32)> {
        if w.exits >> w.last & 1 != 0 {
            // The back row captures only in Acholi's opening (elsewhere
            // `caps.1` is empty from the turn's start).
            debug_assert!(!LANGO && OPEN || side.caps.1 == 0);
            let back = Self::BACK && !w.front();
            let now = (side.caps.0, if back { side.caps.1 } else { 0 });
            let l = w.last as u8;
            if (now.0 | now.1).rotate_right(l as u32) & 1 != 0 {
                self.capture_lap(w, b, side);
                return None;
            }
            if Self::cw_captures_here(w, b, now) {
                // A clockwise hole whose clockwise lap captures: a decision
                // (the capture's test above failed, so `branch` would take
                // it).
                let t = w.state(b, side, start.laps + br.step(LANGO));
                debug_assert!(!t.captures(Self::BACK) && t.plain());
                debug_assert!(t.cw_relay_captures(w.v as u8, Self::BACK));
                self.cw_decide(&t, w.v as u8);
                return Some((t.laps, t.drops));
            }
            // A clockwise hole whose clockwise lap would not capture: the
            // turn relays on, the lap counting in the statistics, sown or
            // not (as `branch` counts it).
            self.stats.drops += w.v as u64;
            self.stats.laps += 1;
        }
        Self::relay_lap(w, b, side);
        None
    }

    /// A capture at lap end `w.last` after a lap of kind `Normal`, on the
    /// relay loop's locals ([`Self::capture`]).
    #[inline(always)]
    fn capture_lap(&mut self, w: &mut Walk, b: &mut Loop16, side: &mut Targets) {
        let packed;
        (w.hash, packed) = self.capture(side, b, w.hash, w.last, w.origin >> 8);
        let (first, hand) = (packed as u8, (packed >> 8) as u8);
        w.origin = ((packed >> 16) as usize) << 8;
        w.sown(first, hand);
        let back = if w.front() { 0 } else { side.caps.1 };
        w.exits = Self::exits((side.caps.0, back));
    }

    /// Whether the clockwise lap of the `w.v` counters of clockwise hole
    /// `w.last` of `b` would capture, `now` being the capture sets there:
    /// Lango's test from the relay table (Acholi's relay loop lost
    /// registers to it: its perft and search gained instructions).
    #[inline(always)]
    fn cw_captures_here(w: &Walk, b: &Loop16, now: (u32, u32)) -> bool {
        let (l, v) = (w.last as u8, w.v as u8);
        let count = |h: u8| b.get(h as usize);
        if LANGO {
            let e = w.relay.cw[w.last << 8 | (w.v & 255)];
            let cw = cw_captures_at(e, count, w.front(), now);
            debug_assert_eq!(cw, cw_captures(l, v, count, w.front(), now));
            cw
        } else {
            cw_captures(l, v, count, w.front(), now)
        }
    }

    /// A stretch's first lap sown on the relay loop's locals (its step 0):
    /// the relay of a lift, or Lango's start capture at `start.h` (a lap
    /// of kind `Normal`), `column` being its counters and hash change. The
    /// turn's laps and drops where the stretch ends there.
    #[inline(always)]
    fn sown_lap(
        &mut self,
        w: &mut Walk,
        b: &mut Loop16,
        side: &Targets,
        br: &mut Brent,
        start: &Start,
        column: (u8, u8, u64),
    ) -> Option<(u32, u32)> {
        if start.first == First::Lift {
            Self::relay_lap(w, b, side);
        } else {
            let (fr, bk, taken) = column;
            let h = start.h;
            let (first, hand);
            (w.hash, first, hand) =
                self.sow_capture(b, w.hash.wrapping_sub(taken), h as usize, fr, bk);
            w.origin = (h as usize & 15) << 8;
            w.sown(first, hand);
        }
        br.hash = w.hash;
        w.v = b.get(w.last) as usize;
        if w.v == 1 {
            self.emit(*b, w.hash, side.opp_occ, start.laps, w.drops());
            return Some((start.laps, w.drops()));
        }
        None
    }

    /// Lango's clockwise option or again-clockwise lap on the relay loop's
    /// locals (steps 0 and 1 of the stretch): the clockwise lap of the
    /// `hand` counters of `start.h` ([`Self::cw_lap`]), or of the capture
    /// at `start.h` (the again-clockwise lap, `column` being that capture's
    /// counters and hash change, its column taken already), from the hole
    /// before the base; then the capture it ends in. The turn's laps and
    /// drops where the stretch ends there.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lango_cw_laps(
        &mut self,
        w: &mut Walk,
        b: &mut Loop16,
        side: &mut Targets,
        br: &mut Brent,
        start: &Start,
        hand: u8,
        column: (u8, u8, u64),
    ) -> Option<(u32, u32)> {
        let (entry, h) = (start.entry, start.h);
        // Step 0: the clockwise lap, which ends at `end`: its first hole
        // sown, or the base for a multiple of 16.
        let base = if start.first == First::Cw {
            b.set(h as usize, 0);
            let key = self.hole_keys[h as usize & 15];
            w.hash = w.hash.wrapping_sub((hand as u64).wrapping_mul(key));
            h
        } else {
            w.hash = w.hash.wrapping_sub(column.2);
            entry.base
        };
        let r = hand & 15;
        let (from, end) = if r == 0 {
            (prev(base), base)
        } else {
            let f = (base + LEN - r) & 15;
            (f, f)
        };
        w.hash = w.hash.wrapping_add(w.relay.sow(b, from, hand));
        w.add_lap(hand, reaches_front(from, hand));
        debug_assert!({
            let c = self.start_state(start);
            c.mine == *b && c.hash == w.hash && c.last == end && c.front_reached == w.front()
        });
        // Step 1: the capture it ends in, a decision where the
        // again-clockwise lap captures too (its lap end built again from
        // `entry`: [`Self::again_decide`]), else an increment sowing on the
        // locals as the relay loop's captures are (a lap of kind `Normal`),
        // the again-clockwise lap counting in the statistics, as `branch`
        // counts it.
        let (fr, bk, taken) =
            side.take_column(&self.their16, &self.relay.opp_keys, end, Self::BACK);
        let k = fr + bk;
        if Self::again_captures(b, base, k, side.caps.0).0 {
            // The decision point's state from the locals, out of line.
            self.again_at(start.first, entry, h, b, w.hash, w.front());
            return Some((start.laps, start.drops));
        }
        self.count_lap(k);
        let (first, hand);
        (w.hash, first, hand) =
            self.sow_capture(b, w.hash.wrapping_sub(taken), end as usize, fr, bk);
        w.origin = (end as usize) << 8;
        w.sown(first, hand);
        w.exits = Self::exits(side.caps);
        // Brent after step 1 (no checkpoint at step 0 matches it: the
        // capture emptied an opponent's hole).
        br.save(1, w.hash, LANGO);
        w.v = b.get(w.last) as usize;
        if w.v == 1 {
            self.emit(*b, w.hash, side.opp_occ, start.laps + 1, w.drops());
            return Some((start.laps + 1, w.drops()));
        }
        None
    }

    /// Whether the relay loop's captures are inlined in it ([`Self::capture`]):
    /// in Lango's instances; out of line in Acholi's, where the inlined
    /// capture cost the relay loop registers (measured on
    /// `choro bench --variant acholi`).
    const CAPTURE_INLINE: bool = LANGO;

    /// A capture at lap end `last` of a stretch of relays, on the relay
    /// loop's locals: the loop `b` changes in place, and it returns the hash
    /// and, packed, the first hole of its lap, its hand and the origin
    /// (bits 0, 8 and 16): a lap of kind `Normal`, which decides nothing
    /// (`branch` without its decisions). The opponent's holes and the
    /// capture sets change in `s`. Inlined or out of line by
    /// [`Self::CAPTURE_INLINE`].
    #[inline(always)]
    fn capture(
        &mut self,
        side: &mut Targets,
        b: &mut Loop16,
        hash: u64,
        last: usize,
        origin: usize,
    ) -> (u64, u32) {
        if Self::CAPTURE_INLINE {
            self.capture_at(side, b, hash, last, origin)
        } else {
            self.capture_out(side, b, hash, last, origin)
        }
    }

    /// [`Self::capture_at`] out of line, so that the relay loop keeps its
    /// registers.
    #[inline(never)]
    fn capture_out(
        &mut self,
        side: &mut Targets,
        b: &mut Loop16,
        hash: u64,
        last: usize,
        origin: usize,
    ) -> (u64, u32) {
        self.capture_at(side, b, hash, last, origin)
    }

    /// [`Self::capture`]'s work.
    #[inline(always)]
    fn capture_at(
        &mut self,
        side: &mut Targets,
        b: &mut Loop16,
        mut hash: u64,
        last: usize,
        origin: usize,
    ) -> (u64, u32) {
        let l = last as u8 & 15;
        let (fr, bk, taken) = side.take_column(&self.their16, &self.relay.opp_keys, l, Self::BACK);
        hash = hash.wrapping_sub(taken);
        let (first, hand, origin) = if !LANGO {
            // From the hole after the origin, which is kept.
            let (first, hand) = (next(origin as u8), fr + bk);
            hash = hash.wrapping_add(self.relay.sow(b, first, hand));
            (first, hand, origin)
        } else {
            let (first, hand);
            (hash, first, hand) = self.sow_capture(b, hash, last, fr, bk);
            (first, hand, last)
        };
        (
            hash,
            first as u32 | (hand as u32) << 8 | (origin as u32) << 16,
        )
    }

    /// Lango's increment sowing ([`Self::lango_sow`]) on the loop `b` with
    /// hash `hash`, after a capture at `l` of `fr` and `bk` counters (front
    /// and back, taken from the hash already): the hash after it, the first
    /// hole of its lap and its hand. Its origin is `l`.
    #[inline(always)]
    fn sow_capture(
        &self,
        b: &mut Loop16,
        mut hash: u64,
        l: usize,
        fr: u8,
        bk: u8,
    ) -> (u64, u8, u8) {
        let l = l & 15;
        let (first, hand) = if fr == 1 && bk == 0 {
            let own = b.get(l);
            b.set(l, 0);
            hash = hash.wrapping_sub((own as u64).wrapping_mul(self.hole_keys[l]));
            (next(l as u8), own + 1)
        } else {
            (l as u8, fr + bk)
        };
        (
            hash.wrapping_add(self.relay.sow(b, first, hand)),
            first,
            hand,
        )
    }

    /// The state `steps` steps after lap end `entry`, which `run` went
    /// through without reaching a decision: the same steps again, without
    /// their statistics.
    #[cold]
    #[inline(never)]
    fn replay(&mut self, entry: &State, steps: u32) -> State {
        let stats = self.stats;
        let mut s = *entry;
        for _ in 0..steps {
            let v = s.at_last();
            if Self::exits(s.caps) >> s.last & 1 != 0 {
                let went_on = self.branch(&mut s, v);
                debug_assert!(went_on, "a decision in a stretch that had none");
            } else {
                s.relay(self.relay, v);
            }
        }
        self.stats = stats;
        s
    }

    /// A lap end at a capturing hole, or at a clockwise hole, holding `v`
    /// counters (at least 2): `s` becomes the turn after the next lap, or
    /// false where a decision point took over (or cut the path). Out of
    /// line, on the state in place.
    #[inline(never)]
    fn branch(&mut self, s: &mut State, v: u8) -> bool {
        let l = s.last;
        if s.captures(Self::BACK) {
            let pre = *s;
            let (fr, bk, taken) = s.take_column(&self.their16, &self.relay.opp_keys, l, Self::BACK);
            s.hash = s.hash.wrapping_sub(taken);
            let k = fr + bk;
            if LANGO {
                if s.kind == LapKind::LangoCw {
                    // The again-clockwise lap of the `k` counters from the
                    // hole before the base counts in the statistics whether
                    // it is offered or not; it is built only if it ends in a
                    // capture, which the counts tell.
                    let (captures, _) = Self::again_captures(&s.mine, s.base, k, s.caps.0);
                    if !captures {
                        self.count_lap(k);
                    } else {
                        self.again_decide(&pre);
                        return false;
                    }
                }
                self.lango_sow(s, l, fr, bk);
            } else if s.kind == LapKind::AcholiAttack {
                self.attack(&pre, s, k);
                return false;
            } else {
                // From the hole after the origin, which is kept.
                s.kind = LapKind::Normal;
                s.lap(self.relay, next(s.origin), k, Dir::Ccw);
            }
        } else {
            // A clockwise hole: the relay, or a clockwise lap from it if that
            // captures. The clockwise lap counts in the statistics whether
            // it is offered or not; it is sown only if it is.
            if s.cw_relay_captures(v, Self::BACK) {
                self.cw_decide(s, v);
                return false;
            }
            self.stats.drops += v as u64;
            self.stats.laps += 1;
            s.relay(self.relay, v);
        }
        true
    }

    /// The decision at lap end `s`, at a clockwise hole holding `v`
    /// counters whose clockwise lap captures: that lap or the relay. Both
    /// laps count in the statistics here; each option sows its own. In
    /// Lango a decision point as [`Self::decide`]'s, without an array of
    /// options to walk (in Acholi that cost its relay loop registers).
    #[inline]
    fn cw_decide(&mut self, s: &State, v: u8) {
        self.stats.drops += 2 * v as u64;
        self.stats.laps += 2;
        if !LANGO {
            self.decide(
                s,
                &[
                    Some(Opt::Cw(Token::Plus)),
                    Some(Opt::Relay(Token::Minus)),
                    None,
                ],
            );
            return;
        }
        // The clockwise lap (`+`), then the relay (`-`), each from `s`.
        self.two_options(s, |g| g.run_cw(s), |g| g.run_relay(s));
    }

    /// Lango's decision at lap-end state `pre`, a capture after a clockwise
    /// lap (kind `LangoCw`) whose again-clockwise lap ends in a capture: that
    /// lap from the hole before the base (`+`) or the increment sowing
    /// (`-`). Both laps count in the statistics whether offered or not. A
    /// decision point as [`Self::decide`]'s, each option's state made from
    /// the taken state as it runs, not copied into an array of options.
    #[inline(never)]
    fn again_decide(&mut self, pre: &State) {
        debug_assert!(LANGO && pre.kind == LapKind::LangoCw && pre.captures(Self::BACK));
        let l = pre.last;
        let [of, ob] = FACING[l as usize & 15];
        let (fr, bk) = (self.their16.get(of as usize), self.their16.get(ob as usize));
        self.count_lap(fr + bk);
        self.count_lap(Self::capture_hand(pre, l, fr, bk));
        // Each option's first lap sown on its stretch's locals from `pre`.
        self.two_options(pre, |g| g.run_again(pre), |g| g.run_capture(pre));
    }

    /// Lango's decision point at lap-end state `pre` with two options, run
    /// by `plus` (`+`) and `minus` (`-`) while the path goes on.
    #[inline(always)]
    fn two_options(
        &mut self,
        pre: &State,
        plus: impl FnOnce(&mut Self),
        minus: impl FnOnce(&mut Self),
    ) {
        if !self.enter(pre) {
            return;
        }
        if !self.stop {
            self.on_path(Token::Plus, plus);
        }
        if !self.stop {
            self.on_path(Token::Minus, minus);
        }
        self.leave();
    }

    /// Lango: [`Self::again_decide`] at the capture that the first lap of a
    /// stretch from `first` ([`First::Cw`], [`First::Again`]) at `entry` and `h`
    /// ends in (a clockwise lap), its decision point's state built from
    /// that lap's loop `b`, hash `hash` and front-row flag `front`; out of
    /// line, so that the stretch's relay loop keeps its registers.
    #[inline(never)]
    fn again_at(&mut self, first: First, entry: &State, h: u8, b: &Loop16, hash: u64, front: bool) {
        let mut side = Targets {
            opp_occ: entry.opp_occ,
            caps: entry.caps,
        };
        let (base, hand, origin) = if first == First::Cw {
            (h, entry.mine.get(h as usize), h)
        } else {
            let (fr, bk, _) = side.take_column(&self.their16, &self.relay.opp_keys, h, Self::BACK);
            (entry.base, fr + bk, entry.origin)
        };
        let r = hand & 15;
        let last = if r == 0 { base } else { (base + LEN - r) & 15 };
        let pre = State {
            mine: *b,
            hash,
            opp_occ: side.opp_occ,
            caps: side.caps,
            last,
            origin,
            base,
            kind: LapKind::LangoCw,
            dir: Dir::Cw,
            front_reached: front,
            laps: entry.laps + 1,
            drops: entry.drops + hand as u32,
        };
        debug_assert!({
            let c = if first == First::Cw {
                self.cw_lapped(entry, h)
            } else {
                self.again_lapped(entry)
            };
            c.same_state(&pre) && (c.caps, c.laps, c.drops) == (pre.caps, pre.laps, pre.drops)
        });
        self.again_decide(&pre);
    }

    /// Acholi's attack decision at lap-end state `pre`, a capture after an
    /// attack's lap, `s` being `pre` with its `k` captured counters taken:
    /// the again-clockwise lap from the hole before the origin if it ends in
    /// a capture (`+`), the counter-clockwise lap from the hole after it
    /// (`-`), the leave (the counters put in the origin). Both laps count in
    /// the statistics whether offered or not. A decision point as
    /// [`Self::decide`]'s, each option's state made from `s` as it runs,
    /// not copied into an array of options.
    #[inline(never)]
    fn attack(&mut self, pre: &State, s: &State, k: u8) {
        self.count_lap(k);
        self.count_lap(k);
        if !self.enter(pre) {
            return;
        }
        let o = s.origin;
        let mut again = *s;
        again.lap(self.relay, prev(o), k, Dir::Cw);
        if again.ends_in_capture(Self::BACK) && !self.stop {
            self.with_token(Token::Plus, &again);
        }
        if !self.stop {
            let mut ccw = *s;
            ccw.kind = LapKind::Normal;
            ccw.lap(self.relay, next(o), k, Dir::Ccw);
            self.with_token(Token::Minus, &ccw);
        }
        if !self.stop {
            let mut left = *s;
            left.put(self.hole_keys, o, k);
            self.on_path(Token::Leave, |g| g.starts(&left));
        }
        self.leave();
    }

    /// A decision point at lap-end state `pre`: branch into each option,
    /// unless this state already occurred at a decision point of the path
    /// (Acholi's clockwise decisions; Lango's and Acholi's other decisions
    /// make their options as they run them).
    #[inline(never)]
    fn decide(&mut self, pre: &State, opts: &[Option<Opt>; 3]) {
        if !self.enter(pre) {
            return;
        }
        for opt in opts.iter().flatten() {
            if self.stop {
                break;
            }
            match opt {
                Opt::Cw(tok) => self.on_path(*tok, |g| g.run_cw(pre)),
                Opt::Relay(tok) => self.on_path(*tok, |g| g.run_relay(pre)),
            }
        }
        self.leave();
    }

    /// Enter the decision point at lap-end state `pre`, its state kept for
    /// the path's later decision points; false (counted in the statistics)
    /// where this state already occurred at a decision point of the path,
    /// or the path has no room for another. The caller leaves it
    /// ([`Self::leave`]) after its options.
    #[inline(always)]
    fn enter(&mut self, pre: &State) -> bool {
        let key = pre.key();
        if self
            .seen
            .iter()
            .any(|s| s.key == key && s.state.same_state(pre))
        {
            self.stats.cut_repeat += 1;
            return false;
        }
        if self.seen.len() == MAX_TOKENS {
            self.stats.cut_overflow += 1;
            return false;
        }
        self.seen.push(Seen { key, state: *pre });
        true
    }

    /// Leave the decision point entered last ([`Self::enter`]).
    #[inline(always)]
    fn leave(&mut self) {
        self.seen.pop();
    }

    /// The child of the turn that ends with the mover's loop `mine`, hash
    /// `hash` and the opponent's holes `opp_occ`, to the sink.
    #[inline(always)]
    fn emit(&mut self, mine: Loop16, hash: u64, opp_occ: u32, laps: u32, drops: u32) {
        let (me, opp) = (self.pos.side.index(), 1 - self.pos.side.index());
        let pos = self.pos;
        let child = &mut self.child;
        // The child's loops are 8 wide: the words past the first 16 holes
        // stay empty.
        mine.store_into(&mut child.loops[me]);
        (child.occupied[me], child.movable[me]) = mine.masks();
        // Captures only empty the opponent's holes. The sink does not change
        // the child, so they are those of the last child unless `opp_occ`
        // differs.
        if opp_occ != self.child_opp {
            self.child_opp = opp_occ;
            if opp_occ == pos.occupied[opp] {
                child.loops[opp] = pos.loops[opp];
                child.occupied[opp] = pos.occupied[opp];
                child.movable[opp] = pos.movable[opp];
            } else {
                child.loops[opp] = self.theirs.keep16(opp_occ);
                child.occupied[opp] = opp_occ;
                child.movable[opp] = pos.movable[opp] & opp_occ;
            }
        }
        child.hash = hash.wrapping_add(self.child_meta);
        self.stats.moves += 1;
        let info = MoveInfo { laps, drops };
        if !(self.sink)(&self.path, &self.child, info) {
            self.stop = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::choro::keys::relay_keys;
    use crate::types::packed::MAX_HAND;

    /// Each side's relay table against a plain hole-by-hole sow of every
    /// lifted hole and hand a board allows: the loop after it (from the
    /// table's words), the hash's change (Didinga's relay keys, and the
    /// keys of the holes sown) and the front row reached; and its sowings
    /// that lift no hole, from every hole, the same way.
    /// The relay table's clockwise entries against [`cw_captures`], for
    /// every hole and count, every count of the lap's last hole that
    /// matters (none, one), the front row reached or not, and capture sets
    /// of each hole alone in either row.
    #[test]
    fn cw_table_matches_cw_captures() {
        for table in &RELAY {
            for l in 0..LEN {
                for v in 0..=255u8 {
                    let e = table.cw[(l as usize) << 8 | v as usize];
                    for c in 0..2u8 {
                        for front in [false, true] {
                            for h in 0..LEN {
                                for caps in [(1 << h, 0), (0, 1 << h)] {
                                    assert_eq!(
                                        cw_captures_at(e, |_| c, front, caps),
                                        cw_captures(l, v, |_| c, front, caps),
                                        "hole {l}, {v} counters, {c} at the end, front {front}, caps {caps:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn relay_table_matches_a_plain_sow() {
        let hash = |b: &[u8; 16], s: usize| {
            (0..16).fold(0u64, |a, i| {
                a.wrapping_add((b[i] as u64).wrapping_mul(zobrist::HOLE[s][i]))
            })
        };
        for (s, table) in RELAY.iter().enumerate() {
            let keys = relay_keys(s, LEN);
            for l in 0..16usize {
                for (v, &relay_key) in keys[l].iter().enumerate().take(MAX_HAND + 1).skip(1) {
                    let mut plain = [3u8; 16];
                    plain[l] = v as u8;
                    let mut sown = plain;
                    sown[l] = 0;
                    let mut reached = false;
                    for k in 1..=v {
                        sown[(l + k) % 16] += 1;
                        reached |= (l + k) % 16 >= 8;
                    }
                    let (lo, hi, key, step, front) = table.at(l, v);
                    let mut b = Loop16::load(&Loop::from_low16(u128::from_le_bytes(plain)));
                    b.add(lo, hi);
                    let after: [u8; 16] = std::array::from_fn(|i| b.get(i));
                    assert_eq!(after, sown, "side {s} hole {l} hand {v}");
                    assert_eq!(key, relay_key, "side {s} hole {l} hand {v}");
                    let change = hash(&sown, s).wrapping_sub(hash(&plain, s));
                    assert_eq!(key, change, "side {s} hole {l} hand {v}");
                    assert_eq!(front, reached, "side {s} hole {l} hand {v}");
                    assert_eq!(
                        step,
                        v as u64 | (reached as u64) << 32,
                        "side {s} hole {l} hand {v}"
                    );
                    // A sowing of `v` from `l`, which lifts no hole.
                    let mut sown = plain;
                    for k in 0..v {
                        sown[(l + k) % 16] += 1;
                    }
                    let mut b = Loop16::load(&Loop::from_low16(u128::from_le_bytes(plain)));
                    let key = table.sow(&mut b, l as u8, v as u8);
                    let after: [u8; 16] = std::array::from_fn(|i| b.get(i));
                    assert_eq!(after, sown, "side {s} sowing from {l} hand {v}");
                    let change = hash(&sown, s).wrapping_sub(hash(&plain, s));
                    assert_eq!(key, change, "side {s} sowing from {l} hand {v}");
                }
            }
        }
    }
}
