//! Reader of `positions/perft/*.perft` (format documented at the top of each file).

pub struct PerftCase {
    pub file: String,
    pub id: String,
    pub pos: String,
    /// (depth, paths, unique)
    pub lines: Vec<(u32, u64, u64)>,
}

pub fn read_all() -> Vec<PerftCase> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../positions/perft");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "id" => out.push(PerftCase {
                    file: name.clone(),
                    id: rest.to_string(),
                    pos: String::new(),
                    lines: Vec::new(),
                }),
                "pos" => out.last_mut().unwrap().pos = rest.to_string(),
                "perft" => {
                    let n: Vec<u64> = rest
                        .split_whitespace()
                        .map(|x| x.parse().unwrap())
                        .collect();
                    assert_eq!(n.len(), 3, "{name}: {line}");
                    out.last_mut()
                        .unwrap()
                        .lines
                        .push((n[0] as u32, n[1], n[2]));
                }
                _ => panic!("{name}: unknown line {line}"),
            }
        }
    }
    out
}
