//! The equilibrium of the blind choice at each Choro code's start of the
//! simultaneous opening (BENCHMARKS.md, "Simultaneous opening"): the
//! matrix game over A's and B's starts, cells valued by alpha-beta to each
//! depth, solved exactly.
//!
//! cargo run --release -p choro-engine --example blind_equilibrium -- [max-depth] [codes...]
use choro_engine::search::{Limits, SearchConfig, SearchControl};
use choro_engine::Searcher;
use choro_engine::{Game, Opening, Position, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).map(|s| s.parse().expect("depth")).unwrap_or(4);
    let codes: Vec<Variant> = if args.len() > 2 {
        args[2..].iter().map(|s| s.parse().expect("code")).collect()
    } else {
        vec![Variant::Didinga, Variant::Lango, Variant::Acholi]
    };
    for v in codes {
        let p = Position::start(v, 8, Opening::Simultaneous).unwrap();
        let mut s = Searcher::new(SearchConfig {
            hash_mb: 64,
            ..SearchConfig::default()
        });
        let t = Instant::now();
        s.search(
            &Game::new(p),
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &SearchControl::default(),
            &mut |i| {
                if let (Some(d), Some(st)) = (i.depth, &i.string) {
                    println!(
                        "{v} depth {d} ({:.1} s, {} nodes): {st}",
                        t.elapsed().as_secs_f64(),
                        i.nodes.unwrap_or(0)
                    );
                }
            },
        );
    }
}
