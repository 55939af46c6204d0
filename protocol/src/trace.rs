//! `trace <move>`: a legal move drop by drop, for boards that animate it
//! (PROTOCOL.md, "`trace`"). The engine gives the laps and the board each
//! lap leaves ([`Position::trace_boards`]); what happened between two laps
//! (lifts, captures, counters put back) is the difference of those boards,
//! once the lap's own drops are taken away, so nothing here knows a rule.

use choro_engine::rules::LapBoard;
use choro_engine::types::geometry;
use choro_engine::{Dir, Move, MoveError, Position, Side};

/// The board being replayed: counts by side and loop position (Adjiboto:
/// the ring in side 0), and the stores.
struct Board {
    pos: Position,
    counts: LapBoard,
    stores: [u8; 2],
}

impl Board {
    fn new(pos: &Position) -> Board {
        let mut counts = [[0u8; 32]; 2];
        let (sides, len) = if pos.variant().is_choro() {
            (2, 2 * pos.width())
        } else {
            (1, geometry::ADJ_HOLES)
        };
        for (s, side) in [Side::A, Side::B].into_iter().enumerate().take(sides) {
            for p in 0..len {
                counts[s][p as usize] = pos.loop_count(side, p);
            }
        }
        Board {
            pos: *pos,
            counts,
            stores: pos.stores(),
        }
    }

    fn choro(&self) -> bool {
        self.pos.variant().is_choro()
    }

    /// Loop positions per side (Adjiboto: the ring, side 0 only).
    fn len(&self) -> u8 {
        if self.choro() {
            2 * self.pos.width()
        } else {
            geometry::ADJ_HOLES
        }
    }

    /// The owner, hole name and (row, column) of loop position `p` of `s`.
    fn hole(&self, s: usize, p: u8) -> (Side, String, u8, u8) {
        let w = self.pos.width();
        if self.choro() {
            let side = if s == 0 { Side::A } else { Side::B };
            let n = geometry::number_of_pos(p, w);
            let name = if w == 8 {
                ((b'a' + n - 1) as char).to_string()
            } else {
                n.to_string()
            };
            let (row, col) = geometry::row_col(side, p, w);
            (side, name, row, col)
        } else if p < 5 {
            (Side::A, (p + 1).to_string(), 0, p)
        } else {
            (Side::B, (p - 4).to_string(), 1, 9 - p)
        }
    }

    /// The board field: Choro's four rows north to south, or Adjiboto's
    /// north and south rows, as in the position string; then the stores.
    fn field(&self) -> String {
        let w = self.pos.width();
        let rows: Vec<String> = if self.choro() {
            (0..4u8)
                .rev()
                .map(|row| {
                    (0..w)
                        .map(|col| {
                            let (side, p) = geometry::hole_at(row, col, w);
                            self.counts[side.index()][p as usize].to_string()
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect()
        } else {
            [(5u8..10).rev().collect::<Vec<_>>(), (0u8..5).collect()]
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&p| self.counts[0][p as usize].to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect()
        };
        format!("{} {}/{}", rows.join("/"), self.stores[0], self.stores[1])
    }

    fn step(&self, kind: &str, s: usize, p: u8, n: u8) -> String {
        let (side, name, row, col) = self.hole(s, p);
        let side = if side == Side::A { "a" } else { "b" };
        format!(
            "trace {kind} {side} {name} {row} {col} {n} {}",
            self.field()
        )
    }

    /// Lines for every hole that changed from `self` to `to`, in the order
    /// the counters move: taken from the opponent, taken from the mover,
    /// then put down by the mover. Between laps the mover's counters taken
    /// are lifts; after the last lap (Adjiboto) everything taken is captured.
    /// `rise` names a hole that gained: `put`, or `drop` (one counter sown;
    /// its line gives the count after it).
    fn changes(
        &mut self,
        to: &LapBoard,
        mover: usize,
        after_laps: bool,
        rise: &str,
        out: &mut Vec<String>,
    ) {
        let choro = self.choro();
        let sides: &[usize] = if choro { &[0, 1] } else { &[0] };
        let len = self.len();
        let owner = |s: usize, p: u8| if choro { s } else { (p >= 5) as usize };
        let order = [
            (1 - mover, false),
            (mover, false),
            (mover, true),
            (1 - mover, true),
        ];
        for (who, up) in order {
            for &s in sides {
                for p in 0..len {
                    let (from, now) = (self.counts[s][p as usize], to[s][p as usize]);
                    if owner(s, p) != who || (now > from) != up || now == from {
                        continue;
                    }
                    self.counts[s][p as usize] = now;
                    let kind = match (now > from, who == mover && !after_laps) {
                        (true, _) => rise,
                        (false, true) => "lift",
                        (false, false) => "capture",
                    };
                    if after_laps && kind == "capture" && !choro {
                        // Adjiboto's captures go to the mover's store.
                        self.stores[mover] += from - now;
                    }
                    let n = if kind == "drop" {
                        now
                    } else {
                        from.abs_diff(now)
                    };
                    out.push(self.step(kind, s, p, n));
                }
            }
        }
    }
}

/// The lines of `trace <m>` in `pos`, or why `m` cannot be played.
pub fn lines(pos: &Position, m: &Move) -> Result<Vec<String>, MoveError> {
    let next = pos.play(m)?;
    let mut out = Vec::new();
    if let Some(laps) = pos.trace_boards(m) {
        let mut b = Board::new(pos);
        let mover = pos.side_to_move().index();
        let len = b.len();
        // Loop positions here are those of the mover (Adjiboto: the ring).
        let me = if b.choro() { mover } else { 0 };
        for (i, (lap, after)) in laps.iter().enumerate() {
            let mut first = lap.first;
            if b.choro() {
                first = geometry::pos_of_number(first, pos.width());
            }
            let mut drops = Vec::with_capacity(lap.hand as usize);
            let mut at = first;
            for k in 0..lap.hand {
                if k > 0 {
                    at = match lap.dir {
                        Dir::Ccw => geometry::next_pos(at, len),
                        Dir::Cw => geometry::prev_pos(at, len),
                    };
                }
                drops.push(at);
            }
            let mut before = *after;
            for &d in &drops {
                before[me][d as usize] = before[me][d as usize].saturating_sub(1);
            }
            b.changes(&before, mover, false, "put", &mut out);
            let dir = match lap.dir {
                Dir::Ccw => "ccw",
                Dir::Cw => "cw",
            };
            out.push(format!("trace lap {} {dir} hand {}", i + 1, lap.hand));
            for d in drops {
                b.counts[me][d as usize] += 1;
                out.push(b.step("drop", me, d, b.counts[me][d as usize]));
            }
        }
        // What follows the last lap (Adjiboto's captures into the store).
        let end = Board::new(&next);
        b.changes(&end.counts, mover, true, "put", &mut out);
    }
    if let Some(steps) = pos.race_trace(m) {
        let mut b = Board::new(pos);
        for st in &steps {
            let rise = if st.drop { "drop" } else { "put" };
            b.changes(&st.board, st.racer.index(), false, rise, &mut out);
        }
        // Past the steps recorded (a race that runs to the lap budget).
        let end = Board::new(&next);
        b.changes(
            &end.counts,
            pos.side_to_move().index(),
            true,
            "put",
            &mut out,
        );
    }
    out.push(format!("trace end {next}"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    /// A Didinga relay: each drop line adds one counter to its hole, and the
    /// last board is the position `moves` gives.
    #[test]
    fn drops_add_one_and_the_trace_ends_on_the_move_result() {
        let p: Position =
            "didinga:8 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 a o2 0"
                .parse()
                .unwrap();
        let m: Move = "l".parse().unwrap();
        let l = lines(&p, &m).unwrap();
        assert!(l[0].starts_with("trace lift a l 0 1 2 "), "{}", l[0]);
        assert_eq!(l[1], "trace lap 1 ccw hand 2");
        assert!(l[2].starts_with("trace drop a m 0 2 3 "), "{}", l[2]);
        let end = l.last().unwrap();
        assert_eq!(end, &format!("trace end {}", p.play(&m).unwrap()));
    }
}
