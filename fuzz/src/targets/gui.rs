//! The GUI server's message handling (crate `choro-gui`), in process: each
//! input line is one WebSocket message from the page (JSON text, read as the
//! server reads it: not JSON is a request without an `op`), answered by
//! [`App::request`] against a real engine, `choro-fuzz --serve-protocol`
//! (the protocol loop of the `choro` binary, [`choro::run`]).
//!
//! Checks, after every message: the reply is an object carrying the
//! request's `id`; a refused request gives one `error` string of at most
//! [`MAX_ERROR`] bytes and no other field; the engine never had to be
//! started again (a crash or a hang under the page's input). An accepted
//! request's reply agrees with the engine library itself: `newgame` and
//! `setup` give the start the position parser reads, `state` the position
//! that the moves reach from the start (`Game::play_str`) and exactly its
//! legal moves; a `state` whose start and moves the library accepts is not
//! refused, and one it refuses is; `go` answers a legal move, or `0000`
//! exactly when the game is over; a `record` reads back (`parse_records`)
//! with the request's start and moves; `records` gives as many games as
//! `parse_records` reads; `load_game` gives what `save_game` stored last.
//!
//! A line `#access HOST<tab>ORIGIN` is instead the headers of a WebSocket
//! upgrade (issue 28: another site's page, a DNS-rebinding name), put to the
//! server's check ([`Access::refusal`], the board on 127.0.0.1) and to a
//! model of it written apart: opened exactly when the `Host` is
//! `localhost`, `127.x.y.z` or `[::1]` (with a port or none) and the
//! `Origin` is `http://` or `https://` and that `Host`.

use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro_engine::{Game, Position, Variant};
use choro_gui::access::Access;
use choro_gui::engine::Limits;
use choro_gui::App;
use choro_match::record::parse_records;
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Longest `error` of a refused request.
pub const MAX_ERROR: usize = 400;
/// The longest `go` sent on, in ms: a mutated `movetime` (65535, say) is a
/// search of that length, which the page allows (up to 600 s) and the
/// watchdog would take for a hang; its cost is not its point.
pub const MAX_GO_MS: u64 = 1000;

pub const DICT: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ":",
    ",",
    "null",
    "true",
    "1e999",
    "-1",
    "\"op\"",
    "\"state\"",
    "\"go\"",
    "\"setup\"",
    "\"newgame\"",
    "\"trace\"",
    "\"record\"",
    "\"records\"",
    "\"stop\"",
    "\"save_game\"",
    "\"load_game\"",
    "\"start\"",
    "\"moves\"",
    "\"fen\"",
    "\"move\"",
    "\"id\"",
    "\\n",
    "\\u0000",
    "isready",
    "quit",
    "#",
    "#access ",
    "\t",
    "http://",
    "https://",
    "localhost",
    "127.0.0.1",
    "[::1]",
    ":7878",
    "evil.example",
];

/// What an `#access` line begins with.
const ACCESS: &str = "#access ";

/// The engine the target drives: a program and its arguments.
#[derive(Clone, Debug)]
pub struct EngineCmd {
    pub path: PathBuf,
    pub args: Vec<String>,
}

impl EngineCmd {
    /// This very program as the engine (`--serve-protocol`).
    pub fn this_program() -> Option<EngineCmd> {
        Some(EngineCmd {
            path: std::env::current_exe().ok()?,
            args: vec!["--serve-protocol".into()],
        })
    }
}

pub struct GuiTarget {
    rt: tokio::runtime::Runtime,
    app: Arc<App>,
    /// What `save_game` stored last (the app keeps it between inputs).
    saved: Value,
    pub requests: u64,
    pub refused: u64,
    pub not_json: u64,
    pub states: u64,
    pub gos: u64,
    pub records: u64,
    pub access_checked: u64,
    pub access_opened: u64,
}

impl GuiTarget {
    pub fn new(engine: EngineCmd) -> Result<GuiTarget, String> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        let app = App::new(engine.path, &engine.args);
        rt.block_on(app.set_limits(Limits {
            answer: Duration::from_secs(10),
            overrun: Duration::from_secs(1),
            grace: Duration::from_secs(2),
        }));
        Ok(GuiTarget {
            rt,
            app,
            saved: Value::Null,
            requests: 0,
            refused: 0,
            not_json: 0,
            states: 0,
            gos: 0,
            records: 0,
            access_checked: 0,
            access_opened: 0,
        })
    }
}

impl Target for GuiTarget {
    fn name(&self) -> &'static str {
        "gui"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        16 * 1024
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        let n = 1 + rng.below(6);
        let lines: Vec<String> = (0..n)
            .map(|_| {
                if rng.chance(1, 8) {
                    access_line(rng)
                } else {
                    request(rng).to_string()
                }
            })
            .collect();
        lines.join("\n").into_bytes()
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(base);
        match rng.below(4) {
            // Edit a field of one request, keeping it JSON.
            0 | 1 => text
                .split('\n')
                .map(|l| match serde_json::from_str::<Value>(l) {
                    Ok(mut v) if rng.chance(1, 2) => {
                        edit(rng, &mut v);
                        v.to_string()
                    }
                    _ => l.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes(),
            2 => mutate::words(rng, &text, DICT).into_bytes(),
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                d
            }
        }
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(input);
        for line in text.split('\n') {
            if let Some(headers) = line.strip_prefix(ACCESS) {
                self.access(headers)
                    .map_err(|e| format!("access {}: {e}", clip(line)))?;
                continue;
            }
            // As the WebSocket handler reads a text message.
            let mut req: Value = serde_json::from_str(line).unwrap_or_else(|_| {
                self.not_json += 1;
                Value::Null
            });
            bound_go(&mut req);
            self.one(&req)
                .map_err(|e| format!("request {}: {e}", clip(line)))?;
        }
        Ok(())
    }

    fn stats(&self) -> String {
        format!(
            "requests {} (refused {}, not JSON {}) states {} go {} records {} \
             access {} (opened {})",
            self.requests,
            self.refused,
            self.not_json,
            self.states,
            self.gos,
            self.records,
            self.access_checked,
            self.access_opened
        )
    }
}

/// A `go` request's `movetime` above [`MAX_GO_MS`] becomes `MAX_GO_MS`.
fn bound_go(req: &mut Value) {
    if req.get("op").and_then(Value::as_str) != Some("go") {
        return;
    }
    if let Some(t) = req.get_mut("movetime") {
        if t.as_u64().is_some_and(|ms| ms > MAX_GO_MS) {
            *t = json!(MAX_GO_MS);
        }
    }
}

/// Whether a refusal says the engine failed: the app's own ending for it
/// ([`choro_gui::RESTART_NOTE`]), not a word of the page's input that an
/// error quotes (an unknown variant `diedinga` is not a dead engine).
fn engine_failed(error: &str) -> bool {
    error.ends_with(choro_gui::RESTART_NOTE)
}

fn clip(s: &str) -> String {
    let t: String = s.chars().take(300).collect();
    if t.len() < s.len() {
        format!("{t}... ({} bytes)", s.len())
    } else {
        t
    }
}

/// The library's reading of a `state` request: the position its start and
/// moves reach, `None` when it refuses them. The request's `holds` is the
/// engine's `RaceHolds` (0 when absent, refused unless 0..8), which the
/// start's holds must agree with (RULES.md 8.10: at `s2`/`s1` exactly, in
/// a race no racer more).
fn library_state(req: &Value) -> Option<Game> {
    let start = req.get("start")?.as_str()?.trim();
    let pos: Position = start.parse().ok()?;
    let holds = match req.get("holds") {
        None | Some(Value::Null) => 0,
        Some(h) => h
            .as_u64()
            .filter(|&n| n <= u64::from(choro_gui::MAX_HOLDS))?,
    };
    let h = u64::from(pos.race_holds());
    if (pos.phase().is_blind() && h != holds) || h > holds {
        return None;
    }
    let mut g = Game::new(pos);
    if let Some(moves) = req.get("moves").and_then(Value::as_array) {
        for m in moves {
            // The protocol plays no move after the end (the ply cap included).
            if g.outcome().is_some() {
                return None;
            }
            g.play_str(m.as_str()?).ok()?;
        }
    }
    Some(g)
}

/// True when the page's own limits on the text of a position request hold
/// (one line of printable ASCII; moves printable words), so that the
/// engine library's verdict is the whole verdict.
fn plain_text(req: &Value) -> bool {
    let Some(start) = req.get("start").and_then(Value::as_str) else {
        return false;
    };
    let printable = |s: &str| s.chars().all(|c| c == ' ' || c.is_ascii_graphic());
    let moves_ok = match req.get("moves") {
        None | Some(Value::Null) => true,
        Some(Value::Array(a)) => a.iter().all(|m| {
            m.as_str()
                .is_some_and(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_graphic()))
        }),
        Some(_) => true,
    };
    // A `#` word is a comment to the protocol, not to the position parser.
    printable(start) && !start.trim().is_empty() && !start.contains('#') && moves_ok
}

/// The model of the board's check on 127.0.0.1: whether a page with these
/// `Host` and `Origin` headers may open the WebSocket.
fn model_opens(host: &str, origin: &str) -> bool {
    let lower = host.to_ascii_lowercase();
    // The name, and the port after it (digits, at most 65535) if any.
    let (name, port) = match lower.rfind(':') {
        Some(i) if !lower.ends_with(']') => (&lower[..i], Some(&lower[i + 1..])),
        _ => (lower.as_str(), None),
    };
    if let Some(p) = port {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        if p.parse::<u64>().map_or(true, |n| n > 65535) {
            return false;
        }
    }
    let loopback = name == "localhost"
        || name.parse::<Ipv4Addr>().is_ok_and(|a| a.octets()[0] == 127)
        || name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .and_then(|n| n.parse::<Ipv6Addr>().ok())
            .is_some_and(|a| {
                a == Ipv6Addr::LOCALHOST || a.to_ipv4_mapped().is_some_and(|v| v.is_loopback())
            });
    let o = origin.to_ascii_lowercase();
    loopback && (o == format!("http://{lower}") || o == format!("https://{lower}"))
}

/// An `#access` line: `Host` and `Origin` headers, the board's own or not.
fn access_line(rng: &mut Rng) -> String {
    const NAMES: &[&str] = &[
        "127.0.0.1",
        "localhost",
        "LocalHost",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "127.9.9.9",
        "evil.example",
        "127.0.0.1.nip.io",
        "localhost.evil.example",
        "0.0.0.0",
        "192.168.1.5",
        "[::2]",
        "",
    ];
    const PORTS: &[&str] = &[
        "", ":7878", ":0", ":65535", ":65536", ":", ":78x", ":7878:1",
    ];
    let host = format!("{}{}", rng.pick(NAMES), rng.pick(PORTS));
    let origin = match rng.below(4) {
        0 | 1 => format!("{}{host}", rng.pick(&["http://", "https://", "HTTP://"])),
        2 => format!(
            "{}{}{}",
            rng.pick(&["http://", "https://", "ws://", ""]),
            rng.pick(NAMES),
            rng.pick(PORTS)
        ),
        _ => rng.pick(&["null", "", "http://evil.example"]).to_string(),
    };
    format!("{ACCESS}{host}\t{origin}")
}

impl GuiTarget {
    /// An `#access` line: the server's check agrees with the model.
    fn access(&mut self, headers: &str) -> Result<(), String> {
        self.access_checked += 1;
        let (host, origin) = headers.split_once('\t').unwrap_or((headers, ""));
        let board = Access::new(IpAddr::V4(Ipv4Addr::LOCALHOST), &[]);
        let refusal = board.refusal(Some(host), Some(origin), true);
        let want = model_opens(host, origin);
        match (&refusal, want) {
            (None, true) => {
                self.access_opened += 1;
                Ok(())
            }
            (Some(_), false) => Ok(()),
            (None, false) => Err("opened; the model refuses it".into()),
            (Some(why), true) => Err(format!("refused ({why}); the model opens it")),
        }
    }

    fn one(&mut self, req: &Value) -> Result<(), String> {
        self.requests += 1;
        let (reply, _infos) = self.rt.block_on(self.app.request(req.clone()));
        let Some(obj) = reply.as_object() else {
            return Err(format!("reply {reply} is not an object"));
        };
        let id = req.get("id").cloned().unwrap_or(Value::Null);
        if reply["id"] != id {
            return Err(format!("reply {reply} does not carry the id {id}"));
        }
        if reply.get("restarts").and_then(Value::as_u64).unwrap_or(0) > 0 {
            return Err(format!("the engine was started again: {reply}"));
        }
        let op = req.get("op").and_then(Value::as_str).unwrap_or("");
        if let Some(e) = obj.get("error") {
            self.refused += 1;
            let Some(e) = e.as_str() else {
                return Err(format!("error {e} is not a string"));
            };
            if e.len() > MAX_ERROR {
                return Err(format!("an error of {} bytes: {}", e.len(), clip(e)));
            }
            if obj.len() != 2 {
                return Err(format!("a refusal with other fields: {reply}"));
            }
            if engine_failed(e) {
                return Err(format!("the engine failed: {e}"));
            }
            if op == "state" && plain_text(req) {
                if let Some(g) = library_state(req) {
                    let p = g.position();
                    return Err(format!("refused ({e}), the library reaches {p}"));
                }
            }
            return Ok(());
        }
        match op {
            "state" => {
                self.states += 1;
                let shown = reply["position"].as_str().unwrap_or("");
                if plain_text(req) {
                    let Some(g) = library_state(req) else {
                        return Err(format!("accepted ({shown}), the library refuses it"));
                    };
                    let p = *g.position();
                    if shown != p.to_string() {
                        return Err(format!("position {shown}, the library reaches {p}"));
                    }
                    let mut want: Vec<String> = p
                        .legal_moves()
                        .iter()
                        .map(|(m, _)| p.restyle(*m).to_string())
                        .collect();
                    let mut got: Vec<String> = reply["moves"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|m| m[0].as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    want.sort();
                    got.sort();
                    if want != got {
                        return Err(format!("moves {got:?}, the library lists {want:?}"));
                    }
                }
            }
            "setup" | "newgame" => {
                let shown = reply["start"].as_str().unwrap_or("");
                let p: Position = shown
                    .parse()
                    .map_err(|e| format!("start '{shown}' does not read back: {e}"))?;
                if op == "newgame" {
                    let code = req["variant"].as_str().unwrap_or("");
                    let v: Variant = code
                        .parse()
                        .map_err(|e| format!("newgame accepted variant '{code}': {e}"))?;
                    if p.variant() != v || p.ply() != 0 {
                        return Err(format!("newgame {code} started {p}"));
                    }
                } else if plain_text(&json!({"start": req["fen"]})) {
                    let want: Position = req["fen"]
                        .as_str()
                        .unwrap_or("")
                        .trim()
                        .parse()
                        .map_err(|e| format!("setup accepted, the library refuses it: {e}"))?;
                    if want != p {
                        return Err(format!("setup gave {p}, the library reads {want}"));
                    }
                }
            }
            "go" => {
                self.gos += 1;
                let mv = reply["bestmove"].as_str().unwrap_or("");
                if let Some(g) = library_state(req).filter(|_| plain_text(req)) {
                    let p = g.position();
                    // The game's end, the ply cap included.
                    let over = g.outcome().is_some();
                    if over != (mv == "0000") {
                        return Err(format!("bestmove {mv} in {p}"));
                    }
                    if !over {
                        p.parse_move(mv)
                            .map_err(|e| format!("bestmove {mv} illegal in {p}: {e}"))?;
                    }
                }
            }
            "record" => {
                self.records += 1;
                let text = reply["record"].as_str().unwrap_or("");
                let recs = parse_records(text)
                    .map_err(|e| format!("the record does not read back: {e}\n{text}"))?;
                let [r] = recs.as_slice() else {
                    return Err(format!("{} records in one: {text}", recs.len()));
                };
                let start = req["start"].as_str().unwrap_or("").trim();
                let moves: Vec<&str> = req["moves"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let got: Vec<&str> = r.moves.iter().map(|m| m.mv.as_str()).collect();
                if r.tag("Start") != Some(start) || got != moves {
                    return Err(format!("the record reads back otherwise:\n{text}"));
                }
            }
            "records" => {
                let text = req["text"].as_str().unwrap_or("");
                let n = parse_records(text).map(|r| r.len()).unwrap_or(usize::MAX);
                let got = reply["games"].as_array().map_or(0, Vec::len);
                if n != got {
                    return Err(format!("{got} games, parse_records reads {n}"));
                }
            }
            "save_game" => self.saved = req.get("game").cloned().unwrap_or(Value::Null),
            "load_game" => {
                if reply["game"] != self.saved {
                    return Err(format!(
                        "load_game {} after saving {}",
                        reply["game"], self.saved
                    ));
                }
            }
            "trace" => {
                let lines = reply["trace"].as_array().map_or(&[][..], Vec::as_slice);
                if lines.is_empty() || !lines.iter().all(|l| l.as_str().is_some()) {
                    return Err(format!("trace without its lines: {reply}"));
                }
            }
            "stop" => {}
            _ => return Err(format!("unknown op '{op}' accepted: {reply}")),
        }
        Ok(())
    }
}

/// A request the page could send, mostly well formed.
fn request(rng: &mut Rng) -> Value {
    let id = json!(rng.below(1000));
    let (start, moves) = game(rng);
    match rng.below(20) {
        0..=6 => json!({"id": id, "op": "state", "start": start, "moves": moves}),
        7 | 8 => {
            let v = *rng.pick(&Variant::ALL);
            let columns = if rng.chance(1, 2) {
                json!(gen::width(rng, v))
            } else {
                json!(rng.pick(mutate::EDGE_NUMBERS).to_string())
            };
            json!({"id": id, "op": "newgame", "variant": v.name(), "columns": columns,
                   "opening": *rng.pick(&["simultaneous", "sequential", "both", "x y"])})
        }
        9 | 10 => json!({"id": id, "op": "setup", "fen": start}),
        11 | 12 => json!({"id": id, "op": "trace", "start": start, "moves": moves,
                         "move": gen::move_string(rng)}),
        13 => json!({"id": id, "op": "go", "start": start, "moves": moves,
                     "algorithm": *rng.pick(&["alphabeta", "mcts", "random", "greedy", "minimax"]),
                     "movetime": rng.range(0, 30)}),
        14 | 15 => {
            // A finished game more often than not: random play to the end.
            let v = *rng.pick(&Variant::ALL);
            let (st, end, ms) = gen::random_play(rng, v, 400);
            let _ = end;
            json!({"id": id, "op": "record", "start": st.to_string(), "moves": ms,
                   "a": "alpha \"one\"", "b": "b\\two"})
        }
        16 => json!({"id": id, "op": "records", "text": record_text(rng)}),
        17 => json!({"id": id, "op": "save_game", "game": {"start": start, "moves": moves}}),
        18 => json!({"id": id, "op": "load_game"}),
        _ => json!({"id": id, "op": *rng.pick(&["stop", "quit", "", "State"])}),
    }
}

/// A start position string and a few legal moves from it.
fn game(rng: &mut Rng) -> (String, Vec<String>) {
    let from = gen::any_position(rng);
    let (_, moves) = gen::legal_line(rng, from, 8);
    (from.to_string(), moves)
}

fn record_text(rng: &mut Rng) -> String {
    let v = *rng.pick(&Variant::ALL);
    let (start, _, moves) = gen::random_play(rng, v, 12);
    let mut t = format!(
        "[Event \"fuzz\"]\n[Variant \"{}\"]\n[Start \"{start}\"]\n[Result \"*\"]\n\n",
        v.name()
    );
    for (i, m) in moves.iter().enumerate() {
        t += &format!("{} a {m}\n", i + 1);
    }
    t += "1/2-1/2\n\n";
    t
}

/// Edit one field of a request: a value swapped for another type, a
/// string spoiled, a move list cut or extended.
fn edit(rng: &mut Rng, v: &mut Value) {
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    let keys: Vec<String> = obj.keys().cloned().collect();
    if keys.is_empty() {
        return;
    }
    let k = &keys[rng.below(keys.len())];
    let new = match rng.below(8) {
        0 => Value::Null,
        1 => json!(rng
            .pick(mutate::EDGE_NUMBERS)
            .parse::<f64>()
            .unwrap_or(-1.0)),
        2 => json!([]),
        3 => json!({}),
        4 => json!(rng.pick(DICT)),
        5 => match &obj[k] {
            Value::String(s) => json!(format!(
                "{s}{}",
                rng.pick(&["\n", " isready", "\u{7f}", "é", " # x", "  "])
            )),
            other => other.clone(),
        },
        6 => match &obj[k] {
            Value::Array(a) => {
                let mut a = a.clone();
                if rng.chance(1, 2) {
                    a.truncate(rng.below(a.len() + 1));
                } else {
                    a.push(json!(gen::move_string(rng)));
                }
                Value::Array(a)
            }
            other => other.clone(),
        },
        _ => json!(gen::move_string(rng)),
    };
    obj.insert(k.clone(), new);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_failure_is_told_by_the_apps_wording_not_the_input() {
        // Finding gui-22d02dfb2c953d96: the engine's refusal quoted an
        // unknown variant 'diedinga', which the old test took for "died".
        let quoted = "position fen: field 1: unknown variant 'diedinga'; previous position kept";
        assert!(!engine_failed(quoted));
        assert!(!engine_failed("bad 'variant': \"hung restarted died\""));
        for f in [
            choro_gui::engine::Failure::Died,
            choro_gui::engine::Failure::Hung("isready"),
            choro_gui::engine::Failure::Start("no such file".into()),
        ] {
            assert!(engine_failed(&format!("{f}; {}", choro_gui::RESTART_NOTE)));
        }
    }

    /// The oracle of a `state` request reads its `holds` as the server
    /// and the engine do (RULES.md 8.10): the start's holds must agree.
    #[test]
    fn the_library_reads_a_requests_holds_as_the_engine_does() {
        use choro_engine::Opening;
        let s2 = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
        let two = s2.with_race_holds(2).unwrap().to_string();
        let state = |start: &str, holds: Value| {
            library_state(
                &json!({"op": "state", "start": start, "moves": ["l", "a", "_"], "holds": holds}),
            )
            .map(|g| g.position().to_string())
        };
        assert!(state(&two, json!(2)).is_some_and(|p| p.contains("held=1")));
        for bad in [
            json!(null),
            json!(0),
            json!(1),
            json!(3),
            json!(9),
            json!("2"),
            json!(-1),
        ] {
            assert_eq!(state(&two, bad.clone()), None, "{bad}");
        }
        assert!(
            state(&s2.to_string(), json!(null)).is_none(),
            "no hold to take"
        );
        let plain = json!({"op": "state", "start": s2.to_string(), "moves": ["l"]});
        assert!(library_state(&plain).is_some());
    }

    #[test]
    fn a_long_go_is_bounded_and_nothing_else_changes() {
        let mut long = json!({"op": "go", "id": 1, "movetime": 65535, "algorithm": "mcts"});
        bound_go(&mut long);
        assert_eq!(long["movetime"], MAX_GO_MS);
        assert_eq!(long["algorithm"], "mcts");
        for req in [
            json!({"op": "go", "movetime": 20}),
            json!({"op": "go", "movetime": "65535"}),
            json!({"op": "go"}),
            json!({"op": "state", "movetime": 65535}),
            json!(42),
        ] {
            let mut r = req.clone();
            bound_go(&mut r);
            assert_eq!(r, req);
        }
    }
}
