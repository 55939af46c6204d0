//! Differential test of the simultaneous opening (RULINGS 8, "the race"):
//! the engine's move generator against the independent, drop-by-drop
//! reference in `tests/reference/race.rs`, written from RULINGS alone.
//!
//! Compared at every position of phase `s2`, `s1` or `r` visited: the list
//! of moves in order, and each child's position string (board, side, phase,
//! tick, both racers' records, ply). Visited:
//! - the start positions of the three codes: every blind pair and every race
//!   continuation, the whole tree;
//! - random boards of each code (8 wide, and Didinga 9..16 wide): a random
//!   blind start for A, every blind start of B, then random walks through
//!   the race decisions to the main phase or the drawn race, and whole
//!   trees for some;
//! - random boards under a tiny lap budget, where races are drawn (`rx`);
//! - a few never-ending races under the real budget: where the engine draws
//!   one on finding its cycle, the reference (which runs to the budget) must
//!   pass through the engine's `rx` state at that tick;
//! - hand-built race states (Lango, Acholi) paused at a decision, the other
//!   racer anywhere in his move: the whole tree below.
//!
//! Every child must also read back to the same string (`Position` parse).

mod reference;

use choro_engine::rng::Rng;
use choro_engine::{Opening, Phase, Position, Variant, LAP_BUDGET};
use reference::race;
use std::collections::BTreeMap;

/// What was compared.
#[derive(Default, Debug)]
struct Counts {
    /// Decisions compared, by code and kind, and some kinds of move.
    kinds: BTreeMap<String, u64>,
    /// Positions whose move lists were compared, by phase.
    s2: u64,
    s1: u64,
    r: u64,
    /// Moves (children) compared, by the phase of the parent.
    blind_moves: u64,
    race_moves: u64,
    /// Children by phase.
    to_race: u64,
    to_main: u64,
    to_drawn: u64,
    /// Drawn races the engine caught as cycles before the lap budget.
    cycle_draws: u64,
    /// Hold moves (`_`) compared, and those after which B still chooses.
    holds: u64,
    hidden: u64,
}

fn racing(p: &Position) -> bool {
    matches!(p.phase(), Phase::Blind2 | Phase::Blind1 | Phase::Race)
}

/// The race fields of an `rx` string: (tick, stage, laps of A, laps of B).
fn rx_fields(s: &str) -> Option<(u64, u8, u64, u64)> {
    let f: Vec<&str> = s.split(' ').collect();
    if f.len() != 8 || f[3] != "rx" {
        return None;
    }
    let (t, st) = f[4].split_once('.')?;
    let laps = |r: &str| -> u64 {
        r.split(',')
            .find_map(|kv| kv.strip_prefix("laps="))
            .map_or(0, |n| n.parse().unwrap())
    };
    Some((t.parse().ok()?, st.parse().ok()?, laps(f[5]), laps(f[6])))
}

/// A never-ending race may be drawn where the engine's cycle detector
/// stops it, before the lap budget (RULINGS 2: the detector is a statistic,
/// the verdict is not). Accepted when the reference draws the same race at
/// the budget and, stopped at the engine's tick and stage, is in exactly the
/// engine's state (board, both racers, lap counts).
fn cycle_draw(parent: &str, mv: &str, engine: &str, reference: &str, budget: u32) -> bool {
    let (Some((tick, stage, la, lb)), Some(_)) = (rx_fields(engine), rx_fields(reference)) else {
        return false;
    };
    if la.max(lb) > budget as u64 {
        return false;
    }
    let at = race::race_drawn_at(parent, mv, budget, tick, stage).unwrap();
    at.as_deref() == Some(engine)
}

/// Compare the engine's moves of `p` with the reference's, in order, with
/// their children; return the engine's children.
fn compare(p: &Position, budget: u32, n: &mut Counts) -> Vec<Position> {
    let fen = p.to_string();
    let want =
        race::race_moves(&fen, budget).unwrap_or_else(|e| panic!("reference rejects {fen}: {e}"));
    let mut got = Vec::new();
    let mut kids = Vec::new();
    p.generate(budget, |m, c, _| {
        got.push((m.to_string(), c.to_string()));
        kids.push(*c);
        true
    });
    let mut bad = got.len() != want.len();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if g == w {
            continue;
        }
        if g.0 == w.0 && cycle_draw(&fen, &g.0, &g.1, &w.1, budget) {
            n.cycle_draws += 1;
            continue;
        }
        eprintln!("#{i} differs");
        bad = true;
    }
    if bad {
        let mut msg = format!("position {fen} (budget {budget})\n");
        for i in 0..got.len().max(want.len()) {
            let (g, w) = (got.get(i), want.get(i));
            if g != w {
                msg += &format!("  #{i}\n    engine:    {g:?}\n    reference: {w:?}\n");
            }
        }
        panic!("{msg}");
    }
    match p.phase() {
        Phase::Blind2 => {
            n.s2 += 1;
            n.blind_moves += kids.len() as u64;
        }
        Phase::Blind1 => {
            n.s1 += 1;
            n.blind_moves += kids.len() as u64;
        }
        _ => {
            n.r += 1;
            n.race_moves += kids.len() as u64;
            let decider = fen.split(' ').nth(5 + p.side_to_move().index()).unwrap();
            let kind = decider.split(',').next().unwrap();
            *n.kinds
                .entry(format!("{} {kind}", p.variant()))
                .or_default() += 1;
        }
    }
    for (m, c) in &got {
        if m == "_" {
            n.holds += 1;
        }
        if m == "_" && c.contains(" r ") && c.split(' ').nth(4).is_some_and(|t| t.ends_with(".0")) {
            n.hidden += 1;
        }
        if m.starts_with("=~") || m.starts_with('~') {
            *n.kinds
                .entry(format!("{} move {m}", p.variant()))
                .or_default() += 1;
        }
    }
    for c in &kids {
        match c.phase() {
            Phase::Race => n.to_race += 1,
            Phase::RaceOver => n.to_drawn += 1,
            Phase::Main => n.to_main += 1,
            _ => {}
        }
        // The child parses back to itself.
        let s = c.to_string();
        match s.parse::<Position>() {
            Ok(q) => {
                assert_eq!(q.to_string(), s);
                assert_eq!(q, *c, "{s}");
            }
            Err(e) => panic!("child of {fen} does not parse: {s}: {e}"),
        }
    }
    kids
}

/// The whole tree below `p` (every blind pair, every decision); at most
/// `cap` positions compared. Returns false when the cap was hit.
fn tree(p: &Position, budget: u32, n: &mut Counts, cap: &mut u64) -> bool {
    if *cap == 0 {
        return false;
    }
    *cap -= 1;
    let mut complete = true;
    for c in compare(p, budget, n) {
        if racing(&c) {
            complete &= tree(&c, budget, n, cap);
        }
    }
    complete
}

/// One random path from `p` to the end of the race.
fn walk(p: &Position, budget: u32, n: &mut Counts, rng: &mut Rng) {
    let mut p = *p;
    while racing(&p) {
        let kids = compare(&p, budget, n);
        if kids.is_empty() {
            break;
        }
        p = kids[rng.below(kids.len())];
    }
}

/// The start positions of the three codes, 8 wide: every blind pair and
/// every race decision below it, the whole tree, under the real lap budget.
#[test]
fn start_positions_full_trees() {
    let mut plies = 0;
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let mut n = Counts::default();
        let p = Position::start(v, 8, Opening::Simultaneous).unwrap();
        assert!(
            tree(&p, LAP_BUDGET, &mut n, &mut 100_000),
            "{v}: tree too big"
        );
        eprintln!("{v}: {n:?}");
        // Blind starts: the back row (Lango: a, b), Acholi also ~k.
        let starts = match v {
            Variant::Lango => 2,
            Variant::Acholi => 9,
            _ => 8,
        };
        assert_eq!((n.s2, n.s1), (1, starts));
        assert_eq!(n.blind_moves, starts + starts * starts);
        match v {
            Variant::Didinga => assert_eq!(n.r, 0, "Didinga has no decisions"),
            Variant::Lango => assert!(n.r >= 5 && n.race_moves >= 10, "{n:?}"),
            _ => assert!(n.r >= 200 && n.race_moves >= 1_000, "{n:?}"),
        }
        plies += n.race_moves;
    }
    assert!(plies >= 1_000, "{plies} race plies compared");
}

/// A random board of `w` columns, at most 8W counters, sparse enough that
/// races end soon.
fn random_board(v: Variant, w: u8, rng: &mut Rng) -> String {
    let w = w as usize;
    let dense = rng.below(3);
    let mut rows = vec![vec![0u32; w]; 4];
    let mut total = 0;
    for row in rows.iter_mut() {
        for c in row.iter_mut() {
            let x = match dense {
                0 => [0, 0, 1, 1, 2, 2, 3][rng.below(7)],
                1 => [0, 1, 2, 2, 3, 4][rng.below(6)],
                _ => [0, 0, 0, 1, 2, 3, 5, 7][rng.below(8)],
            };
            if total + x <= 8 * w as u32 {
                *c = x;
                total += x;
            }
        }
    }
    let text: Vec<String> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{}:{} {} a s2 0", v, w, text.join("/"))
}

/// The board of a position reached by up to `plies` random moves of an
/// ordinary game (sequential opening; Lango from the full board in the main
/// phase), as an `s2` position.
fn game_board(v: Variant, w: u8, plies: usize, rng: &mut Rng) -> String {
    let start = Position::startpos(v, w).unwrap().to_string();
    let mut p: Position = if v == Variant::Lango {
        start.replace(" o2 ", " m ").parse().unwrap()
    } else {
        start.parse().unwrap()
    };
    for _ in 0..plies {
        let mut kids = Vec::new();
        p.generate(5_000, |_, c, _| {
            kids.push(*c);
            true
        });
        if kids.is_empty() {
            break;
        }
        p = kids[rng.below(kids.len())];
    }
    let f: Vec<String> = p.to_string().split(' ').map(String::from).collect();
    format!("{} {} a s2 0", f[0], f[1])
}

/// Random `s2` boards of `v`: a random blind start for A, then every blind
/// start of B, each race followed by a random walk through its decisions;
/// every 8th board's race tree in full (at most 2,000 positions).
fn random_boards(v: Variant, widths: &[u8], boards: usize, budget: u32, seed: u64) -> Counts {
    random_boards_holding(v, widths, boards, budget, seed, 0)
}

/// [`random_boards`] in a race with `holds` holds for each racer.
fn random_boards_holding(
    v: Variant,
    widths: &[u8],
    boards: usize,
    budget: u32,
    seed: u64,
    holds: u8,
) -> Counts {
    let mut rng = Rng::new(seed);
    let mut n = Counts::default();
    let mut done = 0;
    while done < boards {
        let w = widths[rng.below(widths.len())];
        let board = if rng.below(4) == 0 {
            game_board(v, w, 1 + rng.below(12), &mut rng)
        } else {
            random_board(v, w, &mut rng)
        };
        let board = if holds > 0 {
            board.replace(" s2 ", &format!(" s2,holds={holds} "))
        } else {
            board
        };
        let s2: Position = board.parse().unwrap();
        let s1s = compare(&s2, budget, &mut n);
        if s1s.is_empty() {
            continue;
        }
        done += 1;
        let s1 = s1s[rng.below(s1s.len())];
        if done % 8 == 0 {
            let mut cap = 2_000;
            tree(&s1, budget, &mut n, &mut cap);
        } else {
            for c in compare(&s1, budget, &mut n) {
                walk(&c, budget, &mut n, &mut rng);
            }
        }
    }
    n
}

#[test]
fn random_boards_didinga() {
    let n = random_boards(Variant::Didinga, &[8], 4_000, 2_000, 1);
    eprintln!("{n:?}\n{:?}", race::events());
    assert_eq!(n.r, 0, "Didinga has no decisions");
    assert!(n.to_main >= 10_000, "{n:?}");
}

#[test]
fn random_boards_didinga_wide() {
    let widths = [9, 10, 11, 12, 13, 14, 15, 16];
    let n = random_boards(Variant::Didinga, &widths, 2_000, 2_000, 2);
    eprintln!("{n:?}\n{:?}", race::events());
    assert!(n.to_main >= 5_000, "{n:?}");
}

#[test]
fn random_boards_lango() {
    let n = random_boards(Variant::Lango, &[8], 20_000, 2_000, 3);
    eprintln!("{n:?}\n{:?}", race::events());
    assert!(n.r >= 2_000 && n.race_moves >= 4_000, "{n:?}");
    assert!(n.kinds["lango decide=again"] >= 500, "{n:?}");
}

#[test]
fn random_boards_acholi() {
    let n = random_boards(Variant::Acholi, &[8], 5_000, 2_000, 4);
    eprintln!("{n:?}\n{:?}", race::events());
    assert!(n.r >= 2_000 && n.race_moves >= 8_000, "{n:?}");
    assert!(n.kinds["acholi move =~k"] >= 100, "{n:?}");
}

/// Budgets of 1 to 6 laps: many races are drawn (`rx`) when a racer begins
/// one lap more, at a blind pair or at a decision.
#[test]
fn tiny_budgets_draw_races() {
    let mut n = Counts::default();
    for (i, v) in [Variant::Didinga, Variant::Lango, Variant::Acholi]
        .into_iter()
        .enumerate()
    {
        for budget in 1..=6 {
            let m = random_boards(v, &[8], 60, budget, 100 + 10 * i as u64 + budget as u64);
            n.to_drawn += m.to_drawn;
            n.race_moves += m.race_moves;
        }
    }
    eprintln!("{n:?}");
    assert!(n.to_drawn >= 1_000, "{n:?}");
}

/// Races found (by a search over random boards) never to end, under the
/// real budget: the engine catches most as cycles (its `rx` at the instant
/// it found the cycle, which the reference must pass through), one runs to
/// the budget (100,001st lap begun: the same `rx` in both).
#[test]
fn never_ending_races() {
    let mut n = Counts::default();
    for s1 in [
        "acholi:8 1,3,0,1,0,3,0,0/3,0,1,0,2,1,0,0/1,2,3,2,0,2,1,1/1,0,2,1,0,3,2,2 b s1:a 1",
        "didinga:8 2,1,2,2,1,2,1,0/2,2,1,2,0,2,3,1/0,0,3,0,2,0,3,1/1,2,3,0,0,1,0,0 b s1:m 1",
        "acholi:8 0,0,2,0,2,1,2,1/3,1,2,0,0,3,0,0/1,1,1,1,2,1,0,3/3,1,0,1,0,1,0,2 b s1:~k 1",
        "acholi:8 1,2,2,3,0,0,2,1/2,1,3,0,2,1,0,1/2,0,1,2,0,2,0,2/2,1,2,2,1,2,0,0 b s1:m 1",
        "didinga:8 3,4,3,0,3,2,3,2/0,4,1,3,2,2,2,4/3,0,3,2,2,2,2,1/0,1,4,4,0,0,2,0 b s1:n 1",
    ] {
        let p: Position = s1.parse().unwrap();
        assert!(tree(&p, LAP_BUDGET, &mut n, &mut 1_000));
    }
    eprintln!("{n:?}");
    assert!(n.cycle_draws >= 4, "{n:?}");
    assert!(n.to_drawn > n.cycle_draws, "{n:?}");
}

/// Driberg letter of hole number `n` (8-wide boards).
fn letter(n: usize) -> char {
    (b'a' + n as u8 - 1) as char
}

/// A random race paused at a decision, built field by field rather than
/// reached by play (so the other racer is anywhere in his move, at any
/// stage of the tick): Lango or Acholi, 8 wide. Holes by Driberg number:
/// front row 3..=10, turning base i, j, k, l = 9..=12.
fn random_race_state(rng: &mut Rng) -> String {
    let v = if rng.below(2) == 0 {
        Variant::Lango
    } else {
        Variant::Acholi
    };
    let board = random_board(v, 8, rng);
    let board = board.split(' ').nth(1).unwrap().to_string();
    let side = rng.below(2);
    let stage = 1 + rng.below(2);
    // The decider drops in turn `stage - 1` of the tick: A first in odd ticks.
    let a_first_turn = stage == 1;
    let odd = (side == 0) == a_first_turn;
    let tick = 2 * (1 + rng.below(6)) - odd as usize;
    let front = |rng: &mut Rng| rng.below(2);
    let hand = |rng: &mut Rng, max: usize| 1 + rng.below(max);
    let decider = match (v, rng.below(2)) {
        (Variant::Lango, 0) => {
            let t = letter(9 + rng.below(4));
            format!(
                "decide=relay,hand={},at={t},origin={t},front={},single=0",
                hand(rng, 20),
                front(rng)
            )
        }
        (Variant::Lango, _) => {
            let h = hand(rng, 5);
            format!(
                "decide=again,hand={h},at={},origin={},front=1,single={}",
                letter(3 + rng.below(8)),
                letter(9 + rng.below(4)),
                (h == 1) as u8
            )
        }
        (_, 0) => {
            let t = letter([9, 11][rng.below(2)]);
            format!(
                "decide=relay,hand={},at={t},origin={t},front={},single=0",
                hand(rng, 20),
                front(rng)
            )
        }
        _ => format!(
            "decide=attack,hand={},at={},origin=k,front=1,single=0",
            1 + hand(rng, 8),
            letter(3 + rng.below(8))
        ),
    };
    let decider = format!("{decider},laps={}", hand(rng, 30));
    let other = match rng.below(5) {
        0 => "done".to_string(),
        k => {
            let (lap, origin) = match (v, k) {
                (Variant::Lango, 1) => ("cw", 9 + rng.below(4)),
                (Variant::Acholi, 1) => ("midcw", [9, 11][rng.below(2)]),
                (Variant::Acholi, 2) => ("attack", 11),
                _ => ("ccw", 1 + rng.below(16)),
            };
            format!(
                "lap={lap},hand={},next={},origin={},front={},laps={}",
                hand(rng, 12),
                letter(1 + rng.below(16)),
                letter(origin),
                front(rng),
                hand(rng, 30)
            )
        }
    };
    let racers = if side == 0 {
        format!("{decider} {other}")
    } else {
        format!("{other} {decider}")
    };
    let side = if side == 0 { 'a' } else { 'b' };
    format!("{v}:8 {board} {side} r {tick}.{stage} {racers} 7")
}

/// Hand-built race states: the decider's options and the whole tree below
/// (at most 300 positions each).
#[test]
fn random_race_states() {
    let mut rng = Rng::new(5);
    let mut n = Counts::default();
    let (mut tried, mut used) = (0, 0);
    while used < 3_000 {
        tried += 1;
        let s = random_race_state(&mut rng);
        // Too many counters with the hands, or not a decision: skip.
        let Ok(p) = s.parse::<Position>() else {
            continue;
        };
        if race::race_moves(&s, 2_000).unwrap().len() < 2 {
            continue;
        }
        used += 1;
        tree(&p, 2_000, &mut n, &mut 300);
    }
    let events = race::events();
    eprintln!("{tried} built, {used} used\n{n:?}\n{events:?}");
    assert!(n.r >= 10_000, "{n:?}");
    for kind in [
        "lango decide=relay",
        "lango decide=again",
        "acholi decide=relay",
        "acholi decide=attack",
        "acholi move =~k",
    ] {
        assert!(
            n.kinds.get(kind).copied().unwrap_or(0) >= 500,
            "{kind}: {n:?}"
        );
    }
    for event in [
        "Lango single-counter increment",
        "a capture empties the hole of the other racer's next drop",
        "a clockwise lap ends without a capture",
        "a decision after the other racer finished",
        "a decision before the other racer's drop of the tick",
        "a decision point with one option, taken at once",
        "back-row capture",
    ] {
        assert!(
            events.get(event).copied().unwrap_or(0) >= 100,
            "{event}: {events:?}"
        );
    }
}

/// Races with holds (RaceHolds 1..3, RULES.md 8.10): the tick's choices
/// (`.`, `_`), A's hidden from B's ply, the holders' skipped drops, a tick
/// both hold, the lapse of a lone racer's holds: the engine against the
/// reference on random boards of the three codes, and the Lango start's
/// whole tree with one hold each.
#[test]
fn races_with_holds() {
    let mut total = Counts::default();
    for (i, v) in [Variant::Didinga, Variant::Lango, Variant::Acholi]
        .into_iter()
        .enumerate()
    {
        for holds in 1..=3u8 {
            let widths: &[u8] = if v == Variant::Didinga {
                &[8, 9, 12]
            } else {
                &[8]
            };
            let seed = 500 + 10 * i as u64 + holds as u64;
            let n = random_boards_holding(v, widths, 300, 2_000, seed, holds);
            total.r += n.r;
            total.holds += n.holds;
            total.hidden += n.hidden;
            total.to_main += n.to_main;
        }
    }
    let mut n = Counts::default();
    let p = Position::start(Variant::Lango, 8, Opening::Simultaneous)
        .unwrap()
        .with_race_holds(1)
        .unwrap();
    assert!(
        tree(&p, LAP_BUDGET, &mut n, &mut 200_000),
        "Lango tree too big"
    );
    eprintln!(
        "{total:?}\nLango start, 1 hold: {n:?}\n{:?}",
        race::events()
    );
    assert!(total.holds >= 5_000 && total.hidden >= 1_000, "{total:?}");
    assert!(n.holds >= 100, "{n:?}");
    assert!(race::events().get("a hold").copied().unwrap_or(0) >= 1_000);
}
