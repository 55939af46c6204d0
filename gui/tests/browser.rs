//! choro-gui in a real browser: headless Chromium driven over WebDriver
//! (`chromedriver`). Built only with the `browser` feature (its WebDriver
//! client is a large build): `cargo test -p choro-gui --features browser
//! --test browser`. Skipped, with a message saying so, where Chromium or
//! chromedriver is not installed (`.ci/browser` installs them, turns the
//! feature on and sets `CHORO_BROWSER_REQUIRED=1`, which turns the skip
//! into a failure).
//!
//! One browser session plays, by clicks on the board, a whole game of each
//! code (the simultaneous opening with its blind starts and race decisions
//! included) against the engine; after every move it checks every drawn hole
//! against the engine's position string, and that string against the
//! engine crate replaying the page's move list. Then it saves a game and
//! has `choro replay` check it, steps through the saved records, flips the
//! board, and gives the page bad input: an illegal click, a malformed
//! position string, an engine killed while it thinks, a closed page.

mod common;

use choro_engine::{Game, Position};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether a choice offered on the board has been photographed.
static CHOICE_SHOT: AtomicBool = AtomicBool::new(false);

/// The longest the page may stay busy (an engine move, an animation).
const PATIENCE: Duration = Duration::from_secs(30);
/// Plies after which a game is cut short (none has come near it).
const MAX_PLIES: usize = 600;

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn screens_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap().to_path_buf();
    let d = target.join("choro-gui-screens");
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Page {
    c: Client,
    url: String,
}

impl Page {
    async fn js(&self, script: &str) -> Value {
        self.c.execute(script, vec![]).await.unwrap()
    }

    /// What the page shows, in one call.
    async fn snapshot(&self) -> Value {
        self.js(
            r#"
            const holes = [...document.querySelectorAll('#board g.hole')].map(g =>
              [+g.dataset.row, +g.dataset.col, +g.dataset.count, g.dataset.side, g.dataset.hole]);
            const stores = [...document.querySelectorAll('#board g.store')].map(g =>
              [g.dataset.store, +g.dataset.count]);
            const moves = [...document.querySelectorAll('#moves-list span')].map(s =>
              [s.dataset.move, s.dataset.to]);
            const history = [...document.querySelectorAll('#history li')].map(l => l.dataset.move);
            const shown = [...document.querySelectorAll('#history li')].map(l => l.textContent);
            const m = document.getElementById('message');
            return {
              busy: document.body.dataset.busy, human: document.body.dataset.human,
              mode: document.body.dataset.mode,
              result: document.body.dataset.result, position: document.getElementById('position').dataset.position,
              start: document.body.dataset.start, holes, stores, moves, history, shown,
              message: m.textContent, kind: m.className,
              choices: [...document.querySelectorAll('#board g.choice')].map(g => g.dataset.token),
              bars: document.querySelectorAll('#blind-chart rect.bar').length,
              pid: document.body.dataset.enginePid, restarts: document.body.dataset.restarts,
              caption: document.getElementById('anim-caption').textContent,
            };"#,
        )
        .await
    }

    /// Wait until the page is idle: a person to move, or the game over.
    async fn settle(&self) -> Value {
        let t0 = Instant::now();
        loop {
            let s = self.snapshot().await;
            if s["busy"] == "0" && (s["human"] == "1" || s["result"] != "none") {
                return s;
            }
            assert!(t0.elapsed() < PATIENCE, "page still busy: {s}");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Wait until `busy` is 0 (whatever the turn).
    async fn idle(&self) -> Value {
        let t0 = Instant::now();
        loop {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let s = self.snapshot().await;
            if s["busy"] == "0" {
                return s;
            }
            assert!(t0.elapsed() < PATIENCE, "page still busy: {s}");
        }
    }

    async fn click(&self, css: &str) {
        self.c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    async fn select(&self, id: &str, value: &str) {
        let script = format!(
            "const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('change'));"
        );
        self.js(&script).await;
    }

    async fn shot(&self, name: &str) {
        let png = self.c.screenshot().await.unwrap();
        std::fs::write(screens_dir().join(name), png).unwrap();
    }

    async fn new_game(&self, variant: &str, columns: u8, opening: &str, algorithm: &str) -> Value {
        self.new_game_of(variant, columns, opening, algorithm, ["human", "engine"])
            .await;
        self.settle().await
    }

    /// A new game with these players for A and B; returns at once.
    async fn new_game_of(
        &self,
        variant: &str,
        columns: u8,
        opening: &str,
        algorithm: &str,
        players: [&str; 2],
    ) {
        self.select("variant", variant).await;
        self.select("columns", &columns.to_string()).await;
        self.select("opening", opening).await;
        self.select("player-a", players[0]).await;
        self.select("player-b", players[1]).await;
        self.select("algorithm", algorithm).await;
        self.js("document.getElementById('movetime').value = '40'; document.getElementById('autoplay').checked = true;")
            .await;
        self.click("#new-game").await;
    }
}

/// Every drawn hole and store against the position string the page got
/// from the engine, and that string against the engine crate replaying
/// the page's start and history.
fn check_board(s: &Value, start: &str) {
    let text = s["position"].as_str().unwrap();
    let pos: Position = text.parse().unwrap();
    let holes = s["holes"].as_array().unwrap();
    let (rows, w) = if text.starts_with("adjiboto") {
        (2, 5)
    } else {
        (4, pos.width() as usize)
    };
    assert_eq!(holes.len(), rows * w, "{s}");
    for h in holes {
        let (r, c, n) = (
            h[0].as_u64().unwrap(),
            h[1].as_u64().unwrap(),
            h[2].as_u64().unwrap(),
        );
        assert_eq!(
            n,
            pos.at(r as u8, c as u8) as u64,
            "hole row {r} col {c} drawn {n} in {text}"
        );
    }
    for st in s["stores"].as_array().unwrap() {
        let i = if st[0] == "a" { 0 } else { 1 };
        assert_eq!(st[1].as_u64().unwrap(), pos.stores()[i] as u64, "{s}");
    }
    let mut g = Game::new(start.parse().unwrap());
    for m in s["history"].as_array().unwrap() {
        g.play_str(m.as_str().unwrap()).unwrap();
    }
    assert!(g.position().same_state(&pos), "{} vs {text}", g.position());
    assert_eq!(g.position().to_string(), text);
}

/// The material a move leaves the opponent (of the side to move `me`).
fn opponent_material(to: &str, me: usize) -> u32 {
    let p: Position = to.parse().unwrap();
    p.material(if me == 0 {
        choro_engine::Side::B
    } else {
        choro_engine::Side::A
    })
}

/// Enter `mv` by clicks: its start on its hole, each choice on the buttons
/// the page offers on the board.
async fn enter(page: &Page, mv: &str, side: &str) {
    let toks = tokens(mv);
    for (i, t) in toks.iter().enumerate() {
        let s = page.idle().await;
        let offered: Vec<String> = s["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        if offered.contains(t) {
            page.click(&format!("#board g.choice[data-token='{t}']"))
                .await;
            continue;
        }
        let hole = t.trim_start_matches(['~', 'x']);
        assert!(
            hole.chars().all(|c| c.is_ascii_alphanumeric()),
            "token {i} '{t}' of {mv}: choices offered {offered:?}"
        );
        page.click(&format!(
            "#board g.hole[data-side='{side}'][data-hole='{hole}']"
        ))
        .await;
        // Both ways from this hole, or a choice later in the move: the
        // page shows the move up to it and offers the ways on the board.
        let s = page.idle().await;
        if !s["choices"].as_array().unwrap().is_empty() && !CHOICE_SHOT.swap(true, Ordering::AcqRel)
        {
            page.shot("choice.png").await;
        }
        if s["choices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == t.as_str())
        {
            page.click(&format!("#board g.choice[data-token='{t}']"))
                .await;
        }
    }
}

fn tokens(mv: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for ch in mv.chars() {
        let starts = matches!(ch, '~' | 'x' | '+' | '-' | '=')
            || (ch.is_ascii_lowercase() && !cur.ends_with(['~', 'x']))
            || (ch.is_ascii_digit()
                && !cur
                    .chars()
                    .last()
                    .is_some_and(|c| c.is_ascii_digit() || c == '~' || c == 'x'));
        if starts && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Play a whole game by clicks as A against the engine; returns its record.
/// `choices` counts the positions where the page offered choices before a
/// click (race decisions).
async fn play_game(
    page: &Page,
    (variant, columns, opening): (&str, u8, &str),
    players: [&str; 2],
    shot: &str,
    race_choices: &mut u32,
    hidden_starts: &mut u32,
) -> String {
    page.new_game_of(variant, columns, opening, "alphabeta", players)
        .await;
    let mut s = page.settle().await;
    let start = s["start"].as_str().unwrap().to_string();
    check_board(&s, &start);
    let mut plies = 0;
    let mut saw_chart = false;
    while s["result"] == "none" {
        let me = if s["position"].as_str().unwrap().split(' ').nth(2) == Some("a") {
            0
        } else {
            1
        };
        let moves = s["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "{s}");
        // Greedy for material, so that games end soon; ties by list order,
        // but a blind start is the last hole: in Lango, b against b races
        // into a decision of A's (PROTOCOL.md).
        let blind = s["position"]
            .as_str()
            .unwrap()
            .split(' ')
            .nth(3)
            .unwrap()
            .starts_with('s');
        let best = if blind {
            moves.last().unwrap()
        } else {
            moves
                .iter()
                .min_by_key(|m| opponent_material(m[1].as_str().unwrap(), me))
                .unwrap()
        };
        let mv = best[0].as_str().unwrap().to_string();
        let before = s["history"].as_array().unwrap().len();
        let phase = s["position"].as_str().unwrap().split(' ').nth(3).unwrap();
        if phase.starts_with("s1") && players[1] == "human" {
            // B, a person at the same board, is not shown A's blind start.
            assert_eq!(s["shown"][0], "(blind)", "{s}");
            let shown = page
                .js("return document.getElementById('position').value")
                .await;
            assert!(!shown.as_str().unwrap().contains("s1:"), "{shown}");
            *hidden_starts += 1;
        }
        if !s["choices"].as_array().unwrap().is_empty() {
            *race_choices += 1;
        }
        enter(page, &mv, if me == 0 { "a" } else { "b" }).await;
        s = page.settle().await;
        assert_ne!(s["kind"], "error", "{s}");
        let after = s["history"].as_array().unwrap();
        assert!(after.len() > before, "{mv} was not played: {s}");
        assert_eq!(after[before], mv.as_str());
        check_board(&s, &start);
        saw_chart |= s["bars"].as_u64().unwrap() > 0;
        plies = after.len();
        if plies == 6 {
            page.shot(shot).await;
        }
        assert!(plies < MAX_PLIES, "{variant}: no end after {plies} plies");
    }
    if opening == "simultaneous" && variant != "adjiboto" && players[1] == "engine" {
        assert!(
            saw_chart,
            "{variant}: the engine's blind strategy was not charted"
        );
    }
    println!(
        "{variant} {columns} {opening}: {plies} plies, {}",
        s["result"]
    );
    page.click("#save-record").await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "note", "{s}");
    page.js("return document.getElementById('record-out').value")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_in_headless_chromium() {
    let required = std::env::var_os("CHORO_BROWSER_REQUIRED").is_some();
    let (Some(driver), Some(browser)) = (
        which(&["chromedriver"]),
        which(&["chromium", "chromium-browser", "google-chrome"]),
    ) else {
        assert!(
            !required,
            "CHORO_BROWSER_REQUIRED is set but chromium or chromedriver is missing"
        );
        // Straight to stderr, past the test harness's capture, so that
        // `cargo test` shows it.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: the choro-gui browser tests need chromium and chromedriver \
             (Debian: apt-get install chromium chromium-driver; .ci/browser installs them)"
        );
        return;
    };
    let engine = common::binary("choro");
    let app = choro_gui::App::new(engine, &[]);
    let (addr, serve) = choro_gui::bind(SocketAddr::from(([127, 0, 0, 1], 0)), app)
        .await
        .unwrap();
    tokio::spawn(serve);
    let port = free_port();
    let _driver = Driver(
        Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let t0 = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t0.elapsed() < PATIENCE, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let caps = json!({
        "goog:chromeOptions": {
            "binary": browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1100"],
        }
    });
    let conn = hyper_util::client::legacy::connect::HttpConnector::new();
    let c = ClientBuilder::new(conn)
        .capabilities(caps.as_object().unwrap().clone())
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .unwrap();
    let page = Page {
        c: c.clone(),
        url: format!("http://{addr}/"),
    };
    // The session is closed whatever happens, so that no browser outlives
    // a failing test.
    let run = tokio::spawn(scenario(page)).await;
    let _ = c.close().await;
    if let Err(e) = run {
        match e.try_into_panic() {
            Ok(p) => std::panic::resume_unwind(p),
            Err(e) => panic!("{e}"),
        }
    }
}

/// Everything the browser does, in order.
async fn scenario(page: Page) {
    page.c.goto(&page.url).await.unwrap();
    page.idle().await;
    // Animation off for the games; on for the animation checks below.
    page.js("document.getElementById('speed').value = '100';")
        .await;

    let mut records = String::new();
    let mut race_choices = 0;
    let mut hidden_starts = 0;
    let (vs_engine, two_people) = (["human", "engine"], ["human", "human"]);
    for (variant, columns, opening, players, shot) in [
        ("didinga", 8, "simultaneous", vs_engine, "didinga.png"),
        ("lango", 8, "simultaneous", two_people, "lango.png"),
        ("acholi", 8, "simultaneous", vs_engine, "acholi.png"),
        ("adjiboto", 8, "simultaneous", vs_engine, "adjiboto.png"),
        ("didinga", 12, "sequential", two_people, "didinga12.png"),
        ("acholi", 8, "sequential", two_people, "acholi-seq.png"),
    ] {
        let code = (variant, columns, opening);
        records.push_str(
            &play_game(
                &page,
                code,
                players,
                shot,
                &mut race_choices,
                &mut hidden_starts,
            )
            .await,
        );
    }
    assert!(race_choices > 0, "no race decision was offered in any game");
    assert_eq!(
        hidden_starts, 1,
        "the two people's simultaneous game hides A's start"
    );
    let file = screens_dir().join("games.txt");
    std::fs::write(&file, &records).unwrap();
    common::assert_replays(&file);

    records_are_stepped(&page, &file).await;
    engines_play_each_other(&page).await;
    new_game_while_the_engine_thinks(&page).await;
    animation_steps(&page).await;
    flip_and_bad_clicks(&page).await;
    bad_position_string(&page).await;
    engine_killed_mid_game(&page).await;
    closed_page_keeps_the_game(&page).await;
}

async fn records_are_stepped(page: &Page, file: &Path) {
    let input = page.c.find(Locator::Id("record-file")).await.unwrap();
    input.send_keys(file.to_str().unwrap()).await.unwrap();
    let s = page.idle().await;
    assert!(
        s["message"].as_str().unwrap().starts_with("6 games loaded"),
        "{s}"
    );
    // Game 2 (Lango): step forward, checking every board, then to the end.
    page.select("record-games", "1").await;
    let s = page.idle().await;
    let start = s["position"].as_str().unwrap().to_string();
    for ply in 1..=8 {
        page.click("#rec-next").await;
        let s = page.idle().await;
        assert_eq!(s["history"].as_array().unwrap().len(), ply, "{s}");
        check_board(&s, &start);
    }
    page.shot("record.png").await;
    page.click("#rec-prev").await;
    let s = page.idle().await;
    assert_eq!(s["history"].as_array().unwrap().len(), 7);
    check_board(&s, &start);
    page.click("#rec-last").await;
    let s = page.idle().await;
    assert_ne!(
        s["result"], "none",
        "the last ply of a record ends its game: {s}"
    );
    check_board(&s, &start);
}

/// Engine against engine: the page plays on by itself until stopped.
async fn engines_play_each_other(page: &Page) {
    page.new_game_of("lango", 8, "simultaneous", "random", ["engine", "engine"])
        .await;
    let t0 = Instant::now();
    let s = loop {
        let s = page.snapshot().await;
        let lango = s["mode"] == "game" && s["start"].as_str().unwrap_or("").starts_with("lango");
        if lango && (s["history"].as_array().unwrap().len() >= 8 || s["result"] != "none") {
            break s;
        }
        assert!(t0.elapsed() < PATIENCE, "{s}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    page.click("#stop").await;
    let s2 = page.idle().await;
    assert!(s2["history"].as_array().unwrap().len() >= s["history"].as_array().unwrap().len());
    check_board(&s2, s2["start"].as_str().unwrap());
}

/// A new game while the engine thinks: the page stops the search, and the
/// move the stopped search still answers is not played into the new game
/// (it was: the new game then held the old game's move and refused every
/// move).
async fn new_game_while_the_engine_thinks(page: &Page) {
    // Didinga's 12-wide start: alpha-beta finds no end in it, so it thinks
    // the whole movetime.
    page.new_game("didinga", 12, "sequential", "alphabeta")
        .await;
    page.js("document.getElementById('movetime').value = '5000';")
        .await;
    page.click("#engine-move").await;
    let t0 = Instant::now();
    while page.js("return document.body.dataset.thinking").await != "1" {
        assert!(t0.elapsed() < PATIENCE, "the engine did not start thinking");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let s = page.new_game("didinga", 8, "sequential", "greedy").await;
    let start = s["start"].as_str().unwrap().to_string();
    assert!(start.starts_with("didinga"), "{s}");
    assert_eq!(s["history"], json!([]), "{s}");
    assert_ne!(s["kind"], "error", "{s}");
    check_board(&s, &start);
    // The new game takes its first move.
    let mv = s["moves"][0][0].as_str().unwrap().to_string();
    page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
        .await;
    let s = page.settle().await;
    assert_eq!(s["history"][0], mv.as_str(), "{s}");
    assert_ne!(s["kind"], "error", "{s}");
    check_board(&s, &start);
}

/// A move's animation: step back to the start of the move and forward again.
async fn animation_steps(page: &Page) {
    page.new_game("didinga", 8, "sequential", "greedy").await;
    page.js("document.getElementById('speed').value = '0';")
        .await;
    page.click("#board g.hole[data-side='a'][data-hole='l']")
        .await;
    // At the slowest speed the move is still being shown: pause, step.
    let t0 = Instant::now();
    while !page.snapshot().await["caption"]
        .as_str()
        .unwrap()
        .starts_with("1/")
    {
        assert!(
            t0.elapsed() < PATIENCE,
            "the move's animation did not start"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    page.click("#anim-play").await;
    page.click("#anim-first").await;
    let s = page.snapshot().await;
    assert!(s["caption"].as_str().unwrap().starts_with("0/"), "{s}");
    page.click("#anim-fwd").await;
    page.click("#anim-fwd").await;
    let s = page.snapshot().await;
    assert!(s["caption"].as_str().unwrap().starts_with("2/"), "{s}");
    assert!(
        s["caption"].as_str().unwrap().contains("A drops into m"),
        "{s}"
    );
    page.shot("animation.png").await;
    page.click("#anim-last").await;
    page.js("document.getElementById('speed').value = '100';")
        .await;
    let s = page.settle().await;
    assert_eq!(s["history"][0], "l");
}

async fn flip_and_bad_clicks(page: &Page) {
    let s = page.new_game("lango", 8, "sequential", "greedy").await;
    let y = |row: u8| {
        format!("return +document.querySelector('#board g.hole[data-row=\"{row}\"][data-col=\"0\"] circle').getAttribute('cy')")
    };
    let (south, north) = (page.js(&y(0)).await, page.js(&y(3)).await);
    assert!(south.as_f64().unwrap() > north.as_f64().unwrap());
    page.click("#flip").await;
    let (south, north) = (page.js(&y(0)).await, page.js(&y(3)).await);
    assert!(south.as_f64().unwrap() < north.as_f64().unwrap(), "flipped");
    page.shot("flipped.png").await;
    page.click("#flip").await;
    // B's hole while A is to move; then a hole A may not open from.
    page.click("#board g.hole[data-side='b'][data-hole='a']")
        .await;
    let s2 = page.snapshot().await;
    assert_eq!(s2["kind"], "error", "{s2}");
    assert!(s2["message"].as_str().unwrap().contains("B's"), "{s2}");
    page.click("#board g.hole[data-side='a'][data-hole='e']")
        .await;
    let s2 = page.snapshot().await;
    assert_eq!(s2["kind"], "error", "{s2}");
    assert_eq!(s2["history"], s["history"], "nothing was played");
}

async fn bad_position_string(page: &Page) {
    let before = page.settle().await;
    let input = page.c.find(Locator::Id("fen-input")).await.unwrap();
    input.send_keys("didinga:8 2,2,2/2 a q 0").await.unwrap();
    page.click("#fen-set").await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "error", "{s}");
    assert!(s["message"].as_str().unwrap().contains("refused"), "{s}");
    assert_eq!(s["position"], before["position"], "the game is kept");
    // A good one is set up.
    page.js("document.getElementById('fen-input').value = 'lango:8 0,2,2,0,2,2,0,2/3,4,3,0,4,3,1,3/3,1,3,4,0,3,4,3/0,0,2,2,0,2,2,0 a m 20';")
        .await;
    page.click("#fen-set").await;
    let s = page.settle().await;
    assert_eq!(
        s["position"],
        "lango:8 0,2,2,0,2,2,0,2/3,4,3,0,4,3,1,3/3,1,3,4,0,3,4,3/0,0,2,2,0,2,2,0 a m 20"
    );
}

/// The engine is killed while it thinks: the page says so, the engine is
/// started again, the game goes on from where it was.
async fn engine_killed_mid_game(page: &Page) {
    let mut s = page.new_game("didinga", 8, "sequential", "alphabeta").await;
    page.js("document.getElementById('movetime').value = '3000';")
        .await;
    let start = s["start"].as_str().unwrap().to_string();
    let mv = s["moves"][0][0].as_str().unwrap().to_string();
    // A Didinga opening start has no choice: one click plays it.
    page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
        .await;
    // B (the engine) is thinking soon.
    let t0 = Instant::now();
    loop {
        s = page.snapshot().await;
        let thinking = page.js("return document.body.dataset.thinking").await;
        if thinking == "1" {
            break;
        }
        assert!(t0.elapsed() < PATIENCE, "{s}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = s["pid"].as_str().unwrap().to_string();
    assert!(Command::new("kill")
        .args(["-9", &pid])
        .status()
        .unwrap()
        .success());
    let s = page.settle().await;
    assert_eq!(s["kind"], "note", "{s}");
    assert!(s["message"].as_str().unwrap().contains("restarted"), "{s}");
    assert_ne!(s["pid"].as_str().unwrap(), pid, "a new engine");
    assert_eq!(s["restarts"], "1", "{s}");
    assert_eq!(
        s["history"].as_array().unwrap().len(),
        2,
        "the engine moved after all: {s}"
    );
    check_board(&s, &start);
    page.shot("restarted.png").await;
}

async fn closed_page_keeps_the_game(page: &Page) {
    let before = page.settle().await;
    let old = page.c.window().await.unwrap();
    let tab = page.c.new_window(true).await.unwrap();
    page.c.close_window().await.unwrap_or(());
    let _ = old;
    page.c.switch_to_window(tab.handle).await.unwrap();
    page.c.goto(&page.url).await.unwrap();
    let s = page.idle().await;
    assert_eq!(s["history"], before["history"], "{s}");
    assert_eq!(s["position"], before["position"]);
    assert!(s["message"].as_str().unwrap().contains("restored"), "{s}");
}
