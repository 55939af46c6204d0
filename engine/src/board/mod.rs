//! The position: packed board, side, phase, bookkeeping, hash, and its
//! string form.

mod fen;
mod position;
pub mod race;
pub(crate) mod zobrist;

pub use fen::{data_lines, parse_list, PositionError, MAX_PLY, MAX_TICK};
pub use position::{AdjHistory, Position};
