//! The move parser: parse -> display -> parse round-trips, the displayed
//! form is the input written canonically, and a second, plainly written
//! recogniser of the grammar (PROTOCOL.md, "Moves") accepts exactly what
//! the parser accepts.

use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro_engine::{Move, ParseMoveError, Token, MAX_TOKENS};

pub const DICT: &[&str] = &[
    "~", "x", "X", "+", "-", "=", "a", "p", "q", "z", "1", "16", "32", "33", "~i", "~k=", "xf",
    "+-+", "=~k", "0000",
];

#[derive(Default)]
pub struct MoveTarget {
    pub accepted: u64,
    pub rejected: u64,
}

impl Target for MoveTarget {
    fn name(&self) -> &'static str {
        "move"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        512
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        gen::move_string(rng).into_bytes()
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        let mut d = base.to_vec();
        if rng.chance(1, 2) {
            // Token-level: cut, repeat or splice whole tokens.
            let at = rng.below(d.len() + 1);
            let piece = gen::move_string(rng);
            let piece = &piece.as_bytes()[..rng.below(piece.len() + 1)];
            d.splice(at..at, piece.iter().copied());
        } else {
            mutate::bytes(rng, &mut d, other, DICT, self.max_len());
        }
        d
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let s = String::from_utf8_lossy(input);
        let parsed = s.parse::<Move>();
        let expected = reference(&s);
        match (parsed, expected) {
            (Ok(m), Some(canonical)) => {
                self.accepted += 1;
                check_accepted(&s, &m, &canonical)
            }
            (Err(e), None) => {
                self.rejected += 1;
                check_rejected(&s, &e)
            }
            (Ok(m), None) => Err(format!(
                "'{}' accepted as {m}, the grammar rejects it",
                s.escape_debug()
            )),
            (Err(e), Some(c)) => Err(format!(
                "'{}' rejected ({e}), the grammar reads it as {c}",
                s.escape_debug()
            )),
        }
    }

    fn stats(&self) -> String {
        format!("accepted {} rejected {}", self.accepted, self.rejected)
    }
}

fn check_accepted(s: &str, m: &Move, canonical: &str) -> Result<(), String> {
    let shown = m.to_string();
    if shown != canonical {
        return Err(format!(
            "'{s}' displayed as '{shown}', expected '{canonical}'"
        ));
    }
    let again: Move = shown
        .parse()
        .map_err(|e| format!("display '{shown}' of '{s}' rejected: {e}"))?;
    if again != *m || again.uses_letters() != m.uses_letters() || again.to_string() != shown {
        return Err(format!("'{s}': parse(display) differs: {again:?} vs {m:?}"));
    }
    // The other form names the same path.
    let other = m.with_letters(!m.uses_letters());
    // Letters name holes 1..16 (8-wide boards); beyond, `x` would read as
    // the start-capture mark.
    if m.max_hole() <= 16 {
        let o: Move = other
            .to_string()
            .parse()
            .map_err(|e| format!("'{s}' in the other form '{other}' rejected: {e}"))?;
        if o != *m {
            return Err(format!("'{s}' and '{other}' differ"));
        }
    }
    if m.len() > MAX_TOKENS || m.is_empty() {
        return Err(format!("'{s}': {} tokens", m.len()));
    }
    let toks: Vec<Token> = m.tokens().collect();
    // A race decision opens with a choice and no start.
    let decision = !toks[0].is_start();
    for (i, t) in toks.iter().enumerate() {
        let after_leave = i > 0 && toks[i - 1] == Token::Leave;
        if t.is_start() != ((i == 0 && !decision) || after_leave) {
            return Err(format!("'{s}': token {i} {t:?} out of place"));
        }
    }
    Ok(())
}

fn check_rejected(s: &str, e: &ParseMoveError) -> Result<(), String> {
    let at = match e {
        ParseMoveError::Unexpected(i, _)
        | ParseMoveError::ExpectedStart(i)
        | ParseMoveError::BadHole(i) => Some(*i),
        _ => None,
    };
    if let Some(i) = at {
        if i > s.len() || !s.is_char_boundary(i.min(s.len())) {
            return Err(format!(
                "'{}': error offset {i} outside the input",
                s.escape_debug()
            ));
        }
    }
    let _ = e.to_string();
    Ok(())
}

/// The grammar `move = start choice* | choice+ | "." | "_"` (the second a
/// race decision, only a single choice ever legal; the last two a tick's
/// choice), `start = ["~" | "x"] hole`,
/// `choice = "+" | "-" | "=" start`, read segment by segment between `=`
/// signs; a hole is a decimal number 1..32 or one letter. Returns the
/// canonical spelling (lower case, no leading zeros) when accepted.
pub fn reference(s: &str) -> Option<String> {
    if s.is_empty() || !s.is_ascii() {
        return None;
    }
    // A racer's tick choice in a race with holds (RULES.md 8.10): `.`
    // (drop) or `_` (hold), a move alone.
    if s == "." || s == "_" {
        return Some(s.to_string());
    }
    let (mut letters, mut digits) = (false, false);
    let mut tokens = 0usize;
    let mut out = String::new();
    for (k, seg) in s.split('=').enumerate() {
        if k > 0 {
            out.push('=');
            tokens += 1;
        }
        let b = seg.as_bytes();
        // A race decision: the move opens with choices, no start.
        if k == 0 && b.iter().all(|&c| c == b'+' || c == b'-') {
            out.push_str(seg);
            tokens += seg.len();
            continue;
        }
        let mut i = 0;
        if matches!(b.first(), Some(b'~' | b'x' | b'X')) {
            out.push(b[0].to_ascii_lowercase() as char);
            i = 1;
        }
        let rest = &seg[i..];
        let n_digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let tail = if n_digits > 0 {
            digits = true;
            let v: u128 = rest[..n_digits].parse().unwrap_or(u128::MAX);
            if !(1..=32).contains(&v) {
                return None;
            }
            out.push_str(&v.to_string());
            &rest[n_digits..]
        } else {
            let c = *rest.as_bytes().first()?;
            if !c.is_ascii_alphabetic() {
                return None;
            }
            letters = true;
            out.push(c.to_ascii_lowercase() as char);
            &rest[1..]
        };
        if !tail.bytes().all(|c| c == b'+' || c == b'-') {
            return None;
        }
        out.push_str(tail);
        tokens += 1 + tail.len();
    }
    if (letters && digits) || tokens > MAX_TOKENS {
        return None;
    }
    Some(out)
}
