//! Lango only (RULINGS 3-5): the front-only facing rule and the compulsory
//! start capture live in the shared generator; this module finds the holes
//! they apply to.

/// The mover's front holes whose facing opponent front hole holds counters
/// (`opp_occ`: the opponent's occupied holes): where a Lango lap ending on
/// an occupied hole captures (RULINGS 3, the facing front hole alone decides).
#[inline]
pub(crate) fn facing_front(opp_occ: u32, w: u8) -> u32 {
    // Bit k of `rev` is the opponent's hole 2W-1-k, which faces the mover's
    // front hole W+k.
    let rev = opp_occ.reverse_bits() >> (32 - 2 * w);
    (rev & ((1 << w) - 1)) << w
}

/// Front holes of the mover holding a counter (`mine_occ`: his occupied
/// holes) whose facing opponent front hole holds counters: the start
/// captures he must choose from.
#[inline]
pub(crate) fn start_captures(mine_occ: u32, opp_occ: u32, w: u8) -> u32 {
    mine_occ & facing_front(opp_occ, w)
}
