//! Lango only (RULINGS 3-5): the front-only facing rule and the compulsory
//! start capture live in the shared generator; this module finds the start
//! captures.

use crate::types::geometry::{facing, front_mask};
use crate::types::packed::Loop;

/// Front holes `f` of the mover holding a counter whose facing opponent
/// front hole holds counters: the start captures he must choose from.
#[inline]
pub(crate) fn start_captures(mine: &Loop, theirs: &Loop, w: u8) -> u32 {
    let mut m = mine.occupied() & front_mask(w);
    let mut caps = 0;
    while m != 0 {
        let f = m.trailing_zeros() as u8;
        m &= m - 1;
        if theirs.get(facing(f, w).0) > 0 {
            caps |= 1 << f;
        }
    }
    caps
}
