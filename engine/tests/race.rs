//! The simultaneous opening (RULINGS 8) on hand-built races: lockstep order
//! and the alternating priority, captures from holes the other racer is
//! about to drop into or lift, a racer finishing while the other sows on,
//! decisions in the race, the drawn race, and the blind choice as a matrix
//! game whose second chooser never looks at the first one's choice.

mod common;

use choro_engine::search::{Info, Limits, SearchConfig, SearchControl};
use choro_engine::Searcher;
use choro_engine::{
    DrawReason, Game, Move, Opening, Outcome, Phase, Position, RaceChoice, RacerState, Side,
    Variant,
};
use common::{at, choro, holes};

/// The position after B's blind start `b` in an `s1` position.
fn after(s1: &Position, b: &str) -> Position {
    let (_, p) = s1.parse_move(b).unwrap_or_else(|e| panic!("{s1} {b}: {e}"));
    p
}

/// Both players' 2-counter lifts into empty holes end on their second drop,
/// in tick 2, where B drops first: B finishes first and moves first. With 3
/// counters both end in tick 3, where A drops first. With 2 for A and 3 for
/// B, A ends a tick earlier.
#[test]
fn lockstep_ticks_alternate_who_drops_first() {
    for (na, nb, first) in [
        (2, 2, Side::B),
        (3, 3, Side::A),
        (2, 3, Side::A),
        (3, 2, Side::B),
    ] {
        let s1 = choro(
            Variant::Didinga,
            Side::B,
            "s1:a",
            &[('a', na)],
            &[('a', nb)],
        );
        let p = after(&s1, "a");
        assert_eq!(p.phase(), Phase::Main, "{na} {nb}");
        assert_eq!(p.side_to_move(), first, "A {na}, B {nb}: {p}");
        assert_eq!(p.ply(), 1);
        for (side, n) in [(Side::A, na), (Side::B, nb)] {
            let want: Vec<(char, u8)> = ['b', 'c', 'd'][..n as usize]
                .iter()
                .map(|&c| (c, 1))
                .collect();
            assert_eq!(holes(&p, side), want, "{side}");
        }
    }
}

/// Tick 7 is odd, so A drops first. A's seventh drop ends his lap on his d
/// (1 counter) and captures B's i and l as they stand, before B's seventh
/// drop lands in i, which B would have lifted and sown on (a relay). B's
/// drop falls into the emptied i: his move ends there, so B finishes first
/// while A sows his increment and relays on until tick 17.
#[test]
fn a_capture_takes_the_hole_the_other_racer_was_about_to_lift() {
    let s1 = choro(
        Variant::Didinga,
        Side::B,
        "s1:m",
        &[('m', 7), ('d', 1)],
        &[('b', 7), ('i', 2), ('l', 1)],
    );
    let p = after(&s1, "b");
    assert_eq!(p.phase(), Phase::Main, "{p}");
    assert_eq!(p.side_to_move(), Side::B, "B finished first: {p}");
    assert_eq!(
        holes(&p, Side::A),
        vec![
            ('a', 2),
            ('c', 2),
            ('e', 1),
            ('f', 1),
            ('g', 1),
            ('n', 2),
            ('o', 2)
        ]
    );
    assert_eq!(
        holes(&p, Side::B),
        vec![
            ('c', 1),
            ('d', 1),
            ('e', 1),
            ('f', 1),
            ('g', 1),
            ('h', 1),
            ('i', 1)
        ]
    );
    assert_eq!(p.total_counters(), 18);
}

/// The same race a tick later: tick 8 is even and B drops first. B's last
/// drop lands on his i, which now captures A's d and a (both occupied);
/// A's eighth drop then falls into his emptied d and ends his move: A
/// finishes first and B sows his increment on.
#[test]
fn in_even_ticks_the_other_racer_captures_first() {
    let s1 = choro(
        Variant::Didinga,
        Side::B,
        "s1:l",
        &[('l', 8), ('d', 1)],
        &[('a', 8), ('i', 2), ('l', 1)],
    );
    let p = after(&s1, "a");
    assert_eq!(p.phase(), Phase::Main, "{p}");
    assert_eq!(p.side_to_move(), Side::A, "A finished first: {p}");
    // A's d received only his last drop; his a was taken at tick 8.
    assert_eq!(at(&p, Side::A, 'd'), 1);
    assert_eq!(at(&p, Side::A, 'a'), 0);
    assert_eq!(p.total_counters(), 20);
    assert_eq!(p.material(Side::B), 11 + 2);
}

/// A racer who has finished is out of the race: the other drops alone, one
/// counter a tick. A's 2 counters end at tick 2; B's 9 counters run on past
/// him, and the main phase starts with A to move only when B is done too.
#[test]
fn the_first_to_finish_waits_while_the_other_sows_on() {
    let s1 = choro(Variant::Didinga, Side::B, "s1:a", &[('a', 2)], &[('k', 9)]);
    let p = after(&s1, "k");
    assert_eq!(p.phase(), Phase::Main);
    assert_eq!(p.side_to_move(), Side::A);
    assert_eq!(p.material(Side::B), 9);
    assert_eq!(holes(&p, Side::A), vec![('b', 1), ('c', 1)]);
}

/// Lango from the start: every race reaches the main phase or stops at a
/// decision of the racer whose lap it is, shown in the position string, and
/// each of his options is a ply that goes on with the same race.
#[test]
fn race_decisions_are_plies_of_the_racer_who_meets_them() {
    let mut paused = 0;
    for v in [Variant::Lango, Variant::Acholi] {
        let start = Position::start(v, 8, Opening::Simultaneous).unwrap();
        assert_eq!(start.phase(), Phase::Blind2);
        for (a, s1) in start.legal_moves() {
            assert_eq!(s1.phase(), Phase::Blind1);
            assert_eq!(s1.side_to_move(), Side::B);
            assert_eq!(s1.race().and_then(|r| r.blind), a.token(0));
            for (_, p) in s1.legal_moves() {
                assert_eq!(p.ply(), 2);
                assert_eq!(p.total_counters(), 64, "{p}");
                if p.phase() != Phase::Race {
                    continue;
                }
                paused += 1;
                let me = p.side_to_move();
                let race = p.race().unwrap();
                assert!(
                    matches!(race.racers[me.index()].state, RacerState::Deciding(_)),
                    "{p}"
                );
                let back: Position = p.to_string().parse().unwrap();
                assert_eq!(back, p);
                let opts = p.legal_moves();
                assert!(opts.len() >= 2, "{p}");
                let names: Vec<String> = opts.iter().map(|(m, _)| m.to_string()).collect();
                if let RacerState::Deciding(RaceChoice::Attack) = race.racers[me.index()].state {
                    // Again only if it captures; on, or leave and start anew.
                    let skip = (names[0] == "+") as usize;
                    assert_eq!(names[skip], "-", "{p}");
                    assert!(names[skip + 1..].iter().all(|n| n.starts_with('=')), "{p}");
                    assert!(names.len() > skip + 1, "{p}");
                } else {
                    assert_eq!(names, ["+", "-"], "{p}");
                }
                for (_, c) in opts {
                    assert_eq!(c.ply(), 3);
                    assert_eq!(c.total_counters(), 64, "{c}");
                }
            }
        }
    }
    assert!(paused >= 10, "{paused}");
}

/// A race whose opening move passes the lap budget is a draw: with a budget
/// of 2 laps, A's move of 3 laps (a, relay c, relay e) ends in phase `rx`, which has no move and
/// whose outcome is a draw; the counters in hand are still counted.
#[test]
fn a_race_past_the_lap_budget_is_a_draw() {
    let s1 = choro(
        Variant::Didinga,
        Side::B,
        "s1:a",
        &[('a', 2), ('b', 1), ('c', 1), ('d', 1), ('e', 1)],
        &[('a', 2)],
    );
    let b: Move = "a".parse().unwrap();
    let mut seen = None;
    s1.generate(2, |m, c, _| {
        if *m == b {
            seen = Some(*c);
        }
        true
    });
    let p = seen.expect("B's a is a blind start");
    assert_eq!(p.phase(), Phase::RaceOver, "{p}");
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::EndlessRace)));
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.total_counters(), 8);
    let back: Position = p.to_string().parse().unwrap();
    assert_eq!(back, p);
    // With the real budget the same race ends.
    assert_eq!(after(&s1, "a").phase(), Phase::Main);
}

fn blind_search(p: &Position, seed: u64) -> (Move, Vec<String>) {
    let mut s = Searcher::new(SearchConfig {
        seed,
        ..SearchConfig::default()
    });
    let mut lines = Vec::new();
    let r = s.search(
        &Game::new(*p),
        &Limits {
            depth: Some(2),
            ..Limits::default()
        },
        &SearchControl::default(),
        &mut |i: &Info| lines.extend(i.string.clone()),
    );
    (r.best.expect("a blind choice"), lines)
}

/// B's engine, choosing at `s1`, solves the matrix game from the board
/// alone: whatever A chose, it reports the same strategies and, with the
/// same seed, makes the same choice. The choice is one of B's starts with a
/// positive probability, and the seed changes the draw.
#[test]
fn the_second_blind_chooser_never_uses_the_first_ones_choice() {
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let start = Position::start(v, 8, Opening::Simultaneous).unwrap();
        let (a_choice, a_lines) = blind_search(&start, 7);
        assert!(start.play(&a_choice).is_ok());
        assert!(a_lines
            .iter()
            .any(|l| l.starts_with("blind 2x2") || l.contains(" value ")));
        let mut seen: Option<(Move, Vec<String>)> = None;
        for (_, s1) in start.legal_moves() {
            let (b_choice, lines) = blind_search(&s1, 11);
            assert!(s1.play(&b_choice).is_ok(), "{s1} {b_choice}");
            // The matrix reports are the same; the last line names the choice.
            match &seen {
                None => seen = Some((b_choice, lines)),
                Some((m, l)) => {
                    assert_eq!(*l, lines, "{v}: B's analysis depends on A's choice");
                    assert_eq!(*m, b_choice, "{v}: B's choice depends on A's");
                    assert_eq!(*l, lines, "{v}: B's analysis depends on A's choice");
                }
            }
        }
        let (_, lines) = seen.unwrap();
        let last = lines.last().unwrap();
        assert!(last.starts_with("blind choice "), "{last}");
    }
}

/// The sampled choice follows the equilibrium: in the Lango start, where
/// each player has two starts, over many seeds both of the mover's starts
/// with a positive probability are drawn.
#[test]
fn the_blind_choice_is_drawn_from_the_mixed_strategy() {
    let start = Position::start(Variant::Didinga, 8, Opening::Simultaneous).unwrap();
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        chosen.insert(blind_search(&start, seed).0.to_string());
    }
    assert!(chosen.len() >= 2, "{chosen:?}");
}

/// Every algorithm answers a legal move at each step of the simultaneous
/// opening (blind choices, race decisions) and none at a drawn race, whose
/// score is a draw.
#[test]
fn every_algorithm_plays_through_the_opening() {
    use choro_engine::search::{Algorithm, Score};
    let acholi = Position::start(Variant::Acholi, 8, Opening::Simultaneous).unwrap();
    let s1 = acholi.legal_moves()[0].1;
    let race = s1
        .legal_moves()
        .into_iter()
        .map(|(_, p)| p)
        .find(|p| p.phase() == Phase::Race)
        .expect("an Acholi race with a decision");
    let drawn: Position =
        "acholi:8 0,0,0,1,0,0,0,0/0,1,1,0,2,0,0,0/0,1,2,3,4,1,0,1/2,0,1,6,1,0,9,0 b rx 784.0 lap=ccw,hand=2,next=l,origin=j,front=1,laps=210 done 2"
            .parse()
            .unwrap();
    for algorithm in Algorithm::ALL {
        for p in [acholi, s1, race] {
            let mut s = Searcher::new(SearchConfig {
                algorithm,
                hash_mb: 1,
                ..SearchConfig::default()
            });
            let limits = Limits {
                depth: Some(2),
                nodes: Some(2_000),
                ..Limits::default()
            };
            let r = s.search(
                &Game::new(p),
                &limits,
                &SearchControl::default(),
                &mut |_| {},
            );
            let m = r
                .best
                .unwrap_or_else(|| panic!("{algorithm:?}: no move at {p}"));
            assert!(p.play(&m).is_ok(), "{algorithm:?}: {m} at {p}");
        }
        let mut s = Searcher::new(SearchConfig {
            algorithm,
            hash_mb: 1,
            ..SearchConfig::default()
        });
        let r = s.search(
            &Game::new(drawn),
            &Limits::default(),
            &SearchControl::default(),
            &mut |_| {},
        );
        assert_eq!(
            (r.best, r.score),
            (None, Some(Score::Cp(0))),
            "{algorithm:?}"
        );
    }
}

/// Pondering on a blind choice: nothing is timed until `ponderhit`, then
/// the move's time runs as for any search (the soak found a blind search
/// that ignored `ponderhit` and thought until `stop`). The bound is
/// generous: without the clock the search would go on for minutes.
#[test]
fn a_blind_search_keeps_time_after_ponderhit() {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};
    let p = Position::start(Variant::Acholi, 8, Opening::Simultaneous).unwrap();
    let control = SearchControl::default();
    control.pondering.store(true, Ordering::Relaxed);
    let limits = Limits {
        movetime: Some(Duration::from_millis(30)),
        ..Limits::default()
    };
    let mut s = Searcher::new(SearchConfig::default());
    let (r, after_hit) = std::thread::scope(|scope| {
        let h = scope.spawn(|| s.search(&Game::new(p), &limits, &control, &mut |_| {}));
        std::thread::sleep(Duration::from_millis(200));
        let hit = Instant::now();
        control.pondering.store(false, Ordering::Relaxed);
        let r = h.join().unwrap();
        (r, hit.elapsed())
    });
    assert!(p.play(&r.best.unwrap()).is_ok());
    assert!(r.depth >= 1);
    assert!(
        after_hit < Duration::from_secs(5),
        "{after_hit:?} after ponderhit"
    );
}

/// Plays `moves` (space-separated) from `p`.
fn play_all(p: &Position, moves: &str) -> Position {
    moves.split_whitespace().fold(*p, |p, m| after(&p, m))
}

fn move_names(p: &Position) -> Vec<String> {
    p.legal_moves()
        .iter()
        .map(|(m, _)| p.restyle(*m).to_string())
        .collect()
}

/// Holds (RULES.md 8.10), traced by hand. Both lift 2 from a into empty b
/// and c. Lockstep (no holds), B finishes first (tick 2, B first). With one
/// hold each: tick 1's choice is A's (`.`/`_`), then B's, who is not told
/// A's; a racer with no hold left drops without a ply.
/// - A holds, B drops: tick 1 B drops b; tick 2 only B has a hold: his
///   choice alone; dropping, he ends in c first: B moves first.
/// - A drops, B holds: tick 1 A drops b; tick 2 only A chooses: dropping,
///   B drops b then A ends in c first: A moves first. Holding instead: tick
///   2 only B drops (b); tick 3, A first, A ends in c: A first again.
/// - both hold: tick 1 passes with no drop; tick 2 (parity turned: B
///   first) as tick 1 of the lockstep race with the roles swapped: B drops
///   b, A b; tick 3 A ends in c first.
#[test]
fn holds_retard_a_racer_and_change_who_finishes_first() {
    let s1 = choro(Variant::Didinga, Side::B, "s1:a", &[('a', 2)], &[('a', 2)]);
    let s1: Position = s1
        .to_string()
        .replace(" s1:a ", " s1:a,holds=1 ")
        .parse()
        .unwrap();
    assert_eq!(s1.race_holds(), 1);
    let t1 = after(&s1, "a");
    assert_eq!((t1.phase(), t1.side_to_move()), (Phase::Race, Side::A));
    assert!(t1.to_string().contains(" a r 1.0 "), "{t1}");
    assert_eq!(move_names(&t1), [".", "_"]);
    for (moves, first, ply) in [
        (". .", None, 3),
        ("_ . .", Some(Side::B), 4),
        (". _ .", Some(Side::A), 4),
        (". _ _", Some(Side::A), 4),
        ("_ _", Some(Side::A), 3),
    ] {
        let p = play_all(&t1, moves);
        match first {
            Some(s) => {
                assert_eq!(p.phase(), Phase::Main, "{moves}: {p}");
                assert_eq!(p.side_to_move(), s, "{moves}: {p}");
            }
            None => assert_eq!(p.phase(), Phase::Race, "{moves}: {p}"),
        }
        assert_eq!(p.ply(), ply, "{moves}");
        assert_eq!(p.total_counters(), 4, "{moves}: counters kept");
    }
    // B's ply after A's hold carries A's choice (`held=1`), as `s1` does.
    let b = after(&t1, "_");
    assert_eq!(b.side_to_move(), Side::B);
    assert!(b.to_string().contains("held=1"), "{b}");
    let b2 = after(&t1, ".");
    assert!(!b2.to_string().contains("held=1"), "{b2}");
    // No hold left: `_` is refused with a clear reason, `.` too outside a
    // tick's choice.
    let lone = after(&after(&t1, "_"), ".");
    assert_eq!(lone.side_to_move(), Side::B);
    let late = play_all(&t1, ". _ _");
    assert_eq!(late.phase(), Phase::Main);
    let e = late.parse_move("_").unwrap_err().to_string();
    assert!(e.contains("no hold to take"), "{e}");
    let e = after(&s1, "a").parse_move("+").unwrap_err().to_string();
    assert!(e.contains("not a legal move"), "{e}");
    // Without holds the same race has no tick's choice.
    let plain = after(
        &choro(Variant::Didinga, Side::B, "s1:a", &[('a', 2)], &[('a', 2)]),
        "a",
    );
    assert_eq!(plain.phase(), Phase::Main);
    assert_eq!(plain.side_to_move(), Side::B);
}

/// Position strings with holds read back to themselves; an old string
/// reads as no holds; bad holds are refused with a reason.
#[test]
fn holds_in_position_strings() {
    let start = Position::start(Variant::Lango, 8, Opening::Simultaneous).unwrap();
    assert_eq!(start.race_holds(), 0);
    for n in 1..=choro_engine::MAX_HOLDS {
        let p = start.with_race_holds(n).unwrap();
        let s = p.to_string();
        assert!(s.contains(&format!(" a s2,holds={n} 0")), "{s}");
        assert_eq!(s.parse::<Position>().unwrap(), p);
        for (_, c) in p.legal_moves() {
            assert!(c.to_string().contains(&format!(",holds={n} 1")), "{c}");
            assert_eq!(c.to_string().parse::<Position>().unwrap(), c);
        }
    }
    assert!(start.with_race_holds(9).is_none());
    let s = start.to_string();
    for bad in ["s2,holds=0", "s2,holds=9", "s2,holds=x", "s2,holds="] {
        let e = s.replace(" s2 ", &format!(" {bad} ")).parse::<Position>();
        assert!(e.unwrap_err().to_string().contains("holds"), "{bad}");
    }
    // A tick's choice needs a hold for the side to move.
    let t: Position = start.with_race_holds(1).unwrap().legal_moves()[0]
        .1
        .legal_moves()[0]
        .1;
    let ts = t.to_string();
    assert!(ts.contains(" r 1.0 "), "{ts}");
    let stripped = ts.replace(",holds=1", "");
    assert!(stripped
        .parse::<Position>()
        .unwrap_err()
        .to_string()
        .contains("bad tick"));
}

/// At a tick's choice with both racers choosing, the engine solves the 2x2
/// game: B's analysis and choice at his ply do not depend on A's choice,
/// which his position holds; each answer is a legal `.` or `_`.
#[test]
fn the_second_tick_chooser_never_uses_the_first_ones_choice() {
    for v in [Variant::Didinga, Variant::Lango, Variant::Acholi] {
        let start = Position::start(v, 8, Opening::Simultaneous)
            .unwrap()
            .with_race_holds(1)
            .unwrap();
        let (_, s1) = start.legal_moves()[0];
        let (_, t1) = s1.legal_moves()[0];
        assert_eq!(t1.side_to_move(), Side::A, "{t1}");
        let (a_choice, a_lines) = blind_search(&t1, 3);
        assert!(t1.play(&a_choice).is_ok());
        assert!(
            a_lines.iter().any(|l| l.starts_with("tick 2x2")),
            "{a_lines:?}"
        );
        let mut seen: Option<(Move, Vec<String>)> = None;
        for (_, b) in t1.legal_moves() {
            assert_eq!(b.side_to_move(), Side::B, "{b}");
            let (b_choice, lines) = blind_search(&b, 5);
            assert!(b.play(&b_choice).is_ok());
            match &seen {
                None => seen = Some((b_choice, lines)),
                Some((m, l)) => {
                    assert_eq!(*l, lines, "{v}: B's tick analysis depends on A's choice");
                    assert_eq!(*m, b_choice, "{v}: B's tick choice depends on A's");
                }
            }
        }
        let (_, lines) = seen.unwrap();
        assert!(
            lines.last().unwrap().starts_with("tick choice "),
            "{lines:?}"
        );
    }
}
