//! Openings: position strings read from a file, or random legal openings of
//! a few plies from the start position, reproducible from a seed.
//!
//! Opening `k` is the same for every pairing, so that all engines meet the
//! same positions; both games of a pair start from it.

use choro_engine::{Game, Position, Variant};
use std::fmt;

/// A game's start position and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
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
        path: String,
        positions: Vec<(usize, Position)>,
    },
    /// `plies` random legal moves from the start position (0: the start).
    Random { plies: u32, seed: u64 },
}

/// How many random games are tried for one opening before giving up.
const RANDOM_TRIES: u32 = 1000;

/// SplitMix64: small, fast and good enough to pick moves; the openings
/// must only be reproducible, not cryptographic.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Why openings could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// Read an openings file: one position string a line, `#` comments and
/// blank lines ignored. Every position must be of the match's code and
/// width, and a game must still be going on in it.
pub fn load_file(
    path: &str,
    text: &str,
    variant: Variant,
    width: u8,
    draw_plies: u32,
) -> Result<OpeningPlan, OpeningError> {
    let mut positions = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |m: String| OpeningError(format!("{path}:{}: {m}", i + 1));
        let pos: Position = line.parse().map_err(|e| err(format!("{e}")))?;
        if pos.variant() != variant || pos.width() != width {
            return Err(err(format!(
                "a {}:{} position in a {variant}:{width} match",
                pos.variant(),
                pos.width()
            )));
        }
        if let Some(o) = Game::new(pos).with_draw_plies(draw_plies).outcome() {
            return Err(err(format!("the game is already over here ({o})")));
        }
        positions.push((i + 1, pos));
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
    pub fn opening(
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
            OpeningPlan::Random { plies, seed } => {
                random_opening(start, *plies, *seed, k, draw_plies)
            }
        }
    }
}

/// `plies` uniformly random legal moves from `start`, redrawn until the
/// game is still going on after them. Opening `k` of seed `seed` is always
/// the same.
pub fn random_opening(
    start: Position,
    plies: u32,
    seed: u64,
    k: u64,
    draw_plies: u32,
) -> Result<Opening, OpeningError> {
    let mut rng = SplitMix::new(seed ^ k.wrapping_mul(0xA24B_AED4_963E_E407));
    'tries: for _ in 0..RANDOM_TRIES {
        let mut game = Game::new(start).with_draw_plies(draw_plies);
        let mut moves = Vec::new();
        for _ in 0..plies {
            if game.outcome().is_some() {
                continue 'tries;
            }
            let legal = game.position().legal_moves();
            let (m, next) = legal[rng.below(legal.len())];
            let m = game.position().restyle(m);
            moves.push(m.to_string());
            game.push(m, next);
        }
        if game.outcome().is_none() {
            return Ok(Opening {
                pos: *game.position(),
                source: format!(
                    "random {plies} plies seed {seed} #{}{}{}",
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
