//! choro-gui: a local web board that drives the `choro` binary over the
//! protocol (PROTOCOL.md), the way any GUI that launches choro would.
//!
//! The page (`static/`, compiled into the binary) talks to this server over
//! one WebSocket: JSON requests with an `id`, answered by JSON replies with
//! the same `id`, and `info` lines pushed while the engine thinks. The
//! server keeps the game the page last reported, so a page opened again
//! finds it; it owns the engine process ([`engine`]) and starts it again
//! when it dies or hangs.

pub mod engine;

pub mod access;

use access::Access;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use choro_match::record::{parse_records, GameResult, UNFINISHED};
use choro_match::text::clip;
use engine::{Engine, Failure};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// The page and its script and style, served from the binary.
const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// How a refusal ends when the engine failed (crashed, hung, could not be
/// started) and was killed: the one wording a client (and the fuzz target)
/// can tell an engine failure by, whatever the page's input quoted before it.
pub const RESTART_NOTE: &str = "it will be restarted for the next request; the game is kept";

/// The longest WebSocket message, in bytes: a record file (`records`) of
/// some thousands of games. A longer one closes its page's connection.
pub const MAX_MESSAGE: usize = 16 << 20;
/// The longest request but a record file, in bytes: the engine takes lines
/// of up to 1 MiB (PROTOCOL.md), and a game to keep (`save_game`) is one
/// too. A longer one is refused unread, with a message.
pub const MAX_REQUEST: usize = 1 << 20;
/// The most requests of one page not yet answered. A page that sends more
/// (or more bytes than [`MAX_WAITING_BYTES`]) is refused: its connection is
/// closed (1008), its search stopped and its waiting requests dropped; the
/// other pages go on.
pub const MAX_WAITING: usize = 32;
/// The most bytes of one page's requests not yet answered.
pub const MAX_WAITING_BYTES: usize = 24 << 20;

/// The most holds a racer may have (`RaceHolds`, RULES.md 8.10): a
/// request's `holds` is 0 to this.
pub const MAX_HOLDS: u8 = 8;

/// What the server shares between its connections.
pub struct App {
    engine: tokio::sync::Mutex<Engine>,
    /// The game the page last reported, handed to a page opened later.
    game: Mutex<Value>,
}

impl App {
    /// A server whose engine is the program `engine` run with `args`.
    pub fn new(engine: PathBuf, args: &[String]) -> Arc<App> {
        Arc::new(App {
            engine: tokio::sync::Mutex::new(Engine::new(&engine, args)),
            game: Mutex::new(Value::Null),
        })
    }
}

impl App {
    /// Set how long the engine may take before it is taken for hung.
    pub async fn set_limits(&self, limits: engine::Limits) {
        self.engine.lock().await.limits = limits;
    }

    /// Answer one request as the WebSocket does (the `id` copied), with the
    /// `info` lines a search pushed before it. For tests and other front ends.
    /// (No `stop` reaches its search: that takes a [`Page`].)
    pub async fn request(&self, req: Value) -> (Value, Vec<Value>) {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let reply = self.reply(&req, &tx, &Flags::default(), 0).await;
        drop(tx);
        let mut infos = Vec::new();
        while let Ok(v) = rx.try_recv() {
            infos.push(v);
        }
        (reply, infos)
    }

    async fn reply(
        &self,
        req: &Value,
        tx: &mpsc::UnboundedSender<Value>,
        flags: &Flags,
        seen: u64,
    ) -> Value {
        let id = req.get("id").cloned().unwrap_or(Value::Null);
        let mut reply = match handle(self, req, tx, flags, seen).await {
            Ok(v) => v,
            Err(e) => json!({ "error": e }),
        };
        reply["id"] = id;
        reply
    }
}

/// The router: the page, its files and the WebSocket, each behind the
/// check of who asks ([`access`]).
pub fn router(app: Arc<App>, access: Access) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route("/ws", get(ws_upgrade))
        .layer(middleware::from_fn_with_state(Arc::new(access), guard))
        .with_state(app)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Refuse, with a `403` and the reason, a request whose `Host` or `Origin`
/// is not the board's ([`Access`]).
async fn guard(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    match refusal(&access, &req) {
        Some(why) => (
            StatusCode::FORBIDDEN,
            format!("choro-gui: refused: {why}\n"),
        )
            .into_response(),
        None => next.run(req).await,
    }
}

fn refusal(access: &Access, req: &Request) -> Option<String> {
    let one = |name: header::HeaderName| -> Result<Option<&str>, String> {
        let mut all = req.headers().get_all(&name).iter();
        let first = all.next();
        if all.next().is_some() {
            return Err(format!("a request with two {name} headers"));
        }
        first
            .map(|v| {
                v.to_str()
                    .map_err(|_| format!("a {name} header that is not text"))
            })
            .transpose()
    };
    let (host, origin) = match (one(header::HOST), one(header::ORIGIN)) {
        (Ok(h), Ok(o)) => (h, o),
        (Err(e), _) | (_, Err(e)) => return Some(e),
    };
    // A request target with a host in it (`GET http://name/`) names one too.
    if let Some(a) = req.uri().authority() {
        if !access.host_allowed(a.as_str()) {
            return access.refusal(Some(a.as_str()), None, false);
        }
    }
    access.refusal(host, origin, req.uri().path() == "/ws")
}

/// Bind `addr` and serve until the process ends, to the loopback names and
/// `addr`'s own address ([`Access`]). Returns the bound address (port 0
/// picks a free one) and the serving future.
pub async fn bind(
    addr: SocketAddr,
    app: Arc<App>,
) -> std::io::Result<(
    SocketAddr,
    impl std::future::Future<Output = std::io::Result<()>>,
)> {
    bind_with(addr, app, Access::new(addr.ip(), &[])).await
}

/// [`bind`], serving those whom `access` lets in.
pub async fn bind_with(
    addr: SocketAddr,
    app: Arc<App>,
    access: Access,
) -> std::io::Result<(
    SocketAddr,
    impl std::future::Future<Output = std::io::Result<()>>,
)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let serve = async move { axum::serve(listener, router(app, access)).await };
    Ok((local, serve))
}

async fn ws_upgrade(ws: WebSocketUpgrade, State(app): State<Arc<App>>) -> Response {
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(socket, app))
}

/// One page's requests, in the order the page sent them.
///
/// The engine's requests (`newgame`, `state`, `trace`, `go`, ...) are
/// answered one after another in that order, by one task per page: a page
/// that sends a new game's `state` after an old game's is answered the new
/// game last (each on its own task they could overtake each other on the
/// engine's lock, and the page was left showing the old game). The requests
/// that need no engine (`stop`, `save_game`, `load_game`, `records`) are
/// answered at once, so that `stop` reaches a running search.
///
/// A page may have [`MAX_WAITING`] requests of [`MAX_WAITING_BYTES`] in all
/// not yet answered; its waiting requests are kept as the text they came
/// in (parsed JSON can take ten times the room).
pub struct Page {
    app: Arc<App>,
    out: mpsc::UnboundedSender<Value>,
    queue: mpsc::UnboundedSender<Queued>,
    flags: Arc<Flags>,
    waiting: Arc<Mutex<Waiting>>,
}

/// What a page's requests read of it while they are answered.
#[derive(Default)]
struct Flags {
    /// How many times this page asked its search to end (its `stop`s, its
    /// closing). A search ends once this passes the count its `go` arrived
    /// with, so a `stop` sent after a `go` ends that search even when the
    /// `go` still waits for the engine. Each page counts its own: another
    /// page's `stop` or closing leaves this one's search alone.
    stops: AtomicU64,
    /// Set when the page is gone: its requests still waiting are dropped.
    closed: AtomicBool,
}

/// What a page has asked and not yet been answered.
#[derive(Default)]
struct Waiting {
    requests: usize,
    bytes: usize,
}

/// One request's share of its page's [`Waiting`], given back when it is
/// answered or dropped.
struct Ticket {
    waiting: Arc<Mutex<Waiting>>,
    bytes: usize,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        w.requests -= 1;
        w.bytes -= self.bytes;
    }
}

/// An engine request waiting for its page's turn.
struct Queued {
    text: String,
    seen: u64,
    _ticket: Ticket,
}

/// What a message over [`MAX_REQUEST`] bytes is read for: only a record
/// file (`records`) may be that long. Its other fields are skipped unread,
/// so that a long array costs no more room than its text.
#[derive(serde::Deserialize)]
struct Long {
    id: Option<serde_json::Number>,
    op: Option<String>,
    text: Option<String>,
}

impl Page {
    /// A page whose replies and `info` lines go to `out`.
    pub fn new(app: Arc<App>, out: mpsc::UnboundedSender<Value>) -> Page {
        let (queue, mut work) = mpsc::unbounded_channel::<Queued>();
        let flags = Arc::new(Flags::default());
        let (a, o, st) = (app.clone(), out.clone(), flags.clone());
        tokio::spawn(async move {
            while let Some(q) = work.recv().await {
                if st.closed.load(Ordering::Acquire) {
                    continue;
                }
                let req: Value = serde_json::from_str(&q.text).unwrap_or(Value::Null);
                let reply = a.reply(&req, &o, &st, q.seen).await;
                // Answered: its share is given back before the page sees it.
                drop(q);
                if !st.closed.load(Ordering::Acquire) {
                    let _ = o.send(reply);
                }
            }
        });
        Page {
            app,
            out,
            queue,
            flags,
            waiting: Arc::default(),
        }
    }

    /// Take one message as the page sent it (JSON text). `Err` with the
    /// reason when the page has too much waiting ([`MAX_WAITING`],
    /// [`MAX_WAITING_BYTES`]): nothing of the message is kept, and the page
    /// is to be refused (its connection closed).
    pub fn take(&self, text: &str) -> Result<(), String> {
        let ticket = self.admit(text.len())?;
        let req = if text.len() > MAX_REQUEST {
            match self.long(text) {
                Ok(req) => req,
                Err(refusal) => {
                    let _ = self.out.send(refusal);
                    return Ok(());
                }
            }
        } else {
            serde_json::from_str(text).unwrap_or(Value::Null)
        };
        let seen = self.arrived(&req);
        let op = req.get("op").and_then(Value::as_str).unwrap_or("");
        if matches!(op, "stop" | "save_game" | "load_game" | "records") {
            let (app, out, flags) = (self.app.clone(), self.out.clone(), self.flags.clone());
            tokio::spawn(async move {
                let reply = app.reply(&req, &out, &flags, seen).await;
                drop(ticket);
                let _ = out.send(reply);
            });
        } else {
            let _ = self.queue.send(Queued {
                text: text.to_string(),
                seen,
                _ticket: ticket,
            });
        }
        Ok(())
    }

    /// Count a message of `bytes` among the page's waiting ones, or say why
    /// the page has too many.
    fn admit(&self, bytes: usize) -> Result<Ticket, String> {
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if w.requests >= MAX_WAITING {
            return Err(format!(
                "more than {MAX_WAITING} requests waiting for an answer"
            ));
        }
        if w.bytes + bytes > MAX_WAITING_BYTES {
            return Err(format!(
                "more than {} MiB of requests waiting for an answer",
                MAX_WAITING_BYTES >> 20
            ));
        }
        w.requests += 1;
        w.bytes += bytes;
        Ok(Ticket {
            waiting: self.waiting.clone(),
            bytes,
        })
    }

    /// A message over [`MAX_REQUEST`] bytes: a record file's request, or
    /// the refusal to send back.
    fn long(&self, text: &str) -> Result<Value, Value> {
        let refuse = |id: Value, e: String| json!({ "id": id, "error": e });
        let Ok(long) = serde_json::from_str::<Long>(text) else {
            return Err(refuse(
                Value::Null,
                format!(
                    "a message of {} bytes that is not a record file's request",
                    text.len()
                ),
            ));
        };
        let id = long.id.map_or(Value::Null, Value::Number);
        match (long.op.as_deref(), long.text) {
            (Some("records"), Some(t)) => Ok(json!({ "id": id, "op": "records", "text": t })),
            _ => Err(refuse(
                id,
                format!(
                    "a request of {} bytes: only a record file may be longer than {} bytes",
                    text.len(),
                    MAX_REQUEST
                ),
            )),
        }
    }

    /// Note a request's arrival: a `stop` is counted. Returns the page's
    /// stops so far, the count a `go` arriving now ends at the next of.
    fn arrived(&self, req: &Value) -> u64 {
        if req.get("op").and_then(Value::as_str) == Some("stop") {
            self.flags.stops.fetch_add(1, Ordering::AcqRel);
        }
        self.flags.stops.load(Ordering::Acquire)
    }
}

impl Drop for Page {
    /// A closed page: end its search, drop its waiting requests; keep its
    /// game, the engine and the other pages' searches.
    fn drop(&mut self) {
        self.flags.closed.store(true, Ordering::Release);
        self.flags.stops.fetch_add(1, Ordering::AcqRel);
    }
}

/// One page's WebSocket: its requests to a [`Page`]; replies and `info`
/// lines go out through one writer. A page over its allowance, or whose
/// message is over [`MAX_MESSAGE`], is closed with the reason (1008, 1009).
async fn connection(mut socket: WebSocket, app: Arc<App>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let page = Page::new(app, tx);
    let refused = loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(v) = out else { break None };
                if socket.send(Message::Text(v.to_string().into())).await.is_err() {
                    break None;
                }
            }
            inp = socket.recv() => {
                match inp {
                    Some(Ok(Message::Text(t))) => {
                        if let Err(why) = page.take(t.as_str()) {
                            break Some((close_code::POLICY, why));
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => break None,
                    Some(Err(e)) => {
                        let e = e.to_string();
                        let code = if e.contains("Message too long") {
                            close_code::SIZE
                        } else {
                            close_code::PROTOCOL
                        };
                        break Some((code, e));
                    }
                    Some(Ok(_)) => continue,
                }
            }
        }
    };
    drop(page);
    if let Some((code, why)) = refused {
        // A close frame's reason is at most 123 bytes.
        let mut reason = why;
        while reason.len() > 120 {
            reason.pop();
        }
        let _ = socket
            .send(Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })))
            .await;
    }
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("request without '{key}'"))
}

/// Whether `s` is one token the engine reads as a word: printable ASCII,
/// and not beginning with `#`, which would make it and the rest of the line
/// a comment to the protocol (so later moves would be dropped unseen).
fn one_word(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('#') && s.chars().all(|c| c.is_ascii_graphic())
}

/// A word the page sends to the engine: one token of printable ASCII, so
/// that no request can smuggle a second command into a line.
fn word(v: &Value, key: &str) -> Result<String, String> {
    let s = text(v, key)?;
    if s.len() > 200 || !one_word(&s) {
        return Err(format!("bad '{key}': \"{}\"", clip(&s)));
    }
    Ok(s)
}

/// A position string: printable ASCII and spaces, one line, no `#` word.
fn fen(v: &Value, key: &str) -> Result<String, String> {
    let s = text(v, key)?;
    if s.trim().is_empty()
        || s.len() > 100_000
        || !s.chars().all(|c| c == ' ' || c.is_ascii_graphic())
    {
        return Err("the position string must be one line of printable characters".into());
    }
    if s.split(' ').any(|w| w.starts_with('#')) {
        return Err("the position string must not hold a '#' word (a protocol comment)".into());
    }
    Ok(s.trim().to_string())
}

/// The request's `holds`: each racer's holds in the simultaneous opening,
/// the engine's `RaceHolds` for its game (RULES.md 8.10). Absent or null
/// is 0, a game without holds. Checked before the engine is told anything,
/// so that a bad one changes nothing.
fn holds(v: &Value) -> Result<u8, String> {
    match v.get("holds") {
        None | Some(Value::Null) => Ok(0),
        Some(h) => h
            .as_u64()
            .filter(|&n| n <= u64::from(MAX_HOLDS))
            .map(|n| n as u8)
            .ok_or_else(|| {
                format!(
                    "bad 'holds': {}: each racer's holds in the simultaneous opening \
                     (RaceHolds) are a whole number from 0 to {MAX_HOLDS}",
                    clip(&h.to_string())
                )
            }),
    }
}

/// `position fen <start> moves ...` for the game in request `v`.
fn position_cmd(v: &Value) -> Result<String, String> {
    let mut s = format!("position fen {}", fen(v, "start")?);
    let moves = v
        .get("moves")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            let m = m.as_str().ok_or("a move that is not a string")?;
            if !one_word(m) {
                return Err(format!("bad move \"{}\"", clip(m)));
            }
            s.push(' ');
            s.push_str(m);
        }
    }
    Ok(s)
}

/// The engine's first error line among `lines`, as an error.
fn engine_error(lines: &[String]) -> Result<(), String> {
    match lines.iter().find(|l| l.starts_with("info string error:")) {
        Some(l) => Err(l["info string error:".len()..].trim().to_string()),
        None => Ok(()),
    }
}

/// Serve one request. Engine failures are retried once on a fresh engine,
/// with a note for the page; the game lives in the request, so nothing is lost.
async fn handle(
    app: &App,
    req: &Value,
    tx: &mpsc::UnboundedSender<Value>,
    flags: &Flags,
    seen: u64,
) -> Result<Value, String> {
    let op = text(req, "op")?;
    match op.as_str() {
        // Counted as it arrived (`Page::arrived`).
        "stop" => return Ok(json!({})),
        "save_game" => {
            if let Ok(mut g) = app.game.lock() {
                *g = req.get("game").cloned().unwrap_or(Value::Null);
            }
            return Ok(json!({}));
        }
        "load_game" => {
            let g = app.game.lock().map(|g| g.clone()).unwrap_or(Value::Null);
            return Ok(json!({ "game": g }));
        }
        "records" => return records(req),
        _ => {}
    }
    let holds = holds(req)?;
    let mut engine = app.engine.lock().await;
    if flags.closed.load(Ordering::Acquire) {
        return Err("the page was closed".into());
    }
    engine.want_holds(holds);
    let mut note = None;
    for attempt in 0..2 {
        match engine_op(&mut engine, &op, req, tx, &flags.stops, seen).await {
            Ok(Ok(mut v)) => {
                v["engine_pid"] = json!(engine.pid());
                v["restarts"] = json!(engine.restarts);
                if let Some(n) = note {
                    v["note"] = json!(n);
                }
                return Ok(v);
            }
            Ok(Err(e)) => return Err(e),
            Err(f) => {
                engine.kill().await;
                if attempt == 1 || matches!(f, Failure::Start(_)) {
                    return Err(format!("{f}; {RESTART_NOTE}"));
                }
                note = Some(format!("{f}; it was restarted and the game kept"));
            }
        }
    }
    Err("unreachable".into())
}

/// An engine request: `Err` when the engine failed (retry), `Ok(Err)` when
/// the request itself was refused (a message for the page).
async fn engine_op(
    e: &mut Engine,
    op: &str,
    req: &Value,
    tx: &mpsc::UnboundedSender<Value>,
    stops: &AtomicU64,
    seen: u64,
) -> Result<Result<Value, String>, Failure> {
    macro_rules! tri {
        ($x:expr) => {
            match $x {
                Ok(v) => v,
                Err(m) => return Ok(Err(m)),
            }
        };
    }
    Ok(Ok(match op {
        "newgame" => {
            let mut cmds = vec![];
            for (opt, key) in [
                ("Variant", "variant"),
                ("Columns", "columns"),
                ("Opening", "opening"),
            ] {
                let v = match req.get(key) {
                    Some(Value::Number(n)) => n.to_string(),
                    _ => tri!(word(req, key)),
                };
                cmds.push(format!("setoption name {opt} value {v}"));
            }
            cmds.push("position startpos".into());
            let out = e.ask(&cmds).await?;
            tri!(engine_error(&out));
            let d = e.ask(&["d".into()]).await?;
            json!({ "start": tri!(position_line(&d)) })
        }
        "setup" => {
            let s = tri!(fen(req, "fen"));
            let out = e.ask(&[format!("position fen {s}")]).await?;
            tri!(engine_error(&out));
            let d = e.ask(&["d".into()]).await?;
            json!({ "start": tri!(position_line(&d)) })
        }
        "state" => {
            let out = e.ask(&[tri!(position_cmd(req))]).await?;
            tri!(engine_error(&out));
            let d = e.ask(&["d".into()]).await?;
            let moves = e.ask(&["moves".into()]).await?;
            let eval = e.ask(&["eval".into()]).await?;
            let result = e.ask(&["query result".into()]).await?;
            let moves: Vec<Value> = moves
                .iter()
                .filter(|l| !l.starts_with("info "))
                .filter_map(|l| l.split_once(' '))
                .map(|(m, p)| json!([m, p]))
                .collect();
            let result = result
                .iter()
                .find_map(|l| l.strip_prefix("response "))
                .unwrap_or("none")
                .to_string();
            json!({
                "position": tri!(position_line(&d)),
                "d": d,
                "moves": moves,
                "eval": eval,
                "result": result,
            })
        }
        "trace" => {
            let out = e.ask(&[tri!(position_cmd(req))]).await?;
            tri!(engine_error(&out));
            let lines = e
                .ask(&[format!("trace {}", tri!(word(req, "move")))])
                .await?;
            tri!(engine_error(&lines));
            json!({ "trace": lines })
        }
        "go" => {
            let algo = tri!(word(req, "algorithm"));
            let ms = req
                .get("movetime")
                .and_then(Value::as_u64)
                .unwrap_or(1000)
                .clamp(10, 600_000);
            let mut searched = req.clone();
            if let Some(m) = tri!(unseen_tick_choice(e, req).await?) {
                searched["moves"][m] = json!(".");
            }
            let out = e
                .ask(&[
                    format!("setoption name Algorithm value {algo}"),
                    tri!(position_cmd(&searched)),
                ])
                .await?;
            tri!(engine_error(&out));
            let stopped = || stops.load(Ordering::Acquire) != seen;
            let id = req.get("id").cloned().unwrap_or(Value::Null);
            let mut info = |l: &str| {
                let _ = tx.send(json!({"type": "info", "id": id, "line": l}));
            };
            let best = e
                .go(
                    &[format!("go movetime {ms}")],
                    Duration::from_millis(ms),
                    &stopped,
                    &mut info,
                )
                .await?;
            let mv = best.split_whitespace().nth(1).unwrap_or("0000").to_string();
            json!({ "bestmove": mv })
        }
        "record" => tri!(record(e, req).await?),
        _ => return Ok(Err(format!("unknown request '{}'", clip(op)))),
    }))
}

/// Where, in a `go` request's moves, A's choice of the tick B is to
/// choose in is (RULES.md 8.10): B chooses without seeing it, so the
/// engine searching for B is sent the game with that choice made a drop
/// (`.`), which leaves the board, the hands and what B may choose as they
/// are; A's hold (`_`) never reaches it. The position before the last move
/// (which does not show A's choice) is asked of the engine whenever that
/// move may be a tick's choice (`.` or `_`, in a game with holds), hold or
/// not, so that not even the asking tells the engine which A chose.
/// `None` when the last move is no choice of A's of a tick still to run.
async fn unseen_tick_choice(
    e: &mut Engine,
    req: &Value,
) -> Result<Result<Option<usize>, String>, Failure> {
    let moves = req.get("moves").and_then(Value::as_array);
    let Some((last, before)) = moves.and_then(|m| m.split_last()) else {
        return Ok(Ok(None));
    };
    if holds(req).unwrap_or(0) == 0 {
        return Ok(Ok(None));
    }
    if !matches!(last.as_str(), Some(".") | Some("_")) {
        return Ok(Ok(None));
    }
    let mut earlier = req.clone();
    earlier["moves"] = Value::Array(before.to_vec());
    let cmd = match position_cmd(&earlier) {
        Ok(c) => c,
        Err(m) => return Ok(Err(m)),
    };
    let out = e.ask(&[cmd, "d".into()]).await?;
    let p = match position_line(&out) {
        Ok(p) => p,
        Err(m) => return Ok(Err(m)),
    };
    // `<code> <rows> a r <tick>.0 <racer A> <racer B> <ply>`: A's choice
    // of a tick; B, with a hold left, chooses next in the same tick (with
    // none, A's choice ran the tick, and it is no secret any more).
    let f: Vec<&str> = p.split_whitespace().collect();
    let b_chooses_too = f.get(2) == Some(&"a")
        && f.get(3) == Some(&"r")
        && f.get(4).is_some_and(|t| t.ends_with(".0"))
        && f.get(6).is_some_and(|r| {
            r.split(',')
                .any(|kv| kv.strip_prefix("holds=").is_some_and(|n| n != "0"))
        });
    Ok(Ok(b_chooses_too.then_some(before.len())))
}

fn position_line(d: &[String]) -> Result<String, String> {
    engine_error(d)?;
    d.iter()
        .find_map(|l| l.strip_prefix("position "))
        .map(str::to_string)
        .ok_or_else(|| "the engine's 'd' had no position line".into())
}

/// The games of a `choro match` record file, for the page to step through.
fn records(req: &Value) -> Result<Value, String> {
    let t = text(req, "text")?;
    let recs = parse_records(&t).map_err(|e| format!("not a record file: {e}"))?;
    let games: Vec<Value> = recs
        .iter()
        .map(|r| {
            json!({
                "tags": r.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
                "start": r.tag("Start").unwrap_or(""),
                "moves": r.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>(),
                "result": GameResult::token_of(r.result),
                // The engine's RaceHolds for the game (RULES.md 8.10).
                "holds": r.tag("RaceHolds").and_then(|h| h.parse::<u8>().ok()).filter(|&h| h <= MAX_HOLDS).unwrap_or(0),
            })
        })
        .collect();
    Ok(json!({ "games": games }))
}

/// The reason code of a record for the engine's `game over: ...` text.
fn reason_code(over: &str) -> Option<&'static str> {
    if over.contains("has no legal move") {
        Some("no-legal-move")
    } else if over.contains("store") {
        Some("store")
    } else if over.contains("repetition") {
        Some("repetition")
    } else if over.contains("ply cap") {
        Some("ply-cap")
    } else if over.contains("race never ends") {
        Some("endless-race")
    } else {
        None
    }
}

/// The game of request `req` as a record `choro replay` accepts (MATCH.md,
/// "Game records"): the engine replays it and says how it ended, or that it
/// is not over (then the record is marked unfinished, `*`).
async fn record(e: &mut Engine, req: &Value) -> Result<Result<Value, String>, Failure> {
    if let Err(m) = position_cmd(req) {
        return Ok(Err(m));
    }
    let start = fen(req, "start").unwrap_or_default();
    let moves: Vec<String> = req
        .get("moves")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    // The ply and side before each move, from the engine's positions.
    let mut entries = Vec::new();
    for i in 0..=moves.len() {
        let mut part = format!("position fen {start}");
        if i > 0 {
            part.push_str(" moves ");
            part.push_str(&moves[..i].join(" "));
        }
        let out = e.ask(&[part]).await?;
        if let Err(m) = engine_error(&out) {
            return Ok(Err(m));
        }
        let d = e.ask(&["d".into()]).await?;
        let p = match position_line(&d) {
            Ok(p) => p,
            Err(m) => return Ok(Err(m)),
        };
        let over = d
            .iter()
            .find_map(|l| l.strip_prefix("game over: "))
            .map(str::to_string);
        entries.push((p, over));
    }
    // A game not over is saved unfinished (`*`, no reason): MATCH.md.
    let end = match entries.last().and_then(|(_, over)| over.clone()) {
        None => None,
        Some(over) => match reason_code(&over) {
            Some(reason) => Some((over, reason)),
            None => return Ok(Err(format!("unknown end of game: {over}"))),
        },
    };
    let result = match &end {
        None => UNFINISHED,
        Some((over, _)) if over.starts_with("A wins") => "1-0",
        Some((over, _)) if over.starts_with("B wins") => "0-1",
        Some(_) => "1/2-1/2",
    };
    let (variant, columns) = {
        let code = start.split_whitespace().next().unwrap_or("");
        let (v, w) = code.split_once(':').unwrap_or((code, "8"));
        (v.to_string(), w.to_string())
    };
    let opening = match start.split_whitespace().nth(3) {
        Some(ph) if ph.starts_with('o') => "sequential",
        _ => "simultaneous",
    };
    // A tag is one line: control characters (a line feed in a player's
    // name) become spaces; `\` and `"` are escaped.
    let tag = |k: &str, v: &str| {
        let v: String = v
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        )
    };
    let names = |k: &str| {
        req.get(k)
            .and_then(Value::as_str)
            .unwrap_or("human")
            .to_string()
    };
    let mut out = String::new();
    out += &tag("Event", "choro-gui");
    out += &tag("Game", "1");
    out += &tag("Variant", &variant);
    if variant != "adjiboto" {
        out += &tag("Columns", &columns);
        out += &tag("Opening", opening);
        // As `choro match` writes it: only a game with holds has the tag.
        let holds = holds(req).unwrap_or(0);
        if holds > 0 {
            out += &tag("RaceHolds", &holds.to_string());
        }
    }
    out += &tag("A", &names("a"));
    out += &tag("B", &names("b"));
    out += &tag("Start", &start);
    out += &tag("Result", result);
    if let Some((over, reason)) = &end {
        out += &tag("Reason", reason);
        out += &tag("Detail", over);
    }
    out += &tag("Plies", &moves.len().to_string());
    out.push('\n');
    for (m, (p, _)) in moves.iter().zip(&entries) {
        let f: Vec<&str> = p.split_whitespace().collect();
        let (side, ply) = side_and_ply(&f);
        out += &format!("{ply} {side} {m}\n");
    }
    out += result;
    out += "\n\n";
    Ok(Ok(json!({ "record": out })))
}

/// The side to move and the ply of a position string's fields.
fn side_and_ply(f: &[&str]) -> (String, String) {
    if f.first().is_some_and(|c| c.starts_with("adjiboto")) {
        // adjiboto <rows> <side> <hist> <stores> [<ply>]
        return (
            f.get(2).unwrap_or(&"a").to_string(),
            f.get(5).unwrap_or(&"0").to_string(),
        );
    }
    let side = f.get(2).unwrap_or(&"a").to_string();
    let ply = match f.get(3) {
        Some(&"r") | Some(&"rx") => f.get(7),
        _ => f.get(4),
    };
    (side, ply.unwrap_or(&"0").to_string())
}
