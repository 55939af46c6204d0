//! `choro playouts`: uniformly random games from a start position, as fast as
//! the generator plays them (PROTOCOL.md, "`choro playouts`").
//!
//! Each ply picks one of the legal move paths of the position with equal
//! probability (reservoir sampling over the generator's stream, as MCTS's
//! playouts do), and a game ends as [`Game::outcome`] ends it: no legal move
//! (or Adjiboto's store draw, or a drawn race), threefold repetition, or the
//! ply cap. Game `i` draws its numbers from its own generator, seeded from
//! `--seed` and `i`, so a `--games` run gives the same results whatever the
//! number of threads.

use choro_engine::search::Rng;
use choro_engine::threads::Crew;
use choro_engine::{DrawReason, Game, Move, Opening, Outcome, Position, Side, Variant, LAP_BUDGET};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `choro playouts`: random games from a start position, with their rates.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayoutsArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Number of games (default 1000 unless --seconds is given).
    #[arg(long, conflicts_with = "seconds", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Play for this many seconds instead of a number of games.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Threads playing games at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Seed of the games' random numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply cap: a game still going at this ply is drawn (the `DrawPlies` option).
    #[arg(long, default_value_t = choro_engine::rules::DEFAULT_DRAW_PLIES, value_parser = clap::value_parser!(u32).range(1..))]
    pub draw_plies: u32,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One random game's result and its counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Counters dropped by the generator on every path it produced (the
    /// work, as `perft` counts drops; where starts are tried one at a time,
    /// the paths of the starts tried).
    pub drops: u64,
    /// Laps and counters sown by the moves played.
    pub laps_played: u64,
    pub drops_played: u64,
    /// Hash of the last position (a fingerprint of the game).
    pub last_hash: u64,
}

/// Buffers one thread reuses from game to game.
#[derive(Default)]
pub struct Scratch {
    hashes: Vec<u64>,
    positions: Vec<Position>,
    /// Bit `h >> 54` set for every hash `h` in `hashes`: a position whose
    /// bit is clear has not occurred, without a scan of the game.
    seen: Vec<u64>,
}

/// The generator of game `index` of a run seeded `seed`.
pub fn game_rng(seed: u64, index: u64) -> Rng {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03));
    Rng::new(r.next_u64())
}

/// The `n`-th (from 0) lowest set bit of `x`, as a mask.
fn nth_bit(mut x: u32, n: usize) -> u32 {
    for _ in 0..n {
        x &= x - 1;
    }
    x & x.wrapping_neg()
}

/// Play one uniformly random game from `start`; with `record`, push every
/// move played to it.
pub fn play_game(
    start: &Position,
    draw_plies: u32,
    rng: &mut Rng,
    scratch: &mut Scratch,
    mut record: Option<&mut Vec<Move>>,
) -> GameResult {
    scratch.hashes.clear();
    scratch.positions.clear();
    scratch.seen.clear();
    scratch.seen.resize(16, 0);
    let mut pos = *start;
    let (mut drops, mut laps_played, mut drops_played) = (0u64, 0u64, 0u64);
    let mut plies = 0u32;
    let outcome = loop {
        // A position seen for the third time had legal moves each time, so
        // testing repetition before generating gives Game::outcome's order.
        let h = pos.hash();
        let (word, bit) = ((h >> 60) as usize, 1u64 << ((h >> 54) & 63));
        if scratch.seen[word] & bit != 0 {
            let seen = scratch
                .hashes
                .iter()
                .zip(&scratch.positions)
                .filter(|(&x, p)| x == h && p.same_state(&pos))
                .count();
            if seen >= 2 {
                break Outcome::Draw(DrawReason::Repetition);
            }
        }
        scratch.seen[word] |= bit;
        scratch.hashes.push(h);
        scratch.positions.push(pos);
        let mut chosen: Option<(Move, Position, u32, u32)> = None;
        if let Some(mut starts) = pos.single_move_starts() {
            // Each start is one move or none (a never-ending turn): try the
            // starts in a uniformly random order and play the first that is
            // a move, which is a uniform choice among the moves, without
            // making the other children.
            while starts != 0 && chosen.is_none() {
                let bit = nth_bit(starts, rng.below(starts.count_ones() as usize));
                starts &= !bit;
                let stats = pos.generate_from(bit, LAP_BUDGET, |m, c, info| {
                    chosen = Some((*m, *c, info.laps, info.drops));
                    false
                });
                drops += stats.drops;
            }
        } else {
            // Reservoir sampling over every move.
            let mut k = 0usize;
            let stats = pos.generate(LAP_BUDGET, |m, c, info| {
                k += 1;
                if rng.below(k) == 0 {
                    chosen = Some((*m, *c, info.laps, info.drops));
                }
                true
            });
            drops += stats.drops;
        }
        let Some((m, next, laps, dropped)) = chosen else {
            break pos.outcome().unwrap_or(Outcome::Win {
                winner: pos.side_to_move().other(),
            });
        };
        if pos.ply() >= draw_plies {
            break Outcome::Draw(DrawReason::PlyCap);
        }
        if let Some(r) = record.as_deref_mut() {
            r.push(pos.restyle(m));
        }
        laps_played += u64::from(laps);
        drops_played += u64::from(dropped);
        plies += 1;
        pos = next;
    };
    GameResult {
        outcome,
        plies,
        drops,
        laps_played,
        drops_played,
        last_hash: pos.hash(),
    }
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws_repetition: u64,
    pub draws_ply_cap: u64,
    pub draws_store: u64,
    pub draws_endless_race: u64,
    pub plies: u64,
    pub drops: u64,
    pub laps_played: u64,
    pub drops_played: u64,
    /// Sum of the games' last-position hashes (wrapping): equal runs give
    /// equal sums.
    pub fingerprint: u64,
}

impl Totals {
    fn add(&mut self, r: &GameResult) {
        self.games += 1;
        match r.outcome {
            Outcome::Win { winner: Side::A } => self.a_wins += 1,
            Outcome::Win { winner: Side::B } => self.b_wins += 1,
            Outcome::Draw(DrawReason::Repetition) => self.draws_repetition += 1,
            Outcome::Draw(DrawReason::PlyCap) => self.draws_ply_cap += 1,
            Outcome::Draw(DrawReason::Store) => self.draws_store += 1,
            Outcome::Draw(DrawReason::EndlessRace) => self.draws_endless_race += 1,
        }
        self.plies += u64::from(r.plies);
        self.drops += r.drops;
        self.laps_played += r.laps_played;
        self.drops_played += r.drops_played;
        self.fingerprint = self.fingerprint.wrapping_add(r.last_hash);
    }

    fn merge(&mut self, o: &Totals) {
        self.games += o.games;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.draws_repetition += o.draws_repetition;
        self.draws_ply_cap += o.draws_ply_cap;
        self.draws_store += o.draws_store;
        self.draws_endless_race += o.draws_endless_race;
        self.plies += o.plies;
        self.drops += o.drops;
        self.laps_played += o.laps_played;
        self.drops_played += o.drops_played;
        self.fingerprint = self.fingerprint.wrapping_add(o.fingerprint);
    }

    pub fn draws(&self) -> u64 {
        self.draws_repetition + self.draws_ply_cap + self.draws_store + self.draws_endless_race
    }
}

/// How many games a run plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Games(u64),
    Seconds(f64),
}

/// Play random games from `start` on `threads` threads; the totals and the
/// wall time. With `Amount::Games` the totals depend only on the seed.
pub fn run(
    start: &Position,
    amount: Amount,
    threads: usize,
    seed: u64,
    draw_plies: u32,
) -> (Totals, Duration) {
    let next = AtomicU64::new(0);
    let total = Mutex::new(Totals::default());
    let t0 = Instant::now();
    let deadline = match amount {
        Amount::Seconds(s) => Some(t0 + Duration::from_secs_f64(s.max(0.0))),
        Amount::Games(_) => None,
    };
    let limit = match amount {
        Amount::Games(n) => n,
        Amount::Seconds(_) => u64::MAX,
    };
    std::thread::scope(|s| {
        let mut crew = Crew::new();
        for _ in 0..threads.max(1) {
            crew.push(s.spawn(|| {
                let mut mine = Totals::default();
                let mut scratch = Scratch::default();
                loop {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= limit {
                        break;
                    }
                    let mut rng = game_rng(seed, i);
                    mine.add(&play_game(start, draw_plies, &mut rng, &mut scratch, None));
                }
                if let Ok(mut t) = total.lock() {
                    t.merge(&mine);
                }
            }));
        }
        crew.join();
    });
    let el = t0.elapsed();
    let t = total.into_inner().unwrap_or_else(|e| e.into_inner());
    (t, el)
}

/// The position a tool starts from (`choro perft`, `playouts`, `solve`).
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// Rule code of the start position.
    #[arg(long, default_value = "didinga", value_parser = ["didinga", "lango", "acholi", "adjiboto"])]
    pub variant: String,
    /// Board width (Didinga only: 8..16).
    #[arg(long, value_parser = clap::value_parser!(u8).range(8..=16))]
    pub columns: Option<u8>,
    /// Opening mode of the start position (Choro codes): simultaneous
    /// (phase s2: the blind starts, then the race) or sequential (phase o2).
    #[arg(long, default_value = "simultaneous", value_parser = ["sequential", "simultaneous"])]
    pub opening: String,
    /// Simultaneous opening: each racer's holds (RaceHolds, RULES.md 8.10;
    /// 0, the default, is the lockstep race).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=choro_engine::MAX_HOLDS as i64))]
    pub race_holds: u8,
    /// Start from this position string instead.
    #[arg(long, conflicts_with_all = ["variant", "columns", "opening", "race_holds"])]
    pub pos: Option<String>,
}

impl StartArgs {
    pub fn position(&self) -> Result<Position, String> {
        let p = start_position(
            self.pos.as_deref(),
            &self.variant,
            self.columns,
            &self.opening,
        )?;
        // Holds belong to a start in phase s2; sequential starts have none.
        Ok(match self.race_holds {
            0 => p,
            n => p.with_race_holds(n).unwrap_or(p),
        })
    }
}

/// The start position of a tool's command line: the position string `pos`,
/// or the start of `variant` on `columns` (default: the code's width) with
/// `opening` (`choro perft`, `choro playouts`, `choro solve`).
pub fn start_position(
    pos: Option<&str>,
    variant: &str,
    columns: Option<u8>,
    opening: &str,
) -> Result<Position, String> {
    match pos {
        Some(s) => s.parse().map_err(|e| format!("--pos: {e}")),
        None => {
            let v: Variant = variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let w = columns.unwrap_or(v.default_width());
            let o: Opening = opening.parse().map_err(|e| format!("--opening: {e}"))?;
            Position::start(v, w, o).map_err(|e| format!("--columns: {e}"))
        }
    }
}

fn rate(n: u64, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64().max(1e-9)
}

/// The report of a run, text or one JSON object.
pub fn report(
    start: &Position,
    t: &Totals,
    time: Duration,
    threads: usize,
    seed: u64,
    json: bool,
) -> String {
    let g = t.games.max(1) as f64;
    let mean = t.plies as f64 / g;
    if json {
        serde_json::json!({
            "type": "playouts",
            "position": start.to_string(),
            "variant": start.variant().name(),
            "columns": start.width(),
            "threads": threads,
            "seed": seed,
            "games": t.games,
            "a_wins": t.a_wins,
            "b_wins": t.b_wins,
            "draws": t.draws(),
            "draws_repetition": t.draws_repetition,
            "draws_ply_cap": t.draws_ply_cap,
            "draws_store": t.draws_store,
            "draws_endless_race": t.draws_endless_race,
            "plies": t.plies,
            "mean_plies": mean,
            "drops": t.drops,
            "laps_played": t.laps_played,
            "drops_played": t.drops_played,
            "fingerprint": format!("{:016x}", t.fingerprint),
            "time_ms": time.as_millis() as u64,
            "games_per_s": rate(t.games, time),
            "plies_per_s": rate(t.plies, time),
            "drops_per_s": rate(t.drops, time),
        })
        .to_string()
    } else {
        format!(
            "games {} A {} B {} draw {} (repetition {} ply-cap {} store {} endless-race {})\n\
             mean length {mean:.2} plies, {:.2} laps and {:.2} drops played per game\n\
             time {} ms games/s {:.0} plies/s {:.0} drops/s {:.0} (threads {threads}, seed {seed}, fingerprint {:016x})",
            t.games,
            t.a_wins,
            t.b_wins,
            t.draws(),
            t.draws_repetition,
            t.draws_ply_cap,
            t.draws_store,
            t.draws_endless_race,
            t.laps_played as f64 / g,
            t.drops_played as f64 / g,
            time.as_millis(),
            rate(t.games, time),
            rate(t.plies, time),
            rate(t.drops, time),
            t.fingerprint,
        )
    }
}

/// `choro playouts` from the command line.
pub fn playouts_main(a: &PlayoutsArgs) -> ExitCode {
    let start = match a.start.position() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("choro playouts: {e}");
            return ExitCode::from(2);
        }
    };
    let amount = match (a.games, a.seconds) {
        (_, Some(s)) if !(s.is_finite() && s > 0.0) => {
            eprintln!("choro playouts: --seconds must be a positive number");
            return ExitCode::from(2);
        }
        (_, Some(s)) => Amount::Seconds(s),
        (Some(n), None) => Amount::Games(n),
        (None, None) => Amount::Games(1000),
    };
    let threads = a.threads as usize;
    let (t, time) = run(&start, amount, threads, a.seed, a.draw_plies);
    let text = report(&start, &t, time, threads, a.seed, a.json);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// Replay a recorded random game through [`Game`] (for the tests).
pub fn replay_outcome(start: &Position, moves: &[Move], draw_plies: u32) -> Option<Outcome> {
    let mut g = Game::new(*start).with_draw_plies(draw_plies);
    for m in moves {
        // A game that ended before its last move is no game.
        if g.outcome().is_some() {
            return None;
        }
        g.play(m).ok()?;
    }
    g.outcome()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn starts() -> Vec<Position> {
        let mut v = Vec::new();
        for var in [
            Variant::Didinga,
            Variant::Lango,
            Variant::Acholi,
            Variant::Adjiboto,
        ] {
            for o in [Opening::Sequential, Opening::Simultaneous] {
                v.push(Position::start(var, var.default_width(), o).unwrap());
            }
        }
        v.push(Position::start(Variant::Didinga, 12, Opening::Sequential).unwrap());
        v
    }

    #[test]
    fn every_game_replays_through_the_rules_to_the_same_result() {
        for start in starts() {
            let mut scratch = Scratch::default();
            for i in 0..12 {
                // A small ply cap in some games reaches the cap's draw too.
                let cap = if i % 3 == 0 { 12 } else { 1000 };
                let mut moves = Vec::new();
                let r = play_game(
                    &start,
                    cap,
                    &mut game_rng(5, i),
                    &mut scratch,
                    Some(&mut moves),
                );
                assert_eq!(moves.len(), r.plies as usize);
                assert_eq!(
                    replay_outcome(&start, &moves, cap),
                    Some(r.outcome),
                    "{start} game {i}"
                );
            }
        }
    }

    /// Games that end by threefold repetition end so here as in the rules
    /// (`Game`): two positions from which random games often repeat.
    #[test]
    fn repetitions_end_games_as_in_the_rules() {
        for fen in [
            "didinga:8 0,0,0,0,1,0,0,0/2,1,0,0,1,1,0,0/0,1,0,1,0,0,0,0/0,2,1,0,1,0,0,0 a m 40",
            "acholi:8 0,0,0,0,1,0,0,0/0,1,0,3,1,0,0,0/0,0,0,1,0,0,0,0/1,0,1,0,0,2,1,0 a m 40",
        ] {
            let start: Position = fen.parse().unwrap();
            let mut scratch = Scratch::default();
            let mut repeated = 0;
            for i in 0..20 {
                let mut moves = Vec::new();
                let r = play_game(
                    &start,
                    1000,
                    &mut game_rng(7, i),
                    &mut scratch,
                    Some(&mut moves),
                );
                assert_eq!(
                    replay_outcome(&start, &moves, 1000),
                    Some(r.outcome),
                    "{fen} game {i}"
                );
                repeated += usize::from(r.outcome == Outcome::Draw(DrawReason::Repetition));
            }
            assert!(repeated >= 5, "{fen}: {repeated} of 20 games repeated");
        }
    }

    /// Where the starts are tried one at a time, the move played is still
    /// uniform over the legal moves: a Didinga position with four moves and
    /// a fifth start whose turn never ends (a cycle), 4,000 first moves.
    #[test]
    fn trying_starts_in_random_order_is_a_uniform_choice() {
        let p: Position =
            "didinga:8 1,2,0,1,3,1,2,1/0,2,0,1,1,4,0,0/1,5,0,5,1,8,3,0/3,0,1,2,1,5,4,6 b m 33"
                .parse()
                .unwrap();
        let legal: Vec<Move> = p.legal_moves().into_iter().map(|(m, _)| m).collect();
        assert_eq!(legal.len(), 4);
        let starts = p.single_move_starts().unwrap();
        assert_eq!(starts.count_ones(), 5, "one start is never-ending");
        let n = 4000;
        let mut counts = vec![0u32; legal.len()];
        let mut scratch = Scratch::default();
        for i in 0..n {
            let mut moves = Vec::new();
            // The ply cap ends the game after its first move.
            play_game(
                &p,
                p.ply() + 1,
                &mut game_rng(3, i),
                &mut scratch,
                Some(&mut moves),
            );
            let k = legal.iter().position(|m| *m == moves[0]).unwrap();
            counts[k] += 1;
        }
        // Each within five standard deviations of n / 4.
        let sd = (n as f64 * 0.25 * 0.75).sqrt();
        for c in &counts {
            assert!((*c as f64 - n as f64 / 4.0).abs() < 5.0 * sd, "{counts:?}");
        }
    }

    #[test]
    fn a_seed_gives_the_same_games_on_any_number_of_threads() {
        let start = Position::start(Variant::Acholi, 8, Opening::Sequential).unwrap();
        let (a, _) = run(&start, Amount::Games(40), 1, 9, 1000);
        let (b, _) = run(&start, Amount::Games(40), 1, 9, 1000);
        let (c, _) = run(&start, Amount::Games(40), 3, 9, 1000);
        let (d, _) = run(&start, Amount::Games(40), 1, 10, 1000);
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_ne!(a.fingerprint, d.fingerprint);
        assert_eq!(a.games, 40);
        assert_eq!(a.a_wins + a.b_wins + a.draws(), 40);
    }

    #[test]
    fn the_totals_are_the_sum_of_the_games() {
        let start = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
        let (t, _) = run(&start, Amount::Games(25), 1, 3, 1000);
        let mut want = Totals::default();
        let mut scratch = Scratch::default();
        for i in 0..25 {
            want.add(&play_game(
                &start,
                1000,
                &mut game_rng(3, i),
                &mut scratch,
                None,
            ));
        }
        assert_eq!(t, want);
    }

    #[test]
    fn json_report_has_every_field() {
        let start = Position::start(Variant::Adjiboto, 8, Opening::Sequential).unwrap();
        let (t, time) = run(&start, Amount::Games(10), 1, 1, 1000);
        let v: serde_json::Value =
            serde_json::from_str(&report(&start, &t, time, 1, 1, true)).unwrap();
        assert_eq!(v["type"], "playouts");
        assert_eq!(v["variant"], "adjiboto");
        assert_eq!(v["games"].as_u64(), Some(10));
        let sum = v["a_wins"].as_u64().unwrap()
            + v["b_wins"].as_u64().unwrap()
            + v["draws"].as_u64().unwrap();
        assert_eq!(sum, 10);
        assert_eq!(v["mean_plies"].as_f64().unwrap(), t.plies as f64 / 10.0);
        for k in ["games_per_s", "plies_per_s", "drops_per_s"] {
            assert!(v[k].as_f64().unwrap() > 0.0, "{k}");
        }
        assert_eq!(v["position"], start.to_string());
    }
}
