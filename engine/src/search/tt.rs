//! The transposition table, shared by every search thread without locks.
//!
//! Keys are the positions' own hashes (additive Zobrist over the holes, with
//! side, phase, stores and Adjiboto history mixed in; the ply count is left
//! out, so transpositions at different plies meet). An entry is two 64-bit
//! words, the data and the key XOR the data (Hyatt's lockless scheme): a torn
//! write by another thread fails the key check and reads as a miss.
//!
//! The best move is stored as the low 32 bits of the hash of the position it
//! leads to. Search generates every child anyway (a move is a whole turn and
//! there is no cheaper way to know it is legal), so the child's hash names
//! the move exactly and costs 4 bytes instead of a 64-byte decision path.
//!
//! Four entries share a 64-byte bucket. Replacement: the same position is
//! overwritten (unless a much deeper result of this search would be lost);
//! otherwise an empty slot, else the slot with the least depth, where each
//! search of age lost counts as 8 plies.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One probed entry. `score` is as stored: mate scores count from the entry's
/// node, and the caller converts them to its own ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Low 32 bits of the best child's hash; 0 for none.
    pub mv: u32,
}

const SLOTS: usize = 4;
const AGE_MASK: u8 = 63;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    /// `[key ^ data, data]` per slot.
    slots: [[AtomicU64; 2]; SLOTS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The table. Reading and writing take `&self`; resizing and clearing `&mut`.
pub struct Table {
    buckets: Vec<Bucket>,
    age: u8,
}

/// A table's memory, reserved (address space) but not yet written, so that
/// a caller can free the old table before the new one is filled and the two
/// are never resident together.
pub(crate) struct Reserved {
    buckets: Vec<Bucket>,
    n: usize,
}

impl Reserved {
    /// The empty table, its every bucket written once.
    pub fn fill(mut self) -> Table {
        self.buckets.resize_with(self.n, Bucket::default);
        Table {
            buckets: self.buckets,
            age: 0,
        }
    }
}

#[inline]
fn pack(score: i32, depth: u8, bound: Bound, age: u8, mv: u32) -> u64 {
    (score as i16 as u16 as u64)
        | (depth as u64) << 16
        | (bound as u64) << 24
        | ((age & AGE_MASK) as u64) << 26
        | (mv as u64) << 32
}

#[inline]
fn bound_of(d: u64) -> Option<Bound> {
    match (d >> 24) & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

#[inline]
fn depth_of(d: u64) -> u8 {
    (d >> 16) as u8
}

#[inline]
fn age_of(d: u64) -> u8 {
    ((d >> 26) as u8) & AGE_MASK
}

impl Table {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let n = Self::buckets_for(mb);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        Table { buckets, age: 0 }
    }

    /// The memory of a table of about `mb` mebibytes, reserved but not yet
    /// written, or an error when it cannot be reserved.
    pub(crate) fn try_reserve(mb: usize) -> Result<Reserved, TryReserveError> {
        let n = Self::buckets_for(mb);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n)?;
        Ok(Reserved { buckets, n })
    }

    /// Bytes of the buckets.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    fn buckets_for(mb: usize) -> usize {
        (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1)
    }

    /// Empty every slot and restart the age, so that a search after `clear`
    /// behaves exactly like one on a new table.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.age = 0;
    }

    /// Mark the start of a new search: older entries become cheaper to evict.
    pub(crate) fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The entry stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &b.slots {
            let d = s[1].load(Relaxed);
            let k = s[0].load(Relaxed) ^ d;
            if k == key {
                let bound = bound_of(d)?;
                return Some(Entry {
                    score: d as u16 as i16 as i32,
                    depth: depth_of(d),
                    bound,
                    mv: (d >> 32) as u32,
                });
            }
        }
        None
    }

    /// Store a result. `score` must fit in an `i16`; a `mv` of 0 keeps the
    /// move already stored for the same position.
    pub fn store(&self, key: u64, depth: u8, bound: Bound, score: i32, mut mv: u32) {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.slots.iter().enumerate() {
            let d = s[1].load(Relaxed);
            let k = s[0].load(Relaxed) ^ d;
            if bound_of(d).is_none() {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if k == key {
                if mv == 0 {
                    mv = (d >> 32) as u32;
                }
                if bound != Bound::Exact && age_of(d) == self.age && depth_of(d) > depth + 2 {
                    return;
                }
                victim = i;
                break;
            }
            let stale = (self.age.wrapping_sub(age_of(d)) & AGE_MASK) as i32;
            let v = depth_of(d) as i32 - 8 * stale;
            if v < worst {
                worst = v;
                victim = i;
            }
        }
        let data = pack(score, depth, bound, self.age, mv);
        let s = &b.slots[victim];
        s[0].store(key ^ data, Relaxed);
        s[1].store(data, Relaxed);
    }

    /// Permille of a sample of slots holding an entry of the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.slots {
                let d = s[1].load(Relaxed);
                if bound_of(d).is_some() && age_of(d) == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * SLOTS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_every_field() {
        let t = Table::new(1);
        assert_eq!(t.probe(42), None);
        t.store(42, 7, Bound::Lower, -31_000, 0xdead_beef);
        let e = t.probe(42).unwrap();
        assert_eq!(
            e,
            Entry {
                score: -31_000,
                depth: 7,
                bound: Bound::Lower,
                mv: 0xdead_beef
            }
        );
        // A move-less store keeps the old move.
        t.store(42, 8, Bound::Upper, 12, 0);
        assert_eq!(t.probe(42).unwrap().mv, 0xdead_beef);
        assert_eq!(t.probe(42).unwrap().score, 12);
    }

    #[test]
    fn a_full_bucket_evicts_the_shallowest() {
        let mut t = Table::new(0); // one bucket: every key shares it
        for k in 1..=4u64 {
            t.store(k, k as u8 * 2, Bound::Exact, 0, 1);
        }
        t.store(99, 5, Bound::Exact, 0, 1);
        assert!(t.probe(1).is_none(), "depth 2 was the shallowest");
        assert!(t.probe(99).is_some());
        // Entries of an older search go first even when deeper.
        t.new_search();
        t.store(100, 1, Bound::Exact, 0, 1);
        t.store(101, 1, Bound::Exact, 0, 1);
        assert!(t.probe(100).is_some() && t.probe(101).is_some());
        assert_eq!(t.hashfull(), 500);
        t.clear();
        assert_eq!(t.hashfull(), 0);
        assert!(t.probe(100).is_none());
    }
}
