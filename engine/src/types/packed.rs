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
pub struct Loop([u64; 4]);

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
pub fn range_bits(s: u8, r: u8, len: u8) -> u32 {
    let m = ((1u64 << r) - 1) << s;
    let full = (1u64 << len) - 1;
    ((m | (m >> len)) & full) as u32
}

#[inline]
fn gather(detect: u64) -> u32 {
    ((detect >> 7).wrapping_mul(GATHER) >> 56) as u32
}

impl Loop {
    #[inline]
    pub fn get(&self, i: u8) -> u8 {
        (self.0[(i >> 3) as usize] >> ((i & 7) * 8)) as u8
    }

    #[inline]
    pub fn set(&mut self, i: u8, v: u8) {
        let w = &mut self.0[(i >> 3) as usize];
        let sh = (i & 7) * 8;
        *w = (*w & !(0xff << sh)) | (v as u64) << sh;
    }

    /// Lift every counter of hole `i`, returning how many there were.
    #[inline]
    pub fn take(&mut self, i: u8) -> u8 {
        let w = &mut self.0[(i >> 3) as usize];
        let sh = (i & 7) * 8;
        let v = (*w >> sh) as u8;
        *w &= !(0xff << sh);
        v
    }

    /// Add `q` to every hole of `all` and one more to every hole of `bits`.
    #[inline]
    pub fn add_masked(&mut self, bits: u32, all: u32, q: u8) {
        let qq = q as u64;
        for k in 0..4 {
            let b = SPREAD[((bits >> (8 * k)) & 0xff) as usize];
            let a = SPREAD[((all >> (8 * k)) & 0xff) as usize];
            self.0[k] = self.0[k].wrapping_add(b).wrapping_add(a.wrapping_mul(qq));
        }
    }

    /// Bitmask of holes holding one counter or more.
    #[inline]
    pub fn occupied(&self) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            let w = self.0[k];
            m |= gather((((w & LOW7).wrapping_add(LOW7)) | w) & HIGH) << (8 * k);
        }
        m
    }

    /// Bitmask of holes holding two counters or more (the holes that may be lifted).
    #[inline]
    pub fn movable(&self) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            let w = self.0[k] & 0xfefe_fefe_fefe_fefe;
            m |= gather((((w & LOW7).wrapping_add(LOW7)) | w) & HIGH) << (8 * k);
        }
        m
    }

    /// Total counters in the loop.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0
            .iter()
            .map(|&w| {
                let pairs = (w & 0x00ff_00ff_00ff_00ff) + ((w >> 8) & 0x00ff_00ff_00ff_00ff);
                (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
            })
            .sum()
    }

    /// The first `n` counts, as bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        for i in 0..32 {
            b[i as usize] = self.get(i);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
