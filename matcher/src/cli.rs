//! The `choro match` and `choro replay` command lines (MATCH.md).

use crate::engine::EngineSpec;
use crate::openings::{self, OpeningPlan};
use crate::output::{self, Live};
use crate::record::{GameResult, Reason};
use crate::referee::Played;
use crate::referee::{Limits, Settings, TimeControl};
use crate::replay;
use crate::scheduler::{self, MatchConfig};
use crate::stats::{sprt_stop, Sprt};
use choro_engine::files::{self, Append, Replace};
use choro_engine::{Opening, Variant};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `choro match`: play engines against each other and report.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    pub(crate) engines: EngineArgs,
    /// The first engine plays each of the others (default: round robin).
    #[arg(long)]
    pub(crate) gauntlet: bool,
    /// Games per pairing; even, as games come in colour-swapped pairs.
    #[arg(long, default_value_t = 2)]
    pub(crate) games: u64,
    /// Rule code.
    #[arg(long, default_value = "didinga", value_parser = ["didinga", "lango", "acholi", "adjiboto"])]
    pub(crate) variant: String,
    /// Board width (Didinga: 8..16).
    #[arg(long)]
    pub(crate) columns: Option<u8>,
    /// Opening mode of the Choro codes (the engines' Opening option, and the
    /// start position: s2 or o2).
    #[arg(long, default_value = "simultaneous", value_parser = ["sequential", "simultaneous"])]
    pub(crate) opening: String,
    /// Openings file: one position string a line, '#' comments.
    #[arg(long)]
    pub(crate) openings: Option<String>,
    /// Without --openings: random legal openings of this many plies
    /// (default 4; 0 in the simultaneous opening without --random-blind,
    /// where the engines make the blind choices).
    #[arg(long, conflicts_with = "openings")]
    pub(crate) random_plies: Option<u32>,
    /// Simultaneous opening: random openings play random blind choices and
    /// race decisions to the end of the race, then --random-plies plies.
    #[arg(long, conflicts_with = "openings")]
    pub(crate) random_blind: bool,
    /// Simultaneous opening: each racer's holds (the engines' RaceHolds
    /// option and the start position's; 0, the default, is the lockstep
    /// race; RULES.md 8.10).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=choro_engine::MAX_HOLDS as i64))]
    pub(crate) race_holds: u8,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Time control base+increment in seconds, e.g. 10+0.1.
    #[arg(long)]
    pub(crate) tc: Option<String>,
    /// Fixed time per move, milliseconds.
    #[arg(long)]
    pub(crate) movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    pub(crate) depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub(crate) nodes: Option<u64>,
    /// Milliseconds an engine may overrun its time before it forfeits.
    #[arg(long, default_value_t = 50)]
    pub(crate) margin: u64,
    /// Milliseconds a move may take when no time limit applies.
    #[arg(long, default_value_t = 60_000)]
    pub(crate) move_timeout: u64,
    /// Milliseconds for an engine's handshake and each isready.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) start_timeout: u64,
    /// Milliseconds an engine past its deadline has to answer stop.
    #[arg(long, default_value_t = 1_000)]
    pub(crate) stop_grace: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub(crate) concurrency: usize,
    /// The ply cap: a game reaching this many plies is a draw.
    #[arg(long, default_value_t = 1000)]
    pub(crate) draw_plies: u32,
    /// Stop early by the SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 2..=4, value_name = "KEY=VALUE")]
    pub(crate) sprt: Option<Vec<String>>,
    /// Write every game to this file (MATCH.md, "Game records").
    #[arg(long)]
    pub(crate) records: Option<PathBuf>,
    /// Write the JSON summary to this file.
    #[arg(long)]
    pub(crate) json: Option<PathBuf>,
    /// The records' Event tag.
    #[arg(long, default_value = "choro match")]
    pub(crate) event: String,
    /// No live table on standard error.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Play only the K-th of N parts of the game pairs and write its games
    /// to the part file for `choro merge` (README.md, "Clusters").
    #[arg(long, value_name = "K/N")]
    pub(crate) job: Option<crate::parts::Job>,
    /// With --job: the part file (default match-K-of-N.jsonl).
    #[arg(long, requires = "job")]
    pub(crate) out: Option<PathBuf>,
    /// Check the command line and start every engine once (handshake and
    /// options), then stop: no game played, no file written.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// `choro match`'s options alone, to read a part file's settings back.
#[derive(clap::Parser, Debug)]
#[command(name = "choro match")]
struct MatchLine {
    #[command(flatten)]
    args: MatchArgs,
}

/// The words of each `--engine`, one list per occurrence. Written by hand:
/// clap's derive cannot keep occurrences apart without an unstable feature.
#[derive(Debug, Clone, Default)]
pub(crate) struct EngineArgs(pub(crate) Vec<Vec<String>>);

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineArgs(groups))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "One engine, as KEY=VALUE words: name=N cmd=PROGRAM [arg=A ...] \
                     [proto=ugi|uci] [option.X=Y ...]. Give --engine once per engine.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `choro replay`: re-play record files and verify every game.
#[derive(clap::Args, Debug, Clone)]
pub struct ReplayArgs {
    /// Record files written by `choro match`.
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
}

fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt: '{w}' is not key=value"))?;
        let x: f64 = v
            .parse()
            .map_err(|_| format!("--sprt: '{v}' is not a number"))?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => {
                return Err(format!(
                    "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta)"
                ))
            }
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0= and elo1=".into());
    };
    Sprt::new(e0, e1, alpha, beta).map_err(|e| format!("--sprt: {e}"))
}

/// Check the command line and turn it into a match.
pub(crate) fn config(a: &MatchArgs) -> Result<MatchConfig, String> {
    let variant: Variant = a.variant.parse().map_err(|e| format!("--variant: {e}"))?;
    let columns = a.columns.unwrap_or(variant.default_width());
    if !variant.widths().contains(&columns) {
        return Err(format!(
            "--columns {columns}: {variant} is played on {}..{} columns",
            variant.widths().start(),
            variant.widths().end()
        ));
    }
    let opening: Opening = a.opening.parse().map_err(|e| format!("--opening: {e}"))?;
    // Blind choices exist only in the simultaneous opening of a Choro code.
    let blind = variant.is_choro() && opening == Opening::Simultaneous;
    if a.random_blind && !blind {
        return Err(format!(
            "--random-blind: {variant} with the {opening} opening has no blind choices"
        ));
    }
    let random_plies = match a.random_plies {
        Some(n) if n > 0 && blind && !a.random_blind => {
            return Err(format!(
                "--random-plies {n}: random plies from the start of the simultaneous opening \
                 would fix the blind choices; add --random-blind (random blind choices and race \
                 decisions, then {n} plies), or use --opening sequential or --random-plies 0"
            ))
        }
        Some(n) => n,
        None if blind && !a.random_blind => 0,
        None => 4,
    };
    if a.draw_plies == 0 {
        return Err("--draw-plies must be at least 1".into());
    }
    let engines = a
        .engines
        .0
        .iter()
        .map(|w| EngineSpec::parse(w).map_err(|e| format!("--engine {}: {e}", w.join(" "))))
        .collect::<Result<Vec<_>, _>>()?;
    let limits = Limits {
        tc: a
            .tc
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(|e| format!("--tc: {e}"))?,
        movetime: a.movetime.map(Duration::from_millis),
        depth: a.depth,
        nodes: a.nodes,
    };
    let openings = match &a.openings {
        Some(path) => {
            let text = files::read_text(std::path::Path::new(path), openings::BOUNDS)
                .map_err(|e| format!("--openings {e}"))?;
            openings::load_file(
                path,
                &text,
                variant,
                columns,
                opening,
                a.race_holds,
                a.draw_plies,
            )
            .map_err(|e| format!("--openings: {e}"))?
        }
        None => OpeningPlan::Random {
            plies: random_plies,
            seed: a.seed,
            race: a.random_blind,
        },
    };
    if a.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    Ok(MatchConfig {
        engines,
        gauntlet: a.gauntlet,
        games: a.games,
        settings: Settings {
            event: a.event.clone(),
            variant,
            columns,
            opening,
            race_holds: a.race_holds,
            draw_plies: a.draw_plies,
            limits,
            margin: Duration::from_millis(a.margin),
            move_timeout: Duration::from_millis(a.move_timeout),
            start_timeout: Duration::from_millis(a.start_timeout),
            stop_grace: Duration::from_millis(a.stop_grace),
        },
        openings,
        concurrency: a.concurrency,
        sprt: a.sprt.as_deref().map(parse_sprt).transpose()?,
        part: a.job,
    })
}

/// The words after `choro match` without those that only say where this
/// run writes (`--job`, `--out`, `--records`, `--json`, `--quiet`,
/// `--dry-run`): the settings every part of a run shares.
fn settings_args() -> Vec<String> {
    let mut out = Vec::new();
    let mut args = std::env::args().skip_while(|a| a != "match").skip(1);
    while let Some(a) = args.next() {
        let name = a.split_once('=').map_or(a.as_str(), |(k, _)| k);
        match name {
            "--job" | "--out" | "--records" | "--json" if !a.contains('=') => {
                args.next();
            }
            "--job" | "--out" | "--records" | "--json" | "--quiet" | "--dry-run" => {}
            _ => out.push(a),
        }
    }
    out
}

/// A game as a part file holds it.
fn game_json(p: &Played, names: &[String]) -> serde_json::Value {
    serde_json::json!({
        "type": "match",
        "game": p.job.number,
        "pair": p.job.pair,
        "a": names[p.job.engines[0]],
        "b": names[p.job.engines[1]],
        "result": p.result.token(),
        "reason": p.reason.code(),
        "failed": p.failed.map(|e| names[e].clone()),
        "moves": p.record.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>(),
    })
}

/// A game read from a part file: result, reason, the engine that failed,
/// plies.
type PartGame = (GameResult, Reason, Option<usize>, u64);

/// A part's match settings read back: the words of its command line, as
/// `choro match` reads them.
fn part_args(settings: &serde_json::Value) -> Result<MatchArgs, String> {
    use clap::Parser;
    let words: Vec<String> = settings["args"]
        .as_array()
        .ok_or("the header has no match settings")?
        .iter()
        .map(|w| {
            w.as_str()
                .map(str::to_string)
                .ok_or("a setting is not a word")
        })
        .collect::<Result<_, _>>()?;
    let line = MatchLine::try_parse_from(std::iter::once("choro match".to_string()).chain(words))
        .map_err(|e| format!("the parts' match settings: {}", e.to_string().trim()))?;
    Ok(line.args)
}

/// What decides a match's games, option by option, as `(option, value)`:
/// everything but `--concurrency` (how many games run at once changes no
/// game) and where the output goes. Defaults are filled in, so a part that
/// spells out a default agrees with one that leaves it out.
fn meaning(cfg: &MatchConfig) -> Vec<(String, String)> {
    let ms = |d: Duration| format!("{} ms", d.as_millis());
    let s = &cfg.settings;
    let mut v = vec![("engines".to_string(), cfg.engines.len().to_string())];
    for (i, e) in cfg.engines.iter().enumerate() {
        let mut words = vec![format!("name={}", e.name), format!("cmd={}", e.cmd)];
        words.extend(e.args.iter().map(|a| format!("arg={a}")));
        words.push(format!(
            "proto={}",
            match e.proto {
                crate::engine::Proto::Ugi => "ugi",
                crate::engine::Proto::Uci => "uci",
            }
        ));
        words.extend(e.options.iter().map(|(k, x)| format!("option.{k}={x}")));
        v.push((
            format!("--engine (the {})", ordinal(i + 1)),
            words.join(" "),
        ));
    }
    v.push(("--gauntlet".into(), cfg.gauntlet.to_string()));
    v.push(("--games".into(), cfg.games.to_string()));
    v.push(("--variant".into(), s.variant.name().to_string()));
    v.push(("--columns".into(), s.columns.to_string()));
    v.push(("--opening".into(), s.opening.name().to_string()));
    match &cfg.openings {
        OpeningPlan::File { path, positions } => {
            let list: Vec<String> = positions
                .iter()
                .map(|(line, p)| format!("{line}: {p}"))
                .collect();
            v.push((
                "--openings".into(),
                format!("{path} ({} positions)", positions.len()),
            ));
            v.push(("the positions of --openings".into(), list.join("; ")));
        }
        OpeningPlan::Random { plies, seed, race } => {
            v.push(("--openings".into(), "none (random openings)".into()));
            v.push(("--random-plies".into(), plies.to_string()));
            v.push(("--random-blind".into(), race.to_string()));
            v.push(("--seed".into(), seed.to_string()));
        }
    }
    let l = &s.limits;
    let or_none = |o: Option<String>| o.unwrap_or_else(|| "none".into());
    v.push(("--tc".into(), or_none(l.tc.map(|t| t.to_string()))));
    v.push(("--movetime".into(), or_none(l.movetime.map(ms))));
    v.push(("--depth".into(), or_none(l.depth.map(|d| d.to_string()))));
    v.push(("--nodes".into(), or_none(l.nodes.map(|n| n.to_string()))));
    v.push(("--margin".into(), ms(s.margin)));
    v.push(("--move-timeout".into(), ms(s.move_timeout)));
    v.push(("--start-timeout".into(), ms(s.start_timeout)));
    v.push(("--stop-grace".into(), ms(s.stop_grace)));
    v.push(("--draw-plies".into(), s.draw_plies.to_string()));
    v.push((
        "--sprt".into(),
        or_none(cfg.sprt.map(|p| {
            format!(
                "elo0={} elo1={} alpha={} beta={}",
                p.elo0, p.elo1, p.alpha, p.beta
            )
        })),
    ));
    v
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The first option by which two parts' match settings differ in meaning,
/// as `--seed (4 against 3)`; none when they play the same games.
pub fn settings_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let cfg = |s: &serde_json::Value| part_args(s).and_then(|a| config(&a));
    let (ca, cb) = match (cfg(a), cfg(b)) {
        (Ok(ca), Ok(cb)) => (ca, cb),
        (Err(e), _) | (_, Err(e)) => return Some(format!("settings that cannot be read ({e})")),
    };
    let (ma, mb) = (meaning(&ca), meaning(&cb));
    ma.iter().zip(&mb).find(|(x, y)| x != y).map(|(x, y)| {
        if x.0 == y.0 {
            format!(
                "{} ({} against {})",
                x.0,
                crate::text::one_line(&x.1, 100),
                crate::text::one_line(&y.1, 100)
            )
        } else {
            // Lists of different shapes (other engines, another openings
            // plan): the first option where they part.
            format!("{} against {}", x.0, y.0)
        }
    })
}

/// `choro merge` of a match's parts: the match's own games and tally, fed
/// the parts' games in the order of their numbers (stopping where the SPRT
/// decides, as a match played one game at a time would), and the match's
/// own report. `json` gives the JSON summary instead.
pub fn merge_parts(
    parts: &[crate::parts::Part],
    json: bool,
    emit: &mut dyn FnMut(String),
) -> Result<(), String> {
    let mut cfg = config(&part_args(&parts[0].header["settings"])?)?;
    // The parts may have run different numbers of games at once (which
    // changes no game); the report gives the most any part ran.
    for part in &parts[1..] {
        let c = config(&part_args(&part.header["settings"])?)?;
        cfg.concurrency = cfg.concurrency.max(c.concurrency);
    }
    let pairings = scheduler::pairings(cfg.engines.len(), cfg.gauntlet);
    let jobs = scheduler::jobs(&cfg, &pairings)?;
    let pairs = jobs.last().map_or(0, |j| j.pair as usize);
    if parts[0].header["units"].as_u64() != Some(pairs as u64) {
        return Err(format!(
            "the parts count {} game pairs, their settings make {pairs}",
            parts[0].header["units"]
        ));
    }
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let engine = |v: &serde_json::Value| names.iter().position(|n| v.as_str() == Some(n));
    let mut games: Vec<Option<PartGame>> = vec![None; jobs.len()];
    for part in parts {
        let range = part.job.range(pairs);
        for r in &part.results {
            let at = |m: String| format!("{}: game {}: {m}", part.path.display(), r["game"]);
            let g = r["game"].as_u64().unwrap_or(0) as usize;
            let Some(job) = g.checked_sub(1).and_then(|i| jobs.get(i)) else {
                return Err(at("no such game in this match".into()));
            };
            if !range.contains(&(job.pair as usize - 1)) {
                return Err(at(format!("not a game of part {}", part.job)));
            }
            if r["pair"].as_u64() != Some(job.pair)
                || engine(&r["a"]) != Some(job.engines[0])
                || engine(&r["b"]) != Some(job.engines[1])
            {
                return Err(at("its pair or engines are not the match's".into()));
            }
            let result = r["result"]
                .as_str()
                .and_then(GameResult::parse)
                .ok_or_else(|| at(format!("bad result {}", r["result"])))?;
            let reason = r["reason"]
                .as_str()
                .and_then(Reason::parse)
                .ok_or_else(|| at(format!("bad reason {}", r["reason"])))?;
            let failed = match &r["failed"] {
                serde_json::Value::Null => None,
                v => Some(engine(v).ok_or_else(|| at(format!("bad engine {v}")))?),
            };
            let moves: Vec<&str> = r["moves"]
                .as_array()
                .ok_or_else(|| at("no moves".into()))?
                .iter()
                .map(|m| m.as_str().ok_or_else(|| at(format!("bad move {m}"))))
                .collect::<Result<_, _>>()?;
            // The result is re-derived from the moves, as `choro replay`
            // does from a record: a part's word is not taken for it.
            let game = replay::play_moves(
                job.opening.pos,
                cfg.settings.draw_plies,
                moves.iter().map(|m| (*m, None)),
            )
            .and_then(|game| replay::check_end(&game, result, reason, None).map(|()| game))
            .map_err(|e| at(format!("the moves do not give its result: {e}")))?;
            let loser = reason
                .is_failure()
                .then(|| job.engines[game.position().side_to_move().index()]);
            if failed != loser {
                return Err(at(format!(
                    "\"failed\" is {} but the engine that lost by {reason} is {}",
                    r["failed"],
                    loser.map_or("none".to_string(), |e| names[e].clone())
                )));
            }
            let plies = moves.len() as u64;
            if games[g - 1]
                .replace((result, reason, failed, plies))
                .is_some()
            {
                return Err(at("given twice".into()));
            }
        }
        if let Some(j) = jobs.iter().find(|j| {
            range.contains(&(j.pair as usize - 1)) && games[j.number as usize - 1].is_none()
        }) {
            return Err(format!(
                "{}: game {} of part {} is missing",
                part.path.display(),
                j.number,
                part.job
            ));
        }
    }
    let mut tally = scheduler::empty_tally(&cfg, pairings, jobs.len() as u64);
    let mut stopped_early = None;
    for (job, g) in jobs.iter().zip(&games) {
        let Some((result, reason, failed, plies)) = *g else {
            return Err(format!("game {} is in no part", job.number));
        };
        tally.add_game(job, result, reason, failed, plies);
        if let Some(d) = tally.sprt.and_then(|s| s.decision) {
            stopped_early = Some(sprt_stop(d));
            break;
        }
    }
    let summary = scheduler::MatchSummary {
        tally,
        elapsed: None,
        stopped_early,
    };
    if json {
        let text = serde_json::to_string_pretty(&output::summary_json(&cfg, &summary))
            .map_err(|e| e.to_string())?;
        emit(text);
    } else {
        output::report(&cfg, &summary).into_iter().for_each(emit);
    }
    Ok(())
}

/// The records, the part file and the summary of a match.
type MatchOutputs = (Option<Append>, Option<Replace>, Option<Replace>);

/// The files a match writes, found writable before any game (RELIABILITY.md
/// finding 28): the records, appended (earlier games stay); the part file
/// and the summary, which replace theirs only when the match was played.
fn match_outputs(a: &MatchArgs, cfg: &MatchConfig) -> Result<MatchOutputs, String> {
    let records = a
        .records
        .as_deref()
        .map(Append::open)
        .transpose()
        .map_err(|e| format!("--records {e}"))?;
    let part = cfg
        .part
        .map(|job| crate::parts::begin(a.out.as_deref(), "match", job))
        .transpose()?;
    let json = a
        .json
        .as_deref()
        .map(Replace::begin)
        .transpose()
        .map_err(|e| format!("--json {e}"))?;
    Ok((records, part, json))
}

/// `choro match`: exit status 0 when the match was played, 2 for a bad
/// command line or an engine that cannot play, 1 when records or the
/// summary could not be written.
pub fn match_main(a: &MatchArgs) -> ExitCode {
    let cfg = match config(a) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("choro match: {e}");
            return ExitCode::from(2);
        }
    };
    if a.dry_run {
        return match scheduler::check(&cfg) {
            Ok((pairings, jobs)) => {
                println!(
                    "match: {} games would be played{} ({} pairing{}); every engine started \
                     and took its options; nothing played (--dry-run)",
                    jobs.len(),
                    cfg.part.map_or(String::new(), |k| format!(" in part {k}")),
                    pairings.len(),
                    if pairings.len() == 1 { "" } else { "s" },
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("choro match: {e}");
                ExitCode::from(2)
            }
        };
    }
    let outputs = match_outputs(a, &cfg);
    let (mut records, part_file, json_file) = match outputs {
        Ok(o) => o,
        Err(e) => {
            eprintln!("choro match: {e}");
            return ExitCode::from(2);
        }
    };
    let mut live = Live::new(std::io::stderr().is_terminal(), a.quiet);
    let mut write_failed = false;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut part_games = Vec::new();
    let result = scheduler::run(&cfg, &mut |played, tally| {
        if cfg.part.is_some() {
            part_games.push((played.job.number, game_json(played, &names)));
        }
        if let Some(f) = &mut records {
            if let Err(e) = f.write(&played.record.to_text()) {
                write_failed = true;
                return Err(format!("writing the records: {e}"));
            }
        }
        live.update(played, tally);
        Ok(())
    });
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("choro match: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    for l in output::report(&cfg, &summary) {
        let _ = writeln!(out, "{l}");
    }
    let mut status = ExitCode::SUCCESS;
    if let (Some(job), Some(why)) = (cfg.part, &summary.stopped_early) {
        eprintln!("choro match: part {job} stopped early ({why}); no part file written");
        status = ExitCode::FAILURE;
    } else if let (Some(job), Some(part_file)) = (cfg.part, part_file) {
        part_games.sort_by_key(|g| g.0);
        let games: Vec<serde_json::Value> = part_games.into_iter().map(|g| g.1).collect();
        let pairs = cfg.games / 2 * summary.tally.pairings.len() as u64;
        let header = crate::parts::header(
            "match",
            job,
            pairs as usize,
            serde_json::json!({ "args": settings_args() }),
        );
        let path = part_file.path().to_path_buf();
        match crate::parts::write(part_file, &header, &games) {
            Ok(()) => {
                let _ = writeln!(
                    out,
                    "part {job}: {} games written to {}",
                    games.len(),
                    path.display()
                );
            }
            Err(e) => {
                eprintln!("choro match: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    if let Some(out) = json_file {
        let text =
            serde_json::to_string_pretty(&output::summary_json(&cfg, &summary)).unwrap_or_default();
        if let Err(e) = out.commit((text + "\n").as_bytes()) {
            eprintln!("choro match: --json {e}");
            status = ExitCode::FAILURE;
        }
    }
    if write_failed {
        status = ExitCode::FAILURE;
    }
    status
}

/// `choro replay`: exit status 0 when every game checks out, 1 on a
/// mismatch, 2 when a file cannot be read or parsed.
pub fn replay_main(a: &ReplayArgs) -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    let mut out = std::io::stdout().lock();
    for path in &a.files {
        let text = match files::read_text(path, replay::BOUNDS) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("choro replay: {e}");
                return ExitCode::from(2);
            }
        };
        match replay::replay_text(&text) {
            Ok(s) => {
                if a.files.len() > 1 {
                    let _ = writeln!(out, "{}:", path.display());
                }
                for l in s.lines() {
                    let _ = writeln!(out, "{l}");
                }
                if !s.mismatches.is_empty() {
                    status = ExitCode::FAILURE;
                }
            }
            Err(e) => {
                eprintln!("choro replay: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    status
}
