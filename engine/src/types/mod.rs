//! The ground floor: plain value types that import nothing else of ours.
//!
//! `Variant`, `Side`, `Phase`, the loop geometry of each code, the packed
//! per-player loop of counts (`Loop`) and the `Move` with its notation.

mod adjiboto;
pub mod geometry;
pub(crate) mod moves;
pub(crate) mod packed;

pub use adjiboto::AdjHistory;

use std::fmt;
use std::str::FromStr;

/// The rule code being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Choro / Pereaüni as the Didinga play it (Driberg 1927).
    Didinga,
    /// Choro as the Lango play it (Driberg 1927).
    Lango,
    /// Choro as the Acholi play it (Driberg 1927).
    Acholi,
    /// Adjiboto (Herskovits 1929).
    Adjiboto,
}

impl Variant {
    /// Every code, in the order of the protocol's `Variant` option.
    pub const ALL: [Variant; 4] = [
        Variant::Didinga,
        Variant::Lango,
        Variant::Acholi,
        Variant::Adjiboto,
    ];

    /// The code's name, as the protocol and the position string write it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Didinga => "didinga",
            Variant::Lango => "lango",
            Variant::Acholi => "acholi",
            Variant::Adjiboto => "adjiboto",
        }
    }

    /// True for the three Choro codes (4 rows, relay sowing).
    pub fn is_choro(self) -> bool {
        self != Variant::Adjiboto
    }

    /// The board widths this code may be played on.
    pub fn widths(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Variant::Didinga => 8..=16,
            Variant::Lango | Variant::Acholi => 8..=8,
            Variant::Adjiboto => 5..=5,
        }
    }

    /// The width used when none is given.
    pub fn default_width(self) -> u8 {
        *self.widths().start()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown rule code name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected didinga, lango, acholi or adjiboto)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "didinga" | "pereauni" | "choro" => Ok(Variant::Didinga),
            "lango" => Ok(Variant::Lango),
            "acholi" => Ok(Variant::Acholi),
            "adjiboto" => Ok(Variant::Adjiboto),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// A player. `A` sits south, moves first and is UGI's `p1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first.
    A = 0,
    /// The other player.
    B = 1,
}

impl Side {
    #[inline]
    /// 0 for A, 1 for B: the index of per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
    #[inline]
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    /// `a` or `b`, as the position string writes it.
    pub fn letter(self) -> char {
        match self {
            Side::A => 'a',
            Side::B => 'b',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Where the game stands. Choro codes only; Adjiboto keeps its opening
/// bookkeeping in the position and is always `Main` here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Sequential opening: the mover opens first, then the other player opens.
    Opening2,
    /// Sequential opening: the mover is the second to open; then the main phase.
    Opening1,
    /// The main phase.
    Main,
    /// Simultaneous opening: A chooses his opening start blind.
    Blind2,
    /// Simultaneous opening: B chooses his opening start blind (A's choice
    /// is held in the position, and B's engine does not look at it).
    Blind1,
    /// Simultaneous opening: the two opening moves run in lockstep, paused
    /// at a decision of the side to move.
    Race,
    /// Simultaneous opening: a racer passed the lap budget; the game is drawn.
    RaceOver,
}

impl Phase {
    /// Its word in the protocol and the position string.
    pub fn token(self) -> &'static str {
        match self {
            Phase::Opening2 => "o2",
            Phase::Opening1 => "o1",
            Phase::Main => "m",
            Phase::Blind2 => "s2",
            Phase::Blind1 => "s1",
            Phase::Race => "r",
            Phase::RaceOver => "rx",
        }
    }
    /// The sequential opening (`o2`, `o1`).
    #[inline]
    pub fn is_opening(self) -> bool {
        matches!(self, Phase::Opening2 | Phase::Opening1)
    }
    /// The simultaneous opening, from the blind choices to a drawn race.
    #[inline]
    pub fn is_simultaneous(self) -> bool {
        matches!(
            self,
            Phase::Blind2 | Phase::Blind1 | Phase::Race | Phase::RaceOver
        )
    }
    /// A blind choice of an opening start (`s2`, `s1`).
    #[inline]
    pub fn is_blind(self) -> bool {
        matches!(self, Phase::Blind2 | Phase::Blind1)
    }
    /// The phase after a move made in this phase (sequential opening and
    /// main phase; a race move's phase depends on how the race goes on).
    #[inline]
    pub fn next(self) -> Phase {
        match self {
            Phase::Opening2 => Phase::Opening1,
            Phase::Blind2 => Phase::Blind1,
            _ => Phase::Main,
        }
    }
}

/// How a Choro game opens (RULINGS 8): the `Opening` option.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// A plays his whole opening move, then B (phases `o2`, `o1`).
    Sequential,
    /// Both choose blind, then both opening moves run in lockstep (the
    /// source's reading; the default).
    #[default]
    Simultaneous,
}

impl Opening {
    /// Its name, as the protocol's `Opening` option writes it.
    pub fn name(self) -> &'static str {
        match self {
            Opening::Sequential => "sequential",
            Opening::Simultaneous => "simultaneous",
        }
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Opening {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "sequential" => Ok(Opening::Sequential),
            "simultaneous" => Ok(Opening::Simultaneous),
            _ => Err(format!(
                "unknown opening '{}' (expected sequential or simultaneous)",
                s.chars().take(20).collect::<String>()
            )),
        }
    }
}

/// Sowing direction along the mover's loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Counter-clockwise, the normal direction: increasing loop index.
    Ccw,
    /// Clockwise (turning-base laps): decreasing loop index.
    Cw,
}
