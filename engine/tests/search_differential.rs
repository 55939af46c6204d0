//! Every alpha-beta refinement against plain negamax (minimax-rs's
//! `tests/strategies.rs` idea): on random positions of every code, with an
//! evaluator made from the position hash that produces many ties, each
//! refinement alone and all together (one and two threads) must return the
//! root value of a plain, obviously-correct negamax at the same depth, and a
//! move that negamax also rates best.
//!
//! Plain negamax here uses the same leaf and terminal rules as the search
//! (`no_move_cheap` at the horizon, Adjiboto's store-50 draw), walks every
//! path without merging, and has no draws: the searcher runs with repetition
//! draws off, table cutoffs on exact drafts only, and no ply cap in reach.

use choro_engine::eval::Evaluator;
use choro_engine::gametree::{no_move_cheap, terminal_value};
use choro_engine::rng::Rng;
use choro_engine::search::{to_score, AbOptions, Limits, SearchConfig, SearchControl, INF};
use choro_engine::Searcher;
use choro_engine::{Game, Move, Opening, Phase, Position, Variant};

/// Scores from the hash alone: 32 values 40 apart, so ties abound.
struct HashEval;

impl Evaluator for HashEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut x = pos.hash() ^ 0x2545_f491_4f6c_dd1d;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        ((x >> 59) as i32 - 16) * 40
    }
}

fn negamax(pos: &Position, depth: u32, ply: usize) -> i32 {
    if depth == 0 {
        return if no_move_cheap(pos) {
            terminal_value(pos, ply)
        } else {
            HashEval.evaluate(pos)
        };
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return terminal_value(pos, ply);
    }
    moves
        .iter()
        .map(|(_, c)| {
            let v = negamax(c, depth - 1, ply + 1);
            if c.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap_or(-INF)
}

/// Root value and every move that reaches it.
fn plain_root(pos: &Position, depth: u32) -> (i32, Vec<Move>) {
    let moves = pos.legal_moves();
    let vals: Vec<i32> = moves
        .iter()
        .map(|(_, c)| {
            let v = negamax(c, depth - 1, 1);
            if c.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .collect();
    let best = vals.iter().copied().max().unwrap_or(-INF);
    let best_moves = moves
        .iter()
        .zip(&vals)
        .filter(|(_, &v)| v == best)
        .map(|((m, _), _)| *m)
        .collect();
    (best, best_moves)
}

/// `n` positions of `v` reached by random play (some end the game soon,
/// which puts wins and losses within the horizon).
fn random_positions(v: Variant, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed | 1);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 50 * n {
        tries += 1;
        let mut p = Position::startpos(v, v.default_width()).unwrap();
        let plies = 1 + rng.below(120);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = moves[rng.below(moves.len())].1;
        }
        if p.has_legal_move() {
            out.push(p);
        }
    }
    out
}

/// `n` sparse endgame positions of `v`: a few counters per player, where
/// wins fall within the horizon and moves into empty holes commute, so that
/// the table meets the same position by different move orders.
fn sparse_positions(v: Variant, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = Vec::new();
    while out.len() < n {
        let side = if rng.below(2) == 0 { "a" } else { "b" };
        let text = if v.is_choro() {
            let mut rows = [[0u8; 8]; 4];
            for owner in 0..2 {
                for _ in 0..3 + rng.below(10) {
                    rows[2 * owner + rng.below(2)][rng.below(8)] += 1;
                }
            }
            let rows: Vec<String> = rows
                .iter()
                .rev()
                .map(|r| r.map(|c| c.to_string()).join(","))
                .collect();
            format!("{v}:8 {} {side} m 60", rows.join("/"))
        } else {
            let mut ring = [0u8; 10];
            for _ in 0..4 + rng.below(16) {
                ring[rng.below(10)] += 1;
            }
            let on_board: u32 = ring.iter().map(|&c| c as u32).sum();
            let sa = rng.below(100 - on_board as usize + 1);
            let sb = 100 - on_board as usize - sa;
            let row = |r: &[u8]| {
                r.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let north: Vec<u8> = ring[5..].iter().rev().copied().collect();
            format!(
                "adjiboto {}/{} {side} 12345/12345 {sa}/{sb} 60",
                row(&north),
                row(&ring[..5])
            )
        };
        let p: Position = text.parse().unwrap();
        if p.has_legal_move() {
            out.push(p);
        }
    }
    out
}

fn configs() -> Vec<(&'static str, AbOptions, usize)> {
    let none = AbOptions {
        repetition: false,
        exact_draft: true,
        ..AbOptions::plain()
    };
    let all = AbOptions {
        repetition: false,
        exact_draft: true,
        ..AbOptions::default()
    };
    vec![
        ("plain alpha-beta", none, 1),
        (
            "table",
            AbOptions {
                table: true,
                ..none
            },
            1,
        ),
        (
            "ordering",
            AbOptions {
                ordering: true,
                ..none
            },
            1,
        ),
        ("pvs", AbOptions { pvs: true, ..none }, 1),
        (
            "table+pvs",
            AbOptions {
                table: true,
                pvs: true,
                ..none
            },
            1,
        ),
        (
            "aspiration",
            AbOptions {
                aspiration: true,
                ..none
            },
            1,
        ),
        ("all", all, 1),
        ("all, 2 threads", all, 2),
    ]
}

fn check(v: Variant, count: usize, depths: std::ops::RangeInclusive<u32>, seed: u64) {
    let mut positions = random_positions(v, count / 2, seed);
    assert!(positions.len() >= count / 4, "{v}: too few positions");
    positions.extend(sparse_positions(v, count / 2, seed));
    let decided = check_positions(&positions, depths);
    // The random positions must exercise the win/loss scores too.
    assert!(decided > 0, "{v}: no decided position");
}

/// Positions inside the simultaneous opening's race (a racer to decide),
/// reached by random blind choices and decisions from the start: their
/// trees hold consecutive plies of one player (two decisions in a row, the
/// last decision and the first main-phase move).
fn race_positions(v: Variant, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed | 1);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 200 * n {
        tries += 1;
        let mut p = Position::start(v, 8, Opening::Simultaneous).unwrap();
        for _ in 0..2 + rng.below(4) {
            let moves = p.legal_moves();
            if moves.is_empty() || p.phase() == Phase::Main {
                break;
            }
            p = moves[rng.below(moves.len())].1;
        }
        if p.phase() == Phase::Race && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[test]
fn race_positions_keep_the_negamax_value() {
    for (v, seed) in [(Variant::Lango, 31), (Variant::Acholi, 32)] {
        let positions = race_positions(v, 12, seed);
        assert!(
            positions.len() >= 6,
            "{v}: {} race positions",
            positions.len()
        );
        let same_side = positions
            .iter()
            .filter(|p| {
                p.legal_moves()
                    .iter()
                    .any(|(_, c)| c.side_to_move() == p.side_to_move())
            })
            .count();
        assert!(
            same_side > 0,
            "{v}: no decision followed by the same player"
        );
        check_positions(&positions, 1..=3);
    }
}

/// Every configuration against plain negamax on `positions`; returns how
/// many root values were wins or losses.
fn check_positions(positions: &[Position], depths: std::ops::RangeInclusive<u32>) -> usize {
    let control = SearchControl::default();
    let mut searchers: Vec<_> = configs()
        .into_iter()
        .map(|(name, opts, threads)| {
            let mut s = Searcher::new(SearchConfig {
                threads,
                hash_mb: 1,
                ..SearchConfig::default()
            });
            s.set_ab_options(opts);
            // Plain negamax knows no book of solved positions.
            s.set_book(false);
            (name, s)
        })
        .collect();
    let mut decided = 0;
    for pos in positions {
        let game = Game::new(*pos).with_draw_plies(u32::MAX);
        for depth in depths.clone() {
            let (value, best) = plain_root(pos, depth);
            decided += usize::from(value.abs() >= choro_engine::search::MATE_BOUND);
            for (name, s) in searchers.iter_mut() {
                s.clear();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let r = s.search_with(&game, &limits, &control, &mut |_| {}, &HashEval);
                assert_eq!(
                    r.score,
                    Some(to_score(value)),
                    "{name}, depth {depth}, {pos}"
                );
                let mv = r.best.unwrap();
                assert!(
                    best.contains(&mv),
                    "{name}, depth {depth}, {pos}: {mv} is not among {best:?}"
                );
            }
        }
    }
    decided
}

#[test]
fn didinga_refinements_keep_the_negamax_value() {
    check(Variant::Didinga, 60, 1..=4, 11);
}

#[test]
fn lango_refinements_keep_the_negamax_value() {
    check(Variant::Lango, 60, 1..=4, 12);
}

#[test]
fn acholi_refinements_keep_the_negamax_value() {
    check(Variant::Acholi, 40, 1..=3, 13);
}

#[test]
fn adjiboto_refinements_keep_the_negamax_value() {
    check(Variant::Adjiboto, 60, 1..=5, 14);
}

/// Deeper trees, more positions: for release runs.
#[test]
#[ignore]
fn refinements_keep_the_negamax_value_deep() {
    check(Variant::Didinga, 100, 6..=6, 21);
    check(Variant::Lango, 100, 6..=6, 22);
    check(Variant::Acholi, 40, 4..=4, 23);
    check(Variant::Adjiboto, 100, 7..=7, 24);
}
