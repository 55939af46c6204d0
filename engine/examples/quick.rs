use choro_engine::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().unwrap();
    let w: u8 = args[2].parse().unwrap();
    let d: u32 = args[3].parse().unwrap();
    let pos = Position::startpos(v, w).unwrap();
    pos.for_each_move(|m, p| println!("{m} {p}"));
    for depth in 1..=d {
        let t = std::time::Instant::now();
        let (c, s) = perft::perft(&pos, depth);
        println!(
            "depth {depth} paths {} unique {} {:?} {:.3}s",
            c.paths,
            c.unique,
            s,
            t.elapsed().as_secs_f64()
        );
    }
}
