//! Exact rationals for the values of races with holds (RULES.md 8.10):
//! a tick's 2x2 matrix game has a mixed value, a fraction of the leaves'
//! -1, 0 and +1. `i128` numerator and denominator, always reduced; an
//! overflow is an error, never a wrong value.

use std::cmp::Ordering;
use std::fmt;

/// A reduced fraction `n / d`, `d > 0`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frac {
    n: i128,
    d: i128,
}

/// The error of an arithmetic step that left `i128`.
pub const OVERFLOW: &str = "a race value's fraction overflowed 128 bits";

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Frac {
    /// 0.
    pub const ZERO: Frac = Frac { n: 0, d: 1 };
    /// 1.
    pub const ONE: Frac = Frac { n: 1, d: 1 };
    /// -1.
    pub const MINUS_ONE: Frac = Frac { n: -1, d: 1 };

    /// `n / d`, reduced. Errors on a zero denominator or an overflow.
    pub fn new(n: i128, d: i128) -> Result<Frac, String> {
        if d == 0 {
            return Err("a fraction with denominator 0".into());
        }
        let g = gcd(n, d);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            n = n.checked_neg().ok_or(OVERFLOW)?;
            d = d.checked_neg().ok_or(OVERFLOW)?;
        }
        Ok(Frac { n, d })
    }

    /// An integer.
    pub fn int(i: i64) -> Frac {
        Frac { n: i as i128, d: 1 }
    }

    /// The numerator (the sign's).
    pub fn numer(self) -> i128 {
        self.n
    }

    /// The denominator, positive.
    pub fn denom(self) -> i128 {
        self.d
    }

    /// Whether the denominator is 1.
    pub fn is_integer(self) -> bool {
        self.d == 1
    }

    /// The nearest float (for the matrix game's simplex and reports).
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }

    /// The sum; an error on overflow.
    pub fn checked_add(self, o: Frac) -> Result<Frac, String> {
        let g = gcd(self.d, o.d);
        let (a, b) = (self.d / g, o.d / g);
        let n = (self.n.checked_mul(b))
            .and_then(|x| o.n.checked_mul(a).and_then(|y| x.checked_add(y)))
            .ok_or(OVERFLOW)?;
        let d = self.d.checked_mul(b).ok_or(OVERFLOW)?;
        Frac::new(n, d)
    }

    /// The negation; an error on overflow.
    pub fn checked_neg(self) -> Result<Frac, String> {
        Ok(Frac {
            n: self.n.checked_neg().ok_or(OVERFLOW)?,
            d: self.d,
        })
    }

    /// The difference; an error on overflow.
    pub fn checked_sub(self, o: Frac) -> Result<Frac, String> {
        self.checked_add(o.checked_neg()?)
    }

    /// The product; an error on overflow.
    pub fn checked_mul(self, o: Frac) -> Result<Frac, String> {
        // Cross-reduce first: smaller intermediates.
        let g1 = gcd(self.n, o.d).max(1);
        let g2 = gcd(o.n, self.d).max(1);
        let n = (self.n / g1).checked_mul(o.n / g2).ok_or(OVERFLOW)?;
        let d = (self.d / g2).checked_mul(o.d / g1).ok_or(OVERFLOW)?;
        Frac::new(n, d)
    }

    /// The quotient; an error on overflow or a division by 0.
    pub fn checked_div(self, o: Frac) -> Result<Frac, String> {
        if o.n == 0 {
            return Err("a fraction divided by 0".into());
        }
        self.checked_mul(Frac { n: o.d, d: o.n })
    }
}

/// Compare `a / b` with `c / d` (`b`, `d` > 0) without overflow: by their
/// integer parts, then the reciprocals of the remainders (a continued
/// fraction, exact).
fn cmp_parts(a: i128, b: i128, c: i128, d: i128) -> Ordering {
    let (qa, ra) = (a.div_euclid(b), a.rem_euclid(b));
    let (qc, rc) = (c.div_euclid(d), c.rem_euclid(d));
    if qa != qc {
        return qa.cmp(&qc);
    }
    match (ra == 0, rc == 0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // ra/b < rc/d  <=>  b/ra > d/rc.
        (false, false) => cmp_parts(d, rc, b, ra),
    }
}

impl Ord for Frac {
    fn cmp(&self, o: &Frac) -> Ordering {
        cmp_parts(self.n, self.d, o.n, o.d)
    }
}

impl PartialOrd for Frac {
    fn partial_cmp(&self, o: &Frac) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// `+1`, `+0`, `-1` for integers (as the cells of a blind matrix have
/// always been written), `+1/3`, `-2/5` otherwise.
impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 {
            write!(f, "{:+}", self.n)
        } else {
            write!(f, "{:+}/{}", self.n, self.d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(n: i128, d: i128) -> Frac {
        Frac::new(n, d).unwrap()
    }

    #[test]
    fn arithmetic_reduces_and_orders() {
        assert_eq!(f(2, -4), f(-1, 2));
        assert_eq!(f(1, 3).checked_add(f(1, 6)).unwrap(), f(1, 2));
        assert_eq!(f(1, 3).checked_sub(f(1, 2)).unwrap(), f(-1, 6));
        assert_eq!(f(2, 3).checked_mul(f(9, 4)).unwrap(), f(3, 2));
        assert_eq!(f(2, 3).checked_div(f(-4, 9)).unwrap(), f(-3, 2));
        assert!(f(1, 3) < f(1, 2));
        assert!(f(-1, 3) > f(-1, 2));
        assert!(f(-7, 3) < f(-2, 1));
        assert_eq!(f(4, 6).cmp(&f(2, 3)), Ordering::Equal);
        assert_eq!(f(1, 3).to_string(), "+1/3");
        assert_eq!(Frac::ZERO.to_string(), "+0");
        assert_eq!(Frac::MINUS_ONE.to_string(), "-1");
        assert!(Frac::new(1, 0).is_err());
        assert!(f(1, 2).checked_div(Frac::ZERO).is_err());
    }

    #[test]
    fn overflow_is_an_error_and_order_is_exact_near_the_limit() {
        let big = f(i128::MAX / 3, i128::MAX / 3 + 2);
        let other = f(i128::MAX / 5, i128::MAX / 5 + 3);
        assert!(big.checked_mul(other).is_err() || big.checked_add(other).is_err());
        // (M/3)/(M/3+2) vs (M/5)/(M/5+3): 1 - 2/(M/3+2) vs 1 - 3/(M/5+3).
        assert!(big > other);
        assert!(f(i128::MAX - 1, i128::MAX) > f(i128::MAX - 2, i128::MAX - 1));
    }
}
