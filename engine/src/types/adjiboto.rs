//! The Adjiboto opening history of one player, a plain packed value.

/// Adjiboto opening history of one player: the holes (1..=5) of his first
/// five moves in order. Packed as a count in bits 0..3 and 3 bits per hole,
/// and the set of those holes (bit n-1 for hole n) from
/// bit 27, which follows from them (so equality is that of
/// the holes played), kept for the generator's one-instruction test.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct AdjHistory(pub(crate) u32);

impl AdjHistory {
    /// Where the set of holes played starts.
    pub(crate) const PLAYED: u32 = 27;
    /// The bits of the count and the holes in order (the part the hash
    /// keys).
    pub(crate) const ENTRIES: u32 = (1 << 18) - 1;

    /// Holes played so far (0 to 5).
    pub fn len(self) -> usize {
        (self.0 & 7) as usize
    }
    /// Whether no hole has been played.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// The `i`-th hole played (counted from 0).
    pub fn get(self, i: usize) -> u8 {
        ((self.0 >> (3 + 3 * i)) & 7) as u8
    }
    /// Bitmask (bit n-1 for hole n) of holes already played.
    #[inline]
    pub fn played(self) -> u32 {
        self.0 >> Self::PLAYED
    }
    pub(crate) fn push(self, hole: u8) -> AdjHistory {
        let n = self.len();
        if n >= 5 {
            return self;
        }
        AdjHistory(
            (self.0 & !7)
                | (hole as u32) << (3 + 3 * n)
                | (n as u32 + 1)
                | 1 << (Self::PLAYED + hole as u32 - 1),
        )
    }
}
