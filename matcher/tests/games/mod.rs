//! Game records made for the tests: a finished game of first legal moves,
//! and the same game cut short by a failure. Shared with the tests of
//! `choro replay` in `protocol/tests/replay_cli.rs`.

use choro_engine::{Game, Position, Variant};
use choro_match::record::{GameResult, MoveEntry, Reason, Record};

/// A finished game of first legal moves from a start position, as the
/// referee would record it.
pub fn first_move_game(start: Position) -> Record {
    let mut game = Game::new(start);
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        let pos = *game.position();
        let (m, next) = pos.legal_moves()[0];
        let m = pos.restyle(m);
        moves.push(MoveEntry {
            ply: pos.ply(),
            side: pos.side_to_move(),
            mv: m.to_string(),
            comment: Some("1ms d1 cp 0".into()),
        });
        game.push(m, next);
    }
    let o = game.outcome().unwrap();
    let result = GameResult::of_outcome(o);
    let tags = [
        ("Event", "test \"quoted\" \\ event".to_string()),
        ("Game", "1".into()),
        ("Variant", start.variant().name().into()),
        ("Columns", start.width().to_string()),
        ("DrawPlies", "1000".into()),
        ("A", "one".into()),
        ("B", "two".into()),
        ("Start", start.to_string()),
        ("Result", result.token().into()),
        ("Reason", Reason::of_outcome(o).code().into()),
        ("Plies", moves.len().to_string()),
    ];
    Record {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        moves,
        result: Some(result),
        line: 0,
    }
}

pub fn didinga() -> Record {
    first_move_game(Position::startpos(Variant::Didinga, 8).unwrap())
}

pub fn set_tag(r: &mut Record, k: &str, v: &str) {
    match r.tags.iter_mut().find(|(n, _)| n == k) {
        Some(t) => t.1 = v.to_string(),
        None => r.tags.push((k.to_string(), v.to_string())),
    }
}

/// Cut the game before its last `n` moves and call it a loss by `reason`
/// for the side to move there.
pub fn as_failure(mut r: Record, cut: usize, reason: Reason) -> Record {
    r.moves.truncate(r.moves.len() - cut);
    let mut g = Game::new(r.tag("Start").unwrap().parse().unwrap());
    for m in &r.moves {
        g.play_str(&m.mv).unwrap();
    }
    let loser = g.position().side_to_move();
    r.result = Some(GameResult::loss_of(loser));
    let (token, plies) = (GameResult::token_of(r.result), r.moves.len().to_string());
    set_tag(&mut r, "Result", token);
    set_tag(&mut r, "Reason", reason.code());
    set_tag(&mut r, "Plies", &plies);
    r
}
