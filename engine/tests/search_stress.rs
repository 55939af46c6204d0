//! Threads under stress: many short searches with 2 (and 3) threads, stopped
//! by limits, by clocks and by `stop` at random moments from another thread,
//! on positions of every code. Every answer must be a legal move, and the
//! searcher must stay usable (the table is shared without locks; a torn
//! entry must read as a miss, never as a wrong move or a panic).

use choro_engine::rng::Rng;
use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl};
use choro_engine::Searcher;
use choro_engine::{Game, Position, Variant};
use std::sync::atomic::Ordering;
use std::time::Duration;

fn games(rng: &mut Rng, per_code: usize) -> Vec<Game> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        let mut made = 0;
        while made < per_code {
            let start = if v.is_choro() {
                let row = ["2"; 8].join(",");
                format!("{v}:8 {row}/{row}/{row}/{row} a m")
                    .parse::<Position>()
                    .unwrap()
            } else {
                Position::startpos(v, 5).unwrap()
            };
            let mut g = Game::new(start);
            for _ in 0..rng.below(30) {
                let moves = g.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())].0;
                g.play(&m).unwrap();
            }
            if g.position().has_legal_move() {
                out.push(g);
                made += 1;
            }
        }
    }
    out
}

fn stress(rounds: usize, per_code: usize, threads: &[usize]) {
    let mut rng = Rng::new(0x5eed_1234_abcd_ef01);
    let games = games(&mut rng, per_code);
    for &t in threads {
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
            let mut s = Searcher::new(SearchConfig {
                algorithm,
                threads: t,
                hash_mb: 2,
                ..SearchConfig::default()
            });
            for round in 0..rounds {
                for g in &games {
                    let limits = match rng.below(4) {
                        0 => Limits {
                            depth: Some(1 + rng.below(6) as u32),
                            nodes: Some(20_000),
                            ..Limits::default()
                        },
                        1 => Limits {
                            nodes: Some(500 + rng.below(5000) as u64),
                            ..Limits::default()
                        },
                        2 => Limits {
                            movetime: Some(Duration::from_millis(1 + rng.below(15) as u64)),
                            ..Limits::default()
                        },
                        _ => Limits {
                            infinite: true,
                            ..Limits::default()
                        },
                    };
                    let control = SearchControl::default();
                    let delay = Duration::from_micros(rng.below(15_000) as u64);
                    let r = std::thread::scope(|sc| {
                        sc.spawn(|| {
                            std::thread::sleep(delay);
                            control.stop.store(true, Ordering::Relaxed);
                        });
                        s.search(g, &limits, &control, &mut |_| {})
                    });
                    let m = r.best.expect("a legal move exists");
                    assert!(
                        g.position().play(&m).is_ok(),
                        "{algorithm:?} x{t}, round {round}: {m} in {}",
                        g.position()
                    );
                }
                if round % 2 == 1 {
                    s.clear();
                }
            }
        }
    }
}

#[test]
fn two_threads_run_clean() {
    stress(3, 4, &[2]);
}

#[test]
#[ignore]
fn many_threads_run_clean_for_long() {
    stress(20, 8, &[2, 3, 4, 8]);
}
