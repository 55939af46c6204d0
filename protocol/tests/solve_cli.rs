//! `choro solve` through the real binary: a value with its line, the JSON,
//! the retrograde check, a blind game, and bad input refused with status 2
//! and nothing written.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

fn solve(args: &[&str]) -> (i32, String, String) {
    common::tool("solve", args)
}

const LOSS4: &str = "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
/// Neither side can force an end: the counters go round for ever (the
/// retrograde analysis: 13 positions, a draw).
const DRAW: &str = "adjiboto 1,2,1,0,1/0,2,0,1,2 b 12345/12345 49/41 40";
const OVER: &str = "lango:8 0,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0/1,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0 a m";

#[test]
fn a_value_its_line_and_the_retrograde_check() {
    let (rc, out, err) = solve(&["--pos", LOSS4, "--retro", "1000"]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"value loss 4 for A"), "{out}");
    assert!(lines.contains(&"pv e xf xf k"), "{out}");
    assert!(
        lines.contains(&"retro root value loss 4 positions 5 moves 4 agrees"),
        "{out}"
    );
    let (rc, out, _) = solve(&["--pos", LOSS4, "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "solution");
    assert_eq!(v["value"], "loss");
    assert_eq!(v["plies"], 4);
    assert_eq!(v["pv"], serde_json::json!(["e", "xf", "xf", "k"]));
}

/// `--algorithm pns` gives the same value, line and retrograde check as
/// `ab`; `--check` confirms the win (the plain checker: within 4, not
/// within 3); a draw by cycles, which alpha-beta cannot prove, proven by
/// both proof-number searches and confirmed by the retrograde analysis.
#[test]
fn the_proof_number_solver_and_the_plain_check() {
    let (rc, out, err) = solve(&[
        "--pos",
        LOSS4,
        "--algorithm",
        "pns",
        "--retro",
        "1000",
        "--check",
        "100000",
    ]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"value loss 4 for A"), "{out}");
    assert!(lines.contains(&"pv e xf xf k"), "{out}");
    assert!(
        lines.contains(&"check root B wins within 4: confirmed"),
        "{out}"
    );
    assert!(
        lines.contains(&"check root B does not win within 3: confirmed"),
        "{out}"
    );
    assert!(lines.iter().any(|l| l.ends_with("agrees")), "{out}");
    assert!(out.contains("algorithm pns"), "{out}");
    let (rc, out, err) = solve(&["--pos", DRAW, "--algorithm", "pns", "--retro", "100000"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("\nvalue draw for "), "{out}");
    assert!(out.contains("retro root value draw"), "{out}");
    let (rc, out, _) = solve(&["--pos", DRAW, "--algorithm", "ab", "--plies", "30"]);
    assert_eq!(rc, 0);
    assert!(out.contains("value unknown"), "{out}");
}

/// `--attacker`: the winner's search alone proves his win, with its line;
/// the loser's alone proves only that he does not win, and the value is
/// left open with that bound.
#[test]
fn one_attacker() {
    let (rc, out, err) = solve(&["--pos", LOSS4, "--attacker", "b"]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"value loss 4 for A"), "{out}");
    assert!(lines.contains(&"pv e xf xf k"), "{out}");
    assert!(out.contains("algorithm pns attacker b"), "{out}");
    let (rc, out, err) = solve(&["--pos", LOSS4, "--attacker", "a", "--json"]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["value"], "unknown", "{out}");
    assert_eq!(v["nowin_within"], 4094, "{out}");
    assert_eq!(v["noloss_within"], 0, "{out}");
    assert_eq!(v["loss_within"], serde_json::Value::Null, "{out}");
}

/// Didinga 4x8 sequential proven in a table of 1 MiB, which overwrites
/// most of the proof: the check follows fresh proofs below the points
/// where it was lost, says so, and confirms the bound within a budget that
/// the lost order alone exhausts (engine/tests/solve.rs), its memory of
/// decided positions kept to 1 MiB.
#[test]
fn a_check_follows_fresh_proofs_where_the_proof_was_lost() {
    let (rc, out, err) = solve(&[
        "--variant",
        "didinga",
        "--opening",
        "sequential",
        "--attacker",
        "a",
        "--plies",
        "1",
        "--hash",
        "1",
        "--check",
        "1000000",
        "--check-hash",
        "1",
    ]);
    assert_eq!(rc, 0, "{err}");
    let within = out
        .lines()
        .find_map(|l| l.strip_prefix("value unknown nowin 1 noloss 1 winwithin "))
        .and_then(|l| l.strip_suffix(" for A"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        out.contains(&format!("\ncheck root A wins within {within}: confirmed\n")),
        "{out}"
    );
    let fresh = out
        .lines()
        .find(|l| l.starts_with("check root order from "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(fresh.ends_with(" of its nodes"), "{fresh}");
}

#[test]
fn the_lango_sequential_start_and_a_bounded_blind_game() {
    let (rc, out, _) = solve(&["--variant", "lango", "--opening", "sequential"]);
    assert_eq!(rc, 0);
    assert!(out.contains("\nvalue win 1 for A\npv a+\n"), "{out}");
    let (rc, out, _) = solve(&[
        "--variant",
        "lango",
        "--plies",
        "6",
        "--algorithm",
        "ab",
        "--json",
    ]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "blind");
    assert_eq!(v["exact"], false);
    assert_eq!(v["cells"].as_array().unwrap().len(), 4);
    assert_eq!(
        (v["value_lo"].as_f64(), v["value_hi"].as_f64()),
        (Some(-1.0), Some(1.0))
    );
    // df-pn is not bounded by --plies: every cell's sign is proven (A wins
    // them all, SOLVED.md), so the game is, while the distances stop at 6.
    let (rc, out, _) = solve(&["--variant", "lango", "--plies", "6", "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["exact"], true, "{out}");
    assert_eq!(v["value_lo"].as_f64(), Some(1.0));
    for c in v["cells"].as_array().unwrap() {
        assert_eq!(c["for_a"], serde_json::json!([1, 1]), "{c}");
        assert_eq!(c["value"], "unknown", "{c}");
    }
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("choro-solve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("facts.txt");
    let save = save.to_str().unwrap();
    for args in [
        vec!["--pos", OVER, "--save", save],
        vec!["--pos", "lango:8 junk", "--save", save],
        vec!["--pos", LOSS4, "--time", "0", "--save", save],
        vec!["--pos", LOSS4, "--threads", "0", "--save", save],
        vec!["--pos", LOSS4, "--algorithm", "mcts", "--save", save],
        vec!["--variant", "lango", "--columns", "9", "--save", save],
        vec!["--pos", LOSS4, "--tables", "4", "--save", save],
        vec![
            "--pos",
            DRAW,
            "--tables",
            "4",
            "--algorithm",
            "ab",
            "--save",
            save,
        ],
        vec!["--pos", DRAW, "--tables", "23", "--save", save],
        vec!["--pos", LOSS4, "--attacker", "c", "--save", save],
        vec![
            "--pos",
            LOSS4,
            "--check",
            "100",
            "--check-hash",
            "0",
            "--save",
            save,
        ],
        vec![
            "--pos",
            LOSS4,
            "--attacker",
            "a",
            "--algorithm",
            "ab",
            "--save",
            save,
        ],
    ] {
        let (rc, out, err) = solve(&args);
        assert_eq!(rc, 2, "{args:?}: {out}{err}");
        assert!(!err.is_empty(), "{args:?}: no message");
        assert!(
            !std::path::Path::new(save).exists(),
            "{args:?} wrote {save}"
        );
    }
    let (_, _, err) = solve(&["--pos", OVER]);
    assert!(err.contains("the game is over"), "{err}");
    // A save file that does not parse is refused whole, and kept as it was.
    std::fs::write(save, "not a fact\n").unwrap();
    let (rc, _, err) = solve(&["--pos", LOSS4, "--save", save]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains(":1:"), "{err}");
    assert_eq!(std::fs::read_to_string(save).unwrap(), "not a fact\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A small board where holds turn the game: without holds B wins the blind
/// game (A's both starts lose to B's k); with one hold each A wins it (his
/// n, holding in tick 3 against B's k), and B's b b is his by a hold in
/// tick 2. The value, the cells' lines, the JSON and the plain check of
/// every leaf.
const HOLDS: &str =
    "didinga:8 2,0,0,0,0,0,0,3/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,3,0,0,0,2 a s2,holds=1 0";

#[test]
fn a_blind_game_with_holds() {
    let lockstep = HOLDS.replace(",holds=1", "");
    let (rc, out, err) = solve(&["--pos", &lockstep]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("\nvalue -1.0000 for A (exact)\n"), "{out}");
    let (rc, out, err) = solve(&["--pos", HOLDS, "--check", "100000"]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let cell = |name: &str| cell_up_to(&out, name, " race ");
    assert_eq!(
        cell("cell b b "),
        "cell b b for A -1 first tick 1 A drops 1 B drops 1 line B holds 2"
    );
    assert_eq!(
        cell("cell n k "),
        "cell n k for A +1 first tick 1 A drops 1 B drops 1 line A holds 3"
    );
    assert!(
        lines.contains(&"value 1.0000 for A (exact: +1, both strategies certified in fractions)"),
        "{out}"
    );
    assert!(lines.contains(&"strategy A n:1"), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("check leaves 7 wins and losses: 7 confirmed, 0 not")),
        "{out}"
    );
    let (rc, out, _) = solve(&["--pos", HOLDS, "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "holds");
    assert_eq!(v["exact"], "+1");
    assert_eq!(v["a_strategy"], serde_json::json!(["0", "1"]));
    assert_eq!(v["cells"][0]["line"], "B holds 2");
    assert_eq!(v["cells"][0]["for_a"], serde_json::json!(["-1", "-1"]));
    // A race position with a hold left: the race alone.
    let race = "didinga:8 0,0,0,0,0,0,0,3/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,3,0,0,0,0 a r 1.0 \
                lap=ccw,hand=2,next=c,origin=b,front=0,laps=1,holds=1 \
                lap=ccw,hand=2,next=c,origin=b,front=0,laps=1,holds=1 2";
    let (rc, out, err) = solve(&["--pos", race]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("\nvalue -1 for A (exact)\n"), "{out}");
    assert!(out.contains("race for A -1 first tick 1"), "{out}");
}

/// A blind solve reports its matrix before it checks the cells; one resumed
/// from a save file checks first, printing each cell's check as it ends
/// (a long check shows how far it has come), and then the matrix.
#[test]
fn a_resumed_blind_solve_checks_each_cell_before_the_matrix() {
    let lockstep = HOLDS.replace(",holds=1", "");
    let dir = std::env::temp_dir().join(format!("choro-solve-blind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("facts.txt");
    let save = save.to_str().unwrap();
    let at = |out: &str, start: &str| {
        out.lines()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in {out}"))
    };
    let (rc, out, err) = solve(&["--pos", &lockstep, "--save", save, "--check", "1000"]);
    assert_eq!(rc, 0, "{err}");
    assert!(!out.contains("resumed"), "{out}");
    assert!(
        at(&out, "value -1.0000") < at(&out, "check cell b b"),
        "{out}"
    );
    let (rc, out, err) = solve(&["--pos", &lockstep, "--save", save]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains("\nresumed 4 positions from the save file\n"),
        "{out}"
    );
    let checks = ["b b", "b k", "n b", "n k"].map(|c| at(&out, &format!("check cell {c} nodes ")));
    assert!(checks.windows(2).all(|w| w[0] < w[1]), "{out}");
    assert!(
        out.contains("check cell n k B wins within 2: confirmed"),
        "{out}"
    );
    assert!(checks[3] < at(&out, "matrix "), "{out}");
    assert!(
        at(&out, "matrix ") < at(&out, "value -1.0000 for A (exact)"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With holds, `--job`, `--book` and `--retro` are refused before any work,
/// and so are limits that cannot be met and a finished race.
/// The line of `out` that starts with `name`, up to `end`.
fn cell_up_to(out: &str, name: &str, end: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("{name}: {out}"))
        .split(end)
        .next()
        .unwrap()
        .to_string()
}

/// With one attacker a race's leaves that he does not win stay open: B's
/// wins (cells b b and b k) are ranges, A's wins (row n) are proven, and
/// the value is a range whose bounds meet at A's +1.
#[test]
fn holds_with_one_attacker_leave_his_losses_open() {
    let (rc, out, err) = solve(&["--pos", HOLDS, "--attacker", "a"]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let cell = |name: &str| cell_up_to(&out, name, " first ");
    assert_eq!(cell("cell b b "), "cell b b for A -1..+1");
    assert_eq!(cell("cell b k "), "cell b k for A -1..+1");
    assert_eq!(cell("cell n b "), "cell n b for A +1");
    assert_eq!(cell("cell n k "), "cell n k for A +1");
    assert!(
        lines.contains(&"value between 1.0000 and 1.0000 for A (cells unsolved)"),
        "{out}"
    );
    assert!(out.contains("algorithm pns attacker a"), "{out}");
}

#[test]
fn holds_bad_input_exits_2() {
    for args in [
        vec!["--pos", HOLDS, "--job", "1/2"],
        vec!["--pos", HOLDS, "--book", "/nonexistent/x.book"],
        vec!["--pos", HOLDS, "--retro", "100"],
        vec!["--pos", HOLDS, "--time", "0"],
        vec!["--pos", HOLDS, "--nodes", "0"],
        vec!["--variant", "lango", "--race-holds", "9"],
    ] {
        let (rc, out, err) = solve(&args);
        assert_eq!(rc, 2, "{args:?}: {out}{err}");
        assert!(!err.is_empty(), "{args:?}: no message");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (_, _, err) = solve(&["--pos", HOLDS, "--retro", "100"]);
    assert!(err.contains("not available with holds"), "{err}");
}

/// `--tables`: the proof-number search reads Adjiboto's retrograde tables
/// and gives the value it gives without them.
#[test]
fn adjiboto_tables_give_the_same_value() {
    const WIN: &str = "adjiboto 1,1,1,1,0/0,2,0,0,8 a 53241/52134 37/49 0";
    let (rc, without, err) = solve(&["--pos", WIN, "--plies", "1"]);
    assert_eq!(rc, 0, "{err}");
    let (rc, with, err) = solve(&["--pos", WIN, "--plies", "1", "--tables", "6"]);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("at most 6 counters in play"), "{err}");
    let value = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("value"))
            .unwrap()
            .to_string()
    };
    assert_eq!(value(&with), value(&without));
    assert!(value(&with).contains("for A"), "{with}");
}
