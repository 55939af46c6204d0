//! The one pipe-driven harness of the protocol tests: the real `choro`
//! binary, fed through its stdin as a harness feeds it, its stdout read
//! line by line on a thread.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_choro");
/// Long enough for a loaded machine; a hang fails instead of blocking.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::spawn(Command::new(BIN))
    }

    /// choro with its address space limited to `kb` KiB (`ulimit -v`).
    pub fn start_limited(kb: u64) -> Engine {
        let mut c = Command::new("bash");
        c.args(["-c", &format!("ulimit -v {kb} && exec \"$0\""), BIN]);
        Engine::spawn(c)
    }

    fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start choro");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            // Bytes, not lines: a non-UTF-8 or NUL byte in the output must
            // show up as a failure, not end the reader.
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                let text = String::from_utf8(line).unwrap_or_else(|e| format!("BAD UTF-8 {e}"));
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Close choro's input (end of input means quit).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    pub fn recv(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no answer from choro"),
            Err(RecvTimeoutError::Disconnected) => panic!("choro closed its output"),
        }
    }

    /// The next line if one comes within `wait`.
    pub fn recv_within(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Every line up to and including the first that satisfies `last`.
    pub fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.recv();
            let done = last(&l);
            v.push(l);
            if done {
                return v;
            }
        }
    }

    /// The lines a command writes, fenced by `isready`.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.fence()
    }

    /// Every line up to the answer to a fresh `isready`.
    pub fn fence(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.until(|l| l == "readyok");
        v.pop();
        v
    }

    /// As `ask`, without the reports of a running search.
    pub fn ask_busy(&mut self, line: &str) -> Vec<String> {
        let mut v = self.ask(line);
        v.retain(|l| !l.starts_with("info ") || l.starts_with("info string error: "));
        v
    }

    /// The one line a command writes.
    pub fn one(&mut self, line: &str) -> String {
        let v = self.ask(line);
        assert_eq!(v.len(), 1, "{line}: {v:?}");
        v[0].clone()
    }

    /// The position line of `d`.
    pub fn position(&mut self) -> String {
        self.ask("d").pop().expect("the position line")
    }

    /// The lines of a search up to its `bestmove`, and the `bestmove` line.
    pub fn bestmove(&self) -> (Vec<String>, String) {
        let mut v = self.until(|l| l.starts_with("bestmove"));
        let b = v.pop().expect("bestmove");
        (v, b)
    }

    /// Wait for choro to exit by itself; its exit status and how long it took.
    pub fn exit(&mut self, within: Duration) -> (bool, Duration) {
        let t = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().expect("wait") {
                return (st.success(), t.elapsed());
            }
            assert!(t.elapsed() < within, "choro did not exit within {within:?}");
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// A field of /proc/<pid>/status in KiB (VmRSS, VmHWM).
    pub fn vm_kb(&self, field: &str) -> Option<u64> {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let l = s.lines().find(|l| l.starts_with(field))?;
        l.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Run `choro <subcommand> <args>` to the end: exit status, stdout, stderr.
pub fn tool(subcommand: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg(subcommand)
        .args(args)
        .output()
        .expect("choro runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}
