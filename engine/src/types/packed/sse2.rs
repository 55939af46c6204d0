//! The SSE2 forms of two byte scans over sixteen holes: the columns an
//! attacker may capture (the evaluation's `open_columns`) and the occupied
//! and movable masks of a 16-hole loop (`masks16`: every Adjiboto child,
//! and the rings of the 8-wide boards). The intrinsics are `unsafe` to call only
//! because a CPU may lack the instructions; SSE2 is part of the x86_64
//! baseline, so every call is sound, and nothing here reads or writes
//! memory.
//!
//! What they pay: with the word forms of `packed.rs` in their place,
//! `choro bench` (whole process, callgrind) runs 9.6% more instructions in
//! Didinga, 7.2% in Lango, 6.8% in Acholi and 4.7% in Adjiboto (issue 27,
//! measured on top of 789259e); `unsafe` must pay 2%.

use std::arch::x86_64::*;

/// Over sixteen columns (one byte each): the columns where `own` and
/// `front` both hold counters (and `back` too, unless `either`), and of
/// those the sum and the largest of `front + back`. Every byte of `front +
/// back` stays below 256: a board holds at most 128 counters.
#[inline]
pub(crate) fn open_columns(own: u128, front: u128, back: u128, either: bool) -> (u32, u32) {
    // SAFETY: SSE2 is part of the x86_64 baseline (this module is compiled
    // only there); these intrinsics only compute on registers.
    unsafe {
        let load = |x: u128| _mm_set_epi64x((x >> 64) as i64, x as i64);
        let (own, front, back) = (load(own), load(front), load(back));
        let zero = _mm_setzero_si128();
        let mut closed = _mm_or_si128(_mm_cmpeq_epi8(own, zero), _mm_cmpeq_epi8(front, zero));
        if !either {
            closed = _mm_or_si128(closed, _mm_cmpeq_epi8(back, zero));
        }
        let taken = _mm_andnot_si128(closed, _mm_add_epi8(front, back));
        let sums = _mm_sad_epu8(taken, zero);
        let sum = (_mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8))) as u32;
        let mut m = _mm_max_epu8(taken, _mm_srli_si128(taken, 8));
        m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
        m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
        m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
        (sum, _mm_cvtsi128_si32(m) as u32 & 0xff)
    }
}

/// Occupied holes and holes with two or more of 16 packed bytes (`lo` the
/// first eight).
#[inline]
pub(super) fn masks16(lo: u64, hi: u64) -> (u32, u32) {
    // SAFETY: as in `open_columns`: SSE2 is baseline on x86_64, and these
    // only compute on registers.
    unsafe {
        let v = _mm_set_epi64x(hi as i64, lo as i64);
        let zero = _mm_setzero_si128();
        let empty = _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) as u32;
        let at_most_one =
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8(1)), zero)) as u32;
        (!empty & 0xffff, !at_most_one & 0xffff)
    }
}
