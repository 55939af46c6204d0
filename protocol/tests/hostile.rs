//! Hostile input to the real binary, each with the behaviour PROTOCOL.md
//! ("Errors", "Hostile input") defines. Covered in `pipes.rs` and not
//! repeated here: a 10 MB line followed by more input, non-UTF-8 bytes in
//! a line, `go` (and `position`, `setoption Variant`, `perft`) during a
//! search, `quit` during a one-thread search.

use choro_engine::{Game, Opening, Position, Variant};
use std::thread;
use std::time::{Duration, Instant};

mod common;
use common::{Engine, PATIENCE};

fn one_error(v: &[String], what: &str) {
    assert_eq!(v.len(), 1, "{what}: {v:?}");
    assert!(v[0].starts_with("info string error: "), "{what}: {v:?}");
}

/// NUL is an ordinary character of a line (only a line feed ends one): a
/// word holding one is not a known word, so the line gets one error line,
/// with the NUL written as `\u{0}`; no NUL ever reaches the output.
#[test]
fn nul_bytes() {
    let mut e = Engine::start();
    let kept = e.position();
    for (line, echo) in [
        (&b"is\0ready\n"[..], r"unknown command 'is\u{0}ready'"),
        (b"\0\n", r"unknown command '\u{0}'"),
        (b"isready\0\n", r"unknown command 'isready\u{0}'"),
        (b"go depth 1\0\n", r"'1\u{0}' is not an integer"),
        (b"position startpos moves m\0\n", r"move 1 'm\u{0}'"),
        (
            b"position fen \0didinga:8\n",
            r"unknown variant '\u{0}didinga'",
        ),
        (
            b"setoption name Hash\0 value 8\n",
            r"unknown option 'Hash\u{0}'",
        ),
    ] {
        e.send_bytes(line);
        let v = e.fence();
        one_error(&v, &String::from_utf8_lossy(line));
        assert!(v[0].contains(echo), "{v:?} should contain {echo}");
        assert!(!v[0].contains('\0'));
        assert_eq!(e.position(), kept);
    }
    // A run of NUL bytes as long as a line may be: still one error line.
    let mut nuls = vec![0u8; 100_000];
    nuls.push(b'\n');
    e.send_bytes(&nuls);
    let v = e.fence();
    one_error(&v, "100,000 NUL bytes");
    // 40 characters at most are echoed, each NUL as 6 bytes.
    assert!(
        v[0].len() < 400,
        "the echo is clipped: {} bytes",
        v[0].len()
    );
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

/// Bytes that are not UTF-8 anywhere in a line, a line of them only, and a
/// cut multi-byte character at the very end of input without a line feed:
/// one error line each, nothing else changes, and the end of input still
/// means quit.
#[test]
fn non_utf8_bytes() {
    let mut e = Engine::start();
    let kept = e.position();
    for line in [
        &b"\xff\n"[..],
        b"\xc3\x28\n",
        b"isready\xe2\x82\n",
        b"\xf0\x9f\x92\n",
        b"position startpos moves \xed\xa0\x80\n",
        b"\x80\x80\x80\x80\x80\x80\n",
    ] {
        e.send_bytes(line);
        let v = e.fence();
        one_error(&v, &format!("{line:?}"));
        assert!(v[0].contains("not valid UTF-8 at byte"), "{v:?}");
        assert_eq!(e.position(), kept);
    }
    e.send_bytes(b"isready\nquery p1turn \xc3");
    assert_eq!(e.recv(), "readyok");
    e.close_input();
    let l = e.recv();
    assert!(l.contains("not valid UTF-8 at byte 13"), "{l}");
    assert!(e.exit(PATIENCE).0);
}

/// A 10 MB line with no line feed at all, then the end of input: one error
/// line, at most the 1 MiB limit of it held in memory, and a clean exit.
#[test]
fn ten_megabytes_without_a_line_feed() {
    let mut e = Engine::start();
    assert!(e.fence().is_empty());
    let before = e.vm_kb("VmHWM:");
    let chunk = vec![b'm'; 1 << 20];
    for _ in 0..10 {
        e.send_bytes(&chunk);
    }
    e.close_input();
    let l = e.recv();
    assert!(
        l.starts_with("info string error: line 2: 10485760 bytes"),
        "{l}"
    );
    if let (Some(b), Some(a)) = (before, e.vm_kb("VmHWM:")) {
        assert!(
            a < b + 4 * 1024,
            "peak resident memory grew from {b} KiB to {a} KiB"
        );
    }
    assert!(e.exit(PATIENCE).0);
}

/// `position` with 100,000 moves: the moves are played in order, and the
/// first that comes after the end of the game rejects the whole command
/// (one error line naming its number); the previous position is kept, and
/// the cost is that of the moves played. A line of more moves than fit in
/// 1 MiB is a line too long.
#[test]
fn position_with_100000_moves() {
    // A game to its end, 1-ply greedy of the first move: deterministic.
    let mut game =
        Game::new(Position::start(Variant::Didinga, 8, Opening::default()).expect("start"));
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() {
        let pos = *game.position();
        let (m, _) = pos.legal_moves()[0];
        moves.push(pos.restyle(m).to_string());
        game.play(&m).expect("legal");
    }
    let played = moves.len();
    assert!(played < 1000, "{played} plies");
    let first = moves[0].clone();
    while moves.len() < 100_000 {
        moves.push(first.clone());
    }
    let mut e = Engine::start();
    e.ask("position startpos moves m");
    let kept = e.position();
    let t = Instant::now();
    let v = e.ask(&format!("position startpos moves {}", moves.join(" ")));
    let took = t.elapsed();
    one_error(&v, "100,000 moves");
    assert!(
        v[0].contains(&format!(
            "move {} '{first}': the game is already over",
            played + 1
        )),
        "{v:?}"
    );
    assert_eq!(e.position(), kept);
    eprintln!("100,000 moves, {played} of them played: {took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");

    // 100,000 malformed moves: rejected at the first, before any is played.
    let junk = vec!["?"; 100_000].join(" ");
    let v = e.ask(&format!("position startpos moves {junk}"));
    one_error(&v, "100,000 malformed moves");
    assert!(v[0].contains("move 1 '?'"), "{v:?}");

    // 600,000 moves do not fit in a line.
    let long = vec![first.as_str(); 600_000].join(" ");
    let v = e.ask(&format!("position startpos moves {long}"));
    one_error(&v, "600,000 moves");
    assert!(
        v[0].contains("more than the limit of 1048576 bytes"),
        "{v:?}"
    );
    assert_eq!(e.position(), kept);
}

/// 10,000 `position` commands in a row, sent without waiting: each one
/// replaces the game, the last one counts, memory does not grow with them,
/// and `isready` behind them is answered.
#[test]
fn ten_thousand_position_commands() {
    let mut e = Engine::start();
    let start = Position::start(Variant::Didinga, 8, Opening::default()).expect("start");
    let lines: Vec<(String, Position)> = {
        let legal = start.legal_moves();
        (0..10_000)
            .map(|i| {
                let (m1, p1) = legal[i % legal.len()];
                let next = p1.legal_moves();
                let (m2, p2) = next[(i / legal.len()) % next.len()];
                let cmd = format!(
                    "position startpos moves {} {}",
                    start.restyle(m1),
                    p1.restyle(m2)
                );
                (cmd, p2)
            })
            .collect()
    };
    // Warm up, then measure.
    for (l, _) in &lines[..100] {
        e.send(l);
    }
    e.fence();
    let rss = e.vm_kb("VmRSS:");
    let batch: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    let t = Instant::now();
    e.send_bytes(batch.as_bytes());
    let v = e.fence();
    let took = t.elapsed();
    assert!(v.is_empty(), "{:?}", &v[..v.len().min(5)]);
    eprintln!("10,000 position commands: {took:?}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let last = &lines.last().expect("lines").1;
    assert_eq!(e.position(), format!("position {last}"));
    if let (Some(b), Some(a)) = (rss, e.vm_kb("VmRSS:")) {
        assert!(
            a < b + 4 * 1024,
            "resident memory grew from {b} KiB to {a} KiB"
        );
    }
}

/// `setoption name Threads` during a search, of one thread or two, is
/// refused with one error line; the search goes on and answers `stop`;
/// afterwards the option is accepted.
#[test]
fn setoption_threads_during_a_search() {
    let mut e = Engine::start();
    for (threads, to) in [(1, 2), (2, 1), (2, 4)] {
        assert!(e
            .ask(&format!("setoption name Threads value {threads}"))
            .is_empty());
        e.send("position startpos");
        e.send("go infinite");
        let v = e.ask_busy(&format!("setoption name Threads value {to}"));
        one_error(&v, "setoption Threads while searching");
        assert!(v[0].contains("setoption while searching"), "{v:?}");
        e.send("stop");
        let best = e.bestmove().1;
        assert_ne!(best, "bestmove 0000");
        assert!(e
            .ask(&format!("setoption name Threads value {to}"))
            .is_empty());
    }
}

/// `go` while a search of two threads runs is refused like with one (the
/// one-thread case is in `pipes.rs`): one error line, one `bestmove` in all.
#[test]
fn go_during_a_two_thread_search() {
    let mut e = Engine::start();
    assert!(e.ask("setoption name Threads value 2").is_empty());
    e.send("go infinite");
    for go in ["go depth 1", "go infinite", "go movetime 10", "go ponder"] {
        let v = e.ask_busy(go);
        one_error(&v, go);
        assert!(v[0].contains("go while searching"), "{v:?}");
    }
    e.send("stop");
    e.bestmove();
    let v = e.ask("isready");
    assert!(v.iter().all(|l| !l.starts_with("bestmove")), "{v:?}");
}

/// `quit` during a search of two threads (alpha-beta and MCTS): every
/// thread stops and choro exits at once with status 0.
#[test]
fn quit_during_a_two_thread_search() {
    for algo in ["alphabeta", "mcts"] {
        let mut e = Engine::start();
        assert!(e.ask("setoption name Threads value 2").is_empty());
        assert!(e
            .ask(&format!("setoption name Algorithm value {algo}"))
            .is_empty());
        e.send("position startpos moves m");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(50));
        e.fence();
        e.send("quit");
        let (ok, took) = e.exit(PATIENCE);
        eprintln!("{algo}, 2 threads: quit -> exit {took:?}");
        assert!(ok, "{algo}: exit status");
        assert!(took < Duration::from_secs(1), "{algo}: quit took {took:?}");
    }
}

/// `Hash` at the top of its advertised range on a machine (here: an address
/// space of 4 GB) that cannot give it: refused with one error line, Hash
/// keeps its value, and choro goes on. It used to abort (`memory
/// allocation of 68719476736 bytes failed`).
#[test]
fn hash_larger_than_the_machine() {
    let mut e = Engine::start_limited(4_000_000);
    for mb in ["65536", "8000"] {
        let v = e.ask(&format!("setoption name Hash value {mb}"));
        one_error(&v, mb);
        assert!(
            v[0].contains(&format!("cannot reserve {mb} MiB; Hash keeps 16")),
            "{v:?}"
        );
    }
    assert!(e.ask("setoption name Hash value 64").is_empty());
    e.send("go depth 2");
    assert_ne!(e.bestmove().1, "bestmove 0000");
    // The baselines keep no table, so any Hash is theirs to hold; the
    // algorithm that would need it is refused instead.
    assert!(e.ask("setoption name Algorithm value random").is_empty());
    assert!(e.ask("setoption name Hash value 8000").is_empty());
    for algorithm in ["alphabeta", "mcts"] {
        let v = e.ask(&format!("setoption name Algorithm value {algorithm}"));
        one_error(&v, algorithm);
        assert!(
            v[0].contains("option Algorithm: cannot reserve 8000 MiB; Algorithm keeps random"),
            "{v:?}"
        );
    }
    e.send("go depth 2");
    assert_ne!(e.bestmove().1, "bestmove 0000");
    assert!(e.ask("setoption name Hash value 16").is_empty());
    assert!(e.ask("setoption name Algorithm value mcts").is_empty());
    e.send("go nodes 1000");
    assert_ne!(e.bestmove().1, "bestmove 0000");
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

/// The memory `Hash` grants is all the searcher keeps (RELIABILITY.md
/// finding 4): MCTS's tree takes it instead of the table, not beside it, and
/// changing `Hash` or the algorithm, or `ucinewgame`, gives the old memory
/// back. Resident memory is read after `isready`; 16 MiB cover the program
/// itself.
#[test]
fn memory_follows_hash_and_the_algorithm() {
    let mut e = Engine::start();
    let rss_mb = |e: &Engine| e.vm_kb("VmRSS").expect("VmRSS") / 1024;
    for l in [
        "setoption name Variant value adjiboto",
        "setoption name Hash value 32",
        "setoption name Algorithm value mcts",
    ] {
        assert!(e.ask(l).is_empty(), "{l}");
    }
    e.send("go movetime 1500");
    let mut hashfull = 0;
    loop {
        let l = e.recv();
        if let Some(h) = l.split(" hashfull ").nth(1) {
            hashfull = h.split(' ').next().unwrap().parse().unwrap();
        }
        if l.starts_with("bestmove") {
            break;
        }
    }
    assert!(hashfull >= 500, "the tree was barely used: {hashfull}");
    e.fence();
    let rss = rss_mb(&e);
    assert!(rss <= 32 + 16, "Hash 32 after an MCTS search: {rss} MiB");

    for l in [
        "setoption name Hash value 8",
        "setoption name Algorithm value random",
        "ucinewgame",
    ] {
        assert!(e.ask(l).is_empty(), "{l}");
    }
    let rss = rss_mb(&e);
    assert!(rss <= 8 + 16, "Hash 8 with random: {rss} MiB");

    assert!(e.ask("setoption name Algorithm value mcts").is_empty());
    e.send("go movetime 500");
    e.bestmove();
    for l in ["setoption name Algorithm value alphabeta", "ucinewgame"] {
        assert!(e.ask(l).is_empty(), "{l}");
    }
    e.send("go movetime 500");
    e.bestmove();
    e.fence();
    let rss = rss_mb(&e);
    assert!(
        rss <= 8 + 16,
        "Hash 8 with alpha-beta after MCTS: {rss} MiB"
    );
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

/// `solve` holds one table of `Hash` MiB, not the solver's beside the
/// search's (RELIABILITY.md finding 34: `Hash` 256 held 518 MB): the
/// search's memory is given back while the solve runs and taken again
/// after it. Resident memory is read while the solve runs and after it.
#[test]
fn solve_holds_one_table_of_hash() {
    let mut e = Engine::start();
    let rss_mb = |e: &Engine| e.vm_kb("VmRSS").expect("VmRSS") / 1024;
    assert!(e.ask("setoption name Hash value 128").is_empty());
    let before = rss_mb(&e);
    assert!(
        before >= 128,
        "the search's table is resident: {before} MiB"
    );
    e.send("position startpos moves m n");
    e.send("solve");
    // The solver's table is written before `solve` returns to the reader.
    e.fence();
    let during = rss_mb(&e);
    e.send("stop");
    let v = e.until(|l| l.starts_with("solution "));
    assert!(
        !v.iter().any(|l| l.starts_with("info string error")),
        "{v:?}"
    );
    e.fence();
    let after = rss_mb(&e);
    eprintln!("Hash 128: {before} MiB before solve, {during} during, {after} after");
    assert!(
        during <= 128 + 32,
        "{during} MiB while solving with Hash 128"
    );
    assert!(after <= 128 + 32, "{after} MiB after solving with Hash 128");
    assert!(after >= 128, "the search's table is back: {after} MiB");
    e.send("go depth 3");
    assert_ne!(e.bestmove().1, "bestmove 0000");
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

/// `Hash` swinging between 1 and 64 MiB, with the solver's share of it
/// and both algorithms, leaves nothing resident beyond the current `Hash`
/// (RELIABILITY.md finding 17): before the binary fixed glibc's mmap
/// threshold, this sequence ended up to 79 MiB above it.
#[test]
fn memory_follows_hash_as_it_swings() {
    let mut e = Engine::start();
    let rss_mb = |e: &Engine| e.vm_kb("VmRSS").expect("VmRSS") / 1024;
    assert!(e.ask("setoption name SolveShare value 10").is_empty());
    let mut rng = choro_engine::rng::Rng::new(3);
    let mut worst = (0, 0);
    for i in 0..40 {
        let hash = *rng.pick(&[1, 2, 4, 8, 16, 24, 32, 48, 64]);
        let algorithm = *rng.pick(&["alphabeta", "mcts"]);
        for l in [
            format!("setoption name Hash value {hash}"),
            format!("setoption name Algorithm value {algorithm}"),
            "ucinewgame".to_string(),
            "position startpos moves a a".to_string(),
        ] {
            assert!(e.ask(&l).is_empty(), "{l}");
        }
        e.send("go movetime 20");
        e.bestmove();
        e.fence();
        let over = rss_mb(&e).saturating_sub(hash);
        if over > worst.0 {
            worst = (over, i);
        }
    }
    assert!(
        worst.0 <= 16,
        "{} MiB resident above Hash after change {}",
        worst.0,
        worst.1
    );
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}
