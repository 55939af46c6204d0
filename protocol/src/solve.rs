//! `choro solve` and the protocol's `solve`: the text and JSON reports of
//! the solver (PROTOCOL.md, "choro solve").

use choro_engine::files::Replace;
use choro_engine::solve::book::{line_entries, Book};
use choro_engine::solve::check::Checker;
use choro_engine::solve::classes::Tables;
use choro_engine::solve::frac::Frac;
use choro_engine::solve::holds::{is_race_node, LineStep, Play, RaceCell, Range};
use choro_engine::solve::reprove::Reprover;
use choro_engine::solve::retro::Graph;
use choro_engine::solve::store::Code;
use choro_engine::solve::{
    Algorithm, BlindSolution, HoldsSolution, Progress, Solution, SolveConfig, SolveLimits, Solver,
    Value,
};
use choro_engine::threads::Crew;
use choro_engine::{Move, Position, Side};
use choro_match::parts::{self, Job, Part};
use serde_json::{json, Value as Json};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// One progress line.
pub fn progress_line(p: &Progress) -> String {
    let mut s = String::from("progress");
    if let Some((k, n)) = p.cell {
        s.push_str(&format!(" cell {k}/{n}"));
    }
    s.push_str(&format!(
        " plies {} nodes {} nps {} proven {} hashfull {} time {:.1} bounds {}",
        p.plies,
        p.nodes,
        p.nps,
        p.proven,
        p.hashfull,
        p.elapsed.as_secs_f64(),
        p.bounds
    ));
    s
}

/// A progress report as one JSON object.
pub fn progress_json(p: &Progress) -> serde_json::Value {
    json!({
        "type": "progress",
        "cell": p.cell.map(|(k, n)| [k, n]),
        "plies": p.plies,
        "nodes": p.nodes,
        "nps": p.nps,
        "proven": p.proven,
        "hashfull": p.hashfull,
        "time_ms": p.elapsed.as_millis() as u64,
        "bounds": p.bounds,
    })
}

/// Run `work` with progress at a steady pace. The solver reports between
/// the nodes of its searches (`report`, given to `work`), and each report
/// is printed at once; but some of a solve's phases report nothing (a
/// cell's result put together, the exact distance after df-pn, the matrix
/// game), so a ticker thread also prints, whenever no line has come for
/// `every` and a little (a quarter of it, at most 100 ms: the solver's own
/// report, due at `every`, comes first when it comes), the last report
/// again with its time advanced (its counts are the last ones known). A
/// line so comes at least that often, through every phase. `print` is
/// called from both threads, one call at a time.
pub fn with_pace<T>(
    every: Duration,
    print: &(dyn Fn(&Progress) + Sync),
    work: impl FnOnce(&mut dyn FnMut(&Progress)) -> T,
) -> T {
    struct Pace {
        /// The last report and when it came.
        last: Option<(Progress, Instant)>,
        /// When the last line was printed.
        printed: Instant,
        done: bool,
    }
    let started = Instant::now();
    let pace = Mutex::new(Pace {
        last: None,
        printed: started,
        done: false,
    });
    let wake = Condvar::new();
    let lock = || pace.lock().unwrap_or_else(|e| e.into_inner());
    std::thread::scope(|scope| {
        let mut crew = Crew::new();
        crew.push(scope.spawn(|| {
            let mut g = lock();
            let quiet = every + (every / 4).min(Duration::from_millis(100));
            while !g.done {
                let due = g.printed + quiet;
                let now = Instant::now();
                if now < due {
                    g = wake
                        .wait_timeout(g, due - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    continue;
                }
                let p = match &g.last {
                    Some((p, at)) => Progress {
                        elapsed: p.elapsed + now.duration_since(*at),
                        ..p.clone()
                    },
                    None => Progress {
                        plies: 0,
                        nodes: 0,
                        nps: 0,
                        proven: 0,
                        hashfull: 0,
                        elapsed: now.duration_since(started),
                        bounds: 0,
                        cell: None,
                    },
                };
                print(&p);
                g.printed = now;
            }
        }));
        let mut report = |p: &Progress| {
            let mut g = lock();
            let now = Instant::now();
            g.last = Some((p.clone(), now));
            g.printed = now;
            print(p);
        };
        let out = work(&mut report);
        lock().done = true;
        wake.notify_all();
        crew.join();
        out
    })
}

/// `win 19`, `loss 4`, `draw`, or `unknown` with the bounds proven (and
/// `winwithin N` / `losswithin N` when a win or loss is proven whose exact
/// distance is not).
pub fn value_text(s: &Solution) -> String {
    match s.value {
        Some(v) => v.to_string(),
        None => {
            let mut t = format!(
                "unknown nowin {} noloss {}",
                s.nowin_within, s.noloss_within
            );
            if let Some(n) = s.win_within {
                t.push_str(&format!(" winwithin {n}"));
            }
            if let Some(n) = s.loss_within {
                t.push_str(&format!(" losswithin {n}"));
            }
            t
        }
    }
}

/// The value as the protocol's score: `win N`, `loss N`, `draw`.
pub fn value_word(v: Value) -> (&'static str, Option<u32>) {
    match v {
        Value::Win(n) => ("win", Some(n)),
        Value::Loss(n) => ("loss", Some(n)),
        Value::Draw => ("draw", None),
    }
}

/// The report lines of a solved (or bounded) position.
pub fn solution_lines(pos: &Position, s: &Solution) -> Vec<String> {
    let mut out = vec![format!(
        "value {} for {}",
        value_text(s),
        pos.side_to_move()
    )];
    if !s.pv.is_empty() {
        let pv: Vec<String> = s.pv.iter().map(|m| m.to_string()).collect();
        out.push(format!("pv {}", pv.join(" ")));
    }
    out.push(format!(
        "nodes {} proven {} time {:.2}",
        s.nodes,
        s.proven,
        s.elapsed.as_secs_f64()
    ));
    out
}

/// The solution as one JSON object.
pub fn solution_json(pos: &Position, s: &Solution) -> serde_json::Value {
    let (word, plies) = match s.value {
        Some(v) => {
            let (w, n) = value_word(v);
            (w, n)
        }
        None => ("unknown", None),
    };
    json!({
        "type": "solution",
        "position": pos.to_string(),
        "side": pos.side_to_move().to_string(),
        "value": word,
        "plies": plies,
        "nowin_within": s.nowin_within,
        "noloss_within": s.noloss_within,
        "win_within": s.win_within,
        "loss_within": s.loss_within,
        "pv": s.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "nodes": s.nodes,
        "proven": s.proven,
        "time_ms": s.elapsed.as_millis() as u64,
    })
}

/// A cell's value for A: `+1`, `0`, `-1`, or a range like `-1..+1`.
fn range_text((lo, hi): (i8, i8)) -> String {
    if lo == hi {
        format!("{lo:+}")
    } else {
        format!("{lo:+}..{hi:+}")
    }
}

/// The report lines of a solved blind position: each cell, the matrix of
/// values for A, the value and both equilibrium strategies.
pub fn blind_lines(b: &BlindSolution) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in b.a_starts.iter().enumerate() {
        for (j, bm) in b.b_starts.iter().enumerate() {
            let c = &b.cells[i][j];
            let side = b.positions[i][j].side_to_move();
            out.push(format!(
                "cell {a} {bm} for A {} value {} for {side} nodes {} position {}",
                range_text(b.for_a[i][j]),
                value_text(c),
                c.nodes,
                b.positions[i][j]
            ));
        }
    }
    let width = b
        .a_starts
        .iter()
        .chain(&b.b_starts)
        .map(|m| m.to_string().len())
        .max()
        .unwrap_or(1)
        .max(6);
    let mut head = format!("matrix {:>width$}", "A\\B");
    for m in &b.b_starts {
        head.push_str(&format!(" {:>width$}", m.to_string()));
    }
    out.push(head);
    for (i, a) in b.a_starts.iter().enumerate() {
        let mut row = format!("matrix {:>width$}", a.to_string());
        for c in &b.for_a[i] {
            row.push_str(&format!(" {:>width$}", range_text(*c)));
        }
        out.push(row);
    }
    match &b.equilibrium {
        Some(eq) => {
            out.push(format!("value {:.4} for A (exact)", eq.value));
            out.push(format!("strategy A {}", strategy(&b.a_starts, &eq.row)));
            out.push(format!("strategy B {}", strategy(&b.b_starts, &eq.col)));
        }
        None => out.push(format!(
            "value between {:.4} and {:.4} for A (cells unsolved)",
            b.value_lo, b.value_hi
        )),
    }
    out.push(format!(
        "nodes {} time {:.2}",
        b.nodes,
        b.elapsed.as_secs_f64()
    ));
    out
}

fn strategy(moves: &[Move], p: &[f64]) -> String {
    let parts: Vec<String> = moves
        .iter()
        .zip(p)
        .filter(|(_, &x)| x > 1e-9)
        .map(|(m, x)| format!("{m}:{x:.4}"))
        .collect();
    parts.join(" ")
}

/// The blind solution as one JSON object.
pub fn blind_json(pos: &Position, b: &BlindSolution) -> serde_json::Value {
    let cells: Vec<serde_json::Value> = b
        .cells
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter().enumerate().map(move |(j, c)| {
                let p = &b.positions[i][j];
                let mut v = solution_json(p, c);
                v["a"] = json!(b.a_starts[i].to_string());
                v["b"] = json!(b.b_starts[j].to_string());
                v["for_a"] = json!([b.for_a[i][j].0, b.for_a[i][j].1]);
                v
            })
        })
        .collect();
    json!({
        "type": "blind",
        "position": pos.to_string(),
        "a_starts": b.a_starts.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "b_starts": b.b_starts.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "cells": cells,
        "exact": b.equilibrium.is_some(),
        "value_lo": b.value_lo,
        "value_hi": b.value_hi,
        "a_strategy": b.equilibrium.as_ref().map(|e| e.row.clone()),
        "b_strategy": b.equilibrium.as_ref().map(|e| e.col.clone()),
        "nodes": b.nodes,
        "time_ms": b.elapsed.as_millis() as u64,
    })
}

/// The arguments of `choro solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub start: crate::playouts::StartArgs,
    /// Solver threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Memory of the solver's tables, in MiB (with pns: half the table of
    /// facts, a quarter each proof-number table).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub hash: u64,
    /// The proving search: ab (iterative-deepening alpha-beta) or pns
    /// (df-pn for the value, then alpha-beta for the exact distance).
    #[arg(long, default_value_t = Algorithm::default())]
    pub algorithm: Algorithm,
    /// pns only: prove only this player's win (a or b), every thread on
    /// it; where he does not win the value is left a range (PROTOCOL.md).
    #[arg(long, value_name = "a|b", value_parser = parse_attacker)]
    pub attacker: Option<Side>,
    /// Stop after this many seconds (whole solve), reporting the bounds proven.
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Stop after this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Deepest iteration, in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4094))]
    pub plies: Option<u32>,
    /// Save file: facts proven are appended as they are proven and loaded
    /// again by a later run with the same file (resume).
    #[arg(long)]
    pub save: Option<std::path::PathBuf>,
    /// Seconds between progress reports.
    #[arg(long, default_value_t = 1.0, value_parser = parse_seconds)]
    pub progress: f64,
    /// Check the value by a second method: retrograde analysis of every
    /// position reachable, up to this many (per cell in a blind solve).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub retro: Option<u64>,
    /// Check every win or loss proven by a second method within this many
    /// nodes: the plain checker (`solve::check`) confirms that the winner
    /// forces an end within the distance (or the bound) reported, trying
    /// his moves in the order of the solver's proof, and, for an exact
    /// distance, that he does not force it sooner.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub check: Option<u64>,
    /// The plain check's memory of the positions it has decided, in MiB:
    /// when full it forgets those that cost it the least (more nodes, the
    /// same answer). Also bounds a resumed draw's retrograde check.
    #[arg(long, value_name = "MB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub check_hash: u64,
    /// Write what was proven as a book (positions/solved/README.md): the
    /// root or every cell, and the positions along best play.
    #[arg(long)]
    pub book: Option<std::path::PathBuf>,
    /// JSON objects, one a line, instead of text.
    #[arg(long)]
    pub json: bool,
    /// Solve only the K-th of N parts (the blind cells, or subtrees below
    /// them when there are fewer than N) and write them to the part file
    /// for `choro merge` (README.md, "Clusters").
    #[arg(long, value_name = "K/N", conflicts_with_all = ["book", "retro"])]
    pub job: Option<Job>,
    /// With --job: the part file (default solve-K-of-N.jsonl).
    #[arg(long, requires = "job")]
    pub out: Option<std::path::PathBuf>,
    /// Check the command line (the position, and with --job the part's
    /// units), then stop: nothing solved, no file written.
    #[arg(long)]
    pub dry_run: bool,
    /// Adjiboto, pns: first build the retrograde tables of every main-phase
    /// position with at most this many counters in play (SOLVED.md
    /// "Adjiboto by counters in play"; 16: about a minute and 0.6 GB, each
    /// counter more about 1.6 times both), and let the proof-number search
    /// settle every position they hold by its value.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=MAX_TABLES as i64))]
    pub tables: Option<u32>,
}

/// The largest `--tables`: 22 counters in play take about 7.5 GB and half an
/// hour of a core (SOLVED.md).
pub const MAX_TABLES: u32 = 22;

/// The book entries of a solved position: it and its line of best play.
fn book_of(pos: &Position, s: &Solution, book: &mut Book) -> Result<(), String> {
    if let Some(v) = s.value {
        for e in line_entries(pos, v, &s.pv)? {
            book.insert(e);
        }
    }
    Ok(())
}

/// Write `book` with the provenance header over the file `out` replaces,
/// when it holds an entry; otherwise the file stays as it was, and the
/// message says so.
fn write_book(out: Replace, header: &[String], book: &Book) -> Result<Option<String>, String> {
    if book.is_empty() {
        let what = if out.path().exists() {
            "left as it was"
        } else {
            "not written"
        };
        return Ok(Some(format!(
            "--book {}: nothing proven to put in it, {what}",
            out.path().display()
        )));
    }
    let mut text = String::new();
    text.push_str("# choro book of solved positions (format: positions/solved/README.md)\n");
    for h in header {
        text.push_str(&format!("# {h}\n"));
    }
    text.push_str(&format!("# finished {}\n", unix_time()));
    for e in book.entries() {
        text.push_str(&Book::line(e));
        text.push('\n');
    }
    out.commit(text.as_bytes())?;
    Ok(None)
}

/// Write the book of a run, if it asked for one: an error, or a message
/// when the old file was kept, on standard error; false on an error.
fn book_out(out: Option<Replace>, header: &[String], book: &Book, tool: &str) -> bool {
    let Some(out) = out else {
        return true;
    };
    match write_book(out, header, book) {
        Ok(None) => true,
        Ok(Some(note)) => {
            eprintln!("{tool}: {note}");
            true
        }
        Err(e) => {
            eprintln!("{tool}: --book {e}");
            false
        }
    }
}

/// The book and the part file of a `choro solve`, begun (RELIABILITY.md
/// finding 28: found writable before the work).
fn solve_outputs(a: &SolveArgs) -> Result<(Option<Replace>, Option<Replace>), String> {
    let book = a
        .book
        .as_deref()
        .map(Replace::begin)
        .transpose()
        .map_err(|e| format!("--book {e}"))?;
    let part = a
        .job
        .map(|job| parts::begin(a.out.as_deref(), "solve", job))
        .transpose()?;
    Ok((book, part))
}

/// The plain checker's node budget for the values of a resumed solve when
/// `--check` does not give one (SOLVED.md, "Save files").
pub const RESUME_CHECK: u64 = 1_000_000;

/// The limits of a plain check: nodes (`--check`) and the bytes of its
/// memo (`--check-hash`).
#[derive(Copy, Clone)]
struct CheckBudget {
    nodes: u64,
    memory: usize,
}

impl CheckBudget {
    fn of(a: &SolveArgs, nodes: u64) -> CheckBudget {
        CheckBudget {
            nodes,
            memory: (a.check_hash as usize).saturating_mul(1 << 20),
        }
    }

    /// The positions a retrograde check may hold: the node budget, and no
    /// more than the memory holds at about the bytes of a position, its
    /// index entry and its moves.
    fn states(self) -> u64 {
        let per = std::mem::size_of::<Position>() + 80;
        self.nodes.min((self.memory / per) as u64)
    }
}

fn parse_attacker(s: &str) -> Result<Side, String> {
    match s {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(format!("'{s}' is not a player (a, b)")),
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(t > 0.0 && t <= 1e9) {
        return Err(format!("{s}: seconds must be above 0 and at most 1e9"));
    }
    Ok(t)
}

/// Why the protocol's `solve` refuses races with holds: their ticks'
/// choices are matrix games, which its alpha-beta solve does not value
/// (it would read them as plies in turn, B seeing A's choice); `choro
/// solve` values them (`Solver::solve_holds`).
pub const HOLDS_UNSOLVED: &str = "the protocol's solve does not value a race with holds: each \
     tick's choice is a 2x2 matrix game over both racers' choices (RULES.md 8.10); choro solve \
     values it";

/// What `choro solve` does not do with holds.
pub const HOLDS_OPTIONS: &str = "--job, --book and --retro are not available with holds: a \
     race's cells are valued in one run (its leaves' facts kept by --save), their values are \
     fractions that no book line holds, and the retrograde analysis reads a tick's two choices \
     as plies in turn";

/// The position a `choro solve` command names.
fn solve_position(a: &SolveArgs) -> Result<Position, String> {
    let pos = a.start.position()?;
    if pos.phase() == choro_engine::Phase::RaceOver || !pos.has_legal_move() {
        return Err(format!(
            "the game is over in this position ({}): nothing to solve",
            pos.outcome()
                .map_or("no legal move".to_string(), |o| o.to_string())
        ));
    }
    if with_holds(&pos) && (a.job.is_some() || a.book.is_some() || a.retro.is_some()) {
        return Err(HOLDS_OPTIONS.to_string());
    }
    if a.tables.is_some() && pos.variant() != choro_engine::Variant::Adjiboto {
        return Err("--tables is for Adjiboto: the tables value its main phase".to_string());
    }
    if a.attacker.is_some() && a.algorithm != Algorithm::Pns {
        return Err(
            "--attacker needs --algorithm pns: alpha-beta proves both players' wins at once"
                .to_string(),
        );
    }
    if a.tables.is_some() && a.algorithm != Algorithm::Pns {
        return Err(
            "--tables needs --algorithm pns: only the proof-number search reads them".to_string(),
        );
    }
    Ok(pos)
}

/// The solver of a `choro solve` command line (its save file's header
/// names the command and `root`), and its limits.
fn solver_of(
    a: &SolveArgs,
    pos: &Position,
    root: String,
) -> Result<(SolveConfig, Solver, SolveLimits), String> {
    let command: Vec<String> = std::env::args().collect();
    let tables = match a.tables {
        Some(k) => {
            let started = std::time::Instant::now();
            let t = Tables::build(k, &AtomicBool::new(false), &mut |_| {})?;
            eprintln!(
                "tables: every Adjiboto main-phase position with at most {k} counters in play, built in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            Some(std::sync::Arc::new(t))
        }
        None => None,
    };
    let config = SolveConfig {
        tables,
        threads: a.threads as usize,
        hash_mb: a.hash as usize,
        attacker: a.attacker,
        algorithm: a.algorithm,
        save: a.save.clone().map(|p| (p, Code::of(pos))),
        header: vec![
            format!(
                "choro {} (commit {}) solve: {}",
                env!("CARGO_PKG_VERSION"),
                choro_match::COMMIT,
                command.join(" ")
            ),
            root,
            format!("started {}", unix_time()),
        ],
    };
    let solver = Solver::new(&config)?;
    let limits = SolveLimits {
        plies: a.plies,
        nodes: a.nodes,
        time: a.time.map(Duration::from_secs_f64),
    };
    Ok((config, solver, limits))
}

/// `choro solve`: exit 0 with the value or the bounds proven, 2 on bad
/// input (nothing written), 1 when the solve itself failed.
pub fn solve_main(a: &SolveArgs) -> ExitCode {
    let pos = match solve_position(a) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("choro solve: {e}");
            return ExitCode::from(2);
        }
    };
    // A part's units are checked before the solver opens the save file.
    let split = match a.job.map(|job| units(&pos, job.n).map(|u| (job, u))) {
        Some(Err(e)) => {
            eprintln!("choro solve: {e}");
            return ExitCode::from(2);
        }
        Some(Ok(s)) => Some(s),
        None => None,
    };
    if a.dry_run {
        match &split {
            Some((job, units)) => {
                let r = job.range(units.len());
                println!(
                    "solve {pos} part {job}: units {}..{} of {}; nothing solved (--dry-run)",
                    r.start + 1,
                    r.end,
                    units.len()
                );
            }
            None => println!("solve {pos}: nothing solved (--dry-run)"),
        }
        return ExitCode::SUCCESS;
    }
    // The files this run writes, found writable before any work.
    let outputs = solve_outputs(a);
    let (book_file, part_file) = match outputs {
        Ok(o) => o,
        Err(e) => {
            eprintln!("choro solve: {e}");
            return ExitCode::from(2);
        }
    };
    let root = match a.job {
        Some(job) => format!("root {pos}, part {job}"),
        None => format!("root {pos}"),
    };
    let (config, solver, limits) = match solver_of(a, &pos, root) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("choro solve: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(note) = solver.save_note() {
        eprintln!("choro solve: {note}");
    }
    if let (Some((job, units)), Some(out)) = (split, part_file) {
        return solve_part(a, &pos, job, &units, &solver, &limits, out);
    }
    let stop = AtomicBool::new(false);
    let every = Duration::from_secs_f64(a.progress);
    let stdout = io::stdout();
    let tty = stdout.is_terminal() && !a.json;
    let bar = tty.then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    let mut emit = |l: String| {
        let mut out = stdout.lock();
        let _ = writeln!(out, "{l}").and_then(|()| out.flush());
    };
    let resumed = solver.saved_positions() > 0;
    if !a.json {
        emit(format!("solve {pos}"));
        if resumed {
            emit(format!(
                "resumed {} positions from the save file",
                solver.saved_positions()
            ));
        }
    }
    let print = |p: &Progress| match &bar {
        Some(b) => {
            if let Some((k, n)) = p.cell {
                b.set_length(n as u64);
                b.set_position(k as u64 - 1);
                b.set_style(
                    indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} cells {msg}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
            }
            b.set_message(progress_line(p));
        }
        None if a.json => emit(progress_json(p).to_string()),
        None => emit(progress_line(p)),
    };
    // The plain check: asked for, or of a value that rests on a save file.
    let check_budget = a
        .check
        .or(resumed.then_some(RESUME_CHECK))
        .map(|n| CheckBudget::of(a, n));
    let blind = pos.phase().is_blind();
    let status = if with_holds(&pos) {
        match with_pace(every, &print, |progress| {
            solver.solve_holds(&pos, &limits, &stop, every, progress)
        }) {
            Ok(h) => {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                let report = if a.json {
                    vec![holds_json(&pos, &h).to_string()]
                } else {
                    holds_lines(&h)
                };
                // A fresh run reports its values at once, then checks (the
                // checks of hundreds of leaves take long; they name the
                // leaves not confirmed, then sum up); a resumed one checks
                // first and reports nothing it refutes.
                if !resumed {
                    report.into_iter().for_each(&mut emit);
                    match check_budget {
                        Some(budget) => check_leaves(&solver, &h, budget, &mut emit),
                        None => true,
                    }
                } else {
                    let mut checks = Vec::new();
                    let checked = match check_budget {
                        Some(budget) => check_leaves(&solver, &h, budget, &mut |l| checks.push(l)),
                        None => true,
                    };
                    if !checked {
                        return refuted(&checks, a);
                    }
                    report.into_iter().for_each(&mut emit);
                    checks.into_iter().for_each(&mut emit);
                    checked
                }
            }
            Err(e) => {
                eprintln!("choro solve: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else if blind {
        match with_pace(every, &print, |progress| {
            solver.solve_blind(&pos, &limits, &stop, every, progress)
        }) {
            Ok(b) => {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                let report = if a.json {
                    vec![blind_json(&pos, &b).to_string()]
                } else {
                    blind_lines(&b)
                };
                // A fresh run reports the matrix at once and checks its
                // cells after; a resumed one checks first, each cell's lines
                // as its check ends (a long check so shows how far it has
                // come), and reports nothing its check refutes.
                if !resumed {
                    report.iter().cloned().for_each(&mut emit);
                }
                let mut checked = true;
                if let Some(budget) = check_budget {
                    for (i, row) in b.positions.iter().enumerate() {
                        for (j, c) in row.iter().enumerate() {
                            let cell = format!("cell {} {}", b.a_starts[i], b.b_starts[j]);
                            let s = &b.cells[i][j];
                            checked &= plain_check(&solver, c, s, budget, &cell, &mut emit);
                            if resumed {
                                checked &= resumed_draw_check(c, s, budget, &cell, &mut emit);
                            }
                        }
                    }
                }
                if resumed && !checked {
                    return refuted(&[], a);
                }
                if resumed {
                    report.into_iter().for_each(&mut emit);
                }
                let mut book = Book::default();
                for (i, row) in b.positions.iter().enumerate() {
                    for (j, c) in row.iter().enumerate() {
                        if let Err(e) = book_of(c, &b.cells[i][j], &mut book) {
                            eprintln!("choro solve: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
                if checked && !book_out(book_file, &config.header, &book, "choro solve") {
                    return ExitCode::FAILURE;
                }
                checked
                    && match a.retro {
                        Some(max) => {
                            let mut ok = true;
                            for (i, row) in b.positions.iter().enumerate() {
                                for (j, c) in row.iter().enumerate() {
                                    let cell = format!("cell {} {}", b.a_starts[i], b.b_starts[j]);
                                    ok &= retro_check(c, &b.cells[i][j], max, &cell, &mut emit);
                                }
                            }
                            ok
                        }
                        None => true,
                    }
            }
            Err(e) => {
                eprintln!("choro solve: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        match with_pace(every, &print, |progress| {
            solver.solve(&pos, &limits, &stop, every, progress)
        }) {
            Ok(s) => {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                let mut checks = Vec::new();
                let checked = match check_budget {
                    Some(budget) => {
                        let mut push = |l| checks.push(l);
                        plain_check(&solver, &pos, &s, budget, "root", &mut push)
                            && (!resumed || resumed_draw_check(&pos, &s, budget, "root", &mut push))
                    }
                    None => true,
                };
                if resumed && !checked {
                    return refuted(&checks, a);
                }
                if a.json {
                    emit(solution_json(&pos, &s).to_string());
                } else {
                    solution_lines(&pos, &s).into_iter().for_each(&mut emit);
                }
                let mut book = Book::default();
                if let Err(e) = book_of(&pos, &s, &mut book) {
                    eprintln!("choro solve: {e}");
                    return ExitCode::FAILURE;
                }
                if checked && !book_out(book_file, &config.header, &book, "choro solve") {
                    return ExitCode::FAILURE;
                }
                checks.into_iter().for_each(&mut emit);
                checked
                    && match a.retro {
                        Some(max) => retro_check(&pos, &s, max, "root", &mut emit),
                        None => true,
                    }
            }
            Err(e) => {
                eprintln!("choro solve: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    if !a.json {
        emit(format!(
            "threads {} hash {} MiB algorithm {}{}",
            a.threads,
            solver.table_bytes() >> 20,
            a.algorithm,
            a.attacker
                .map_or(String::new(), |w| format!(" attacker {}", w.letter()))
        ));
    }
    if let Some(e) = solver.save_error() {
        eprintln!("choro solve: save file: {e}");
        return ExitCode::FAILURE;
    }
    if status {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A resumed solve whose value the plain check found wrong: the checks not
/// yet printed and an error, no value, no book; exit status 1.
fn refuted(checks: &[String], a: &SolveArgs) -> ExitCode {
    let mut out = io::stdout().lock();
    for l in checks {
        let _ = writeln!(out, "{l}");
    }
    let save = a
        .save
        .as_deref()
        .map_or(String::new(), |p| format!(" {}", p.display()));
    eprintln!(
        "choro solve: the value rests on the save file{save}, and the plain check found it \
         wrong: the file holds a wrong fact; no value reported (solve again with a new file; \
         SOLVED.md, \"Save files\")"
    );
    ExitCode::FAILURE
}

/// A draw of a resumed solve, checked by retrograde analysis within
/// `budget` positions; false when it is not a draw.
fn resumed_draw_check(
    pos: &Position,
    s: &Solution,
    budget: CheckBudget,
    what: &str,
    emit: &mut dyn FnMut(String),
) -> bool {
    if s.value != Some(Value::Draw) {
        return true;
    }
    retro_check(pos, s, budget.states(), what, emit)
}

/// Whether `choro solve` values `pos` as a race with holds: a blind start
/// with holds, or a race with a hold left.
fn with_holds(pos: &Position) -> bool {
    pos.phase().is_blind() && pos.race_holds() > 0 || is_race_node(pos)
}

/// The plain check of every leaf a solve with holds proved a win or loss
/// of (a draw is not the plain checker's: a leaf's draw rests on df-pn or
/// alpha-beta alone, as a cell's does without holds). One line per leaf
/// not confirmed, then the counts; false when a leaf is found wrong.
fn check_leaves(
    solver: &Solver,
    h: &HoldsSolution,
    budget: CheckBudget,
    emit: &mut dyn FnMut(String),
) -> bool {
    let (mut confirmed, mut unchecked, mut wrong, mut draws, mut open) = (0, 0, 0, 0, 0);
    let mut nodes = 0;
    for (k, l) in h.leaves.iter().enumerate() {
        let s = &l.solution;
        if s.value == Some(Value::Draw) {
            draws += 1;
            continue;
        }
        if s.range().0 != s.range().1 {
            open += 1;
            continue;
        }
        let mut lines = Vec::new();
        let what = format!("leaf {}", k + 1);
        let ok = plain_check(solver, &l.pos, s, budget, &what, &mut |x| lines.push(x));
        for x in &lines {
            if let Some(n) = x.strip_prefix(&format!("check {what} nodes ")) {
                nodes += n.parse::<u64>().unwrap_or(0);
            }
        }
        let all = lines
            .iter()
            .filter(|x| x.contains(" within "))
            .all(|x| x.ends_with(": confirmed"));
        if !ok {
            wrong += 1;
        } else if all {
            confirmed += 1;
            continue;
        } else {
            unchecked += 1;
        }
        emit(format!("check {what} position {}", l.pos));
        lines.into_iter().for_each(&mut *emit);
    }
    emit(format!(
        "check leaves {} wins and losses: {confirmed} confirmed, {unchecked} not checked \
         (budget), {wrong} wrong; {draws} draws (not the checker's), {open} open; checker \
         nodes {nodes}",
        confirmed + unchecked + wrong
    ));
    wrong == 0
}

/// A fraction of the value's report: `+1`, `-1/3`, and `+0` as `0`.
fn frac_text(f: Frac) -> String {
    if f == Frac::ZERO {
        "0".into()
    } else {
        f.to_string()
    }
}

/// A probability: `1/3`, `1`, `0`.
fn prob_text(f: Frac) -> String {
    if f.is_integer() {
        f.numer().to_string()
    } else {
        format!("{}/{}", f.numer(), f.denom())
    }
}

/// A cell's value for A: `+1/3`, or a range `-1..+1`.
fn race_range_text(r: &Range) -> String {
    match r.value() {
        Some(v) => frac_text(v),
        None => format!("{}..{}", frac_text(r.lo), frac_text(r.hi)),
    }
}

/// How a race's first node is played: a tick's two drop probabilities,
/// or a chooser's move.
fn play_text(pos: &Position, play: &Play) -> String {
    match play {
        Play::None if !is_race_node(pos) => "no hold left".into(),
        Play::None => "open".into(),
        Play::Tick { a_drop, b_drop } => format!(
            "tick {} A drops {} B drops {}",
            pos.race().map_or(0, |r| r.tick),
            prob_text(*a_drop),
            prob_text(*b_drop)
        ),
        Play::Choose(i) => {
            let m = pos
                .legal_moves()
                .get(*i)
                .map_or("?".to_string(), |(m, _)| m.to_string());
            format!("{} plays {m}", pos.side_to_move())
        }
    }
}

/// A cell's pure line: `A holds 3, B holds 5, mixed 7 (A drops 1/2, B
/// drops 2/3)`, or `..., open from 9` where an open leaf leaves the
/// choices unknown; `none` when nobody holds on it.
fn line_text(c: &RaceCell) -> String {
    let parts: Vec<String> = c
        .line
        .iter()
        .map(|s| match s {
            LineStep::Hold { tick, side } => format!("{side} holds {tick}"),
            LineStep::Open { tick } => format!("open from {tick}"),
            LineStep::Mixed {
                tick,
                a_drop,
                b_drop,
            } => format!(
                "mixed {tick} (A drops {}, B drops {})",
                prob_text(*a_drop),
                prob_text(*b_drop)
            ),
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn frac_strategy(moves: &[Move], p: &[Frac]) -> String {
    let parts: Vec<String> = moves
        .iter()
        .zip(p)
        .filter(|(_, &x)| x != Frac::ZERO)
        .map(|(m, &x)| format!("{m}:{}", prob_text(x)))
        .collect();
    parts.join(" ")
}

/// The report lines of a solve with holds: each cell (its value for A, its
/// first choice, its line), the matrix, the value and strategies.
pub fn holds_lines(h: &HoldsSolution) -> Vec<String> {
    let mut out = Vec::new();
    let blind = !h.a_starts.is_empty();
    for (i, row) in h.cells.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            let p = &h.positions[i][j];
            let name = if blind {
                format!("cell {} {}", h.a_starts[i], h.b_starts[j])
            } else {
                "race".to_string()
            };
            out.push(format!(
                "{name} for A {} first {} line {} race {} leaves {} nodes {} position {p}",
                race_range_text(&c.range),
                play_text(p, &c.play),
                line_text(c),
                c.race_nodes,
                c.leaves,
                c.nodes
            ));
        }
    }
    if blind {
        let width = h
            .a_starts
            .iter()
            .chain(&h.b_starts)
            .map(|m| m.to_string().len())
            .chain(
                h.cells
                    .iter()
                    .flatten()
                    .map(|c| race_range_text(&c.range).len()),
            )
            .max()
            .unwrap_or(1)
            .max(6);
        let mut head = format!("matrix {:>width$}", "A\\B");
        for m in &h.b_starts {
            head.push_str(&format!(" {:>width$}", m.to_string()));
        }
        out.push(head);
        for (i, a) in h.a_starts.iter().enumerate() {
            let mut row = format!("matrix {:>width$}", a.to_string());
            for c in &h.cells[i] {
                row.push_str(&format!(" {:>width$}", race_range_text(&c.range)));
            }
            out.push(row);
        }
        match (&h.equilibrium, &h.exact) {
            (_, Some(x)) => {
                out.push(format!(
                    "value {:.4} for A (exact: {}, both strategies certified in fractions)",
                    x.value.to_f64(),
                    frac_text(x.value)
                ));
                out.push(format!("strategy A {}", frac_strategy(&h.a_starts, &x.row)));
                out.push(format!("strategy B {}", frac_strategy(&h.b_starts, &x.col)));
            }
            (Some(eq), None) => {
                out.push(format!(
                    "value {:.4} for A (cells exact; the game's solution not certified in \
                     fractions)",
                    eq.value
                ));
                out.push(format!("strategy A {}", strategy(&h.a_starts, &eq.row)));
                out.push(format!("strategy B {}", strategy(&h.b_starts, &eq.col)));
            }
            (None, None) => out.push(format!(
                "value between {:.4} and {:.4} for A (cells unsolved)",
                h.value_lo, h.value_hi
            )),
        }
    } else {
        let c = &h.cells[0][0];
        match c.range.value() {
            Some(v) => out.push(format!("value {} for A (exact)", frac_text(v))),
            None => out.push(format!(
                "value between {} and {} for A (leaves unsolved)",
                frac_text(c.range.lo),
                frac_text(c.range.hi)
            )),
        }
    }
    let open = h
        .leaves
        .iter()
        .filter(|l| l.solution.range().0 != l.solution.range().1)
        .count();
    out.push(format!(
        "leaves {} proven {} open {open} race nodes {} nodes {} time {:.2}",
        h.leaves.len(),
        h.leaves.len() - open,
        h.race_nodes,
        h.nodes,
        h.elapsed.as_secs_f64()
    ));
    out
}

/// A solve with holds as one JSON object.
pub fn holds_json(pos: &Position, h: &HoldsSolution) -> serde_json::Value {
    let blind = !h.a_starts.is_empty();
    let cells: Vec<serde_json::Value> = h
        .cells
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter().enumerate().map(move |(j, c)| {
                let p = &h.positions[i][j];
                let (a_drop, b_drop) = match &c.play {
                    Play::Tick { a_drop, b_drop } => {
                        (Some(prob_text(*a_drop)), Some(prob_text(*b_drop)))
                    }
                    _ => (None, None),
                };
                json!({
                    "a": blind.then(|| h.a_starts[i].to_string()),
                    "b": blind.then(|| h.b_starts[j].to_string()),
                    "position": p.to_string(),
                    "for_a": [frac_text(c.range.lo), frac_text(c.range.hi)],
                    "exact": c.range.value().is_some(),
                    "first": play_text(p, &c.play),
                    "a_drop": a_drop,
                    "b_drop": b_drop,
                    "line": line_text(c),
                    "race_nodes": c.race_nodes,
                    "leaves": c.leaves,
                    "nodes": c.nodes,
                })
            })
        })
        .collect();
    let open = h
        .leaves
        .iter()
        .filter(|l| l.solution.range().0 != l.solution.range().1)
        .count();
    json!({
        "type": "holds",
        "position": pos.to_string(),
        "a_starts": h.a_starts.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "b_starts": h.b_starts.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "cells": cells,
        "exact": h.exact.as_ref().map(|x| frac_text(x.value)),
        "value_lo": h.value_lo,
        "value_hi": h.value_hi,
        "a_strategy": h.exact.as_ref().map(|x| x.row.iter().map(|f| prob_text(*f)).collect::<Vec<_>>()),
        "b_strategy": h.exact.as_ref().map(|x| x.col.iter().map(|f| prob_text(*f)).collect::<Vec<_>>()),
        "leaves": h.leaves.len(),
        "open_leaves": open,
        "race_nodes": h.race_nodes,
        "nodes": h.nodes,
        "time_ms": h.elapsed.as_millis() as u64,
    })
}

/// Check a win or loss by the plain checker, its moves ordered by the
/// solver's proof; false when the checker finds it wrong.
fn plain_check(
    solver: &Solver,
    pos: &Position,
    s: &Solution,
    budget: CheckBudget,
    what: &str,
    emit: &mut dyn FnMut(String),
) -> bool {
    let me = pos.side_to_move();
    let (winner, within, exact) = match (s.value, s.win_within, s.loss_within) {
        (Some(Value::Win(d)), _, _) => (me, d, true),
        (Some(Value::Loss(d)), _, _) => (me.other(), d, true),
        (None, Some(d), _) => (me, d, false),
        (None, _, Some(d)) => (me.other(), d, false),
        _ => return true,
    };
    // The solver's proof where its tables still hold it, else fresh proofs
    // below the positions where it was lost (`solve::reprove`).
    let fresh = Reprover::new();
    let order = |c: &Position, w: choro_engine::Side| match solver.proof_order(c, w) {
        u32::MAX => fresh.order(c, w),
        d => d,
    };
    let prepare = |p: &Position, w: choro_engine::Side, plies: u32, most: u64| {
        fresh.prepare(p, w, plies, most)
    };
    let mut checker = Checker::new(budget.nodes)
        .with_memory(budget.memory)
        .with_order(&order)
        .with_prepare(&prepare);
    let mut verdict = |plies: u32, want: bool| match checker.forces(pos, winner, plies) {
        Ok(b) if b == want => "confirmed".to_string(),
        Ok(_) => "WRONG".to_string(),
        Err(e) => e.to_string(),
    };
    let first = verdict(within, true);
    let mut ok = first != "WRONG";
    emit(format!(
        "check {what} {winner} wins within {within}: {first}"
    ));
    if exact && within > 0 {
        let second = verdict(within - 1, false);
        ok &= second != "WRONG";
        emit(format!(
            "check {what} {winner} does not win within {}: {second}",
            within - 1
        ));
    }
    let (proofs, nodes) = fresh.searched();
    if nodes > 0 {
        emit(format!(
            "check {what} order from {proofs} fresh proofs, {nodes} of its nodes"
        ));
    }
    emit(format!("check {what} nodes {}", checker.nodes()));
    ok
}

/// Check a solution by retrograde analysis; false when they disagree.
fn retro_check(
    pos: &Position,
    s: &Solution,
    max: u64,
    what: &str,
    emit: &mut dyn FnMut(String),
) -> bool {
    let stop = AtomicBool::new(false);
    match Graph::analyse(pos, max as usize, &stop) {
        Ok(g) => {
            let v = g.root_value();
            let agrees = s.value.is_none_or(|sv| sv == v)
                && match v {
                    Value::Win(n) => s.nowin_within < n,
                    Value::Loss(n) => s.noloss_within < n,
                    Value::Draw => true,
                };
            emit(format!(
                "retro {what} value {v} positions {} moves {} {}",
                g.len(),
                g.edges(),
                if agrees { "agrees" } else { "DISAGREES" }
            ));
            agrees
        }
        Err(e) => {
            emit(format!("retro {what} not run: {e}"));
            true
        }
    }
}

/// The time now in UTC, as `2026-11-24 06:50:00 UTC`.
fn unix_time() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, secs) = ((t / 86_400) as i64, t % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// One unit of a split solve: a blind cell, or the root, or a subtree
/// below either, named by the moves that lead to it.
#[derive(Clone, Debug)]
pub struct Unit {
    /// The blind cell it lies in (A's start, B's start), at a blind root.
    pub cell: Option<(usize, usize)>,
    /// The moves from the cell (or the root) to the unit's position.
    pub path: Vec<Move>,
    pub pos: Position,
}

/// The units of a solve split into `n` parts: at a blind root its cells,
/// row by row, otherwise the root itself; while there are fewer units than
/// parts, every unit whose game goes on is replaced by its children, in the
/// order of `legal_moves`. The same root and `n` always give the same list.
pub fn units(root: &Position, n: u64) -> Result<Vec<Unit>, String> {
    let mut units = match choro_engine::blind::BlindGame::of(root) {
        Some(bg) => {
            let mut v = Vec::new();
            for (i, row) in bg.cells.iter().enumerate() {
                for (j, p) in row.iter().enumerate() {
                    v.push(Unit {
                        cell: Some((i, j)),
                        path: Vec::new(),
                        pos: *p,
                    });
                }
            }
            v
        }
        None => vec![Unit {
            cell: None,
            path: Vec::new(),
            pos: *root,
        }],
    };
    // A level of single replies adds no unit; 64 levels bound the walk.
    let mut levels = 0;
    while (units.len() as u64) < n {
        let mut next = Vec::new();
        let mut grew = false;
        for u in &units {
            let children = if u.pos.phase() == choro_engine::Phase::RaceOver {
                Vec::new()
            } else {
                u.pos.legal_moves()
            };
            if children.is_empty() {
                next.push(u.clone());
                continue;
            }
            grew = true;
            for (m, p) in children {
                let mut path = u.path.clone();
                path.push(m);
                next.push(Unit {
                    cell: u.cell,
                    path,
                    pos: p,
                });
            }
        }
        levels += 1;
        if !grew || levels > 64 {
            return Err(format!(
                "--job: this solve has only {} parts to give, not {n}",
                units.len()
            ));
        }
        units = next;
    }
    Ok(units)
}

/// What decides a split solve's results: the root and the limits.
fn solve_settings(a: &SolveArgs, pos: &Position) -> Json {
    let mut s = json!({
        "root": pos.to_string(),
        "plies": a.plies,
        "nodes": a.nodes,
        "time": a.time,
        "threads": a.threads,
        "hash": a.hash,
        "algorithm": a.algorithm.to_string(),
    });
    // Only when given: the parts of a run without it read as before.
    if let Some(who) = a.attacker {
        s["attacker"] = json!(who.letter().to_string());
    }
    s
}

fn moves_json(ms: &[Move]) -> Vec<String> {
    ms.iter().map(|m| m.to_string()).collect()
}

/// `choro solve --job K/N`: solve this part's units one after another
/// (limits apply to each), report each, write the part file.
fn solve_part(
    a: &SolveArgs,
    pos: &Position,
    job: Job,
    units: &[Unit],
    solver: &Solver,
    limits: &SolveLimits,
    out: Replace,
) -> ExitCode {
    // The plain check of each unit, as in a whole solve: asked for, or of a
    // value that rests on a save file.
    let resumed = solver.saved_positions() > 0;
    let check_budget = a
        .check
        .or(resumed.then_some(RESUME_CHECK))
        .map(|n| CheckBudget::of(a, n));
    let stop = AtomicBool::new(false);
    let every = Duration::from_secs_f64(a.progress);
    let range = job.range(units.len());
    // On a terminal the progress is a bar over the part's units, the
    // report lines printed above it.
    let bar = (io::stdout().is_terminal() && !a.json).then(|| {
        let b = indicatif::ProgressBar::new(range.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} units {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    let emit = |l: String| match &bar {
        Some(b) => b.println(l),
        None => {
            let mut o = io::stdout().lock();
            let _ = writeln!(o, "{l}").and_then(|()| o.flush());
        }
    };
    if !a.json {
        emit(format!(
            "solve {pos} part {job}: units {}..{} of {}",
            range.start + 1,
            range.end,
            units.len()
        ));
    }
    let mut results = Vec::new();
    for u in range.clone() {
        let unit = &units[u];
        let print = |p: &Progress| match &bar {
            Some(b) => b.set_message(progress_line(p)),
            None if a.json => emit(progress_json(p).to_string()),
            None => emit(progress_line(p)),
        };
        let s = match with_pace(every, &print, |progress| {
            solver.solve(&unit.pos, limits, &stop, every, progress)
        }) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("choro solve: unit {}: {e}", u + 1);
                return ExitCode::FAILURE;
            }
        };
        if let Some(budget) = check_budget {
            let what = format!("unit {}", u + 1);
            let mut checks = Vec::new();
            let mut push = |l| checks.push(l);
            let ok = plain_check(solver, &unit.pos, &s, budget, &what, &mut push)
                && (!resumed || resumed_draw_check(&unit.pos, &s, budget, &what, &mut push));
            if !a.json {
                checks.iter().for_each(|l| emit(l.clone()));
            }
            if !ok {
                return refuted(&[], a);
            }
        }
        let mut r = timeless(solution_json(&unit.pos, &s));
        r["type"] = json!("solve");
        r["unit"] = json!(u);
        r["cell"] = json!(unit.cell.map(|(i, j)| [i, j]));
        r["path"] = json!(moves_json(&unit.path));
        if a.json {
            emit(r.to_string());
        } else {
            emit(format!(
                "unit {} of {}{}{} value {} for {} nodes {}",
                u + 1,
                units.len(),
                cell_words(pos, unit.cell),
                if unit.path.is_empty() {
                    String::new()
                } else {
                    format!(" path {}", moves_json(&unit.path).join(" "))
                },
                value_text(&s),
                unit.pos.side_to_move(),
                s.nodes
            ));
        }
        results.push(r);
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let header = parts::header("solve", job, units.len(), solve_settings(a, pos));
    let path = out.path().to_path_buf();
    if let Err(e) = parts::write(out, &header, &results) {
        eprintln!("choro solve: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(e) = solver.save_error() {
        eprintln!("choro solve: save file: {e}");
        return ExitCode::FAILURE;
    }
    if !a.json {
        println!("part {job} written to {}", path.display());
    }
    ExitCode::SUCCESS
}

/// A report without its time: part files and merges hold none, so that a
/// part run twice writes the same file.
fn timeless(mut j: Json) -> Json {
    if let Some(m) = j.as_object_mut() {
        m.remove("time_ms");
    }
    j
}

/// ` cell a b` for a unit in a blind cell.
fn cell_words(root: &Position, cell: Option<(usize, usize)>) -> String {
    match (cell, choro_engine::blind::BlindGame::of(root)) {
        (Some((i, j)), Some(bg)) => format!(" cell {} {}", bg.a_starts[i], bg.b_starts[j]),
        _ => String::new(),
    }
}

/// A unit's solution read back from a part file.
fn read_solution(r: &Json, pos: &Position) -> Result<Solution, String> {
    let n = |k: &str| r[k].as_u64().ok_or(format!("no number '{k}'"));
    // Plies are u32: a larger number is refused, not cut to its low bits.
    let plies = |k: &str| match &r[k] {
        Json::Null => Ok(None),
        v => v
            .as_u64()
            .and_then(|d| u32::try_from(d).ok())
            .map(Some)
            .ok_or(format!("'{k}' is not a number of plies: {v}")),
    };
    let value = match (r["value"].as_str(), plies("plies")?) {
        (Some("win"), Some(d)) => Some(Value::Win(d)),
        (Some("loss"), Some(d)) => Some(Value::Loss(d)),
        (Some("draw"), _) => Some(Value::Draw),
        (Some("unknown"), _) => None,
        _ => return Err(format!("bad value {}", r["value"])),
    };
    let mut pv = Vec::new();
    let mut p = *pos;
    for w in r["pv"].as_array().ok_or("no pv")? {
        let w = w.as_str().ok_or("a pv move is not a string")?;
        let (m, next) = p.parse_move(w).map_err(|e| format!("pv move {w}: {e}"))?;
        pv.push(m);
        p = next;
    }
    Ok(Solution {
        value,
        nowin_within: plies("nowin_within")?.ok_or("no number 'nowin_within'")?,
        noloss_within: plies("noloss_within")?.ok_or("no number 'noloss_within'")?,
        win_within: plies("win_within")?,
        loss_within: plies("loss_within")?,
        pns: None,
        pv,
        nodes: n("nodes")?,
        proven: n("proven")?,
        elapsed: Duration::ZERO,
    })
}

/// `choro merge` of a split solve: every unit's solution, the subtrees put
/// together into their cells (or the root), the matrix game solved as
/// `choro solve` solves it, reported as it reports it.
pub fn merge_parts(
    parts: &[Part],
    json_out: bool,
    book: Option<Replace>,
    emit: &mut dyn FnMut(String),
) -> Result<(), String> {
    let settings = &parts[0].header["settings"];
    let root: Position = settings["root"]
        .as_str()
        .ok_or("the header has no root")?
        .parse()
        .map_err(|e| format!("the header's root: {e}"))?;
    let n = parts[0].job.n;
    let units = units(&root, n)?;
    if parts[0].header["units"].as_u64() != Some(units.len() as u64) {
        return Err(format!(
            "the parts count {} units, this choro makes {} of the root",
            parts[0].header["units"],
            units.len()
        ));
    }
    let mut solved: Vec<Option<Solution>> = vec![None; units.len()];
    for part in parts {
        let range = part.job.range(units.len());
        for r in &part.results {
            let u = r["unit"].as_u64().map_or(usize::MAX, |u| u as usize);
            let at = |m: String| format!("{}: unit {}: {m}", part.path.display(), r["unit"]);
            if !range.contains(&u) {
                return Err(at(format!("not a unit of part {}", part.job)));
            }
            if r["position"].as_str() != Some(units[u].pos.to_string().as_str()) {
                return Err(at("its position is not the unit's".into()));
            }
            if solved[u].is_some() {
                return Err(at("given twice".into()));
            }
            solved[u] = Some(read_solution(r, &units[u].pos).map_err(at)?);
        }
        if let Some(u) = range.clone().find(|u| solved[*u].is_none()) {
            return Err(format!(
                "{}: unit {u} of part {} is missing",
                part.path.display(),
                part.job
            ));
        }
    }
    // Each unit counts once in the merged totals: they fit in 64 bits
    // when these sums do (a total that wrapped would be reported small).
    let mut total = [0u64; 2];
    for s in solved.iter().flatten() {
        for (t, (x, what)) in total
            .iter_mut()
            .zip([(s.nodes, "nodes"), (s.proven, "proven")])
        {
            *t = t
                .checked_add(x)
                .ok_or(format!("the parts' {what} add up to more than 2^64 - 1"))?;
        }
    }
    let mut by_path = std::collections::HashMap::new();
    for (u, s) in units.iter().zip(solved) {
        if let Some(s) = s {
            by_path.insert((u.cell, u.path.clone()), s);
        }
    }
    let mut book_entries = Book::default();
    let header_lines = vec![
        format!(
            "choro {} (commit {}) merge of {} parts: {}",
            env!("CARGO_PKG_VERSION"),
            choro_match::COMMIT,
            n,
            parts[0].header["command"]
        ),
        format!("root {root}"),
    ];
    match choro_engine::blind::BlindGame::of(&root) {
        Some(bg) => {
            let mut cells = Vec::new();
            for (i, row) in bg.cells.iter().enumerate() {
                let mut r = Vec::new();
                for (j, p) in row.iter().enumerate() {
                    let s = assemble(&by_path, Some((i, j)), &mut Vec::new(), p)?;
                    book_of(p, &s, &mut book_entries)?;
                    r.push(s);
                }
                cells.push(r);
            }
            let nodes = cells.iter().flatten().map(|c| c.nodes).sum();
            let b = BlindSolution::of_cells(
                bg.a_starts,
                bg.b_starts,
                bg.cells,
                cells,
                nodes,
                Duration::ZERO,
            );
            if json_out {
                emit(timeless(blind_json(&root, &b)).to_string());
            } else {
                let mut lines = blind_lines(&b);
                lines.pop();
                lines.push(format!("nodes {} (over {n} parts)", b.nodes));
                lines.into_iter().for_each(&mut *emit);
            }
        }
        None => {
            let s = assemble(&by_path, None, &mut Vec::new(), &root)?;
            book_of(&root, &s, &mut book_entries)?;
            if json_out {
                emit(timeless(solution_json(&root, &s)).to_string());
            } else {
                let mut lines = solution_lines(&root, &s);
                lines.pop();
                lines.push(format!(
                    "nodes {} proven {} (over {n} parts)",
                    s.nodes, s.proven
                ));
                lines.into_iter().for_each(&mut *emit);
            }
        }
    }
    if let Some(out) = book {
        if let Some(note) =
            write_book(out, &header_lines, &book_entries).map_err(|e| format!("--book {e}"))?
        {
            eprintln!("choro merge: {note}");
        }
    }
    Ok(())
}

/// The units' solutions by cell and path.
type UnitSolutions = std::collections::HashMap<(Option<(usize, usize)>, Vec<Move>), Solution>;

/// The solution at `path` below `cell`: a unit's own, or put together
/// from its children's.
fn assemble(
    by_path: &UnitSolutions,
    cell: Option<(usize, usize)>,
    path: &mut Vec<Move>,
    pos: &Position,
) -> Result<Solution, String> {
    if let Some(s) = by_path.get(&(cell, path.clone())) {
        return Ok(s.clone());
    }
    let mut children = Vec::new();
    for (m, p) in pos.legal_moves() {
        path.push(m);
        let s = assemble(by_path, cell, path, &p);
        path.pop();
        children.push((m, p, s?));
    }
    if children.is_empty() {
        return Err(format!("no unit covers the position {pos}"));
    }
    Ok(Solution::of_children(pos, &children))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn report(nodes: u64) -> Progress {
        Progress {
            plies: 3,
            nodes,
            nps: 1000,
            proven: 7,
            hashfull: 1,
            elapsed: Duration::from_millis(5),
            bounds: 2,
            cell: Some((2, 4)),
        }
    }

    /// A phase in which the solver reports nothing still gets its lines:
    /// the ticker's, which repeat the last report with the time advanced.
    /// No timing is asserted beyond "some lines within a long quiet phase"
    /// (20 ms apart, over 600 ms: dozens on an idle machine, 3 asked for).
    #[test]
    fn progress_comes_through_a_phase_that_reports_nothing() {
        let lines = Mutex::new(Vec::new());
        let print = |p: &Progress| lines.lock().unwrap().push(p.clone());
        let out = with_pace(Duration::from_millis(20), &print, |progress| {
            progress(&report(500));
            std::thread::sleep(Duration::from_millis(600));
            42
        });
        assert_eq!(out, 42);
        let lines = lines.into_inner().unwrap();
        assert!(lines.len() >= 4, "{} lines", lines.len());
        assert_eq!(lines[0].elapsed, Duration::from_millis(5));
        for w in lines.windows(2) {
            assert!(w[1].elapsed > w[0].elapsed, "{lines:?}");
        }
        for p in &lines[1..] {
            assert_eq!((p.nodes, p.cell, p.plies), (500, Some((2, 4)), 3));
        }
    }

    /// Before the solver's first report the ticker's lines count nothing
    /// yet, and once the work is done the ticker stops.
    #[test]
    fn progress_before_the_first_report_and_none_after_the_end() {
        let lines = Mutex::new(Vec::new());
        let print = |p: &Progress| lines.lock().unwrap().push(p.clone());
        with_pace(Duration::from_millis(10), &print, |_| {
            std::thread::sleep(Duration::from_millis(300));
        });
        let n = lines.lock().unwrap().len();
        assert!(n >= 2, "{n} lines");
        assert!(lines.lock().unwrap().iter().all(|p| p.nodes == 0));
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(lines.lock().unwrap().len(), n, "a line after the end");
    }
}
