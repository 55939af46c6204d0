//! The cost of holds (RaceHolds, RULES.md 8.10; BENCHMARKS.md, "Races with
//! holds"): for each Choro code's simultaneous start with N = 0, 1, 2 holds
//! a racer,
//! - the race's generator: the race plies alone (blind starts, tick choices,
//!   decisions; main-phase positions not expanded) counted to a depth, with
//!   the drops sown and the time;
//! - the blind matrix: every cell (a pair of starts, valued by the race that
//!   follows, holds included) searched by alpha-beta to a depth; nodes and
//!   time per cell.
//!
//! cargo run --release -p choro-engine --example race_holds_speed -- [race-depth] [cell-depth]
use choro_engine::blind::BlindGame;
use choro_engine::search::{Limits, SearchConfig, SearchControl};
use choro_engine::{Game, Opening, Phase, Position, Searcher, Variant, LAP_BUDGET};
use std::time::Instant;

/// Race plies below `p` to `depth` (main-phase children counted, not
/// expanded): (positions generated, drops sown).
fn race_tree(p: &Position, depth: u32, out: &mut (u64, u64)) {
    if depth == 0 || !p.phase().is_simultaneous() {
        return;
    }
    let mut kids = Vec::new();
    p.generate(LAP_BUDGET, |_, c, i| {
        out.0 += 1;
        out.1 += i.drops as u64;
        kids.push(*c);
        true
    });
    for c in &kids {
        race_tree(c, depth - 1, out);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let race_depth: u32 = args.get(1).map_or(8, |s| s.parse().expect("depth"));
    let cell_depth: u32 = args.get(2).map_or(4, |s| s.parse().expect("depth"));
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        for n in 0..=2u8 {
            let start = Position::start(v, 8, Opening::Simultaneous)
                .unwrap()
                .with_race_holds(n)
                .unwrap();
            let t = Instant::now();
            let mut count = (0, 0);
            race_tree(&start, race_depth, &mut count);
            let gen = t.elapsed();
            let bg = BlindGame::of(&start).unwrap();
            let mut s = Searcher::new(SearchConfig {
                hash_mb: 64,
                ..SearchConfig::default()
            });
            let (mut nodes, mut cells, mut ticks) = (0u64, 0u64, 0u64);
            let t = Instant::now();
            for c in bg.cells.iter().flatten() {
                cells += 1;
                ticks +=
                    (c.phase() == Phase::Race && c.race().is_some_and(|r| r.stage == 0)) as u64;
                // The cell's own value: alpha-beta, whatever the root phase.
                let r = s.search(
                    &Game::new(*c),
                    &Limits {
                        depth: Some(cell_depth),
                        ..Limits::default()
                    },
                    &SearchControl::default(),
                    &mut |_| {},
                );
                nodes += r.nodes;
            }
            let el = t.elapsed();
            println!(
                "{v} holds {n}: race plies to depth {race_depth}: {} positions, {} drops, {:.3} s ({:.2} us a position); \
                 blind {}x{}: {cells} cells ({ticks} at a tick's choice), depth {cell_depth}: {nodes} nodes, {:.1} ms and {} nodes a cell",
                count.0,
                count.1,
                gen.as_secs_f64(),
                gen.as_secs_f64() * 1e6 / count.0.max(1) as f64,
                bg.a_starts.len(),
                bg.b_starts.len(),
                el.as_secs_f64() * 1e3 / cells as f64,
                nodes / cells,
            );
        }
    }
}
