//! Criterion benches of the engine, per code: move generation (which makes
//! every child: generating is making here), making one given move
//! (`Position::play`), perft to a fixed depth, and search to a fixed depth.
//! Each asserts its known answer inside the measured closure: move counts
//! and perft counts from `positions/perft/*.perft`, the wins of
//! `positions/tests/*.txt`.
//!
//! Perft runs on one thread. `cargo bench -p choro-bench -- --quick` for a
//! short run; one group or
//! code with a filter, e.g. `-- perft/didinga`.

use choro_bench::{alphabeta, parse_perft, parse_win_tests, PerftBlock};
use choro_engine::search::{Limits, Score, SearchConfig, SearchControl};
use choro_engine::Searcher;
use choro_engine::{perft, Game, Move, Position, Variant, LAP_BUDGET};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn perft_file(v: Variant) -> Vec<PerftBlock> {
    let text = match v {
        Variant::Didinga => include_str!("../../positions/perft/didinga.perft"),
        Variant::Lango => include_str!("../../positions/perft/lango.perft"),
        Variant::Acholi => include_str!("../../positions/perft/acholi.perft"),
        Variant::Adjiboto => include_str!("../../positions/perft/adjiboto.perft"),
    };
    parse_perft(text).expect("perft file")
}

fn tests_file(v: Variant) -> &'static str {
    match v {
        Variant::Didinga => include_str!("../../positions/tests/didinga.txt"),
        Variant::Lango => include_str!("../../positions/tests/lango.txt"),
        Variant::Acholi => include_str!("../../positions/tests/acholi.txt"),
        Variant::Adjiboto => include_str!("../../positions/tests/adjiboto.txt"),
    }
}

/// Every position of the code's perft file with its number of moves (perft 1).
fn positions(v: Variant) -> Vec<(Position, u64)> {
    perft_file(v)
        .into_iter()
        .filter_map(|b| {
            let one = b.lines.iter().find(|l| l.0 == 1)?;
            Some((b.position, one.1))
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    for v in Variant::ALL {
        let list = positions(v);
        let total: u64 = list.iter().map(|p| p.1).sum();
        g.throughput(Throughput::Elements(total));
        g.bench_function(v.name(), |b| {
            b.iter(|| {
                let mut n = 0u64;
                for (p, _) in &list {
                    black_box(p).generate(LAP_BUDGET, |m, c, _| {
                        black_box((m, c));
                        n += 1;
                        true
                    });
                }
                assert_eq!(n, total);
            })
        });
    }
    g.finish();
}

fn make_move(c: &mut Criterion) {
    let mut g = c.benchmark_group("make_move");
    for v in Variant::ALL {
        // The last legal move of each position, and the child it makes.
        let list: Vec<(Position, Move, Position)> = positions(v)
            .into_iter()
            .filter_map(|(p, _)| p.legal_moves().last().map(|&(m, c)| (p, m, c)))
            .collect();
        g.throughput(Throughput::Elements(list.len() as u64));
        g.bench_function(v.name(), |b| {
            b.iter(|| {
                for (p, m, child) in &list {
                    let got = black_box(p).play(black_box(m)).expect("legal");
                    assert_eq!(got.hash(), child.hash());
                }
            })
        });
    }
    g.finish();
}

fn perft_fixed(c: &mut Criterion) {
    // One thread: perft splits the root's children over rayon's pool.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for v in Variant::ALL {
        // The first block's deepest line of at most 200,000 paths.
        let blocks = perft_file(v);
        let b = &blocks[0];
        let &(d, paths, unique) = b
            .lines
            .iter()
            .filter(|l| l.1 <= 200_000)
            .max_by_key(|l| l.0)
            .expect("a line");
        g.throughput(Throughput::Elements(paths));
        let id = format!("{}/{}-depth-{d}", v.name(), b.id);
        g.bench_function(id, |bn| {
            bn.iter(|| {
                let (n, _) = pool.install(|| perft::perft(black_box(&b.position), d));
                assert_eq!((n.paths, n.unique), (paths, unique));
            })
        });
    }
    g.finish();
}

fn search_fixed(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for v in Variant::ALL {
        // The first test position with a win in 7 or more: alpha-beta to
        // that depth (one thread, a fresh 16 MB table) must find it.
        let tests = parse_win_tests(tests_file(v)).expect("tests file");
        let t = tests
            .iter()
            .find(|t| t.win >= 7)
            .unwrap_or(&tests[0])
            .clone();
        let id = format!("{}/{}-depth-{}", v.name(), t.id, t.win);
        g.bench_function(id, |b| {
            b.iter(|| {
                let r = alphabeta(black_box(&t.position), t.win);
                assert_eq!(r.score, Some(Score::Win(t.win)));
                assert!(t.best.contains(&r.best.expect("a move")));
            })
        });
    }
    g.finish();
}

/// The simultaneous opening: perft of each code's start (blind choices and
/// the race, drop by drop) to the deepest line of at most 200,000 paths,
/// and the blind choice solved as a matrix game with cells to depth 4.
fn simultaneous(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let blocks =
        parse_perft(include_str!("../../positions/perft/simultaneous.perft")).expect("perft file");
    let mut g = c.benchmark_group("simultaneous");
    g.sample_size(10);
    for b in blocks
        .iter()
        .filter(|b| b.id.ends_with("-8-simultaneous-start"))
    {
        let &(d, paths, unique) = b
            .lines
            .iter()
            .filter(|l| l.1 <= 200_000)
            .max_by_key(|l| l.0)
            .expect("a line");
        g.throughput(Throughput::Elements(paths));
        g.bench_function(format!("perft/{}-depth-{d}", b.id), |bn| {
            bn.iter(|| {
                let (n, _) = pool.install(|| perft::perft(black_box(&b.position), d));
                assert_eq!((n.paths, n.unique), (paths, unique));
            })
        });
    }
    g.throughput(Throughput::Elements(1));
    for b in blocks
        .iter()
        .filter(|b| b.id.ends_with("-8-simultaneous-start"))
    {
        g.bench_function(format!("blind/{}-depth-4", b.id), |bn| {
            bn.iter(|| {
                let mut s = Searcher::new(SearchConfig::default());
                let limits = Limits {
                    depth: Some(4),
                    ..Limits::default()
                };
                let game = Game::new(black_box(b.position));
                let r = s.search(&game, &limits, &SearchControl::default(), &mut |_| {});
                assert!(b.position.play(&r.best.expect("a start")).is_ok());
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    movegen,
    make_move,
    perft_fixed,
    search_fixed,
    simultaneous
);
criterion_main!(benches);
