//! The files the command-line tools read and write (issue 28, items 3 to
//! 5; RELIABILITY.md findings 28 to 30): a failed run keeps what earlier
//! runs wrote, an unwritable output is found before the work, a save file
//! names what it was made for and carries checksums, a resumed value is
//! checked, and every reader has a bound.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use choro_engine::solve::store::{self, Code};
use choro_engine::solve::table::Facts;
use choro_engine::Position;
use std::path::{Path, PathBuf};
use std::process::Command;

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_choro-testengine");
const LOSS4: &str = "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
/// A win in 13 for A (positions/solved/lango.book).
const WIN13: &str =
    "lango:8 1,0,2,2,0,1,1,3/1,0,0,0,2,0,1,3/4,10,9,5,1,0,3,0/6,0,4,0,1,0,0,4 a m 0";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("choro-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `d`, sorted.
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `choro <args>` with its address space limited to 2 GiB: a reader
/// without bounds fails at the limit instead of taking the machine.
fn limited(args: &[&str]) -> (i32, String) {
    let out = Command::new("bash")
        .args(["-c", "ulimit -v 2000000 && exec \"$0\" \"$@\"", common::BIN])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Finding 24: `--records` of a match whose engine cannot start left an
/// existing file at 0 bytes. Now records are appended: the old games stay,
/// and a file the run created and wrote nothing to is removed.
#[test]
fn a_match_that_fails_keeps_the_records_and_the_summary() {
    let d = dir("match");
    let records = d.join("r.txt");
    let json = d.join("s.json");
    std::fs::write(&records, "earlier games\n").unwrap();
    std::fs::write(&json, "{\"earlier\": 1}\n").unwrap();
    let dead = format!("name=dead cmd={TEST_ENGINE} arg=--fault arg=exit-at-start");
    let good = format!("name=good cmd={TEST_ENGINE}");
    let mut args = vec!["--engine"];
    args.extend(dead.split(' '));
    args.push("--engine");
    args.extend(good.split(' '));
    args.extend(["--depth", "1", "--records", s(&records), "--json", s(&json)]);
    let (rc, _, err) = common::tool("match", &args);
    assert_eq!(rc, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(&records).unwrap(),
        "earlier games\n"
    );
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "{\"earlier\": 1}\n"
    );
    assert_eq!(names(&d), ["r.txt", "s.json"]);
    // Files that did not exist are not left behind empty.
    std::fs::remove_file(&records).unwrap();
    std::fs::remove_file(&json).unwrap();
    let (rc, _, err) = common::tool("match", &args);
    assert_eq!(rc, 2, "{err}");
    assert!(names(&d).is_empty(), "{:?}", names(&d));
    std::fs::remove_dir_all(&d).unwrap();
}

/// Finding 24: a played match appends its records to what the file held,
/// on a fresh line.
#[test]
fn records_are_appended_on_a_fresh_line() {
    let d = dir("append");
    let records = d.join("r.txt");
    std::fs::write(&records, "# earlier").unwrap();
    let one = format!("name=one cmd={TEST_ENGINE}");
    let two = format!("name=two cmd={TEST_ENGINE}");
    let mut args = vec!["--engine"];
    args.extend(one.split(' '));
    args.push("--engine");
    args.extend(two.split(' '));
    args.extend(["--depth", "1", "--quiet", "--records", s(&records)]);
    let (rc, _, err) = common::tool("match", &args);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&records).unwrap();
    assert!(text.starts_with("# earlier\n[Event "), "{text}");
    let (rc, out, err) = common::tool("replay", &[s(&records)]);
    assert_eq!(rc, 0, "{out}{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Finding 24: unwritable output paths were found only after the work.
/// Now every output is created (as a temporary file beside it) at start.
#[test]
fn unwritable_outputs_are_found_before_the_work() {
    let d = dir("unwritable");
    let nowhere = d.join("no/such/dir/out");
    let nowhere = s(&nowhere);
    let engines =
        format!("--engine name=one cmd={TEST_ENGINE} --engine name=two cmd={TEST_ENGINE}");
    let engines: Vec<&str> = engines.split(' ').collect();
    for (flag, extra) in [
        ("--json", vec![]),
        ("--records", vec![]),
        ("--out", vec!["--job", "1/2"]),
    ] {
        let mut args = engines.clone();
        args.extend(["--depth", "1", "--games", "4", flag, nowhere]);
        args.extend(extra);
        let (rc, out, err) = common::tool("match", &args);
        assert_eq!(rc, 2, "{flag}: {out}{err}");
        assert!(
            err.starts_with(&format!("choro match: {flag} {nowhere}")),
            "{err}"
        );
        assert!(out.is_empty(), "{flag}: played: {out}");
    }
    // A solve that would take long stops at once.
    for args in [
        vec!["--variant", "didinga", "--book", nowhere],
        vec!["--variant", "didinga", "--job", "1/4", "--out", nowhere],
    ] {
        let (rc, out, err) = common::tool("solve", &args);
        assert_eq!(rc, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains(nowhere) && err.contains("cannot write here"),
            "{err}"
        );
        assert!(out.is_empty(), "{out}");
    }
    let (rc, _, err) = common::tool("merge", &["--book", nowhere, "/nonexistent.jsonl"]);
    assert_eq!(rc, 2);
    assert!(
        err.starts_with(&format!("choro merge: --book {nowhere}")),
        "{err}"
    );
    assert!(names(&d).is_empty());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Finding 24: `choro solve --book` that proved nothing replaced a book
/// with its comment lines. Now the old book stays, and the run says so; a
/// run that proves a value replaces it.
#[test]
fn a_book_is_replaced_only_by_a_run_that_proved_something() {
    let d = dir("book");
    let book = d.join("b.book");
    let old = "# an earlier book\nlango:8 x\twin 1\t-\n";
    std::fs::write(&book, old).unwrap();
    let (rc, out, err) = common::tool(
        "solve",
        &["--pos", WIN13, "--plies", "1", "--book", s(&book)],
    );
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("value unknown"), "{out}");
    assert!(
        err.contains("nothing proven to put in it, left as it was"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), old);
    assert_eq!(names(&d), ["b.book"]);
    let (rc, out, err) = common::tool("solve", &["--pos", LOSS4, "--book", s(&book)]);
    assert_eq!(rc, 0, "{out}{err}");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains("\tloss 4\t"), "{text}");
    assert_eq!(names(&d), ["b.book"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A save file of `pos`'s code holding `facts` for `pos`, with right
/// checksums: what a stale file would hold.
fn forged(path: &Path, pos: &Position, facts: &str) {
    let f: Facts = store::parse_facts(facts).unwrap();
    let code = Code::of(pos);
    std::fs::write(
        path,
        format!("{}\n{}\n", code.header(), store::record(pos, &f)),
    )
    .unwrap();
}

/// Finding 25: a save file line claiming `loss<=5` of a win in 13 made
/// `choro solve` report `loss 5` with exit 0. A file of the old format is
/// refused; a file of this one whose fact is wrong (stale, made by a wrong
/// build) has the value it gives checked, and the check refutes it: no
/// value, exit 1.
#[test]
fn a_wrong_fact_of_a_save_file_is_not_reported_as_a_value() {
    let d = dir("stale");
    let save = d.join("facts.txt");
    let pos: Position = WIN13.parse().unwrap();
    std::fs::write(&save, format!("{}\tloss<=5\n", pos.with_ply(0))).unwrap();
    let (rc, out, err) = common::tool("solve", &["--pos", WIN13, "--save", s(&save)]);
    assert_eq!(rc, 2, "{out}{err}");
    assert!(!out.contains("value loss"), "{out}");
    assert!(err.contains(":1: not a save file of this choro"), "{err}");
    forged(&save, &pos, "loss<=5");
    let (rc, out, err) = common::tool("solve", &["--pos", WIN13, "--save", s(&save)]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(!out.contains("value "), "{out}");
    assert!(out.contains("WRONG"), "{out}");
    assert!(
        err.contains("the file holds a wrong fact; no value reported"),
        "{err}"
    );
    // A true fact: resumed, checked, reported.
    forged(&save, &pos, "win<=13");
    let (rc, out, err) = common::tool("solve", &["--pos", WIN13, "--save", s(&save)]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("value win 13 for A"), "{out}");
    assert!(
        out.contains("check root A wins within 13: confirmed"),
        "{out}"
    );
    assert!(
        out.contains("check root A does not win within 12: confirmed"),
        "{out}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Finding 25: a damaged record, a file of another code, and a file
/// without its last line feed (the next header was glued to its last
/// fact, and later runs refused the file).
#[test]
fn a_damaged_save_file_is_refused_and_appends_start_a_fresh_line() {
    let d = dir("damaged");
    let save = d.join("facts.txt");
    let pos: Position = LOSS4.parse().unwrap();
    forged(&save, &pos, "loss<=4 noloss>=3");
    let good = std::fs::read_to_string(&save).unwrap();
    std::fs::write(&save, good.replace("noloss>=3", "noloss>=2")).unwrap();
    let (rc, out, err) = common::tool("solve", &["--pos", LOSS4, "--save", s(&save)]);
    assert_eq!(rc, 2, "{out}{err}");
    assert!(err.contains("facts.txt:2: the checksum"), "{err}");
    std::fs::write(&save, &good).unwrap();
    let (rc, _, err) = common::tool("solve", &["--variant", "didinga", "--save", s(&save)]);
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.contains("a save file of lango:8, not of didinga:8"),
        "{err}"
    );
    // No final line feed: the next run starts its lines on a fresh one,
    // and the run after it reads the file.
    std::fs::write(&save, good.trim_end()).unwrap();
    let (rc, out, err) = common::tool("solve", &["--pos", LOSS4, "--save", s(&save)]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("value loss 4 for A"), "{out}");
    let (rc, out, err) = common::tool("solve", &["--pos", LOSS4, "--save", s(&save)]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("resumed 1 positions"), "{out}");
    // A torn last record (a run killed while writing it) is dropped.
    let text = std::fs::read_to_string(&save).unwrap();
    std::fs::write(&save, format!("{text}{LOSS4}\tlos")).unwrap();
    let (rc, out, err) = common::tool("solve", &["--pos", LOSS4, "--save", s(&save)]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(err.contains("the last line was cut short"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Finding 26: `choro merge`, `replay` and `match --openings` read
/// `/dev/zero` until the kernel killed them, and a 20 MB line cost 653 MB.
/// Every reader now stops at a bound on a line and on the file.
#[test]
fn readers_stop_at_their_bounds() {
    let d = dir("bounds");
    let long = d.join("long.txt");
    std::fs::write(&long, "x".repeat(20 << 20)).unwrap();
    let long = s(&long);
    let engines =
        format!("--engine name=one cmd={TEST_ENGINE} --engine name=two cmd={TEST_ENGINE}");
    for file in ["/dev/zero", long] {
        let (rc, err) = limited(&["merge", file]);
        assert_eq!(rc, 2, "{err}");
        assert!(
            err.starts_with(&format!("choro merge: {file}:1: a line longer than 4 MiB")),
            "{err}"
        );
        let (rc, err) = limited(&["replay", file]);
        assert_eq!(rc, 2, "{err}");
        assert!(
            err.starts_with(&format!("choro replay: {file}:1: a line longer than 1 MiB")),
            "{err}"
        );
        let mut args = vec!["match"];
        args.extend(engines.split(' '));
        args.extend(["--depth", "1", "--openings", file]);
        let (rc, err) = limited(&args);
        assert_eq!(rc, 2, "{err}");
        assert!(
            err.starts_with(&format!(
                "choro match: --openings {file}:1: a line longer than 64 KiB"
            )),
            "{err}"
        );
        let (rc, err) = limited(&["solve", "--pos", LOSS4, "--save", file]);
        assert_eq!(rc, 2, "{err}");
        assert!(
            err.contains(&format!("{file}:1: a line longer than 64 KiB")),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}
