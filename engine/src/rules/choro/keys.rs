//! What the Choro codes' generators share besides the rules: the hash's
//! key sums for a lap and the non-board parts of a position's hash, and the
//! capturing holes of the facing rule of Didinga and Acholi (RULINGS 3).

use crate::board::{zobrist, Position};
use crate::types::packed::MAX_HAND;
use crate::types::{Phase, Side, Variant};
use std::sync::OnceLock;

/// The mover's loop positions that capture when a lap ends there on an
/// occupied hole, given the opponent's occupied holes `opp_occ` (RULINGS 3:
/// both facing holes hold counters): (front row, back row). The back-row set
/// applies only in the opening, before the mover reaches his front row.
#[inline]
pub(crate) fn capture_sets(opp_occ: u32, w: u8) -> (u32, u32) {
    let low = (1u32 << w) - 1;
    // Bit k of `rev` is the opponent's hole 2W-1-k (on an 8-wide board
    // from a table by byte: the baseline target reverses bits in about 20
    // instructions).
    let rev = if w == 8 {
        (REVERSED[(opp_occ & 0xff) as usize] as u32) << 8
            | REVERSED[(opp_occ >> 8 & 0xff) as usize] as u32
    } else {
        opp_occ.reverse_bits() >> (32 - 2 * w)
    };
    (
        (rev & opp_occ & low) << w,
        (opp_occ >> w) & (rev >> w) & low,
    )
}

/// `REVERSED[b]`: the byte `b` with its bits in reverse order.
static REVERSED: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).reverse_bits();
        b += 1;
    }
    t
};

/// Key sums of a player's loop of `len` holes walked round and round:
/// `t[i]` is the sum of the keys of the first `i` holes so walked, so the
/// board hash grows by `t[first + hand] - t[first]` when `hand` counters are
/// sown from `first`, however often they wrap. Indices stay below 256: a
/// lap starts below 32 and sows at most 8W <= 128 counters. For the loops
/// of 16 to 32 holes (W = 8..=16); built once, without the heap.
pub(crate) fn run_keys(side: usize, len: u8) -> &'static [u64; 256] {
    type Table = [[[u64; 256]; 9]; 2];
    static TABLE: OnceLock<Table> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t: Table = [[[0; 256]; 9]; 2];
        for (s, side) in t.iter_mut().enumerate() {
            for (k, row) in side.iter_mut().enumerate() {
                let len = 16 + 2 * k;
                for i in 1..256 {
                    row[i] = row[i - 1].wrapping_add(zobrist::HOLE[s][(i - 1) % len]);
                }
            }
        }
        t
    });
    &t[side][(len as usize - 16) / 2]
}

/// For a loop of `len` holes (16 to 32), `t[l][v]`: how the board hash
/// changes when the `v` counters of hole `l` are lifted and sown from the
/// next hole (`v` up to 255 for an index without a bounds test; a hand
/// holds at most 128). Built once per length, without the heap.
pub(crate) fn relay_keys(side: usize, len: u8) -> &'static [[u64; 256]; 32] {
    type Table = [[[u64; 256]; 32]; 2];
    static TABLES: [OnceLock<Table>; 9] = [const { OnceLock::new() }; 9];
    let t = TABLES[(len as usize - 16) / 2].get_or_init(|| {
        let mut t: Table = [[[0; 256]; 32]; 2];
        for (s, side) in t.iter_mut().enumerate() {
            let run = run_keys(s, len);
            for (l, row) in side.iter_mut().enumerate().take(len as usize) {
                for (v, d) in row.iter_mut().enumerate().take(MAX_HAND + 1) {
                    *d = run[l + 1 + v]
                        .wrapping_sub(run[l + 1])
                        .wrapping_sub((v as u64).wrapping_mul(zobrist::HOLE[s][l]));
                }
            }
        }
        t
    });
    &t[side]
}

/// The non-board parts of the hashes of `pos` and of its children: for the
/// Choro codes (no stores, no Adjiboto history) from a table, since every
/// call of the generator needs both.
pub(crate) fn meta_hashes(pos: &Position) -> (u64, u64) {
    let child_meta = |p: &Position| {
        zobrist::meta(
            p.variant,
            p.width,
            p.side.other(),
            p.phase.next(),
            p.stores,
            [p.hist[0].0, p.hist[1].0],
        )
    };
    if pos.stores != [0, 0] || pos.hist[0].0 != 0 || pos.hist[1].0 != 0 || pos.width > 16 {
        return (pos.meta_hash(), child_meta(pos));
    }
    static TABLE: OnceLock<[u64; 4 * 17 * 2 * 3]> = OnceLock::new();
    const PHASES: [Phase; 3] = [Phase::Opening2, Phase::Opening1, Phase::Main];
    let index = |v: Variant, w: u8, s: Side, ph: Phase| {
        ((v as usize * 17 + w as usize) * 2 + s as usize) * 3 + ph as usize
    };
    let t = TABLE.get_or_init(|| {
        let mut t = [0u64; 4 * 17 * 2 * 3];
        for v in Variant::ALL {
            for w in 0..=16u8 {
                for s in [Side::A, Side::B] {
                    for ph in PHASES {
                        t[index(v, w, s, ph)] = zobrist::meta(v, w, s, ph, [0, 0], [0, 0]);
                    }
                }
            }
        }
        t
    });
    (
        t[index(pos.variant, pos.width, pos.side, pos.phase)],
        t[index(pos.variant, pos.width, pos.side.other(), pos.phase.next())],
    )
}

/// [`meta_hashes`] of a Choro position without stores or history (all of
/// them in play) in a sequential phase, from a table by (code, width, side,
/// phase) that holds both values: one lookup a node, for the generators of
/// every Choro code (Didinga's and Lango and Acholi's). `CODE`: the position's
/// code, `Variant as usize` (a constant, so that the lookup does not index
/// by it).
#[inline]
pub(crate) fn meta_pair<const CODE: usize>(pos: &Position) -> (u64, u64) {
    type Table = [[[[(u64, u64); 3]; 2]; 17]; 3];
    static TABLE: OnceLock<Table> = OnceLock::new();
    let ph = pos.phase as usize;
    if pos.stores != [0, 0] || pos.hist[0].0 != 0 || pos.hist[1].0 != 0 || ph >= 3 {
        return meta_hashes(pos);
    }
    let t = TABLE.get_or_init(|| {
        let mut t: Table = [[[[(0, 0); 3]; 2]; 17]; 3];
        for (v, by_width) in t.iter_mut().enumerate() {
            for (w, by_side) in by_width.iter_mut().enumerate().skip(8) {
                for (s, by_phase) in by_side.iter_mut().enumerate() {
                    for (ph, e) in by_phase.iter_mut().enumerate() {
                        // Didinga, Lango, Acholi: the Choro codes.
                        let code = Variant::ALL[v];
                        let side = [Side::A, Side::B][s];
                        let phase = [Phase::Opening2, Phase::Opening1, Phase::Main][ph];
                        let meta =
                            |side, phase| zobrist::meta(code, w as u8, side, phase, [0, 0], [0, 0]);
                        *e = (meta(side, phase), meta(side.other(), phase.next()));
                    }
                }
            }
        }
        t
    });
    debug_assert_eq!(pos.variant as usize, CODE);
    let e = t[CODE][pos.width as usize][pos.side.index()][ph];
    debug_assert_eq!(e, meta_hashes(pos));
    e
}
