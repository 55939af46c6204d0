//! The protocol server fed arbitrary byte streams, in memory through its
//! generic writer. Each input runs twice:
//!
//! - line by line through [`Server::command`] (split by the protocol's own
//!   [`LineReader`]), checking after every line: a command answered with an
//!   `info string error:` line wrote exactly one and left the state (game,
//!   options, dialect) as it was; `isready` is still answered; every
//!   accepted `go` gets exactly one `bestmove`, legal in the position it
//!   searched (and among `searchmoves`, two words after `ugi` without
//!   `Ponder`), and its `pv` lines are legal; every accepted `solve` gets
//!   exactly one `solution` line, not an error, whose `pv` is legal from the
//!   position solved; no output line holds a control character or bad UTF-8; no search outlives `stop` by more than
//!   [`HARD`];
//! - whole, through [`choro::run`] as the binary reads stdin: it ends, and
//!   answers every `isready` before `quit`.
//!
//! Requests whose cost is their point are blanked before either run
//! (`perft`/`divide` deeper than 2, `bench`, `Hash` above 64 MiB, `Threads`
//! above 4): they are served as documented, only slowly.

use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro::command::{Command, Go};
use choro::input::{Line, LineReader, MAX_LINE};
use choro::options::Options;
use choro::server::Dialect;
use choro::Server;
use choro_engine::{Move, Opening, Position, Variant};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Longest line of the line-by-line run; longer ones exercise the
/// too-long path.
pub const CAP: usize = 4096;
/// A bounded `go` that has not ended after this long is stopped (counted,
/// not a failure: a deep `go depth` may take long).
pub const SOFT: Duration = Duration::from_millis(1500);
/// After `stop`, `bestmove` must come within this (the promise is 50 ms;
/// the margin is for loaded machines).
pub const HARD: Duration = Duration::from_secs(2);
/// The `Hash` (MiB) of the `server` target's servers. Each `Server` writes
/// its whole table when it is made (so that no search takes its page
/// faults), and an input makes two: at the default 16 MiB that writing was
/// most of an input's cost. The `server-default` target keeps the default.
pub const FUZZ_HASH_MB: usize = 1;

pub const DICT: &[&str] = &[
    "uci",
    "ugi",
    "isready",
    "setoption",
    "name",
    "value",
    "Variant",
    "Columns",
    "Opening",
    "Threads",
    "Hash",
    "Algorithm",
    "MultiPV",
    "Ponder",
    "MoveOverhead",
    "Seed",
    "DrawPlies",
    "didinga",
    "lango",
    "acholi",
    "adjiboto",
    "alphabeta",
    "mcts",
    "random",
    "greedy",
    "true",
    "false",
    "uginewgame",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "solve",
    "plies",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "query",
    "gameover",
    "p1turn",
    "result",
    "d",
    "eval",
    "divide",
    "debug",
    "on",
    "off",
    "m",
    "a",
    "~k=a-",
    "xf-+",
    "~i+",
    "13",
    "0000",
    "\u{0}",
    "\u{7f}",
    "é",
    "\r",
    "\t",
    "\u{1b}[2J",
];

pub struct ServerTarget {
    /// `Hash` of each `Server` made: [`FUZZ_HASH_MB`] (target `server`), or
    /// `None` for the protocol's default (target `server-default`).
    pub hash_mb: Option<usize>,
    /// Count, instead of failing on, the searcher's own faults that the
    /// protocol covers (an answer outside `searchmoves` or illegal, which
    /// choro replaces by a legal move; an illegal `pv`).
    pub lenient_search: bool,
    /// A bounded `go` not done after this long is stopped ([`SOFT`] by
    /// default; the volume runs of RELIABILITY.md use less, so that a deep
    /// `go depth` costs a stop rather than seconds of waiting).
    pub soft: Duration,
    /// Those faults, and the first one seen.
    pub search_faults: u64,
    pub first_search_fault: Option<String>,
    pub pv_faults: u64,
    pub first_pv_fault: Option<String>,
    pub lines: u64,
    pub rejected: u64,
    pub gos: u64,
    pub bestmoves: u64,
    pub forced_stops: u64,
    pub pv_lines: u64,
    pub quits: u64,
    pub stream_runs: u64,
    pub solves: u64,
    pub solutions: u64,
}

impl Default for ServerTarget {
    fn default() -> ServerTarget {
        ServerTarget {
            hash_mb: Some(FUZZ_HASH_MB),
            lenient_search: false,
            soft: SOFT,
            search_faults: 0,
            first_search_fault: None,
            pv_faults: 0,
            first_pv_fault: None,
            lines: 0,
            rejected: 0,
            gos: 0,
            bestmoves: 0,
            forced_stops: 0,
            pv_lines: 0,
            quits: 0,
            stream_runs: 0,
            solves: 0,
            solutions: 0,
        }
    }
}

/// What a rejected command must leave unchanged.
#[derive(Debug, PartialEq)]
struct State {
    start: Position,
    moves: Vec<Move>,
    pos: Position,
    draw_plies: u32,
    opts: Options,
    dialect: Dialect,
}

impl State {
    fn of<W: std::io::Write + Send + 'static>(s: &Server<W>) -> State {
        let g = s.game();
        State {
            start: *g.start(),
            moves: g.moves().to_vec(),
            pos: *g.position(),
            draw_plies: g.draw_plies(),
            opts: s.options().clone(),
            dialect: s.dialect(),
        }
    }
}

/// An accepted `go` waiting for its `bestmove`.
struct Pending {
    pos: Position,
    over: bool,
    searchmoves: Vec<Move>,
    two_words: bool,
}

impl Target for ServerTarget {
    fn name(&self) -> &'static str {
        match self.hash_mb {
            Some(_) => "server",
            None => "server-default",
        }
    }

    fn corpus(&self) -> &'static str {
        "server"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        16 * 1024
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        let s = script(rng);
        if rng.chance(1, 4) {
            mutate::words(rng, &s, DICT).into_bytes()
        } else {
            s.into_bytes()
        }
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        match (rng.below(3), std::str::from_utf8(base)) {
            (0, Ok(s)) => mutate::words(rng, s, DICT).into_bytes(),
            (1, Ok(s)) => {
                // Splice a fresh script into an old one, line-wise.
                let mut lines: Vec<&str> = s.split('\n').collect();
                let fresh = script(rng);
                let at = rng.below(lines.len() + 1);
                lines.splice(at..at, fresh.split('\n'));
                lines.join("\n").into_bytes()
            }
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                d
            }
        }
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let input = sanitize(input);
        self.line_by_line(&input)?;
        self.stream(&input)
    }

    fn stats(&self) -> String {
        let mut faults = String::new();
        if let Some(f) = &self.first_search_fault {
            faults += &format!(
                "\n  SEARCHER ANSWERS REPLACED {} (lenient), the first: {f}",
                self.search_faults
            );
        }
        if let Some(f) = &self.first_pv_fault {
            faults += &format!(
                "\n  ILLEGAL PV LINES {} (lenient), the first: {f}",
                self.pv_faults
            );
        }
        format!(
            "lines {} rejected {} go {} bestmove {} forced-stops {} pv-lines {} quits {} stream-runs {} solve {} solution {}{faults}",
            self.lines,
            self.rejected,
            self.gos,
            self.bestmoves,
            self.forced_stops,
            self.pv_lines,
            self.quits,
            self.stream_runs,
            self.solves,
            self.solutions,
        )
    }
}

/// Option names match ignoring case and white space.
fn option_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// True for a line that asks for work whose cost is the point.
fn costly(line: &str) -> bool {
    match choro::parse(line) {
        Ok(Some(Command::Perft(d) | Command::Divide(d))) => d > 2,
        Ok(Some(Command::Bench)) => true,
        Ok(Some(Command::SetOption { name, value })) => {
            let v = value
                .as_deref()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(0);
            match option_key(&name).as_str() {
                "hash" => v > 64,
                "threads" => v > 4,
                _ => false,
            }
        }
        _ => false,
    }
}

/// The input with costly lines blanked (line feeds kept).
pub fn sanitize(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    for (i, piece) in input.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        match std::str::from_utf8(piece) {
            Ok(l) if costly(l) => {}
            _ => out.extend_from_slice(piece),
        }
    }
    out
}

fn drain(s: &Server<Vec<u8>>) -> Result<Vec<String>, String> {
    let bytes = s.with_output(std::mem::take);
    let text = String::from_utf8(bytes).map_err(|e| format!("output is not UTF-8: {e}"))?;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    for l in &lines {
        if let Some(c) = l.chars().find(|c| c.is_control()) {
            return Err(format!(
                "output line holds the control character {:?}: {}",
                c,
                l.escape_debug()
            ));
        }
    }
    Ok(lines)
}

/// The search thread's own error line (a fallback move was played).
fn search_error(l: &str) -> bool {
    l.starts_with("info string error: the search returned")
}

/// Wait for the running search to end; false if it is still running after
/// `limit`.
fn wait_search(s: &mut Server<Vec<u8>>, limit: Duration) -> bool {
    let t = Instant::now();
    while s.is_searching() {
        if t.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    true
}

fn bounded(g: &Go) -> bool {
    !g.infinite
        && !g.ponder
        && (g.depth.is_some()
            || g.nodes.is_some()
            || g.movetime.is_some()
            || g.time.iter().any(Option::is_some)
            || g.mate.is_some())
}

impl ServerTarget {
    /// A fresh server with this target's `Hash`.
    fn server(&self) -> Result<Server<Vec<u8>>, String> {
        match self.hash_mb {
            Some(mb) => Server::with_hash(Vec::new(), mb),
            None => Server::new(Vec::new()).map_err(|e| format!("Server::new: {e}")),
        }
    }

    fn line_by_line(&mut self, input: &[u8]) -> Result<(), String> {
        let mut s = self.server()?;
        let mut reader = LineReader::new(input, CAP);
        let mut pending: VecDeque<Pending> = VecDeque::new();
        // Accepted `solve`s waiting for their `solution`, by position.
        let mut solving: VecDeque<Position> = VecDeque::new();
        let mut number = 0u64;
        loop {
            let line = match reader.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(e) => return Err(format!("reading the input: {e}")),
            };
            number += 1;
            self.lines += 1;
            let before = State::of(&s);
            let mut go: Option<(Go, Pending)> = None;
            let mut solve: Option<(bool, Position)> = None;
            let mut go_on = true;
            let mut is_quit = false;
            let text = match &line {
                Line::Text(t) => t.clone(),
                Line::TooLong(n) => format!("<{n} bytes>"),
                Line::NotUtf8(_) => "<not UTF-8>".into(),
            };
            let t0 = Instant::now();
            match line {
                Line::Text(t) => {
                    if let Ok(Some(cmd)) = choro::parse(&t) {
                        is_quit = cmd == Command::Quit;
                        if let Command::Solve(r) = &cmd {
                            let bounded =
                                r.plies.is_some() || r.nodes.is_some() || r.movetime.is_some();
                            solve = Some((bounded, *s.game().position()));
                        }
                        if let Command::Go(g) = cmd {
                            let pos = *s.game().position();
                            let p = Pending {
                                pos,
                                over: s.game().outcome().is_some(),
                                searchmoves: g.searchmoves.clone(),
                                two_words: s.dialect() == Dialect::Ugi && !s.options().ponder,
                            };
                            go = Some((g, p));
                        }
                    }
                    go_on = s.command(&t);
                }
                Line::TooLong(n) => s.error(&format!("line {number}: {n} bytes; ignored")),
                Line::NotUtf8(at) => s.error(&format!("line {number}: not UTF-8 at {at}; ignored")),
            }
            let took = t0.elapsed();
            let out = drain(&s)?;
            let errors = out
                .iter()
                .filter(|l| l.starts_with("info string error:") && !search_error(l))
                .count();
            if errors > 1 {
                return Err(format!(
                    "line {number} '{}': {errors} error lines: {out:?}",
                    text.escape_debug()
                ));
            }
            if errors == 1 {
                self.rejected += 1;
                let after = State::of(&s);
                if after != before {
                    return Err(format!(
                        "line {number} '{}' was rejected but changed the state:\n  before {before:?}\n  after  {after:?}\n  output {out:?}",
                        text.escape_debug()
                    ));
                }
            }
            let mut wait_for = None;
            let mut wait_for_solve = false;
            if let Some((g, p)) = go {
                if errors == 0 {
                    self.gos += 1;
                    pending.push_back(p);
                    if bounded(&g) {
                        wait_for = Some(g);
                    }
                }
            }
            if let Some((bounded, pos)) = solve {
                if errors == 0 {
                    self.solves += 1;
                    solving.push_back(pos);
                    if bounded {
                        wait_for_solve = true;
                    }
                }
            }
            self.answers(&out, &mut pending, &mut solving)?;
            if !go_on {
                self.quits += 1;
                if !is_quit {
                    return Err(format!(
                        "line {number} '{}' ended the session",
                        text.escape_debug()
                    ));
                }
                if took > Duration::from_millis(1500) {
                    return Err(format!("quit took {took:?}"));
                }
                if s.is_searching() {
                    return Err("a search still runs after quit".into());
                }
                // A stopped search's bestmove may still have been written.
                return Ok(());
            }
            if (wait_for.is_some() || wait_for_solve) && !wait_search(&mut s, self.soft) {
                self.forced_stops += 1;
                s.command("stop");
                if !wait_search(&mut s, HARD) {
                    return Err(format!(
                        "line {number} '{}': no bestmove within {HARD:?} of stop",
                        text.escape_debug()
                    ));
                }
            }
            let out = drain(&s)?;
            self.answers(&out, &mut pending, &mut solving)?;
            s.command("isready");
            let out = drain(&s)?;
            if !out.iter().any(|l| l == "readyok") {
                return Err(format!(
                    "no readyok after line {number} '{}': {out:?}",
                    text.escape_debug()
                ));
            }
            self.answers(&out, &mut pending, &mut solving)?;
        }
        if s.is_searching() {
            s.command("stop");
            if !wait_search(&mut s, HARD) {
                return Err(format!("no bestmove within {HARD:?} of the final stop"));
            }
        }
        let out = drain(&s)?;
        self.answers(&out, &mut pending, &mut solving)?;
        if !pending.is_empty() {
            return Err(format!("{} accepted go without a bestmove", pending.len()));
        }
        if !solving.is_empty() {
            return Err(format!(
                "{} accepted solve without a solution",
                solving.len()
            ));
        }
        Ok(())
    }

    /// Check the search's answers among `out` against the pending `go`s.
    fn answers(
        &mut self,
        out: &[String],
        pending: &mut VecDeque<Pending>,
        solving: &mut VecDeque<Position>,
    ) -> Result<(), String> {
        for l in out {
            if let Some(rest) = l.strip_prefix("solution ") {
                self.solutions += 1;
                let pos = solving
                    .pop_front()
                    .ok_or_else(|| format!("'{l}' without an accepted solve"))?;
                if rest.starts_with("error") {
                    return Err(format!("'{l}' for {pos}"));
                }
                // The line of best play is legal from the position solved.
                if let Some(i) = rest.find(" pv ") {
                    let mut p = pos;
                    for m in rest[i + 4..].split_ascii_whitespace() {
                        p = p
                            .parse_move(m)
                            .map_err(|e| format!("'{l}': pv move {m} illegal in {p}: {e}"))?
                            .1;
                    }
                }
                continue;
            }
            if search_error(l) {
                self.search_fault(format!("the searcher's answer was replaced: {l}"))?;
            }
            if let Some(rest) = l.strip_prefix("bestmove") {
                self.bestmoves += 1;
                let p = pending
                    .pop_front()
                    .ok_or_else(|| format!("'{l}' without an accepted go"))?;
                let w: Vec<&str> = rest.split_ascii_whitespace().collect();
                if p.over {
                    if l != "bestmove 0000" {
                        return Err(format!("'{l}' after the end of the game"));
                    }
                    continue;
                }
                if w.len() != 1 && !(w.len() == 3 && w[1] == "ponder") {
                    return Err(format!("malformed '{l}'"));
                }
                if p.two_words && w.len() != 1 {
                    return Err(format!("'{l}' after ugi without Ponder"));
                }
                let (m, next) = p
                    .pos
                    .parse_move(w[0])
                    .map_err(|e| format!("'{l}' is not legal in {}: {e}", p.pos))?;
                if !p.searchmoves.is_empty() && !p.searchmoves.contains(&m) {
                    return Err(format!(
                        "'{l}' is not among searchmoves {:?}",
                        p.searchmoves
                    ));
                }
                if w.len() == 3 {
                    next.parse_move(w[2])
                        .map_err(|e| format!("'{l}': ponder move illegal in {next}: {e}"))?;
                }
            } else if let Some(i) = l.find(" pv ") {
                if !l.starts_with("info ") || l.starts_with("info string") {
                    continue;
                }
                self.pv_lines += 1;
                let p = pending
                    .front()
                    .ok_or_else(|| format!("'{l}' without a search"))?;
                let mut pos = p.pos;
                for m in l[i + 4..].split_ascii_whitespace() {
                    match pos.parse_move(m) {
                        Ok((_, next)) => pos = next,
                        Err(e) => {
                            let what = format!(
                                "'{l}': pv move {m} illegal in {pos}: {e} (root {})",
                                p.pos
                            );
                            if !self.lenient_search {
                                return Err(what);
                            }
                            self.pv_faults += 1;
                            self.first_pv_fault.get_or_insert(what);
                            break;
                        }
                    }
                }
            } else if l.starts_with("info string game over") {
                match pending.front() {
                    Some(p) if p.over => {}
                    _ => return Err(format!("'{l}' for a game that is not over")),
                }
            }
        }
        Ok(())
    }

    fn search_fault(&mut self, what: String) -> Result<(), String> {
        if !self.lenient_search {
            return Err(what);
        }
        self.search_faults += 1;
        self.first_search_fault.get_or_insert(what);
        Ok(())
    }

    /// The whole input through `choro::run`, as the binary reads stdin.
    fn stream(&mut self, input: &[u8]) -> Result<(), String> {
        self.stream_runs += 1;
        let mut s = self.server()?;
        choro::run(input, &mut s);
        let out = drain(&s)?;
        // Every isready before quit is answered.
        let mut reader = LineReader::new(input, MAX_LINE);
        let mut asked = 0;
        while let Ok(Some(l)) = reader.next_line() {
            if let Line::Text(t) = l {
                match choro::parse(&t) {
                    Ok(Some(Command::IsReady)) => asked += 1,
                    Ok(Some(Command::Quit)) => break,
                    _ => {}
                }
            }
        }
        let answered = out.iter().filter(|l| *l == "readyok").count();
        if answered != asked {
            return Err(format!("stream: {asked} isready, {answered} readyok"));
        }
        Ok(())
    }
}

const OPTION_NAMES: &[&str] = &[
    "OwnBook",
    "Variant",
    "Columns",
    "Opening",
    "Threads",
    "Hash",
    "Algorithm",
    "MultiPV",
    "Ponder",
    "MoveOverhead",
    "Seed",
    "DrawPlies",
    "Move Overhead",
    "UCI_Chess960",
];

/// What the script generator believes the server's game to be.
struct Model {
    variant: Variant,
    columns: u8,
    opening: Opening,
    pos: Position,
}

impl Model {
    fn start(&self) -> Position {
        let w = if self.variant == Variant::Didinga {
            self.columns
        } else {
            self.variant.default_width()
        };
        Position::start(self.variant, w, self.opening).unwrap_or(self.pos)
    }
}

fn random_case(rng: &mut Rng, s: &str) -> String {
    match rng.below(6) {
        0 => s.to_lowercase(),
        1 => s.to_uppercase(),
        _ => s.to_string(),
    }
}

fn setoption(rng: &mut Rng, m: &mut Model) -> String {
    let name = *rng.pick(OPTION_NAMES);
    let value: String = match name {
        "Variant" => {
            let v = *rng.pick(&Variant::ALL);
            m.variant = v;
            m.pos = m.start();
            random_case(rng, v.name())
        }
        "Columns" => {
            let c = rng.range(7, 17);
            if (8..=16).contains(&c) {
                m.columns = c as u8;
                m.pos = m.start();
            }
            c.to_string()
        }
        "Opening" => {
            let o = *rng.pick(&["sequential", "simultaneous", "simultaneous", "both"]);
            if let Ok(opening) = o.parse() {
                // Applies from the next `position startpos`.
                m.opening = opening;
            }
            random_case(rng, o)
        }
        "Threads" => rng.range(0, 4).to_string(),
        "Hash" => rng.range(0, 64).to_string(),
        "Algorithm" => rng
            .pick(&[
                "alphabeta",
                "mcts",
                "mcts",
                "alphabeta",
                "random",
                "greedy",
                "minimax",
            ])
            .to_string(),
        "MultiPV" => rng.range(0, 4).to_string(),
        "Ponder" | "OwnBook" => rng.pick(&["true", "false", "TRUE", "maybe"]).to_string(),
        "MoveOverhead" => rng.range(-1, 200).to_string(),
        "Seed" => rng.range(-1, 3_000_000_000).to_string(),
        "DrawPlies" => rng.range(0, 300).to_string(),
        _ => rng.pick(mutate::EDGE_NUMBERS).to_string(),
    };
    let name = random_case(rng, name);
    match rng.below(12) {
        0 => format!("setoption name {name}"),
        1 => format!("setoption {name} value {value}"),
        _ => format!("setoption name {name} value {value}"),
    }
}

fn position(rng: &mut Rng, m: &mut Model) -> String {
    let (head, from) = if rng.chance(3, 5) {
        ("startpos".to_string(), m.start())
    } else {
        let p = gen::any_position(rng);
        (format!("fen {p}"), p)
    };
    let max = if rng.chance(1, 4) { 60 } else { 12 };
    let (end, mut moves) = gen::legal_line(rng, from, max);
    m.pos = end;
    match rng.below(10) {
        0 => moves.push(gen::move_string(rng)),
        1 => {
            let k = rng.below(moves.len() + 1);
            moves.insert(k, gen::hole(rng, true));
        }
        _ => {}
    }
    if moves.is_empty() && rng.chance(1, 2) {
        format!("position {head}")
    } else {
        format!("position {head} moves {}", moves.join(" "))
    }
}

fn go(rng: &mut Rng, m: &Model) -> String {
    let mut s = String::from("go");
    let fields = rng.below(4);
    for _ in 0..fields {
        let f = match rng.below(16) {
            0..=3 => {
                let deepest = if rng.chance(1, 8) { 8 } else { 3 };
                format!("depth {}", rng.range(1, deepest))
            }
            4 | 5 => format!("nodes {}", rng.range(1, 3000)),
            6 | 7 => format!("movetime {}", rng.range(0, 30)),
            8 => format!(
                "{} {} {} {}",
                rng.pick(&["wtime", "p1time"]),
                rng.range(-100, 3000),
                rng.pick(&["btime", "p2time"]),
                rng.range(-100, 3000)
            ),
            9 => format!(
                "{} {}",
                rng.pick(&["winc", "binc", "p1inc", "p2inc"]),
                rng.range(0, 100)
            ),
            10 => format!("movestogo {}", rng.range(0, 40)),
            11 => format!("mate {}", rng.range(0, 3)),
            12 => "infinite".into(),
            13 => "ponder".into(),
            14 => {
                let legal = m.pos.legal_moves();
                let mut v: Vec<String> = (0..1 + rng.below(3))
                    .filter(|_| !legal.is_empty())
                    .map(|_| m.pos.restyle(legal[rng.below(legal.len())].0).to_string())
                    .collect();
                if v.is_empty() || rng.chance(1, 6) {
                    v.push(gen::move_string(rng));
                }
                format!("searchmoves {}", v.join(" "))
            }
            _ => rng.pick(DICT).to_string(),
        };
        s.push(' ');
        s.push_str(&f);
    }
    s
}

/// `solve`, nearly always with a limit that ends it soon.
fn solve(rng: &mut Rng) -> String {
    let mut s = String::from("solve");
    for _ in 0..rng.below(3) + usize::from(rng.chance(15, 16)) {
        s += &match rng.below(3) {
            0 => format!(" plies {}", rng.range(0, 6)),
            1 => format!(" nodes {}", rng.range(0, 20_000)),
            _ => format!(" movetime {}", rng.range(0, 50)),
        };
    }
    s
}

/// A session of 1..24 lines, mostly well formed.
pub fn script(rng: &mut Rng) -> String {
    let mut m = Model {
        variant: Variant::Didinga,
        columns: 8,
        opening: Opening::default(),
        pos: Position::start(Variant::Didinga, 8, Opening::default())
            .unwrap_or_else(|e| panic!("{e}")),
    };
    let n = 1 + rng.below(24);
    let mut lines = Vec::with_capacity(n);
    for i in 0..n {
        let l = match rng.below(40) {
            0..=5 => setoption(rng, &mut m),
            6..=12 => position(rng, &mut m),
            13..=21 => go(rng, &m),
            22..=24 => "isready".into(),
            25 | 26 => "stop".into(),
            27 => "ponderhit".into(),
            28 => rng.pick(&["uci", "ugi"]).to_string(),
            29 => {
                m.pos = m.start();
                rng.pick(&["ucinewgame", "uginewgame"]).to_string()
            }
            30 => format!(
                "query {}",
                rng.pick(&["gameover", "p1turn", "result", "p2turn"])
            ),
            31 => rng.pick(&["d", "moves", "eval"]).to_string(),
            32 => format!(
                "{} {}",
                rng.pick(&["perft", "divide", "go perft"]),
                rng.range(0, 2)
            ),
            33 => rng.pick(&["debug on", "debug off", "debug"]).to_string(),
            34 if i + 1 == n || rng.chance(1, 4) => "quit".into(),
            35 => {
                let k = 1 + rng.below(6);
                (0..k)
                    .map(|_| rng.pick(DICT).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            37 => solve(rng),
            36 => {
                let k = rng.below(40);
                (0..k)
                    .map(|_| (rng.next_u64() as u8 % 128) as char)
                    .collect()
            }
            _ => "isready".into(),
        };
        lines.push(l);
    }
    let mut s = lines.join("\n");
    if rng.chance(3, 4) {
        s.push('\n');
    }
    s
}
