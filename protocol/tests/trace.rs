//! `trace <move>` (PROTOCOL.md, "`trace`"): on random games of every code,
//! the simultaneous opening and the wide Didinga boards included, every
//! legal move's trace is replayed step by step and must account for every
//! counter: each drop adds one to its hole, each lift, capture and put moves
//! exactly the counters it names between the board and the hand, each lap
//! sows exactly the hand it holds, the laps are the engine's own
//! (`Position::trace`), and the last board is the position the move leads to.
//! In the race of the simultaneous opening each racer's hand is followed
//! through the interleaved steps to the hands of the resulting position.

use choro::Server;
use choro_engine::{Opening, Position, Variant};

/// A step's board: counts row by row as drawn (Choro rows 3..0, Adjiboto
/// north then south), then the two stores.
fn board(rows: &str, stores: &str) -> (Vec<Vec<u32>>, [u32; 2]) {
    let rows = rows
        .split('/')
        .map(|r| r.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    let (a, b) = stores.split_once('/').unwrap();
    (rows, [a.parse().unwrap(), b.parse().unwrap()])
}

/// The (row index in the board field, column) of a step at board `row`.
fn cell(pos: &Position, row: usize, col: usize) -> (usize, usize) {
    let rows = if pos.variant() == Variant::Adjiboto {
        2
    } else {
        4
    };
    (rows - 1 - row, col)
}

/// Check the trace of `mv` in `pos` (`lines` as the server wrote them).
/// Returns the number of drop lines.
fn check(pos: &Position, mv: &str, to: &str, lines: &[String]) -> usize {
    let ctx = format!("{pos} trace {mv}");
    assert_eq!(lines.last().unwrap(), &format!("trace end {to}"), "{ctx}");
    let end: Position = to.parse().unwrap();
    let m = mv.parse().unwrap();
    let laps = pos.trace(&m);
    let race = pos.phase().is_simultaneous();
    if race {
        return check_race(pos, &end, lines, &ctx);
    }
    let adj = pos.variant() == Variant::Adjiboto;
    let w = pos.width() as usize;
    let nrows = if adj { 2 } else { 4 };
    let mut cur: Vec<Vec<u32>> = (0..nrows)
        .rev()
        .map(|r| (0..w).map(|c| pos.at(r as u8, c as u8) as u32).collect())
        .collect();
    let mut stores = pos.stores().map(u32::from);
    let mover = if pos.side_to_move().index() == 0 {
        "a"
    } else {
        "b"
    };
    let mut hand = 0u32;
    let mut lap_hand = 0u32;
    let mut sown = 0u32;
    let mut lap_count = 0usize;
    let mut drops = 0usize;
    for l in &lines[..lines.len() - 1] {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f[0], "trace", "{ctx}: {l}");
        if f[1] == "lap" {
            assert_eq!(sown, lap_hand, "{ctx}: the last lap sowed its whole hand");
            lap_count += 1;
            assert_eq!(f[2], lap_count.to_string(), "{ctx}: {l}");
            lap_hand = f[5].parse().unwrap();
            assert_eq!(hand, lap_hand, "{ctx}: {l}: the hand holds what was taken");
            sown = 0;
            if let Some(laps) = &laps {
                let rec = laps[lap_count - 1];
                assert_eq!(rec.hand as u32, lap_hand, "{ctx}: {l}");
                let dir = if rec.dir == choro_engine::Dir::Ccw {
                    "ccw"
                } else {
                    "cw"
                };
                assert_eq!(f[3], dir, "{ctx}: {l}");
            }
            continue;
        }
        assert_eq!(f.len(), 9, "{ctx}: {l}");
        let (kind, side, n) = (f[1], f[2], f[6].parse::<u32>().unwrap());
        let (r, c) = cell(pos, f[4].parse().unwrap(), f[5].parse().unwrap());
        let (next, next_stores) = board(f[7], f[8]);
        let owner = if adj {
            if f[4] == "0" {
                "a"
            } else {
                "b"
            }
        } else if f[4].parse::<u32>().unwrap() <= 1 {
            "a"
        } else {
            "b"
        };
        assert_eq!(side, owner, "{ctx}: {l}: the side owns the hole");
        match kind {
            "drop" => {
                assert!(
                    side == mover || adj,
                    "{ctx}: {l}: drops go to the mover's holes"
                );
                cur[r][c] += 1;
                assert_eq!(n, cur[r][c], "{ctx}: {l}: the count after the drop");
                hand -= 1;
                sown += 1;
                drops += 1;
            }
            "lift" | "capture" => {
                if kind == "lift" {
                    assert_eq!(side, mover, "{ctx}: {l}: a lift is from the mover's hole");
                } else if !adj {
                    assert_ne!(side, mover, "{ctx}: {l}: a capture is from the opponent");
                }
                assert!(n > 0 && cur[r][c] >= n, "{ctx}: {l}");
                cur[r][c] -= n;
                if adj && kind == "capture" {
                    // Adjiboto: captures go to the mover's store.
                    stores[pos.side_to_move().index()] += n;
                } else {
                    hand += n;
                }
            }
            "put" => {
                assert_eq!(side, mover, "{ctx}: {l}");
                cur[r][c] += n;
                hand -= n;
            }
            _ => panic!("{ctx}: unknown step {l}"),
        }
        assert_eq!(next, cur, "{ctx}: {l}: the board after the step");
        assert_eq!(next_stores, stores, "{ctx}: {l}: the stores");
    }
    assert_eq!(sown, lap_hand, "{ctx}: the last lap sowed its whole hand");
    assert_eq!(hand, 0, "{ctx}: no counter left in hand");
    let want: Vec<Vec<u32>> = (0..nrows)
        .rev()
        .map(|r| (0..w).map(|c| end.at(r as u8, c as u8) as u32).collect())
        .collect();
    assert_eq!(cur, want, "{ctx}: the last board is the move's result");
    assert_eq!(stores, end.stores().map(u32::from), "{ctx}");
    match laps {
        Some(laps) => assert_eq!(lap_count, laps.len(), "{ctx}: the engine's laps"),
        None => assert!(adj && lap_count == 1, "{ctx}: Adjiboto moves are one lap"),
    }
    drops
}

/// A race trace: each drop sows one counter of its racer's hand into his
/// own hole, each lift fills the lifter's hand, each capture the other
/// racer's, each put empties the putter's; at the end each racer holds what
/// the resulting position says and the board is the resulting board.
fn check_race(pos: &Position, end: &Position, lines: &[String], ctx: &str) -> usize {
    use choro_engine::Side;
    let w = pos.width() as usize;
    let grid = |p: &Position| -> Vec<Vec<u32>> {
        (0..4)
            .rev()
            .map(|r| (0..w).map(|c| p.at(r as u8, c as u8) as u32).collect())
            .collect()
    };
    let mut cur = grid(pos);
    let mut hands = [pos.hand(Side::A), pos.hand(Side::B)];
    let mut drops = 0;
    if pos.phase() == choro_engine::Phase::Blind2 {
        assert_eq!(lines.len(), 1, "{ctx}: A's blind start only chooses");
    }
    for l in &lines[..lines.len() - 1] {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 9, "{ctx}: {l}");
        let (kind, n) = (f[1], f[6].parse::<u32>().unwrap());
        let side = if f[2] == "a" { 0 } else { 1 };
        let owner = if f[4].parse::<u32>().unwrap() <= 1 {
            0
        } else {
            1
        };
        assert_eq!(side, owner, "{ctx}: {l}");
        let (r, c) = cell(pos, f[4].parse().unwrap(), f[5].parse().unwrap());
        match kind {
            "drop" => {
                assert!(hands[side] > 0, "{ctx}: {l}: a drop from an empty hand");
                hands[side] -= 1;
                cur[r][c] += 1;
                assert_eq!(n, cur[r][c], "{ctx}: {l}");
                drops += 1;
            }
            "lift" | "capture" => {
                assert!(n > 0 && cur[r][c] >= n, "{ctx}: {l}");
                cur[r][c] -= n;
                hands[if kind == "lift" { side } else { 1 - side }] += n;
            }
            "put" => {
                assert!(hands[side] >= n, "{ctx}: {l}");
                hands[side] -= n;
                cur[r][c] += n;
            }
            _ => panic!("{ctx}: unexpected step {l}"),
        }
        assert_eq!(
            board(f[7], f[8]).0,
            cur,
            "{ctx}: {l}: the board after the step"
        );
    }
    assert_eq!(
        hands,
        [end.hand(Side::A), end.hand(Side::B)],
        "{ctx}: the hands"
    );
    assert_eq!(cur, grid(end), "{ctx}: the last board is the move's result");
    drops
}

fn rng(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Every legal move of the positions of random games, traced and checked.
#[test]
fn every_traced_move_accounts_for_every_counter() {
    let mut x = 0x1234_5678_9abc_def1u64;
    let mut s = Server::new(Vec::new()).unwrap();
    let mut traced = 0;
    let mut drops = 0;
    let mut race_drops = 0;
    let mut kinds = std::collections::BTreeSet::new();
    let starts: Vec<Position> = [
        (Variant::Didinga, 8),
        (Variant::Didinga, 11),
        (Variant::Lango, 8),
        (Variant::Acholi, 8),
        (Variant::Adjiboto, 8),
    ]
    .into_iter()
    .flat_map(|(v, w)| {
        [Opening::Sequential, Opening::Simultaneous].map(|o| Position::start(v, w, o).unwrap())
    })
    .collect();
    for start in starts {
        for _game in 0..3 {
            let mut pos = start;
            for _ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                assert!(s.answer(&format!("position fen {pos}")).is_empty());
                for (m, to) in moves.iter().take(12) {
                    let mv = pos.restyle(*m).to_string();
                    let lines = s.answer(&format!("trace {mv}"));
                    let d = check(&pos, &mv, &to.to_string(), &lines);
                    if pos.phase().is_simultaneous() {
                        race_drops += d;
                    } else {
                        drops += d;
                    }
                    for l in &lines {
                        kinds.insert(l.split(' ').nth(1).unwrap().to_string());
                    }
                    traced += 1;
                }
                pos = moves[(rng(&mut x) % moves.len() as u64) as usize].1;
            }
        }
    }
    assert!(traced > 2000, "{traced}");
    assert!(drops > 20_000, "{drops}");
    assert!(race_drops > 2_000, "{race_drops}");
    for k in ["lift", "capture", "drop", "lap", "end"] {
        assert!(kinds.contains(k), "no '{k}' step in any trace: {kinds:?}");
    }
}

/// An Acholi leave: the captured counters are put back into the attacking
/// hole, a `put` step, before the move proper starts.
#[test]
fn an_acholi_leave_puts_the_increment_back() {
    let mut x = 0x0bad_cafe_f00d_d00du64;
    let mut s = Server::new(Vec::new()).unwrap();
    let mut found = false;
    'games: for _ in 0..200 {
        let mut pos = Position::start(Variant::Acholi, 8, Opening::Sequential).unwrap();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for (m, to) in &moves {
                let mv = pos.restyle(*m).to_string();
                if mv.contains('=') {
                    s.answer(&format!("position fen {pos}"));
                    let lines = s.answer(&format!("trace {mv}"));
                    check(&pos, &mv, &to.to_string(), &lines);
                    if lines.iter().any(|l| l.starts_with("trace put ")) {
                        found = true;
                        break 'games;
                    }
                }
            }
            pos = moves[(rng(&mut x) % moves.len() as u64) as usize].1;
        }
    }
    assert!(found, "no Acholi leave with a put step in 200 random games");
}

#[test]
fn illegal_malformed_and_late_traces_are_refused() {
    let mut s = Server::new(Vec::new()).unwrap();
    s.answer("setoption name Opening value sequential");
    s.answer("position startpos");
    let e = s.answer("trace c");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("info string error: trace: illegal move c"),
        "{e:?}"
    );
    let e = s.answer("trace k!");
    assert!(
        e[0].starts_with("info string error: trace: move 1 'k!'"),
        "{e:?}"
    );
    let e = s.answer("trace");
    assert!(e[0].starts_with("info string error: "), "{e:?}");
    // The position is kept: a legal trace still works.
    let ok = s.answer("trace l");
    assert!(
        ok.last().unwrap().starts_with("trace end didinga:8 "),
        "{ok:?}"
    );
    // A has only a single counter: the game is over.
    let over = "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 a m 10";
    assert!(s.answer(&format!("position fen {over}")).is_empty());
    let e = s.answer("trace j");
    assert!(
        e[0].starts_with("info string error: trace: the game is already over (B wins"),
        "{e:?}"
    );
}
