//! The choro protocol (PROTOCOL.md): a UCI/UGI server over any reader and
//! writer, and the command-line tools that share its reports.
//!
//! A line is parsed into a [`Command`](command::Command) (`command`), then
//! executed by the [`Server`](server::Server) (`server`), which is generic
//! over its writer so that tests and fuzzers drive it through a `Vec<u8>`.
//! [`run`] feeds it from a byte stream with the line limits of `input`.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod bench;
pub mod command;
pub mod display;
pub mod eval;
pub mod input;
pub mod matcher;
pub mod merge;
pub mod options;
pub mod parts;
pub mod perft;
pub mod playouts;
pub mod server;
pub mod solve;
pub mod trace;

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

/// At most 40 characters of user input for an error message, with control
/// characters escaped, so a long or binary token cannot flood the output.
/// Public for the GUI server (`choro-gui`), whose refusals quote the page's
/// input the same way.
pub fn clip(s: &str) -> String {
    one_line(s, 40)
}

/// At most `max` characters of `s`, `...` after a cut, with control
/// characters escaped: text from outside made safe for one output line.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
