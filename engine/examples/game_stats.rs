//! Random-game statistics per code: moves per position, decision points per
//! move, drops and laps per move, and every never-ending path met.
//!
//! cargo run --release --example game_stats -- <code> <games> [main]
//! (`main`: start from the full board in the main phase, skipping the
//! sequential opening; used for Lango, whose sequential opening usually
//! ends the game at once.)

use choro_engine::{Game, Position, Variant};
use rayon::prelude::*;

#[derive(Default)]
struct Acc {
    positions: u64,
    moves: u64,
    max_moves: u64,
    max_moves_pos: String,
    decisions: u64,
    max_decisions: u64,
    max_decisions_move: String,
    drops: u64,
    max_drops: u64,
    laps: u64,
    max_laps: u64,
    plies: u64,
    never: Vec<String>,
    cut_positions: u64,
}

use choro_engine::rng::splitmix64 as splitmix;

fn play_game(start: Position, seed: u64) -> Acc {
    let mut a = Acc::default();
    let mut game = Game::new(start);
    let mut rng = seed;
    while game.outcome().is_none() {
        let p = *game.position();
        let mut kids = Vec::new();
        let stats = p.generate(choro_engine::LAP_BUDGET, |m, c, info| {
            kids.push((*m, *c, info));
            true
        });
        a.positions += 1;
        a.moves += kids.len() as u64;
        if kids.len() as u64 > a.max_moves {
            a.max_moves = kids.len() as u64;
            a.max_moves_pos = p.to_string();
        }
        for (m, _, info) in &kids {
            let d = m.decisions() as u64;
            a.decisions += d;
            if d > a.max_decisions {
                a.max_decisions = d;
                a.max_decisions_move = format!("{m} in {p}");
            }
            a.drops += info.drops as u64;
            a.max_drops = a.max_drops.max(info.drops as u64);
            a.laps += info.laps as u64;
            a.max_laps = a.max_laps.max(info.laps as u64);
        }
        if stats.never_ending() > 0 {
            a.cut_positions += 1;
            for (m, why, laps) in p.never_ending_paths() {
                a.never
                    .push(format!("{p} | {m}... | {why} after {laps} laps"));
            }
        }
        rng = splitmix(rng);
        let (m, c, _) = kids[(rng % kids.len() as u64) as usize];
        game.push(m, c);
        a.plies += 1;
    }
    a
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().expect("code");
    let games: u64 = args[2].parse().expect("games");
    let main_start = args.get(3).is_some_and(|s| s == "main");
    let mut start = Position::startpos(v, v.default_width()).unwrap();
    if main_start {
        start = start.to_string().replace(" o2 ", " m ").parse().unwrap();
    }
    let t = std::time::Instant::now();
    let parts: Vec<Acc> = (0..games)
        .into_par_iter()
        .map(|g| play_game(start, splitmix(g + 1)))
        .collect();
    let mut s = Acc::default();
    for a in parts {
        s.positions += a.positions;
        s.moves += a.moves;
        if a.max_moves > s.max_moves {
            s.max_moves = a.max_moves;
            s.max_moves_pos = a.max_moves_pos;
        }
        s.decisions += a.decisions;
        if a.max_decisions > s.max_decisions {
            s.max_decisions = a.max_decisions;
            s.max_decisions_move = a.max_decisions_move;
        }
        s.drops += a.drops;
        s.max_drops = s.max_drops.max(a.max_drops);
        s.laps += a.laps;
        s.max_laps = s.max_laps.max(a.max_laps);
        s.plies += a.plies;
        s.cut_positions += a.cut_positions;
        s.never.extend(a.never);
    }
    let pos = s.positions.max(1) as f64;
    let mv = s.moves.max(1) as f64;
    println!(
        "code {v}{} games {games} plies {} ({:.1}/game) time {:.1}s",
        if main_start {
            " (main-phase start)"
        } else {
            ""
        },
        s.plies,
        s.plies as f64 / games as f64,
        t.elapsed().as_secs_f64()
    );
    println!(
        "moves per position: mean {:.2} max {} (at {})",
        s.moves as f64 / pos,
        s.max_moves,
        s.max_moves_pos
    );
    println!(
        "decision points per move: mean {:.3} max {} ({})",
        s.decisions as f64 / mv,
        s.max_decisions,
        s.max_decisions_move
    );
    println!(
        "drops per move: mean {:.1} max {}",
        s.drops as f64 / mv,
        s.max_drops
    );
    println!(
        "laps per move: mean {:.1} max {}",
        s.laps as f64 / mv,
        s.max_laps
    );
    println!(
        "positions with never-ending paths: {} of {}; never-ending paths: {}",
        s.cut_positions,
        s.positions,
        s.never.len()
    );
    for n in &s.never {
        println!("never-ending: {n}");
    }
}
