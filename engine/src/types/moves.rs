//! `Move`: the whole decision path of one turn, packed in a fixed array.
//!
//! Notation (RULES.md, "Notation"): `move = start choice* | choice`,
//! `start = hole | "~" hole | "x" hole`, `choice = "+" | "-" | "=" start`.
//! A lone choice is a racer's decision in the simultaneous opening; a lone
//! `.` (drop) or `_` (hold) is a racer's choice at a tick of a race with
//! holds.
//! Holes are Driberg numbers (1 = a): letters `a`..`p` on 8-wide boards,
//! decimal numbers on every width; Adjiboto uses 1..5 from the mover's left.

use std::fmt;
use std::str::FromStr;

/// Most tokens a move can hold (starts and choices together).
pub const MAX_TOKENS: usize = 62;

/// One element of a decision path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// Lift hole `n` and sow counter-clockwise.
    Lift(u8),
    /// Lift base hole `n` and sow clockwise (Lango first lap, Acholi attack).
    Clockwise(u8),
    /// Lango start capture at the mover's front hole `n`.
    StartCapture(u8),
    /// Take the clockwise option offered here.
    Plus,
    /// Decline it: the normal counter-clockwise way.
    Minus,
    /// Acholi: leave the increment in the hole; a new start follows.
    Leave,
    /// A racer's choice at a tick of a race with holds (`RaceHolds`): drop
    /// his counter in this tick (`.`).
    Drop,
    /// ... or hold: let the tick pass without dropping (`_`).
    Hold,
}

const T_PLUS: u8 = 0xc0;
const T_MINUS: u8 = 0xc1;
const T_LEAVE: u8 = 0xc2;
const T_DROP: u8 = 0xc3;
const T_HOLD: u8 = 0xc4;

impl Token {
    #[inline]
    fn encode(self) -> u8 {
        match self {
            Token::Lift(n) => n,
            Token::Clockwise(n) => 0x40 | n,
            Token::StartCapture(n) => 0x80 | n,
            Token::Plus => T_PLUS,
            Token::Minus => T_MINUS,
            Token::Leave => T_LEAVE,
            Token::Drop => T_DROP,
            Token::Hold => T_HOLD,
        }
    }

    /// Whether the token starts a move (a lift, a clockwise start or a start capture).
    pub fn is_start(self) -> bool {
        matches!(
            self,
            Token::Lift(_) | Token::Clockwise(_) | Token::StartCapture(_)
        )
    }

    #[inline]
    pub(crate) const fn decode(b: u8) -> Token {
        match b {
            T_PLUS => Token::Plus,
            T_MINUS => Token::Minus,
            T_LEAVE => Token::Leave,
            T_DROP => Token::Drop,
            T_HOLD => Token::Hold,
            _ => match b >> 6 {
                0 => Token::Lift(b & 0x3f),
                1 => Token::Clockwise(b & 0x3f),
                _ => Token::StartCapture(b & 0x3f),
            },
        }
    }
}

/// A move: a decision path of up to [`MAX_TOKENS`] tokens. `Copy`, no heap.
///
/// Equality and hashing ignore how the holes are written (letters or numbers).
/// A move is parsed with `FromStr` and written with `Display` (PROTOCOL.md,
/// "Moves"):
///
/// ```
/// use choro_engine::Move;
///
/// let m: Move = "e".parse().unwrap();
/// assert_eq!(m.to_string(), "e");
/// assert_eq!("5".parse::<Move>().unwrap(), m, "hole e is hole 5");
/// assert!("".parse::<Move>().is_err());
/// ```
#[derive(Copy, Clone)]
pub struct Move {
    len: u8,
    letters: bool,
    toks: [u8; MAX_TOKENS],
}

impl Move {
    /// A move with no token yet, written with letters (`letters`) or numbers.
    pub const fn empty(letters: bool) -> Move {
        Move {
            len: 0,
            letters,
            toks: [0; MAX_TOKENS],
        }
    }

    /// Append a token; false when the move is full.
    #[inline]
    pub fn push(&mut self, t: Token) -> bool {
        if (self.len as usize) < MAX_TOKENS {
            self.toks[self.len as usize] = t.encode();
            self.len += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    /// Keep the first `len` tokens.
    pub fn truncate(&mut self, len: usize) {
        self.len = len as u8;
    }

    #[inline]
    /// Tokens in the move.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    /// Whether the move has no token.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its tokens in order.
    pub fn tokens(&self) -> impl Iterator<Item = Token> + '_ {
        self.toks[..self.len as usize]
            .iter()
            .map(|&b| Token::decode(b))
    }

    /// The first token's byte code (for tables indexed by it, built with
    /// [`Token::decode`]); `None` for the empty move.
    #[inline]
    pub(crate) fn first_code(&self) -> Option<u8> {
        (self.len > 0).then_some(self.toks[0])
    }

    /// The `i`-th token, if the move has that many.
    pub fn token(&self, i: usize) -> Option<Token> {
        (i < self.len()).then(|| Token::decode(self.toks[i]))
    }

    /// Number of decisions (choice tokens and starts after a leave) in the path.
    pub fn decisions(&self) -> usize {
        self.tokens().skip(1).filter(|t| *t != Token::Leave).count()
    }

    /// Whether holes are written as Driberg letters.
    pub fn uses_letters(&self) -> bool {
        self.letters
    }

    /// The same move written with letters (`letters`) or numbers.
    pub fn with_letters(mut self, letters: bool) -> Move {
        self.letters = letters;
        self
    }

    /// True when `self` is a proper prefix of `other`.
    pub(crate) fn is_prefix_of(&self, other: &Move) -> bool {
        self.len < other.len && self.toks[..self.len()] == other.toks[..self.len()]
    }

    /// The highest hole number named in the move.
    pub fn max_hole(&self) -> u8 {
        self.tokens()
            .filter_map(|t| match t {
                Token::Lift(n) | Token::Clockwise(n) | Token::StartCapture(n) => Some(n),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }
}

impl PartialEq for Move {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let n = self.len();
        if n != other.len() {
            return false;
        }
        if n <= 8 {
            // Most paths fit in one word: compare their bytes at once (the
            // bytes past the length may hold anything, so they are masked).
            let word = |m: &Move| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&m.toks[..8]);
                u64::from_le_bytes(w)
            };
            let mask = u64::MAX.checked_shr(64 - 8 * n as u32).unwrap_or(0);
            return (word(self) ^ word(other)) & mask == 0;
        }
        self.toks[..n] == other.toks[..n]
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.toks[..self.len()].hash(state)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hole = |f: &mut fmt::Formatter<'_>, n: u8| {
            if self.letters {
                write!(f, "{}", (b'a' + n - 1) as char)
            } else {
                write!(f, "{n}")
            }
        };
        for t in self.tokens() {
            match t {
                Token::Lift(n) => hole(f, n)?,
                Token::Clockwise(n) => {
                    f.write_str("~")?;
                    hole(f, n)?
                }
                Token::StartCapture(n) => {
                    f.write_str("x")?;
                    hole(f, n)?
                }
                Token::Plus => f.write_str("+")?,
                Token::Minus => f.write_str("-")?,
                Token::Leave => f.write_str("=")?,
                Token::Drop => f.write_str(".")?,
                Token::Hold => f.write_str("_")?,
            }
        }
        Ok(())
    }
}

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// The string is empty.
    Empty,
    /// An unexpected character at this byte offset.
    Unexpected(usize, char),
    /// A start was expected at this offset (at the beginning or after `=`).
    ExpectedStart(usize),
    /// A hole number outside 1..=32 at this offset.
    BadHole(usize),
    /// Letters and numbers mixed in one move.
    MixedForms,
    /// More tokens than a move holds (`MAX_TOKENS`).
    TooLong,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "empty move"),
            ParseMoveError::Unexpected(i, c) => {
                write!(
                    f,
                    "unexpected character '{}' at offset {i}",
                    c.escape_debug()
                )
            }
            ParseMoveError::ExpectedStart(i) => write!(f, "expected a hole at offset {i}"),
            ParseMoveError::BadHole(i) => write!(f, "hole number out of range at offset {i}"),
            ParseMoveError::MixedForms => write!(f, "letters and numbers mixed in one move"),
            ParseMoveError::TooLong => {
                write!(f, "more than {MAX_TOKENS} tokens in one move")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let b = s.as_bytes();
        let mut m = Move::empty(false);
        // A racer's tick choice (drop `.`, hold `_`) is a move of its own.
        if let Some(t) = match b[0] {
            b'.' => Some(Token::Drop),
            b'_' => Some(Token::Hold),
            _ => None,
        } {
            if b.len() > 1 {
                let c = s[1..].chars().next().unwrap_or('?');
                return Err(ParseMoveError::Unexpected(1, c));
            }
            m.push(t);
            return Ok(m);
        }
        let (mut saw_letter, mut saw_digit) = (false, false);
        let mut i = 0;
        // A race decision is a choice alone (`+`, `-`, `=start`).
        let mut want_start = !matches!(b[0], b'+' | b'-' | b'=');
        let push = |m: &mut Move, t: Token| {
            if m.push(t) {
                Ok(())
            } else {
                Err(ParseMoveError::TooLong)
            }
        };
        while i < b.len() {
            if want_start {
                let mut kind = 0u8;
                if b[i] == b'~' || b[i] == b'x' || b[i] == b'X' {
                    kind = if b[i] == b'~' { 1 } else { 2 };
                    i += 1;
                }
                let at = i;
                let n = match b.get(i) {
                    Some(c) if c.is_ascii_digit() => {
                        let mut v: u32 = 0;
                        while i < b.len() && b[i].is_ascii_digit() {
                            v = v.saturating_mul(10).saturating_add((b[i] - b'0') as u32);
                            i += 1;
                        }
                        saw_digit = true;
                        v
                    }
                    Some(c) if c.is_ascii_alphabetic() => {
                        i += 1;
                        saw_letter = true;
                        (c.to_ascii_lowercase() - b'a' + 1) as u32
                    }
                    _ => return Err(ParseMoveError::ExpectedStart(at)),
                };
                if !(1..=32).contains(&n) {
                    return Err(ParseMoveError::BadHole(at));
                }
                let n = n as u8;
                push(
                    &mut m,
                    match kind {
                        0 => Token::Lift(n),
                        1 => Token::Clockwise(n),
                        _ => Token::StartCapture(n),
                    },
                )?;
                want_start = false;
            } else {
                let t = match b[i] {
                    b'+' => Token::Plus,
                    b'-' => Token::Minus,
                    b'=' => {
                        want_start = true;
                        Token::Leave
                    }
                    _ => {
                        let c = s[i..].chars().next().unwrap_or('?');
                        return Err(ParseMoveError::Unexpected(i, c));
                    }
                };
                push(&mut m, t)?;
                i += 1;
            }
        }
        if want_start {
            return Err(ParseMoveError::ExpectedStart(b.len()));
        }
        if saw_letter && saw_digit {
            return Err(ParseMoveError::MixedForms);
        }
        m.letters = saw_letter;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A move built from `toks`, cut to `len` after `junk` more tokens were
    /// pushed and truncated (so bytes past the length are not zero).
    fn built(toks: &[u8], junk: &[u8], len: usize) -> Move {
        let mut m = Move::empty(false);
        for &t in toks.iter().chain(junk) {
            m.push(Token::decode(t));
        }
        m.truncate(len.min(toks.len()));
        m
    }

    proptest! {
        /// Equality is the plain comparison of the tokens up to the length,
        /// whatever lies past it, at every length on both sides of the
        /// one-word fast path.
        #[test]
        fn equality_is_that_of_the_token_lists(
            a in proptest::collection::vec(0u8..4, 0..14),
            b in proptest::collection::vec(0u8..4, 0..14),
            ja in proptest::collection::vec(0u8..200, 0..10),
            jb in proptest::collection::vec(0u8..200, 0..10),
            la in 0usize..14,
            lb in 0usize..14,
        ) {
            let (x, y) = (built(&a, &ja, la), built(&b, &jb, lb));
            let plain = x.toks[..x.len()] == y.toks[..y.len()];
            prop_assert_eq!(x == y, plain);
            // The same tokens with different junk are equal.
            let z = built(&a, &jb, la);
            prop_assert!(x == z);
        }
    }

    #[test]
    fn round_trips() {
        for s in [
            "m", "xf-+", "~i+-", "~k=~i-", "~k=m", "13", "~11=9+-", "x4", "1", "a+-+-", ".", "_",
        ] {
            let m: Move = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
        }
        let a: Move = "m".parse().unwrap();
        let b: Move = "13".parse().unwrap();
        assert_eq!(a, b, "letters and numbers name the same path");
        assert_eq!("M".parse::<Move>().unwrap().to_string(), "m");
    }

    #[test]
    fn rejects_malformed() {
        assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
        assert_eq!("~".parse::<Move>(), Err(ParseMoveError::ExpectedStart(1)));
        assert_eq!("m=".parse::<Move>(), Err(ParseMoveError::ExpectedStart(2)));
        assert_eq!("0".parse::<Move>(), Err(ParseMoveError::BadHole(0)));
        assert_eq!("33".parse::<Move>(), Err(ParseMoveError::BadHole(0)));
        assert_eq!(
            "m3+".parse::<Move>(),
            Err(ParseMoveError::Unexpected(1, '3'))
        );
        assert_eq!(
            "m+é".parse::<Move>(),
            Err(ParseMoveError::Unexpected(2, 'é'))
        );
        assert_eq!("m=3".parse::<Move>(), Err(ParseMoveError::MixedForms));
        assert_eq!("=".parse::<Move>(), Err(ParseMoveError::ExpectedStart(1)));
        // A tick choice is a move alone.
        assert_eq!(
            "._".parse::<Move>(),
            Err(ParseMoveError::Unexpected(1, '_'))
        );
        assert_eq!(
            "a.".parse::<Move>(),
            Err(ParseMoveError::Unexpected(1, '.'))
        );
        assert_eq!(
            "+_".parse::<Move>(),
            Err(ParseMoveError::Unexpected(1, '_'))
        );
        for race in ["+", "-", "=c", "=~k", "=12"] {
            assert_eq!(race.parse::<Move>().unwrap().to_string(), race);
        }
        let long = format!("m{}", "+".repeat(MAX_TOKENS));
        assert_eq!(long.parse::<Move>(), Err(ParseMoveError::TooLong));
    }
}
