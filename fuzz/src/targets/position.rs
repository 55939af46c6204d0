//! The position string parser: parse -> print -> parse gives the same
//! position, the printed form is a fixed point, the counts land where a
//! plain reading of the string puts them; a rejected string gives a typed
//! error with a short message, never a panic.

use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro_engine::{Position, PositionError, Side, Variant};

pub const DICT: &[&str] = &[
    "didinga",
    "didinga:8",
    "didinga:16",
    "didinga:17",
    "lango:8",
    "acholi",
    "adjiboto",
    "a",
    "b",
    "A",
    "B",
    "c",
    "m",
    "o1",
    "o2",
    "o3",
    "-",
    "-/-",
    "0/0",
    "50/50",
    "12345/54321",
    "/",
    ",",
    ":",
    "::",
    "//",
    ",,",
];

#[derive(Default)]
pub struct PositionTarget {
    pub accepted: u64,
    pub rejected: u64,
}

impl Target for PositionTarget {
    fn name(&self) -> &'static str {
        "position"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        4096
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        let v = *rng.pick(&Variant::ALL);
        let s = if rng.chance(1, 2) {
            gen::board_string(rng, v)
        } else {
            gen::random_play(rng, v, 60).1.to_string()
        };
        let s = if rng.chance(1, 3) {
            flip_field(rng, &s)
        } else {
            s
        };
        s.into_bytes()
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        match (rng.below(3), std::str::from_utf8(base)) {
            (0, Ok(s)) => flip_field(rng, s).into_bytes(),
            (1, Ok(s)) => mutate::words(rng, s, DICT).into_bytes(),
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                d
            }
        }
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        // The protocol hands the parser only valid UTF-8.
        let s = String::from_utf8_lossy(input);
        match s.parse::<Position>() {
            Ok(p) => {
                self.accepted += 1;
                check_accepted(&s, &p)
            }
            Err(e) => {
                self.rejected += 1;
                check_rejected(&e)
            }
        }
    }

    fn stats(&self) -> String {
        format!("accepted {} rejected {}", self.accepted, self.rejected)
    }
}

/// Replace, drop, add or spoil one field of a position string.
pub fn flip_field(rng: &mut Rng, s: &str) -> String {
    let mut f: Vec<String> = s.split(' ').map(str::to_string).collect();
    let i = rng.below(f.len());
    match rng.below(8) {
        0 => f[i] = rng.pick(DICT).to_string(),
        1 => {
            f.remove(i);
        }
        2 => {
            let w = f[i].clone();
            f.insert(i, w);
        }
        3 => f.push(rng.pick(mutate::EDGE_NUMBERS).to_string()),
        4 => {
            // One count, width or store to an edge number.
            let mut parts: Vec<String> = f[i].split([',', '/', ':']).map(str::to_string).collect();
            let seps: Vec<char> = f[i]
                .chars()
                .filter(|&c| c == ',' || c == '/' || c == ':')
                .collect();
            let k = rng.below(parts.len());
            parts[k] = rng.pick(mutate::EDGE_NUMBERS).to_string();
            let mut out = parts[0].clone();
            for (p, c) in parts[1..].iter().zip(seps) {
                out.push(c);
                out.push_str(p);
            }
            f[i] = out;
        }
        5 => {
            // A row too many or too few.
            if let Some(r) = f.get_mut(1) {
                if rng.chance(1, 2) {
                    if let Some(cut) = r.rfind('/') {
                        r.truncate(cut);
                    }
                } else {
                    let first = r.split('/').next().unwrap_or("").to_string();
                    r.push('/');
                    r.push_str(&first);
                }
            }
        }
        6 => {
            // A hole too many or too few in one row.
            if let Some(r) = f.get_mut(1) {
                let mut rows: Vec<String> = r.split('/').map(str::to_string).collect();
                let k = rng.below(rows.len());
                if rng.chance(1, 2) {
                    rows[k].push_str(",0");
                } else if let Some(cut) = rows[k].rfind(',') {
                    rows[k].truncate(cut);
                }
                *r = rows.join("/");
            }
        }
        _ => f[i] = f[i].to_uppercase(),
    }
    let sep = if rng.chance(1, 10) { "  \t" } else { " " };
    f.join(sep)
}

fn check_rejected(e: &PositionError) -> Result<(), String> {
    let msg = e.to_string();
    // Each quoted field is cut to 20 characters (4 bytes each at most).
    if msg.len() > 160 {
        return Err(format!("error message of {} bytes: {msg}", msg.len()));
    }
    Ok(())
}

/// The invariants of an accepted string `s` parsed as `p`.
pub fn check_accepted(s: &str, p: &Position) -> Result<(), String> {
    let printed = p.to_string();
    let again: Position = printed
        .parse()
        .map_err(|e| format!("printed form rejected: '{printed}': {e}"))?;
    if again != *p {
        return Err(format!(
            "parse(print(p)) != p for '{s}': {again:?} vs {p:?}"
        ));
    }
    if again.to_string() != printed {
        return Err(format!("print is not a fixed point: '{printed}'"));
    }
    let v = p.variant();
    if !v.widths().contains(&p.width()) {
        return Err(format!("width {} accepted for {v}", p.width()));
    }
    let max = if v.is_choro() {
        8 * p.width() as u32
    } else {
        100
    };
    if p.total_counters() > max {
        return Err(format!(
            "{} counters accepted, at most {max}",
            p.total_counters()
        ));
    }
    if v.is_choro() && p.stores() != [0, 0] {
        return Err("a Choro position with stores".into());
    }
    reference_fields(s, p)
}

/// A plain second reading of the string's fields, compared with `p`.
fn reference_fields(s: &str, p: &Position) -> Result<(), String> {
    // The parser splits at any Unicode white space (the protocol splits its
    // tokens at ASCII white space only, then joins them with spaces).
    let f: Vec<&str> = s.split_whitespace().collect();
    let code = f[0].split(':').next().unwrap_or("");
    let rows: Vec<Vec<u32>> = f[1]
        .split('/')
        .map(|r| {
            r.split(',')
                .map(|c| c.parse().unwrap_or(u32::MAX))
                .collect()
        })
        .collect();
    let side = match f[2] {
        "a" | "A" => Side::A,
        _ => Side::B,
    };
    if p.side_to_move() != side {
        return Err(format!("side {side:?} read as {:?}", p.side_to_move()));
    }
    if !code.eq_ignore_ascii_case(p.variant().name())
        && !matches!(code.to_ascii_lowercase().as_str(), "pereauni" | "choro")
    {
        return Err(format!("code '{code}' read as {}", p.variant()));
    }
    let nrows = rows.len() as u8;
    for (i, row) in rows.iter().enumerate() {
        let r = nrows - 1 - i as u8;
        for (c, &n) in row.iter().enumerate() {
            let got = p.at(r, c as u8) as u32;
            if got != n {
                return Err(format!("row {i} hole {c}: '{n}' read as {got}"));
            }
        }
    }
    let race = matches!(f.get(3), Some(&"r") | Some(&"rx"));
    let ply_field = match (p.variant().is_choro(), race) {
        (true, true) => 7,
        (true, false) => 4,
        _ => 5,
    };
    let ply: u32 = f
        .get(ply_field)
        .map_or(Ok(0), |t| t.parse())
        .unwrap_or(u32::MAX);
    if p.ply() != ply {
        return Err(format!("ply {ply} read as {}", p.ply()));
    }
    Ok(())
}
