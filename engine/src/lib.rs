//! choro-engine: rules, move generation and search for the relay-sowing
//! mancala games Choro / Pereaüni (Didinga, Lango and Acholi codes, Driberg
//! 1927) and Adjiboto (Herskovits 1929).
//!
//! Floors import only downwards: `types` (plain values) < `board` (the
//! position) < `rules` (sower, generators, outcome) < `perft`, `search` <
//! `bench` (the fixed benchmark).

pub mod bench;
pub mod board;
pub mod eval;
pub mod files;
pub mod perft;
pub mod rng;
pub mod rules;
pub mod search;
pub mod solve;
pub mod types;

pub use board::race::{Race, RaceChoice, RaceLap, Racer, RacerState};
pub use board::{AdjHistory, Position, PositionError};
pub use rules::{
    Cut, DrawReason, Game, GenStats, LapBoard, LapRecord, MoveError, MoveInfo, Outcome, RaceStep,
    LAP_BUDGET,
};
pub use types::moves::{Move, ParseMoveError, Token, MAX_TOKENS};
pub use types::{Dir, Opening, Phase, Side, Variant};
