//! The `choro` binary: the protocol on stdin/stdout (no arguments), and the
//! `perft`, `bench`, `playouts`, `match`, `replay`, `solve` and `merge` tools (PROTOCOL.md, "Command line").

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![deny(unsafe_op_in_unsafe_fn)]

mod alloc;

use choro::perft::{self, PerftRequest};
use choro::{bench, Server};
use choro_engine::Variant;
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "choro",
    version,
    about = "A game engine for Choro (Didinga, Lango, Acholi) and Adjiboto",
    long_about = "A game engine for the relay-sowing mancala games Choro (Didinga, Lango and \
                  Acholi rule codes) and Adjiboto. Without a command it speaks the UCI/UGI \
                  protocol on standard input and output (see PROTOCOL.md)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the move tree: one line per depth, then time and speed.
    Perft(PerftArgs),
    /// Fixed-depth search of the bench positions; last line `<N> nodes <M> nps`.
    Bench(BenchCli),
    /// Play engines against each other through the protocol (MATCH.md).
    Match(Box<choro_match::MatchArgs>),
    /// Re-play recorded games and verify every move and result (MATCH.md).
    Replay(choro_match::ReplayArgs),
    /// Prove a position's game-theoretic value (PROTOCOL.md, "choro solve").
    Solve(choro::solve::SolveArgs),
    /// Uniformly random games from a start position: results and rates.
    Playouts(choro::playouts::PlayoutsArgs),
    /// Put the part files of a split solve or match together (README.md, "Clusters").
    Merge(choro::merge::MergeArgs),
}

#[derive(clap::Args)]
struct BenchCli {
    /// Search depth for every position (default: each position's own depth).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Only this code's positions (default: all codes).
    #[arg(long, value_parser = ["didinga", "lango", "acholi", "adjiboto"])]
    variant: Option<String>,
    /// Search threads (1 gives the node-count signature).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// One JSON object per position, then a summary object.
    #[arg(long)]
    json: bool,
    /// Opening mode of start positions, as for every tool. The bench builds
    /// none: each bench position is an explicit position string (its start
    /// positions are written in phase o2), so both values search the same
    /// positions and give the same signature.
    #[arg(long, default_value = "simultaneous", value_parser = ["sequential", "simultaneous"])]
    #[allow(dead_code)]
    opening: String,
}

#[derive(clap::Args)]
struct PerftArgs {
    /// Deepest depth counted (every depth from 1 is reported).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=choro::command::MAX_PERFT as i64))]
    depth: u32,
    #[command(flatten)]
    start: choro::playouts::StartArgs,
    /// First the counts below each root move.
    #[arg(long)]
    divide: bool,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
}

fn perft_command(a: &PerftArgs) -> Result<(), String> {
    let pos = a.start.position()?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = None;
    perft::report(
        &pos,
        PerftRequest {
            depth: a.depth,
            divide: a.divide,
            json: a.json,
        },
        &mut |l| {
            if failed.is_none() {
                if let Err(e) = writeln!(out, "{l}").and_then(|()| out.flush()) {
                    failed = Some(e.to_string());
                }
            }
        },
    );
    failed.map_or(Ok(()), Err)
}

fn main() -> ExitCode {
    alloc::keep_large_blocks_mapped();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let mut server = match Server::new(io::stdout()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("choro: {e}");
                    return ExitCode::FAILURE;
                }
            };
            choro::run(io::stdin().lock(), &mut server);
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft(a)) => match perft_command(&a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("choro perft: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Match(a)) => choro_match::match_main(&a),
        Some(Cmd::Replay(a)) => choro_match::replay_main(&a),
        Some(Cmd::Solve(a)) => choro::solve::solve_main(&a),
        Some(Cmd::Playouts(a)) => choro::playouts::playouts_main(&a),
        Some(Cmd::Merge(a)) => choro::merge::merge_main(&a),
        Some(Cmd::Bench(a)) => {
            let args = bench::BenchArgs {
                depth: a.depth,
                variant: a.variant.as_deref().and_then(|v| v.parse::<Variant>().ok()),
                threads: Some(a.threads as usize),
                hash_mb: Some(a.hash as usize),
                json: a.json,
            };
            let stdout = io::stdout();
            let mut out = stdout.lock();
            match bench::run(&args, &mut |l| {
                let _ = writeln!(out, "{l}");
            }) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
