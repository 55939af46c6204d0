//! Acholi only (RULINGS 6): where preliminary attacks may start. The attack
//! follow-ups (leave, clockwise again, counter-clockwise move proper) and the
//! mid-move clockwise lap are options of the shared generator.

use crate::types::geometry;

/// Holes a preliminary attack may lift: i and k, only k in the opening.
#[inline]
pub(crate) fn attack_holes(w: u8, opening: bool) -> u32 {
    if opening {
        1 << geometry::K_POS
    } else {
        geometry::acholi_base(w)
    }
}
