//! Embedding the engine: play a game of Lango, each side's move chosen by a
//! depth-6 alpha-beta search, until the game is over.

use choro_engine::search::{Limits, SearchConfig, SearchControl};
use choro_engine::{Game, Position, Searcher, Variant};

fn main() {
    let start = Position::startpos(Variant::Lango, 8).expect("a standard board");
    let mut game = Game::new(start).with_draw_plies(200);
    let mut searcher = Searcher::new(SearchConfig::default());
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    while game.outcome().is_none() {
        let stop = SearchControl::default();
        let result = searcher.search(&game, &limits, &stop, &mut |_info| {});
        let best = result.best.expect("a game not over has a move");
        println!(
            "{}: {best} ({:?})",
            game.position().side_to_move(),
            result.score
        );
        game.play(&best).expect("the searcher plays legal moves");
    }
    println!(
        "{:?} after {} plies",
        game.outcome().unwrap(),
        game.moves().len()
    );
}
