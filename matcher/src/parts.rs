//! Runs split into parts (`--job K/N` of `choro solve` and `choro match`)
//! and the part files they write: JSON lines, a header first, one line per
//! result, an `end` line last (README.md, "Clusters"). `choro merge` reads
//! them back here and refuses a set that is not one whole run.

use choro_engine::files::{self, Bounds, Replace};
use serde_json::{json, Value};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The file format's name and version, in every header.
pub(crate) const FORMAT: &str = "choro-part 1";

/// The K-th of N parts, counted from 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// This part's number, from 1.
    pub k: u64,
    /// How many parts the run has.
    pub n: u64,
}

impl std::str::FromStr for Job {
    type Err = String;

    fn from_str(s: &str) -> Result<Job, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{}' is not K/N", crate::text::clip(s)))?;
        let k: u64 = k
            .parse()
            .map_err(|_| format!("'{}': K is not a number", crate::text::clip(s)))?;
        let n: u64 = n
            .parse()
            .map_err(|_| format!("'{}': N is not a number", crate::text::clip(s)))?;
        if n == 0 || k == 0 || k > n || n > 1_000_000 {
            return Err(format!("'{s}': K/N needs 1 <= K <= N <= 1000000"));
        }
        Ok(Job { k, n })
    }
}

impl fmt::Display for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Job {
    /// This part's share of `total` units numbered from 0: a contiguous
    /// block, the blocks of parts 1..=N in order covering every unit once.
    pub fn range(&self, total: usize) -> Range<usize> {
        let t = total as u128;
        let lo = (self.k as u128 - 1) * t / self.n as u128;
        let hi = self.k as u128 * t / self.n as u128;
        lo as usize..hi as usize
    }
}

/// Open the part file of `kind` (`match`, `solve`) for part `job`: `out`,
/// or `KIND-K-of-N.jsonl` without it; checked now and written whole at the
/// end ([`write`]). The error names `--out`.
pub fn begin(out: Option<&Path>, kind: &str, job: Job) -> Result<Replace, String> {
    let path = out.map_or_else(
        || PathBuf::from(format!("{kind}-{}-of-{}.jsonl", job.k, job.n)),
        Path::to_path_buf,
    );
    Replace::begin(&path).map_err(|e| format!("--out {e}"))
}

/// The header line of a part file. `settings` is everything that decides
/// the results; parts merge only when it is the same in all of them.
pub fn header(kind: &str, job: Job, units: usize, settings: Value) -> Value {
    json!({
        "type": "header",
        "format": FORMAT,
        "kind": kind,
        "choro": env!("CARGO_PKG_VERSION"),
        "commit": crate::COMMIT,
        "command": command_line(),
        "settings": settings,
        "job": [job.k, job.n],
        "units": units,
    })
}

/// The command line with the part's own words left out (`--job` and the
/// part file), so it is the same in every part of a run.
fn command_line() -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for (i, a) in std::env::args().enumerate() {
        if skip {
            skip = false;
            continue;
        }
        if i == 0 {
            out.push("choro".to_string());
        } else if a == "--job" || a == "--out" {
            skip = true;
        } else if !(a.starts_with("--job=") || a.starts_with("--out=")) {
            out.push(a);
        }
    }
    out
}

/// What a part file reader takes: a line is a result or a game (a game of
/// about 100,000 plies fits in 4 MiB).
pub(crate) const BOUNDS: Bounds = Bounds {
    line: 4 << 20,
    file: 1 << 30,
};

/// Write a part file: the header, the results, the `end` line, to the
/// temporary file of `out` (made when the run began), renamed over its
/// target only when all of it is on disk, so a part that dies leaves no
/// file that looks finished and an earlier file as it was.
pub fn write(out: Replace, header: &Value, results: &[Value]) -> Result<(), String> {
    let mut text = header.to_string();
    text.push('\n');
    for r in results {
        text.push_str(&r.to_string());
        text.push('\n');
    }
    text.push_str(&json!({"type": "end", "results": results.len()}).to_string());
    text.push('\n');
    out.commit(text.as_bytes())
}

/// One part file, read and checked on its own.
#[derive(Clone, Debug)]
pub struct Part {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its header line.
    pub header: Value,
    /// Which part of the run it is.
    pub job: Job,
    /// Its result lines, in order.
    pub results: Vec<Value>,
}

impl Part {
    /// Read a part file; an error names the file and the line.
    pub(crate) fn read(path: &Path) -> Result<Part, String> {
        let at = |n: usize, m: String| format!("{}:{n}: {m}", path.display());
        let text = files::read_text(path, BOUNDS)?;
        let mut lines = Vec::new();
        for (i, l) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(l)
                .map_err(|e| at(i + 1, format!("not a JSON object: {e}")))?;
            lines.push(v);
        }
        let Some(header) = lines.first().cloned() else {
            return Err(format!("{}: empty, not a part file", path.display()));
        };
        if header["type"] != "header" || header["format"] != FORMAT {
            return Err(at(
                1,
                format!("not a part file of choro (the header must say \"format\":\"{FORMAT}\")"),
            ));
        }
        let job = match (header["job"][0].as_u64(), header["job"][1].as_u64()) {
            (Some(k), Some(n)) if 1 <= k && k <= n => Job { k, n },
            _ => return Err(at(1, "the header's job is not [K, N]".into())),
        };
        let last = lines.len() - 1;
        let results: Vec<Value> = lines[1..last.max(1)].to_vec();
        let end = &lines[last];
        if last == 0 || end["type"] != "end" {
            return Err(at(
                lines.len(),
                "no end line: the part did not finish (run it again)".into(),
            ));
        }
        if end["results"].as_u64() != Some(results.len() as u64) {
            return Err(at(
                lines.len(),
                format!(
                    "the end line counts {} results, the file holds {}",
                    end["results"],
                    results.len()
                ),
            ));
        }
        if let Some(i) = results.iter().position(|r| r["type"] != header["kind"]) {
            return Err(at(
                i + 2,
                format!("a result line of another kind than {}", header["kind"]),
            ));
        }
        Ok(Part {
            path: path.to_path_buf(),
            header,
            job,
            results,
        })
    }
}

/// How two match parts' settings differ in meaning (`choro match`'s own
/// comparison, given by the caller: the match runner sits above this
/// module), or `None` when they would give the same games.
pub(crate) type MatchDifference = fn(&Value, &Value) -> Option<String>;

/// Read the part files of one run: the same kind, choro version, commit,
/// settings (by meaning: `settings_difference`, a match's by
/// `match_difference`) and N in every header, each K of 1..=N exactly
/// once. They are returned in the order of K.
pub fn read_all(paths: &[PathBuf], match_difference: MatchDifference) -> Result<Vec<Part>, String> {
    let mut parts = paths
        .iter()
        .map(|p| Part::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = parts.first().cloned() else {
        return Err("no part files given".into());
    };
    for p in &parts[1..] {
        for (key, what) in [
            ("kind", "a run of another kind"),
            ("choro", "another version of choro"),
            ("commit", "another commit of choro"),
        ] {
            if p.header[key] != first.header[key] {
                return Err(format!(
                    "{} is from {what} than {} ({key}: {} against {}); parts merge only \
                     from one run",
                    p.path.display(),
                    first.path.display(),
                    crate::text::one_line(&p.header[key].to_string(), 200),
                    crate::text::one_line(&first.header[key].to_string(), 200),
                ));
            }
        }
        if let Some(d) = settings_difference(&first.header, &p.header, match_difference) {
            return Err(format!(
                "{} is from another run than {}: they differ in {d}; parts merge only from \
                 one run",
                p.path.display(),
                first.path.display(),
            ));
        }
        if p.job.n != first.job.n {
            return Err(format!(
                "{} is part {} but {} is part {}: parts of a split into {} and into {}",
                p.path.display(),
                p.job,
                first.path.display(),
                first.job,
                p.job.n,
                first.job.n
            ));
        }
    }
    parts.sort_by_key(|p| p.job.k);
    for w in parts.windows(2) {
        if w[0].job.k == w[1].job.k {
            return Err(format!(
                "{} and {} are both part {}: a duplicate",
                w[0].path.display(),
                w[1].path.display(),
                w[0].job
            ));
        }
    }
    let n = first.job.n;
    let missing: Vec<String> = (1..=n)
        .filter(|k| !parts.iter().any(|p| p.job.k == *k))
        .take(20)
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "parts missing of {n}: {}{}",
            missing.join(", "),
            if (n as usize) - parts.len() > missing.len() {
                ", ..."
            } else {
                ""
            }
        ));
    }
    Ok(parts)
}

/// How two parts' settings differ in meaning, naming the first option or
/// key that does (`--seed (4 against 3)`); none when they would give the
/// same results. A match's settings are its command line, compared option
/// by option as `choro match` reads them; a solve's are compared key by key.
fn settings_difference(a: &Value, b: &Value, match_difference: MatchDifference) -> Option<String> {
    match a["kind"].as_str() {
        Some("match") => match_difference(&b["settings"], &a["settings"]),
        _ => json_difference("settings", &b["settings"], &a["settings"]),
    }
}

/// The first place where two JSON values differ: `path.key (x against y)`.
fn json_difference(path: &str, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        _ if a == b => None,
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                json_difference(&format!("{path}.{k}"), &a[k.as_str()], &b[k.as_str()])
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| json_difference(&format!("{path}[{i}]"), p, q)),
        _ => Some(format!(
            "{path} ({} against {})",
            crate::text::one_line(&a.to_string(), 100),
            crate::text::one_line(&b.to_string(), 100)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_ranges_cover_every_unit_once_in_order() {
        for total in [0usize, 1, 3, 4, 7, 20, 41] {
            for n in 1..=9u64 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Job { k, n }.range(total);
                    assert_eq!(r.start, next, "total {total} job {k}/{n}");
                    assert!(r.end - r.start <= total.div_ceil(n as usize));
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn settings_differences_name_the_first_key_that_differs() {
        let a = json!({"root": "r", "plies": 4, "hash": 256, "list": [1, 2]});
        assert_eq!(json_difference("settings", &a, &a.clone()), None);
        let mut b = a.clone();
        b["plies"] = json!(6);
        b["root"] = json!("s");
        // Keys in order: plies before root.
        assert_eq!(
            json_difference("settings", &b, &a).as_deref(),
            Some("settings.plies (6 against 4)")
        );
        let mut c = a.clone();
        c["list"][1] = json!(3);
        assert_eq!(
            json_difference("settings", &c, &a).as_deref(),
            Some("settings.list[1] (3 against 2)")
        );
        let mut d = a.clone();
        d["threads"] = json!(2);
        assert_eq!(
            json_difference("settings", &d, &a).as_deref(),
            Some("settings.threads (2 against null)")
        );
    }

    #[test]
    fn job_parses_k_of_n_and_refuses_the_rest() {
        assert_eq!("3/4".parse::<Job>(), Ok(Job { k: 3, n: 4 }));
        for bad in ["0/4", "5/4", "4", "a/4", "1/0", "1/-2", ""] {
            assert!(bad.parse::<Job>().is_err(), "{bad}");
        }
    }
}
