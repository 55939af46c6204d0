//! `choro match` end to end: real choro processes at fixed depth, and every
//! failure path with `choro-testengine`, which misbehaves on purpose.
//! Every game played here is also re-played by the record verifier.

use choro_engine::{Game, Opening, Phase, Position, Side, Variant};
use choro_match::engine::{EngineSpec, Proto};
use choro_match::openings::OpeningPlan;
use choro_match::record::{GameResult, Reason};
use choro_match::referee::{Limits, Played, Settings, TimeControl};
use choro_match::replay::verify;
use choro_match::stats::SprtDecision;
use choro_match::{run, MatchConfig, MatchSummary};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const CHORO: &str = env!("CARGO_BIN_EXE_choro");
const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_choro-testengine");

fn choro(name: &str, algorithm: &str) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        cmd: CHORO.into(),
        args: vec![],
        proto: Proto::Ugi,
        options: vec![("Algorithm".into(), algorithm.into())],
    }
}

fn test_engine(name: &str, args: &[&str]) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        cmd: TEST_ENGINE.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        proto: Proto::Ugi,
        options: vec![],
    }
}

fn settings(limits: Limits) -> Settings {
    Settings {
        event: "test".into(),
        variant: Variant::Didinga,
        columns: 8,
        // The sequential opening, whose start (o2) these tests write out;
        // the simultaneous one has tests of its own below.
        opening: Opening::Sequential,
        race_holds: 0,
        draw_plies: 1000,
        limits,
        // Generous: the tests share two cores with everything else.
        margin: Duration::from_millis(200),
        move_timeout: Duration::from_millis(400),
        start_timeout: Duration::from_secs(10),
        stop_grace: Duration::from_millis(300),
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn movetime(ms: u64) -> Limits {
    Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

fn config(engines: Vec<EngineSpec>, games: u64, limits: Limits) -> MatchConfig {
    MatchConfig {
        engines,
        gauntlet: false,
        games,
        settings: settings(limits),
        // The start position: both games of every pair are then the same
        // opening, and the second player always gets a move.
        openings: OpeningPlan::Random {
            plies: 0,
            seed: 1,
            race: false,
        },
        concurrency: 1,
        sprt: None,
        part: None,
    }
}

fn play(cfg: &MatchConfig) -> (MatchSummary, Vec<Played>) {
    let mut games = Vec::new();
    let summary = run(cfg, &mut |p, _| {
        games.push(p.clone());
        Ok(())
    })
    .unwrap();
    for g in &games {
        let v = verify(&g.record).unwrap_or_else(|e| panic!("{e}\n{}", g.record.to_text()));
        assert_eq!((v.result, v.reason), (Some(g.result), Some(g.reason)));
    }
    (summary, games)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("choro-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn two_choro_processes_at_fixed_depth() {
    let mut cfg = config(
        vec![choro("ab", "alphabeta"), choro("greedy", "greedy")],
        4,
        depth(2),
    );
    cfg.openings = OpeningPlan::Random {
        plies: 4,
        seed: 7,
        race: false,
    };
    cfg.concurrency = 2;
    cfg.engines[1].proto = Proto::Uci;
    let (s, games) = play(&cfg);
    let t = &s.tally;
    assert_eq!(t.played, 4);
    assert_eq!(s.stopped_early, None);
    assert_eq!(t.per_pairing[0].wdl.games(), 4);
    assert_eq!(t.per_pairing[0].penta.pairs(), 2);
    assert!(t.failures.iter().all(|f| f.is_empty()), "{:?}", t.failures);
    let mut by_number: Vec<&Played> = games.iter().collect();
    by_number.sort_by_key(|p| p.job.number);
    for pair in by_number.chunks(2) {
        let (g1, g2) = (&pair[0].record, &pair[1].record);
        assert_eq!(g1.tag("Pair"), g2.tag("Pair"));
        assert_eq!(
            g1.tag("Start"),
            g2.tag("Start"),
            "a pair shares its opening"
        );
        assert_eq!(g1.tag("A"), g2.tag("B"), "colours are swapped");
        assert_eq!(g1.tag("A"), Some("ab"));
        assert!(g1.tag("Book").unwrap().starts_with("random 4 plies seed 7"));
        assert!(!pair[0].reason.is_failure());
    }
}

#[test]
fn every_code_plays_with_real_choro_processes() {
    for (variant, columns) in [
        (Variant::Lango, 8),
        (Variant::Acholi, 8),
        (Variant::Adjiboto, 5),
        (Variant::Didinga, 12),
    ] {
        let mut cfg = config(
            vec![choro("ab", "alphabeta"), choro("g", "greedy")],
            2,
            depth(1),
        );
        cfg.settings.variant = variant;
        cfg.settings.columns = columns;
        cfg.openings = OpeningPlan::Random {
            plies: 4,
            seed: 2,
            race: false,
        };
        let (s, games) = play(&cfg);
        assert_eq!(s.tally.played, 2, "{variant}");
        assert!(s.tally.failures.iter().all(|f| f.is_empty()), "{variant}");
        let start = games[0].record.tag("Start").unwrap();
        assert!(start.starts_with(variant.name()), "{start}");
    }
}

#[test]
fn the_go_line_follows_the_handshake() {
    for (proto, fields) in [
        (
            Proto::Ugi,
            "go p1time 10000 p2time 10000 p1inc 100 p2inc 100",
        ),
        (Proto::Uci, "go wtime 10000 btime 10000 winc 100 binc 100"),
    ] {
        let log = temp(&format!("log-{proto:?}.txt"));
        let _ = std::fs::remove_file(&log);
        let mut logged = test_engine("logged", &["--log", log.to_str().unwrap()]);
        logged.proto = proto;
        logged.options = vec![("Variant".into(), "didinga".into())];
        let other = test_engine("other", &[]);
        let limits = Limits {
            tc: Some(TimeControl::parse("10+0.1").unwrap()),
            ..Limits::default()
        };
        let (_, games) = play(&config(vec![logged, other], 2, limits));
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let hello = if proto == Proto::Ugi { "ugi" } else { "uci" };
        assert_eq!(lines[0], hello, "{text}");
        for want in [
            "setoption name Variant value didinga",
            "setoption name Columns value 8",
            "setoption name Opening value sequential",
            "setoption name DrawPlies value 1000",
            if proto == Proto::Ugi { "uginewgame" } else { "ucinewgame" },
            "isready",
            "position fen didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0",
            fields,
        ] {
            assert!(lines.contains(&want), "{want:?} missing from\n{text}");
        }
        // Later moves carry the moves so far, and A's clock moves by the
        // increment less the time used (game 1, where this engine is A).
        let moves = &games[0].record.moves;
        let second_position = format!(
            "position fen didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0 moves {} {}",
            moves[0].mv, moves[1].mv
        );
        assert!(lines.contains(&second_position.as_str()), "{text}");
        let game1 = text.split("newgame").nth(1).unwrap();
        let a_times: Vec<u64> = game1
            .lines()
            .filter(|l| l.starts_with("go "))
            .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
            .collect();
        assert_eq!(
            a_times.len(),
            moves.iter().filter(|m| m.side == Side::A).count()
        );
        assert!(
            a_times
                .windows(2)
                .all(|w| w[1] <= w[0] + 100 && w[1] + 1000 > w[0]),
            "{a_times:?}"
        );
    }
}

/// The faulty engine is the first: it plays A in game 1 and B in game 2,
/// fails at its first `go` in each, and is restarted in between.
fn failing(fault: &[&str], limits: Limits) -> (MatchSummary, Vec<Played>) {
    failing_with(fault, limits, Duration::from_millis(300))
}

fn failing_with(fault: &[&str], limits: Limits, grace: Duration) -> (MatchSummary, Vec<Played>) {
    let mut cfg = config(
        vec![test_engine("faulty", fault), test_engine("good", &[])],
        2,
        limits,
    );
    cfg.settings.stop_grace = grace;
    let (s, games) = play(&cfg);
    assert_eq!(s.tally.played, 2, "the match goes on after a failure");
    assert_eq!(s.tally.per_pairing[0].wdl.losses, 2);
    assert!(s.tally.failures[1].is_empty());
    for g in &games {
        let faulty_side = if g.job.engines[0] == 0 { "A" } else { "B" };
        assert_eq!(g.failed, Some(0));
        let detail = g.record.tag("Detail").unwrap();
        assert!(
            detail.starts_with(&format!("{faulty_side} (faulty): ")),
            "{detail}"
        );
        let loser_lost = match faulty_side {
            "A" => GameResult::BWins,
            _ => GameResult::AWins,
        };
        assert_eq!(g.result, loser_lost);
    }
    (s, games)
}

fn only_reason(s: &MatchSummary, games: &[Played], reason: Reason) {
    assert_eq!(
        s.tally.failures[0].get(&reason),
        Some(&2),
        "{:?}",
        s.tally.failures
    );
    assert!(games.iter().all(|g| g.reason == reason));
}

#[test]
fn an_engine_that_exits_loses_and_is_restarted() {
    let (s, games) = failing(&["--fault", "crash"], depth(1));
    only_reason(&s, &games, Reason::Crash);
    let d = games[0].record.tag("Detail").unwrap();
    assert!(d.contains("exited with status 3"), "{d}");
}

#[test]
fn an_engine_that_hangs_loses_and_is_killed() {
    // Untimed: the move timeout, then stop goes unanswered.
    let (s, games) = failing(&["--fault", "hang"], depth(1));
    only_reason(&s, &games, Reason::Hang);
    let d = games[0].record.tag("Detail").unwrap();
    assert!(
        d.contains("no bestmove within 400 ms; no answer to stop either"),
        "{d}"
    );
    // Timed: a hang is still a hang when stop is not answered either.
    let (s, games) = failing(&["--fault", "hang"], movetime(50));
    only_reason(&s, &games, Reason::Hang);
}

#[test]
fn an_engine_that_overruns_its_time_forfeits() {
    // Deadline 50 + 200 ms; it answers after 600 ms, once stop has come,
    // within the grace of 1.5 s.
    let grace = Duration::from_millis(1500);
    let slow = ["--fault", "slow", "--sleep", "600"];
    let (s, games) = failing_with(&slow, movetime(50), grace);
    only_reason(&s, &games, Reason::TimeForfeit);
    let d = games[0].record.tag("Detail").unwrap();
    assert!(
        d.contains("no bestmove within 250 ms; answered stop"),
        "{d}"
    );
    // The same engine at fixed depth overruns the move timeout: a hang.
    let (s, games) = failing_with(&slow, depth(1), grace);
    only_reason(&s, &games, Reason::Hang);
    let d = games[0].record.tag("Detail").unwrap();
    assert!(d.contains("answered stop"), "{d}");
}

#[test]
fn time_forfeit_on_the_clock() {
    // 0.2 s + 0 with a 200 ms margin: the slow engine's first move needs
    // 0.6 s; it answers stop within the grace.
    let limits = Limits {
        tc: Some(TimeControl::parse("0.2").unwrap()),
        ..Limits::default()
    };
    let slow = ["--fault", "slow", "--sleep", "600"];
    let (s, games) = failing_with(&slow, limits, Duration::from_millis(1500));
    only_reason(&s, &games, Reason::TimeForfeit);
}

#[test]
fn illegal_and_malformed_moves_lose() {
    let (s, games) = failing(&["--fault", "illegal"], depth(1));
    only_reason(&s, &games, Reason::IllegalMove);
    assert!(games.iter().all(|g| g.record.tag("BadMove").is_some()));

    let (s, games) = failing(&["--fault", "null"], depth(1));
    only_reason(&s, &games, Reason::IllegalMove);
    assert_eq!(games[0].record.tag("BadMove"), Some("0000"));

    let (s, games) = failing(&["--fault", "malformed"], depth(1));
    only_reason(&s, &games, Reason::MalformedMove);
    assert_eq!(games[0].record.tag("BadMove"), Some("@!"));

    let (s, games) = failing(&["--fault", "empty"], depth(1));
    only_reason(&s, &games, Reason::MalformedMove);
}

#[test]
fn a_failure_mid_game_keeps_the_moves_before_it() {
    // Fails at its third go of each process: the game has moves by then.
    let (_, games) = failing(&["--fault", "illegal", "--at", "3"], depth(1));
    for g in &games {
        assert!(g.record.moves.len() >= 4, "{}", g.record.to_text());
    }
}

#[test]
fn engines_that_cannot_play_stop_the_match_before_it_starts() {
    let cfg = config(
        vec![
            test_engine("dead", &["--fault", "exit-at-start"]),
            test_engine("good", &[]),
        ],
        2,
        depth(1),
    );
    let e = run(&cfg, &mut |_, _| Ok(())).unwrap_err();
    assert!(e.starts_with("engine 'dead'"), "{e}");

    let mut typo = choro("typo", "random");
    typo.options = vec![("Algoritm".into(), "random".into())];
    let cfg = config(vec![typo, choro("ok", "random")], 2, depth(1));
    let e = run(&cfg, &mut |_, _| Ok(())).unwrap_err();
    assert!(e.contains("does not list the option 'Algoritm'"), "{e}");

    let mut bad_value = choro("bad", "random");
    bad_value.options = vec![("Algorithm".into(), "alphabta".into())];
    let cfg = config(vec![bad_value, choro("ok", "random")], 2, depth(1));
    let e = run(&cfg, &mut |_, _| Ok(())).unwrap_err();
    assert!(
        e.starts_with("engine 'bad' refused its settings: info string error"),
        "{e}"
    );

    // A UCI-only engine asked for UGI never completes its handshake.
    let mut cfg = config(
        vec![
            test_engine("uci-only", &["--only", "uci"]),
            test_engine("good", &[]),
        ],
        2,
        depth(1),
    );
    cfg.settings.start_timeout = Duration::from_millis(300);
    let e = run(&cfg, &mut |_, _| Ok(())).unwrap_err();
    assert!(e.contains("no ugiok within 300 ms"), "{e}");
    cfg.engines[0].proto = Proto::Uci;
    let (s, _) = play(&cfg);
    assert_eq!(s.tally.played, 2);

    let cfg = config(
        vec![choro("x", "random"), choro("y", "random")],
        3,
        depth(1),
    );
    assert!(run(&cfg, &mut |_, _| Ok(())).unwrap_err().contains("even"));
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    // Independent of search strength: y forfeits at its third move, so x
    // wins nearly every game. The games are deterministic (first legal
    // moves, seeded openings).
    let mut cfg = config(
        vec![
            test_engine("x", &[]),
            test_engine("y", &["--fault", "illegal", "--at", "3"]),
        ],
        200,
        depth(1),
    );
    cfg.openings = OpeningPlan::Random {
        plies: 4,
        seed: 5,
        race: false,
    };
    cfg.sprt = Some(choro_match::stats::Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
    let (s, _) = play(&cfg);
    let sp = s.tally.sprt.unwrap();
    assert_eq!(sp.decision, Some(SprtDecision::H1), "{sp:?}");
    assert!(sp.llr >= sp.sprt.bounds().1);
    assert!(s.tally.played < 200, "{}", s.tally.played);
    let filled = s.tally.per_pairing[0]
        .penta
        .0
        .iter()
        .filter(|&&n| n > 0)
        .count();
    assert!(filled >= 2);
    assert_eq!(s.stopped_early.as_deref(), Some("SPRT: H1 accepted"));

    // x against itself: every pair is the same game with colours swapped,
    // so every pair scores one point; the LLR falls to the H0 bound.
    let mut cfg = config(
        vec![test_engine("x", &[]), test_engine("x2", &[])],
        200,
        depth(1),
    );
    cfg.openings = OpeningPlan::Random {
        plies: 4,
        seed: 5,
        race: false,
    };
    cfg.sprt = Some(choro_match::stats::Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
    let (s, _) = play(&cfg);
    let sp = s.tally.sprt.unwrap();
    assert!(s.tally.played < 200, "{}", s.tally.played);
    assert_eq!(
        sp.decision,
        Some(SprtDecision::H0),
        "{sp:?} {:?}",
        s.tally.per_pairing[0].penta
    );
}

#[test]
fn openings_come_from_a_file_in_order() {
    let path = temp("openings.txt");
    let p1 = "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0";
    let p2 = "didinga:8 2,2,2,2,2,2,2,3/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,1 b o1 1";
    std::fs::write(
        &path,
        format!("# two openings\n{p1}\n\n  # B to open\n{p2}\n"),
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let p = path.to_str().unwrap();
    let plan = choro_match::openings::load_file(
        p,
        &text,
        Variant::Didinga,
        8,
        Opening::Sequential,
        0,
        1000,
    )
    .unwrap();
    let mut cfg = config(
        vec![test_engine("x", &[]), test_engine("y", &[])],
        6,
        depth(1),
    );
    cfg.openings = plan;
    let (_, mut games) = play(&cfg);
    games.sort_by_key(|g| g.job.number);
    let starts: Vec<&str> = games
        .iter()
        .map(|g| g.record.tag("Start").unwrap())
        .collect();
    assert_eq!(starts, [p1, p1, p2, p2, p1, p1]);
    assert_eq!(games[2].record.tag("Book"), Some(format!("{p}:5").as_str()));
    // B moves first from the second opening: the side comes from the position.
    assert_eq!(games[2].record.moves[0].side, Side::B);

    let e =
        choro_match::openings::load_file(p, &text, Variant::Lango, 8, Opening::Sequential, 0, 1000)
            .unwrap_err();
    assert!(
        e.0.contains(":2: a didinga:8 position in a lango:8 match"),
        "{e}"
    );
    let e = choro_match::openings::load_file(
        p,
        "didinga:8 1,2",
        Variant::Didinga,
        8,
        Opening::Sequential,
        0,
        1000,
    )
    .unwrap_err();
    assert!(e.0.starts_with(&format!("{p}:1:")), "{e}");
    // A remark after a position string is trailing text, as `position fen`
    // without its `#` comment would see it: the line is named.
    let e = choro_match::openings::load_file(
        p,
        &format!("{p1}\n{p2} B to open\n"),
        Variant::Didinga,
        8,
        Opening::Sequential,
        0,
        1000,
    )
    .unwrap_err();
    assert_eq!(
        e.0,
        format!("{p}:2: trailing text 'B to open' after a complete position string of 5 fields")
    );
}

#[test]
fn the_command_line_plays_writes_and_replays() {
    let records = temp("cli-records.txt");
    let json = temp("cli-summary.json");
    let ab = format!("cmd={CHORO}");
    let out = Command::new(CHORO)
        .args([
            "match",
            "--engine",
            "name=ab",
            &ab,
            "option.Algorithm=alphabeta",
        ])
        .args([
            "--engine",
            "name=rnd",
            &ab,
            "option.Algorithm=random",
            "proto=uci",
        ])
        .args(["--games", "4", "--depth", "2", "--seed", "5", "--quiet"])
        .arg("--records")
        .arg(&records)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("match: 4 of 4 games, didinga:8 simultaneous, depth=2"),
        "{stdout}"
    );
    assert!(stdout.contains("engine failures: none"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["games_played"], 4);
    let p = &v["pairings"][0];
    assert_eq!(p["first"], "ab");
    let wdl = ["wins", "draws", "losses"].map(|k| p[k].as_u64().unwrap());
    assert_eq!(wdl.iter().sum::<u64>(), 4);
    assert_eq!(p["pentanomial"].as_array().unwrap().len(), 5);
    assert_eq!(v["engines"][1]["proto"], "uci");

    replay_verifies(&records, 4);

    for (args, msg) in [
        (
            vec!["--random-plies", "4"],
            "would fix the blind choices; add --random-blind",
        ),
        (
            vec!["--opening", "sequential", "--random-blind"],
            "--random-blind: didinga with the sequential opening has no blind choices",
        ),
        (
            vec!["--opening", "bogus"],
            "invalid value 'bogus' for '--opening",
        ),
        (vec!["--variant", "lango", "--columns", "9"], "--columns 9"),
        (
            vec!["--sprt", "elo0=5", "elo1=0"],
            "elo0 (5) must be below elo1 (0)",
        ),
        (vec!["--tc", "fast"], "--tc"),
    ] {
        let out = Command::new(CHORO)
            .args([
                "match", "--engine", "name=a", &ab, "--engine", "name=b", &ab,
            ])
            .args(["--depth", "1"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(msg), "{args:?}: {stderr}");
    }
}

/// The simultaneous opening (RULINGS 8) from its start: the runner asks the
/// engine of the side to move, which need not alternate, and sends every
/// engine the whole game. choro-testengine plays the first legal move, so
/// game 1 is known: A's blind start, B's, and B, the first to finish the
/// race, opens the main phase: B has two turns in a row.
#[test]
fn simultaneous_games_ask_the_side_to_move() {
    let log = temp("log-simultaneous.txt");
    let _ = std::fs::remove_file(&log);
    let logged = test_engine("logged", &["--log", log.to_str().unwrap()]);
    let mut cfg = config(vec![test_engine("first", &[]), logged], 2, depth(1));
    cfg.settings.opening = Opening::Simultaneous;
    let (_, mut games) = play(&cfg);
    games.sort_by_key(|g| g.job.number);
    let start = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
    // The same game by the rules: first legal moves until the main phase.
    let mut expected = Vec::new();
    let mut p = start;
    while p.phase() != Phase::Main {
        let (m, next) = p.legal_moves()[0];
        expected.push((p.side_to_move(), p.restyle(m).to_string()));
        p = next;
    }
    expected.push((p.side_to_move(), String::new()));
    let r = &games[0].record;
    assert_eq!(r.tag("Opening"), Some("simultaneous"));
    assert_eq!(r.tag("Start"), Some(start.to_string().as_str()));
    assert!(start.to_string().ends_with(" a s2 0"));
    for (i, (side, mv)) in expected.iter().enumerate() {
        assert_eq!(r.moves[i].side, *side, "ply {i}\n{}", r.to_text());
        if !mv.is_empty() {
            assert_eq!(&r.moves[i].mv, mv, "ply {i}");
        }
    }
    // This start's first legal moves give B two turns in a row (if the
    // generator's order changes, pick another code or start for this test).
    assert_eq!(
        [r.moves[1].side, r.moves[2].side],
        [Side::B, Side::B],
        "{}",
        r.to_text()
    );
    // B's engine (the logged one in game 1) got A's blind start as the
    // first move of the game, then the whole game again for its next turn.
    let text = std::fs::read_to_string(&log).unwrap();
    let game1 = text.split("newgame").nth(1).unwrap();
    let positions: Vec<&str> = game1
        .lines()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert_eq!(
        positions[..2],
        [
            format!("position fen {start} moves {}", r.moves[0].mv),
            format!(
                "position fen {start} moves {} {}",
                r.moves[0].mv, r.moves[1].mv
            )
        ]
    );
    assert!(text.contains("setoption name Opening value simultaneous"));
}

/// Real choro processes play the simultaneous opening of every Choro code
/// through to a result, and the records re-play.
#[test]
fn simultaneous_games_of_every_code_with_real_choro_processes() {
    for variant in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let mut cfg = config(
            vec![choro("ab", "alphabeta"), choro("g", "greedy")],
            2,
            depth(1),
        );
        cfg.settings.variant = variant;
        cfg.settings.opening = Opening::Simultaneous;
        let (s, games) = play(&cfg);
        assert_eq!(s.tally.played, 2, "{variant}");
        assert!(s.tally.failures.iter().all(|f| f.is_empty()), "{variant}");
        for g in &games {
            assert!(g.record.tag("Start").unwrap().ends_with(" a s2 0"));
            assert_eq!(g.record.tag("Opening"), Some("simultaneous"));
            assert!(g.record.moves.len() >= 2, "{}", g.record.to_text());
        }
    }
}

/// A race that never ends is a draw by the rules, reason `endless-race`.
/// The start (found by a random search) leads there by the first legal
/// moves, which choro-testengine plays.
#[test]
fn an_endless_race_is_a_drawn_game() {
    let fen = "didinga:8 0,2,3,5,1,1,1,2/1,3,5,0,1,5,3,1/3,3,3,0,0,0,1,5/5,0,3,2,0,5,0,0 a s2 0";
    let start: Position = fen.parse().unwrap();
    let a = start.legal_moves()[0].1;
    let b = a.legal_moves()[0].1;
    assert_eq!(
        b.phase(),
        Phase::RaceOver,
        "the first legal moves no longer draw the race; find another start"
    );
    let path = temp("openings-endless.txt");
    std::fs::write(&path, format!("{fen}\n")).unwrap();
    let p = path.to_str().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let plan = choro_match::openings::load_file(
        p,
        &text,
        Variant::Didinga,
        8,
        Opening::Simultaneous,
        0,
        1000,
    )
    .unwrap();
    let mut cfg = config(
        vec![test_engine("x", &[]), test_engine("y", &[])],
        2,
        depth(1),
    );
    cfg.settings.opening = Opening::Simultaneous;
    cfg.openings = plan;
    let (s, games) = play(&cfg);
    assert_eq!(s.tally.per_pairing[0].wdl.games(), 2);
    for g in &games {
        assert_eq!(
            (g.result, g.reason),
            (GameResult::Draw, Reason::EndlessRace)
        );
        assert_eq!(g.record.moves.len(), 2);
        assert_eq!(g.record.tag("Reason"), Some("endless-race"));
    }
    // A sequential opening's position does not belong in a simultaneous
    // match, nor the other way round.
    let o2 = "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0";
    let e = choro_match::openings::load_file(
        p,
        o2,
        Variant::Didinga,
        8,
        Opening::Simultaneous,
        0,
        1000,
    )
    .unwrap_err();
    assert!(
        e.0.contains("phase o2 in a match with the simultaneous opening"),
        "{e}"
    );
    let e =
        choro_match::openings::load_file(p, fen, Variant::Didinga, 8, Opening::Sequential, 0, 1000)
            .unwrap_err();
    assert!(
        e.0.contains("phase s2 in a match with the sequential opening"),
        "{e}"
    );
}

/// Random openings leave the blind choices to the engines unless asked:
/// without `race`, no random ply from s2; with it, random blind starts and
/// race decisions to the end of the race, then the counted plies.
#[test]
fn random_openings_fix_the_blind_choices_only_when_asked() {
    use choro_match::openings::random_opening;
    let start = Position::start(Variant::Acholi, 8, Opening::Simultaneous).unwrap();
    let e = random_opening(start, 2, false, 1, 0, 1000).unwrap_err();
    assert!(e.0.contains("would fix the blind choices"), "{e}");
    let o = random_opening(start, 0, false, 1, 0, 1000).unwrap();
    assert_eq!(
        (o.pos, o.source.as_str()),
        (start, "random 0 plies seed 1 #1")
    );
    for k in 0..20 {
        let o = random_opening(start, 2, true, 1, k, 1000).unwrap();
        assert_eq!(o.pos.phase(), Phase::Main, "{}", o.source);
        assert!(
            o.source
                .starts_with(&format!("random race and 2 plies seed 1 #{}: ", k + 1)),
            "{}",
            o.source
        );
        // The moves re-play to the opening, the last two in the main phase.
        let moves: Vec<&str> = o.source.split(": ").nth(1).unwrap().split(' ').collect();
        let mut g = Game::new(start);
        for m in &moves {
            g.play_str(m).unwrap();
        }
        assert_eq!(*g.position(), o.pos);
        let mut g = Game::new(start);
        for m in &moves[..moves.len() - 2] {
            g.play_str(m).unwrap();
        }
        assert_eq!(g.position().phase(), Phase::Main);
        assert_eq!(o, random_opening(start, 2, true, 1, k, 1000).unwrap());
    }
    // The runner plays games from them: both games of a pair share one.
    let mut cfg = config(
        vec![test_engine("x", &[]), test_engine("y", &[])],
        4,
        depth(1),
    );
    cfg.settings.variant = Variant::Acholi;
    cfg.settings.opening = Opening::Simultaneous;
    cfg.openings = OpeningPlan::Random {
        plies: 2,
        seed: 3,
        race: true,
    };
    let (_, mut games) = play(&cfg);
    games.sort_by_key(|g| g.job.number);
    for pair in games.chunks(2) {
        assert_eq!(pair[0].record.tag("Start"), pair[1].record.tag("Start"));
        assert!(pair[0].record.tag("Start").unwrap().contains(" m "));
        assert!(pair[0]
            .record
            .tag("Book")
            .unwrap()
            .starts_with("random race and 2 plies seed 3"));
    }
}

/// `choro match --openings FILE --race-holds N` (RULES.md 8.10): a file
/// whose positions carry holds (a start `s2,holds=2`, B's blind start
/// `s1:...,holds=2`, B's tick choice after A's hold) is played by real
/// choro processes told `RaceHolds`; every game starts where the file
/// says, its record has the tag and re-plays. A file whose holds disagree
/// with `--race-holds` is refused when it is read, naming the line, before
/// any game (the engines would refuse every position and lose each game
/// by an illegal move).
#[test]
fn openings_with_holds_are_played_with_race_holds() {
    let s2 = Position::start(Variant::Didinga, 8, Opening::Simultaneous)
        .unwrap()
        .with_race_holds(2)
        .unwrap();
    let mut g = Game::new(s2);
    g.play_str("l").unwrap();
    let s1 = *g.position();
    for m in ["a", "_"] {
        g.play_str(m).unwrap();
    }
    let tick = *g.position();
    assert!(tick.to_string().contains(",held=1 "), "{tick}");
    // A main-phase position suits a match with holds too.
    let main = "didinga:8 6,1,3,1,0,1,1,0/6,5,5,2,0,1,1,3/0,2,1,3,1,3,0,4/0,0,1,5,0,0,4,4 a m 4";
    let path = temp("openings-holds.txt");
    std::fs::write(
        &path,
        format!("{s2}\n{s1}\n# B's tick choice\n{tick}\n{main}\n"),
    )
    .unwrap();
    let records = temp("openings-holds-records.txt");
    let ab = format!("cmd={CHORO}");
    let run = |holds: &str| {
        Command::new(CHORO)
            .args([
                "match",
                "--engine",
                "name=ab",
                &ab,
                "option.Algorithm=alphabeta",
            ])
            .args(["--engine", "name=g", &ab, "option.Algorithm=greedy"])
            .args(["--games", "8", "--depth", "1", "--quiet"])
            .args(["--race-holds", holds, "--openings"])
            .arg(&path)
            .arg("--records")
            .arg(&records)
            .output()
            .unwrap()
    };
    let out = run("2");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("engine failures: none"), "{stdout}");
    assert!(!stdout.contains("illegal-move"), "{stdout}");
    let text = std::fs::read_to_string(&records).unwrap();
    let recs = choro_match::record::parse_records(&text).unwrap();
    assert_eq!(recs.len(), 8);
    let mut starts: Vec<String> = Vec::new();
    for r in &recs {
        assert_eq!(r.tag("RaceHolds"), Some("2"), "{}", r.to_text());
        let v = verify(r).unwrap_or_else(|e| panic!("{e}\n{}", r.to_text()));
        assert!(v.result.is_some(), "{}", r.to_text());
        starts.push(r.tag("Start").unwrap().to_string());
    }
    for p in [
        s2.to_string(),
        s1.to_string(),
        tick.to_string(),
        main.to_string(),
    ] {
        assert_eq!(
            starts.iter().filter(|s| **s == p).count(),
            2,
            "{p}: {starts:?}"
        );
    }
    // The games from the tick: B chooses first, A's hold already made.
    let from_tick: Vec<_> = recs
        .iter()
        .filter(|r| r.tag("Start") == Some(tick.to_string().as_str()))
        .collect();
    for r in from_tick {
        assert_eq!(r.moves[0].side, Side::B);
        assert!(
            matches!(r.moves[0].mv.as_str(), "." | "_"),
            "{}",
            r.to_text()
        );
    }
    replay_verifies(&records, 8);
    // Holds that disagree: refused when read, the line named.
    let p = path.to_str().unwrap();
    for (holds, want) in [
        (
            "0",
            format!("{p}:1: the position gives each racer 2 holds but the match has 0"),
        ),
        (
            "3",
            format!("{p}:1: the position gives each racer 2 holds but the match has 3"),
        ),
    ] {
        let out = run(holds);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains(&want), "{stderr}");
        assert!(stderr.contains("(--race-holds; RULES.md 8.10)"), "{stderr}");
    }
    // In a race no racer may have more than the match gives.
    let text = format!("{tick}\n");
    let e = choro_match::openings::load_file(
        p,
        &text,
        Variant::Didinga,
        8,
        Opening::Simultaneous,
        1,
        1000,
    )
    .unwrap_err();
    assert!(
        e.0.contains(":1: the position gives a racer 2 holds but the match has 1"),
        "{e}"
    );
    assert!(choro_match::openings::load_file(
        p,
        &text,
        Variant::Didinga,
        8,
        Opening::Simultaneous,
        3,
        1000
    )
    .is_ok());
}

/// `choro replay` of a records file verifies all of its `games` games.
fn replay_verifies(records: &std::path::Path, games: usize) {
    let out = Command::new(CHORO)
        .arg("replay")
        .arg(records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let want = format!("games {games} verified {games} mismatches 0");
    assert!(stdout.contains(&want), "{stdout}");
}
