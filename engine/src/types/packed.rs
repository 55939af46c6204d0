//! One player's holes (or Adjiboto's whole ring) as packed bytes, in loop
//! order, with word-wide (SWAR) arithmetic.
//!
//! A lap of `n` counters over a loop of `len` holes adds `n / len` to every
//! hole and one more to a contiguous stretch of `n % len` holes. On 32 packed
//! bytes that is four 64-bit additions, whatever `n` is. Counts never exceed
//! the total number of counters (at most 128), so a byte never overflows and
//! no carry crosses lanes.

/// Holes of one loop, one byte each in four little-endian words; bytes past
/// the loop length stay zero.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Loop([u64; 4]);

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = 0x8080_8080_8080_8080;
const GATHER: u64 = 0x0102_0408_1020_4080;

/// `SPREAD[b]` has byte `i` equal to bit `i` of `b`.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u64;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                v |= 1 << (8 * i);
            }
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// Bitmask of the `r` loop positions starting at `s` (wrapping), `r < len`.
#[inline]
pub(crate) fn range_bits(s: u8, r: u8, len: u8) -> u32 {
    let m = ((1u64 << r) - 1) << s;
    let full = (1u64 << len) - 1;
    ((m | (m >> len)) & full) as u32
}

/// The sum of the eight bytes of `w`, which must be below 256 (every count
/// of a board together is at most 128): one multiplication, whose partial
/// sums then never carry from one byte into the next.
#[inline]
pub(crate) fn byte_sum(w: u64) -> u32 {
    let sum = (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    debug_assert_eq!(sum, w.to_le_bytes().iter().map(|&b| b as u32).sum::<u32>());
    sum
}

/// `0x80` in every byte of `w` that is not zero, and zero elsewhere.
#[inline]
pub(crate) fn nonzero_bytes(w: u64) -> u64 {
    (((w & LOW7).wrapping_add(LOW7)) | w) & HIGH
}

/// [`byte_sum`] of sixteen bytes (their sum below 256: the two halves
/// then add bytewise without a carry).
#[inline]
pub(crate) fn byte_sum128(x: u128) -> u32 {
    byte_sum((x as u64).wrapping_add((x >> 64) as u64))
}

/// [`nonzero_bytes`] of sixteen bytes.
#[inline]
pub(crate) fn nonzero_bytes128(x: u128) -> u128 {
    nonzero_bytes(x as u64) as u128 | (nonzero_bytes((x >> 64) as u64) as u128) << 64
}

#[inline]
fn gather(detect: u64) -> u32 {
    ((detect >> 7).wrapping_mul(GATHER) >> 56) as u32
}

impl Loop {
    /// The count of hole `i`.
    #[inline]
    pub(crate) fn get(&self, i: u8) -> u8 {
        (self.0[(i >> 3) as usize] >> ((i & 7) * 8)) as u8
    }

    /// Set the count of hole `i` to `v`.
    #[inline]
    pub(crate) fn set(&mut self, i: u8, v: u8) {
        let w = &mut self.0[(i >> 3) as usize];
        let sh = (i & 7) * 8;
        *w = (*w & !(0xff << sh)) | (v as u64) << sh;
    }

    /// Lift every counter of hole `i`, returning how many there were.
    #[inline]
    pub(crate) fn take(&mut self, i: u8) -> u8 {
        let w = &mut self.0[(i >> 3) as usize];
        let sh = (i & 7) * 8;
        let v = (*w >> sh) as u8;
        *w &= !(0xff << sh);
        v
    }

    /// Add `q` to every hole of `all` and one more to every hole of `bits`.
    #[inline]
    pub(crate) fn add_masked(&mut self, bits: u32, all: u32, q: u8) {
        let qq = q as u64;
        for k in 0..4 {
            let b = SPREAD[((bits >> (8 * k)) & 0xff) as usize];
            let a = SPREAD[((all >> (8 * k)) & 0xff) as usize];
            self.0[k] = self.0[k].wrapping_add(b).wrapping_add(a.wrapping_mul(qq));
        }
    }

    /// Bitmask of holes holding one counter or more.
    #[inline]
    pub(crate) fn occupied(&self) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            let w = self.0[k];
            m |= gather(nonzero_bytes(w)) << (8 * k);
        }
        m
    }

    /// Bitmask of holes holding two counters or more (the holes that may be lifted).
    #[inline]
    pub(crate) fn movable(&self) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            let w = self.0[k] & 0xfefe_fefe_fefe_fefe;
            m |= gather(nonzero_bytes(w)) << (8 * k);
        }
        m
    }

    /// The loop with every hole outside `holes` emptied.
    #[inline]
    pub(crate) fn keep(&self, holes: u32) -> Loop {
        let mut l = *self;
        for k in 0..4 {
            l.0[k] &= SPREAD[((holes >> (8 * k)) & 0xff) as usize].wrapping_mul(0xff);
        }
        l
    }

    /// [`keep`](Loop::keep) for a loop of at most 16 holes (those past
    /// them empty): two words instead of four.
    #[inline]
    pub(crate) fn keep16(&self, holes: u32) -> Loop {
        debug_assert!(self.0[2] == 0 && self.0[3] == 0);
        let mask = |b: u32| SPREAD[(b & 0xff) as usize].wrapping_mul(0xff);
        Loop([self.0[0] & mask(holes), self.0[1] & mask(holes >> 8), 0, 0])
    }

    /// Total counters in the loop. A board holds at most 128 counters
    /// (`8w` in Choro, 100 in Adjiboto), so the four words add bytewise
    /// without a carry and [`byte_sum`] takes the sum.
    #[inline]
    pub(crate) fn total(&self) -> u32 {
        let [a, b, c, d] = self.0;
        byte_sum(a.wrapping_add(b).wrapping_add(c).wrapping_add(d))
    }

    /// Holes `start` to `start + n - 1` (`start <= 16`, `n <= 16`), hole
    /// `start` in the low byte; the bytes above `n` are zero.
    #[inline]
    pub(crate) fn row(&self, start: u8, n: u8) -> u128 {
        let lo = self.0[0] as u128 | (self.0[1] as u128) << 64;
        let hi = self.0[2] as u128 | (self.0[3] as u128) << 64;
        let sh = 8 * start as u32;
        let bytes = match sh {
            0 => lo,
            128 => hi,
            _ => lo >> sh | hi << (128 - sh),
        };
        if n >= 16 {
            bytes
        } else {
            bytes & ((1u128 << (8 * n)) - 1)
        }
    }

    /// The first 16 holes as one `u128`, hole `i` in byte `i` (Adjiboto's
    /// ring of 10 holes whole).
    #[inline]
    pub(crate) fn low16(&self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }

    /// The loop whose first 16 holes are the bytes of `v` and whose other
    /// holes are empty.
    #[inline]
    pub(crate) fn from_low16(v: u128) -> Loop {
        Loop([v as u64, (v >> 64) as u64, 0, 0])
    }

    /// Every hole's count, one byte each.
    #[inline]
    pub(crate) fn bytes(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        for (k, w) in self.0.iter().enumerate() {
            b[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// The first `n` counts, as bytes.
    pub(crate) fn to_bytes(self) -> [u8; 32] {
        let mut b = [0u8; 32];
        for i in 0..32 {
            b[i as usize] = self.get(i);
        }
        b
    }
}

/// One player's loop held in registers while a turn is sown, seen from a
/// cursor: the hole of the last drop. The generator tracks the cursor's loop
/// position `at` itself and passes it in; a type may use it or keep its
/// holes rotated so that the cursor is always hole 0. The general Choro
/// generator runs the 16-hole loop of the 8-wide boards on one rotated
/// `u128` ([`Ring16`]), where a relay lap is one add from a table and a
/// byte rotation. (The Didinga generator holds its loops in loop order
/// instead: [`Ring16Flat`], [`RingWide`].)
pub(crate) trait Ring: Copy + Eq {
    /// The loop length this type is made for; 0 for any.
    const LEN: u8;
    /// The loop of `len` holes with the cursor at position 0.
    fn load(l: &Loop, len: u8) -> Self;
    /// Back to loop order, the cursor being at `at`.
    fn store(self, at: u8) -> Loop;
    /// Count of hole `h`, the cursor being at `at`.
    fn count(&self, h: u8, at: u8, len: u8) -> u8;
    /// Empty hole `h`, the cursor being at `at`.
    fn empty(&mut self, h: u8, at: u8, len: u8);
    /// Sow `hand` counters from hole `first`, the cursor being at `at`; the
    /// cursor moves to the last drop, `last`.
    fn sow(&mut self, first: u8, hand: u8, at: u8, last: u8, len: u8);
    /// Move the cursor from `at` to hole `to`.
    fn seek(&mut self, at: u8, to: u8);
    /// Count of the hole at the cursor.
    #[inline]
    fn cur(&self, at: u8, len: u8) -> u8 {
        self.count(at, at, len)
    }
    /// Empty the hole at the cursor.
    #[inline]
    fn clear_cur(&mut self, at: u8, len: u8) {
        self.empty(at, at, len)
    }
    /// Occupied holes and holes with two or more of a loop of this length.
    #[inline]
    fn masks(l: &Loop) -> (u32, u32) {
        (l.occupied(), l.movable())
    }
    /// [`sow`](Ring::sow) from the hole after the cursor (a relay).
    #[inline]
    fn relay(&mut self, hand: u8, at: u8, last: u8, len: u8) {
        let first = if at + 1 == len { 0 } else { at + 1 };
        self.sow(first, hand, at, last, len);
    }
}

impl Ring for Loop {
    const LEN: u8 = 0;
    #[inline]
    fn load(l: &Loop, _len: u8) -> Self {
        *l
    }
    #[inline]
    fn store(self, _at: u8) -> Loop {
        self
    }
    #[inline]
    fn seek(&mut self, _at: u8, _to: u8) {}
    #[inline]
    fn count(&self, h: u8, _at: u8, _len: u8) -> u8 {
        Loop::get(self, h)
    }
    #[inline]
    fn empty(&mut self, h: u8, _at: u8, _len: u8) {
        self.take(h);
    }
    #[inline]
    fn sow(&mut self, first: u8, hand: u8, _at: u8, _last: u8, len: u8) {
        // hand / len without a division: exact for hand < 256 and len <= 32.
        let q = ((hand as u32 * 65536u32.div_ceil(len as u32)) >> 16) as u8;
        let r = hand - q * len;
        let all = if len >= 32 {
            u32::MAX
        } else {
            (1u32 << len) - 1
        };
        self.add_masked(range_bits(first, r, len), all, q);
    }
}

/// A loop of exactly 16 holes (8-wide boards) in one `u128`, rotated so that
/// the cursor is byte 0: reading and emptying the hole of the last drop are
/// byte operations, and a lap is an add from a table and a byte rotation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Ring16(u128);

// The SSE2 forms of two hot byte scans, the one `unsafe` of this floor
// (see the module's doc for what they pay); elsewhere, the word forms.
#[cfg(target_arch = "x86_64")]
mod sse2;
#[cfg(not(target_arch = "x86_64"))]
use masks16_words as masks16;
#[cfg(not(target_arch = "x86_64"))]
pub(crate) use open_columns_words as open_columns;
#[cfg(target_arch = "x86_64")]
use sse2::masks16;
#[cfg(target_arch = "x86_64")]
pub(crate) use sse2::open_columns;

/// Over sixteen columns (one byte each): the columns where `own` and
/// `front` both hold counters (and `back` too, unless `either`), and of
/// those the sum and the largest of `front + back`. Every byte of `front +
/// back` stays below 256: a board holds at most 128 counters. The form for
/// targets without SSE2 ([`sse2::open_columns`] on x86_64; tested against it
/// there).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub(crate) fn open_columns_words(own: u128, front: u128, back: u128, either: bool) -> (u32, u32) {
    let mut open = nonzero_bytes128(own) & nonzero_bytes128(front);
    if !either {
        open &= nonzero_bytes128(back);
    }
    let taken = (front + back) & (open >> 7).wrapping_mul(0xff);
    let mut max = 0;
    while open != 0 {
        let shift = open.trailing_zeros() - 7;
        open &= open - 1;
        max = max.max((taken >> shift) as u8 as u32);
    }
    (byte_sum128(taken), max)
}

/// Occupied holes and holes with two or more of 16 packed bytes, a word at
/// a time (the form for targets without SSE2; tested against it there).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn masks16_words(lo: u64, hi: u64) -> (u32, u32) {
    let l = Loop([lo, hi, 0, 0]);
    (l.occupied(), l.movable())
}

/// Occupied holes and holes with two or more of the 16 bytes of `v`, as
/// [`Loop::occupied`] and [`Loop::movable`] of [`Loop::from_low16`]`(v)`.
#[inline]
pub(crate) fn masks_low16(v: u128) -> (u32, u32) {
    masks16(v as u64, (v >> 64) as u64)
}

/// `RELAY16[n]`: what a relay of `n` counters adds to a 16-hole loop seen
/// from the hole before its first drop: `n / 16` everywhere and one more in
/// bytes 1..=n % 16. An 8-wide board holds at most 64 counters.
static RELAY16: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut n = 1;
    while n < 128 {
        let mut v = 0u128;
        let mut i = 1;
        while i <= n {
            v += 1 << (8 * (i % 16));
            i += 1;
        }
        t[n] = v;
        n += 1;
    }
    t
};

impl Ring for Ring16 {
    const LEN: u8 = 16;
    #[inline]
    fn load(l: &Loop, _len: u8) -> Self {
        debug_assert!(l.0[2] == 0 && l.0[3] == 0);
        Ring16(l.0[0] as u128 | (l.0[1] as u128) << 64)
    }
    #[inline]
    fn store(self, at: u8) -> Loop {
        let x = self.0.rotate_left(8 * (at & 15) as u32);
        Loop([x as u64, (x >> 64) as u64, 0, 0])
    }
    #[inline]
    fn count(&self, h: u8, at: u8, _len: u8) -> u8 {
        (self.0 >> (8 * (h.wrapping_sub(at) & 15))) as u8
    }
    #[inline]
    fn empty(&mut self, h: u8, at: u8, _len: u8) {
        self.0 &= !(0xffu128 << (8 * (h.wrapping_sub(at) & 15)));
    }
    #[inline]
    fn sow(&mut self, first: u8, hand: u8, at: u8, last: u8, len: u8) {
        // Look from the hole before `first`, then it is a relay.
        let before = first.wrapping_sub(1) & 15;
        self.seek(at, before);
        self.relay(hand, before, last, len);
    }
    #[inline]
    fn seek(&mut self, at: u8, to: u8) {
        self.0 = self.0.rotate_right(8 * (to.wrapping_sub(at) & 15) as u32);
    }
    #[inline]
    fn cur(&self, _at: u8, _len: u8) -> u8 {
        self.0 as u8
    }
    #[inline]
    fn clear_cur(&mut self, _at: u8, _len: u8) {
        self.0 &= !0xff;
    }
    #[inline]
    fn masks(l: &Loop) -> (u32, u32) {
        masks16(l.0[0], l.0[1])
    }
    #[inline]
    fn relay(&mut self, hand: u8, _at: u8, _last: u8, _len: u8) {
        let x = self.0.wrapping_add(RELAY16[(hand & 127) as usize]);
        self.0 = x.rotate_right(8 * (hand & 15) as u32);
    }
}

/// `FLAT16[l][v]`: `v` fewer counters in hole `l` of a 16-hole loop and
/// `v` sown from the next hole round it, as two words added with wrapping
/// (no byte leaves 0..=255 in the sum). An 8-wide board holds at most 64
/// counters; 128 columns for an index without a bounds test.
static FLAT16: [[[u64; 2]; 128]; 16] = {
    let mut t = [[[0u64; 2]; 128]; 16];
    let mut l = 0;
    while l < 16 {
        let mut v = 1;
        while v < 128 {
            let mut d = t[l][v - 1];
            let h = (l + v) % 16;
            d[h / 8] = d[h / 8].wrapping_add(1 << (8 * (h % 8)));
            d[l / 8] = d[l / 8].wrapping_sub(1 << (8 * (l % 8)));
            t[l][v] = d;
            v += 1;
        }
        l += 1;
    }
    t
};

/// `LOOP16_RELAY[k][256 * l + v]`: what lifting the `v` counters of hole
/// `l` of a 16-hole loop in loop order and sowing them from the next hole
/// adds to its word `k` (holes `8k..8k+8`), each word on its own with
/// wrapping (no byte of the sum leaves 0..=255, so no carry or borrow
/// crosses a byte or a word). A column for every `u8`, so that a count
/// indexes it without a test (an 8-wide board holds at most 64 counters);
/// the index is that of Didinga's relay-hash table flattened.
pub(crate) static LOOP16_RELAY: [[u64; 4096]; 2] = {
    let mut t = [[0u64; 4096]; 2];
    let mut l = 0;
    while l < 16 {
        let mut v = 1;
        while v < 256 {
            let i = 256 * l + v;
            let (mut lo, mut hi) = (t[0][i - 1], t[1][i - 1]);
            let h = (l + v) % 16;
            let one = 1u64 << (8 * (h % 8));
            if h < 8 {
                lo = lo.wrapping_add(one);
            } else {
                hi = hi.wrapping_add(one);
            }
            let one = 1u64 << (8 * (l % 8));
            if l < 8 {
                lo = lo.wrapping_sub(one);
            } else {
                hi = hi.wrapping_sub(one);
            }
            t[0][i] = lo;
            t[1][i] = hi;
            v += 1;
        }
        l += 1;
    }
    t
};

/// A loop of exactly 16 holes (8-wide boards) for the Didinga generator,
/// in loop order, one byte a hole: reading or emptying the hole of the
/// last drop is one byte access, and a relay lap is two word adds from a
/// table by (lifted hole, hand) that empties the lifted hole and sows its
/// counters at once (no rotation, as [`Ring16`] needs).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(align(16))]
pub(crate) struct Ring16Flat([u8; 16]);

/// Word `k` of packed bytes, little-endian.
#[inline]
fn le_word(b: &[u8], k: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[8 * k..8 * k + 8]);
    u64::from_le_bytes(w)
}

/// Add `d[k]` to word `k` of packed bytes, with wrapping.
#[inline]
fn add_le_words(b: &mut [u8], d: &[u64]) {
    for (k, &dk) in d.iter().enumerate() {
        let w = le_word(b, k).wrapping_add(dk);
        b[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
    }
}

impl Ring16Flat {
    #[inline]
    fn word(&self, k: usize) -> u64 {
        le_word(&self.0, k)
    }

    /// The first 16 holes of `l`, whose others must be empty.
    #[inline]
    pub(crate) fn load(l: &Loop) -> Self {
        debug_assert!(l.0[2] == 0 && l.0[3] == 0);
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&l.0[0].to_le_bytes());
        b[8..].copy_from_slice(&l.0[1].to_le_bytes());
        Ring16Flat(b)
    }

    /// Write the holes into the first 16 of `l` (its others are left as
    /// they are: empty, for a loop of 16).
    #[inline]
    pub(crate) fn store_into(&self, l: &mut Loop) {
        l.0[0] = self.word(0);
        l.0[1] = self.word(1);
    }

    /// Count of hole `h` (below 16).
    #[inline]
    pub(crate) fn get(&self, h: usize) -> u8 {
        self.0[h & 15]
    }

    /// Put `n` more counters in hole `h`.
    #[inline]
    pub(crate) fn add(&mut self, h: usize, n: u8) {
        self.0[h & 15] += n;
    }

    /// What lifting the `v` counters of hole `l` and sowing them from the
    /// next hole adds to the loop's two words (for [`add_words`](Self::add_words)).
    #[inline]
    pub(crate) fn relay_delta(l: usize, v: usize) -> [u64; 2] {
        FLAT16[l & 15][v & 127]
    }

    /// Add `d` to the two words of the loop, with wrapping (a
    /// [`relay_delta`](Self::relay_delta)).
    #[inline]
    pub(crate) fn add_words(&mut self, d: &[u64; 2]) {
        add_le_words(&mut self.0, d);
    }

    /// Occupied holes and holes with two or more.
    #[inline]
    pub(crate) fn masks(&self) -> (u32, u32) {
        masks16(self.word(0), self.word(1))
    }

    /// The loop with bit 7 set in the bytes of `holes` (below 16), a flag
    /// that counts of at most 127 leave alone (an 8-wide board holds 64
    /// counters); [`get`](Self::get) reads it with the count.
    #[inline]
    pub(crate) fn flagged(&self, holes: u32) -> Self {
        let flags = |b: u32| SPREAD[(b & 0xff) as usize] << 7;
        let mut r = *self;
        r.set_words(
            self.word(0) | flags(holes),
            self.word(1) | flags(holes >> 8),
        );
        r
    }

    /// Clear the flags of `holes` (below 16).
    #[inline]
    pub(crate) fn unflag(&mut self, holes: u32) {
        let keep = |b: u32| !(SPREAD[(b & 0xff) as usize] << 7);
        self.and_words(&[keep(holes), keep(holes >> 8)]);
    }

    /// And `m` into the two words of the loop.
    #[inline]
    pub(crate) fn and_words(&mut self, m: &[u64; 2]) {
        let (lo, hi) = (self.word(0) & m[0], self.word(1) & m[1]);
        self.set_words(lo, hi);
    }

    /// The loop with every flag cleared.
    #[inline]
    pub(crate) fn unflagged(&self) -> Self {
        const COUNTS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let mut r = *self;
        r.set_words(self.word(0) & COUNTS, self.word(1) & COUNTS);
        r
    }

    #[inline]
    fn set_words(&mut self, lo: u64, hi: u64) {
        self.0[..8].copy_from_slice(&lo.to_le_bytes());
        self.0[8..].copy_from_slice(&hi.to_le_bytes());
    }
}

/// A 16-hole loop (8-wide boards) in loop order, one byte a hole, for the
/// Lango and Acholi generator: a hole is read, emptied or filled by its
/// index, and a relay is two word adds from a table by (lifted hole, hand),
/// with no rotation. Where the bytes are indexed by a variable they stay in
/// memory (on the stack), where an add from the table is one instruction a
/// word.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Loop16([u8; 16]);

impl Loop16 {
    /// The first 16 holes of `l`.
    #[inline(always)]
    pub(crate) fn load(l: &Loop) -> Loop16 {
        Loop16(l.low16().to_le_bytes())
    }

    /// Write the holes into the first 16 of `l`, whose others are empty.
    #[inline(always)]
    pub(crate) fn store_into(&self, l: &mut Loop) {
        debug_assert!(l.0[2] == 0 && l.0[3] == 0);
        let v = u128::from_le_bytes(self.0);
        (l.0[0], l.0[1]) = (v as u64, (v >> 64) as u64);
    }

    /// Occupied holes and holes with two or more.
    #[inline(always)]
    pub(crate) fn masks(&self) -> (u32, u32) {
        masks_low16(u128::from_le_bytes(self.0))
    }

    /// Count of hole `h` (taken modulo 16).
    #[inline(always)]
    pub(crate) fn get(&self, h: usize) -> u8 {
        self.0[h & 15]
    }

    /// Set hole `h` (modulo 16) to `n`.
    #[inline(always)]
    pub(crate) fn set(&mut self, h: usize, n: u8) {
        self.0[h & 15] = n;
    }

    /// Add `lo` and `hi` to the two words (each on its own, wrapping).
    #[inline(always)]
    pub(crate) fn add(&mut self, lo: u64, hi: u64) {
        let (a, b) = self.0.split_at_mut(8);
        let w = |b: &mut [u8], d: u64| {
            let x = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            b.copy_from_slice(&x.wrapping_add(d).to_le_bytes());
        };
        w(a, lo);
        w(b, hi);
    }
}

/// A loop of 18 to 32 holes (boards 9 to 16 wide) for the Didinga
/// generator, in loop order, one byte a hole: reading or emptying the hole
/// of the last drop is one byte access, and a relay lap is four word adds
/// of a [`relay_delta`](Self::relay_delta) (which the generator keeps in a
/// table by lifted hole and hand).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(align(32))]
pub(crate) struct RingWide([u8; 32]);

/// The most counters a hand holds: all of a 16-wide board's.
pub(crate) const MAX_HAND: usize = 128;

impl RingWide {
    #[inline]
    fn word(&self, k: usize) -> u64 {
        le_word(&self.0, k)
    }

    /// The holes of `l`.
    #[inline]
    pub(crate) fn load(l: &Loop) -> Self {
        RingWide(l.bytes())
    }

    /// Write the holes into `l`.
    #[inline]
    pub(crate) fn store_into(&self, l: &mut Loop) {
        *l = Loop([self.word(0), self.word(1), self.word(2), self.word(3)]);
    }

    /// Count of hole `h`.
    #[inline]
    pub(crate) fn get(&self, h: usize) -> u8 {
        self.0[h & 31]
    }

    /// Put `n` more counters in hole `h`.
    #[inline]
    pub(crate) fn add(&mut self, h: usize, n: u8) {
        self.0[h & 31] += n;
    }

    /// What lifting the `v <= MAX_HAND` counters of hole `l` of a loop of
    /// `len` holes (at most 32) and sowing them from the next hole adds to
    /// the loop's four words: `v / len` in every hole, one more in the `v %
    /// len` holes after `l`, `v` fewer in `l`, as word differences with
    /// wrapping (no byte leaves 0..=255 in the sum).
    pub(crate) fn relay_delta(len: u8, l: u8, v: u8) -> [u64; 4] {
        let mut add = Loop::default();
        let all = if len >= 32 {
            u32::MAX
        } else {
            (1u32 << len) - 1
        };
        let first = if l + 1 == len { 0 } else { l + 1 };
        add.add_masked(range_bits(first, v % len, len), all, v / len);
        let mut d = add.0;
        let k = (l / 8) as usize;
        d[k] = d[k].wrapping_sub((v as u64) << (8 * (l % 8)));
        d
    }

    /// Add `d` to the four words of the loop, with wrapping (a
    /// [`relay_delta`](Self::relay_delta)).
    #[inline]
    pub(crate) fn add_words(&mut self, d: &[u64; 4]) {
        add_le_words(&mut self.0, d);
    }

    /// Occupied holes and holes with two or more.
    #[inline]
    pub(crate) fn masks(&self) -> (u32, u32) {
        let (o0, m0) = masks16(self.word(0), self.word(1));
        let (o1, m1) = masks16(self.word(2), self.word(3));
        (o0 | o1 << 16, m0 | m1 << 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_columns_agree_with_a_plain_scan() {
        let mut rng = crate::rng::Rng::new(0x0c01);
        let mut checked = 0;
        for _ in 0..40_000 {
            // Sixteen columns of counts, many of them empty, at most 128
            // in all as on a board (a few holes may hold most of them).
            let mut cols = [[0u8; 3]; 16];
            let big = 1 + rng.below(64);
            for c in cols.iter_mut() {
                for x in c.iter_mut() {
                    *x = if rng.chance(1, 3) {
                        0
                    } else {
                        rng.below(big + 1) as u8
                    };
                }
            }
            if cols.iter().flatten().map(|&x| x as u32).sum::<u32>() > 128 {
                continue;
            }
            let pack = |k: usize| {
                cols.iter()
                    .enumerate()
                    .fold(0u128, |acc, (i, c)| acc | (c[k] as u128) << (8 * i))
            };
            let (own, front, back) = (pack(0), pack(1), pack(2));
            for either in [false, true] {
                let (mut sum, mut max) = (0, 0);
                for c in &cols {
                    if c[0] > 0 && c[1] > 0 && (either || c[2] > 0) {
                        let t = c[1] as u32 + c[2] as u32;
                        sum += t;
                        max = max.max(t);
                    }
                }
                let plain = (sum, max);
                assert_eq!(
                    open_columns(own, front, back, either),
                    plain,
                    "{cols:?} {either}"
                );
                assert_eq!(open_columns_words(own, front, back, either), plain);
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn masks_match_a_plain_scan() {
        let mut l = Loop::default();
        let mut x = 0x1234_5678u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let i = (x % 32) as u8;
            l.set(i, (x >> 8) as u8 % 5);
            let occ = (0..32)
                .filter(|&i| l.get(i) > 0)
                .fold(0u32, |m, i| m | 1 << i);
            let mov = (0..32)
                .filter(|&i| l.get(i) > 1)
                .fold(0u32, |m, i| m | 1 << i);
            assert_eq!(l.occupied(), occ);
            assert_eq!(l.movable(), mov);
        }
    }

    #[test]
    fn range_wraps_round_the_loop() {
        assert_eq!(range_bits(14, 4, 16), 0b11 | 0b11 << 14);
        assert_eq!(range_bits(0, 0, 16), 0);
        assert_eq!(range_bits(31, 31, 32), !(1u32 << 30));
        let mut l = Loop::default();
        l.add_masked(range_bits(8, 3, 10), (1 << 10) - 1, 2);
        assert_eq!(&l.to_bytes()[..10], &[3, 2, 2, 2, 2, 2, 2, 2, 3, 3]);
        assert_eq!(l.get(10), 0);
        assert_eq!(l.total(), 23);
    }

    /// A small xorshift generator: `next(m)` is below `m`.
    fn xorshift(mut x: u64) -> impl FnMut(u64) -> u64 {
        move |m| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        }
    }

    /// A loop of 16 holes, each holding fewer than `max` counters.
    fn random16(next: &mut impl FnMut(u64) -> u64, max: u64) -> Loop {
        let mut l = Loop::default();
        for h in 0..16 {
            l.set(h, next(max) as u8);
        }
        l
    }

    #[test]
    fn ring16_matches_a_plain_loop() {
        let mut next = xorshift(0x9e37_79b9);
        for _ in 0..200 {
            let mut plain = random16(&mut next, 5);
            let mut ring = Ring16::load(&plain, 16);
            let mut at = 0u8;
            for _ in 0..50 {
                let to = next(16) as u8;
                ring.seek(at, to);
                at = to;
                assert_eq!(ring.cur(at, 16), plain.get(at));
                let h = next(16) as u8;
                assert_eq!(ring.count(h, at, 16), plain.get(h));
                let hand = 1 + next(40) as u8;
                let last = (at + hand) % 16;
                if next(2) == 0 {
                    ring.empty(h, at, 16);
                    plain.take(h);
                    let first = next(16) as u8;
                    let last = (first + hand - 1) % 16;
                    ring.sow(first, hand, at, last, 16);
                    Ring::sow(&mut plain, first, hand, 0, 0, 16);
                    at = last;
                } else {
                    ring.clear_cur(at, 16);
                    plain.take(at);
                    ring.relay(hand, at, last, 16);
                    Ring::relay(&mut plain, hand, at, last, 16);
                    at = last;
                }
                let stored = ring.store(at);
                assert_eq!(stored, plain);
                assert_eq!(Ring16::masks(&stored), (plain.occupied(), plain.movable()));
                if plain.total() > 100 {
                    break;
                }
            }
        }
    }

    /// `Loop16`'s relays and sowings against a plain byte loop, and its
    /// round trip with `Loop` and masks.
    #[test]
    fn loop16_matches_a_plain_loop() {
        let mut next = xorshift(0x2545_f491);
        let store = |b: &Loop16| {
            let mut l = Loop::from_low16(0);
            b.store_into(&mut l);
            l
        };
        for _ in 0..300 {
            let mut plain = [0u8; 16];
            for c in plain.iter_mut() {
                *c = next(5) as u8;
            }
            let loaded = Loop::from_low16(u128::from_le_bytes(plain));
            let mut b = Loop16::load(&loaded);
            assert_eq!(store(&b), loaded);
            let mut l = next(16) as usize;
            for _ in 0..40 {
                assert_eq!(b.get(l), plain[l]);
                let total = plain.iter().map(|&c| c as u32).sum::<u32>();
                if total > 127 {
                    break;
                }
                if next(3) == 0 {
                    // A sowing of `hand` from `first`, its hole kept, hole
                    // by hole (the generator's sowing table is tested with
                    // it, in `branching`).
                    let first = next(16) as usize;
                    let hand = 1 + next(40) as u8;
                    for i in 0..hand as usize {
                        let h = (first + i) % 16;
                        plain[h] += 1;
                        b.set(h, b.get(h) + 1);
                    }
                    l = (first + hand as usize - 1) % 16;
                } else {
                    let v = plain[l];
                    if v == 0 {
                        break;
                    }
                    plain[l] = 0;
                    for i in 1..=v as usize {
                        plain[(l + i) % 16] += 1;
                    }
                    let i = l << 8 | v as usize;
                    b.add(LOOP16_RELAY[0][i], LOOP16_RELAY[1][i]);
                    l = (l + v as usize) % 16;
                }
                assert_eq!(b.0, plain);
                let stored = store(&b);
                assert_eq!(b.masks(), (stored.occupied(), stored.movable()));
                if next(4) == 0 {
                    // Carries: a hole filled near the top of its byte.
                    let h = next(16) as usize;
                    let room = 100u32.saturating_sub(total) as u8;
                    plain[h] += room;
                    b.set(h, b.get(h) + room);
                }
            }
        }
    }

    #[test]
    fn keep16_matches_keep() {
        let mut next = xorshift(0x1234_5679);
        for _ in 0..2000 {
            let l = random16(&mut next, 9);
            let holes = next(1 << 16) as u32;
            assert_eq!(l.keep16(holes), l.keep(holes), "{holes:x}");
        }
    }

    /// A plain sow of `hand` counters from the hole after `from`, hole by
    /// hole.
    fn plain_sow_after(l: &mut Loop, from: u8, hand: u8, len: u8) {
        let mut h = from;
        for _ in 0..hand {
            h = (h + 1) % len;
            l.set(h, l.get(h) + 1);
        }
    }

    /// The loops of the Didinga generator in loop order ([`Ring16Flat`],
    /// [`RingWide`]) against a plain hole-by-hole sow: relays (a lift and
    /// a sow from the next hole), captures' sows (counters added to a hole,
    /// then lifted with it), reads, the stored loop and its masks.
    #[test]
    fn flat_rings_match_a_plain_sow() {
        let mut next = xorshift(0x5851_f42d);
        for len in (16..=32).step_by(2) {
            for _ in 0..150 {
                let mut plain = Loop::default();
                for h in 0..len {
                    plain.set(h, next(5) as u8);
                }
                let mut flat16 = (len == 16).then(|| Ring16Flat::load(&plain));
                let mut wide = (len > 16).then(|| RingWide::load(&plain));
                let get = |f16: &Option<Ring16Flat>, w: &Option<RingWide>, h: u8| match (f16, w) {
                    (Some(r), _) => r.get(h as usize),
                    (_, Some(r)) => r.get(h as usize),
                    _ => unreachable!(),
                };
                for _ in 0..60 {
                    let l = next(len as u64) as u8;
                    assert_eq!(get(&flat16, &wide, l), plain.get(l));
                    // A capture's sow of a large increment now and then.
                    let added = if next(3) == 0 { next(60) as u8 } else { 0 };
                    let v = plain.get(l) + added;
                    if v == 0 {
                        continue;
                    }
                    plain.set(l, 0);
                    plain_sow_after(&mut plain, l, v, len);
                    if let Some(r) = flat16.as_mut() {
                        r.add(l as usize, added);
                        r.add_words(&Ring16Flat::relay_delta(l as usize, v as usize));
                    }
                    if let Some(r) = wide.as_mut() {
                        r.add(l as usize, added);
                        r.add_words(&RingWide::relay_delta(len, l, v));
                    }
                    let mut stored = Loop::default();
                    let masks = match (&flat16, &wide) {
                        (Some(r), _) => {
                            r.store_into(&mut stored);
                            r.masks()
                        }
                        (_, Some(r)) => {
                            r.store_into(&mut stored);
                            r.masks()
                        }
                        _ => unreachable!(),
                    };
                    assert_eq!(stored, plain, "len {len}");
                    assert_eq!(masks, (plain.occupied(), plain.movable()), "len {len}");
                    assert_eq!(stored.bytes(), plain.to_bytes());
                    if plain.total() > 4 * len as u32 {
                        break;
                    }
                }
            }
        }
    }
}
