//! choro-fuzz: fuzzers that run on the stable toolchain, and the soak
//! harness (RELIABILITY.md).
//!
//! cargo-fuzz needs nightly; these need nothing but std. Each target
//! (`targets`) checks invariants of one input, not only the absence of a
//! panic; the driver (`driver`) feeds it the seed corpus of
//! `fuzz/corpus/<target>/`, then generated and mutated inputs from one
//! seed (`rng`, `gen`, `mutate`), so any run can be repeated exactly. The
//! binaries are `choro-fuzz` and `choro-soak`.

pub mod driver;
pub mod gen;
pub mod mutate;
pub mod rng;
pub mod targets;
