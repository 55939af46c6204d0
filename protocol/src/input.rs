//! Reading input lines as bytes, with a cap on their length, so that a
//! 10 MB line or stray binary input costs one error line, not the memory
//! or the session.

use std::io::{self, BufRead};

/// The longest line kept (the line feed not counted): 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line feed and a carriage return before it.
    Text(String),
    /// A line longer than the cap, discarded; its length in bytes.
    TooLong(usize),
    /// A line that is not UTF-8; the offset of the first bad byte.
    NotUtf8(usize),
}

/// Splits a byte stream into [`Line`]s, holding at most `cap` bytes of one.
pub struct LineReader<R> {
    inner: R,
    cap: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, cap: usize) -> LineReader<R> {
        LineReader {
            inner,
            cap,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of input. A last line without a
    /// line feed still counts.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut len = 0usize;
        let mut over = false;
        let mut any = false;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (chunk, used, found) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            len = len.saturating_add(chunk.len());
            if !over {
                if self.buf.len() + chunk.len() > self.cap {
                    over = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            self.inner.consume(used);
            if found {
                break;
            }
        }
        if over {
            return Ok(Some(Line::TooLong(len)));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(Line::Text(s.to_owned()))),
            Err(e) => Ok(Some(Line::NotUtf8(e.valid_up_to()))),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        let mut r = LineReader::new(io::BufReader::with_capacity(7, input), cap);
        let mut v = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            v.push(l);
        }
        v
    }

    #[test]
    fn splits_lines_and_strips_crlf() {
        assert_eq!(
            lines(b"uci\r\nisready\n\nquit", 100),
            vec![
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text(String::new()),
                Line::Text("quit".into()),
            ]
        );
        assert_eq!(lines(b"", 100), vec![]);
    }

    #[test]
    fn discards_long_lines_whole_and_goes_on() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input, 20),
            vec![Line::TooLong(50), Line::Text("isready".into())]
        );
        // Exactly the cap is still a line.
        assert_eq!(lines(&[b'y'; 20], 20), vec![Line::Text("y".repeat(20))]);
    }

    #[test]
    fn reports_the_first_bad_byte() {
        assert_eq!(
            lines(b"go \xff\xfe\nd\n", 100),
            vec![Line::NotUtf8(3), Line::Text("d".into())]
        );
    }
}
