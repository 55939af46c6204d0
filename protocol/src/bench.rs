//! `bench`, for the command line and the protocol alike: a fixed-depth
//! search of every position of `positions/bench.txt` with a fresh table
//! (`choro_engine::bench`). A row per position, then `<N> nodes <M> nps`;
//! with one thread N is a signature, the same on every run and machine.

use choro_engine::bench::{self as engine_bench, BenchOptions, BenchRow};
use choro_engine::Variant;

/// What to bench; the defaults give the signature quoted in commits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchArgs {
    /// Search depth for every position (default: each position's own).
    pub depth: Option<u32>,
    /// Only this code's positions (default: all).
    pub variant: Option<Variant>,
    /// Search threads (default 1).
    pub threads: Option<usize>,
    /// Table size in MB (default 16).
    pub hash_mb: Option<usize>,
    /// One JSON object per position and a summary object.
    pub json: bool,
}

fn row_json(r: &BenchRow) -> String {
    serde_json::json!({
        "type": "position",
        "id": r.id,
        "variant": r.variant.name(),
        "position": r.position,
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time_ms,
        "nps": r.nps,
        "best": r.best.map(|m| m.to_string()),
        "score": r.score.map(engine_bench::score_text),
    })
    .to_string()
}

/// Run the bench, handing each output line to `emit`.
pub fn run(args: &BenchArgs, emit: &mut dyn FnMut(&str)) -> Result<(), String> {
    let defaults = BenchOptions::default();
    let opts = BenchOptions {
        depth: args.depth,
        variant: args.variant,
        threads: args.threads.unwrap_or(defaults.threads).max(1),
        hash_mb: args.hash_mb.unwrap_or(defaults.hash_mb).max(1),
    };
    if let Some(v) = opts.variant {
        if !engine_bench::positions()
            .iter()
            .any(|p| p.position.variant() == v)
        {
            return Err(format!("bench: no bench position of {v}"));
        }
    }
    let json = args.json;
    let summary = engine_bench::run(&opts, &mut |r| {
        if json {
            emit(&row_json(r));
        } else {
            emit(&r.to_string());
        }
    });
    if json {
        emit(
            &serde_json::json!({
                "type": "summary",
                "positions": summary.positions,
                "nodes": summary.nodes,
                "time_ms": summary.time_ms,
                "nps": summary.nps,
                "threads": opts.threads,
                "hash_mb": opts.hash_mb,
            })
            .to_string(),
        );
    } else {
        emit(&summary.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn last_line_is_the_openbench_summary_and_repeats() {
        let args = BenchArgs {
            depth: Some(2),
            variant: Some(Variant::Adjiboto),
            ..BenchArgs::default()
        };
        let mut a = Vec::new();
        run(&args, &mut |l| a.push(l.to_string())).unwrap();
        let mut b = Vec::new();
        run(&args, &mut |l| b.push(l.to_string())).unwrap();
        let last = a.last().unwrap();
        let w: Vec<&str> = last.split_whitespace().collect();
        assert_eq!((w.len(), w[1], w[3]), (4, "nodes", "nps"), "{last}");
        assert!(w[0].parse::<u64>().unwrap() > 0);
        assert_eq!(
            b.last().unwrap().split(' ').next(),
            Some(w[0]),
            "one thread: a signature"
        );
        assert!(a.len() >= 2);
        assert!(a[..a.len() - 1]
            .iter()
            .all(|l| l.contains(" adjiboto depth 2 ")));
    }

    #[test]
    fn json_rows_and_summary() {
        let args = BenchArgs {
            depth: Some(1),
            variant: Some(Variant::Lango),
            json: true,
            ..BenchArgs::default()
        };
        let mut lines = Vec::new();
        run(&args, &mut |l| lines.push(l.to_string())).unwrap();
        let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(last["type"], "summary");
        let n: u64 = lines[..lines.len() - 1]
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["nodes"]
                    .as_u64()
                    .unwrap()
            })
            .sum();
        assert_eq!(last["nodes"].as_u64(), Some(n));
    }
}
