//! The choro-gui server without a browser: its requests against the real
//! `choro` binary, and against engines that crash, hang or were killed.
//! Each failure is a message for the page and never a panic; the game lives
//! in the requests, so nothing is lost; the next request gets a new engine.

mod common;

use choro_engine::{Game, Opening, Position, Variant};
use choro_gui::engine::Limits;
use choro_gui::{App, Page};
use common::binary;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

fn short_limits() -> Limits {
    Limits {
        answer: Duration::from_secs(10),
        overrun: Duration::from_millis(200),
        grace: Duration::from_millis(300),
    }
}

async fn ask(app: &App, req: Value) -> Value {
    app.request(req).await.0
}

#[tokio::test]
async fn state_new_game_setup_and_trace_come_from_the_engine() {
    let app = App::new(binary("choro"), &[]);
    let r = ask(
        &app,
        json!({"id": 7, "op": "newgame", "variant": "lango", "columns": 8, "opening": "simultaneous"}),
    )
    .await;
    assert_eq!(r["id"], 7);
    let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
    assert_eq!(r["start"], start.to_string());
    let r = ask(
        &app,
        json!({"op": "state", "start": start.to_string(), "moves": ["b", "b"]}),
    )
    .await;
    let mut g = Game::new(start);
    g.play_str("b").unwrap();
    g.play_str("b").unwrap();
    assert_eq!(r["position"], g.position().to_string(), "{r}");
    let legal: Vec<String> = g
        .position()
        .legal_moves()
        .iter()
        .map(|(m, _)| g.position().restyle(*m).to_string())
        .collect();
    let listed: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap())
        .collect();
    assert_eq!(listed, legal);
    assert_eq!(r["result"], "none");
    assert!(r["eval"][0].as_str().unwrap().starts_with("term "));
    // A malformed position string: the engine's message, nothing else changes.
    let r = ask(&app, json!({"op": "setup", "fen": "didinga:8 2,2/2 a o2"})).await;
    assert!(
        r["error"].as_str().unwrap().starts_with("position fen: "),
        "{r}"
    );
    let r = ask(&app, json!({"op": "setup", "fen": "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0\nquit"})).await;
    assert!(r["error"].as_str().unwrap().contains("one line"), "{r}");
    // A move smuggling a second command is refused before the engine sees it.
    let r = ask(
        &app,
        json!({"op": "trace", "start": start.to_string(), "moves": [], "move": "b\nquit"}),
    )
    .await;
    assert!(
        r["error"].as_str().unwrap().starts_with("bad 'move'"),
        "{r}"
    );
    let r = ask(
        &app,
        json!({"op": "trace", "start": start.to_string(), "moves": [], "move": "b"}),
    )
    .await;
    let t = r["trace"].as_array().unwrap();
    assert_eq!(t.len(), 1, "a blind start is traced whole: {r}");
    assert_eq!(r["restarts"], 0);
    // A `#` word is a comment to the protocol: sent on, it would drop every
    // later move unseen and show a position the page never asked for
    // (RELIABILITY finding 18). Refused, in a move and in the start.
    let r = ask(
        &app,
        json!({"op": "state", "start": start.to_string(), "moves": ["b", "#b", "a"]}),
    )
    .await;
    assert!(
        r["error"].as_str().unwrap().starts_with("bad move \"#b\""),
        "{r}"
    );
    let r = ask(
        &app,
        json!({"op": "state", "start": format!("{start} #b"), "moves": ["b"]}),
    )
    .await;
    assert!(r["error"].as_str().unwrap().contains("'#'"), "{r}");
    // Unknown requests and garbage are answered, not fatal.
    assert!(ask(&app, json!({"op": "fly"})).await["error"].is_string());
    assert!(ask(&app, json!(42)).await["error"].is_string());
}

#[tokio::test]
async fn a_killed_engine_is_restarted_and_the_game_kept() {
    let app = App::new(binary("choro"), &[]);
    let start = Position::start(Variant::Didinga, 8, Opening::Sequential)
        .unwrap()
        .to_string();
    let req = json!({"op": "state", "start": start, "moves": ["l"]});
    let r = ask(&app, req.clone()).await;
    let pid = r["engine_pid"].as_u64().unwrap();
    assert!(Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap()
        .success());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let again = ask(&app, req).await;
    assert!(
        again["note"].as_str().unwrap().contains("restarted"),
        "{again}"
    );
    assert_eq!(again["restarts"], 1);
    assert_ne!(again["engine_pid"].as_u64().unwrap(), pid);
    assert_eq!(again["position"], r["position"], "the same game");
}

/// `choro-testengine --fault F`: fails at its first `go`, every time.
fn faulty(fault: &str) -> Arc<App> {
    App::new(
        binary("choro-testengine"),
        &["--fault".into(), fault.into(), "--at".into(), "1".into()],
    )
}

#[tokio::test]
async fn a_hanging_or_crashing_engine_gives_a_message_not_a_panic() {
    let start = Position::start(Variant::Didinga, 8, Opening::Sequential)
        .unwrap()
        .to_string();
    let go =
        json!({"op": "go", "start": start, "moves": [], "algorithm": "random", "movetime": 20});
    for (fault, says) in [
        ("hang", "did not answer bestmove in time"),
        ("crash", "stopped"),
    ] {
        let app = faulty(fault);
        app.set_limits(short_limits()).await;
        let r = ask(&app, go.clone()).await;
        let e = r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{fault}: {r}"));
        assert!(e.contains(says), "{fault}: {e}");
        assert!(e.ends_with(choro_gui::RESTART_NOTE), "{e}");
    }
    // An engine that cannot be started at all.
    let app = App::new(PathBuf::from("/nonexistent/choro"), &[]);
    let r = ask(&app, go).await;
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .starts_with("the engine could not be started"),
        "{r}"
    );
}

#[tokio::test]
async fn a_refusal_quotes_at_most_the_start_of_a_long_input() {
    // Finding gui-7f48a3465f5f4619: a 458-byte 'variant' came back whole in
    // a 401-byte error (a word of over 200 bytes is refused, then quoted).
    let app = App::new(binary("choro"), &[]);
    let long = "adj,2,2".repeat(70);
    let start = Position::start(Variant::Didinga, 8, Opening::Sequential)
        .unwrap()
        .to_string();
    for req in [
        json!({"id": 1, "op": "newgame", "variant": long, "columns": 8}),
        json!({"id": 2, "op": "state", "start": start, "moves": [long]}),
        json!({"id": 3, "op": "newgame", "variant": "lango", "columns": 8, "opening": long}),
        // Finding gui-d26b0f9bf5318777: an unknown request named whole.
        json!({"id": 4, "op": long}),
    ] {
        let r = ask(&app, req.clone()).await;
        let e = r["error"].as_str().unwrap_or_else(|| panic!("{req}: {r}"));
        assert!(e.len() < 200, "{} bytes: {e}", e.len());
        assert!(e.contains("adj,2,2adj,2,2") && e.contains("..."), "{e}");
    }
}

#[tokio::test]
async fn a_search_streams_info_and_answers_a_legal_move() {
    let app = App::new(binary("choro"), &[]);
    let start = Position::start(Variant::Acholi, 8, Opening::Sequential).unwrap();
    let (r, infos) = app
        .request(json!({"op": "go", "start": start.to_string(), "moves": [], "algorithm": "alphabeta", "movetime": 100}))
        .await;
    let best = r["bestmove"].as_str().unwrap();
    assert!(start.parse_move(best).is_ok(), "{r}");
    assert!(
        infos
            .iter()
            .any(|v| v["line"].as_str().unwrap().starts_with("info depth ")),
        "{infos:?}"
    );
}

/// An Adjiboto game played to its end with the engine crate's first legal
/// moves: the start and the moves.
fn finished_game() -> (Position, Vec<String>) {
    let start = Position::start(Variant::Adjiboto, 8, Opening::Sequential).unwrap();
    let mut g = Game::new(start);
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        let p = *g.position();
        let m = p.restyle(p.legal_moves()[0].0);
        moves.push(m.to_string());
        g.play(&m).unwrap();
    }
    (start, moves)
}

#[tokio::test]
async fn a_finished_game_is_saved_as_a_record_choro_replay_accepts() {
    let app = App::new(binary("choro"), &[]);
    let (start, moves) = finished_game();
    let early = ask(
        &app,
        json!({"op": "record", "start": start.to_string(), "moves": &moves[..3]}),
    )
    .await;
    // A game not over is saved unfinished: `*`, no reason; choro replay
    // accepts it.
    let early = early["record"].as_str().unwrap();
    assert!(early.contains("[Result \"*\"]\n"), "{early}");
    assert!(!early.contains("[Reason "), "{early}");
    assert_eq!(early.trim_end().lines().last(), Some("*"), "{early}");
    let r = ask(
        &app,
        json!({"op": "record", "start": start.to_string(), "moves": moves, "a": "x", "b": "y"}),
    )
    .await;
    let text = r["record"].as_str().unwrap();
    let dir = std::env::temp_dir().join(format!("choro-gui-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, text).unwrap();
    common::assert_replays(&file);
    let file = dir.join("unfinished.txt");
    std::fs::write(&file, early).unwrap();
    common::assert_replays(&file);
    // And read back for stepping.
    let r = ask(&app, json!({"op": "records", "text": text})).await;
    assert_eq!(
        r["games"][0]["moves"].as_array().unwrap().len(),
        moves.len()
    );
    assert_eq!(r["games"][0]["start"], start.to_string());
    let _ = std::fs::remove_dir_all(dir);
}

/// Finding 16 (RELIABILITY.md, gui fuzz target): a player's name with a
/// line feed was written raw into its tag, and the record did not read back.
#[tokio::test]
async fn a_record_with_control_characters_in_the_names_reads_back() {
    let app = App::new(binary("choro"), &[]);
    let (start, moves) = finished_game();
    let r = ask(
        &app,
        json!({"op": "record", "start": start.to_string(), "moves": moves,
               "a": "alpha \"one\"\n", "b": "b\\two\r\n[Result \"1-0\"]\t\u{1b}"}),
    )
    .await;
    let text = r["record"].as_str().unwrap();
    let recs = choro_match::record::parse_records(text).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].tag("A"), Some("alpha \"one\" "));
    assert_eq!(recs[0].tag("B"), Some("b\\two  [Result \"1-0\"]  "));
    let dir = std::env::temp_dir().join(format!("choro-gui-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, text).unwrap();
    common::assert_replays(&file);
    let _ = std::fs::remove_dir_all(dir);
}

/// Without a `choro` binary the board runs itself as the engine
/// (`choro-gui --protocol`, the choro crate's own server).
#[tokio::test]
async fn choro_gui_itself_speaks_the_protocol() {
    let me = PathBuf::from(env!("CARGO_BIN_EXE_choro-gui"));
    let app = App::new(me, &["--protocol".into()]);
    let r = ask(
        &app,
        json!({"op": "newgame", "variant": "acholi", "columns": 8, "opening": "sequential"}),
    )
    .await;
    let start = Position::start(Variant::Acholi, 8, Opening::Sequential).unwrap();
    assert_eq!(r["start"], start.to_string(), "{r}");
    let r = ask(
        &app,
        json!({"op": "state", "start": start.to_string(), "moves": []}),
    )
    .await;
    assert_eq!(
        r["moves"].as_array().unwrap().len(),
        start.legal_moves().len()
    );
}

/// A page's replies, skipping the `info` lines a search pushes.
async fn next_reply(rx: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    loop {
        let v = rx.recv().await.expect("the page's replies ended");
        if v["type"] != "info" {
            return v;
        }
    }
}

/// A page's engine requests are answered in the order it sent them: the
/// board of a new game asked for after an old game's is the one the page
/// gets last. (Each request on its own task, they overtook each other on
/// the engine's lock, and the page was left showing the old game: the
/// browser test saw it as an engine move refused in a new game.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pages_requests_are_answered_in_the_order_sent() {
    let app = App::new(binary("choro"), &[]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let page = Page::new(app, tx);
    let starts = [
        Position::start(Variant::Didinga, 12, Opening::Sequential).unwrap(),
        Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap(),
        Position::start(Variant::Adjiboto, 8, Opening::Sequential).unwrap(),
    ];
    // As many at once as a page may have waiting (choro_gui::MAX_WAITING),
    // three times.
    let n = choro_gui::MAX_WAITING;
    for round in 0..3 {
        for i in round * n..(round + 1) * n {
            let start = starts[i % 3].to_string();
            page.take(&json!({"id": i, "op": "state", "start": start, "moves": []}).to_string())
                .unwrap();
        }
        for i in round * n..(round + 1) * n {
            let r = next_reply(&mut rx).await;
            assert_eq!(r["id"], i, "{r}");
            assert_eq!(r["position"], starts[i % 3].to_string(), "{r}");
        }
    }
}

/// A `stop` sent right after a `go` ends that search, even when it reaches
/// the server before the `go` reaches the engine (it was lost then, and the
/// search ran its whole time).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stop_right_after_a_go_ends_that_search() {
    let app = App::new(binary("choro"), &[]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let page = Page::new(app, tx);
    // Didinga's 12-wide start: alpha-beta finds no end in it and would
    // think the whole 600 s.
    let start = Position::start(Variant::Didinga, 12, Opening::Sequential).unwrap();
    for round in 0..3 {
        let go = json!({"id": 2 * round, "op": "go", "start": start.to_string(), "moves": [],
            "algorithm": "alphabeta", "movetime": 600_000});
        page.take(&go.to_string()).unwrap();
        page.take(&json!({"id": 2 * round + 1, "op": "stop"}).to_string())
            .unwrap();
        let mut best = None;
        while best.is_none() {
            let r = tokio::time::timeout(Duration::from_secs(60), next_reply(&mut rx))
                .await
                .expect("the stopped search did not answer within 60 s");
            if r["id"] == 2 * round {
                best = Some(r);
            }
        }
        let best = best.unwrap();
        let mv = best["bestmove"].as_str().unwrap();
        assert!(start.parse_move(mv).is_ok(), "{best}");
    }
}

/// `didinga:8`'s simultaneous start with `holds` holds a racer.
fn start_with_holds(holds: u8) -> Position {
    let p = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
    p.with_race_holds(holds).unwrap()
}

/// A choro whose input is copied, line by line, to `log`: what the
/// server told the engine.
fn logged_engine(log: &std::path::Path) -> Arc<App> {
    App::new(
        PathBuf::from("/bin/sh"),
        &[
            "-c".into(),
            format!(
                "tee -a '{}' | '{}'",
                log.display(),
                binary("choro").display()
            ),
        ],
    )
}

#[test]
fn the_servers_holds_bound_is_the_engines() {
    assert_eq!(choro_gui::MAX_HOLDS, choro_engine::MAX_HOLDS);
}

/// A new game with holds (RULES.md 8.10): the engine's RaceHolds, its
/// start `s2,holds=N`; the game's later requests run under it. Bad input:
/// holds out of range, a position whose holds disagree, a hold with none
/// left: a clear error each, and nothing the engine was told changes.
#[tokio::test]
async fn a_game_with_holds_and_its_bad_inputs() {
    let dir = std::env::temp_dir().join(format!("choro-gui-holds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine-input");
    let _ = std::fs::remove_file(&log);
    let app = logged_engine(&log);
    let r = ask(
        &app,
        json!({"op": "newgame", "variant": "didinga", "columns": 8, "opening": "simultaneous", "holds": 2}),
    )
    .await;
    let start = start_with_holds(2).to_string();
    assert_eq!(r["start"], start, "{r}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(
        told.contains("setoption name RaceHolds value 2\n"),
        "{told}"
    );
    // Out of range, or not a whole number: refused before the engine is
    // told anything.
    for bad in [
        json!(9),
        json!(-1),
        json!(2.5),
        json!("2"),
        json!(1u64 << 40),
    ] {
        let before = std::fs::read_to_string(&log).unwrap();
        for op in ["newgame", "setup", "state", "go"] {
            let r = ask(
                &app,
                json!({"op": op, "variant": "didinga", "columns": 8, "opening": "simultaneous",
                       "fen": start, "start": start, "moves": [], "holds": bad,
                       "algorithm": "random", "movetime": 10}),
            )
            .await;
            let e = r["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{op} {bad}: {r}"));
            assert!(
                e.starts_with("bad 'holds': ") && e.contains("from 0 to 8"),
                "{op} {bad}: {r}"
            );
        }
        assert_eq!(std::fs::read_to_string(&log).unwrap(), before, "{bad}");
    }
    // The game goes on under its holds: A holds in tick 1.
    let r = ask(
        &app,
        json!({"op": "state", "start": start, "moves": ["l", "a", "_"], "holds": 2}),
    )
    .await;
    let mut g = Game::new(start_with_holds(2));
    for m in ["l", "a", "_"] {
        g.play_str(m).unwrap();
    }
    assert_eq!(r["position"], g.position().to_string(), "{r}");
    assert!(r["position"].as_str().unwrap().contains("held=1"), "{r}");
    let listed: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap())
        .collect();
    assert_eq!(listed, [".", "_"], "{r}");
    // A position whose holds disagree with the option.
    for (fen, holds, want) in [
        (start.clone(), 0, "each racer 2 holds but RaceHolds is 0"),
        (start.clone(), 3, "each racer 2 holds but RaceHolds is 3"),
        (
            start_with_holds(0).to_string(),
            2,
            "each racer 0 holds but RaceHolds is 2",
        ),
    ] {
        let r = ask(&app, json!({"op": "setup", "fen": fen, "holds": holds})).await;
        assert!(r["error"].as_str().unwrap().contains(want), "{r}");
        let r = ask(
            &app,
            json!({"op": "state", "start": fen, "moves": [], "holds": holds}),
        )
        .await;
        assert!(r["error"].as_str().unwrap().contains(want), "{r}");
    }
    let r = ask(&app, json!({"op": "setup", "fen": start, "holds": 2})).await;
    assert_eq!(r["start"], start, "{r}");
    // A hold where none is left: both held their one hold in tick 1.
    let one = start_with_holds(1).to_string();
    let r = ask(
        &app,
        json!({"op": "state", "start": one, "moves": ["l", "a", "_", "_", "_"], "holds": 1}),
    )
    .await;
    let e = r["error"].as_str().unwrap();
    assert!(
        e.contains("move 5: illegal move _: A has no hold to take here"),
        "{r}"
    );
    let r = ask(
        &app,
        json!({"op": "trace", "start": one, "moves": ["l", "a", "_", "_"], "move": "_", "holds": 1}),
    )
    .await;
    assert!(
        r["error"].as_str().unwrap().contains("illegal move _"),
        "{r}"
    );
    // Holds 0 is the game without them, as before the option: a fresh
    // engine is told nothing about RaceHolds.
    let log0 = dir.join("engine-input-0");
    let _ = std::fs::remove_file(&log0);
    let app0 = logged_engine(&log0);
    let r = ask(
        &app0,
        json!({"op": "newgame", "variant": "didinga", "columns": 8, "opening": "simultaneous", "holds": 0}),
    )
    .await;
    assert_eq!(r["start"], start_with_holds(0).to_string(), "{r}");
    let r = ask(
        &app0,
        json!({"op": "go", "start": r["start"], "moves": ["l"], "algorithm": "random", "movetime": 10}),
    )
    .await;
    assert!(r["bestmove"].is_string(), "{r}");
    let told = std::fs::read_to_string(&log0).unwrap();
    assert!(!told.contains("RaceHolds"), "{told}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Against the engine, B's tick choice is searched without A's choice of
/// the same tick (RULES.md 8.10): the engine is sent A's hold as a drop,
/// and is never told the `_` (nor, by what it is asked, whether A held);
/// its answer is legal in the real game. A choice of A's that ran its tick
/// (B had no hold left) is no secret and is sent as made.
#[tokio::test]
async fn the_engine_never_reads_a_tick_choice_of_the_other_racer() {
    let dir = std::env::temp_dir().join(format!("choro-gui-tick-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = start_with_holds(2).to_string();
    let mut told = Vec::new();
    for (i, a) in ["_", "."].into_iter().enumerate() {
        let log = dir.join(format!("engine-input-{i}"));
        let _ = std::fs::remove_file(&log);
        let app = logged_engine(&log);
        let r = ask(
            &app,
            json!({"op": "go", "start": start, "moves": ["l", "a", a], "holds": 2,
                   "algorithm": "alphabeta", "movetime": 50}),
        )
        .await;
        let best = r["bestmove"].as_str().unwrap_or_else(|| panic!("{r}"));
        assert!(best == "." || best == "_", "{r}");
        told.push(std::fs::read_to_string(&log).unwrap());
    }
    // A fresh engine each: told exactly the same, hold or drop.
    assert_eq!(told[0], told[1]);
    let positions: Vec<&str> = told[0]
        .lines()
        .filter(|l| l.starts_with("position"))
        .collect();
    assert!(
        positions.iter().any(|p| p.ends_with("moves l a .")),
        "{positions:?}"
    );
    assert!(
        !told[0].contains('_'),
        "the engine was told A's hold: {}",
        told[0]
    );
    // B with no hold left (he held in tick 1): A's hold in tick 2 ran the
    // tick, and the game is sent as it was played.
    let one = start_with_holds(1).to_string();
    let log = dir.join("engine-input-2");
    let _ = std::fs::remove_file(&log);
    let app = logged_engine(&log);
    let r = ask(
        &app,
        json!({"op": "go", "start": one, "moves": ["l", "a", ".", "_", "_"], "holds": 1,
               "algorithm": "random", "movetime": 10}),
    )
    .await;
    assert!(r["bestmove"].is_string(), "{r}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("moves l a . _ _\n"), "{told}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game with holds saved as a record: its `RaceHolds` tag, as `choro
/// match` writes it; `choro replay` accepts it, and `records` reads the
/// holds back for the page. Without holds there is no such tag.
#[tokio::test]
async fn a_record_with_holds_says_so_and_replays() {
    let app = App::new(binary("choro"), &[]);
    let start = start_with_holds(1).to_string();
    let moves = ["l", "a", ".", "_", "_"];
    let r = ask(
        &app,
        json!({"op": "record", "start": start, "moves": moves, "holds": 1}),
    )
    .await;
    let text = r["record"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(
        text.contains("[Opening \"simultaneous\"]\n[RaceHolds \"1\"]\n"),
        "{text}"
    );
    assert!(text.contains("2 a .\n3 b _\n4 a _\n"), "{text}");
    let dir = std::env::temp_dir().join(format!("choro-gui-holds-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, text).unwrap();
    common::assert_replays(&file);
    let _ = std::fs::remove_dir_all(&dir);
    let r = ask(&app, json!({"op": "records", "text": text})).await;
    assert_eq!(r["games"][0]["holds"], 1, "{r}");
    assert_eq!(r["games"][0]["start"], start, "{r}");
    let plain = start_with_holds(0).to_string();
    let r = ask(
        &app,
        json!({"op": "record", "start": plain, "moves": ["l", "a"]}),
    )
    .await;
    let text = r["record"].as_str().unwrap();
    assert!(!text.contains("RaceHolds"), "{text}");
    let r = ask(&app, json!({"op": "records", "text": text})).await;
    assert_eq!(r["games"][0]["holds"], 0, "{r}");
}
