//! The book of solved positions (`positions/solved/*.book`): what the
//! solver proved, for the engine to play from and for others to check.
//!
//! Format (text, UTF-8; positions/solved/README.md): `#` lines are comments
//! and carry the provenance (command, commit, date); every other line is
//!
//! ```text
//! <position string> TAB <value> TAB <move>
//! ```
//!
//! where the value is from the side to move's point of view (`win N`,
//! `loss N` with N the plies to the end under best play, or `draw`) and the
//! move keeps it (the fastest win, the longest loss), or `0000` where no
//! move is given (a finished game; the protocol's `bestmove 0000`). `-` is
//! always a move (the counter-clockwise choice of a lap end); books written
//! before `0000` used `-` for no move, which is still read so in a finished
//! game, the one place it can mean nothing else. A blind position's matrix is the set of its cells' entries.

use super::Value;
use crate::blind::BlindGame;
use crate::board::Position;
use crate::types::moves::Move;
use crate::types::Side;
use fxhash::FxHashMap;

/// The move field of an entry without a move (a finished game).
pub const NO_MOVE: &str = "0000";

/// One book entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (its ply count 0).
    pub pos: Position,
    /// Its proven value for the side to move.
    pub value: Value,
    /// A move that keeps the value, where the position has one.
    pub best: Option<Move>,
}

/// A book: entries by position, and blind cells whose value alone is
/// proven (`*.cells` files).
#[derive(Clone, Debug, Default)]
pub struct Book {
    map: FxHashMap<u64, Entry>,
    order: Vec<u64>,
    /// Cell position -> its sign for the side to move (+1 win, 0 draw, -1
    /// loss), the distance not proven.
    cells: FxHashMap<u64, (Position, i8)>,
}

/// A `*.cells` file: the blind cells of a simultaneous start whose sign is
/// proven but not their distance (df-pn with `--plies 1`). Every line but
/// `#` comments is `<cell position> TAB <win|loss|draw>`, the value for the
/// cell's side to move; each position must be a cell of the blind game of
/// its code's start (phase `r`, `m` or a finished race after both starts).
pub fn parse_cells(text: &str) -> Result<Vec<(Position, i8)>, String> {
    let mut out: Vec<(Position, i8)> = Vec::new();
    let mut seen = FxHashMap::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", i + 1);
        let mut f = line.split('\t');
        let (Some(p), Some(v), None) = (f.next(), f.next(), f.next()) else {
            return Err(at(
                "expected a position and a value separated by a tab".into()
            ));
        };
        let pos: Position = p.parse().map_err(|e| at(format!("position: {e}")))?;
        let pos = pos.with_ply(0);
        let sign = match v {
            "win" => 1,
            "loss" => -1,
            "draw" => 0,
            _ => {
                return Err(at(format!(
                    "bad value '{}' (win, loss, draw)",
                    super::clip(v)
                )))
            }
        };
        if let Some(&old) = seen.get(&pos.hash()) {
            if old != sign {
                return Err(at("contradicts an earlier line".into()));
            }
            continue;
        }
        seen.insert(pos.hash(), sign);
        out.push((pos, sign));
    }
    Ok(out)
}

/// A value from its written form.
pub fn parse_value(s: &str) -> Result<Value, String> {
    let mut w = s.split_whitespace();
    let v = match (w.next(), w.next()) {
        (Some("draw"), None) => Value::Draw,
        (Some(k @ ("win" | "loss")), Some(n)) => {
            let n: u32 = n
                .parse()
                .map_err(|_| format!("bad distance '{}'", super::clip(n)))?;
            if k == "win" {
                Value::Win(n)
            } else {
                Value::Loss(n)
            }
        }
        _ => {
            return Err(format!(
                "bad value '{}' (win N, loss N, draw)",
                super::clip(s)
            ))
        }
    };
    if w.next().is_some() {
        return Err(format!("bad value '{}'", super::clip(s)));
    }
    Ok(v)
}

impl Book {
    /// Parse a book; an error names the line.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut b = Book::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let e = Self::parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            if let Some(old) = b.get(&e.pos) {
                if old.value != e.value {
                    return Err(format!("line {}: contradicts an earlier line", i + 1));
                }
                continue;
            }
            b.insert(e);
        }
        Ok(b)
    }

    fn parse_line(line: &str) -> Result<Entry, String> {
        let mut f = line.split('\t');
        let (Some(p), Some(v), Some(m), None) = (f.next(), f.next(), f.next(), f.next()) else {
            return Err("expected position, value and move separated by tabs".into());
        };
        let pos: Position = p.parse().map_err(|e| format!("position: {e}"))?;
        let value = parse_value(v)?;
        // A finished game's value is known; a distance of 0 is the end.
        let pos = pos.with_ply(0);
        if !pos.has_legal_move() {
            let end = super::end_value(&pos);
            if value != end {
                return Err(format!("value {value} of a finished game, which is {end}"));
            }
        } else if matches!(value, Value::Win(0) | Value::Loss(0)) {
            return Err(format!("value {value} of a position with a legal move"));
        }
        // `0000` is no move; so is the older `-` where there is no move to
        // make. Elsewhere `-` is the counter-clockwise choice.
        let best = if m == NO_MOVE || (m == "-" && !pos.has_legal_move()) {
            None
        } else {
            let (mv, _) = pos
                .parse_move(m)
                .map_err(|e| format!("move {}: {e}", super::clip(m)))?;
            Some(mv)
        };
        Ok(Entry { pos, value, best })
    }

    /// Add an entry (a later one for the same position replaces it).
    pub fn insert(&mut self, e: Entry) {
        let k = e.pos.hash();
        if self.map.insert(k, e).is_none() {
            self.order.push(k);
        }
    }

    /// The entry of `pos`, if the book has it.
    pub fn get(&self, pos: &Position) -> Option<&Entry> {
        self.map.get(&pos.hash()).filter(|e| e.pos.same_state(pos))
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Entries in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.order.iter().filter_map(|k| self.map.get(k))
    }

    /// One line of the book.
    pub fn line(e: &Entry) -> String {
        format!(
            "{}\t{}\t{}",
            e.pos.with_ply(0),
            e.value,
            e.best.map_or(NO_MOVE.to_string(), |m| m.to_string())
        )
    }

    /// Add the proven signs of blind cells (from [`parse_cells`]).
    pub fn insert_cells(&mut self, cells: &[(Position, i8)]) {
        for &(p, v) in cells {
            self.cells.insert(p.hash(), (p, v));
        }
    }

    /// The proven sign of `pos` for its side to move, from an entry or a
    /// cell.
    pub fn sign(&self, pos: &Position) -> Option<i8> {
        if let Some(e) = self.get(pos) {
            return Some(e.value.sign());
        }
        let &(p, v) = self.cells.get(&pos.hash())?;
        p.same_state(pos).then_some(v)
    }

    /// The proven cell values of a blind game for A (+1 a win, 0 a draw, -1
    /// a loss), `None` where a cell is not proven.
    pub fn blind_known(&self, bg: &BlindGame) -> Vec<Vec<Option<f64>>> {
        bg.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| {
                        let v = self.sign(c)? as f64;
                        Some(if c.side_to_move() == Side::A { v } else { -v })
                    })
                    .collect()
            })
            .collect()
    }

    /// The matrix of proven cell values of a blind game for A (+1 a win,
    /// 0 a draw, -1 a loss), when the book has every cell.
    pub fn blind_values(&self, bg: &BlindGame) -> Option<Vec<Vec<f64>>> {
        self.blind_known(bg)
            .into_iter()
            .map(|row| row.into_iter().collect())
            .collect()
    }

    /// Merge another book in.
    pub fn extend(&mut self, o: &Book) {
        for e in o.entries() {
            self.insert(*e);
        }
        self.cells.extend(o.cells.iter().map(|(k, v)| (*k, *v)));
    }
}

/// The books shipped with the engine (positions/solved/), parsed once.
///
/// ```
/// use choro_engine::solve::{book, Value};
/// use choro_engine::{Opening, Position, Variant};
///
/// // Lango's simultaneous start is solved: every blind cell a win for A.
/// let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
/// let cell = start.legal_moves()[0].1.legal_moves()[0].1;
/// let entry = book::builtin().get(&cell).expect("every Lango cell is in the book");
/// assert!(matches!(entry.value, Value::Win(_) | Value::Loss(_)));
/// ```
pub fn builtin() -> &'static Book {
    static BOOK: std::sync::OnceLock<Book> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        let mut b = Book::default();
        for text in BUILTIN {
            // A shipped book that does not parse is a build error caught by
            // the tests (tests/solve.rs); here it is left out.
            if let Ok(x) = Book::parse(text) {
                b.extend(&x);
            }
        }
        for text in BUILTIN_CELLS {
            if let Ok(c) = parse_cells(text) {
                b.insert_cells(&c);
            }
        }
        b
    })
}

/// The texts of the shipped books.
pub const BUILTIN: &[&str] = &[
    include_str!("../../../positions/solved/lango.book"),
    include_str!("../../../positions/solved/didinga8-seq.book"),
];

/// The texts of the shipped `*.cells` files ([`parse_cells`]).
pub const BUILTIN_CELLS: &[&str] = &[
    include_str!("../../../positions/solved/acholi-sim.cells"),
    include_str!("../../../positions/solved/didinga8-sim.cells"),
    include_str!("../../../positions/solved/didinga9-sim.cells"),
];

/// The entries along a line of best play: `pos` has `value` and `pv` is
/// the line to the end; each position on it gets its value and the move
/// the line plays there, the last (the end) its value alone.
pub fn line_entries(pos: &Position, value: Value, pv: &[Move]) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let (mut p, mut v) = (pos.with_ply(0), value);
    for m in pv {
        let next = p.play(m).map_err(|e| format!("{e} in the line at {p}"))?;
        out.push(Entry {
            pos: p,
            value: v,
            best: Some(*m),
        });
        let same = next.side_to_move() == p.side_to_move();
        v = match v {
            Value::Win(n) if same => Value::Win(n.saturating_sub(1)),
            Value::Win(n) => Value::Loss(n.saturating_sub(1)),
            Value::Loss(n) if same => Value::Loss(n.saturating_sub(1)),
            Value::Loss(n) => Value::Win(n.saturating_sub(1)),
            Value::Draw => Value::Draw,
        };
        p = next.with_ply(0);
    }
    out.push(Entry {
        pos: p,
        value: v,
        best: None,
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finding 14 (RELIABILITY.md): a book line gave a finished game a
    /// value other than its end, and a position with a legal move a
    /// distance of 0; both were accepted.
    #[test]
    fn a_value_that_contradicts_the_game_is_refused() {
        let over: Position =
            "lango:8 5,0,3,0,11,3,2,0/0,5,4,11,1,9,6,1/0,0,0,0,0,0,0,0/1,1,0,0,0,1,0,0 a m 0"
                .parse()
                .unwrap();
        assert!(!over.has_legal_move());
        for bad in ["loss 46", "win 0", "draw", "win 3"] {
            let e = Book::parse(&format!("# c\n{over}\t{bad}\t-\n")).unwrap_err();
            assert_eq!(
                e,
                format!("line 2: value {bad} of a finished game, which is loss 0")
            );
        }
        assert_eq!(
            Book::parse(&format!("{over}\tloss 0\t-\n")).unwrap().len(),
            1
        );
        let start = Position::startpos(crate::Variant::Lango, 8).unwrap();
        for bad in ["win 0", "loss 0"] {
            let e = Book::parse(&format!("{start}\t{bad}\t-\n")).unwrap_err();
            assert_eq!(
                e,
                format!("line 1: value {bad} of a position with a legal move")
            );
        }
    }

    /// Issue 30: `-` meant both "no move" and the counter-clockwise choice;
    /// the book's Lango race position whose best move is `-` was read as
    /// having none. `-` is now always a move and `0000` is no move; an old
    /// `-` still means no move in a finished game.
    #[test]
    fn the_counter_clockwise_choice_is_a_move_and_0000_is_none() {
        let race: Position = "lango:8 0,2,2,0,2,2,0,2/3,4,3,0,4,3,1,3/3,1,3,4,0,3,4,3/0,0,2,2,0,2,2,0 a r 11.1 decide=relay,hand=3,at=k,origin=k,front=1,single=0,laps=3 lap=ccw,hand=1,next=k,origin=g,front=1,laps=3 0"
            .parse()
            .unwrap();
        let (minus, _) = race.parse_move("-").unwrap();
        let b = Book::parse(&format!(
            "{race}	win 27	-
"
        ))
        .unwrap();
        let e = b.get(&race).unwrap();
        assert_eq!(e.best, Some(minus));
        assert!(Book::line(e).ends_with("	win 27	-"));
        let over: Position =
            "lango:8 5,0,3,0,11,3,2,0/0,5,4,11,1,9,6,1/0,0,0,0,0,0,0,0/1,1,0,0,0,1,0,0 a m 0"
                .parse()
                .unwrap();
        for no in ["0000", "-"] {
            let b = Book::parse(&format!(
                "{over}	loss 0	{no}
"
            ))
            .unwrap();
            let e = b.get(&over).unwrap();
            assert_eq!(e.best, None);
            assert_eq!(Book::line(e), format!("{over}	loss 0	0000"));
        }
        // `0000` is no move only: where a move is due it is refused by no
        // reading, and it never parses as a move.
        assert!(race.parse_move("0000").is_err());
    }

    /// Finding 15 (RELIABILITY.md): an error quoted a whole field of the
    /// line, which may be any length.
    #[test]
    fn an_error_quotes_at_most_a_clip_of_the_field() {
        let start = Position::startpos(crate::Variant::Lango, 8).unwrap();
        let long = "k".repeat(5000);
        for line in [
            format!("{start}\twin 3\t{long}"),
            format!("{start}\twin {long}\t-"),
            format!("{start}\t{long}\t-"),
            format!("{start}\twin 3 {long}\t-"),
        ] {
            let e = Book::parse(&line).unwrap_err();
            assert!(e.len() < 120 && e.contains("kkk..."), "{e}");
        }
    }
}
