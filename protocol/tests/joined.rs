//! No thread of choro is ever detached (RELIABILITY.md, finding 40).
//!
//! glibc 2.36's `pthread_detach` reads the thread's descriptor after it
//! has marked the thread detached; a thread ending in that moment frees its
//! stack first, and the read faults (the segfault of the fuzz volume run,
//! `choro_engine::threads`). So every thread choro starts is joined. These
//! tests run the real binary with a preloaded `pthread_detach` that ends
//! the process with status 97 and a message: each path that starts threads
//! (searches on several threads, the protocol's `solve`, the solver's
//! command line on two threads, playouts, a match whose engines are choro
//! too) must finish without calling it. They need a C compiler (`cc`, as
//! gcc on every machine of ours) to build the preloaded library; without
//! one they fail and say so.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_choro");
const MARK: &str = "choro-test: pthread_detach called";

/// The preloaded library, built once per test process.
fn shim() -> &'static Path {
    static SHIM: OnceLock<PathBuf> = OnceLock::new();
    SHIM.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("choro-joined-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("nodetach.c");
        let lib = dir.join("libnodetach.so");
        std::fs::write(
            &src,
            format!(
                "#include <pthread.h>\n#include <unistd.h>\n\
                 int pthread_detach(pthread_t t) {{ (void)t;\n\
                 static const char m[] = \"{MARK}\\n\";\n\
                 (void)!write(2, m, sizeof m - 1); _exit(97); }}\n"
            ),
        )
        .unwrap();
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let built = Command::new(&cc)
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&lib)
            .arg(&src)
            .status();
        match built {
            Ok(s) if s.success() => lib,
            other => panic!("these tests build a preloaded library with '{cc}' (gcc): {other:?}"),
        }
    })
}

/// Start choro with `args`, its three streams piped, and the preloaded
/// library.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .env("LD_PRELOAD", shim())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start choro")
}

/// Run choro with `args`, `input` on its stdin, and the preloaded library.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn assert_joined(what: &str, out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stderr.contains(MARK) && out.status.code() != Some(97),
        "{what}: a thread was detached\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        out.status.success(),
        "{what}: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
}

/// The preloaded library does catch a detach: a wrong program fails these
/// tests. (Rust detaches a thread whose handle is dropped; a tiny program
/// built here does that.)
#[test]
fn the_preloaded_library_catches_a_detach() {
    let dir = shim().parent().unwrap();
    let src = dir.join("detach.c");
    let exe = dir.join("detach");
    std::fs::write(
        &src,
        "#include <pthread.h>\nstatic void *f(void *a) { return a; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, f, 0);\n\
         pthread_detach(t); return 0; }\n",
    )
    .unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let s = Command::new(&cc)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg("-lpthread")
        .status()
        .unwrap();
    assert!(s.success());
    let out = Command::new(&exe)
        .env("LD_PRELOAD", shim())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(97));
    assert!(String::from_utf8_lossy(&out.stderr).contains(MARK));
}

/// Searches on several threads, the protocol's `solve` at the blind start
/// and in the main phase (cut short at once, by time, and run to the end),
/// and a session ended by `quit` while a search runs. Each command waits
/// for the answer of the one before, as a harness does.
#[test]
fn protocol_sessions_join_every_thread() {
    let steps: &[(&str, Option<&str>)] = &[
        ("uci", Some("uciok")),
        ("setoption name Threads value 3", None),
        ("setoption name Hash value 4", None),
        ("position startpos", None),
        ("go depth 3", Some("bestmove")),
        ("setoption name Algorithm value mcts", None),
        ("go nodes 3000", Some("bestmove")),
        ("setoption name Algorithm value alphabeta", None),
        ("setoption name Variant value lango", None),
        ("position startpos", None),
        ("solve nodes 1", Some("solution")),
        ("solve movetime 300", Some("solution")),
        ("setoption name Opening value sequential", None),
        ("position startpos", None),
        ("solve", Some("solution")),
        ("go infinite", None),
        ("isready", Some("readyok")),
        ("quit", None),
    ];
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            let Ok(l) = l else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    for (cmd, until) in steps {
        if writeln!(stdin, "{cmd}").is_err() {
            break;
        }
        let Some(until) = until else { continue };
        loop {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(l) => {
                    let done = l.starts_with(until);
                    seen.push(l);
                    if done {
                        break;
                    }
                }
                Err(e) => panic!("'{cmd}': no '{until}' ({e}):\n{}", seen.join("\n")),
            }
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    seen.extend(rx.try_iter());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let out = Output {
        status,
        stdout: seen.join("\n").into_bytes(),
        stderr: stderr.into_bytes(),
    };
    assert_joined("protocol session", &out);
    let solutions = seen.iter().filter(|l| l.starts_with("solution")).count();
    assert_eq!(solutions, 3, "{}", seen.join("\n"));
    assert!(
        !seen.iter().any(|l| l.starts_with("info string error")),
        "{}",
        seen.join("\n")
    );
}

/// The solver's command line on two threads (both attackers' proof-number
/// searches at once, then the alpha-beta for the distance), cut short by
/// a node limit and run to the end.
#[test]
fn the_solver_joins_every_thread() {
    for args in [
        &[
            "solve",
            "--variant",
            "lango",
            "--threads",
            "2",
            "--nodes",
            "20000",
            "--hash",
            "8",
        ][..],
        &[
            "solve",
            "--variant",
            "lango",
            "--opening",
            "sequential",
            "--threads",
            "2",
            "--hash",
            "8",
        ],
        &[
            "solve",
            "--variant",
            "acholi",
            "--opening",
            "sequential",
            "--threads",
            "2",
            "--algorithm",
            "ab",
            "--hash",
            "8",
        ],
    ] {
        let out = run(args, "");
        assert_joined(&args.join(" "), &out);
    }
}

/// Playouts on several threads, and a match of choro against itself on
/// two workers (each engine's output read on a thread of the runner).
#[test]
fn playouts_and_matches_join_every_thread() {
    let out = run(
        &[
            "playouts",
            "--variant",
            "adjiboto",
            "--games",
            "40",
            "--threads",
            "3",
        ],
        "",
    );
    assert_joined("playouts", &out);
    let cmd = format!("cmd={BIN}");
    let out = run(
        &[
            "match",
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--variant",
            "adjiboto",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--nodes",
            "200",
        ],
        "",
    );
    assert_joined("match", &out);
}
