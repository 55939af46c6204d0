//! Retrograde analysis of the whole graph of positions reachable from a
//! root: the exact value of every one of them, draws included.
//!
//! It is the solver's second method and the only one that proves draws by
//! cycles. It reads nothing the proving search writes: it enumerates every
//! reachable position (merged children, as search does), links each to its
//! children, and labels backwards from the ends. A position is a win in
//! `n + 1` when some child is lost for its mover in `n` (or won in `n` for
//! the same mover, in the race's consecutive plies); a loss in `n + 1` when
//! every child is won for the other side, the last of them in `n`; taking
//! them in order of distance gives the fastest win and the longest loss.
//! What is never labelled is a draw: from there neither side can force the
//! other to an end (RULES.md 12).

use super::Value;
use crate::board::Position;
use crate::gametree::{children, terminal_value, Child, DRAW};
use fxhash::FxHashMap;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// The reachable graph of a root, every position's value known.
pub struct Graph {
    states: Vec<Position>,
    index: FxHashMap<u64, u32>,
    values: Vec<Value>,
    edges: u64,
}

impl Graph {
    /// Analyse everything reachable from `root`, or fail when there are more
    /// than `max_states` positions or `stop` is set.
    pub fn analyse(root: &Position, max_states: usize, stop: &AtomicBool) -> Result<Graph, String> {
        if root.phase().is_blind() {
            return Err("a blind phase is a matrix game, not a graph".into());
        }
        let mut states = vec![*root];
        let mut index = FxHashMap::default();
        index.insert(root.hash(), 0u32);
        let mut succ_start = vec![0u32];
        let mut succ: Vec<u32> = Vec::new();
        let (mut buf, mut hashes): (Vec<Child>, Vec<u64>) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < states.len() {
            if i % 4096 == 0 && stop.load(Relaxed) {
                return Err("stopped".into());
            }
            let p = states[i];
            children(&p, &mut buf, &mut hashes);
            for c in &buf {
                let k = c.pos.hash();
                let j = match index.get(&k) {
                    Some(&j) => {
                        if !states[j as usize].same_state(&c.pos) {
                            return Err(format!("two positions with hash {k:016x}"));
                        }
                        j
                    }
                    None => {
                        if states.len() >= max_states {
                            return Err(format!("more than {max_states} positions"));
                        }
                        let j = states.len() as u32;
                        states.push(c.pos.with_ply(0));
                        index.insert(k, j);
                        j
                    }
                };
                succ.push(j);
            }
            succ_start.push(succ.len() as u32);
            i += 1;
        }
        let n = states.len();
        // Predecessors, as offsets into one array.
        let mut pred_start = vec![0u32; n + 1];
        for &j in &succ {
            pred_start[j as usize + 1] += 1;
        }
        for k in 0..n {
            pred_start[k + 1] += pred_start[k];
        }
        let mut fill = pred_start.clone();
        let mut pred = vec![0u32; succ.len()];
        for p in 0..n {
            for &j in &succ[succ_start[p] as usize..succ_start[p + 1] as usize] {
                pred[fill[j as usize] as usize] = p as u32;
                fill[j as usize] += 1;
            }
        }
        // Children not yet known to be lost for the mover, per position.
        let mut left: Vec<u32> = (0..n).map(|p| succ_start[p + 1] - succ_start[p]).collect();
        let mut values: Vec<Option<Value>> = vec![None; n];
        let mut queue = VecDeque::new();
        for p in 0..n {
            if left[p] == 0 {
                values[p] = Some(if terminal_value(&states[p], 0) == DRAW {
                    Value::Draw
                } else {
                    Value::Loss(0)
                });
                if values[p] == Some(Value::Loss(0)) {
                    queue.push_back(p as u32);
                }
            }
        }
        while let Some(c) = queue.pop_front() {
            let c = c as usize;
            let (sign, d) = match values[c] {
                Some(Value::Win(d)) => (1i8, d),
                Some(Value::Loss(d)) => (-1, d),
                _ => continue,
            };
            for &p in &pred[pred_start[c] as usize..pred_start[c + 1] as usize] {
                let p = p as usize;
                if values[p].is_some() {
                    continue;
                }
                let same = states[p].side_to_move() == states[c].side_to_move();
                let for_p = if same { sign } else { -sign };
                if for_p == 1 {
                    values[p] = Some(Value::Win(d + 1));
                    queue.push_back(p as u32);
                } else {
                    // One edge per merged child, so each child counts once.
                    left[p] -= 1;
                    if left[p] == 0 {
                        values[p] = Some(Value::Loss(d + 1));
                        queue.push_back(p as u32);
                    }
                }
            }
        }
        Ok(Graph {
            values: values
                .into_iter()
                .map(|v| v.unwrap_or(Value::Draw))
                .collect(),
            states,
            index,
            edges: succ.len() as u64,
        })
    }

    /// Positions in the graph.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the graph holds no position.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Moves (merged children) in the graph.
    pub fn edges(&self) -> u64 {
        self.edges
    }

    /// The root's value.
    pub fn root_value(&self) -> Value {
        self.values[0]
    }

    /// The value of a position of the graph.
    pub fn value_of(&self, pos: &Position) -> Option<Value> {
        let &i = self.index.get(&pos.hash())?;
        self.states[i as usize]
            .same_state(pos)
            .then(|| self.values[i as usize])
    }

    /// Every position with its value.
    pub fn iter(&self) -> impl Iterator<Item = (&Position, Value)> {
        self.states.iter().zip(self.values.iter().copied())
    }
}
