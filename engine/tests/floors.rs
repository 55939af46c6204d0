//! The floors that `lib.rs` states hold, and no crate of the workspace has a
//! circle of modules.
//!
//! The sources are read as text: comments, strings and character literals
//! are blanked, every path that starts with `crate`, `super` or `self` (and
//! every `use` of a child module) is resolved to the module it names,
//! through `use` re-exports, and each path gives an edge between the two
//! sibling modules under their nearest common parent. A module may use its
//! ancestors' items (a child is part of its parent); siblings may not use
//! each other both ways, at any depth. The top-level modules of the engine
//! and of the match runner must in addition only use modules on lower
//! floors, as listed in their `lib.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from its crate root (empty: the root).
type ModPath = Vec<String>;

/// One token of blanked source: an identifier, `::`, or one punctuation
/// character.
fn tokens(src: &str) -> Vec<String> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            i += if c == 'b' { 2 } else { 1 };
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push("\"\"".into());
        } else if (c == 'r' || c == 'b')
            && !b[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && raw_string_start(&b[i..]).is_some()
        {
            let (skip, hashes) = raw_string_start(&b[i..]).unwrap();
            i += skip;
            loop {
                if b[i] == '"' && (0..hashes).all(|k| b.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push("\"\"".into());
        } else if c == '\'' {
            // A character literal, or a lifetime (no closing quote after
            // one character or one escape).
            if next == Some('\\') {
                i += 2;
                while b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(b[start..i].iter().collect());
        } else if c == ':' && next == Some(':') {
            out.push("::".into());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// `r"`, `r#"`, `br##"` ...: the length of the opening and its `#` count.
fn raw_string_start(b: &[char]) -> Option<(usize, usize)> {
    let mut i = if b[0] == 'b' { 1 } else { 0 };
    if b.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = b[i..].iter().take_while(|&&c| c == '#').count();
    (b.get(i + hashes) == Some(&'"')).then_some((i + hashes + 1, hashes))
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The paths of a path or use tree starting at `toks[i]`, and the index
/// after it. `a::b::{c, d::{self, e}}` gives `a::b::c`, `a::b::d`,
/// `a::b::d::e`; a glob gives its prefix.
fn read_tree(toks: &[String], mut i: usize, prefix: &[String]) -> (Vec<(ModPath, String)>, usize) {
    let mut path = prefix.to_vec();
    let mut out = Vec::new();
    while let Some(t) = toks.get(i) {
        if t == "{" {
            i += 1;
            while toks.get(i).is_some_and(|t| t != "}") {
                let (sub, j) = read_tree(toks, i, &path);
                out.extend(sub);
                i = j;
                if toks.get(i).is_some_and(|t| t == ",") {
                    i += 1;
                }
            }
            return (out, i + 1);
        }
        if t == "*" {
            out.push((path.clone(), String::new()));
            return (out, i + 1);
        }
        if !is_ident(t) {
            break;
        }
        if t == "self" && !path.is_empty() && toks.get(i + 1).is_none_or(|n| n != "::") {
            let name = path.last().unwrap().clone();
            out.push((path.clone(), name));
            return (out, i + 1);
        }
        path.push(t.clone());
        i += 1;
        if toks.get(i).is_some_and(|t| t == "::") {
            i += 1;
        } else {
            break;
        }
    }
    let mut name = path.last().cloned().unwrap_or_default();
    if toks.get(i).is_some_and(|t| t == "as") {
        name = toks.get(i + 1).cloned().unwrap_or_default();
        i += 2;
    }
    out.push((path, name));
    (out, i)
}

/// One source file: the module it is, the paths it names (each resolved
/// from the inline module it sits in), and its top-level `use` names.
struct File {
    module: ModPath,
    paths: Vec<ModPath>,
    uses: BTreeMap<String, ModPath>,
}

/// Every module of the crate rooted at `root_file`, following `mod x;`.
fn crate_files(root_file: &Path) -> Vec<File> {
    let mut files = Vec::new();
    let mut todo = vec![(root_file.to_path_buf(), ModPath::new())];
    while let Some((file, module)) = todo.pop() {
        let src = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let toks = tokens(&src);
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let dir = if module.is_empty() || stem == "mod" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        let children: BTreeSet<String> = (0..toks.len())
            .filter(|&i| toks[i] == "mod" && toks.get(i + 2).is_some_and(|t| t == ";"))
            .map(|i| toks[i + 1].clone())
            .collect();
        for c in &children {
            let flat = dir.join(format!("{c}.rs"));
            let nested = dir.join(c).join("mod.rs");
            let path = if flat.exists() { flat } else { nested };
            let mut m = module.clone();
            m.push(c.clone());
            todo.push((path, m));
        }
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut paths = Vec::new();
        let mut uses = BTreeMap::new();
        let mut i = 0;
        while i < toks.len() {
            let t = toks[i].as_str();
            let here: ModPath = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(n, _)| n.clone()))
                .collect();
            if t == "mod" && toks.get(i + 2).is_some_and(|t| t == "{") {
                inline.push((toks[i + 1].clone(), depth));
                depth += 1;
                i += 3;
                continue;
            }
            if t == "{" {
                depth += 1;
            } else if t == "}" {
                depth -= 1;
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            let after_colons = i > 0 && toks[i - 1] == "::";
            let is_use = t == "use";
            let starts = matches!(t, "crate" | "super" | "self")
                && toks.get(i + 1).is_some_and(|n| n == "::")
                && !after_colons;
            if is_use || starts {
                let from = if is_use { i + 1 } else { i };
                let (tree, j) = read_tree(&toks, from, &[]);
                for (p, name) in tree {
                    let Some(first) = p.first() else { continue };
                    let relative_child = is_use && children.contains(first) && inline.is_empty();
                    if !matches!(first.as_str(), "crate" | "super" | "self") && !relative_child {
                        continue;
                    }
                    let abs = absolute(&here, &p);
                    if is_use && inline.is_empty() && !name.is_empty() {
                        uses.insert(name, abs.clone());
                    }
                    paths.push(abs);
                }
                i = j;
                continue;
            }
            i += 1;
        }
        files.push(File {
            module,
            paths,
            uses,
        });
    }
    files
}

/// `p` as a path from the crate root, read in module `here`.
fn absolute(here: &[String], p: &[String]) -> ModPath {
    let mut out: ModPath = if p[0] == "crate" {
        Vec::new()
    } else {
        here.to_vec()
    };
    let mut k = usize::from(p[0] == "crate");
    while k < p.len() && (p[k] == "super" || p[k] == "self") {
        if p[k] == "super" {
            out.pop();
        }
        k += 1;
    }
    out.extend(p[k..].iter().cloned());
    out
}

/// The module a path ends in: the longest prefix that is a module, after
/// following re-exports of the item after it (`crate::Position` is
/// `board::position::Position`).
fn owner(path: &[String], modules: &BTreeMap<ModPath, BTreeMap<String, ModPath>>) -> ModPath {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let k = (0..=path.len())
            .rev()
            .find(|&k| modules.contains_key(&path[..k]))
            .unwrap_or(0);
        let m = path[..k].to_vec();
        let Some(item) = path.get(k) else { return m };
        match modules[&m].get(item) {
            Some(target) if target.as_slice() != &path[..=k] => {
                let mut next = target.clone();
                next.extend(path[k + 1..].iter().cloned());
                path = next;
            }
            _ => return m,
        }
    }
    path
}

/// Edges between sibling modules: parent -> (from -> {to}).
type Edges = BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>>;

fn sibling_edges(files: &[File]) -> Edges {
    let modules: BTreeMap<ModPath, BTreeMap<String, ModPath>> = files
        .iter()
        .map(|f| (f.module.clone(), f.uses.clone()))
        .collect();
    let mut edges = Edges::new();
    for f in files {
        for p in &f.paths {
            let to = owner(p, &modules);
            let common = f.module.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < f.module.len() && common < to.len() {
                edges
                    .entry(f.module[..common].to_vec())
                    .or_default()
                    .entry(f.module[common].clone())
                    .or_default()
                    .insert(to[common].clone());
            }
        }
    }
    edges
}

/// A circle among one parent's children, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|s| s == n) {
            let mut c = stack[at..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if !done.insert(n.to_string()) {
            return None;
        }
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .into()
}

/// Every crate root of a member: the library, the binary, `src/bin/*`.
fn roots(member: &str) -> Vec<PathBuf> {
    let src = workspace().join(member).join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|p| p.exists())
        .collect();
    if let Ok(dir) = fs::read_dir(src.join("bin")) {
        roots.extend(dir.map(|e| e.unwrap().path()));
    }
    roots.sort();
    roots
}

/// The floors a member's `lib.rs` states, ground first: its doc lines
/// `//! N. `a`, `b`: ...` (the names in backquotes before the colon).
fn stated_floors(member: &str) -> Vec<Vec<String>> {
    let lib = fs::read_to_string(workspace().join(member).join("src/lib.rs")).unwrap();
    let mut floors = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("//! ") else {
            continue;
        };
        let Some((num, rest)) = rest.split_once(". ") else {
            continue;
        };
        if num.parse::<usize>() != Ok(floors.len() + 1) {
            continue;
        }
        let names = rest.split(':').next().unwrap();
        floors.push(
            names
                .split('`')
                .skip(1)
                .step_by(2)
                .map(String::from)
                .collect(),
        );
    }
    floors
}

/// Imports that climb today, each with what removes it. An entry that no
/// longer holds fails the test, so the list only shrinks (it is empty).
const CLIMBING: &[(&str, &str)] = &[];

/// The imports between `member`'s top-level modules that do not go down
/// its stated floors (at least `min_floors` of them), less `climbing`; and
/// the entries of `climbing` that still hold.
fn climbing_imports<'a>(
    member: &str,
    min_floors: usize,
    climbing: &[(&'a str, &'a str)],
) -> (Vec<String>, Vec<(&'a str, &'a str)>) {
    let floors = stated_floors(member);
    assert!(
        floors.len() >= min_floors,
        "{member}/src/lib.rs states its floors: {floors:?}"
    );
    let floor_of: BTreeMap<&str, usize> = floors
        .iter()
        .enumerate()
        .flat_map(|(k, f)| f.iter().map(move |m| (m.as_str(), k)))
        .collect();
    let files = crate_files(&workspace().join(member).join("src/lib.rs"));
    let top: BTreeSet<&str> = files
        .iter()
        .filter(|f| f.module.len() == 1)
        .map(|f| f.module[0].as_str())
        .collect();
    let listed: BTreeSet<&str> = floor_of.keys().copied().collect();
    assert_eq!(
        top, listed,
        "{member}/src/lib.rs lists every top-level module once"
    );
    let edges = sibling_edges(&files);
    let mut upward = Vec::new();
    let mut still = Vec::new();
    for (from, tos) in edges.get(&ModPath::new()).into_iter().flatten() {
        for to in tos {
            if floor_of[to.as_str()] >= floor_of[from.as_str()] {
                match climbing
                    .iter()
                    .find(|c| **c == (from.as_str(), to.as_str()))
                {
                    Some(c) => still.push(*c),
                    None => upward.push(format!("{from} -> {to}")),
                }
            }
        }
    }
    (upward, still)
}

#[test]
fn the_engine_imports_only_downwards() {
    let (upward, climbing) = climbing_imports("engine", 5, CLIMBING);
    assert!(upward.is_empty(), "imports that do not go down: {upward:?}");
    assert_eq!(
        climbing, CLIMBING,
        "a climbing import is gone: take it off CLIMBING"
    );
}

#[test]
fn the_match_runner_imports_only_downwards() {
    let (upward, _) = climbing_imports("matcher", 5, &[]);
    assert!(upward.is_empty(), "imports that do not go down: {upward:?}");
}

#[test]
fn no_crate_has_a_circle_of_modules() {
    let mut checked = 0;
    let mut circles = Vec::new();
    for member in ["engine", "matcher", "protocol", "gui", "bench", "fuzz"] {
        for root in roots(member) {
            let files = crate_files(&root);
            checked += files.len();
            for (parent, mut graph) in sibling_edges(&files) {
                if parent.is_empty() && member == "engine" {
                    for (from, to) in CLIMBING {
                        graph.get_mut(*from).map(|tos| tos.remove(*to));
                    }
                }
                // Take each circle found out, to report them all.
                while let Some(c) = circle(&graph) {
                    circles.push(format!(
                        "{} under `{}`: {}",
                        root.display(),
                        parent.join("::"),
                        c.join(" -> ")
                    ));
                    graph.get_mut(&c[0]).unwrap().remove(&c[1]);
                }
            }
        }
    }
    assert!(checked > 80, "{checked} files read");
    assert!(
        circles.is_empty(),
        "circles of modules:\n{}",
        circles.join("\n")
    );
}

/// The reader finds what it is meant to find: an upward import through a
/// re-export, one in a use tree, one from an inline test module, and no
/// edge from a child to its parent's own items.
#[test]
fn the_reader_sees_imports_in_every_form() {
    let dir = std::env::temp_dir().join(format!("floors-{}", std::process::id()));
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "mod low; mod high; mod mid; pub use high::Top;\n\
         // crate::high in a comment is no import\n",
    );
    write(
        "low/mod.rs",
        "mod leaf; pub struct Base;\nconst S: &str = \"crate::mid::X\";\n",
    );
    write(
        "low/leaf.rs",
        "use super::Base; fn f() -> char { '{' }\n\
         #[cfg(test)] mod tests { use super::super::Base; fn g() { crate::Top; } }\n",
    );
    write("mid.rs", "use crate::{low::{self, Base}};\n");
    write("high.rs", "pub struct Top; use crate::mid as m;\n");
    let files = crate_files(&dir.join("lib.rs"));
    fs::remove_dir_all(&dir).unwrap();
    let edges = sibling_edges(&files);
    let root = &edges[&ModPath::new()];
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        root["low"],
        set(&["high"]),
        "through the re-export, from a test module"
    );
    assert_eq!(root["mid"], set(&["low"]));
    assert_eq!(root["high"], set(&["mid"]));
    assert!(!edges.contains_key(&vec!["low".to_string()]), "{edges:?}");
    let c = circle(root).expect("low -> high -> mid -> low");
    assert_eq!((c.len(), c.first()), (4, c.last()), "{c:?}");
}
