//! `d`: the board diagram (Driberg's letters with counts), who moves, the
//! phase, a race in progress, and the position string (PROTOCOL.md, "`d`").

use choro_engine::types::geometry;
use choro_engine::{
    Game, Move, Phase, Position, Race, RaceChoice, RaceLap, Racer, RacerState, Side, Token,
};

/// UGI's name of a player.
pub fn player(side: Side) -> &'static str {
    match side {
        Side::A => "p1",
        Side::B => "p2",
    }
}

fn header(width: u8) -> String {
    let mut s = String::from("  ");
    for c in 0..width {
        s.push_str(&format!("{c:>7}"));
    }
    s
}

fn cell(label: &str, count: u8) -> String {
    format!("{:>7}", format!("{label}:{count}"))
}

/// A Choro hole as the diagram labels it: its Driberg letter on 8-wide
/// boards (capital for A, small for B), else its number in the owner's
/// own numbering. `p` is the owner's loop position.
fn hole_label(side: Side, p: u8, w: u8) -> String {
    let n = geometry::number_of_pos(p, w);
    if w == 8 {
        let c = (b'a' + n - 1) as char;
        match side {
            Side::A => c.to_ascii_uppercase(),
            Side::B => c,
        }
        .to_string()
    } else {
        n.to_string()
    }
}

fn choro_rows(pos: &Position) -> Vec<String> {
    let w = pos.width();
    let mut lines = vec![header(w)];
    for row in (0..4u8).rev() {
        let (owner, _) = geometry::hole_at(row, 0, w);
        let mut s = format!("{owner}{row}");
        for col in 0..w {
            let (side, p) = geometry::hole_at(row, col, w);
            s.push_str(&cell(&hole_label(side, p, w), pos.at(row, col)));
        }
        lines.push(s);
    }
    lines
}

fn lap_text(l: RaceLap) -> &'static str {
    match l {
        RaceLap::Ccw => "ccw (counter-clockwise)",
        RaceLap::LangoCw => "cw (clockwise from a turning-base hole)",
        RaceLap::Attack => "attack (clockwise preliminary attack)",
        RaceLap::MidCw => "midcw (clockwise relay lap)",
    }
}

fn choice_text(c: RaceChoice) -> &'static str {
    match c {
        RaceChoice::Relay => "relay (+ sows the lifted counters clockwise, - sows on)",
        RaceChoice::Again => "again (+ sows the increment clockwise again, - by the normal rule)",
        RaceChoice::Attack => {
            "attack (+ attacks again, - sows on as the move proper, =<start> leaves it and starts anew)"
        }
    }
}

/// One racer of a race in progress (or drawn): what he is doing, his hand,
/// the hole of his next (or last) drop, his lap and lap count.
fn racer_line(side: Side, r: &Racer, race: &Race, w: u8, over: bool) -> String {
    let hole = |p: u8| hole_label(side, p, w);
    let yes = |b: bool| if b { "yes" } else { "no" };
    let what = match r.state {
        RacerState::Done if over => return format!("racer {side}: done"),
        RacerState::Done if race.first_finisher() == Some(side) => {
            return format!("racer {side}: done, finished first (moves first in the main phase)");
        }
        RacerState::Done => return format!("racer {side}: done"),
        RacerState::Sowing(l) => format!(
            "sowing lap {}, hand {}, next drop {}",
            lap_text(l),
            r.hand,
            hole(r.at)
        ),
        RacerState::Deciding(c) => format!(
            "deciding {}, hand {}{}, last drop {}",
            choice_text(c),
            r.hand,
            if c == RaceChoice::Again && r.single {
                " (a single counter)"
            } else {
                ""
            },
            hole(r.at)
        ),
    };
    let mut line = format!(
        "racer {side}: {what}, origin {}, front row reached {}, laps {}",
        hole(r.origin),
        yes(r.front),
        r.laps
    );
    // A race with holds (RULES.md 8.10); nothing is added without them.
    if r.holds() > 0 {
        line += &format!(", holds left {}", r.holds());
    }
    if r.held() {
        line += ", holds in this tick";
    }
    line
}

/// The simultaneous opening's lines: A's blind start at `s1` (shown to
/// people; the search of B never reads it), the racers at `r` and `rx`.
fn race_lines(pos: &Position) -> Vec<String> {
    let holds = pos.race_holds();
    if pos.phase().is_blind() && holds > 0 {
        let mut v = vec![format!(
            "race with holds: each racer may hold in up to {holds} ticks (RaceHolds {holds})"
        )];
        if pos.phase() == Phase::Blind1 {
            v.extend(blind_lines(pos));
        }
        return v;
    }
    blind_lines(pos)
}

fn blind_lines(pos: &Position) -> Vec<String> {
    let Some(race) = pos.race() else {
        return Vec::new();
    };
    let w = pos.width();
    match pos.phase() {
        Phase::Blind1 => {
            let Some(t) = race.blind else {
                return Vec::new();
            };
            let mut m = Move::empty(w == 8);
            m.push(t);
            let hole = match t {
                Token::Lift(n) | Token::Clockwise(n) => {
                    hole_label(Side::A, geometry::pos_of_number(n, w), w)
                }
                _ => "?".to_string(),
            };
            vec![format!(
                "A's blind start {m} (his hole {hole}; shown to people, B's search never reads it)"
            )]
        }
        Phase::Race | Phase::RaceOver => {
            let s = pos.side_to_move();
            let head = if pos.phase() == Phase::Race {
                let mut choices: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|(m, _)| pos.restyle(*m).to_string())
                    .collect();
                choices.dedup();
                let what = if race.stage == 0 {
                    "to choose drop (.) or hold (_)"
                } else {
                    "to decide"
                };
                format!(
                    "race tick {}.{}: {s} ({}) {what}: {}",
                    race.tick,
                    race.stage,
                    player(s),
                    choices.join(" ")
                )
            } else {
                format!(
                    "race tick {}.{}: a racer passed {} laps or the race cycles; drawn",
                    race.tick,
                    race.stage,
                    choro_engine::LAP_BUDGET
                )
            };
            let over = pos.phase() == Phase::RaceOver;
            vec![
                head,
                racer_line(Side::A, &race.racers[0], race, w, over),
                racer_line(Side::B, &race.racers[1], race, w, over),
            ]
        }
        _ => Vec::new(),
    }
}

fn adjiboto_rows(pos: &Position) -> Vec<String> {
    let mut lines = vec![header(5)];
    // B faces south: his hole 1 (from his left) is in the east.
    let mut north = String::from("B ");
    let mut south = String::from("A ");
    for col in 0..5u8 {
        north.push_str(&cell(&(5 - col).to_string(), pos.at(1, col)));
        south.push_str(&cell(&(col + 1).to_string(), pos.at(0, col)));
    }
    lines.push(north);
    lines.push(south);
    let [a, b] = pos.stores();
    lines.push(format!("stores B {b} (west) A {a} (east)"));
    let hist = |s: Side| {
        let h = pos.history(s);
        if h.is_empty() {
            "-".to_string()
        } else {
            (0..h.len()).map(|i| h.get(i).to_string()).collect()
        }
    };
    lines.push(format!(
        "opening history A {} B {}",
        hist(Side::A),
        hist(Side::B)
    ));
    lines
}

fn phase(pos: &Position) -> String {
    let s = pos.side_to_move();
    if !pos.variant().is_choro() {
        let done = |x: Side| pos.history(x).len().min(5);
        return if done(Side::A) < 5 || done(Side::B) < 5 {
            format!(
                "phase opening (first five moves from different holes: A {}/5, B {}/5)",
                done(Side::A),
                done(Side::B)
            )
        } else {
            "phase main".to_string()
        };
    }
    match pos.phase() {
        Phase::Opening2 => format!(
            "phase o2 (sequential opening: {s} opens, then {})",
            s.other()
        ),
        Phase::Opening1 => format!("phase o1 (sequential opening: {s} opens second)"),
        Phase::Main => "phase m (main phase)".to_string(),
        Phase::Blind2 => "phase s2 (simultaneous opening: A chooses his start blind)".to_string(),
        Phase::Blind1 => "phase s1 (simultaneous opening: B chooses his start blind)".to_string(),
        Phase::Race if pos.race().is_some_and(|r| r.stage == 0) => {
            format!("phase r (simultaneous opening: the race, {s} to choose drop or hold)")
        }
        Phase::Race => format!("phase r (simultaneous opening: the race, {s} to decide)"),
        Phase::RaceOver => {
            "phase rx (simultaneous opening: the race never ended; draw)".to_string()
        }
    }
}

/// The lines of `d` for the game's current position.
pub fn diagram(game: &Game) -> Vec<String> {
    let pos = game.position();
    let mut lines = if pos.variant().is_choro() {
        choro_rows(pos)
    } else {
        adjiboto_rows(pos)
    };
    let s = pos.side_to_move();
    lines.push(format!("side to move {s} ({})", player(s)));
    lines.push(phase(pos));
    if pos.variant().is_choro() {
        lines.extend(race_lines(pos));
    }
    lines.push(format!("ply {}", pos.ply()));
    lines.push(format!(
        "material A {} B {}",
        pos.material(Side::A),
        pos.material(Side::B)
    ));
    lines.push(match game.outcome() {
        Some(o) => format!("game over: {o}"),
        None => "game in progress".to_string(),
    });
    lines.push(format!("position {pos}"));
    lines
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use choro_engine::Variant;

    #[test]
    fn didinga_start_shows_driberg_letters() {
        let g = Game::new(Position::startpos(Variant::Didinga, 8).unwrap());
        let d = diagram(&g);
        // RULINGS 1: A's d faces B's i and l; n faces f and o.
        assert_eq!(
            d[1],
            "B3    b:2    a:2    p:2    o:2    n:2    m:2    l:2    k:2"
        );
        assert_eq!(
            d[2],
            "B2    c:2    d:2    e:2    f:2    g:2    h:2    i:2    j:2"
        );
        assert_eq!(
            d[3],
            "A1    J:2    I:2    H:2    G:2    F:2    E:2    D:2    C:2"
        );
        assert_eq!(
            d[4],
            "A0    K:2    L:2    M:2    N:2    O:2    P:2    A:2    B:2"
        );
        assert_eq!(d[5], "side to move A (p1)");
        assert!(d.last().unwrap().starts_with("position didinga:8 2,2"));
    }

    fn play(v: Variant, moves: &str) -> Game {
        let mut g = Game::new(Position::start(v, 8, choro_engine::Opening::Simultaneous).unwrap());
        for m in moves.split_whitespace() {
            g.play_str(m).unwrap();
        }
        g
    }

    #[test]
    fn simultaneous_opening_shows_the_blind_start_and_the_race() {
        let d = diagram(&play(Variant::Lango, ""));
        assert_eq!(
            d[6],
            "phase s2 (simultaneous opening: A chooses his start blind)"
        );
        assert_eq!(d[7], "ply 0");
        let d = diagram(&play(Variant::Acholi, "~k"));
        assert_eq!(d[5], "side to move B (p2)");
        assert_eq!(
            d[7],
            "A's blind start ~k (his hole K; shown to people, B's search never reads it)"
        );
        assert!(d.last().unwrap().ends_with(" b s1:~k 1"));
        // Lango, both start from b: A is at a relay decision, B sows on.
        let d = diagram(&play(Variant::Lango, "b b"));
        assert_eq!(d[5], "side to move A (p1)");
        assert_eq!(
            &d[6..10],
            [
                "phase r (simultaneous opening: the race, A to decide)",
                "race tick 11.1: A (p1) to decide: + -",
                "racer A: deciding relay (+ sows the lifted counters clockwise, - sows on), \
                 hand 3, last drop K, origin K, front row reached yes, laps 3",
                "racer B: sowing lap ccw (counter-clockwise), hand 1, next drop k, origin g, \
                 front row reached yes, laps 3",
            ]
        );
        // Three decisions later B is done and A decides twice in a row.
        let d = diagram(&play(Variant::Lango, "b b - + +"));
        assert_eq!(d[7], "race tick 31.1: A (p1) to decide: + -");
        assert!(d[8].starts_with("racer A: deciding again (+ sows the increment"));
        assert_eq!(
            d[9],
            "racer B: done, finished first (moves first in the main phase)"
        );
        let d = diagram(&play(Variant::Lango, "b b - + + -"));
        assert_eq!(d[6], "phase m (main phase)");
        assert_eq!(d[7], "ply 6");
    }

    #[test]
    fn adjiboto_rows_run_from_each_players_left() {
        let p: Position = "adjiboto 1,2,3,4,5/6,7,8,9,0 b 12/3 3/4 7".parse().unwrap();
        let d = diagram(&Game::new(p));
        assert_eq!(d[1], "B     5:1    4:2    3:3    2:4    1:5");
        assert_eq!(d[2], "A     1:6    2:7    3:8    4:9    5:0");
        assert_eq!(d[3], "stores B 4 (west) A 3 (east)");
        assert_eq!(d[4], "opening history A 12 B 3");
        assert_eq!(d[5], "side to move B (p2)");
    }
}
