//! The save file of a solve: the facts of every costly subtree, one line
//! each, written as they are proven, so that a solve that is stopped or
//! killed loses nothing and a later run with the same file resumes.
//!
//! Format (text, UTF-8): lines starting with `#` are comments (the first
//! ones name the command, version and date that wrote them); every other
//! line is a position string, a tab, and the facts proven of it, separated
//! by spaces:
//!
//! ```text
//! lango:8 0,0,1,.../... a m 12<TAB>win<=19 nowin>=18
//! ```
//!
//! `win<=N` the side to move forces a win within N plies; `nowin>=N` he
//! cannot within N; `loss<=N`, `noloss>=N` the same for the other side;
//! `draw` a draw at every depth. Facts of one position may stand on several
//! lines; they are merged, and must stay facts one line could state (not a
//! win and a loss, say). A line that does not parse or contradicts earlier
//! lines stops the load with its line number: a file is trusted whole or
//! not at all.

use super::table::{Facts, NONE};
use crate::board::Position;
use fxhash::FxHashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Facts loaded from a save file, and the file open for appending.
pub struct Saved {
    path: PathBuf,
    map: FactMap,
    out: Mutex<Option<LineWriter<File>>>,
    /// The first write error, reported once the solve ends.
    error: Mutex<Option<String>>,
}

/// The facts as the file writes them.
pub fn facts_text(f: &Facts) -> String {
    let mut t = Vec::new();
    if f.win_le != NONE {
        t.push(format!("win<={}", f.win_le));
    }
    if f.nowin_ge > 0 {
        t.push(format!("nowin>={}", f.nowin_ge));
    }
    if f.loss_le != NONE {
        t.push(format!("loss<={}", f.loss_le));
    }
    if f.noloss_ge > 0 {
        t.push(format!("noloss>={}", f.noloss_ge));
    }
    if f.draw {
        t.push("draw".to_string());
    }
    t.join(" ")
}

/// Facts from their written form.
pub fn parse_facts(s: &str) -> Result<Facts, String> {
    let mut f = Facts::default();
    for tok in s.split_whitespace() {
        let num = |p: &str| -> Result<u32, String> {
            let n: u32 = tok[p.len()..]
                .parse()
                .map_err(|_| format!("bad fact '{}'", super::clip(tok)))?;
            if n >= NONE {
                return Err(format!(
                    "fact '{}' beyond {} plies",
                    super::clip(tok),
                    NONE - 1
                ));
            }
            Ok(n)
        };
        if tok.starts_with("win<=") {
            f.win_le = num("win<=")?;
        } else if tok.starts_with("nowin>=") {
            f.nowin_ge = num("nowin>=")?;
        } else if tok.starts_with("loss<=") {
            f.loss_le = num("loss<=")?;
        } else if tok.starts_with("noloss>=") {
            f.noloss_ge = num("noloss>=")?;
        } else if tok == "draw" {
            f.draw = true;
        } else {
            return Err(format!("unknown fact '{}'", super::clip(tok)));
        }
    }
    if f.is_empty() {
        return Err("no fact".into());
    }
    if contradictory(&f) {
        return Err(format!("contradictory facts '{}'", super::clip(s)));
    }
    Ok(f)
}

/// True when no position can have all of `f`: a win within N and none
/// within N or more, or more than one of a win, a loss and a draw.
fn contradictory(f: &Facts) -> bool {
    f.win_le <= f.nowin_ge
        || f.loss_le <= f.noloss_ge
        || (f.win_le != NONE) as u8 + (f.loss_le != NONE) as u8 + f.draw as u8 > 1
}

/// One line of a save file: `None` for a comment or a blank line.
pub fn parse_line(line: &str) -> Result<Option<(Position, Facts)>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (pos, facts) = line
        .split_once('\t')
        .ok_or("expected a position string, a tab and facts")?;
    let p: Position = pos.parse().map_err(|e| format!("position: {e}"))?;
    Ok(Some((p, parse_facts(facts)?)))
}

/// The facts of a save file by position hash.
pub type FactMap = FxHashMap<u64, (Position, Facts)>;

/// Read a save file (`name` for the messages): the facts of each position,
/// merged over its lines. A line that does not parse, or whose facts
/// contradict what earlier lines said of the same position, is an error
/// naming `name:line`.
pub fn read(r: impl BufRead, name: &str) -> Result<FactMap, String> {
    let mut map = FactMap::default();
    for (i, line) in r.lines().enumerate() {
        let line = line.map_err(|e| format!("{name}: {e}"))?;
        match parse_line(&line) {
            Ok(None) => {}
            Ok(Some((p, f))) => {
                let e = map.entry(p.hash()).or_insert((p, Facts::default()));
                if !e.0.same_state(&p) {
                    return Err(format!("{name}:{}: two positions with one hash", i + 1));
                }
                e.1 = e.1.merge(&f);
                if contradictory(&e.1) {
                    return Err(format!("{name}:{}: contradicts an earlier line", i + 1));
                }
            }
            Err(e) => return Err(format!("{name}:{}: {e}", i + 1)),
        }
    }
    Ok(map)
}

impl Saved {
    /// Load `path` if it exists (a missing file is an empty one) and open
    /// it for appending; `header` lines are written as comments first.
    pub fn open(path: &Path, header: &[String]) -> Result<Saved, String> {
        let map = if path.exists() {
            let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            read(BufReader::new(f), &path.display().to_string())?
        } else {
            FactMap::default()
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut out = LineWriter::new(file);
        for h in header {
            writeln!(out, "# {h}").map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(Saved {
            path: path.to_path_buf(),
            map,
            out: Mutex::new(Some(out)),
            error: Mutex::new(None),
        })
    }

    /// Facts loaded for `pos`.
    pub fn get(&self, pos: &Position) -> Option<Facts> {
        self.map
            .get(&pos.hash())
            .filter(|(p, _)| p.same_state(pos))
            .map(|(_, f)| *f)
    }

    /// Positions loaded.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Append the facts of `pos` (line-buffered: a line is on disk when the
    /// call returns). After a write error the file is closed and the error
    /// kept for [`error`](Self::error).
    pub fn write(&self, pos: &Position, f: &Facts) {
        let text = facts_text(f);
        if text.is_empty() {
            return;
        }
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = out.as_mut() {
            if let Err(e) = writeln!(w, "{}\t{text}", pos.with_ply(0)) {
                *self.error.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(format!("{}: {e}", self.path.display()));
                *out = None;
            }
        }
    }

    /// The first write error, if any.
    pub fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_read_back() {
        for s in ["win<=19 nowin>=18", "loss<=4", "nowin>=7 noloss>=7", "draw"] {
            let f = parse_facts(s).unwrap();
            assert_eq!(facts_text(&f), s);
        }
        for bad in [
            "",
            "win<=x",
            "win<=3 nowin>=3",
            "win<=3 loss<=5",
            "tie",
            "win<=9999",
        ] {
            assert!(parse_facts(bad).is_err(), "{bad}");
        }
    }

    /// Finding 13 (RELIABILITY.md): facts of one position on two lines were
    /// merged into a win and a loss, which no single line may state.
    #[test]
    fn a_win_and_a_loss_of_one_position_on_two_lines_are_refused() {
        let p = Position::startpos(crate::Variant::Lango, 8).unwrap();
        for (a, b) in [
            ("loss<=4", "win<=3"),
            ("draw", "win<=9"),
            ("loss<=2", "draw"),
        ] {
            let text = format!("{p}\t{a}\n# a comment\n{p}\t{b}\n");
            let e = read(text.as_bytes(), "f").err().unwrap_or_default();
            assert_eq!(e, "f:3: contradicts an earlier line", "{a} then {b}");
        }
        let text = format!("{p}\tnowin>=5\n{p}\twin<=9\n");
        let m = read(text.as_bytes(), "f").unwrap();
        assert_eq!(facts_text(&m[&p.hash()].1), "win<=9 nowin>=5");
    }

    /// Finding 15 (RELIABILITY.md): an error quoted a whole fact, which may
    /// be any length.
    #[test]
    fn an_error_quotes_at_most_a_clip_of_the_fact() {
        let long = "7".repeat(5000);
        for s in [
            format!("win<={long}"),
            format!("win<=x{long}"),
            format!("tie{long}"),
            format!("win<=3 nowin>=5 {}", "nowin>=5 ".repeat(500)),
        ] {
            let e = parse_facts(&s).unwrap_err();
            assert!(e.len() < 100 && e.contains("..."), "{e}");
        }
    }

    #[test]
    fn a_save_file_resumes_and_refuses_a_bad_line() {
        let dir = std::env::temp_dir().join(format!("choro-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("facts.txt");
        let _ = std::fs::remove_file(&path);
        let p = Position::startpos(crate::Variant::Lango, 8).unwrap();
        {
            let s = Saved::open(&path, &["test".into()]).unwrap();
            assert!(s.is_empty());
            s.write(
                &p,
                &Facts {
                    nowin_ge: 5,
                    ..Facts::default()
                },
            );
            s.write(
                &p,
                &Facts {
                    win_le: 9,
                    ..Facts::default()
                },
            );
        }
        let s = Saved::open(&path, &[]).unwrap();
        let f = s.get(&p).unwrap();
        assert_eq!((f.win_le, f.nowin_ge), (9, 5));
        drop(s);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("lango:8 junk\twin<=3\n");
        std::fs::write(&path, text).unwrap();
        let e = Saved::open(&path, &[]).err().unwrap();
        assert!(e.contains(":4:"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
