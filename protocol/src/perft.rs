//! The perft report shared by `choro perft` and the protocol's `perft` and
//! `divide` (PROTOCOL.md, "`choro perft`").

use choro_engine::perft::{divide_until, perft_until};
use choro_engine::{GenStats, Position, LAP_BUDGET};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What to report.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PerftRequest {
    pub depth: u32,
    /// First the counts below each root move.
    pub divide: bool,
    /// One JSON object per line instead of text.
    pub json: bool,
}

fn per_second(n: u64, t: Duration) -> u64 {
    (n as f64 / t.as_secs_f64().max(1e-6)) as u64
}

/// Run perft on `pos` for every depth 1..=`req.depth` and hand each line of
/// the report to `emit`.
pub fn report(pos: &Position, req: PerftRequest, emit: &mut dyn FnMut(&str)) {
    report_until(pos, req, &AtomicBool::new(false), emit);
}

/// [`report`] that ends early once `stop` is set: the depths finished,
/// then `info string perft stopped at depth <D>` (text only), then the
/// summary of the depths finished, always the last line.
pub fn report_until(
    pos: &Position,
    req: PerftRequest,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(&str),
) {
    let mut stopped_at = None;
    if req.divide {
        let moves = divide_until(pos, req.depth, stop).unwrap_or_else(|| {
            stopped_at = Some(req.depth);
            Vec::new()
        });
        for (m, c) in moves {
            let m = pos.restyle(m);
            let line = if req.json {
                json!({"type": "move", "move": m.to_string(), "paths": c.paths, "unique": c.unique})
                    .to_string()
            } else {
                format!("move {m} paths {} unique {}", c.paths, c.unique)
            };
            emit(&line);
        }
    }
    let mut stats = GenStats::default();
    let mut time = Duration::ZERO;
    for d in 1..=req.depth {
        if stopped_at.is_some() {
            break;
        }
        let t = Instant::now();
        let Some((c, s)) = perft_until(pos, d, LAP_BUDGET, stop) else {
            time += t.elapsed();
            stopped_at = Some(d);
            break;
        };
        let el = t.elapsed();
        time += el;
        stats.add(&s);
        let line = if req.json {
            json!({"type": "depth", "depth": d, "paths": c.paths, "unique": c.unique,
                   "time_ms": el.as_millis() as u64})
            .to_string()
        } else {
            format!("depth {d} paths {} unique {}", c.paths, c.unique)
        };
        emit(&line);
    }
    if let (Some(d), false) = (stopped_at, req.json) {
        emit(&format!("info string perft stopped at depth {d}"));
    }
    let ms = time.as_millis() as u64;
    let (mps, dps) = (per_second(stats.moves, time), per_second(stats.drops, time));
    let line = if req.json {
        json!({"type": "summary", "time_ms": ms, "moves": stats.moves, "drops": stats.drops,
               "laps": stats.laps, "moves_per_s": mps, "drops_per_s": dps,
               "cut_cycle": stats.cut_cycle, "cut_budget": stats.cut_budget,
               "cut_repeat": stats.cut_repeat})
        .to_string()
    } else {
        format!(
            "time {ms} ms moves {} drops {} moves/s {mps} drops/s {dps} never-ending cycle {} budget {} repeat {}",
            stats.moves, stats.drops, stats.cut_cycle, stats.cut_budget, stats.cut_repeat
        )
    };
    emit(&line);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use choro_engine::perft::perft;
    use choro_engine::Variant;

    fn lines(pos: &Position, req: PerftRequest) -> Vec<String> {
        let mut v = Vec::new();
        report(pos, req, &mut |l| v.push(l.to_string()));
        v
    }

    #[test]
    fn text_report_matches_the_engine() {
        let pos = Position::startpos(Variant::Acholi, 8).unwrap();
        let v = lines(
            &pos,
            PerftRequest {
                depth: 2,
                divide: false,
                json: false,
            },
        );
        assert_eq!(v.len(), 3);
        let (c1, _) = perft(&pos, 1);
        let (c2, _) = perft(&pos, 2);
        assert_eq!(
            v[0],
            format!("depth 1 paths {} unique {}", c1.paths, c1.unique)
        );
        assert_eq!(
            v[1],
            format!("depth 2 paths {} unique {}", c2.paths, c2.unique)
        );
        assert!(v[2].starts_with("time "), "{}", v[2]);
        assert!(v[2].contains(" never-ending cycle 0 budget 0 repeat 0"));
    }

    #[test]
    fn divide_sums_to_the_paths() {
        let pos = Position::startpos(Variant::Lango, 8).unwrap();
        let v = lines(
            &pos,
            PerftRequest {
                depth: 2,
                divide: true,
                json: true,
            },
        );
        let objs: Vec<serde_json::Value> =
            v.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let moves: u64 = objs
            .iter()
            .filter(|o| o["type"] == "move")
            .map(|o| o["paths"].as_u64().unwrap())
            .sum();
        let d2 = objs
            .iter()
            .find(|o| o["type"] == "depth" && o["depth"] == 2)
            .unwrap();
        assert_eq!(moves, d2["paths"].as_u64().unwrap());
        assert_eq!(objs.last().unwrap()["type"], "summary");
    }
}
