//! What a match shows: the live table with its progress bar while games are
//! played (redrawn in place on a terminal, one line per game otherwise),
//! the final report, and the JSON summary.
//!
//! The bar is drawn here rather than with a progress-bar crate: it is one
//! line of text next to a table that is redrawn anyway, and a dependency
//! would buy nothing the twenty lines below do not.

use crate::record::Reason;
use crate::referee::Played;
use crate::scheduler::{MatchConfig, MatchSummary, Tally};
use crate::stats::{Estimate, SprtDecision};
use serde_json::{json, Value};
use std::io::Write;
use std::time::{Duration, Instant};

/// Shortest time between two redraws of the table on a terminal.
const REDRAW: Duration = Duration::from_millis(100);
const BAR: usize = 30;

fn signed(x: f64, digits: usize) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if x.is_nan() {
        "nan".to_string()
    } else {
        // -400 log10(1) is -0.0; an even score reads +0.0.
        let x = if x == 0.0 { 0.0 } else { x };
        format!("{x:+.digits$}")
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// `Elo +12.3 ±45.6` for an estimate, `-` for none.
fn elo_text(e: Option<Estimate>) -> String {
    match e {
        Some(e) => {
            let m = e.elo_margin();
            let m = if m.is_finite() {
                format!("±{m:.1}")
            } else {
                "±inf".to_string()
            };
            format!("{} {m}", signed(e.elo, 1))
        }
        None => "-".to_string(),
    }
}

/// The estimate a report shows: from game pairs when there are any (the
/// honest variance for paired games), otherwise from single games.
pub(crate) fn best_estimate(t: &crate::scheduler::PairingTally) -> Option<Estimate> {
    if t.penta.pairs() > 0 {
        t.penta.estimate()
    } else {
        t.wdl.estimate()
    }
}

fn table_lines(t: &Tally) -> Vec<String> {
    let width = t.names.iter().map(String::len).max().unwrap_or(4);
    let mut v = Vec::new();
    for (p, pt) in t.pairings.iter().zip(&t.per_pairing) {
        let games = pt.wdl.games();
        let score = if games > 0 {
            format!("{:5.1}%", 100.0 * pt.wdl.points() / games as f64)
        } else {
            "    -".to_string()
        };
        let pe = pt.penta.0;
        v.push(format!(
            "  {:>width$} vs {:<width$}  W {:>4} D {:>4} L {:>4}  {score}  Elo {:<16}  pairs {} {} {} {} {}",
            t.names[p.first],
            t.names[p.second],
            pt.wdl.wins,
            pt.wdl.draws,
            pt.wdl.losses,
            elo_text(best_estimate(pt)),
            pe[0],
            pe[1],
            pe[2],
            pe[3],
            pe[4],
        ));
    }
    if let Some(s) = &t.sprt {
        let (lo, hi) = s.sprt.bounds();
        v.push(format!("  SPRT LLR {:.2} ({:.2}, {:.2})", s.llr, lo, hi));
    }
    v
}

fn bar_line(t: &Tally) -> String {
    let done = t.played.min(t.planned);
    let filled = if t.planned > 0 {
        (done as usize * BAR) / t.planned as usize
    } else {
        BAR
    };
    let elapsed = t.started.elapsed();
    let eta = if done > 0 && done < t.planned {
        let left = elapsed.mul_f64((t.planned - done) as f64 / done as f64);
        format!(", about {} left", clock(left))
    } else {
        String::new()
    };
    format!(
        "[{}{}] {done}/{} games, {}{eta}",
        "#".repeat(filled),
        "-".repeat(BAR - filled),
        t.planned,
        clock(elapsed)
    )
}

fn game_line(p: &Played, t: &Tally) -> String {
    let j = &p.job;
    format!(
        "game {}/{} pair {}: {} (A) - {} (B) {} {}, {} plies",
        j.number,
        t.planned,
        j.pair,
        t.names[j.engines[0]],
        t.names[j.engines[1]],
        p.result.token(),
        p.reason,
        p.record.moves.len()
    )
}

/// The live display on standard error.
pub(crate) struct Live {
    tty: bool,
    drawn: usize,
    last: Option<Instant>,
    quiet: bool,
}

impl Live {
    pub(crate) fn new(tty: bool, quiet: bool) -> Live {
        Live {
            tty,
            drawn: 0,
            last: None,
            quiet,
        }
    }

    pub(crate) fn update(&mut self, p: &Played, t: &Tally) {
        if self.quiet {
            return;
        }
        let err = std::io::stderr();
        let mut err = err.lock();
        if !self.tty {
            let first = t.pairings.len() == 1;
            let mut line = game_line(p, t);
            if first {
                if let Some(row) = table_lines(t).first() {
                    line.push_str(" |");
                    line.push_str(row.trim_start());
                }
            }
            let _ = writeln!(err, "{line}");
            return;
        }
        let finished = t.played >= t.planned;
        if !finished && self.last.is_some_and(|l| l.elapsed() < REDRAW) {
            return;
        }
        self.last = Some(Instant::now());
        let mut lines = vec![bar_line(t)];
        lines.extend(table_lines(t));
        lines.push(format!("  last: {}", game_line(p, t)));
        let mut s = String::new();
        if self.drawn > 0 {
            s.push_str(&format!("\x1b[{}A", self.drawn));
        }
        for l in &lines {
            s.push_str("\x1b[2K");
            s.push_str(l);
            s.push('\n');
        }
        self.drawn = lines.len();
        let _ = err.write_all(s.as_bytes());
        let _ = err.flush();
    }
}

/// The final report, as printed on standard output.
pub(crate) fn report(cfg: &MatchConfig, m: &MatchSummary) -> Vec<String> {
    let t = &m.tally;
    let s = &cfg.settings;
    let mut v = vec![format!(
        "match: {} of {} games, {}:{} {}, {}, {} at once{}",
        t.played,
        t.planned,
        s.variant,
        s.columns,
        s.opening,
        s.limits.describe(),
        cfg.concurrency,
        m.elapsed
            .map_or(String::new(), |e| format!(", {}", clock(e)))
    )];
    if let Some(why) = &m.stopped_early {
        v.push(format!("stopped early: {why}"));
    }
    let width = t.names.iter().map(String::len).max().unwrap_or(4);
    v.push(format!(
        "{:>w2$}  games     W     D     L   score  Elo (95% interval)              LOS     pairs LL LD DD/WL WD WW",
        "pairing",
        w2 = 2 * width + 4
    ));
    for (p, pt) in t.pairings.iter().zip(&t.per_pairing) {
        let games = pt.wdl.games();
        let est = best_estimate(pt);
        let (score, elo, los) = match est {
            Some(e) => (
                format!("{:5.1}%", 100.0 * e.score),
                format!(
                    "{:>7} [{}, {}]",
                    signed(e.elo, 1),
                    signed(e.elo_low, 1),
                    signed(e.elo_high, 1)
                ),
                format!("{:5.1}%", 100.0 * e.los),
            ),
            None => ("    -".into(), "-".into(), "    -".into()),
        };
        let pe = pt.penta.0;
        v.push(format!(
            "{:>width$} vs {:<width$}  {games:>5} {:>5} {:>5} {:>5}  {score}  {elo:<30}  {los}  {} {} {} {} {}",
            t.names[p.first],
            t.names[p.second],
            pt.wdl.wins,
            pt.wdl.draws,
            pt.wdl.losses,
            pe[0],
            pe[1],
            pe[2],
            pe[3],
            pe[4]
        ));
    }
    v.push(
        "Elo from the score; interval from the variance of game pairs (pentanomial), \
         or of single games while no pair is complete"
            .to_string(),
    );
    if t.pairings.len() > 1 {
        let mut st: Vec<(usize, (f64, u64))> = t.standings().into_iter().enumerate().collect();
        st.sort_by(|a, b| b.1 .0.total_cmp(&a.1 .0));
        let parts: Vec<String> = st
            .iter()
            .map(|(i, (pts, g))| format!("{} {pts}/{g}", t.names[*i]))
            .collect();
        v.push(format!("standings: {}", parts.join(", ")));
    }
    let mut reasons = std::collections::BTreeMap::<Reason, u64>::new();
    for pt in &t.per_pairing {
        for (r, n) in &pt.reasons {
            *reasons.entry(*r).or_default() += n;
        }
    }
    let rs: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    v.push(format!("endings: {}", rs.join(", ")));
    let fails: Vec<String> = t
        .failures
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.is_empty())
        .map(|(i, f)| {
            let parts: Vec<String> = f.iter().map(|(r, n)| format!("{r} {n}")).collect();
            format!("{}: {}", t.names[i], parts.join(", "))
        })
        .collect();
    v.push(format!(
        "engine failures: {}",
        if fails.is_empty() {
            "none".to_string()
        } else {
            fails.join("; ")
        }
    ));
    if let Some(sp) = &t.sprt {
        let (lo, hi) = sp.sprt.bounds();
        v.push(format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} bounds ({:.3}, {:.3}) {}",
            sp.sprt.elo0,
            sp.sprt.elo1,
            sp.sprt.alpha,
            sp.sprt.beta,
            sp.llr,
            lo,
            hi,
            match sp.decision {
                Some(SprtDecision::H0) => "H0 accepted",
                Some(SprtDecision::H1) => "H1 accepted",
                None => "no decision",
            }
        ));
    }
    v
}

fn estimate_json(e: Option<Estimate>) -> Value {
    match e {
        Some(e) => json!({
            "score": e.score,
            "stderr": e.stderr,
            "elo": e.elo,
            "elo_low": e.elo_low,
            "elo_high": e.elo_high,
            "los": e.los,
        }),
        None => Value::Null,
    }
}

fn reasons_json<'a>(it: impl Iterator<Item = (&'a Reason, &'a u64)>) -> Value {
    Value::Object(it.map(|(r, n)| (r.code().to_string(), json!(n))).collect())
}

/// The JSON summary (MATCH.md documents the keys). Infinite Elo bounds
/// are written as `null`.
pub(crate) fn summary_json(cfg: &MatchConfig, m: &MatchSummary) -> Value {
    let t = &m.tally;
    let s = &cfg.settings;
    let engines: Vec<Value> = cfg
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let opts: serde_json::Map<String, Value> = e
                .options
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            json!({
                "name": e.name,
                "cmd": e.cmd,
                "args": e.args,
                "proto": match e.proto { crate::engine::Proto::Ugi => "ugi", crate::engine::Proto::Uci => "uci" },
                "options": opts,
                "failures": reasons_json(t.failures[i].iter()),
            })
        })
        .collect();
    let pairings: Vec<Value> = t
        .pairings
        .iter()
        .zip(&t.per_pairing)
        .map(|(p, pt)| {
            json!({
                "first": t.names[p.first],
                "second": t.names[p.second],
                "games": pt.wdl.games(),
                "wins": pt.wdl.wins,
                "draws": pt.wdl.draws,
                "losses": pt.wdl.losses,
                "first_as_a": {"wins": pt.first_as_a.wins, "draws": pt.first_as_a.draws, "losses": pt.first_as_a.losses},
                "pentanomial": pt.penta.0,
                "trinomial_estimate": estimate_json(pt.wdl.estimate()),
                "pentanomial_estimate": estimate_json(pt.penta.estimate()),
                "endings": reasons_json(pt.reasons.iter()),
            })
        })
        .collect();
    let sprt = t.sprt.map(|sp| {
        let (lo, hi) = sp.sprt.bounds();
        json!({
            "elo0": sp.sprt.elo0,
            "elo1": sp.sprt.elo1,
            "alpha": sp.sprt.alpha,
            "beta": sp.sprt.beta,
            "llr": sp.llr,
            "lower": lo,
            "upper": hi,
            "decision": sp.decision.map(|d| match d { SprtDecision::H0 => "H0", SprtDecision::H1 => "H1" }),
        })
    });
    json!({
        "variant": s.variant.name(),
        "columns": s.columns,
        "opening": s.opening.name(),
        "draw_plies": s.draw_plies,
        "limits": s.limits.describe(),
        "margin_ms": s.margin.as_millis() as u64,
        "concurrency": cfg.concurrency,
        "games_planned": t.planned,
        "games_played": t.played,
        "plies": t.plies,
        "elapsed_s": m.elapsed.map(|e| e.as_secs_f64()),
        "stopped_early": m.stopped_early,
        "engines": engines,
        "pairings": pairings,
        "sprt": sprt,
    })
}
