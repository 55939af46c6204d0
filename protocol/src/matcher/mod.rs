//! `choro match` and `choro replay` (MATCH.md): a tournament runner that
//! plays engines against each other through the protocol, and is the
//! referee of their games.
//!
//! - `engine`: engine processes, the handshake, deadlines on every answer;
//! - `referee`: one game, kept with the engine crate, every move checked,
//!   the side to move always taken from the position;
//! - `openings`: openings from a file, or random legal openings from a seed;
//! - `scheduler`: pairings, colour-swapped game pairs, concurrent workers,
//!   the tally and the SPRT stop;
//! - `stats`: Elo, its interval, pentanomial counts, the SPRT;
//! - `record`, `replay`: the game record format and its verification;
//! - `output`: the live table, the final report, the JSON summary;
//! - `cli`: the two command lines.

pub mod cli;
pub mod engine;
pub mod openings;
pub mod output;
pub mod record;
pub mod referee;
pub mod replay;
pub mod scheduler;
pub mod stats;

pub use cli::{match_main, replay_main, MatchArgs, ReplayArgs};
pub use scheduler::{run, MatchConfig, MatchSummary};
