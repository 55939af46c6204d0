//! The game record format and its verification: records round-trip, and
//! every kind of tampering is caught.

mod games;

use choro_engine::{Game, Position, Side, Variant};
use choro_match::record::{parse_records, GameResult, Reason, Record};
use choro_match::replay::{replay_text, verify};
use games::{as_failure, didinga, first_move_game, set_tag};

#[test]
fn a_record_round_trips_and_verifies() {
    for v in Variant::ALL {
        let start = Position::startpos(v, v.default_width()).unwrap();
        let r = first_move_game(start);
        let text = r.to_text();
        let back = parse_records(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].tags, r.tags, "{text}");
        assert_eq!(back[0].moves, r.moves);
        assert_eq!(back[0].result, r.result);
        let ok = verify(&back[0]).unwrap();
        assert_eq!(ok.plies, r.moves.len());
    }
}

#[test]
fn the_text_format_is_as_documented() {
    let r = didinga();
    let text = r.to_text();
    let lines: Vec<&str> = text.trim_end().lines().collect();
    assert_eq!(lines[0], r#"[Event "test \"quoted\" \\ event"]"#);
    assert!(text.contains("\n\n0 a "), "{text}");
    assert!(lines.contains(&"[Start \"didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0\"]"));
    assert_eq!(lines.last(), Some(&GameResult::token_of(r.result)));
    // Several games in a file, with comments and blank lines between them.
    let two = format!("# two games\n{text}\n\n{text}");
    assert_eq!(parse_records(&two).unwrap().len(), 2);
}

#[test]
fn tampered_moves_are_caught() {
    let r = didinga();
    assert!(r.moves.len() >= 3);

    let mut bad = r.clone();
    bad.moves[2].mv = "~a".into();
    let e = verify(&bad).unwrap_err();
    assert!(e.starts_with("move 3 '~a'"), "{e}");

    let mut bad = r.clone();
    bad.moves[1].side = bad.moves[1].side.other();
    let e = verify(&bad).unwrap_err();
    assert!(e.contains("written for"), "{e}");

    let mut bad = r.clone();
    bad.moves[1].ply += 1;
    assert!(verify(&bad).unwrap_err().contains("ply"));

    // A move after the end of the game.
    let mut bad = r.clone();
    let extra = bad.moves[0].clone();
    bad.moves.push(extra);
    assert!(verify(&bad).unwrap_err().contains("already over"));
}

#[test]
fn tampered_results_and_reasons_are_caught() {
    let r = didinga();
    let reason = Reason::parse(r.tag("Reason").unwrap()).unwrap();

    let mut bad = r.clone();
    bad.result = match r.result {
        Some(GameResult::AWins) => Some(GameResult::BWins),
        _ => Some(GameResult::AWins),
    };
    assert!(verify(&bad).unwrap_err().contains("result line"));

    let mut bad = r.clone();
    let other = if reason == Reason::PlyCap {
        Reason::Repetition
    } else {
        Reason::PlyCap
    };
    set_tag(&mut bad, "Reason", other.code());
    assert!(verify(&bad).unwrap_err().contains("the rules say"));

    // A failure claimed where the rules had ended the game.
    let mut bad = r.clone();
    set_tag(&mut bad, "Reason", "crash");
    assert!(verify(&bad).unwrap_err().contains("already ended"));

    let mut bad = r.clone();
    set_tag(&mut bad, "Plies", "9999");
    assert!(verify(&bad).unwrap_err().contains("Plies"));

    let mut bad = r.clone();
    set_tag(&mut bad, "Variant", "lango");
    assert!(verify(&bad).unwrap_err().contains("Variant"));
}

/// The game cut before its last `cut` moves and marked unfinished (`*`),
/// as choro-gui saves a game not over: no `Reason` tag.
fn as_unfinished(mut r: Record, cut: usize) -> Record {
    r.moves.truncate(r.moves.len() - cut);
    r.result = None;
    let plies = r.moves.len().to_string();
    set_tag(&mut r, "Result", "*");
    set_tag(&mut r, "Plies", &plies);
    r.tags.retain(|(k, _)| k != "Reason");
    r
}

#[test]
fn an_unfinished_game_round_trips_and_verifies() {
    for v in Variant::ALL {
        let start = Position::startpos(v, v.default_width()).unwrap();
        let whole = first_move_game(start).moves.len();
        for cut in 1..=whole.min(2) {
            let r = as_unfinished(first_move_game(start), cut);
            let text = r.to_text();
            assert!(text.contains("[Result \"*\"]\n"), "{text}");
            assert_eq!(text.trim_end().lines().last(), Some("*"), "{text}");
            let back = parse_records(&text).unwrap();
            assert_eq!(back.len(), 1);
            assert_eq!((&back[0].tags, &back[0].moves), (&r.tags, &r.moves));
            assert_eq!(back[0].result, None);
            let ok = verify(&back[0]).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((ok.result, ok.reason), (None, None));
            assert_eq!(ok.plies, r.moves.len());
            let s = replay_text(&text).unwrap();
            assert_eq!((s.verified, s.mismatches.len()), (1, 0), "{:?}", s.lines());
            assert!(
                s.lines().contains(&"results * 1".to_string()),
                "{:?}",
                s.lines()
            );
        }
        // No moves at all: the start position is not over either.
        let r = as_unfinished(first_move_game(start), whole);
        assert!(r.moves.is_empty());
        assert_eq!(verify(&r).unwrap().plies, 0);
    }
}

#[test]
fn wrong_unfinished_marks_are_refused() {
    let done = didinga();
    let open = as_unfinished(didinga(), 1);

    // Marked unfinished, but the game is over at its end.
    let mut bad = done.clone();
    bad.result = None;
    set_tag(&mut bad, "Result", "*");
    bad.tags.retain(|(k, _)| k != "Reason");
    let e = verify(&bad).unwrap_err();
    assert!(
        e.contains("marks the game unfinished, but it is over"),
        "{e}"
    );

    // A rules' result on a game not over.
    let mut bad = open.clone();
    let (token, reason) = (done.tag("Result").unwrap(), done.tag("Reason").unwrap());
    bad.result = done.result;
    set_tag(&mut bad, "Result", token);
    set_tag(&mut bad, "Reason", reason);
    let e = verify(&bad).unwrap_err();
    assert!(e.contains("the game is not over"), "{e}");
    assert!(e.contains("marked *"), "{e}");

    // A finished result without a reason.
    let mut bad = open.clone();
    bad.result = done.result;
    set_tag(&mut bad, "Result", token);
    assert!(verify(&bad).unwrap_err().contains("no [Reason] tag"));

    // Unfinished with a reason, and the tag disagreeing with the line.
    let mut bad = open.clone();
    set_tag(&mut bad, "Reason", reason);
    let e = verify(&bad).unwrap_err();
    assert!(e.contains("marked unfinished"), "{e}");
    let mut bad = open.clone();
    bad.result = done.result;
    assert!(verify(&bad).unwrap_err().contains("result line"));
    let mut bad = open.clone();
    set_tag(&mut bad, "Result", "1-0");
    assert!(verify(&bad).unwrap_err().contains("result line"));

    // An illegal move in an unfinished record.
    let mut bad = open.clone();
    bad.moves[2].mv = "~a".into();
    assert!(verify(&bad).unwrap_err().starts_with("move 3 '~a'"));
}

#[test]
fn failure_records_verify_only_as_a_loss_of_the_side_to_move() {
    for reason in [Reason::Crash, Reason::Hang, Reason::TimeForfeit] {
        let ok = as_failure(didinga(), 2, reason);
        assert_eq!(verify(&ok).unwrap().reason, Some(reason));
        let mut bad = ok.clone();
        bad.result = match ok.result {
            Some(GameResult::AWins) => Some(GameResult::BWins),
            _ => Some(GameResult::AWins),
        };
        let token = GameResult::token_of(bad.result);
        set_tag(&mut bad, "Result", token);
        assert!(verify(&bad).unwrap_err().contains("who was to move"));
    }
}

#[test]
fn the_refused_move_must_really_be_refused() {
    let base = as_failure(didinga(), 2, Reason::IllegalMove);
    let legal_there = didinga().moves[base.moves.len()].mv.clone();

    let mut r = base.clone();
    set_tag(&mut r, "BadMove", "~a");
    verify(&r).unwrap();
    set_tag(&mut r, "BadMove", "0000");
    verify(&r).unwrap();
    set_tag(&mut r, "BadMove", &legal_there);
    assert!(verify(&r).unwrap_err().contains("is a legal move"));
    set_tag(&mut r, "BadMove", "@!");
    assert!(verify(&r).unwrap_err().contains("not illegal-move"));

    let mut r = base.clone();
    set_tag(&mut r, "Reason", "malformed-move");
    set_tag(&mut r, "BadMove", "@!");
    verify(&r).unwrap();
    set_tag(&mut r, "BadMove", "");
    verify(&r).unwrap();
    set_tag(&mut r, "BadMove", "~a");
    assert!(verify(&r).unwrap_err().contains("not malformed-move"));
}

#[test]
fn unreadable_files_name_the_line() {
    let text = didinga().to_text();
    let no_result = text.trim_end().rsplit_once('\n').unwrap().0.to_string();
    let e = parse_records(&no_result).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    let e = parse_records("[Event \"x\"\n").unwrap_err();
    assert!(e.msg.contains("tag"), "{e}");
    let e = parse_records("0 a l\n1-0\n").unwrap_err();
    assert!(e.msg.contains("tags"), "{e}");
    let e = parse_records("[Event \"x\"]\n0 c l\n1-0\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(replay_text("0 a l\n").is_err());
}

#[test]
fn side_letters_follow_the_position_not_alternation() {
    // Every move line carries the side that made it, read from the position.
    let r = didinga();
    let mut g = Game::new(r.tag("Start").unwrap().parse().unwrap());
    for m in &r.moves {
        assert_eq!(m.side, g.position().side_to_move());
        g.play_str(&m.mv).unwrap();
    }
    assert!(r.moves.iter().any(|m| m.side == Side::B));
}
