//! `choro solve` through the real binary: a value with its line, the JSON,
//! the retrograde check, a blind game, and bad input refused with status 2
//! and nothing written.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

fn solve(args: &[&str]) -> (i32, String, String) {
    common::tool("solve", args)
}

const LOSS4: &str = "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
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

#[test]
fn the_lango_sequential_start_and_a_bounded_blind_game() {
    let (rc, out, _) = solve(&["--variant", "lango", "--opening", "sequential"]);
    assert_eq!(rc, 0);
    assert!(out.contains("\nvalue win 1 for A\npv a+\n"), "{out}");
    let (rc, out, _) = solve(&["--variant", "lango", "--plies", "6", "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "blind");
    assert_eq!(v["exact"], false);
    assert_eq!(v["cells"].as_array().unwrap().len(), 4);
    assert_eq!(
        (v["value_lo"].as_f64(), v["value_hi"].as_f64()),
        (Some(-1.0), Some(1.0))
    );
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
        vec!["--variant", "lango", "--columns", "9", "--save", save],
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
