//! The ground floor: plain value types that import nothing else of ours.
//!
//! `Variant`, `Side`, `Phase`, the loop geometry of each code, the packed
//! per-player loop of counts (`Loop`) and the `Move` with its notation.

pub mod geometry;
pub mod moves;
pub mod packed;

use std::fmt;
use std::str::FromStr;

/// The rule code being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Didinga,
    Lango,
    Acholi,
    Adjiboto,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Didinga,
        Variant::Lango,
        Variant::Acholi,
        Variant::Adjiboto,
    ];

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
    A = 0,
    B = 1,
}

impl Side {
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
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
}

impl Phase {
    pub fn token(self) -> &'static str {
        match self {
            Phase::Opening2 => "o2",
            Phase::Opening1 => "o1",
            Phase::Main => "m",
        }
    }
    #[inline]
    pub fn is_opening(self) -> bool {
        self != Phase::Main
    }
    /// The phase after a move made in this phase.
    #[inline]
    pub fn next(self) -> Phase {
        match self {
            Phase::Opening2 => Phase::Opening1,
            Phase::Opening1 | Phase::Main => Phase::Main,
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
