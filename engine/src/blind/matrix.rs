//! Exact solver for two-player zero-sum matrix games, used to choose the
//! blind start hole of a simultaneous opening: the row player (A, who
//! maximises) picks one of `m` holes, the column player (B, who minimises)
//! one of `n`, and cell `a[i][j]` is a search value from A's point of view.
//!
//! # Method
//!
//! 1. **Pure saddle point.** If `max_i min_j a[i][j] == min_j max_i a[i][j]`
//!    (compared exactly, on the input), the maximin row and the minimax
//!    column are optimal pure strategies and the value is that entry. They
//!    are returned with probability exactly `1.0`, so a unique saddle point
//!    always comes out pure.
//! 2. **Scale and shift.** Otherwise the payoffs are divided by the largest
//!    absolute entry `s` (mate scores near ±30000 then sit in [-1, 1] next to
//!    the small ones, and one tolerance fits every input) and shifted by
//!    `c = 1 - min` so that every entry of `B = a / s + c` lies in [1, 3]. The
//!    game `B` has the same optimal strategies and a positive value
//!    `v_B = v / s + c`.
//! 3. **Linear program.** The column player's problem is the LP
//!    `maximise sum(y)  subject to  B y <= 1, y >= 0`, whose optimum is
//!    `1 / v_B` at `y = q / v_B` (`q` the column strategy). Its dual,
//!    `minimise sum(x)  subject to  B^T x >= 1, x >= 0`, is the row player's
//!    problem with `x = p / v_B`. It is solved by the tableau simplex method
//!    from the all-slack basis (feasible, since the right-hand side is 1),
//!    with **Bland's rule** (the entering column is the lowest-indexed one
//!    with a negative reduced cost; ties in the ratio test go to the
//!    lowest-indexed basic variable), so degenerate games cannot cycle. The
//!    tolerance is `1e-9`, relative to the scaled matrix.
//! 4. **Both strategies from the final tableau.** `y` is read from the basic
//!    rows, `x` from the objective row's reduced costs of the slack columns
//!    (the optimal duals).
//! 5. **Cleaning.** Negatives and entries below the tolerance are set to 0
//!    and each strategy is renormalised to sum 1 (a strategy with a single
//!    positive entry becomes exactly 1.0 there). The value is `p^T a q` on
//!    the original matrix, which lies between the row player's guarantee
//!    `min_j (p^T a)_j` and the column player's `max_i (a q)_i`.

/// Tolerance of the simplex method and of the cleaning, relative to the
/// scaled matrix (entries in [1, 3]).
const TOL: f64 = 1e-9;

/// Pivots before the simplex gives up. Bland's rule terminates in exact
/// arithmetic; this only guards against rounding making it wander, far
/// beyond anything a 16 x 16 game needs.
const MAX_PIVOTS: usize = 100_000;

/// An equilibrium of a zero-sum matrix game: `row` and `col` are mixed
/// strategies (probabilities summing to 1), `value` the row player's payoff.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    pub row: Vec<f64>,
    pub col: Vec<f64>,
    pub value: f64,
}

/// Solve the game with payoff `a[i][j]` to the row player (who maximises).
///
/// Returns optimal mixed strategies for both players and the game value (see
/// the module documentation for the method). Every finite matrix has a
/// solution.
///
/// # Panics
///
/// If `a` has no rows, its first row is empty, its rows differ in length
/// (ragged), or an entry is not finite.
pub fn solve(a: &[Vec<f64>]) -> Equilibrium {
    let m = a.len();
    assert!(m > 0, "matrix game: no rows");
    let n = a[0].len();
    assert!(n > 0, "matrix game: no columns");
    for (i, r) in a.iter().enumerate() {
        assert!(
            r.len() == n,
            "matrix game: ragged matrix (row {i} has {} entries, row 0 has {n})",
            r.len()
        );
        assert!(
            r.iter().all(|x| x.is_finite()),
            "matrix game: non-finite entry in row {i}"
        );
    }
    saddle_point(a).unwrap_or_else(|| solve_lp(a))
}

/// Index drawn from the distribution `p` by a uniform number `u` in [0,1)
/// (cumulative; robust to rounding: always returns an index with p > 0).
///
/// Index `i` is returned for `u` in `[p_0 + .. + p_{i-1}, p_0 + .. + p_i)`.
/// Entries that are not positive are never returned; `u` past the total
/// (a sum short of 1 by rounding, `u >= 1`, NaN) gives the last positive
/// index, `u < 0` the first.
///
/// # Panics
///
/// If no entry of `p` is positive (in particular if `p` is empty).
pub fn sample(p: &[f64], u: f64) -> usize {
    let mut acc = 0.0;
    let mut last = None;
    for (i, &pi) in p.iter().enumerate() {
        if pi > 0.0 {
            acc += pi;
            if u < acc {
                return i;
            }
            last = Some(i);
        }
    }
    last.expect("sample: no positive probability")
}

/// The pure equilibrium when maximin equals minimax exactly.
fn saddle_point(a: &[Vec<f64>]) -> Option<Equilibrium> {
    let (m, n) = (a.len(), a[0].len());
    // Maximin row: the first row whose minimum is largest.
    let mut best_row = 0;
    let mut lo = f64::NEG_INFINITY;
    for (i, r) in a.iter().enumerate() {
        let row_min = r.iter().copied().fold(f64::INFINITY, f64::min);
        if row_min > lo {
            lo = row_min;
            best_row = i;
        }
    }
    // Minimax column: the first column whose maximum is smallest.
    let mut best_col = 0;
    let mut hi = f64::INFINITY;
    for j in 0..n {
        let col_max = a.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max);
        if col_max < hi {
            hi = col_max;
            best_col = j;
        }
    }
    (lo == hi).then(|| Equilibrium {
        row: pure(m, best_row),
        col: pure(n, best_col),
        value: a[best_row][best_col],
    })
}

fn pure(len: usize, at: usize) -> Vec<f64> {
    let mut v = vec![0.0; len];
    v[at] = 1.0;
    v
}

/// The LP route (steps 2 to 5 of the module documentation), for any
/// non-empty rectangular finite matrix, saddle point or not.
fn solve_lp(a: &[Vec<f64>]) -> Equilibrium {
    let (m, n) = (a.len(), a[0].len());
    let scale = a.iter().flatten().fold(0.0f64, |s, &x| s.max(x.abs()));
    if scale == 0.0 {
        // All zero: anything is optimal.
        return Equilibrium {
            row: pure(m, 0),
            col: pure(n, 0),
            value: 0.0,
        };
    }
    let min = a
        .iter()
        .flatten()
        .fold(f64::INFINITY, |s, &x| s.min(x / scale));
    let shift = 1.0 - min;

    // Tableau: `m` constraint rows over `n` structural columns (y), `m` slack
    // columns and the right-hand side; the objective row holds the reduced
    // costs (`-1` for y, 0 for the slacks at the start) and the objective.
    let width = n + m + 1;
    let rhs = n + m;
    let mut t = vec![0.0; m * width];
    for (i, r) in a.iter().enumerate() {
        let row = &mut t[i * width..(i + 1) * width];
        for (cell, &x) in row.iter_mut().zip(r) {
            *cell = x / scale + shift;
        }
        row[n + i] = 1.0;
        row[rhs] = 1.0;
    }
    let mut obj = vec![0.0; width];
    obj[..n].fill(-1.0);
    let mut basis: Vec<usize> = (n..n + m).collect();

    for _ in 0..MAX_PIVOTS {
        // Bland: the lowest-indexed improving column (that has a usable
        // pivot; one without would mean an unbounded LP, impossible with
        // positive entries, so it can only be rounding noise).
        let Some(e) = (0..n + m).find(|&k| obj[k] < -TOL && (0..m).any(|i| t[i * width + k] > TOL))
        else {
            break;
        };
        // Ratio test, ties to the lowest-indexed basic variable.
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let piv = t[i * width + e];
            if piv <= TOL {
                continue;
            }
            let ratio = t[i * width + rhs] / piv;
            leave = match leave {
                None => Some((i, ratio)),
                Some((l, best)) => {
                    if ratio < best - TOL || (ratio <= best + TOL && basis[i] < basis[l]) {
                        Some((i, ratio.min(best)))
                    } else {
                        Some((l, best))
                    }
                }
            };
        }
        let (l, _) = leave.expect("an entering column has a positive entry");
        pivot(&mut t, &mut obj, width, l, e);
        basis[l] = e;
    }

    let mut y = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            y[b] = t[i * width + rhs];
        }
    }
    let x = obj[n..n + m].to_vec();
    let row = clean(x);
    let col = clean(y);
    let value = row
        .iter()
        .zip(a)
        .map(|(&pi, r)| pi * r.iter().zip(&col).map(|(&aij, &qj)| aij * qj).sum::<f64>())
        .sum();
    Equilibrium { row, col, value }
}

/// Pivot on row `l`, column `e`.
fn pivot(t: &mut [f64], obj: &mut [f64], width: usize, l: usize, e: usize) {
    let m = t.len() / width;
    let piv = t[l * width + e];
    let prow: Vec<f64> = t[l * width..(l + 1) * width]
        .iter()
        .map(|&x| x / piv)
        .collect();
    t[l * width..(l + 1) * width].copy_from_slice(&prow);
    t[l * width + e] = 1.0;
    let eliminate = |row: &mut [f64]| {
        let f = row[e];
        if f != 0.0 {
            for (c, &p) in row.iter_mut().zip(&prow) {
                *c -= f * p;
            }
            row[e] = 0.0;
        }
    };
    for i in (0..m).filter(|&i| i != l) {
        let row = &mut t[i * width..(i + 1) * width];
        eliminate(row);
        // Keep the basis primal feasible against rounding.
        let last = width - 1;
        if row[last] < 0.0 {
            row[last] = 0.0;
        }
    }
    eliminate(obj);
}

/// Clamp negatives and noise to 0 and renormalise to a distribution.
fn clean(mut v: Vec<f64>) -> Vec<f64> {
    let total: f64 = v.iter().filter(|&&x| x > 0.0).sum();
    if total.is_nan() || total <= 0.0 {
        // Unreachable for a finished simplex (sum(y) = sum(x) = 1 / v_B > 0).
        let len = v.len();
        return vec![1.0 / len as f64; len];
    }
    for x in v.iter_mut() {
        if *x / total <= TOL {
            *x = 0.0;
        }
    }
    let total: f64 = v.iter().sum();
    for x in v.iter_mut() {
        *x /= total;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat(rows: &[&[f64]]) -> Vec<Vec<f64>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    fn assert_close(got: &[f64], want: &[f64], eps: f64) {
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= eps, "{got:?} vs {want:?}");
        }
    }

    fn assert_distribution(p: &[f64]) {
        assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)), "{p:?}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() <= 1e-12, "{p:?}");
    }

    /// The row strategy guarantees at least `value`, the column strategy
    /// concedes at most `value`, both within `eps`.
    fn certify(a: &[Vec<f64>], e: &Equilibrium, eps: f64) {
        assert_distribution(&e.row);
        assert_distribution(&e.col);
        let (m, n) = (a.len(), a[0].len());
        assert_eq!((e.row.len(), e.col.len()), (m, n));
        let guarantee = (0..n)
            .map(|j| (0..m).map(|i| e.row[i] * a[i][j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        let concession = (0..m)
            .map(|i| (0..n).map(|j| a[i][j] * e.col[j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            guarantee >= e.value - eps,
            "row guarantees {guarantee} < value {} in {a:?}: {e:?}",
            e.value
        );
        assert!(
            concession <= e.value + eps,
            "column concedes {concession} > value {} in {a:?}: {e:?}",
            e.value
        );
    }

    #[test]
    fn matching_pennies() {
        let a = mat(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let e = solve(&a);
        assert_close(&e.row, &[0.5, 0.5], 1e-12);
        assert_close(&e.col, &[0.5, 0.5], 1e-12);
        assert!(e.value.abs() <= 1e-12);
        certify(&a, &e, 1e-12);
    }

    #[test]
    fn strictly_dominated_row_gets_zero() {
        // Row 2 is strictly dominated by row 0. On the rest, the row player
        // mixes 1/2-1/2 (columns 0 and 1 cross at p = 1/2, value 1/2); the
        // column player answers with 3/8 on column 0 and 5/8 on column 1
        // (4q - 1 = 2 - 4q); column 2 would concede 3/2 and is unused.
        let a = mat(&[&[3.0, -1.0, 2.0], &[-2.0, 2.0, 1.0], &[1.0, -3.0, 0.0]]);
        let e = solve(&a);
        assert_eq!(e.row[2], 0.0);
        assert_eq!(e.col[2], 0.0);
        assert_close(&e.row, &[0.5, 0.5, 0.0], 1e-12);
        assert_close(&e.col, &[3.0 / 8.0, 5.0 / 8.0, 0.0], 1e-12);
        assert!((e.value - 0.5).abs() <= 1e-12);
        certify(&a, &e, 1e-12);
    }

    #[test]
    fn pure_saddle_point() {
        // Entry (1, 2) = 2 is the minimum of its row and the maximum of its
        // column, and the only such entry.
        let a = mat(&[&[1.0, 5.0, 0.0], &[4.0, 3.0, 2.0], &[-1.0, 6.0, 1.0]]);
        let e = solve(&a);
        assert_eq!(
            e,
            Equilibrium {
                row: vec![0.0, 1.0, 0.0],
                col: vec![0.0, 0.0, 1.0],
                value: 2.0
            }
        );
        // The simplex alone finds it too.
        let lp = solve_lp(&a);
        assert_close(&lp.row, &[0.0, 1.0, 0.0], 1e-12);
        assert_close(&lp.col, &[0.0, 0.0, 1.0], 1e-12);
        assert!((lp.value - 2.0).abs() <= 1e-12);
    }

    #[test]
    fn rock_paper_scissors() {
        let a = mat(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
        let e = solve(&a);
        let third = 1.0 / 3.0;
        assert_close(&e.row, &[third; 3], 1e-12);
        assert_close(&e.col, &[third; 3], 1e-12);
        assert!(e.value.abs() <= 1e-12);
        certify(&a, &e, 1e-12);
    }

    #[test]
    fn non_symmetric_two_by_three() {
        // Row p on row 0: columns pay 5p - 1, p, 3 - 5p; the lower envelope
        // peaks where p = 3 - 5p, at p = 1/2, value 1/2 (column 0 would give
        // 3/2 there). The column player mixes q on column 1 and 1 - q on
        // column 2 with 3q - 2 = 3 - 3q: q = 5/6.
        let a = mat(&[&[4.0, 1.0, -2.0], &[-1.0, 0.0, 3.0]]);
        let e = solve(&a);
        assert_close(&e.row, &[0.5, 0.5], 1e-12);
        assert_close(&e.col, &[0.0, 5.0 / 6.0, 1.0 / 6.0], 1e-12);
        assert_eq!(e.col[0], 0.0);
        assert!((e.value - 0.5).abs() <= 1e-12);
        certify(&a, &e, 1e-12);
    }

    #[test]
    fn one_by_one_one_by_n_and_m_by_one() {
        assert_eq!(
            solve(&mat(&[&[-7.0]])),
            Equilibrium {
                row: vec![1.0],
                col: vec![1.0],
                value: -7.0
            }
        );
        // One row: the column player takes the smallest entry.
        let e = solve(&mat(&[&[3.0, -1.0, 4.0, 1.0]]));
        assert_eq!(
            e,
            Equilibrium {
                row: vec![1.0],
                col: vec![0.0, 1.0, 0.0, 0.0],
                value: -1.0
            }
        );
        // One column: the row player takes the largest entry.
        let e = solve(&mat(&[&[3.0], &[-1.0], &[4.0], &[1.0]]));
        assert_eq!(
            e,
            Equilibrium {
                row: vec![0.0, 0.0, 1.0, 0.0],
                col: vec![1.0],
                value: 4.0
            }
        );
        // Ties: any minimum, but only minima.
        let a = mat(&[&[2.0, -1.0, 5.0, -1.0]]);
        let e = solve(&a);
        assert_eq!(e.value, -1.0);
        assert_eq!(e.col[0] + e.col[2], 0.0);
        certify(&a, &e, 0.0);
    }

    #[test]
    fn constant_matrix() {
        for c in [0.0, 12.0, -30000.0] {
            let a = vec![vec![c; 4]; 3];
            let e = solve(&a);
            assert_eq!(e.value, c);
            certify(&a, &e, 0.0);
            let lp = solve_lp(&a);
            assert!((lp.value - c).abs() <= 1e-9 * c.abs().max(1.0));
            certify(&a, &lp, 1e-9 * c.abs().max(1.0));
        }
    }

    #[test]
    fn mate_sized_entries() {
        // Row p on row 0: column 0 pays 29990(2p - 1), column 1 7 - 12p; they
        // meet at p = 29997/59992. Column q on column 0: 29995q - 5 =
        // 7 - 29997q, q = 12/59992. Value 59980/59992.
        let a = mat(&[&[29990.0, -5.0], &[-29990.0, 7.0]]);
        let e = solve(&a);
        let p = 29997.0 / 59992.0;
        let q = 12.0 / 59992.0;
        assert_close(&e.row, &[p, 1.0 - p], 1e-12);
        assert_close(&e.col, &[q, 1.0 - q], 1e-12);
        assert!((e.value - 59980.0 / 59992.0).abs() <= 1e-9, "{e:?}");
        certify(&a, &e, 1e-8);

        // Matching pennies hidden among mates: the mate row and column are
        // dominated (row 2 loses to a mate everywhere, column 2 concedes one).
        let a = mat(&[
            &[3.0, -3.0, 29990.0],
            &[-3.0, 3.0, 29990.0],
            &[-29990.0, -29990.0, -29990.0],
        ]);
        let e = solve(&a);
        assert_close(&e.row, &[0.5, 0.5, 0.0], 1e-12);
        assert_close(&e.col, &[0.5, 0.5, 0.0], 1e-12);
        assert!(e.value.abs() <= 1e-9, "{e:?}");
        certify(&a, &e, 1e-8);

        // Both mates on the board: a game of guessing where the mate is.
        // Symmetric 2x2 with entries ±29990: 1/2 each, value 0.
        let a = mat(&[&[29990.0, -29990.0], &[-29990.0, 29990.0]]);
        let e = solve(&a);
        assert_close(&e.row, &[0.5, 0.5], 1e-12);
        assert_close(&e.col, &[0.5, 0.5], 1e-12);
        assert!(e.value.abs() <= 1e-9, "{e:?}");
    }

    #[test]
    fn random_games_are_certified() {
        let mut rng = crate::rng::Rng::new(0x2545_f491_4f6c_dd1d);
        for case in 0..600 {
            let m = rng.range(1, 16) as usize;
            let n = rng.range(1, 16) as usize;
            // Small integers (many ties, degenerate LPs), search-sized values,
            // and search values with mates mixed in.
            let kind = case % 3;
            let a: Vec<Vec<f64>> = (0..m)
                .map(|_| {
                    (0..n)
                        .map(|_| match kind {
                            0 => rng.range(-3, 3) as f64,
                            1 => rng.range(-2000, 2000) as f64,
                            _ => match rng.range(0, 5) {
                                0 => 29990.0 - rng.range(0, 40) as f64,
                                1 => -29990.0 + rng.range(0, 40) as f64,
                                _ => rng.range(-500, 500) as f64,
                            },
                        })
                        .collect()
                })
                .collect();
            let scale = a.iter().flatten().fold(1.0f64, |s, &x| s.max(x.abs()));
            let eps = 1e-8 * scale;
            let e = solve(&a);
            certify(&a, &e, eps);
            // The simplex on its own, saddle points included.
            let lp = solve_lp(&a);
            certify(&a, &lp, eps);
            assert!(
                (lp.value - e.value).abs() <= 2.0 * eps,
                "{a:?}: {e:?} vs {lp:?}"
            );
        }
    }

    #[test]
    fn sample_boundaries() {
        let p = [0.25, 0.5, 0.25];
        assert_eq!(sample(&p, 0.0), 0);
        assert_eq!(sample(&p, 0.2499), 0);
        assert_eq!(sample(&p, 0.25), 1);
        assert_eq!(sample(&p, 0.7499), 1);
        assert_eq!(sample(&p, 0.75), 2);
        assert_eq!(sample(&p, 0.999_999_999), 2);
        // Past the total (rounding, u = 1, NaN): the last positive index.
        assert_eq!(sample(&p, 1.0), 2);
        assert_eq!(sample(&[0.3, 0.3, 0.3999999, 0.0], 0.9999999999), 2);
        assert_eq!(sample(&p, f64::NAN), 2);
        assert_eq!(sample(&[1.0], 0.5), 0);
    }

    #[test]
    fn sample_never_returns_zero_probability() {
        let p = [0.0, 0.5, 0.0, 0.0, 0.5, 0.0];
        assert_eq!(sample(&p, 0.0), 1);
        assert_eq!(sample(&p, -0.1), 1);
        assert_eq!(sample(&p, 0.5), 4);
        assert_eq!(sample(&p, 1.0), 4);
        // A pure strategy from `solve`, for every u.
        let pure = [0.0, 0.0, 1.0, 0.0];
        let mut rng = crate::rng::Rng::new(99);
        for k in 0..1000 {
            let u = if k == 0 {
                0.0
            } else {
                (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
            };
            assert_eq!(sample(&pure, u), 2);
            let i = sample(&p, u);
            assert!(p[i] > 0.0);
        }
    }

    #[test]
    #[should_panic(expected = "ragged")]
    fn ragged_matrix_panics() {
        solve(&mat(&[&[1.0, 2.0], &[3.0]]));
    }

    #[test]
    #[should_panic(expected = "no rows")]
    fn empty_matrix_panics() {
        solve(&[]);
    }

    #[test]
    #[should_panic(expected = "no columns")]
    fn empty_row_panics() {
        solve(&[vec![]]);
    }
}
