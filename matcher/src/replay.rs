//! `choro replay`: re-play recorded games with the engine crate and check
//! every move, the side that made it, the result and the reason.

use crate::record::{parse_records, GameResult, Reason, Record, UNFINISHED};
use choro_engine::files::Bounds;
use choro_engine::rules::DEFAULT_DRAW_PLIES;
use choro_engine::{Game, MoveError, Opening, Position, Side};
use std::collections::BTreeMap;

/// What a record file reader takes: a tag or a move a line, the games of a
/// long campaign in a file.
pub(crate) const BOUNDS: Bounds = Bounds {
    line: 1 << 20,
    file: 1 << 30,
};

/// What a record that checks out says (no result or reason: unfinished).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The result the replay reaches; `None` for an unfinished game.
    pub result: Option<GameResult>,
    /// Why the game ended; `None` for an unfinished game.
    pub reason: Option<Reason>,
    /// The moves replayed.
    pub plies: usize,
}

fn required<'a>(r: &'a Record, name: &str) -> Result<&'a str, String> {
    r.tag(name).ok_or_else(|| format!("no [{name}] tag"))
}

/// Re-play one record; the error names the first thing that does not agree.
pub fn verify(r: &Record) -> Result<Verified, String> {
    let start: Position = required(r, "Start")?
        .parse()
        .map_err(|e| format!("[Start]: {e}"))?;
    if let Some(v) = r.tag("Variant") {
        if !v.eq_ignore_ascii_case(start.variant().name()) {
            return Err(format!(
                "[Variant \"{v}\"] but the start position is {}",
                start.variant()
            ));
        }
    }
    if let Some(c) = r.tag("Columns") {
        if c.parse::<u8>().ok() != Some(start.width()) {
            return Err(format!(
                "[Columns \"{c}\"] but the start position is {} wide",
                start.width()
            ));
        }
    }
    if let Some(o) = r.tag("Opening") {
        let mode: Opening = o.parse().map_err(|e| format!("[Opening \"{o}\"]: {e}"))?;
        let phase = start.phase();
        let other = match mode {
            Opening::Sequential => phase.is_simultaneous(),
            Opening::Simultaneous => phase.is_opening(),
        };
        if start.variant().is_choro() && other {
            return Err(format!(
                "[Opening \"{o}\"] but the start position is in phase {}",
                phase.token()
            ));
        }
    }
    let draw_plies = match r.tag("DrawPlies") {
        Some(d) => d
            .parse::<u32>()
            .ok()
            .filter(|&d| d >= 1)
            .ok_or_else(|| format!("[DrawPlies \"{d}\"] is not a number from 1"))?,
        None => DEFAULT_DRAW_PLIES,
    };
    let result_tag = required(r, "Result")?;
    let result = GameResult::parse_record(result_tag)
        .ok_or_else(|| format!("bad [Result \"{result_tag}\"]"))?;
    if result != r.result {
        return Err(format!(
            "[Result \"{result_tag}\"] but the result line is {}",
            GameResult::token_of(r.result)
        ));
    }
    // An unfinished game (`*`) has no reason; a finished one must give it.
    let reason = match (result, r.tag("Reason")) {
        (None, None) => None,
        (None, Some(t)) => {
            return Err(format!(
                "[Reason \"{t}\"] but the game is marked unfinished ({UNFINISHED})"
            ))
        }
        (Some(_), None) => return Err("no [Reason] tag".into()),
        (Some(_), Some(t)) => {
            Some(Reason::parse(t).ok_or_else(|| format!("unknown [Reason \"{t}\"]"))?)
        }
    };

    let game = play_moves(
        start,
        draw_plies,
        r.moves
            .iter()
            .map(|m| (m.mv.as_str(), Some((m.ply, m.side)))),
    )?;
    match (result, reason) {
        (Some(result), Some(reason)) => check_end(&game, result, reason, r.tag("BadMove"))?,
        _ => check_unfinished(&game)?,
    }
    if let Some(p) = r.tag("Plies") {
        if p.parse::<usize>().ok() != Some(r.moves.len()) {
            return Err(format!("[Plies \"{p}\"] but {} moves", r.moves.len()));
        }
    }
    Ok(Verified {
        result,
        reason,
        plies: r.moves.len(),
    })
}

/// Re-play `moves` from `start` with the rules (and the ply cap
/// `draw_plies`); each move may carry the ply and the side written for it,
/// which must be the position's. The game at the end, or what went wrong.
pub(crate) fn play_moves<'a>(
    start: Position,
    draw_plies: u32,
    moves: impl IntoIterator<Item = (&'a str, Option<(u32, Side)>)>,
) -> Result<Game, String> {
    let mut game = Game::new(start).with_draw_plies(draw_plies);
    for (i, (word, written)) in moves.into_iter().enumerate() {
        let n = i + 1;
        // Quoted clipped: a record or part file may hold anything.
        let mv = crate::text::clip(word);
        if let Some(o) = game.outcome() {
            return Err(format!("move {n} '{mv}': the game was already over ({o})"));
        }
        let pos = game.position();
        if let Some((ply, side)) = written {
            if ply != pos.ply() {
                return Err(format!(
                    "move {n} '{mv}': written at ply {ply} but the position is at ply {}",
                    pos.ply()
                ));
            }
            if side != pos.side_to_move() {
                return Err(format!(
                    "move {n} '{mv}': written for {side} but {} is to move",
                    pos.side_to_move()
                ));
            }
        }
        game.play_str(word)
            .map_err(|e| format!("move {n} '{mv}': {e}"))?;
    }
    Ok(game)
}

/// Whether a game re-played to its last move ends as `result` and `reason`
/// say: a rules' end must be the rules' own result; a referee's verdict (an
/// engine's failure) must come while the game goes on and be a loss for the
/// side to move. `bad_move`, when given, is checked against the reason.
pub(crate) fn check_end(
    game: &Game,
    result: GameResult,
    reason: Reason,
    bad_move: Option<&str>,
) -> Result<(), String> {
    let outcome = game.outcome();
    let side = game.position().side_to_move();
    let plies = game.position().ply();
    if reason.is_failure() {
        if let Some(o) = outcome {
            return Err(format!(
                "[Reason \"{reason}\"] but the rules had already ended the game ({o})"
            ));
        }
        if result != GameResult::loss_of(side) {
            return Err(format!(
                "[Reason \"{reason}\"] is a loss for {side}, who was to move, but the result is {}",
                result.token()
            ));
        }
        if let Some(bad) = bad_move {
            check_bad_move(game.position(), reason, bad)?;
        }
    } else {
        let Some(o) = outcome else {
            return Err(format!(
                "[Reason \"{reason}\"] but the game is not over at ply {plies} \
                 (a game not over is marked {UNFINISHED})"
            ));
        };
        if Reason::of_outcome(o) != reason || GameResult::of_outcome(o) != result {
            return Err(format!(
                "[Result \"{}\"] [Reason \"{reason}\"] but the rules say {} {} ({o})",
                result.token(),
                GameResult::of_outcome(o).token(),
                Reason::of_outcome(o)
            ));
        }
    }
    Ok(())
}

/// A record marked unfinished (`*`): its game must not be over at its end.
pub(crate) fn check_unfinished(game: &Game) -> Result<(), String> {
    match game.outcome() {
        Some(o) => Err(format!(
            "[Result \"{UNFINISHED}\"] marks the game unfinished, but it is over at ply {} ({o}): \
             its result is {} ({})",
            game.position().ply(),
            GameResult::of_outcome(o).token(),
            Reason::of_outcome(o)
        )),
        None => Ok(()),
    }
}

/// The refused move must really be refused, and for the stated reason.
fn check_bad_move(pos: &Position, reason: Reason, bad: &str) -> Result<(), String> {
    let verdict = if bad == "0000" {
        Some(MoveError::Illegal("0000".into()))
    } else if bad.is_empty() {
        None
    } else {
        pos.parse_move(bad).err()
    };
    match (reason, verdict) {
        (_, None) if bad.is_empty() && reason == Reason::MalformedMove => Ok(()),
        (_, None) => Err(format!(
            "[BadMove \"{bad}\"] is a legal move here, yet the game was lost by {reason}"
        )),
        (Reason::MalformedMove, Some(MoveError::Malformed(_))) => Ok(()),
        (Reason::IllegalMove, Some(MoveError::Illegal(_) | MoveError::Incomplete(_))) => Ok(()),
        (Reason::IllegalMove | Reason::MalformedMove, Some(e)) => Err(format!(
            "[BadMove \"{bad}\"] is refused as '{e}', which is not {reason}"
        )),
        _ => Ok(()),
    }
}

/// The outcome of replaying a file.
#[derive(Clone, Debug, Default)]
pub struct ReplaySummary {
    pub(crate) games: usize,
    /// The games that check out.
    pub verified: usize,
    /// `(game label, what is wrong)` for each record that does not check out.
    pub mismatches: Vec<(String, String)>,
    pub(crate) results: BTreeMap<&'static str, usize>,
    pub(crate) reasons: BTreeMap<Reason, usize>,
    pub(crate) plies: usize,
}

fn label(r: &Record, index: usize) -> String {
    match r.tag("Game") {
        Some(g) => format!("game {g} (line {})", r.line),
        None => format!("record {} (line {})", index + 1, r.line),
    }
}

/// Replay every record of `text`; a file that cannot be read at all is an
/// error, a record that does not check out is a mismatch.
pub fn replay_text(text: &str) -> Result<ReplaySummary, String> {
    let records = parse_records(text).map_err(|e| e.to_string())?;
    let mut s = ReplaySummary {
        games: records.len(),
        ..ReplaySummary::default()
    };
    for (i, r) in records.iter().enumerate() {
        match verify(r) {
            Ok(v) => {
                s.verified += 1;
                s.plies += v.plies;
                *s.results.entry(GameResult::token_of(v.result)).or_default() += 1;
                if let Some(reason) = v.reason {
                    *s.reasons.entry(reason).or_default() += 1;
                }
            }
            Err(e) => s.mismatches.push((label(r, i), e)),
        }
    }
    Ok(s)
}

impl ReplaySummary {
    /// The report `choro replay` prints.
    pub fn lines(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .mismatches
            .iter()
            .map(|(g, e)| format!("mismatch: {g}: {e}"))
            .collect();
        let results: Vec<String> = self
            .results
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        v.push(format!(
            "games {} verified {} mismatches {} plies {}",
            self.games,
            self.verified,
            self.mismatches.len(),
            self.plies
        ));
        if !results.is_empty() {
            v.push(format!("results {}", results.join(", ")));
            v.push(format!("reasons {}", reasons.join(", ")));
        }
        v
    }
}
