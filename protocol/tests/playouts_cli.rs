//! `choro playouts` through the real binary: its JSON, a seed's games
//! reproduced at `--threads 1`, and usage errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

fn playouts(args: &[&str]) -> (i32, String, String) {
    common::tool("playouts", args)
}

fn json(args: &[&str]) -> serde_json::Value {
    let (rc, out, err) = playouts(args);
    assert_eq!(rc, 0, "{err}");
    serde_json::from_str(out.trim()).unwrap()
}

/// The fields that depend on the games only, not on the clock.
const GAME_FIELDS: [&str; 14] = [
    "games",
    "a_wins",
    "b_wins",
    "draws",
    "draws_repetition",
    "draws_ply_cap",
    "draws_store",
    "draws_endless_race",
    "plies",
    "mean_plies",
    "drops",
    "laps_played",
    "drops_played",
    "fingerprint",
];

/// 60 games of `variant` in `opening`, seeded `seed`, one thread, JSON.
fn seeded<'a>(variant: &'a str, opening: &'a str, seed: &'a str) -> [&'a str; 11] {
    [
        "--variant",
        variant,
        "--opening",
        opening,
        "--games",
        "60",
        "--seed",
        seed,
        "--threads",
        "1",
        "--json",
    ]
}

#[test]
fn json_is_complete_and_a_seed_reproduces_its_games() {
    for (variant, opening) in [("lango", "sequential"), ("didinga", "simultaneous")] {
        let args = seeded(variant, opening, "7");
        let a = json(&args);
        let b = json(&args);
        assert_eq!(a["type"], "playouts");
        assert_eq!(a["variant"], variant);
        assert_eq!(a["threads"].as_u64(), Some(1));
        assert_eq!(a["seed"].as_u64(), Some(7));
        assert_eq!(a["games"].as_u64(), Some(60));
        let results = ["a_wins", "b_wins", "draws"]
            .iter()
            .map(|k| a[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(results, 60);
        let plies = a["plies"].as_u64().unwrap();
        assert!(plies >= 60, "every game has a ply: {plies}");
        assert_eq!(a["mean_plies"].as_f64().unwrap(), plies as f64 / 60.0);
        for k in GAME_FIELDS {
            assert_eq!(a[k], b[k], "{variant} {opening}: {k}");
        }
        for k in ["time_ms", "games_per_s", "plies_per_s", "drops_per_s"] {
            assert!(a[k].is_number(), "{k}");
        }
        // Another seed plays other games.
        let c = json(&seeded(variant, opening, "8"));
        assert_ne!(a["fingerprint"], c["fingerprint"]);
    }
}

#[test]
fn pos_and_threads_and_seconds() {
    let pos = "adjiboto 15,2,14,14,1/15,4,14,3,15 a 24/14 3/0 4";
    let one = json(&["--pos", pos, "--games", "30", "--seed", "3", "--json"]);
    let two = json(&[
        "--pos",
        pos,
        "--games",
        "30",
        "--seed",
        "3",
        "--threads",
        "2",
        "--json",
    ]);
    for k in GAME_FIELDS {
        assert_eq!(one[k], two[k], "{k}");
    }
    let timed = json(&["--variant", "acholi", "--seconds", "0.2", "--json"]);
    assert!(timed["games"].as_u64().unwrap() >= 1);
    let (rc, text, _) = playouts(&["--variant", "lango", "--games", "5"]);
    assert_eq!(rc, 0);
    assert!(text.starts_with("games 5 A "), "{text}");
    assert!(text.contains("games/s"), "{text}");
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["--variant", "oware"][..],
        &["--games", "0"],
        &["--seconds", "-1"],
        &["--games", "3", "--seconds", "1"],
        &["--pos", "not a position"],
        &["--pos", "lango:8 x", "--variant", "lango"],
    ] {
        let (rc, out, err) = playouts(args);
        assert_eq!(rc, 2, "{args:?}: {out} {err}");
        assert!(!err.is_empty());
    }
}
