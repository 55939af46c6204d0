//! Properties every move of every code must keep: counters are never created
//! or lost, the incremental hash equals one computed from scratch, position
//! and move strings round-trip, and the side to move changes.

mod common;
use choro_engine::{Opening, Position, Side, Variant};
use common::Rng;
use common::*;
use proptest::prelude::*;

fn check_children(p: &Position) -> usize {
    let total = p.total_counters();
    let mut n = 0;
    p.generate(20_000, |m, c, info| {
        n += 1;
        assert_eq!(c.total_counters(), total, "{p} {m}: counters not conserved");
        let again: Position = c.to_string().parse().unwrap();
        assert_eq!(again, *c, "{p} {m}: position string does not round-trip");
        assert_eq!(again.hash(), c.hash(), "{p} {m}: incremental hash differs");
        if p.phase().is_simultaneous() && c.phase() != choro_engine::Phase::Blind1 {
            // After a racer's decision (or B's blind choice) the race
            // decides who is next: a racer, or the first to finish.
        } else {
            assert_eq!(c.side_to_move(), p.side_to_move().other());
        }
        assert_eq!(c.ply(), p.ply() + 1);
        let text = m.to_string();
        assert_eq!(text.parse::<choro_engine::Move>().unwrap(), *m);
        assert_eq!(
            p.parse_move(&text).unwrap().1,
            *c,
            "{p} {m}: replay differs"
        );
        if p.phase().is_simultaneous() {
            // A's blind choice sows nothing; a race counts both racers'
            // laps, each up to one past the budget (a drawn race).
            assert!(info.laps <= 2 * 20_001);
        } else {
            assert!(info.laps >= 1 && info.laps <= 20_000);
        }
        for s in [Side::A, Side::B] {
            let occ = (0..p.holes_per_side())
                .filter(|&h| c.loop_count(s, h) > 0)
                .fold(0u32, |m, h| m | 1 << h);
            if p.variant().is_choro() {
                assert_eq!(c.occupied_mask(s), occ);
            }
        }
        true
    });
    n
}

fn variant_and_width() -> impl Strategy<Value = (Variant, u8)> {
    prop_oneof![
        (8u8..=16).prop_map(|w| (Variant::Didinga, w)),
        Just((Variant::Lango, 8)),
        Just((Variant::Acholi, 8)),
        Just((Variant::Adjiboto, 5)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn moves_from_random_games_keep_every_invariant((v, w) in variant_and_width(), seed in any::<u64>(), plies in 0u32..40) {
        let mut rng = Rng::new(seed);
        let p = random_game_position(v, w, plies, &mut rng);
        check_children(&p);
    }

    #[test]
    fn moves_in_the_simultaneous_opening_keep_every_invariant(
        (v, w) in variant_and_width().prop_filter("choro", |(v, _)| v.is_choro()),
        seed in any::<u64>(),
        plies in 0u32..8,
    ) {
        let mut rng = Rng::new(seed);
        let mut p = Position::start(v, w, Opening::Simultaneous).unwrap();
        for _ in 0..plies {
            let kids = p.legal_moves();
            if kids.is_empty() {
                break;
            }
            p = kids[rng.below(kids.len())].1;
        }
        check_children(&p);
    }

    #[test]
    fn moves_from_scattered_boards_keep_every_invariant(
        (v, w) in variant_and_width().prop_filter("choro", |(v, _)| v.is_choro()),
        seed in any::<u64>(),
        main in any::<bool>(),
        b_moves in any::<bool>(),
    ) {
        let mut rng = Rng::new(seed);
        let total = 8 * w as u32 - rng.below(6 * w as usize) as u32;
        let side = if b_moves { Side::B } else { Side::A };
        let p = scattered(v, w, total, if main { "m" } else { "o2" }, side, &mut rng);
        check_children(&p);
    }
}

#[test]
fn start_positions_have_moves_for_every_code_and_width() {
    for v in Variant::ALL {
        for w in v.widths() {
            let p = Position::startpos(v, w).unwrap();
            assert!(check_children(&p) > 0, "{p}");
        }
    }
}
