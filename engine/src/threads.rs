//! Threads that are joined, never detached.
//!
//! Dropping a Rust thread handle detaches the thread (`pthread_detach`).
//! glibc 2.36 (Debian 12) marks the thread detached and only then reads
//! its descriptor, which sits at the top of the thread's stack; a thread
//! that ends in that moment sees itself detached and gives its stack back,
//! and a stack too large for glibc's cache (the solver's 256 MiB) is
//! unmapped at once, so the read faults (RELIABILITY.md, finding 40: a
//! segfault at `pthread_detach + 28` in the protocol's `solve`). `join`
//! waits for the kernel to say that the thread has ended before it frees
//! anything, so every thread choro starts is joined: a [`Crew`] keeps the
//! handles of a scope's threads and joins each, on [`Crew::join`] or when
//! dropped (an early return included), and a panic in one of them goes on
//! in the joining thread as it would at the scope's end.

use std::thread::ScopedJoinHandle;

/// The handles of the threads started in one `std::thread::scope`, joined
/// together.
pub struct Crew<'scope, T> {
    handles: Vec<ScopedJoinHandle<'scope, T>>,
}

impl<'scope, T> Crew<'scope, T> {
    /// No thread yet.
    pub fn new() -> Self {
        Crew {
            handles: Vec::new(),
        }
    }

    /// Keep `handle` to join it later.
    pub fn push(&mut self, handle: ScopedJoinHandle<'scope, T>) {
        self.handles.push(handle);
    }

    /// How many threads are kept.
    pub fn len(&self) -> usize {
        self.handles.len()
    }

    /// Whether no thread is kept.
    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    /// Wait for every thread and return what each returned, in the order
    /// they were pushed; a thread's panic is raised again here.
    pub fn join(mut self) -> Vec<T> {
        let handles = std::mem::take(&mut self.handles);
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    }
}

impl<T> Default for Crew<'_, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Drop for Crew<'_, T> {
    /// Join every thread still kept; a panic among them is raised again
    /// unless this thread is already unwinding.
    fn drop(&mut self) {
        let mut panic = None;
        for h in self.handles.drain(..) {
            if let Err(p) = h.join() {
                panic.get_or_insert(p);
            }
        }
        if let Some(p) = panic {
            if !std::thread::panicking() {
                std::panic::resume_unwind(p);
            }
        }
    }
}

/// Join `handle` if its thread ends by `until`; otherwise leave the thread
/// running, its handle forgotten rather than dropped (a drop would detach
/// it, and it may be ending at that moment). For threads that end when
/// something outside the process lets them (a reader of a child's pipe);
/// `None` when the thread was left or panicked.
pub fn join_by<T>(handle: std::thread::JoinHandle<T>, until: std::time::Instant) -> Option<T> {
    while !handle.is_finished() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    if handle.is_finished() {
        handle.join().ok()
    } else {
        std::mem::forget(handle);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    /// `join` returns when every thread has ended, with their results in
    /// order.
    #[test]
    fn join_waits_for_every_thread() {
        let ended = AtomicUsize::new(0);
        let got = std::thread::scope(|s| {
            let mut crew = Crew::new();
            for i in 0..4 {
                let ended = &ended;
                crew.push(s.spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    ended.fetch_add(1, SeqCst);
                    i * 10
                }));
            }
            assert_eq!(crew.len(), 4);
            let got = crew.join();
            assert_eq!(ended.load(SeqCst), 4);
            got
        });
        assert_eq!(got, vec![0, 10, 20, 30]);
    }

    /// `join_by` joins a thread that ends in time and leaves one that does
    /// not.
    #[test]
    fn join_by_joins_in_time_or_leaves() {
        use std::time::{Duration, Instant};
        let quick = std::thread::spawn(|| 7);
        assert_eq!(
            join_by(quick, Instant::now() + Duration::from_secs(30)),
            Some(7)
        );
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let slow = std::thread::spawn(move || rx.recv().is_ok());
        assert_eq!(
            join_by(slow, Instant::now() + Duration::from_millis(20)),
            None
        );
        drop(tx);
    }

    /// A panic in a thread goes on in the thread that joins, on `join` and
    /// when the crew is dropped.
    #[test]
    fn a_thread_panic_is_raised_by_the_joiner() {
        for by_drop in [false, true] {
            let r = std::panic::catch_unwind(|| {
                std::thread::scope(|s| {
                    let mut crew = Crew::new();
                    crew.push(s.spawn(|| panic!("boom")));
                    if !by_drop {
                        crew.join();
                    }
                })
            });
            let p = r.expect_err("the panic was lost");
            assert_eq!(
                p.downcast_ref::<&str>(),
                Some(&"boom"),
                "by drop: {by_drop}"
            );
        }
    }
}
