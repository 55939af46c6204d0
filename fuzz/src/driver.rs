//! The fuzzing loop: the seed corpus first, then inputs that are fresh
//! (generated), edited by structure, or edited blindly, until the time or
//! the count runs out or an invariant fails.

use crate::rng::{fingerprint, Rng};
use crate::targets::Target;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct RunOptions {
    pub time: Duration,
    /// Stop after this many inputs (the corpus included) if sooner.
    pub max_inputs: Option<u64>,
    pub seed: u64,
    /// `fuzz/corpus/<target>`: every file is one input.
    pub corpus: Option<PathBuf>,
}

pub struct Summary {
    pub inputs: u64,
    pub corpus: usize,
    pub elapsed: Duration,
    pub stats: String,
}

pub struct Finding {
    pub input: Vec<u8>,
    pub message: String,
}

/// The files of a corpus folder, sorted by name.
pub fn load_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
        .iter()
        .filter(|p| p.is_file())
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// Called before each input is checked (the binary keeps it for its panic
/// hook and watchdog).
pub type Hook<'a> = &'a mut dyn FnMut(&[u8]);

/// Recent inputs kept for splicing.
const POOL: usize = 256;

pub fn run(target: &mut dyn Target, o: &RunOptions, before: Hook<'_>) -> Result<Summary, Finding> {
    let t0 = Instant::now();
    let corpus = o.corpus.as_deref().map(load_corpus).unwrap_or_default();
    let mut inputs = 0u64;
    let mut check = |target: &mut dyn Target, input: Vec<u8>, inputs: &mut u64| {
        before(&input);
        *inputs += 1;
        target
            .check(&input)
            .map_err(|message| Finding { input, message })
    };
    for c in &corpus {
        check(target, c.clone(), &mut inputs)?;
    }
    let mut rng = Rng::new(o.seed);
    let mut pool: Vec<Vec<u8>> = corpus.clone();
    let mut next = 0usize;
    let base_len = pool.len();
    while t0.elapsed() < o.time && o.max_inputs.is_none_or(|m| inputs < m) {
        let input = match rng.below(10) {
            0..=3 => target.generate(&mut rng),
            r if !pool.is_empty() => {
                let base = pool[rng.below(pool.len())].clone();
                let other = pool[rng.below(pool.len())].clone();
                let mut d = if r <= 8 {
                    target.mutate(&mut rng, &base, &other)
                } else {
                    let mut d = base;
                    crate::mutate::bytes(&mut rng, &mut d, &other, target.dict(), target.max_len());
                    d
                };
                d.truncate(target.max_len());
                d
            }
            _ => target.generate(&mut rng),
        };
        // Keep the corpus, and a ring of recent inputs.
        if pool.len() < base_len + POOL {
            pool.push(input.clone());
        } else {
            pool[base_len + next] = input.clone();
            next = (next + 1) % POOL;
        }
        check(target, input, &mut inputs)?;
    }
    Ok(Summary {
        inputs,
        corpus: corpus.len(),
        elapsed: t0.elapsed(),
        stats: target.stats(),
    })
}

/// Where a finding is saved: `<dir>/<target>-<fingerprint>`.
pub fn finding_path(dir: &Path, target: &str, input: &[u8]) -> PathBuf {
    dir.join(format!("{target}-{:016x}", fingerprint(input)))
}

/// The input written for a terminal: printable ASCII kept, the rest escaped.
pub fn escaped(input: &[u8], max: usize) -> String {
    let mut s: String = input[..input.len().min(max)].escape_ascii().to_string();
    if input.len() > max {
        s.push_str(&format!("... ({} bytes in all)", input.len()));
    }
    s
}
