//! `choro replay` on the command line: its report and its exit status.

#[path = "../../matcher/tests/games/mod.rs"]
mod games;

use choro_match::record::Reason;
use games::{as_failure, didinga};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_choro");

#[test]
fn the_replay_command_reports_and_sets_its_exit_status() {
    let dir = std::env::temp_dir().join(format!("choro-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    let r = didinga();
    let failure = as_failure(didinga(), 1, Reason::Hang);
    std::fs::write(&good, r.to_text() + &failure.to_text()).unwrap();
    let out = Command::new(BIN).arg("replay").arg(&good).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "games 2 verified 2 mismatches 0 plies {}",
            r.moves.len() + failure.moves.len()
        )),
        "{stdout}"
    );
    assert!(stdout.contains("hang 1"), "{stdout}");

    let bad = dir.join("bad.txt");
    let mut t = r.clone();
    t.moves[0].mv = "~a".into();
    std::fs::write(&bad, r.to_text() + &t.to_text()).unwrap();
    let out = Command::new(BIN).arg("replay").arg(&bad).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("mismatch: game 1 (line"), "{stdout}");
    assert!(
        stdout.contains("games 2 verified 1 mismatches 1"),
        "{stdout}"
    );

    let out = Command::new(BIN)
        .arg("replay")
        .arg(dir.join("missing.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
