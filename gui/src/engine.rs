//! The `choro` subprocess: started on demand, spoken to over pipes, and
//! started again when it dies or hangs. Everything the board knows about a
//! game comes from here (PROTOCOL.md): the server never plays a rule itself.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::{timeout, Instant};

/// How long the engine may take before it is taken for hung.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// An answer to a plain command (`d`, `moves`, `trace`, ...).
    pub answer: Duration,
    /// After the move's time, before `stop` is sent for it.
    pub overrun: Duration,
    /// After `stop`, before `bestmove`.
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            answer: Duration::from_secs(20),
            overrun: Duration::from_secs(2),
            grace: Duration::from_secs(5),
        }
    }
}

/// Why an exchange with the engine failed. The engine is killed either way
/// and started again by the next exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The engine could not be started.
    Start(String),
    /// It closed its output or its input (crashed, was killed).
    Died,
    /// It gave no answer in time.
    Hung(&'static str),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "the engine could not be started: {e}"),
            Failure::Died => write!(f, "the engine stopped (crashed or was killed)"),
            Failure::Hung(what) => write!(f, "the engine did not answer {what} in time"),
        }
    }
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::UnboundedReceiver<String>,
}

/// The engine process, owned by one task at a time (behind a mutex).
pub struct Engine {
    path: PathBuf,
    args: Vec<String>,
    proc: Option<Proc>,
    /// Times the engine was started after the first.
    pub restarts: u32,
    started: bool,
    pub limits: Limits,
    /// `RaceHolds` as the running engine has it (0 in a fresh one).
    holds: u8,
    /// `RaceHolds` the next exchange is to run under ([`Engine::want_holds`]).
    want: u8,
}

/// The engine binary: `choro` next to this program's own executable, or in
/// the directory above it (where cargo puts binaries beside `deps/`).
pub fn default_engine_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = format!("choro{}", std::env::consts::EXE_SUFFIX);
    let dir = exe.parent()?;
    [dir.join(&name), dir.parent()?.join(&name)]
        .into_iter()
        .find(|p| p.is_file())
}

impl Engine {
    /// The engine `path` run with `args` (none for a `choro` binary).
    pub fn new(path: &Path, args: &[String]) -> Engine {
        Engine {
            path: path.to_path_buf(),
            args: args.to_vec(),
            proc: None,
            restarts: 0,
            started: false,
            limits: Limits::default(),
            holds: 0,
            want: 0,
        }
    }

    /// The process id of the running engine, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.proc.as_ref().and_then(|p| p.child.id())
    }

    /// Start the engine if none runs, and shake hands (`ugi` .. `ugiok`).
    async fn ensure(&mut self) -> Result<(), Failure> {
        if self.proc.is_some() {
            return Ok(());
        }
        let mut child = Command::new(&self.path)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| Failure::Start(format!("{}: {e}", self.path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::Start("no pipes".into()));
        };
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut r = BufReader::new(stdout).lines();
            while let Ok(Some(l)) = r.next_line().await {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        if self.started {
            self.restarts += 1;
        }
        self.started = true;
        self.holds = 0;
        self.proc = Some(Proc {
            child,
            stdin,
            lines: rx,
        });
        self.send(&["ugi".to_string()]).await?;
        self.read_until(
            |l| l == "ugiok",
            Instant::now() + self.limits.answer,
            "ugi",
            &mut |_| {},
        )
        .await?;
        Ok(())
    }

    /// Run the next exchanges under `RaceHolds` `n` (RULES.md 8.10; the
    /// caller checked its range): sent before them when the running engine
    /// has another value, so that a game without holds sends exactly what
    /// it sent before the option existed.
    pub fn want_holds(&mut self, n: u8) {
        self.want = n;
    }

    /// `cmds`, after the `setoption` that makes the running engine's
    /// `RaceHolds` the one wanted, if it differs.
    fn with_holds(&mut self, cmds: &[String]) -> Vec<String> {
        let mut all = Vec::with_capacity(cmds.len() + 1);
        if self.holds != self.want {
            all.push(format!("setoption name RaceHolds value {}", self.want));
            self.holds = self.want;
        }
        all.extend_from_slice(cmds);
        all
    }

    /// Kill the engine; the next exchange starts a new one.
    pub async fn kill(&mut self) {
        if let Some(mut p) = self.proc.take() {
            let _ = p.child.start_kill();
            let _ = timeout(Duration::from_secs(2), p.child.wait()).await;
        }
    }

    async fn send(&mut self, cmds: &[String]) -> Result<(), Failure> {
        let Some(p) = self.proc.as_mut() else {
            return Err(Failure::Died);
        };
        let mut text = cmds.join("\n");
        text.push('\n');
        let ok = p.stdin.write_all(text.as_bytes()).await.is_ok() && p.stdin.flush().await.is_ok();
        if ok {
            Ok(())
        } else {
            self.kill().await;
            Err(Failure::Died)
        }
    }

    /// Read lines until `end` matches one (returned), passing the others to
    /// `each`; kill the engine if it dies or the deadline passes.
    async fn read_until(
        &mut self,
        end: impl Fn(&str) -> bool,
        deadline: Instant,
        what: &'static str,
        each: &mut (dyn FnMut(&str) + Send),
    ) -> Result<String, Failure> {
        loop {
            let Some(p) = self.proc.as_mut() else {
                return Err(Failure::Died);
            };
            match tokio::time::timeout_at(deadline, p.lines.recv()).await {
                Ok(Some(l)) if end(&l) => return Ok(l),
                Ok(Some(l)) => each(&l),
                Ok(None) => {
                    self.kill().await;
                    return Err(Failure::Died);
                }
                Err(_) => {
                    self.kill().await;
                    return Err(Failure::Hung(what));
                }
            }
        }
    }

    /// Send `cmds` and collect every line they answer (up to `readyok`).
    pub async fn ask(&mut self, cmds: &[String]) -> Result<Vec<String>, Failure> {
        self.ensure().await?;
        let mut all = self.with_holds(cmds);
        all.push("isready".into());
        self.send(&all).await?;
        let mut out = Vec::new();
        self.read_until(
            |l| l == "readyok",
            Instant::now() + self.limits.answer,
            "isready",
            &mut |l| out.push(l.to_string()),
        )
        .await?;
        Ok(out)
    }

    /// Send `cmds` (ending with a `go`) and pass every line to `info` until
    /// `bestmove`, which is returned. `stop` is sent to the engine once
    /// `stopped()` says so, or when the move's time `movetime` is overrun.
    pub async fn go(
        &mut self,
        cmds: &[String],
        movetime: Duration,
        stopped: &(dyn Fn() -> bool + Send + Sync),
        info: &mut (dyn FnMut(&str) + Send),
    ) -> Result<String, Failure> {
        self.ensure().await?;
        let all = self.with_holds(cmds);
        self.send(&all).await?;
        let started = Instant::now();
        let limit = movetime + self.limits.overrun;
        let mut stop_sent: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if stop_sent.is_none() && (stopped() || now > started + limit) {
                self.send(&["stop".to_string()]).await?;
                stop_sent = Some(now);
            }
            let deadline = match stop_sent {
                Some(t) => t + self.limits.grace,
                None => now + Duration::from_millis(50),
            };
            let Some(p) = self.proc.as_mut() else {
                return Err(Failure::Died);
            };
            match tokio::time::timeout_at(deadline, p.lines.recv()).await {
                Ok(Some(l)) if l.starts_with("bestmove") => return Ok(l),
                Ok(Some(l)) => info(&l),
                Ok(None) => {
                    self.kill().await;
                    return Err(Failure::Died);
                }
                Err(_) if stop_sent.is_some() => {
                    self.kill().await;
                    return Err(Failure::Hung("bestmove"));
                }
                Err(_) => {}
            }
        }
    }
}
