//! Hostile sites and pages against the board's server over real HTTP and
//! WebSocket (issue 28): another site's page, a DNS-rebinding name, a page
//! that floods the server or sends an over-size message. Each is refused
//! alone; the board's own page, and another page's search, go on.

#[allow(dead_code)] // assert_replays serves the other test files
mod common;

use choro_engine::{Game, Opening, Position, Variant};
use choro_gui::{App, Page, MAX_MESSAGE, MAX_REQUEST, MAX_WAITING, MAX_WAITING_BYTES};
use common::binary;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A board on a free loopback port, with the real engine; its port.
async fn board() -> u16 {
    board_and_app().await.0
}

/// A board on a free loopback port and its app.
async fn board_and_app() -> (u16, std::sync::Arc<App>) {
    let app = App::new(binary("choro"), &[]);
    let (addr, serve) = choro_gui::bind(([127, 0, 0, 1], 0).into(), app.clone())
        .await
        .unwrap();
    tokio::spawn(serve);
    (addr.port(), app)
}

/// Page A of `app` (in process) with a 600 s search running; its replies.
async fn searching_page(app: &std::sync::Arc<App>) -> (Page, mpsc::UnboundedReceiver<Value>) {
    let (ta, ra) = mpsc::unbounded_channel();
    let a = Page::new(app.clone(), ta);
    let go = json!({"id": 1, "op": "go", "start": long_start().to_string(), "moves": [],
                    "algorithm": "alphabeta", "movetime": 600_000});
    a.take(&go.to_string()).unwrap();
    // Its request takes the engine in a few milliseconds.
    tokio::time::sleep(Duration::from_secs(1)).await;
    (a, ra)
}

/// Page A's search (id 1) still runs after `wait`; its own `stop` ends it
/// with a legal move.
async fn page_still_searching(a: &Page, ra: &mut mpsc::UnboundedReceiver<Value>, wait: Duration) {
    let deadline = tokio::time::Instant::now() + wait;
    while let Ok(v) = tokio::time::timeout_at(deadline, ra.recv()).await {
        let v = v.unwrap();
        assert_eq!(
            v["type"], "info",
            "the search ended without its page's stop: {v}"
        );
    }
    a.take(&json!({"id": 2, "op": "stop"}).to_string()).unwrap();
    let mut best = None;
    while best.is_none() {
        let r = next_reply(ra).await;
        if r["id"] == 1 {
            best = Some(r);
        }
    }
    let best = best.unwrap();
    let mv = best["bestmove"]
        .as_str()
        .unwrap_or_else(|| panic!("{best}"));
    assert!(long_start().parse_move(mv).is_ok(), "{best}");
}

/// Open the WebSocket of the board on `port` with these `Host` and `Origin`
/// headers (`None`: no such header).
async fn open(port: u16, host: &str, origin: Option<&str>) -> Result<Ws, WsError> {
    let mut req = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    let h = req.headers_mut();
    h.insert("host", HeaderValue::from_str(host).unwrap());
    if let Some(o) = origin {
        h.insert("origin", HeaderValue::from_str(o).unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
}

/// The board's own page: its origin is the address it was loaded from.
async fn own_page(port: u16) -> Ws {
    let host = format!("127.0.0.1:{port}");
    open(port, &host, Some(&format!("http://{host}")))
        .await
        .expect("the board's own page was refused")
}

/// The HTTP status of a WebSocket that was not opened.
fn status(r: Result<Ws, WsError>) -> u16 {
    match r {
        Err(WsError::Http(resp)) => resp.status().as_u16(),
        Err(e) => panic!("not an HTTP refusal: {e}"),
        Ok(_) => panic!("the WebSocket was opened"),
    }
}

/// The status line of a raw HTTP/1.1 request for `path` with `headers`.
async fn get(port: u16, path: &str, headers: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    text.lines().next().unwrap_or("").to_string()
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next reply of a page that is not an `info` line, within `wait`;
/// `None` when none came.
async fn reply_within(ws: &mut Ws, wait: Duration) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next()).await.ok()?;
        match m {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] != "info" {
                    return Some(v);
                }
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            other => panic!("the page's connection ended: {other:?}"),
        }
    }
}

/// How a page's connection ended: the close code, or `None` when it was
/// cut without one.
async fn closed(ws: &mut Ws) -> Option<CloseCode> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("the connection was not closed within 30 s")
        {
            Some(Ok(Message::Close(f))) => return f.map(|f| f.code),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => return None,
        }
    }
}

/// Didinga's 12-wide start: alpha-beta finds no end in it and thinks the
/// whole time asked.
fn long_start() -> Position {
    Position::start(Variant::Didinga, 12, Opening::Sequential).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_the_boards_own_page_opens_the_websocket() {
    let port = board().await;
    let own = format!("127.0.0.1:{port}");
    // Another site's page, with the board's Host (a page of evil.example
    // opening ws://127.0.0.1:PORT/ws), and from another port of this machine.
    for origin in [
        "http://evil.example".to_string(),
        "https://evil.example".to_string(),
        "null".to_string(),
        format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        format!("http://localhost:{port}"),
    ] {
        assert_eq!(
            status(open(port, &own, Some(&origin)).await),
            403,
            "{origin}"
        );
    }
    // No Origin: not a browser's page.
    assert_eq!(status(open(port, &own, None).await), 403);
    // DNS rebinding: evil.example made to point at 127.0.0.1, so its page is
    // same-origin with the name, which comes as the Host.
    for name in ["evil.example", "127.0.0.1.nip.io", "localhost.evil.example"] {
        let host = format!("{name}:{port}");
        let origin = format!("http://{host}");
        assert_eq!(
            status(open(port, &host, Some(&origin)).await),
            403,
            "{host}"
        );
    }
    // The board's own page, by each loopback name: opened, and answered.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let mut ws = open(port, &host, Some(&format!("http://{host}")))
            .await
            .unwrap_or_else(|e| panic!("{host}: {e}"));
        send(&mut ws, json!({"id": 5, "op": "load_game"})).await;
        let r = reply_within(&mut ws, Duration::from_secs(30))
            .await
            .unwrap();
        assert_eq!(r["id"], 5, "{r}");
        assert!(r.get("game").is_some(), "{r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rebinding_name_gets_not_even_the_page() {
    let port = board().await;
    let ok = |line: &str| line.starts_with("HTTP/1.1 200");
    let refused = |line: &str| line.starts_with("HTTP/1.1 403");
    for path in ["/", "/app.js", "/style.css"] {
        let line = get(port, path, &format!("Host: 127.0.0.1:{port}\r\n")).await;
        assert!(ok(&line), "{path}: {line}");
        let line = get(port, path, &format!("Host: localhost:{port}\r\n")).await;
        assert!(ok(&line), "{path}: {line}");
        let line = get(port, path, &format!("Host: evil.example:{port}\r\n")).await;
        assert!(refused(&line), "{path}: {line}");
        // A foreign Origin on any route.
        let h = format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n");
        assert!(refused(&get(port, path, &h).await), "{path}");
    }
    // Two Host headers, a request target naming another host.
    let h = format!("Host: 127.0.0.1:{port}\r\nHost: evil.example\r\n");
    let line = get(port, "/", &h).await;
    assert!(!ok(&line), "{line}");
    let line = get(
        port,
        "http://evil.example/",
        &format!("Host: 127.0.0.1:{port}\r\n"),
    )
    .await;
    assert!(!ok(&line), "{line}");
}

/// Issue 28: the count of stops was the server's, so one page's `stop`, or
/// its closing, ended every page's search.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn another_pages_stop_or_closing_leaves_a_search_alone() {
    let (port, app) = board_and_app().await;
    let (a, mut ra) = searching_page(&app).await;
    let mut b = own_page(port).await;
    send(&mut b, json!({"id": 1, "op": "stop"})).await;
    assert_eq!(
        reply_within(&mut b, Duration::from_secs(30)).await.unwrap()["id"],
        1
    );
    b.close(None).await.unwrap();
    drop(b);
    page_still_searching(&a, &mut ra, Duration::from_millis(1500)).await;
}

/// Issue 28: a page's waiting requests had no bound (20 queued 15 MB
/// messages took the server to 3.4 GB). A page over its allowance is
/// closed (1008); another page's search goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flooding_page_is_closed_and_another_search_goes_on() {
    let (port, app) = board_and_app().await;
    let (a, mut ra) = searching_page(&app).await;
    // The engine is A's: B's requests wait, up to its allowance.
    let mut b = own_page(port).await;
    let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
    for i in 0..=MAX_WAITING {
        let r = json!({"id": i, "op": "state", "start": start.to_string(), "moves": []});
        if b.send(Message::Text(r.to_string().into())).await.is_err() {
            break;
        }
    }
    assert_eq!(closed(&mut b).await, Some(CloseCode::Policy));
    // An over-size message closes its page too (1009), or cuts it while
    // it is sent.
    let mut c = own_page(port).await;
    let big = format!(
        "{{\"id\": 1, \"op\": \"records\", \"text\": \"{}\"}}",
        "x".repeat(MAX_MESSAGE)
    );
    if c.send(Message::Text(big.into())).await.is_ok() {
        let code = closed(&mut c).await;
        assert!(code.is_none() || code == Some(CloseCode::Size), "{code:?}");
    }
    page_still_searching(&a, &mut ra, Duration::from_millis(1500)).await;
    // The board serves new pages.
    let mut d = own_page(port).await;
    send(&mut d, json!({"id": 9, "op": "load_game"})).await;
    assert_eq!(
        reply_within(&mut d, Duration::from_secs(30)).await.unwrap()["id"],
        9
    );
}

/// A page's replies, skipping the `info` lines a search pushes.
async fn next_reply(rx: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    loop {
        let v = tokio::time::timeout(Duration::from_secs(60), rx.recv())
            .await
            .expect("no reply within 60 s")
            .expect("the page's replies ended");
        if v["type"] != "info" {
            return v;
        }
    }
}

/// The bytes waiting are bounded as well as the requests; a page refused
/// keeps nothing of what it sent, and its waiting requests are dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pages_waiting_bytes_are_bounded() {
    let app = App::new(binary("choro"), &[]);
    let (ta, mut ra) = mpsc::unbounded_channel();
    let a = Page::new(app.clone(), ta);
    let go = json!({"id": 1, "op": "go", "start": long_start().to_string(), "moves": [],
                    "algorithm": "alphabeta", "movetime": 600_000});
    a.take(&go.to_string()).unwrap();
    // Its request takes the engine in a few milliseconds.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (tb, mut rb) = mpsc::unbounded_channel();
    let b = Page::new(app.clone(), tb);
    // Requests just under MAX_REQUEST: each is queued, behind A's search.
    let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
    let mut req = json!({"op": "state", "start": start.to_string(), "moves": [], "pad": ""});
    let pad = MAX_REQUEST - 8_000 - req.to_string().len();
    req["pad"] = json!("p".repeat(pad));
    let text = req.to_string();
    assert!(text.len() <= MAX_REQUEST);
    let fits = MAX_WAITING_BYTES / text.len();
    assert!(fits < MAX_WAITING, "the bytes bound first");
    for i in 0..fits {
        b.take(&text).unwrap_or_else(|e| panic!("request {i}: {e}"));
    }
    let e = b.take(&text).unwrap_err();
    assert!(e.contains("MiB"), "{e}");
    drop(b);
    // A's search was left alone: its `stop` ends it with a legal move.
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.take(&json!({"id": 2, "op": "stop"}).to_string()).unwrap();
    let mut best = None;
    while best.is_none() {
        let r = next_reply(&mut ra).await;
        if r["id"] == 1 {
            best = Some(r);
        }
    }
    let best = best.unwrap();
    let mv = best["bestmove"]
        .as_str()
        .unwrap_or_else(|| panic!("{best}"));
    assert!(long_start().parse_move(mv).is_ok(), "{best}");
    // B's waiting requests were dropped, not answered into the void.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        rb.try_recv().is_err(),
        "a closed page's request was answered"
    );
}

/// An Adjiboto game played to its end with the engine crate's first legal
/// moves: the start and the moves.
fn finished_game() -> (Position, Vec<String>) {
    let start = Position::start(Variant::Adjiboto, 8, Opening::Sequential).unwrap();
    let mut g = Game::new(start);
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        let p = *g.position();
        let m = p.restyle(p.legal_moves()[0].0);
        moves.push(m.to_string());
        g.play(&m).unwrap();
    }
    (start, moves)
}

/// Only a record file may be longer than MAX_REQUEST: a longer request of
/// another kind is refused with a message and its `id`, unread.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_a_record_file_may_be_long() {
    let app = App::new(binary("choro"), &[]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let page = Page::new(app.clone(), tx);
    let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
    let moves = vec![json!(0); MAX_REQUEST / 2 + 10];
    for (id, req) in [
        (
            3,
            json!({"id": 3, "op": "state", "start": start.to_string(), "moves": moves}),
        ),
        (
            4,
            json!({"id": 4, "op": "save_game", "game": {"moves": moves}}),
        ),
    ] {
        page.take(&req.to_string()).unwrap();
        let r = next_reply(&mut rx).await;
        assert_eq!(r["id"], id, "{r}");
        let e = r["error"].as_str().unwrap();
        assert!(e.contains("only a record file"), "{e}");
    }
    // Not a request at all: refused without an id.
    page.take(&format!("[{}0]", "0,".repeat(MAX_REQUEST / 2)))
        .unwrap();
    let r = next_reply(&mut rx).await;
    assert!(
        r["error"].as_str().unwrap().contains("not a record file"),
        "{r}"
    );
    // A long record file is read whole.
    let (start, moves) = finished_game();
    let rec = app
        .request(json!({"op": "record", "start": start.to_string(), "moves": moves}))
        .await
        .0;
    let one = rec["record"].as_str().unwrap().to_string();
    let n = MAX_REQUEST / one.len() + 2;
    let text = one.repeat(n);
    let req = json!({"id": 6, "op": "records", "text": text, "junk": vec![0; 1000]});
    page.take(&req.to_string()).unwrap();
    let r = next_reply(&mut rx).await;
    assert_eq!(r["id"], 6);
    assert_eq!(
        r["games"].as_array().map(Vec::len),
        Some(n),
        "{}",
        r["error"]
    );
}

/// A page asking for holds the rules do not have (RULES.md 8.10: 0..8),
/// while another page's search runs: a clear error for it, its connection
/// kept; the search and the engine go on untouched, and a good request
/// is answered after.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn holds_out_of_range_are_refused_and_change_nothing() {
    let (port, app) = board_and_app().await;
    let (a, mut ra) = searching_page(&app).await;
    let mut ws = own_page(port).await;
    let start = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
    for (i, bad) in [
        json!(9),
        json!(-1),
        json!(255),
        json!("8"),
        json!(1.5),
        json!([2]),
    ]
    .into_iter()
    .enumerate()
    {
        send(
            &mut ws,
            json!({"id": i, "op": "newgame", "variant": "didinga", "columns": 8,
                   "opening": "simultaneous", "holds": bad}),
        )
        .await;
        let r = reply_within(&mut ws, Duration::from_secs(5))
            .await
            .expect("no answer while another page searches: the engine was waited for");
        assert_eq!(r["id"], i, "{r}");
        assert!(
            r["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("bad 'holds': ")),
            "{r}"
        );
    }
    page_still_searching(&a, &mut ra, Duration::from_millis(500)).await;
    send(
        &mut ws,
        json!({"id": 99, "op": "state", "start": start.to_string(), "moves": ["l"], "holds": 0}),
    )
    .await;
    let r = reply_within(&mut ws, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(r["id"], 99);
    assert!(r["position"].as_str().unwrap().contains(" s1:l "), "{r}");
}
