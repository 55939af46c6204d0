//! The position: packed board, side, phase, bookkeeping, hash, and its
//! string form.

mod error;
mod fen;
mod position;
pub(crate) mod race;
pub(crate) mod zobrist;

pub use crate::types::AdjHistory;
pub use error::{PositionError, MAX_PLY, MAX_TICK};
pub use fen::{data_lines, parse_list};
pub use position::Position;
