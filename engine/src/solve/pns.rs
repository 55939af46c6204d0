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
//! **Threads.** One search may run on several threads (`Pns::with_threads`):
//! every worker searches from the root with its own path and its own loops,
//! and they share the search's table, whose entries are written and read
//! whole or not at all (each entry's key is stored XORed with its data, so
//! a torn entry reads as a miss). What one worker settles the others read
//! at their next look at the table, and a proof or a path-free disproof is
//! a fact whichever worker found it, so the argument above holds worker by
//! worker. To spread them, a worker that enters a position marks it busy,
//! and a worker choosing among its children sees a busy child's number
//! increased by the workers in it or below it (the virtual proof and
//! disproof numbers of Kaneko's parallel df-pn, AAAI 2010), unless the
//! child so chosen could not be searched within its thresholds. The search ends when
//! one worker settles the root. One worker searches exactly as the
//! one-thread search did: same nodes, same table.
//!
//! The solver runs the two attackers' searches at once when it has two
//! threads or more, each on half of them; when one is disproven first, the
//! other goes on with every thread.

use super::classes::Tables;
use super::Value;
use crate::board::Position;
use crate::gametree::{children, no_move_cheap, terminal_value, Child, DRAW};
use crate::types::Side;
use fxhash::FxHashMap;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// An infinite proof or disproof number.
pub const INF: u32 = u32::MAX;
/// No dependence on the path.
const FREE: u32 = u32::MAX;
/// Proof depths at or above this are not kept (saturated).
pub(crate) const DEPTH_CAP: u32 = 0xffff;
/// Nodes between two looks at the stop flag.
const POLL: u64 = 1024;
/// Slots of the busy marks of a search on several threads (2 MiB).
const BUSY_SLOTS: usize = 1 << 20;

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

/// One entry of the table, as read.
#[derive(Copy, Clone, Default)]
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

impl Entry {
    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// One slot of the table: 24 bytes, three words written and read one by
/// one. The first is the key XOR the other two, so an entry torn by a
/// write of another thread reads as another key (a miss); an empty slot is
/// all zeros.
#[derive(Default)]
#[repr(C)]
struct Cell {
    check: AtomicU64,
    numbers: AtomicU64,
    meta: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Cell>() == 24);
const WAYS: usize = 4;

impl Cell {
    /// The three words, as loaded one by one.
    #[inline]
    fn words(&self) -> (u64, u64, u64) {
        (
            self.check.load(Relaxed),
            self.numbers.load(Relaxed),
            self.meta.load(Relaxed),
        )
    }

    #[inline]
    fn decode((c, n, m): (u64, u64, u64)) -> Entry {
        Entry {
            key: c ^ n ^ m,
            pn: n as u32,
            dn: (n >> 32) as u32,
            depth: m as u16,
            work: (m >> 16) as u8,
            or: (m >> 24) as u8,
        }
    }

    fn read(&self) -> Entry {
        Cell::decode(self.words())
    }

    fn write(&self, e: &Entry) {
        let n = e.pn as u64 | (e.dn as u64) << 32;
        let m = e.depth as u64 | (e.work as u64) << 16 | (e.or as u64) << 24;
        self.check.store(e.key ^ n ^ m, Relaxed);
        self.numbers.store(n, Relaxed);
        self.meta.store(m, Relaxed);
    }
}

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

/// The bounded table of one search, shared by its threads: 4-way buckets;
/// a new position replaces the entry whose subtree cost the least, a
/// settled (proven or disproven) entry counting as twice its work, and a
/// settled entry is never replaced by unsettled numbers of its own
/// position (a worker that was inside it when another settled it), nor a
/// proof by a proof of its position no shorter.
pub struct PnTable {
    cells: Vec<Cell>,
    stored: AtomicU64,
}

impl PnTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn try_new(mb: usize) -> Result<PnTable, TryReserveError> {
        let n = (mb.saturating_mul(1 << 20) / (WAYS * std::mem::size_of::<Cell>())).max(1);
        let mut cells = Vec::new();
        cells.try_reserve_exact(n * WAYS)?;
        cells.resize_with(n * WAYS, Cell::default);
        Ok(PnTable {
            cells,
            stored: AtomicU64::new(0),
        })
    }

    /// Memory of the table, in bytes.
    pub fn bytes(&self) -> usize {
        self.cells.len() * std::mem::size_of::<Cell>()
    }

    fn bucket(&self, key: u64) -> usize {
        let n = self.cells.len() / WAYS;
        ((key as u128 * n as u128) >> 64) as usize * WAYS
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.cells[b..b + WAYS]
            .iter()
            .map(|c| c.words())
            .find(|&(c, n, m)| c ^ n ^ m == key && (m >> 16) as u8 != 0)
            .map(Cell::decode)
    }

    /// Store `e`; true when it took an empty slot.
    fn store(&self, e: Entry) -> bool {
        let b = self.bucket(e.key);
        let mut victim = b;
        let mut worst = u32::MAX;
        let mut empty = false;
        for i in b..b + WAYS {
            let old = self.cells[i].read();
            if old.work != 0 && old.key == e.key {
                // Kept: a settled entry against numbers of a worker that was
                // inside the position when another settled it, and a proof
                // against a slower proof of another worker.
                if old.settled() && !e.settled() || old.pn == 0 && e.pn == 0 && old.depth <= e.depth
                {
                    return false;
                }
                victim = i;
                empty = false;
                break;
            }
            let v = if old.work == 0 {
                0
            } else {
                2 * old.work as u32 + 2 * old.settled() as u32
            };
            if v < worst {
                worst = v;
                victim = i;
                empty = old.work == 0;
            }
        }
        self.cells[victim].write(&e);
        empty
    }

    /// Positions held.
    pub fn len(&self) -> u64 {
        self.stored.load(Relaxed)
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every proven or disproven position the table holds.
    pub fn settled(&self) -> impl Iterator<Item = Settled> + '_ {
        self.cells
            .iter()
            .map(Cell::read)
            .filter(|e| e.work != 0 && e.settled())
            .map(|e| Settled {
                key: e.key,
                attacker_moves: e.or == 1,
                proof: (e.pn == 0).then_some(e.depth as u32),
            })
    }

    /// Permille of a sample of slots in use.
    pub fn hashfull(&self) -> u32 {
        let n = self.cells.len().min(4000);
        let used = self.cells[..n]
            .iter()
            .filter(|c| c.read().work != 0)
            .count();
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

/// One df-pn search: an attacker, a table, counters, and the state of its
/// first worker (kept from one call to the next).
pub struct Pns {
    attacker: Side,
    table: PnTable,
    first: Worker,
    threads: usize,
    /// Workers that searched a node in the last call (a helper may fail to
    /// start).
    ran: usize,
    /// The busy marks, with more than one thread: how many workers are in
    /// the positions whose hashes fall in each slot.
    busy: Vec<AtomicU16>,
    nodes: u64,
    /// 1 + epsilon as a fraction (numerator, denominator): the threshold of
    /// the best child is the second best's number times it.
    eps: (u64, u64),
    live: Arc<Live>,
    /// Adjiboto's retrograde tables, read for every leaf they hold.
    tables: Option<Arc<Tables>>,
}

/// What the workers of one call share.
struct Ctx<'a> {
    attacker: Side,
    table: &'a PnTable,
    eps: (u64, u64),
    tables: Option<&'a Tables>,
    /// The busy marks (none with one worker).
    busy: Option<&'a [AtomicU16]>,
    /// Nodes of this call, all workers, as each last added its own.
    total: AtomicU64,
    /// Nodes this call may search.
    budget: u64,
    stop: &'a AtomicBool,
    /// The caller's second stop (`prove_or_leave`).
    leave: &'a AtomicBool,
    /// Set when a worker has settled the root.
    done: AtomicBool,
    live: &'a Live,
    /// `live.nodes` before the call.
    base: u64,
}

impl Ctx<'_> {
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

    fn busy_slot(busy: &[AtomicU16], key: u64) -> &AtomicU16 {
        &busy[(key >> 44) as usize & (BUSY_SLOTS - 1)]
    }
}

/// The state of one worker: its path and the loops on it.
#[derive(Default)]
struct Worker {
    /// Positions on the current path, with their path index.
    path: FxHashMap<u64, u32>,
    slots: Vec<Vec<Slot>>,
    hashes: Vec<u64>,
    buf: Vec<Child>,
    /// Nodes of this call, and how many of them are in `Ctx::total`.
    nodes: u64,
    flushed: u64,
    /// `Ctx::total` when this worker last added to it.
    seen: u64,
    /// Slots this worker filled and has not yet counted in the table.
    filled: u64,
    aborted: bool,
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

/// A number as a worker sees it when `k` workers are in the child or below
/// it: Kaneko's virtual proof and disproof numbers, the number plus the
/// workers, as the increase those workers may bring. (Tried on the set of
/// `examples/pns_threads.rs`, 2 threads: multiplying by `k + 1` instead
/// gave 0.7 to 1.4 times one thread's speed, the sum 1.4 to 1.9; no virtual
/// numbers at all 0.5 to 0.8.)
#[inline]
fn virtual_number(n: u32, k: u16) -> u32 {
    if n == INF {
        n
    } else {
        (n as u64 + k as u64).min(INF as u64 - 1) as u32
    }
}

impl Pns {
    /// A search for `attacker` with a table of `mb` MiB, on one thread.
    pub fn new(attacker: Side, mb: usize) -> Result<Pns, String> {
        let table = PnTable::try_new(mb)
            .map_err(|_| format!("cannot reserve a proof-number table of {mb} MiB"))?;
        let live = Arc::new(Live {
            capacity: table.cells.len() as u64,
            ..Live::default()
        });
        Ok(Pns {
            live,
            attacker,
            table,
            first: Worker::default(),
            threads: 1,
            ran: 0,
            busy: Vec::new(),
            nodes: 0,
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

    /// Search on `threads` threads (at least one): the calling thread and
    /// `threads - 1` started for each call, all on the one table.
    pub fn with_threads(mut self, threads: usize) -> Pns {
        self.set_threads(threads);
        self
    }

    /// Search on `threads` threads from the next call on.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        if self.threads > 1 && self.busy.is_empty() {
            self.busy = (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect();
        }
    }

    /// The side this search tries to prove a win for.
    pub fn attacker(&self) -> Side {
        self.attacker
    }

    /// Its counters, readable without the search.
    pub fn live(&self) -> Arc<Live> {
        self.live.clone()
    }

    /// Nodes searched (every call of the search on a position, by any of
    /// its threads), all runs.
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
    /// searched (by all threads together), or `stop` is set. The table
    /// keeps its work: calling again with a larger budget goes on from
    /// there.
    pub fn prove(&mut self, root: &Position, more: u64, stop: &AtomicBool) -> Outcome {
        self.prove_or_leave(root, more, stop, &AtomicBool::new(false))
    }

    /// `prove`, also ended (as by `stop`) when `leave` is set: the solver
    /// sets it to give this search more threads and call it again.
    pub fn prove_or_leave(
        &mut self,
        root: &Position,
        more: u64,
        stop: &AtomicBool,
        leave: &AtomicBool,
    ) -> Outcome {
        let known = self.known(root);
        if known != Outcome::Unknown {
            return known;
        }
        let ctx = Ctx {
            attacker: self.attacker,
            table: &self.table,
            eps: self.eps,
            tables: self.tables.as_deref(),
            busy: (self.threads > 1).then_some(&self.busy[..]),
            total: AtomicU64::new(0),
            budget: more,
            stop,
            leave,
            done: AtomicBool::new(false),
            live: &self.live,
            base: self.nodes,
        };
        let first = &mut self.first;
        let mut results = Vec::with_capacity(self.threads);
        if self.threads == 1 {
            results.push(first.run(&ctx, root));
        } else {
            std::thread::scope(|s| {
                let helpers: Vec<_> = (1..self.threads)
                    .filter_map(|_| {
                        // A helper that cannot start leaves the work to the
                        // others.
                        std::thread::Builder::new()
                            .stack_size(super::STACK)
                            .spawn_scoped(s, || Worker::default().run(&ctx, root))
                            .ok()
                    })
                    .collect();
                results.push(first.run(&ctx, root));
                for h in helpers {
                    if let Ok(r) = h.join() {
                        results.push(r);
                    }
                }
            });
        }
        self.ran = results.iter().filter(|w| w.2 > 0).count();
        self.nodes += ctx.total.load(Relaxed);
        self.live.nodes.store(self.nodes, Relaxed);
        self.live.stored.store(self.table.len(), Relaxed);
        // Several workers may prove the root, each with its own depth: the
        // table keeps the shortest, and the answer is the table's.
        let shortest = results
            .iter()
            .filter(|(r, _, _)| r.pn == 0)
            .map(|(r, _, _)| r.depth)
            .min();
        if let Some(d) = shortest {
            match self.known(root) {
                Outcome::Proven(t) => Outcome::Proven(t),
                _ => Outcome::Proven(d),
            }
        } else if results.iter().any(|(r, aborted, _)| r.dn == 0 && !aborted) {
            Outcome::Disproven
        } else {
            Outcome::Unknown
        }
    }
}

impl Worker {
    /// Search from the root until it is settled, by this worker or another,
    /// or a limit: the root's numbers, whether the search was cut, and this
    /// worker's nodes.
    fn run(&mut self, ctx: &Ctx, root: &Position) -> (Res, bool, u64) {
        self.nodes = 0;
        self.flushed = 0;
        self.seen = 0;
        self.aborted = false;
        self.path.clear();
        self.path.insert(root.hash(), 0);
        let r = if ctx.busy.is_some() {
            self.mid::<true>(ctx, root, INF, INF, 0)
        } else {
            self.mid::<false>(ctx, root, INF, INF, 0)
        };
        self.path.clear();
        self.flush(ctx);
        if r.pn == 0 || (r.dn == 0 && !self.aborted) {
            ctx.done.store(true, Relaxed);
        }
        (r, self.aborted, self.nodes)
    }

    /// Add this worker's nodes and filled slots to the shared counts.
    fn flush(&mut self, ctx: &Ctx) {
        let new = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.seen = ctx.total.fetch_add(new, Relaxed) + new;
        ctx.table.stored.fetch_add(self.filled, Relaxed);
        self.filled = 0;
        ctx.live.nodes.fetch_max(ctx.base + self.seen, Relaxed);
        ctx.live.stored.store(ctx.table.len(), Relaxed);
    }

    fn count_node(&mut self, ctx: &Ctx) {
        self.nodes += 1;
        if self.nodes - self.flushed >= POLL {
            self.flush(ctx);
            if ctx.stop.load(Relaxed) || ctx.leave.load(Relaxed) || ctx.done.load(Relaxed) {
                self.aborted = true;
            }
        }
        // The nodes of all workers as far as this one knows: exact with one.
        if self.seen + (self.nodes - self.flushed) >= ctx.budget {
            self.aborted = true;
        }
    }

    /// The search of one node; with several workers (`PAR`, and
    /// `ctx.busy` is there) marked busy while it runs.
    fn mid<const PAR: bool>(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        thpn: u32,
        thdn: u32,
        idx: u32,
    ) -> Res {
        match ctx.busy {
            Some(busy) if PAR => {
                let mark = Ctx::busy_slot(busy, pos.hash());
                mark.fetch_add(1, Relaxed);
                let r = self.mid_in::<PAR>(ctx, pos, thpn, thdn, idx);
                mark.fetch_sub(1, Relaxed);
                r
            }
            _ => self.mid_in::<PAR>(ctx, pos, thpn, thdn, idx),
        }
    }

    /// The multiple-iterative-deepening search of one node (Nagai's MID)
    /// within the thresholds; `idx` is its index on the path.
    fn mid_in<const PAR: bool>(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        thpn: u32,
        thdn: u32,
        idx: u32,
    ) -> Res {
        self.count_node(ctx);
        let or = pos.side_to_move() == ctx.attacker;
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
            self.record(ctx, pos, or, &r, nodes_before);
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
            let mut s = leaf(ctx, c);
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
            // The same, as this worker sees the children other workers are
            // in (several workers only).
            let mut vbest = usize::MAX;
            let (mut vbest_n, mut vsecond) = (INF, INF);
            for (k, s) in slots.iter_mut().enumerate() {
                if !s.fixed {
                    if let Some(e) = ctx.table.probe(s.child.pos.hash()) {
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
                if let (true, Some(busy)) = (PAR, ctx.busy) {
                    let others = if s.fixed {
                        0
                    } else {
                        Ctx::busy_slot(busy, s.child.pos.hash()).load(Relaxed)
                    };
                    let v = virtual_number(n, others);
                    if v < vbest_n || vbest == usize::MAX {
                        vsecond = vbest_n;
                        vbest_n = v;
                        vbest = k;
                    } else if v < vsecond {
                        vsecond = v;
                    }
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
            // The child's thresholds when `k` is chosen with `second` as the
            // runner-up.
            let (th, sum) = if or { (thdn, dn) } else { (thpn, pn) };
            let thresholds = |c: &Slot, second: u32| {
                // The number the node's player sums, and the one it minimizes.
                let (cs, _) = if or { (c.dn, c.pn) } else { (c.pn, c.dn) };
                let t_sum = (th as u64 - sum as u64 + cs as u64).min(INF as u64) as u32;
                let t_min = ctx.widen(second, if or { thpn } else { thdn });
                if or {
                    (t_min, t_sum)
                } else {
                    (t_sum, t_min)
                }
            };
            let mut pick = (best, thresholds(&slots[best], second));
            if PAR && vbest != usize::MAX && vbest != best {
                // The virtual choice, if its child can be searched within
                // its thresholds (else this worker would not move on).
                let c = &slots[vbest];
                let (t_pn, t_dn) = thresholds(c, vsecond);
                if c.pn < t_pn && c.dn < t_dn {
                    pick = (vbest, (t_pn, t_dn));
                }
            }
            let (k, (cpn, cdn)) = pick;
            let child = slots[k].child;
            let h = child.pos.hash();
            self.path.insert(h, idx + 1);
            let cr = self.mid::<PAR>(ctx, &child.pos, cpn, cdn, idx + 1);
            self.path.remove(&h);
            let s = &mut slots[k];
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
            self.record(ctx, pos, or, &r, nodes_before);
        }
        r
    }

    /// Store a node's numbers, unless it is a disproof that depends on the
    /// path (those live only in the parent's loop).
    fn record(&mut self, ctx: &Ctx, pos: &Position, or: bool, r: &Res, nodes_before: u64) {
        if r.dn == 0 && r.dep != FREE {
            return;
        }
        let spent = self.nodes - nodes_before + 1;
        let filled = ctx.table.store(Entry {
            key: pos.hash(),
            pn: r.pn,
            dn: r.dn,
            depth: r.depth.min(DEPTH_CAP) as u16,
            work: (64 - spent.leading_zeros()).min(255) as u8,
            or: or as u8,
        });
        self.filled += filled as u64;
    }
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
fn leaf(ctx: &Ctx, c: &Child) -> Slot {
    let mut s = Slot {
        child: *c,
        pn: 1,
        dn: 1,
        depth: 0,
        dep: FREE,
        fixed: false,
    };
    let mover = c.pos.side_to_move();
    let attacker_moves = mover == ctx.attacker;
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
    if let Some(v) = ctx.tables.and_then(|t| t.value(&c.pos)) {
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

    /// Several workers on one table give the value one worker gives, on
    /// small positions of every code; the root is then settled in the
    /// table too.
    #[test]
    fn several_threads_prove_what_one_proves() {
        let mut compared = 0;
        for text in [
            "lango:8 0,0,0,0,0,0,0,2/0,0,0,1,0,0,0,0/0,0,1,0,0,2,0,0/0,0,0,0,0,0,0,1 a m",
            "acholi:8 2,0,0,0,0,0,1,1/1,0,1,0,0,0,0,0/0,0,0,0,0,1,0,0/2,0,1,2,0,0,0,0 b m",
            "didinga:8 0,1,0,0,0,1,0,1/8,7,2,6,1,3,1,1/1,1,3,1,6,2,7,8/1,0,1,0,0,0,1,0 b m 0",
        ] {
            let pos: Position = text.parse().unwrap();
            for attacker in [Side::A, Side::B] {
                let one = outcome(&pos, attacker);
                for threads in [2, 3] {
                    let mut p = Pns::new(attacker, 16).unwrap().with_threads(threads);
                    let o = p.prove(&pos, u64::MAX, &AtomicBool::new(false));
                    // Proofs' depths are bounds and may differ; the sign not.
                    assert_eq!(
                        matches!(o, Outcome::Proven(_)),
                        matches!(one, Outcome::Proven(_)),
                        "{pos} for {attacker} on {threads} threads: {o:?}, one thread {one:?}"
                    );
                    assert_ne!(o, Outcome::Unknown);
                    assert_eq!(p.known(&pos), o, "{pos}: the root is in the table");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 12);
    }

    /// A node budget and the stop flag end a search on several threads:
    /// the workers' nodes together stop within one poll each of the budget.
    #[test]
    fn a_budget_and_a_stop_end_a_search_on_several_threads() {
        let pos: Position =
            "didinga:8 0,1,0,0,0,1,0,1/8,7,2,6,1,3,1,1/1,1,3,1,6,2,7,8/1,0,1,0,0,0,1,0 b m 0"
                .parse()
                .unwrap();
        let mut p = Pns::new(Side::B, 16).unwrap().with_threads(3);
        let stop = AtomicBool::new(false);
        assert_eq!(p.prove(&pos, 5000, &stop), Outcome::Unknown);
        assert_eq!(p.ran, 3, "every worker searched");
        assert!(
            (5000..5000 + 3 * POLL).contains(&p.nodes()),
            "{} nodes",
            p.nodes()
        );
        let before = p.nodes();
        stop.store(true, Relaxed);
        assert_eq!(p.prove(&pos, u64::MAX, &stop), Outcome::Unknown);
        assert!(p.nodes() - before <= 3 * POLL, "{}", p.nodes() - before);
        // The busy marks are all given back.
        assert!(p.busy.iter().all(|b| b.load(Relaxed) == 0));
        stop.store(false, Relaxed);
        assert!(matches!(p.prove(&pos, u64::MAX, &stop), Outcome::Proven(_)));
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
