//! `choro-fuzz <target>... [--seconds N] [--seed S]`: run fuzz targets for
//! a bounded time; `choro-fuzz <target> --replay FILE...`: check saved
//! inputs. Exits 1 on any finding, after printing the input and saving it
//! to `fuzz/findings/` (RELIABILITY.md).

use choro_fuzz::driver::{self, escaped, finding_path, RunOptions};
use choro_fuzz::targets::{self, ServerKnobs, NAMES};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "choro-fuzz",
    about = "Stable-toolchain fuzzers for choro (RELIABILITY.md)"
)]
struct Cli {
    /// Targets to run, one after the other: server, position, move, makemove, race, solve, gui, or all.
    #[arg(required_unless_present = "serve_protocol")]
    targets: Vec<String>,
    /// Serve the protocol on stdin and stdout, as the `choro` binary does
    /// (the engine of the gui target), and do nothing else.
    #[arg(long)]
    serve_protocol: bool,
    /// Seconds per target.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Stop a target after this many inputs if sooner.
    #[arg(long)]
    max_inputs: Option<u64>,
    /// Seed of the generator (default: from the clock; printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Folder of the seed corpora (one sub-folder per target).
    #[arg(long, default_value = "fuzz/corpus")]
    corpus: PathBuf,
    /// Where failing inputs are saved.
    #[arg(long, default_value = "fuzz/findings")]
    findings: PathBuf,
    /// Check these files (or folders) only, with the one target given.
    #[arg(long, num_args = 1..)]
    replay: Vec<PathBuf>,
    /// Server target: count the searcher's own faults that the protocol
    /// covers (answer outside searchmoves or illegal, illegal pv) instead
    /// of failing on them.
    #[arg(long)]
    lenient_search: bool,
    /// Server target: stop a bounded search still running after this many
    /// milliseconds (default 1500; a stop, counted, not a finding).
    #[arg(long)]
    soft_stop_ms: Option<u64>,
    /// One input taking longer than this is a hang.
    #[arg(long, default_value_t = 20)]
    hang_seconds: u64,
    /// Write each input to this file before it is checked, so that an input
    /// that kills the process by a signal (which no hook sees) is on disk.
    #[arg(long)]
    current_file: Option<PathBuf>,
}

/// The input being checked, for the panic hook and the watchdog.
struct Current {
    target: &'static str,
    input: Vec<u8>,
}

static CURRENT: Mutex<Option<Current>> = Mutex::new(None);
static FINDINGS: OnceLock<PathBuf> = OnceLock::new();
/// Milliseconds since `START` when the current input began.
static BEGAN: AtomicU64 = AtomicU64::new(0);
static START: OnceLock<Instant> = OnceLock::new();
/// Inputs begun so far in this process, for the report of a finding.
static BEGUN: AtomicU64 = AtomicU64::new(0);

fn now_ms() -> u64 {
    START.get_or_init(Instant::now).elapsed().as_millis() as u64
}

fn save(dir: &Path, target: &str, input: &[u8], message: &str) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).ok()?;
    let p = finding_path(dir, target, input);
    std::fs::write(&p, input).ok()?;
    std::fs::write(p.with_extension("txt"), message).ok()?;
    Some(p)
}

fn report(target: &str, input: &[u8], message: &str) {
    let dir = FINDINGS
        .get()
        .cloned()
        .unwrap_or_else(|| PathBuf::from("fuzz/findings"));
    eprintln!(
        "choro-fuzz: FINDING in target {target} at input {} after {:.1} s: {message}",
        BEGUN.load(Ordering::Relaxed),
        now_ms() as f64 / 1000.0
    );
    eprintln!("input ({} bytes): {}", input.len(), escaped(input, 4000));
    match save(&dir, target, input, message) {
        Some(p) => eprintln!(
            "saved to {}; reproduce: choro-fuzz {target} --replay {}",
            p.display(),
            p.display()
        ),
        None => eprintln!("could not save the input under {}", dir.display()),
    }
}

/// The current input as reported by the hook and the watchdog.
fn current() -> Option<(&'static str, Vec<u8>)> {
    let g = CURRENT.try_lock().ok()?;
    g.as_ref().map(|c| (c.target, c.input.clone()))
}

fn install_guards(hang: Duration) {
    std::panic::set_hook(Box::new(|info| {
        let (target, input) = current().unwrap_or(("?", Vec::new()));
        report(target, &input, &format!("panic: {info}"));
        std::process::exit(1);
    }));
    // The watchdog runs until the process ends; its handle is forgotten,
    // not dropped, so that it is never detached (`choro_engine::threads`).
    std::mem::forget(std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(200));
        let began = BEGAN.load(Ordering::Relaxed);
        if now_ms().saturating_sub(began) > hang.as_millis() as u64 {
            let (target, input) = current().unwrap_or(("?", Vec::new()));
            report(
                target,
                &input,
                &format!("hang: one input ran over {hang:?}"),
            );
            std::process::exit(1);
        }
    }));
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.serve_protocol {
        return match choro::Server::new(std::io::stdout()) {
            Ok(mut server) => {
                choro::run(std::io::stdin().lock(), &mut server);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("choro-fuzz: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let _ = FINDINGS.set(cli.findings.clone());
    now_ms();
    let names: Vec<String> = if cli.targets.iter().any(|t| t == "all") {
        NAMES.iter().map(|s| s.to_string()).collect()
    } else {
        cli.targets.clone()
    };
    for n in &names {
        if targets::by_name(n, ServerKnobs::default()).is_none() {
            eprintln!(
                "choro-fuzz: unknown target '{n}' (expected {} or all)",
                NAMES.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    install_guards(Duration::from_secs(cli.hang_seconds));
    let seed = cli.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    for name in &names {
        let Some(mut target) = targets::by_name(
            name,
            ServerKnobs {
                lenient_search: cli.lenient_search,
                soft: cli.soft_stop_ms.map(Duration::from_millis),
                engine: None,
            },
        ) else {
            continue;
        };
        let tname: &'static str = target.name();
        let current_file = cli.current_file.clone();
        let mut before = |input: &[u8]| {
            if let Some(f) = &current_file {
                if let Err(e) = std::fs::write(f, input) {
                    eprintln!("choro-fuzz: {}: {e}", f.display());
                }
            }
            BEGAN.store(now_ms(), Ordering::Relaxed);
            BEGUN.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut g) = CURRENT.lock() {
                *g = Some(Current {
                    target: tname,
                    input: input.to_vec(),
                });
            }
        };
        if !cli.replay.is_empty() {
            let mut files = Vec::new();
            for p in &cli.replay {
                if p.is_dir() {
                    files.extend(driver::load_corpus(p));
                } else {
                    match std::fs::read(p) {
                        Ok(b) => files.push(b),
                        Err(e) => {
                            eprintln!("choro-fuzz: {}: {e}", p.display());
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            for input in files {
                before(&input);
                if let Err(m) = target.check(&input) {
                    report(tname, &input, &m);
                    return ExitCode::FAILURE;
                }
            }
            println!("{tname}: replayed without a finding; {}", target.stats());
            continue;
        }
        let opts = RunOptions {
            time: Duration::from_secs_f64(cli.seconds),
            max_inputs: cli.max_inputs,
            seed,
            corpus: Some(cli.corpus.join(target.corpus())),
        };
        match driver::run(target.as_mut(), &opts, &mut before) {
            Ok(s) => println!(
                "{tname}: {} inputs ({} from the corpus) in {:.1} s, {:.0}/s, seed {seed}, no finding; {}",
                s.inputs,
                s.corpus,
                s.elapsed.as_secs_f64(),
                s.inputs as f64 / s.elapsed.as_secs_f64().max(1e-9),
                s.stats
            ),
            Err(f) => {
                report(tname, &f.input, &format!("{} (seed {seed})", f.message));
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
