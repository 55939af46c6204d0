//! A small engine that misbehaves on purpose, for the tests of `choro
//! match`. It speaks enough of the protocol to play (handshake, options,
//! `position`, `isready`, `go`), always plays the first legal move, and at
//! its N-th `go` (counted per process, so a restarted engine fails again at
//! the same point) does what `--fault` says:
//!
//! - `none`: nothing, it plays on;
//! - `crash`: exits with status 3 without answering;
//! - `hang`: stops reading and answering for good (only a kill ends it);
//! - `slow`: sleeps `--sleep` ms before answering (it does not read `stop`
//!   meanwhile);
//! - `illegal`: answers a well-formed move the position does not allow;
//! - `malformed`: answers a move that cannot be read;
//! - `empty`: answers `bestmove` with no move;
//! - `null`: answers `bestmove 0000` while the game goes on;
//! - `exit-at-start`: exits at once, before any handshake.
//!
//! `--only uci|ugi` answers just that handshake; `--log FILE` appends every
//! line received, so tests can check what the runner sent.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use choro_engine::{MoveError, Opening, Position, Variant};
use std::fs::OpenOptions;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

struct Args {
    fault: String,
    at: u64,
    sleep_ms: u64,
    only: Option<String>,
    log: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        fault: "none".into(),
        at: 1,
        sleep_ms: 1000,
        only: None,
        log: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || it.next().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--fault" => a.fault = val()?,
            "--at" => a.at = val()?.parse().map_err(|_| "--at: not a number")?,
            "--sleep" => a.sleep_ms = val()?.parse().map_err(|_| "--sleep: not a number")?,
            "--only" => a.only = Some(val()?),
            "--log" => a.log = Some(val()?),
            _ => return Err(format!("unknown argument '{k}'")),
        }
    }
    Ok(a)
}

/// A well-formed move that the position refuses.
fn illegal_move(pos: &Position) -> String {
    let beyond = (pos.holes_per_side() + 1).min(32);
    let mut candidates = vec!["~1".to_string(), "x1".to_string(), beyond.to_string()];
    candidates.extend((1..=pos.holes_per_side()).map(|h| h.to_string()));
    candidates
        .into_iter()
        .find(|c| matches!(pos.parse_move(c), Err(MoveError::Illegal(_))))
        .unwrap_or_else(|| "32".to_string())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("choro-testengine: {e}");
            return ExitCode::from(2);
        }
    };
    if args.fault == "exit-at-start" {
        return ExitCode::from(4);
    }
    let mut log = args
        .log
        .as_ref()
        .and_then(|p| OpenOptions::new().create(true).append(true).open(p).ok());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let (mut variant, mut columns, mut opening) = (Variant::Didinga, 8u8, Opening::default());
    let mut pos = Position::start(variant, columns, opening).ok();
    let mut gos = 0u64;
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(f) = &mut log {
            let _ = writeln!(f, "{line}");
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some(hello @ ("ugi" | "uci")) => {
                if args.only.as_deref().is_some_and(|o| o != hello) {
                    say("info string error: unknown command");
                    continue;
                }
                say("id name choro-testengine");
                say("option name Variant type combo default didinga var didinga var lango var acholi var adjiboto");
                say("option name Columns type spin default 8 min 8 max 16");
                say("option name Opening type combo default simultaneous var sequential var simultaneous");
                say("option name DrawPlies type spin default 1000 min 1 max 1000000");
                say(&format!("{hello}ok"));
            }
            Some("isready") => say("readyok"),
            Some("quit") => break,
            Some("setoption") => {
                // setoption name <N> value <V>
                match (words.get(2), words.get(4)) {
                    (Some(n), Some(v)) if n.eq_ignore_ascii_case("variant") => {
                        variant = v.parse().unwrap_or(variant);
                    }
                    (Some(n), Some(v)) if n.eq_ignore_ascii_case("columns") => {
                        columns = v.parse().unwrap_or(columns);
                    }
                    (Some(n), Some(v)) if n.eq_ignore_ascii_case("opening") => {
                        opening = v.parse().unwrap_or(opening);
                    }
                    _ => {}
                }
            }
            Some("position") => {
                let (base, moves) = match line.find(" moves ") {
                    Some(i) => (&line[..i], line[i + 7..].split_whitespace().collect()),
                    None => (line.as_str(), Vec::new()),
                };
                let mut p = match base.strip_prefix("position fen ") {
                    Some(fen) => fen.parse().ok(),
                    None => Position::start(variant, columns, opening).ok(),
                };
                for m in moves {
                    p = p.and_then(|q| q.parse_move(m).ok().map(|(_, n)| n));
                }
                pos = p;
            }
            Some("go") => {
                gos += 1;
                let Some(p) = pos else {
                    say("bestmove 0000");
                    continue;
                };
                let first = p
                    .legal_moves()
                    .first()
                    .map(|(m, _)| p.restyle(*m).to_string());
                let first = first.unwrap_or_else(|| "0000".into());
                say("info depth 1 score cp 0 nodes 1 pv x");
                if gos != args.at {
                    say(&format!("bestmove {first}"));
                    continue;
                }
                match args.fault.as_str() {
                    "crash" => return ExitCode::from(3),
                    "hang" => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    "slow" => {
                        std::thread::sleep(Duration::from_millis(args.sleep_ms));
                        say(&format!("bestmove {first}"));
                    }
                    "illegal" => say(&format!("bestmove {}", illegal_move(&p))),
                    "malformed" => say("bestmove @!"),
                    "empty" => say("bestmove"),
                    "null" => say("bestmove 0000"),
                    _ => say(&format!("bestmove {first}")),
                }
            }
            _ => {}
        }
    }
    ExitCode::SUCCESS
}
