//! The match statistics against values worked out by hand (the arithmetic
//! is written beside each figure).

use choro_match::stats::{
    elo_from_score, normal_cdf, score_from_elo, GameScore, Penta, Sprt, SprtDecision, Wdl,
};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
}

#[test]
fn elo_and_score_are_inverse_logistic() {
    // 1 / (1 + 10^(-400/400)) = 1 / 1.1 = 0.909090...
    close(score_from_elo(400.0), 1.0 / 1.1, 1e-12);
    close(score_from_elo(0.0), 0.5, 1e-15);
    // s = 0.75: -400 log10(1/0.75 - 1) = -400 log10(1/3) = 190.848...
    close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9);
    close(elo_from_score(0.25), -400.0 * 3f64.log10(), 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    for e in [-700.0, -35.5, 0.0, 12.0, 250.0] {
        close(elo_from_score(score_from_elo(e)), e, 1e-9);
    }
}

#[test]
fn normal_cdf_known_points() {
    close(normal_cdf(0.0), 0.5, 1e-7);
    close(normal_cdf(1.959_963_984_540_054), 0.975, 2e-7);
    close(normal_cdf(-1.0), 0.158_655_253_9, 2e-7);
}

// W 60, D 20, L 20 in 100 games:
// s = (60 + 10) / 100 = 0.7; Elo = -400 log10(1/0.7 - 1) = 147.1907;
// variance per game = (60 (0.3)^2 + 20 (0.2)^2 + 20 (0.7)^2) / 100
//                   = (5.4 + 0.8 + 9.8) / 100 = 0.16;
// standard error = sqrt(0.16 / 100) = 0.04;
// 95%: s = 0.7 -+ 1.96 * 0.04 = [0.62160, 0.77840] -> Elo [86.225, 218.252].
#[test]
fn trinomial_elo_and_interval() {
    let w = Wdl::new(60, 20, 20);
    assert_eq!(w.games(), 100);
    assert_eq!(w.points(), 70.0);
    let e = w.estimate().unwrap();
    close(e.score, 0.7, 1e-12);
    close(e.stderr, 0.04, 1e-12);
    close(e.elo, 147.1907, 1e-3);
    close(e.elo_low, 86.2250, 1e-3);
    close(e.elo_high, 218.2518, 1e-3);
    // LOS = Phi(0.2 / 0.04) = Phi(5), 1 - 2.9e-7.
    close(e.los, 1.0, 1e-6);
    assert!(Wdl::default().estimate().is_none());
}

// Pairs [LL 2, LD 8, DD/WL 20, WD 12, WW 8], 50 pairs, pair scores
// 0, 1/4, 1/2, 3/4, 1: s = (0 + 2 + 10 + 9 + 8) / 50 = 0.58;
// Elo = -400 log10(1/0.58 - 1) = 56.0715;
// variance per pair = (2 (0.58)^2 + 8 (0.33)^2 + 20 (0.08)^2 + 12 (0.17)^2
//   + 8 (0.42)^2) / 50 = (0.6728 + 0.8712 + 0.128 + 0.3468 + 1.4112) / 50
//   = 3.43 / 50 = 0.0686; standard error = sqrt(0.0686 / 50) = 0.0370405;
// 95%: [0.58 - 0.0725982, 0.58 + 0.0725982] -> Elo [5.1438, 109.5254];
// LOS = Phi(0.08 / 0.0370405) = Phi(2.15980) = 0.984606.
#[test]
fn pentanomial_elo_and_interval() {
    let p = Penta([2, 8, 20, 12, 8]);
    assert_eq!(p.pairs(), 50);
    let e = p.estimate().unwrap();
    close(e.score, 0.58, 1e-12);
    close(e.stderr, 0.037_040_5, 1e-6);
    close(e.elo, 56.0715, 1e-3);
    close(e.elo_low, 5.1438, 1e-3);
    close(e.elo_high, 109.5254, 1e-3);
    close(e.los, 0.984_606, 1e-5);
}

#[test]
fn pentanomial_counts_pairs_by_half_points() {
    use GameScore::*;
    let mut p = Penta::default();
    p.add(Loss, Loss); // 0 -> LL
    p.add(Loss, Draw); // 1 -> LD
    p.add(Draw, Loss); // 1 -> LD
    p.add(Win, Loss); // 2 -> DD/WL
    p.add(Draw, Draw); // 2 -> DD/WL
    p.add(Draw, Win); // 3 -> WD
    p.add(Win, Win); // 4 -> WW
    assert_eq!(p.0, [1, 2, 2, 1, 1]);
}

// alpha = beta = 0.05: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439.
#[test]
fn sprt_bounds() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (lo, hi) = s.bounds();
    close(lo, -2.944_439, 1e-6);
    close(hi, 2.944_439, 1e-6);
    // alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
    let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
    close(lo, -2.251_292, 1e-6);
    close(hi, 2.890_372, 1e-6);
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.05, 0.6).is_err());
}

// elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.5143872.
//
// The exact GSPRT, by hand where the maximum-likelihood distributions have
// a closed form: with only losses and wins (two outcomes) the distribution
// of mean s is (1 - s, s), so for W 60 D 0 L 40
// LLR = 100 (0.6 ln(s1/s0) + 0.4 ln((1 - s1)/(1 - s0)))
//     = 100 (0.6 * 0.0283682 + 0.4 * (-0.0291965)) = 0.534231
// (the 1e-3 regularisation of the empty draw bin moves it by 5e-6).
//
// The normal approximation N (s1 - s0)(2s - s0 - s1) / (2 var):
// pentanomial [2, 8, 20, 12, 8] (no empty bin, so no regularisation):
//     50 * 0.0143872 * (1.16 - 1.0143872) / (2 * 0.0686) = 0.763469;
// trinomial W 60 D 20 L 20: 100 * 0.0143872 * (1.4 - 1.0143872) /
//     (2 * 0.16) = 1.733713.
#[test]
fn sprt_llr_hand_values() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    close(s.llr_trinomial(&Wdl::new(60, 0, 40)), 0.534_231, 1e-5);
    close(
        s.llr_pentanomial_normal(&Penta([2, 8, 20, 12, 8])),
        0.763_469,
        1e-5,
    );
    close(
        s.llr_trinomial_normal(&Wdl::new(60, 20, 20)),
        1.733_713,
        1e-5,
    );
    // The exact values where the bisection is needed, from an independent
    // script (same method): close to the approximation on real samples.
    close(
        s.llr_pentanomial(&Penta([2, 8, 20, 12, 8])),
        0.720_997,
        1e-5,
    );
    close(s.llr_trinomial(&Wdl::new(60, 20, 20)), 1.389_822, 1e-5);
    assert_eq!(s.llr_pentanomial(&Penta::default()), 0.0);
    assert_eq!(s.llr_trinomial(&Wdl::default()), 0.0);
    // Symmetric results (s = 0.5) favour H0: LLR < 0.
    assert!(s.llr_pentanomial(&Penta([5, 10, 20, 10, 5])) < 0.0);
    // The LLR grows with the evidence: ten times the pairs, ten times it.
    close(
        s.llr_pentanomial(&Penta([20, 80, 200, 120, 80])),
        7.209_968,
        1e-5,
    );
}

#[test]
fn sprt_decides_at_the_bounds() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    assert_eq!(s.decision(2.95), Some(SprtDecision::H1));
    assert_eq!(s.decision(-2.95), Some(SprtDecision::H0));
    assert_eq!(s.decision(2.9), None);
    let big = Penta([20, 80, 200, 120, 80]);
    assert_eq!(s.assess(&big).1, Some(SprtDecision::H1));
    assert_eq!(s.assess(&Penta([2, 8, 20, 12, 8])).1, None);
}

// Samples where every pair so far had the same score. The normal
// approximation's variance is then only the regularisation's: one won pair
// (N = 1.004, s = (1 + 0.001 (3/4 + 1/2 + 1/4)) / 1.004 = 0.997510,
// var = 0.0018613) gives 1.004 * 0.0143872 * (1.995020 - 1.0143872) /
// (2 * 0.0018613) = 3.805, past the bound after a single pair. The exact
// LLR adds about 0.028 per won pair (about 2 ln(s1/s0): the likeliest
// distribution of mean s moves the pair's weight towards a draw) and
// needs over a hundred of them; two equal engines, every pair 1-1, drift
// to H0.
#[test]
fn sprt_is_sober_on_identical_pairs() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let one = Penta([0, 0, 0, 0, 1]);
    close(s.llr_pentanomial_normal(&one), 3.8051, 1e-3);
    close(s.llr_pentanomial(&one), 0.028_424, 1e-5);
    assert_eq!(s.assess(&Penta([0, 0, 0, 0, 2])).1, None);
    assert_eq!(s.assess(&Penta([0, 0, 0, 0, 100])).1, None);
    assert_eq!(
        s.assess(&Penta([0, 0, 0, 0, 110])).1,
        Some(SprtDecision::H1)
    );
    let wide = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    assert_eq!(wide.assess(&Penta([0, 0, 10, 0, 0])).1, None);
    assert_eq!(
        wide.assess(&Penta([0, 0, 20, 0, 0])).1,
        Some(SprtDecision::H0)
    );
}
