//! The worked examples of the source texts, and one test for each clause of
//! Driberg's Acholi summary, each on a hand-built position.

mod common;
use choro_engine::{Dir, LapRecord, Position, Side, Variant};
use common::*;

fn lap(first: char, hand: u8, dir: Dir, last: char, after: u8) -> LapRecord {
    LapRecord {
        first: first as u8 - b'a' + 1,
        hand,
        dir,
        last: last as u8 - b'a' + 1,
        after,
    }
}

fn play(p: &Position, m: &str) -> Position {
    p.play(&mv(m))
        .unwrap_or_else(|e| panic!("{m}: {e}; legal: {:?}", move_strings(p)))
}

/// Driberg 1927a: "the player starts at m with 4 marbles, drops one each at
/// n, o, p, a, but finding 2 marbles at a ... drops them at b, c, d ... at I
/// there are three marbles and at L there are four ... These 7 marbles ...
/// begins again at b ... ends at h ... if it is occupied and E and P are also
/// occupied, he takes up his new increment from E and P and starts again from b."
#[test]
fn didinga_increment_of_seven_sown_from_b_then_e_and_p_from_b_again() {
    let p = choro(
        Variant::Didinga,
        Side::B,
        "m",
        &[('i', 3), ('l', 4), ('e', 2), ('p', 1), ('a', 2)],
        &[('m', 4), ('a', 2), ('d', 1), ('h', 1)],
    );
    let m = mv("m");
    let trace = p.trace(&m).expect("m is legal");
    assert_eq!(
        trace,
        vec![
            lap('n', 4, Dir::Ccw, 'a', 3),
            lap('b', 3, Dir::Ccw, 'd', 2),
            lap('b', 7, Dir::Ccw, 'h', 2), // increment from I and L, from b
            lap('b', 3, Dir::Ccw, 'd', 4), // increment from E and P, from b again
            lap('e', 4, Dir::Ccw, 'h', 3),
            lap('i', 3, Dir::Ccw, 'k', 1),
        ]
    );
    let q = play(&p, "m");
    assert_eq!(
        holes(&q, Side::B),
        vec![
            ('b', 3),
            ('c', 3),
            ('e', 2),
            ('f', 2),
            ('g', 2),
            ('i', 1),
            ('j', 1),
            ('k', 1),
            ('n', 1),
            ('o', 1),
            ('p', 1)
        ]
    );
    assert_eq!(holes(&q, Side::A), vec![('a', 2)]);
    assert_eq!(q.side_to_move(), Side::A);
}

/// Driberg 1927a, the opening: "a player starts at l and drops a marble at m,
/// n: if his opponent has not moved his marbles from FO, he may take these
/// ... and drop them at m, n, o, p: similarly he takes the marbles from HM ...
/// p must now contain 4 marbles ... he continues the move by dropping them at
/// a, b, c, d and so on".
#[test]
fn didinga_opening_from_l_takes_fo_and_hm_leaving_four_in_p() {
    let p = Position::startpos(Variant::Didinga, 8).unwrap();
    let trace = p.trace(&mv("l")).unwrap();
    assert_eq!(trace[0], lap('m', 2, Dir::Ccw, 'n', 3));
    assert_eq!(
        trace[1],
        lap('m', 4, Dir::Ccw, 'p', 3),
        "FO sown m, n, o, p"
    );
    assert_eq!(
        trace[2],
        lap('m', 4, Dir::Ccw, 'p', 4),
        "HM sown m..p: 4 in p"
    );
    assert_eq!(
        trace[3],
        lap('a', 4, Dir::Ccw, 'd', 3),
        "p's 4 go a, b, c, d"
    );
    assert_eq!(trace.len(), 8);
    let q = play(&p, "l");
    let b_left: Vec<char> = holes(&q, Side::B).iter().map(|h| h.0).collect();
    assert_eq!(b_left, vec!['a', 'b', 'c', 'd', 'g', 'j', 'k', 'n']);
    assert_eq!(q.material(Side::A), 48);
    assert_eq!(q.phase(), choro_engine::Phase::Opening1);
}

/// RULINGS 3: back-row captures end once the mover has reached his front row.
#[test]
fn didinga_opening_back_row_capture_ends_at_the_front_row() {
    // A lifts p (3): a, b, c, reaching the front row; c relays 5 to h, h
    // relays 4 to l, a back-row hole facing B's d and a, both occupied: in
    // the opening, but after the front row, so l relays on to m, n.
    let p = choro(
        Variant::Didinga,
        Side::A,
        "o2",
        &[('p', 3), ('c', 4), ('h', 3), ('l', 1)],
        &[('d', 1), ('a', 1)],
    );
    let t = p.trace(&mv("p")).unwrap();
    assert_eq!(
        t,
        vec![
            lap('a', 3, Dir::Ccw, 'c', 5),
            lap('d', 5, Dir::Ccw, 'h', 4),
            lap('i', 4, Dir::Ccw, 'l', 2),
            lap('m', 2, Dir::Ccw, 'n', 1),
        ]
    );
    let q = play(&p, "p");
    assert_eq!(holes(&q, Side::B), vec![('a', 1), ('d', 1)]);
    // Before the front row is reached, the same kind of lap end captures.
    // From n (back row) the opening lap ends in p facing h and m: captured.
    let p2 = choro(
        Variant::Didinga,
        Side::A,
        "o2",
        &[('n', 2), ('p', 1)],
        &[('h', 1), ('m', 1)],
    );
    let t2 = p2.trace(&mv("n")).unwrap();
    assert_eq!(
        t2[1],
        lap('o', 2, Dir::Ccw, 'p', 3),
        "increment sown from the hole after n"
    );
    let p3 = choro(
        Variant::Didinga,
        Side::A,
        "m",
        &[('n', 2), ('p', 1)],
        &[('h', 1), ('m', 1)],
    );
    assert_eq!(p3.trace(&mv("n")).unwrap().len(), 2, "main phase: p relays");
}

/// Herskovits 1929: the first player "takes out nine of the beans, leaving
/// one in the hole from which he played ... the final bean must fall in the
/// hole preceding the one where play was started. This bean cannot be captured."
#[test]
fn adjiboto_first_move_sows_nine_and_captures_nothing() {
    let p = Position::startpos(Variant::Adjiboto, 5).unwrap();
    for n in 1..=5u8 {
        let q = play(&p, &n.to_string());
        for k in 1..=5u8 {
            assert_eq!(q.count(Side::A, k), if k == n { 1 } else { 11 });
            assert_eq!(q.count(Side::B, k), 11, "opponent's holes now hold eleven");
        }
        assert_eq!(q.stores(), [0, 0]);
    }
    // The same sowing later in the game captures the single bean.
    let later: Position = "adjiboto 10,10,10,10,10/10,10,10,10,10 a 2/3 0/0 2"
        .parse()
        .unwrap();
    let q = play(&later, "1");
    assert_eq!(q.count(Side::A, 1), 0);
    assert_eq!(q.stores(), [1, 0]);
}

/// RULINGS 10: a run of 1, 3 or 5 after the last hole, either player's holes.
#[test]
fn adjiboto_captures_a_run_of_odd_small_counts() {
    // A plays hole 5 (2): drops in his 5 and B's 1; then B's 2 (3), 3 (5), 4 (1) are taken; 5 (2) stops it.
    let p: Position = "adjiboto 2,1,5,3,0/0,0,0,4,2 a 12345/12345 0/0 20"
        .parse()
        .unwrap();
    let q = play(&p, "5");
    assert_eq!(q.stores(), [9, 0]);
    assert_eq!(
        q.to_string(),
        "adjiboto 2,0,0,0,1/0,0,0,4,1 b 12345/12345 9/0 21"
    );
}

#[test]
fn adjiboto_opening_uses_five_different_holes() {
    let p: Position = "adjiboto 10,10,10,10,10/10,10,10,10,10 a 21/35 0/0 4"
        .parse()
        .unwrap();
    assert_eq!(move_strings(&p), vec!["3", "4", "5"]);
    // None of the unplayed holes can be played: any playable hole.
    let p: Position = "adjiboto 10,10,10,10,10/0,1,9,9,9 a 345/312 0/0 6"
        .parse()
        .unwrap();
    assert_eq!(move_strings(&p), vec!["3", "4", "5"]);
    let p: Position = "adjiboto 10,10,10,10,10/0,1,9,9,9 a 12345/31245 0/0 10"
        .parse()
        .unwrap();
    assert_eq!(move_strings(&p), vec!["3", "4", "5"]);
}

/// Driberg 1927b (Lango): "the player has a marble at f and his opponent is
/// en prise at GN: the player must first take up the marbles from GN and drop
/// them singly from f onwards".
#[test]
fn lango_start_capture_from_f_with_g_and_n_en_prise() {
    let p = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('g', 2), ('n', 1)],
        &[('f', 1), ('m', 2)],
    );
    assert_eq!(
        move_strings(&p),
        vec!["xf"],
        "the start capture is compulsory"
    );
    assert_eq!(
        p.trace(&mv("xf")).unwrap(),
        vec![lap('f', 3, Dir::Ccw, 'h', 1)]
    );
    let q = play(&p, "xf");
    assert_eq!(
        holes(&q, Side::B),
        vec![('f', 2), ('g', 1), ('h', 1), ('m', 2)]
    );
    assert_eq!(q.material(Side::A), 0);
    // "a single marble in the front row may save the game".
    let lone = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('g', 2), ('a', 5)],
        &[('f', 1)],
    );
    assert!(lone.has_legal_move());
    assert_eq!(lone.outcome(), None);
}

/// Driberg 1927b (Lango): "a player moving 4 marbles from b drops them in
/// c,d,e,f, and opposite f takes an increment of 3 marbles from GN ... under
/// the Lango code he drops them at f,g,h." Tested as a lap in the middle of a
/// move (RULINGS 7): e's 13 counters pass f and end in b.
#[test]
fn lango_increment_of_three_from_g_and_n_sown_from_f() {
    let p = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('g', 2), ('n', 1)],
        &[('e', 13), ('b', 3)],
    );
    let t = p.trace(&mv("e")).unwrap();
    assert_eq!(t[0], lap('f', 13, Dir::Ccw, 'b', 4));
    assert_eq!(t[1], lap('c', 4, Dir::Ccw, 'f', 2), "4 from b: c, d, e, f");
    assert_eq!(
        t[2],
        lap('f', 3, Dir::Ccw, 'h', 2),
        "the 3 from GN: f, g, h"
    );
    // Didinga would start them at b, the origin of the lap.
    let d = choro(
        Variant::Didinga,
        Side::B,
        "m",
        &[('g', 2), ('n', 1)],
        &[('e', 13), ('b', 3)],
    );
    let td = d.trace(&mv("e")).unwrap();
    assert_eq!(td[1], lap('c', 4, Dir::Ccw, 'f', 2));
    assert_ne!(td.get(2).map(|l| l.first), Some(b'f' - b'a' + 1));
}

/// Driberg 1927b (Lango): "supposing that instead of 3 marbles from GN the
/// player took only 1 marble from G, he would add to this his own marbles from
/// f and start dropping them from g onwards."
#[test]
fn lango_single_counter_from_g_added_to_f_and_sown_from_g() {
    let p = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('g', 1)],
        &[('e', 13), ('b', 3)],
    );
    let t = p.trace(&mv("e")).unwrap();
    assert_eq!(t[1], lap('c', 4, Dir::Ccw, 'f', 2));
    assert_eq!(
        t[2],
        lap('g', 3, Dir::Ccw, 'i', 2),
        "f's 2 and G's 1 from g"
    );
    // As a start capture: f's 2 counters with G's single one, from g.
    let s = choro(Variant::Lango, Side::B, "m", &[('g', 1)], &[('f', 2)]);
    assert_eq!(
        s.trace(&mv("xf")).unwrap(),
        vec![lap('g', 3, Dir::Ccw, 'i', 1)]
    );
}

/// Lango: a full back hole behind an empty front hole is never taken.
#[test]
fn lango_back_hole_alone_is_not_en_prise() {
    let p = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('n', 3)],
        &[('f', 1), ('e', 2)],
    );
    assert_eq!(move_strings(&p), vec!["e"]);
}

/// Lango mid-move clockwise relay from base hole k, and its normal sowing.
#[test]
fn lango_clockwise_relay_from_the_turning_base() {
    let p = choro(
        Variant::Lango,
        Side::B,
        "m",
        &[('d', 2), ('a', 1)],
        &[('h', 3), ('k', 1)],
    );
    assert_eq!(move_strings(&p), vec!["h+", "h-"]);
    let t = p.trace(&mv("h+")).unwrap();
    assert_eq!(
        t,
        vec![
            lap('i', 3, Dir::Ccw, 'k', 2),
            lap('j', 2, Dir::Cw, 'i', 2), // k's 2 clockwise: j, i, capturing D and A
            lap('i', 3, Dir::Ccw, 'k', 1), // no capture clockwise again: sown from i
        ]
    );
    assert_eq!(
        holes(&play(&p, "h+"), Side::B),
        vec![('i', 3), ('j', 3), ('k', 1)]
    );
    assert_eq!(
        holes(&play(&p, "h-"), Side::B),
        vec![('i', 1), ('j', 1), ('l', 1), ('m', 1)]
    );
}

/// Acholi (iv)(a): "Clockwise motion is permitted only from IK and ik."
#[test]
fn acholi_a_clockwise_only_from_i_and_k() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('f', 1), ('o', 1), ('e', 1), ('p', 1)],
        &[('i', 2), ('j', 2), ('g', 1), ('h', 1)],
    );
    let moves = move_strings(&p);
    assert!(moves.iter().any(|m| m.starts_with("~i")), "{moves:?}");
    assert!(
        !moves.iter().any(|m| m.starts_with("~j")),
        "j's clockwise lap would capture E, P: {moves:?}"
    );
}

/// Acholi (iv)(b): "clockwise motion is only permitted in order to take the
/// opponent's marbles which are en prise."
#[test]
fn acholi_b_clockwise_only_to_capture() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('o', 1), ('e', 1), ('p', 1)],
        &[('i', 2), ('g', 1), ('h', 1)],
    );
    assert!(!move_strings(&p).iter().any(|m| m.contains('~')));
}

/// Acholi (iv)(c): "the captured marbles are all placed in the hole from
/// which the lap leading to the increment started" -- and may be left there.
#[test]
fn acholi_c_increment_placed_in_the_origin_hole() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('f', 1), ('o', 1), ('e', 1), ('p', 1)],
        &[('i', 2), ('g', 1), ('h', 1), ('m', 2)],
    );
    let q = play(&p, "~i=m");
    assert_eq!(
        holes(&q, Side::B),
        vec![('g', 2), ('h', 2), ('i', 2), ('n', 1), ('o', 1)]
    );
    assert_eq!(holes(&q, Side::A), vec![('e', 1), ('p', 1)]);
}

/// Acholi (iv)(d): "if the increment is taken from the first lap ... and the
/// captured marbles, played clockwise, suffice to take another increment, they
/// are ... so played: but if there is no fresh increment available they must
/// be played counterclockwise ... starting from the hole forward of the one
/// in which they have been deposited."
#[test]
fn acholi_d_clockwise_again_or_counterclockwise_from_the_next_hole() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('f', 2), ('o', 1), ('g', 1), ('n', 1)],
        &[('i', 2), ('g', 1), ('f', 1)],
    );
    let moves = move_strings(&p);
    assert!(moves.contains(&"~i+-".to_string()), "{moves:?}");
    assert!(moves.contains(&"~i-".to_string()), "{moves:?}");
    let t = p.trace(&mv("~i+-")).unwrap();
    assert_eq!(
        t[0],
        lap('h', 2, Dir::Cw, 'g', 2),
        "i's 2 clockwise: h, g, taking F and O"
    );
    assert_eq!(
        t[1],
        lap('h', 3, Dir::Cw, 'f', 2),
        "the 3 again clockwise: h, g, f, taking G and N"
    );
    assert_eq!(
        t[2],
        lap('j', 2, Dir::Ccw, 'k', 1),
        "then counter-clockwise from j"
    );
    let t = p.trace(&mv("~i-")).unwrap();
    assert_eq!(t[1], lap('j', 3, Dir::Ccw, 'l', 1));
}

/// Acholi (iv)(e): "after depositing the captured marbles in the hole from
/// which the lap started may leave that lap entirely. He may then ... play
/// another clockwise move from the other portion of the base".
#[test]
fn acholi_e_leave_then_attack_from_the_other_hole() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('f', 1), ('o', 1), ('d', 1), ('a', 1)],
        &[('i', 2), ('k', 2), ('g', 1), ('h', 1)],
    );
    let moves = move_strings(&p);
    assert!(moves.iter().any(|m| m.starts_with("~i=~k")), "{moves:?}");
    // k's 2 clockwise: j, then i, which now holds the left increment: D and A taken.
    let m = moves.iter().find(|m| m.starts_with("~i=~k")).unwrap();
    let t = p.trace(&mv(m)).unwrap();
    assert_eq!(t[0], lap('h', 2, Dir::Cw, 'g', 2));
    assert_eq!(t[1], lap('j', 2, Dir::Cw, 'i', 3));
}

/// Acholi (iv)(f): "If during the course of a move a player's marble ends at
/// iI or kK ... he may, subject to an increment being available, play one lap,
/// but only one, clockwise. After taking the increment he proceeds again
/// counterclockwise with the captured marbles, starting at jJ or lL".
#[test]
fn acholi_f_one_clockwise_lap_mid_move_then_on_from_j() {
    let p = choro(
        Variant::Acholi,
        Side::B,
        "m",
        &[('f', 2), ('o', 1), ('g', 1), ('n', 1)],
        &[('e', 4), ('g', 1), ('i', 1)],
    );
    // Only one clockwise lap: no "e++" although h, g, f would take G and N.
    assert_eq!(move_strings(&p), vec!["e+", "e-"]);
    let t = p.trace(&mv("e+")).unwrap();
    assert_eq!(
        t,
        vec![
            lap('f', 4, Dir::Ccw, 'i', 2),
            lap('h', 2, Dir::Cw, 'g', 3),
            lap('j', 3, Dir::Ccw, 'l', 1),
        ]
    );
}

/// Acholi opening: back-row starts and a clockwise attack from k only.
#[test]
fn acholi_opening_starts_in_the_back_row_or_attacks_from_k() {
    let p = Position::startpos(Variant::Acholi, 8).unwrap();
    let moves = move_strings(&p);
    let starts: std::collections::BTreeSet<String> = moves
        .iter()
        .map(|m| {
            m.chars()
                .take_while(|c| c.is_ascii_alphabetic() || *c == '~')
                .collect()
        })
        .collect();
    let expect: std::collections::BTreeSet<String> = ["a", "b", "k", "l", "m", "n", "o", "p", "~k"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(starts, expect, "{moves:?}");
}

/// Lango opening: from a or b only.
#[test]
fn lango_opening_starts_from_a_or_b() {
    let p = Position::startpos(Variant::Lango, 8).unwrap();
    for m in move_strings(&p) {
        assert!(m.starts_with('a') || m.starts_with('b'), "{m}");
    }
}
