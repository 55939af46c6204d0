//! The referee: plays one game between two engines, keeping the game itself
//! with the engine crate.
//!
//! Before every move it asks the rules whether the game is over
//! (`Game::outcome`: no legal move, Adjiboto's store, repetition, ply cap;
//! RULINGS 9 and 10) and whose turn it is (`Position::side_to_move`); turns
//! are never assumed to alternate. Each reply is checked against the rules
//! and the clock. An engine that crashes, hangs, overruns its time or
//! answers with an illegal or malformed move loses the game on the spot,
//! with the reason in the record, and is killed; the next game that needs
//! it starts a fresh process.

use crate::engine::{Engine, EngineSpec, Fault, Proto, Reply};
use crate::openings::Opening;
use crate::record::{GameResult, MoveEntry, Reason, Record};
use choro_engine::{Game, MoveError, Side, Variant};
use std::time::Duration;

/// A clock: base time and increment per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub(crate) base: Duration,
    pub(crate) inc: Duration,
}

impl TimeControl {
    /// `base[+inc]` in seconds, e.g. `10+0.1`, `1`, `0.5+0.05`.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<Duration, String> {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("'{s}' is not base+increment in seconds (e.g. 10+0.1)"))
        };
        let tc = TimeControl {
            base: secs(b)?,
            inc: secs(i)?,
        };
        if tc.base.is_zero() && tc.inc.is_zero() {
            return Err(format!("'{s}': a time control needs some time"));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

/// What `go` carries. At least one is set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// A clock: base time and increment.
    pub tc: Option<TimeControl>,
    /// A fixed time per move.
    pub movetime: Option<Duration>,
    /// A depth limit.
    pub depth: Option<u32>,
    /// A node limit.
    pub nodes: Option<u64>,
}

impl Limits {
    pub(crate) fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }

    /// The record's `TimeControl` tag, e.g. `1+0.1`, `movetime=100ms depth=6`.
    pub(crate) fn describe(&self) -> String {
        let mut v = Vec::new();
        if let Some(tc) = self.tc {
            v.push(tc.to_string());
        }
        if let Some(m) = self.movetime {
            v.push(format!("movetime={}ms", m.as_millis()));
        }
        if let Some(d) = self.depth {
            v.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            v.push(format!("nodes={n}"));
        }
        v.join(" ")
    }
}

/// Everything about a game that is the same for every game of a match.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The record's `Event` tag.
    pub event: String,
    /// The rule code played.
    pub variant: Variant,
    /// The board's number of columns.
    pub columns: u8,
    /// The `Opening` option's value, sent to every engine; with a Choro
    /// code it also sets the start position (`s2` or `o2`).
    pub opening: choro_engine::Opening,
    /// Each racer's holds in the simultaneous opening (`RaceHolds`; sent,
    /// and tagged, only when not 0).
    pub race_holds: u8,
    /// The ply cap: a game reaching this many plies is a draw.
    pub draw_plies: u32,
    /// What `go` carries.
    pub limits: Limits,
    /// How far past its time an engine may answer before it loses.
    pub margin: Duration,
    /// How long a move may take when no time limit applies (depth, nodes).
    pub move_timeout: Duration,
    /// For the handshake and each `isready`.
    pub start_timeout: Duration,
    /// How long an engine past its deadline has to answer `stop`.
    pub stop_grace: Duration,
}

/// One game to play: which engines take A and B, and from where.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// 1-based game number of the match.
    pub number: u64,
    /// 1-based pair number within the match; both games of a pair share it.
    pub(crate) pair: u64,
    pub(crate) pairing: usize,
    /// Engine indices playing A and B.
    pub engines: [usize; 2],
    pub(crate) opening: Opening,
}

/// A worker's own engine processes, one slot per engine of the match.
pub(crate) struct Slot {
    pub(crate) spec: EngineSpec,
    pub(crate) engine: Option<Engine>,
    /// Processes started in this slot (1 + restarts).
    pub(crate) starts: u64,
}

impl Slot {
    pub(crate) fn new(spec: EngineSpec) -> Slot {
        Slot {
            spec,
            engine: None,
            starts: 0,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Which game it was: its number and who played A and B.
    pub job: GameJob,
    /// Its record, as written to the records file.
    pub record: Record,
    /// Its result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: Reason,
    /// For the referee's verdicts: the engine index that lost by failing.
    pub failed: Option<usize>,
}

/// A loss for the side to move, decided by the referee.
struct Verdict {
    reason: Reason,
    detail: String,
    bad_move: Option<String>,
}

fn fault_verdict(f: &Fault, timed: bool) -> Verdict {
    let reason = match f {
        Fault::Exited(_) | Fault::Io(_) => Reason::Crash,
        Fault::NoAnswer {
            answered_stop: true,
            what: "bestmove",
            ..
        } if timed => Reason::TimeForfeit,
        Fault::NoAnswer { .. } => Reason::Hang,
    };
    Verdict {
        reason,
        detail: f.to_string(),
        bad_move: None,
    }
}

/// The engine of `slot`, started, configured and told about a new game.
fn prepare<'a>(slot: &'a mut Slot, s: &Settings, new_game: bool) -> Result<&'a mut Engine, Fault> {
    if slot.engine.is_none() {
        slot.starts += 1;
        let mut e = Engine::start(&slot.spec, s.start_timeout)?;
        configure(&mut e, &slot.spec, s)?;
        slot.engine = Some(e);
    }
    let Some(e) = slot.engine.as_mut() else {
        return Err(Fault::Io("engine slot empty".into()));
    };
    if new_game {
        e.send(e.proto.newgame())?;
        e.sync(s.start_timeout)?;
    }
    Ok(e)
}

/// The game's own options first (to engines that list them), then the
/// user's `option.X=Y` settings, which may override them. `Columns` is the
/// width of a Choro board (8..16) and is not sent for Adjiboto.
pub(crate) fn configure(e: &mut Engine, spec: &EngineSpec, s: &Settings) -> Result<(), Fault> {
    let game_opts = [
        ("Variant", s.variant.name().to_string()),
        ("Columns", s.columns.to_string()),
        ("Opening", s.opening.name().to_string()),
        ("DrawPlies", s.draw_plies.to_string()),
    ];
    let holds = ("RaceHolds", s.race_holds.to_string());
    let holds = (s.race_holds > 0).then_some(holds);
    for (name, value) in game_opts.into_iter().chain(holds) {
        if name == "Columns" && !s.variant.is_choro() {
            continue;
        }
        if e.has_option(name) {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
    }
    for (name, value) in &spec.options {
        e.send(&format!("setoption name {name} value {value}"))?;
    }
    Ok(())
}

fn go_line(proto: Proto, limits: &Limits, clocks: [Duration; 2]) -> String {
    let mut go = String::from("go");
    if let Some(tc) = limits.tc {
        let f = proto.clock_fields();
        let vals = [clocks[0], clocks[1], tc.inc, tc.inc];
        for (k, v) in f.iter().zip(vals) {
            go.push_str(&format!(" {k} {}", v.as_millis()));
        }
    }
    if let Some(m) = limits.movetime {
        go.push_str(&format!(" movetime {}", m.as_millis()));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

fn comment(r: &Reply) -> String {
    let mut c = format!("{}ms", r.elapsed.as_millis());
    if let Some(d) = r.depth {
        c.push_str(&format!(" d{d}"));
    }
    if let Some(sc) = &r.score {
        c.push(' ');
        c.push_str(sc);
    }
    c
}

/// Play one game. `slots` are the worker's engines, indexed as the match's.
pub(crate) fn play(job: GameJob, slots: &mut [Slot], s: &Settings) -> Played {
    let start = job.opening.pos;
    let mut game = Game::new(start).with_draw_plies(s.draw_plies);
    let tc = s.limits.tc;
    let mut clocks = [tc.map_or(Duration::ZERO, |t| t.base); 2];
    let mut joined = [false; 2];
    let mut entries = Vec::new();
    let mut position_cmd = format!("position fen {start}");
    let mut moves_written = false;
    let timed = tc.is_some() || s.limits.movetime.is_some();

    let (result, reason, detail, bad_move, failed) = loop {
        if let Some(o) = game.outcome() {
            break (
                GameResult::of_outcome(o),
                Reason::of_outcome(o),
                o.to_string(),
                None,
                None,
            );
        }
        let side = game.position().side_to_move();
        let idx = job.engines[side.index()];
        let name = slots[idx].spec.name.clone();
        let lose = |v: Verdict| {
            (
                GameResult::loss_of(side),
                v.reason,
                format!("{side} ({name}): {}", v.detail),
                v.bad_move,
                Some(idx),
            )
        };
        let allowed = match (tc, s.limits.movetime) {
            (Some(_), Some(m)) => Some(clocks[side.index()].min(m)),
            (Some(_), None) => Some(clocks[side.index()]),
            (None, m) => m,
        };
        let deadline = allowed.map_or(s.move_timeout, |a| a + s.margin);
        let outcome = prepare(&mut slots[idx], s, !joined[side.index()]).and_then(|e| {
            let go = go_line(e.proto, &s.limits, clocks);
            e.think(&position_cmd, &go, deadline, s.stop_grace)
        });
        joined[side.index()] = true;
        let reply = match outcome {
            Ok(r) => r,
            Err(f) => {
                slots[idx].engine = None;
                break lose(fault_verdict(&f, timed));
            }
        };
        if let Some(a) = allowed {
            if reply.elapsed > a + s.margin {
                slots[idx].engine = None;
                break lose(Verdict {
                    reason: Reason::TimeForfeit,
                    detail: format!(
                        "bestmove after {} ms; it had {} ms and a margin of {} ms",
                        reply.elapsed.as_millis(),
                        a.as_millis(),
                        s.margin.as_millis()
                    ),
                    bad_move: None,
                });
            }
        }
        let ply = game.position().ply();
        match check_move(&mut game, &reply) {
            Ok(mv) => {
                if let Some(t) = tc {
                    let c = &mut clocks[side.index()];
                    *c = c.saturating_sub(reply.elapsed) + t.inc;
                }
                if !moves_written {
                    position_cmd.push_str(" moves");
                    moves_written = true;
                }
                position_cmd.push(' ');
                position_cmd.push_str(&mv);
                entries.push(MoveEntry {
                    ply,
                    side,
                    mv,
                    comment: Some(comment(&reply)),
                });
            }
            Err(v) => {
                slots[idx].engine = None;
                break lose(v);
            }
        }
    };

    let name_of = |side: Side| slots[job.engines[side.index()]].spec.name.clone();
    let mut tags = vec![
        ("Event", s.event.clone()),
        ("Game", job.number.to_string()),
        ("Pair", job.pair.to_string()),
        ("Variant", start.variant().name().to_string()),
        ("Columns", start.width().to_string()),
        ("Opening", s.opening.name().to_string()),
    ];
    if s.race_holds > 0 {
        tags.push(("RaceHolds", s.race_holds.to_string()));
    }
    tags.extend([
        ("DrawPlies", s.draw_plies.to_string()),
        ("A", name_of(Side::A)),
        ("B", name_of(Side::B)),
        ("TimeControl", s.limits.describe()),
        ("Book", job.opening.source.clone()),
        ("Start", start.to_string()),
        ("Result", result.token().to_string()),
        ("Reason", reason.code().to_string()),
        ("Detail", detail),
    ]);
    if let Some(b) = bad_move {
        tags.push(("BadMove", b));
    }
    tags.push(("Plies", entries.len().to_string()));
    let record = Record {
        tags: tags
            .into_iter()
            .map(|(k, v)| (k.to_string(), crate::record::clean_value(&v)))
            .collect(),
        moves: entries,
        result: Some(result),
        line: 0,
    };
    Played {
        job,
        record,
        result,
        reason,
        failed,
    }
}

/// Play the engine's move if it is legal; the move as the record writes it.
fn check_move(game: &mut Game, reply: &Reply) -> Result<String, Verdict> {
    let Some(word) = reply.words.first() else {
        return Err(Verdict {
            reason: Reason::MalformedMove,
            detail: "'bestmove' without a move".into(),
            bad_move: Some(String::new()),
        });
    };
    if word == "0000" {
        return Err(Verdict {
            reason: Reason::IllegalMove,
            detail: "null move 0000, but the game goes on".into(),
            bad_move: Some(word.clone()),
        });
    }
    match game.play_str(word) {
        Ok(m) => Ok(m.to_string()),
        Err(e) => Err(Verdict {
            reason: if matches!(e, MoveError::Malformed(_)) {
                Reason::MalformedMove
            } else {
                Reason::IllegalMove
            },
            detail: format!("bestmove {}: {e}", crate::text::clip(word)),
            bad_move: Some(word.clone()),
        }),
    }
}
