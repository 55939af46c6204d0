//! The value of a race with holds (RULES.md 8.10), proven.
//!
//! A race node's value is A's, in [-1, 1] (+1 a win for A, -1 a loss, 0 a
//! draw), an exact fraction ([`Frac`]):
//!
//! - a tick where both racers choose (A to move at stage 0, each of his
//!   two choices leaving B to choose, not seeing it): the 2x2 matrix game
//!   of its four grandchildren, rows A's drop `.` and hold `_`, columns
//!   B's; its value by the closed form (a saddle point, else
//!   `(ad - bc) / (a + d - b - c)`), a mixed value possible;
//! - a node where one player chooses (a tick only one racer may hold in,
//!   or a decision of the race, 8.5): the best of its children for him;
//! - a position without a hold left in it (the rest of the race is the
//!   lockstep race), the main phase, a drawn race: a leaf, whose sign the
//!   ordinary solver proves (`Solver::solve_cell`, df-pn or alpha-beta,
//!   sign only). Its proof is a fact of the solver's table, and of the
//!   save file with `--save`, so a resumed run proves no leaf twice; the
//!   race values are recomputed from the leaves.
//!
//! A leaf a limit kept the solver from has the range [-1, 1]; every value
//! above it is then a range too: each node's value is monotone in each of
//! its leaves, so the value of the lower ends and that of the upper ends
//! bound it. Race nodes are memoized by their position's hash and both
//! racers' lap counts (the hash leaves the lap counts out; with them, the
//! memo is exact under the lap budget).
//!
//! Pruning skips only a leaf whose value cannot change the node's: a row
//! of A's that is +1 throughout (a column of B's -1 throughout) decides a
//! 2x2 game, and so does a saddle at its first cell (`a <= b`, `a >= c`);
//! a chooser's child that gives him his best (+1 for A, -1 for B) ends his
//! choice. The first node of a cell is never pruned, so that both its
//! strategies are reported.

use super::frac::Frac;
use super::{Run, Solution, Solver};
use crate::board::Position;
use crate::types::moves::{Move, Token};
use crate::types::{Phase, Side};
use fxhash::FxHashMap;
use std::sync::atomic::Ordering::Relaxed;

/// A value for A and the range it is known to lie in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// The lower end.
    pub lo: Frac,
    /// The upper end.
    pub hi: Frac,
}

impl Range {
    /// Nothing known: [-1, 1].
    pub const OPEN: Range = Range {
        lo: Frac::MINUS_ONE,
        hi: Frac::ONE,
    };

    /// The point `v`.
    pub fn exact(v: Frac) -> Range {
        Range { lo: v, hi: v }
    }

    /// The value when the range is a point.
    pub fn value(&self) -> Option<Frac> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// How a race node is played, as far as its value needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// A leaf, or a node whose value is not exact.
    None,
    /// Both choose (a tick's 2x2 game): the probability of each racer's
    /// drop `.` (1 - it his hold `_`); pure where a saddle point decides.
    Tick {
        /// A's probability of dropping.
        a_drop: Frac,
        /// B's probability of dropping.
        b_drop: Frac,
    },
    /// One player chooses: the index of his best move, in `legal_moves`
    /// order (the first best one).
    Choose(usize),
}

/// A race node valued.
#[derive(Clone, Debug)]
struct Node {
    range: Range,
    play: Play,
    /// Leaves proven when it was valued.
    proven: u64,
}

/// One cell of a blind matrix with holds, or the race of a `solve` at a
/// race position: its value for A and how it is played at its first
/// choice and along its pure line.
#[derive(Clone, Debug)]
pub struct RaceCell {
    /// The value for A (a range while leaves are open).
    pub range: Range,
    /// The equilibrium at the cell's first node (its 2x2 game, or the
    /// chooser's move), when the value is exact.
    pub play: Play,
    /// The line both play while their equilibrium choices are pure: each
    /// tick at which a racer holds (`tick`, side), and where it ends (a
    /// mixed tick, a tick whose choices an open leaf leaves unknown, or
    /// the end of the holds).
    pub line: Vec<LineStep>,
    /// Race nodes valued for this cell (memoized ones not counted again).
    pub race_nodes: u64,
    /// Leaves first met in this cell (proven or open); those it shares
    /// with earlier cells are not counted again.
    pub leaves: u64,
    /// Solver nodes spent on this cell's leaves.
    pub nodes: u64,
}

/// A step of a cell's pure line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineStep {
    /// `side` holds in tick `tick`.
    Hold {
        /// The tick.
        tick: u32,
        /// Who holds.
        side: Side,
    },
    /// The equilibrium of tick `tick` is mixed: each racer's drop chance.
    Mixed {
        /// The tick.
        tick: u32,
        /// A's probability of dropping.
        a_drop: Frac,
        /// B's probability of dropping.
        b_drop: Frac,
    },
    /// The choices from tick `tick` on are not known: a leaf below is
    /// open (the cell's value can be exact all the same, when no outcome
    /// of the open leaves could change it).
    Open {
        /// The tick.
        tick: u32,
    },
}

/// A leaf proven (or not) by the solver.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The position (not a race node).
    pub pos: Position,
    /// What the solver proved of it (sign only).
    pub solution: Solution,
}

impl Leaf {
    /// The leaf's value for A as a range of -1, 0, +1.
    pub fn for_a(&self) -> (i8, i8) {
        let (lo, hi) = self.solution.range();
        if self.pos.side_to_move() == Side::A {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }
}

/// Whether `pos` is a node of a race with holds: in phase `r` with a hold
/// left (or held) by a racer. Every other position is a leaf.
pub fn is_race_node(pos: &Position) -> bool {
    pos.phase() == Phase::Race && pos.race_holds() > 0
}

/// The races of one solve: the memo of race nodes and the leaves, shared
/// by the cells of a blind matrix.
pub(super) struct Races<'s> {
    solver: &'s Solver,
    memo: FxHashMap<(u64, u32, u32), Node>,
    leaf_index: FxHashMap<u64, usize>,
    /// Every leaf met, in the order met.
    pub leaves: Vec<Leaf>,
    /// Race nodes valued (memo misses).
    pub race_nodes: u64,
    /// Solver nodes over every leaf.
    pub nodes: u64,
    /// Leaves proven so far.
    proven: u64,
}

fn key(pos: &Position) -> (u64, u32, u32) {
    let r = &pos.race.racers;
    (pos.hash(), r[0].laps, r[1].laps)
}

/// The 2x2 game `[[a, b], [c, d]]` (A's rows drop, hold; B's columns drop,
/// hold), for A: its value and each racer's probability of dropping.
pub fn tick_game(m: [[Frac; 2]; 2]) -> Result<(Frac, Frac, Frac), String> {
    let [[a, b], [c, d]] = m;
    // The first maximin row and the first minimax column (as `matrix`).
    let r0 = a.min(b);
    let r1 = c.min(d);
    let (row, lo) = if r1 > r0 { (1, r1) } else { (0, r0) };
    let c0 = a.max(c);
    let c1 = b.max(d);
    let (col, hi) = if c1 < c0 { (1, c1) } else { (0, c0) };
    let pure = |i: usize| if i == 0 { Frac::ONE } else { Frac::ZERO };
    if lo == hi {
        return Ok((lo, pure(row), pure(col)));
    }
    // No saddle: both mix, and the denominator is not 0.
    let den = a.checked_add(d)?.checked_sub(b)?.checked_sub(c)?;
    let v = a
        .checked_mul(d)?
        .checked_sub(b.checked_mul(c)?)?
        .checked_div(den)?;
    let p = d.checked_sub(c)?.checked_div(den)?;
    let q = d.checked_sub(b)?.checked_div(den)?;
    Ok((v, p, q))
}

impl<'s> Races<'s> {
    pub(super) fn new(solver: &'s Solver) -> Races<'s> {
        Races {
            solver,
            memo: FxHashMap::default(),
            leaf_index: FxHashMap::default(),
            leaves: Vec::new(),
            race_nodes: 0,
            nodes: 0,
            proven: 0,
        }
    }

    /// The value of `pos` (a race node or a leaf) for A, and how its
    /// first node is played and its pure line, under the run's limits.
    pub(super) fn cell(&mut self, pos: &Position, run: &mut Run) -> Result<RaceCell, String> {
        let (nodes0, race0, leaves0) = (self.nodes, self.race_nodes, self.leaves.len());
        let node = self.value(pos, run, true)?;
        let mut line = Vec::new();
        if node.range.value().is_some() {
            self.line(pos, &mut line);
        }
        Ok(RaceCell {
            range: node.range,
            play: node.play,
            line,
            race_nodes: self.race_nodes - race0,
            leaves: (self.leaves.len() - leaves0) as u64,
            nodes: self.nodes - nodes0,
        })
    }

    /// The pure line from `pos`: follow pure choices (memoized nodes) and
    /// note each hold, until a mixed tick or a leaf.
    fn line(&self, pos: &Position, out: &mut Vec<LineStep>) {
        let mut p = *pos;
        while is_race_node(&p) {
            let Some(n) = self.memo.get(&key(&p)) else {
                return;
            };
            let tick = p.race.tick;
            match &n.play {
                Play::None => {
                    out.push(LineStep::Open { tick });
                    return;
                }
                Play::Choose(k) => {
                    let moves = p.legal_moves();
                    let Some((m, c)) = moves.get(*k) else {
                        return;
                    };
                    if p.race.stage == 0 && is_hold(m) {
                        out.push(LineStep::Hold {
                            tick,
                            side: p.side_to_move(),
                        });
                    }
                    p = *c;
                }
                Play::Tick { a_drop, b_drop } => {
                    let pure = |x: &Frac| *x == Frac::ONE || *x == Frac::ZERO;
                    if !pure(a_drop) || !pure(b_drop) {
                        out.push(LineStep::Mixed {
                            tick,
                            a_drop: *a_drop,
                            b_drop: *b_drop,
                        });
                        return;
                    }
                    let ai = (*a_drop == Frac::ZERO) as usize;
                    let bi = (*b_drop == Frac::ZERO) as usize;
                    if ai == 1 {
                        out.push(LineStep::Hold {
                            tick,
                            side: Side::A,
                        });
                    }
                    if bi == 1 {
                        out.push(LineStep::Hold {
                            tick,
                            side: Side::B,
                        });
                    }
                    let Some((_, after)) = p.legal_moves().into_iter().nth(ai) else {
                        return;
                    };
                    let Some((_, c)) = after.legal_moves().into_iter().nth(bi) else {
                        return;
                    };
                    p = c;
                }
            }
        }
    }

    /// The leaf `pos` for A, proven by the solver (sign only) unless a
    /// limit or a stop came first.
    fn leaf(&mut self, pos: &Position, run: &mut Run) -> Result<Range, String> {
        if let Some(&i) = self.leaf_index.get(&pos.hash()) {
            let l = &self.leaves[i];
            if l.solution.range().0 == l.solution.range().1 {
                return Ok(range_of(l.for_a()));
            }
        }
        let out_of_time = run.limits.time.is_some_and(|t| run.start.elapsed() >= t);
        let out_of_nodes = run.limits.nodes.is_some_and(|l| run.nodes_before >= l);
        let solution = if run.stop.load(Relaxed) || out_of_time || out_of_nodes {
            Solution::unknown()
        } else {
            let s = self.solver.solve_cell(pos, run, true)?;
            run.nodes_before += s.nodes;
            self.nodes += s.nodes;
            s
        };
        let leaf = Leaf {
            pos: *pos,
            solution,
        };
        let r = range_of(leaf.for_a());
        if r.value().is_some() {
            self.proven += 1;
        }
        match self.leaf_index.get(&pos.hash()) {
            Some(&i) => self.leaves[i] = leaf,
            None => {
                self.leaf_index.insert(pos.hash(), self.leaves.len());
                self.leaves.push(leaf);
            }
        }
        Ok(r)
    }

    /// The value of `pos` for A. `top`: the first node of a cell, never
    /// pruned.
    fn value(&mut self, pos: &Position, run: &mut Run, top: bool) -> Result<Node, String> {
        if !is_race_node(pos) {
            return Ok(Node {
                range: self.leaf(pos, run)?,
                play: Play::None,
                proven: self.proven,
            });
        }
        let k = key(pos);
        if let Some(n) = self.memo.get(&k) {
            // An open node is valued again only when a leaf was proven
            // since (under a node limit, by a later cell).
            if n.range.value().is_some() || n.proven == self.proven {
                return Ok(n.clone());
            }
        }
        self.race_nodes += 1;
        let moves = pos.legal_moves();
        let both = pos.race.stage == 0
            && pos.side_to_move() == Side::A
            && moves.len() == 2
            && moves.iter().all(|(_, c)| {
                c.phase() == Phase::Race && c.side_to_move() == Side::B && c.race.stage == 0
            });
        let node = if both {
            self.tick(&moves, run, top)?
        } else {
            self.choose(pos.side_to_move(), &moves, run, top)?
        };
        self.memo.insert(k, node.clone());
        Ok(node)
    }

    /// A tick both racers choose at: the 2x2 game of the grandchildren.
    fn tick(
        &mut self,
        moves: &[(Move, Position)],
        run: &mut Run,
        top: bool,
    ) -> Result<Node, String> {
        let grand: Vec<Vec<Position>> = moves
            .iter()
            .map(|(_, b)| b.legal_moves().into_iter().map(|(_, c)| c).collect())
            .collect();
        if grand.iter().any(|r| r.len() != 2) {
            return Err("a tick's choice without two choices for each racer".into());
        }
        let mut v = [[Range::OPEN; 2]; 2];
        let exact = |r: &Range| r.value();
        v[0][0] = self.value(&grand[0][0], run, false)?.range;
        v[0][1] = self.value(&grand[0][1], run, false)?.range;
        if !top && v[0][0].lo == Frac::ONE && v[0][1].lo == Frac::ONE {
            // A's drop wins whatever B does.
            return Ok(Node {
                range: Range::exact(Frac::ONE),
                play: Play::Tick {
                    a_drop: Frac::ONE,
                    b_drop: Frac::ONE,
                },
                proven: self.proven,
            });
        }
        v[1][0] = self.value(&grand[1][0], run, false)?.range;
        if !top {
            if v[0][0].hi == Frac::MINUS_ONE && v[1][0].hi == Frac::MINUS_ONE {
                // B's drop wins whatever A does.
                return Ok(Node {
                    range: Range::exact(Frac::MINUS_ONE),
                    play: Play::Tick {
                        a_drop: Frac::ONE,
                        b_drop: Frac::ONE,
                    },
                    proven: self.proven,
                });
            }
            if let (Some(a), Some(b), Some(c)) = (exact(&v[0][0]), exact(&v[0][1]), exact(&v[1][0]))
            {
                if a <= b && a >= c {
                    // A saddle at (drop, drop), whatever the fourth cell.
                    return Ok(Node {
                        range: Range::exact(a),
                        play: Play::Tick {
                            a_drop: Frac::ONE,
                            b_drop: Frac::ONE,
                        },
                        proven: self.proven,
                    });
                }
            }
        }
        v[1][1] = self.value(&grand[1][1], run, false)?.range;
        let lo = tick_game([[v[0][0].lo, v[0][1].lo], [v[1][0].lo, v[1][1].lo]])?;
        let hi = tick_game([[v[0][0].hi, v[0][1].hi], [v[1][0].hi, v[1][1].hi]])?;
        let play = if lo.0 == hi.0 && v.iter().flatten().all(|r| r.lo == r.hi) {
            Play::Tick {
                a_drop: lo.1,
                b_drop: lo.2,
            }
        } else {
            Play::None
        };
        Ok(Node {
            range: Range { lo: lo.0, hi: hi.0 },
            play,
            proven: self.proven,
        })
    }

    /// One player chooses: his best child (A the largest value, B the
    /// smallest).
    fn choose(
        &mut self,
        me: Side,
        moves: &[(Move, Position)],
        run: &mut Run,
        top: bool,
    ) -> Result<Node, String> {
        let best_end = if me == Side::A {
            Frac::ONE
        } else {
            Frac::MINUS_ONE
        };
        let mut out: Option<(Range, usize)> = None;
        for (i, (_, c)) in moves.iter().enumerate() {
            let r = self.value(c, run, false)?.range;
            out = Some(match out {
                None => (r, i),
                Some((b, bi)) => {
                    let lo = if me == Side::A {
                        b.lo.max(r.lo)
                    } else {
                        b.lo.min(r.lo)
                    };
                    let hi = if me == Side::A {
                        b.hi.max(r.hi)
                    } else {
                        b.hi.min(r.hi)
                    };
                    let better = if me == Side::A {
                        r.lo > b.lo
                    } else {
                        r.hi < b.hi
                    };
                    (Range { lo, hi }, if better { i } else { bi })
                }
            });
            if let Some((b, _)) = out {
                if !top && b.value() == Some(best_end) {
                    break;
                }
            }
        }
        let Some((range, i)) = out else {
            return Err("a race node without a move".into());
        };
        let play = if range.value().is_some() {
            Play::Choose(i)
        } else {
            Play::None
        };
        Ok(Node {
            range,
            play,
            proven: self.proven,
        })
    }
}

fn range_of((lo, hi): (i8, i8)) -> Range {
    Range {
        lo: Frac::int(lo as i64),
        hi: Frac::int(hi as i64),
    }
}

fn is_hold(m: &Move) -> bool {
    m.len() == 1 && m.token(0) == Some(Token::Hold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blind::matrix;
    use crate::blind::BlindGame;
    use crate::solve::book::parse_cells;
    use crate::solve::exact_game;
    use crate::types::{Opening, Variant};

    fn f(n: i128, d: i128) -> Frac {
        Frac::new(n, d).unwrap()
    }

    /// A line stops where a node's choices are unknown (an open leaf
    /// below, the value exact all the same) and says so, after the holds
    /// played before it: it used to end there as if nobody held again.
    #[test]
    fn a_line_names_the_tick_from_which_it_is_open() {
        let solver = Solver::new(&crate::solve::SolveConfig {
            hash_mb: 1,
            ..Default::default()
        })
        .unwrap();
        let mut races = Races::new(&solver);
        let pos: Position =
            "lango:8 2,0,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,0,2 \
             a r 1.0 lap=ccw,hand=2,next=b,origin=a,front=0,laps=1,holds=1 \
             lap=ccw,hand=2,next=b,origin=a,front=0,laps=1,holds=1 2"
                .parse()
                .unwrap();
        assert!(is_race_node(&pos));
        let exact = range_of((1, 1));
        let node = |play| Node {
            range: exact,
            play,
            proven: 0,
        };
        // Tick 1 open: the line is open from it.
        races.memo.insert(key(&pos), node(Play::None));
        let mut line = Vec::new();
        races.line(&pos, &mut line);
        let tick = pos.race.tick;
        assert_eq!(line, vec![LineStep::Open { tick }]);
        // A holds in tick 1, B drops; the next node is open.
        races.memo.insert(
            key(&pos),
            node(Play::Tick {
                a_drop: Frac::ZERO,
                b_drop: Frac::ONE,
            }),
        );
        let (_, held) = pos.legal_moves()[1];
        let (_, next) = held.legal_moves()[0];
        assert!(is_race_node(&next), "{next}");
        races.memo.insert(key(&next), node(Play::None));
        line.clear();
        races.line(&pos, &mut line);
        assert_eq!(
            line,
            vec![
                LineStep::Hold {
                    tick,
                    side: Side::A
                },
                LineStep::Open {
                    tick: next.race.tick
                }
            ]
        );
    }

    /// The matrix game's solver takes fractional cells: its float
    /// equilibrium, read back as fractions, certifies the exact value.
    #[test]
    fn the_blind_game_of_fractional_cells_is_exact() {
        // The tick game [[1/3, -1], [-1/2, 1]] (worth -1/17, A drops 9/17,
        // B 12/17) with a third row dominated by the first.
        let a = vec![
            vec![f(1, 3), Frac::MINUS_ONE],
            vec![f(-1, 2), Frac::ONE],
            vec![f(1, 5), Frac::MINUS_ONE],
        ];
        let fl: Vec<Vec<f64>> = a
            .iter()
            .map(|r| r.iter().map(|x| x.to_f64()).collect())
            .collect();
        let eq = matrix::solve(&fl);
        let x = exact_game(&a, &eq).expect("certified");
        assert_eq!(x.value, f(-1, 17));
        assert_eq!(x.row, vec![f(9, 17), f(8, 17), Frac::ZERO]);
        assert_eq!(x.col, vec![f(12, 17), f(5, 17)]);
        // The 2x2 closed form agrees.
        let (v, p, q) = tick_game([[a[0][0], a[0][1]], [a[1][0], a[1][1]]]).unwrap();
        assert_eq!((v, p, q), (f(-1, 17), f(9, 17), f(12, 17)));
        // A strategy that is not the equilibrium does not certify.
        let wrong = matrix::Equilibrium {
            row: vec![0.5, 0.5, 0.0],
            col: vec![0.5, 0.5],
            value: 0.0,
        };
        assert!(exact_game(&a, &wrong).is_none());
    }

    /// RaceHolds 0 through the exact path: the published Acholi cells
    /// (positions/solved/acholi-sim.cells) give the published game, 0,
    /// A's l and ~k and B's a and p at 1/2 each, in fractions.
    #[test]
    fn acholi_cells_give_the_published_game_exactly() {
        let text = include_str!("../../../positions/solved/acholi-sim.cells");
        let cells = parse_cells(text).unwrap();
        let start = Position::start(Variant::Acholi, 8, Opening::Simultaneous).unwrap();
        let bg = BlindGame::of(&start).unwrap();
        let sign: FxHashMap<u64, i8> = cells
            .iter()
            .map(|(p, v)| {
                let a = if p.side_to_move() == Side::A { *v } else { -*v };
                (p.hash(), a)
            })
            .collect();
        let a: Vec<Vec<Frac>> = bg
            .cells
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| Frac::int(sign[&c.hash()] as i64))
                    .collect()
            })
            .collect();
        let fl: Vec<Vec<f64>> = a
            .iter()
            .map(|r| r.iter().map(|x| x.to_f64()).collect())
            .collect();
        let x = exact_game(&a, &matrix::solve(&fl)).expect("certified");
        assert_eq!(x.value, Frac::ZERO);
        let named = |moves: &[Move], p: &[Frac]| -> Vec<(String, Frac)> {
            moves
                .iter()
                .zip(p)
                .filter(|(_, x)| **x != Frac::ZERO)
                .map(|(m, x)| (m.to_string(), *x))
                .collect()
        };
        let half = f(1, 2);
        assert_eq!(
            named(&bg.a_starts, &x.row),
            vec![("l".to_string(), half), ("~k".to_string(), half)]
        );
        assert_eq!(
            named(&bg.b_starts, &x.col),
            vec![("a".to_string(), half), ("p".to_string(), half)]
        );
    }
}
