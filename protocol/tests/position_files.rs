//! Every position list of the repository is harness-ready: each position
//! string in it, sent as `position fen <string>`, is read by the protocol's
//! own parser as that position and nothing else (no trailing text, no
//! moves), and is written the way choro writes it. Plain lists
//! (`positions/openings/*.txt`) hold one string a data line; block files
//! (`positions/bench.txt`, `positions/tests/*.txt`, `positions/perft/*.perft`)
//! hold theirs on `pos` lines; books (`positions/solved/`) before the first
//! tab of each data line. README files are prose.

use choro::command::Start;
use choro::{parse, Command};
use choro_engine::board::{data_lines, parse_list};
use choro_engine::Position;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The position `position fen <s>` sets, or why the line is not one.
fn as_sent(s: &str) -> Result<Position, String> {
    match parse(&format!("position fen {s}")) {
        Ok(Some(Command::Position {
            start: Start::Fen(p),
            moves,
        })) if moves.is_empty() => Ok(p),
        other => Err(format!("{other:?}")),
    }
}

/// A book of solved positions (positions/solved/README.md): each data line
/// is a position string, a tab, its value, a tab and a move.
fn is_book(text: &str) -> bool {
    data_lines(text)
        .next()
        .is_some_and(|(_, l)| l.contains('\t'))
}

/// The position strings of one file, each with its line number.
fn strings(text: &str) -> Vec<(usize, &str)> {
    if is_book(text) {
        return data_lines(text)
            .map(|(n, l)| (n, l.split('\t').next().unwrap_or(l)))
            .collect();
    }
    let lines: Vec<(usize, &str)> = data_lines(text).collect();
    let block = lines.first().is_some_and(|(_, l)| l.starts_with("id "));
    if !block {
        return lines;
    }
    lines
        .into_iter()
        .filter_map(|(n, l)| l.strip_prefix("pos ").map(|s| (n, s)))
        .collect()
}

#[test]
fn every_position_string_in_the_repository_is_complete() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions");
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut checked = 0;
    let mut plain_files = 0;
    for path in all
        .iter()
        .filter(|p| p.extension().is_none_or(|e| e != "md"))
    {
        let name = path.display();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let list = strings(&text);
        assert!(!list.is_empty(), "{name}: no position strings");
        for &(n, s) in &list {
            let p = as_sent(s).unwrap_or_else(|e| panic!("{name}:{n}: '{s}' sent as is: {e}"));
            assert_eq!(
                p.to_string(),
                s,
                "{name}:{n}: not written as choro writes it"
            );
            checked += 1;
        }
        // A plain list: the list reader of `choro match` and the benches
        // reads the same positions, line for line.
        if !text.lines().any(|l| l.starts_with("id ")) && !is_book(&text) {
            plain_files += 1;
            let read = parse_list(&text).unwrap_or_else(|(n, e)| panic!("{name}:{n}: {e}"));
            let sent: Vec<(usize, Position)> = list
                .iter()
                .map(|&(n, s)| (n, as_sent(s).unwrap()))
                .collect();
            assert_eq!(read, sent, "{name}");
        }
    }
    // The four opening lists, the bench list, four test lists, the perft files.
    assert!(plain_files >= 4, "{plain_files} plain lists");
    assert!(checked >= 4 * 100 + 30, "{checked} position strings");
}

#[test]
fn a_line_with_a_remark_is_caught_by_the_check() {
    // What the opening lists held before: the check above must fail on it.
    let line = "acholi:8 3,1,4,2,0,0,0,0/0,4,3,4,5,3,1,0/0,0,0,0,3,0,6,7/6,4,1,0,0,0,0,7 a m 4 \
                junk after it";
    assert!(as_sent(line).is_err());
    assert!(parse_list(line).is_err());
    // A `#` remark is a comment to `position fen` (PROTOCOL.md) but not to a
    // list, whose remarks go on lines of their own.
    let remark = "acholi:8 3,1,4,2,0,0,0,0/0,4,3,4,5,3,1,0/0,0,0,0,3,0,6,7/6,4,1,0,0,0,0,7 a m 4 \
                  # ~k=~k=o n j c; depth 4: cp -750";
    assert!(as_sent(remark).is_ok());
    assert!(parse_list(remark).is_err());
}
