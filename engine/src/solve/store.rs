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
//! lines; they are merged. A line that does not parse stops the load with
//! its line number: a file is trusted whole or not at all.

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
    map: FxHashMap<u64, (Position, Facts)>,
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
                .map_err(|_| format!("bad fact '{tok}'"))?;
            if n >= NONE {
                return Err(format!("fact '{tok}' beyond {} plies", NONE - 1));
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
            return Err(format!("unknown fact '{tok}'"));
        }
    }
    if f.is_empty() {
        return Err("no fact".into());
    }
    if f.win_le <= f.nowin_ge || f.loss_le <= f.noloss_ge {
        return Err(format!("contradictory facts '{s}'"));
    }
    if (f.win_le != NONE) as u8 + (f.loss_le != NONE) as u8 + f.draw as u8 > 1 {
        return Err(format!("contradictory facts '{s}'"));
    }
    Ok(f)
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

impl Saved {
    /// Load `path` if it exists (a missing file is an empty one) and open
    /// it for appending; `header` lines are written as comments first.
    pub fn open(path: &Path, header: &[String]) -> Result<Saved, String> {
        let mut map: FxHashMap<u64, (Position, Facts)> = FxHashMap::default();
        if path.exists() {
            let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            for (i, line) in BufReader::new(f).lines().enumerate() {
                let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
                match parse_line(&line) {
                    Ok(None) => {}
                    Ok(Some((p, f))) => {
                        let e = map.entry(p.hash()).or_insert((p, Facts::default()));
                        if !e.0.same_state(&p) {
                            return Err(format!(
                                "{}:{}: two positions with one hash",
                                path.display(),
                                i + 1
                            ));
                        }
                        e.1 = e.1.merge(&f);
                        if e.1.win_le <= e.1.nowin_ge || e.1.loss_le <= e.1.noloss_ge {
                            return Err(format!(
                                "{}:{}: contradicts an earlier line",
                                path.display(),
                                i + 1
                            ));
                        }
                    }
                    Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
                }
            }
        }
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
