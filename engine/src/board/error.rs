//! Why a position cannot be had: the error of a position string and of
//! a start position, with the bounds of the string's numbers.

use crate::types::{Side, Variant};
use std::fmt;

/// The largest ply count a position string may give. Far above any game
/// (`DrawPlies` is at most 10^6), and low enough that the move generators
/// can count the ply of a child without overflow.
pub const MAX_PLY: u32 = 1_000_000_000;

/// The largest race tick a position string may give (the same bound as
/// the ply's). A racer's laps are capped (RULINGS 2) and a lap has at most
/// 8W drops, so a race from such a tick ends far below `u32::MAX`.
pub const MAX_TICK: u32 = MAX_PLY;

/// Why a position string was rejected. Each variant names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The string holds no field.
    Empty,
    /// An unknown rule code (field 1).
    Variant(String),
    /// A width the code does not allow: (code, width).
    Width(Variant, u8),
    /// A width that is not a number (field 1, after the colon).
    BadWidth(String),
    /// Wrong number of fields: (expected, got).
    Fields(usize, usize),
    /// Wrong number of rows: (expected, got).
    Rows(usize, usize),
    /// Row `r` (as listed, 1-based) has the wrong number of holes: (row, expected, got).
    RowLength(usize, usize, usize),
    /// A count that is not a number 0..=255: (row, hole, text).
    Count(usize, usize, String),
    /// More counters than the game has.
    TooMany(u32, u32),
    /// The side to move (field 3) is not `a` or `b`.
    Side(String),
    /// An unknown phase (field 5).
    Phase(String),
    /// An opening history (field 4) that cannot be read.
    History(String),
    /// Opening histories (field 4, clipped) whose lengths the side to move
    /// (field 3) could not follow: the players alternate.
    Turns(String, Side),
    /// Adjiboto's stores (field 6) cannot be read or do not fit the counters.
    Stores(String),
    /// The ply count (the last field) is not a number in range.
    Ply(String),
    /// Simultaneous opening fields (phase `s1` or `r`): what is wrong.
    Race(String),
    /// Words after a complete position string: (the complete string's
    /// fields, the first of the extra words, clipped).
    Trailing(usize, String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            Empty => write!(f, "empty position string"),
            Variant(s) => write!(f, "field 1: unknown variant '{s}'"),
            Width(v, w) => write!(
                f,
                "field 1: width {w} not allowed for {v} (allowed {}..={})",
                v.widths().start(),
                v.widths().end()
            ),
            BadWidth(s) => write!(f, "field 1: bad width '{s}'"),
            Fields(e, g) => write!(f, "expected {e} fields, got {g}"),
            Rows(e, g) => write!(f, "field 2: expected {e} rows, got {g}"),
            RowLength(r, e, g) => write!(f, "field 2: row {r} has {g} holes, expected {e}"),
            Count(r, h, s) => write!(f, "field 2: row {r} hole {h}: bad count '{s}'"),
            TooMany(n, max) => write!(f, "field 2: {n} counters, at most {max} allowed"),
            Side(s) => write!(f, "field 3: side must be a or b, got '{s}'"),
            Phase(s) => write!(
                f,
                "field 4: phase must be o2, o1, m, s2, s1:<start>, r or rx, got '{s}'"
            ),
            Race(s) => write!(f, "simultaneous opening: {s}"),
            History(s) => write!(f, "field 4: bad opening history '{s}'"),
            Turns(s, side) => write!(
                f,
                "field 4: opening histories '{s}' cannot have {side} to move (the players alternate)"
            ),
            Stores(s) => write!(f, "field 5: bad stores '{s}'"),
            Ply(s) => write!(f, "last field: bad ply count '{s}' (0..{MAX_PLY})"),
            Trailing(n, s) => write!(
                f,
                "trailing text '{s}' after a complete position string of {n} fields"
            ),
        }
    }
}

impl std::error::Error for PositionError {}
