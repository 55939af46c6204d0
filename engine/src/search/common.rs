//! What the searchers share beyond the game tree (`crate::gametree`): the
//! protocol's view of a score and the repetition rule as search sees it.

use super::Score;
use crate::gametree::{MATE, MATE_BOUND};
use crate::rules::Game;

/// The protocol's view of an internal score.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Win((MATE - v) as u32)
    } else if v <= -MATE_BOUND {
        Score::Loss((MATE + v) as u32)
    } else {
        Score::Cp(v)
    }
}

/// Game history as the repetition rule needs it: the positions that already
/// occurred twice before the root, whose next occurrence is the third.
/// (A repetition inside the search path is a draw at the second occurrence.)
#[derive(Clone, Debug, Default)]
pub(crate) struct RepHistory {
    twice: Vec<u64>,
}

impl RepHistory {
    pub fn new(game: &Game) -> RepHistory {
        let h = game.hashes();
        let mut before: Vec<u64> = h[..h.len().saturating_sub(1)].to_vec();
        before.sort_unstable();
        let mut twice: Vec<u64> = before
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        twice.dedup();
        RepHistory { twice }
    }

    #[inline]
    pub(crate) fn third_time(&self, key: u64) -> bool {
        !self.twice.is_empty() && self.twice.binary_search(&key).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::EVAL_MAX;

    #[test]
    fn scores_carry_the_distance() {
        assert_eq!(to_score(MATE - 3), Score::Win(3));
        assert_eq!(to_score(-(MATE - 4)), Score::Loss(4));
        assert_eq!(to_score(-MATE), Score::Loss(0));
        assert_eq!(to_score(EVAL_MAX), Score::Cp(EVAL_MAX));
    }
}
