//! Static evaluation: what a position is worth to the side to move, in
//! centi-counters (100 = one counter). Every weight lives in [`Weights`], so
//! a tuner, a protocol option or a test can change them in one place.
//!
//! The terms, for the Choro codes:
//! - material: counters on each player's own holes (captures move counters
//!   from one loop to the other and nothing else does);
//! - mobility: holes with 2 or more (only they may be lifted);
//! - counters en prise, in both directions: the counters that a lap ending on
//!   an occupied front hole would take now (both facing holes occupied;
//!   Lango: the facing front hole occupied), summed and at their biggest;
//! - the front/back distribution: counters and occupied holes in the front
//!   row, which both capture and can be captured;
//! - Lango's compulsory start capture: the biggest one the mover must make,
//!   and the biggest one the opponent will be offered next;
//!
//! and for Adjiboto: the store difference, the counters on each side, mobility,
//! and the biggest capture each player could make with one sowing.

use crate::board::Position;
use crate::types::geometry::front_mask;
use crate::types::packed::{byte_sum128, open_columns};
use crate::types::{Phase, Side, Variant};

/// A static evaluator: score of `pos` for its side to move, in centi-counters.
/// Search clamps the result well inside the win/loss range.
pub trait Evaluator: Sync {
    /// The score of `pos` for its side to move, in centi-counters.
    fn evaluate(&self, pos: &Position) -> i32;
}

/// All evaluation weights, in centi-counters per unit of each term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per counter on one's own holes (Choro).
    pub material: i32,
    /// Per hole holding 2 or more.
    pub mobility: i32,
    /// Per opponent counter en prise, summed over the capturing holes.
    pub attack_sum: i32,
    /// Per counter of the biggest capture on offer to the side to move.
    pub attack_max: i32,
    /// Per own counter en prise to the opponent, summed.
    pub threat_sum: i32,
    /// Per counter of the biggest capture on offer to the opponent.
    pub threat_max: i32,
    /// Per counter in one's own front row.
    pub front: i32,
    /// Per occupied hole in one's own front row.
    pub front_holes: i32,
    /// Lango main phase: per counter of the biggest start capture the mover must make.
    pub lango_start: i32,
    /// Lango main phase: per counter of the biggest start capture the opponent is offered.
    pub lango_start_threat: i32,
    /// For having the move.
    pub tempo: i32,
    /// Adjiboto: per counter of store difference.
    pub store: i32,
    /// Adjiboto: per counter on one's own holes.
    pub adj_board: i32,
    /// Adjiboto: per counter of the biggest capture one sowing of the mover makes.
    pub adj_capture: i32,
    /// Adjiboto: per counter of the biggest capture one sowing of the opponent would make.
    pub adj_threat: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material: 100,
            mobility: 6,
            attack_sum: 8,
            attack_max: 30,
            threat_sum: 8,
            threat_max: 25,
            front: 2,
            front_holes: 4,
            lango_start: 70,
            lango_start_threat: 30,
            tempo: 8,
            store: 100,
            adj_board: 8,
            adj_capture: 50,
            adj_threat: 30,
        }
    }
}

macro_rules! weight_names {
    ($($f:ident),*) => {
        impl Weights {
            /// Names of the weights, as `get` and `set` take them.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($f)),*];
            /// The weight called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($f) => Some(self.$f),)*
                    _ => None,
                }
            }
            /// Set the weight called `name`; false if there is none.
            pub fn set(&mut self, name: &str, v: i32) -> bool {
                match name {
                    $(stringify!($f) => { self.$f = v; true })*
                    _ => false,
                }
            }
        }
    };
}

weight_names!(
    material,
    mobility,
    attack_sum,
    attack_max,
    threat_sum,
    threat_max,
    front,
    front_holes,
    lango_start,
    lango_start_threat,
    tempo,
    store,
    adj_board,
    adj_capture,
    adj_threat
);

/// The engine's evaluator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    /// The weights of its terms.
    pub weights: Weights,
}

impl Eval {
    /// An evaluator with these weights.
    pub fn new(weights: Weights) -> Eval {
        Eval { weights }
    }
}

impl Evaluator for Eval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut s = 0;
        self.visit(pos, &mut |_, _, _, v| s += v);
        s
    }
}

/// Captures that `att` could make now by ending a lap on one of his occupied
/// front holes: (sum over those holes, biggest single one).
///
/// Every column at once (a board is at most 16 wide): byte `i` of the
/// attacker's front row (loop position `w + i`) faces the defender's front
/// hole `2w - 1 - i` (his front row with its bytes reversed) and back hole
/// `i`. No byte overflows: two holes never hold more than every counter, at
/// most 128.
pub fn en_prise(pos: &Position, att: Side) -> (u32, u32) {
    // The 8-wide boards of every code get their own copy, with the shifts
    // known.
    match pos.width() {
        8 => en_prise_w(pos, att, 8),
        w => en_prise_w(pos, att, w),
    }
}

#[inline(always)]
fn en_prise_w(pos: &Position, att: Side, w: u8) -> (u32, u32) {
    debug_assert!(w <= 16);
    let lango = pos.variant() == Variant::Lango;
    let def = &pos.loops[att.other().index()];
    let front = def.row(w, w).swap_bytes() >> (8 * (16 - w as u32));
    let back = def.row(0, w);
    open_columns(pos.loops[att.index()].row(w, w), front, back, lango)
}

/// Counters in `side`'s front row, and its occupied front holes.
fn front_row(pos: &Position, side: Side) -> (u32, u32) {
    match pos.width() {
        8 => front_row_w(pos, side, 8),
        w => front_row_w(pos, side, w),
    }
}

#[inline(always)]
fn front_row_w(pos: &Position, side: Side, w: u8) -> (u32, u32) {
    let front = front_mask(w);
    let holes = (pos.occupied_mask(side) & front).count_ones();
    let counters = byte_sum128(pos.loops[side.index()].row(w, w));
    (counters, holes)
}

/// The biggest capture `side` could make with one Adjiboto sowing of two
/// counters or more, ignoring the opening's distinct-hole rule (0 on the
/// game's first move).
///
/// Nothing is sown hole by hole: one pass of byte compares over the ring
/// finds the holes whose sowing leaves 1, 3 or 5 in the hole after its last
/// drop, and only from those is the ring sown (one addition, from the
/// generator's lap table) and the capture walked. The evaluation takes both
/// sides' from one pass.
pub fn adj_best_capture(pos: &Position, side: Side) -> u32 {
    crate::rules::adjiboto::best_captures(pos)[side.index()]
}

/// One term of the evaluation of a position: the raw feature for the side to
/// move and for the opponent, and what the term adds to the score (side to
/// move's view, centi-counters). The terms add up to [`Evaluator::evaluate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The term's name.
    pub name: &'static str,
    /// The raw feature for the side to move.
    pub mover: i32,
    /// The raw feature for the opponent.
    pub opponent: i32,
    /// What the term adds to the score (side to move's view, centi-counters).
    pub score: i32,
}

impl Eval {
    /// The evaluation of `pos`, term by term (for `eval` and tuning).
    pub fn terms(&self, pos: &Position) -> Vec<Term> {
        let mut v = Vec::new();
        self.visit(pos, &mut |name, mover, opponent, score| {
            v.push(Term {
                name,
                mover,
                opponent,
                score,
            })
        });
        v
    }

    /// Calls `f(name, mover's feature, opponent's feature, score)` for each
    /// term; `evaluate` sums the scores, `terms` lists them, so the two agree.
    #[inline(always)]
    fn visit(&self, pos: &Position, f: &mut impl FnMut(&'static str, i32, i32, i32)) {
        if pos.variant().is_choro() {
            self.choro(pos, f)
        } else {
            self.adjiboto(pos, f)
        }
    }

    #[inline(always)]
    fn choro(&self, pos: &Position, f: &mut impl FnMut(&'static str, i32, i32, i32)) {
        let w = &self.weights;
        let me = pos.side_to_move();
        let op = me.other();
        f("tempo", 1, 0, w.tempo);
        let (m, o) = (pos.material(me) as i32, pos.material(op) as i32);
        f("material", m, o, w.material * (m - o));
        let (m, o) = (
            pos.movable_mask(me).count_ones() as i32,
            pos.movable_mask(op).count_ones() as i32,
        );
        f("mobility", m, o, w.mobility * (m - o));
        let (fm, hm) = front_row(pos, me);
        let (fo, ho) = front_row(pos, op);
        f(
            "front",
            fm as i32,
            fo as i32,
            w.front * (fm as i32 - fo as i32),
        );
        f(
            "front_holes",
            hm as i32,
            ho as i32,
            w.front_holes * (hm as i32 - ho as i32),
        );
        let (att_sum, att_max) = en_prise(pos, me);
        let (thr_sum, thr_max) = en_prise(pos, op);
        let (att_sum, att_max, thr_sum, thr_max) = (
            att_sum as i32,
            att_max as i32,
            thr_sum as i32,
            thr_max as i32,
        );
        f(
            "en_prise_sum",
            att_sum,
            thr_sum,
            w.attack_sum * att_sum - w.threat_sum * thr_sum,
        );
        if pos.variant() == Variant::Lango && pos.phase() == Phase::Main {
            // The mover must start with such a capture: it is as good as made.
            f(
                "lango_start",
                att_max,
                thr_max,
                w.lango_start * att_max - w.lango_start_threat * thr_max,
            );
        } else {
            f(
                "en_prise_max",
                att_max,
                thr_max,
                w.attack_max * att_max - w.threat_max * thr_max,
            );
        }
    }

    #[inline(always)]
    fn adjiboto(&self, pos: &Position, f: &mut impl FnMut(&'static str, i32, i32, i32)) {
        let w = &self.weights;
        let me = pos.side_to_move();
        let op = me.other();
        let st = pos.stores();
        f("tempo", 1, 0, w.tempo);
        let (m, o) = (st[me.index()] as i32, st[op.index()] as i32);
        f("store", m, o, w.store * (m - o));
        let (m, o) = (pos.material(me) as i32, pos.material(op) as i32);
        f("board", m, o, w.adj_board * (m - o));
        let (m, o) = (
            pos.movable_mask(me).count_ones() as i32,
            pos.movable_mask(op).count_ones() as i32,
        );
        f("mobility", m, o, w.mobility * (m - o));
        let best = crate::rules::adjiboto::best_captures(pos);
        let (m, o) = (best[me.index()] as i32, best[op.index()] as i32);
        f("capture", m, o, w.adj_capture * m - w.adj_threat * o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::types::geometry::{adj_pos, facing, ADJ_HOLES};
    use crate::Variant;

    /// One of the children of `p` picked at random; `None` if it has none.
    fn random_child(p: &Position, rng: &mut Rng) -> Option<Position> {
        let mut kids = Vec::new();
        p.generate(crate::rules::LAP_BUDGET, |_, c, _| {
            kids.push(*c);
            true
        });
        (!kids.is_empty()).then(|| kids[rng.below(kids.len())])
    }

    /// `total` counters over `n` holes: all in a random number of holes
    /// (from one holding everything to all of them), in random places.
    fn scatter(total: usize, n: usize, rng: &mut Rng) -> Vec<u32> {
        let mut holes = vec![0u32; n];
        let spread = 1 + rng.below(n);
        for _ in 0..total {
            holes[rng.below(spread)] += 1;
        }
        for i in (1..n).rev() {
            holes.swap(i, rng.below(i + 1));
        }
        holes
    }

    /// Counts written as a position string's rows of `w` holes.
    fn rows_text(holes: &[u32], w: usize) -> String {
        let row = |r: &[u32]| {
            r.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        holes.chunks(w).map(row).collect::<Vec<_>>().join("/")
    }

    /// [`en_prise`] and [`front_row`] hole by hole, as the rules state them.
    fn plain_terms(pos: &Position, side: Side) -> [u32; 4] {
        let w = pos.width();
        let def = side.other();
        let (mut sum, mut max, mut counters, mut holes) = (0, 0, 0, 0);
        for p in w..2 * w {
            let own = pos.loop_count(side, p) as u32;
            counters += own;
            holes += u32::from(own > 0);
            let (of, ob) = facing(p, w);
            let (f, b) = (
                pos.loop_count(def, of) as u32,
                pos.loop_count(def, ob) as u32,
            );
            if own > 0 && f > 0 && (pos.variant() == Variant::Lango || b > 0) {
                sum += f + b;
                max = max.max(f + b);
            }
        }
        [sum, max, counters, holes]
    }

    /// The biggest capture `side` could make with one Adjiboto sowing, ignoring
    /// the opening's distinct-hole rule.
    fn plain_best_capture(pos: &Position, side: Side) -> u32 {
        if pos.history(Side::A).is_empty() && pos.history(Side::B).is_empty() {
            return 0;
        }
        let n = ADJ_HOLES as usize;
        let mut ring = [0u8; ADJ_HOLES as usize];
        for (i, c) in ring.iter_mut().enumerate() {
            *c = pos.loop_count(Side::A, i as u8);
        }
        let mut best = 0;
        for hole in 1..=5u8 {
            let h = adj_pos(side, hole) as usize;
            let hand = ring[h] as usize;
            if hand < 2 {
                continue;
            }
            let mut r = ring;
            r[h] = 0;
            for k in 0..n {
                r[(h + k) % n] += (hand / n + usize::from(k < hand % n)) as u8;
            }
            let last = (h + hand - 1) % n;
            let mut took = 0u32;
            for k in 1..n {
                let c = r[(last + k) % n];
                if !matches!(c, 1 | 3 | 5) {
                    break;
                }
                took += c as u32;
            }
            best = best.max(took);
        }
        best
    }

    #[test]
    fn adjiboto_capture_agrees_with_hole_by_hole() {
        // Random rings (a few holes holding nearly all of the 100 counters,
        // or many small ones) with random histories, and the positions
        // random games reach from them.
        let mut rng = Rng::new(0xad71_b070);
        let mut checked = 0;
        for _ in 0..3000 {
            let holes = scatter(rng.below(101), 10, &mut rng);
            let hist = |rng: &mut Rng| -> String {
                let n = rng.below(6);
                if n == 0 {
                    "-".into()
                } else {
                    (1..=5).take(n).map(|d: u32| d.to_string()).collect()
                }
            };
            let side = if rng.chance(1, 2) { "a" } else { "b" };
            let (ha, hb) = (hist(&mut rng), hist(&mut rng));
            let text = format!("adjiboto {} {side} {ha}/{hb} 0/0", rows_text(&holes, 5));
            let Ok(mut p) = text.parse::<Position>() else {
                continue;
            };
            for _ in 0..15 {
                for side in [Side::A, Side::B] {
                    assert_eq!(
                        adj_best_capture(&p, side),
                        plain_best_capture(&p, side),
                        "{p} {side:?}"
                    );
                    checked += 1;
                }
                match random_child(&p, &mut rng) {
                    Some(c) => p = c,
                    None => break,
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn word_wise_terms_agree_with_hole_by_hole() {
        // Random boards of every Choro code and width (counts from a few
        // holes holding nearly everything to many small ones, up to the
        // 128 counters a board holds at most), and the positions random
        // games reach from each start.
        let mut rng = Rng::new(0x5eed_e7a1);
        let mut checked = 0;
        for (code, widths) in [("didinga", 8..=16u8), ("lango", 8..=8), ("acholi", 8..=8)] {
            for w in widths {
                for _ in 0..300 {
                    let holes = scatter(rng.below(129), 4 * w as usize, &mut rng);
                    let side = if rng.chance(1, 2) { "a" } else { "b" };
                    let text = format!("{code}:{w} {} {side} m", rows_text(&holes, w as usize));
                    let Ok(pos) = text.parse::<Position>() else {
                        continue;
                    };
                    let mut game = vec![pos];
                    let mut p = pos;
                    while let Some(c) = random_child(&p, &mut rng).filter(|_| game.len() <= 20) {
                        p = c;
                        game.push(p);
                    }
                    for p in &game {
                        for side in [Side::A, Side::B] {
                            let (s, m) = en_prise(p, side);
                            let (c, h) = front_row(p, side);
                            assert_eq!([s, m, c, h], plain_terms(p, side), "{p} {side:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn terms_add_up_to_the_evaluation() {
        let e = Eval::default();
        for s in [
            "didinga:8 0,1,0,1,0,0,0,7/13,4,0,0,8,1,1,0/1,3,4,3,0,4,3,0/0,1,2,1,2,1,2,1 a m 28",
            "lango:8 1,2,3,2,7,1,0,3/0,9,6,2,1,2,3,2/0,0,0,0,0,1,1,1/2,0,5,6,2,0,1,1 b m 59",
            "adjiboto 2,1,5,3,0/0,0,0,4,2 a 12345/12345 0/0 20",
        ] {
            let p: Position = s.parse().unwrap();
            let t = e.terms(&p);
            assert!(t.len() >= 5);
            assert_eq!(
                t.iter().map(|t| t.score).sum::<i32>(),
                e.evaluate(&p),
                "{s}"
            );
        }
    }

    #[test]
    fn start_positions_are_worth_the_same_to_either_side() {
        let e = Eval::default();
        for v in Variant::ALL {
            let a = Position::startpos(v, v.default_width()).unwrap();
            let b: Position = a.to_string().replacen(" a ", " b ", 1).parse().unwrap();
            assert_eq!(b.side_to_move(), Side::B);
            assert_eq!(e.evaluate(&a), e.evaluate(&b), "{v}");
        }
        let adj = Position::startpos(Variant::Adjiboto, 5).unwrap();
        assert_eq!(e.evaluate(&adj), e.weights.tempo);
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        let e = Eval::default();
        // A has 5 counters in back-row holes, B none.
        let a: Position =
            "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,0,0,0,0,0,1 a m"
                .parse()
                .unwrap();
        let b: Position =
            "didinga:8 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,0,0,0,0,0,1 b m"
                .parse()
                .unwrap();
        assert!(e.evaluate(&a) >= 500);
        assert!(e.evaluate(&b) <= -400);
    }

    #[test]
    fn en_prise_follows_each_codes_facing_rule() {
        // A's front hole at column 0 holds 1; B's front at column 0 holds 3 and
        // B's back at column 0 is empty: Lango may take, Didinga may not.
        let s = |code: &str| -> Position {
            format!("{code}:8 0,0,0,0,0,0,0,0/3,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m")
                .parse()
                .unwrap()
        };
        assert_eq!(en_prise(&s("lango"), Side::A), (3, 3));
        assert_eq!(en_prise(&s("didinga"), Side::A), (0, 0));
        let full: Position =
            "didinga:8 4,0,0,0,0,0,0,0/3,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m"
                .parse()
                .unwrap();
        assert_eq!(en_prise(&full, Side::A), (7, 7));
        assert_eq!(en_prise(&full, Side::B), (0, 0));
    }

    #[test]
    fn adjiboto_capture_is_found() {
        // A's hole 5 (ring 4) holds 2: the last counter lands in ring 5, so
        // ring 6 onwards is taken while it holds 1, 3 or 5.
        let p: Position = "adjiboto 0,0,0,5,1/0,0,0,0,2 a 12345/12345 0/0"
            .parse()
            .unwrap();
        // North row west to east is ring 9..5: ring 6 = 5, ring 5 = 1 (+1 = 2).
        assert_eq!(adj_best_capture(&p, Side::A), 5);
    }

    #[test]
    fn weights_are_reachable_by_name() {
        let mut w = Weights::default();
        for n in Weights::NAMES {
            assert!(w.get(n).is_some(), "{n}");
            assert!(w.set(n, 7));
            assert_eq!(w.get(n), Some(7));
        }
        assert!(!w.set("nonsense", 1));
    }
}
