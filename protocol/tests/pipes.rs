//! The real `choro` binary driven through pipes, as a harness drives it.
//! Latencies are asserted with generous bounds, as correctness only; the
//! measured figures are printed (run with `--nocapture`) for BENCHMARKS.md.

use choro_engine::{Game, Opening, Outcome, Position, Side, Variant};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

mod common;
use common::{Engine, BIN, PATIENCE};

fn listing() -> Vec<String> {
    choro::options::Options::listing()
}

#[test]
fn ugi_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("ugi");
    let v = e.until(|l| l == "ugiok");
    assert_eq!(v[0], format!("id name choro {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(v[1], "id author the choro authors");
    assert_eq!(v[2..v.len() - 1], listing()[..]);
    let names: Vec<&str> = v[2..v.len() - 1]
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        [
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
            "SolveShare",
            "OwnBook",
            "RaceHolds"
        ]
    );
    assert!(v.contains(
        &"option name Algorithm type combo default alphabeta var alphabeta var mcts var random var greedy"
            .to_string()
    ));
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
}

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let v = e.until(|l| l == "uciok");
    assert_eq!(v.len(), 2 + listing().len() + 1);
    assert_eq!(v[2..v.len() - 1], listing()[..]);
    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

/// Play a game to its end as cutegames does: before every turn, the whole
/// game by `position startpos moves ...`, `query p1turn`, `query gameover`;
/// then `go`. Every answer is checked against the rules engine. In the
/// simultaneous opening the plies of one side may follow each other.
fn play_out(variant: Variant, opening: Opening, draw_plies: u32, go: &str) -> (Game, String) {
    let mut e = Engine::start();
    e.send("ugi");
    e.until(|l| l == "ugiok");
    assert!(e
        .ask(&format!("setoption name Variant value {variant}"))
        .is_empty());
    assert!(e
        .ask(&format!("setoption name Opening value {opening}"))
        .is_empty());
    assert!(e
        .ask(&format!("setoption name DrawPlies value {draw_plies}"))
        .is_empty());
    assert!(e.ask("uginewgame").is_empty());
    let mut game =
        Game::new(Position::start(variant, 8, opening).expect("start")).with_draw_plies(draw_plies);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let pos_cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        assert!(e.ask(&pos_cmd).is_empty(), "{pos_cmd}");
        let over = game.outcome().is_some();
        let p1 = game.position().side_to_move() == Side::A && !over;
        assert_eq!(e.one("query p1turn"), format!("response {p1}"));
        assert_eq!(e.one("query gameover"), format!("response {over}"));
        if over {
            break;
        }
        assert!(
            game.moves().len() <= draw_plies as usize,
            "the ply cap did not end the game"
        );
        e.send(go);
        let (_, best) = e.bestmove();
        let words: Vec<&str> = best.split(' ').collect();
        assert_eq!(words.len(), 2, "ugi: bestmove is two words: {best}");
        let m = game
            .play_str(words[1])
            .unwrap_or_else(|err| panic!("{best}: {err}"));
        assert_eq!(
            m.to_string(),
            words[1],
            "moves are written in the position's style"
        );
        moves.push(words[1].to_string());
    }
    let result = e.one("query result");
    // The game is over: go answers bestmove 0000 with a reason.
    e.send(go);
    let (info, best) = e.bestmove();
    assert_eq!(best, "bestmove 0000");
    assert_eq!(info.len(), 1);
    assert!(info[0].starts_with("info string game over: "), "{info:?}");
    (game, result)
}

fn expected_result(game: &Game) -> String {
    let r = match game.outcome() {
        None => "none",
        Some(Outcome::Win { winner: Side::A }) => "p1win",
        Some(Outcome::Win { winner: Side::B }) => "p2win",
        Some(Outcome::Draw(_)) => "draw",
    };
    format!("response {r}")
}

#[test]
fn short_lango_game_by_position_moves_and_go_depth() {
    // Sequential Lango is degenerate (RULINGS 8): it ends within a few turns.
    let (game, result) = play_out(Variant::Lango, Opening::Sequential, 1000, "go depth 2");
    assert!(game.moves().len() < 20, "{} plies", game.moves().len());
    assert_eq!(result, expected_result(&game));
    assert!(matches!(game.outcome(), Some(Outcome::Win { .. })));
}

#[test]
fn games_to_their_end_agree_with_the_rules() {
    for (v, opening) in [
        (Variant::Didinga, Opening::Sequential),
        (Variant::Acholi, Opening::Sequential),
        (Variant::Didinga, Opening::Simultaneous),
        (Variant::Lango, Opening::Simultaneous),
        (Variant::Acholi, Opening::Simultaneous),
        (Variant::Adjiboto, Opening::Simultaneous),
    ] {
        let (game, result) = play_out(v, opening, 120, "go depth 1");
        let outcome = game.outcome();
        eprintln!("{v} {opening}: {} plies, {outcome:?}", game.moves().len());
        assert!(outcome.is_some());
        assert_eq!(result, expected_result(&game), "{v}");
    }
}

#[test]
fn the_ply_cap_ends_a_game_in_a_draw() {
    let (game, result) = play_out(Variant::Didinga, Opening::Simultaneous, 4, "go depth 1");
    assert_eq!(game.moves().len(), 4);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(choro_engine::DrawReason::PlyCap))
    );
    assert_eq!(result, "response draw");
}

#[test]
fn go_infinite_then_isready_and_stop() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("isready");
    let before = e.until(|l| l == "readyok");
    let ready = t.elapsed();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop under go infinite: {before:?}"
    );
    let t = Instant::now();
    e.send("stop");
    let (_, best) = e.bestmove();
    let stopped = t.elapsed();
    assert!(best.starts_with("bestmove "));
    assert_ne!(best, "bestmove 0000");
    // Exactly one bestmove: nothing more comes after it.
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    eprintln!(
        "latency: isready->readyok {:.3} ms during go infinite, stop->bestmove {:.3} ms",
        ready.as_secs_f64() * 1e3,
        stopped.as_secs_f64() * 1e3
    );
    assert!(ready < Duration::from_millis(500), "readyok took {ready:?}");
    assert!(
        stopped < Duration::from_millis(500),
        "bestmove took {stopped:?}"
    );
}

/// `stop` at Didinga's blind start with `Threads` 256 (RELIABILITY.md
/// finding 39): the blind search's first iteration, which `stop` cannot
/// cut, started and joined 255 helper threads for each of its 64 cells and
/// answered after 0.5-1.7 s; it runs on one thread now (2-15 ms here).
#[test]
fn stop_is_prompt_at_the_blind_start_with_many_threads() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    assert!(e.ask("setoption name Threads value 256").is_empty());
    let mut took = Vec::new();
    for _ in 0..3 {
        e.send("position startpos");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(20));
        let t = Instant::now();
        e.send("stop");
        let (_, best) = e.bestmove();
        took.push(t.elapsed());
        assert!(best.starts_with("bestmove "), "{best}");
        e.send("isready");
        e.until(|l| l == "readyok");
    }
    took.sort();
    eprintln!("stop->bestmove with Threads 256 at the blind start: {took:?}");
    assert!(
        took[1] < Duration::from_millis(300),
        "bestmove took {took:?} (median of 3)"
    );
}

/// cutegames waits for ever on `bestmove X ponder Y`: after `ugi`, the
/// ponder word appears only with `Ponder` on. Under UCI it appears whenever
/// the searcher names a reply, and it is legal after the best move.
#[test]
fn the_ponder_word_follows_the_dialect() {
    let mut e = Engine::start();
    let words = |e: &mut Engine| -> Vec<String> {
        e.send("position startpos moves m");
        e.send("go depth 3");
        let (_, best) = e.bestmove();
        best.split(' ').map(str::to_string).collect()
    };
    e.send("ugi");
    e.until(|l| l == "ugiok");
    assert_eq!(words(&mut e).len(), 2);
    for setup in ["setoption name Ponder value true", "uci"] {
        e.send(setup);
        let w = words(&mut e);
        assert!(w.len() == 2 || w.len() == 4, "{w:?}");
        if w.len() == 4 {
            assert_eq!(w[2], "ponder");
            let start = Position::start(Variant::Didinga, 8, Opening::default());
            let mut game = Game::new(start.expect("start"));
            for m in ["m", w[1].as_str(), w[3].as_str()] {
                game.play_str(m)
                    .unwrap_or_else(|err| panic!("{w:?}: {err}"));
            }
        }
    }
}

#[test]
fn go_ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("go ponder depth 1");
    thread::sleep(Duration::from_millis(50));
    let v = e.ask_busy("query p1turn");
    assert_eq!(
        v,
        vec!["response true".to_string()],
        "no bestmove while pondering"
    );
    e.send("ponderhit");
    let (_, best) = e.bestmove();
    assert!(best.starts_with("bestmove "));
    assert!(
        e.ask("ponderhit").is_empty(),
        "ponderhit when idle is ignored"
    );
    assert!(e.ask("stop").is_empty(), "stop when idle is ignored");
}

/// What a harness does with a position file: it sends each line as it is.
/// A line of an opening list sets its position; a line with a `#` remark
/// after the string too; trailing words that are no comment get one error
/// line naming them, and the previous position is kept.
#[test]
fn a_harness_sends_position_file_lines_as_they_are() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/openings");
    let text = std::fs::read_to_string(format!("{dir}/acholi.txt")).expect("acholi openings");
    let lines: Vec<&str> = choro_engine::board::data_lines(&text)
        .map(|(_, l)| l)
        .take(3)
        .collect();
    let mut e = Engine::start();
    for l in &lines {
        assert!(e.ask(&format!("position fen {l}")).is_empty(), "{l}");
        assert_eq!(e.position(), format!("position {l}"));
    }
    let last = lines[2];
    let v = e.ask(&format!(
        "position fen {} # ~k n j c; depth 4: cp 12",
        lines[0]
    ));
    assert!(v.is_empty(), "{v:?}");
    assert_eq!(e.position(), format!("position {}", lines[0]));
    let v = e.ask(&format!("position fen {last} depth 4"));
    assert_eq!(
        v,
        [
            "info string error: position fen: trailing text 'depth 4' after a complete \
          position string of 5 fields; previous position kept"
        ]
    );
    assert_eq!(e.position(), format!("position {}", lines[0]));
}

/// Each bad input gets exactly one error line, and the engine goes on with
/// its state unchanged.
#[test]
fn every_bad_input_gets_one_error_line() {
    let mut e = Engine::start();
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.ask("position startpos moves m");
    let kept = e.ask("d").pop().expect("position line");
    assert!(kept.starts_with("position didinga:8 "), "{kept}");

    let error = |e: &mut Engine, line: &str, what: &str| {
        let l = e.one(line);
        assert!(l.starts_with("info string error: "), "{line}: {l}");
        assert!(l.contains(what), "{line}: {l} should mention {what}");
        assert_eq!(
            e.ask("d").pop().as_ref(),
            Some(&kept),
            "{line} changed the position"
        );
    };
    error(&mut e, "fly me to the moon", "unknown command 'fly'");
    error(
        &mut e,
        "setoption name NoSuchOption value 3",
        "unknown option 'NoSuchOption'",
    );
    error(
        &mut e,
        "setoption name Hash value lots",
        "'lots' is not an integer",
    );
    error(
        &mut e,
        "setoption name Threads value 0",
        "out of range 1..256",
    );
    error(
        &mut e,
        "setoption name Algorithm value minimax",
        "not one of",
    );
    error(
        &mut e,
        "setoption name Ponder value maybe",
        "not true or false",
    );
    error(&mut e, "position fen didinga:8 2,2,2/2,2,2 a m", "field 2");
    error(&mut e, "position fen chess:8 x a m", "field 1");
    error(&mut e, "position fen didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 c m", "field 3");
    error(
        &mut e,
        "position startpos moves m c",
        "move 2: illegal move c",
    );
    error(&mut e, "position startpos moves m b?", "move 2 'b?'");
    error(&mut e, "position startpos moves 99", "move 1 '99'");
    error(&mut e, "go depth 0", "out of range");
    error(&mut e, "go nodes 99999999999999999999999", "out of range");
    error(&mut e, "go movetime soon", "not an integer");
    error(&mut e, "go searchmoves b e", "go searchmoves: move 2");
    error(&mut e, "perft 65", "out of range 1..64");
    error(&mut e, "query everything", "unknown question");
    error(&mut e, "bench depth 3", "bench");
    error(
        &mut e,
        "setoption name Opening value bogus",
        "'bogus' is not one of sequential, simultaneous",
    );

    // A 10 MB line: one error line, memory bounded, then business as usual.
    let mut huge = vec![b'x'; 10 << 20];
    huge.push(b'\n');
    e.send_bytes(&huge);
    let l = e.recv();
    assert!(l.starts_with("info string error: line "), "{l}");
    assert!(l.contains("10485760 bytes"), "{l}");
    assert_eq!(e.ask("d").pop().as_ref(), Some(&kept));

    // Non-UTF-8 bytes.
    e.send_bytes(b"position \xff\xfe startpos\n");
    let l = e.recv();
    assert!(l.contains("not valid UTF-8 at byte 9"), "{l}");
    assert_eq!(e.ask("d").pop().as_ref(), Some(&kept));

    // An ambiguous (incomplete) move: in the sequential opening Acholi's
    // `~k` needs a choice (in the simultaneous one it is a blind start).
    assert!(e.ask("setoption name Variant value acholi").is_empty());
    assert!(e.ask("setoption name Opening value sequential").is_empty());
    assert!(e.ask("position startpos").is_empty());
    let start = e.ask("d").pop().expect("position line");
    let l = e.one("position startpos moves ~k");
    assert!(l.contains("move 1: incomplete move ~k"), "{l}");
    assert_eq!(e.ask("d").pop(), Some(start));
    assert!(e.ask("position startpos moves ~k-").is_empty());

    e.send("quit");
    assert!(e.exit(PATIENCE).0);
}

#[test]
fn commands_while_searching_are_refused() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    let before = e.ask_busy("d").pop();
    for (line, what) in [
        ("go depth 1", "go while searching"),
        ("position startpos moves m", "position while searching"),
        (
            "setoption name Variant value lango",
            "setoption while searching",
        ),
        ("perft 1", "perft while searching"),
    ] {
        let v = e.ask_busy(line);
        assert_eq!(v.len(), 1, "{line}: {v:?}");
        assert!(
            v[0].starts_with("info string error: ") && v[0].contains(what),
            "{v:?}"
        );
    }
    assert_eq!(e.ask_busy("query p1turn"), ["response true"]);
    e.send("stop");
    let (_, best) = e.bestmove();
    assert!(best.starts_with("bestmove "));
    assert_eq!(
        e.ask("d").pop(),
        before,
        "the refused commands changed nothing"
    );
    assert!(e.ask("position startpos moves m").is_empty());
}

#[test]
fn end_of_input_means_quit() {
    let mut e = Engine::start();
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    e.close_input();
    let (ok, _) = e.exit(PATIENCE);
    assert!(ok);
}

#[test]
fn quit_during_a_search_exits_at_once() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("quit");
    let (ok, took) = e.exit(PATIENCE);
    eprintln!(
        "latency: quit during go infinite -> exit {:.3} ms",
        took.as_secs_f64() * 1e3
    );
    assert!(ok);
    assert!(took < Duration::from_secs(1), "quit took {took:?}");
}

/// `perft 64` runs on the search thread (RELIABILITY.md finding 33):
/// `isready` is answered meanwhile, and `stop`, `quit` or the end of input
/// end it. Before, it ran on the reading thread and only a signal ended it.
#[test]
fn a_long_perft_is_ended_by_stop_quit_and_end_of_input() {
    for how in ["stop", "quit", "end of input", "divide"] {
        let mut e = Engine::start();
        e.send(if how == "divide" {
            "divide 64"
        } else {
            "perft 64"
        });
        // The first depths are written as they are finished.
        if how != "divide" {
            assert!(e.recv().starts_with("depth 1 paths "), "{how}");
        }
        let mut v = e.ask("position startpos moves m");
        v.retain(|l| !l.starts_with("depth "));
        assert_eq!(
            v,
            ["info string error: position while searching; ignored (send stop first)"],
            "{how}"
        );
        match how {
            "quit" => e.send("quit"),
            "end of input" => e.close_input(),
            _ => {
                e.send("stop");
                let v = e.until(|l| l.starts_with("time "));
                let n = v.len();
                assert!(n >= 2, "{how}: {v:?}");
                assert!(
                    v[n - 2].starts_with("info string perft stopped at depth "),
                    "{how}: {v:?}"
                );
                assert!(v.iter().all(|l| !l.starts_with("move ")), "{how}: {v:?}");
                // The engine is free again.
                assert!(e.ask("position startpos moves m").is_empty(), "{how}");
                e.send("quit");
            }
        }
        let (ok, _) = e.exit(PATIENCE);
        assert!(ok, "{how}");
    }
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run choro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn command_line_perft() {
    let pos = Position::start(Variant::Acholi, 8, Opening::Simultaneous).expect("start");
    let (code, out, _) = cli(&["perft", "2", "--variant", "acholi"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    for d in 1..=2 {
        let (c, _) = choro_engine::perft::perft(&pos, d);
        assert_eq!(
            lines[d as usize - 1],
            format!("depth {d} paths {} unique {}", c.paths, c.unique)
        );
    }
    assert!(
        lines[2].starts_with("time ")
            && lines[2].contains(" moves/s ")
            && lines[2].contains(" drops/s ")
    );

    let fen = pos.to_string();
    let (code, out2, _) = cli(&["perft", "2", "--pos", &fen]);
    assert_eq!(code, 0);
    assert_eq!(out2.lines().take(2).collect::<Vec<_>>(), lines[..2]);

    let (code, out, _) = cli(&[
        "perft",
        "1",
        "--variant",
        "didinga",
        "--columns",
        "12",
        "--divide",
        "--json",
    ]);
    assert_eq!(code, 0);
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let moves = objs.iter().filter(|o| o["type"] == "move").count();
    assert_eq!(moves, 12, "12 wide: each of the 12 back-row holes opens");
    assert_eq!(objs[moves]["type"], "depth");
    assert_eq!(objs[moves]["paths"], 12);
    assert_eq!(objs.last().expect("summary")["type"], "summary");

    for bad in [
        &["perft", "0"][..],
        &["perft", "2", "--variant", "chess"],
        &["perft", "2", "--variant", "lango", "--columns", "9"],
        &["perft", "2", "--pos", "didinga:8 1 a m"],
        &["perft", "2", "--pos", "lango:8 1 a m", "--variant", "lango"],
        &["perft", "2", "--opening", "blind"],
        &["perft", "2", "--pos", &fen, "--opening", "sequential"],
    ] {
        let (code, out, err) = cli(bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
}

#[test]
fn command_line_bench_help_and_version() {
    let (code, out, _) = cli(&["bench", "--variant", "adjiboto", "--depth", "3"]);
    assert_eq!(code, 0);
    let last = out.lines().last().unwrap_or_default().to_string();
    let w: Vec<&str> = last.split(' ').collect();
    assert_eq!((w.len(), w[1], w[3]), (4, "nodes", "nps"), "{last}");
    let (code2, out2, _) = cli(&["bench", "--variant", "adjiboto", "--depth", "3"]);
    assert_eq!(code2, 0);
    assert_eq!(
        out2.lines().last().map(|l| l.split(' ').next()),
        Some(Some(w[0])),
        "signature"
    );
    // Every bench position is a position string: the opening mode builds
    // none of them, and the signature is the same under both.
    for opening in ["sequential", "simultaneous"] {
        let (code, out, _) = cli(&[
            "bench",
            "--variant",
            "adjiboto",
            "--depth",
            "3",
            "--opening",
            opening,
        ]);
        assert_eq!(code, 0);
        assert_eq!(
            out.lines().last().map(|l| l.split(' ').next()),
            Some(Some(w[0]))
        );
    }
    let (code, _, err) = cli(&["bench", "--variant", "chess"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = cli(&["bench", "--opening", "blind"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = cli(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("choro {}", env!("CARGO_PKG_VERSION")));
    let (code, out, _) = cli(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("perft") && out.contains("bench"));
}

/// The latency figures of BENCHMARKS.md ("Protocol latency"):
/// `cargo test --release -p choro --test pipes -- --ignored --nocapture latency_figures`.
#[test]
#[ignore]
fn latency_figures() {
    fn summary(v: &mut [Duration]) -> String {
        v.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        format!(
            "median {:.2} ms, max {:.2} ms",
            ms(v[v.len() / 2]),
            ms(v[v.len() - 1])
        )
    }
    for v in ["didinga", "lango", "acholi", "adjiboto"] {
        let mut e = Engine::start();
        e.send("uci");
        e.until(|l| l == "uciok");
        assert!(e
            .ask(&format!("setoption name Variant value {v}"))
            .is_empty());
        let (mut ready, mut stop) = (Vec::new(), Vec::new());
        for _ in 0..30 {
            e.send("position startpos");
            e.send("go infinite");
            thread::sleep(Duration::from_millis(200));
            let t = Instant::now();
            e.send("isready");
            e.until(|l| l == "readyok");
            ready.push(t.elapsed());
            let t = Instant::now();
            e.send("stop");
            e.bestmove();
            stop.push(t.elapsed());
        }
        e.send("go infinite");
        thread::sleep(Duration::from_millis(200));
        e.send("quit");
        let (ok, quit) = e.exit(PATIENCE);
        assert!(ok);
        println!(
            "| {v} | {} | {} | {:.1} ms |",
            summary(&mut ready),
            summary(&mut stop),
            quit.as_secs_f64() * 1e3
        );
    }
}

/// `Opening` picks the start position of the next `position startpos` (and
/// `uginewgame`, and a `Variant` change): `s2` by default, `o2` when
/// sequential. Setting it leaves the current game as it is; a bad value is
/// one error line and changes nothing.
#[test]
fn the_opening_option_sets_the_next_start_position() {
    let mut e = Engine::start();
    let board = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
    let last = |e: &mut Engine| e.ask("d").pop().expect("position line");
    assert!(e.ask("position startpos").is_empty());
    assert_eq!(last(&mut e), format!("position didinga:8 {board} a s2 0"));
    assert!(e.ask("setoption name Opening value sequential").is_empty());
    assert_eq!(
        last(&mut e),
        format!("position didinga:8 {board} a s2 0"),
        "the game goes on until the next position startpos"
    );
    let l = e.one("setoption name Opening value bogus");
    assert!(
        l.starts_with("info string error: ") && l.contains("'bogus'"),
        "{l}"
    );
    assert!(e.ask("position startpos").is_empty());
    assert_eq!(last(&mut e), format!("position didinga:8 {board} a o2 0"));
    assert!(e.ask("setoption name Variant value acholi").is_empty());
    assert_eq!(last(&mut e), format!("position acholi:8 {board} a o2 0"));
    assert!(e
        .ask("setoption name Opening value SIMULTANEOUS")
        .is_empty());
    assert!(e.ask("uginewgame").is_empty());
    assert_eq!(last(&mut e), format!("position acholi:8 {board} a s2 0"));
    // Adjiboto has one opening; the option changes nothing there.
    assert!(e.ask("setoption name Variant value adjiboto").is_empty());
    assert!(e.ask("position startpos").is_empty());
    assert_eq!(
        last(&mut e),
        "position adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0"
    );
}

/// Both blind starts, then the race decisions, as consecutive moves of
/// `position startpos moves ...`, with `query p1turn` at every step: the
/// side to move, which repeats when a racer decides twice in a row or the
/// first to finish opens the main phase.
#[test]
fn blind_starts_and_race_decisions_by_position_startpos_moves() {
    /// The phase and `query p1turn` before each move and at the end.
    type Steps = &'static [(&'static str, bool)];
    let games: [(&str, &[&str], Steps); 4] = [
        // Didinga has no decision in an opening move: the race runs through.
        (
            "didinga",
            &["m", "n"],
            &[("s2", true), ("s1:m", false), ("m", true)],
        ),
        // Lango: A decides, B decides, A twice; B finished first.
        (
            "lango",
            &["b", "b", "-", "+", "+", "-"],
            &[
                ("s2", true),
                ("s1:b", false),
                ("r", true),
                ("r", false),
                ("r", true),
                ("r", true),
                ("m", false),
            ],
        ),
        // Acholi: B decides right after his blind start, then A.
        (
            "acholi",
            &["a", "a", "+", "+"],
            &[
                ("s2", true),
                ("s1:a", false),
                ("r", false),
                ("r", true),
                ("m", true),
            ],
        ),
        // Acholi: B's attack from k captures; he leaves the increment and
        // starts anew twice (`=<start>`), three plies of B in a row.
        (
            "acholi",
            &["b", "~k", "=~k", "=p"],
            &[
                ("s2", true),
                ("s1:b", false),
                ("r", false),
                ("r", false),
                ("m", true),
            ],
        ),
    ];
    let mut e = Engine::start();
    e.send("ugi");
    e.until(|l| l == "ugiok");
    for (code, moves, steps) in games {
        assert!(e
            .ask(&format!("setoption name Variant value {code}"))
            .is_empty());
        let v: Variant = code.parse().expect("code");
        let mut game = Game::new(Position::start(v, 8, Opening::Simultaneous).expect("start"));
        for (i, (phase, p1)) in steps.iter().enumerate() {
            let cmd = format!("position startpos moves {}", moves[..i].join(" "));
            assert!(e.ask(cmd.trim_end()).is_empty(), "{cmd}");
            let d = e.ask("d").pop().expect("position line");
            assert_eq!(d.split(' ').nth(4), Some(*phase), "{cmd}: {d}");
            assert_eq!(d, format!("position {}", game.position()), "{cmd}");
            assert_eq!(e.one("query p1turn"), format!("response {p1}"), "{cmd}");
            assert_eq!(e.one("query gameover"), "response false", "{cmd}");
            // The side to move of the rules is the one that may move.
            let side = game.position().side_to_move();
            assert_eq!(side == Side::A, *p1, "{cmd}");
            if let Some(m) = moves.get(i) {
                game.play_str(m)
                    .unwrap_or_else(|err| panic!("{cmd} {m}: {err}"));
            }
        }
    }
    // A race decision is refused where there is none, and a blind start
    // after the race is no decision: one error line, the position kept.
    assert!(e.ask("position startpos moves b b").is_empty());
    let kept = e.ask("d").pop();
    for (bad, what) in [
        ("position startpos moves b b =~k", "move 3"),
        ("position startpos moves b b + + + + + + + + + + +", "move"),
        ("position startpos moves b b ~k", "move 3"),
    ] {
        let l = e.one(bad);
        assert!(
            l.starts_with("info string error: ") && l.contains(what),
            "{bad}: {l}"
        );
        assert_eq!(e.ask("d").pop(), kept, "{bad}");
    }
}

/// `choro perft --opening`: the simultaneous start counts the two blind
/// starts as two plies and each race decision as one; the sequential start
/// counts whole opening moves. The counts are the engine's for each start.
#[test]
fn command_line_perft_of_each_opening() {
    for v in [
        Variant::Didinga,
        Variant::Lango,
        Variant::Acholi,
        Variant::Adjiboto,
    ] {
        let mut firsts = Vec::new();
        for opening in [Opening::Sequential, Opening::Simultaneous] {
            let pos = Position::start(v, v.default_width(), opening).expect("start");
            let (code, out, err) = cli(&[
                "perft",
                "3",
                "--variant",
                v.name(),
                "--opening",
                opening.name(),
            ]);
            assert_eq!(code, 0, "{err}");
            let lines: Vec<&str> = out.lines().collect();
            for d in 1..=3 {
                let (c, _) = choro_engine::perft::perft(&pos, d);
                assert_eq!(
                    lines[d as usize - 1],
                    format!("depth {d} paths {} unique {}", c.paths, c.unique),
                    "{v} {opening}"
                );
            }
            firsts.push(lines[..3].join("\n"));
        }
        if v.is_choro() {
            assert_ne!(firsts[0], firsts[1], "{v}: the modes count differently");
        } else {
            assert_eq!(firsts[0], firsts[1], "{v} has one opening");
        }
    }
    // Didinga 4x8: 8 blind starts of A, then 8 of B for each, and no
    // decision in the race; sequentially, 8 opening moves of A.
    let (_, out, _) = cli(&["perft", "2"]);
    assert!(
        out.starts_with("depth 1 paths 8 unique 8\ndepth 2 paths 64 unique 64\n"),
        "{out}"
    );
    let (_, out, _) = cli(&["perft", "1", "--opening", "sequential"]);
    assert!(out.starts_with("depth 1 paths 8 unique 8\n"), "{out}");
}

/// `OwnBook` (issue 30): on by default, Lango's blind start is answered
/// from the book of solved cells; off, the matrix is searched.
#[test]
fn own_book_turns_the_book_off_and_on() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    assert!(e.ask("setoption name Variant value lango").is_empty());
    for (value, want) in [(None, true), (Some("false"), false), (Some("true"), true)] {
        if let Some(v) = value {
            assert!(e
                .ask(&format!("setoption name OwnBook value {v}"))
                .is_empty());
        }
        e.send("position startpos");
        e.send("go depth 2");
        let (lines, best) = e.bestmove();
        assert!(best.starts_with("bestmove "), "{best}");
        let from_book = lines
            .iter()
            .any(|l| l.contains("from the book of solved cells"));
        assert_eq!(from_book, want, "OwnBook {value:?}: {lines:?}");
    }
    let r = e.ask("setoption name OwnBook value maybe");
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("info string error:"), "{r:?}");
}
