//! Didinga's generator. A Didinga turn has no decisions: each start runs one
//! path to its end (RULINGS 2-4), so the whole turn state lives in registers
//! (the mover's loop in loop order, the hash, the last hole, the origin) and
//! the capture test is one bit of a mask of the mover's capturing holes,
//! recomputed only when a capture changes the opponent's holes (on the
//! long turns of an 8-wide board, a flag in the holes' own bytes). A relay lap
//! is one entry of a table by (lifted hole, hand): the words added to the
//! loop, the hash's change and the hole of the last drop. It lists the same moves, in the
//! same order, with the same statistics as the reference generator
//! (`rules::choro::reference`, whose tests compare them): the same
//! Brent checkpoints on the same state, the same budget test.

use crate::board::{zobrist, Position};
use crate::rules::choro::keys::{capture_sets, meta_pair, relay_keys};
use crate::rules::{GenStats, MoveInfo};
use crate::types::geometry::{self, facing};
use crate::types::moves::{Move, Token};
use crate::types::packed::{Loop, Ring16Flat, RingWide, MAX_HAND};
use crate::types::{Side, Variant};
use std::cell::RefCell;
use std::sync::OnceLock;

/// `ONES[b]`: how many bits of the byte `b` are set.
static ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// The set bits of `x`, whose bits past the first `8 * bytes` are clear,
/// from [`ONES`] (the baseline target has no `popcnt`: about 12
/// instructions a count in software, 2 a byte here).
#[inline(always)]
fn ones(x: u64, bytes: usize) -> u32 {
    debug_assert!(x >> (8 * bytes) == 0);
    (0..bytes)
        .map(|k| ONES[(x >> (8 * k) & 0xff) as usize] as u32)
        .sum()
}

/// Every legal move of a Didinga position, as `Position::generate`.
pub(crate) fn generate<F>(pos: &Position, budget: u32, sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    // The 8-wide lap table has entries for hands up to 64 only: the board
    // holds at most 8W counters (RULES.md), and sowing neither makes nor
    // loses one.
    debug_assert!(pos.width != 8 || pos.loops[0].total() + pos.loops[1].total() <= 64);
    match (pos.width == 8, pos.phase.is_opening()) {
        (true, false) => run::<Ring16Flat, false, F>(pos, budget, sink),
        (true, true) => run::<Ring16Flat, true, F>(pos, budget, sink),
        (false, false) => run::<RingWide, false, F>(pos, budget, sink),
        (false, true) => run::<RingWide, true, F>(pos, budget, sink),
    }
}

/// The most laps a turn runs on [`Env::fast`] before it is run again on
/// [`Env::long`], with Brent's test and the budget's (a turn of the start
/// position's perft 7 on 4x8 has 6.2 laps on average).
const FAST_LAPS: u32 = 64;

/// What a lap whose hand is `v` takes from a turn's allowance: one lap
/// (bit 32) and `v` drops, so that one subtraction counts both and one
/// sign test finds the end of the allowance (a `u8` index, no test).
static TOLL: [i64; 256] = {
    let mut t = [0i64; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = (1 << 32) + v as i64;
        v += 1;
    }
    t
};

/// [`TOLL`] for a loop whose capturing holes are flagged (bit 7 of their
/// counts, [`Flat::FLAGS`]): a flagged count takes `1 << 62` more, more
/// than any allowance, so that the toll's sign test finds a lap that ends
/// on a capturing hole too.
static TOLL_FLAGGED: [i64; 256] = {
    let mut t = TOLL;
    let mut v = 128;
    while v < 256 {
        t[v] = TOLL[v - 128] + (1 << 62);
        v += 1;
    }
    t
};

// The drops of a generator call's fast turns fit in 32 bits (at most 32
// moves, each of at most `FAST_LAPS` laps of at most `MAX_HAND`).
const _: () = assert!(32 * FAST_LAPS as u64 * MAX_HAND as u64 <= u32::MAX as u64);

/// `FACING[w & 15][p]`: the opponent's holes facing loop position `p` of
/// a board `w` wide (16 as 0), front then back, as `geometry::facing`.
static FACING: [[[u8; 2]; 32]; 16] = {
    let mut t = [[[0u8; 2]; 32]; 16];
    let mut i = 0;
    while i < 16 {
        let w = if i == 0 { 16 } else { i as u8 };
        let mut p = 0u8;
        while p < 2 * w {
            let (f, b) = facing(p, w);
            t[i][p as usize] = [f, b];
            p += 1;
        }
        i += 1;
    }
    t
};

/// `COLUMNS[w & 15][p]`: every loop position of a board `w` wide (16 as
/// 0) but `p` and the one in its column.
static COLUMNS: [[u32; 32]; 16] = {
    let mut t = [[0u32; 32]; 16];
    let mut i = 0;
    while i < 16 {
        let w = if i == 0 { 16 } else { i };
        let mut p = 0;
        while p < 2 * w {
            t[i][p] = !(1 << p | 1 << (2 * w - 1 - p));
            p += 1;
        }
        i += 1;
    }
    t
};

/// A loop position of a lap-table entry, as a type whose values the
/// compiler knows to be below 16 (`Hole16`) or 32 (`Hole32`): read from
/// the table, it indexes the loop's bytes and the table's rows with
/// neither a mask nor a bounds test (and as 32 bits, with no extension).
macro_rules! hole_type {
    ($name:ident, $($p:ident),*) => {
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        #[repr(u32)]
        enum $name {
            $($p),*
        }

        impl $name {
            const ALL: &'static [$name] = &[$($name::$p),*];

            fn of(p: usize) -> $name {
                Self::ALL[p]
            }
        }

        impl From<$name> for usize {
            #[inline(always)]
            fn from(h: $name) -> usize {
                h as usize
            }
        }
    };
}

hole_type!(Hole16, P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15);
hole_type!(
    Hole32, P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18,
    P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31
);

/// One entry of a lap table: what a relay lap from a lifted hole with a
/// given hand does.
trait Lap {
    /// The hole of the last drop.
    fn next(&self) -> usize;
    /// The lifted hole (the lap's origin).
    fn lifted(&self) -> usize;
}

/// The mover's loop during a turn, in loop order, one byte a hole
/// ([`Ring16Flat`] for the 16 holes of an 8-wide board, [`RingWide`] for
/// 18 to 32): a relay lap is word adds from a table by (lifted hole,
/// hand), and its hash change is read from a table by the same pair.
trait Flat: Copy + Eq {
    /// The loop length this type is made for; 0 for any.
    const LEN: usize;
    /// What relay laps do, by (lifted hole, hand), for one player's loop.
    type Laps: 'static;
    type Lap: Lap + 'static;
    fn load(l: &Loop, len: u8) -> Self;
    /// Write the holes into `l`, whose holes past the loop are empty.
    fn store_into(&self, l: &mut Loop);
    fn get(&self, h: usize) -> u8;
    /// Put `n` more counters in hole `h`.
    fn add(&mut self, h: usize, n: u8);
    /// The entry of the lap that lifts the `v` counters of hole `l`.
    fn entry(laps: &Self::Laps, l: usize, v: u8) -> &Self::Lap;
    /// Sow the lap of `e` (its lifted hole holding its hand); returns the
    /// board hash's change (as [`relay_keys`]).
    fn apply(&mut self, e: &Self::Lap) -> u64;
    /// Occupied holes and holes with two or more.
    fn masks(&self) -> (u32, u32);
    fn laps(side: usize, len: u8) -> &'static Self::Laps;
    /// Whether [`Env::laps`] keeps the mover's capturing holes flagged in
    /// the loop's bytes (bit 7, as [`Ring16Flat::flagged`]), so that the
    /// toll's sign test finds a capture too ([`TOLL_FLAGGED`]); not for
    /// the wider loops, whose hands of up to 128 leave no bit for it.
    const FLAGS: bool;
    /// The loop with the holes of `holes` flagged (where [`FLAGS`](Self::FLAGS)).
    fn flagged(&self, holes: u32) -> Self;
    /// Clear the flags of `holes` (where [`FLAGS`](Self::FLAGS)).
    fn unflag(&mut self, holes: u32);
    /// Clear the flags of loop position `p` and of the other in its column
    /// (where [`FLAGS`](Self::FLAGS)).
    fn unflag_column(&mut self, p: usize);
    /// The loop with no flag.
    fn unflagged(&self) -> Self;

    /// Lift the `v` counters of hole `l` and sow them from the next hole;
    /// returns the hole of the last drop and the board hash's change.
    #[inline(always)]
    fn relay(&mut self, laps: &Self::Laps, l: usize, v: usize) -> (usize, u64) {
        let e = Self::entry(laps, l, v as u8);
        (e.next(), self.apply(e))
    }
}

/// A relay lap: the words added to the loop, the hash's change, the hole
/// of the last drop and the lifted hole, together so that one index finds
/// them (aligned so that the words are aligned loads). [`Lap16`] for the
/// 16-hole loop (32 bytes), [`LapWide`] for 18 to 32 holes (48).
#[derive(Copy, Clone)]
#[repr(C, align(16))]
struct LapEntry<D, H> {
    delta: D,
    key: u64,
    next: H,
    lifted: H,
}

type Lap16 = LapEntry<[u64; 2], Hole16>;
type LapWide = LapEntry<[u64; 4], Hole32>;

impl<D, H: Copy + Into<usize>> Lap for LapEntry<D, H> {
    #[inline(always)]
    fn next(&self) -> usize {
        self.next.into()
    }
    #[inline(always)]
    fn lifted(&self) -> usize {
        self.lifted.into()
    }
}

impl Flat for Ring16Flat {
    const LEN: usize = 16;
    /// By lifted hole and hand, `l << 8 | v` (a column for every `u8`, so
    /// that a count read from the loop indexes it without a test; an
    /// 8-wide board holds 64 counters, and the columns past 64 are never
    /// read).
    type Laps = [Lap16; 4096];
    type Lap = Lap16;
    #[inline(always)]
    fn load(l: &Loop, _len: u8) -> Self {
        Ring16Flat::load(l)
    }
    #[inline(always)]
    fn store_into(&self, l: &mut Loop) {
        Ring16Flat::store_into(self, l)
    }
    #[inline(always)]
    fn get(&self, h: usize) -> u8 {
        Ring16Flat::get(self, h)
    }
    #[inline(always)]
    fn add(&mut self, h: usize, n: u8) {
        Ring16Flat::add(self, h, n)
    }
    #[inline(always)]
    fn entry(laps: &Self::Laps, l: usize, v: u8) -> &Lap16 {
        &laps[(l & 15) << 8 | v as usize]
    }
    #[inline(always)]
    fn apply(&mut self, e: &Lap16) -> u64 {
        self.add_words(&e.delta);
        e.key
    }
    #[inline(always)]
    fn masks(&self) -> (u32, u32) {
        Ring16Flat::masks(self)
    }
    const FLAGS: bool = true;
    #[inline(always)]
    fn flagged(&self, holes: u32) -> Self {
        Ring16Flat::flagged(self, holes)
    }
    #[inline(always)]
    fn unflag(&mut self, holes: u32) {
        Ring16Flat::unflag(self, holes)
    }
    #[inline(always)]
    fn unflag_column(&mut self, p: usize) {
        self.and_words(&UNFLAG_COLUMN[p & 15]);
    }
    #[inline(always)]
    fn unflagged(&self) -> Self {
        Ring16Flat::unflagged(self)
    }
    /// Built once from `relay_keys`, without the heap.
    fn laps(side: usize, _len: u8) -> &'static Self::Laps {
        type Table = [[Lap16; 4096]; 2];
        static TABLE: OnceLock<Table> = OnceLock::new();
        let t = TABLE.get_or_init(|| {
            let blank = Lap16 {
                delta: [0; 2],
                key: 0,
                next: Hole16::P0,
                lifted: Hole16::P0,
            };
            let mut t: Table = [[blank; 4096]; 2];
            for (s, side) in t.iter_mut().enumerate() {
                let keys = relay_keys(s, 16);
                for (i, e) in side.iter_mut().enumerate() {
                    let (l, v) = (i >> 8, i & 255);
                    if v <= 64 {
                        *e = Lap16 {
                            delta: Ring16Flat::relay_delta(l, v),
                            key: keys[l][v],
                            next: Hole16::of((l + v) % 16),
                            lifted: Hole16::of(l),
                        };
                    }
                }
            }
            t
        });
        &t[side]
    }
}

/// `UNFLAG_COLUMN[p]`: the words that clear the flags of loop position `p`
/// of a 16-hole loop and of the other in its column, `15 - p`, as an and.
static UNFLAG_COLUMN: [[u64; 2]; 16] = {
    let mut t = [[u64::MAX; 2]; 16];
    let mut p = 0;
    while p < 16 {
        let q = 15 - p;
        t[p][p / 8] &= !(0x80 << (8 * (p % 8)));
        t[p][q / 8] &= !(0x80 << (8 * (q % 8)));
        p += 1;
    }
    t
};

/// Columns of the wide lap tables: hands 0 to [`MAX_HAND`].
const WIDE_COLS: usize = MAX_HAND + 1;

/// Entries of a wide lap table: a row of [`WIDE_COLS`] for each of 32
/// lifted holes, and past the last row room for any `u8` hand, so that a
/// count read from the loop indexes it without a test (those entries are
/// never read: a hand is at most [`MAX_HAND`]).
const WIDE_LAPS: usize = 31 * WIDE_COLS + 256;

impl Flat for RingWide {
    const LEN: usize = 0;
    /// By lifted hole and hand, `l * WIDE_COLS + v`.
    type Laps = [LapWide; WIDE_LAPS];
    type Lap = LapWide;
    #[inline(always)]
    fn load(l: &Loop, _len: u8) -> Self {
        RingWide::load(l)
    }
    #[inline(always)]
    fn store_into(&self, l: &mut Loop) {
        RingWide::store_into(self, l)
    }
    #[inline(always)]
    fn get(&self, h: usize) -> u8 {
        RingWide::get(self, h)
    }
    #[inline(always)]
    fn add(&mut self, h: usize, n: u8) {
        RingWide::add(self, h, n)
    }
    #[inline(always)]
    fn entry(laps: &Self::Laps, l: usize, v: u8) -> &LapWide {
        &laps[(l & 31) * WIDE_COLS + v as usize]
    }
    #[inline(always)]
    fn apply(&mut self, e: &LapWide) -> u64 {
        self.add_words(&e.delta);
        e.key
    }
    #[inline(always)]
    fn masks(&self) -> (u32, u32) {
        RingWide::masks(self)
    }
    const FLAGS: bool = false;
    #[inline(always)]
    fn flagged(&self, _holes: u32) -> Self {
        *self
    }
    #[inline(always)]
    fn unflag(&mut self, _holes: u32) {}
    #[inline(always)]
    fn unflag_column(&mut self, _p: usize) {}
    #[inline(always)]
    fn unflagged(&self) -> Self {
        *self
    }
    /// Built once per loop length and side, from `relay_keys`, without the
    /// heap.
    fn laps(side: usize, len: u8) -> &'static Self::Laps {
        static TABLES: [[OnceLock<[LapWide; WIDE_LAPS]>; 8]; 2] =
            [const { [const { OnceLock::new() }; 8] }; 2];
        TABLES[side][(len as usize - 18) / 2].get_or_init(|| {
            let blank = LapWide {
                delta: [0; 4],
                key: 0,
                next: Hole32::P0,
                lifted: Hole32::P0,
            };
            let mut t = [blank; WIDE_LAPS];
            let keys = relay_keys(side, len);
            for (l, row) in t.chunks_mut(WIDE_COLS).enumerate().take(len as usize) {
                for (v, e) in row.iter_mut().enumerate().take(WIDE_COLS) {
                    *e = LapWide {
                        delta: RingWide::relay_delta(len, l as u8, v as u8),
                        key: keys[l][v],
                        next: Hole32::of((l + v) % len as usize),
                        lifted: Hole32::of(l),
                    };
                }
            }
            t
        })
    }
}

/// A turn in progress: the mover's loop, the hash and what captures have
/// changed.
#[derive(Copy, Clone)]
struct Turn<R> {
    mine: R,
    hash: u64,
    /// The opponent's occupied holes: captures only empty his holes, so
    /// this determines them.
    opp_occ: u32,
    /// The mover's capturing holes: front row, back row (as `capture_sets`).
    caps: (u32, u32),
    /// The hole of the last drop, and the count there.
    last: usize,
    v: usize,
    origin: usize,
    /// Tracked only where it matters for the laps (the opening) and in
    /// [`Env::replay`].
    front_reached: bool,
}

impl<R: Flat> Turn<R> {
    /// What Brent's algorithm compares: the general generator's
    /// `Turn::same_state`, less the fields that never change in Didinga
    /// (the capture sets follow from the opponent's holes).
    #[inline]
    fn state(&self) -> (u64, R, u32, usize, usize, bool) {
        (
            self.hash,
            self.mine,
            self.opp_occ,
            self.last,
            self.origin,
            self.front_reached,
        )
    }
}

/// What a lap needs besides the turn: the opponent's loop, the hash tables
/// of the mover's loop, the geometry.
struct Env<R: Flat> {
    /// The mover's loop, the hash and the opponent's holes at the start of
    /// every turn, and the mover's capturing holes (as `capture_sets`).
    mine: R,
    hash: u64,
    opp_occ: u32,
    caps: (u32, u32),
    /// The opponent's counts, one byte a hole.
    theirs: [u8; 32],
    keys_opp: &'static [u64; 32],
    keys_mine: &'static [u64; 32],
    laps: &'static R::Laps,
    /// The mover's front row, by loop position.
    front: u64,
    /// `TOLL_FLAGGED[0x81]`: the toll of a last drop into an empty
    /// capturing hole, where [`Flat::FLAGS`].
    end_toll: i64,
    w: u8,
    len: usize,
}

impl<R: Flat> Env<R> {
    /// The turns' set-up for the mover of `pos`, whose hash's non-board
    /// part is `meta0`.
    #[inline(always)]
    fn of(pos: &Position, meta0: u64) -> Self {
        let me = pos.side.index();
        let opp = 1 - me;
        let w = pos.width;
        let len = if R::LEN == 0 { 2 * w } else { R::LEN as u8 };
        Env {
            mine: R::load(&pos.loops[me], len),
            hash: pos.hash.wrapping_sub(meta0),
            opp_occ: pos.occupied[opp],
            caps: capture_sets(pos.occupied[opp], w),
            theirs: pos.loops[opp].bytes(),
            keys_opp: &zobrist::HOLE[opp],
            keys_mine: &zobrist::HOLE[me],
            laps: R::laps(me, len),
            front: geometry::front_mask(w) as u64,
            end_toll: TOLL_FLAGGED[0x81],
            w,
            len: len as usize,
        }
    }

    #[inline(always)]
    fn wrap(&self, x: usize) -> usize {
        if x >= self.len {
            x - self.len
        } else {
            x
        }
    }

    /// Whether `hand` counters sown from `first` reach the front row.
    #[inline(always)]
    fn reaches_front(&self, first: usize, hand: usize) -> bool {
        let run = if hand >= self.len {
            u64::MAX
        } else {
            ((1u64 << hand) - 1) << first
        };
        (run | run >> self.len) & self.front != 0
    }

    /// Whether the next lap captures (the last drop is in an occupied hole
    /// of the capturing set).
    #[inline(always)]
    fn captures<const OPEN: bool>(&self, t: &Turn<R>) -> bool {
        let caps = if OPEN && !t.front_reached {
            t.caps.0 | t.caps.1
        } else {
            t.caps.0
        };
        caps >> t.last & 1 != 0
    }

    /// One lap of a turn, which does not end it; returns the counters it
    /// sowed. `TRACK`: keep `front_reached`.
    #[inline(always)]
    fn lap<const TRACK: bool>(&self, t: &mut Turn<R>, capture: bool) -> usize {
        let last = t.last;
        if capture {
            let [of, ob] = FACING[self.w as usize & 15][last & 31];
            let (of, ob) = (of as usize, ob as usize);
            // Both are occupied, so they still hold what they held at
            // the start of the turn.
            let fr = self.theirs[of & 31];
            let bk = self.theirs[ob & 31];
            t.opp_occ &= !(1 << of | 1 << ob);
            // Both holes of this column are empty now: neither of the
            // mover's holes facing them captures any more.
            let column = COLUMNS[self.w as usize & 15][last & 31];
            t.caps.0 &= column;
            t.caps.1 &= column;
            // The increment is sown from the hole after the origin, which
            // is kept: a relay from the origin holding the increment too.
            let o = t.origin;
            let hand = fr + bk;
            t.mine.add(o, hand);
            let (l, key) = t.mine.relay(self.laps, o, hand as usize);
            t.last = l;
            t.hash = t
                .hash
                .wrapping_sub((fr as u64).wrapping_mul(self.keys_opp[of & 31]))
                .wrapping_sub((bk as u64).wrapping_mul(self.keys_opp[ob & 31]))
                .wrapping_add(key)
                .wrapping_add((hand as u64).wrapping_mul(self.keys_mine[o & 31]));
            if TRACK && !t.front_reached {
                t.front_reached = self.reaches_front(self.wrap(o + 1), hand as usize);
            }
            hand as usize
        } else {
            // A relay: lift the hole of the last drop and sow on from the next.
            let v = t.v;
            t.origin = last;
            let (l, key) = t.mine.relay(self.laps, last, v);
            t.last = l;
            t.hash = t.hash.wrapping_add(key);
            if TRACK && !t.front_reached {
                t.front_reached = self.reaches_front(self.wrap(last + 1), v);
            }
            v
        }
    }

    /// The turn that lifts hole `h`, before its first lap, which lifts `h`
    /// and sows on like a relay from it.
    #[inline(always)]
    fn start(&self, h: usize) -> Turn<R> {
        Turn {
            v: self.mine.get(h) as usize,
            mine: self.mine,
            hash: self.hash,
            opp_occ: self.opp_occ,
            caps: self.caps,
            last: h,
            origin: h,
            front_reached: false,
        }
    }

    /// The turn from hole `h` after `laps` laps (that do not end it), with
    /// `front_reached` kept.
    #[inline(always)]
    fn replay<const OPEN: bool>(&self, h: usize, laps: u32) -> Turn<R> {
        let mut t = self.start(h);
        let mut capture = false;
        for _ in 0..laps {
            self.lap::<true>(&mut t, capture);
            t.v = t.mine.get(t.last) as usize;
            capture = self.captures::<OPEN>(&t);
        }
        t
    }

    /// Whether the turn from hole `h` after `laps` laps is in the state of
    /// its Brent checkpoint at lap `saved`: both run again from the start
    /// (the laps between keep only the hash).
    #[cold]
    #[inline(never)]
    fn at_checkpoint<const OPEN: bool>(&self, h: usize, saved: u32, laps: u32) -> bool {
        self.replay::<OPEN>(h, saved).state() == self.replay::<OPEN>(h, laps).state()
    }

    /// The turn that lifts hole `h`, after its first lap (a relay from
    /// `h`, never a capture), with `allowance` less that lap's toll left.
    #[inline(always)]
    fn begin<const OPEN: bool, const FLAG: bool>(&self, h: usize, allowance: i64) -> Run<R> {
        let mut mine = if R::FLAGS && FLAG {
            let (front, back) = self.caps;
            self.mine.flagged(if OPEN { front | back } else { front })
        } else {
            self.mine
        };
        // Read from the turn's copy, not from `self.mine`: the copy is
        // then a vector in memory from the start (from `self.mine` the
        // fast turns' laps add and store its two words one by one).
        let v = if R::FLAGS && FLAG {
            mine.get(h) & 0x7f
        } else {
            mine.get(h)
        };
        let e = R::entry(self.laps, h, v);
        let hash = self.hash.wrapping_add(mine.apply(e));
        let front = OPEN && self.reaches_front(self.wrap(h + 1), v as usize);
        if R::FLAGS && FLAG && OPEN && front {
            mine.unflag(self.caps.1);
        }
        Run {
            mine,
            hash,
            opp_occ: self.opp_occ,
            set: if OPEN && !front {
                self.caps.0 | self.caps.1
            } else {
                self.caps.0
            },
            back: if OPEN && !front { self.caps.1 } else { 0 },
            e,
            left: allowance - TOLL[v as usize],
        }
    }

    /// Laps of `r` until the turn ends ([`Stop::End`]) or the allowance
    /// in `r.left` is spent ([`Stop::Out`] with the hand of the lap that
    /// would overspend it, not sown), and when `BRENT`, until a lap leaves
    /// the hash `saved_hash` ([`Stop::Hash`]). What is left of the
    /// allowance stays in `r.left`, less at an `Out` the toll of the hand
    /// not sown.
    #[inline(always)]
    fn laps<const OPEN: bool, const BRENT: bool>(&self, r: &mut Run<R>, saved_hash: u64) -> Stop {
        // On locals, not on `r` (whose loop's bytes stay in memory, read
        // by a variable index): written back where the laps stop.
        let Run {
            mut mine,
            mut hash,
            mut opp_occ,
            mut set,
            mut back,
            mut e,
            mut left,
        } = *r;
        // Flags on the long turns' laps alone (`Env::long`, 2 instructions
        // fewer a lap): on the fast ones too, a relay lap is also 2 fewer,
        // but setting and clearing them at every node and move, and the
        // registers the capture's exit then holds, cost more (perft 7 on
        // 4x8: 222.0 M instructions against 217.2 M).
        let flags = R::FLAGS && BRENT;
        let toll = if flags { &TOLL_FLAGGED } else { &TOLL };
        let stop = 'laps: loop {
            // Relays, the inner loop, until a lap ends on a capturing hole.
            let (last, u) = loop {
                let last = e.next();
                let u = mine.get(last);
                // The end test on its own: a test of the toll's sign
                // alone (a count of 1 taking more than any allowance)
                // would be two instructions fewer a lap, but its branch
                // waits for one more load, and the perft ran 7% slower.
                if u == 1 {
                    break 'laps Stop::End;
                }
                left -= toll[u as usize];
                if left < 0 {
                    // A flagged hole: the end (an empty capturing hole,
                    // as the end test above), the allowance's end, or a
                    // capture, found by the toll of its count alone.
                    if flags && u >= 0x80 {
                        if u == 0x81 {
                            // From a field, not `toll[u]`: the compiler
                            // would keep the allowance before the toll in
                            // a second register through the loop for it
                            // (two moves a lap).
                            left += self.end_toll;
                            break 'laps Stop::End;
                        }
                        left += 1 << 62;
                        if left < 0 {
                            break 'laps Stop::Out(u & 0x7f);
                        }
                        break (last, u & 0x7f);
                    }
                    break 'laps Stop::Out(u);
                }
                if !flags && set >> last & 1 != 0 {
                    break (last, u);
                }
                e = R::entry(self.laps, last, u);
                hash = hash.wrapping_add(mine.apply(e));
                if OPEN && back != 0 && self.reaches_front(self.wrap(last + 1), u as usize) {
                    if flags {
                        mine.unflag(back);
                    }
                    set &= !back;
                    back = 0;
                }
                if BRENT && hash == saved_hash {
                    break 'laps Stop::Hash;
                }
            };
            let [of, ob] = FACING[self.w as usize & 15][last & 31];
            let (of, ob) = (of as usize, ob as usize);
            // Both are occupied, so they still hold what they held at the
            // start of the turn.
            let fr = self.theirs[of & 31];
            let bk = self.theirs[ob & 31];
            opp_occ &= !(1 << of | 1 << ob);
            // Both holes of this column are empty now: neither of the
            // mover's holes facing them captures any more.
            let column = COLUMNS[self.w as usize & 15][last & 31];
            set &= column;
            back &= column;
            if flags {
                mine.unflag_column(last);
            }
            let hand = fr + bk;
            // The same one lap, other drops: the allowance, which holds
            // more drops than a turn can sow, still covers it.
            left -= hand as i64 - u as i64;
            debug_assert!(left >= 0);
            // The increment is sown from the hole after the origin, which
            // is kept: a relay from the origin holding the increment too.
            // The origin is the hole the last relay lifted: the lifted hole
            // of the lap before.
            let o = e.lifted();
            mine.add(o, hand);
            e = R::entry(self.laps, o, hand);
            hash = hash
                .wrapping_sub((fr as u64).wrapping_mul(self.keys_opp[of & 31]))
                .wrapping_sub((bk as u64).wrapping_mul(self.keys_opp[ob & 31]))
                .wrapping_add(mine.apply(e))
                .wrapping_add((hand as u64).wrapping_mul(self.keys_mine[o & 31]));
            if OPEN && back != 0 && self.reaches_front(self.wrap(o + 1), hand as usize) {
                if flags {
                    mine.unflag(back);
                }
                set &= !back;
                back = 0;
            }
            if BRENT && hash == saved_hash {
                break Stop::Hash;
            }
        };
        *r = Run {
            mine,
            hash,
            opp_occ,
            set,
            back,
            e,
            left,
        };
        stop
    }

    /// [`laps`](Self::laps) with Brent's hash test, a function of its own
    /// so that its loop has the registers to itself.
    #[inline(never)]
    fn brent_laps<const OPEN: bool>(&self, r: &mut Run<R>, saved_hash: u64) -> Stop {
        self.laps::<OPEN, true>(r, saved_hash)
    }

    /// The turn from hole `h` with neither Brent's cycle test nor the lap
    /// budget's, for at most the laps of `allowance` (see [`TOLL`]): a
    /// turn that ends has never repeated a state (from a repeated state it
    /// would run round for ever), so where it ends within the budget
    /// neither test would have cut it, and it ends as in [`long`](Self::long).
    /// Returns the turn at its end with its laps (bits 32 and up) and drops
    /// (bits 0 to 31); `None` where it runs past the allowance, for
    /// [`long`](Self::long) to run it again from its start.
    #[inline(always)]
    fn fast<const OPEN: bool>(&self, h: usize, allowance: i64) -> Option<(Run<R>, u64)> {
        let mut r = self.begin::<OPEN, false>(h, allowance);
        match self.laps::<OPEN, false>(&mut r, 0) {
            Stop::End => {
                let spent = (allowance - r.left) as u64;
                Some((r, spent))
            }
            _ => None,
        }
    }

    /// The turn from hole `h` with Brent's cycle test and the lap budget
    /// (`cut_at`: the lap at which a path is cut), as the general generator
    /// runs it, for the turns that [`fast`](Self::fast) leaves. Returns the
    /// turn at its end, its laps and drops, and whether it was cut: as
    /// a cycle (`Some(true)`) or by the budget (`Some(false)`).
    ///
    /// Brent's checkpoints are at laps 1, 2, 4, 8, ...; `saved` is the lap
    /// of the last one and `saved_hash` its hash. Only the hash is kept:
    /// when a lap's hash equals it, the turn is run again from its start for
    /// the whole states. `event` is the next lap at which to save one or to
    /// cut the path at the budget; the allowance of each stretch of laps
    /// runs to it (or `1 << 24` laps, so that its drops fit in 32 bits).
    /// The first lap lifts `h` (never a capture, no checkpoint before it)
    /// and its checkpoint is taken at once.
    #[cold]
    #[inline(never)]
    fn long<const OPEN: bool>(&self, h: usize, cut_at: u32) -> (Run<R>, u32, u64, Option<bool>) {
        // An allowance of the first lap's lap alone leaves minus its drops.
        let mut r = self.begin::<OPEN, true>(h, 1 << 32);
        let mut drops = r.left.unsigned_abs();
        let mut laps = 1u32;
        if cut_at == 1 {
            return (r, laps, drops, Some(false));
        }
        let mut saved = 1u32;
        let mut saved_hash = r.hash;
        let mut event = 2u32.min(cut_at);
        loop {
            let stretch = ((event - laps).min(1 << 24) as i64) << 32 | 0xffff_ffff;
            r.left = stretch;
            let stop = loop {
                match self.brent_laps::<OPEN>(&mut r, saved_hash) {
                    Stop::Hash => {
                        let at = laps + ((stretch - r.left) >> 32) as u32;
                        if self.at_checkpoint::<OPEN>(h, saved, at) {
                            break Stop::Hash;
                        }
                    }
                    stop => break stop,
                }
            };
            let unspent = match stop {
                Stop::End => 0,
                Stop::Out(u) => TOLL[u as usize],
                Stop::Hash => 0,
            };
            let spent = (stretch - r.left - unspent) as u64;
            laps += (spent >> 32) as u32;
            drops += spent & 0xffff_ffff;
            match stop {
                Stop::Hash => return (r, laps, drops, Some(true)),
                Stop::End => return (r, laps, drops, (laps == cut_at).then_some(false)),
                Stop::Out(_) if laps == event => {
                    if event == cut_at {
                        return (r, laps, drops, Some(false));
                    }
                    saved = event;
                    saved_hash = r.hash;
                    event = (2 * event as u64).min(cut_at as u64) as u32;
                }
                Stop::Out(_) => {}
            }
        }
    }
}

/// A turn in progress on [`Env::fast`] or [`Env::long`]: the fields of
/// [`Turn`] but the last hole and the origin, which are the last lap's
/// entry's (the hole of its last drop, its lifted hole), and with the
/// capturing holes as they apply now.
#[derive(Copy, Clone)]
struct Run<R: Flat> {
    mine: R,
    hash: u64,
    opp_occ: u32,
    /// The mover's capturing holes now: in the opening, before he reaches
    /// his front row, both rows' (as `capture_sets`), then the front row's.
    set: u32,
    /// In the opening, before the front row is reached, the back row's
    /// capturing holes (to be taken out of `set` when it is); otherwise 0.
    back: u32,
    e: &'static R::Lap,
    /// What is left of the allowance (see [`TOLL`]).
    left: i64,
}

/// Why [`Env::laps`] stopped.
enum Stop {
    End,
    Out(u8),
    Hash,
}

/// What a turn of [`Env::long`] depends on: both loops (the opponent's
/// holes and the capture sets follow from them), the width, the mover (the
/// hash keys, so Brent's hash tests), whether it is the opening, the hole
/// lifted and the lap at which a path is cut.
#[derive(Copy, Clone, PartialEq, Eq)]
struct LongKey {
    loops: [Loop; 2],
    width: u8,
    side: Side,
    open: bool,
    start: u8,
    cut_at: u32,
}

/// A turn that [`Env::long`] cut, with its laps, its drops and whether it
/// was cut as a cycle (`true`) or by the budget.
#[derive(Copy, Clone)]
struct LongCut {
    key: LongKey,
    laps: u32,
    drops: u64,
    cycle: bool,
}

/// Slots of the memo of cut turns, each thread's own (a power of two).
const LONG_CUTS: usize = 64;

thread_local! {
    /// The turns [`Env::long`] cut, by the slot of their start's hash:
    /// such a turn runs to the budget (100,001 laps by default) or to a
    /// cycle, and the same turn comes back wherever its position does (in
    /// the start position's perft 7 on 4x8, 20 budget cuts from 15 turns).
    /// A slot answers only for the key it holds, compared whole.
    static LONG_MEMO: RefCell<[Option<LongCut>; LONG_CUTS]> =
        const { RefCell::new([None; LONG_CUTS]) };
}

/// [`Env::long`] for the turn that lifts hole `h` of `pos` (whose hash's
/// non-board part is `meta0`), the turns it
/// cuts remembered: a cut turn found in the memo is not run again. The
/// same laps, drops and cut as `long` (a cut turn leaves no child, so its
/// `Run` is not kept; the one returned for it is never read).
#[cold]
#[inline(never)]
fn long_remembered<R: Flat, const OPEN: bool>(
    pos: &Position,
    meta0: u64,
    h: usize,
    cut_at: u32,
) -> (Run<R>, u32, u64, Option<bool>) {
    // Set up again here, so that the generator's loop need not keep its
    // set-up in memory for this cold call.
    let env = Env::<R>::of(pos, meta0);
    let key = LongKey {
        loops: pos.loops,
        width: pos.width,
        side: pos.side,
        open: OPEN,
        start: h as u8,
        cut_at,
    };
    let slot = (pos.hash ^ (h as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) as usize
        >> (usize::BITS - LONG_CUTS.trailing_zeros());
    let known = LONG_MEMO.with(|m| m.borrow()[slot].filter(|c| c.key == key));
    if let Some(c) = known {
        return (
            env.begin::<OPEN, false>(h, 0),
            c.laps,
            c.drops,
            Some(c.cycle),
        );
    }
    let (mut r, laps, drops, cut) = env.long::<OPEN>(h, cut_at);
    r.mine = r.mine.unflagged();
    if let Some(cycle) = cut {
        LONG_MEMO.with(|m| {
            m.borrow_mut()[slot] = Some(LongCut {
                key,
                laps,
                drops,
                cycle,
            })
        });
    }
    (r, laps, drops, cut)
}

/// The generator proper, for loops of type `R`, in the opening (`OPEN`:
/// back-row captures until the front row is reached) or the main phase.
/// Not inlined: each of the four is a function of its own (the sink inlined
/// in it), so that the registers of one lap loop are not spent on another's.
#[inline(never)]
fn run<R: Flat, const OPEN: bool, F>(pos: &Position, budget: u32, mut sink: F) -> GenStats
where
    F: FnMut(&Move, &Position, MoveInfo) -> bool,
{
    let me = pos.side.index();
    let opp = 1 - me;
    let w = pos.width;
    let len = if R::LEN == 0 { 2 * w } else { R::LEN as u8 };
    let theirs = &pos.loops[opp];
    let (meta0, meta) = meta_pair::<{ Variant::Didinga as usize }>(pos);
    let env = Env::<R>::of(pos, meta0);

    // Everything but the board is the same for every child.
    let mut child = pos.copied();
    child.ply = pos.ply + 1;
    child.side = pos.side.other();
    child.phase = pos.phase.next();
    // The opponent's holes as last written into `child`.
    let mut written = pos.occupied[opp];

    let movable = pos.movable[me];
    let starts = if OPEN {
        movable & ((1u32 << w) - 1)
    } else {
        movable
    };
    // Driberg order (a, b, c, ...): loop position W-2 first.
    let shift = w - 2;
    let full = geometry::loop_mask(len) as u64;
    let s = starts as u64;
    let mut rot = ((s >> shift) | (s << (len - shift))) & full;
    let rot_all = rot;
    let cut_at = budget.saturating_add(1);

    // A turn runs on `Env::fast` for at most `FAST_LAPS` laps (and fewer
    // than the budget's), and again on `Env::long` if it runs longer.
    let allowance = ((FAST_LAPS.min(cut_at - 1) as i64) << 32) | 0xffff_ffff;

    let mut stats = GenStats::default();
    // What the turns `fast` ran left of their allowances, and how many turns
    // `long` ran: the fast turns' laps (bits 32 and up) and drops are their
    // allowances less what they left (one add a move).
    let mut left_all = 0i64;
    let mut longs = 0u32;
    while rot != 0 {
        let i = rot.trailing_zeros() as u8;
        rot &= rot - 1;
        let h = if R::LEN == 16 {
            (i + shift) as usize & 15
        } else {
            env.wrap((i + shift) as usize)
        };
        let mut path = Move::empty(w == 8);
        // Driberg number: a (1) is loop position W-2.
        path.push(Token::Lift(i + 1));

        let fast = if cut_at > 1 {
            env.fast::<OPEN>(h, allowance)
        } else {
            None
        };
        let (r, laps, drops) = match fast {
            Some((r, spent)) => {
                left_all += r.left;
                (r, (spent >> 32) as u32, spent as u32)
            }
            None => {
                longs += 1;
                let (r, laps, drops, cut) = long_remembered::<R, OPEN>(pos, meta0, h, cut_at);
                // Cut paths count their laps too.
                stats.laps += laps as u64;
                stats.drops += drops;
                match cut {
                    Some(true) => stats.cut_cycle += 1,
                    Some(false) => stats.cut_budget += 1,
                    None => {}
                }
                if cut.is_some() {
                    continue;
                }
                (r, laps, drops as u32)
            }
        };
        r.mine.store_into(&mut child.loops[me]);
        if r.opp_occ != written {
            written = r.opp_occ;
            child.loops[opp] = theirs.keep(written);
            // Captures only empty holes of the opponent.
            child.occupied[opp] = written;
            child.movable[opp] = pos.movable[opp] & written;
        }
        (child.occupied[me], child.movable[me]) = r.mine.masks();
        child.hash = r.hash.wrapping_add(meta);
        if !sink(&path, &child, MoveInfo { laps, drops }) {
            break;
        }
    }
    // Every start taken was a move but the paths cut.
    let bytes = if R::LEN == 16 { 2 } else { 4 };
    let taken = ones(rot_all, bytes) - ones(rot, bytes);
    stats.moves = taken as u64 - stats.cut_cycle - stats.cut_budget;
    let spent_all = ((taken - longs) as i64 * allowance - left_all) as u64;
    stats.laps += spent_all >> 32;
    stats.drops += spent_all & 0xffff_ffff;
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board-hash terms of a loop of `len` holes of `side`.
    fn loop_hash(l: &Loop, side: usize, len: u8) -> u64 {
        (0..len).fold(0u64, |a, i| {
            a.wrapping_add((l.get(i) as u64).wrapping_mul(zobrist::HOLE[side][i as usize]))
        })
    }

    /// One relay lap of `R` from hole `l` of `plain` against a plain
    /// hole-by-hole sow: the loop after it, the hole of the last drop and
    /// the hash's change.
    fn check_relay<R: Flat>(plain: &Loop, side: usize, len: u8, l: usize) {
        let v = plain.get(l as u8) as usize;
        let mut ring = R::load(plain, len);
        let (last, key) = ring.relay(R::laps(side, len), l, v);
        let mut after = Loop::default();
        ring.store_into(&mut after);

        let mut sown = *plain;
        sown.set(l as u8, 0);
        let mut h = l as u8;
        for _ in 0..v {
            h = (h + 1) % len;
            sown.set(h, sown.get(h) + 1);
        }
        assert_eq!(after, sown, "len {len} side {side} hole {l} hand {v}");
        assert_eq!(last, h as usize, "len {len} hole {l} hand {v}");
        assert_eq!(
            key,
            loop_hash(&sown, side, len).wrapping_sub(loop_hash(plain, side, len)),
            "len {len} side {side} hole {l} hand {v}"
        );
        assert_eq!(ring.masks(), (sown.occupied(), sown.movable()));
    }

    /// Every move of `p` (its path written out, its child, its figures)
    /// and the statistics, from this thread's generator.
    fn listed(p: &Position, budget: u32) -> (Vec<(String, Position, MoveInfo)>, GenStats) {
        let mut out = Vec::new();
        let s = generate(p, budget, |m, c, i| {
            out.push((m.to_string(), *c, i));
            true
        });
        (out, s)
    }

    /// A turn cut by the budget or as a cycle is remembered, and a turn
    /// found in the memo counts as it did when it was run: the positions
    /// with never-ending turns, at budgets taken in turn on one thread (the
    /// same start with another budget is another turn), list the same as
    /// on a thread of their own, whose memo starts empty.
    #[test]
    fn remembered_cut_turns_count_as_run() {
        let positions = [
            "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28",
            "didinga:8 1,1,0,3,1,0,0,0/0,0,0,0,0,0,0,1/0,12,8,3,2,3,0,1/10,6,1,6,2,1,0,2 a m 174",
            "didinga:8 2,4,5,0,1,0,1,14/1,4,8,1,2,1,0,11/0,0,3,0,0,0,1,0/2,0,0,1,0,1,1,0 b m 45",
        ];
        let budgets = [500, 4000, 500, crate::rules::LAP_BUDGET, 4000];
        let mut cuts = GenStats::default();
        for s in positions {
            let p: Position = s.parse().unwrap();
            for budget in budgets {
                let fresh = std::thread::spawn(move || listed(&p, budget))
                    .join()
                    .unwrap();
                let here = listed(&p, budget);
                assert_eq!(here.1, fresh.1, "{s} budget {budget}: statistics");
                assert_eq!(here.0, fresh.0, "{s} budget {budget}: moves");
                cuts.add(&here.1);
            }
            // The memo holds this thread's cut turns of the last budget.
            let held = LONG_MEMO.with(|m| {
                m.borrow()
                    .iter()
                    .flatten()
                    .filter(|c| c.key.loops == p.loops && c.key.cut_at == 4001)
                    .count()
            });
            assert!(held > 0, "{s}");
        }
        assert!(cuts.cut_cycle > 0 && cuts.cut_budget > 0, "{cuts:?}");
    }

    /// The lap tables of both loop types, for every loop length, side,
    /// lifted hole and hand a board allows (its `4 * len` counters), on
    /// random boards.
    #[test]
    fn lap_tables_match_a_plain_sow() {
        let mut x = 0x243f_6a88_85a3_08d3u64;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for len in (16..=32u8).step_by(2) {
            let total = 4 * len as usize;
            for side in 0..2 {
                for l in 0..len as usize {
                    for v in 1..=total {
                        let mut plain = Loop::default();
                        plain.set(l as u8, v as u8);
                        let mut room = total - v;
                        for h in (0..len).filter(|&h| h as usize != l) {
                            let c = (next(4) as usize).min(room);
                            plain.set(h, c as u8);
                            room -= c;
                        }
                        if len == 16 {
                            check_relay::<Ring16Flat>(&plain, side, len, l);
                        } else {
                            check_relay::<RingWide>(&plain, side, len, l);
                        }
                    }
                }
            }
        }
    }
}
