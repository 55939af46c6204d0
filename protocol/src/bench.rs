//! `bench`, for the command line and the protocol alike.
//!
//! BENCH HOOK: the one place where `choro_engine::bench` will be called.
//! Until it lands, [`run`] reports that bench is not available; the
//! protocol turns that into `info string error: ...` and `choro bench` into
//! a message on standard error and exit status 1.

/// Run the bench, handing each output line to `emit`.
pub fn run(_emit: &mut dyn FnMut(&str)) -> Result<(), String> {
    Err("bench is not available yet".to_string())
}
