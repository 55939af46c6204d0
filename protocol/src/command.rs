//! Parsing one input line into a [`Command`]. Parsing needs no state: what
//! depends on the game (move legality, option names) is checked when the
//! server executes the command.

use crate::clip;
use choro_engine::{Move, ParseMoveError, Position, PositionError};
use std::fmt;

/// One protocol command (PROTOCOL.md, "Commands").
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Ugi,
    Uci,
    IsReady,
    Debug(bool),
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    Position {
        start: Start,
        moves: Vec<Move>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    Query(Query),
    /// `d`
    Display,
    Moves,
    Perft(u32),
    Divide(u32),
    Eval,
    Bench,
    /// `solve [movetime <ms>] [nodes <n>] [plies <n>]`
    Solve(SolveReq),
    /// `trace <move>`: the move drop by drop.
    Trace(Move),
}

/// The limits of `solve` (none: until proven or `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveReq {
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub plies: Option<u32>,
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    StartPos,
    Fen(Position),
}

/// The UGI queries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

/// The fields of `go`. Clock times are milliseconds, indexed by side (A, B).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub time: [Option<u64>; 2],
    pub inc: [Option<u64>; 2],
    pub movestogo: Option<u32>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<Move>,
}

/// Deepest `perft` and `divide` accepted.
pub const MAX_PERFT: u32 = 64;
/// Deepest `go depth` and `go mate` accepted.
pub const MAX_DEPTH: u32 = 1000;

/// Why a line is not a command. Each names the command and the argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    UnknownCommand(String),
    /// `command` wants `what` and the line ended.
    Missing {
        command: &'static str,
        what: &'static str,
    },
    /// A token `command` does not take.
    Unexpected {
        command: &'static str,
        token: String,
    },
    /// `key` of `command` is not a number.
    NotNumber {
        command: &'static str,
        key: &'static str,
        text: String,
    },
    /// `key` of `command` is outside `min..max`.
    OutOfRange {
        command: &'static str,
        key: &'static str,
        text: String,
        min: i128,
        max: i128,
    },
    BadPosition(PositionError),
    /// The `index`th move (1-based) of `command`'s move list is malformed.
    BadMove {
        command: &'static str,
        index: usize,
        text: String,
        err: ParseMoveError,
    },
    UnknownQuery(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(c) => write!(f, "unknown command '{}'", clip(c)),
            ParseError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            ParseError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{}'", clip(token))
            }
            ParseError::NotNumber { command, key, text } => {
                write!(f, "{command} {key}: '{}' is not an integer", clip(text))
            }
            ParseError::OutOfRange {
                command,
                key,
                text,
                min,
                max,
            } => write!(
                f,
                "{command} {key}: {} is out of range {min}..{max}",
                clip(text)
            ),
            ParseError::BadPosition(e) => {
                write!(f, "position fen: {e}; previous position kept")
            }
            ParseError::BadMove {
                command,
                index,
                text,
                err,
            } => {
                write!(f, "{command}: move {index} '{}': {err}", clip(text))?;
                if *command == "position" {
                    write!(f, "; previous position kept")?;
                }
                Ok(())
            }
            ParseError::UnknownQuery(q) => write!(
                f,
                "query: unknown question '{}' (gameover, p1turn, result)",
                clip(q)
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// Tokens of one line, with the command's name for error messages.
struct Args<'a> {
    command: &'static str,
    toks: std::iter::Peekable<std::str::SplitAsciiWhitespace<'a>>,
}

impl<'a> Args<'a> {
    fn next(&mut self, what: &'static str) -> Result<&'a str, ParseError> {
        self.toks.next().ok_or(ParseError::Missing {
            command: self.command,
            what,
        })
    }

    /// The line must end here.
    fn end(&mut self) -> Result<(), ParseError> {
        match self.toks.next() {
            None => Ok(()),
            Some(t) => Err(ParseError::Unexpected {
                command: self.command,
                token: t.to_string(),
            }),
        }
    }

    /// An integer argument in `min..=max`.
    fn int<T: TryFrom<i128>>(
        &mut self,
        key: &'static str,
        min: i128,
        max: i128,
    ) -> Result<T, ParseError> {
        let text = self.next(key)?;
        let command = self.command;
        let n: i128 = text.parse().map_err(|_| ParseError::NotNumber {
            command,
            key,
            text: text.to_string(),
        })?;
        let out_of_range = || ParseError::OutOfRange {
            command,
            key,
            text: text.to_string(),
            min,
            max,
        };
        if n < min || n > max {
            return Err(out_of_range());
        }
        T::try_from(n).map_err(|_| out_of_range())
    }

    /// A clock time: any i64, negative counted as 0.
    fn clock(&mut self, key: &'static str) -> Result<u64, ParseError> {
        let t: i64 = self.int(key, i64::MIN as i128, i64::MAX as i128)?;
        Ok(t.max(0) as u64)
    }
}

fn moves(command: &'static str, toks: &[&str]) -> Result<Vec<Move>, ParseError> {
    toks.iter()
        .enumerate()
        .map(|(i, t)| {
            t.parse::<Move>().map_err(|err| ParseError::BadMove {
                command,
                index: i + 1,
                text: t.to_string(),
                err,
            })
        })
        .collect()
}

/// The words that end a `searchmoves` list.
const GO_WORDS: [&str; 16] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Parse one line. `Ok(None)` for a blank line, which is ignored.
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    let mut toks = line.split_ascii_whitespace().peekable();
    let Some(word) = toks.next() else {
        return Ok(None);
    };
    let command: &'static str = match word {
        "ugi" => "ugi",
        "uci" => "uci",
        "isready" => "isready",
        "debug" => "debug",
        "setoption" => "setoption",
        "uginewgame" => "uginewgame",
        "ucinewgame" => "ucinewgame",
        "position" => "position",
        "go" => "go",
        "stop" => "stop",
        "ponderhit" => "ponderhit",
        "quit" => "quit",
        "query" => "query",
        "d" => "d",
        "moves" => "moves",
        "perft" => "perft",
        "divide" => "divide",
        "eval" => "eval",
        "bench" => "bench",
        "solve" => "solve",
        "trace" => "trace",
        _ => return Err(ParseError::UnknownCommand(word.to_string())),
    };
    let mut a = Args { command, toks };
    let cmd = match command {
        "ugi" => Command::Ugi,
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "debug" => match a.next("on or off")? {
            "on" => Command::Debug(true),
            "off" => Command::Debug(false),
            t => {
                return Err(ParseError::Unexpected {
                    command,
                    token: t.to_string(),
                })
            }
        },
        "setoption" => return set_option(a).map(Some),
        "uginewgame" | "ucinewgame" => Command::NewGame,
        "position" => return position(a).map(Some),
        "go" => return go(a).map(Some),
        "solve" => return solve(a).map(Some),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "query" => Command::Query(match a.next("question")? {
            "gameover" => Query::GameOver,
            "p1turn" => Query::P1Turn,
            "result" => Query::Result,
            q => return Err(ParseError::UnknownQuery(q.to_string())),
        }),
        "d" => Command::Display,
        "moves" => Command::Moves,
        "perft" => Command::Perft(a.int("depth", 1, MAX_PERFT as i128)?),
        "divide" => Command::Divide(a.int("depth", 1, MAX_PERFT as i128)?),
        "eval" => Command::Eval,
        "trace" => {
            let t = a.next("move")?;
            let mut m = moves(command, &[t])?;
            Command::Trace(m.remove(0))
        }
        _ => Command::Bench,
    };
    a.end()?;
    Ok(Some(cmd))
}

fn set_option(mut a: Args<'_>) -> Result<Command, ParseError> {
    match a.next("'name'")? {
        "name" => {}
        t => {
            return Err(ParseError::Unexpected {
                command: a.command,
                token: t.to_string(),
            })
        }
    }
    let mut name = Vec::new();
    let mut value = None;
    while let Some(t) = a.toks.next() {
        if t == "value" {
            value = Some(a.toks.by_ref().collect::<Vec<_>>().join(" "));
            break;
        }
        name.push(t);
    }
    if name.is_empty() {
        return Err(ParseError::Missing {
            command: a.command,
            what: "option name",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn position(mut a: Args<'_>) -> Result<Command, ParseError> {
    // A word beginning with `#` starts a comment that runs to the end of
    // the line (PROTOCOL.md), so a line of a position file with a remark
    // after it sets the position it names.
    let rest: Vec<&str> = a
        .toks
        .by_ref()
        .take_while(|t| !t.starts_with('#'))
        .collect();
    let Some((&kind, rest)) = rest.split_first() else {
        return Err(ParseError::Missing {
            command: a.command,
            what: "'startpos' or 'fen'",
        });
    };
    let cut = rest.iter().position(|&t| t == "moves");
    let (head, tail) = match cut {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let start = match kind {
        "startpos" => {
            if let Some(t) = head.first() {
                return Err(ParseError::Unexpected {
                    command: a.command,
                    token: t.to_string(),
                });
            }
            Start::StartPos
        }
        "fen" => {
            if head.is_empty() {
                return Err(ParseError::Missing {
                    command: a.command,
                    what: "position string after 'fen'",
                });
            }
            Start::Fen(head.join(" ").parse().map_err(ParseError::BadPosition)?)
        }
        t => {
            return Err(ParseError::Unexpected {
                command: a.command,
                token: t.to_string(),
            })
        }
    };
    Ok(Command::Position {
        start,
        moves: moves(a.command, tail)?,
    })
}

fn solve(mut a: Args<'_>) -> Result<Command, ParseError> {
    let mut r = SolveReq::default();
    while let Some(t) = a.toks.next() {
        match t {
            "movetime" => r.movetime = Some(a.int("movetime", 1, i64::MAX as i128)?),
            "nodes" => r.nodes = Some(a.int("nodes", 1, u64::MAX as i128)?),
            "plies" => r.plies = Some(a.int("plies", 1, 4094)?),
            t => {
                return Err(ParseError::Unexpected {
                    command: a.command,
                    token: t.to_string(),
                })
            }
        }
    }
    Ok(Command::Solve(r))
}

fn go(mut a: Args<'_>) -> Result<Command, ParseError> {
    let mut g = Go::default();
    const MS: i128 = i64::MAX as i128;
    while let Some(t) = a.toks.next() {
        match t {
            "depth" => g.depth = Some(a.int("depth", 1, MAX_DEPTH as i128)?),
            "nodes" => g.nodes = Some(a.int("nodes", 1, u64::MAX as i128)?),
            "movetime" => g.movetime = Some(a.int("movetime", 0, MS)?),
            "wtime" => g.time[0] = Some(a.clock("wtime")?),
            "btime" => g.time[1] = Some(a.clock("btime")?),
            "winc" => g.inc[0] = Some(a.clock("winc")?),
            "binc" => g.inc[1] = Some(a.clock("binc")?),
            "p1time" => g.time[0] = Some(a.clock("p1time")?),
            "p2time" => g.time[1] = Some(a.clock("p2time")?),
            "p1inc" => g.inc[0] = Some(a.clock("p1inc")?),
            "p2inc" => g.inc[1] = Some(a.clock("p2inc")?),
            "movestogo" => g.movestogo = Some(a.int("movestogo", 1, 1_000_000)?),
            "mate" => g.mate = Some(a.int("mate", 1, MAX_DEPTH as i128)?),
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "searchmoves" => {
                let mut list = Vec::new();
                while let Some(&m) = a.toks.peek() {
                    if GO_WORDS.contains(&m) {
                        break;
                    }
                    list.push(m);
                    a.toks.next();
                }
                // An empty list would restrict nothing: every move would be
                // searched, which the sender did not ask for.
                if list.is_empty() {
                    return Err(ParseError::Missing {
                        command: "go searchmoves",
                        what: "a move",
                    });
                }
                g.searchmoves = moves("go searchmoves", &list)?;
            }
            "perft" => {
                let n = a.int("depth", 1, MAX_PERFT as i128)?;
                a.end()?;
                return Ok(Command::Divide(n));
            }
            _ => {
                return Err(ParseError::Unexpected {
                    command: a.command,
                    token: t.to_string(),
                })
            }
        }
    }
    Ok(Command::Go(g))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use choro_engine::Variant;

    fn ok(line: &str) -> Command {
        match parse(line) {
            Ok(Some(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn err(line: &str) -> ParseError {
        match parse(line) {
            Err(e) => e,
            other => panic!("{line}: expected an error, got {other:?}"),
        }
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("ugi"), Command::Ugi);
        assert_eq!(ok("  uci \t"), Command::Uci);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("ponderhit"), Command::PonderHit);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("moves"), Command::Moves);
        assert_eq!(ok("eval"), Command::Eval);
        assert_eq!(ok("trace ~k=a-"), Command::Trace("~k=a-".parse().unwrap()));
        assert!(parse("trace").is_err());
        assert!(parse("trace k l").is_err());
        assert!(parse("trace k!").is_err());
        assert_eq!(ok("bench"), Command::Bench);
        assert_eq!(ok("perft 3"), Command::Perft(3));
        assert_eq!(ok("divide 2"), Command::Divide(2));
        assert_eq!(ok("go perft 2"), Command::Divide(2));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse(" \t "), Ok(None));
    }

    #[test]
    fn queries() {
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("query result"), Command::Query(Query::Result));
        assert_eq!(
            err("query winner"),
            ParseError::UnknownQuery("winner".into())
        );
        assert!(matches!(err("query"), ParseError::Missing { .. }));
        assert!(matches!(
            err("query result now"),
            ParseError::Unexpected { .. }
        ));
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name X value"),
            Command::SetOption {
                name: "X".into(),
                value: Some(String::new())
            }
        );
        assert!(matches!(
            err("setoption value 3"),
            ParseError::Unexpected { .. }
        ));
        assert!(matches!(
            err("setoption name value 3"),
            ParseError::Missing { .. }
        ));
    }

    #[test]
    fn position_startpos_and_fen_with_moves() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves m ~k=a-"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![mv("m"), mv("~k=a-")]
            }
        );
        let s = "adjiboto 10,10,10,10,10/10,10,10,10,10 a -/- 0/0 0";
        let Command::Position {
            start: Start::Fen(p),
            moves,
        } = ok(&format!("position fen {s} moves 3"))
        else {
            panic!()
        };
        assert_eq!(p.variant(), Variant::Adjiboto);
        assert_eq!(p.to_string(), s);
        assert_eq!(moves, vec![mv("3")]);
    }

    #[test]
    fn position_ignores_a_comment_word_and_what_follows() {
        let s = "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a m 4";
        let p: Position = s.parse().unwrap();
        for line in [
            format!("position fen {s} # ~k=~k=o n j c; depth 4: cp -750"),
            format!("position fen {s} #no space"),
            format!("position fen {s}\t#"),
        ] {
            assert_eq!(
                ok(&line),
                Command::Position {
                    start: Start::Fen(p),
                    moves: vec![]
                },
                "{line}"
            );
        }
        assert_eq!(
            ok(&format!("position fen {s} moves a # then b moves c")),
            Command::Position {
                start: Start::Fen(p),
                moves: vec![mv("a")]
            }
        );
        assert_eq!(
            ok("position startpos # the start"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        // `#` inside a word is no comment.
        assert_eq!(
            err(&format!("position fen {s}#x")),
            ParseError::BadPosition(PositionError::Ply("4#x".into()))
        );
        assert!(matches!(
            err("position fen # only a comment"),
            ParseError::Missing { .. }
        ));
    }

    #[test]
    fn position_errors_name_the_place() {
        assert!(matches!(err("position"), ParseError::Missing { .. }));
        assert!(matches!(err("position fen"), ParseError::Missing { .. }));
        assert!(matches!(
            err("position fen moves m"),
            ParseError::Missing { .. }
        ));
        assert!(matches!(
            err("position startpos m"),
            ParseError::Unexpected { .. }
        ));
        assert!(matches!(
            err("position somewhere"),
            ParseError::Unexpected { .. }
        ));
        assert_eq!(
            err("position fen didinga:8 1/1/1/1 a m"),
            ParseError::BadPosition(PositionError::RowLength(1, 8, 1))
        );
        let full =
            "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a m 4";
        let e = err(&format!("position fen {full} junk"));
        assert_eq!(
            e,
            ParseError::BadPosition(PositionError::Trailing(5, "junk".into()))
        );
        assert_eq!(
            e.to_string(),
            "position fen: trailing text 'junk' after a complete position string of 5 fields; \
             previous position kept"
        );
        let e = err("position startpos moves m k! n");
        assert!(
            matches!(e, ParseError::BadMove { index: 2, ref text, .. } if text == "k!"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "position: move 2 'k!': unexpected character '!' at offset 1; previous position kept"
        );
        assert!(matches!(
            err("position startpos moves mn3"),
            ParseError::BadMove { index: 1, .. }
        ));
    }

    #[test]
    fn go_fields() {
        let Command::Go(g) = ok(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 30 depth 7 nodes 99 movetime 500 mate 3",
        ) else {
            panic!()
        };
        assert_eq!(g.time, [Some(1000), Some(0)]);
        assert_eq!(g.inc, [Some(10), Some(20)]);
        assert_eq!(g.movestogo, Some(30));
        assert_eq!(g.depth, Some(7));
        assert_eq!(g.nodes, Some(99));
        assert_eq!(g.movetime, Some(500));
        assert_eq!(g.mate, Some(3));
        let Command::Go(g) = ok("go p1time 10 p2time 20 p1inc 1 p2inc 2") else {
            panic!()
        };
        assert_eq!(g.time, [Some(10), Some(20)]);
        assert_eq!(g.inc, [Some(1), Some(2)]);
        let Command::Go(g) = ok("go ponder searchmoves m ~k=a- infinite") else {
            panic!()
        };
        assert!(g.ponder && g.infinite);
        assert_eq!(g.searchmoves, vec![mv("m"), mv("~k=a-")]);
        assert_eq!(ok("go"), Command::Go(Go::default()));
    }

    #[test]
    fn go_errors() {
        assert!(matches!(
            err("go depth"),
            ParseError::Missing { what: "depth", .. }
        ));
        assert!(matches!(
            err("go depth x"),
            ParseError::NotNumber { key: "depth", .. }
        ));
        assert!(matches!(
            err("go depth 0"),
            ParseError::OutOfRange { key: "depth", .. }
        ));
        assert!(matches!(
            err("go depth 1001"),
            ParseError::OutOfRange { .. }
        ));
        assert!(matches!(
            err("go nodes 18446744073709551616"),
            ParseError::OutOfRange { .. }
        ));
        assert!(matches!(
            err("go movetime -1"),
            ParseError::OutOfRange { .. }
        ));
        assert!(matches!(
            err("go wtime 99999999999999999999"),
            ParseError::OutOfRange { .. }
        ));
        assert!(matches!(err("go wtime 1e9"), ParseError::NotNumber { .. }));
        assert!(matches!(err("go fast"), ParseError::Unexpected { .. }));
        assert!(matches!(
            err("go searchmoves m ?"),
            ParseError::BadMove { index: 2, .. }
        ));
        assert_eq!(
            err("go depth 0").to_string(),
            "go depth: 0 is out of range 1..1000"
        );
        // An empty list is no restriction the sender could have meant
        // (RELIABILITY.md finding 37): before, it searched every move.
        for empty in [
            "go searchmoves",
            "go searchmoves depth 3",
            "go depth 2 searchmoves",
        ] {
            assert_eq!(
                err(empty).to_string(),
                "go searchmoves: missing a move",
                "{empty}"
            );
        }
    }

    #[test]
    fn unknown_and_extra_words() {
        assert_eq!(
            err("fly me to the moon"),
            ParseError::UnknownCommand("fly".into())
        );
        assert_eq!(err("UCI"), ParseError::UnknownCommand("UCI".into()));
        assert!(matches!(err("isready now"), ParseError::Unexpected { .. }));
        assert!(matches!(
            err("perft 0"),
            ParseError::OutOfRange { key: "depth", .. }
        ));
        assert!(matches!(err("perft 65"), ParseError::OutOfRange { .. }));
        assert!(matches!(err("divide"), ParseError::Missing { .. }));
        let long = "x".repeat(1000);
        assert!(err(&long).to_string().len() < 100, "messages clip input");
    }
}
