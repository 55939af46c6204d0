//! `d`: the board diagram (Driberg's letters with counts), who moves, the
//! phase and the position string (PROTOCOL.md, "`d`").

use choro_engine::types::geometry;
use choro_engine::{Game, Phase, Position, Side};

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

fn choro_rows(pos: &Position) -> Vec<String> {
    let w = pos.width();
    let letters = w == 8;
    let mut lines = vec![header(w)];
    for row in (0..4u8).rev() {
        let (owner, _) = geometry::hole_at(row, 0, w);
        let mut s = format!("{owner}{row}");
        for col in 0..w {
            let (side, p) = geometry::hole_at(row, col, w);
            let n = geometry::number_of_pos(p, w);
            let label = if letters {
                let c = (b'a' + n - 1) as char;
                match side {
                    Side::A => c.to_ascii_uppercase(),
                    Side::B => c,
                }
                .to_string()
            } else {
                n.to_string()
            };
            s.push_str(&cell(&label, pos.at(row, col)));
        }
        lines.push(s);
    }
    lines
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

    #[test]
    fn adjiboto_rows_run_from_each_players_left() {
        let p: Position = "adjiboto 1,2,3,4,5/6,7,8,9,0 b 12/- 3/4 7".parse().unwrap();
        let d = diagram(&Game::new(p));
        assert_eq!(d[1], "B     5:1    4:2    3:3    2:4    1:5");
        assert_eq!(d[2], "A     1:6    2:7    3:8    4:9    5:0");
        assert_eq!(d[3], "stores B 4 (west) A 3 (east)");
        assert_eq!(d[4], "opening history A 12 B -");
        assert_eq!(d[5], "side to move B (p2)");
    }
}
