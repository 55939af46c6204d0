//! The shared sower: the in-flight state of one turn (`Turn`) and the lap.
//!
//! A lap drops its hand one by one into consecutive holes of the mover's
//! loop from a given first hole, in a given direction (RULINGS 2). Here a lap
//! is one masked word-wide add, whatever its length.

use crate::board::zobrist;
use crate::types::packed::{range_bits, Loop};
use crate::types::Dir;

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
#[derive(Copy, Clone, Debug)]
pub(crate) struct Turn {
    pub loops: [Loop; 2],
    /// Board part of the hash, kept in step with `loops`.
    pub hash: u64,
    /// Hole of the last drop (L).
    pub last: u8,
    /// Origin of the current lap chain (where its counters were lifted).
    pub origin: u8,
    /// Base hole of a clockwise chain (Lango `t`).
    pub base: u8,
    pub kind: LapKind,
    pub dir: Dir,
    /// The mover has dropped a counter into his own front row this turn.
    pub front_reached: bool,
    pub laps: u32,
    pub drops: u32,
    /// First hole and hand of the last lap (for traces only).
    pub lap_first: u8,
    pub lap_hand: u8,
    /// The mover's holes that capture when a lap ends there on an occupied
    /// hole: (front row, back row in the opening). Derived from the
    /// opponent's holes (so not part of the state), kept in step by
    /// [`Turn::took_column`].
    pub caps: (u32, u32),
}

impl Turn {
    /// A cheap key of the full state; equal states have equal keys.
    #[inline]
    pub fn key(&self) -> u64 {
        let small = self.last as u64
            | (self.origin as u64) << 8
            | (self.base as u64) << 16
            | (self.kind as u64) << 24
            | (self.dir as u64) << 28
            | (self.front_reached as u64) << 30;
        self.hash ^ small.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    #[inline]
    pub fn same_state(&self, o: &Turn) -> bool {
        self.hash == o.hash
            && self.last == o.last
            && self.origin == o.origin
            && self.base == o.base
            && self.kind == o.kind
            && self.dir == o.dir
            && self.front_reached == o.front_reached
            && self.loops == o.loops
    }

    /// Sow `hand` counters on player `me`'s loop of `len` holes, first drop
    /// in `first`, going `dir`. Sets `last`; counts the lap and its drops.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn lap(
        &mut self,
        me: usize,
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
        let (start, last) = match dir {
            Dir::Ccw => (first, wrap(first + if r == 0 { len - 1 } else { r - 1 })),
            Dir::Cw if r == 0 => (first, wrap(first + 1)),
            Dir::Cw => {
                let s = wrap(first + len + 1 - r);
                (s, s)
            }
        };
        if len == 16 {
            self.loops[me].sow16(start, hand);
        } else {
            let q = (hand - r) / len;
            let bits = if r == 0 { 0 } else { range_bits(start, r, len) };
            let all = crate::types::geometry::loop_mask(len);
            self.loops[me].add_masked(bits, all, q);
        }
        self.hash = self.hash.wrapping_add(
            keys[start.wrapping_add(hand) as usize].wrapping_sub(keys[start as usize]),
        );
        if !self.front_reached {
            let run = if hand >= len {
                u64::MAX
            } else {
                ((1u64 << hand) - 1) << start
            };
            self.front_reached = (run | run >> len) & front as u64 != 0;
        }
        self.last = last;
        self.dir = dir;
        self.lap_first = first;
        self.lap_hand = hand;
        self.laps += 1;
        self.drops += hand as u32;
    }

    /// Both opponent holes facing the mover's hole `l` were emptied: neither
    /// of the mover's holes facing them captures any more.
    #[inline]
    pub fn took_column(&mut self, l: u8, len: u8) {
        let column = !(1u32 << l | 1u32 << (len - 1 - l));
        self.caps.0 &= column;
        self.caps.1 &= column;
    }

    /// Empty hole `h` of player `s`, returning its counters.
    #[inline]
    pub fn take(&mut self, s: usize, h: u8) -> u8 {
        let n = self.loops[s].take(h);
        self.hash = self
            .hash
            .wrapping_sub((n as u64).wrapping_mul(zobrist::HOLE[s][h as usize]));
        n
    }

    /// Add `n` counters to hole `h` of player `s`.
    #[inline]
    pub fn put(&mut self, s: usize, h: u8, n: u8) {
        let v = self.loops[s].get(h);
        self.loops[s].set(h, v + n);
        self.hash = self
            .hash
            .wrapping_add((n as u64).wrapping_mul(zobrist::HOLE[s][h as usize]));
    }
}
