//! The fixed benchmark: every position of `positions/bench.txt` searched
//! with alpha-beta to a fixed depth, each with a fresh `Searcher` (and so a
//! fresh table). With one thread the total node count is a signature of the
//! search: the same on every run and machine, and it changes only when the
//! search does (quote it in commits that touch search). `choro bench`, the
//! protocol's `bench` command and OpenBench all go through [`run`].
//!
//! ```no_run
//! use choro_engine::bench::{self, BenchOptions};
//! let summary = bench::run(&BenchOptions::default(), &mut |row| println!("{row}"));
//! println!("{summary}"); // "<nodes> nodes <nps> nps", the line OpenBench reads
//! ```
//!
//! The list is compiled in (`include_str!`), so the binary needs no file.
//! Its format is documented at the top of `positions/bench.txt` and checked
//! by [`positions`]: blocks of `id`, `pos` (a position string) and `depth`
//! (the default search depth) lines, `#` comments.

use crate::board::Position;
use crate::go::Searcher;
use crate::rules::Game;
use crate::search::{Algorithm, Limits, Score, SearchConfig, SearchControl};
use crate::types::moves::Move;
use crate::types::Variant;
use std::fmt;
use std::time::Instant;

/// The bench list, as compiled in.
pub(crate) const BENCH_FILE: &str = include_str!("../../positions/bench.txt");

/// What to run. `Default`: every position at its own depth, one thread,
/// a 16 MB table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Search depth for every position; `None`: each position's own depth.
    pub depth: Option<u32>,
    /// Only the positions of this code; `None`: all.
    pub variant: Option<Variant>,
    /// Search threads (the node count is a signature only with 1).
    pub threads: usize,
    /// Table size per search, in MB.
    pub hash_mb: usize,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            depth: None,
            variant: None,
            threads: 1,
            hash_mb: 16,
        }
    }
}

/// One position of the bench list.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPosition {
    /// Its name in the list (the first word of its line).
    pub id: String,
    /// The position searched.
    pub position: Position,
    /// The depth it is searched to unless `BenchOptions::depth` says otherwise.
    pub depth: u32,
}

/// The result for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    /// The position's name in the list.
    pub id: String,
    /// Its rule code.
    pub variant: Variant,
    /// The position string.
    pub position: String,
    /// The depth searched.
    pub depth: u32,
    /// Nodes searched (one thread: the same on every run and machine).
    pub nodes: u64,
    /// Wall-clock milliseconds of the search.
    pub time_ms: u64,
    /// Nodes a second.
    pub nps: u64,
    /// In the position's notation; `None` when the side to move has no move.
    pub best: Option<Move>,
    /// The score of the best move, from the side to move's view.
    pub score: Option<Score>,
}

/// Totals over the positions run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchSummary {
    /// Positions searched.
    pub positions: usize,
    /// Nodes over all of them: the bench's signature with one thread.
    pub nodes: u64,
    /// Wall-clock milliseconds over all of them.
    pub time_ms: u64,
    /// Nodes a second over all of them.
    pub nps: u64,
}

impl fmt::Display for BenchRow {
    /// `<id> <variant> depth <d> nodes <n> time <ms> nps <nps> best <move> score <score>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} depth {} nodes {} time {} nps {} best {} score {}",
            self.id,
            self.variant,
            self.depth,
            self.nodes,
            self.time_ms,
            self.nps,
            self.best.map_or("(none)".to_string(), |m| m.to_string()),
            self.score.map_or("(none)".to_string(), score_text),
        )
    }
}

impl fmt::Display for BenchSummary {
    /// `<nodes> nodes <nps> nps`: the last line of `bench`, which OpenBench parses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} nodes {} nps", self.nodes, self.nps)
    }
}

/// A score as the protocol writes it: `cp N`, `win N`, `loss N` (plies).
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
    }
}

/// Error in a bench or positions file: line number (1-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError(pub usize, pub String);

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.0, self.1)
    }
}

impl std::error::Error for ListError {}

/// Parse a bench list in the format of `positions/bench.txt`.
pub fn parse_list(text: &str) -> Result<Vec<BenchPosition>, ListError> {
    let mut out: Vec<BenchPosition> = Vec::new();
    let mut id: Option<(usize, String)> = None;
    let mut pos: Option<Position> = None;
    let mut depth: Option<u32> = None;
    let mut finish = |id: &mut Option<(usize, String)>,
                      pos: &mut Option<Position>,
                      depth: &mut Option<u32>|
     -> Result<(), ListError> {
        if let Some((line, name)) = id.take() {
            let position = pos
                .take()
                .ok_or_else(|| ListError(line, format!("{name}: no pos line")))?;
            let depth = depth
                .take()
                .ok_or_else(|| ListError(line, format!("{name}: no depth line")))?;
            if out.iter().any(|b| b.id == name) {
                return Err(ListError(line, format!("{name}: duplicate id")));
            }
            out.push(BenchPosition {
                id: name,
                position,
                depth,
            });
        }
        Ok(())
    };
    for (n, line) in crate::board::data_lines(text) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => {
                finish(&mut id, &mut pos, &mut depth)?;
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(ListError(n, "id: one word expected".into()));
                }
                id = Some((n, rest.to_string()));
            }
            "pos" if id.is_some() && pos.is_none() => {
                let p: Position = rest
                    .parse()
                    .map_err(|e| ListError(n, format!("pos: {e}")))?;
                pos = Some(p);
            }
            "depth" if id.is_some() && depth.is_none() => {
                let d: u32 = rest
                    .parse()
                    .map_err(|_| ListError(n, format!("depth: '{rest}' is not a number")))?;
                if d == 0 {
                    return Err(ListError(n, "depth: at least 1".into()));
                }
                depth = Some(d);
            }
            // Free text kept for readers: what the position is chosen for.
            "note" if id.is_some() => {}
            _ => return Err(ListError(n, format!("unexpected line '{line}'"))),
        }
    }
    finish(&mut id, &mut pos, &mut depth)?;
    Ok(out)
}

/// The compiled-in bench list.
pub fn positions() -> Vec<BenchPosition> {
    // The file is checked by a unit test, so this cannot fail in a build
    // that passed its tests.
    parse_list(BENCH_FILE).unwrap_or_else(|e| panic!("positions/bench.txt: {e}"))
}

fn per_second(n: u64, secs: f64) -> u64 {
    (n as f64 / secs.max(1e-9)) as u64
}

/// Search every selected bench position and hand each row to `row`. Each
/// search gets a fresh `Searcher` (alpha-beta, `opts.threads` threads, an
/// `opts.hash_mb` table) and a game that starts at the position; the table
/// is allocated before the clock starts.
pub fn run(opts: &BenchOptions, row: &mut dyn FnMut(&BenchRow)) -> BenchSummary {
    let mut sum = BenchSummary::default();
    let mut secs = 0.0;
    for b in positions() {
        if opts.variant.is_some_and(|v| v != b.position.variant()) {
            continue;
        }
        let depth = opts.depth.unwrap_or(b.depth).max(1);
        let mut searcher = Searcher::new(SearchConfig {
            threads: opts.threads.max(1),
            hash_mb: opts.hash_mb,
            algorithm: Algorithm::AlphaBeta,
            ..SearchConfig::default()
        });
        // The bench measures search: no answer from the book of solved positions.
        searcher.set_book(false);
        let game = Game::new(b.position);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let control = SearchControl::default();
        let start = Instant::now();
        let r = searcher.search(&game, &limits, &control, &mut |_| {});
        let el = start.elapsed().as_secs_f64();
        secs += el;
        let r = BenchRow {
            id: b.id,
            variant: b.position.variant(),
            position: b.position.to_string(),
            depth,
            nodes: r.nodes,
            time_ms: (el * 1000.0) as u64,
            nps: per_second(r.nodes, el),
            best: r.best.map(|m| b.position.restyle(m)),
            score: r.score,
        };
        row(&r);
        sum.positions += 1;
        sum.nodes += r.nodes;
    }
    sum.time_ms = (secs * 1000.0) as u64;
    sum.nps = per_second(sum.nodes, secs);
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_list_parses_and_covers_every_code() {
        let list = positions();
        assert!(list.len() >= 30, "{} positions", list.len());
        for v in Variant::ALL {
            let n = list.iter().filter(|b| b.position.variant() == v).count();
            assert!(n >= 6, "{v}: {n} positions");
        }
        for b in &list {
            assert_eq!(
                b.position.to_string().parse::<Position>().ok(),
                Some(b.position),
                "{}",
                b.id
            );
            assert!(b.position.has_legal_move(), "{}: no legal move", b.id);
        }
    }

    #[test]
    fn list_errors_name_the_line() {
        let good = "id a\npos didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0\ndepth 3\n";
        assert_eq!(parse_list(good).unwrap().len(), 1);
        assert_eq!(parse_list("id a\ndepth 3\n").unwrap_err().0, 1);
        assert_eq!(parse_list("# x\nid a b\n").unwrap_err().0, 2);
        assert_eq!(parse_list("depth 3\n").unwrap_err().0, 1);
        let twice = format!("{good}{good}");
        assert!(parse_list(&twice).unwrap_err().1.contains("duplicate"));
        assert!(parse_list("id a\npos nonsense\n")
            .unwrap_err()
            .1
            .starts_with("pos"));
    }

    #[test]
    fn one_thread_node_counts_repeat() {
        let opts = BenchOptions {
            depth: Some(3),
            variant: Some(Variant::Adjiboto),
            ..BenchOptions::default()
        };
        let mut first = Vec::new();
        let a = run(&opts, &mut |r| first.push(r.nodes));
        let mut second = Vec::new();
        let b = run(&opts, &mut |r| second.push(r.nodes));
        assert_eq!(first, second);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.positions >= 6 && a.nodes > 0);
        assert_eq!(first.iter().sum::<u64>(), a.nodes);
    }
}
