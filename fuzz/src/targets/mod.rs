//! The fuzz targets. Each checks invariants of one part of choro on one
//! input and says what failed; the driver feeds it.

pub mod gui;
pub mod makemove;
pub mod moves;
pub mod position;
pub mod race;
pub mod server;
pub mod solve;

use crate::rng::Rng;

pub trait Target {
    fn name(&self) -> &'static str;
    /// The folder of `fuzz/corpus/` its seed inputs come from.
    fn corpus(&self) -> &'static str {
        self.name()
    }
    /// Words the mutations insert.
    fn dict(&self) -> &'static [&'static str];
    /// Longest input the mutations make.
    fn max_len(&self) -> usize;
    /// A fresh, mostly well-formed input.
    fn generate(&mut self, rng: &mut Rng) -> Vec<u8>;
    /// An edit of `base` (`other` is another input to splice with).
    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8>;
    /// Check one input; `Err` names the invariant that failed.
    fn check(&mut self, input: &[u8]) -> Result<(), String>;
    /// Counters of what the checks saw, for the report.
    fn stats(&self) -> String;
}

pub const NAMES: [&str; 7] = [
    "server",
    "server-default",
    "position",
    "move",
    "makemove",
    "race",
    "solve",
];

/// Knobs of the server target (see [`server::ServerTarget`]).
#[derive(Clone, Debug, Default)]
pub struct ServerKnobs {
    /// [`server::ServerTarget::lenient_search`].
    pub lenient_search: bool,
    /// [`server::ServerTarget::soft`]; `None` for [`server::SOFT`].
    pub soft: Option<std::time::Duration>,
    /// The engine of the gui target; `None` for this program with
    /// `--serve-protocol` ([`gui::EngineCmd::this_program`]).
    pub engine: Option<gui::EngineCmd>,
}

/// The target called `name`, the server target with `knobs`.
pub fn by_name(name: &str, knobs: ServerKnobs) -> Option<Box<dyn Target>> {
    Some(match name {
        "server" | "server-default" => Box::new(server::ServerTarget {
            hash_mb: (name == "server").then_some(server::FUZZ_HASH_MB),
            lenient_search: knobs.lenient_search,
            soft: knobs.soft.unwrap_or(server::SOFT),
            ..Default::default()
        }),
        "position" => Box::<position::PositionTarget>::default(),
        "move" => Box::<moves::MoveTarget>::default(),
        "makemove" => Box::<makemove::MakeMoveTarget>::default(),
        "race" => Box::<race::RaceTarget>::default(),
        "solve" => Box::<solve::SolveTarget>::default(),
        "gui" => {
            let engine = knobs.engine.or_else(gui::EngineCmd::this_program)?;
            match gui::GuiTarget::new(engine) {
                Ok(t) => Box::new(t),
                Err(e) => {
                    eprintln!("gui target: {e}");
                    return None;
                }
            }
        }
        _ => return None,
    })
}
