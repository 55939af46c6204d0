//! Match statistics: win/draw/loss and pentanomial counts, the Elo
//! difference with a 95% interval, the likelihood of superiority, and the
//! generalised sequential probability ratio test (GSPRT) as fishtest runs
//! it: logistic Elo bounds, pentanomial counts of game pairs, the exact
//! log-likelihood ratio (its normal approximation, as OpenBench uses, is
//! kept for comparison).
//!
//! Scores are always from the first engine's side: a win is 1, a draw 1/2.
//! The Elo model is the logistic one, `s = 1 / (1 + 10^(-elo/400))`.
//! Intervals use the normal approximation: the score's standard error is
//! the sample standard deviation of one unit (a game for the trinomial
//! model, a game pair for the pentanomial one) over the square root of the
//! number of units. Pairs played from the same opening with colours swapped
//! are correlated, so the pentanomial variance is the honest one for them.

/// The two-sided 95% quantile of the standard normal distribution.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `s` (infinite at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, Abramowitz and Stegun 7.1.26 (absolute error below
/// 1.5e-7), ample for a probability printed with a few digits.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// One game's result from the first engine's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

impl GameScore {
    /// Half points: 2 for a win, 1 for a draw, 0 for a loss.
    pub(crate) fn half_points(self) -> u8 {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }

    /// The same game from the other engine's side.
    pub(crate) fn flip(self) -> GameScore {
        match self {
            GameScore::Win => GameScore::Loss,
            GameScore::Draw => GameScore::Draw,
            GameScore::Loss => GameScore::Win,
        }
    }
}

/// Win, draw and loss counts (the trinomial model).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Wdl {
    /// The counts given.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub(crate) fn add(&mut self, s: GameScore) {
        match s {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The mean score and the variance of one game's score.
    fn moments(&self) -> Option<(f64, f64)> {
        moments(&[
            (self.losses as f64, 0.0),
            (self.draws as f64, 0.5),
            (self.wins as f64, 1.0),
        ])
    }

    /// Elo with its 95% interval from the per-game variance.
    pub fn estimate(&self) -> Option<Estimate> {
        let (s, var) = self.moments()?;
        Some(Estimate::new(s, var / self.games() as f64))
    }
}

/// Counts of game pairs by the first engine's points in the pair:
/// `[LL, LD, DD or WL, WD, WW]`, i.e. index = half points out of 4.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Count a completed pair.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.0[(first.half_points() + second.half_points()) as usize] += 1;
    }

    /// Game pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    fn weighted(&self, regularise: bool) -> [(f64, f64); 5] {
        let mut w = [(0.0, 0.0); 5];
        for (i, (&n, slot)) in self.0.iter().zip(&mut w).enumerate() {
            let n = n as f64;
            // fishtest's regularisation: an empty bin counts as 1e-3 of a
            // pair, so that a run of identical pairs has a variance and the
            // SPRT does not stop on its first pair.
            let n = if regularise && n == 0.0 { 1e-3 } else { n };
            *slot = (n, i as f64 / 4.0);
        }
        w
    }

    /// Elo with its 95% interval from the per-pair variance.
    pub fn estimate(&self) -> Option<Estimate> {
        let (s, var) = moments(&self.weighted(false))?;
        Some(Estimate::new(s, var / self.pairs() as f64))
    }
}

/// The weighted mean and variance of `(weight, value)` samples.
fn moments(samples: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n: f64 = samples.iter().map(|&(w, _)| w).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = samples.iter().map(|&(w, x)| w * x).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|&(w, x)| w * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    Some((mean, var))
}

/// The `lambda` of the maximum-likelihood distribution with mean `s` over
/// outcomes `(x, frequency)`: the root of
/// `g(l) = sum q (x - s) / (1 + l (x - s))` on the interval where every
/// `1 + l (x - s)` is positive. `None` unless `s` lies strictly inside the
/// observed range.
fn mle_lambda(q: &[(f64, f64)], s: f64) -> Option<f64> {
    let lo_x = q.iter().map(|&(x, _)| x).fold(f64::INFINITY, f64::min);
    let hi_x = q.iter().map(|&(x, _)| x).fold(f64::NEG_INFINITY, f64::max);
    if !(lo_x < s && s < hi_x) {
        return None;
    }
    let g = |l: f64| -> f64 {
        q.iter()
            .map(|&(x, p)| p * (x - s) / (1.0 + l * (x - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (hi_x - s), 1.0 / (s - lo_x));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// A score with its standard error, and what it means in Elo.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score of the first engine, 0..1.
    pub score: f64,
    /// Standard error of `score`.
    pub stderr: f64,
    /// The Elo difference that `score` means.
    pub elo: f64,
    /// The 95% interval of the Elo difference (bounds may be infinite).
    pub elo_low: f64,
    /// The upper bound of the 95% interval.
    pub elo_high: f64,
    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, under the normal approximation.
    pub los: f64,
}

impl Estimate {
    fn new(score: f64, var_of_mean: f64) -> Estimate {
        let stderr = var_of_mean.max(0.0).sqrt();
        let los = if stderr > 0.0 {
            normal_cdf((score - 0.5) / stderr)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        Estimate {
            score,
            stderr,
            elo: elo_from_score(score),
            elo_low: elo_from_score(score - Z95 * stderr),
            elo_high: elo_from_score(score + Z95 * stderr),
            los,
        }
    }

    /// Half the width of the interval, the "±" figure (infinite when a
    /// bound is).
    pub(crate) fn elo_margin(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// The SPRT's hypotheses and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
}

/// Which hypothesis a crossed bound accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The lower bound was crossed: accept H0 (elo = elo0).
    H0,
    /// The upper bound was crossed: accept H1 (elo = elo1).
    H1,
}

/// The text of the stop by the SPRT, as the report gives it.
pub(crate) fn sprt_stop(d: SprtDecision) -> String {
    format!(
        "SPRT: {} accepted",
        match d {
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        }
    )
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, error rates in (0, 1/2).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("{name} must lie between 0 and 0.5, not {v}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `(lower, upper)` = `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised SPRT's log-likelihood ratio, exactly (fishtest's
    /// `LLR_logistic`): for each hypothesis the distribution of maximum
    /// likelihood over the observed outcomes whose mean score is `s0` (or
    /// `s1`) is `p_i = q_i / (1 + lambda (x_i - s))`, with `q` the observed
    /// frequencies of the unit scores `x_i` and `lambda` the root of
    /// `sum q_i (x_i - s) / (1 + lambda (x_i - s)) = 0` (found by bisection:
    /// the sum falls strictly with `lambda`); the LLR is
    /// `N sum q_i ln(p1_i / p0_i)`. Unlike the normal approximation it stays
    /// sober when every unit so far had the same score.
    fn llr_exact(&self, samples: &[(f64, f64)]) -> f64 {
        let n: f64 = samples.iter().map(|&(w, _)| w).sum();
        if n <= 0.0 {
            return 0.0;
        }
        let q: Vec<(f64, f64)> = samples
            .iter()
            .filter(|&&(w, _)| w > 0.0)
            .map(|&(w, x)| (x, w / n))
            .collect();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        match (mle_lambda(&q, s0), mle_lambda(&q, s1)) {
            (Some(l0), Some(l1)) => {
                n * q
                    .iter()
                    .map(|&(x, p)| p * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln()))
                    .sum::<f64>()
            }
            _ => 0.0,
        }
    }

    /// The LLR's normal approximation (fishtest's `LLR_alt2`, OpenBench):
    /// `N (s1 - s0) (2 s - s0 - s1) / (2 var)`, with `s` and `var` the
    /// sample mean and variance of one unit's score. Close to the exact
    /// value on real samples; on a sample of identical units its variance
    /// is only the regularisation's and it overshoots (two won pairs would
    /// accept H1 of a [0, 5] test), which is why the match uses the exact one.
    fn llr_normal(&self, samples: &[(f64, f64)]) -> f64 {
        let Some((s, var)) = moments(samples) else {
            return 0.0;
        };
        let n: f64 = samples.iter().map(|&(w, _)| w).sum();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    fn trinomial_samples(w: &Wdl) -> [(f64, f64); 3] {
        let reg = |n: u64| if n == 0 { 1e-3 } else { n as f64 };
        [
            (reg(w.losses), 0.0),
            (reg(w.draws), 0.5),
            (reg(w.wins), 1.0),
        ]
    }

    /// The exact LLR over game pairs. Empty bins count as 1e-3 of a pair
    /// (fishtest's regularisation), so that both hypotheses' means lie
    /// inside the observed range.
    pub fn llr_pentanomial(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        self.llr_exact(&p.weighted(true))
    }

    /// The exact LLR over single games (regularised likewise).
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        if w.games() == 0 {
            return 0.0;
        }
        self.llr_exact(&Self::trinomial_samples(w))
    }

    /// The normal approximation over game pairs, for comparison.
    pub fn llr_pentanomial_normal(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        self.llr_normal(&p.weighted(true))
    }

    /// The normal approximation over single games, for comparison.
    pub fn llr_trinomial_normal(&self, w: &Wdl) -> f64 {
        if w.games() == 0 {
            return 0.0;
        }
        self.llr_normal(&Self::trinomial_samples(w))
    }

    /// The exact LLR of the pairs so far and the hypothesis it accepts.
    pub fn assess(&self, p: &Penta) -> (f64, Option<SprtDecision>) {
        let llr = self.llr_pentanomial(p);
        (llr, self.decision(llr))
    }

    /// The hypothesis accepted at this LLR, if a bound is crossed.
    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lo, hi) = self.bounds();
        if llr <= lo {
            Some(SprtDecision::H0)
        } else if llr >= hi {
            Some(SprtDecision::H1)
        } else {
            None
        }
    }
}
