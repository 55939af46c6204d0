//! The MCTS tree's memory: the root, and one arena of `Hash` MiB that holds
//! every other node. The arena is the one place MCTS needs `unsafe`: its
//! slots are written by the thread that claimed them and read by every
//! thread once published, without locks (each site's SAFETY comment says
//! why it holds). The unsafety is structural, not a speed-up: a tree shared
//! by every search thread without locks, whose children are handed out as
//! `&[Node]`; a safe arena would need a lock or a once-cell per slot, and a
//! once-cell slot cannot be read as a slice of nodes.

use super::{Node, COMPACT_NS_PER_NODE, UNKNOWN};
use crate::board::Position;
use crate::rules::Game;
use std::cell::UnsafeCell;
use std::collections::TryReserveError;
use std::mem::MaybeUninit;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU32, AtomicUsize};
use std::time::Duration;

/// One slot of the arena: a node once its group is published.
type Slot = UnsafeCell<MaybeUninit<Node>>;

#[inline]
fn group_word(start: usize, len: usize) -> u64 {
    (start as u64) << 32 | len as u64
}

#[inline]
fn group_of(word: u64) -> (usize, usize) {
    ((word >> 32) as usize, (word & 0xffff_ffff) as usize)
}

/// The search tree, kept by the `Searcher` between moves: the root, and every
/// other node in an arena reserved for the `Hash` size. A node's children are
/// one group of consecutive slots, claimed by a bump of `used` and published
/// in the parent's `kids` word; a thread that loses the race to expand a node
/// leaves its group unreachable until the next compaction.
pub struct Tree {
    /// The searched position; `None` until the first `prepare`.
    pub(super) root: Option<Node>,
    slots: Vec<Slot>,
    pub(super) used: AtomicUsize,
    /// The number of the last search (see `Node::leaf_search`).
    pub(super) searches: AtomicU32,
}

// SAFETY: a slot is written only by the thread that claimed its group
// (`claim` hands every slot out once until `&mut self` resets or compacts
// the arena), before the group is published with a Release store into its
// parent's `kids` word; slots are read only through `kids`, after an Acquire
// load of that word, and a published node changes only through its atomics.
unsafe impl Sync for Tree {}

impl Tree {
    /// An empty tree whose arena holds `mb` MiB of nodes, its pages not yet
    /// touched (see `commit`); an error when the memory cannot be reserved.
    pub(crate) fn try_new(mb: usize) -> Result<Tree, TryReserveError> {
        Tree::try_with_capacity(Tree::capacity_for(mb))
    }

    /// [`try_new`](Self::try_new); aborts, as a failed allocation does,
    /// when the memory cannot be reserved.
    pub(crate) fn new(mb: usize) -> Tree {
        match Tree::try_new(mb) {
            Ok(t) => t,
            Err(e) => panic!("the MCTS tree: {mb} MiB: {e}"),
        }
    }

    /// Write every slot once, so that the pages are the process's before a
    /// search needs them: a search that takes the page faults of a fresh
    /// arena is late under load (the table is written when made, too).
    pub(crate) fn commit(&mut self) {
        let n = self.slots.len();
        // SAFETY: any bytes are a valid `MaybeUninit` slot.
        unsafe { std::ptr::write_bytes(self.slots.as_mut_ptr(), 0, n) };
    }

    pub(super) fn try_with_capacity(n: usize) -> Result<Tree, TryReserveError> {
        let mut slots: Vec<Slot> = Vec::new();
        slots.try_reserve_exact(n)?;
        // SAFETY: the capacity is at least `n`, and a `MaybeUninit` slot needs
        // no initialisation.
        unsafe { slots.set_len(n) };
        Ok(Tree {
            root: None,
            slots,
            used: AtomicUsize::new(0),
            searches: AtomicU32::new(0),
        })
    }

    /// Nodes the arena of `mb` mebibytes holds.
    pub(crate) fn capacity_for(mb: usize) -> usize {
        mb.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()
    }

    /// Nodes the arena holds (the root aside).
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Bytes of the arena.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Thousandths of the arena in use (UCI's `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let cap = self.capacity().max(1);
        (self.used.load(Relaxed).min(cap) * 1000 / cap) as u32
    }

    /// Visits of the root (0 before the first `prepare`).
    pub(crate) fn root_visits(&self) -> u32 {
        self.root.as_ref().map_or(0, |r| r.visits.load(Relaxed))
    }

    /// The root; a tree is searched only after `prepare` gave it one.
    #[inline]
    pub(super) fn root(&self) -> &Node {
        self.root
            .as_ref()
            .expect("a tree is prepared before it is searched")
    }

    /// Forget every node and the root; the arena is kept.
    pub(crate) fn forget(&mut self) {
        self.root = None;
        *self.used.get_mut() = 0;
    }

    /// Forget every node; the arena is kept.
    pub(crate) fn reset(&mut self, pos: Position) {
        self.root = Some(Node::new(pos, 1.0, UNKNOWN));
        *self.used.get_mut() = 0;
    }

    /// Ready the tree for a search of the game's current position: the
    /// subtree of it when the root is an earlier position of the same game
    /// and the moves since are in the tree, else an empty tree. A subtree in
    /// an arena more than half full is compacted, which costs time in
    /// proportion to the arena's nodes; when that would take more than a
    /// fifth of `budget` (what is left of the move's time), the search
    /// starts afresh instead.
    pub(crate) fn prepare(&mut self, game: &Game, budget: Option<Duration>) {
        let Some(root) = self.subtree_root(game) else {
            self.reset(*game.position());
            return;
        };
        let used = *self.used.get_mut();
        if used <= self.capacity() / 2 {
            self.root = Some(root);
            return;
        }
        let cost = Duration::from_nanos(used as u64 * COMPACT_NS_PER_NODE);
        if budget.is_some_and(|b| cost > b / 5) {
            self.reset(*game.position());
            return;
        }
        self.root = Some(root);
        self.compact();
    }

    fn subtree_root(&self, game: &Game) -> Option<Node> {
        let root = self.root.as_ref()?;
        let target = *game.position();
        let hashes = game.hashes();
        let back = target.ply().checked_sub(root.pos.ply())? as usize;
        let from = hashes.len().checked_sub(back + 1)?;
        if hashes[from] != root.pos.hash() {
            return None;
        }
        let mut node = root;
        for &h in &hashes[from + 1..] {
            node = self.kids(node)?.iter().find(|k| k.pos.hash() == h)?;
        }
        (node.pos == target).then(|| node.copy())
    }

    /// The children of `node`, once published.
    #[inline]
    pub(super) fn kids(&self, node: &Node) -> Option<&[Node]> {
        let word = node.kids.load(Acquire);
        if word == 0 {
            return None;
        }
        let (start, len) = group_of(word);
        let group = &self.slots[start..start + len];
        // SAFETY: a published group was written before the Release store of
        // `word` that the Acquire load saw, and `Slot` has `Node`'s layout
        // (`UnsafeCell` and `MaybeUninit` are transparent).
        Some(unsafe { std::slice::from_raw_parts(group.as_ptr().cast::<Node>(), len) })
    }

    /// A number for a new search, never 0 (the number of no search).
    pub(super) fn next_search(&self) -> u32 {
        let n = self.searches.fetch_add(1, Relaxed).wrapping_add(1);
        if n != 0 {
            return n;
        }
        self.searches.fetch_add(1, Relaxed).wrapping_add(1)
    }

    /// The first of `n` free slots for one thread to fill, if they fit.
    #[inline]
    pub(super) fn claim(&self, n: usize) -> Option<usize> {
        // Look first, so that a full arena is not bumped further by every leaf.
        if self.used.load(Relaxed) + n > self.capacity() {
            return None;
        }
        let start = self.used.fetch_add(n, Relaxed);
        (start + n <= self.capacity()).then_some(start)
    }

    /// Write `nodes` into the group claimed at `start` and publish them as
    /// `parent`'s children; false when another thread published first.
    pub(super) fn publish(
        &self,
        parent: &Node,
        start: usize,
        nodes: impl Iterator<Item = Node>,
    ) -> bool {
        let mut len = 0;
        for (slot, node) in self.slots[start..].iter().zip(nodes) {
            // SAFETY: this thread claimed the slot (see `impl Sync`).
            unsafe { slot.get().cast::<Node>().write(node) };
            len += 1;
        }
        parent
            .kids
            .compare_exchange(0, group_word(start, len), Release, Relaxed)
            .is_ok()
    }

    /// Slide the groups reachable from the root to the front of the arena,
    /// in address order (a group never moves up, so it never overwrites one
    /// still to move), and set `used` to what they fill. Each moved group's
    /// parent learns the new place before anything moves (Lisp2's order), so
    /// every node is read once and only moved groups are written.
    fn compact(&mut self) {
        let Some(root) = self.root.as_mut() else {
            return;
        };
        // (start, len, parent slot or ROOT) of every reachable group.
        const ROOT: usize = usize::MAX;
        let mut groups = Vec::new();
        let mut stack = vec![(*root.kids.get_mut(), ROOT)];
        stack.retain(|&(word, _)| word != 0);
        while let Some((word, parent)) = stack.pop() {
            let (start, len) = group_of(word);
            groups.push((start, len, parent));
            // SAFETY: reachable groups are published, so initialised.
            let group = unsafe {
                std::slice::from_raw_parts(self.slots[start..].as_ptr().cast::<Node>(), len)
            };
            let kids = group.iter().enumerate();
            let kids = kids.map(|(i, k)| (k.kids.load(Relaxed), start + i));
            stack.extend(kids.filter(|&(word, _)| word != 0));
        }
        groups.sort_unstable();
        let mut moves = Vec::new();
        let mut next = 0;
        for &(start, len, parent) in &groups {
            if start != next {
                let word = group_word(next, len);
                let kids = match parent {
                    ROOT => self.root.as_mut().map(|r| &mut r.kids),
                    // SAFETY: the parent is in a reachable group, not moved yet.
                    p => Some(&mut unsafe { self.slots[p].get_mut().assume_init_mut() }.kids),
                };
                if let Some(k) = kids {
                    *k.get_mut() = word;
                }
                moves.push((start, next, len));
            }
            next += len;
        }
        let base = self.slots.as_mut_ptr();
        for (start, dest, len) in moves {
            // SAFETY: the source group is initialised; `dest < start`, and
            // every reachable group below `start` has already moved, so the
            // slots written hold nothing still needed. `Node` has no drop glue,
            // so a bitwise move is a move.
            unsafe { std::ptr::copy(base.add(start), base.add(dest), len) };
        }
        *self.used.get_mut() = next;
    }
}
