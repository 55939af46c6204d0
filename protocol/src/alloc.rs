//! The allocator setting the `choro` binary makes before anything else:
//! the one `unsafe` block of the protocol crate, a foreign call for memory
//! (not speed), kept in this module of its own.

/// Keep every large block (the transposition table, the MCTS arena, the
/// solver's facts) in a mapping of its own, given back whole when freed.
/// glibc raises its mmap threshold to the size of each mapped block freed
/// (up to 32 MiB); after a `Hash` change the next tables of up to that size
/// come from the heap, and their memory stays resident when they are freed
/// in turn: a process swinging `Hash` between 1 and 64 MiB held up to 79 MiB
/// above the current `Hash` (RELIABILITY.md finding 17). Setting the
/// threshold, at glibc's own starting value, stops the raising.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn keep_large_blocks_mapped() {
    const M_MMAP_THRESHOLD: i32 = -3;
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: `mallopt` sets one allocator parameter; it is called first
    // thing in `main`, before any other thread exists. A refusal (0) leaves
    // glibc's default behaviour, which is correct, only larger.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn keep_large_blocks_mapped() {}
