//! What a caller of `Searcher` relies on: fixed-depth determinism, limits,
//! time management, `infinite` and ponder, MultiPV, `searchmoves`, the draw
//! rules as search applies them, the baselines and MCTS's subtree reuse.

use choro_engine::search::{
    Algorithm, Info, Limits, Score, SearchConfig, SearchControl, SearchResult, EVAL_MAX,
};
use choro_engine::Searcher;
use choro_engine::{Game, Move, Position, Variant};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A searcher without the book of solved positions: these tests are of
/// the search itself (the Lango start is in the book).
fn searcher(algorithm: Algorithm, threads: usize) -> Searcher {
    let mut s = Searcher::new(SearchConfig {
        algorithm,
        threads,
        hash_mb: 4,
        ..SearchConfig::default()
    });
    s.set_book(false);
    s
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn run(s: &mut Searcher, game: &Game, limits: &Limits) -> (SearchResult, Vec<Info>) {
    let control = SearchControl::default();
    let mut infos = Vec::new();
    let r = s.search(game, limits, &control, &mut |i| infos.push(i.clone()));
    (r, infos)
}

fn start(v: Variant) -> Game {
    Game::new(Position::startpos(v, v.default_width()).unwrap())
}

/// A main-phase position of each code some moves into a game. The Choro
/// codes start from the full board in the main phase (the sequential
/// openings decide most games at once); every move chosen leaves the
/// opponent at least two moves.
fn midgame(v: Variant) -> Game {
    let mut g = if v.is_choro() {
        let row = ["2"; 8].join(",");
        let full = format!("{v}:8 {row}/{row}/{row}/{row} a m");
        Game::new(full.parse().unwrap())
    } else {
        start(v)
    };
    for ply in 0..10 {
        let moves = g.position().legal_moves();
        let n = moves.len();
        let pick = (0..n)
            .map(|j| (j + 3 * ply) % n)
            .find(|&j| moves[j].1.legal_moves().len() >= 2);
        match pick {
            Some(j) => g.play(&moves[j].0).unwrap(),
            None => break,
        }
    }
    assert!(
        g.position().legal_moves().len() >= 2,
        "{v}: {}",
        g.position()
    );
    g
}

fn is_legal(p: &Position, m: Move) -> bool {
    p.play(&m).is_ok()
}

/// The timing-free part of a report.
fn signature(i: &Info) -> (Option<u32>, Option<Score>, Option<u64>, Vec<Move>) {
    (i.depth, i.score, i.nodes, i.pv.clone())
}

#[test]
fn fixed_depth_search_is_deterministic() {
    for v in Variant::ALL {
        for game in [start(v), midgame(v)] {
            let mut a = searcher(Algorithm::AlphaBeta, 1);
            let (r1, i1) = run(&mut a, &game, &depth(6));
            // Again on the same searcher after `clear`, and on a new one.
            a.clear();
            let (r2, i2) = run(&mut a, &game, &depth(6));
            let (r3, _) = run(&mut searcher(Algorithm::AlphaBeta, 1), &game, &depth(6));
            assert_eq!(r1, r2, "{v}");
            assert_eq!(r1, r3, "{v}");
            let s1: Vec<_> = i1.iter().map(signature).collect();
            let s2: Vec<_> = i2.iter().map(signature).collect();
            assert_eq!(s1, s2, "{v}");
            assert!(r1.nodes > 0 && r1.depth >= 1);
            let last = i1.last().unwrap();
            assert_eq!(
                last.nodes,
                Some(r1.nodes),
                "the last report counts every node"
            );
            assert_eq!(last.pv.first().copied(), r1.best);
            assert_eq!(last.pv.get(1).copied(), r1.ponder);
        }
    }
}

#[test]
fn every_iteration_is_reported() {
    let (r, infos) = run(
        &mut searcher(Algorithm::AlphaBeta, 1),
        &midgame(Variant::Didinga),
        &depth(5),
    );
    let depths: Vec<u32> = infos.iter().filter_map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
    for i in &infos {
        assert!(i.seldepth.is_some() && i.hashfull.is_some() && i.time_ms.is_some());
        assert_eq!(i.multipv, Some(1));
        assert!(!i.pv.is_empty());
    }
    // The principal variation is a legal line.
    let mut p = *midgame(Variant::Didinga).position();
    for m in &infos.last().unwrap().pv {
        p = p.play(m).unwrap();
    }
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let game = midgame(Variant::Acholi);
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let mut s = searcher(Algorithm::AlphaBeta, 1);
    let (r1, _) = run(&mut s, &game, &limits);
    assert!((3000..=3001).contains(&r1.nodes), "{}", r1.nodes);
    assert!(is_legal(game.position(), r1.best.unwrap()));
    s.clear();
    let (r2, _) = run(&mut s, &game, &limits);
    assert_eq!(r1, r2, "a node limit is as deterministic as a depth");
}

#[test]
fn a_search_stopped_before_it_starts_still_moves() {
    for algorithm in Algorithm::ALL {
        for v in Variant::ALL {
            let game = midgame(v);
            let control = SearchControl::default();
            control.stop.store(true, Ordering::Relaxed);
            let mut s = searcher(algorithm, 2);
            let r = s.search(&game, &Limits::default(), &control, &mut |_| {});
            let m = r.best.expect("a legal move exists");
            assert!(is_legal(game.position(), m), "{algorithm:?} {v}");
        }
    }
}

#[test]
fn no_legal_move_gives_no_move() {
    let p: Position =
        "didinga:8 2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,1 a m"
            .parse()
            .unwrap();
    for algorithm in Algorithm::ALL {
        let (r, _) = run(&mut searcher(algorithm, 1), &Game::new(p), &depth(3));
        assert_eq!(r.best, None);
        assert_eq!(r.score, Some(Score::Loss(0)));
    }
}

#[test]
fn movetime_and_clocks_are_kept() {
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
        let game = midgame(Variant::Didinga);
        let mut s = searcher(algorithm, 1);
        let t = Instant::now();
        let (r, _) = run(
            &mut s,
            &game,
            &Limits {
                movetime: Some(Duration::from_millis(150)),
                ..Limits::default()
            },
        );
        let took = t.elapsed();
        assert!(r.best.is_some());
        // A decided position may end early (every line proven, MCTS's
        // proofs without an exact distance reported as `EVAL_MAX`); an open
        // one uses the time.
        if matches!(r.score, Some(Score::Cp(c)) if c.abs() < EVAL_MAX) {
            assert!(
                took >= Duration::from_millis(100),
                "{algorithm:?}: {took:?}"
            );
        }
        assert!(
            took < Duration::from_millis(1500),
            "{algorithm:?}: {took:?}"
        );
        // 2 s on the clock: 2000/25 = 80 ms target, 240 ms hard limit.
        let side = game.position().side_to_move().index();
        let mut time = [None, None];
        time[side] = Some(Duration::from_millis(2000));
        let t = Instant::now();
        let (r, _) = run(
            &mut s,
            &game,
            &Limits {
                time,
                ..Limits::default()
            },
        );
        assert!(r.best.is_some());
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{:?}",
            t.elapsed()
        );
    }
}

#[test]
fn the_time_before_the_search_counts() {
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
        let game = midgame(Variant::Adjiboto);
        let mut s = searcher(algorithm, 1);
        // `go` was read 2.9 s ago: of 3,000 - 10 ms, 90 are left. A search
        // that counted from its own start would take about 3 s; the bound
        // leaves a loaded machine well over a second of scheduling delay.
        let t = Instant::now();
        let limits = Limits {
            movetime: Some(Duration::from_millis(3000)),
            start: t.checked_sub(Duration::from_millis(2900)),
            ..Limits::default()
        };
        let (r, _) = run(&mut s, &game, &limits);
        assert!(r.best.is_some());
        let took = t.elapsed();
        assert!(
            took < Duration::from_millis(1500),
            "{algorithm:?}: {took:?}"
        );
    }
}

#[test]
fn infinite_waits_for_stop_and_ponder_for_ponderhit() {
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Mcts] {
        let game = midgame(Variant::Lango);
        let mut s = searcher(algorithm, 1);
        let control = SearchControl::default();
        let t = Instant::now();
        // `infinite` with a depth that is done at once: still wait for stop.
        let limits = Limits {
            depth: Some(2),
            infinite: true,
            ..Limits::default()
        };
        let r = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                control.stop.store(true, Ordering::Relaxed);
            });
            s.search(&game, &limits, &control, &mut |_| {})
        });
        assert!(t.elapsed() >= Duration::from_millis(200));
        assert!(r.best.is_some());

        // Pondering ignores the 20 ms movetime until ponderhit, then keeps it.
        let control = SearchControl::default();
        control.pondering.store(true, Ordering::Relaxed);
        let limits = Limits {
            movetime: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                control.pondering.store(false, Ordering::Relaxed);
            });
            s.search(&game, &limits, &control, &mut |_| {})
        });
        let took = t.elapsed();
        assert!(
            took >= Duration::from_millis(200),
            "{algorithm:?}: {took:?}"
        );
        // After ponderhit the 20 ms are long gone: it stops at once (a
        // search that went on pondering would never stop). The bound is
        // loose for loaded machines.
        assert!(
            took < Duration::from_millis(5000),
            "{algorithm:?}: {took:?}"
        );
        assert!(r.best.is_some());
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let game = midgame(Variant::Acholi);
    let mut s = Searcher::new(SearchConfig {
        multipv: 3,
        hash_mb: 4,
        ..SearchConfig::default()
    });
    let (r, infos) = run(&mut s, &game, &depth(4));
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == Some(4)).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(
        last.iter().map(|i| i.multipv.unwrap()).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(Some(firsts[0]), r.best);
    let cp = |i: &Info| match i.score {
        Some(Score::Cp(c)) => c,
        Some(Score::Win(n)) => 100_000 - n as i32,
        Some(Score::Loss(n)) => -100_000 + n as i32,
        None => panic!("no score"),
    };
    assert!(cp(last[0]) >= cp(last[1]) && cp(last[1]) >= cp(last[2]));
    // Line 1 agrees with a single-PV search of the same depth.
    let (single, _) = run(&mut searcher(Algorithm::AlphaBeta, 1), &game, &depth(4));
    assert_eq!(single.score, last[0].score);
}

#[test]
fn mcts_multipv_reports_the_most_visited_lines() {
    let game = midgame(Variant::Didinga);
    let mut s = Searcher::new(SearchConfig {
        algorithm: Algorithm::Mcts,
        multipv: 3,
        hash_mb: 8,
        ..SearchConfig::default()
    });
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let (r, infos) = run(&mut s, &game, &limits);
    let k: Vec<usize> = infos.iter().filter_map(|i| i.multipv).collect();
    assert_eq!(k, [1, 2, 3]);
    let firsts: Vec<Move> = infos.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(Some(firsts[0]), r.best);
}

#[test]
fn searchmoves_restricts_the_root() {
    for algorithm in Algorithm::ALL {
        let game = midgame(Variant::Didinga);
        let moves = game.position().legal_moves();
        let only = moves.last().unwrap().0;
        let limits = Limits {
            depth: Some(3),
            nodes: Some(2000),
            searchmoves: vec![only],
            ..Limits::default()
        };
        let (r, _) = run(&mut searcher(algorithm, 1), &game, &limits);
        assert_eq!(r.best, Some(only), "{algorithm:?}");
    }
}

/// The position of RELIABILITY.md finding 3 (Acholi, B to move): many paths
/// merge into the same position, and the two listed ones are not the first
/// paths to theirs.
fn merging_paths() -> Game {
    let pos: Position =
        "acholi:8 3,4,7,1,1,4,8,3/2,3,2,1,0,5,6,1/2,0,0,0,0,0,1,0/0,0,2,2,2,1,2,1 a m 32"
            .parse()
            .unwrap();
    let mut g = Game::new(pos);
    g.play_str("n").unwrap();
    g
}

fn assert_among(list: &[Move], r: &SearchResult, infos: &[Info], what: &str) {
    let best = r.best.unwrap();
    assert!(list.contains(&best), "{what}: best {best} not in the list");
    for i in infos.iter().filter(|i| !i.pv.is_empty()) {
        assert!(
            list.contains(&i.pv[0]),
            "{what}: pv {:?} not in the list",
            i.pv
        );
    }
}

#[test]
fn searchmoves_are_kept_when_paths_merge() {
    let game = merging_paths();
    let pos = *game.position();
    let listed: Vec<Move> = ["~k+=~k=~k=i+", "~k=~k+=~i++=g"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    // Every legal path that is not the first to its position.
    let all = pos.legal_moves();
    let later: Vec<Move> = all
        .iter()
        .enumerate()
        .filter(|(i, (_, p))| all[..*i].iter().any(|(_, q)| q.same_state(p)))
        .map(|(_, (m, _))| *m)
        .collect();
    assert!(listed.iter().all(|m| later.contains(m)));
    let singles = later.iter().step_by(later.len() / 4 + 1).map(|m| vec![*m]);
    for list in std::iter::once(listed).chain(singles) {
        for algorithm in Algorithm::ALL {
            for multipv in [1, 3] {
                let mut s = searcher(algorithm, 1);
                let mut c = s.config().clone();
                c.multipv = multipv;
                s.set_config(c);
                let limits = Limits {
                    depth: Some(2),
                    nodes: Some(300),
                    searchmoves: list.clone(),
                    ..Limits::default()
                };
                let (r, infos) = run(&mut s, &game, &limits);
                assert_among(&list, &r, &infos, &format!("{algorithm:?} {list:?}"));
                if let Some(p) = r.ponder {
                    assert!(is_legal(&pos.play(&r.best.unwrap()).unwrap(), p));
                }
            }
        }
    }
}

/// The win in 3 of `search_wins.rs`, whose only winning move is `o`.
const WIN3: &str =
    "didinga:8 0,3,0,0,0,0,0,0/1,0,0,1,0,0,0,0/2,0,2,0,0,0,0,0/1,0,0,0,2,0,0,0 a m 40";

#[test]
fn the_ply_cap_draws_a_win_it_cuts_off() {
    let p: Position = WIN3.parse().unwrap();
    for cap in [41, 42, 43, 44] {
        let game = Game::new(p).with_draw_plies(cap);
        let mut s = searcher(Algorithm::AlphaBeta, 1);
        let (r, _) = run(&mut s, &game, &depth(6));
        // The win ends on ply 43 with B to move and no move: a loss comes
        // before the cap, so only a cap at 42 or sooner saves B.
        if cap <= 42 {
            assert_eq!(r.score, Some(Score::Cp(0)), "cap {cap}");
        } else {
            assert_eq!(r.score, Some(Score::Win(3)), "cap {cap}");
        }
    }
}

#[test]
fn a_third_occurrence_is_a_draw() {
    let p: Position = WIN3.parse().unwrap();
    let (win, after) = p.parse_move("o").unwrap();
    // A history in which the position after the win's first move occurred
    // twice already (Game::push records without checking).
    let mut game = Game::new(after);
    game.push(win, p);
    game.push(win, after);
    game.push(win, p);
    let (r, _) = run(&mut searcher(Algorithm::AlphaBeta, 1), &game, &depth(6));
    assert_ne!(r.score, Some(Score::Win(3)));
    if r.best == Some(win) {
        assert_eq!(r.score, Some(Score::Cp(0)));
    }
    // Without the history the win is there.
    let (r, _) = run(
        &mut searcher(Algorithm::AlphaBeta, 1),
        &Game::new(p),
        &depth(6),
    );
    assert_eq!(r.score, Some(Score::Win(3)));
}

#[test]
fn random_is_seeded_and_uniform() {
    let game = start(Variant::Acholi);
    let kids = game.position().legal_moves();
    // Paths to the same position are one move for search (merged).
    let n = (0..kids.len())
        .filter(|&i| !kids[..i].iter().any(|k| k.1.same_state(&kids[i].1)))
        .count();
    let pick = |seed: u64| {
        let mut s = Searcher::new(SearchConfig {
            algorithm: Algorithm::Random,
            seed,
            ..SearchConfig::default()
        });
        run(&mut s, &game, &Limits::default()).0.best.unwrap()
    };
    assert_eq!(pick(5), pick(5));
    let distinct: std::collections::HashSet<String> =
        (0..400).map(|s| pick(s).to_string()).collect();
    assert!(distinct.len() * 10 >= n * 8, "{} of {n}", distinct.len());
}

#[test]
fn greedy_takes_the_biggest_capture() {
    let game = midgame(Variant::Didinga);
    let p = *game.position();
    let me = p.side_to_move();
    let best = p
        .legal_moves()
        .iter()
        .map(|(_, c)| c.material(me) as i32 - c.material(me.other()) as i32)
        .max()
        .unwrap();
    let (r, _) = run(
        &mut searcher(Algorithm::Greedy, 1),
        &game,
        &Limits::default(),
    );
    let after = p.play(&r.best.unwrap()).unwrap();
    assert_eq!(
        after.material(me) as i32 - after.material(me.other()) as i32,
        best
    );
}

#[test]
fn mcts_is_reproducible_with_one_thread() {
    for v in Variant::ALL {
        let game = midgame(v);
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        let go = || {
            let mut s = Searcher::new(SearchConfig {
                algorithm: Algorithm::Mcts,
                seed: 9,
                hash_mb: 8,
                ..SearchConfig::default()
            });
            let mut o = s.mcts_options().clone();
            o.playout_plies = 8;
            s.set_mcts_options(o);
            run(&mut s, &game, &limits)
        };
        let (a, ia) = go();
        let (b, ib) = go();
        assert_eq!(a, b, "{v}");
        assert_eq!(ia.last().map(signature), ib.last().map(signature), "{v}");
        // At most the limit: a root the solver proves stops early.
        assert!((1..=3000).contains(&a.nodes), "{v}: {}", a.nodes);
    }
}

#[test]
fn mcts_reuses_the_subtree_of_the_moves_played() {
    let mut game = midgame(Variant::Didinga);
    let mut s = searcher(Algorithm::Mcts, 1);
    let limits = Limits {
        nodes: Some(4000),
        ..Limits::default()
    };
    let (r, infos) = run(&mut s, &game, &limits);
    assert!(infos.iter().all(|i| i.string.is_none()), "a fresh tree");
    game.play(&r.best.unwrap()).unwrap();
    let reply = r.ponder.expect("a ponder move after 4000 iterations");
    game.play(&reply).unwrap();
    let (_, infos) = run(&mut s, &game, &limits);
    let reused = infos.iter().find_map(|i| i.string.clone());
    assert!(
        reused.is_some_and(|t| t.starts_with("mcts reuses a subtree of")),
        "the expected reply was searched, so its subtree is kept"
    );
    s.clear();
    let (_, infos) = run(&mut s, &game, &limits);
    assert!(
        infos.iter().all(|i| i.string.is_none()),
        "clear drops the tree"
    );
}

#[test]
fn hashfull_fills_and_clears() {
    let mut s = Searcher::new(SearchConfig {
        hash_mb: 1,
        ..SearchConfig::default()
    });
    assert_eq!(s.hashfull(), 0);
    run(&mut s, &midgame(Variant::Acholi), &depth(5));
    assert!(s.hashfull() > 0);
    s.clear();
    assert_eq!(s.hashfull(), 0);
    let mut c = s.config().clone();
    c.hash_mb = 2;
    s.set_config(c);
    assert_eq!(s.config().hash_mb, 2);
}
