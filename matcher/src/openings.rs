//! Openings: position strings read from a file, or random legal openings of
//! a few plies from the start position, reproducible from a seed.
//!
//! Opening `k` is the same for every pairing, so that all engines meet the
//! same positions; both games of a pair start from it.
//!
//! In the simultaneous opening (RULINGS 8) random plies would fix the blind
//! choices, the heart of that opening, for the engines; they are left to
//! the engines unless asked for (`race`): then random blind starts and race
//! decisions play the race to its end, and the random plies follow it.

use choro_engine::files::Bounds;
use choro_engine::rng::Rng;
use choro_engine::{Game, Opening as Mode, Phase, Position, Variant};
use std::fmt;

/// What an openings file reader takes: a position string a line.
pub(crate) const BOUNDS: Bounds = Bounds {
    line: 64 << 10,
    file: 64 << 20,
};

/// A game's start position and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub pos: Position,
    /// For the record's `Book` tag, e.g. `openings.txt:12` or
    /// `random 4 plies seed 1 #3: l a k b`.
    pub source: String,
}

/// How openings are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningPlan {
    /// Positions of a file, used in order and from the top again when used up.
    File {
        /// The file, as given.
        path: String,
        /// Each position with its line in the file.
        positions: Vec<(usize, Position)>,
    },
    /// `plies` random legal moves from the start position (0: the start).
    /// With `race`, from a start in the simultaneous opening: first random
    /// blind starts and race decisions to the end of the race, then the
    /// `plies`. Without it, a start in the simultaneous opening takes no
    /// random ply (`plies` must be 0): the engines choose blind.
    Random {
        /// Random plies after the start (or after the race).
        plies: u32,
        /// The seed of the random choices.
        seed: u64,
        /// Whether the blind starts and the race are played at random first.
        race: bool,
    },
}

/// How many random games are tried for one opening before giving up.
const RANDOM_TRIES: u32 = 1000;

/// Why openings could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// Read an openings file: one complete position string a line, comment
/// lines (beginning with `#`) and blank lines ignored
/// ([`choro_engine::board::parse_list`]). Every position must be of the match's code and
/// width, a Choro position must not be in the other opening mode's opening
/// (`o2`/`o1` in a simultaneous match, `s2`/`s1`/`r` in a sequential one;
/// main-phase positions suit both), its holds must agree with the match's
/// `race_holds` (`--race-holds`, the engines' `RaceHolds`, RULES.md 8.10:
/// at `s2`/`s1` each racer has exactly that many, in a race no racer
/// more), and a game must still be going on.
pub fn load_file(
    path: &str,
    text: &str,
    variant: Variant,
    width: u8,
    mode: Mode,
    race_holds: u8,
    draw_plies: u32,
) -> Result<OpeningPlan, OpeningError> {
    let list = choro_engine::board::parse_list(text)
        .map_err(|(n, e)| OpeningError(format!("{path}:{n}: {e}")))?;
    let mut positions = Vec::new();
    for (n, pos) in list {
        let err = |m: String| OpeningError(format!("{path}:{n}: {m}"));
        if pos.variant() != variant || pos.width() != width {
            return Err(err(format!(
                "a {}:{} position in a {variant}:{width} match",
                pos.variant(),
                pos.width()
            )));
        }
        let phase = pos.phase();
        let other = match mode {
            Mode::Simultaneous => phase.is_opening(),
            Mode::Sequential => phase.is_simultaneous(),
        };
        if variant.is_choro() && other {
            return Err(err(format!(
                "a position of phase {} in a match with the {mode} opening (--opening)",
                phase.token()
            )));
        }
        // The engines are told `RaceHolds` and would refuse the position
        // (PROTOCOL.md), and every game from it would be lost to them.
        let h = pos.race_holds();
        if (phase.is_blind() && h != race_holds) || h > race_holds {
            let who = if phase.is_blind() {
                "each racer"
            } else {
                "a racer"
            };
            return Err(err(format!(
                "the position gives {who} {h} holds but the match has {race_holds} \
                 (--race-holds; RULES.md 8.10)"
            )));
        }
        if let Some(o) = Game::new(pos).with_draw_plies(draw_plies).outcome() {
            return Err(err(format!("the game is already over here ({o})")));
        }
        positions.push((n, pos));
    }
    if positions.is_empty() {
        return Err(OpeningError(format!("{path}: no positions")));
    }
    Ok(OpeningPlan::File {
        path: path.to_string(),
        positions,
    })
}

impl OpeningPlan {
    /// Opening number `k` (0-based) from the start position `start`.
    pub(crate) fn opening(
        &self,
        k: u64,
        start: Position,
        draw_plies: u32,
    ) -> Result<Opening, OpeningError> {
        match self {
            OpeningPlan::File { path, positions } => {
                let (line, pos) = positions[(k % positions.len() as u64) as usize];
                Ok(Opening {
                    pos,
                    source: format!("{path}:{line}"),
                })
            }
            OpeningPlan::Random { plies, seed, race } => {
                random_opening(start, *plies, *race, *seed, k, draw_plies)
            }
        }
    }
}

/// In the simultaneous opening: the blind starts (`s2`, `s1`) or a race
/// decision (`r`), the plies `race` plays before the counted ones.
fn racing(phase: Phase) -> bool {
    matches!(phase, Phase::Blind2 | Phase::Blind1 | Phase::Race)
}

/// `plies` uniformly random legal moves from `start`, redrawn until the
/// game is still going on after them; with `race`, random blind starts and
/// race decisions first, until the race is over (see [`OpeningPlan`]).
/// Opening `k` of seed `seed` is always the same.
pub fn random_opening(
    start: Position,
    plies: u32,
    race: bool,
    seed: u64,
    k: u64,
    draw_plies: u32,
) -> Result<Opening, OpeningError> {
    if plies > 0 && !race && racing(start.phase()) {
        return Err(OpeningError(format!(
            "{plies} random plies from phase {} would fix the blind choices of the simultaneous \
             opening; ask for random blind choices and race decisions first (--random-blind), \
             or use 0 plies",
            start.phase().token()
        )));
    }
    let mut rng = Rng::new(seed ^ k.wrapping_mul(0xA24B_AED4_963E_E407));
    'tries: for _ in 0..RANDOM_TRIES {
        let mut game = Game::new(start).with_draw_plies(draw_plies);
        let mut moves = Vec::new();
        let mut counted = 0;
        while counted < plies || (race && racing(game.position().phase())) {
            if game.outcome().is_some() {
                continue 'tries;
            }
            if !(race && racing(game.position().phase())) {
                counted += 1;
            }
            let legal = game.position().legal_moves();
            let (m, next) = legal[rng.below(legal.len())];
            let m = game.position().restyle(m);
            moves.push(m.to_string());
            game.push(m, next);
        }
        if game.outcome().is_none() {
            let what = if race && racing(start.phase()) {
                format!("random race and {plies} plies")
            } else {
                format!("random {plies} plies")
            };
            return Ok(Opening {
                pos: *game.position(),
                source: format!(
                    "{what} seed {seed} #{}{}{}",
                    k + 1,
                    if moves.is_empty() { "" } else { ": " },
                    moves.join(" ")
                ),
            });
        }
    }
    Err(OpeningError(format!(
        "no random opening of {plies} plies from the {} start leaves a game to play \
         ({RANDOM_TRIES} tries); use fewer plies or an openings file",
        start.variant()
    )))
}
