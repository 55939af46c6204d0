//! choro-match: `choro match` and `choro replay` (MATCH.md), a tournament
//! runner that plays engines against each other through the protocol and
//! is the referee of their games; and the part files of runs split with
//! `--job K/N`, which `choro match` and `choro solve` write and `choro
//! merge` reads (README.md, "Clusters"). The `choro` binary (crate
//! `choro`, directory `protocol/`) holds the command lines; this crate
//! imports nothing of it, only `choro-engine`.
//!
//! Floors, ground first. A module imports only from floors below its own,
//! never from its own floor or above (`engine/tests/floors.rs` reads this
//! list and the sources, and fails on an import that climbs or a circle of
//! modules):
//!
//! 1. `text`: text from outside made safe for one output line.
//! 2. `engine`, `openings`, `record`, `stats`, `parts`: engine processes,
//!    the handshake, deadlines on every answer; openings from a file, or
//!    random legal openings from a seed; the game record format; Elo, its
//!    interval, pentanomial counts, the SPRT; the part files of split runs.
//! 3. `referee`, `replay`: one game, kept with the engine crate, every
//!    move checked, the side to move always taken from the position; the
//!    verification of recorded games.
//! 4. `scheduler`: pairings, colour-swapped game pairs, concurrent workers,
//!    the tally and the SPRT stop.
//! 5. `output`: the live table, the final report, the JSON summary.
//! 6. `cli`: the two command lines, and the merge of a match's parts.

#![warn(missing_docs)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod cli;
pub mod engine;
pub mod openings;
mod output;
pub mod parts;
pub mod record;
pub mod referee;
pub mod replay;
pub mod scheduler;
pub mod stats;
pub mod text;

pub use cli::{match_main, replay_main, MatchArgs, ReplayArgs};
pub use scheduler::{run, MatchConfig, MatchSummary};

/// The commit the binaries were built from (`git describe`, "unknown"
/// outside a git checkout), for the provenance of part files and of
/// `choro solve`'s save files and books.
pub const COMMIT: &str = env!("CHORO_COMMIT");
