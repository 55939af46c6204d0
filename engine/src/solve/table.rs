//! The solver's table of proven facts, shared by every solver thread
//! without locks.
//!
//! A search to `r` plies proves facts of the form "the side to move can
//! force a win within `r` plies" or "cannot", and the same for a loss. Each
//! is a property of the position alone (no history, no evaluation), so it
//! stays true wherever and whenever the position is met again, and a fact
//! proven at one depth answers searches at others: a win within `r` is a
//! win within every `r' >= r`; no win within `r` is no win within every
//! `r' <= r`. An entry keeps, per position, the strongest fact of each of
//! the four kinds, and a draw proven at every depth (a finite tree whose
//! every line ends in a drawn end).
//!
//! An entry is two 64-bit words, the key XOR the data and the data
//! (Hyatt's lockless scheme, as `search::tt`): a torn write by another
//! thread fails the key check and reads as a miss. Four entries share a
//! 64-byte bucket; a new position replaces the entry whose subtree cost the
//! least work.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Depths and distances are kept in 12 bits; this value means "none".
pub const NONE: u32 = 0xfff;
/// The deepest search whose facts can be stored.
pub const MAX_PLIES: u32 = NONE - 1;

/// What is known of one position, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The side to move forces a win within this many plies (`NONE`: not known).
    pub win_le: u32,
    /// The side to move cannot force a win within this many plies (0: nothing known).
    pub nowin_ge: u32,
    /// The other side forces a win within this many plies (`NONE`: not known).
    pub loss_le: u32,
    /// The other side cannot force a win within this many plies.
    pub noloss_ge: u32,
    /// A draw at every depth: every line ends, within the tree, in a draw.
    pub draw: bool,
    /// 1 + the index of the best child in generation order (0: none).
    pub best: u32,
    /// log2 of the nodes its subtree cost (replacement priority).
    pub work: u32,
}

impl Default for Facts {
    fn default() -> Facts {
        Facts {
            win_le: NONE,
            nowin_ge: 0,
            loss_le: NONE,
            noloss_ge: 0,
            draw: false,
            best: 0,
            work: 0,
        }
    }
}

/// The answer of the facts to the question "what is the value within `r`
/// plies", as far as they give it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Known {
    /// A win within `r` (1), a loss within `r` (-1), or neither (0); `exact`
    /// when the value is the same at every depth (a win, a loss, a draw).
    Value {
        /// 1: a win within `r`; -1: a loss within `r`; 0: neither.
        v: i8,
        /// Whether the value is the same at every depth.
        exact: bool,
    },
    /// Only bounds: the value within `r` is in `lo..=hi`.
    Bounds {
        /// The least the value within `r` can be.
        lo: i8,
        /// The most it can be.
        hi: i8,
    },
}

impl Facts {
    /// Whether this entry says anything of value.
    pub fn is_empty(&self) -> bool {
        self.win_le == NONE
            && self.loss_le == NONE
            && self.nowin_ge == 0
            && self.noloss_ge == 0
            && !self.draw
    }

    /// A proven win or loss: a fact true at every depth at or beyond it.
    pub(crate) fn is_decided(&self) -> bool {
        self.win_le != NONE || self.loss_le != NONE || self.draw
    }

    /// What the facts say of the value within `r` plies.
    pub fn at(&self, r: u32) -> Known {
        if self.win_le <= r {
            return Known::Value { v: 1, exact: true };
        }
        if self.loss_le <= r {
            return Known::Value { v: -1, exact: true };
        }
        if self.draw {
            return Known::Value { v: 0, exact: true };
        }
        // A proven win beyond `r` rules out a loss at every depth, and a
        // proven loss rules out a win.
        let nowin = self.nowin_ge >= r || self.loss_le != NONE;
        let noloss = self.noloss_ge >= r || self.win_le != NONE;
        match (nowin, noloss) {
            (true, true) => Known::Value { v: 0, exact: false },
            (true, false) => Known::Bounds { lo: -1, hi: 0 },
            (false, true) => Known::Bounds { lo: 0, hi: 1 },
            (false, false) => Known::Bounds { lo: -1, hi: 1 },
        }
    }

    /// The strongest of both (facts never contradict each other).
    pub fn merge(&self, o: &Facts) -> Facts {
        Facts {
            win_le: self.win_le.min(o.win_le),
            nowin_ge: self.nowin_ge.max(o.nowin_ge),
            loss_le: self.loss_le.min(o.loss_le),
            noloss_ge: self.noloss_ge.max(o.noloss_ge),
            draw: self.draw || o.draw,
            best: if o.best != 0 { o.best } else { self.best },
            work: self.work.max(o.work),
        }
    }

    /// The facts a search to `r` plies proved, from its result `v` in the
    /// window `(alpha, beta)` and whether the result holds at every depth.
    pub(crate) fn from_result(r: u32, v: i8, alpha: i8, beta: i8, exact: bool) -> Facts {
        let mut f = Facts::default();
        match v {
            1 => f.win_le = r,
            -1 => f.loss_le = r,
            _ if exact => {
                f.nowin_ge = r;
                f.noloss_ge = r;
                f.draw = true;
            }
            _ => {
                if v <= alpha {
                    f.nowin_ge = r;
                } else if v >= beta {
                    f.noloss_ge = r;
                } else {
                    f.nowin_ge = r;
                    f.noloss_ge = r;
                }
            }
        }
        f
    }

    /// The exact value, when the facts give it: `Some(1)`, `Some(-1)` with
    /// the distance, or `Some(0)` for a draw.
    pub fn value(&self) -> Option<(i8, u32)> {
        if self.win_le != NONE && self.nowin_ge + 1 >= self.win_le {
            Some((1, self.win_le))
        } else if self.loss_le != NONE && self.noloss_ge + 1 >= self.loss_le {
            Some((-1, self.loss_le))
        } else if self.draw {
            Some((0, 0))
        } else {
            None
        }
    }

    fn pack(&self) -> u64 {
        (self.win_le as u64 & 0xfff)
            | (self.nowin_ge.min(MAX_PLIES) as u64) << 12
            | (self.loss_le as u64 & 0xfff) << 24
            | (self.noloss_ge.min(MAX_PLIES) as u64) << 36
            | (self.draw as u64) << 48
            | (self.best.min(255) as u64) << 49
            | (self.work.min(63) as u64) << 57
            | 1 << 63
    }

    fn unpack(d: u64) -> Facts {
        Facts {
            win_le: (d & 0xfff) as u32,
            nowin_ge: ((d >> 12) & 0xfff) as u32,
            loss_le: ((d >> 24) & 0xfff) as u32,
            noloss_ge: ((d >> 36) & 0xfff) as u32,
            draw: (d >> 48) & 1 == 1,
            best: ((d >> 49) & 0xff) as u32,
            work: ((d >> 57) & 0x3f) as u32,
        }
    }
}

const SLOTS: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    /// `[key ^ data, data]` per slot; data 0 is an empty slot.
    slots: [[AtomicU64; 2]; SLOTS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// A table's memory, reserved but not yet written.
pub(crate) struct ReservedFacts {
    buckets: Vec<Bucket>,
    n: usize,
}

impl ReservedFacts {
    /// The empty table, its every bucket written once.
    pub fn fill(mut self) -> FactTable {
        self.buckets.resize_with(self.n, Bucket::default);
        FactTable {
            buckets: self.buckets,
        }
    }
}

/// The table. Reading and writing take `&self`.
pub struct FactTable {
    buckets: Vec<Bucket>,
}

impl FactTable {
    /// A table of about `mb` mebibytes (at least one bucket), or an error
    /// when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<FactTable, TryReserveError> {
        Ok(FactTable::try_reserve(mb)?.fill())
    }

    /// [`try_new`](Self::try_new), aborting as a failed allocation does
    /// when the memory cannot be had.
    pub fn new(mb: usize) -> FactTable {
        let n = Self::buckets_for(mb);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        FactTable { buckets }
    }

    fn buckets_for(mb: usize) -> usize {
        (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1)
    }

    /// The memory of a table of about `mb` mebibytes, reserved but not yet
    /// written (so that a caller can free an old table first).
    pub(crate) fn try_reserve(mb: usize) -> Result<ReservedFacts, TryReserveError> {
        let n = Self::buckets_for(mb);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n)?;
        Ok(ReservedFacts { buckets, n })
    }

    /// Forget every fact; the memory is kept.
    pub fn clear(&mut self) {
        self.buckets.fill_with(Bucket::default);
    }

    /// Memory of the table, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The facts stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Facts> {
        for s in &self.bucket(key).slots {
            let d = s[1].load(Relaxed);
            if d != 0 && s[0].load(Relaxed) ^ d == key {
                return Some(Facts::unpack(d));
            }
        }
        None
    }

    /// Add facts for `key`, merged with what is stored. Returns whether a
    /// win, loss or draw became known that was not before.
    pub fn store(&self, key: u64, f: &Facts) -> bool {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = u32::MAX;
        let mut merged = *f;
        let mut newly = f.is_decided();
        for (i, s) in b.slots.iter().enumerate() {
            let d = s[1].load(Relaxed);
            if d == 0 {
                if worst > 0 {
                    victim = i;
                    worst = 0;
                }
                continue;
            }
            if s[0].load(Relaxed) ^ d == key {
                let old = Facts::unpack(d);
                newly = f.is_decided() && !old.is_decided();
                merged = old.merge(f);
                victim = i;
                break;
            }
            // Decided positions are worth more than any bound of equal work.
            let old = Facts::unpack(d);
            let v = 2 * old.work + old.is_decided() as u32;
            if v < worst {
                worst = v;
                victim = i;
            }
        }
        let data = merged.pack();
        let s = &b.slots[victim];
        s[0].store(key ^ data, Relaxed);
        s[1].store(data, Relaxed);
        newly
    }

    /// Positions held (a scan of the whole table).
    pub fn len(&self) -> u64 {
        self.buckets
            .iter()
            .map(|b| b.slots.iter().filter(|s| s[1].load(Relaxed) != 0).count() as u64)
            .sum()
    }

    /// Whether the table holds no fact.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Permille of a sample of slots in use.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| b.slots.iter().filter(|s| s[1].load(Relaxed) != 0).count())
            .sum();
        (used * 1000 / (n * SLOTS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_round_trip_and_answer_by_depth() {
        let f = Facts {
            win_le: 17,
            nowin_ge: 16,
            loss_le: NONE,
            noloss_ge: 40,
            draw: false,
            best: 3,
            work: 21,
        };
        assert_eq!(Facts::unpack(f.pack()), f);
        assert_eq!(f.value(), Some((1, 17)));
        assert_eq!(f.at(17), Known::Value { v: 1, exact: true });
        assert_eq!(f.at(30), Known::Value { v: 1, exact: true });
        assert_eq!(f.at(16), Known::Value { v: 0, exact: false });
        let g = Facts {
            nowin_ge: 5,
            ..Facts::default()
        };
        assert_eq!(g.at(5), Known::Bounds { lo: -1, hi: 0 });
        assert_eq!(g.at(6), Known::Bounds { lo: -1, hi: 1 });
        assert_eq!(g.value(), None);
    }

    #[test]
    fn results_become_facts() {
        assert_eq!(Facts::from_result(9, 1, -1, 1, true).win_le, 9);
        assert_eq!(Facts::from_result(9, -1, -1, 1, true).loss_le, 9);
        let low = Facts::from_result(9, 0, 0, 1, false);
        assert_eq!((low.nowin_ge, low.noloss_ge), (9, 0));
        let high = Facts::from_result(9, 0, -1, 0, false);
        assert_eq!((high.nowin_ge, high.noloss_ge), (0, 9));
        let both = Facts::from_result(9, 0, -1, 1, false);
        assert!(!both.draw && both.nowin_ge == 9 && both.noloss_ge == 9);
        assert!(Facts::from_result(9, 0, 0, 1, true).draw);
    }

    #[test]
    fn table_merges_and_replaces_the_cheapest() {
        let t = FactTable::try_new(0).unwrap();
        assert_eq!(t.buckets.len() * SLOTS, 4);
        let a = Facts {
            nowin_ge: 4,
            work: 10,
            ..Facts::default()
        };
        assert!(!t.store(7, &a));
        let b = Facts {
            win_le: 9,
            work: 3,
            ..Facts::default()
        };
        assert!(t.store(7, &b));
        let m = t.probe(7).unwrap();
        assert_eq!((m.win_le, m.nowin_ge, m.work), (9, 4, 10));
        assert!(!t.store(7, &b), "already known");
        for k in 1..=3u64 {
            t.store(
                k << 40,
                &Facts {
                    nowin_ge: 1,
                    work: k as u32,
                    ..Facts::default()
                },
            );
        }
        // Full: the cheapest (work 1) goes.
        t.store(99, &Facts::default());
        assert!(t.probe(1 << 40).is_none());
        assert!(t.probe(7).is_some() && t.probe(99).is_some());
    }
}
