//! The searchers' solver (`Solver::with_table`) runs on the calling thread
//! and starts none: threads started for each move's solve left their memory
//! behind them in the soak (RELIABILITY.md finding 17). This file holds one
//! test, so that the process's threads are the harness's and this test's.

use choro_engine::solve::table::FactTable;
use choro_engine::solve::{SolveLimits, Solver};
use choro_engine::{Opening, Position, Variant};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

fn threads_now() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

#[test]
fn the_searchers_solver_starts_no_thread_and_keeps_its_stop_and_time() {
    if threads_now() == 0 {
        eprintln!("no /proc/self/task here: nothing to count");
        return;
    }
    // Didinga 4x8 sequential takes seconds to solve: a quarter second is
    // cut short, by the solve's own look at the clock.
    let pos = Position::start(Variant::Didinga, 8, Opening::Sequential).unwrap();
    let solver = Solver::with_table(FactTable::new(4));
    let limits = SolveLimits {
        time: Some(Duration::from_millis(250)),
        ..SolveLimits::default()
    };
    let (stop, done, most) = (
        AtomicBool::new(false),
        AtomicBool::new(false),
        AtomicUsize::new(0),
    );
    let sol = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(threads_now(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        // The sampler is running before the solve starts.
        while most.load(Ordering::Relaxed) == 0 {
            std::thread::yield_now();
        }
        let base = threads_now();
        let sol = solver.solve(&pos, &limits, &stop, Duration::MAX, &mut |_| {});
        done.store(true, Ordering::Relaxed);
        (base, sol)
    });
    let (base, sol) = sol;
    let sol = sol.unwrap();
    assert!(sol.nodes > 0, "{sol:?}");
    assert_eq!(sol.value, None, "not solved in a quarter second: {sol:?}");
    assert_eq!(
        most.load(Ordering::Relaxed),
        base,
        "threads while solving beyond the {base} before"
    );
    // A stop set before the solve ends it at its first look.
    stop.store(true, Ordering::Relaxed);
    let long = SolveLimits::default();
    let sol = solver
        .solve(&pos, &long, &stop, Duration::MAX, &mut |_| {})
        .unwrap();
    assert_eq!(sol.value, None);
    assert!(sol.nodes <= 64, "{} nodes after a stop", sol.nodes);
}
