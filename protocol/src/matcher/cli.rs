//! The `choro match` and `choro replay` command lines (MATCH.md).

use super::engine::EngineSpec;
use super::openings::{self, OpeningPlan};
use super::output::{self, Live};
use super::referee::{Limits, Settings, TimeControl};
use super::replay;
use super::scheduler::{self, MatchConfig};
use super::stats::Sprt;
use choro_engine::{Opening, Variant};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `choro match`: play engines against each other and report.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    /// The first engine plays each of the others (default: round robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing; even, as games come in colour-swapped pairs.
    #[arg(long, default_value_t = 2)]
    pub games: u64,
    /// Rule code.
    #[arg(long, default_value = "didinga", value_parser = ["didinga", "lango", "acholi", "adjiboto"])]
    pub variant: String,
    /// Board width (Didinga: 8..16).
    #[arg(long)]
    pub columns: Option<u8>,
    /// Opening mode of the Choro codes (the engines' Opening option, and the
    /// start position: s2 or o2).
    #[arg(long, default_value = "simultaneous", value_parser = ["sequential", "simultaneous"])]
    pub opening: String,
    /// Openings file: one position string a line, '#' comments.
    #[arg(long)]
    pub openings: Option<String>,
    /// Without --openings: random legal openings of this many plies
    /// (default 4; 0 in the simultaneous opening without --random-blind,
    /// where the engines make the blind choices).
    #[arg(long, conflicts_with = "openings")]
    pub random_plies: Option<u32>,
    /// Simultaneous opening: random openings play random blind choices and
    /// race decisions to the end of the race, then --random-plies plies.
    #[arg(long, conflicts_with = "openings")]
    pub random_blind: bool,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time control base+increment in seconds, e.g. 10+0.1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds an engine may overrun its time before it forfeits.
    #[arg(long, default_value_t = 50)]
    pub margin: u64,
    /// Milliseconds a move may take when no time limit applies.
    #[arg(long, default_value_t = 60_000)]
    pub move_timeout: u64,
    /// Milliseconds for an engine's handshake and each isready.
    #[arg(long, default_value_t = 10_000)]
    pub start_timeout: u64,
    /// Milliseconds an engine past its deadline has to answer stop.
    #[arg(long, default_value_t = 1_000)]
    pub stop_grace: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The ply cap: a game reaching this many plies is a draw.
    #[arg(long, default_value_t = 1000)]
    pub draw_plies: u32,
    /// Stop early by the SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 2..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Write every game to this file (MATCH.md, "Game records").
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Write the JSON summary to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// The records' Event tag.
    #[arg(long, default_value = "choro match")]
    pub event: String,
    /// No live table on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// The words of each `--engine`, one list per occurrence. Written by hand:
/// clap's derive cannot keep occurrences apart without an unstable feature.
#[derive(Debug, Clone, Default)]
pub struct EngineArgs(pub Vec<Vec<String>>);

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
    pub files: Vec<PathBuf>,
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
pub fn config(a: &MatchArgs) -> Result<MatchConfig, String> {
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
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("--openings {path}: {e}"))?;
            openings::load_file(path, &text, variant, columns, opening, a.draw_plies)
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
    })
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
    let mut records = match &a.records {
        Some(p) => match File::create(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("choro match: --records {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let mut live = Live::new(std::io::stderr().is_terminal(), a.quiet);
    let mut write_failed = false;
    let result = scheduler::run(&cfg, &mut |played, tally| {
        if let Some(f) = &mut records {
            if let Err(e) = f
                .write_all(played.record.to_text().as_bytes())
                .and_then(|()| f.flush())
            {
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
    if let Some(p) = &a.json {
        let text =
            serde_json::to_string_pretty(&output::summary_json(&cfg, &summary)).unwrap_or_default();
        if let Err(e) = std::fs::write(p, text + "\n") {
            eprintln!("choro match: --json {}: {e}", p.display());
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
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("choro replay: {}: {e}", path.display());
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
