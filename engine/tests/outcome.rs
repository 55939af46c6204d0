//! End of game: the no-legal-move loss, Adjiboto's store draw, and the
//! engine's repetition and ply-cap draws (RULINGS 9, 10).

mod common;
use choro_engine::{DrawReason, Game, Outcome, Position, Side, Variant};
use common::*;

#[test]
fn a_player_with_only_singletons_loses() {
    let p = choro(
        Variant::Didinga,
        Side::A,
        "m",
        &[('a', 1), ('c', 1)],
        &[('m', 3)],
    );
    assert!(!p.has_legal_move());
    assert_eq!(p.outcome(), Some(Outcome::Win { winner: Side::B }));
    let empty = choro(Variant::Didinga, Side::B, "m", &[('m', 3)], &[]);
    assert_eq!(empty.outcome(), Some(Outcome::Win { winner: Side::A }));
}

#[test]
fn lango_opening_usually_leaves_b_without_a_move() {
    // RULINGS 8: the sequential opening is degenerate for Lango.
    let p = Position::startpos(Variant::Lango, 8).unwrap();
    let mut lost = 0;
    p.for_each_move(|_, c| {
        if c.outcome() == Some(Outcome::Win { winner: Side::A }) {
            lost += 1;
        }
    });
    assert!(lost >= 4, "{lost}");
}

/// RULINGS 2: "A player whose only moves are never-ending has no legal move."
/// A's only liftable hole holds 49; its relay sowing passes the 100,000-lap
/// budget (found by a random search over boards with few liftable holes).
#[test]
fn only_never_ending_moves_means_no_legal_move() {
    let p: Position =
        "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,1,0/1,0,1,0,1,0,1,49/0,1,0,1,0,1,0,1 a m 0"
            .parse()
            .unwrap();
    assert_eq!(p.movable_mask(Side::A).count_ones(), 1);
    let s = p.generate(choro_engine::LAP_BUDGET, |_, _, _| true);
    assert_eq!((s.moves, s.cut_budget), (0, 1));
    assert!(!p.has_legal_move());
    assert_eq!(p.outcome(), Some(Outcome::Win { winner: Side::B }));
    let cut = p.never_ending_paths();
    assert_eq!(cut.len(), 1);
    assert_eq!(cut[0].1, choro_engine::Cut::Budget);
    assert_eq!(cut[0].2, choro_engine::LAP_BUDGET + 1);
}

#[test]
fn adjiboto_store_of_fifty_draws_otherwise_the_player_loses() {
    let stuck: Position = "adjiboto 5,5,5,5,5/1,0,1,0,1 a 12345/12345 50/22 80"
        .parse()
        .unwrap();
    assert_eq!(stuck.outcome(), Some(Outcome::Draw(DrawReason::Store)));
    let poor: Position = "adjiboto 5,5,5,5,5/1,0,1,0,1 a 12345/12345 49/23 80"
        .parse()
        .unwrap();
    assert_eq!(poor.outcome(), Some(Outcome::Win { winner: Side::B }));
    // The prover reads the same rule: a store of 50 saves the stuck player.
    assert!(!stuck.forced_win(Side::B, 3));
    assert!(poor.forced_win(Side::B, 0));
    assert!(!poor.forced_win(Side::A, 3));
    // The draw belongs to the player who cannot move, not to his opponent.
    let other: Position = "adjiboto 1,0,1,0,1/5,5,5,5,5 b 12345/12345 22/49 80"
        .parse()
        .unwrap();
    assert_eq!(other.outcome(), Some(Outcome::Win { winner: Side::A }));
}

#[test]
fn repetition_counts_whole_positions() {
    let p = Position::startpos(Variant::Didinga, 8).unwrap();
    let mut g = Game::new(p);
    let q = p.legal_moves()[0];
    g.push(q.0, q.1);
    // Pushing the start position twice more (as if it recurred) makes three.
    g.push(q.0, p.with_ply(2));
    assert_eq!(g.outcome(), None);
    g.push(q.0, p.with_ply(4));
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn the_ply_cap_draws() {
    let p = Position::startpos(Variant::Didinga, 8).unwrap();
    let mut g = Game::new(p).with_draw_plies(3);
    for _ in 0..3 {
        assert_eq!(g.outcome(), None);
        let (m, _) = g.position().legal_moves()[0];
        g.play(&m).unwrap();
    }
    assert_eq!(g.position().ply(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::PlyCap)));
    g.set_draw_plies(4);
    assert_eq!(g.outcome(), None, "a raised cap lets the game go on");
}

#[test]
fn game_rejects_illegal_moves_and_stays_unchanged() {
    let p = Position::startpos(Variant::Didinga, 8).unwrap();
    let mut g = Game::new(p);
    assert!(g.play_str("c").is_err(), "front row in the opening");
    assert!(g.play_str("zz").is_err());
    assert!(g.play_str("17").is_err());
    assert_eq!(g.moves().len(), 0);
    assert_eq!(*g.position(), p);
    assert!(g.play_str("l").is_ok());
    assert_eq!(g.position().side_to_move(), Side::B);
}
