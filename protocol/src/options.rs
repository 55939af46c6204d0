//! The options that `ugi` and `uci` list and `setoption` sets
//! (PROTOCOL.md, "Options"): one table gives their names, kinds and ranges,
//! so the listing and the checks cannot disagree.

use crate::clip;
use choro_engine::rules::DEFAULT_DRAW_PLIES;
use choro_engine::search::{Algorithm, SearchConfig};
use choro_engine::{Opening, Position, PositionError, Variant};
use std::fmt;

/// Every option's current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: Variant,
    /// Board width for Didinga; the other codes keep their fixed width.
    pub columns: u8,
    /// How a Choro game opens (RULINGS 8); used by the next start position.
    pub opening: Opening,
    pub threads: usize,
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub draw_plies: u32,
    /// Percent of a timed move's time given first to the exact solver.
    pub solve_share: u32,
    /// Whether `alphabeta` and `mcts` play from the book of solved
    /// positions (`OwnBook`).
    pub own_book: bool,
    /// Each racer's holds in a simultaneous opening (`RaceHolds`, RULES.md
    /// 8.10); 0 is the lockstep race. Used by the next start position.
    pub race_holds: u8,
}

impl Default for Options {
    fn default() -> Options {
        let s = SearchConfig::default();
        Options {
            variant: Variant::Didinga,
            columns: Variant::Didinga.default_width(),
            opening: Opening::default(),
            threads: s.threads,
            hash_mb: s.hash_mb,
            algorithm: s.algorithm,
            multipv: s.multipv,
            ponder: false,
            move_overhead_ms: s.move_overhead_ms,
            seed: s.seed,
            draw_plies: DEFAULT_DRAW_PLIES,
            solve_share: DEFAULT_SOLVE_SHARE,
            own_book: true,
            race_holds: 0,
        }
    }
}

enum Kind {
    Spin { min: u64, max: u64 },
    Combo(&'static [&'static str]),
    Check,
}

struct Spec {
    name: &'static str,
    kind: Kind,
}

/// The solver's share of a timed move unless `SolveShare` says otherwise:
/// a tenth, so that a position it proves quickly is played perfectly.
pub const DEFAULT_SOLVE_SHARE: u32 = 10;

const SPECS: [Spec; 14] = [
    Spec {
        name: "Variant",
        kind: Kind::Combo(&["didinga", "lango", "acholi", "adjiboto"]),
    },
    Spec {
        name: "Columns",
        kind: Kind::Spin { min: 8, max: 16 },
    },
    Spec {
        name: "Opening",
        kind: Kind::Combo(&["sequential", "simultaneous"]),
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin { min: 1, max: 256 },
    },
    Spec {
        name: "Hash",
        kind: Kind::Spin { min: 1, max: 65536 },
    },
    Spec {
        name: "Algorithm",
        kind: Kind::Combo(&["alphabeta", "mcts", "random", "greedy"]),
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin { min: 1, max: 256 },
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check,
    },
    Spec {
        name: "MoveOverhead",
        kind: Kind::Spin { min: 0, max: 10000 },
    },
    // 2^31 - 1: harnesses read spins as 32-bit integers.
    Spec {
        name: "Seed",
        kind: Kind::Spin {
            min: 0,
            max: 2147483647,
        },
    },
    Spec {
        name: "DrawPlies",
        kind: Kind::Spin {
            min: 1,
            max: 1_000_000,
        },
    },
    Spec {
        name: "SolveShare",
        kind: Kind::Spin { min: 0, max: 100 },
    },
    Spec {
        name: "OwnBook",
        kind: Kind::Check,
    },
    Spec {
        name: "RaceHolds",
        kind: Kind::Spin {
            min: 0,
            max: choro_engine::MAX_HOLDS as u64,
        },
    },
];

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    NotInteger(&'static str, String),
    OutOfRange(&'static str, String, u64, u64),
    NotAChoice(&'static str, String, &'static [&'static str]),
    NotABool(&'static str, String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{}'; ignored", clip(n)),
            OptionError::MissingValue(n) => write!(f, "setoption: option {n} needs a value"),
            OptionError::NotInteger(n, v) => {
                write!(f, "setoption: option {n}: '{}' is not an integer", clip(v))
            }
            OptionError::OutOfRange(n, v, lo, hi) => {
                write!(
                    f,
                    "setoption: option {n}: {} is out of range {lo}..{hi}",
                    clip(v)
                )
            }
            OptionError::NotAChoice(n, v, vars) => write!(
                f,
                "setoption: option {n}: '{}' is not one of {}",
                clip(v),
                vars.join(", ")
            ),
            OptionError::NotABool(n, v) => {
                write!(
                    f,
                    "setoption: option {n}: '{}' is not true or false",
                    clip(v)
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// What a successful `setoption` asks of the server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Reset the game to the start position of the current code and width.
    pub reset: bool,
    /// A note for an `info string` line.
    pub note: Option<String>,
}

/// A checked option value.
enum Value {
    Int(u64),
    Choice(&'static str),
    Bool(bool),
}

/// Option names match ignoring case and spaces (`Move Overhead`, `hash`).
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

impl Options {
    /// The `option` lines of the handshake, with the defaults.
    pub fn listing() -> Vec<String> {
        let d = Options::default();
        SPECS
            .iter()
            .map(|s| {
                let default = d.value_text(s.name);
                match &s.kind {
                    Kind::Spin { min, max } => format!(
                        "option name {} type spin default {default} min {min} max {max}",
                        s.name
                    ),
                    Kind::Combo(vars) => {
                        let mut line =
                            format!("option name {} type combo default {default}", s.name);
                        for v in vars.iter() {
                            line.push_str(" var ");
                            line.push_str(v);
                        }
                        line
                    }
                    Kind::Check => {
                        format!("option name {} type check default {default}", s.name)
                    }
                }
            })
            .collect()
    }

    /// The current value of the option named exactly `name`, as listed.
    fn value_text(&self, name: &str) -> String {
        match name {
            "Variant" => self.variant.name().to_string(),
            "Columns" => self.columns.to_string(),
            "Opening" => self.opening.name().to_string(),
            "Threads" => self.threads.to_string(),
            "Hash" => self.hash_mb.to_string(),
            "Algorithm" => self.algorithm.name().to_string(),
            "MultiPV" => self.multipv.to_string(),
            "Ponder" => self.ponder.to_string(),
            "MoveOverhead" => self.move_overhead_ms.to_string(),
            "Seed" => self.seed.to_string(),
            "DrawPlies" => self.draw_plies.to_string(),
            "SolveShare" => self.solve_share.to_string(),
            "OwnBook" => self.own_book.to_string(),
            "RaceHolds" => self.race_holds.to_string(),
            _ => String::new(),
        }
    }

    /// The board width `position startpos` uses for the current code.
    pub fn width(&self) -> u8 {
        if self.variant == Variant::Didinga {
            self.columns
        } else {
            self.variant.default_width()
        }
    }

    /// The start position of the current code, width and opening mode:
    /// what `position startpos`, `uginewgame` and a `Variant` change set.
    pub fn start_position(&self) -> Result<Position, PositionError> {
        let p = Position::start(self.variant, self.width(), self.opening)?;
        Ok(p.with_race_holds(self.race_holds).unwrap_or(p))
    }

    /// Why a position cannot be set while `RaceHolds` is what it is
    /// (RULES.md 8.10): at `s2` and `s1` each racer has exactly the
    /// option's holds; in a race no racer more; other phases have none.
    pub fn holds_disagree(&self, pos: &Position) -> Option<String> {
        let (h, n) = (pos.race_holds(), self.race_holds);
        if pos.phase().is_blind() && h != n {
            Some(format!(
                "the position gives each racer {h} holds but RaceHolds is {n}"
            ))
        } else if h > n {
            Some(format!(
                "the position gives a racer {h} holds but RaceHolds is {n}"
            ))
        } else {
            None
        }
    }

    /// The searcher's settings.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            threads: self.threads,
            hash_mb: self.hash_mb,
            algorithm: self.algorithm,
            multipv: self.multipv,
            seed: self.seed,
            move_overhead_ms: self.move_overhead_ms,
            solve_share: self.solve_share,
        }
    }

    /// `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, OptionError> {
        let key = normalize(name);
        let spec = SPECS
            .iter()
            .find(|s| normalize(s.name) == key)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let text = value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or(OptionError::MissingValue(spec.name))?;
        let v = match &spec.kind {
            Kind::Spin { min, max } => {
                let n: i128 = text
                    .parse()
                    .map_err(|_| OptionError::NotInteger(spec.name, text.to_string()))?;
                if n < *min as i128 || n > *max as i128 {
                    return Err(OptionError::OutOfRange(
                        spec.name,
                        text.to_string(),
                        *min,
                        *max,
                    ));
                }
                Value::Int(n as u64)
            }
            Kind::Combo(vars) => Value::Choice(
                vars.iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .ok_or_else(|| OptionError::NotAChoice(spec.name, text.to_string(), vars))?,
            ),
            Kind::Check => Value::Bool(match text.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(OptionError::NotABool(spec.name, text.to_string())),
            }),
        };
        let mut applied = Applied::default();
        // The table has checked kind and range; the casts below are in range.
        match (spec.name, v) {
            ("Variant", Value::Choice(c)) => {
                if let Ok(variant) = c.parse() {
                    self.variant = variant;
                }
                applied.reset = true;
            }
            ("Columns", Value::Int(n)) => {
                self.columns = n as u8;
                applied.reset = true;
                if self.variant != Variant::Didinga {
                    applied.note = Some(format!(
                        "Columns {n} is used by didinga only; {} is played on {} columns",
                        self.variant,
                        self.variant.default_width()
                    ));
                }
            }
            // Applies to the next start position; the game goes on as it is.
            ("Opening", Value::Choice(c)) => {
                if let Ok(o) = c.parse() {
                    self.opening = o;
                }
            }
            ("Threads", Value::Int(n)) => self.threads = n as usize,
            ("Hash", Value::Int(n)) => self.hash_mb = n as usize,
            ("Algorithm", Value::Choice(c)) => {
                if let Ok(a) = c.parse() {
                    self.algorithm = a;
                }
            }
            ("MultiPV", Value::Int(n)) => self.multipv = n as usize,
            ("Ponder", Value::Bool(b)) => self.ponder = b,
            ("MoveOverhead", Value::Int(n)) => self.move_overhead_ms = n,
            ("Seed", Value::Int(n)) => self.seed = n,
            ("DrawPlies", Value::Int(n)) => self.draw_plies = n as u32,
            ("SolveShare", Value::Int(n)) => self.solve_share = n as u32,
            ("OwnBook", Value::Bool(b)) => self.own_book = b,
            // As `Opening`: the next start position, not the game in progress.
            ("RaceHolds", Value::Int(n)) => self.race_holds = n as u8,
            _ => {}
        }
        Ok(applied)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn listing_is_exact() {
        let l = Options::listing();
        assert_eq!(l.len(), 14);
        assert_eq!(
            l[0],
            "option name Variant type combo default didinga var didinga var lango var acholi var adjiboto"
        );
        assert_eq!(l[1], "option name Columns type spin default 8 min 8 max 16");
        assert_eq!(l[7], "option name Ponder type check default false");
        assert_eq!(
            l[10],
            "option name DrawPlies type spin default 1000 min 1 max 1000000"
        );
        assert_eq!(
            l[11],
            "option name SolveShare type spin default 10 min 0 max 100"
        );
        assert_eq!(l[12], "option name OwnBook type check default true");
        assert_eq!(
            l[13],
            "option name RaceHolds type spin default 0 min 0 max 8"
        );
    }

    #[test]
    fn names_ignore_case_and_spaces() {
        let mut o = Options::default();
        o.set("Move Overhead", Some("100")).unwrap();
        o.set("hash", Some("64")).unwrap();
        o.set("ALGORITHM", Some("MCTS")).unwrap();
        o.set("ponder", Some("True")).unwrap();
        assert_eq!(o.move_overhead_ms, 100);
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.algorithm, Algorithm::Mcts);
        assert!(o.ponder);
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = Options::default();
        let before = o.clone();
        assert_eq!(
            o.set("Hash", Some("0")),
            Err(OptionError::OutOfRange("Hash", "0".into(), 1, 65536))
        );
        assert_eq!(
            o.set("Hash", Some("99999999999999999999999999999999999999999")),
            Err(OptionError::NotInteger(
                "Hash",
                "99999999999999999999999999999999999999999".into()
            ))
        );
        assert_eq!(
            o.set("Threads", Some("-1")),
            Err(OptionError::OutOfRange("Threads", "-1".into(), 1, 256))
        );
        assert!(matches!(
            o.set("Variant", Some("chess")),
            Err(OptionError::NotAChoice("Variant", _, _))
        ));
        assert!(matches!(
            o.set("Opening", Some("bogus")),
            Err(OptionError::NotAChoice("Opening", _, _))
        ));
        assert!(matches!(
            o.set("Opening", Some("")),
            Err(OptionError::MissingValue("Opening"))
        ));
        assert!(matches!(
            o.set("Ponder", Some("yes")),
            Err(OptionError::NotABool("Ponder", _))
        ));
        assert_eq!(o.set("Hash", None), Err(OptionError::MissingValue("Hash")));
        assert_eq!(
            o.set("UCI_Chess960", Some("true")),
            Err(OptionError::Unknown("UCI_Chess960".into()))
        );
        assert_eq!(o, before);
    }

    #[test]
    fn opening_is_a_choice_of_two_and_resets_nothing() {
        let mut o = Options::default();
        assert_eq!(o.opening, Opening::Simultaneous);
        assert_eq!(
            Options::listing()[2],
            "option name Opening type combo default simultaneous var sequential var simultaneous"
        );
        assert_eq!(
            o.start_position().unwrap().phase(),
            choro_engine::Phase::Blind2
        );
        let a = o.set("opening", Some("SEQUENTIAL")).unwrap();
        assert_eq!(a, Applied::default(), "the next position startpos, not now");
        assert_eq!(o.opening, Opening::Sequential);
        assert_eq!(
            o.start_position().unwrap().phase(),
            choro_engine::Phase::Opening2
        );
        o.set("Variant", Some("adjiboto")).unwrap();
        o.set("Opening", Some("simultaneous")).unwrap();
        assert_eq!(
            o.start_position().unwrap().phase(),
            choro_engine::Phase::Main
        );
    }

    #[test]
    fn race_holds_set_the_next_start_and_check_positions() {
        let mut o = Options::default();
        let s2 = o.start_position().unwrap();
        assert_eq!(s2.race_holds(), 0);
        assert_eq!(o.holds_disagree(&s2), None);
        let before = o.clone();
        assert_eq!(
            o.set("RaceHolds", Some("9")),
            Err(OptionError::OutOfRange("RaceHolds", "9".into(), 0, 8))
        );
        assert_eq!(
            o.set("RaceHolds", Some("-1")),
            Err(OptionError::OutOfRange("RaceHolds", "-1".into(), 0, 8))
        );
        assert_eq!(o, before);
        assert_eq!(o.set("raceholds", Some("2")).unwrap(), Applied::default());
        let p = o.start_position().unwrap();
        assert_eq!(p.race_holds(), 2);
        assert!(p.to_string().contains(" a s2,holds=2 0"), "{p}");
        assert_eq!(o.holds_disagree(&p), None);
        assert!(
            o.holds_disagree(&s2).is_some(),
            "an old s2 string reads as 0 holds"
        );
        o.set("Opening", Some("sequential")).unwrap();
        assert_eq!(o.start_position().unwrap().race_holds(), 0);
    }

    #[test]
    fn columns_apply_to_didinga_only() {
        let mut o = Options::default();
        let a = o.set("Columns", Some("12")).unwrap();
        assert!(a.reset && a.note.is_none());
        assert_eq!(o.width(), 12);
        assert!(o.set("Variant", Some("lango")).unwrap().reset);
        assert_eq!(o.width(), 8);
        assert!(o.set("Columns", Some("10")).unwrap().note.is_some());
        o.set("Variant", Some("didinga")).unwrap();
        assert_eq!(o.width(), 10);
    }
}
