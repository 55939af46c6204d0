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
//!
//! Before the games (issue 29): the page at 390x844 and 844x390 (the
//! screenshots `phone.png` and `phone-landscape.png`), a Lango race
//! decision and Esc by the keyboard, the hot-seat secrecy of a blind start
//! (the page's HTML, inputs, tooltips and the clipboard), walking the move
//! list, take back against the engine and a reload while it thinks, and a
//! whole Didinga game played with the keyboard alone; the race with holds
//! (issue 31: Holds refused out of range, Hold by the key H and by the
//! button, the holds left and each tick's outcome in the status, a tick
//! that plays itself when its time is up, the hot-seat secrecy of a tick's
//! choice: the page the same after A's hold as after his drop); axe-core (npm,
//! `.ci/browser` installs it into `target/axe`) checks the page at eight
//! states for serious and critical findings.

mod common;

use choro_engine::{Game, Position};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
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

/// axe-core's script: `CHORO_AXE`, or where `.ci/browser` installs it
/// (`target/axe`, by npm). Missing: a failure under `CHORO_BROWSER_REQUIRED`,
/// else the accessibility checks are skipped with a message.
fn axe_source() -> Option<String> {
    let target = screens_dir().parent().unwrap().to_path_buf();
    let path = std::env::var_os("CHORO_AXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| target.join("axe/node_modules/axe-core/axe.min.js"));
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            assert!(
                std::env::var_os("CHORO_BROWSER_REQUIRED").is_none(),
                "axe-core is missing at {}: {e} (.ci/browser installs it with npm)",
                path.display()
            );
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: the axe-core checks need {} (.ci/browser installs it with npm)",
                path.display()
            );
            None
        }
    }
}

const KEY_TAB: char = '\u{E004}';
const KEY_ENTER: char = '\u{E007}';
const KEY_ESCAPE: char = '\u{E00C}';
const KEY_END: char = '\u{E010}';
const KEY_HOME: char = '\u{E011}';
const KEY_LEFT: char = '\u{E012}';
const KEY_UP: char = '\u{E013}';
const KEY_RIGHT: char = '\u{E014}';
const KEY_DOWN: char = '\u{E015}';

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
            // The engine's answers as the page holds them (some are not
            // shown while a blind start is secret), and what is shown.
            const moves = st ? st.moves : [];
            const history = shownMoves();
            const shown = [...document.querySelectorAll('#history li')].map(l => l.textContent);
            const m = document.getElementById('message');
            return {
              busy: document.body.dataset.busy, human: document.body.dataset.human,
              mode: document.body.dataset.mode, ply: +document.body.dataset.ply,
              result: document.body.dataset.result, position: st ? st.position : null,
              start: document.body.dataset.start, holes, stores, moves, history, shown,
              all: cur() ? cur().g.moves.length : 0,
              message: m.textContent, kind: m.className, status: document.getElementById('status').textContent,
              choices: [...document.querySelectorAll('#choices button')].map(b => b.dataset.token),
              bars: document.querySelectorAll('#blind-chart rect.bar').length,
              pid: document.body.dataset.enginePid, restarts: document.body.dataset.restarts,
              caption: document.getElementById('anim-caption').textContent,
              autoplay: document.getElementById('autoplay').checked,
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

    /// Press and release one key where the focus is, as a person would.
    async fn key(&self, k: char) {
        let a = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
        self.c.perform_actions(a).await.unwrap();
    }

    /// What has the focus: its tag, hole, side and token (a choice button).
    async fn focused(&self) -> Value {
        self.js(r#"const e = document.activeElement;
            const r = e ? e.getBoundingClientRect() : null;
            return e ? {tag: e.tagName, id: e.id, hole: e.dataset ? e.dataset.hole : null,
              side: e.dataset ? e.dataset.side : null, token: e.dataset ? e.dataset.token : null,
              x: r.left + r.width / 2, y: r.top + r.height / 2} : null;"#)
            .await
    }

    async fn resize(&self, width: u32, height: u32) {
        // The window's frame, if any, is added so that the page gets the
        // size; a resize takes effect a little later.
        let (mut ow, mut oh) = (width as i64, height as i64);
        for _ in 0..50 {
            self.c.set_window_size(ow as u32, oh as u32).await.unwrap();
            tokio::time::sleep(Duration::from_millis(100)).await;
            let inner = self.js("return [innerWidth, innerHeight]").await;
            let (w, h) = (inner[0].as_i64().unwrap(), inner[1].as_i64().unwrap());
            if (w, h) == (width as i64, height as i64) {
                return;
            }
            ow += width as i64 - w;
            oh += height as i64 - h;
        }
        panic!("the viewport did not become {width}x{height}");
    }

    /// axe-core's serious and critical findings on the page as it is.
    async fn axe(&self, when: &str) {
        let Some(src) = axe_source() else {
            return;
        };
        if self.js("return typeof axe").await != "object" {
            self.c.execute(&src, vec![]).await.unwrap();
        }
        let found = self
            .c
            .execute_async(
                r#"const done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations
                  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                  .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + n.failureSummary) }))),
                  (e) => done([{ id: 'axe failed', help: String(e) }]));"#,
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            found,
            json!([]),
            "axe-core, {when}: serious or critical findings:\n{found:#}"
        );
        println!("axe-core {when}: no serious or critical finding");
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
            page.click(&format!("#choices button[data-token='{t}']"))
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
            page.click(&format!("#choices button[data-token='{t}']"))
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
            assert_eq!(s["shown"][0], "A: (blind start, hidden)", "{s}");
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
    page.axe("the page at its start").await;
    phone(&page).await;
    keyboard_lango_decision(&page).await;
    hot_seat_secrecy(&page).await;
    holds_in_the_race(&page).await;
    history_is_walked(&page).await;
    take_back_against_the_engine(&page).await;
    keyboard_didinga_game(&page).await;
    unfinished_game_saved_and_loaded(&page).await;
    words_and_panels(&page).await;

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
    // The records name who played: a person, or the engine and its settings.
    assert!(
        records.contains("[A \"human\"]\n[B \"choro alphabeta 40 ms\"]"),
        "{records}"
    );
    assert!(
        records.contains("[A \"human\"]\n[B \"human\"]"),
        "{records}"
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

/// A game not over is saved as an unfinished record (`*`, no reason) that
/// `choro replay` accepts; loaded after another game, it is shown at its
/// end and "Play on from here" continues it.
async fn unfinished_game_saved_and_loaded(page: &Page) {
    let mut s = page.new_game("didinga", 8, "sequential", "alphabeta").await;
    let start = s["start"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let mv = s["moves"][0][0].as_str().unwrap().to_string();
        enter(page, &mv, "a").await;
        s = page.settle().await;
        assert_eq!(s["result"], "none", "{s}");
    }
    let plies = s["history"].as_array().unwrap().len();
    assert!(plies >= 3, "{s}");
    let position = s["position"].clone();
    page.click("#save-record").await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "note", "{s}");
    assert!(s["message"].as_str().unwrap().contains("unfinished"), "{s}");
    let text = page
        .js("return document.getElementById('record-out').value")
        .await
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("[Result \"*\"]\n"), "{text}");
    assert!(!text.contains("[Reason "), "{text}");
    assert_eq!(text.trim_end().lines().last(), Some("*"), "{text}");
    assert!(text.contains(&format!("[Plies \"{plies}\"]")), "{text}");
    let file = screens_dir().join("unfinished.txt");
    std::fs::write(&file, &text).unwrap();
    common::assert_replays(&file);

    // Another game in between: the loaded record must bring it all back.
    page.new_game("lango", 8, "simultaneous", "alphabeta").await;
    let input = page.c.find(Locator::Id("record-file")).await.unwrap();
    input.send_keys(file.to_str().unwrap()).await.unwrap();
    let s = page.idle().await;
    let said = s["message"].as_str().unwrap();
    assert!(said.starts_with("1 game loaded"), "{s}");
    assert!(said.contains("unfinished"), "{s}");
    assert_eq!(s["mode"], "record", "{s}");
    assert_eq!(s["history"].as_array().unwrap().len(), plies, "{s}");
    assert_eq!(
        s["position"], position,
        "an unfinished record opens at its end"
    );
    assert_eq!(s["result"], "none", "{s}");
    check_board(&s, &start);
    let option = page
        .js("return document.getElementById('record-games').options[0].textContent")
        .await;
    assert!(option.as_str().unwrap().contains("unfinished"), "{option}");
    assert_eq!(
        page.js("return document.getElementById('variant').value")
            .await,
        "didinga"
    );

    // Play on from its end: A (a person) to move, then one more move.
    page.click("#rec-play").await;
    let s = page.settle().await;
    assert_eq!(s["mode"], "game", "{s}");
    assert_eq!(s["human"], "1", "{s}");
    assert_eq!(s["position"], position, "{s}");
    assert_eq!(s["history"].as_array().unwrap().len(), plies, "{s}");
    let mv = s["moves"][0][0].as_str().unwrap().to_string();
    enter(page, &mv, "a").await;
    let s = page.settle().await;
    assert_ne!(s["kind"], "error", "{s}");
    let after = s["history"].as_array().unwrap();
    assert!(after.len() > plies, "{mv} was not played: {s}");
    assert_eq!(after[plies], mv.as_str());
    check_board(&s, &start);
}

/// A position of a Didinga game where A, to move, wins with one move: the
/// games play the `k`-th legal move (k = 0, 1, ...) until one has it.
fn a_win_in_one() -> String {
    use choro_engine::{Outcome, Side, Variant};
    for k in 0..16 {
        let mut game = Game::new(Position::startpos(Variant::Didinga, 8).unwrap());
        while game.outcome().is_none() {
            let pos = *game.position();
            // A to move: a person, so that the engine (B) does not play it.
            let wins = pos.side_to_move() == Side::A
                && pos
                    .legal_moves()
                    .iter()
                    .any(|(_, next)| next.outcome() == Some(Outcome::Win { winner: Side::A }));
            if wins {
                return pos.to_string();
            }
            let legal = pos.legal_moves();
            let (m, next) = legal[k % legal.len()];
            game.push(pos.restyle(m), next);
        }
    }
    panic!("no win in one for A in the Didinga games tried");
}

/// The page's words (issue 29): the status line's phase in words, the
/// engine's score naming its side and its unit, the evaluation table's
/// caption and headers in counters; the note when Code, Width or Opening
/// change before New game; Set up clearing the engine's line, principal
/// variation and blind chart; the favicon.
async fn words_and_panels(page: &Page) {
    let panels =
        "return ['analysis', 'pv', 'blind-chart'].map(id => document.getElementById(id).innerHTML)";
    // The status line names the side, who plays it and the phase in words.
    let s = page.new_game("didinga", 8, "sequential", "alphabeta").await;
    assert_eq!(
        s["status"], "A to move (a person) - sequential opening: A opens, then B",
        "{s}"
    );
    let s = page
        .new_game("didinga", 8, "simultaneous", "alphabeta")
        .await;
    assert_eq!(
        s["status"], "A to move (a person) - simultaneous opening: A chooses his start blind",
        "{s}"
    );
    // A's blind start, then the engine's (B's) with its chart; a move of A's.
    let mv = s["moves"][0][0].as_str().unwrap().to_string();
    enter(page, &mv, "a").await;
    let s = page.settle().await;
    assert!(
        s["bars"].as_u64().unwrap() > 0,
        "the engine's blind start is charted: {s}"
    );
    let mover = s["position"]
        .as_str()
        .unwrap()
        .split(' ')
        .nth(2)
        .unwrap()
        .to_uppercase();
    let other = if mover == "A" { "B" } else { "A" };
    // The evaluation table: caption and headers say whose and in what unit.
    let table = page
        .js(r#"const t = document.getElementById('eval');
            return { caption: t.caption ? t.caption.textContent : null,
              heads: [...t.querySelectorAll('tr:first-of-type th')].map(h => h.textContent),
              scores: [...t.querySelectorAll('tr')].slice(1).map(r => r.lastElementChild.textContent) };"#)
        .await;
    assert_eq!(
        table["caption"],
        format!("Static evaluation for {mover}, the side to move; scores in counters."),
        "{table}"
    );
    assert_eq!(
        table["heads"],
        json!([
            "term",
            format!("{mover} (to move)"),
            other,
            "score (counters)"
        ]),
        "{table}"
    );
    let scores = table["scores"].as_array().unwrap();
    assert!(!scores.is_empty(), "{table}");
    for v in scores {
        let v = v.as_str().unwrap();
        let (int, frac) = v.split_once('.').unwrap_or_else(|| panic!("{table}"));
        assert!(
            int.trim_start_matches('-').parse::<u32>().is_ok(),
            "{table}"
        );
        assert_eq!(frac.len(), 2, "scores in counters, two decimals: {table}");
    }

    page.click("#analyse").await;
    let s = page.idle().await;
    let said = page
        .js("return document.getElementById('analysis').textContent")
        .await;
    let said = said.as_str().unwrap();
    assert!(said.starts_with("depth "), "{said}");
    assert!(
        said.contains(&format!(" counters for {mover};"))
            || said.contains(&format!("solved: {mover} (to move) wins in"))
            || said.contains(&format!("({mover} to move loses)")),
        "the score names its side and unit: {said}"
    );
    let shown = page.js(panels).await;
    assert!(
        shown.as_array().unwrap().iter().all(|v| v != ""),
        "the engine's line, pv and blind chart are shown: {shown}"
    );

    // Code, width or opening changed: a note until New game.
    let note = "return [document.getElementById('settings-note').textContent, document.getElementById('settings-note').className]";
    let before = page.js(note).await;
    assert!(!before[0].as_str().unwrap().contains("changed"), "{before}");
    page.select("opening", "sequential").await;
    let changed = page.js(note).await;
    assert_eq!(
        changed[0],
        "Code, width, opening or holds changed: it takes effect at New game (the game on the board is kept until then).",
        "{changed}"
    );
    assert_eq!(changed[1], "changed", "{changed}");
    assert_eq!(
        page.snapshot().await["position"],
        s["position"],
        "the game is kept"
    );

    // Set up: the engine's line, pv and blind chart go; a win in one is
    // said as a win for the side to move, in plies.
    let fen = a_win_in_one();
    set_up(page, &fen).await;
    let gone = page.js(panels).await;
    assert_eq!(
        gone,
        json!(["", "", ""]),
        "Set up keeps the last game's analysis"
    );
    let after = page.js(note).await;
    assert_eq!(
        after[1], "",
        "Set up sets Code/Width/Opening to the position's: {after}"
    );
    page.click("#analyse").await;
    page.idle().await;
    let said = page
        .js("return document.getElementById('analysis').textContent")
        .await;
    assert!(
        said.as_str()
            .unwrap()
            .contains("solved: A (to move) wins in 1 ply;"),
        "{said}"
    );

    // The favicon: a link the browser can load as an image.
    let icon = page
        .c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const l = document.querySelector('link[rel~=icon]');
            if (!l) return done(null);
            const img = new Image();
            img.onload = () => done([l.href.slice(0, 19), img.naturalWidth]);
            img.onerror = () => done([l.href.slice(0, 19), 0]);
            img.src = l.href;"#,
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(icon[0], "data:image/svg+xml,", "{icon}");
    assert!(
        icon[1].as_u64().unwrap() > 0,
        "the favicon does not load: {icon}"
    );
}

async fn records_are_stepped(page: &Page, file: &Path) {
    // What the engine said of the game before: gone with the records.
    page.new_game("didinga", 8, "sequential", "alphabeta").await;
    page.click("#analyse").await;
    page.idle().await;
    let said = page
        .js("return document.getElementById('analysis').textContent")
        .await;
    assert!(said.as_str().unwrap().starts_with("depth"), "{said}");
    let input = page.c.find(Locator::Id("record-file")).await.unwrap();
    input.send_keys(file.to_str().unwrap()).await.unwrap();
    let s = page.idle().await;
    assert!(
        s["message"].as_str().unwrap().starts_with("6 games loaded"),
        "{s}"
    );
    // Game 2 (Lango): step forward, checking every board, then to the end.
    let gone = page
        .js("return ['analysis', 'pv', 'blind-chart'].map(id => document.getElementById(id).textContent).join('')")
        .await;
    assert_eq!(gone, "", "a loaded record keeps the last game's analysis");
    page.select("record-games", "1").await;
    let s = page.idle().await;
    let start = s["position"].as_str().unwrap().to_string();
    // The header says what the record is.
    assert_eq!(
        page.js("return document.getElementById('variant').value")
            .await,
        "lango"
    );
    page.axe("a record loaded").await;
    for ply in 1..=8 {
        page.click("#nav-next").await;
        let s = page.idle().await;
        assert_eq!(s["history"].as_array().unwrap().len(), ply, "{s}");
        check_board(&s, &start);
    }
    page.shot("record.png").await;
    page.click("#nav-prev").await;
    let s = page.idle().await;
    assert_eq!(s["history"].as_array().unwrap().len(), 7);
    check_board(&s, &start);
    page.click("#nav-last").await;
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
    assert_eq!(
        page.js("return document.getElementById('record-games').options.length")
            .await,
        0,
        "a new game keeps the record picker's entries"
    );
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
        s["caption"].as_str().unwrap().contains("A drops into M"),
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

/// The Lango race decision of PROTOCOL.md: A to decide, relay at k.
const LANGO_RACE: &str = "lango:8 0,2,2,0,2,2,0,2/3,4,3,0,4,3,1,3/3,1,3,4,0,3,4,3/0,0,2,2,0,2,2,0 a r 11.1 decide=relay,hand=3,at=k,origin=k,front=1,single=0,laps=3 lap=ccw,hand=1,next=k,origin=g,front=1,laps=3 2";

/// Set up a position by typing it and pressing Enter in "Set up".
async fn set_up(page: &Page, fen: &str) -> Value {
    page.js("document.getElementById('fen-input').value = '';")
        .await;
    let input = page.c.find(Locator::Id("fen-input")).await.unwrap();
    input.send_keys(fen).await.unwrap();
    page.key(KEY_ENTER).await;
    let s = page.idle().await;
    assert_eq!(s["position"], fen, "Enter in Set up sets the position: {s}");
    assert_eq!(s["history"], json!([]), "{s}");
    s
}

/// Tab (at most `n` times) until the focus is on what `want` accepts.
async fn tab_to(page: &Page, n: usize, want: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..n {
        let f = page.focused().await;
        if want(&f) {
            return f;
        }
        page.key(KEY_TAB).await;
    }
    panic!("Tab never reached the element: {}", page.focused().await);
}

/// Play hole `hole` of `side` with the keyboard alone: Tab to the board,
/// arrow keys across it to the hole, Enter.
async fn key_hole(page: &Page, side: &str, hole: &str) {
    let f = tab_to(page, 80, |f| f["tag"] == "g").await;
    let _ = f;
    let target = page
        .js(&format!(
            "const r = document.querySelector(\"#board g.hole[data-side='{side}'][data-hole='{hole}']\").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];"
        ))
        .await;
    let (tx, ty) = (target[0].as_f64().unwrap(), target[1].as_f64().unwrap());
    for _ in 0..40 {
        let f = page.focused().await;
        assert_eq!(f["tag"], "g", "the focus left the board: {f}");
        if f["side"] == side && f["hole"] == hole {
            page.key(KEY_ENTER).await;
            return;
        }
        let (x, y) = (f["x"].as_f64().unwrap(), f["y"].as_f64().unwrap());
        let k = if ty < y - 10.0 {
            KEY_UP
        } else if ty > y + 10.0 {
            KEY_DOWN
        } else if tx < x {
            KEY_LEFT
        } else {
            KEY_RIGHT
        };
        page.key(k).await;
    }
    panic!("the arrow keys did not reach hole {hole} of {side}");
}

/// Choose `token` among the choices offered, with Tab and Enter.
async fn key_choice(page: &Page, token: &str) {
    tab_to(page, 80, |f| f["token"] == token).await;
    page.key(KEY_ENTER).await;
}

/// A whole Didinga game (simultaneous opening) against the engine played
/// with the keyboard alone.
async fn keyboard_didinga_game(page: &Page) {
    page.new_game_of(
        "didinga",
        8,
        "simultaneous",
        "alphabeta",
        ["human", "engine"],
    )
    .await;
    let mut s = page.settle().await;
    let start = s["start"].as_str().unwrap().to_string();
    // Start from the page's top, as a person arriving by keyboard would.
    page.js("document.activeElement.blur(); document.getElementById('new-game').focus();")
        .await;
    let mut plies = 0;
    while s["result"] == "none" {
        let moves = s["moves"].as_array().unwrap().clone();
        let mv = moves
            .iter()
            .min_by_key(|m| opponent_material(m[1].as_str().unwrap(), 0))
            .unwrap()[0]
            .as_str()
            .unwrap()
            .to_string();
        let before = s["history"].as_array().unwrap().len();
        key_hole(page, "a", &mv).await;
        s = page.settle().await;
        assert_ne!(s["kind"], "error", "{s}");
        let after = s["history"].as_array().unwrap();
        assert!(after.len() > before, "{mv} was not played by Enter: {s}");
        assert_eq!(after[before], mv.as_str());
        check_board(&s, &start);
        plies = after.len();
        assert!(plies < MAX_PLIES, "no end after {plies} plies");
    }
    println!("didinga by keyboard: {plies} plies, {}", s["result"]);
}

/// A Lango race decision taken with the keyboard, the buttons saying what
/// the choices do; Esc cancels a half-entered move.
async fn keyboard_lango_decision(page: &Page) {
    page.new_game_of("lango", 8, "simultaneous", "greedy", ["human", "engine"])
        .await;
    page.settle().await;
    let s = set_up(page, LANGO_RACE).await;
    assert_eq!(s["choices"], json!(["+", "-"]), "{s}");
    let texts = page
        .js("return [...document.querySelectorAll('#choices button')].map(b => b.textContent)")
        .await;
    assert_eq!(
        texts,
        json!(["relay clockwise (+)", "relay counter-clockwise (-)"])
    );
    page.axe("a race decision offered").await;
    page.js("document.getElementById('new-game').focus();")
        .await;
    key_choice(page, "-").await;
    let s = page.settle().await;
    assert_eq!(s["history"][0], "-", "{s}");
    assert_ne!(s["kind"], "error", "{s}");
    assert!(
        s["shown"][0]
            .as_str()
            .unwrap()
            .starts_with("A: race decision at K: relay counter-clockwise (-)"),
        "{s}"
    );
    check_board(&s, LANGO_RACE);

    // Acholi's sequential opening: hole k may be sown either way (the
    // attack clockwise); Esc takes the half-entered move back.
    let fen = "acholi:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0";
    set_up(page, fen).await;
    let hole = "k";
    key_hole(page, "a", hole).await;
    let s = page.idle().await;
    assert!(
        s["choices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == &json!(format!("~{hole}"))),
        "{s}"
    );
    assert_eq!(
        page.focused().await["tag"],
        "BUTTON",
        "the focus is on the choices"
    );
    page.key(KEY_ESCAPE).await;
    let s = page.idle().await;
    assert_eq!(s["choices"], json!([]), "Esc cancelled the move: {s}");
    assert_eq!(s["history"], json!([]), "{s}");
    assert!(s["message"].as_str().unwrap().contains("cancelled"), "{s}");
    assert_eq!(
        page.focused().await["tag"],
        "g",
        "the focus is back on the board"
    );
}

/// Two people at one board: after A's blind start nothing on the page
/// (text, attributes, tooltips, inputs, the clipboard) shows it until B
/// has chosen his.
async fn hot_seat_secrecy(page: &Page) {
    page.new_game_of("lango", 8, "simultaneous", "greedy", ["human", "human"])
        .await;
    let s = page.settle().await;
    let a = s["moves"][0][0].as_str().unwrap().to_string();
    page.click(&format!("#board g.hole[data-side='a'][data-hole='{a}']"))
        .await;
    let s = page.settle().await;
    let secret = s["position"].as_str().unwrap().to_string();
    assert!(secret.contains(" s1:"), "{s}");
    let rows = secret.split(' ').nth(1).unwrap().to_string();
    // Every position B's starts lead to: the race, which A's start decides.
    let revealing: Vec<String> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m[1].as_str()
                .unwrap()
                .split(' ')
                .nth(1)
                .unwrap()
                .to_string()
        })
        .filter(|r| *r != rows)
        .collect();
    assert!(!revealing.is_empty());
    let page_text = page
        .js(
            r#"const inputs = [...document.querySelectorAll('input, textarea')].map(e => e.value);
            const titles = [...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'));
            const svgTitles = [...document.querySelectorAll('title')].map(e => e.textContent);
            return [document.documentElement.outerHTML, ...inputs, ...titles, ...svgTitles].join('\n');"#,
        )
        .await;
    let page_text = page_text.as_str().unwrap();
    let start_word = format!("s1:{a}");
    assert!(
        !page_text.contains(&start_word),
        "the page shows {start_word}"
    );
    for r in &revealing {
        assert!(
            !page_text.contains(r.as_str()),
            "the page shows the race {r}"
        );
    }
    // The clipboard: whatever Copy would write.
    page.js(
        r#"window.copied = [];
        navigator.clipboard.writeText = (t) => { window.copied.push(t); return Promise.resolve(); };
        const ex = document.execCommand.bind(document);
        document.execCommand = (c) => { if (c === 'copy') window.copied.push(document.getSelection().toString() || document.activeElement.value); return ex(c); };"#,
    )
    .await;
    page.click("#copy-position").await;
    let copied = page.js("return window.copied.join('\\n')").await;
    assert!(!copied.as_str().unwrap().contains("s1:"), "copied {copied}");
    for r in &revealing {
        assert!(!copied.as_str().unwrap().contains(r.as_str()));
    }
    page.axe("hot seat, a blind start hidden").await;
    // B chooses: both starts are made, the position is shown again.
    let b = s["moves"][0][0].as_str().unwrap().to_string();
    page.click(&format!("#board g.hole[data-side='b'][data-hole='{b}']"))
        .await;
    let s = page.idle().await;
    let shown = page
        .js("return document.getElementById('position').value")
        .await;
    assert_eq!(shown, s["position"], "{s}");
    assert!(
        s["shown"][0].as_str().unwrap().contains("blind start"),
        "{s}"
    );
}

/// Everything the page shows or holds for a person to read: its HTML,
/// its inputs, its tooltips.
async fn page_text(page: &Page) -> String {
    page.js(
        r#"const inputs = [...document.querySelectorAll('input, textarea')].map(e => e.value);
        const titles = [...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'));
        const svgTitles = [...document.querySelectorAll('title')].map(e => e.textContent);
        return [document.documentElement.outerHTML, ...inputs, ...titles, ...svgTitles].join('\n');"#,
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// The Hold button and the holds shown: [disabled, aria-pressed, hidden, text].
async fn race_box(page: &Page) -> Value {
    page.js(r#"const b = document.getElementById('hold');
        return [b.disabled, b.getAttribute('aria-pressed'), document.getElementById('race').hidden,
          document.getElementById('holds-left').textContent];"#)
        .await
}

/// Wait until the game has `n` plies and the page is idle (a tick's
/// choice in a running race plays itself when its time is up).
async fn plies(page: &Page, n: usize) -> Value {
    let t0 = Instant::now();
    loop {
        let s = page.snapshot().await;
        if s["all"].as_u64().unwrap() as usize >= n && s["busy"] == "0" {
            return s;
        }
        assert!(t0.elapsed() < PATIENCE, "no ply {n}: {s}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A new game with `holds` (typed into Holds) at the speed `speed`.
async fn new_game_with_holds(page: &Page, holds: &str, speed: u32, players: [&str; 2]) -> Value {
    page.js(&format!(
        "document.getElementById('holds').value = '{holds}'; document.getElementById('speed').value = '{speed}';"
    ))
    .await;
    page.new_game_of("didinga", 8, "simultaneous", "alphabeta", players)
        .await;
    page.settle().await
}

/// Play the first start offered to `side` by a click on its hole.
async fn first_start(page: &Page, s: &Value, side: &str) -> Value {
    let h = s["moves"][0][0].as_str().unwrap().to_string();
    page.click(&format!(
        "#board g.hole[data-side='{side}'][data-hole='{h}']"
    ))
    .await;
    page.settle().await
}

/// The race with holds (RULES.md 8.10, issue 31): Holds out of range is
/// refused and the game kept; a person holds by the key H and by the Hold
/// button, which is disabled when no choice is due or no hold is left; the
/// holds left and each tick's outcome are said in the live status; in a
/// running race a tick's choice plays itself when its time is up (a drop,
/// or the hold chosen by then); in hot seat nothing on the page tells B
/// what A chose in the tick before B has chosen.
async fn holds_in_the_race(page: &Page) {
    // Holds 9: refused by the server, the game on the board kept.
    let s0 = new_game_with_holds(page, "0", 100, ["human", "engine"]).await;
    assert_eq!(race_box(page).await[2], true, "no holds, no Hold button");
    page.js("document.getElementById('holds').value = '9';")
        .await;
    page.click("#new-game").await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "error", "{s}");
    assert!(
        s["message"].as_str().unwrap().contains("bad 'holds': 9"),
        "{s}"
    );
    assert_eq!(
        (&s["start"], &s["position"]),
        (&s0["start"], &s0["position"])
    );
    // A position string whose holds disagree with Holds: refused, kept.
    page.js("document.getElementById('holds').value = '0'; document.getElementById('fen-input').value = '';")
        .await;
    let fen = s0["start"]
        .as_str()
        .unwrap()
        .replace(" s2 ", " s2,holds=2 ");
    let input = page.c.find(Locator::Id("fen-input")).await.unwrap();
    input.send_keys(&fen).await.unwrap();
    page.key(KEY_ENTER).await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "error", "{s}");
    let m = s["message"].as_str().unwrap();
    assert!(
        m.contains("the position gives each racer 2 holds but RaceHolds is 0")
            && m.contains("set Holds to the position's")
            && m.ends_with("(the game on the board is kept)"),
        "{s}"
    );
    assert_eq!(
        (&s["start"], &s["position"]),
        (&s0["start"], &s0["position"])
    );

    // Holds 2, the race waiting for each choice (the slowest speed).
    let s = new_game_with_holds(page, "2", 0, ["human", "engine"]).await;
    assert!(
        s["position"].as_str().unwrap().ends_with(" a s2,holds=2 0"),
        "{s}"
    );
    assert_eq!(
        race_box(page).await,
        json!([true, "false", false, "Holds: each racer 2."])
    );
    // H at a blind start: no hold to take, nothing played.
    page.js("document.activeElement.blur();").await;
    page.key('h').await;
    let s = page.snapshot().await;
    assert_eq!(s["kind"], "error", "{s}");
    assert!(
        s["message"]
            .as_str()
            .unwrap()
            .starts_with("No hold to take now"),
        "{s}"
    );
    assert_eq!(s["all"], 0, "{s}");
    let s = first_start(page, &s, "a").await;
    // The engine's blind start; then tick 1, A's choice.
    assert!(s["position"].as_str().unwrap().contains(" a r 1.0 "), "{s}");
    assert_eq!(s["choices"], json!([".", "_"]), "{s}");
    let rb = race_box(page).await;
    assert_eq!(rb[0], false, "{rb}");
    assert!(
        rb[3].as_str().unwrap().starts_with("Holds left: A 2, B 2."),
        "{rb}"
    );
    assert!(
        s["status"]
            .as_str()
            .unwrap()
            .ends_with("holds left: A 2, B 2"),
        "{s}"
    );
    page.axe("a tick's choice with holds").await;
    // By the key.
    page.js("document.activeElement.blur();").await;
    page.key('h').await;
    let s = plies(page, 4).await;
    let s = if s["human"] == "1" {
        s
    } else {
        page.settle().await
    };
    assert_eq!(s["history"][2], "_", "{s}");
    assert!(
        s["shown"][2]
            .as_str()
            .unwrap()
            .starts_with("A: tick 1: hold: let this tick pass without dropping (_)"),
        "{s}"
    );
    let b1 = s["history"][3].as_str().unwrap().to_string();
    // The engine's tick choice, drawn from its equilibrium, is charted.
    let chart = page
        .js("return document.querySelector('#blind-chart .chart-title').textContent")
        .await;
    assert!(
        chart.as_str().unwrap().starts_with(
            "Tick 1 choice of B (. drop, _ hold): equilibrium strategy (probabilities); drew "
        ),
        "{chart}"
    );
    assert!(s["bars"].as_u64().unwrap() >= 1, "{s}");
    let status = s["status"].as_str().unwrap();
    let b_did = if b1 == "_" { "held" } else { "dropped" };
    assert!(
        status.starts_with(&format!("Tick 1: A held, B {b_did}.")),
        "{s}"
    );
    let b_left = if b1 == "_" { 1 } else { 2 };
    assert!(
        status.ends_with(&format!("holds left: A 1, B {b_left}")),
        "{s}"
    );
    assert!(s["position"].as_str().unwrap().contains(" a r 2.0 "), "{s}");
    // By the button; the rest of the race at full speed.
    page.click("#hold").await;
    page.js("document.getElementById('speed').value = '100';")
        .await;
    let s = plies(page, 5).await;
    assert_eq!(s["history"][4], "_", "{s}");
    let s = page.settle().await;
    assert_eq!(
        race_box(page).await[0],
        true,
        "no hold left: the button is off"
    );
    // H with no hold left: a clear error, nothing played.
    let n = s["all"].clone();
    page.js("document.activeElement.blur();").await;
    page.key('h').await;
    let s = page.snapshot().await;
    assert_eq!(s["kind"], "error", "{s}");
    assert!(s["message"].as_str().unwrap().starts_with("No hold"), "{s}");
    assert_eq!(s["all"], n, "{s}");

    // A running race: the tick's choice plays itself when its time is up.
    let s = new_game_with_holds(page, "1", 40, ["human", "engine"]).await;
    let s = first_start(page, &s, "a").await;
    assert!(s["position"].as_str().unwrap().contains(" a r 1.0 "), "{s}");
    let t0 = Instant::now();
    let s = plies(page, 3).await;
    assert_eq!(s["history"][2], ".", "no choice made: A drops: {s}");
    assert!(
        t0.elapsed() >= Duration::from_millis(1000),
        "the tick had its time"
    );
    let s = page.settle().await;
    assert!(s["position"].as_str().unwrap().contains(" a r 2.0 "), "{s}");
    page.js("document.activeElement.blur();").await;
    page.key('h').await;
    let rb = race_box(page).await;
    assert_eq!(rb[1], "true", "H chose the hold: {rb}");
    assert_eq!(
        page.snapshot().await["all"],
        4,
        "played when the tick starts"
    );
    let s = plies(page, 5).await;
    assert_eq!(s["history"][4], "_", "{s}");
    page.js("document.getElementById('speed').value = '100';")
        .await;
    page.settle().await;

    // Hot seat: after A's choice, the page is the same whether he held
    // or dropped; B's choice shows the tick.
    let mut texts = Vec::new();
    for a in ["_", "."] {
        let s = new_game_with_holds(page, "2", 0, ["human", "human"]).await;
        let s = first_start(page, &s, "a").await;
        let s = first_start(page, &s, "b").await;
        assert!(s["position"].as_str().unwrap().contains(" a r 1.0 "), "{s}");
        if a == "_" {
            page.click("#hold").await;
        } else {
            page.click("#choices button[data-token='.']").await;
        }
        let s = page.settle().await;
        let secret = s["position"].as_str().unwrap().to_string();
        assert!(secret.contains(" b r 1.0 "), "{s}");
        assert_eq!(secret.contains("held=1"), a == "_", "{s}");
        let text = page_text(page).await;
        assert!(!text.contains(&secret), "the page shows {secret}");
        assert!(!text.contains("held=1") && !text.contains("holds in this tick"));
        assert!(text.contains("A: tick choice (hidden)"));
        texts.push(text);
        if a == "_" {
            page.axe("hot seat, a tick's choice hidden").await;
        }
    }
    assert!(
        texts[0] == texts[1],
        "the page differs after A's hold and after A's drop"
    );
    key_choice(page, ".").await;
    let s = page.settle().await;
    assert_eq!(s["history"][3], ".", "{s}");
    assert!(
        s["status"]
            .as_str()
            .unwrap()
            .starts_with("Tick 1: A dropped, B dropped."),
        "{s}"
    );
    let shown = page
        .js("return document.getElementById('position').value")
        .await;
    assert_eq!(shown, s["position"], "{s}");
    page.shot("holds-hot-seat.png").await;

    // The engine plays A, a person B: the engine's search for A's blind
    // start and for A's tick is not shown to B, nor what it chose.
    let s = new_game_with_holds(page, "2", 0, ["engine", "human"]).await;
    assert!(s["position"].as_str().unwrap().contains(" b s1:"), "{s}");
    let unseen = "return [document.getElementById('analysis').textContent, document.getElementById('pv').textContent, document.querySelectorAll('#blind-chart rect.bar').length]";
    let shown = page.js(unseen).await;
    assert_eq!(
        shown,
        json!([
            "A's search is not shown: B chooses without seeing A's choice",
            "",
            0
        ]),
        "{s}"
    );
    let s = first_start(page, &s, "b").await;
    let p = s["position"].as_str().unwrap().to_string();
    assert!(p.contains(" b r 1.0 "), "{s}");
    assert_eq!(page.js(unseen).await, shown, "{s}");
    let text = page_text(page).await;
    assert!(
        !text.contains(&p) && !text.contains("held=1"),
        "the page shows {p}"
    );
    assert!(text.contains("A: tick choice (hidden)"));
    page.shot("holds-vs-engine.png").await;
    page.js("document.getElementById('holds').value = '0'; document.getElementById('speed').value = '100';")
        .await;
}

/// The move list walks the game: a click on a ply shows the position
/// after it and its move again drop by drop; the arrow keys, Home and End
/// walk it too; End comes back to the game, which goes on.
async fn history_is_walked(page: &Page) {
    let mut s = page.new_game("didinga", 8, "sequential", "greedy").await;
    let start = s["start"].as_str().unwrap().to_string();
    for _ in 0..3 {
        let mv = s["moves"][0][0].as_str().unwrap().to_string();
        page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
            .await;
        s = page.settle().await;
    }
    let all = s["history"].as_array().unwrap().clone();
    assert_eq!(all.len(), 6, "{s}");
    for t in s["shown"].as_array().unwrap() {
        let t = t.as_str().unwrap();
        assert!(t.starts_with("A: ") || t.starts_with("B: "), "{t}");
    }
    page.click("#history li[data-ply='3'] button").await;
    let s = page.idle().await;
    assert_eq!(s["ply"], 3, "{s}");
    assert_eq!(s["history"].as_array().unwrap()[..], all[..3], "{s}");
    check_board(&s, &start);
    assert_eq!(s["human"], "0", "no move while an earlier ply is shown");
    assert!(s["status"].as_str().unwrap().contains("Ply 3 of 6"), "{s}");
    // Its move, step by step, again.
    let cap = s["caption"].as_str().unwrap().to_string();
    let n: usize = cap.split('/').next().unwrap().parse().unwrap();
    assert!(n >= 2, "the move's steps are there: {cap}");
    page.click("#anim-first").await;
    assert!(page.snapshot().await["caption"]
        .as_str()
        .unwrap()
        .starts_with("0/"));
    page.click("#anim-fwd").await;
    let cap = page.snapshot().await["caption"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cap.starts_with("1/") && cap.contains("A lifts"), "{cap}");
    page.click("#anim-last").await;
    // A click on a hole while the past is shown plays nothing.
    page.click("#board g.hole[data-side='a'][data-hole='a']")
        .await;
    let s = page.idle().await;
    assert_eq!(s["kind"], "error", "{s}");
    assert_eq!(s["all"], 6, "{s}");
    // Keys: Home, →, End (the focus on the move list's buttons).
    page.js("document.getElementById('nav-next').focus();")
        .await;
    page.key(KEY_HOME).await;
    let s = page.idle().await;
    assert_eq!(s["ply"], 0, "{s}");
    check_board(&s, &start);
    page.key(KEY_RIGHT).await;
    let s = page.idle().await;
    assert_eq!(s["ply"], 1, "{s}");
    page.key(KEY_RIGHT).await;
    page.idle().await;
    page.key(KEY_LEFT).await;
    let s = page.idle().await;
    assert_eq!(s["ply"], 1, "{s}");
    check_board(&s, &start);
    page.key(KEY_END).await;
    let s = page.settle().await;
    assert_eq!(s["ply"], 6, "{s}");
    assert_eq!(s["human"], "1", "{s}");
    // The game goes on from its end.
    let mv = s["moves"][0][0].as_str().unwrap().to_string();
    page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
        .await;
    let s = page.settle().await;
    assert_eq!(s["all"], 8, "{s}");
    check_board(&s, &start);
    page.shot("history.png").await;
}

/// Take back against the engine: back to the person's last move at once,
/// the engine still playing; a reload keeps it playing.
async fn take_back_against_the_engine(page: &Page) {
    let mut s = page.new_game("didinga", 8, "sequential", "greedy").await;
    let start = s["start"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let mv = s["moves"][0][0].as_str().unwrap().to_string();
        page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
            .await;
        s = page.settle().await;
    }
    let all = s["history"].as_array().unwrap().clone();
    assert_eq!(all.len(), 4, "{s}");
    page.click("#takeback").await;
    let s = page.settle().await;
    assert_eq!(
        s["history"].as_array().unwrap()[..],
        all[..2],
        "one press takes back the engine's answer and my move: {s}"
    );
    assert_eq!(s["human"], "1", "{s}");
    assert_eq!(s["autoplay"], true, "the engine still plays: {s}");
    check_board(&s, &start);
    // A move: the engine answers.
    let mv = s["moves"][1][0].as_str().unwrap().to_string();
    page.click(&format!("#board g.hole[data-side='a'][data-hole='{mv}']"))
        .await;
    let s = page.settle().await;
    assert_eq!(
        s["history"].as_array().unwrap().len(),
        4,
        "the engine answered: {s}"
    );
    check_board(&s, &start);

    // A reload while the engine is to move and thinks: the restored game
    // goes on (the reload used to untick "engines play on").
    // (The engine paused first, so that it does not take A's side of the
    // game above; New game sets it playing again. Didinga 4x12: the 4x8
    // sequential start is in the book, answered at once, and the page
    // could be seen thinking too briefly to be caught at it.)
    page.click("#stop").await;
    page.idle().await;
    for (id, v) in [
        ("variant", "didinga"),
        ("columns", "12"),
        ("opening", "sequential"),
        ("player-a", "engine"),
        ("player-b", "human"),
        ("algorithm", "alphabeta"),
        ("movetime", "3000"),
    ] {
        page.select(id, v).await;
    }
    page.click("#new-game").await;
    let t0 = Instant::now();
    while page.js("return document.body.dataset.thinking").await != "1"
        || page.snapshot().await["all"] != 0
    {
        assert!(t0.elapsed() < PATIENCE, "the engine did not start thinking");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    page.c.goto(&page.url).await.unwrap();
    page.js("document.getElementById('speed').value = '100';")
        .await;
    let s = page.settle().await;
    assert!(s["message"].as_str().unwrap().contains("restored"), "{s}");
    assert_eq!(s["all"], 1, "the engine moved in the restored game: {s}");
    assert_eq!(s["autoplay"], true, "{s}");
}

/// A phone, portrait and landscape: one column, the board first and as
/// wide as the screen, holes of 40 px or more, nothing wider than the
/// screen, the choices never over a hole.
async fn phone(page: &Page) {
    for (w, h, name) in [(390, 844, "phone.png"), (844, 390, "phone-landscape.png")] {
        page.resize(w, h).await;
        page.new_game("didinga", 8, "simultaneous", "greedy").await;
        let m = page
            .js(
                r#"const b = document.getElementById('board').getBoundingClientRect();
                const holes = [...document.querySelectorAll('#board g.hole circle.pit')].map(c => c.getBoundingClientRect());
                const r = document.getElementById('right').getBoundingClientRect();
                return { scroll: document.documentElement.scrollWidth, boardW: b.width, boardH: b.height,
                  boardTop: b.top + scrollY, right: r.top + scrollY,
                  hole: Math.min(...holes.map(c => Math.min(c.width, c.height))),
                  left: Math.min(...holes.map(c => c.left)), rightmost: Math.max(...holes.map(c => c.right)) };"#,
            )
            .await;
        println!("{w}x{h}: {m}");
        assert!(
            m["scroll"].as_f64().unwrap() <= w as f64,
            "the page is wider than {w}: {m}"
        );
        assert!(
            m["hole"].as_f64().unwrap() >= 40.0,
            "holes under 40 px at {w}x{h}: {m}"
        );
        assert!(
            m["rightmost"].as_f64().unwrap() <= w as f64 && m["left"].as_f64().unwrap() >= 0.0,
            "{m}"
        );
        assert!(
            m["boardTop"].as_f64().unwrap() < m["right"].as_f64().unwrap(),
            "the board first: {m}"
        );
        if w < h {
            assert!(
                m["boardW"].as_f64().unwrap() >= 0.95 * w as f64,
                "the board as wide as the screen: {m}"
            );
        } else {
            assert!(
                m["boardH"].as_f64().unwrap() <= h as f64,
                "the whole board on the screen: {m}"
            );
        }
        // A race decision: its buttons cover no hole.
        let s = set_up(page, LANGO_RACE).await;
        assert_eq!(s["choices"], json!(["+", "-"]), "{s}");
        let over = page
            .js(
                r#"const holes = [...document.querySelectorAll('#board g.hole circle.pit')].map(c => c.getBoundingClientRect());
                const bs = [...document.querySelectorAll('#choices button')].map(c => c.getBoundingClientRect());
                return bs.some(b => holes.some(o => b.left < o.right && o.left < b.right && b.top < o.bottom && o.top < b.bottom));"#,
            )
            .await;
        assert_eq!(over, false, "a choice covers a hole at {w}x{h}");
        page.js("scrollTo(0, 0)").await;
        page.shot(name).await;
        if w < h {
            page.axe("a phone").await;
        }
    }
    page.resize(1400, 1000).await;
}
