//! Loop geometry of the Choro boards (RULINGS section 1) and of Adjiboto.
//!
//! Each Choro player owns `2W` holes, indexed here by *loop position*
//! `0..2W` in his counter-clockwise order, starting at his back-row leftmost
//! hole (Driberg's `k` when W = 8). Positions `0..W` are his back row (going
//! to his right), `W..2W` his front row (going to his left). Because B's loop
//! is A's turned 180 degrees, every formula below is the same for both
//! players. Driberg's letters and the numeric notation count from `a`
//! (number 1), the back-row hole second from the player's right.

/// Loop position of the player's own hole with Driberg number `n` (1-based).
#[inline]
pub fn pos_of_number(n: u8, w: u8) -> u8 {
    let len = 2 * w as u16;
    ((n as u16 - 1 + w as u16 - 2) % len) as u8
}

/// Driberg number (1-based) of loop position `p`.
#[inline]
pub fn number_of_pos(p: u8, w: u8) -> u8 {
    let len = 2 * w as u16;
    ((p as u16 + w as u16 + 2) % len) as u8 + 1
}

/// The loop position after `h` (counter-clockwise) in a loop of `len`.
#[inline]
pub fn next_pos(h: u8, len: u8) -> u8 {
    if h + 1 == len {
        0
    } else {
        h + 1
    }
}

/// The loop position before `h` (clockwise) in a loop of `len`.
#[inline]
pub fn prev_pos(h: u8, len: u8) -> u8 {
    if h == 0 {
        len - 1
    } else {
        h - 1
    }
}

/// True when loop position `p` is in the player's front row.
#[inline]
pub(crate) fn is_front(p: u8, w: u8) -> bool {
    p >= w
}

/// The opponent's holes facing loop position `p` of the mover, as
/// (opponent front, opponent back) loop positions of the opponent.
#[inline]
pub const fn facing(p: u8, w: u8) -> (u8, u8) {
    if p >= w {
        // Front row at column x (A: x = 2W-1-p): opponent front W+x, back W-1-x.
        (3 * w - 1 - p, p - w)
    } else {
        (w + p, w - 1 - p)
    }
}

/// Board (row, column) of a player's loop position; rows 0..3 as RULINGS 1.
pub fn row_col(side: crate::Side, p: u8, w: u8) -> (u8, u8) {
    match side {
        crate::Side::A => {
            if p < w {
                (0, p)
            } else {
                (1, 2 * w - 1 - p)
            }
        }
        crate::Side::B => {
            if p < w {
                (3, w - 1 - p)
            } else {
                (2, p - w)
            }
        }
    }
}

/// Inverse of [`row_col`]: the owner and loop position of board (row, column).
pub fn hole_at(row: u8, col: u8, w: u8) -> (crate::Side, u8) {
    match row {
        0 => (crate::Side::A, col),
        1 => (crate::Side::A, 2 * w - 1 - col),
        2 => (crate::Side::B, w + col),
        _ => (crate::Side::B, w - 1 - col),
    }
}

/// Bitmask of the front-row loop positions.
#[inline]
pub(crate) fn front_mask(w: u8) -> u32 {
    let all = loop_mask(2 * w);
    all & !((1u32 << w) - 1)
}

/// Bitmask of the first `n` loop positions.
#[inline]
pub(crate) fn loop_mask(n: u8) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Turning base i, j, k, l (Lango) as loop positions.
#[inline]
pub(crate) fn lango_base(w: u8) -> u32 {
    (1 << (2 * w - 2)) | (1 << (2 * w - 1)) | 1 | 2
}

/// Acholi's clockwise holes i (front, second from left) and k (back, leftmost).
#[inline]
pub(crate) fn acholi_base(w: u8) -> u32 {
    (1 << (2 * w - 2)) | 1
}

/// Loop position of Driberg's `k`, the back-row leftmost hole.
pub(crate) const K_POS: u8 = 0;

/// Adjiboto: 10 holes in one loop; A owns 0..5 (west to east), B 5..10 (east to west).
pub const ADJ_HOLES: u8 = 10;

/// Adjiboto: loop index of `side`'s hole number `n` (1..=5, from his left).
#[inline]
pub(crate) fn adj_pos(side: crate::Side, n: u8) -> u8 {
    n - 1 + 5 * side.index() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(c: char) -> u8 {
        c as u8 - b'a' + 1
    }

    #[test]
    fn driberg_facing_checks() {
        // RULINGS 1: A's d faces B's i and l; A's n faces B's f and o; A's f faces g and n.
        for (mine, front, back) in [('d', 'i', 'l'), ('n', 'f', 'o'), ('f', 'g', 'n')] {
            let p = pos_of_number(letter(mine), 8);
            let (of, ob) = facing(p, 8);
            assert_eq!(number_of_pos(of, 8), letter(front), "{mine} front");
            assert_eq!(number_of_pos(ob, 8), letter(back), "{mine} back");
        }
    }

    #[test]
    fn letters_sit_where_driberg_puts_them() {
        let w = 8;
        // a: back row second from A's right (east) = row 0 column 6.
        assert_eq!(row_col(crate::Side::A, pos_of_number(1, w), w), (0, 6));
        // b: back rightmost; c: front rightmost; j: front leftmost; k: back leftmost.
        assert_eq!(row_col(crate::Side::A, pos_of_number(2, w), w), (0, 7));
        assert_eq!(row_col(crate::Side::A, pos_of_number(3, w), w), (1, 7));
        assert_eq!(row_col(crate::Side::A, pos_of_number(10, w), w), (1, 0));
        assert_eq!(row_col(crate::Side::A, pos_of_number(11, w), w), (0, 0));
        // B is turned 180 degrees: his a is row 3 column 1.
        assert_eq!(row_col(crate::Side::B, pos_of_number(1, w), w), (3, 1));
        assert_eq!(row_col(crate::Side::B, pos_of_number(3, w), w), (2, 0));
    }

    #[test]
    fn facing_is_the_same_column_for_every_width() {
        for w in 8..=16u8 {
            for p in 0..2 * w {
                let (r, c) = row_col(crate::Side::A, p, w);
                let (of, ob) = facing(p, w);
                let (rf, cf) = row_col(crate::Side::B, of, w);
                let (rb, cb) = row_col(crate::Side::B, ob, w);
                assert_eq!((cf, cb), (c, c));
                assert_eq!((rf, rb), (2, 3), "row {r}");
                assert_eq!(hole_at(r, c, w), (crate::Side::A, p));
                assert_eq!(pos_of_number(number_of_pos(p, w), w), p);
            }
        }
    }
}
