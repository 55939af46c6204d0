//! Baselines to measure the searchers against: `random`, uniform over the
//! legal moves, and `greedy`, the move that leaves the most material after
//! it (a win outright first). Both are reproducible: the seed, mixed with the
//! position, picks among equals.

use super::{Info, Limits, Score, SearchResult};
use crate::board::Position;
use crate::gametree::{no_move_cheap, root_children, MATE};
use crate::rng::Rng;
use crate::rules::Game;

/// Material of the side that just moved into `child`, minus the other's
/// (Adjiboto: the stores), or a win when the opponent is left without a move.
fn material_after(mover: crate::Side, child: &Position) -> i32 {
    if child.side_to_move() != mover && no_move_cheap(child) {
        return MATE;
    }
    let op = mover.other();
    if child.variant().is_choro() {
        100 * (child.material(mover) as i32 - child.material(op) as i32)
    } else {
        let s = child.stores();
        100 * (s[mover.index()] as i32 - s[op.index()] as i32)
    }
}

pub fn run(
    game: &Game,
    limits: &Limits,
    greedy: bool,
    seed: u64,
    info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let root = *game.position();
    let (mut kids, mut hs) = (Vec::new(), Vec::new());
    root_children(&root, &limits.searchmoves, &mut kids, &mut hs);
    if kids.is_empty() {
        return super::no_move_result(&root);
    }
    let mut rng = Rng::new(seed ^ root.hash() ^ (root.ply() as u64).rotate_left(32));
    let mover = root.side_to_move();
    let (pick, score) = if greedy {
        let values: Vec<i32> = kids.iter().map(|c| material_after(mover, &c.pos)).collect();
        let top = values.iter().copied().max().unwrap_or(0);
        let ties: Vec<usize> = (0..kids.len()).filter(|&i| values[i] == top).collect();
        let score = if top == MATE {
            Score::Win(1)
        } else {
            Score::Cp(top)
        };
        (ties[rng.below(ties.len())], Some(score))
    } else {
        (rng.below(kids.len()), None)
    };
    let mv = root.restyle(kids[pick].mv);
    super::one_ply_answer(mv, score, kids.len() as u64, info)
}
