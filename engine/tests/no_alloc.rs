//! Move generation and make-move never touch the heap: a counting global
//! allocator sees no allocation while thousands of moves are generated and
//! played in random games of every code.

mod common;
use choro_engine::{Position, Variant};
use common::Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test's own thread is counted: the test harness's threads
    /// may allocate meanwhile (seen once, on a loaded machine: 4 allocations
    /// in a round whose moves, from a fixed seed, allocate nothing in other runs).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTED.with(Cell::get) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
        }
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn generating_and_playing_moves_does_not_allocate() {
    let starts: Vec<Position> = Variant::ALL
        .iter()
        .flat_map(|&v| v.widths().map(move |w| Position::startpos(v, w).unwrap()))
        // The simultaneous opening: blind choices and the race.
        .chain(
            Variant::ALL
                .iter()
                .filter(|v| v.is_choro())
                .map(|&v| Position::start(v, 8, choro_engine::Opening::Simultaneous).unwrap()),
        )
        .collect();
    let mut rng = Rng::new(7);
    let mut generated = 0u64;
    let mut played = 0u64;
    COUNTED.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    for round in 0..40 {
        for start in &starts {
            let mut p = *start;
            for _ in 0..60 {
                // Reservoir-sample one child without collecting them.
                let mut seen = 0usize;
                let mut pick = None;
                p.generate(choro_engine::LAP_BUDGET, |m, c, _| {
                    seen += 1;
                    if rng.below(seen) == 0 {
                        pick = Some((*m, *c));
                    }
                    true
                });
                generated += seen as u64;
                let Some((m, c)) = pick else { break };
                // Replaying the chosen move by its path finds the same child.
                let q = p.play(&m).ok();
                assert!(q == Some(c));
                played += 1;
                p = c;
            }
        }
        assert_eq!(
            ALLOCS.load(Ordering::SeqCst),
            before,
            "allocation in round {round}"
        );
    }
    assert!(generated > 10_000 && played > 2_000, "{generated} {played}");
}
