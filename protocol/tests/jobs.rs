//! Runs split with `--job K/N` and put together by `choro merge`, through
//! the real binary: the parts' union is the unsplit run (a solve's matrix,
//! value and line; a match's report and JSON summary), a part run twice
//! writes the same file, a part that dies leaves none, and merge refuses
//! missing, duplicate, unfinished and mismatched parts. The bounded solves
//! name `--algorithm ab`, whose `--plies` bounds the whole solve (df-pn's
//! bounds only the distance: PROTOCOL.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

const CHORO: &str = env!("CARGO_BIN_EXE_choro");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("choro-jobs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn path(d: &Path, f: &str) -> String {
    d.join(f).to_str().unwrap().to_string()
}

/// Run every part of `args` split in `n`, each to `<d>/<tag>-K.jsonl`.
fn run_parts(sub: &str, args: &[&str], n: u64, d: &Path, tag: &str) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let out = path(d, &format!("{tag}-{k}.jsonl"));
            let job = format!("{k}/{n}");
            let mut a = args.to_vec();
            a.extend(["--job", &job, "--out", &out]);
            let (rc, o, e) = common::tool(sub, &a);
            assert_eq!(rc, 0, "part {job}: {o}{e}");
            out
        })
        .collect()
}

fn merge(files: &[String], extra: &[&str]) -> (i32, String, String) {
    let mut a: Vec<&str> = extra.to_vec();
    a.extend(files.iter().map(String::as_str));
    common::tool("merge", &a)
}

/// The lines of a solve's report that say what was proven (not how long
/// or how many nodes it took).
fn proven(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            ["value ", "pv ", "matrix ", "strategy "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(str::to_string)
        .chain(out.lines().filter(|l| l.starts_with("cell ")).map(|l| {
            // `cell a b for A +1 value win 21 for A nodes N position P`
            let (head, tail) = l.split_once(" nodes ").unwrap();
            format!(
                "{head} position {}",
                tail.split_once(" position ").unwrap().1
            )
        }))
        .collect()
}

#[test]
fn a_blind_solve_split_by_cells_merges_to_the_same_matrix() {
    let d = dir("cells");
    let args = ["--variant", "lango", "--plies", "6", "--algorithm", "ab"];
    let (rc, whole, _) = common::tool("solve", &args);
    assert_eq!(rc, 0);
    let parts = run_parts("solve", &args, 4, &d, "cell");
    let (rc, merged, err) = merge(&parts, &[]);
    assert_eq!(rc, 0, "{err}");
    let p = proven(&merged);
    assert!(
        p.iter().filter(|l| l.starts_with("cell ")).count() == 4,
        "{merged}"
    );
    assert!(p.iter().any(|l| l.starts_with("value between")), "{merged}");
    assert_eq!(p, proven(&whole), "merged:\n{merged}\nwhole:\n{whole}");
    // Each part holds its one cell, in the order of the matrix.
    for (k, f) in parts.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0]["job"], serde_json::json!([k + 1, 4]));
        assert_eq!(lines[1]["unit"], k);
        assert_eq!(lines[1]["cell"], serde_json::json!([k / 2, k % 2]));
        assert_eq!(lines[2], serde_json::json!({"type": "end", "results": 1}));
    }
}

#[test]
fn subtrees_solved_apart_give_the_roots_value_and_line() {
    // After A's 17 at the sequential start of Didinga 4x9 (a win in 5).
    const LOSS4: &str =
        "didinga:9 0,0,2,0,0,0,2,0,0/0,0,2,0,0,0,2,0,0/1,6,6,0,3,8,8,0,2/4,4,4,1,3,1,0,7,6 b o1 1";
    let d = dir("subtrees");
    for (args, n, value, pv) in [
        // A loss needs every child proven.
        (
            vec!["--pos", LOSS4, "--algorithm", "ab"],
            4,
            "value loss 4 for B",
            "pv 14 3 9 2",
        ),
        // A win where the other children are only bounded (--plies 5).
        (
            vec![
                "--variant",
                "didinga",
                "--columns",
                "9",
                "--opening",
                "sequential",
                "--plies",
                "5",
                "--algorithm",
                "ab",
            ],
            5,
            "value win 5 for A",
            "pv 17 14 3 9 2",
        ),
    ] {
        let (rc, whole, _) = common::tool("solve", &args);
        assert_eq!(rc, 0);
        assert!(whole.lines().any(|l| l == value), "{whole}");
        assert!(whole.lines().any(|l| l == pv), "{whole}");
        let parts = run_parts("solve", &args, n, &d, &format!("sub{n}"));
        let first = std::fs::read_to_string(&parts[0]).unwrap();
        assert!(
            first.contains("\"path\":[\""),
            "units are subtrees: {first}"
        );
        let (rc, merged, err) = merge(&parts, &[]);
        assert_eq!(rc, 0, "{err}");
        assert_eq!(proven(&merged), proven(&whole), "{merged}");
        let book = path(&d, &format!("book{n}.txt"));
        let (rc, _, err) = merge(&parts, &["--book", &book]);
        assert_eq!(rc, 0, "{err}");
        let book = std::fs::read_to_string(&book).unwrap();
        let entries = book.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(
            entries,
            pv.split(' ').count(),
            "the root, the line, its end: {book}"
        );
    }
}

#[test]
fn a_part_run_twice_writes_the_same_file_and_a_dead_part_leaves_none() {
    let d = dir("again");
    let args = ["--variant", "lango", "--plies", "8", "--algorithm", "ab"];
    let a = run_parts("solve", &args, 4, &d, "a");
    let b = run_parts("solve", &args, 4, &d, "b");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            std::fs::read(x).unwrap(),
            std::fs::read(y).unwrap(),
            "{x} {y}"
        );
    }
    // A part killed before it finishes: no file under its name, and no
    // temporary file that a merge could take for a part.
    let out = path(&d, "dead.jsonl");
    let mut child = std::process::Command::new(CHORO)
        .args(["solve", "--variant", "lango", "--job", "1/4", "--out", &out])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!Path::new(&out).exists());
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
}

fn match_args(games: &str, seed: &str) -> Vec<String> {
    [
        "--engine",
        "name=ab",
        &format!("cmd={CHORO}"),
        "--engine",
        "name=greedy",
        &format!("cmd={CHORO}"),
        "option.Algorithm=greedy",
        "--variant",
        "lango",
        "--random-blind",
        "--random-plies",
        "2",
        "--depth",
        "2",
        "--games",
        games,
        "--seed",
        seed,
        "--sprt",
        "elo0=0",
        "elo1=10",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn a_split_match_merges_to_the_report_of_the_whole_match() {
    let d = dir("match");
    let args = match_args("12", "5");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rc, whole, err) = common::tool("match", &args);
    assert_eq!(rc, 0, "{err}");
    let one = run_parts("match", &args, 1, &d, "one");
    let parts = run_parts("match", &args, 4, &d, "four");
    for json in [false, true] {
        let flag: &[&str] = if json { &["--json"] } else { &[] };
        let (rc, from_one, err) = merge(&one, flag);
        assert_eq!(rc, 0, "{err}");
        let (rc, from_four, err) = merge(&parts, flag);
        assert_eq!(rc, 0, "{err}");
        assert_eq!(from_four, from_one, "byte for byte");
    }
    // The whole match's report, but for its wall time.
    let (_, merged, _) = merge(&parts, &[]);
    let (head, rest) = whole.split_once('\n').unwrap();
    let (mhead, mrest) = merged.split_once('\n').unwrap();
    assert_eq!(mrest, rest);
    assert_eq!(
        mhead,
        head.rsplit_once(", ").unwrap().0,
        "the clock is all that differs"
    );
    assert!(
        merged.starts_with("match: 12 of 12 games, lango:8 simultaneous, depth=2"),
        "{merged}"
    );
    assert!(merged.contains("SPRT elo0=0 elo1=10"), "{merged}");
    // 6 pairs in 4 parts: 1, 2, 1, 2 pairs, numbered as in the whole match.
    let games: Vec<Vec<u64>> = parts
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
                .filter(|v| v["type"] == "match")
                .map(|v| v["game"].as_u64().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(
        games,
        vec![
            vec![1, 2],
            vec![3, 4, 5, 6],
            vec![7, 8],
            vec![9, 10, 11, 12]
        ]
    );
}

fn refused(files: &[String], why: &str) {
    let (rc, out, err) = merge(files, &[]);
    assert_eq!(rc, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains(why), "wanted '{why}': {err}");
}

#[test]
fn merge_refuses_what_is_not_one_finished_run() {
    let d = dir("refuse");
    let args = match_args("8", "3");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let parts = run_parts("match", &args, 3, &d, "m");
    let other = match_args("8", "4");
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    let reseeded = run_parts("match", &other, 3, &d, "seed4");
    let solve = run_parts(
        "solve",
        &["--variant", "lango", "--plies", "4", "--algorithm", "ab"],
        3,
        &d,
        "s",
    );
    let (rc, _, err) = merge(&parts, &[]);
    assert_eq!(rc, 0, "{err}");

    refused(&parts[..2], "parts missing of 3: 3");
    refused(
        &[parts[0].clone(), parts[1].clone(), parts[1].clone()],
        "both part 2/3: a duplicate",
    );
    // Settings are compared by meaning, and the first option that differs
    // is named.
    refused(
        &[parts[0].clone(), reseeded[1].clone(), parts[2].clone()],
        "differ in --seed (4 against 3)",
    );
    refused(
        &[parts[0].clone(), solve[1].clone(), parts[2].clone()],
        "a run of another kind",
    );
    let split4 = run_parts("match", &args, 4, &d, "four");
    refused(
        &[parts[0].clone(), split4[1].clone(), parts[2].clone()],
        "parts of a split into 4 and into 3",
    );
    // Another build of choro.
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    let edited = path(&d, "other-commit.jsonl");
    let commit = format!("\"commit\":\"{}\"", "0".repeat(12));
    let header_end = text.find('\n').unwrap();
    let (header, rest) = text.split_at(header_end);
    let start = header.find("\"commit\":\"").unwrap();
    let end = start + header[start + 10..].find('"').unwrap() + 11;
    std::fs::write(
        &edited,
        format!("{}{commit}{}{rest}", &header[..start], &header[end..]),
    )
    .unwrap();
    refused(
        &[parts[0].clone(), edited, parts[2].clone()],
        "another commit of choro",
    );
    // Parts of one root solved with and without --attacker.
    const DRAW: &str = "adjiboto 1,2,1,0,1/0,2,0,1,2 b 12345/12345 49/41 40";
    let both = run_parts("solve", &["--pos", DRAW], 2, &d, "both");
    let one = run_parts("solve", &["--pos", DRAW, "--attacker", "a"], 2, &d, "one");
    let (rc, out, err) = merge(&[one[0].clone(), one[1].clone()], &[]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains("value unknown nowin 2 noloss 4094 for B"),
        "{out}"
    );
    refused(
        &[one[0].clone(), both[1].clone()],
        "settings.attacker (null against \"a\")",
    );
    // A part cut short (its end line lost) and a file that is no part.
    let cut = path(&d, "cut.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    refused(
        &[parts[0].clone(), cut, parts[2].clone()],
        "no end line: the part did not finish",
    );
    let junk = path(&d, "junk.jsonl");
    std::fs::write(&junk, "{\"type\":\"solution\"}\n").unwrap();
    refused(&[junk], "not a part file of choro");
    // A game taken out of a part.
    let short = path(&d, "short.jsonl");
    let mut kept: Vec<&str> = lines.clone();
    kept.remove(1);
    let end = kept.len() - 1;
    let fixed_end = format!("{{\"results\":{},\"type\":\"end\"}}", end - 1);
    kept[end] = &fixed_end;
    std::fs::write(&short, kept.join("\n") + "\n").unwrap();
    refused(&[parts[0].clone(), short, parts[2].clone()], "is missing");
    // --job itself: more parts than the run has, refused before anything
    // is written (no save file, no part file).
    let (rc, _, err) = common::tool("solve", &["--variant", "lango", "--job", "1/0"]);
    assert_eq!(rc, 2, "{err}");
    let (save, out) = (path(&d, "save.txt"), path(&d, "none.jsonl"));
    // A forced line to the end: one unit, whatever the split.
    const FORCED: &str =
        "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m";
    let (rc, _, err) = common::tool(
        "solve",
        &[
            "--pos", FORCED, "--job", "1/2", "--save", &save, "--out", &out,
        ],
    );
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("only 1 parts to give, not 2"), "{err}");
    assert!(!Path::new(&save).exists() && !Path::new(&out).exists());
    let mut a = args.clone();
    a.extend(["--job", "1/5"]);
    let (rc, _, err) = common::tool("match", &a);
    assert_eq!(rc, 2);
    assert!(err.contains("4 game pairs, fewer than 5 parts"), "{err}");
}

/// The arguments of a match of `games` games that the SPRT stops early:
/// choro's greedy player against its random one (each move a function of
/// the position alone, so no game depends on which process plays it),
/// decided for H1 at game 18.
fn sprt_args(games: &str, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "--engine",
        "name=g",
        &format!("cmd={CHORO}"),
        "option.Algorithm=greedy",
        "--engine",
        "name=r",
        &format!("cmd={CHORO}"),
        "option.Algorithm=random",
        "--variant",
        "didinga",
        "--opening",
        "sequential",
        "--random-plies",
        "4",
        "--seed",
        "5",
        "--depth",
        "1",
        "--games",
        games,
        "--sprt",
        "elo0=0",
        "elo1=150",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// A report without what says how it was run: the wall time and the
/// number of games at once, on its first line.
fn without_run(report: &str) -> String {
    let (head, rest) = report.split_once('\n').unwrap();
    let head = head.split(", ").take(3).collect::<Vec<_>>().join(", ");
    format!("{head}\n{rest}")
}

/// Item 1 of issue 32: an SPRT stop is the first complete pair, in the
/// order of the schedule, whose LLR crosses a bound. The plain run at any
/// concurrency, and every split merged, count the same games and print
/// the same report; the records hold exactly the games counted, in order.
#[test]
fn an_sprt_stop_is_the_same_however_the_match_is_run_or_split() {
    let d = dir("sprt");
    let mut plain = Vec::new();
    for c in ["1", "4"] {
        let records = path(&d, &format!("games-{c}.txt"));
        let json = path(&d, &format!("summary-{c}.json"));
        let args = sprt_args(
            "40",
            &["--concurrency", c, "--records", &records, "--json", &json],
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (rc, out, err) = common::tool("match", &args);
        assert_eq!(rc, 0, "{out}{err}");
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let played = summary["games_played"].as_u64().unwrap();
        assert!(played < 40 && played.is_multiple_of(2), "{out}");
        assert_eq!(summary["stopped_early"], "SPRT: H1 accepted", "{out}");
        // The records: games 1..=played, each once, in order.
        let text = std::fs::read_to_string(&records).unwrap();
        let games: Vec<u64> = text
            .lines()
            .filter_map(|l| l.strip_prefix("[Game \""))
            .map(|l| l.trim_end_matches("\"]").parse().unwrap())
            .collect();
        assert_eq!(games, (1..=played).collect::<Vec<_>>(), "concurrency {c}");
        plain.push(out);
    }
    assert!(plain[0].contains("1 at once"), "{}", plain[0]);
    assert!(plain[1].contains("4 at once"), "{}", plain[1]);
    assert_eq!(without_run(&plain[1]), without_run(&plain[0]));
    // Before the pair that decides, the LLR was inside the bounds: one
    // pair fewer is no decision (the stop is the first crossing).
    let played: u64 = plain[0]
        .strip_prefix("match: ")
        .and_then(|l| l.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    let shorter = (played - 2).to_string();
    let args = sprt_args(&shorter, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rc, out, err) = common::tool("match", &args);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains("no decision") && !out.contains("stopped early"),
        "{out}"
    );

    // Split in 3 (one game at a time): the plain report but for its clock.
    let args = sprt_args("40", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let three = run_parts("match", &args, 3, &d, "three");
    let (rc, merged, err) = merge(&three, &[]);
    assert_eq!(rc, 0, "{err}");
    let (head, rest) = plain[0].split_once('\n').unwrap();
    assert_eq!(
        merged,
        format!("{}\n{rest}", head.rsplit_once(", ").unwrap().0)
    );
    // Split in 5, the parts at different concurrencies (which changes no
    // game, so they merge): the same games counted.
    let five: Vec<String> = (1..=5u64)
        .map(|k| {
            let out = path(&d, &format!("five-{k}.jsonl"));
            let job = format!("{k}/5");
            let c = if k % 2 == 0 { "3" } else { "1" };
            let a = sprt_args("40", &["--concurrency", c, "--job", &job, "--out", &out]);
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let (rc, o, e) = common::tool("match", &a);
            assert_eq!(rc, 0, "part {job}: {o}{e}");
            out
        })
        .collect();
    let (rc, merged5, err) = merge(&five, &[]);
    assert_eq!(rc, 0, "{err}");
    assert!(merged5.contains("3 at once"), "{merged5}");
    assert_eq!(without_run(&merged5), without_run(&merged));
}

/// Item 4 of issue 32: a part's results are re-derived from its moves; an
/// edited result, or a failure put on the wrong engine, is refused.
#[test]
fn merge_refuses_a_result_its_moves_do_not_give() {
    let d = dir("edited");
    let args = sprt_args("8", &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let parts = run_parts("match", &args, 2, &d, "p");
    let (rc, _, err) = merge(&parts, &[]);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut g: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        f(&mut g);
        lines[1] = g.to_string();
        let p = path(&d, name);
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        p
    };
    let g: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let flipped = match g["result"].as_str().unwrap() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    let result = edit("result.jsonl", &|g| g["result"] = flipped.into());
    refused(
        &[parts[0].clone(), result],
        "the moves do not give its result",
    );
    // A rules' end turned into a forfeit of the side that was not to move.
    let reason = edit("reason.jsonl", &|g| {
        g["reason"] = "no-legal-move".into();
        g["failed"] = serde_json::Value::Null;
        let moves = g["moves"].as_array_mut().unwrap();
        moves.pop();
    });
    refused(
        &[parts[0].clone(), reason],
        "the moves do not give its result",
    );
    let failed = edit("failed.jsonl", &|g| {
        let other = if g["failed"] == "g" { "r" } else { "g" };
        g["failed"] = other.into();
    });
    refused(&[parts[0].clone(), failed], "\"failed\" is");
}

/// `--dry-run` checks a command line as the run would, then stops: nothing
/// played or solved, no file written (cluster/submit runs it first).
#[test]
fn a_dry_run_checks_and_writes_nothing() {
    let d = dir("dry");
    let out = path(&d, "part.jsonl");
    let args = sprt_args("40", &["--job", "2/4", "--out", &out, "--dry-run"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rc, o, e) = common::tool("match", &args);
    assert_eq!(rc, 0, "{e}");
    assert!(
        o.contains("10 games would be played in part 2/4 (1 pairing)"),
        "{o}"
    );
    assert!(!Path::new(&out).exists());
    // An engine that does not start is refused, as the match would be.
    let mut bad = sprt_args("40", &["--dry-run"]);
    bad[2] = "cmd=/nonexistent/engine".into();
    let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
    let (rc, _, e) = common::tool("match", &bad);
    assert_eq!(rc, 2);
    assert!(e.contains("engine 'g'"), "{e}");
    let args = sprt_args("40", &["--job", "1/21", "--dry-run"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rc, _, e) = common::tool("match", &args);
    assert_eq!(rc, 2);
    assert!(e.contains("20 game pairs, fewer than 21 parts"), "{e}");

    let (rc, o, e) = common::tool(
        "solve",
        &[
            "--variant",
            "lango",
            "--job",
            "3/4",
            "--out",
            &out,
            "--dry-run",
        ],
    );
    assert_eq!(rc, 0, "{e}");
    assert!(o.contains("part 3/4: units 3..3 of 4"), "{o}");
    assert!(!Path::new(&out).exists());
    let (rc, _, e) = common::tool("solve", &["--variant", "nosuch", "--dry-run"]);
    assert_eq!(rc, 2, "{e}");
}

/// `--check` checks every unit of a part as it checks a whole solve's
/// value; a part used to check only the values resumed from a save file,
/// and dropped the option without a word otherwise.
#[test]
fn a_part_checks_each_unit_it_is_asked_to() {
    let d = dir("check");
    let out = path(&d, "part.jsonl");
    let args = [
        "--variant",
        "lango",
        "--plies",
        "1",
        "--job",
        "2/4",
        "--out",
        &out,
    ];
    let mut checked = args.to_vec();
    checked.extend(["--check", "10000000"]);
    let (rc, o, e) = common::tool("solve", &checked);
    assert_eq!(rc, 0, "{o}{e}");
    let checks: Vec<&str> = o.lines().filter(|l| l.starts_with("check ")).collect();
    assert!(
        checks
            .iter()
            .any(|l| l.starts_with("check unit 2 A wins within ") && l.ends_with(": confirmed")),
        "{o}"
    );
    assert!(
        checks.iter().any(|l| l.starts_with("check unit 2 nodes ")),
        "{o}"
    );
    // Without --check (and no save file) nothing is checked.
    let (rc, o, e) = common::tool("solve", &args);
    assert_eq!(rc, 0, "{o}{e}");
    assert!(!o.contains("check "), "{o}");
}

/// `choro merge` adds the units' counts with a check and reads plies as
/// the u32 they are (RELIABILITY.md finding 35): before, two parts of
/// 2^64 - 1 nodes each merged to a wrapped total, and 2^32 + 4 plies
/// were read as 4.
#[test]
fn merge_refuses_totals_and_plies_out_of_range() {
    let d = dir("totals");
    let args = ["--variant", "lango", "--plies", "4", "--algorithm", "ab"];
    let parts = run_parts("solve", &args, 3, &d, "t");
    let (rc, _, err) = merge(&parts, &[]);
    assert_eq!(rc, 0, "{err}");
    // Every result line of a part with `key` set to `value`.
    let edit = |k: usize, key: &str, value: &str| -> String {
        let text = std::fs::read_to_string(&parts[k]).unwrap();
        let mut out = String::new();
        for l in text.lines() {
            let mut l = l.to_string();
            if l.contains("\"type\":\"solve\"") {
                let at = l.find(&format!("\"{key}\":")).expect(key) + key.len() + 3;
                let end = at + l[at..].find([',', '}']).unwrap();
                l.replace_range(at..end, value);
            }
            out.push_str(&l);
            out.push('\n');
        }
        let p = path(&d, &format!("{key}-{k}.jsonl"));
        std::fs::write(&p, out).unwrap();
        p
    };
    let max = u64::MAX.to_string();
    refused(
        &[
            edit(0, "nodes", &max),
            edit(1, "nodes", &max),
            parts[2].clone(),
        ],
        "the parts' nodes add up to more than 2^64 - 1",
    );
    refused(
        &[
            edit(0, "proven", &max),
            edit(1, "proven", &max),
            parts[2].clone(),
        ],
        "the parts' proven add up to more than 2^64 - 1",
    );
    refused(
        &[
            parts[0].clone(),
            edit(1, "nowin_within", "4294967300"),
            parts[2].clone(),
        ],
        "'nowin_within' is not a number of plies: 4294967300",
    );
    refused(
        &[parts[0].clone(), edit(1, "nodes", "1e30"), parts[2].clone()],
        "no number 'nodes'",
    );
}
