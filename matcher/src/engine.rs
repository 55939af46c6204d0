//! Engine processes: start one, speak the UGI or UCI handshake, send
//! options, positions and `go`, and wait for answers with deadlines.
//!
//! The engine's standard output is read on a thread of its own that turns
//! it into a channel of lines, so every wait here is a `recv_timeout`: an
//! engine that hangs costs the referee a deadline, never the runner. Lines
//! are capped (a runaway engine cannot fill memory) and decoded lossily.
//! Dropping an `Engine` kills the process; every failure the referee sees
//! ends with the engine dropped and a fresh one started for the next game.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Longest engine output line kept; the rest of the line is dropped.
const MAX_LINE: usize = 1 << 20;
/// How long a process that closed its output gets to report its exit.
const EXIT_WAIT: Duration = Duration::from_millis(500);
/// How long `quit` is given before the process is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);
/// How long a dropped engine waits for its reader thread to end.
const READER_WAIT: Duration = Duration::from_secs(1);

/// Which handshake the engine speaks; it decides the clock field names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// `ugi` ... `ugiok`; clocks as `p1time`/`p2time`/`p1inc`/`p2inc`.
    Ugi,
    /// `uci` ... `uciok`; clocks as `wtime`/`btime`/`winc`/`binc`, A is white.
    Uci,
}

impl Proto {
    fn hello(self) -> (&'static str, &'static str) {
        match self {
            Proto::Ugi => ("ugi", "ugiok"),
            Proto::Uci => ("uci", "uciok"),
        }
    }

    pub(crate) fn newgame(self) -> &'static str {
        match self {
            Proto::Ugi => "uginewgame",
            Proto::Uci => "ucinewgame",
        }
    }

    /// Clock field names: `(A's time, B's time, A's increment, B's increment)`.
    pub(crate) fn clock_fields(self) -> [&'static str; 4] {
        match self {
            Proto::Ugi => ["p1time", "p2time", "p1inc", "p2inc"],
            Proto::Uci => ["wtime", "btime", "winc", "binc"],
        }
    }
}

/// An engine as given on the command line:
/// `name=N cmd=PATH [arg=A ...] [proto=ugi|uci] [option.X=Y ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in the tables and records.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// The program's arguments, in order.
    pub args: Vec<String>,
    /// The handshake it speaks.
    pub proto: Proto,
    /// `setoption` name and value pairs, in the order given.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Read the `key=value` words of one `--engine`.
    pub(crate) fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let (mut name, mut cmd, mut proto) = (None, None, Proto::Ugi);
        let (mut args, mut options) = (Vec::new(), Vec::new());
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                return Err(format!("'{w}' is not key=value"));
            };
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "arg" => args.push(v.to_string()),
                "proto" => {
                    proto = match v {
                        "ugi" => Proto::Ugi,
                        "uci" => Proto::Uci,
                        _ => return Err(format!("proto must be ugi or uci, not '{v}'")),
                    }
                }
                _ => match k.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => options.push((o.to_string(), v.to_string())),
                    _ => {
                        return Err(format!(
                            "unknown key '{k}' (name, cmd, arg, proto, option.<Name>)"
                        ))
                    }
                },
            }
        }
        let cmd = cmd.ok_or("cmd=<program> is missing")?;
        let name = name.unwrap_or_else(|| cmd.clone());
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c == '"') {
            return Err(format!(
                "name '{name}' must be non-empty, without spaces or quotes"
            ));
        }
        Ok(EngineSpec {
            name,
            cmd,
            args,
            proto,
            options,
        })
    }
}

/// How an engine let the referee down, below the level of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The process exited or closed its output (the text says how).
    Exited(String),
    /// Could not be started or written to.
    Io(String),
    /// No expected answer before the deadline. `answered_stop`: after `go`,
    /// a `stop` got a `bestmove` within the grace period.
    NoAnswer {
        waited: Duration,
        what: &'static str,
        answered_stop: bool,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Exited(s) | Fault::Io(s) => f.write_str(s),
            Fault::NoAnswer {
                waited,
                what,
                answered_stop,
            } => {
                write!(f, "no {what} within {} ms", waited.as_millis())?;
                if *what == "bestmove" {
                    f.write_str(if *answered_stop {
                        "; answered stop"
                    } else {
                        "; no answer to stop either"
                    })?;
                }
                Ok(())
            }
        }
    }
}

enum Event {
    Line(String),
    Eof,
}

/// A `bestmove` and what the search said before it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reply {
    /// The words after `bestmove` (empty if there were none).
    pub(crate) words: Vec<String>,
    /// From `go` written to `bestmove` read.
    pub(crate) elapsed: Duration,
    /// The last `info` line's `depth`, and its `score` (e.g. `cp 35`).
    pub(crate) depth: Option<u32>,
    pub(crate) score: Option<String>,
}

/// A running engine process.
pub(crate) struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The thread that reads the engine's output into `lines`.
    reader: Option<thread::JoinHandle<()>>,
    lines: Receiver<Event>,
    pub(crate) proto: Proto,
    /// The `id name` it gave.
    pub(crate) id_name: Option<String>,
    /// The options it listed, names as written.
    pub(crate) listed: Vec<String>,
}

fn read_line_capped<R: BufRead>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let (done, used) = {
            let avail = r.fill_buf()?;
            if avail.is_empty() {
                return Ok(total);
            }
            match avail.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let room = MAX_LINE.saturating_sub(buf.len());
                    buf.extend_from_slice(&avail[..i.min(room)]);
                    (true, i + 1)
                }
                None => {
                    let room = MAX_LINE.saturating_sub(buf.len());
                    buf.extend_from_slice(&avail[..avail.len().min(room)]);
                    (false, avail.len())
                }
            }
        };
        r.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

fn reader<R: Read>(out: R, tx: Sender<Event>) {
    let mut r = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line_capped(&mut r, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

fn describe_exit(st: ExitStatus) -> String {
    if let Some(c) = st.code() {
        return format!("exited with status {c}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(s) = st.signal() {
            return format!("killed by signal {s}");
        }
    }
    format!("exited ({st})")
}

/// The option name of an `option name <Name> type ...` line.
fn option_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// Option names match ignoring case and spaces, as choro matches them.
pub(crate) fn same_option(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    norm(a) == norm(b)
}

impl Engine {
    /// Start the process and complete the handshake within `timeout`.
    pub(crate) fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, Fault> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Io(format!("cannot start '{}': {e}", spec.cmd)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Io("no pipes to the engine".into()));
        };
        let (tx, rx) = mpsc::channel();
        let reader = match thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || reader(stdout, tx))
        {
            Ok(h) => h,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Fault::Io(format!("cannot start a reader thread: {e}")));
            }
        };
        let mut e = Engine {
            child,
            stdin,
            reader: Some(reader),
            lines: rx,
            proto: spec.proto,
            id_name: None,
            listed: Vec::new(),
        };
        let (hello, ok) = spec.proto.hello();
        e.send(hello)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = e.recv_until(deadline, timeout, ok)?;
            if line == ok {
                break;
            }
            if let Some(n) = option_name(&line) {
                e.listed.push(n);
            } else if let Some(n) = line.strip_prefix("id name ") {
                e.id_name = Some(n.trim().to_string());
            }
        }
        Ok(e)
    }

    /// Whether the engine listed this option.
    pub(crate) fn has_option(&self, name: &str) -> bool {
        self.listed.iter().any(|o| same_option(o, name))
    }

    pub(crate) fn send(&mut self, line: &str) -> Result<(), Fault> {
        let r = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        match r {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exit_fault()),
        }
    }

    /// How the process went away (it closed its output or its input).
    fn exit_fault(&mut self) -> Fault {
        let until = Instant::now() + EXIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return Fault::Exited(describe_exit(st)),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return Fault::Exited("closed its output".into()),
                Err(e) => return Fault::Exited(format!("lost: {e}")),
            }
        }
    }

    /// The next line before `deadline`.
    fn recv_until(
        &mut self,
        deadline: Instant,
        waited: Duration,
        what: &'static str,
    ) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Event::Line(l)) => Ok(l),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.exit_fault()),
            Err(RecvTimeoutError::Timeout) => Err(Fault::NoAnswer {
                waited,
                what,
                answered_stop: false,
            }),
        }
    }

    /// `isready`, then wait for `readyok`. Returns the `info string
    /// error` lines seen on the way (an option value the engine refused).
    pub(crate) fn sync(&mut self, timeout: Duration) -> Result<Vec<String>, Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut errors = Vec::new();
        loop {
            let line = self.recv_until(deadline, timeout, "readyok")?;
            if line == "readyok" {
                return Ok(errors);
            }
            if line.starts_with("info string error") {
                errors.push(line);
            }
        }
    }

    /// Send the position and `go`, and wait for `bestmove` until
    /// `deadline` after the `go` line is written. After the deadline the
    /// engine gets `stop` and `grace` to answer; either way it is reported
    /// as [`Fault::NoAnswer`].
    pub(crate) fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        grace: Duration,
    ) -> Result<Reply, Fault> {
        self.send(position)?;
        self.send(go)?;
        let t0 = Instant::now();
        let mut reply = Reply::default();
        let end = t0 + deadline;
        loop {
            let line = match self.recv_until(end, deadline, "bestmove") {
                Ok(l) => l,
                Err(Fault::NoAnswer { .. }) => {
                    self.send("stop")?;
                    let stop_end = Instant::now() + grace;
                    let mut answered = false;
                    while let Ok(l) = self.recv_until(stop_end, grace, "bestmove") {
                        if l.split_whitespace().next() == Some("bestmove") {
                            answered = true;
                            break;
                        }
                    }
                    return Err(Fault::NoAnswer {
                        waited: deadline,
                        what: "bestmove",
                        answered_stop: answered,
                    });
                }
                Err(f) => return Err(f),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    reply.elapsed = t0.elapsed();
                    reply.words = words.map(str::to_string).collect();
                    return Ok(reply);
                }
                Some("info") => read_info(&line, &mut reply),
                _ => {}
            }
        }
    }

    /// Ask the engine to quit, then make sure it is gone.
    pub(crate) fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    /// Kill the process if it still runs, then join the reader, which ends
    /// when the process's output closes. A reader still running after
    /// [`READER_WAIT`] (a grandchild holds the pipe open) is left running,
    /// not detached: detaching a thread that may be ending at that moment
    /// is the glibc race of `choro_engine::threads`.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        if let Some(r) = self.reader.take() {
            choro_engine::threads::join_by(r, Instant::now() + READER_WAIT);
        }
    }
}

/// Keep the last depth and score of a search's `info` lines.
fn read_info(line: &str, reply: &mut Reply) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < w.len() {
        match w[i] {
            "depth" => {
                if let Some(d) = w.get(i + 1).and_then(|d| d.parse().ok()) {
                    reply.depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                if let (Some(k), Some(v)) = (w.get(i + 1), w.get(i + 2)) {
                    reply.score = Some(format!("{k} {v}"));
                }
                i += 3;
            }
            // The rest of the line is free text or a move list.
            "string" | "pv" => break,
            _ => i += 1,
        }
    }
}
