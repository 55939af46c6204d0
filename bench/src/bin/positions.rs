//! The tool that made the files of `positions/` (bench list, openings, test
//! positions). Deterministic: the same arguments give the same output.
//!
//! ```text
//! positions bench-candidates <code> <games> <seed>   blocks for positions/bench.txt (no depth yet)
//! positions calibrate <file> <millis>               the depth of each block whose search takes
//!                                                   about <millis> ms (one thread, 16 MB)
//! positions openings <code> <count> <plies> <seed> [main|start] [margin]
//! positions wins <code> <count> <plies> <seed>      forced wins from random games, proven
//! positions bench [threads] [code]                 run the bench (as `choro bench`)
//! ```
use choro_bench::{alphabeta, figures, random_game, start, MoveFigures, Rng};
use choro_engine::bench::parse_list;
use choro_engine::search::Score;
use choro_engine::{Position, Variant};
use std::collections::HashSet;
use std::time::Instant;

fn arg<T: std::str::FromStr>(a: &[String], i: usize, what: &str) -> T {
    a.get(i)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("argument {i}: {what}"))
}

/// A candidate: where it came from and what its moves look like.
struct Cand {
    pos: Position,
    game: u64,
    ply: usize,
    len: usize,
    f: MoveFigures,
}

fn describe(c: &Cand) -> String {
    format!(
        "game {} ply {} of {}; {} moves ({} distinct), longest {} laps / {} drops, {} clockwise, {} decisions at most, {} counters",
        c.game,
        c.ply,
        c.len,
        c.f.moves,
        c.f.distinct,
        c.f.max_laps,
        c.f.max_drops,
        c.f.clockwise,
        c.f.max_decisions,
        c.pos.total_counters()
    )
}

fn bench_candidates(v: Variant, games: u64, seed: u64) {
    let mut all = Vec::new();
    for g in 0..games {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let main = v == Variant::Lango;
        let game = random_game(start(v, main), 1000, &mut rng);
        let len = game.len();
        for (ply, (p, _)) in game.into_iter().enumerate() {
            let f = figures(&p);
            // Positions with never-ending paths cost the full lap budget at
            // every visit: not for a speed benchmark.
            if f.moves == 0 || f.never_ending > 0 {
                continue;
            }
            // Nor a game decided within a few plies: its search is trivial.
            if !matches!(search(&p, 6).2, Some(Score::Cp(_))) {
                continue;
            }
            all.push(Cand {
                pos: p,
                game: g,
                ply,
                len,
                f,
            });
        }
    }
    let mut chosen: Vec<(&str, Position, String)> = Vec::new();
    let mut take = |why: &'static str, c: Option<&Cand>| {
        if let Some(c) = c {
            if !chosen.iter().any(|(_, p, _)| p.same_state(&c.pos)) {
                chosen.push((why, c.pos, describe(c)));
            }
        }
    };
    let frac = |c: &Cand| c.ply as f64 / c.len.max(1) as f64;
    // Phases, from games of typical length.
    take(
        "opening",
        all.iter()
            .filter(|c| c.ply == 2 + (c.game % 3) as usize && c.len > 20 && c.f.moves >= 4)
            .nth(1),
    );
    take(
        "middle game",
        all.iter()
            .filter(|c| (0.4..0.5).contains(&frac(c)) && c.len > 20 && c.f.moves >= 4)
            .nth(2),
    );
    take(
        "middle game",
        all.iter()
            .filter(|c| (0.55..0.65).contains(&frac(c)) && c.len > 20 && c.f.moves >= 4)
            .nth(5),
    );
    take(
        "end game",
        all.iter()
            .filter(|c| (0.85..0.95).contains(&frac(c)) && c.len > 20 && c.f.moves >= 3)
            .nth(3),
    );
    // The longest sowing seen (laps; Adjiboto: drops), and the most moves.
    if v.is_choro() {
        take(
            "long relay sowing",
            all.iter().max_by_key(|c| (c.f.max_laps, c.ply)),
        );
    } else {
        take(
            "long sowing",
            all.iter().max_by_key(|c| (c.f.max_drops, c.ply)),
        );
    }
    take("many moves", all.iter().max_by_key(|c| (c.f.moves, c.ply)));
    if v == Variant::Lango || v == Variant::Acholi {
        take(
            "many clockwise options",
            all.iter()
                .filter(|c| c.f.moves <= 400)
                .max_by_key(|c| (c.f.clockwise, c.ply)),
        );
        take(
            "many decisions in one move",
            all.iter()
                .filter(|c| c.f.moves <= 400)
                .max_by_key(|c| (c.f.max_decisions, c.ply)),
        );
    }
    println!(
        "# {v}: {} candidate positions from {games} random games (seed {seed})",
        all.len()
    );
    // Lango's sequential opening is won at once (B has no opening move).
    let mut starts = Vec::new();
    if v != Variant::Lango {
        starts.push(("start position", start(v, false)));
    }
    if v == Variant::Didinga {
        for w in [12, 16] {
            starts.push(("start position", Position::startpos(v, w).expect("width")));
        }
    }
    for (why, p) in starts {
        let f = figures(&p);
        println!(
            "id {v}-{}-start{}",
            p.width(),
            if p.phase().is_opening() { "" } else { "-main" }
        );
        println!("pos {p}");
        println!(
            "note {why}: {} moves, longest {} laps / {} drops, {} clockwise",
            f.moves, f.max_laps, f.max_drops, f.clockwise
        );
        println!();
    }
    if v == Variant::Didinga {
        // One middle game on the widest board (the generator's general loop).
        let mut rng = Rng::new(seed);
        let from = Position::startpos(v, 16).expect("width 16");
        let game = random_game(from, 1000, &mut rng);
        let n = game.len();
        let best = (n / 3..2 * n / 3).max_by_key(|&i| (figures(&game[i].0).moves, i));
        if let Some(i) = best {
            let p = game[i].0;
            let f = figures(&p);
            println!("id {v}-16-middle");
            println!("pos {p}");
            println!(
                "note middle game, 16 wide (the most moves in the middle third): ply {i} of {n}; {} moves, longest {} laps / {} drops",
                f.moves, f.max_laps, f.max_drops
            );
            println!();
        }
    }
    for (i, (why, p, text)) in chosen.iter().enumerate() {
        println!("id {}-{}", v, i + 1);
        println!("pos {p}");
        println!("note {why}: {text}");
        println!();
    }
}

fn search(p: &Position, depth: u32) -> (u64, f64, Option<Score>, String) {
    let t = Instant::now();
    let r = alphabeta(p, depth);
    let best = r.best.map_or("-".to_string(), |m| p.restyle(m).to_string());
    (r.nodes, t.elapsed().as_secs_f64(), r.score, best)
}

fn calibrate(file: &str, millis: f64) {
    let text = std::fs::read_to_string(file).expect("readable file");
    let list = parse_list(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    for b in list {
        let mut chosen = 1;
        for d in 1..=24 {
            let (nodes, secs, score, best) = search(&b.position, d);
            eprintln!(
                "{} depth {d}: {nodes} nodes {:.1} ms {score:?} {best}",
                b.id,
                secs * 1000.0
            );
            if secs * 1000.0 > millis * 2.0 {
                break;
            }
            chosen = d;
            if secs * 1000.0 > millis || matches!(score, Some(Score::Win(_) | Score::Loss(_))) {
                break;
            }
        }
        println!("{} {chosen}", b.id);
    }
}

fn openings(v: Variant, count: usize, plies: u32, seed: u64, main: bool, margin: i32) {
    let from = start(v, main);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0u64;
    while out.len() < count && tries < 100 * count as u64 {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(tries));
        tries += 1;
        let game = random_game(from, plies, &mut rng);
        let (p, _) = game[game.len() - 1];
        // Still going, both players with moves to make, not seen before,
        // and not already decided by a shallow search.
        if game.len() as u32 != plies + 1 || !p.has_legal_move() {
            continue;
        }
        let (_, _, score, _) = search(&p, 4);
        if !matches!(score, Some(Score::Cp(c)) if c.abs() <= margin) {
            continue;
        }
        if seen.insert(p.with_ply(0).hash()) {
            let line: Vec<String> = game
                .iter()
                .filter_map(|(q, m)| m.map(|m| q.restyle(m).to_string()))
                .collect();
            out.push((p, line.join(" "), score));
        }
    }
    for (p, line, score) in out {
        let s = score.map_or(String::new(), choro_engine::bench::score_text);
        // The remark on a line of its own: a harness sends a position
        // line as it is (PROTOCOL.md, `position fen`).
        println!("# {line}; depth 4: {s}");
        println!("{p}");
    }
}

/// Forced wins in positions of random games: the shortest win (in plies, at
/// most `max`) of the side to move, proven by the exhaustive solver, with
/// every first move that wins that fast. Positions where a win needs no
/// search (one move, or every move wins) are skipped.
fn find_wins(v: Variant, count: usize, max: u32, seed: u64) {
    let mut found = 0;
    let mut seen = HashSet::new();
    for g in 0..100_000u64 {
        if found >= count {
            break;
        }
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let game = random_game(start(v, v == Variant::Lango), 1000, &mut rng);
        // Late positions, where wins are near.
        for (back, (p, _)) in game.iter().rev().enumerate().skip(1).take(12) {
            if found >= count || !seen.insert(p.with_ply(0).hash()) {
                continue;
            }
            let moves = p.legal_moves();
            if moves.len() < 3 || moves.len() > 24 {
                continue;
            }
            let me = p.side_to_move();
            let Some(n) = (1..=max).step_by(2).find(|&n| p.forced_win(me, n)) else {
                continue;
            };
            let good: Vec<String> = moves
                .iter()
                .filter(|(_, c)| c.forced_win(me, n - 1))
                .map(|(m, _)| p.restyle(*m).to_string())
                .collect();
            // Only positions where finding the win takes a search: not a
            // win in one, and one or two of the moves win.
            if n < 3 || good.len() > 2 {
                continue;
            }
            println!("id {v}-win-{}", found + 1);
            println!("pos {p}");
            println!("win {n}");
            println!("best {}", good.join(" "));
            println!(
                "proof exhaustive {n}: every path searched; {me} wins in {n} plies and not in {}; the best moves are every first move of the {} that wins in {n}",
                n - 2,
                moves.len()
            );
            println!("note random game {g} of seed {seed}, {back} plies before its end");
            println!();
            found += 1;
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a.get(1).map(String::as_str) {
        Some("bench-candidates") => {
            bench_candidates(arg(&a, 2, "code"), arg(&a, 3, "games"), arg(&a, 4, "seed"))
        }
        Some("calibrate") => calibrate(&a[2], arg(&a, 3, "millis")),
        Some("bench") => {
            // Until `choro bench` is wired: the same run, the same lines.
            let opts = choro_engine::bench::BenchOptions {
                threads: a.get(2).map_or(1, |s| s.parse().expect("threads")),
                variant: a.get(3).map(|s| s.parse().expect("code")),
                ..Default::default()
            };
            let sum = choro_engine::bench::run(&opts, &mut |r| println!("{r}"));
            println!("{sum}");
        }
        Some("openings") => openings(
            arg(&a, 2, "code"),
            arg(&a, 3, "count"),
            arg(&a, 4, "plies"),
            arg(&a, 5, "seed"),
            a.get(6).is_some_and(|s| s == "main"),
            a.get(7).map_or(300, |s| s.parse().expect("margin")),
        ),
        Some("wins") => find_wins(
            arg(&a, 2, "code"),
            arg(&a, 3, "count"),
            arg(&a, 4, "max plies"),
            arg(&a, 5, "seed"),
        ),
        _ => eprintln!("usage: see the module documentation of bench/src/bin/positions.rs"),
    }
}
