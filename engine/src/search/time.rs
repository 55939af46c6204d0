//! Time management: how long one `go` may think.
//!
//! Time counts from `Limits::start`, the moment the protocol read `go`, so
//! the work before the search proper (the search thread's start, the MCTS
//! tree's reuse) is on the clock too. The searchers look at the clock every
//! few dozen nodes or iterations, a small fraction of a millisecond.
//!
//! - `movetime`: exactly that, less `MoveOverhead` (the hard limit).
//! - clocks (`wtime/btime/winc/binc/movestogo`, UGI's `p1time/...`): a soft
//!   target of `remaining / movestogo (25 if unknown) + 3/4 increment`, less
//!   the overhead; a hard cap of 3 targets, never more than half the remaining
//!   time less the overhead (all of it, less the overhead, when one move is
//!   left to the control). Iterative deepening starts no new iteration past
//!   60% of the target; the hard cap aborts a running one.
//! - both: `movetime`, but never past the clock's cap (a harness that gives
//!   both allows the smaller).
//! - while `SearchControl::pondering` is set nothing is measured; the clock
//!   starts at `ponderhit`.
//!
//! Only the main search thread owns a `TimeManager`; the ponderhit instant is
//! kept in a `Cell`, which keeps the type on that thread.

use super::{Limits, SearchControl};
use crate::types::Side;
use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const DEFAULT_MOVES_TO_GO: u32 = 25;
const MIN_TIME: Duration = Duration::from_millis(1);

pub struct TimeManager {
    /// Target for the whole move: no new iteration past 60% of it.
    soft: Option<Duration>,
    /// Abort the running iteration past this.
    hard: Option<Duration>,
    /// When the limits started to count: the start, or `ponderhit`.
    origin: Cell<Option<Instant>>,
}

impl TimeManager {
    pub fn new(
        limits: &Limits,
        overhead: Duration,
        side: Side,
        control: &SearchControl,
        start: Instant,
    ) -> TimeManager {
        let (soft, hard) = allocate(limits, overhead, side);
        let pondering = control.pondering.load(Ordering::Relaxed);
        TimeManager {
            soft,
            hard,
            origin: Cell::new((!pondering).then_some(start)),
        }
    }

    /// Whether any time limit applies to this search.
    pub(crate) fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Whether the clock runs on (a game clock, not a fixed `movetime`).
    pub(crate) fn is_clock(&self) -> bool {
        self.soft.is_some()
    }

    fn elapsed(&self, control: &SearchControl) -> Option<Duration> {
        if let Some(o) = self.origin.get() {
            return Some(o.elapsed());
        }
        if control.pondering.load(Ordering::Relaxed) {
            return None;
        }
        let now = Instant::now();
        self.origin.set(Some(now));
        Some(Duration::ZERO)
    }

    /// What is left of the hard limit (all of it while pondering); `None`
    /// when no time limit applies.
    pub(crate) fn hard_left(&self, control: &SearchControl) -> Option<Duration> {
        let h = self.hard?;
        Some(match self.elapsed(control) {
            Some(e) => h.saturating_sub(e),
            None => h,
        })
    }

    /// Past the hard limit: stop now.
    pub(crate) fn hard_exceeded(&self, control: &SearchControl) -> bool {
        match self.hard {
            Some(h) => self.elapsed(control).is_some_and(|e| e >= h),
            None => false,
        }
    }

    /// Past `percent` of the soft target (clocks only).
    pub(crate) fn soft_exceeded(&self, control: &SearchControl, percent: u32) -> bool {
        match self.soft {
            Some(s) => self
                .elapsed(control)
                .is_some_and(|e| e >= s * percent / 100),
            None => false,
        }
    }
}

/// (soft target, hard limit) for the side to move.
pub fn allocate(
    limits: &Limits,
    overhead: Duration,
    side: Side,
) -> (Option<Duration>, Option<Duration>) {
    let fixed = limits
        .movetime
        .map(|mt| mt.saturating_sub(overhead).max(MIN_TIME));
    let clock = limits.time[side.index()].map(|left| {
        let inc = limits.inc[side.index()].unwrap_or_default();
        let mtg = limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, 100);
        let avail = left.saturating_sub(overhead).max(MIN_TIME);
        let cap = if mtg == 1 { avail } else { avail / 2 }.max(MIN_TIME);
        let target = (left / mtg + inc * 3 / 4)
            .saturating_sub(overhead)
            .clamp(MIN_TIME, cap);
        let hard = (target * 3).min(cap).max(target);
        (target, hard, cap)
    });
    match (fixed, clock) {
        (Some(f), None) => (None, Some(f)),
        (Some(f), Some((_, _, cap))) => (None, Some(f.min(cap))),
        (None, Some((target, hard, _))) => (Some(target), Some(hard)),
        (None, None) => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let l = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(allocate(&l, ms(10), Side::A), (None, Some(ms(990))));
    }

    #[test]
    fn clock_uses_the_movers_time_and_increment() {
        let l = Limits {
            time: [Some(ms(60_000)), Some(ms(1_000))],
            inc: [Some(ms(1_000)), None],
            ..Limits::default()
        };
        // A: 60000/25 + 750 - 10 = 3140; hard 3 x 3140.
        assert_eq!(
            allocate(&l, ms(10), Side::A),
            (Some(ms(3140)), Some(ms(9420)))
        );
        // B: 1000/25 - 10 = 30; hard 90.
        assert_eq!(allocate(&l, ms(10), Side::B), (Some(ms(30)), Some(ms(90))));
        // One move to the control: the target may use nearly everything.
        let last = Limits {
            time: [Some(ms(500)), None],
            movestogo: Some(1),
            ..Limits::default()
        };
        assert_eq!(
            allocate(&last, ms(10), Side::A),
            (Some(ms(490)), Some(ms(490)))
        );
        assert_eq!(allocate(&Limits::default(), ms(10), Side::A), (None, None));
    }

    #[test]
    fn movetime_never_outlasts_the_clock() {
        // A harness that gives both allows the smaller: 100 ms a move, but
        // 60 ms on the clock leaves (60 - 10) / 2.
        let l = Limits {
            movetime: Some(ms(100)),
            time: [Some(ms(60)), Some(ms(60_000))],
            ..Limits::default()
        };
        assert_eq!(allocate(&l, ms(10), Side::A), (None, Some(ms(25))));
        // A clock with time to spare does not shorten the movetime.
        assert_eq!(allocate(&l, ms(10), Side::B), (None, Some(ms(90))));
        // Less than the overhead left: the least there is.
        let l = Limits {
            movetime: Some(ms(5)),
            ..Limits::default()
        };
        assert_eq!(allocate(&l, ms(10), Side::A), (None, Some(ms(1))));
    }

    #[test]
    fn pondering_stops_the_clock_until_ponderhit() {
        let c = SearchControl::default();
        c.pondering.store(true, Ordering::Relaxed);
        let l = Limits {
            movetime: Some(ms(1)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, ms(0), Side::A, &c, Instant::now());
        std::thread::sleep(ms(5));
        assert!(!tm.hard_exceeded(&c));
        c.pondering.store(false, Ordering::Relaxed);
        assert!(!tm.hard_exceeded(&c), "the clock starts at ponderhit");
        std::thread::sleep(ms(5));
        assert!(tm.hard_exceeded(&c));
    }
}
