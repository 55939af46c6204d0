//! The solver's inputs: the book format (`positions/solved/*.book`,
//! `solve::book`), the save file of facts (`solve::store`), the protocol's
//! `solve` command and the arguments of `choro solve`. Every input is read
//! all four ways (a book and a save file whole, each line as a command and,
//! when it opens with `choro solve`, as tab-separated arguments).
//!
//! Checks: a rejected input gives a short message (at most [`MAX_ERROR`]
//! bytes) naming its line; an accepted book round-trips (its lines written
//! again read back to the same entries in the same order, a fixed point),
//! every move is legal, and a value agrees with a finished game (`win 0`,
//! `loss 0` or `draw` as the game's outcome says; never a zero distance
//! with a legal move); an accepted save file round-trips the same way, and
//! the facts merged for a position are ones a single line could state (no
//! win and loss of the same position); an accepted `solve` command keeps
//! its documented ranges and reads back from its canonical form; accepted
//! `choro solve` arguments keep theirs, and their start position is the one
//! the position parser reads.

use super::Target;
use crate::gen;
use crate::mutate;
use crate::rng::Rng;
use choro::command::{Command, SolveReq};
use choro::solve::SolveArgs;
use choro_engine::solve::book::{parse_value, Book, BUILTIN};
use choro_engine::solve::store::{self, facts_text, parse_facts};
use choro_engine::solve::table::{Facts, NONE};
use choro_engine::solve::Value;
use choro_engine::Outcome;
use choro_engine::{Position, Variant};
use clap::Parser;

/// Longest message of a rejected input.
pub const MAX_ERROR: usize = 200;

pub const DICT: &[&str] = &[
    "\t",
    "win",
    "loss",
    "draw",
    "win 0",
    "loss 0",
    "-",
    "#",
    "win<=",
    "nowin>=",
    "loss<=",
    "noloss>=",
    "4095",
    "4094",
    "solve",
    "plies",
    "nodes",
    "movetime",
    "choro solve",
    "--pos",
    "--threads",
    "--hash",
    "--time",
    "--nodes",
    "--plies",
    "--progress",
    "--retro",
    "--book",
    "--save",
    "--json",
    "--variant",
    "--columns",
    "--opening",
    "\r\n",
];

#[derive(Default)]
pub struct SolveTarget {
    pub books: u64,
    pub book_entries: u64,
    pub books_rejected: u64,
    pub saves: u64,
    pub save_positions: u64,
    pub saves_rejected: u64,
    pub commands: u64,
    pub commands_rejected: u64,
    pub args: u64,
    pub args_rejected: u64,
}

/// `choro solve`'s arguments as clap reads them.
#[derive(Parser, Debug)]
#[command(name = "choro solve")]
struct Cli {
    #[command(flatten)]
    a: SolveArgs,
}

impl Target for SolveTarget {
    fn name(&self) -> &'static str {
        "solve"
    }

    fn dict(&self) -> &'static [&'static str] {
        DICT
    }

    fn max_len(&self) -> usize {
        8 * 1024
    }

    fn generate(&mut self, rng: &mut Rng) -> Vec<u8> {
        match rng.below(8) {
            0..=2 => book_text(rng),
            3..=5 => save_text(rng),
            6 => command_line(rng),
            _ => args_line(rng),
        }
        .into_bytes()
    }

    fn mutate(&mut self, rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
        match (rng.below(4), std::str::from_utf8(base)) {
            (0, Ok(s)) => mutate::words(rng, s, DICT).into_bytes(),
            (1, Ok(s)) => edit_field(rng, s).into_bytes(),
            (2, Ok(s)) => {
                // Lines of another kind spliced in: a book line in a save
                // file, a fact line in a book, a position twice.
                let mut lines: Vec<&str> = s.split('\n').collect();
                let o = String::from_utf8_lossy(other);
                let olines: Vec<&str> = o.split('\n').collect();
                let at = rng.below(lines.len() + 1);
                lines.insert(at, olines[rng.below(olines.len())]);
                lines.join("\n").into_bytes()
            }
            _ => {
                let mut d = base.to_vec();
                mutate::bytes(rng, &mut d, other, DICT, self.max_len());
                d
            }
        }
    }

    fn check(&mut self, input: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(input);
        self.book(&text)?;
        self.save(&text)?;
        for line in text.lines() {
            self.command(line)?;
            if let Some(rest) = line.strip_prefix("choro solve") {
                self.arguments(rest)?;
            }
        }
        Ok(())
    }

    fn stats(&self) -> String {
        format!(
            "books {} ({} entries, {} rejected) save files {} ({} positions, {} rejected) \
             solve commands {} ({} rejected) argument lists {} ({} rejected)",
            self.books,
            self.book_entries,
            self.books_rejected,
            self.saves,
            self.save_positions,
            self.saves_rejected,
            self.commands,
            self.commands_rejected,
            self.args,
            self.args_rejected
        )
    }
}

fn short(what: &str, e: &str) -> Result<(), String> {
    if e.len() > MAX_ERROR || e.contains('\n') {
        return Err(format!(
            "{what} rejected with a message of {} bytes: {}",
            e.len(),
            e.escape_debug()
        ));
    }
    Ok(())
}

/// The value a finished game has for the side to move.
fn outcome_value(pos: &Position, o: Outcome) -> Value {
    match o {
        Outcome::Win { winner } if winner == pos.side_to_move() => Value::Win(0),
        Outcome::Win { .. } => Value::Loss(0),
        Outcome::Draw(_) => Value::Draw,
    }
}

impl SolveTarget {
    fn book(&mut self, text: &str) -> Result<(), String> {
        let book = match Book::parse(text) {
            Ok(b) => b,
            Err(e) => {
                self.books_rejected += 1;
                short("book", &e)?;
                if !e.starts_with("line ") {
                    return Err(format!("book error without its line: {e}"));
                }
                return Ok(());
            }
        };
        self.books += 1;
        let mut again = String::new();
        for e in book.entries() {
            self.book_entries += 1;
            if e.pos.ply() != 0 {
                return Err(format!("book entry {} kept its ply", e.pos));
            }
            if book.get(&e.pos) != Some(e) {
                return Err(format!("book entry {} not found by its position", e.pos));
            }
            match (e.pos.has_legal_move(), e.pos.outcome()) {
                (false, Some(o)) => {
                    let want = outcome_value(&e.pos, o);
                    if e.value != want {
                        return Err(format!(
                            "book entry {}: value {} of a finished game ({o}), expected {want}",
                            e.pos, e.value
                        ));
                    }
                }
                (true, None) => {
                    if matches!(e.value, Value::Win(0) | Value::Loss(0)) {
                        return Err(format!(
                            "book entry {}: value {} with a legal move",
                            e.pos, e.value
                        ));
                    }
                }
                (l, o) => {
                    return Err(format!(
                        "book entry {}: has_legal_move {l} and outcome {o:?}",
                        e.pos
                    ))
                }
            }
            if let Some(m) = e.best {
                let (m2, _) = e
                    .pos
                    .parse_move(&m.to_string())
                    .map_err(|x| format!("book entry {}: move {m} illegal: {x}", e.pos))?;
                if m2 != m {
                    return Err(format!("book entry {}: move {m} reads as {m2}", e.pos));
                }
            }
            again.push_str(&Book::line(e));
            again.push('\n');
        }
        let back = Book::parse(&again)
            .map_err(|e| format!("the book written again is rejected: {e}\n{again}"))?;
        let a: Vec<_> = book.entries().collect();
        let b: Vec<_> = back.entries().collect();
        if a != b {
            return Err(format!(
                "the book written again reads back differently:\n{again}"
            ));
        }
        let third: String = back.entries().map(|e| Book::line(e) + "\n").collect();
        if third != again {
            return Err(format!("the book's lines are not a fixed point:\n{again}"));
        }
        Ok(())
    }

    fn save(&mut self, text: &str) -> Result<(), String> {
        let code = header_code(text);
        let map = match store::read(text.as_bytes(), "save", &code) {
            Ok(m) => m.map,
            Err(e) => {
                self.saves_rejected += 1;
                short("save file", &e)?;
                if !e.starts_with("save:") {
                    return Err(format!("save file error without its line: {e}"));
                }
                return Ok(());
            }
        };
        self.saves += 1;
        let mut again = code.header() + "\n";
        for (k, (p, f)) in &map {
            self.save_positions += 1;
            if !code.holds(p) {
                return Err(format!(
                    "save file: {p} accepted in a file of {}",
                    code.name()
                ));
            }
            if *k != p.hash() {
                return Err(format!("save file: {p} stored under another hash"));
            }
            // Merged facts are ones a single line could state.
            let t = facts_text(f);
            let one = parse_facts(&t).map_err(|e| {
                format!(
                    "save file: the facts merged for {p} are '{t}', which no line may state: {e}"
                )
            })?;
            if one != *f {
                return Err(format!(
                    "save file: facts '{t}' of {p} read back differently"
                ));
            }
            again.push_str(&(store::record(p, f) + "\n"));
        }
        let back = store::read(again.as_bytes(), "again", &code)
            .map_err(|e| format!("the save file written again is rejected: {e}\n{again}"))?
            .map;
        if back.len() != map.len() {
            return Err(format!(
                "the save file written again has {} positions of {}",
                back.len(),
                map.len()
            ));
        }
        for (k, (p, f)) in &map {
            match back.get(k) {
                Some((q, g)) if q.same_state(p) && g == f => {}
                other => {
                    return Err(format!(
                        "the save file written again reads {p} as {other:?}, not {f:?}"
                    ))
                }
            }
        }
        Ok(())
    }

    fn command(&mut self, line: &str) -> Result<(), String> {
        if line.split_ascii_whitespace().next() != Some("solve") {
            return Ok(());
        }
        match choro::parse(line) {
            Ok(Some(Command::Solve(r))) => {
                self.commands += 1;
                if r.movetime == Some(0) || r.nodes == Some(0) {
                    return Err(format!("'{line}' accepted a zero limit: {r:?}"));
                }
                if r.plies.is_some_and(|p| !(1..=4094).contains(&p)) {
                    return Err(format!("'{line}' accepted plies outside 1..4094: {r:?}"));
                }
                let canon = canonical(&r);
                match choro::parse(&canon) {
                    Ok(Some(Command::Solve(r2))) if r2 == r => Ok(()),
                    other => Err(format!("'{canon}' (from '{line}') reads as {other:?}")),
                }
            }
            Ok(other) => Err(format!("'{line}' read as {other:?}, not solve")),
            Err(e) => {
                self.commands_rejected += 1;
                short("solve command", &e.to_string())
            }
        }
    }

    fn arguments(&mut self, rest: &str) -> Result<(), String> {
        let words =
            std::iter::once("choro solve").chain(rest.split('\t').filter(|w| !w.is_empty()));
        let cli = match Cli::try_parse_from(words) {
            Ok(c) => c,
            Err(_) => {
                self.args_rejected += 1;
                return Ok(());
            }
        };
        self.args += 1;
        let a = &cli.a;
        if !(1..=256).contains(&a.threads) || !(1..=1 << 20).contains(&a.hash) {
            return Err(format!("arguments '{rest}' accepted {a:?}"));
        }
        if a.plies.is_some_and(|p| !(1..=4094).contains(&p)) || a.nodes == Some(0) {
            return Err(format!("arguments '{rest}' accepted {a:?}"));
        }
        let seconds_ok = |t: f64| t > 0.0 && t <= 1e9;
        if !seconds_ok(a.progress) || a.time.is_some_and(|t| !seconds_ok(t)) {
            return Err(format!(
                "arguments '{rest}' accepted seconds out of range: {a:?}"
            ));
        }
        match (a.start.position(), &a.start.pos) {
            (Ok(p), Some(s)) => match s.parse::<Position>() {
                Ok(q) if q == p => Ok(()),
                other => Err(format!("--pos '{s}' gave {p}, the parser {other:?}")),
            },
            (Ok(p), None) => {
                let v: Variant = a.start.variant.parse().map_err(|e| format!("{e}"))?;
                if p.variant() != v || p.ply() != 0 {
                    return Err(format!("arguments '{rest}' started from {p}"));
                }
                Ok(())
            }
            (Err(e), _) => {
                self.args_rejected += 1;
                short("choro solve start", &e)
            }
        }
    }
}

/// A `solve` command's canonical spelling.
fn canonical(r: &SolveReq) -> String {
    let mut s = String::from("solve");
    if let Some(t) = r.movetime {
        s += &format!(" movetime {t}");
    }
    if let Some(n) = r.nodes {
        s += &format!(" nodes {n}");
    }
    if let Some(p) = r.plies {
        s += &format!(" plies {p}");
    }
    s
}

fn value_text(rng: &mut Rng, pos: &Position) -> String {
    if rng.chance(3, 4) {
        if let Some(o) = pos.outcome() {
            return outcome_value(pos, o).to_string();
        }
    }
    let n = if rng.chance(1, 8) {
        rng.pick(mutate::EDGE_NUMBERS).to_string()
    } else {
        rng.range(0, 60).to_string()
    };
    match rng.below(5) {
        0 | 1 => format!("win {n}"),
        2 | 3 => format!("loss {n}"),
        _ => "draw".into(),
    }
}

/// A book: comments, lines of random positions with a value and a legal
/// move (or `-`), and lines of the shipped book.
fn book_text(rng: &mut Rng) -> String {
    let shipped: Vec<&str> = BUILTIN
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| !l.starts_with('#'))
        .collect();
    let mut out = String::from("# choro book of solved positions\n");
    for _ in 0..1 + rng.below(6) {
        if !shipped.is_empty() && rng.chance(1, 3) {
            out += *rng.pick(&shipped);
        } else {
            let pos = gen::any_position(rng).with_ply(0);
            let legal = pos.legal_moves();
            let mv = if legal.is_empty() || rng.chance(1, 6) {
                "-".to_string()
            } else {
                pos.restyle(legal[rng.below(legal.len())].0).to_string()
            };
            out += &format!("{pos}\t{}\t{mv}", value_text(rng, &pos));
        }
        out.push_str(if rng.chance(1, 10) { "\r\n" } else { "\n" });
    }
    out
}

fn random_facts(rng: &mut Rng) -> Facts {
    let mut f = Facts::default();
    match rng.below(4) {
        0 => {
            f.win_le = rng.range(1, 40) as u32;
            f.nowin_ge = rng.range(0, f.win_le as i64 - 1) as u32;
        }
        1 => {
            f.loss_le = rng.range(1, 40) as u32;
            f.noloss_ge = rng.range(0, f.loss_le as i64 - 1) as u32;
        }
        2 => f.draw = true,
        _ => {
            f.nowin_ge = rng.range(0, NONE as i64 - 1) as u32;
            f.noloss_ge = rng.range(if f.nowin_ge == 0 { 1 } else { 0 }, 40) as u32;
        }
    }
    f
}

/// The code a save file's first line names (`# choro save 2 lango:8 rules
/// 0123456789abcdef`), or Lango 8 with fingerprint 0 when it names none.
fn header_code(text: &str) -> store::Code {
    let mut code = store::Code {
        variant: Variant::Lango,
        width: 8,
        rules: 0,
    };
    let first = text.lines().next().unwrap_or("");
    let words: Vec<&str> = first
        .strip_prefix(store::FORMAT)
        .unwrap_or("")
        .split_whitespace()
        .collect();
    if let [name, "rules", rules] = words.as_slice() {
        let (v, w) = name.split_once(':').unwrap_or((name, "5"));
        if let (Ok(v), Ok(w), Ok(r)) = (
            v.parse::<Variant>(),
            w.parse::<u8>(),
            u64::from_str_radix(rules, 16),
        ) {
            code = store::Code {
                variant: v,
                width: w,
                rules: r,
            };
        }
    }
    code
}

/// A save file: its first line and records of facts, a position now and
/// then on several lines; now and then a record of another code, with a
/// wrong checksum or none, or no first line.
fn save_text(rng: &mut Rng) -> String {
    let first = gen::any_position(rng).with_ply(0);
    let code = store::Code {
        variant: first.variant(),
        width: first.width(),
        rules: rng.next_u64(),
    };
    let mut out = if rng.chance(1, 10) {
        String::from("# choro solve save file\n")
    } else {
        code.header() + "\n"
    };
    let mut seen: Vec<Position> = vec![first];
    for _ in 0..1 + rng.below(6) {
        let pos = if rng.chance(1, 3) {
            *rng.pick(&seen)
        } else if rng.chance(1, 10) {
            gen::any_position(rng).with_ply(0)
        } else {
            gen::legal_line(rng, first, 12).0.with_ply(0)
        };
        seen.push(pos);
        let f = random_facts(rng);
        out += &match rng.below(12) {
            0 => format!("{pos}\t{}\n", facts_text(&f)),
            1 => format!("{pos}\t{}\t0000000000000000\n", facts_text(&f)),
            _ => store::record(&pos, &f) + "\n",
        };
    }
    out
}

fn command_line(rng: &mut Rng) -> String {
    let mut s = String::from("solve");
    for _ in 0..rng.below(4) {
        let v = if rng.chance(1, 3) {
            rng.pick(mutate::EDGE_NUMBERS).to_string()
        } else {
            rng.range(1, 5000).to_string()
        };
        s += &format!(" {} {v}", rng.pick(&["movetime", "nodes", "plies"]));
    }
    s
}

fn args_line(rng: &mut Rng) -> String {
    let mut w: Vec<String> = Vec::new();
    if rng.chance(1, 2) {
        let v = *rng.pick(&Variant::ALL);
        w.push(format!("--variant={}", v.name()));
        if rng.chance(1, 3) {
            w.push(format!("--columns={}", rng.range(7, 17)));
        }
        if rng.chance(1, 3) {
            w.push(format!(
                "--opening={}",
                rng.pick(&["sequential", "simultaneous", "both"])
            ));
        }
    } else {
        w.push("--pos".into());
        w.push(gen::any_position(rng).to_string());
    }
    for _ in 0..rng.below(4) {
        let (k, v) = match rng.below(8) {
            0 => ("--threads", rng.range(0, 300).to_string()),
            1 => ("--hash", rng.range(0, 2_000_000).to_string()),
            2 => (
                "--time",
                rng.pick(&["0", "0.5", "1e9", "1e10", "-1", "nan", "inf", "3"])
                    .to_string(),
            ),
            3 => ("--nodes", rng.range(0, 100).to_string()),
            4 => ("--plies", rng.range(0, 5000).to_string()),
            5 => (
                "--progress",
                rng.pick(&["0", "0.1", "NaN", "1"]).to_string(),
            ),
            6 => ("--retro", rng.range(0, 10).to_string()),
            _ => ("--json", String::new()),
        };
        w.push(k.into());
        if !v.is_empty() {
            w.push(v);
        }
    }
    format!("choro solve\t{}", w.join("\t"))
}

/// Edit one tab-separated field of one line: a value, a distance, a fact or
/// a move spoiled or swapped.
fn edit_field(rng: &mut Rng, s: &str) -> String {
    let mut lines: Vec<String> = s.split('\n').map(str::to_string).collect();
    let li = rng.below(lines.len());
    let mut f: Vec<String> = lines[li].split('\t').map(str::to_string).collect();
    let fi = rng.below(f.len());
    f[fi] = match rng.below(7) {
        0 => rng
            .pick(&["win", "loss", "draw", "win 0", "loss 0", "draw 1", "win -1"])
            .to_string(),
        1 => format!(
            "{} {}",
            rng.pick(&["win", "loss"]),
            rng.pick(mutate::EDGE_NUMBERS)
        ),
        2 => format!(
            "{}{}",
            rng.pick(&["win<=", "nowin>=", "loss<=", "noloss>="]),
            rng.pick(mutate::EDGE_NUMBERS)
        ),
        3 => rng.pick(&["-", "", "m", "xj", "~k=a-", "0000"]).to_string(),
        4 => f[fi].repeat(1 + rng.below(3)),
        5 => f[rng.below(f.len())].clone(),
        _ => format!("{} {}", f[fi], facts_text(&random_facts(rng))),
    };
    if rng.chance(1, 6) && parse_value(&f[fi]).is_ok() {
        f.push("extra".into());
    }
    lines[li] = f.join("\t");
    lines.join("\n")
}
