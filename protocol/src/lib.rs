//! The choro protocol (PROTOCOL.md): a UCI/UGI server over any reader and
//! writer, and the command-line tools that share its reports.
//!
//! A line is parsed into a [`Command`] (`command`), then
//! executed by the [`Server`] (`server`), which is generic
//! over its writer so that tests and fuzzers drive it through a `Vec<u8>`.
//! [`run`] feeds it from a byte stream with the line limits of `input`.
//!
//! The match runner (`choro match`, `choro replay`) and the part files of
//! split runs are the crate below this one, `choro-match`; `merge` puts
//! parts together, a solve's here and a match's there.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod bench;
pub mod command;
pub mod display;
pub mod eval;
pub mod input;
pub mod merge;
pub mod options;
pub mod perft;
pub mod playouts;
pub mod server;
pub mod solve;
pub mod trace;

pub(crate) use choro_match::text::clip;
pub use command::{parse, Command, ParseError};
pub use server::Server;

use std::io::{BufRead, Write};

/// Serve `input` until `quit` or its end, then stop any running search.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, server: &mut Server<W>) {
    let mut lines = input::LineReader::new(input, input::MAX_LINE);
    let mut number = 0u64;
    loop {
        number += 1;
        let go_on = match lines.next_line() {
            Ok(Some(input::Line::Text(s))) => server.command(&s),
            Ok(Some(input::Line::TooLong(len))) => {
                server.error(&format!(
                    "line {number}: {len} bytes, more than the limit of {} bytes; ignored",
                    input::MAX_LINE
                ));
                true
            }
            Ok(Some(input::Line::NotUtf8(at))) => {
                server.error(&format!(
                    "line {number}: not valid UTF-8 at byte {at}; ignored"
                ));
                true
            }
            // End of input, or input that can no longer be read, means quit.
            Ok(None) | Err(_) => false,
        };
        if !go_on || server.output_broken() {
            break;
        }
    }
    server.shutdown();
}
