//! The protocol server: executes [`Command`]s against the game, the options
//! and the searcher, and owns the search thread.
//!
//! `go` moves the [`Searcher`] into a thread of its own and gets it back
//! through the thread's join handle, so the searcher needs no lock and the
//! reading thread stays free to answer `isready`, `stop` and queries. The
//! thread is not scoped: [`Server::command`] takes one line at a time, and
//! the search outlives the call that started it. Only the search thread
//! writes `bestmove`; it sets `done` under the output lock first, so by the
//! time a harness has read `bestmove` the server already counts the search
//! as over and accepts the next `position` or `go`.

use crate::command::{self, Command, Go, ParseError, Query, SolveReq, Start};
use crate::display;
use crate::options::{OptionError, Options};
use crate::perft::{self, PerftRequest};
use crate::{bench, eval, trace};
use choro_engine::search::{Algorithm, Info, Limits, Score, SearchConfig, SearchControl};
use choro_engine::Searcher;
use choro_engine::{Game, Move, MoveError, Outcome, Position, PositionError, Side};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Which handshake the harness used; it decides how scores and `ponder`
/// are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// No handshake yet.
    Plain,
    Uci,
    Ugi,
}

/// Longest time handed to the searcher, about 31 years: larger values mean
/// "no limit" to a harness, and this keeps `Instant + Duration` in range.
pub const MAX_MS: u64 = 1_000_000_000_000;
/// Stack of the search thread; searchers recurse.
const SEARCH_STACK: usize = 64 << 20;
/// How long `quit` waits for a stopped search before leaving without it.
const QUIT_GRACE: Duration = Duration::from_secs(2);
/// Backstop for the wake-up of a held-back `bestmove` (`stop` unparks it).
const HOLD_POLL: Duration = Duration::from_millis(5);

/// Why a command failed. Every variant becomes one `info string error:` line.
#[derive(Debug)]
pub enum Error {
    Parse(ParseError),
    /// This command is refused while a search runs.
    Busy(&'static str),
    Option(OptionError),
    /// The `index`th move of `position` could not be played.
    Move {
        index: usize,
        err: MoveError,
    },
    /// The `index`th move of `position` comes after the end of the game.
    AfterEnd {
        index: usize,
        mv: Move,
        outcome: Outcome,
    },
    /// The `index`th `searchmoves` move is not legal here.
    SearchMove {
        index: usize,
        err: MoveError,
    },
    Position(PositionError),
    /// `position fen` whose holds disagree with `RaceHolds`.
    Holds(String),
    /// `trace` of a move the position does not allow.
    Trace(MoveError),
    /// `trace` once the game is over.
    TraceAfterEnd(Outcome),
    Bench(String),
    /// `solve` refused (a finished game, a table that cannot be had).
    Solve(String),
    Thread(String),
    /// `Hash`, or an `Algorithm` that keeps a table or tree of `Hash` MiB,
    /// asked for more memory than the process can reserve.
    Memory {
        option: &'static str,
        mb: usize,
        kept: String,
        /// MiB the system reported available, when that was the refusal.
        available: Option<usize>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Busy(c) => write!(f, "{c} while searching; ignored (send stop first)"),
            Error::Option(e) => e.fmt(f),
            Error::Move { index, err } => {
                write!(f, "position: move {index}: {err}; previous position kept")
            }
            Error::AfterEnd { index, mv, outcome } => write!(
                f,
                "position: move {index} '{mv}': the game is already over ({outcome}); previous position kept"
            ),
            Error::SearchMove { index, err } => write!(f, "go searchmoves: move {index}: {err}"),
            Error::Position(e) => write!(f, "start position: {e}"),
            Error::Holds(why) => write!(
                f,
                "position: {why} (RULES.md 8.10); previous position kept"
            ),
            Error::Trace(e) => write!(f, "trace: {e}"),
            Error::TraceAfterEnd(o) => write!(f, "trace: the game is already over ({o})"),
            Error::Bench(e) => f.write_str(e),
            Error::Solve(e) => write!(f, "solve: {e}"),
            Error::Thread(e) => write!(f, "go: cannot start the search thread: {e}"),
            Error::Memory {
                option,
                mb,
                kept,
                available,
            } => {
                write!(
                    f,
                    "setoption: option {option}: cannot reserve {mb} MiB; {option} keeps {kept}"
                )?;
                match available {
                    Some(a) => write!(f, " (the system has {a} MiB available)"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        Error::Parse(e)
    }
}

/// The output, shared by the reading thread and the search thread. Every
/// line is written whole under the lock and flushed.
struct Out<W> {
    w: Mutex<W>,
    broken: AtomicBool,
}

impl<W: Write> Out<W> {
    fn write_locked(&self, w: &mut W, s: &str) {
        let r = if s.contains(char::is_control) {
            writeln!(w, "{}", printable(s))
        } else {
            writeln!(w, "{s}")
        };
        if r.and_then(|()| w.flush()).is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    fn line(&self, s: &str) {
        let mut w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        self.write_locked(&mut w, s);
    }

    /// Write the search's last line, marking it done first under the lock.
    fn last_line(&self, s: &str, done: &AtomicBool) {
        let mut w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        done.store(true, Ordering::Release);
        self.write_locked(&mut w, s);
    }
}

/// `s` as one output line: line breaks become spaces and other control
/// characters are escaped (`\u{7f}`), so that input echoed in an error
/// (a position string's field, a searcher's text) can neither break the
/// line nor drive a terminal.
fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// A search in progress.
struct Running {
    handle: JoinHandle<Searcher>,
    control: Arc<SearchControl>,
    /// Set just before `bestmove` is written.
    done: Arc<AtomicBool>,
}

/// The protocol server over the writer `W`.
pub struct Server<W: Write + Send + 'static> {
    out: Arc<Out<W>>,
    opts: Options,
    game: Game,
    dialect: Dialect,
    /// `None` while a search thread holds it.
    searcher: Option<Searcher>,
    search: Option<Running>,
}

impl<W: Write + Send + 'static> Drop for Server<W> {
    /// Stop and join a search still running: its thread is never detached
    /// (`choro_engine::threads` says why).
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn start_game(opts: &Options) -> Result<Game, PositionError> {
    Ok(Game::new(opts.start_position()?).with_draw_plies(opts.draw_plies))
}

impl<W: Write + Send + 'static> Server<W> {
    /// A server with the default options and the Didinga start position.
    pub fn new(out: W) -> Result<Server<W>, PositionError> {
        let opts = Options::default();
        let game = start_game(&opts)?;
        let searcher = Searcher::new(opts.search_config());
        Ok(Server::assemble(out, opts, game, searcher))
    }

    /// A server whose `Hash` starts at `hash_mb` MiB instead of the
    /// default, the other options their defaults (the fuzzers' own, whose
    /// cost per session is mostly the writing of the default table); an
    /// error when the memory cannot be reserved.
    pub fn with_hash(out: W, hash_mb: usize) -> Result<Server<W>, String> {
        let mut opts = Options::default();
        opts.set("Hash", Some(&hash_mb.to_string()))
            .map_err(|e| e.to_string())?;
        let game = start_game(&opts).map_err(|e| e.to_string())?;
        let searcher = Searcher::try_new(opts.search_config())
            .map_err(|e| format!("cannot reserve {hash_mb} MiB: {e}"))?;
        Ok(Server::assemble(out, opts, game, searcher))
    }

    fn assemble(out: W, opts: Options, game: Game, searcher: Searcher) -> Server<W> {
        Server {
            out: Arc::new(Out {
                w: Mutex::new(out),
                broken: AtomicBool::new(false),
            }),
            searcher: Some(searcher),
            opts,
            game,
            dialect: Dialect::Plain,
            search: None,
        }
    }

    /// Run `f` on the writer (tests read and drain a `Vec<u8>` this way).
    pub fn with_output<R>(&self, f: impl FnOnce(&mut W) -> R) -> R {
        let mut w = self.out.w.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut w)
    }

    /// True once a write to the output has failed (the reader went away).
    pub fn output_broken(&self) -> bool {
        self.out.broken.load(Ordering::Relaxed)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Write one `info string error:` line.
    pub fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn note(&self, msg: &str) {
        self.out.line(&format!("info string {msg}"));
    }

    /// Parse and execute one input line. False when choro should end.
    pub fn command(&mut self, line: &str) -> bool {
        let result = match command::parse(line) {
            Ok(None) => return true,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(e) => Err(e.into()),
        };
        match result {
            Ok(go_on) => go_on,
            Err(e) => {
                self.error(&e.to_string());
                true
            }
        }
    }

    /// Execute a parsed command. `Ok(false)` for `quit`.
    pub fn execute(&mut self, cmd: Command) -> Result<bool, Error> {
        match cmd {
            Command::Ugi => self.handshake(Dialect::Ugi),
            Command::Uci => self.handshake(Dialect::Uci),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(_) => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::NewGame => {
                self.idle("new game")?;
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
                self.game = start_game(&self.opts).map_err(Error::Position)?;
            }
            Command::Position { start, moves } => self.position(start, &moves)?,
            Command::Go(g) => self.go(g)?,
            Command::Solve(r) => self.solve(r)?,
            Command::Stop => self.signal(|c| c.stop.store(true, Ordering::Release)),
            Command::PonderHit => self.signal(|c| c.pondering.store(false, Ordering::Release)),
            Command::Quit => {
                self.shutdown();
                return Ok(false);
            }
            Command::Query(q) => self.query(q),
            Command::Display => {
                for l in display::diagram(&self.game) {
                    self.out.line(&l);
                }
            }
            Command::Moves => self.list_moves(),
            Command::Perft(depth) => self.perft(depth, false)?,
            Command::Divide(depth) => self.perft(depth, true)?,
            Command::Eval => {
                for l in eval::lines(self.game.position()) {
                    self.out.line(&l);
                }
            }
            Command::Trace(m) => {
                let pos = self.game.position();
                if let Some(outcome) = self.game.outcome() {
                    return Err(Error::TraceAfterEnd(outcome));
                }
                for l in trace::lines(pos, &m).map_err(Error::Trace)? {
                    self.out.line(&l);
                }
            }
            Command::Bench => {
                self.idle("bench")?;
                let out = &self.out;
                bench::run(&bench::BenchArgs::default(), &mut |l| out.line(l))
                    .map_err(Error::Bench)?;
            }
        }
        Ok(true)
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.out
            .line(&format!("id name choro {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the choro authors");
        for l in Options::listing() {
            self.out.line(&l);
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            _ => "ugiok",
        });
    }

    /// Collect a search that has ended; true while one still runs.
    pub fn is_searching(&mut self) -> bool {
        let ended = match &self.search {
            None => return false,
            Some(r) => r.done.load(Ordering::Acquire) || r.handle.is_finished(),
        };
        if ended {
            self.join();
        }
        self.search.is_some()
    }

    fn idle(&mut self, what: &'static str) -> Result<(), Error> {
        if self.is_searching() {
            Err(Error::Busy(what))
        } else {
            Ok(())
        }
    }

    /// Take the searcher back from an ended search thread.
    fn join(&mut self) {
        if let Some(r) = self.search.take() {
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    self.error("the search thread failed; a fresh searcher takes over");
                    self.searcher = Some(Searcher::new(self.opts.search_config()));
                }
            }
        }
    }

    /// Change a flag of the running search and wake it; nothing when idle.
    fn signal(&mut self, f: impl FnOnce(&SearchControl)) {
        if let Some(r) = &self.search {
            f(&r.control);
            r.handle.thread().unpark();
        }
    }

    /// Wait until the running search ends by itself (tests; not for
    /// `go infinite`, which ends only on `stop`).
    pub fn wait(&mut self) {
        self.join();
    }

    /// Stop any running search and collect it, waiting a bounded time.
    pub fn shutdown(&mut self) {
        self.signal(|c| {
            c.stop.store(true, Ordering::Release);
            c.pondering.store(false, Ordering::Release);
        });
        let t = Instant::now();
        while let Some(r) = &self.search {
            if r.handle.is_finished() {
                self.join();
            } else if t.elapsed() > QUIT_GRACE {
                // A searcher that ignores `stop` must not keep choro alive.
                // Its handle is forgotten, not dropped: dropping detaches,
                // and detaching a thread that may be ending at that moment
                // is glibc's race (`choro_engine::threads`).
                if let Some(r) = self.search.take() {
                    std::mem::forget(r.handle);
                }
            } else {
                thread::sleep(Duration::from_millis(1));
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Error> {
        self.idle("setoption")?;
        let mut opts = self.opts.clone();
        let applied = opts.set(name, value).map_err(Error::Option)?;
        let game = match applied.reset {
            true => Some(start_game(&opts).map_err(Error::Position)?),
            false => None,
        };
        // The searcher's memory last of what can fail: a size it cannot
        // reserve changes nothing (`setoption name Hash value 65536` on a smaller machine
        // must not abort the process).
        // A size the system would grant as address space but cannot hold
        // (more than it has available, the memory given back counted) is
        // refused too: the table is written at once, and the out-of-memory
        // killer would end choro there (RELIABILITY.md finding 38).
        let cfg = opts.search_config();
        if let Some(s) = &mut self.searcher {
            if *s.config() != cfg {
                let held = s.memory_bytes() >> 20;
                let need = match cfg.algorithm {
                    Algorithm::AlphaBeta | Algorithm::Mcts => cfg.hash_mb,
                    Algorithm::Random | Algorithm::Greedy => 0,
                };
                let available = memory_available_mib().filter(|&a| !fits(need, held, a));
                if available.is_some() || s.try_set_config(cfg).is_err() {
                    return Err(if opts.hash_mb != self.opts.hash_mb {
                        Error::Memory {
                            option: "Hash",
                            mb: opts.hash_mb,
                            kept: self.opts.hash_mb.to_string(),
                            available,
                        }
                    } else {
                        Error::Memory {
                            option: "Algorithm",
                            mb: opts.hash_mb,
                            kept: self.opts.algorithm.name().to_string(),
                            available,
                        }
                    });
                }
            }
        }
        if let Some(g) = game {
            self.game = g;
        }
        self.opts = opts;
        if self.game.draw_plies() != self.opts.draw_plies {
            self.game = self.game.clone().with_draw_plies(self.opts.draw_plies);
        }
        if let Some(n) = applied.note {
            self.note(&n);
        }
        Ok(())
    }

    fn position(&mut self, start: Start, moves: &[Move]) -> Result<(), Error> {
        self.idle("position")?;
        let start = match start {
            Start::StartPos => self.opts.start_position().map_err(Error::Position)?,
            Start::Fen(p) => {
                if let Some(why) = self.opts.holds_disagree(&p) {
                    return Err(Error::Holds(why));
                }
                p
            }
        };
        let mut game = Game::new(start).with_draw_plies(self.opts.draw_plies);
        for (i, m) in moves.iter().enumerate() {
            if let Some(outcome) = game.outcome() {
                return Err(Error::AfterEnd {
                    index: i + 1,
                    mv: *m,
                    outcome,
                });
            }
            game.play(m)
                .map_err(|err| Error::Move { index: i + 1, err })?;
        }
        self.game = game;
        Ok(())
    }

    fn query(&self, q: Query) {
        let answer = match q {
            Query::GameOver => {
                if self.game.outcome().is_some() {
                    "true"
                } else {
                    "false"
                }
            }
            // A's turn in a game still going on: at `s2` (A's blind
            // start) and in a race at A's decisions; after a race, the
            // first to finish moves. No one's turn once the game is over.
            Query::P1Turn => {
                if self.game.outcome().is_none() && self.game.position().side_to_move() == Side::A {
                    "true"
                } else {
                    "false"
                }
            }
            Query::Result => match self.game.outcome() {
                None => "none",
                Some(Outcome::Win { winner: Side::A }) => "p1win",
                Some(Outcome::Win { winner: Side::B }) => "p2win",
                Some(Outcome::Draw(_)) => "draw",
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    fn list_moves(&self) {
        let pos = self.game.position();
        let mut any = false;
        pos.for_each_move(|m, p| {
            any = true;
            self.out.line(&format!("{} {p}", pos.restyle(*m)));
        });
        if !any {
            self.note("no legal move");
        }
    }

    /// `perft` and `divide` on the search thread, as `go` runs, so that the
    /// reading thread stays free: `stop`, `quit` and the end of input end
    /// it (the depths finished are kept); its summary line comes last.
    fn perft(&mut self, depth: u32, divide: bool) -> Result<(), Error> {
        let name = if divide { "divide" } else { "perft" };
        self.idle(name)?;
        let pos = *self.game.position();
        let control = Arc::new(SearchControl::default());
        let done = Arc::new(AtomicBool::new(false));
        let (out, ctl, fin) = (
            Arc::clone(&self.out),
            Arc::clone(&control),
            Arc::clone(&done),
        );
        self.spawn(name, control, done, move |searcher| {
            let req = PerftRequest {
                depth,
                divide,
                json: false,
            };
            let mut last: Option<String> = None;
            perft::report_until(&pos, req, &ctl.stop, &mut |l| {
                if let Some(prev) = last.replace(l.to_string()) {
                    out.line(&prev);
                }
            });
            if let Some(l) = last {
                out.last_line(&l, &fin);
            }
            searcher
        })
    }

    fn go(&mut self, g: Go) -> Result<(), Error> {
        // The move's time starts now, not when the search thread gets going.
        let received = Instant::now();
        self.idle("go")?;
        let pos = *self.game.position();
        let mut searchmoves = Vec::with_capacity(g.searchmoves.len());
        for (i, m) in g.searchmoves.iter().enumerate() {
            pos.play(m)
                .map_err(|err| Error::SearchMove { index: i + 1, err })?;
            searchmoves.push(pos.restyle(*m));
        }
        let ms = |t: Option<u64>| t.map(|t| Duration::from_millis(t.min(MAX_MS)));
        let limits = Limits {
            depth: g.depth,
            nodes: g.nodes,
            movetime: ms(g.movetime),
            time: g.time.map(ms),
            inc: g.inc.map(ms),
            movestogo: g.movestogo,
            mate: g.mate,
            infinite: g.infinite,
            searchmoves,
            start: Some(received),
        };
        let control = Arc::new(SearchControl::default());
        control.pondering.store(g.ponder, Ordering::Release);
        let done = Arc::new(AtomicBool::new(false));
        let job = Job {
            game: self.game.clone(),
            limits,
            control: Arc::clone(&control),
            done: Arc::clone(&done),
            out: Arc::clone(&self.out),
            dialect: self.dialect,
            show_ponder: self.dialect != Dialect::Ugi || self.opts.ponder,
            hold: g.infinite || g.ponder,
        };
        self.spawn("search", control, done, move |searcher| job.run(searcher))
    }

    /// Run `work` on the search thread with the searcher, which it hands
    /// back; `control` and `done` are the running job's flags.
    fn spawn(
        &mut self,
        name: &str,
        control: Arc<SearchControl>,
        done: Arc<AtomicBool>,
        work: impl FnOnce(Searcher) -> Searcher + Send + 'static,
    ) -> Result<(), Error> {
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => Searcher::new(self.opts.search_config()),
        };
        searcher.set_book(self.opts.own_book);
        let spawned = thread::Builder::new()
            .name(name.into())
            .stack_size(SEARCH_STACK)
            .spawn(move || work(searcher));
        match spawned {
            Ok(handle) => {
                self.search = Some(Running {
                    handle,
                    control,
                    done,
                });
                Ok(())
            }
            Err(e) => {
                self.searcher = Some(Searcher::new(self.opts.search_config()));
                Err(Error::Thread(e.to_string()))
            }
        }
    }
}

impl<W: Write + Send + 'static> Server<W> {
    /// `solve`: prove the current position's value on the search thread,
    /// with `Threads` threads and a table of `Hash` MiB; `stop` ends it
    /// with the bounds proven. The last line is `solution ...`.
    fn solve(&mut self, r: SolveReq) -> Result<(), Error> {
        let received = Instant::now();
        self.idle("solve")?;
        let pos = *self.game.position();
        if let Some(o) = self.game.outcome() {
            return Err(Error::Solve(format!(
                "the game is over ({o}): nothing to solve"
            )));
        }
        if pos.race_holds() > 0 {
            return Err(Error::Solve(crate::solve::HOLDS_UNSOLVED.to_string()));
        }
        // Alpha-beta: its `plies` limit bounds the whole solve, which a
        // proof-number search (unbounded in plies) would not respect.
        let config = choro_engine::solve::SolveConfig {
            threads: self.opts.threads,
            hash_mb: self.opts.hash_mb,
            algorithm: choro_engine::solve::Algorithm::Ab,
            ..Default::default()
        };
        // The search's memory is given back while the solver holds its
        // table of `Hash` MiB, so that the process holds one such table,
        // not two (`Hash` 256 held 518 MB; RELIABILITY.md finding 34), and
        // taken again when the solve ends.
        let kept = self.searcher.as_mut().map(|s| {
            let cfg = s.config().clone();
            let _ = s.try_set_config(SearchConfig {
                hash_mb: 0,
                ..cfg.clone()
            });
            cfg
        });
        let solver = match choro_engine::solve::Solver::new(&config) {
            Ok(s) => s,
            Err(e) => {
                if let (Some(s), Some(cfg)) = (&mut self.searcher, kept) {
                    if let Some(l) = take_back(s, cfg) {
                        self.error(&l);
                    }
                }
                return Err(Error::Solve(e));
            }
        };
        let limits = choro_engine::solve::SolveLimits {
            plies: r.plies,
            nodes: r.nodes,
            time: r
                .movetime
                .map(|t| Duration::from_millis(t.min(MAX_MS)).saturating_sub(received.elapsed())),
        };
        let control = Arc::new(SearchControl::default());
        let done = Arc::new(AtomicBool::new(false));
        let (out, ctl, fin) = (
            Arc::clone(&self.out),
            Arc::clone(&control),
            Arc::clone(&done),
        );
        self.spawn("solve", control, done, move |mut searcher| {
            let every = Duration::from_secs(1);
            let mut progress = |p: &choro_engine::solve::Progress| {
                out.line(&format!(
                    "info string solve {}",
                    crate::solve::progress_line(p)
                ))
            };
            let last = if pos.phase().is_blind() {
                match solver.solve_blind(&pos, &limits, &ctl.stop, every, &mut progress) {
                    Ok(b) => {
                        for l in crate::solve::blind_lines(&b) {
                            out.line(&format!("info string solve {l}"));
                        }
                        match &b.equilibrium {
                            Some(eq) => format!("solution blind value {:.4}", eq.value),
                            None => format!(
                                "solution blind unknown between {:.4} and {:.4}",
                                b.value_lo, b.value_hi
                            ),
                        }
                    }
                    Err(e) => format!("solution error {e}"),
                }
            } else {
                match solver.solve(&pos, &limits, &ctl.stop, every, &mut progress) {
                    Ok(s) => {
                        let mut l = format!("solution {}", crate::solve::value_text(&s));
                        if !s.pv.is_empty() {
                            let pv: Vec<String> = s.pv.iter().map(|m| m.to_string()).collect();
                            l.push_str(&format!(" pv {}", pv.join(" ")));
                        }
                        out.line(&format!(
                            "info string solve nodes {} proven {} time {:.2}",
                            s.nodes,
                            s.proven,
                            s.elapsed.as_secs_f64()
                        ));
                        l
                    }
                    Err(e) => format!("solution error {e}"),
                }
            };
            drop(solver);
            if let Some(l) = kept.and_then(|cfg| take_back(&mut searcher, cfg)) {
                out.line(&format!("info string error: {l}"));
            }
            out.last_line(&last, &fin);
            searcher
        })
    }
}

/// Whether a searcher's memory of `need` MiB fits where it holds `held`
/// MiB (given back when the new memory is taken) and the system reports
/// `available` MiB more: a table of 1 MiB or less always does.
fn fits(need: usize, held: usize, available: usize) -> bool {
    need <= 1 || need <= held.saturating_add(available)
}

/// The memory the system could give without swapping, in MiB
/// (`MemAvailable` of Linux's `/proc/meminfo`); `None` where it is not
/// known. A container's own limit is not seen.
fn memory_available_mib() -> Option<usize> {
    mem_available_mib(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
fn mem_available_mib(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut w = line.split_whitespace().skip(1);
    let n: usize = w.next()?.parse().ok()?;
    (w.next() == Some("kB")).then_some(n >> 10)
}

/// Give the searcher its memory back after a `solve` (`cfg`, its settings
/// before); an error line's text when it cannot be had again, the searcher
/// then searching with a table of one bucket until `Hash` is set again.
fn take_back(searcher: &mut Searcher, cfg: SearchConfig) -> Option<String> {
    let mb = cfg.hash_mb;
    match searcher.try_set_config(cfg.clone()) {
        Ok(()) => None,
        Err(_) => {
            // Everything but the memory as set.
            let _ = searcher.try_set_config(SearchConfig { hash_mb: 0, ..cfg });
            Some(format!(
                "solve: cannot reserve the search's {mb} MiB again; searching without a table until Hash is set"
            ))
        }
    }
}

/// One `go`, as the search thread runs it.
struct Job<W> {
    game: Game,
    limits: Limits,
    control: Arc<SearchControl>,
    done: Arc<AtomicBool>,
    out: Arc<Out<W>>,
    dialect: Dialect,
    show_ponder: bool,
    /// `go infinite` or `go ponder`: `bestmove` waits for `stop` (or `ponderhit`).
    hold: bool,
}

impl Server<Vec<u8>> {
    /// Execute `line` (a blank line does nothing), wait for a search that
    /// ends by itself, and take what was written since the last call, line
    /// by line. For tests and fuzzers; `quit` is executed like any line.
    pub fn answer(&mut self, line: &str) -> Vec<String> {
        self.command(line);
        self.wait();
        let bytes = self.with_output(std::mem::take);
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl<W: Write + Send + 'static> Job<W> {
    fn run(self, mut searcher: Searcher) -> Searcher {
        let pos = *self.game.position();
        let (best, ponder) = match self.game.outcome() {
            Some(o) => {
                self.out.line(&format!("info string game over: {o}"));
                (None, None)
            }
            None => {
                let (out, dialect) = (&self.out, self.dialect);
                let res = searcher.search(&self.game, &self.limits, &self.control, &mut |info| {
                    for l in info_lines(info, dialect, &pos) {
                        out.line(&l);
                    }
                });
                self.checked(&pos, res.best, res.ponder)
            }
        };
        self.hold_back();
        let line = bestmove_line(best, ponder.filter(|_| self.show_ponder));
        self.out.last_line(&line, &self.done);
        searcher
    }

    /// The search's answer if it is legal (and among `searchmoves`), else
    /// the first legal move with an error line.
    fn checked(
        &self,
        pos: &Position,
        best: Option<Move>,
        ponder: Option<Move>,
    ) -> (Option<Move>, Option<Move>) {
        let allowed =
            |m: &Move| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m);
        if let Some(m) = best.filter(allowed) {
            if let Ok(next) = pos.play(&m) {
                let ponder = ponder
                    .filter(|p| next.play(p).is_ok())
                    .map(|p| next.restyle(p));
                return (Some(pos.restyle(m)), ponder);
            }
        }
        let fallback = self.limits.searchmoves.first().copied().or_else(|| {
            let mut first = None;
            pos.generate(choro_engine::LAP_BUDGET, |m, _, _| {
                first = Some(pos.restyle(*m));
                false
            });
            first
        });
        let what = match best {
            None => "no move".to_string(),
            Some(m) if pos.play(&m).is_ok() => format!("{m}, which is not among searchmoves"),
            Some(m) => format!("the illegal move {m}"),
        };
        self.out.line(&format!(
            "info string error: the search returned {what}; playing {} instead",
            fallback.map_or("0000".to_string(), |m| m.to_string())
        ));
        (fallback, None)
    }

    /// Under `go infinite` (until `stop`) and `go ponder` (until `stop` or
    /// `ponderhit`), `bestmove` waits even when the search has ended.
    fn hold_back(&self) {
        if !self.hold {
            return;
        }
        loop {
            if self.control.stopped() {
                return;
            }
            if !self.limits.infinite && !self.control.pondering.load(Ordering::Acquire) {
                return;
            }
            thread::park_timeout(HOLD_POLL);
        }
    }
}

/// `bestmove <m> [ponder <m>]`, `bestmove 0000` without a move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

/// A score as `info` writes it in `dialect` (PROTOCOL.md, "Search").
pub fn score_text(s: Score, dialect: Dialect) -> String {
    match (s, dialect) {
        (Score::Cp(n), _) => format!("cp {n}"),
        (Score::Win(n), Dialect::Uci) => format!("mate {}", n.div_ceil(2)),
        (Score::Loss(n), Dialect::Uci) => match n.div_ceil(2) {
            0 => "mate 0".to_string(),
            m => format!("mate -{m}"),
        },
        (Score::Win(n), _) => format!("win {n}"),
        (Score::Loss(n), _) => format!("loss {n}"),
    }
}

/// The lines of one `info` report: the fields, then its text on a line of
/// its own (an `info string` runs to the end of the line).
pub fn info_lines(info: &Info, dialect: Dialect, root: &Position) -> Vec<String> {
    let mut s = String::from("info");
    let mut field = |k: &str, v: String| {
        s.push(' ');
        s.push_str(k);
        s.push(' ');
        s.push_str(&v);
    };
    if let Some(d) = info.depth {
        field("depth", d.to_string());
    }
    if let Some(d) = info.seldepth {
        field("seldepth", d.to_string());
    }
    if let Some(k) = info.multipv {
        field("multipv", k.to_string());
    }
    if let Some(sc) = info.score {
        field("score", score_text(sc, dialect));
    }
    if let Some(n) = info.nodes {
        field("nodes", n.to_string());
    }
    if let Some(n) = info.nps {
        field("nps", n.to_string());
    }
    if let Some(h) = info.hashfull {
        field("hashfull", h.to_string());
    }
    if let Some(t) = info.time_ms {
        field("time", t.to_string());
    }
    if let Some(m) = info.currmove {
        field("currmove", root.restyle(m).to_string());
    }
    if let Some(i) = info.currmovenumber {
        field("currmovenumber", i.to_string());
    }
    if !info.pv.is_empty() {
        // Every position of a game has the root's code and width, so the
        // root's style fits every move of the line.
        let pv: Vec<String> = info
            .pv
            .iter()
            .map(|m| root.restyle(*m).to_string())
            .collect();
        field("pv", pv.join(" "));
    }
    let mut lines = Vec::new();
    if s.len() > "info".len() {
        lines.push(s);
    }
    if let Some(t) = &info.string {
        lines.push(format!("info string {t}"));
    }
    lines
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn server() -> Server<Vec<u8>> {
        Server::new(Vec::new()).unwrap()
    }

    /// Send lines, wait for a search that ends by itself, return the output.
    fn talk(s: &mut Server<Vec<u8>>, lines: &[&str]) -> Vec<String> {
        for l in lines {
            assert!(s.command(l), "{l} ended the session");
        }
        s.answer("")
    }

    #[test]
    fn solve_proves_a_small_position_and_refuses_a_finished_game() {
        let mut s = server();
        let out = talk(
            &mut s,
            &[
                "position fen lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m",
                "solve",
            ],
        );
        assert_eq!(out.last().unwrap(), "solution loss 4 pv e xf xf k");
        let over = talk(
            &mut s,
            &[
                "position fen lango:8 0,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/1,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0 a m",
                "solve",
                "solve plies 0",
                "solve depth 3",
            ],
        );
        assert_eq!(
            over,
            [
                "info string error: solve: the game is over (B wins: A has no legal move): nothing to solve",
                "info string error: solve plies: 0 is out of range 1..4094",
                "info string error: solve: unexpected 'depth'",
            ]
        );
        // Stopped by its limit: the bounds proven, then the last line.
        let bounded = talk(&mut s, &["position startpos", "solve plies 3"]);
        assert!(bounded
            .last()
            .unwrap()
            .starts_with("solution blind unknown"));
    }

    #[test]
    fn a_timed_go_plays_the_solvers_proof_and_a_fixed_depth_does_not() {
        let mut s = server();
        let lost = "position fen lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
        let out = talk(
            &mut s,
            &[
                "ugi",
                "setoption name SolveShare value 10",
                lost,
                "go movetime 2000",
            ],
        );
        let n = out.len();
        assert!(
            out[n - 3].starts_with("info depth 4 score loss 4 nodes ")
                && out[n - 3].ends_with(" pv e xf xf k"),
            "{out:?}"
        );
        assert_eq!(
            out[n - 2],
            "info string solved: loss 4 for the side to move"
        );
        assert_eq!(out[n - 1], "bestmove e");
        for off in [
            vec![lost, "go depth 3"],
            vec!["setoption name SolveShare value 0", lost, "go movetime 300"],
        ] {
            let out = talk(&mut s, &off);
            assert!(!out.iter().any(|l| l.contains("solved")), "{out:?}");
        }
        let refused = talk(&mut s, &["setoption name SolveShare value 101"]);
        assert_eq!(
            refused,
            ["info string error: setoption: option SolveShare: 101 is out of range 0..100"]
        );
    }

    #[test]
    fn ugi_handshake_lists_every_option() {
        let mut s = server();
        let out = talk(&mut s, &["ugi"]);
        assert!(out[0].starts_with("id name choro "));
        assert_eq!(out[1], "id author the choro authors");
        let n = Options::listing().len();
        assert_eq!(&out[2..2 + n], Options::listing().as_slice());
        assert_eq!(out[2 + n], "ugiok");
        assert_eq!(out.len(), 3 + n);
        assert_eq!(talk(&mut s, &["uci"]).last().unwrap(), "uciok");
        assert_eq!(s.dialect(), Dialect::Uci);
    }

    #[test]
    fn go_depth_answers_one_legal_bestmove() {
        let mut s = server();
        let out = talk(&mut s, &["ugi", "position startpos", "go depth 1"]);
        let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1);
        let words: Vec<&str> = best[0].split(' ').collect();
        assert_eq!(words.len(), 2, "ugi: exactly two words");
        assert!(s.game().position().parse_move(words[1]).is_ok());
    }

    #[test]
    fn rejected_position_keeps_the_previous_one() {
        let mut s = server();
        talk(&mut s, &["position startpos moves m"]);
        let before = *s.game().position();
        for bad in [
            "position startpos moves m zz",
            // B's blind start must be in his back row.
            "position startpos moves m c",
            "position fen didinga:8 1,2 a m",
        ] {
            let out = talk(&mut s, &[bad]);
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(out[0].starts_with("info string error: "), "{}", out[0]);
            assert_eq!(*s.game().position(), before, "{bad}");
        }
    }

    /// RaceHolds (RULES.md 8.10): the start carries the holds, a game with
    /// holds plays through `position ... moves`, and each bad input (an
    /// option out of range, a hold where none is left, a position string
    /// whose holds disagree with the option) is one clear error line with
    /// the state unchanged.
    #[test]
    fn race_holds_bad_inputs_change_nothing() {
        let mut s = server();
        for bad in [
            "setoption name RaceHolds value 9",
            "setoption name RaceHolds value -1",
        ] {
            let out = talk(&mut s, &[bad]);
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(
                out[0].starts_with("info string error: setoption: option RaceHolds"),
                "{}",
                out[0]
            );
        }
        assert!(talk(&mut s, &["setoption name RaceHolds value 1"]).is_empty());
        talk(&mut s, &["position startpos moves m m _ ."]);
        let before = *s.game().position();
        assert!(before.to_string().contains(" r "), "{before}");
        let fen_old = "position fen didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a s2 0";
        let fen_two = fen_old.replace(" s2 ", " s2,holds=2 ");
        for (bad, says) in [
            // A held his one hold in tick 1: none left for tick 2's choice
            // (B's alone).
            ("position startpos moves m m _ . _ _", "no hold to take"),
            (fen_old, "holds but RaceHolds is 1"),
            (&fen_two, "holds but RaceHolds is 1"),
            ("position startpos moves m _", "no hold to take"),
        ] {
            talk(&mut s, &["position startpos moves m m _ ."]);
            let out = talk(&mut s, &[bad]);
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(
                out[0].starts_with("info string error: position"),
                "{}",
                out[0]
            );
            assert!(out[0].contains(says), "{bad}: {}", out[0]);
            assert_eq!(*s.game().position(), before, "{bad}");
        }
        // With the option back at 0 an old string is accepted again, and
        // one with holds is not.
        talk(&mut s, &["setoption name RaceHolds value 0"]);
        assert!(talk(&mut s, &[fen_old]).is_empty());
        assert_eq!(talk(&mut s, &[fen_two.as_str()]).len(), 1);
    }

    #[test]
    fn incomplete_move_is_named() {
        let mut s = server();
        let out = talk(
            &mut s,
            &[
                "setoption name Variant value acholi",
                "setoption name Opening value sequential",
                "position startpos moves ~k",
            ],
        );
        assert_eq!(out.len(), 1);
        assert!(out[0].contains("move 1: incomplete move ~k"), "{}", out[0]);
    }

    #[test]
    fn variant_resets_the_position_and_queries_follow_it() {
        let mut s = server();
        talk(&mut s, &["position startpos moves m"]);
        assert_eq!(talk(&mut s, &["query p1turn"]), vec!["response false"]);
        talk(&mut s, &["setoption name Variant value adjiboto"]);
        assert_eq!(
            s.game().position().to_string(),
            "adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0"
        );
        assert_eq!(
            talk(&mut s, &["query p1turn", "query gameover", "query result"]),
            vec!["response true", "response false", "response none"]
        );
    }

    /// `query p1turn` follows the side to move through the simultaneous
    /// opening, and is false once the game is over (PROTOCOL.md, "Queries").
    #[test]
    fn p1turn_through_the_simultaneous_opening() {
        let mut s = server();
        talk(&mut s, &["setoption name Variant value lango"]);
        // Lango: A and B start from b; A decides, B decides, A decides
        // twice, and B, who finished first, opens the main phase.
        let steps = [
            ("", "true", "s2"),
            ("b", "false", "s1:b"),
            ("b b", "true", "r"),
            ("b b -", "false", "r"),
            ("b b - +", "true", "r"),
            ("b b - + +", "true", "r"),
            ("b b - + + -", "false", "m"),
        ];
        for (moves, p1, phase) in steps {
            let cmd = format!("position startpos moves {moves}");
            let cmd = if moves.is_empty() {
                "position startpos"
            } else {
                &cmd
            };
            assert!(talk(&mut s, &[cmd]).is_empty(), "{cmd}");
            let pos = s.game().position().to_string();
            assert_eq!(pos.split(' ').nth(3), Some(phase), "{pos}");
            assert_eq!(
                talk(&mut s, &["query p1turn", "query gameover", "query result"]),
                vec![
                    format!("response {p1}"),
                    "response false".into(),
                    "response none".into()
                ],
                "{cmd}"
            );
        }
        // A race that never ends: a draw, and no one's turn.
        let fen =
            "didinga:8 0,2,3,5,1,1,1,2/1,3,5,0,1,5,3,1/3,3,3,0,0,0,1,5/5,0,3,2,0,5,0,0 a s2 0";
        let pos: Position = fen.parse().unwrap();
        let a = pos.legal_moves()[0];
        let b = a.1.legal_moves()[0];
        assert_eq!(b.1.phase(), choro_engine::Phase::RaceOver);
        let cmd = format!(
            "position fen {fen} moves {} {}",
            pos.restyle(a.0),
            a.1.restyle(b.0)
        );
        talk(&mut s, &[&cmd]);
        assert_eq!(
            talk(&mut s, &["query p1turn", "query gameover", "query result"]),
            vec!["response false", "response true", "response draw"]
        );
    }

    #[test]
    fn game_over_gives_bestmove_0000() {
        let mut s = server();
        // B has only singletons: no legal move, A has won.
        let fen = "didinga:8 1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 b m";
        let out = talk(
            &mut s,
            &[&format!("position fen {fen}"), "query result", "go depth 3"],
        );
        assert_eq!(
            out,
            vec![
                "response p1win",
                "info string game over: A wins: B has no legal move",
                "bestmove 0000"
            ]
        );
    }

    #[test]
    fn infinite_and_ponder_hold_bestmove_back() {
        let mut s = server();
        s.command("go infinite");
        thread::sleep(Duration::from_millis(30));
        let out = String::from_utf8(s.with_output(std::mem::take)).unwrap();
        assert!(!out.contains("bestmove"), "{out}");
        assert!(s.is_searching());
        let out = talk(&mut s, &["isready", "go depth 1", "stop"]);
        assert_eq!(out[0], "readyok");
        assert!(out[1].contains("go while searching"), "{}", out[1]);
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);

        s.command("go ponder depth 2");
        thread::sleep(Duration::from_millis(30));
        assert!(s.is_searching());
        let out = talk(&mut s, &["ponderhit"]);
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        assert!(!s.is_searching());
    }

    #[test]
    fn searchmoves_must_be_legal() {
        let mut s = server();
        let out = talk(&mut s, &["go searchmoves m c"]);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string error: go searchmoves: move 2"),
            "{}",
            out[0]
        );
        let out = talk(&mut s, &["go searchmoves n depth 1"]);
        assert_eq!(out.last().unwrap(), "bestmove n");
    }

    #[test]
    fn searchmoves_of_merging_paths_are_answered_from_the_list() {
        // RELIABILITY.md finding 3: both listed paths end in positions that
        // earlier paths reach too; every searcher answers with a listed one.
        let mut s = server();
        let fen = "acholi:8 3,4,7,1,1,4,8,3/2,3,2,1,0,5,6,1/2,0,0,0,0,0,1,0/0,0,2,2,2,1,2,1 a m 32";
        talk(&mut s, &[&format!("position fen {fen} moves n")]);
        for algorithm in ["alphabeta", "mcts", "random", "greedy"] {
            let out = talk(
                &mut s,
                &[
                    &format!("setoption name Algorithm value {algorithm}"),
                    "go depth 2 nodes 300 searchmoves ~k+=~k=~k=i+ ~k=~k+=~i++=g",
                ],
            );
            assert!(
                !out.iter().any(|l| l.contains("error")),
                "{algorithm}: {out:?}"
            );
            let last = out.last().unwrap();
            let best = last.split(' ').nth(1).unwrap_or("");
            assert!(
                best == "~k+=~k=~k=i+" || best == "~k=~k+=~i++=g",
                "{algorithm}: {last}"
            );
        }
    }

    #[test]
    fn movetime_with_a_shorter_clock_keeps_to_the_clock() {
        // A harness that gives both allows the smaller (MATCH.md).
        let mut s = server();
        talk(&mut s, &["setoption name Variant value adjiboto"]);
        for algorithm in ["alphabeta", "mcts"] {
            talk(
                &mut s,
                &[&format!("setoption name Algorithm value {algorithm}")],
            );
            let t = Instant::now();
            let out = talk(&mut s, &["go movetime 300 wtime 100 btime 100"]);
            let took = t.elapsed();
            assert!(out.last().unwrap().starts_with("bestmove"), "{out:?}");
            // (100 - 10) / 2 = 45 ms at most, not the movetime's 290.
            assert!(took < Duration::from_millis(200), "{algorithm}: {took:?}");
        }
    }

    /// A `Hash` the system cannot hold is refused before its table is
    /// written (RELIABILITY.md finding 38): the available memory is read
    /// from `/proc/meminfo`, and the table given back counts.
    #[test]
    fn hash_must_fit_the_available_memory() {
        let meminfo = "MemTotal:       24683568 kB\nMemFree:        20512000 kB\n\
                       MemAvailable:   22708224 kB\nBuffers:          1000 kB\n";
        assert_eq!(mem_available_mib(meminfo), Some(22176));
        assert_eq!(mem_available_mib("MemFree: 1 kB\n"), None);
        assert_eq!(mem_available_mib("MemAvailable: x kB\n"), None);
        assert!(fits(16, 16, 0));
        assert!(fits(22176 + 16, 16, 22176));
        assert!(!fits(22176 + 17, 16, 22176));
        assert!(fits(1, 0, 0));
        assert!(!fits(2, 0, 0));
        // The server's own reading, where there is one: a Hash beyond it is
        // refused with one error line naming it, the previous Hash kept.
        // The size asked for is beyond the memory and swap in all too, so
        // that Linux refuses to reserve it even if this check did not.
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let kb = |key: &str| -> Option<usize> {
            let l = meminfo.lines().find(|l| l.starts_with(key))?;
            l.split_whitespace().nth(1)?.parse().ok()
        };
        if let (Some(total), Some(swap), Some(_)) =
            (kb("MemTotal:"), kb("SwapTotal:"), memory_available_mib())
        {
            let mb = (total + swap) / 1024 + 1024;
            if mb <= 65536 {
                let mut s = server();
                let out = talk(&mut s, &[&format!("setoption name Hash value {mb}")]);
                assert_eq!(out.len(), 1, "{out:?}");
                assert!(
                    out[0].starts_with(&format!(
                        "info string error: setoption: option Hash: cannot reserve {mb} MiB; Hash keeps 16 (the system has "
                    )),
                    "{out:?}"
                );
                assert_eq!(s.options().hash_mb, 16);
            }
        }
    }

    #[test]
    fn scores_per_dialect() {
        assert_eq!(score_text(Score::Cp(-35), Dialect::Ugi), "cp -35");
        assert_eq!(score_text(Score::Win(3), Dialect::Ugi), "win 3");
        assert_eq!(score_text(Score::Loss(4), Dialect::Plain), "loss 4");
        assert_eq!(score_text(Score::Win(3), Dialect::Uci), "mate 2");
        assert_eq!(score_text(Score::Win(1), Dialect::Uci), "mate 1");
        assert_eq!(score_text(Score::Loss(4), Dialect::Uci), "mate -2");
        assert_eq!(score_text(Score::Loss(0), Dialect::Uci), "mate 0");
    }

    #[test]
    fn info_fields_in_order_and_text_apart() {
        let root = Position::startpos(choro_engine::Variant::Didinga, 8).unwrap();
        let m: Move = "13".parse().unwrap();
        let info = Info {
            depth: Some(3),
            seldepth: Some(5),
            score: Some(Score::Cp(12)),
            nodes: Some(100),
            nps: Some(1000),
            time_ms: Some(100),
            pv: vec![m, m],
            string: Some("hello\nworld".into()),
            ..Info::default()
        };
        let l = info_lines(&info, Dialect::Ugi, &root);
        assert_eq!(
            l[0],
            "info depth 3 seldepth 5 score cp 12 nodes 100 nps 1000 time 100 pv m m"
        );
        assert_eq!(l[1], "info string hello\nworld");
        let mut s = server();
        s.out.line(&l[1]);
        assert_eq!(talk(&mut s, &[]), vec!["info string hello world"]);
        s.out.line("a\r\u{0}b\u{7f}\u{1b}[2J\tc");
        assert_eq!(talk(&mut s, &[]), vec![r"a \u{0}b\u{7f}\u{1b}[2J\tc"]);
    }

    #[test]
    fn bestmove_words() {
        let a: Move = "a".parse().unwrap();
        let b: Move = "b".parse().unwrap();
        assert_eq!(bestmove_line(None, Some(a)), "bestmove 0000");
        assert_eq!(bestmove_line(Some(a), None), "bestmove a");
        assert_eq!(bestmove_line(Some(a), Some(b)), "bestmove a ponder b");
    }

    /// Random lines from the protocol's own words: no panic, no hang, and
    /// the server still answers afterwards.
    #[test]
    fn random_lines_never_break_the_server() {
        const WORDS: [&str; 45] = [
            "uci",
            "ugi",
            "isready",
            "setoption",
            "name",
            "value",
            "Variant",
            "Columns",
            "Hash",
            "DrawPlies",
            "Ponder",
            "lango",
            "acholi",
            "adjiboto",
            "didinga",
            "true",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "depth",
            "infinite",
            "ponder",
            "searchmoves",
            "stop",
            "ponderhit",
            "query",
            "gameover",
            "result",
            "p1turn",
            "d",
            "eval",
            "trace",
            "divide",
            "perft",
            "uginewgame",
            "m",
            "~k=a-",
            "x3",
            "1",
            "2",
            "-7",
            "99999999999999999999999",
            "\u{0}\u{7f}é",
        ];
        let mut s = server();
        let mut rng = choro_engine::rng::Rng::new(1);
        let mut rnd = |n: usize| rng.below(n);
        for _ in 0..3000 {
            let len = rnd(8);
            let line: Vec<&str> = (0..len).map(|_| WORDS[rnd(WORDS.len())]).collect();
            assert!(s.command(&line.join(" ")) || line.first() == Some(&"quit"));
            if rnd(4) == 0 {
                s.command("stop");
            }
            s.with_output(Vec::clear);
        }
        s.command("stop");
        s.wait();
        s.with_output(Vec::clear);
        assert_eq!(talk(&mut s, &["isready"]), vec!["readyok"]);
    }

    #[test]
    fn quit_ends_and_unknown_goes_on() {
        let mut s = server();
        assert!(s.command("hello"));
        assert!(s.command(""));
        s.command("go infinite");
        let t = Instant::now();
        assert!(!s.command("quit"));
        assert!(t.elapsed() < Duration::from_secs(1));
        let out = String::from_utf8(s.with_output(std::mem::take)).unwrap();
        assert!(
            out.starts_with("info string error: unknown command 'hello'\n"),
            "{out}"
        );
        assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
    }
}
