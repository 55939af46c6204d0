//! The data files of `positions/` other than perft: the openings parse and
//! are games still going on; the test positions' wins are what their proof
//! lines say (alpha-beta finds each; the exhaustive proof runs with
//! `--ignored`).

use choro_bench::{alphabeta, parse_win_tests, WinTest};
use choro_engine::board::parse_list;
use choro_engine::search::Score;
use choro_engine::Variant;

fn read(path: &str) -> String {
    let full = format!("{}/../positions/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn tests(v: Variant) -> Vec<WinTest> {
    let t =
        parse_win_tests(&read(&format!("tests/{v}.txt"))).unwrap_or_else(|e| panic!("{v}: {e}"));
    assert!(t.len() >= 10, "{v}: {} positions", t.len());
    for w in &t {
        assert_eq!(w.position.variant(), v, "{}", w.id);
    }
    t
}

#[test]
fn openings_are_games_still_going_on() {
    for v in Variant::ALL {
        let list: Vec<_> = parse_list(&read(&format!("openings/{v}.txt")))
            .unwrap_or_else(|(n, e)| panic!("{v} line {n}: {e}"))
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert!(list.len() >= 100, "{v}: {}", list.len());
        for (i, p) in list.iter().enumerate() {
            assert_eq!(p.variant(), v);
            assert_eq!(p.width(), v.default_width());
            assert!(p.has_legal_move(), "{v} opening {}: no legal move", i + 1);
            let dup = list[..i].iter().any(|q| q.same_state(p));
            assert!(!dup, "{v} opening {}: repeated", i + 1);
        }
    }
}

#[test]
fn alpha_beta_finds_every_test_win_with_a_best_move() {
    for v in Variant::ALL {
        for t in tests(v) {
            let r = alphabeta(&t.position, t.win);
            assert_eq!(r.score, Some(Score::Win(t.win)), "{}", t.id);
            let best = r.best.expect("a move");
            assert!(
                t.best.contains(&best),
                "{}: {best} is not a best move",
                t.id
            );
        }
    }
}

#[test]
#[ignore = "exhaustive proofs: run with --ignored, in release"]
fn test_wins_are_proven_by_exhaustive_search() {
    for v in Variant::ALL {
        for t in tests(v) {
            let p = &t.position;
            let me = p.side_to_move();
            assert!(p.forced_win(me, t.win), "{}: no win in {}", t.id, t.win);
            assert!(
                !p.forced_win(me, t.win - 2),
                "{}: a win in {}",
                t.id,
                t.win - 2
            );
            for (m, c) in p.legal_moves() {
                let good = c.forced_win(me, t.win - 1);
                assert_eq!(t.best.contains(&m), good, "{}: move {m}", t.id);
            }
        }
    }
}
