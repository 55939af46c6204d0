//! `eval`: the static evaluation, term by term (PROTOCOL.md, "`eval`").
//!
//! EVAL HOOK: the engine's evaluation (`choro_engine::eval`, being written)
//! is not there yet, so [`terms`] lists the plain terms the position gives.
//! When it lands, [`terms`] and [`NOTE`] are the only things to change: take
//! the engine's term-by-term breakdown instead, keeping the line format.

use choro_engine::{Position, Side};

/// One term of the evaluation, for each player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub a: i64,
    pub b: i64,
}

/// Said before the terms while they are not the engine's evaluation.
pub const NOTE: Option<&str> =
    Some("eval: the engine's evaluation is not available yet; plain terms only");

/// The terms of `pos`'s evaluation.
pub fn terms(pos: &Position) -> Vec<Term> {
    let per_side = |f: &dyn Fn(Side) -> i64| (f(Side::A), f(Side::B));
    let mut v = Vec::new();
    let (a, b) = per_side(&|s| pos.material(s) as i64);
    v.push(Term {
        name: "material",
        a,
        b,
    });
    if !pos.variant().is_choro() {
        let [a, b] = pos.stores();
        v.push(Term {
            name: "store",
            a: a as i64,
            b: b as i64,
        });
    }
    let (a, b) = per_side(&|s| pos.movable_mask(s).count_ones() as i64);
    v.push(Term {
        name: "liftable",
        a,
        b,
    });
    v
}

/// The lines of `eval`, notes as `info string` lines.
pub fn lines(pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(n) = NOTE {
        out.push(format!("info string {n}"));
    }
    for t in terms(pos) {
        out.push(format!("term {} A {} B {}", t.name, t.a, t.b));
    }
    out.push(format!("side to move {}", pos.side_to_move()));
    out
}
