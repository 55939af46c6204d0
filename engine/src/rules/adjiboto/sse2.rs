//! [`capture_candidates`] in SSE2, the one `unsafe` of the Adjiboto
//! generator. It stays because it pays: the safe hole-by-hole version
//! (`capture_candidates_plain`, by the lap table, which the tests check
//! this against) made `choro bench --variant adjiboto` 2.3% more
//! instructions (callgrind: 929,521,657 against 908,497,185 on main
//! 789259e), above the 2% that an `unsafe` site has to save.

use super::RING;
use std::arch::x86_64::*;

/// The ring indices (bit `i` for index `i`) of the holes whose sowing may
/// capture, on the ring whose counts are the bytes of `ring`: exactly the
/// holes of 2 to 9 whose hole `hand` further on (the one after the last
/// drop, which that sowing does not reach) holds 1, 3 or 5, and every hole
/// of 10 or more (whose sowing goes round: [`super::Lap::may_capture`]
/// decides). A byte compare per hand, each hand's holes against the holes
/// of 1, 3 or 5 rotated back by that hand.
#[inline]
pub(super) fn capture_candidates(ring: u128) -> u32 {
    // SAFETY: these intrinsics need SSE2 alone, which every x86_64 CPU
    // has (it is in the target's baseline, so `cfg(target_arch)` is the
    // whole check); they only compute on values, with no memory access.
    unsafe {
        let v = _mm_set_epi64x((ring >> 64) as i64, ring as i64);
        let eq = |c: i8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
        // The holes of 1, 3 or 5.
        let odd = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(eq(1), eq(3)), eq(5))) as u32;
        // Bit `i + r` of `twice` is bit `(i + r) % 10` of `odd` for `i < 10`.
        let twice = odd | odd << RING;
        let big = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(RING as i8)), v);
        let mut m = _mm_movemask_epi8(big) as u32;
        for r in 2..RING as i8 {
            m |= _mm_movemask_epi8(eq(r)) as u32 & twice >> r;
        }
        m & ((1 << RING) - 1)
    }
}
