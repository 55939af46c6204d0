//! The game record format (MATCH.md, "Game records"): tag lines, one move a
//! line with the side that made it, and a result line (`*` for a game not
//! over yet). This module writes and reads it; `replay` checks a parsed
//! record against the rules.
//!
//! ```text
//! [Event "choro match"]
//! [A "ab"]
//! [B "rnd"]
//! [Start "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0"]
//! [Result "1-0"]
//! [Reason "no-legal-move"]
//!
//! 0 a l {12ms d9 cp 40}
//! 1 b a {3ms}
//! 1-0
//! ```

use choro_engine::{DrawReason, Outcome, Side};
use std::fmt::{self, Write as _};

/// The result token of a record whose game is not over (as in PGN): its
/// `Result` tag and its result line. A match never writes it.
pub const UNFINISHED: &str = "*";

/// A game's result, from A's side as the tokens are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A wins (`1-0`).
    AWins,
    /// B wins (`0-1`).
    BWins,
    /// A draw (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The result line's token.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::AWins => "1-0",
            GameResult::BWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::AWins),
            "0-1" => Some(GameResult::BWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// The result when `loser` loses.
    pub fn loss_of(loser: Side) -> GameResult {
        match loser {
            Side::A => GameResult::BWins,
            Side::B => GameResult::AWins,
        }
    }

    /// A record's result token: the result's, or [`UNFINISHED`] for none.
    pub fn token_of(result: Option<GameResult>) -> &'static str {
        result.map_or(UNFINISHED, GameResult::token)
    }

    /// A record's result token read: `Some(None)` for [`UNFINISHED`].
    pub(crate) fn parse_record(s: &str) -> Option<Option<GameResult>> {
        if s == UNFINISHED {
            Some(None)
        } else {
            GameResult::parse(s).map(Some)
        }
    }

    /// The result the rules give for this outcome.
    pub fn of_outcome(o: Outcome) -> GameResult {
        match o {
            Outcome::Win { winner } => GameResult::loss_of(winner.other()),
            Outcome::Draw(_) => GameResult::Draw,
        }
    }
}

/// Why a game ended. The first four are the rules' (RULINGS 9, 10); the
/// others are the referee's verdicts on an engine, always a loss for the
/// engine that was to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move has no legal move and loses.
    NoLegalMove,
    /// Adjiboto: the side to move cannot play but has 50 in his store: draw.
    Store,
    /// Third occurrence of a position: draw.
    Repetition,
    /// The ply cap (`DrawPlies`): draw.
    PlyCap,
    /// Simultaneous opening: a racer's opening move passed the lap budget: draw.
    EndlessRace,
    /// The engine's `bestmove` came after its time and the margin.
    TimeForfeit,
    /// No `bestmove` (or `readyok`, or handshake) in time, and no answer to
    /// `stop` either.
    Hang,
    /// The engine exited or closed its output.
    Crash,
    /// A well-formed move the position does not allow (or a null move).
    IllegalMove,
    /// A `bestmove` line whose move cannot be read.
    MalformedMove,
}

impl Reason {
    pub(crate) const ALL: [Reason; 10] = [
        Reason::NoLegalMove,
        Reason::Store,
        Reason::Repetition,
        Reason::PlyCap,
        Reason::EndlessRace,
        Reason::TimeForfeit,
        Reason::Hang,
        Reason::Crash,
        Reason::IllegalMove,
        Reason::MalformedMove,
    ];

    /// The code written in the `Reason` tag.
    pub fn code(self) -> &'static str {
        match self {
            Reason::NoLegalMove => "no-legal-move",
            Reason::Store => "store",
            Reason::Repetition => "repetition",
            Reason::PlyCap => "ply-cap",
            Reason::EndlessRace => "endless-race",
            Reason::TimeForfeit => "time-forfeit",
            Reason::Hang => "hang",
            Reason::Crash => "crash",
            Reason::IllegalMove => "illegal-move",
            Reason::MalformedMove => "malformed-move",
        }
    }

    /// The reason whose code is `s`.
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == s)
    }

    /// True for the referee's verdicts on an engine (not the rules' ends).
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            Reason::NoLegalMove
                | Reason::Store
                | Reason::Repetition
                | Reason::PlyCap
                | Reason::EndlessRace
        )
    }

    /// The reason the rules give for an outcome.
    pub fn of_outcome(o: Outcome) -> Reason {
        match o {
            Outcome::Win { .. } => Reason::NoLegalMove,
            Outcome::Draw(DrawReason::Store) => Reason::Store,
            Outcome::Draw(DrawReason::Repetition) => Reason::Repetition,
            Outcome::Draw(DrawReason::PlyCap) => Reason::PlyCap,
            Outcome::Draw(DrawReason::EndlessRace) => Reason::EndlessRace,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One move line: the position's ply before the move, the side that made
/// it, the move, and an optional comment (time, depth, score).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The position's ply before the move.
    pub ply: u32,
    /// The side that made the move.
    pub side: Side,
    /// The move, as written in PROTOCOL.md.
    pub mv: String,
    /// The comment after the move (time, depth, score), if any.
    pub comment: Option<String>,
}

/// One game as written: its tags in order, its moves and its result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tags, `[Name "value"]` lines, in order.
    pub tags: Vec<(String, String)>,
    /// The moves, one line each.
    pub moves: Vec<MoveEntry>,
    /// The result line; `None` for [`UNFINISHED`] (a game not over).
    pub result: Option<GameResult>,
    /// Line of the record's first line in the file it was read from (0 for
    /// records made in memory).
    pub line: usize,
}

impl Record {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Append the record in the text format, ending with a blank line.
    pub(crate) fn write_to(&self, out: &mut String) {
        for (k, v) in &self.tags {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
        }
        out.push('\n');
        for m in &self.moves {
            let _ = write!(out, "{} {} {}", m.ply, m.side.letter(), m.mv);
            if let Some(c) = &m.comment {
                let _ = write!(out, " {{{}}}", clean_comment(c));
            }
            out.push('\n');
        }
        out.push_str(GameResult::token_of(self.result));
        out.push_str("\n\n");
    }

    /// The record as written in a file, a blank line after it.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.write_to(&mut s);
        s
    }
}

/// A tag value made safe for one line: control characters escaped, at
/// most 200 characters (engine output can be anything).
pub(crate) fn clean_value(s: &str) -> String {
    crate::text::one_line(s, 200)
}

fn escape(v: &str) -> String {
    clean_value(v).replace('\\', "\\\\").replace('"', "\\\"")
}

fn clean_comment(c: &str) -> String {
    clean_value(c).replace('{', "(").replace('}', ")")
}

/// Where and why a record file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line it happened on, from 1.
    pub line: usize,
    /// What is wrong there.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for ParseError {}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn parse_move_line(line: &str) -> Result<MoveEntry, String> {
    let (head, comment) = match line.find('{') {
        Some(i) => {
            let c = line[i + 1..]
                .strip_suffix('}')
                .ok_or("a move comment must end the line with '}'")?;
            (&line[..i], Some(c.to_string()))
        }
        None => (line, None),
    };
    let t: Vec<&str> = head.split_whitespace().collect();
    let [ply, side, mv] = t[..] else {
        return Err(format!(
            "expected '<ply> <side> <move> [{{comment}}]' or a result, found '{}'",
            crate::text::clip(line)
        ));
    };
    let ply = ply
        .parse()
        .map_err(|_| format!("bad ply number '{}'", crate::text::clip(ply)))?;
    let side = match side {
        "a" => Side::A,
        "b" => Side::B,
        s => {
            return Err(format!(
                "side must be 'a' or 'b', not '{}'",
                crate::text::clip(s)
            ))
        }
    };
    Ok(MoveEntry {
        ply,
        side,
        mv: mv.to_string(),
        comment,
    })
}

/// Read every record of a file. Blank lines and lines starting with `#`
/// outside a move list are ignored.
pub fn parse_records(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut out = Vec::new();
    let mut cur: Option<Record> = None;
    let mut in_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |msg: String| ParseError { line: n, msg };
        if line.starts_with('[') {
            let tag = parse_tag(line).ok_or_else(|| err("malformed tag line".to_string()))?;
            match &mut cur {
                Some(_) if in_moves => {
                    return Err(err("a tag inside a move list (result line missing?)".into()))
                }
                Some(r) => r.tags.push(tag),
                None => {
                    cur = Some(Record {
                        tags: vec![tag],
                        moves: Vec::new(),
                        result: None,
                        line: n,
                    })
                }
            }
            continue;
        }
        let Some(r) = &mut cur else {
            return Err(err("a game must begin with its tags".into()));
        };
        in_moves = true;
        if let Some(res) = GameResult::parse_record(line) {
            r.result = res;
            if let Some(done) = cur.take() {
                out.push(done);
            }
            in_moves = false;
            continue;
        }
        r.moves.push(parse_move_line(line).map_err(err)?);
    }
    if let Some(r) = cur {
        return Err(ParseError {
            line: r.line,
            msg: "the game beginning here has no result line".into(),
        });
    }
    Ok(out)
}
