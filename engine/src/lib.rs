//! choro-engine: rules, move generation and search for the relay-sowing
//! mancala games Choro / Pereaüni (Didinga, Lango and Acholi codes, Driberg
//! 1927) and Adjiboto (Herskovits 1929).
//!
//! The public face: [`Variant`], [`Position`] (parse, generate, play),
//! [`Move`], [`Game`] (a game with its draw rules), [`Searcher`] (what
//! `go` runs), [`solve::Solver`] and [`solve::book`]. A game played to its
//! end:
//!
//! ```
//! use choro_engine::{Game, Outcome, Position, Variant};
//!
//! let mut game = Game::new(Position::startpos(Variant::Adjiboto, 5).unwrap());
//! while game.outcome().is_none() {
//!     // The first legal move, whatever it is.
//!     let (mv, _) = game.position().legal_moves()[0];
//!     game.play(&mv).unwrap();
//! }
//! assert!(matches!(game.outcome(), Some(Outcome::Win { .. } | Outcome::Draw(_))));
//! assert_eq!(game.moves().len(), game.position().ply() as usize);
//! ```
//!
//! Floors, ground first. A module imports only from floors below its own,
//! never from its own floor or above (`tests/floors.rs` reads this list and
//! the sources, and fails on an import that climbs or a circle of modules):
//!
//! 1. `rng`, `files`, `threads`: the seedable generators; files read with
//!    bounds and written whole or not at all; threads that are always
//!    joined.
//! 2. `types`: plain values (sides, variants, loop geometry, the packed
//!    board, `Move`).
//! 3. `board`: the position, its string form and hash.
//! 4. `rules`: the sowers, one generator per rule code, the outcome.
//! 5. `perft`, `eval`, `gametree`, `blind`: perft's walk; the evaluation;
//!    the game tree every searcher and the solver walk (children, terminal
//!    values, the score scale); the blind opening's matrix game.
//! 6. `search`, `solve`: the searchers (alpha-beta, MCTS, baselines) and
//!    the exact solver with its book, side by side.
//! 7. `go`: what `go` runs, the book, the solver's share, then a searcher.
//! 8. `bench`: the fixed benchmark.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod bench;
pub mod blind;
pub mod board;
pub mod eval;
pub mod files;
pub mod gametree;
pub mod go;
pub mod perft;
pub mod rng;
pub mod rules;
pub mod search;
pub mod solve;
pub mod threads;
pub mod types;

pub use board::race::{Race, RaceChoice, RaceLap, Racer, RacerState, MAX_HOLDS};
pub use board::{AdjHistory, Position, PositionError};
pub use go::Searcher;
pub use rules::{
    Cut, DrawReason, Game, GenStats, LapBoard, LapRecord, MoveError, MoveInfo, Outcome, RaceStep,
    LAP_BUDGET,
};
pub use types::moves::{Move, ParseMoveError, Token, MAX_TOKENS};
pub use types::{Dir, Opening, Phase, Side, Variant};
