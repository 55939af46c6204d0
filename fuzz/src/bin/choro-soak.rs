//! `choro-soak`: plays many fast games per rule code through the real
//! `choro` binary over pipes, as an unattended harness would, mixing `go`
//! limits, `stop` at random moments, `isready` during search, new games,
//! option changes between games and 1 or 2 threads. Fails (exit 1) on a
//! crash, a hang (no `bestmove` within the limit plus a margin, no
//! `readyok`), an illegal or extra `bestmove`, a wrong query answer, or
//! resident memory above `Hash` plus a fixed allowance (RELIABILITY.md).

use choro_engine::{Game, Opening, Position, Side, Variant};
use choro_fuzz::rng::Rng;
use clap::Parser;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

#[derive(Parser, Clone)]
#[command(
    name = "choro-soak",
    about = "Soak test of the choro binary (RELIABILITY.md)"
)]
struct Cli {
    /// The engine binary.
    #[arg(long, default_value = "target/release/choro")]
    engine: PathBuf,
    /// Games per rule code.
    #[arg(long, default_value_t = 200)]
    games_per_code: u32,
    /// Start no new game after this many seconds (the games played are reported).
    #[arg(long, default_value_t = 300)]
    seconds_limit: u64,
    /// Rule codes, comma-separated; each runs in its own engine process, all at once.
    #[arg(long, default_value = "didinga,lango,acholi,adjiboto")]
    codes: String,
    #[arg(long)]
    seed: Option<u64>,
    /// Margin over each limit before a missing answer is a hang (ms).
    #[arg(long, default_value_t = 3000)]
    margin_ms: u64,
    /// Resident memory allowed above the Hash option (MiB).
    #[arg(long, default_value_t = 64)]
    rss_allowance_mb: u64,
    /// The memory bound is this many times Hash, plus the allowance. 1 is
    /// the promise (a diagnostic knob; .ci/slow keeps the default).
    #[arg(long, default_value_t = 1)]
    rss_hash_factor: u64,
    /// Measure against the largest Hash set so far in the process instead
    /// of the current one (a diagnostic knob: memory kept from an earlier
    /// Hash is a finding).
    #[arg(long)]
    rss_max_hash: bool,
    /// The ply cap of every game (DrawPlies).
    #[arg(long, default_value_t = 150)]
    draw_plies: u32,
    /// Algorithms to mix, comma-separated.
    #[arg(long, default_value = "random,greedy,alphabeta,mcts")]
    algorithms: String,
    /// Where the log of a failing engine is saved.
    #[arg(long, default_value = "fuzz/findings")]
    findings: PathBuf,
}

#[derive(Default, Clone, Debug)]
struct Stats {
    games: u64,
    moves: u64,
    gos: u64,
    go_kinds: [u64; 6],
    stops: u64,
    stops_during_search: u64,
    isready_during_search: u64,
    ponderhits: u64,
    newgames: u64,
    option_changes: u64,
    threads2_games: u64,
    fen_positions: u64,
    queries: u64,
    slow: u64,
    first_slow: Option<String>,
    peak_rss_kb: u64,
    max_stop_ms: f64,
    max_ready_ms: f64,
    quits_during_search: u64,
    algo_games: [u64; 4],
}

const GO_KINDS: [&str; 6] = [
    "depth",
    "nodes",
    "movetime",
    "clock",
    "infinite+stop",
    "ponder",
];
const ALGOS: [&str; 4] = ["random", "greedy", "alphabeta", "mcts"];

struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The threads reading its stdout and stderr, joined when it is dropped.
    readers: Vec<thread::JoinHandle<()>>,
    lines: Receiver<String>,
    log: VecDeque<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    t0: Instant,
}

impl Engine {
    fn start(bin: &PathBuf) -> Result<Engine, String> {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut stderr = child.stderr.take().ok_or("no stderr")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let (tx, rx) = mpsc::channel();
        let out_reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let err = Arc::new(Mutex::new(Vec::new()));
        let err2 = Arc::clone(&err);
        let err_reader = thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut e) = err2.lock() {
                    e.extend_from_slice(&buf[..n]);
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            readers: vec![out_reader, err_reader],
            lines: rx,
            log: VecDeque::new(),
            stderr: err,
            t0: Instant::now(),
        })
    }

    fn note(&mut self, s: String) {
        if self.log.len() == 400 {
            self.log.pop_front();
        }
        self.log
            .push_back(format!("{:>9.3} {s}", self.t0.elapsed().as_secs_f64()));
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.note(format!("> {line}"));
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("writing '{line}': {e} (engine gone?)"))
    }

    /// The next line, or an error after `limit`.
    fn recv(&mut self, limit: Duration) -> Result<String, String> {
        match self.lines.recv_timeout(limit) {
            Ok(l) => {
                self.note(format!("< {l}"));
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(format!("HANG: no answer within {limit:?}")),
            Err(RecvTimeoutError::Disconnected) => {
                let st = self.child.try_wait().ok().flatten();
                Err(format!(
                    "CRASH: the engine closed its output (exit status {st:?})"
                ))
            }
        }
    }

    fn rss_kb(&self) -> Option<u64> {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let l = s.lines().find(|l| l.starts_with("VmRSS:"))?;
        l.split_whitespace().nth(1)?.parse().ok()
    }

    fn dump(&self) -> String {
        let err = self
            .stderr
            .lock()
            .map(|e| String::from_utf8_lossy(&e).into_owned());
        let mut s = String::from("last lines (> sent, < received):\n");
        for l in &self.log {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&format!("stderr: {}\n", err.unwrap_or_default()));
        s
    }
}

impl Drop for Engine {
    /// Kill the engine, then join its readers (they end when its pipes
    /// close); one still running after a second is left running, never
    /// detached (`choro_engine::threads` says why).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let until = Instant::now() + Duration::from_secs(1);
        for r in self.readers.drain(..) {
            choro_engine::threads::join_by(r, until);
        }
    }
}

/// One search: what was asked and by when the answer is due.
struct Search {
    deadline: Instant,
    /// `go infinite` / `go ponder`: `bestmove` comes only after this is sent.
    release: Option<(Instant, &'static str)>,
    stop_at: Option<Instant>,
    ready_at: Option<Instant>,
    /// Forced `stop` after a slow depth or nodes search.
    soft: Option<Instant>,
}

struct Soak<'a> {
    cli: &'a Cli,
    code: Variant,
    rng: Rng,
    st: Stats,
    margin: Duration,
    hash_mb: u64,
    max_hash_mb: u64,
    threads: u64,
    algo: &'static str,
}

impl<'a> Soak<'a> {
    fn setopt(&mut self, e: &mut Engine, name: &str, value: &str) -> Result<(), String> {
        self.st.option_changes += 1;
        e.send(&format!("setoption name {name} value {value}"))
    }

    fn ready(&mut self, e: &mut Engine) -> Result<(), String> {
        e.send("isready")?;
        loop {
            let l = e.recv(self.margin)?;
            if l == "readyok" {
                return Ok(());
            }
            check_quiet(&l)?;
        }
    }

    fn new_game(&mut self, e: &mut Engine, first: bool) -> Result<(), String> {
        let algos: Vec<&str> = self.cli.algorithms.split(',').collect();
        let algo = *self.rng.pick(&algos);
        if let Some(i) = ALGOS.iter().position(|a| *a == algo) {
            self.st.algo_games[i] += 1;
            self.algo = ALGOS[i];
        }
        self.setopt(e, "Algorithm", algo)?;
        if first || self.rng.chance(1, 2) {
            self.threads = if self.rng.chance(1, 2) { 2 } else { 1 };
            self.setopt(e, "Threads", &self.threads.to_string())?;
        }
        if first || self.rng.chance(1, 3) {
            self.hash_mb = *self.rng.pick(&[1u64, 2, 4, 8, 16, 32]);
            self.max_hash_mb = self.max_hash_mb.max(self.hash_mb);
            self.setopt(e, "Hash", &self.hash_mb.to_string())?;
        }
        if self.threads == 2 {
            self.st.threads2_games += 1;
        }
        if self.rng.chance(1, 3) {
            let s = self.rng.range(0, 1_000_000).to_string();
            self.setopt(e, "Seed", &s)?;
        }
        if self.rng.chance(1, 4) {
            let m = self.rng.range(1, 2).to_string();
            self.setopt(e, "MultiPV", &m)?;
        }
        if self.rng.chance(1, 4) {
            let m = self.rng.range(0, 30).to_string();
            self.setopt(e, "MoveOverhead", &m)?;
        }
        if first {
            self.setopt(e, "Variant", self.code.name())?;
            if self.code == Variant::Didinga {
                self.setopt(e, "Columns", "8")?;
            }
            self.setopt(e, "DrawPlies", &self.cli.draw_plies.to_string())?;
        }
        if first || self.rng.chance(3, 4) {
            self.st.newgames += 1;
            e.send(if self.rng.chance(1, 2) {
                "ucinewgame"
            } else {
                "uginewgame"
            })?;
        }
        self.ready(e)
    }

    /// Play one game to its end; false if the time is up mid-game is not
    /// possible: games always finish.
    fn game(&mut self, e: &mut Engine) -> Result<(), String> {
        // The engine's default opening: simultaneous for the Choro codes
        // (blind choices, the race), which `position startpos` sets up.
        let mut start = Position::start(self.code, self.code.default_width(), Opening::default())
            .map_err(|err| format!("start: {err}"))?;
        // Some Lango games start from the full board in the main phase, so
        // that Lango's main phase is soaked from its start too.
        let mut head = "startpos".to_string();
        if self.code == Variant::Lango && self.rng.chance(1, 2) {
            let full = format!("lango:8 {} a m 0", ["2,2,2,2,2,2,2,2"; 4].join("/"));
            start = full.parse().map_err(|err| format!("{full}: {err}"))?;
            head = format!("fen {full}");
        }
        let mut game = Game::new(start).with_draw_plies(self.cli.draw_plies);
        let mut moves: Vec<String> = Vec::new();
        while game.outcome().is_none() {
            let by_fen = self.rng.chance(1, 4);
            if by_fen {
                self.st.fen_positions += 1;
                e.send(&format!("position fen {}", game.position()))?;
            } else if moves.is_empty() {
                e.send(&format!("position {head}"))?;
            } else {
                e.send(&format!("position {head} moves {}", moves.join(" ")))?;
            }
            if self.rng.chance(1, 10) {
                self.queries(e, &game, by_fen)?;
            }
            let m = self.go(e, game.position())?;
            let played = game
                .play_str(&m)
                .map_err(|err| format!("ILLEGAL: bestmove {m} in {}: {err}", game.position()))?;
            moves.push(played.to_string());
            self.st.moves += 1;
            self.memory(e)?;
        }
        self.st.games += 1;
        Ok(())
    }

    fn queries(&mut self, e: &mut Engine, game: &Game, by_fen: bool) -> Result<(), String> {
        self.st.queries += 1;
        let p1 = game.position().side_to_move() == Side::A;
        e.send("query p1turn")?;
        expect(e, &format!("response {p1}"), self.margin)?;
        if !by_fen {
            e.send("query gameover")?;
            expect(e, "response false", self.margin)?;
        }
        Ok(())
    }

    fn memory(&mut self, e: &mut Engine) -> Result<(), String> {
        let Some(kb) = e.rss_kb() else {
            return Ok(());
        };
        self.st.peak_rss_kb = self.st.peak_rss_kb.max(kb);
        let hash = if self.cli.rss_max_hash {
            self.max_hash_mb
        } else {
            self.hash_mb
        };
        let limit = (self.cli.rss_hash_factor * hash + self.cli.rss_allowance_mb) * 1024;
        if kb > limit {
            return Err(format!(
                "MEMORY: resident {} MiB, above {} x Hash {} MiB + {} MiB (current Hash {} MiB, algorithm {})",
                kb / 1024,
                self.cli.rss_hash_factor,
                hash,
                self.cli.rss_allowance_mb,
                self.hash_mb,
                self.algo
            ));
        }
        Ok(())
    }

    /// One `go` of a random kind, with `stop` and `isready` at random
    /// moments; returns the best move.
    fn go(&mut self, e: &mut Engine, pos: &Position) -> Result<String, String> {
        let now = Instant::now();
        let ms = |n: i64| Duration::from_millis(n as u64);
        // Mostly depth and nodes limits, which cost the least wall time.
        let kind = match self.rng.below(100) {
            0..=32 => 0,
            33..=59 => 1,
            60..=70 => 2,
            71..=79 => 3,
            80..=89 => 4,
            _ => 5,
        };
        self.st.go_kinds[kind] += 1;
        let margin = self.margin;
        let mut s = Search {
            deadline: now + margin,
            release: None,
            stop_at: None,
            ready_at: None,
            soft: None,
        };
        let line = match kind {
            0 => {
                s.soft = Some(now + Duration::from_secs(3));
                s.deadline += Duration::from_secs(3);
                format!("go depth {}", self.rng.range(1, 3))
            }
            1 => {
                s.soft = Some(now + Duration::from_secs(3));
                s.deadline += Duration::from_secs(3);
                format!("go nodes {}", self.rng.range(50, 5000))
            }
            2 => {
                let t = self.rng.range(5, 50);
                s.deadline += ms(t);
                format!("go movetime {t}")
            }
            3 => {
                let (w, b) = (self.rng.range(20, 1500), self.rng.range(20, 1500));
                let inc = self.rng.range(0, 30);
                let mine = if pos.side_to_move() == Side::A { w } else { b };
                s.deadline += ms(mine + inc);
                format!("go wtime {w} btime {b} winc {inc} binc {inc}")
            }
            4 => {
                let t = self.rng.range(0, 40);
                s.release = Some((now + ms(t), "stop"));
                s.deadline += ms(t);
                "go infinite".to_string()
            }
            _ => {
                let t = self.rng.range(0, 30);
                let word = if self.rng.chance(1, 2) {
                    "ponderhit"
                } else {
                    "stop"
                };
                s.release = Some((now + ms(t), word));
                let limit = self.rng.range(5, 30);
                s.deadline += ms(t + limit);
                format!("go ponder movetime {limit}")
            }
        };
        if self.rng.chance(1, 4) {
            s.stop_at = Some(now + ms(self.rng.range(0, 30)));
        }
        if self.rng.chance(1, 3) {
            s.ready_at = Some(now + ms(self.rng.range(0, 20)));
        }
        self.st.gos += 1;
        e.send(&line)?;
        let mut ready_pending = false;
        let mut ready_sent = now;
        let mut stop_sent: Option<Instant> = None;
        let best = loop {
            let now = Instant::now();
            // Send what is due.
            if let Some((at, word)) = s.release {
                if now >= at {
                    s.release = None;
                    if word == "stop" {
                        self.st.stops += 1;
                        self.st.stops_during_search += 1;
                        stop_sent = Some(now);
                    } else {
                        self.st.ponderhits += 1;
                    }
                    e.send(word)?;
                }
            }
            if let Some(at) = s.stop_at {
                if now >= at {
                    s.stop_at = None;
                    // `stop` also ends `go infinite` and `go ponder`.
                    s.release = None;
                    self.st.stops += 1;
                    self.st.stops_during_search += 1;
                    stop_sent.get_or_insert(now);
                    e.send("stop")?;
                }
            }
            if let Some(at) = s.ready_at {
                if now >= at {
                    s.ready_at = None;
                    self.st.isready_during_search += 1;
                    ready_pending = true;
                    ready_sent = now;
                    e.send("isready")?;
                }
            }
            if let Some(at) = s.soft {
                if now >= at {
                    s.soft = None;
                    self.st.slow += 1;
                    self.st.first_slow.get_or_insert_with(|| {
                        format!(
                            "'{line}' with {} and {} thread(s) in {pos}",
                            self.algo, self.threads
                        )
                    });
                    self.st.stops += 1;
                    stop_sent.get_or_insert(now);
                    e.send("stop")?;
                }
            }
            if now > s.deadline {
                return Err(format!(
                    "HANG: no bestmove for '{line}' ({}, {} thread(s)) in {pos} within its limit plus {margin:?}",
                    self.algo, self.threads
                ));
            }
            let next = [
                s.release.map(|r| r.0),
                s.stop_at,
                s.ready_at,
                s.soft,
                Some(s.deadline),
            ]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(s.deadline);
            let wait = next
                .saturating_duration_since(now)
                .max(Duration::from_micros(100));
            let l = match e.lines.recv_timeout(wait) {
                Ok(l) => {
                    e.note(format!("< {l}"));
                    l
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    let st = e.child.try_wait().ok().flatten();
                    return Err(format!(
                        "CRASH: the engine closed its output during '{line}' (exit status {st:?})"
                    ));
                }
            };
            if l == "readyok" {
                if !ready_pending {
                    return Err("unexpected readyok".into());
                }
                ready_pending = false;
                let ms = ready_sent.elapsed().as_secs_f64() * 1e3;
                self.st.max_ready_ms = self.st.max_ready_ms.max(ms);
            } else if let Some(rest) = l.strip_prefix("bestmove ") {
                if let Some(t) = stop_sent {
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    self.st.max_stop_ms = self.st.max_stop_ms.max(ms);
                }
                if s.release.is_some() {
                    return Err(format!(
                        "'{l}' before {} under '{line}'",
                        s.release.map_or("", |r| r.1)
                    ));
                }
                break rest.split(' ').next().unwrap_or("").to_string();
            } else if l.starts_with("info string error") {
                return Err(format!("ERROR LINE: {l}"));
            } else {
                check_quiet(&l)?;
            }
        };
        // A stop that arrives after the bestmove must be ignored.
        if self.rng.chance(1, 8) {
            self.st.stops += 1;
            e.send("stop")?;
        }
        if ready_pending {
            let l = e.recv(margin)?;
            if l != "readyok" {
                return Err(format!("expected readyok, got '{l}' (a second bestmove?)"));
            }
        }
        Ok(best)
    }

    fn finish(&mut self, e: &mut Engine) -> Result<(), String> {
        // Half the time, quit while a search runs.
        if self.rng.chance(1, 2) {
            self.st.quits_during_search += 1;
            e.send("go infinite")?;
            thread::sleep(Duration::from_millis(self.rng.range(0, 30) as u64));
        }
        e.send("quit")?;
        let t = Instant::now();
        loop {
            match e.child.try_wait() {
                Ok(Some(st)) if st.success() => return Ok(()),
                Ok(Some(st)) => return Err(format!("CRASH: exit status {st} after quit")),
                Ok(None) if t.elapsed() > self.margin => {
                    return Err(format!("HANG: no exit within {:?} of quit", self.margin))
                }
                Ok(None) => thread::sleep(Duration::from_millis(1)),
                Err(err) => return Err(format!("wait: {err}")),
            }
        }
    }
}

/// Lines that may come at any time: search reports.
fn check_quiet(l: &str) -> Result<(), String> {
    if l.starts_with("info string error") {
        return Err(format!("ERROR LINE: {l}"));
    }
    if l.starts_with("bestmove") {
        return Err(format!("EXTRA BESTMOVE: {l}"));
    }
    Ok(())
}

fn expect(e: &mut Engine, want: &str, limit: Duration) -> Result<(), String> {
    loop {
        let l = e.recv(limit)?;
        if l == want {
            return Ok(());
        }
        if l.starts_with("response") {
            return Err(format!("WRONG ANSWER: '{l}', expected '{want}'"));
        }
        check_quiet(&l)?;
    }
}

fn run_code(cli: &Cli, code: Variant, seed: u64, t0: Instant) -> (Stats, Result<(), String>) {
    let mut soak = Soak {
        cli,
        code,
        rng: Rng::new(seed),
        st: Stats::default(),
        margin: Duration::from_millis(cli.margin_ms),
        hash_mb: 16,
        max_hash_mb: 16,
        threads: 1,
        algo: "alphabeta",
    };
    let mut e = match Engine::start(&cli.engine) {
        Ok(e) => e,
        Err(err) => return (soak.st, Err(err)),
    };
    let mut r = Ok(());
    for g in 0..cli.games_per_code {
        if t0.elapsed() > Duration::from_secs(cli.seconds_limit) {
            break;
        }
        r = soak
            .new_game(&mut e, g == 0)
            .and_then(|()| soak.game(&mut e));
        if r.is_err() {
            break;
        }
    }
    if r.is_ok() {
        r = soak.finish(&mut e);
    }
    let r = r.map_err(|err| {
        let log = e.dump();
        let _ = std::fs::create_dir_all(&cli.findings);
        let path = cli.findings.join(format!("soak-{code}-{seed}.log"));
        let _ = std::fs::write(&path, format!("{err}\n{log}"));
        format!(
            "{code} (seed {seed}) after {} games: {err}\n{log}saved to {}",
            soak.st.games,
            path.display()
        )
    });
    (soak.st, r)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let seed = cli.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let mut codes = Vec::new();
    for c in cli.codes.split(',') {
        match c.parse::<Variant>() {
            Ok(v) => codes.push(v),
            Err(e) => {
                eprintln!("choro-soak: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let t0 = Instant::now();
    let results: Vec<(Variant, Stats, Result<(), String>)> = thread::scope(|sc| {
        let hs: Vec<_> = codes
            .iter()
            .enumerate()
            .map(|(i, &code)| {
                let cli = &cli;
                sc.spawn(move || {
                    let (st, r) = run_code(cli, code, seed.wrapping_add(i as u64), t0);
                    (code, st, r)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    (
                        Variant::Didinga,
                        Stats::default(),
                        Err("soak thread panicked".into()),
                    )
                })
            })
            .collect()
    });
    let mut failed = false;
    let mut total = Stats::default();
    println!(
        "choro-soak: seed {seed}, {:.1} s, engine {}",
        t0.elapsed().as_secs_f64(),
        cli.engine.display()
    );
    for (code, st, r) in &results {
        println!(
            "{code}: games {} moves {} go {} ({}) stops {} (during a search {}) isready-during-search {} ponderhit {} newgame {} option-changes {} threads-2 games {} fen positions {} queries {} slow {} quits-during-search {} algorithms ({}) peak RSS {:.1} MiB, max stop->bestmove {:.1} ms, max isready->readyok {:.1} ms",
            st.games,
            st.moves,
            st.gos,
            GO_KINDS.iter().zip(st.go_kinds).map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "),
            st.stops,
            st.stops_during_search,
            st.isready_during_search,
            st.ponderhits,
            st.newgames,
            st.option_changes,
            st.threads2_games,
            st.fen_positions,
            st.queries,
            st.slow,
            st.quits_during_search,
            ALGOS.iter().zip(st.algo_games).map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "),
            st.peak_rss_kb as f64 / 1024.0,
            st.max_stop_ms,
            st.max_ready_ms,
        );
        if let Some(s) = &st.first_slow {
            println!(
                "  slow (stopped after 3 s): {} searches, the first {s}",
                st.slow
            );
        }
        total.games += st.games;
        total.stops += st.stops;
        total.moves += st.moves;
        if let Err(e) = r {
            failed = true;
            eprintln!("choro-soak: FAILURE in {e}");
        }
    }
    println!(
        "total: games {} moves {} stops {} in {:.1} s: {}",
        total.games,
        total.moves,
        total.stops,
        t0.elapsed().as_secs_f64(),
        if failed {
            "FAILED"
        } else {
            "no crash, hang, illegal move or memory growth"
        }
    );
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
