//! Benchmark tooling shared by the criterion benches (`benches/`) and the
//! tools that made the files of `positions/` (`src/bin/positions.rs`):
//! a seeded generator, random games, and figures about a position's moves.

use choro_engine::search::{Algorithm, Limits, SearchConfig, SearchControl, SearchResult};
use choro_engine::Searcher;
use choro_engine::{Game, Move, Position, Token, Variant, LAP_BUDGET};

pub use choro_engine::rng::Rng;

/// A fresh alpha-beta searcher of the default configuration (one thread,
/// 16 MB) to `depth` on `p`: how the files of `positions/` were scored and
/// how their wins are checked.
pub fn alphabeta(p: &Position, depth: u32) -> SearchResult {
    let mut s = Searcher::new(SearchConfig {
        algorithm: Algorithm::AlphaBeta,
        ..SearchConfig::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(
        &Game::new(*p),
        &limits,
        &SearchControl::default(),
        &mut |_| {},
    )
}

/// The start position of a code, 8 wide (5 for Adjiboto). `main`: Lango's
/// full board in the main phase instead of its sequential opening, which
/// usually ends the game at once (BENCHMARKS.md, random games).
pub fn start(v: Variant, main: bool) -> Position {
    let p = Position::startpos(v, v.default_width()).expect("default width");
    if main && v.is_choro() {
        p.to_string()
            .replace(" o2 ", " m ")
            .parse()
            .expect("main-phase start")
    } else {
        p
    }
}

/// The positions of one game of uniformly random legal moves from `from`,
/// `from` included, until no move is left or `max_plies` were played.
pub fn random_game(from: Position, max_plies: u32, rng: &mut Rng) -> Vec<(Position, Option<Move>)> {
    let mut out = Vec::new();
    let mut p = from;
    for _ in 0..max_plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let (m, c) = moves[rng.below(moves.len())];
        out.push((p, Some(m)));
        p = c;
    }
    out.push((p, None));
    out
}

/// What a position's moves look like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFigures {
    /// Legal moves (decision paths).
    pub moves: u64,
    /// Children after merging paths that lead to the same position.
    pub distinct: u64,
    /// Most laps and drops of one move.
    pub max_laps: u32,
    pub max_drops: u32,
    /// Moves that take a clockwise lap (`~` start or `+` choice).
    pub clockwise: u64,
    /// Most decisions in one move.
    pub max_decisions: usize,
    /// Paths cut as never-ending.
    pub never_ending: u64,
}

/// The figures of `p`'s moves.
pub fn figures(p: &Position) -> MoveFigures {
    let mut f = MoveFigures::default();
    let mut hashes = Vec::new();
    let stats = p.generate(LAP_BUDGET, |m, c, info| {
        f.moves += 1;
        f.max_laps = f.max_laps.max(info.laps);
        f.max_drops = f.max_drops.max(info.drops);
        if m.tokens()
            .any(|t| matches!(t, Token::Clockwise(_) | Token::Plus))
        {
            f.clockwise += 1;
        }
        f.max_decisions = f.max_decisions.max(m.decisions());
        hashes.push(c.hash());
        true
    });
    hashes.sort_unstable();
    hashes.dedup();
    f.distinct = hashes.len() as u64;
    f.never_ending = stats.never_ending();
    f
}

/// One block of `positions/tests/<code>.txt`.
#[derive(Clone, Debug)]
pub struct WinTest {
    pub id: String,
    pub position: Position,
    /// The side to move wins in this many plies, and in no fewer.
    pub win: u32,
    /// Every first move that wins in `win` plies.
    pub best: Vec<Move>,
    /// How it was verified.
    pub proof: String,
}

/// Parse a file in the format of `positions/tests/<code>.txt`.
pub fn parse_win_tests(text: &str) -> Result<Vec<WinTest>, String> {
    let mut out: Vec<WinTest> = Vec::new();
    for (n, line) in choro_engine::board::data_lines(text) {
        let err = |e: String| format!("line {n}: {e}");
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "id" {
            out.push(WinTest {
                id: rest.to_string(),
                position: Position::startpos(Variant::Adjiboto, 5).expect("start"),
                win: 0,
                best: Vec::new(),
                proof: String::new(),
            });
            continue;
        }
        let t = out.last_mut().ok_or_else(|| err("no id line yet".into()))?;
        match key {
            "pos" => t.position = rest.parse().map_err(|e| err(format!("pos: {e}")))?,
            "win" => t.win = rest.parse().map_err(|_| err("win: a number".into()))?,
            "best" => {
                t.best = rest
                    .split_whitespace()
                    .map(|m| m.parse().map_err(|e| err(format!("best {m}: {e}"))))
                    .collect::<Result<_, _>>()?
            }
            "proof" => t.proof = rest.to_string(),
            "note" => {}
            _ => return Err(err(format!("unexpected '{key}'"))),
        }
    }
    for t in &out {
        if t.win == 0 || t.best.is_empty() || t.proof.is_empty() {
            return Err(format!("{}: win, best and proof lines are needed", t.id));
        }
    }
    Ok(out)
}

/// One block of a `positions/perft/*.perft` file.
#[derive(Clone, Debug)]
pub struct PerftBlock {
    pub id: String,
    pub position: Position,
    /// (depth, paths, unique)
    pub lines: Vec<(u32, u64, u64)>,
}

/// Parse a perft file (format at the top of each `positions/perft/*.perft`).
pub fn parse_perft(text: &str) -> Result<Vec<PerftBlock>, String> {
    let mut out: Vec<PerftBlock> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |e: &str| format!("line {}: {e}", n + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "id" {
            out.push(PerftBlock {
                id: rest.to_string(),
                position: Position::startpos(Variant::Adjiboto, 5).expect("start"),
                lines: Vec::new(),
            });
            continue;
        }
        let b = out.last_mut().ok_or_else(|| err("no id line yet"))?;
        match key {
            "pos" => b.position = rest.parse().map_err(|e| err(&format!("pos: {e}")))?,
            "perft" => {
                let v: Vec<u64> = rest
                    .split_whitespace()
                    .map(|x| x.parse().map_err(|_| err("perft: numbers")))
                    .collect::<Result<_, _>>()?;
                if v.len() != 3 {
                    return Err(err("perft: depth, paths, unique"));
                }
                b.lines.push((v[0] as u32, v[1], v[2]));
            }
            _ => return Err(err(&format!("unexpected '{key}'"))),
        }
    }
    Ok(out)
}
