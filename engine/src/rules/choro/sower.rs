//! The shared sower: the in-flight state of one turn (`Turn`) and the lap.
//!
//! A lap drops its hand one by one into consecutive holes of the mover's
//! loop from a given first hole, in a given direction (RULINGS 2). Here a lap
//! is one masked word-wide add (a table add and a rotation on the 16-hole
//! loops of 8-wide boards), whatever its length.

use crate::board::zobrist;
use crate::types::packed::{Loop, Ring};
use crate::types::Dir;

/// No hole (a turn's `base` outside a clockwise chain).
pub(crate) const NONE: u8 = 0xff;

/// What kind of lap ended at `last`, where that matters for what follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum LapKind {
    /// A counter-clockwise lap (first lift, relay or increment).
    Normal,
    /// Lango: a clockwise lap from base hole `base` (first lap, relay or again).
    LangoCw,
    /// Acholi: a preliminary attack from `origin` (or its clockwise-again).
    AcholiAttack,
    /// Acholi: the one clockwise relay lap from i or k during the move.
    AcholiMidCw,
}

/// The state of a turn at the end of a lap. Everything but `laps` and
/// `drops` decides the rest of the turn, so two lap ends with equal state
/// (`same_state`) repeat each other (RULINGS 2, never-ending moves).
///
/// The mover's loop is a [`Ring`] whose cursor is the hole of the last drop
/// (`last`): for the 16-hole loops of 8-wide boards one rotated `u128`
/// ([`crate::types::packed::Ring16`]), so that a relay is an add and a
/// rotation. The opponent's holes are only ever emptied during a turn (by
/// captures), so they are the generator's fixed copy of them with only the
/// holes of `opp_occ` kept.
#[derive(Copy, Clone)]
pub(crate) struct Turn<R> {
    pub(crate) mine: R,
    /// Board part of the hash, kept in step with the holes.
    pub(crate) hash: u64,
    /// The opponent's holes still holding what they held at the turn's start.
    pub(crate) opp_occ: u32,
    /// Hole of the last drop (L): the ring's cursor.
    pub(crate) last: u8,
    /// Origin of the current lap chain (where its counters were lifted).
    pub(crate) origin: u8,
    /// Base hole of a clockwise chain (Lango `t`).
    pub(crate) base: u8,
    pub(crate) kind: LapKind,
    pub(crate) dir: Dir,
    /// The mover has dropped a counter into his own front row this turn.
    pub(crate) front_reached: bool,
    pub(crate) laps: u32,
    pub(crate) drops: u32,
    /// First hole and hand of the last lap (for traces only).
    pub(crate) lap_first: u8,
    pub(crate) lap_hand: u8,
    /// The mover's holes that capture when a lap ends there on an occupied
    /// hole: (front row, back row in the opening, until the front row is
    /// reached; empty in the main phase). Derived from the opponent's holes
    /// and `front_reached` (so not part of the state), kept in step by
    /// [`Turn::took_column`] and the laps.
    pub(crate) caps: (u32, u32),
}

/// A cheap key of a lap-end state from its board hash, last hole, origin,
/// base, kind, direction and front flag; equal states have equal keys.
#[inline]
pub(crate) fn state_key(hash: u64, holes: [u8; 3], kind: LapKind, dir: Dir, front: bool) -> u64 {
    let small = holes[0] as u64
        | (holes[1] as u64) << 8
        | (holes[2] as u64) << 16
        | (kind as u64) << 24
        | (dir as u64) << 28
        | (front as u64) << 30;
    hash ^ small.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl<R: Ring> Turn<R> {
    /// A cheap key of the full state; equal states have equal keys.
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        state_key(
            self.hash,
            [self.last, self.origin, self.base],
            self.kind,
            self.dir,
            self.front_reached,
        )
    }

    #[inline]
    pub(crate) fn same_state(&self, o: &Turn<R>) -> bool {
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

    /// The mover's holes in loop order.
    #[inline]
    pub(crate) fn mine_loop(&self) -> Loop {
        self.mine.store(self.last)
    }

    /// The same state with the mover's loop in loop order (for the decision
    /// points of a path, compared whatever the ring type).
    #[inline]
    pub(crate) fn unrotated(&self) -> Turn<Loop> {
        Turn {
            mine: self.mine_loop(),
            hash: self.hash,
            opp_occ: self.opp_occ,
            last: self.last,
            origin: self.origin,
            base: self.base,
            kind: self.kind,
            dir: self.dir,
            front_reached: self.front_reached,
            laps: self.laps,
            drops: self.drops,
            lap_first: self.lap_first,
            lap_hand: self.lap_hand,
            caps: self.caps,
        }
    }

    /// Count of the mover's hole of the last drop.
    #[inline]
    pub(crate) fn at_last(&self, len: u8) -> u8 {
        self.mine.cur(self.last, len)
    }

    /// Sow `hand` counters on the mover's loop of `len` holes, first drop
    /// in `first`, going `dir`. Sets `last`; counts the lap and its drops.
    #[inline(always)]
    pub(crate) fn lap(
        &mut self,
        len: u8,
        front: u32,
        keys: &[u64; 256],
        first: u8,
        hand: u8,
        dir: Dir,
    ) {
        debug_assert!(hand > 0 && first < len && (16..=32).contains(&len));
        // hand % len without a division: exact for hand < 256 and len <= 32.
        let r = if len == 16 {
            hand & 15
        } else {
            hand - ((hand as u32 * 65536u32.div_ceil(len as u32)) >> 16) as u8 * len
        };
        let wrap = |x: u8| if x >= len { x - len } else { x };
        // `start`: the first hole of the stretch that gets one more than the
        // others, in loop order; its `r` holes and whole rounds make the lap.
        // `end` is where a counter-clockwise sow from `start` ends.
        let (start, end, last) = match dir {
            Dir::Ccw => {
                let l = wrap(first + if r == 0 { len - 1 } else { r - 1 });
                (first, l, l)
            }
            Dir::Cw if r == 0 => (first, wrap(first + len - 1), wrap(first + 1)),
            Dir::Cw => {
                let s = wrap(first + len + 1 - r);
                (s, first, s)
            }
        };
        self.mine.sow(start, hand, self.last, end, len);
        if dir == Dir::Cw {
            self.mine.seek(end, last);
        }
        self.hash = self.hash.wrapping_add(
            keys[start.wrapping_add(hand) as usize].wrapping_sub(keys[start as usize]),
        );
        self.reach(len, front, start, hand);
        self.last = last;
        self.dir = dir;
        self.lap_first = first;
        self.lap_hand = hand;
        self.laps += 1;
        self.drops += hand as u32;
    }

    /// A relay: lift the `v` counters of the hole of the last drop (`v` its
    /// count, at least 2) and sow them counter-clockwise from the next hole.
    /// The common lap, without the general lap's direction and wrap logic.
    #[inline(always)]
    /// `hole_keys`: the mover's hole keys; `keys`: their sums walked round.
    pub(crate) fn relay(
        &mut self,
        hole_keys: &[u64; 32],
        len: u8,
        front: u32,
        keys: &[u64; 256],
        v: u8,
    ) {
        let l = self.last;
        let first = if l + 1 == len { 0 } else { l + 1 };
        self.mine.clear_cur(l, len);
        let last = if R::LEN != 0 {
            l.wrapping_add(v) & (R::LEN - 1)
        } else {
            ((l as u32 + v as u32) % len as u32) as u8
        };
        self.mine.relay(v, l, last, len);
        // Sown from `l + 1` (which may be `len`: the table walks round).
        self.hash = self.hash.wrapping_add(
            keys[(l + 1 + v) as usize]
                .wrapping_sub(keys[(l + 1) as usize])
                .wrapping_sub((v as u64).wrapping_mul(hole_keys[(l & 31) as usize])),
        );
        self.reach(len, front, first, v);
        self.origin = l;
        self.base = NONE;
        self.kind = LapKind::Normal;
        self.last = last;
        self.dir = Dir::Ccw;
        self.lap_first = first;
        self.lap_hand = v;
        self.laps += 1;
        self.drops += v as u32;
    }

    /// Whether a clockwise lap of the `v` counters of the hole of the last
    /// drop, sown from the hole before it, would end in a capture (at least
    /// 2 counters in a capturing hole), found without sowing it.
    #[inline]
    pub(crate) fn cw_relay_captures(&self, len: u8, front: u32, v: u8) -> bool {
        let l = self.last;
        let q = ((v as u32 * 65536u32.div_ceil(len as u32)) >> 16) as u8;
        let r = v - q * len;
        // The lap's last drop, and the first hole of its stretch of `r`
        // holes (in loop order) that get one more than the others.
        let last = if r > l { l + len - r } else { l - r };
        let after = if r == 0 {
            // Back in the lifted hole, emptied before the lap.
            q
        } else {
            self.mine.count(last, l, len) + q + 1
        };
        if after < 2 {
            return false;
        }
        let reached = self.front_reached || {
            let run = if v >= len {
                u64::MAX
            } else {
                ((1u64 << v) - 1) << last
            };
            (run | run >> len) & front as u64 != 0
        };
        let caps = self.caps.0 | if reached { 0 } else { self.caps.1 };
        caps >> last & 1 != 0
    }

    /// Whether `hand` counters sown from `start` reach the mover's front row
    /// (`front`): once they have, the back-row capture set is dropped (it
    /// applies only before, in the opening).
    #[inline(always)]
    fn reach(&mut self, len: u8, front: u32, start: u8, hand: u8) {
        if !self.front_reached {
            let run = if hand >= len {
                u64::MAX
            } else {
                ((1u64 << hand) - 1) << start
            };
            if (run | run >> len) & front as u64 != 0 {
                self.front_reached = true;
                self.caps.1 = 0;
            }
        }
    }

    /// Whether `last` is a capturing hole: a lap ending there on an occupied
    /// hole captures from the opponent's holes facing it (RULINGS 3).
    #[inline(always)]
    pub(crate) fn captures(&self) -> bool {
        (self.caps.0 | self.caps.1) >> self.last & 1 != 0
    }

    /// Both opponent holes facing the mover's hole `l` were emptied: neither
    /// of the mover's holes facing them captures any more.
    #[inline]
    pub(crate) fn took_column(&mut self, l: u8, len: u8) {
        let column = !(1u32 << l | 1u32 << (len - 1 - l));
        self.caps.0 &= column;
        self.caps.1 &= column;
    }

    /// Empty the mover's hole `h` (on a loop of `len`), returning its counters.
    #[inline]
    pub(crate) fn take(&mut self, me: usize, h: u8, len: u8) -> u8 {
        let n = self.mine.count(h, self.last, len);
        self.mine.empty(h, self.last, len);
        self.hash = self
            .hash
            .wrapping_sub((n as u64).wrapping_mul(zobrist::HOLE[me][h as usize]));
        n
    }

    /// Empty the opponent's hole `h`, whose turn-start holes are `theirs`,
    /// returning its counters.
    #[inline]
    pub(crate) fn take_opp(&mut self, opp: usize, theirs: &Loop, h: u8) -> u8 {
        let n = if self.opp_occ >> h & 1 != 0 {
            theirs.get(h)
        } else {
            0
        };
        self.opp_occ &= !(1 << h);
        self.hash = self
            .hash
            .wrapping_sub((n as u64).wrapping_mul(zobrist::HOLE[opp][h as usize]));
        n
    }

    /// Add `n` counters to the mover's hole `h` of a loop of `len` holes.
    #[inline]
    pub(crate) fn put(&mut self, me: usize, h: u8, n: u8, len: u8) {
        let mut l = self.mine_loop();
        l.set(h, l.get(h) + n);
        self.mine = R::load(&l, len);
        self.mine.seek(0, self.last);
        self.hash = self
            .hash
            .wrapping_add((n as u64).wrapping_mul(zobrist::HOLE[me][h as usize]));
    }
}
