//! The Choro codes (Didinga, Lango, Acholi): their plain reference
//! generator, one for the three since their clauses share the lap, its end
//! and the never-ending rule (RULINGS 2), and what their fast generators
//! share with it. The fast generators, the ones `Position::generate` runs,
//! are `rules::didinga` and `rules::lango_acholi`; each is tested move for
//! move against [`reference`] (their unit tests), and `Position::generate`
//! against the drop-by-drop sower of `engine/tests/reference/`.
//!
//! Where each clause of RULINGS.md is written, in the reference and in the
//! fast generators (a new ruling goes into the reference and the fast
//! generator of its code, and nowhere else; the race of the simultaneous
//! opening, `rules::race`, has its own):
//!
//! | Clause | Reference | Didinga | Lango, Acholi |
//! |---|---|---|---|
//! | 2, which holes start | `ChoroGen::starts` | `run` | `Gen::starts` |
//! | 2, a lap | `sower::Turn::lap`, `relay` | `Env::lap` | `State::lap`, `relay`, `RelayTable` |
//! | 2, the end of a lap | `ChoroGen::run`, `branch` | `Env::laps` | `Gen::stretch`, `branch` |
//! | 2, never-ending paths | `ChoroGen::run` (Brent, budget), `decide` (repeats) | `Env::laps`, `long` | `Gen::stretch`, `decide` |
//! | 3, capturing holes | [`keys::capture_sets`], `lango::facing_front` | `Env::captures` | `State::captures` |
//! | 4, the increment | `ChoroGen::branch`, `lango_sow` | `Env::lap` | `Gen::capture_at`, `sow_capture` |
//! | 5, Lango's start capture | `ChoroGen::start_capture`, `lango::start_captures` | | `Gen::start_capture` |
//! | 5, Lango's clockwise laps | `ChoroGen::start_cw`, `branch` | | `Gen::start_cw`, `cw_decide`, `again_decide`, `again_at` |
//! | 6, Acholi's attacks | `ChoroGen::start_cw`, `branch`, `acholi::attack_holes` | | `Gen::start_cw`, `attack` |
//! | 6, Acholi's mid-move clockwise lap | `ChoroGen::branch` | | `Gen::cw_decide` |
//! | 7, decisions and paths | `ChoroGen::decide`, `with_token` | | `Gen::decide`, `enter` |

pub(crate) mod acholi;
pub(crate) mod keys;
pub(crate) mod lango;
pub(crate) mod reference;
pub(crate) mod sower;

pub(crate) use reference::ChoroGen;
