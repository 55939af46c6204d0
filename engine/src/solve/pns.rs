//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1 + epsilon
//! trick (Pawlewicz and Lew 2007), leaves' initial numbers from their
//! mobility (ends seen without a visit; `Pns::leaf`) and a bounded
//! transposition table: the solver's second proving search, which goes deep
//! where a proof is narrow.
//!
//! One search proves or disproves "the attacker can force an end he wins"
//! (the attacker is one player, fixed for the search; it moves at OR nodes,
//! the other player at AND nodes). Where the game's turns do not alternate
//! (the race's consecutive plies) a node is OR or AND by who moves in it.
//!
//! **Repetitions and graph-history interaction.** A child that is a
//! position on the current path is disproven for the attacker: a player who
//! can force a win can force it without repeating a position (RULES.md
//! 12.2), so the attacker never needs it. What is then sound:
//!
//! - **Proofs** are facts of the position alone. A proof uses only ends the
//!   attacker wins and earlier proofs, never a repetition (a repeated child
//!   is a disproof), so every proven entry stands on a finite tree of real
//!   ends. With each proof goes a depth: the attacker forces the end within
//!   that many plies (1 + the least depth of a proven child at OR nodes, 1 +
//!   the greatest at AND nodes), an upper bound on the distance, not the
//!   distance.
//! - **Disproofs** may depend on the path: a disproof that used a repetition
//!   of an ancestor at path index `j` is true only while that ancestor is on
//!   the path. Each disproof carries the least such `j` (`dep`); it is kept
//!   only in its parent's list of children, never in the table, while `j`
//!   is above the node. When the node at index `j` itself is disproven with
//!   every dependence on itself or below, the disproof is true for every
//!   path (an attacker's winning strategy from it would never come back to
//!   it, since the plies left to the win decrease along it, so it would win
//!   in the game where coming back counts as his loss, which is what the
//!   search showed he does not), and it goes into the table.
//!
//! So a stored proof is "the attacker wins", a stored disproof "the attacker
//! does not win": the root's value is a win when the side to move's search
//! proves, a loss when the other side's does, and a draw when both searches
//! disprove (neither side can force an end; RULES.md 12.2). The tests check
//! all three against the retrograde analysis (`retro`). Distances are not
//! df-pn's: the solver (`mod.rs`) finds the exact distance with the
//! alpha-beta search, started from the depth of the proof (RULES.md 12.3).
//!
//! One search runs on one thread with its own table; the solver runs the
//! two attackers' searches on two threads at once when it has them.

use super::classes::Tables;
use super::Value;
use crate::board::Position;
use crate::gametree::{children, no_move_cheap, terminal_value, Child, DRAW};
use crate::types::Side;
use fxhash::FxHashMap;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// An infinite proof or disproof number.
pub const INF: u32 = u32::MAX;
/// No dependence on the path.
const FREE: u32 = u32::MAX;
/// Proof depths at or above this are not kept (saturated).
pub(crate) const DEPTH_CAP: u32 = 0xffff;
/// Nodes between two looks at the stop flag.
const POLL: u64 = 1024;

/// What a search found of its root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker forces an end he wins within this many plies.
    Proven(u32),
    /// The attacker cannot force an end he wins, at any depth.
    Disproven,
    /// Stopped first (node budget or stop flag).
    Unknown,
}

/// One entry of the table: 24 bytes.
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// The proof's depth (proven entries).
    depth: u16,
    /// log2 of the nodes the entry's subtree cost; 0: an empty slot.
    work: u8,
    /// 1 when the attacker moves in the position.
    or: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 24);
const WAYS: usize = 4;

/// A proven or disproven position, as the table holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The position's hash.
    pub key: u64,
    /// Whether the attacker moves in it.
    pub attacker_moves: bool,
    /// `Some(depth)`: proven within `depth` plies; `None`: disproven.
    pub proof: Option<u32>,
}

/// The bounded table of one search: 4-way buckets; a new position replaces
/// the entry whose subtree cost the least, a settled (proven or disproven)
/// entry counting as twice its work.
pub struct PnTable {
    entries: Vec<Entry>,
    stored: u64,
}

impl PnTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn try_new(mb: usize) -> Result<PnTable, TryReserveError> {
        let n = (mb.saturating_mul(1 << 20) / (WAYS * std::mem::size_of::<Entry>())).max(1);
        let mut entries = Vec::new();
        entries.try_reserve_exact(n * WAYS)?;
        entries.resize(n * WAYS, Entry::default());
        Ok(PnTable { entries, stored: 0 })
    }

    /// Memory of the table, in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    fn bucket(&self, key: u64) -> usize {
        let n = self.entries.len() / WAYS;
        ((key as u128 * n as u128) >> 64) as usize * WAYS
    }

    fn probe(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| e.work != 0 && e.key == key)
    }

    fn store(&mut self, e: Entry) {
        let b = self.bucket(e.key);
        let mut victim = b;
        let mut worst = u32::MAX;
        for i in b..b + WAYS {
            let old = &self.entries[i];
            if old.work != 0 && old.key == e.key {
                victim = i;
                break;
            }
            let settled = old.pn == 0 || old.dn == 0;
            let v = if old.work == 0 {
                0
            } else {
                2 * old.work as u32 + 2 * settled as u32
            };
            if v < worst {
                worst = v;
                victim = i;
            }
        }
        if self.entries[victim].work == 0 {
            self.stored += 1;
        }
        self.entries[victim] = e;
    }

    /// Positions held.
    pub fn len(&self) -> u64 {
        self.stored
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.stored == 0
    }

    /// Every proven or disproven position the table holds.
    pub fn settled(&self) -> impl Iterator<Item = Settled> + '_ {
        self.entries
            .iter()
            .filter(|e| e.work != 0 && (e.pn == 0 || e.dn == 0))
            .map(|e| Settled {
                key: e.key,
                attacker_moves: e.or == 1,
                proof: (e.pn == 0).then_some(e.depth as u32),
            })
    }

    /// Permille of a sample of slots in use.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(4000);
        let used = self.entries[..n].iter().filter(|e| e.work != 0).count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// A child as its parent's loop sees it.
#[derive(Copy, Clone)]
struct Slot {
    child: Child,
    pn: u32,
    dn: u32,
    depth: u32,
    /// The path index a disproof depends on (`FREE`: none).
    dep: u32,
    /// Settled for the rest of the parent's loop (a repetition, or a
    /// disproof that depends on the path): the table is not read for it.
    fixed: bool,
}

/// What a node's search returns.
#[derive(Copy, Clone, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    depth: u32,
    dep: u32,
}

/// Counters of a search that other threads may read while it runs (the
/// search itself is behind a lock then), updated every `POLL` nodes.
#[derive(Debug, Default)]
pub struct Live {
    /// Nodes searched.
    pub nodes: AtomicU64,
    /// Positions its table holds.
    pub stored: AtomicU64,
    /// Positions its table can hold.
    pub capacity: u64,
}

/// One df-pn search: an attacker, a table, counters.
pub struct Pns {
    attacker: Side,
    table: PnTable,
    /// Positions on the current path, with their path index.
    path: FxHashMap<u64, u32>,
    slots: Vec<Vec<Slot>>,
    hashes: Vec<u64>,
    buf: Vec<Child>,
    nodes: u64,
    budget: u64,
    polled: u64,
    aborted: bool,
    /// 1 + epsilon as a fraction (numerator, denominator): the threshold of
    /// the best child is the second best's number times it.
    eps: (u64, u64),
    live: Arc<Live>,
    /// Adjiboto's retrograde tables, read for every leaf they hold.
    tables: Option<Arc<Tables>>,
}

/// `a + b` in proof numbers: INF stays INF, finite sums stop below it.
#[inline]
fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

impl Pns {
    /// A search for `attacker` with a table of `mb` MiB.
    pub fn new(attacker: Side, mb: usize) -> Result<Pns, String> {
        let table = PnTable::try_new(mb)
            .map_err(|_| format!("cannot reserve a proof-number table of {mb} MiB"))?;
        let live = Arc::new(Live {
            capacity: table.entries.len() as u64,
            ..Live::default()
        });
        Ok(Pns {
            live,
            attacker,
            table,
            path: FxHashMap::default(),
            slots: Vec::new(),
            hashes: Vec::new(),
            buf: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
            polled: 0,
            aborted: false,
            eps: (5, 4),
            tables: None,
        })
    }

    /// Settle every leaf that Adjiboto's retrograde tables hold by their
    /// value (`solve::classes`): a proof of the depth of its distance, or a
    /// disproof that depends on no path (the table's draws and losses are
    /// the position's values, cycles included).
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> Pns {
        self.tables = tables;
        self
    }

    /// The side this search tries to prove a win for.
    pub fn attacker(&self) -> Side {
        self.attacker
    }

    /// Its counters, readable without the search.
    pub fn live(&self) -> Arc<Live> {
        self.live.clone()
    }

    /// Nodes searched (every call of the search on a position), all runs.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The search's table of proof and disproof numbers.
    pub fn table(&self) -> &PnTable {
        &self.table
    }

    /// What the table knows of `pos`.
    pub fn known(&self, pos: &Position) -> Outcome {
        match self.table.probe(pos.hash()) {
            Some(e) if e.pn == 0 => Outcome::Proven(e.depth as u32),
            Some(e) if e.dn == 0 => Outcome::Disproven,
            _ => Outcome::Unknown,
        }
    }

    /// Search `root` until it is proven or disproven, `more` nodes were
    /// searched, or `stop` is set. The table keeps its work: calling again
    /// with a larger budget goes on from there.
    pub fn prove(&mut self, root: &Position, more: u64, stop: &AtomicBool) -> Outcome {
        let known = self.known(root);
        if known != Outcome::Unknown {
            return known;
        }
        self.budget = self.nodes.saturating_add(more);
        self.aborted = false;
        self.path.clear();
        self.path.insert(root.hash(), 0);
        let r = self.mid(root, INF, INF, 0, stop);
        self.path.clear();
        self.live.nodes.store(self.nodes, Relaxed);
        self.live.stored.store(self.table.stored, Relaxed);
        if r.pn == 0 {
            Outcome::Proven(r.depth)
        } else if r.dn == 0 && !self.aborted {
            Outcome::Disproven
        } else {
            Outcome::Unknown
        }
    }

    fn count_node(&mut self, stop: &AtomicBool) {
        self.nodes += 1;
        if self.nodes - self.polled >= POLL {
            self.polled = self.nodes;
            self.live.nodes.store(self.nodes, Relaxed);
            self.live.stored.store(self.table.stored, Relaxed);
            if stop.load(Relaxed) {
                self.aborted = true;
            }
        }
        if self.nodes >= self.budget {
            self.aborted = true;
        }
    }

    /// The threshold of the best child: min(`th`, max(`second` + 1,
    /// `second` * (1 + epsilon))).
    fn widen(&self, second: u32, th: u32) -> u32 {
        if second == INF {
            return th;
        }
        let (num, den) = self.eps;
        let w = (second as u64 * num).div_ceil(den).max(second as u64 + 1);
        w.min(th as u64) as u32
    }

    /// The multiple-iterative-deepening search of one node (Nagai's MID)
    /// within the thresholds; `idx` is its index on the path.
    fn mid(&mut self, pos: &Position, thpn: u32, thdn: u32, idx: u32, stop: &AtomicBool) -> Res {
        self.count_node(stop);
        let or = pos.side_to_move() == self.attacker;
        let nodes_before = self.nodes;
        let mut buf = std::mem::take(&mut self.buf);
        children(pos, &mut buf, &mut self.hashes);
        if buf.is_empty() {
            self.buf = buf;
            // An end: the side to move lost, or a draw.
            let attacker_won = !or && terminal_value(pos, 0) != DRAW;
            let r = if attacker_won {
                Res {
                    pn: 0,
                    dn: INF,
                    depth: 0,
                    dep: FREE,
                }
            } else {
                Res {
                    pn: INF,
                    dn: 0,
                    depth: 0,
                    dep: FREE,
                }
            };
            self.record(pos, or, &r, nodes_before);
            return r;
        }
        let i = idx as usize;
        if self.slots.len() <= i {
            self.slots.resize_with(i + 1, Vec::new);
        }
        let mut slots = std::mem::take(&mut self.slots[i]);
        slots.clear();
        for c in buf.iter() {
            let h = c.pos.hash();
            let mut s = self.leaf(c);
            if let Some(&j) = self.path.get(&h) {
                // A repetition: never needed by the attacker.
                s.pn = INF;
                s.dn = 0;
                s.dep = j;
                s.fixed = true;
            }
            slots.push(s);
        }
        self.buf = buf;
        let mut r;
        loop {
            // Refresh the children from the table and sum them up.
            let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
            let mut best = usize::MAX;
            let (mut best_n, mut second) = (INF, INF);
            for (k, s) in slots.iter_mut().enumerate() {
                if !s.fixed {
                    if let Some(e) = self.table.probe(s.child.pos.hash()) {
                        s.pn = e.pn;
                        s.dn = e.dn;
                        s.depth = e.depth as u32;
                        s.dep = FREE;
                    }
                }
                // The number the node's player minimizes over its children.
                let n = if or { s.pn } else { s.dn };
                if or {
                    pn = pn.min(s.pn);
                    dn = add(dn, s.dn);
                } else {
                    pn = add(pn, s.pn);
                    dn = dn.min(s.dn);
                }
                if n < best_n || best == usize::MAX {
                    second = best_n;
                    best_n = n;
                    best = k;
                } else if n < second {
                    second = n;
                }
            }
            r = Res {
                pn,
                dn,
                depth: 0,
                dep: FREE,
            };
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.aborted {
                break;
            }
            let c = slots[best];
            let (cpn, cdn) = if or {
                let t_pn = self.widen(second, thpn);
                let t_dn = (thdn as u64 - dn as u64 + c.dn as u64).min(INF as u64) as u32;
                (t_pn, t_dn)
            } else {
                let t_dn = self.widen(second, thdn);
                let t_pn = (thpn as u64 - pn as u64 + c.pn as u64).min(INF as u64) as u32;
                (t_pn, t_dn)
            };
            let h = c.child.pos.hash();
            self.path.insert(h, idx + 1);
            let cr = self.mid(&c.child.pos, cpn, cdn, idx + 1, stop);
            self.path.remove(&h);
            let s = &mut slots[best];
            s.pn = cr.pn;
            s.dn = cr.dn;
            s.depth = cr.depth;
            s.dep = cr.dep;
            s.fixed = cr.dn == 0 && cr.dep != FREE;
            if self.aborted {
                return r;
            }
        }
        if r.pn == 0 {
            // Proven: the depth of the fastest proven child at an OR node,
            // of the slowest child at an AND node.
            let d = slots.iter().filter(|s| s.pn == 0).map(|s| s.depth).fold(
                if or { u32::MAX } else { 0 },
                |a, d| {
                    if or {
                        a.min(d)
                    } else {
                        a.max(d)
                    }
                },
            );
            r.depth = (d + 1).min(DEPTH_CAP);
        } else if r.dn == 0 {
            // Disproven: every child at an OR node, so it depends on the
            // highest path entry any of them does; at an AND node on the
            // disproven child that depends the least.
            let dep = slots.iter().filter(|s| s.dn == 0).map(|s| s.dep).fold(
                if or { FREE } else { 0 },
                |a, d| {
                    if or {
                        a.min(d)
                    } else {
                        a.max(d)
                    }
                },
            );
            r.dep = if dep >= idx { FREE } else { dep };
        }
        self.slots[i] = slots;
        if !self.aborted {
            self.record(pos, or, &r, nodes_before);
        }
        r
    }

    /// A child's slot before any search of it (df-pn with initial numbers,
    /// as df-pn+ and Winands' PN search initialize their leaves):
    ///
    /// - an end known without generating (no hole to move from,
    ///   `no_move_cheap`) is settled at once and never visited;
    /// - otherwise the number of holes its mover can sow from stands for
    ///   its moves: a child where the attacker moves needs every one of
    ///   them disproven (its disproof number), one where the defender moves
    ///   every one of them proven (its proof number); the race's decisions
    ///   have no such count (1 and 1).
    ///
    /// They only order the search: a proof or disproof still rests on ends
    /// and repetitions alone.
    fn leaf(&self, c: &Child) -> Slot {
        let mut s = Slot {
            child: *c,
            pn: 1,
            dn: 1,
            depth: 0,
            dep: FREE,
            fixed: false,
        };
        let mover = c.pos.side_to_move();
        let attacker_moves = mover == self.attacker;
        if no_move_cheap(&c.pos) {
            // The mover has lost, or a draw: settled for the whole loop.
            if !attacker_moves && terminal_value(&c.pos, 0) != DRAW {
                (s.pn, s.dn) = (0, INF);
            } else {
                (s.pn, s.dn) = (INF, 0);
            }
            s.fixed = true;
            return s;
        }
        if c.pos.phase().is_simultaneous() {
            return s;
        }
        if let Some(v) = self.tables.as_ref().and_then(|t| t.value(&c.pos)) {
            let won = match v {
                Value::Win(d) => attacker_moves.then_some(d),
                Value::Loss(d) => (!attacker_moves).then_some(d),
                Value::Draw => None,
            };
            (s.pn, s.dn, s.depth) = match won {
                Some(d) => (0, INF, d),
                None => (INF, 0, 0),
            };
            s.fixed = true;
            return s;
        }
        let k = c.pos.movable_mask(mover).count_ones().max(1);
        if attacker_moves {
            s.dn = k;
        } else {
            s.pn = k;
        }
        s
    }

    /// Store a node's numbers, unless it is a disproof that depends on the
    /// path (those live only in the parent's loop).
    fn record(&mut self, pos: &Position, or: bool, r: &Res, nodes_before: u64) {
        if r.dn == 0 && r.dep != FREE {
            return;
        }
        let spent = self.nodes - nodes_before + 1;
        self.table.store(Entry {
            key: pos.hash(),
            pn: r.pn,
            dn: r.dn,
            depth: r.depth.min(DEPTH_CAP) as u16,
            work: (64 - spent.leading_zeros()).min(255) as u8,
            or: or as u8,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::retro::Graph;
    use crate::solve::Value;

    fn outcome(pos: &Position, attacker: Side) -> Outcome {
        let mut p = Pns::new(attacker, 1).unwrap();
        p.prove(pos, u64::MAX, &AtomicBool::new(false))
    }

    #[test]
    fn proofs_and_disproofs_match_the_retrograde_value() {
        let pos: Position =
            "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m"
                .parse()
                .unwrap();
        let g = Graph::analyse(&pos, 1 << 20, &AtomicBool::new(false)).unwrap();
        let me = pos.side_to_move();
        let (mine, theirs) = (outcome(&pos, me), outcome(&pos, me.other()));
        match g.root_value() {
            Value::Win(n) => {
                assert!(matches!(mine, Outcome::Proven(d) if d >= n), "{mine:?} {n}");
                assert_eq!(theirs, Outcome::Disproven);
            }
            Value::Loss(n) => {
                assert!(
                    matches!(theirs, Outcome::Proven(d) if d >= n),
                    "{theirs:?} {n}"
                );
                assert_eq!(mine, Outcome::Disproven);
            }
            Value::Draw => {
                assert_eq!((mine, theirs), (Outcome::Disproven, Outcome::Disproven));
            }
        }
    }

    #[test]
    fn a_budget_stops_the_search_and_a_larger_one_goes_on() {
        let pos: Position =
            "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m"
                .parse()
                .unwrap();
        let mut p = Pns::new(pos.side_to_move(), 1).unwrap();
        let stop = AtomicBool::new(false);
        assert_eq!(p.prove(&pos, 3, &stop), Outcome::Unknown);
        assert_eq!(p.nodes(), 3);
        let done = p.prove(&pos, u64::MAX, &stop);
        assert_ne!(done, Outcome::Unknown);
    }
}
